"""Table loaders: WikiTableQuestions CSVs, WikiSQL `*.tables.jsonl`, and users' own tables.

Every loader returns a typed `Table` with the file's column order. User tables (`load_table`: CSV, TSV, TXT,
JSON, JSONL, Excel .xlsx, Parquet; a file, an http(s) URL or standard input) are read with every cell as
text (no pandas type guessing, no `NA` -> NaN), so what the user wrote is what programs see, and typed by the
user value rules (`nsmcli.worlds.tables.data.valuerules`); WTQ and WikiSQL tables keep the official WTQ rules. Anything
wrong with a user table raises one `DataError` whose message names the source and the problem.

Limits on user files: at most `MAX_ROWS` (100,000) data rows and `MAX_FILE_BYTES` (256 MiB); the search
and training code keep whole tables in memory and type every cell, so larger inputs are refused up front.
Pipes and devices given as a file name are refused (reading one could block forever); `-` reads a stream.
Excel and Parquet need openpyxl and pyarrow (the `tables` extra).
"""

from __future__ import annotations

import codecs
import csv
import dataclasses
import datetime
import io
import json
import math
import os
import re
import stat
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from nsmcli import __version__
from nsmcli.errors import DataError, brief
from nsmcli.memory import gc_paused
from nsmcli.worlds.tables.data.table import Table
from nsmcli.worlds.tables.data.units import UNITS
from nsmcli.worlds.tables.data.values import format_number

if TYPE_CHECKING:
    import pandas as pd

#: A parsed source before typing: the header's values and each row's, as the format gives them. pandas is
#: imported only for DataFrames: it costs a third of a second at start, a tenth of a cold `nsm parse`.
Grid = tuple[list[Any], list[list[Any]]]

__all__ = [
    "MAX_ROWS",
    "MAX_FILE_BYTES",
    "SUPPORTED_EXTENSIONS",
    "wtq_table_id",
    "load_wtq_table",
    "read_wtq_csv",
    "iter_wikisql_tables",
    "FORMATS",
    "load_table",
    "table_from_dataframe",
    "MAX_QUESTION_CHARS",
    "QuestionCase",
    "check_question",
    "read_question_file",
]

MAX_ROWS = 100_000
MAX_FILE_BYTES = 256 * 2**20
#: Caps on a user table's shape: a column name is a few words, a cell at most a paragraph. Past them a file
#: is not a table (a pasted document, a binary file read as text), and typing it would take gigabytes.
MAX_COLUMNS = 1_000
MAX_HEADER_CHARS = 1_000
MAX_CELL_CHARS = 20_000
SUPPORTED_EXTENSIONS = (".csv", ".tsv", ".txt", ".json", ".jsonl", ".xlsx", ".parquet")

_WTQ_CONTEXT = re.compile(r"(?:.*/)?csv/(\d+)-csv/(\d+)\.(?:csv|tsv|table|html)")


# --------------------------------------------------------------------------------------------------------
# WikiTableQuestions


def wtq_table_id(context: str) -> str:
    """`csv/204-csv/590.csv` -> `t_204_590`, MAPO's table name."""
    m = _WTQ_CONTEXT.fullmatch(context.strip())
    if m is None:
        raise DataError(f"not a WikiTableQuestions table reference: {context!r} (expected csv/NNN-csv/N.csv)")
    return f"t_{m.group(1)}_{m.group(2)}"


