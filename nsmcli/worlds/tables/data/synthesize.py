"""Templated questions with known programs over a dataset's own training tables.

WikiTableQuestions holds few of the questions people ask of their spreadsheets: sums over the rows a value
selects ("how many units did Harbor Supply buy in total?"), averages, rows above or below a threshold, and
counts of them. Of its 11,321 random-split-1 training questions, a few hundred have a consistent program that
sums, so a model trained on it answers a user's "total" with `count`. This module writes such questions
over the training tables themselves, each with the program that answers it and the answer that program
gives, so training sees them with their program in the buffer from the first step.

Each template is declared once (`TEMPLATES`): the question forms it may take and the program shape they all
mean. A question is kept only when, annotated like any other (`annotate_question`), its own entities
express the program (the value it names links to the cell, the number it states becomes a number entity),
and the program earns the reward: a template never makes a question the parser could not learn from.

The synthetic split is the base split plus these questions, written into a new dataset directory beside
every file of the original, with a program file (the base programs plus the templates' ones) for
`nsm train --programs`. Dev and test splits are never touched.
"""

from __future__ import annotations

import bisect
import calendar
import itertools
import json
import math
import random
import re
import shutil
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from nsmcli.errors import DataError, GrammarError
from nsmcli.fileio import (
    atomic_write_json,
    atomic_write_jsonl,
    output_lock,
    read_program_file,
    staged_directory,
)
from nsmcli.worlds.tables.data.annotate import annotate_question, canonicalize_answer
from nsmcli.worlds.tables.data.preprocess import Dataset, Example, load_dataset, table_record
from nsmcli.worlds.tables.data.table import Column, Table
from nsmcli.worlds.tables.data.values import Date
from nsmcli.worlds.tables.lang.interpreter import bind

#: A header that reads as words in a question ("attendance", "gold medals", "points for").
_WORDY_HEADER = re.compile(r"[a-z][a-z .'/-]{0,28}[a-z]")
#: A cell a question can name as it is written.
_NAMEABLE_CELL = re.compile(r"[A-Za-z][A-Za-z0-9 .,'&()/-]{0,38}[A-Za-z0-9.)]")
#: A cell that is a quantity and nothing else: `18,204`, `-3.5`, `$1,234.50`, `12%`.
_PLAIN_QUANTITY = re.compile(r"[-+−]?[$€£]?\d{1,3}(?:,\d{3})*(?:\.\d+)?%?|[-+−]?[$€£]?\d+(?:\.\d+)?%?")
#: Headers of positions and identifiers, whose numbers are not quantities.
_ORDINAL_HEADER = re.compile(
    r"\b(?:rank|ranking|no|nos|pos|position|place|week|round|pick|heat|lane|series|season|year|years|"
    r"district|game|match|number|episode|seed|order|stage|race|bib|overall|jersey|draw|drawing|ref|code|id|"
    r"class|grade|level|zone|route|division|track|chapter|volume|edition|date|day|month|age|born|height)\b"
)
#: A row of totals: summing or averaging over every row would count it twice.
_TOTAL_ROW = re.compile(r"\b(?:total|totals|sum|overall|all)\b")


@dataclass(frozen=True)
class Slots:
    """What a question form is filled with: a numeric column `n`, a column `c` that names rows, values of
    `c` (`v`, `a`, `b`), a threshold `x` and another column `d` whose cell a lookup asks for."""

    n: str = ""
    c: str = ""
    cs: str = ""
    v: str = ""
    a: str = ""
    b: str = ""
    x: str = ""
    d: str = ""


