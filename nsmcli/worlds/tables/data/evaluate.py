"""Answer checking: the official WikiTableQuestions evaluator (v1.0.2) and MAPO's WikiSQL answer accuracy.

The WTQ rules are the dataset's own, restated here so that rewards during training and reported accuracy
agree with published numbers:

- a target is a *set* of values; each (original, canon) pair becomes a number if the canon parses as an
  int/float, else a date if it reads `yyyy-mm-dd` (`xx` for unknown fields; a year-only date is a number),
  else a string;
- predictions are stringified and typed the same way without a canon;
- the answer is correct iff both sets have the same size and every target matches some prediction
  (equal normalised text, numbers within 1e-6, or dates with identical year/month/day).

WikiSQL (MAPO's `wikisql_score`): both lists are normalised (numbers as floats, decimal-looking strings as
floats, other strings lower-cased) and compared as ordered lists, duplicates included.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

from nsmcli.worlds.tables.data.values import Date, format_number, normalize

__all__ = [
    "Value",
    "StringValue",
    "NumberValue",
    "DateValue",
    "match",
    "parse_number",
    "parse_date",
    "to_value",
    "to_value_list",
    "check_denotation",
    "wtq_correct",
    "prediction_text",
    "wikisql_normalize_answer",
    "wikisql_process_answer",
    "wikisql_correct",
    "unescape_tsv",
    "split_tsv_list",
]

NUMBER_TOLERANCE = 1e-6


# --------------------------------------------------------------------------------------------------------
# WTQ values


class Value:
    """A typed answer item. `normalized` is the official normalised text used for string matching."""

    __slots__ = ("_normalized",)

    def __init__(self, normalized: str) -> None:
        self._normalized = normalized

    @property
    def normalized(self) -> str:
        return self._normalized

    def match(self, other: Value) -> bool:
        """True when `self` (a target) is matched by `other` (a prediction)."""
        return self._normalized == other._normalized


class StringValue(Value):
    """A string answer; equal (and hashed) by its normalised text."""

    __slots__ = ()

    def __init__(self, content: str) -> None:
        super().__init__(normalize(content))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StringValue) and self.normalized == other.normalized

    def __hash__(self) -> int:
        return hash(self.normalized)

    def __repr__(self) -> str:
        return f"S({self.normalized!r})"


class NumberValue(Value):
    """A number answer; equal (and hashed) by amount, which is an int when within 1e-6 of an integer."""

    __slots__ = ("_amount",)

    def __init__(self, amount: float, original: str | None = None) -> None:
        if abs(amount - round(amount)) < NUMBER_TOLERANCE:
            # `int`, not `round`, as in the official code: 2.9999999 becomes 2 (see `prediction_text`).
            self._amount: int | float = int(amount)
        else:
            self._amount = float(amount)
        # The official evaluator falls back to the amount's text when there is no (non-empty) original.
        super().__init__(normalize(original) if original else _py2_number_text(self._amount))

    @property
    def amount(self) -> int | float:
        return self._amount

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NumberValue) and self.amount == other.amount

    def __hash__(self) -> int:
        return hash(self.amount)

    def __repr__(self) -> str:
        return f"N({self.amount!r}, {self.normalized!r})"

    def match(self, other: Value) -> bool:
        if self.normalized == other.normalized:
            return True
        return isinstance(other, NumberValue) and abs(self.amount - other.amount) < NUMBER_TOLERANCE


class DateValue(Value):
    """A date answer with -1 for unknown fields; equal (and hashed) by (year, month, day)."""

    __slots__ = ("_ymd",)

    def __init__(self, year: int, month: int, day: int, original: str | None = None) -> None:
        if not (month == -1 or 1 <= month <= 12) or not (day == -1 or 1 <= day <= 31):
            raise ValueError(f"invalid date fields {(year, month, day)}")
        if year == month == day == -1:
            raise ValueError("a date needs at least one known field")
        self._ymd = (year, month, day)
        if original:
            text = normalize(original)
        else:
            text = "-".join("xx" if v == -1 else str(v) for v in self._ymd)
        super().__init__(text)

    @property
    def ymd(self) -> tuple[int, int, int]:
        return self._ymd

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DateValue) and self.ymd == other.ymd

    def __hash__(self) -> int:
        return hash(self.ymd)

    def __repr__(self) -> str:
        return f"D({self.ymd}, {self.normalized!r})"

    def match(self, other: Value) -> bool:
        if self.normalized == other.normalized:
            return True
        return isinstance(other, DateValue) and self.ymd == other.ymd


def _py2_number_text(amount: int | float) -> str:
    """What Python 2's `unicode(amount)` printed (12 significant digits for floats)."""
    return str(amount) if isinstance(amount, int) else f"{amount:.12g}"


def match(target: Value, prediction: Value) -> bool:
    """The official matching rule: equal normalised text, numbers within 1e-6, or identical dates."""
    return target.match(prediction)


_PY3_ONLY_NUMBER = re.compile(r"_")