def read_wtq_csv(path: Path) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a WTQ `.csv`: every field quoted, `\\"` *and* `""` for a quote, newlines kept.

    The CSV is preferred to the `.tsv` sibling because the TSV collapses runs of whitespace; both give the
    same shapes for all 2,108 tables, which also match the tagged files.
    """
    try:
        with open(path, encoding="utf-8", newline="") as f:
            records = list(csv.reader(f, escapechar="\\", doublequote=True, strict=True))
    except FileNotFoundError:
        raise DataError(f"{path}: WikiTableQuestions table not found") from None
    except (UnicodeDecodeError, csv.Error) as e:
        raise DataError(f"{path}: cannot parse WikiTableQuestions table: {e}") from None
    records = [r for r in records if r]
    if not records:
        raise DataError(f"{path}: WikiTableQuestions table is empty")
    header, rows = records[0], records[1:]
    for i, row in enumerate(rows):
        if len(row) != len(header):
            raise DataError(f"{path}: row {i + 1} has {len(row)} cells, the header has {len(header)}")
    return header, rows


def load_wtq_table(data_dir: Path, context: str, *, value_rules: str = "wtq") -> Table:
    """Load the table a WTQ question refers to (`context`, e.g. `csv/204-csv/590.csv`) as `t_204_590`.

    `data_dir` is the WTQ root (holding `csv/`); its parent (holding `wtq/`) is accepted too.
    """
    table_id = wtq_table_id(context)
    m = _WTQ_CONTEXT.fullmatch(context.strip())
    assert m is not None
    relative = Path("csv") / f"{m.group(1)}-csv" / f"{m.group(2)}.csv"
    data_dir = Path(data_dir)
    path = data_dir / relative
    if not path.is_file() and (data_dir / "wtq" / relative).is_file():
        path = data_dir / "wtq" / relative
    header, rows = read_wtq_csv(path)
    return Table.from_rows(table_id, header, rows, value_rules=value_rules)


# --------------------------------------------------------------------------------------------------------
# WikiSQL


def iter_wikisql_tables(path: Path, *, value_rules: str = "wtq") -> Iterator[Table]:
    """Yield the tables of a WikiSQL `*.tables.jsonl`, typed by its `real`/`text` column types (which fix
    every column's views; `value_rules` is what the tables record)."""
    path = Path(path)
    if not path.is_file():
        raise DataError(f"{path}: WikiSQL tables file not found")
    with open(path, encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                table_id, header, types, rows = (
                    record["id"],
                    record["header"],
                    record["types"],
                    record["rows"],
                )
            except (json.JSONDecodeError, KeyError, TypeError) as e:
                raise DataError(f"{path}: line {line_no} is not a WikiSQL table record ({e})") from None
            if len(types) != len(header):
                raise DataError(
                    f"{path}: line {line_no}: {len(types)} column types for {len(header)} columns"
                )
            cells = [[_cell_text(v) for v in row] for row in rows]
            yield Table.from_rows(
                str(table_id), [str(h) for h in header], cells, column_types=types, value_rules=value_rules
            )


# --------------------------------------------------------------------------------------------------------
# User tables

#: The formats `load_table` reads, by name (`format=` / `--format`), and the file extensions that imply them.
FORMATS = ("csv", "tsv", "txt", "json", "jsonl", "xlsx", "parquet")
_FORMAT_OF_EXTENSION = {f".{name}": name for name in FORMATS}
_TEXT_FORMATS = ("csv", "tsv", "txt", "json", "jsonl")
_URL = re.compile(r"https?://", re.IGNORECASE)
_SHEET = re.compile(r"\.xlsx#[^/]*$", re.IGNORECASE)
_FETCH_TIMEOUT_S = 30
_INSTALL_HINT = "pip install 'nsmcli[tables]'"


@dataclass
class _Input:
    """The bytes of one table source, with what error messages and the default table id call it."""

    name: str  # the path, URL or "stdin", for messages
    stem: str  # the default table id
    data: bytes
    format: str
    sheet: str | None = None  # `book.xlsx#Sheet`: the worksheet to read
    charset: str | None = None  # an HTTP response's declared charset


def load_table(
    source: Path | str,
    *,
    table_id: str | None = None,
    format: str | None = None,  # noqa: A002 - the option is called --format
    encoding: str | None = None,
    value_rules: str = "user",
) -> Table:
    """Load a user table, all cells as text, typed by `value_rules` (`nsmcli.worlds.tables.data.valuerules`).

    `source` is a file (.csv .tsv .txt .json .jsonl .xlsx .parquet; `book.xlsx#Sheet` names a worksheet,
    else the first is read), an `http(s)://` URL, or `-` for standard input. `format` overrides the
    extension; without one, standard input and URLs without a known extension are sniffed from their bytes.
    CSV and TXT delimiters (comma, semicolon, tab, pipe) are sniffed, or named by Excel's `sep=;` first
    line. Text is UTF-8 (a byte-order mark is dropped, UTF-16 with a byte-order mark is recognised) unless
    `encoding` names another. The table id defaults to the file name without extension.
    """
    if format is not None and format.lower().lstrip(".") not in FORMATS:
        raise DataError(f"unknown table format {format!r}; choose one of: {', '.join(FORMATS)}")
    with gc_paused():
        return _load_table(source, table_id, format, encoding, value_rules)


def is_url(source: Path | str | None) -> bool:
    """Whether `load_table` reads `source` from the web (an http or https URL given as a string)."""
    return isinstance(source, str) and bool(_URL.match(source))


def _load_table(
    source: Path | str, table_id: str | None, format: str | None, encoding: str | None, value_rules: str
) -> Table:
    fmt = format.lower().lstrip(".") if format is not None else None
    source_text = str(source)
    if source_text == "-":
        found = _read_stdin(fmt)
    elif is_url(source):
        found = _fetch_url(source_text, fmt)
    else:
        found = _read_file(Path(source), fmt)
    name = found.name
    if found.format in _TEXT_FORMATS:
        text = _decode(found, encoding)
        if found.format == "jsonl":
            grid = _parse_jsonl(name, text)
        elif found.format == "json":
            grid = _parse_json(name, text)
        else:
            directive = _SEP_DIRECTIVE.match(text)  # Excel's `sep=;` first line names the delimiter
            if directive:
                sep, body = directive.group(1), text[directive.end() :]
            else:
                sep, body = "\t" if found.format == "tsv" else _sniff_delimiter(text), text
            table_text = _skip_title_lines(body, sep)
            above = text[: len(text) - len(table_text)]  # messages count the file's lines, these too
            grid = _parse_delimited(name, table_text, sep, 1 + len(_PHYSICAL_LINE.findall(above)))
    elif found.format == "xlsx":
        grid = _parse_xlsx(name, found.data, found.sheet)
    else:
        grid = _parse_parquet(name, found.data)
    if len(grid[1]) > MAX_ROWS:
        raise DataError(f"{name}: more than {MAX_ROWS:,} rows; tables are limited to {MAX_ROWS:,} rows")
    if len(grid[1]) == 0:
        raise DataError(f"{name}: has no rows (only a header)")
    try:
        return table_from_grid(grid, table_id or found.stem or "table", value_rules=value_rules)
    except DataError as e:
        raise DataError(f"{name}: {e}") from None


def table_from_dataframe(df: pd.DataFrame, table_id: str = "table", *, value_rules: str = "user") -> Table:
    """Build a typed table from a DataFrame; missing values become empty cells, numbers print plainly."""
    grid = (list(df.columns), [list(row) for row in df.itertuples(index=False, name=None)])
    return table_from_grid(grid, table_id, value_rules=value_rules)


def table_from_grid(grid: Grid, table_id: str = "table", *, value_rules: str = "user") -> Table:
    """Build a typed table from a header and rows of values (`Grid`); missing values become empty cells,
    numbers print plainly."""
    columns, values = grid
    if len(columns) == 0:
        raise DataError(f"table {table_id}: no columns")
    if len(values) == 0:
        raise DataError(f"table {table_id}: has no rows")
    if len(columns) > MAX_COLUMNS:
        raise DataError(f"table {table_id}: {len(columns):,} columns; tables are limited to {MAX_COLUMNS:,}")
    header = [_cell_text(c) for c in columns]
    for j, name in enumerate(header):
        if len(name) > MAX_HEADER_CHARS:
            raise DataError(
                f"table {table_id}: the name of column {j + 1} has {len(name):,} characters; at most "
                f"{MAX_HEADER_CHARS:,} are read (is the first line really a header?)"
            )
    rows = [[_cell_text(v) for v in row] for row in values]
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            if len(cell) > MAX_CELL_CHARS:
                raise DataError(
                    f"table {table_id}: row {i + 1}, column {header[j][:40]!r} has {len(cell):,} characters; "
                    f"cells are limited to {MAX_CELL_CHARS:,}"
                )
    notes: list[str] = []
    if value_rules == "user":
        # Excel writes `="00123"` to keep a code's leading zeros in a CSV: the cell is 00123
        rows = [
            [_EXCEL_TEXT.sub(r"\1", cell) if cell.startswith('="') else cell for cell in row] for row in rows
        ]
        kept = [row for row in rows if any(cell.strip() for cell in row)]
        if _row_numbers_column(header, kept):  # `df.to_csv()` and R's `write.csv` write their row index
            first = kept[0][0].strip()
            notes.append(f"the first column has no name and numbers the rows from {first}, so it is left out")
            header, rows = header[1:], [row[1:] for row in rows]
            kept = [row for row in rows if any(cell.strip() for cell in row)]
        if len(kept) < len(rows):  # a row of empty cells ("," in a CSV) is no data: it would be counted
            blank = len(rows) - len(kept)
            notes.append(f"{blank} empty row{'s' if blank > 1 else ''} left out")
            rows = kept
        if not rows:
            raise DataError(f"table {table_id}: has no rows (every row is empty)")
        units = _units_row(rows)
        if units is not None:  # "Height" above "cm": the column is "Height (cm)"
            header = [f"{name} ({unit})" if unit else name for name, unit in zip(header, units, strict=True)]
            notes.append(f"the first row under the header names units ({', '.join(u for u in units if u)})")
            rows = rows[1:]
        elif (joined := _two_row_header(header, rows)) is not None:  # "Q1" over "Sales" and "Units"
            header, rows = joined, rows[1:]
            shown = ", ".join(repr(name) for name in header[:4]) + (", ..." if len(header) > 4 else "")
            notes.append(f"the header is two rows, read as one ({shown})")
    footnotes = _footnote_rows(rows) if value_rules == "user" else 0
    if footnotes:
        shown = "; ".join(repr(row[0].strip()[:60]) for row in rows[-footnotes:])
        lines = "line is a note" if footnotes == 1 else f"{footnotes} lines are notes"
        notes.append(f"the last {lines} below the table ({shown}), so left out")
        rows = rows[:-footnotes]
    table = Table.from_rows(table_id, header, rows, value_rules=value_rules)
    summary = _summary_row(table) if value_rules == "user" else None
    if summary is not None:
        label, kind = summary
        table = Table.from_rows(table_id, header, rows[:-1], value_rules=value_rules)
        notes.append(
            f"the last row ({label!r}) holds the {kind} of the rows above, so it is left out; questions are "
            "answered over the other rows"
        )
    if value_rules == "user":
        notes += _unit_notes(table)
    return dataclasses.replace(table, notes=(*table.notes, *notes)) if notes else table


def _row_numbers_column(header: list[str], rows: list[list[str]]) -> bool:
    """Whether the first column is a row index written with the data: no name, and its cells number the
    rows 0, 1, 2, ... (pandas) or 1, 2, 3, ... (R), with other columns beside it, in three rows or more
    (`rows`: the non-empty ones), notes below them aside (`Source: ...` in the first cell). `Unnamed: 0`
    is how `pd.read_csv` names such a column."""
    if len(header) < 2 or (header[0].strip() and header[0] != "Unnamed: 0"):
        return False
    cells = [row[0].strip() for row in rows]
    for start in (0, 1):
        numbered = 0
        while numbered < len(cells) and cells[numbered] == str(numbered + start):
            numbered += 1
        # rows after the numbered ones may only be notes: their first cell alone filled
        if numbered >= 3 and not any(cell.strip() for row in rows[numbered:] for cell in row[1:]):
            return True
    return False


def _unit_notes(table: Table) -> list[str]:
    """A sentence for each column whose mixed units were read as one quantity: its sums and differences
    are in that unit."""
    notes = []
    for column in table.columns:
        quantity = table.quantity(column) if "number" in column.views else None
        if quantity is not None and quantity.converted:
            example = next(
                (text, value)
                for text, value in zip(column.raw, quantity.values, strict=True)
                if value is not None
            )
            notes.append(
                f"column {column.header!r} is read in {quantity.unit.name}s ({example[0].strip()!r} is "
                f"{example[1]:g}); sums and differences over it are in {quantity.unit.name}s"
            )
    return notes


_ANY_DIGIT = re.compile(r"\d")
#: A unit as a row under the header writes it: letters and symbols, no digit ("cm", "kg", "%", "USD", "km/h",
#: "°C", "(m)", "m²", "$ '000").
_UNIT_CELL = re.compile(r"[(\[]?\s*[^\W\d_][^\d]{0,9}[)\]]?|[(\[]?\s*[%$€£¥°#][^\d]{0,7}[)\]]?")


_KNOWN_UNIT_SIGNS = frozenset("% $ € £ ¥ usd eur gbp jpy chf °c °f pct percent".split())
_EXCEL_TEXT = re.compile(r'^="(.*)"$', re.DOTALL)


def _unit_word(cell: str) -> str:
    """A units-row cell as a unit word: "(cm)" and "[KG]" are "cm" and "kg"."""
    return cell.lower().strip("()[] ")


def _known_unit(cell: str) -> bool:
    return _unit_word(cell) in UNITS or _unit_word(cell) in _KNOWN_UNIT_SIGNS


#: Cells a row of data holds where it lacks a value, or says why: no unit.
_NOT_UNITS = frozenset(
    "n/a na n.a n.a. nan none null nil tbd tba tbc unknown x ? - -- — – dnf dns dnp dq dsq ret nc est est. "
    "e p r t pending".split()
)


def _units_row(rows: list[list[str]]) -> list[str] | None:
    """The units a first row under the header names, one per column ("" where blank), when it is such a
    row: every filled cell is a short unit (`_UNIT_CELL`), one at least a unit nsm knows, and the column
    below each holds numbers in at least half its rows. None when the first row is data."""
    if len(rows) < 2:
        return None
    first = [cell.strip() for cell in rows[0]]
    filled = [j for j, cell in enumerate(first) if cell]
    if not filled:
        return None
    if not any(_known_unit(first[j]) for j in filled):  # "#N/A", "est." or "DNP" over numbers is data
        return None
    below = rows[1:]
    for j in filled:
        if (
            not _UNIT_CELL.fullmatch(first[j])
            or _unit_word(first[j]) in _NOT_UNITS
            or first[j].startswith("#")  # a spreadsheet's error value ("#N/A", "#VALUE!")
        ):
            return None
        numeric = sum(1 for row in below if _ANY_DIGIT.search(row[j]))
        if numeric * 2 < len(below):
            return None
    return [cell.strip("()[] ") for cell in first]


#: A cell that is a number and nothing else ("1,200", "-3.5", "$12", "(40)", "12%"): data, never a label.
_NUMBER_CELL = re.compile(r"[\s(+\-−$€£¥]*\d[\d,.'\s]*%?\)?\s*")


def _two_row_header(header: list[str], rows: list[list[str]]) -> list[str] | None:
    """The header of a table whose header is two rows, as one row; None when it is one row. A spreadsheet
    writes a group over several columns ("Q1" over "Sales" and "Units", a merged cell) in the first row,
    blank over all but the group's first column, and the columns' own names in the second. It is such a
    header when each blank name has a label under it (letters: no number, no "n/a" or "-") over a column
    of numbers, no first-row cell is a number or a missing value, a named column's label is its name again
    (merged down) or stands over numbers (a group's first column), and the joined names differ. The names
    join group and label ("Q1 Sales", "Q1 Units"); a column with one of the two keeps it ("Region")."""
    if len(rows) < 3 or len(header) < 2:
        return None
    names = [name.strip() for name in header]
    labels = [cell.strip() for cell in rows[0]]
    below = rows[1:]

    def numeric(j: int) -> bool:
        filled = [row[j] for row in below if row[j].strip()]
        numbers = sum(1 for cell in filled if _NUMBER_CELL.fullmatch(cell))
        return bool(filled) and numbers * 5 >= 4 * len(filled)

    def blank(j: int) -> bool:  # a trailing separator's column: nothing anywhere
        return not names[j] and not labels[j] and not any(row[j].strip() for row in below)

    if any(
        _NUMBER_CELL.fullmatch(label) or label.lower() in _NOT_UNITS or label.startswith("#")
        for label in labels
        if label
    ):
        return None
    spans = [j for j in range(1, len(names)) if not names[j] and any(names[:j]) and not blank(j)]
    if not spans or any(not labels[j] or not numeric(j) for j in spans):
        return None
    if any(
        name and label and label != name and not numeric(j)
        for j, (name, label) in enumerate(zip(names, labels, strict=True))
    ):
        return None  # "Name" over "Alice" over more names: a first row of data
    joined, group = [], ""
    for j, (name, label) in enumerate(zip(names, labels, strict=True)):
        group = name or group
        if blank(j):
            joined.append("")
        elif label and label != name:
            joined.append(f"{group} {label}".strip())
        else:
            joined.append(name or group)
    filled = [name for name in joined if name]
    return joined if len(set(filled)) == len(filled) else None


#: How a spreadsheet's note below its table starts: a footnote mark ("* provisional", "¹ estimate",
#: "(1) ...") or a label and a colon ("Source: World Bank", "Note - ...", "NB: ...").
_FOOTNOTE = re.compile(
    r"\s*(?:[*†‡§¹²³⁴⁵⁶⁷⁸⁹]|\(\d{1,2}\)\s|\[\d{1,2}\]\s|"
    r"(?:notes?|sources?|footnotes?|n\.?b\.?|data source|last updated|updated|prepared by|compiled by)\s*[:.–-])",
    re.IGNORECASE,
)
#: A note that names itself ("Source: ...", "Notes: ..."): one whatever the cells after it hold.
_LABELLED_NOTE = re.compile(r"\s*(?:notes?|sources?|footnotes?|data source)\s*:", re.IGNORECASE)
_MAX_FOOTNOTES = 5


def _footnote_rows(rows: list[list[str]]) -> int:
    """How many of the last rows are notes below a table of two columns or more, data rows remaining above:
    each fills its first cell only, with a footnote mark or a label (`_FOOTNOTE`), or starts with a label
    and a colon ("Source: World Bank, 2023", whose comma filled a second cell). A row that only names
    something ("Zed", blanks after it) is data."""
    if not rows or len(rows[0]) < 2:
        return 0
    k = 0
    for row in reversed(rows[-_MAX_FOOTNOTES:]):
        # a labelled note may hold the delimiter ("Source: World Bank, 2023" fills two cells)
        blank_after = not any(cell.strip() for cell in row[1:])
        if not (_LABELLED_NOTE.match(row[0]) or (blank_after and _FOOTNOTE.match(row[0]))):
            break
        k += 1
    return k if k < len(rows) else 0


#: The labels of a spreadsheet's summary row, by what its numbers are.
_SUMMARY_LABELS = {
    "total": "sums",
    "totals": "sums",
    "grand total": "sums",
    "sum": "sums",
    "overall": "sums",
    "average": "averages",
    "mean": "averages",
    "avg": "averages",
}


_DECIMALS = re.compile(r"\d[.,](\d+)(?!.*\d)")


def _summary_label(label: str) -> str | None:
    """What a summary row's label says its numbers are (`_SUMMARY_LABELS`), also where it names what it totals
    ("Borough total", "Total all wards"); None for any other label."""
    words = label.lower().rstrip(":").split()
    kind = _SUMMARY_LABELS.get(" ".join(words))
    if kind is None and len(words) > 1 and {words[0], words[-1]} & {"total", "totals"}:
        return "sums"
    return kind


def _summary_row(table: Table) -> tuple[str, str] | None:
    """(label, what its numbers are) when the table's last row is a summary of the rows above: a cell
    labels it ("Total", "Average", "Borough total"), and every number it holds is the sum (or mean) of its
    column's numbers above, at least one of them, as the cell writes it (to its own decimals); a total row's
    percentages are not checked (a rate of the whole is weighted, no sum). A data row that is only called
    "Total" keeps its place, and so does any last row of a table of fewer than four rows."""
    if table.n_rows < 4:
        return None
    last = table.n_rows - 1
    labels = [c.raw[last].strip() for c in table.columns if "number" not in c.views and c.raw[last].strip()]
    kinds = {_summary_label(label) for label in labels}
    if len(labels) != 1 or None in kinds:
        return None
    kind = kinds.pop()
    checked = 0
    for column in table.columns:
        numbers = column.views.get("number")
        if numbers is None or numbers[last] is None:
            continue
        if kind == "sums" and column.raw[last].strip().endswith("%"):
            continue  # a total row's rate is of the whole (weighted), not the sum of the rates above
        above = [v for v in numbers[:last] if v is not None]
        if not above:
            return None
        expected = sum(above) if kind == "sums" else sum(above) / len(above)
        if not (math.isfinite(expected) and math.isfinite(numbers[last])):
            return None
        # the summary cell is rounded to the decimals it shows ("12.3" for 12.333...)
        shown = _DECIMALS.search(column.raw[last])
        tolerance = 0.5 * 10 ** -(len(shown.group(1)) if shown else 0) + 1e-9 * abs(expected)
        if abs(numbers[last] - expected) > tolerance:
            return None
        checked += 1
    return (labels[0], kind) if checked else None


def _unsupported(name: str, kind: str) -> DataError:
    return DataError(
        f"{name}: unsupported table format ({kind}); supported: {', '.join(SUPPORTED_EXTENSIONS)}"
        " (or say which with --format)"
    )


def _too_large(name: str, size: int | None) -> DataError:
    amount = f"{size / 2**20:,.0f} MiB" if size is not None and size > MAX_FILE_BYTES else "the input"
    return DataError(
        f"{name}: {amount} is too large; table files are limited to "
        f"{MAX_FILE_BYTES // 2**20} MiB and {MAX_ROWS:,} rows"
    )


def _split_sheet(path: Path) -> tuple[Path, str | None]:
    """A workbook's file and the worksheet a path names after `#` (`book.xlsx#Sheet 2`), when no file has
    the whole name; else the path and None."""
    if not path.exists() and _SHEET.search(str(path)):
        base, _, sheet = str(path).rpartition("#")
        return Path(base), sheet
    return path, None


def _read_file(path: Path, fmt: str | None) -> _Input:
    """A local file's bytes. Pipes and devices are refused: reading one could block or never end."""
    path, sheet = _split_sheet(path)
    if path.is_dir():
        raise DataError(f"{path}: is a directory, not a table file")
    if not path.exists():
        raise DataError(f"{path}: no such file")
    try:
        info = path.stat()
    except OSError as e:
        raise DataError(f"{path}: cannot read: {e.strerror or e}") from None
    if not stat.S_ISREG(info.st_mode):
        raise DataError(
            f"{path}: not a regular file (a pipe, socket or device); to read a stream, give - as TABLE"
        )
    if fmt is None:
        kind = f"'{path.suffix}'" if path.suffix else "no extension"
        fmt = _FORMAT_OF_EXTENSION.get(path.suffix.lower())
        if fmt is None:
            raise _unsupported(str(path), kind)
    if info.st_size > MAX_FILE_BYTES:
        raise _too_large(str(path), info.st_size)
    try:
        with open(path, "rb") as f:  # at most one byte past the limit, in case the file grows meanwhile
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise DataError(f"{path}: cannot read: {e.strerror or e}") from None
    if len(data) > MAX_FILE_BYTES:
        raise _too_large(str(path), None)
    return _Input(str(path), path.stem, data, fmt, sheet)


def _read_stdin(fmt: str | None) -> _Input:
    if sys.stdin is None:
        raise DataError("- reads the table from standard input, but there is none")
    if getattr(sys.stdin, "isatty", lambda: False)():  # reading would wait for typing, not for a table
        raise DataError("- reads the table from standard input, but nothing is piped in (cmd | nsm ... -)")
    data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise _too_large("stdin", None)
    return _Input("stdin", "stdin", data, fmt or _sniff_format(data))


def _fetch_url(url: str, fmt: str | None) -> _Input:
    """A URL's body, read like a file (same limits, formats and encodings); the format comes from the
    URL's path when it has a known extension, else from the bytes."""
    import http.client
    import urllib.error
    import urllib.parse
    import urllib.request

    parts = urllib.parse.urlsplit(url)
    path = PurePosixPath(urllib.parse.unquote(parts.path))
    if fmt is None and path.suffix:
        fmt = _FORMAT_OF_EXTENSION.get(path.suffix.lower())
    request = urllib.request.Request(url, headers={"User-Agent": f"nsmcli/{__version__}"})
    try:
        with urllib.request.urlopen(request, timeout=_FETCH_TIMEOUT_S) as response:
            # read to the end (one read may return part of the body) and compare with Content-Length: a
            # dropped connection must not pass for a shorter table
            chunks, size = [], 0
            while size <= MAX_FILE_BYTES:
                chunk = response.read(MAX_FILE_BYTES + 1 - size)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
            data = b"".join(chunks)
            missing = getattr(response, "length", None)  # what Content-Length promised and did not come
            charset = response.headers.get_content_charset()
        if missing and size <= MAX_FILE_BYTES:
            raise DataError(
                f"{url}: cannot fetch: the reply was cut short ({size:,} of {size + missing:,} bytes)"
            )
    except urllib.error.HTTPError as e:
        raise DataError(f"{url}: cannot fetch: HTTP {e.code} {e.reason}") from None
    except urllib.error.URLError as e:
        raise DataError(f"{url}: cannot fetch: {brief(e.reason)}") from None
    except (OSError, ValueError, http.client.HTTPException) as e:
        # timeouts, dropped connections, malformed URLs, and replies cut short or malformed (IncompleteRead)
        raise DataError(f"{url}: cannot fetch: {brief(e)}") from None
    if len(data) > MAX_FILE_BYTES:
        raise _too_large(url, None)
    return _Input(
        url, path.stem or "table", data, fmt or _sniff_format(data), parts.fragment or None, charset
    )


def _sniff_format(data: bytes) -> str:
    """The format of bytes that come without a file name: zip (xlsx), Parquet, JSON, else delimited text."""
    if data.startswith(b"PK\x03\x04"):
        return "xlsx"
    if data.startswith(b"PAR1"):
        return "parquet"
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"["):
        return "json"
    if head.startswith(b"{"):
        first_line = data.lstrip(b"\xef\xbb\xbf \t\r\n").split(b"\n", 1)[0]
        try:
            json.loads(first_line)
            return "jsonl"  # one complete object on the first line: JSON Lines
        except ValueError:
            return "json"
    return "csv"


#: Bytes that text tables do not contain (tab, newlines and form feed aside): images, archives, NULs.
_CONTROL_BYTES = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")


def _decode(found: _Input, encoding: str | None) -> str:
    """The text of a text-format input, or a DataError that names the encoding problem."""
    data, name = found.data, found.name
    encoding = encoding or found.charset
    if encoding is None and data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"  # Excel's "Unicode text" export
    if encoding is not None:
        try:
            codec = codecs.lookup(encoding).name
        except LookupError:
            raise DataError(f"unknown encoding {encoding!r} (try utf-8, cp1252, latin-1 or utf-16)") from None
    else:
        codec = "utf-8-sig"  # reads plain UTF-8 too, and drops a byte-order mark that would stick to a name
    if not codec.startswith(("utf-16", "utf-32")) and _CONTROL_BYTES.search(data[:_SNIFF_CHARS]):
        raise DataError(f"{name}: not a text table (it contains binary data)")
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as e:
        byte = data[e.start : e.start + 1].hex()
        if encoding is None:
            raise DataError(
                f"{name}: not UTF-8 text (byte 0x{byte} at offset {e.start}); give the file's encoding, "
                "e.g. --encoding cp1252 for a Windows or Excel export"
            ) from None
        raise DataError(f"{name}: not valid {encoding} text (byte 0x{byte} at offset {e.start})") from None
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise DataError(f"{name}: is empty")
    return text


_DELIMITERS = (",", ";", "\t", "|")
_SEP_DIRECTIVE = re.compile(r'"?sep=([,;\t|])"?\r?\n')
_SNIFF_CHARS = 64 * 1024


#: At most this many title lines ("Quarterly report", a blank line) stand above a header.
_MAX_TITLE_LINES = 10


def _title_records(records: list[list[str]]) -> int:
    """How many leading records are a title above the header: records empty or filled in their first cell
    only ("Quarterly report,,"), followed by the header: a record with a later cell filled, no number among
    its cells (else it is a data row, and the record above it a header of one named column, `Name,`), and
    as wide as the records after it. None of them (0) when no such header follows within
    `_MAX_TITLE_LINES`, as in a table of one column. Labelled lines count too (`_labelled_records`)."""
    for k, record in enumerate(records[: _MAX_TITLE_LINES + 1]):
        if any(cell.strip() for cell in record[1:]):
            after = records[k + 1 : k + 6]
            if k == 0 or not after or any(_PLAIN_NUMBER.fullmatch(cell.strip()) for cell in record):
                return _labelled_records(records)
            return k if _header_of(record, after) else 0
    return 0


def _labelled_records(records: list[list[str]]) -> int:
    """How many leading records are labelled lines above a wider header ("Event date,18 May 2024,,,"
    above "No.,Rider,Gender,Category,Time"): records filled in their first two cells at most, a value with
    a digit in the second where it is filled (a date, a number: "Name,Score," is a header of two columns),
    followed by a header filling at least twice as many cells as any of them, with no number among them, as
    wide as the records after it ("Name,2023," above "Alice,-,-" is a header). 0 when there is no such
    header within `_MAX_TITLE_LINES` (a table of two columns has none)."""
    labelled = 0
    for k, record in enumerate(records[: _MAX_TITLE_LINES + 1]):
        filled = sum(1 for cell in record if cell.strip())
        if not any(cell.strip() for cell in record[2:]):
            if len(record) > 1 and record[1].strip() and not any(ch.isdigit() for ch in record[1]):
                return 0
            labelled = max(labelled, filled)
            continue
        if k == 0 or filled < max(3, 2 * labelled) or any(_PLAIN_NUMBER.fullmatch(c.strip()) for c in record):
            return 0
        return k if _header_of(record, records[k + 1 : k + 6]) else 0
    return 0


def _header_of(record: list[str], after: list[list[str]]) -> bool:
    return bool(after) and all(len(r) == len(record) for r in after)


_PLAIN_NUMBER = re.compile(r"[-+]?[\d.,]*\d%?")


def _skip_title_lines(text: str, sep: str) -> str:
    """`text` from its header on: a spreadsheet's export often starts with a title line, a date or a blank
    line above the header ("Quarterly report,,"), which would otherwise be read as the header."""
    quoting = csv.QUOTE_NONE if sep == "\t" else csv.QUOTE_MINIMAL
    lines = text[:_SNIFF_CHARS].splitlines(keepends=True)
    reader = csv.reader(lines, delimiter=sep, quoting=quoting)
    records, ends = [], []
    try:
        for record in reader:
            records.append(record)
            ends.append(reader.line_num)
            if len(records) > _MAX_TITLE_LINES:
                break
    except csv.Error:
        return text
    k = _title_records(records)
    if k == 0:
        return text
    return text[sum(len(line) for line in lines[: ends[k - 1]]) :]


def _sniff_delimiter(text: str) -> str:
    """The delimiter of CSV-like text: of comma, semicolon, tab and pipe, the one that splits the header
    into the most fields that the next records agree with (comma when none splits it). Records that
    disagree are left for the parser to report as ragged rows."""
    sample = text[:_SNIFF_CHARS]
    if len(text) > _SNIFF_CHARS and "\n" in sample:
        sample = sample[: sample.rindex("\n")]
    best, best_score = ",", (0.0, 0, 1)
    for sep in _DELIMITERS:
        try:
            records = [r for r in csv.reader(io.StringIO(sample), delimiter=sep) if r][
                : 50 + _MAX_TITLE_LINES
            ]
        except csv.Error:
            continue
        titles = _title_records(records)
        widths = [len(r) for r in records[titles:]][:50]
        if not widths or widths[0] < 2:
            continue
        agreeing = sum(w == widths[0] for w in widths) / len(widths)
        # a delimiter that reads the first line as the header beats one that needs title lines skipped
        score = (agreeing, -titles, widths[0])
        if score > best_score:
            best, best_score = sep, score
    return best


#: A physical line as the csv module ends a record's lines: at \r\n, \n or a lone \r (and nothing else,
#: unlike `str.splitlines`). Question files (`_text_lines`) split at \n only.
_PHYSICAL_LINE = re.compile(r"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+\Z")


def _parse_delimited(name: str, text: str, sep: str, first_line: int = 1) -> Grid:
    """Parse delimited text: the first record is the header, a shorter row is padded with empty cells, a
    longer one is an error naming its physical line (the text's first is the file's `first_line`), and
    blank lines are skipped.

    Tab-separated text is read without quoting (the IANA TSV convention, and WTQ's): a cell such as
    `"Yesterday" (song)` keeps its quotes. Other delimiters follow RFC 4180 quoting.
    """
    quoting = csv.QUOTE_NONE if sep == "\t" else csv.QUOTE_MINIMAL
    read = [0, 0]  # how far the reader has read: the offset, and the physical lines

    def physical_lines() -> Iterator[str]:
        for match in _PHYSICAL_LINE.finditer(text):
            read[0], read[1] = match.end(), read[1] + 1
            yield match.group()

    records: list[list[str]] = []
    start, line = 0, first_line  # where the record being read starts: its offset and physical line
    last = 0  # where the last record kept starts
    limit = csv.field_size_limit(MAX_FILE_BYTES)  # a long cell is refused by the shape caps, by its size
    try:
        for record in csv.reader(physical_lines(), delimiter=sep, quoting=quoting):
            blank = len(record) < 2 and not text[start : read[0]].strip(" \t\r\n")  # not `""`
            if not blank:
                if records and len(record) > len(records[0]):
                    raise DataError(
                        f"{name}: line {line} has {len(record)} cells but the header has {len(records[0])} "
                        "(ragged rows)"
                    )
                records.append(record)
                last = start
                if len(records) > MAX_ROWS + 1:
                    break
            start, line = read[0], first_line + read[1]
        # past MAX_ROWS the caller refuses the table; else a quote left open took in the rest of the file
        if len(records) <= MAX_ROWS + 1 and quoting == csv.QUOTE_MINIMAL and _open_quote(text[last:], sep):
            raise DataError(f"{name}: unterminated quoted cell starting in data row {len(records) - 1}")
    except csv.Error as e:
        kind = {"\t": "TSV", ",": "CSV"}.get(sep, f"{sep!r}-separated text")
        raise DataError(f"{name}: cannot parse as {kind}: {e} (line {line})") from None
    finally:
        csv.field_size_limit(limit)
    if not records:
        raise DataError(f"{name}: is empty")
    width = len(records[0])
    return records[0], [record + [""] * (width - len(record)) for record in records[1:]]


def _open_quote(last: str, sep: str) -> bool:
    """Whether the last record of a text (`last`, from its start) leaves a quoted cell open at the end of
    the text; the lenient reader would silently take the rest of the file as that cell. A record with an
    earlier quoting fault (`"12"x`) stops the strict reading there, and passes."""
    try:
        for _ in csv.reader(io.StringIO(last, newline=""), delimiter=sep, strict=True):
            pass
    except csv.Error as e:
        return "unexpected end of data" in str(e)
    return False


def _records_grid(name: str, records: list, where: Callable[[int], str]) -> Grid:
    """Records (JSON objects) as a grid: columns are the keys in first-seen order (nested objects' keys as
    `a.b`, `_flattened`), absent keys are empty."""
    records = records[: MAX_ROWS + 1]
    for i, record in enumerate(records):
        if not isinstance(record, dict):
            raise DataError(f"{name}: {where(i)} is not a JSON object (one record per row is expected)")
    if any(isinstance(v, dict) for r in records for v in r.values()):
        records = [_flattened(r) for r in records]
    keyed = [{str(k): v for k, v in r.items()} for r in records]  # JSON keys are strings
    columns = dict.fromkeys(key for r in keyed for key in r)
    if not columns:
        raise DataError(f"{name}: has no rows" if not records else f"{name}: records have no fields")
    return list(columns), [[r.get(k) for k in columns] for r in keyed]


def _flattened(record: dict, prefix: str = "", depth: int = 0) -> dict[str, Any]:
    """A record whose nested objects are columns of their own, named by their path (`{"stats": {"goals":
    5}}` has the column `stats.goals`), to three levels; deeper ones stay JSON text in their cell."""
    out: dict[str, Any] = {}
    for key, value in record.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value and depth < 3:
            out.update(_flattened(value, f"{name}.", depth + 1))
        else:
            out[name] = value
    return out


def _records_of(document: object) -> list | None:
    """The rows of a JSON document that is not an array of records but holds one as people export them:
    an array of arrays under a header array (`[["name", "score"], ["Ann", 5]]`), columns of equal length
    (`{"name": ["Ann", "Bo"], "score": [5, 7]}`), pandas' `columns` and `index` orients (`{"score": {"0": 5,
    "1": 7}}`), or an API's response with one array of records in it (`{"data": [...], "count": 2}`)."""
    if isinstance(document, list):
        if len(document) >= 2 and all(isinstance(r, list) for r in document):
            header, *rows = document
            if (
                header
                and all(isinstance(h, str) for h in header)
                and all(len(r) == len(header) for r in rows)
            ):
                seen: Counter = Counter()
                names = []  # a repeated name gets a number, as a repeated CSV header keeps both columns
                for h in header:
                    seen[h] += 1
                    names.append(h if seen[h] == 1 else f"{h} ({seen[h]})")
                return [dict(zip(names, r, strict=True)) for r in rows]
        return None
    if not isinstance(document, dict) or not document:
        return None
    values = list(document.values())
    if all(isinstance(v, list) for v in values) and len({len(v) for v in values}) == 1 and values[0]:
        if not any(isinstance(x, (dict, list)) for v in values for x in v):
            return [dict(zip(document, row, strict=True)) for row in zip(*values, strict=True)]
    if all(isinstance(v, dict) for v in values):
        inner = [list(v) for v in values]
        if all(keys == inner[0] for keys in inner) and all(k.isdigit() for k in inner[0]):  # orient="columns"
            return [{column: document[column][k] for column in document} for k in inner[0]]
        if all(str(k).isdigit() for k in document):  # orient="index"
            return values
    arrays = [v for v in values if isinstance(v, list) and v and all(isinstance(r, dict) for r in v)]
    return arrays[0] if len(arrays) == 1 else None


def _parse_jsonl(name: str, text: str) -> Grid:
    """Parse JSON Lines records, one object per line."""
    records: list = []
    lines: list[int] = []
    for line_no, line in enumerate(_text_lines(text), 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as e:
            raise DataError(f"{name}: line {line_no} is not valid JSON ({e.msg})") from None
        lines.append(line_no)
        if len(records) > MAX_ROWS:
            break
    return _records_grid(name, records, lambda i: f"line {lines[i]}")


def _parse_json(name: str, text: str) -> Grid:
    """Parse a JSON array of records, `{"columns": [...], "data": [[...], ...]}` (pandas' `split`), or one of
    the other shapes of `_records_of`."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as e:
        raise DataError(f"{name}: not valid JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
    if isinstance(document, list) and not (document and all(isinstance(r, list) for r in document)):
        return _records_grid(name, document, lambda i: f"item {i + 1} of the array")
    if isinstance(document, dict) and isinstance(document.get("columns"), list) and "data" in document:
        columns, data = [_cell_text(c) for c in document["columns"]], document["data"]
        if not isinstance(data, list) or not all(isinstance(row, list) for row in data):
            raise DataError(f'{name}: "data" must be a list of rows (lists of cells)')
        for i, row in enumerate(data):
            if len(row) != len(columns):
                raise DataError(f"{name}: data row {i + 1} has {len(row)} cells, columns has {len(columns)}")
        return columns, data
    records = _records_of(document)
    if records is not None:
        return _records_grid(name, records, lambda i: f"record {i + 1}")
    raise DataError(
        f'{name}: expected a JSON array of records ([{{"column": value, ...}}, ...]), columns of equal length '
        '({"column": [...], ...}) or {"columns": [...], "data": [[...], ...]}'
    )


def _missing(package: str, kind: str) -> DataError:
    return DataError(f"reading {kind} tables needs {package}, which is not installed: {_INSTALL_HINT}")


def _parse_xlsx(name: str, data: bytes, sheet: str | None) -> Grid:
    """The first worksheet (or `sheet`) of an Excel workbook: the first non-empty row is the header (after
    title rows of one cell, `_title_records`), empty rows are skipped, cells print as Excel shows them where
    that matters (percentages, dates), and a text merged down over rows is each row's (`_merged_down`)."""
    try:
        import openpyxl
    except ImportError:
        raise _missing("openpyxl", ".xlsx") from None
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as e:  # openpyxl raises zipfile, KeyError and its own errors for a damaged workbook
        raise DataError(f"{name}: not an Excel .xlsx workbook ({brief(e)})") from None
    try:
        if sheet is not None and sheet not in book.sheetnames:
            raise DataError(f"{name}: no worksheet {sheet!r}; the workbook has {', '.join(book.sheetnames)}")
        worksheet = book[sheet] if sheet is not None else book.worksheets[0]
        merged = _merged_down(data, getattr(worksheet, "_worksheet_path", None))
        filling: dict[int, tuple[str, int]] = {}  # column -> (its merged text, the merge's last row)
        records: list[list[str]] = []
        for r, row in enumerate(worksheet.iter_rows(min_row=1, min_col=1), 1):
            cells = [_xlsx_cell_text(cell) for cell in row]
            for c, last in merged.get(r, ()):
                value = getattr(row[c - 1], "value", None) if c <= len(row) else None
                if value is not None and not isinstance(value, int | float):  # Excel sums numbers once
                    filling[c] = (cells[c - 1], last)
            for c, (text, last) in list(filling.items()):
                if r > last:
                    del filling[c]
                    continue
                cells += [""] * (c - len(cells))
                cells[c - 1] = cells[c - 1] or text
            if any(cells):
                records.append(cells)
            if len(records) > MAX_ROWS + 1:
                break
    finally:
        book.close()
    if not records:
        raise DataError(f"{name}: the worksheet is empty")
    width = max(max((j + 1 for j, c in enumerate(r) if c), default=0) for r in records)
    records = [(r + [""] * width)[:width] for r in records]
    records = records[_title_records(records) :]  # a title fills one cell, so the width stays
    return records[0], records[1:]


_MERGE_CELL = re.compile(rb'<(?:\w+:)?mergeCell\b[^>]*?\bref="([A-Z]{1,3})(\d+):([A-Z]{1,3})(\d+)"')


def _column_number(letters: bytes) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + letter - 64
    return number


def _merged_down(data: bytes, sheet_path: str | None) -> dict[int, list[tuple[int, int]]]:
    """First row -> (column, last row) of each merge one column wide over several rows in the worksheet
    (a department's name merged down over its staff): as Excel shows it, the text is each row's. Wider
    merges (a title over the table, a group over a header's columns) stay in their first cell. openpyxl's
    streaming reader skips merges, so they are read off the sheet's XML, in pieces."""
    if not sheet_path:
        return {}
    import zipfile

    starts: dict[int, list[tuple[int, int]]] = {}
    seen: set[bytes] = set()
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as book, book.open(sheet_path.lstrip("/")) as xml:
            tail = b""
            while chunk := xml.read(1 << 20):
                text = tail + chunk
                for m in _MERGE_CELL.finditer(text):
                    if m[0] in seen or m[1] != m[3] or int(m[4]) <= int(m[2]):
                        continue
                    seen.add(m[0])
                    starts.setdefault(int(m[2]), []).append((_column_number(m[1]), int(m[4])))
                tail = text[-256:]
    except (KeyError, OSError, zipfile.BadZipFile):
        return {}
    return starts


def _xlsx_cell_text(cell: Any) -> str:
    value = getattr(cell, "value", None)
    if isinstance(value, int | float) and not isinstance(value, bool) and "%" in (cell.number_format or ""):
        return f"{format_number(round(value * 100, 10))}%"  # Excel stores 12.5% as 0.125
    return _cell_text(value)


def _parse_parquet(name: str, data: bytes) -> Grid:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise _missing("pyarrow", ".parquet") from None
    try:
        parquet = pq.ParquetFile(io.BytesIO(data))
    except Exception as e:  # pyarrow raises ArrowInvalid and OSError subclasses for a damaged file
        raise DataError(f"{name}: not a Parquet file ({brief(e)})") from None
    if parquet.metadata.num_rows > MAX_ROWS:
        raise DataError(f"{name}: more than {MAX_ROWS:,} rows; tables are limited to {MAX_ROWS:,} rows")
    try:
        arrow = parquet.read()
    except Exception as e:
        raise DataError(f"{name}: cannot read the Parquet data ({brief(e)})") from None
    columns = list(arrow.column_names)
    rows = [list(r.values()) for r in arrow.to_pylist()] if len(set(columns)) == len(columns) else None
    if rows is None:  # duplicate names collapse in to_pylist; read column by column instead
        rows = [
            list(r) for r in zip(*(arrow.column(j).to_pylist() for j in range(len(columns))), strict=True)
        ]
    return columns, rows


def _cell_text(value: Any) -> str:
    """One cell's display text: None/NaN are empty, integral floats drop `.0`, nested JSON stays JSON, a
    midnight timestamp is its ISO date and any other is `yyyy-mm-dd hh:mm[:ss]`."""
    if value is None:
        return ""
    pandas = sys.modules.get("pandas")  # a pandas value comes only with pandas imported
    if pandas is not None and (value is pandas.NA or value is pandas.NaT):
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, datetime.datetime):
        if value.time() == datetime.time(0) and value.tzinfo is None:
            return value.date().isoformat()
        return value.isoformat(
            sep=" ", timespec="minutes" if value.second == value.microsecond == 0 else "auto"
        )
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "" if math.isnan(value) else format_number(value) if math.isfinite(value) else str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


# --------------------------------------------------------------------------------------------------------
# Question files: `nsm parse --questions` and the `tables` dataset of `nsm preprocess`


#: Longer questions are refused: real questions are a sentence or two (the longest of WTQ and WikiSQL
#: have 352 and 275 characters), and a pasted document is a mistake, not a question.
MAX_QUESTION_CHARS = 1000


def check_question(question: str) -> str:
    """The question, stripped; a DataError when it is empty or longer than `MAX_QUESTION_CHARS`."""
    text = " ".join(str(question).split())
    if not text:
        raise DataError("the question is empty")
    if len(text) > MAX_QUESTION_CHARS:
        raise DataError(f"the question has {len(text):,} characters; at most {MAX_QUESTION_CHARS:,} are read")
    return text


@dataclass
class QuestionCase:
    """One line of a question file: a table, a question and, optionally, the expected answer."""

    table: Path
    question: str
    answer: list[str] | None = None
    line: int = 0  # in the question file, for error messages


def read_question_file(path: Path | str) -> list[QuestionCase]:
    """A TSV with a header `table<TAB>question[<TAB>answer]`: table paths are relative to the file, several
    answers are separated by `|`."""
    path = Path(path)
    try:
        # -sig: files saved by spreadsheets. Lines end at \n (and \r\n) only: str.splitlines would also
        # split at U+2028, U+0085 and the like inside a question and shift every later line number
        lines = _text_lines(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"cannot read question file {path}: {exc}") from None
    header = lines[0].split("\t") if lines else []
    if header[:2] != ["table", "question"]:
        raise DataError(f"{path}: the first line must be the header table<TAB>question[<TAB>answer]")
    cases = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) < 2:
            raise DataError(f"{path}:{number}: expected table<TAB>question[<TAB>answer]")
        try:
            check_question(fields[1])
        except DataError as exc:
            raise DataError(f"{path}:{number}: {exc}") from None
        answer = fields[2].split("|") if len(fields) > 2 and fields[2] else None
        cases.append(QuestionCase(path.parent / fields[0], fields[1], answer, number))
    if not cases:
        raise DataError(f"{path}: no questions after the header line")
    return cases


