"""Table loaders: WikiTableQuestions CSVs, WikiSQL `*.tables.jsonl`, and any user CSV / TSV / JSONL file.

Every loader returns a typed `Table` with the file's column order. User files are read with every cell as
text (no pandas type guessing, no `NA` -> NaN), so what the user wrote is what programs see. Anything wrong
with a user file raises one `DataError` whose message names the file and the problem.

Limits on user files: at most `MAX_ROWS` (100,000) data rows and `MAX_FILE_BYTES` (256 MiB); the search
and training code keep whole tables in memory and type every cell, so larger inputs are refused up front.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from nsmcli.data.table import Table
from nsmcli.data.values import format_number
from nsmcli.errors import DataError

__all__ = [
    "MAX_ROWS",
    "MAX_FILE_BYTES",
    "SUPPORTED_EXTENSIONS",
    "wtq_table_id",
    "load_wtq_table",
    "read_wtq_csv",
    "iter_wikisql_tables",
    "load_table",
    "table_from_dataframe",
    "MAX_QUESTION_CHARS",
    "QuestionCase",
    "check_question",
    "read_question_file",
]

MAX_ROWS = 100_000
MAX_FILE_BYTES = 256 * 2**20
SUPPORTED_EXTENSIONS = (".csv", ".tsv", ".jsonl")

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


def load_wtq_table(data_dir: Path, context: str) -> Table:
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
    return Table.from_rows(table_id, header, rows)


# --------------------------------------------------------------------------------------------------------
# WikiSQL


def iter_wikisql_tables(path: Path) -> Iterator[Table]:
    """Yield the tables of a WikiSQL `*.tables.jsonl`, typed by its `real`/`text` column types."""
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
            yield Table.from_rows(str(table_id), [str(h) for h in header], cells, column_types=types)


# --------------------------------------------------------------------------------------------------------
# User tables


def load_table(path: Path | str, *, table_id: str | None = None) -> Table:
    """Load a user table from `.csv`, `.tsv` or `.jsonl` (one JSON object per line), all cells as text.

    The table id defaults to the file name without extension.
    """
    path = Path(path)
    text = _read_text(path)
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        df = _parse_jsonl(path, text)
    else:
        df = _parse_delimited(path, text, "\t" if suffix == ".tsv" else ",")
    if len(df) > MAX_ROWS:
        raise DataError(f"{path}: more than {MAX_ROWS:,} rows; tables are limited to {MAX_ROWS:,} rows")
    if len(df) == 0:
        raise DataError(f"{path}: has no rows (only a header)")
    try:
        return table_from_dataframe(df, table_id or path.stem or "table")
    except DataError as e:
        raise DataError(f"{path}: {e}") from None


def table_from_dataframe(df: pd.DataFrame, table_id: str = "table") -> Table:
    """Build a typed table from a DataFrame; missing values become empty cells, numbers print plainly."""
    if len(df.columns) == 0:
        raise DataError(f"table {table_id}: no columns")
    if len(df) == 0:
        raise DataError(f"table {table_id}: has no rows")
    header = [_cell_text(c) for c in df.columns]
    rows = [[_cell_text(v) for v in row] for row in df.itertuples(index=False, name=None)]
    return Table.from_rows(table_id, header, rows)


def _read_text(path: Path) -> str:
    """The file's text, or a DataError that says why there is none."""
    if path.is_dir():
        raise DataError(f"{path}: is a directory, not a table file")
    if not path.exists():
        raise DataError(f"{path}: no such file")
    if path.suffix.lower() not in SUPPORTED_EXTENSIONS:
        kind = f"'{path.suffix}'" if path.suffix else "no extension"
        raise DataError(
            f"{path}: unsupported table format ({kind}); supported: {', '.join(SUPPORTED_EXTENSIONS)}"
        )
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:  # read at most one byte past the limit: a device or pipe has no size
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise DataError(f"{path}: cannot read: {e.strerror or e}") from None
    if len(data) > MAX_FILE_BYTES:
        amount = f"{size / 2**20:,.0f} MiB" if size > MAX_FILE_BYTES else "the input"
        raise DataError(
            f"{path}: {amount} is too large; table files are limited to "
            f"{MAX_FILE_BYTES // 2**20} MiB and {MAX_ROWS:,} rows"
        )
    if b"\x00" in data:
        raise DataError(f"{path}: not a text table (it contains binary data)")
    try:
        # utf-8-sig reads plain UTF-8 too and drops a byte-order mark that would otherwise stick to the
        # first column name.
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise DataError(f"{path}: not a text table (bytes at offset {e.start} are not valid UTF-8)") from None
    if not text.strip():
        raise DataError(f"{path}: is empty")
    return text


