"""SQL expressions for a column's typed views, chosen by running them in sqlite against the views.

A program reads a column through a view (its number, second number, normalised text) that the table reader
computed from each cell; SQL sees only the cell text. Restating the reader's rules in SQL would break the
day the reader changes, so the renderer never assumes them: for each view it writes a few candidate
expressions over the cell text (a plain CAST, REPLACE chains for the separators and symbols the column's
cells contain, a guard that makes cells without a number NULL, ...), runs them all in sqlite over the
column, and uses the first whose result equals the view on every row. A view with no such expression is
*approximate*: the SQL shown for a program that reads it says so (`SqlRendering.exact`).

Containment tests and projections are checked the same way: `LIKE '%text%'` must select exactly the rows
whose string view contains `text`, and projecting the cell text must give what the answer check reads as
the program's values.

sqlite stores a column as `column_storage` says, which `sql.sqlite_connection` uses too: cell text (TEXT)
for the tables people bring and WTQ's, numbers (REAL) for WikiSQL's declared `real` columns.
"""

from __future__ import annotations

import fnmatch
import re
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import sqlglot
from sqlglot import exp

from nsmcli.worlds.tables.data.table import Column
from nsmcli.worlds.tables.data.values import Date, contains_substring, contains_words

#: The column name candidate expressions are written over; replaced by the real column when rendered.
PLACEHOLDER = "__nsm_cell__"
_X = f'"{PLACEHOLDER}"'

#: Characters dropped from a cell before reading its number, when the column's cells contain them.
_NOISE = (",", "$", "€", "£", "¥", "%", " ", "\u00a0", "+")
#: Separators between a cell's first and second number ("3–1", "2-0", "12:30", "3/4").
_NUM2_SEPARATORS = ("–", "-", "—", ":", "/")
#: A cell that ends in a year before Christ ("753 BC", "138 B.C.", "1 BCE").
_BC_TAIL = re.compile(r"\d\s*b\.?\s?c\.?(?:e\.?)?\s*$", re.IGNORECASE)
#: Magnitude suffixes and the factor a reader may apply for them.
_SUFFIXES = (("k", 1000), ("K", 1000), ("M", 1000000), ("m", 1000000), ("bn", 1000000000), ("B", 1000000000))


def is_numeric(column: Column) -> bool:
    """WikiSQL's `real` columns: a number view and no string view (sqlite stores them REAL)."""
    return "number" in column.views and "string" not in column.views


def column_storage(column: Column) -> tuple[str, tuple]:
    """How sqlite holds the column: ("REAL", numbers) for WikiSQL `real` columns, else ("TEXT", cell text)."""
    if is_numeric(column):
        return "REAL", column.views["number"]
    return "TEXT", column.raw


@dataclass(frozen=True)
class ViewSql:
    """How SQL reads one view of a column: `expression` over PLACEHOLDER (None: SQL cannot read it at all),
    `exact` when sqlite gives the view's value on every row, else `note` says where it differs."""

    expression: exp.Expression | None
    exact: bool
    note: str | None = None

    def on(self, column: exp.Expression) -> exp.Expression:
        """The expression with the placeholder replaced by `column`."""
        assert self.expression is not None
        tree = self.expression.copy()
        if isinstance(tree, exp.Column):  # the cells themselves (a REAL column)
            return column.copy()
        for node in list(tree.find_all(exp.Column)):
            if node.name == PLACEHOLDER:
                node.replace(column.copy())
        return tree