@dataclass(frozen=True)
class Template:
    """One question type: its forms (str.format over `Slots`) and the program shape they all mean."""

    name: str
    forms: tuple[str, ...]
    program: str
    #: what the template needs of the table: a selecting value (`v`, shared by 2 rows or more), two unique
    #: rows (`a`, `b`), one unique row and another column (`ad`), a threshold (`x`), rows named one by one
    #: (`rows`), a month or two days of the table's one column of whole dates (`month`, `days`), or none of
    #: them (every row)
    needs: str
    #: whether `a` is the row with the larger number ("how much more did A have than B"); else `a` and `b`
    #: come in either order, so that which one the question names first tells nothing
    larger_first: bool = False
    #: the view of the column `n` it compares: a quantity ("number") or a full date ("date")
    measure: str = "number"
    #: where a threshold `x` falls: strictly "between" two neighbouring values (so "more than" and "at least"
    #: keep the same rows), or on a "value" of the column that is neither its least nor its greatest (so
    #: they do not, and only the comparison the question states earns the reward)
    threshold: str = "between"
    #: whether the question is asked of the table as the user rules read it (`user_reading`): a month
    #: `xxxx-02-xx` keeps the dates within February only there (the official rules match a month cell)
    user_reading: bool = False


_ROWS_ABOVE = (
    "which {c} had more than {x} {n}?",
    "which {c} had a {n} above {x}?",
    "list the {cs} with over {x} {n}.",
)
_ROWS_BELOW = (
    "which {c} had fewer than {x} {n}?",
    "which {c} had a {n} below {x}?",
    "list the {cs} with under {x} {n}.",
)
_COUNT_ABOVE = ("how many {cs} had more than {x} {n}?", "how many {cs} have a {n} above {x}?")
_COUNT_BELOW = ("how many {cs} had fewer than {x} {n}?", "how many {cs} have a {n} below {x}?")