def remembered_table(path: Path | str, table: Path | str) -> str:
    """How the question file `path` would name the table file `table` (relative to the file's folder, with a
    workbook's `#Sheet`), after checking that a line can be remembered there: a DataError when `table` is no
    file, when `path` is a symbolic link, or when it exists but cannot be read or has another header. Call it
    before the work whose answer is remembered (`remember_answer` checks again)."""
    relative = _relative_table(Path(path), Path(table))
    _question_file_lines(Path(path))
    return relative


def _relative_table(path: Path, table: Path) -> str:
    """`remembered_table`'s name for `table` in `path`, without reading the question file."""
    table, sheet = _split_sheet(table)  # `book.xlsx#Sheet 2`, as `load_table` reads it
    if not table.is_file():
        raise DataError(f"cannot remember a question over {table}: it is not a table file")
    if path.is_symlink():  # replacing it atomically would replace the link, not its target
        raise DataError(f"{path} is a symbolic link: give the question file itself")
    # relative to the folder `read_question_file` reads it from, both resolved: a `..` after a linked
    # folder leads out of the link's target, not back to where the link is
    relative = os.path.relpath(table.resolve(), Path(os.path.abspath(path)).parent.resolve())
    relative += "" if sheet is None else f"#{sheet}"
    if any(c in relative for c in "\t\r\n"):
        raise DataError(f"cannot remember a question over {table}: its path holds a tab or a line break")
    return relative


