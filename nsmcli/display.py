"""How answers are shown to a person: the table's own cell text where the answer was read from cells,
computed numbers rounded for reading (`20.2`, not `20.200000000000003`; `5`, not `5.0`).

Display only: the evaluator, preprocessing and the model read values through `nsmcli.worlds.tables.data.values` and
`nsmcli.worlds.tables.data.evaluate.prediction_text`, never through this module.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: Float noise is dropped at this many significant digits (`20.200000000000003` is 20.2) ...
NOISE_DIGITS = 12
#: ... and a computed non-integer keeps at most this many decimals (an average: `7.636364`).
MAX_DECIMALS = 6

#: How an answer that is one empty cell is shown in text output (JSON keeps the empty string).
EMPTY_CELL = "(empty cell)"


def number_text(value: float | int) -> str:
    """A computed number for reading: integers in full (`5`, not `5.0`), others without float noise and
    with at most `MAX_DECIMALS` decimals; `-0` as `0`."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        return str(value)
    if value != 0 and abs(value) < 10**-MAX_DECIMALS:
        return f"{value:.3g}"  # tiny values keep three significant digits rather than reading as 0
    if not value.is_integer():
        value = float(f"{value:.{NOISE_DIGITS}g}")
    if value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    text = f"{value:.{MAX_DECIMALS}f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def value_text(value: Any) -> str:
    """One answer value (a string, number or date of the interpreter) as a person reads it."""
    if isinstance(value, float | int) and not isinstance(value, bool):
        return number_text(value)
    return str(value)  # a string, or a Date as `yyyy-mm-dd` (`xx` for unknown fields)


#: A quantity cell whose style a computed number can take: an optional sign or accounting parentheses, one
#: currency symbol, digits with comma thousands and a point decimal, an optional percent sign.
_STYLED_CELL = re.compile(
    r"\(?[-−+]?(?P<prefix>[$€£¥]?)[-−]?(?P<digits>\d{1,3}(?P<groups>(?:,\d{3})+)|\d+)(?:\.(?P<decimals>\d+))?"
    r"(?P<suffix>%?)\)?"
)


@dataclass(frozen=True)
class NumberStyle:
    """How a column writes its quantities: `$1,234.50` is prefix `$`, thousands `,`, 2 decimals."""

    prefix: str
    suffix: str
    thousands: bool
    decimals: int

    def format(self, value: float, decimals: int) -> str:
        """`value` with `decimals` decimals; those beyond the column's own are dropped when zero."""
        text = f"{abs(value):{',' if self.thousands else ''}.{decimals}f}"
        if decimals > self.decimals:
            whole, _, fraction = text.partition(".")
            fraction = fraction.rstrip("0").ljust(self.decimals, "0")
            text = whole + ("." + fraction if fraction else "")
        sign = "-" if value < 0 and any(d in text for d in "123456789") else ""
        return f"{sign}{self.prefix}{text}{self.suffix}"


def number_style(cells: Sequence[str]) -> NumberStyle | None:
    """The style every quantity cell of a column shares (empty cells aside), or None when they differ in
    symbol or are not plain quantities (European decimals, `2.5M`, scores): nothing is guessed."""
    matches = [_STYLED_CELL.fullmatch(c.strip()) for c in cells if c.strip()]
    found = [m for m in matches if m is not None]
    if not found or len(found) != len(matches):
        return None
    prefixes, suffixes = {m["prefix"] for m in found}, {m["suffix"] for m in found}
    if len(prefixes) != 1 or len(suffixes) != 1:
        return None
    decimals = Counter(len(m["decimals"] or "") for m in found).most_common(1)[0][0]
    return NumberStyle(prefixes.pop(), suffixes.pop(), any(m["groups"] for m in found), decimals)


def styled_number(value: Any, cells: Sequence[str], function: str = "") -> str | None:
    """A computed number written as its column writes quantities (`$5,620.25` for a sum of `$1,234.50`
    cells), or None when the column has no one style. An average gets at least two decimals (those beyond
    the cells' own dropped when zero); a sum or difference that needs more decimals than the cells keeps
    them. The exact value stays in the answer itself."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    style = number_style(cells)
    if style is None or abs(value) >= 1e15:
        return None
    exact = number_text(value).partition(".")[2]  # the decimals the value needs, noise dropped
    if function == "average":
        decimals = max(style.decimals, 2)
    else:
        decimals = min(max(style.decimals, len(exact)), MAX_DECIMALS)
    return style.format(value, decimals)


def display_values(
    answer: list, cells: list[str] | None, unit: tuple[str, Sequence[str]] | None = None
) -> list[str]:
    """The answer as shown: the cells it was read from when there are any (see
    `nsmcli.worlds.tables.lang.interpreter.answer_cells`), else each computed value rounded for reading;
    with `unit` (the function and the cells of the column whose unit a sum, average or difference keeps:
    `interpreter.unit_column`) in that column's style when it has one."""
    if cells is not None:
        return list(cells)
    if unit is not None:
        styled = [styled_number(v, unit[1], unit[0]) for v in answer]
        if all(s is not None for s in styled):
            return [s for s in styled if s is not None]
    return [value_text(v) for v in answer]


def step_text(step: dict, shown: int = 8) -> str:
    """An intermediate result (from `nsmcli.worlds.tables.lang.interpreter.describe_step`) for a table of steps:
    `string_list: a, b`, or for a row set one line per row with its first cells
    (`row 11: 11 | Kenya | 2 | 0`)."""
    values = step["values"]
    more = f"\n... {len(values)} in all" if len(values) > shown else ""
    if step["type"] == "entity_list" and not values:
        return "no rows"
    if step.get("rows"):
        lines = [
            f"{value}: {' | '.join(list(cells.values())[:4])[:60]}"
            for value, cells in zip(values[:shown], step["rows"], strict=False)
        ]
        return f"{len(values)} row{'s' if len(values) != 1 else ''}\n" + "\n".join(lines) + more
    return f"{step['type']}: " + ", ".join(value_text(v) or EMPTY_CELL for v in values[:shown]) + more