TEMPLATES: tuple[Template, ...] = (
    Template(
        "sum_of_selected",
        (
            "what is the total {n} of {v}?",
            "how many {n} did {v} have in total?",
            "what was the combined {n} for {v}?",
            "what is the sum of the {n} for {v}?",
            "in total, how much {n} for {v}?",
        ),
        '(filter_str_contain_any all_rows "{V}" {C}) (sum v0 {N})',
        "v",
    ),
    Template(
        "sum_of_all",
        ("what is the total {n}?", "what is the sum of all {n}?", "how much {n} is there in total?"),
        "(sum all_rows {N})",
        "",
    ),
    Template(
        "average_of_selected",
        (
            "what is the average {n} of {v}?",
            "what was the mean {n} for {v}?",
            "on average, what {n} did {v} have?",
        ),
        '(filter_str_contain_any all_rows "{V}" {C}) (average v0 {N})',
        "v",
    ),
    Template(
        "average_of_all",
        ("what is the average {n}?", "what was the mean {n}?", "on average, how much {n}?"),
        "(average all_rows {N})",
        "",
    ),
    Template("rows_above", _ROWS_ABOVE, "(filter_greater all_rows {X} {N}) (hop v0 {C})", "x"),
    Template("rows_below", _ROWS_BELOW, "(filter_less all_rows {X} {N}) (hop v0 {C})", "x"),
    Template("count_above", _COUNT_ABOVE, "(filter_greater all_rows {X} {N}) (count v0)", "x"),
    Template("count_below", _COUNT_BELOW, "(filter_less all_rows {X} {N}) (count v0)", "x"),
    # the same questions with a threshold that a row holds: "more than 20" leaves out the row of 20
    Template(
        "rows_above_a_value",
        _ROWS_ABOVE,
        "(filter_greater all_rows {X} {N}) (hop v0 {C})",
        "x",
        threshold="value",
    ),
    Template(
        "rows_below_a_value",
        _ROWS_BELOW,
        "(filter_less all_rows {X} {N}) (hop v0 {C})",
        "x",
        threshold="value",
    ),
    Template(
        "count_above_a_value",
        _COUNT_ABOVE,
        "(filter_greater all_rows {X} {N}) (count v0)",
        "x",
        threshold="value",
    ),
    Template(
        "count_below_a_value",
        _COUNT_BELOW,
        "(filter_less all_rows {X} {N}) (count v0)",
        "x",
        threshold="value",
    ),
    Template(
        "rows_at_least",
        (
            "which {c} had at least {x} {n}?",
            "list the {cs} with {x} {n} or more.",
            "which {c} had a {n} of {x} or more?",
        ),
        "(filter_ge all_rows {X} {N}) (hop v0 {C})",
        "x",
        threshold="value",
    ),
    Template(
        "rows_at_most",
        (
            "which {c} had at most {x} {n}?",
            "list the {cs} with {x} {n} or fewer.",
            "which {c} had a {n} of {x} or less?",
        ),
        "(filter_le all_rows {X} {N}) (hop v0 {C})",
        "x",
        threshold="value",
    ),
    Template(
        "count_at_least",
        ("how many {cs} had at least {x} {n}?", "how many {cs} have a {n} of {x} or more?"),
        "(filter_ge all_rows {X} {N}) (count v0)",
        "x",
        threshold="value",
    ),
    Template(
        "count_at_most",
        ("how many {cs} had at most {x} {n}?", "how many {cs} have a {n} of {x} or less?"),
        "(filter_le all_rows {X} {N}) (count v0)",
        "x",
        threshold="value",
    ),
    Template(
        "difference",
        ("how much more {n} did {a} have than {b}?", "what is the difference in {n} between {a} and {b}?"),
        '(filter_str_contain_any all_rows "{A}" {C}) (filter_str_contain_any all_rows "{B}" {C}) (diff v0 v1 {N})',
        "ab",
        larger_first=True,
    ),
    # "A or B" is one question entity of both values (annotate's either-or pairs), so one filter keeps both
    Template(
        "either_or_more",
        (
            "which {c} had more {n}, {a} or {b}?",
            "who had the higher {n}, {a} or {b}?",
            "which had a larger {n}: {a} or {b}?",
            "{a} or {b}: which {c} had more {n}?",
        ),
        '(filter_str_contain_any all_rows ["{A}" "{B}"] {C}) (argmax v0 {N}) (hop v1 {C})',
        "ab",
    ),
    Template(
        "either_or_less",
        (
            "which {c} had fewer {n}, {a} or {b}?",
            "who had the lower {n}, {a} or {b}?",
            "which had a smaller {n}: {a} or {b}?",
        ),
        '(filter_str_contain_any all_rows ["{A}" "{B}"] {C}) (argmin v0 {N}) (hop v1 {C})',
        "ab",
    ),
    Template(
        "lookup",
        ("what is the {d} of {a}?", "what was {a}'s {d}?", "what {d} did {a} have?"),
        '(filter_str_contain_any all_rows "{A}" {C}) (hop v0 {D})',
        "ad",
    ),
    Template(
        "either_or_earlier",
        (
            "which {c} had the earlier {n}, {a} or {b}?",
            "whose {n} came first, {a} or {b}?",
            "{a} or {b}: which {c} had the earlier {n}?",
        ),
        '(filter_str_contain_any all_rows ["{A}" "{B}"] {C}) (argmin v0 {N}) (hop v1 {C})',
        "ab",
        measure="date",
    ),
    Template(
        "either_or_later",
        ("which {c} had the later {n}, {a} or {b}?", "whose {n} came last, {a} or {b}?"),
        '(filter_str_contain_any all_rows ["{A}" "{B}"] {C}) (argmax v0 {N}) (hop v1 {C})',
        "ab",
        measure="date",
    ),
    Template(
        "earliest",
        ("which {c} had the earliest {n}?", "which {c} came first by {n}?"),
        "(argmin all_rows {N}) (hop v0 {C})",
        "rows",
        measure="date",
    ),
    Template(
        "latest",
        ("which {c} had the latest {n}?", "which {c} has the most recent {n}?"),
        "(argmax all_rows {N}) (hop v0 {C})",
        "rows",
        measure="date",
    ),
    Template(
        "most",
        ("which {c} had the most {n}?", "which {c} had the highest {n}?", "what {c} has the largest {n}?"),
        "(argmax all_rows {N}) (hop v0 {C})",
        "rows",
    ),
    Template(
        "least",
        ("which {c} had the fewest {n}?", "which {c} had the lowest {n}?", "what {c} has the smallest {n}?"),
        "(argmin all_rows {N}) (hop v0 {C})",
        "rows",
    ),
    # months and days of the table's one column of whole dates (`t`, `T`), on its user reading
    Template(
        "count_in_month",
        (
            "how many {cs} were there in {month}?",
            "in {month}, how many {cs} were there?",
            "how many {cs} had a {t} in {month}?",
        ),
        "(filter_eq all_rows {M} {T}) (count v0)",
        "month",
        user_reading=True,
    ),
    Template(
        "rows_in_month",
        ("which {cs} were in {month}?", "list the {cs} from {month}.", "which {c} had a {t} in {month}?"),
        "(filter_eq all_rows {M} {T}) (hop v0 {C})",
        "month",
        user_reading=True,
    ),
    Template(
        "sum_in_month",
        (
            "what was the total {n} in {month}?",
            "how much {n} was there in {month} altogether?",
            "in {month}, what was the combined {n}?",
        ),
        "(filter_eq all_rows {M} {T}) (sum v0 {N})",
        "month",
        user_reading=True,
    ),
    Template(
        "count_between_days",
        (
            "how many {cs} were there between {d1} and {d2}?",
            "how many {cs} had a {t} between {d1} and {d2}?",
            "from {d1} to {d2}, how many {cs} were there?",
        ),
        "(filter_ge all_rows {D1} {T}) (filter_le v0 {D2} {T}) (count v1)",
        "days",
        user_reading=True,
    ),
)