def _run(storage: str, cells: Sequence, sql_texts: Sequence[str], params: Sequence = ()) -> list[list | None]:
    """Each expression's value on every cell, in row order (None for an expression sqlite rejects)."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute(f"CREATE TABLE c ({_X} {storage})")
        conn.executemany("INSERT INTO c VALUES (?)", [(v,) for v in cells])
        try:
            rows = conn.execute(f"SELECT {', '.join(sql_texts)} FROM c ORDER BY rowid", params).fetchall()
            return [[r[k] for r in rows] for k in range(len(sql_texts))]
        except sqlite3.Error:
            out: list[list | None] = []
            for text in sql_texts:
                try:
                    out.append([r[0] for r in conn.execute(f"SELECT {text} FROM c ORDER BY rowid", params)])
                except sqlite3.Error:
                    out.append(None)
            return out
    finally:
        conn.close()


@lru_cache(maxsize=512)
def _tree(text: str) -> exp.Expression:
    return sqlglot.parse_one(text, read="sqlite")


def _same_number(sql_value: Any, view_value: Any) -> bool:
    if view_value is None or sql_value is None:
        return view_value is None and sql_value is None
    # exact equality: programs compare a view with question numbers by equality (filter_eq)
    return isinstance(sql_value, int | float) and not isinstance(sql_value, bool) and sql_value == view_value


def _leading_non_number(cell: str) -> str:
    """The characters before a cell's first digit, sign or decimal point."""
    for i, c in enumerate(cell):
        if c.isdigit() or c in "+-.−(":
            return cell[:i]
    return ""


def _number_candidates(cells: Sequence[str]) -> list[str]:
    """Candidate expressions (sqlite text over PLACEHOLDER) for a number view, simplest first."""
    chars = set("".join(cells))
    cleanings = [_X]
    commas = f"REPLACE({_X}, ',', '')"
    if "," in chars:
        cleanings.append(commas)
    noise = [c for c in _NOISE if c in chars]
    if noise and noise != [","]:
        text = _X
        for c in noise:
            text = f"REPLACE({text}, '{c}', '')"
        cleanings.append(text)
    if "," in chars:  # European decimals: "1.234,50"
        text = _X
        for c in (c for c in noise if c != ","):
            text = f"REPLACE({text}, '{c}', '')"
        cleanings.append(f"REPLACE(REPLACE({text}, '.', ''), ',', '.')")
    if "−" in chars:  # Unicode minus sign
        cleanings += [f"REPLACE({t}, '−', '-')" for t in cleanings]
    prefix = {c for cell in cells for c in _leading_non_number(cell)}
    if prefix:  # text before the number: "=10", "~5", "c. 1200"
        strip = "".join(sorted(prefix)).replace("'", "''")
        cleanings += [f"LTRIM({t}, '{strip}')" for t in cleanings]
    if "(" in chars:  # accounting negatives: "(1,200.00)"
        cleanings += [f"REPLACE(REPLACE({t}, '(', '-'), ')', '')" for t in cleanings]

    def guarded(t: str) -> list[str]:
        number = f"CAST({t} AS REAL)"
        return [
            number,
            f"CAST(NULLIF(TRIM({t}), '') AS REAL)",
            f"CASE WHEN {t} GLOB '*[0-9]*' THEN {number} END",
            f"CASE WHEN LTRIM({t}, '+-') GLOB '[0-9]*' OR LTRIM({t}, '+-') GLOB '.[0-9]*' THEN {number} END",
            f"CASE WHEN {t} GLOB '*[0-9]*' AND NOT LTRIM(TRIM({t}), '+-') GLOB '*[^0-9.]*' THEN {number} END",
        ]

    out = [_X] + [g for t in cleanings for g in guarded(t)]
    # times of day as hours ("18:05", "2024-05-03T18:05"); sqlite's time functions need HH:MM
    if ":" in chars:
        hours = " + ".join(
            f"CAST(strftime('%{field}', {_X}) AS REAL){scale}"
            for field, scale in (("H", ""), ("M", " / 60.0"), ("S", " / 3600.0"))
        )
        out.append(f"CASE WHEN {_X} GLOB '*[0-9]:[0-9][0-9]*' THEN {hours} END")
        # a race's time in seconds, tenths kept ("00:25:12.3" is 1512.3, "00:26:00" 1560)
        seconds = " + ".join(
            f"CAST(strftime('%{field}', {_X}) AS REAL){scale}"
            for field, scale in (("H", " * 3600"), ("M", " * 60"), ("f", ""))
        )
        out.append(f"CASE WHEN {_X} GLOB '*[0-9]:[0-9][0-9]:[0-9][0-9]*' THEN {seconds} END")
        hour = f"CAST(substr({_X}, 1, instr({_X}, ':') - 1) AS REAL)"
        minute = f"CAST(substr({_X}, instr({_X}, ':') + 1, 2) AS REAL)"
        out.append(
            f"CASE WHEN {_X} GLOB '[0-9]:[0-9][0-9]' OR {_X} GLOB '[0-9][0-9]:[0-9][0-9]' THEN {hour} + {minute} / 60.0 END"
        )
    parts = _lenient_parts(cells)
    if parts is not None:  # the first number anywhere in the cell ("Tikka -88", "[44]")
        out.append(_number_at(parts[1]))
    tails = {c.rstrip()[-2:] for c in cells}
    scales = [(s, f) for s, f in _SUFFIXES if any(t.endswith(s) for t in tails)]
    if "%" in chars:
        scales.append(("%", 0))
    if scales:
        base = list(out)
        for s, factor in scales:
            scale = "/ 100.0" if factor == 0 else f"* {factor}"
            for e in base[1:]:
                out.append(f"CASE WHEN RTRIM({_X}) GLOB '*{s}' THEN {e} {scale} ELSE {e} END")
    if any(_BC_TAIL.search(cell) for cell in cells):  # years before Christ are negative: "753 BC"
        squeezed = f"UPPER(REPLACE(REPLACE(RTRIM({_X}), '.', ''), ' ', ''))"
        bc = f"({squeezed} GLOB '*[0-9]BC' OR {squeezed} GLOB '*[0-9]BCE')"
        out += [f"CASE WHEN {bc} THEN -({e}) ELSE {e} END" for e in list(out[1:])]
    return out