def _question_file_lines(path: Path) -> list[str]:
    """The lines of the question file `path` to add to (its header with an answer column), or a new one's."""
    if not path.exists():
        return ["table\tquestion\tanswer"]
    try:
        lines = _text_lines(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"cannot read question file {path}: {exc}") from None
    if not lines:
        return ["table\tquestion\tanswer"]
    header = lines[0].split("\t")
    if header[:2] != ["table", "question"] or header[2:3] not in ([], ["answer"]):
        raise DataError(f"{path}: the first line must be the header table<TAB>question[<TAB>answer]")
    if len(header) == 2:
        lines[0] += "\tanswer"
    return lines


def clean_answers(answers: Sequence[str]) -> list[str]:
    """Answers as a question file writes them (spaces collapsed); a DataError for an empty one or one
    holding `|`, which separates a file's answers."""
    cleaned = [" ".join(str(a).split()) for a in answers]
    if not cleaned or not all(cleaned):
        raise DataError("the answer is empty")
    if any("|" in a for a in cleaned):
        raise DataError("an answer holds '|', which separates answers in a question file")
    return cleaned


def remember_answer(
    path: Path | str, table: Path | str, question: str, answers: Sequence[str]
) -> tuple[bool, list[str]]:
    """Write the right `answers` to `question` over the table file `table` into the question file `path`
    (created with its header when missing; the table named as `remembered_table` says). The lines with the
    same table and question get the new answer; else a line is added. The file is rewritten atomically
    under a lock, so a failure loses nothing; a second writer at the same moment is refused with a
    DataError. Returns whether a line was replaced, and the answers as written (`clean_answers`)."""
    from nsmcli.fileio import atomic_write_text, output_lock

    path = Path(path)
    question = check_question(question)
    answers = clean_answers(answers)
    relative = _relative_table(path, Path(table))  # the file is read once, under the lock
    with output_lock(path, "question file", inside=False):
        lines = _question_file_lines(path)
        row = [relative, question, "|".join(answers)]
        replaced = False
        for number, line in enumerate(lines[1:], start=1):
            fields = line.split("\t")
            if len(fields) < 2 or " ".join(fields[1].split()) != question:
                continue
            if fields[0] == relative or _same_file(path.parent / fields[0], path.parent / relative):
                lines[number] = "\t".join([*row, *fields[3:]])
                replaced = True
        if not replaced:
            lines.append("\t".join(row))
        atomic_write_text(path, "\n".join(lines) + "\n")
    return replaced, answers


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except (OSError, ValueError):  # a NUL in a line's path
        return False


def _text_lines(text: str) -> list[str]:
    """The lines of a text file as editors number them: split at \n (a \r before it dropped) and nothing
    else, unlike `str.splitlines`."""
    lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
    return lines[:-1] if lines and lines[-1] == "" else lines