#: What a table id gets for its user-rule reading in a synthesized dataset (`user_reading`).
USER_READING_SUFFIX = "#user"


def user_reading(table: Table) -> Table:
    """The table as the user rules read it, under its own id (`USER_READING_SUFFIX`)."""
    return Table.from_rows(table.id + USER_READING_SUFFIX, table.header, table.rows, value_rules="user")


@dataclass
class SynthesisSummary:
    """What `synthesize` wrote."""

    out: str
    split: str
    base_examples: int
    added: int
    by_template: dict[str, int] = field(default_factory=dict)
    rejected: dict[str, int] = field(default_factory=dict)
    programs_file: str = ""

    def to_json(self) -> dict:
        return dict(self.__dict__)


def _words(header: str) -> str | None:
    text = " ".join(header.lower().split()).rstrip(".")
    return text if _WORDY_HEADER.fullmatch(text) else None


def _plural(words: str) -> str:
    if words.endswith(("s", "x", "ch", "sh")):
        return words + "es" if not words.endswith("s") else words
    if words.endswith("y") and not words.endswith(("ay", "ey", "oy", "uy")):
        return words[:-1] + "ies"
    return words + "s"


def _numeric_columns(table: Table) -> list[Column]:
    """Measures: columns whose every cell is a plain number (a quantity one sums, averages or compares),
    whose header reads as words and does not name a position or an identifier (rank, week, pick, year),
    and whose values are not the row numbers 1..n (years have a date view, which excludes them too)."""
    measures = []
    for c in table.columns:
        words = _words(c.header)
        if not words or _ORDINAL_HEADER.search(words) or "number" not in c.views or "date" in c.views:
            continue
        numbers = c.views["number"]
        if None in numbers or not all(_PLAIN_QUANTITY.fullmatch(r.strip()) for r in c.raw):
            continue
        if sorted(numbers) == [float(k) for k in range(1, len(numbers) + 1)]:
            continue
        measures.append(c)
    return measures


def _date_columns(table: Table) -> list[Column]:
    """Columns of whole dates (day, month and year in every cell) whose header reads as words: the ones a
    question calls earlier or later."""
    return [
        c
        for c in table.columns
        if _words(c.header)
        and "date" in c.views
        and all(d is not None and not d.has_unknown_fields for d in c.views["date"])
        and len(set(c.views["date"])) > 1
    ]