def _quote(chars: set[str]) -> str:
    return "'" + "".join(sorted(chars)).replace("'", "''") + "'"


def _lenient_parts(cells: Sequence[str]) -> tuple[str, str, str] | None:
    """(spaces removed, text from the first number on, text after the first number) as sqlite text over
    PLACEHOLDER, for readings that take the first or second number anywhere in a cell ("Smith (3-6)")."""
    others = {c for c in "".join(cells) if not (c.isdigit() or c == ".")} - {" "}
    if not others:
        return None
    spaceless = f"REPLACE({_X}, ' ', '')"
    number_on = f"LTRIM({spaceless}, {_quote(others)})"
    after = f"LTRIM(LTRIM({number_on}, '0123456789,.'), {_quote(others)})"
    return spaceless, number_on, after


def _number_at(text: str) -> str:
    """The number `text` starts with (thousands commas dropped), NULL when it starts with none."""
    return f"CASE WHEN {text} GLOB '[0-9]*' OR {text} GLOB '.[0-9]*' THEN CAST(REPLACE({text}, ',', '') AS REAL) END"


def _num2_candidates(cells: Sequence[str]) -> list[str]:
    chars = set("".join(cells))
    out = []
    for s in (s for s in _NUM2_SEPARATORS if s in chars):
        after = f"SUBSTR({_X}, INSTR({_X}, '{s}') + 1)"
        out += [
            f"CASE WHEN INSTR({_X}, '{s}') > 0 THEN CAST({after} AS REAL) END",
            f"CASE WHEN INSTR({_X}, '{s}') > 0 AND LTRIM({after}) GLOB '[0-9]*' THEN CAST({after} AS REAL) END",
            f"CASE WHEN {_X} GLOB '*[0-9]{s}[0-9]*' THEN CAST({after} AS REAL) END",
        ]
    parts = _lenient_parts(cells)
    if parts is not None:  # the number after the first one, whatever separates them ("16 September 1992")
        out.append(_number_at(parts[2]))
    return out


_MONTHS = "'JanFebMarAprMayJunJulAugSepOctNovDec'"