def parse_number(text: str) -> int | float | None:
    """`int(text)`, else `float(text)` when finite, as the (Python 2) official evaluator parsed numbers.

    Python 3 also accepts digit-group underscores (`1_000`); Python 2 did not, so neither do we.
    """
    if _PY3_ONLY_NUMBER.search(text):
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        amount = float(text)
    except ValueError:
        return None
    if math.isnan(amount) or math.isinf(amount):
        return None
    return amount


def parse_date(text: str) -> tuple[int, int, int] | None:
    """`yyyy-mm-dd` with `xx`/`xxxx` for unknown fields, or None (the official rule)."""
    date = Date.parse(text)
    return None if date is None else (date.year, date.month, date.day)


def to_value(original: str | Value, canon: str | None = None) -> Value:
    """Type one answer item. The canon (the dataset's `targetCanon`), when given, decides the type."""
    if isinstance(original, Value):
        return original
    if not canon:
        canon = original
    amount = parse_number(canon)
    if amount is not None:
        return NumberValue(amount, original)
    ymd = parse_date(canon)
    if ymd is not None:
        year, month, day = ymd
        if month == day == -1:
            return NumberValue(year, original)
        return DateValue(year, month, day, original)
    return StringValue(original)


def to_value_list(originals: Sequence[str | Value], canons: Sequence[str] | None = None) -> list[Value]:
    """Type a list of answer items and drop duplicates (answers are sets)."""
    if canons is not None:
        if len(originals) != len(canons):
            raise ValueError(f"{len(originals)} answer items but {len(canons)} canonical forms")
        values = {to_value(x, y) for x, y in zip(originals, canons, strict=True)}
    else:
        values = {to_value(x) for x in originals}
    return list(values)


def check_denotation(targets: Sequence[Value], predictions: Sequence[Value]) -> bool:
    """Correct iff the (deduplicated) lists have the same size and every target matches a prediction."""
    if len(targets) != len(predictions):
        return False
    return all(any(t.match(p) for p in predictions) for t in targets)


def prediction_text(item: Any) -> str:
    """How an executor result item is stringified before typing: numbers via `format_number`, dates as
    `yyyy-mm-dd` with `xx`.

    A float that is an integer up to 12 significant digits (arithmetic noise such as 2.9999999999999996)
    prints as that integer, as MAPO's Python 2 `unicode(p)` did; otherwise the official evaluator would
    truncate it to 2 and mark a correct sum wrong.
    """
    if isinstance(item, str):
        return item
    if isinstance(item, bool):
        return str(item)
    if isinstance(item, float):
        if not math.isfinite(item):
            return str(item)
        if not item.is_integer():
            short = float(f"{item:.12g}")
            if short.is_integer():
                item = short
        return format_number(item)
    if isinstance(item, int):
        return str(item)
    return str(item)


def wtq_correct(
    target_values: Sequence[str], target_canon: Sequence[str] | None, predicted: Iterable
) -> bool:
    """The WTQ reward and accuracy: is the executed answer (`str`, number or `Date` items) the target set?"""
    targets = to_value_list(list(target_values), None if target_canon is None else list(target_canon))
    predictions = to_value_list([prediction_text(p) for p in predicted])
    return check_denotation(targets, predictions)


# --------------------------------------------------------------------------------------------------------
# WikiSQL

_DECIMAL = re.compile(r"[+-]?(?:\d[\d,]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def wikisql_normalize_answer(item: Any) -> float | str | None:
    """One answer item as MAPO compares it: numbers (and decimal-looking strings, `1,234` included) become
    floats, other strings are lower-cased and stripped; None stays None (and is dropped by the caller).

    Items of other types are compared by their lower-cased text rather than silently dropped.
    """
    if item is None:
        return None
    if isinstance(item, bool):
        return str(item).lower()
    if isinstance(item, int | float):
        return float(item)
    text = str(item).strip()
    if _DECIMAL.fullmatch(text):
        try:
            return float(text.replace(",", ""))
        except ValueError:
            pass
    return text.lower()


def wikisql_process_answer(answer: Iterable) -> list[float | str]:
    """Normalise every item in order, dropping None."""
    out = []
    for item in answer:
        value = wikisql_normalize_answer(item)
        if value is not None:
            out.append(value)
    return out


def wikisql_correct(gold: Iterable, predicted: Iterable) -> bool:
    """WikiSQL execution accuracy as MAPO reports it: ordered list equality after normalisation."""
    return wikisql_process_answer(gold) == wikisql_process_answer(predicted)


# --------------------------------------------------------------------------------------------------------
# WTQ TSV fields

_TSV_ESCAPES = {"n": "\n", "p": "|", "\\": "\\"}


def unescape_tsv(field: str) -> str:
    """Undo the WTQ TSV escaping: `\\n` newline, `\\p` pipe, `\\\\` backslash (other `\\x` kept as is)."""
    if "\\" not in field:
        return field
    out: list[str] = []
    i = 0
    while i < len(field):
        c = field[i]
        if c == "\\" and i + 1 < len(field) and field[i + 1] in _TSV_ESCAPES:
            out.append(_TSV_ESCAPES[field[i + 1]])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def split_tsv_list(field: str) -> list[str]:
    """Split a `|`-separated WTQ list field (e.g. `targetValue`) and unescape each item."""
    return [unescape_tsv(x) for x in field.split("|")]