def _order_key(value: float | Date) -> float | tuple[int, int, int]:
    """What a column's values are compared by (a date by its fields; a column holds one kind)."""
    return value.sort_key if isinstance(value, Date) else value


def _naming_columns(table: Table) -> list[Column]:
    """Text columns whose header reads as words: they name rows (`c`) and hold the values a question
    selects by (`v`, `a`, `b`)."""
    return [
        c for c in table.columns if "number" not in c.views and "date" not in c.views and _words(c.header)
    ]


def _threshold(values: list[float], rng: random.Random, where: str = "between") -> tuple[str, float] | None:
    """A threshold (as a question writes it, and its value): for `where="between"` a whole number strictly
    between two neighbouring distinct values, for `"value"` one of the values other than the least and the
    greatest; None when there is none."""
    distinct = sorted(set(values))
    if where == "value":
        candidates = [v for v in distinct[1:-1] if v == int(v)]  # a question writes a whole number
    else:
        candidates = [
            math.floor(lo) + 1 for lo, hi in itertools.pairwise(distinct) if math.floor(lo) + 1 < hi
        ]
    if not candidates:
        return None
    x = int(rng.choice(candidates))
    return (f"{x:,}" if x >= 10000 and rng.random() < 0.5 else str(x)), float(x)


def _dated(table: Table) -> Column | None:
    """The table's one column of whole dates; None for none or several ("in march" would not say which)."""
    dated = _date_columns(table)
    return dated[0] if len(dated) == 1 else None


def _dated_slots(t: Column) -> dict[str, str]:
    """The slots of the dated column: its words in a question (`t`) and its date property (`T`)."""
    return {"t": _words(t.header) or "", "T": t.property_name("date")}


def _month(table: Table, template: Template, rng: random.Random) -> dict[str, str] | None:
    """A month (`month`, `M`) of the dated column (`t`, `T`) that holds some rows but not all (two or more
    for a sum)."""
    t = _dated(table)
    if t is None:
        return None
    months = Counter(d.month for d in t.views["date"])
    least = 2 if "{N}" in template.program else 1
    choices = sorted(m for m, k in months.items() if least <= k < len(t.views["date"]))
    if not choices:
        return None
    m = rng.choice(choices)
    return {**_dated_slots(t), "month": calendar.month_name[m].lower(), "M": str(Date(-1, m, -1))}


def _days(table: Table, rng: random.Random) -> dict[str, str] | None:
    """Two days of the year (`d1` before `d2`, as "march 10", and `D1`, `D2`) of the dated column's rows,
    between which (both included, in each row's own year) lie some rows but not all."""
    t = _dated(table)
    if t is None:
        return None
    keys = sorted((d.month, d.day) for d in t.views["date"])
    days = sorted(set(keys))
    # rows from day a to day b, both included, counted by bisection rather than a scan per pair
    within = [
        (a, b)
        for a, b in itertools.combinations(days, 2)
        if bisect.bisect_right(keys, b) - bisect.bisect_left(keys, a) < len(keys)
    ]
    if not within:
        return None
    (m1, d1), (m2, d2) = rng.choice(within)
    return {
        **_dated_slots(t),
        "d1": f"{calendar.month_name[m1].lower()} {d1}",
        "d2": f"{calendar.month_name[m2].lower()} {d2}",
        "D1": str(Date(-1, m1, d1)),
        "D2": str(Date(-1, m2, d2)),
    }


def _has_total_row(table: Table) -> bool:
    """A row of totals in any column (`Total`, `Overall`): a sum or a threshold over every row would count
    it as one more row."""
    return any(_TOTAL_ROW.search(text.lower()) for c in table.columns for text in c.raw)