def _month(at: str) -> str:
    """The month number of the three letters of the cell at position `at` ("Mar" -> 3), 0 if none."""
    return f"(INSTR({_MONTHS}, SUBSTR({_X}, {at}, 3)) + 2) / 3"


def _int(text: str) -> str:
    return f"CAST({text} AS INTEGER)"


def _date_candidates(cells: Sequence[str]) -> list[str]:
    """Candidate `date_key` expressions: a CASE with a branch per date shape the column's cells have."""
    digits4 = "[0-9][0-9][0-9][0-9]"
    year = f"SUBSTR({_X}, -4)"
    after_space = f"INSTR({_X}, ' ') + 1"
    iso = (
        f"{_int(f'SUBSTR({_X}, 1, 4)')} * 10000 + "
        f"{_int(f'SUBSTR({_X}, 6, 2)')} * 100 + {_int(f'SUBSTR({_X}, 9, 2)')}"
    )
    shapes = [  # (GLOB pattern, key expression)
        (digits4, f"{_int(_X)} * 10000"),
        (f"{digits4}-[0-9][0-9]-[0-9][0-9]", iso),
        (f"{digits4}-[0-9][0-9]-[0-9][0-9]T*", iso),  # ISO date-times
        (f"{digits4}-[0-9][0-9]-[0-9][0-9] [0-9]*", iso),
        (
            f"{digits4}-[0-9][0-9]",
            f"{_int(f'SUBSTR({_X}, 1, 4)')} * 10000 + {_int(f'SUBSTR({_X}, 6, 2)')} * 100",
        ),
        (
            f"[A-Z][a-z]* [0-9]*, {digits4}",
            f"{_int(year)} * 10000 + {_month(1)} * 100 + {_int(f'SUBSTR({_X}, {after_space})')}",
        ),
        (f"[A-Z][a-z]* {digits4}", f"{_int(year)} * 10000 + {_month(1)} * 100"),
        (f"[0-9]* [A-Z][a-z]* {digits4}", f"{_int(year)} * 10000 + {_month(after_space)} * 100 + {_int(_X)}"),
        (f"[A-Z][a-z]*, {digits4}", f"{_int(year)} * 10000 + {_month(1)} * 100"),
        ("[A-Z][a-z]* [0-9]", f"{_month(1)} * 100 + {_int(f'SUBSTR({_X}, {after_space})')}"),
        ("[A-Z][a-z]* [0-9][0-9]", f"{_month(1)} * 100 + {_int(f'SUBSTR({_X}, {after_space})')}"),
        ("[0-9] [A-Z][a-z]*", f"{_month(after_space)} * 100 + {_int(_X)}"),
        ("[0-9][0-9] [A-Z][a-z]*", f"{_month(after_space)} * 100 + {_int(_X)}"),
    ]
    slash = f"[0-9][0-9]/[0-9][0-9]/{digits4}"
    first, second = _int(f"SUBSTR({_X}, 1, 2)"), _int(f"SUBSTR({_X}, 4, 2)")
    orders = [  # month first (03/15/2024), day first (15/03/2024): which one, the column's cells decide
        (slash, f"{_int(year)} * 10000 + {first} * 100 + {second}"),
        (slash, f"{_int(year)} * 10000 + {second} * 100 + {first}"),
    ]
    present = [(g, k) for g, k in shapes if any(_glob(g, c) for c in cells)]
    out = []
    for order in orders if any(_glob(slash, c) for c in cells) else [None]:
        branches = present + ([order] if order else [])
        # all the shapes, then each left out once: the reader may not read one shape as a date at all
        for left_out in [None, *branches] if len(branches) > 1 else [None]:
            whens = " ".join(f"WHEN {_X} GLOB '{g}' THEN {k}" for g, k in branches if (g, k) != left_out)
            if whens:
                out.append(f"CASE {whens} END")
    return out


def _glob(pattern: str, text: str) -> bool:
    """Roughly GLOB (no `[^...]` in these patterns), to leave out branches no cell needs."""
    return fnmatch.fnmatchcase(text, pattern)