_PANDAS_RAGGED = re.compile(r"Expected (\d+) fields in line (\d+), saw (\d+)")
_PANDAS_EOF = re.compile(r"EOF inside string starting at row (\d+)")


def _parse_delimited(path: Path, text: str, sep: str) -> pd.DataFrame:
    """Parse CSV/TSV text. The header is read as a data row (`header=None`), so pandas never turns a first
    column into an index when rows are longer than the header: it reports them instead.

    TSV is read without quoting (the IANA TSV convention, and WTQ's): a cell such as `"Yesterday" (song)`
    keeps its quotes. CSV follows RFC 4180 quoting.
    """
    try:
        raw = pd.read_csv(
            io.StringIO(text),
            sep=sep,
            header=None,
            dtype=str,
            keep_default_na=False,
            na_filter=False,
            skip_blank_lines=True,
            nrows=MAX_ROWS + 2,
            engine="c",
            quoting=csv.QUOTE_NONE if sep == "\t" else csv.QUOTE_MINIMAL,
        )
    except pd.errors.EmptyDataError:
        raise DataError(f"{path}: is empty") from None
    except pd.errors.ParserError as e:
        m = _PANDAS_RAGGED.search(str(e))
        if m:
            width, line, seen = m.groups()
            line = _first_long_line(text, sep, int(width)) or f"{line} (as pandas counts)"
            raise DataError(
                f"{path}: line {line} has {seen} cells but the header has {width} (ragged rows)"
            ) from None
        m = _PANDAS_EOF.search(str(e))
        if m:
            raise DataError(f"{path}: unterminated quoted cell starting in data row {m.group(1)}") from None
        kind = "TSV" if sep == "\t" else "CSV"
        raise DataError(f"{path}: cannot parse as {kind}: {' '.join(str(e).split())}") from None
    values = raw.to_numpy(dtype=object).tolist()
    header, rows = values[0], values[1:]
    return pd.DataFrame(rows, columns=pd.Index(header, dtype=object), dtype=object)


def _first_long_line(text: str, sep: str, width: int) -> int | None:
    """The physical line where the first record longer than the header starts (pandas counts records)."""
    quoting = csv.QUOTE_NONE if sep == "\t" else csv.QUOTE_MINIMAL
    reader = csv.reader(io.StringIO(text), delimiter=sep, quoting=quoting)
    start = 1
    try:
        for record in reader:
            if len(record) > width:
                return start
            start = reader.line_num + 1
    except csv.Error:
        return None
    return None


def _parse_jsonl(path: Path, text: str) -> pd.DataFrame:
    """Parse JSON Lines records; columns are the keys in first-seen order, absent keys are empty cells."""
    records: list[dict[str, Any]] = []
    columns: dict[str, None] = {}
    for line_no, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as e:
            raise DataError(f"{path}: line {line_no} is not valid JSON ({e.msg})") from None
        if not isinstance(record, dict):
            raise DataError(f"{path}: line {line_no} is not a JSON object (one record per line is expected)")
        records.append(record)
        if len(records) > MAX_ROWS:
            break
        for key in record:
            columns.setdefault(str(key), None)
    if not columns:
        raise DataError(f"{path}: has no rows" if not records else f"{path}: records have no fields")
    rows = [[r.get(k) for k in columns] for r in records]
    return pd.DataFrame(rows, columns=pd.Index(list(columns), dtype=object), dtype=object)


def _cell_text(value: Any) -> str:
    """One cell's display text: None/NaN are empty, integral floats drop `.0`, nested JSON stays JSON."""
    if value is None or value is pd.NA or value is pd.NaT:
        return ""
    if isinstance(value, str):
        return value
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
        lines = path.read_text(encoding="utf-8-sig").splitlines()  # -sig: files saved by spreadsheets
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