def _fill(template: Template, table: Table, rng: random.Random) -> tuple[str, str] | None:
    """One (question, program) of `template` on `table`, slots drawn with `rng`; None when the table has
    nothing the template needs."""
    numeric, naming = _numeric_columns(table), _naming_columns(table)
    measures = numeric if template.measure == "number" else _date_columns(table)
    if not measures and ("{N}" in template.program or "{n}" in " ".join(template.forms)):
        return None
    slots: dict[str, str] = {}
    if measures:  # drawn even where unused, so each table's draws stay those of earlier versions
        n = rng.choice(measures)
        slots.update(n=_words(n.header) or "", N=n.property_name(template.measure))
    if template.needs in ("", "x", "rows", "month", "days") and _has_total_row(table):
        return None
    if template.needs or "{c" in " ".join(template.forms):
        if not naming:
            return None
        c = rng.choice(naming)
        cname = _words(c.header) or ""
        slots.update(c=cname, cs=_plural(cname), C=c.property_name("string"))
        strings, raw = c.views["string"], c.raw
        counts = Counter(strings)
        nameable = {s: r for s, r in zip(strings, raw, strict=True) if _NAMEABLE_CELL.fullmatch(r.strip())}
        # a value selects exactly the rows that hold it: no other cell contains it (the filter matches
        # parts of cells, so "china" would also select "china pr")
        alone = {s for s in nameable if not any(s in other for other in counts if other != s)}
        if template.needs == "v":
            shared = sorted(s for s in alone if counts[s] >= 2 and counts[s] < len(strings))
            if not shared:
                return None
            v = rng.choice(shared)
            slots.update(v=nameable[v].strip(), V=v)
        elif template.needs in ("ab", "ad"):
            # a row of totals is no row to compare with the ones it adds up
            unique = sorted(s for s in alone if counts[s] == 1 and not _TOTAL_ROW.search(s))
            if len(unique) < 2:
                return None
            if template.needs == "ad":  # a lookup: the cell of another column in the row `a` names
                others = [other for other in table.columns if other is not c and _words(other.header)]
                if not others:
                    return None
                a, d = rng.choice(unique), rng.choice(others)
                if not re.search(
                    r"[A-Za-z0-9]", d.raw[strings.index(a)]
                ):  # a blank or a dash answers nothing
                    return None
                view = "number" if d in numeric else "string"
                slots.update(a=nameable[a].strip(), A=a, d=_words(d.header) or "", D=d.property_name(view))
                return _filled(template, slots, rng)
            a, b = rng.sample(unique, 2)
            value = {s: _order_key(v) for s, v in zip(strings, n.views[template.measure], strict=True)}
            if value[a] == value[b]:
                return None
            if (value[a] < value[b]) if template.larger_first else rng.random() < 0.5:
                a, b = b, a
            slots.update(a=nameable[a].strip(), A=a, b=nameable[b].strip(), B=b)
        elif template.needs in ("month", "days"):
            found = _month(table, template, rng) if template.needs == "month" else _days(table, rng)
            if found is None:
                return None
            slots.update(found)
        elif template.needs in ("x", "rows"):
            # rows must be nameable one by one, each by a short name (not a description)
            if len(set(strings)) < len(strings) or len(nameable) < len(strings):
                return None
            keys = [_order_key(v) for v in n.views[template.measure]]
            if template.needs == "rows" and any(keys.count(e) > 1 for e in (min(keys), max(keys))):
                return None  # "which C had the most X?" names one row; argmax would answer every tied one
            if template.needs == "x":
                found = _threshold(list(n.views["number"]), rng, template.threshold)
                if found is None:
                    return None
                slots.update(x=found[0], X=_program_number(found[1]))
    return _filled(template, slots, rng)


def _filled(template: Template, slots: dict[str, str], rng: random.Random) -> tuple[str, str]:
    """A form of `template` drawn with `rng` and its program, both filled with `slots` (lower-case keys
    fill the question, upper-case ones the program)."""
    form = rng.choice(template.forms)
    question = form.format(**{k: v for k, v in slots.items() if k.islower()})
    program = template.program.format(**{k: v for k, v in slots.items() if k.isupper()})
    return question, program


def _program_number(value: float) -> str:
    return str(int(value)) if value == int(value) else repr(value)