def date_key(date: Date | None) -> int | None:
    """A date as the number SQL compares: yyyymmdd, unknown fields 0, so it orders as `Date.sort_key`."""
    if date is None:
        return None
    year, month, day = date.sort_key
    return year * 10000 + month * 100 + day


def view_numbers(column: Column, kind: str) -> tuple:
    """The values SQL compares for a view: numbers as they are, dates as `date_key`."""
    values = column.views[kind]
    return tuple(date_key(v) for v in values) if kind == "date" else values


_CANDIDATES: dict[str, Callable[[Sequence[str]], list[str]]] = {
    "number": _number_candidates,
    "num2": _num2_candidates,
    "date": _date_candidates,
}
#: What an approximate rendering of a view falls back to (sqlite text over PLACEHOLDER).
_FALLBACK = {"number": f"CAST(REPLACE({_X}, ',', '') AS REAL)"}


#: Candidates are first tried on this many distinct cells; survivors are then checked on all of them.
_SAMPLE = 200


def _wrong(values: Sequence, view: Sequence, weights: Sequence[int]) -> int:
    return sum(w for s, v, w in zip(values, view, weights, strict=True) if not _same_number(s, v))


@lru_cache(maxsize=4096)
def _choose(kind: str, storage: str, cells: tuple, view: tuple) -> tuple[str | None, bool, str | None]:
    # an expression reads each cell alone, so it is enough to try each distinct cell once
    readings: dict = {}
    counts: dict = {}
    consistent = True
    for cell, value in zip(cells, view, strict=True):
        if cell in readings and readings[cell] != value:
            consistent = False  # one cell text, two readings: no expression of the cell reproduces that
        readings.setdefault(cell, value)
        counts[cell] = counts.get(cell, 0) + 1
    distinct = list(readings)
    wanted = [readings[c] for c in distinct]
    weights = [counts[c] for c in distinct]
    present = [c for c, v in zip(distinct, wanted, strict=True) if v is not None and isinstance(c, str)]
    candidates = [_tree(t).sql(dialect="sqlite") for t in _CANDIDATES[kind](present)]
    fallback = _FALLBACK.get(kind)
    if fallback is not None:
        fallback = _tree(fallback).sql(dialect="sqlite")
        candidates.append(fallback)
    if not candidates:
        return None, False, None
    n = min(len(distinct), _SAMPLE)
    sample = _run(storage, distinct[:n], candidates)
    wrong = {
        t: _wrong(v, wanted[:n], weights[:n])
        for t, v in zip(candidates, sample, strict=True)
        if v is not None
    }
    survivors = [t for t in candidates if wrong.get(t) == 0]
    for text in survivors if consistent else ():  # one at a time: the first usually holds on every cell
        (values,) = _run(storage, distinct, [text])
        if values is not None and _wrong(values, wanted, weights) == 0:
            return text, True, None
    # an approximation reads numbers (not the cell text itself); ties go to the plain fallback
    readable = [t for t in wrong if storage == "REAL" or t != candidates[0]]
    if fallback is None or not readable:
        return None, False, None
    text = min(readable, key=lambda t: (wrong[t], t != fallback))
    (values,) = _run(storage, distinct, [text])
    values = values or [None] * len(distinct)
    total = _wrong(values, wanted, weights)
    bad = [i for i, (s, v) in enumerate(zip(values, wanted, strict=True)) if not _same_number(s, v)]
    if not bad:  # every cell reads right, but the column reads one cell text two ways
        return text, False, "the program reads equal cells differently"
    i = bad[0]
    program = "no number" if wanted[i] is None else repr(wanted[i])
    more = f" (and {total - weights[i]} more cells)" if total > weights[i] else ""
    return text, False, f"sqlite reads {distinct[i]!r} as {values[i]!r}, the program as {program}{more}"


def view_sql(column: Column, kind: str) -> ViewSql:
    """The SQL reading of `column`'s `kind` view ("number", "num2", or "date" as `date_key`), verified in
    sqlite."""
    if kind not in _CANDIDATES or kind not in column.views:
        return ViewSql(None, False)
    storage, cells = column_storage(column)
    values = view_numbers(column, kind)
    if kind == "date" and len(set(values)) != len(set(column.views[kind])):
        return ViewSql(None, False)  # two dates share a key (a year before 1 AD): SQL would equate them
    text, exact, note = _choose(kind, storage, tuple(cells), values)
    return ViewSql(None if text is None else _tree(text), exact, note)


def like_pattern(text: str) -> tuple[str, bool]:
    """`%text%` with LIKE's wildcards escaped, and whether an ESCAPE '\\' clause is needed."""
    escaped = "".join("\\" + c if c in "\\%_" else c for c in text)
    return f"%{escaped}%", escaped != text


@lru_cache(maxsize=4096)
def _contains_note(storage: str, cells: tuple, view: tuple, text: str, whole_words: bool) -> str | None:
    pattern, escape = like_pattern(text)
    sql = f"{_X} LIKE ?" + (" ESCAPE '\\'" if escape else "")
    (matches,) = _run(storage, cells, [sql], [pattern])
    found = contains_words if whole_words else contains_substring
    for cell, value, hit in zip(cells, view, matches or [None] * len(cells), strict=True):
        if bool(hit) != (value is not None and found(text, value)):
            return (
                f"LIKE {pattern!r} {'matches' if hit else 'misses'} {cell!r}, the program "
                f"{'finds' if not hit else 'does not find'} {text!r} in {value!r}"
            )
    return None


def contains_note(column: Column, text: str, whole_words: bool = False) -> str | None:
    """None when sqlite's `LIKE '%text%'` on the column selects exactly the rows whose string view contains
    `text` (as whole words with `whole_words`, as the filters of user tables match); else where it differs."""
    storage, cells = column_storage(column)
    return _contains_note(storage, tuple(cells), tuple(column.views["string"]), text, whole_words)


def missing_cells(column: Column) -> list[str]:
    """The texts of the column's cells that hold something and are still blank to the program, as sqlite holds
    them: a statistics office's `..` (`valuerules.UserRules.column_views`), a footnote mark or spaces, which
    the string view normalises away. A blank test in SQL keeps them too."""
    storage, cells = column_storage(column)
    if storage != "TEXT":
        return []
    return sorted({c for c, v in zip(cells, column.views["string"], strict=True) if v == "" and c})


def blank_note(column: Column) -> str | None:
    """None when sqlite's `(col = '' OR col IS NULL OR col IN missing)` selects exactly the cells that are
    blank to the program (an empty string view: `Prop.containing` of the empty text on user tables; `missing`:
    `missing_cells`); else where they differ."""
    _, cells = column_storage(column)
    missing = set(missing_cells(column))
    for cell, value in zip(cells, column.views["string"], strict=True):
        if (value == "") != (cell is None or cell == "" or cell in missing):
            return (
                f"the cell {cell!r} is {'blank' if value == '' else 'not blank'} to the program, not to SQL"
            )
    return None


def projection_note(
    column: Column, kind: str, distinct: bool, agree: Callable[[list, list], bool]
) -> str | None:
    """None when selecting the column's cells gives, for any rows, what `agree` (the answer check) reads as
    the program's values of view `kind` on them (with `distinct`, as many distinct values too)."""
    storage, cells = column_storage(column)
    view = column.views[kind]
    for cell, value in zip(cells, view, strict=True):
        if value is None and cell is not None:
            return f"the cell {cell!r} is missing to the program, SQL selects it"
        if value is not None and not agree([value], [cell]):
            return f"the cell {cell!r} is {value!r} to the program"
    if distinct:
        pairs = {c: v for c, v in zip(cells, view, strict=True) if v is not None}
        if len(pairs) != len(set(pairs.values())):
            seen: dict = {}
            for c, v in pairs.items():
                if v in seen:
                    return f"cells {seen[v]!r} and {c!r} are one value to the program, two to DISTINCT"
                seen[v] = c
    return None