def _answer_text(value: object) -> str:
    if isinstance(value, float):
        return _program_number(round(value, 6))
    return str(value)


def chosen_templates(names: Sequence[str] | None) -> tuple[Template, ...]:
    """The templates called `names` (all of them for None), in `TEMPLATES` order; a DataError names an
    unknown one."""
    if names is None:
        return TEMPLATES
    known = {t.name for t in TEMPLATES}
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        what = f"unknown template {unknown[0]!r}" if unknown else "no template named"
        raise DataError(f"{what}; choose from: {', '.join(sorted(known))}")
    return tuple(t for t in TEMPLATES if t.name in set(names))


def synthesize_examples(
    dataset: Dataset,
    split: str,
    per_table: int = 2,
    seed: int = 0,
    linking: str | None = None,
    templates: Sequence[str] | None = None,
) -> tuple[list[Example], list[dict], Counter, Counter]:
    """(examples, their program records, kept per template, rejected per reason) for the tables of
    `split`: up to `per_table` questions each, templates (`templates` names them; default all) and slots
    drawn with `seed`."""
    drawn = chosen_templates(templates)
    rng = random.Random(seed)
    linking = linking or dataset.meta.get("linking", "word")
    table_ids = sorted({e.table_id for e in dataset.examples(split)})
    examples, programs, kept, rejected = [], [], Counter(), Counter()
    readings: dict[str, Table] = {}
    for table_id in table_ids:
        table = dataset.tables[table_id]
        made: set[str] = set()
        for _ in range(per_table * 4):  # a few draws per question: many find nothing they need
            if len(made) >= per_table:
                break
            template = rng.choice(drawn)
            if template.user_reading and table_id not in readings:
                readings[table_id] = user_reading(table)
            asked = readings[table_id] if template.user_reading else table
            filled = _fill(template, asked, rng)
            if filled is None:
                rejected["the table has nothing it needs"] += 1
                continue
            question, program = filled
            if question in made:
                continue
            qid = f"synth-{table_id}-{len(made)}"
            found = _checked(dataset, asked, qid, question, program, linking)
            if isinstance(found, str):
                rejected[found] += 1
                continue
            made.add(question)
            kept[template.name] += 1
            examples.append(found)
            programs.append({"id": qid, "programs": [program], "template": template.name})
    return examples, programs, kept, rejected


def _checked(
    dataset: Dataset, table: Table, qid: str, question: str, program: str, linking: str
) -> Example | str:
    """The example, when its own annotation expresses `program` and the program earns the reward; else
    why not."""
    annotated = annotate_question(question, table, qid=qid, linking=linking)
    example = Example(qid, table.id, annotated, [], [])
    env = bind(dataset.language, table, annotated.entities)  # the table may be a user reading (not stored)
    try:
        tokens = env.encode(program)
    except (GrammarError, ValueError, IndexError):
        return "its entities do not express the program"
    state = env.run(tokens)
    if not state.done or state.error:
        return "the program fails"
    answer = env.result(state).answer
    if not answer or len(answer) > 5 or answer == [0.0]:
        return "the answer is empty, zero or too long"
    texts = [_answer_text(a) for a in answer]
    canon = [canonicalize_answer(a) for a in texts]
    # the entities the env was bound with stay; only the answer is new (what annotate_question adds for one)
    example = Example(qid, table.id, replace(annotated, answer=texts, answer_canon=canon), texts, canon)
    if dataset.scorer(example, env)(tokens)[0] != 1.0:
        return "the program does not earn the reward"
    return example


def synthesize(
    data: Path | str,
    out: Path | str,
    *,
    split: str = "random-split-1-train",
    name: str | None = None,
    per_table: int = 2,
    seed: int = 0,
    programs: Path | str | None = None,
    templates: Sequence[str] | None = None,
) -> SynthesisSummary:
    """Write `out`: the dataset `data` with one split more, `name` (default `<split>-synth`) = `split` plus
    templated questions over its tables, and `<name>-programs.jsonl` = the program file `programs` (if
    given) plus the templates' programs. `templates` names the templates drawn from (default all), so
    that a recipe written for an earlier set draws from the same templates (not the same questions: the
    rules that fill them have changed since). `out` is written whole or not at all."""
    source = load_dataset(data)
    if split not in source.splits:
        raise DataError(f"split {split!r} not in {source.path}; available: {', '.join(source.splits)}")
    if per_table < 1:
        raise DataError("--per-table must be at least 1")
    name = name or f"{split}-synth"
    if name in source.splits:
        raise DataError(f"{source.path} already has a split {name!r}; choose another --name")
    out = Path(out)
    if out.exists():  # also what keeps a folder above the dataset (replacing it would delete the dataset)
        raise DataError(f"{out} already exists; --out must be a new directory")
    if programs is not None and not Path(programs).is_file():
        raise DataError(f"program file {programs} does not exist")
    with output_lock(out, "synthesized dataset", inside=False):
        return _write(source, out, split, name, per_table, seed, programs, chosen_templates(templates))


def _write(
    source: Dataset,
    out: Path,
    split: str,
    name: str,
    per_table: int,
    seed: int,
    programs: Path | str | None,
    templates: tuple[Template, ...],
) -> SynthesisSummary:
    base = source.examples(split)
    names = [t.name for t in templates]
    examples, records, kept, rejected = synthesize_examples(source, split, per_table, seed, templates=names)
    taken = {e.id for e in base} & {e.id for e in examples}
    if taken:
        raise DataError(f"{split} already holds templated question ids ({sorted(taken)[0]}, ...)")
    with staged_directory(out) as stage:
        for path in source.path.iterdir():
            if path.is_file():
                shutil.copy2(path, stage / path.name)
        atomic_write_jsonl(stage / f"{name}.jsonl", (e.to_json() for e in [*base, *examples]))
        readings = sorted({e.table_id for e in examples if e.table_id.endswith(USER_READING_SUFFIX)})
        if readings:  # the user-rule readings the month and day questions are asked of
            base_tables = [source.tables[i.removesuffix(USER_READING_SUFFIX)] for i in readings]
            with open(stage / "tables.jsonl", "a", encoding="utf-8") as f:
                for table in base_tables:
                    f.write(json.dumps(table_record(user_reading(table)), ensure_ascii=False) + "\n")
        vocab = json.loads((stage / "vocab.json").read_text(encoding="utf-8"))
        counts = Counter(vocab[split]) if split in vocab else Counter()
        counts.update(t for e in examples for t in e.question.tokens)
        vocab[name] = dict(counts.most_common())
        atomic_write_json(stage / "vocab.json", vocab)
        program_path = stage / f"{name}-programs.jsonl"
        atomic_write_jsonl(program_path, _program_records(programs, records))
        meta = json.loads((stage / "meta.json").read_text(encoding="utf-8"))
        meta["examples"][name] = len(base) + len(examples)
        meta.setdefault("skipped", {})[name] = {}
        meta["synthesized"] = {
            **meta.get("synthesized", {}),
            name: {
                "base": split,
                "per_table": per_table,
                "seed": seed,
                "templates": names,
                "added": len(examples),
            },
        }
        atomic_write_json(stage / "meta.json", meta)
    return SynthesisSummary(
        str(out),
        name,
        len(base),
        len(examples),
        dict(sorted(kept.items())),
        dict(sorted(rejected.items())),
        str(out / program_path.name),
    )


def _program_records(base: Path | str | None, records: list[dict]) -> Iterator[dict]:
    if base is not None:
        yield from read_program_file(base)  # the trainer's reader: one format for both
    yield from records


__all__: list[str] = [
    "TEMPLATES",
    "USER_READING_SUFFIX",
    "SynthesisSummary",
    "Template",
    "chosen_templates",
    "synthesize",
    "synthesize_examples",
    "user_reading",
]
