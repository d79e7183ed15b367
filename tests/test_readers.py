"""Table loaders: user tables in every format and from every source (good and bad), WTQ and WikiSQL tables
(fixtures and real data)."""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pandas as pd
import pytest

from nsmcli.errors import DataError
from nsmcli.worlds.tables.data import readers
from nsmcli.worlds.tables.data.readers import (
    iter_wikisql_tables,
    load_table,
    load_wtq_table,
    table_from_dataframe,
    wtq_table_id,
)
from nsmcli.worlds.tables.data.values import Date


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------------------------
# User tables: good input


def test_csv_cells_are_kept_as_text(tmp_path: Path) -> None:
    path = write(tmp_path, "t.csv", "Year,Code,Note\n1990,007,NA\n1991,,null\n")
    table = load_table(path)
    assert table.id == "t"
    assert table.header == ["Year", "Code", "Note"]
    assert table.rows == [["1990", "007", "NA"], ["1991", "", "null"]]
    assert table.column("Year").views["number"] == (1990.0, 1991.0)


def test_column_order_is_the_file_order(tmp_path: Path) -> None:
    path = write(tmp_path, "t.csv", "zeta,alpha,mid\n1,2,3\n")
    assert load_table(path).header == ["zeta", "alpha", "mid"]


def test_table_id_can_be_given(tmp_path: Path) -> None:
    path = write(tmp_path, "t.csv", "a\n1\n")
    assert load_table(path, table_id="mine").id == "mine"


def test_tsv(tmp_path: Path) -> None:
    path = write(tmp_path, "t.tsv", "Name\tHeight\nAl\t5'11\"\nBo, Jr.\t6'0\"\n")
    table = load_table(path)
    assert table.rows == [["Al", "5'11\""], ["Bo, Jr.", "6'0\""]]


def test_tsv_cells_keep_their_quotes(tmp_path: Path) -> None:
    path = write(tmp_path, "t.tsv", 'Title\tYear\n"Yesterday" (song)\t1965\n"Help!"\t1965\n')
    assert load_table(path).rows == [['"Yesterday" (song)', "1965"], ['"Help!"', "1965"]]


def test_quoted_csv_cells_with_commas_quotes_and_newlines(tmp_path: Path) -> None:
    path = write(tmp_path, "t.csv", 'a,b\n"x, y","say ""hi""\nthere"\n')
    assert load_table(path).rows == [["x, y", 'say "hi"\nthere']]


def test_duplicate_and_empty_headers_are_kept(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, "t.csv", "a,a,\n1,2,3\n"))
    assert table.header == ["a", "a", ""]
    assert len({c.slug for c in table.columns}) == 3


def test_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    path = write(tmp_path, "t.csv", "\ufeffName,Score\nx,1\n".encode())
    assert load_table(path).header == ["Name", "Score"]


def test_short_rows_are_padded_with_empty_cells(tmp_path: Path) -> None:
    path = write(tmp_path, "t.csv", "a,b,c\n1,2,3\n4,5\n")
    assert load_table(path).rows == [["1", "2", "3"], ["4", "5", ""]]


def test_blank_lines_are_skipped(tmp_path: Path) -> None:
    path = write(tmp_path, "t.csv", "a,b\n\n1,2\n\n3,4\n")
    assert load_table(path).n_rows == 2


def test_jsonl_records(tmp_path: Path) -> None:
    lines = [
        {"name": "Ann", "age": 31, "score": 2.0, "tags": ["x"]},
        {"age": 40.5, "name": "Bob", "extra": None, "ok": True},
        {"name": "Cy"},
    ]
    path = write(tmp_path, "t.jsonl", "\n".join(json.dumps(x) for x in lines) + "\n\n")
    table = load_table(path)
    assert table.header == ["name", "age", "score", "tags", "extra", "ok"]
    assert table.rows == [
        ["Ann", "31", "2", '["x"]', "", ""],
        ["Bob", "40.5", "", "", "", "true"],
        ["Cy", "", "", "", "", ""],
    ]


ODD = {
    "rtl": "שלום עולם",
    "arabic": "مرحبا",
    "combining": "e\u0301te\u0301",
    "emoji": "🏆 gold 🥇",
    "zero_width": "a\u200bb\u200d",
    "cjk": "蔡厝港",
}


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".jsonl"])
def test_odd_unicode_loads(tmp_path: Path, suffix: str) -> None:
    header = list(ODD)
    values = list(ODD.values())
    if suffix == ".jsonl":
        content = json.dumps(ODD, ensure_ascii=False) + "\n"
    else:
        sep = "\t" if suffix == ".tsv" else ","
        content = sep.join(header) + "\n" + sep.join(values) + "\n"
    table = load_table(write(tmp_path, "t" + suffix, content))
    assert table.header == header
    assert table.rows == [values]


def test_unicode_header_names(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, "t.csv", "Ελλάδα,🏆\n1,2\n"))
    assert table.header == ["Ελλάδα", "🏆"]


def test_table_from_dataframe() -> None:
    df = pd.DataFrame({"b": [1, 2], "a": [1.5, float("nan")], "c": ["x", None]})
    table = table_from_dataframe(df, table_id="df")
    assert table.id == "df"
    assert table.header == ["b", "a", "c"]
    assert table.rows == [["1", "1.5", "x"], ["2", "", ""]]


def test_table_from_empty_dataframe_is_an_error() -> None:
    with pytest.raises(DataError, match="no rows"):
        table_from_dataframe(pd.DataFrame({"a": []}))
    with pytest.raises(DataError, match="no columns"):
        table_from_dataframe(pd.DataFrame())


# ------------------------------------------------------------------------------------------------------
# User tables: bad input gives one DataError naming the file and the problem


def assert_data_error(path: Path, pattern: str) -> str:
    with pytest.raises(DataError) as info:
        load_table(path)
    message = str(info.value)
    assert str(path) in message
    assert re.search(pattern, message), message
    assert "\n" not in message
    return message


def test_missing_file(tmp_path: Path) -> None:
    assert_data_error(tmp_path / "nope.csv", "no such file")


def test_directory_instead_of_file(tmp_path: Path) -> None:
    directory = tmp_path / "dir.csv"
    directory.mkdir()
    assert_data_error(directory, "is a directory")


@pytest.mark.parametrize("content", ["", "\n\n", "   \n"])
def test_empty_file(tmp_path: Path, content: str) -> None:
    assert_data_error(write(tmp_path, "t.csv", content), "is empty")


@pytest.mark.parametrize(("name", "content"), [("t.csv", "a,b\n"), ("t.tsv", "a\tb"), ("t.jsonl", "\n")])
def test_header_only(tmp_path: Path, name: str, content: str) -> None:
    path = write(tmp_path, name, content)
    if name.endswith(".jsonl"):
        assert_data_error(path, "is empty")
    else:
        assert_data_error(path, "has no rows")


def test_ragged_row_with_more_cells_than_header(tmp_path: Path) -> None:
    message = assert_data_error(write(tmp_path, "t.csv", "a,b\n1,2\n3,4,5\n"), "ragged")
    assert "line 3 has 3 cells" in message


def test_every_row_one_cell_longer_is_not_silently_shifted(tmp_path: Path) -> None:
    # Plain pandas would make the first column an index and shift every value one column left.
    assert_data_error(
        write(tmp_path, "t.csv", "a,b\n1,2,3\n4,5,6\n"), "line 2 has 3 cells but the header has 2"
    )


def test_ragged_row_after_a_multiline_cell_names_the_physical_line(tmp_path: Path) -> None:
    path = write(tmp_path, "t.csv", 'a,b\n1,"x\ny\nz"\n\n2,3,4\n')
    assert_data_error(path, "line 6 has 3 cells but the header has 2")


def test_binary_junk(tmp_path: Path) -> None:
    assert_data_error(write(tmp_path, "t.csv", b"PK\x03\x04\x00\x00junk"), "not a text table")


def test_undecodable_bytes(tmp_path: Path) -> None:
    path = write(tmp_path, "t.csv", "name\ncaf\xe9\n".encode("latin-1"))
    message = assert_data_error(path, r"not UTF-8 text \(byte 0xe9 at offset 8\)")
    assert "--encoding cp1252" in message


def test_png_bytes(tmp_path: Path) -> None:
    assert_data_error(write(tmp_path, "t.tsv", b"\x89PNG\r\n\x1a\n\xff\xfe"), "not a text table")


@pytest.mark.parametrize("name", ["t.xls", "t.html", "table"])
def test_unknown_extension(tmp_path: Path, name: str) -> None:
    message = assert_data_error(write(tmp_path, name, "a,b\n1,2\n"), "unsupported table format")
    assert ".csv, .tsv, .txt, .json, .jsonl, .xlsx, .parquet" in message and "--format" in message


def test_too_many_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(readers, "MAX_ROWS", 5)
    ok = write(tmp_path, "ok.csv", "a\n" + "1\n" * 5)
    assert load_table(ok).n_rows == 5
    assert_data_error(write(tmp_path, "big.csv", "a\n" + "1\n" * 6), "more than 5 rows")
    records = "".join(json.dumps({"a": i}) + "\n" for i in range(6))
    assert_data_error(write(tmp_path, "big.jsonl", records), "more than 5 rows")


def test_too_many_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(readers, "MAX_FILE_BYTES", 10)
    assert_data_error(write(tmp_path, "big.csv", "a\n" + "1\n" * 20), "too large")


def test_bad_jsonl_line(tmp_path: Path) -> None:
    assert_data_error(write(tmp_path, "t.jsonl", '{"a": 1}\n{"a": \n'), "line 2 is not valid JSON")


def test_jsonl_line_not_an_object(tmp_path: Path) -> None:
    assert_data_error(write(tmp_path, "t.jsonl", '{"a": 1}\n[1, 2]\n'), "line 2 is not a JSON object")


def test_unterminated_quote(tmp_path: Path) -> None:
    assert_data_error(write(tmp_path, "t.csv", 'a,b\n1,"open\n2,3\n'), "unterminated quoted cell")


def test_quoted_newlines_and_every_line_ending(tmp_path: Path) -> None:
    for newline in ("\n", "\r\n", "\r"):
        text = newline.join(["name,note", 'Ann,"two', 'lines"', ",blank name", "", "Bo,"]) + newline
        table = load_table(write(tmp_path, "t.csv", text))
        assert table.rows == [["Ann", f"two{newline}lines"], ["", "blank name"], ["Bo", ""]], newline


def test_a_quoted_empty_cell_is_a_record_and_a_blank_line_is_not(tmp_path: Path) -> None:
    # the record `""` is an empty row (left out, with a note); blank lines are no record at all
    table = load_table(write(tmp_path, "t.csv", 'name\nAnn\n\n   \n""\nBo\n'))
    assert table.rows == [["Ann"], ["Bo"]] and "1 empty row left out" in table.notes
    assert_data_error(write(tmp_path, "r.csv", 'a\n""\n"",""\n'), "line 3 has 2 cells but the header has 1")


def test_ragged_row_is_named_by_its_line_with_lone_carriage_returns(tmp_path: Path) -> None:
    assert_data_error(write(tmp_path, "t.csv", "a,b\r1,2\r\r3,4,5\r"), "line 4 has 3 cells")


def test_an_open_quote_is_named_whatever_follows_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    long_tail = 'a,b\n1,"open\n' + "2,3\n" * 50_000  # longer than the csv module's default cell limit
    assert_data_error(
        write(tmp_path, "long.csv", long_tail), "unterminated quoted cell starting in data row 1"
    )
    # past the row limit the table is refused for its size, however it ends
    monkeypatch.setattr(readers, "MAX_ROWS", 3)
    assert_data_error(write(tmp_path, "big.csv", 'a\n1\n2\n3\n4\n"open\n5\n'), "more than 3 rows")


def test_line_numbers_count_the_files_lines_above_the_header(tmp_path: Path) -> None:
    assert_data_error(write(tmp_path, "s.csv", "sep=;\na;b\n1;2;3\n"), "line 3 has 3 cells")
    titled = "Quarterly report,,\n\nName,Q1,Q2\nA,1,2\nB,1,2,3\n"
    assert_data_error(write(tmp_path, "t.csv", titled), "line 5 has 4 cells")


def test_reading_a_file_leaves_pandas_unimported() -> None:
    # pandas takes a third of a second to import: a cold `nsm parse` on a CSV must not pay it
    code = (
        "import sys; from nsmcli.parser import as_table; "
        "as_table('examples/tables/medals.csv'); print('pandas' in sys.modules)"
    )
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ------------------------------------------------------------------------------------------------------
# WTQ and WikiSQL on small fixtures


def test_wtq_table_id() -> None:
    assert wtq_table_id("csv/204-csv/590.csv") == "t_204_590"
    with pytest.raises(DataError, match="not a WikiTableQuestions table"):
        wtq_table_id("tables/590.csv")


def test_wtq_csv_escapes(tmp_path: Path) -> None:
    folder = tmp_path / "wtq" / "csv" / "200-csv"
    folder.mkdir(parents=True)
    content = '"Title","Note"\n"Episode: \\"Pilot\\"","a ""quoted"" word"\n"two\nlines","c:\\\\dir"\n'
    (folder / "7.csv").write_text(content, encoding="utf-8")
    for root in (tmp_path / "wtq", tmp_path):
        table = load_wtq_table(root, "csv/200-csv/7.csv")
        assert table.id == "t_200_7"
        assert table.rows == [['Episode: "Pilot"', 'a "quoted" word'], ["two\nlines", "c:\\dir"]]


def test_wtq_missing_table(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="not found"):
        load_wtq_table(tmp_path, "csv/200-csv/7.csv")


def test_wikisql_fixture(tmp_path: Path) -> None:
    record = {
        "id": "1-1-1",
        "header": ["Player", "Points"],
        "types": ["text", "real"],
        "rows": [["Ann", 12], ["Bob", 3.0], ["Cy", 2.5]],
    }
    path = write(tmp_path, "x.tables.jsonl", json.dumps(record) + "\n")
    (table,) = list(iter_wikisql_tables(path))
    assert table.id == "1-1-1"
    assert table.rows == [["Ann", "12"], ["Bob", "3"], ["Cy", "2.5"]]
    assert set(table.column("Points").views) == {"number"}
    assert set(table.column("Player").views) == {"string"}
    assert table.column("Points").views["number"] == (12.0, 3.0, 2.5)


def test_wikisql_bad_line(tmp_path: Path) -> None:
    path = write(tmp_path, "x.tables.jsonl", '{"id": "a"}\n')
    with pytest.raises(DataError, match="line 1 is not a WikiSQL table record"):
        list(iter_wikisql_tables(path))


# ------------------------------------------------------------------------------------------------------
# Real data


def tagged_shape(path: Path) -> tuple[int, int]:
    """(data rows, columns) from a tagged table file, where row -1 is the header."""
    cells = set()
    with open(path, encoding="utf-8") as f:
        next(f)
        for line in f:
            if line.strip():
                row, col = line.split("\t", 2)[:2]
                cells.add((int(row), int(col)))
    n_rows = max(r for r, _ in cells) + 1
    n_cols = max(c for _, c in cells) + 1
    assert len(cells) == (n_rows + 1) * n_cols
    return n_rows, n_cols


def test_wtq_tables_match_tagged_shapes(data_dir: Path) -> None:
    wtq = data_dir / "wtq"
    tagged = sorted((wtq / "tagged").glob("20?-tagged/*.tagged"))
    assert len(tagged) == 2108
    for path in tagged[::42]:  # 51 tables spread over all five folders
        folder, number = path.parent.name.split("-")[0], path.stem
        table = load_wtq_table(wtq, f"csv/{folder}-csv/{number}.csv")
        assert table.id == f"t_{folder}_{number}"
        assert (table.n_rows, len(table.columns)) == tagged_shape(path), path


def test_wtq_known_table(data_dir: Path) -> None:
    table = load_wtq_table(data_dir / "wtq", "csv/204-csv/590.csv")
    assert table.header[:3] == ["Year", "Division", "League"]
    assert table.rows[0][:4] == ["2001", "2", "USL A-League", "4th, Western"]
    assert "number" in table.column("Year").views


def test_wtq_escaped_quotes_and_backslashes(data_dir: Path) -> None:
    table = load_wtq_table(data_dir / "wtq", "csv/203-csv/128.csv")
    assert table.rows[0][2] == "\\0"
    table = load_wtq_table(data_dir / "wtq", "csv/200-csv/15.csv")
    assert any('Episode: "' in cell for row in table.rows for cell in row)


def test_wikisql_first_dev_tables(data_dir: Path) -> None:
    path = data_dir / "wikisql" / "dev.tables.jsonl"
    with open(path, encoding="utf-8") as f:
        records = [json.loads(line) for line in itertools.islice(f, 20)]
    tables = list(itertools.islice(iter_wikisql_tables(path), 20))
    assert [t.id for t in tables] == [r["id"] for r in records]
    assert tables[0].id == "1-10015132-11"
    for table, record in zip(tables, records, strict=True):
        assert table.header == record["header"]
        assert table.n_rows == len(record["rows"])
        for column, kind in zip(table.columns, record["types"], strict=True):
            assert set(column.views) == ({"number"} if kind == "real" else {"string"})


# ------------------------------------------------------------------------------------------------------
# Inputs: formats, delimiters, encodings, stdin, URLs, streams


def test_semicolon_csv_with_decimal_commas_loads(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, "t.csv", "Name;Price;Note\nTea;1,50;a, b\nCake;12,25;c\n"))
    assert table.header == ["Name", "Price", "Note"]
    assert table.rows == [["Tea", "1,50", "a, b"], ["Cake", "12,25", "c"]]
    assert table.column("Price").views["number"] == (1.5, 12.25)


@pytest.mark.parametrize("sep", ["|", "\t", ",", ";"])
def test_txt_delimiter_is_sniffed(tmp_path: Path, sep: str) -> None:
    table = load_table(write(tmp_path, "t.txt", f"a{sep}b{sep}c\n1{sep}2{sep}3\n4{sep}5{sep}6\n"))
    assert table.header == ["a", "b", "c"]
    assert table.rows == [["1", "2", "3"], ["4", "5", "6"]]


def test_one_column_csv_with_semicolons_in_text_stays_one_column(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, "t.csv", "Note\nfirst; second\nthird\n"))
    assert table.header == ["Note"]


def test_cp1252_export_needs_its_encoding(tmp_path: Path) -> None:
    path = write(tmp_path, "sales.csv", "Café;Price\nCrème;€12,50\nThé;€3\n".encode("cp1252"))
    message = assert_data_error(path, r"not UTF-8 text \(byte 0xe9 at offset 3\)")
    assert "--encoding cp1252" in message
    table = load_table(path, encoding="cp1252")
    assert table.header == ["Café", "Price"]
    assert table.column("Price").views["number"] == (12.5, 3.0)


def test_wrong_and_unknown_encodings(tmp_path: Path) -> None:
    path = write(tmp_path, "t.csv", b"a\n\x81\x8d\n")
    with pytest.raises(DataError, match=r"not valid cp1252 text \(byte 0x81 at offset 2\)"):
        load_table(path, encoding="cp1252")
    with pytest.raises(DataError, match="unknown encoding 'klingon'"):
        load_table(path, encoding="klingon")


def test_utf16_with_byte_order_mark_loads(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, "t.txt", "Name\tScore\nÅsa\t3\n".encode("utf-16")))
    assert table.rows == [["Åsa", "3"]]


def test_json_array_of_records_and_split_form(tmp_path: Path) -> None:
    records = [{"Country": "Chad", "GDP": "$1.2bn"}, {"Country": "Peru", "GDP": "$250M", "Note": None}]
    table = load_table(write(tmp_path, "t.json", json.dumps(records)))
    assert table.header == ["Country", "GDP", "Note"]
    assert table.column("GDP").views["number"] == (1.2e9, 2.5e8)
    split = {"columns": ["a", "b"], "data": [[1, "x"], [2.5, None]]}
    assert load_table(write(tmp_path, "s.json", json.dumps(split))).rows == [["1", "x"], ["2.5", ""]]


@pytest.mark.parametrize(
    "document",
    [
        {"data": [{"name": "Ann", "score": 5}, {"name": "Bo", "score": 7}], "count": 2},  # an API's response
        [["name", "score"], ["Ann", 5], ["Bo", 7]],  # a header array, then rows
        {"name": ["Ann", "Bo"], "score": [5, 7]},  # columns of equal length
        {"name": {"0": "Ann", "1": "Bo"}, "score": {"0": 5, "1": 7}},  # pandas' to_json()
        {"0": {"name": "Ann", "score": 5}, "1": {"name": "Bo", "score": 7}},  # pandas' orient="index"
    ],
)
def test_json_shapes_people_export_read_as_records(tmp_path: Path, document: object) -> None:
    table = load_table(write(tmp_path, "t.json", json.dumps(document)))
    assert table.header == ["name", "score"] and table.rows == [["Ann", "5"], ["Bo", "7"]]


def test_json_header_arrays_keep_repeated_names_and_an_empty_array_has_no_rows(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, "t.json", json.dumps([["name", "name"], ["Ann", 5], ["Bo", 7]])))
    assert table.header == ["name", "name (2)"] and table.rows == [["Ann", "5"], ["Bo", "7"]]
    assert_data_error(write(tmp_path, "e.json", "[]"), "has no rows")
    assert_data_error(
        write(tmp_path, "m.json", '[[1, 2], {"a": 1}]'), "item 1 of the array is not a JSON object"
    )


def test_nested_json_objects_are_columns_named_by_their_path(tmp_path: Path) -> None:
    records = [
        {"name": "Ann", "stats": {"goals": 5, "apps": {"home": 6}}},
        {"name": "Bo", "stats": {"goals": 7}},
    ]
    table = load_table(write(tmp_path, "t.json", json.dumps(records)))
    assert table.header == ["name", "stats.goals", "stats.apps.home"]
    assert table.rows == [["Ann", "5", "6"], ["Bo", "7", ""]]
    assert table.column("stats.goals").views["number"] == (5.0, 7.0)


@pytest.mark.parametrize(
    ("content", "pattern"),
    [
        ("[1, 2]", "item 1 of the array is not a JSON object"),
        ("[[1, 2], [3, 4]]", "expected a JSON array of records"),  # no header array
        ('{"a": [1, 2], "b": [3]}', "expected a JSON array of records"),  # columns of unequal length
        ('{"a": 1}', "expected a JSON array of records"),
        ("[{", "not valid JSON"),
        ('{"columns": ["a"], "data": [[1, 2]]}', "data row 1 has 2 cells, columns has 1"),
    ],
)
def test_bad_json(tmp_path: Path, content: str, pattern: str) -> None:
    assert_data_error(write(tmp_path, "t.json", content), pattern)


def test_xlsx_first_sheet_named_sheet_and_cell_formats(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    import datetime

    book = openpyxl.Workbook()
    first = book.active
    first.title = "Sales"
    first.append(["Region", "Revenue", "Share", "Day"])
    first.append(["North", 1234.5, 0.125, datetime.datetime(2024, 3, 15)])
    first.append([None, None, None, None])  # a blank row is skipped
    first.append(["South", -20, 0.875, datetime.datetime(2024, 3, 16, 10, 30)])
    for row in (2, 4):
        first.cell(row=row, column=3).number_format = "0.0%"
    second = book.create_sheet("Staff")
    second.append(["Name", "Age"])
    second.append(["Ann", 31])
    path = tmp_path / "book.xlsx"
    book.save(path)

    table = load_table(path)
    assert table.id == "book"
    assert table.rows == [
        ["North", "1234.5", "12.5%", "2024-03-15"],
        ["South", "-20", "87.5%", "2024-03-16 10:30"],
    ]
    assert table.column("Share").views["number"] == (12.5, 87.5)
    assert table.column("Day").views["date"] == (Date(2024, 3, 15), Date(2024, 3, 16))
    assert table.column("Revenue").views["number"] == (1234.5, -20.0)
    assert load_table(f"{path}#Staff").rows == [["Ann", "31"]]
    with pytest.raises(DataError, match="no worksheet 'Nope'; the workbook has Sales, Staff"):
        load_table(f"{path}#Nope")
    assert_data_error(write(tmp_path, "junk.xlsx", b"not a zip"), "not an Excel .xlsx workbook")


def test_parquet(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    import datetime

    import pyarrow.parquet as pq

    arrow = pa.table(
        {
            "Team": ["Ajax", "PSV", None],
            "Points": [10, None, 7],
            "Ratio": [0.5, 1.25, None],
            "Founded": [datetime.date(1900, 3, 18), datetime.date(1913, 8, 31), None],
        }
    )
    path = tmp_path / "league.parquet"
    pq.write_table(arrow, path)
    table = load_table(path)
    assert table.header == ["Team", "Points", "Ratio", "Founded"]
    assert table.rows == [
        ["Ajax", "10", "0.5", "1900-03-18"],
        ["PSV", "", "1.25", "1913-08-31"],
        ["", "7", "", ""],
    ]
    assert table.column("Founded").views["date"][:2] == (Date(1900, 3, 18), Date(1913, 8, 31))
    assert_data_error(write(tmp_path, "junk.parquet", b"PAR1 nothing"), "not a Parquet file")


def test_missing_optional_dependency_says_how_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, "t.xlsx", b"PK\x03\x04")
    monkeypatch.setitem(sys.modules, "openpyxl", None)  # `import openpyxl` now raises ImportError
    with pytest.raises(DataError, match=r"needs openpyxl.*pip install 'nsmcli\[tables\]'"):
        load_table(path)


class _Stdin:
    def __init__(self, data: bytes):
        self.buffer = io.BytesIO(data)


def test_stdin_with_and_without_format(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", _Stdin(b"Name|Score\nAnn|3\n"))
    table = load_table("-", format="csv")
    assert (table.id, table.rows) == ("stdin", [["Ann", "3"]])
    monkeypatch.setattr(sys, "stdin", _Stdin(b'[{"Name": "Ann", "Score": -3}]'))
    assert load_table("-").column("Score").views["number"] == (-3.0,)  # sniffed: a JSON array
    monkeypatch.setattr(sys, "stdin", _Stdin(b'{"Name": "Ann"}\n{"Name": "Bo"}\n'))
    assert load_table("-").rows == [["Ann"], ["Bo"]]  # sniffed: JSON Lines
    with pytest.raises(DataError, match="unknown table format 'xls'"):
        load_table("-", format="xls")


@pytest.fixture
def http_root(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A loopback HTTP server on a free port, serving a fresh directory."""
    import http.server
    import threading

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    root = tmp_path / "www"
    root.mkdir()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", root
    finally:
        server.shutdown()
        server.server_close()


def test_url(http_root: tuple[str, Path]) -> None:
    base, root = http_root
    (root / "stocks.csv").write_text("Name,Change\nAcme,-3.5\nBolt,1.2\n", encoding="utf-8")
    table = load_table(f"{base}/stocks.csv")
    assert (table.id, table.rows) == ("stocks", [["Acme", "-3.5"], ["Bolt", "1.2"]])
    (root / "export").write_text('[{"a": 1}]', encoding="utf-8")
    assert load_table(f"{base}/export").rows == [["1"]]  # no extension: the bytes say JSON
    assert load_table(f"{base}/export", format="json").rows == [["1"]]
    with pytest.raises(DataError, match="cannot fetch: HTTP 404") as info:
        load_table(f"{base}/missing.csv")
    assert "\n" not in str(info.value)


def test_url_path_object_is_not_a_url(tmp_path: Path) -> None:
    assert_data_error(Path("http://127.0.0.1:9/x.csv"), "no such file")


def test_fifo_and_devices_are_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "x.csv"
    os.mkfifo(fifo)  # opening it would wait for a writer forever
    assert_data_error(fifo, "not a regular file")
    device = tmp_path / "endless.csv"
    device.symlink_to("/dev/zero")
    assert_data_error(device, "not a regular file")


def test_cli_reads_stdin_with_format_and_encoding() -> None:
    from typer.testing import CliRunner

    from nsmcli.cli.main import app

    program = "(argmin all_rows r.change-number) (hop v0 r.name-string)"
    data = "Name;Change\nAcmé;-3,5\nBolt;1,2\nCorex;-0,4\n".encode("cp1252")
    result = CliRunner().invoke(
        app, ["execute", program, "-", "--format", "csv", "--encoding", "cp1252", "--json"], input=data
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["answer"] == ["acme"] and payload["display"] == ["Acmé"]
    result = CliRunner().invoke(app, ["execute", program, "-", "--format", "csv"], input=data)
    assert isinstance(result.exception, DataError) and "--encoding cp1252" in str(result.exception)


def test_a_hash_names_a_sheet_only_after_xlsx(tmp_path: Path) -> None:
    assert load_table(write(tmp_path, "notes#1.csv", "a\n1\n")).rows == [["1"]]
    assert_data_error(tmp_path / "gone#2.csv", "no such file")


def test_stdin_from_a_terminal_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(_Stdin):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal(b""))
    with pytest.raises(DataError, match="nothing is piped in"):
        load_table("-")


def test_parser_accepts_the_same_sources(http_root: tuple[str, Path]) -> None:
    from nsmcli.parser import as_table

    base, root = http_root
    (root / "t.csv").write_text("Name,Change\nAcme,-3.5\n", encoding="utf-8")
    for source in (f"{base}/t.csv", str(root / "t.csv"), root / "t.csv"):
        table = as_table(source)
        assert (table.value_rules, table.column("Change").views["number"]) == ("user", (-3.5,))
    frame = as_table(pd.DataFrame({"Change": ["-3.5", "(2)"]}))
    assert (frame.value_rules, frame.column("Change").views["number"]) == ("user", (-3.5, -2.0))
    assert as_table(frame) is frame


def test_excel_sep_directive_names_the_delimiter(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, "t.csv", "sep=;\nName;Note\nTea;a|b\n"))
    assert (table.header, table.rows) == (["Name", "Note"], [["Tea", "a|b"]])


@pytest.mark.parametrize(
    "text, message",
    [
        ("x" * 600_000 + ",b\n1,2\n", "the name of column 1 has 600,000 characters"),
        ("a,b\n" + "y" * 30_000 + ",2\n", "row 1, column 'a' has 30,000 characters"),
        (",".join(f"c{i}" for i in range(1_500)) + "\n" + ",".join("1" * 1_500) + "\n", "1,500 columns"),
    ],
)
def test_tables_past_the_shape_caps_are_refused_in_one_line(tmp_path, text: str, message: str) -> None:
    path = tmp_path / "t.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=message):
        load_table(path)


def test_a_reply_cut_short_or_dropped_is_one_clean_error() -> None:
    """Found by fuzzing URLs (issue 20): a body shorter than its Content-Length raised IncompleteRead, or
    was read as a shorter table."""
    from tests.fuzzing import _Reply, loopback

    server = loopback()
    short = server.serve("t.csv", _Reply(200, {"Content-Length": "99"}, b"a,b\n1,2\n"))
    with pytest.raises(DataError, match=r"cannot fetch: the reply was cut short \(8 of 99 bytes\)") as info:
        load_table(short)
    assert "\n" not in str(info.value)
    dropped = server.serve("t.csv", _Reply(200, {}, b"", hang_up=True))
    with pytest.raises(DataError, match="cannot fetch"):
        load_table(dropped)


# ------------------------------------------------------------------------------------------------------
# What spreadsheets put around a table: title lines above it, a summary row below it
# ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        "Quarterly report\n\nRegion,Q1\nNorth,10\nSouth,8\n",
        "Quarterly report,\nGenerated 2024-03-01,\n,\nRegion,Q1\nNorth,10\nSouth,8\n",  # Excel's export
        "Sales by region\n\nRegion;Q1\nNorth;10\nSouth;8\n",
    ],
)
def test_title_lines_above_the_header_are_skipped(tmp_path: Path, content: str) -> None:
    table = load_table(write(tmp_path, "t.csv", content))
    assert table.header == ["Region", "Q1"] and table.rows == [["North", "10"], ["South", "8"]]


def test_labelled_lines_above_a_wider_header_are_skipped(tmp_path: Path) -> None:
    content = "Event date,2024-05-18,,\nNo.,Rider,Category,Time\n1,Tom,V50,00:25:12.3\n2,Sue,V40,00:26:48.0\n"
    table = load_table(write(tmp_path, "t.csv", content))
    assert table.header == ["No.", "Rider", "Category", "Time"] and table.n_rows == 2
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    for row in (
        ["Event date", "18 May 2024"],
        ["No.", "Rider", "Category", "Time"],
        [1, "Tom", "V50", "00:25:12.3"],
        [2, "Sue", "V40", "DNF"],
    ):
        book.active.append(row)
    book.save(tmp_path / "tt.xlsx")
    assert load_table(tmp_path / "tt.xlsx").header == ["No.", "Rider", "Category", "Time"]
    # a header of two labelled lines' width or less is no such header ("Name,2023," above "Alice,-,-")
    assert load_table(write(tmp_path, "y.csv", "Name,2023,\nAlice,-,-\nBob,10,3\n")).header[0] == "Name"
    # a table of two columns keeps its first line as its header, and so does a header with a number
    assert load_table(write(tmp_path, "two.csv", "Name,Score\nAnn,5\nBo,7\n")).header == ["Name", "Score"]
    numbered = "Region,2023,2024\nNorth,10,12\nSouth,8,9\n"
    assert load_table(write(tmp_path, "n.csv", numbered)).header == ["Region", "2023", "2024"]


def test_a_header_of_one_named_column_is_no_title(tmp_path: Path) -> None:
    assert load_table(write(tmp_path, "t.csv", "Name,\nAlice,5\nBob,6\n")).header == ["Name", ""]
    assert load_table(write(tmp_path, "one.csv", "Name\nAlice\nBob\n")).rows == [["Alice"], ["Bob"]]
    # a header whose first cell is blank (pandas' index column) is a header
    index = load_table(write(tmp_path, "i.csv", ",name\na,Alice\nb,Bob\nc,Carol\n"))
    assert index.header == ["", "name"] and index.n_rows == 3


@pytest.mark.parametrize(
    ("content", "header"),
    [
        ("Produkt;Preis\nApfel;1,50 €\nBirne;2,30 €\nKiwi;0,99 €\n", ["Produkt", "Preis"]),
        ("Name;Email\nDoe, Jane;j@x.org\nRoe, Rick;r@x.org\n", ["Name", "Email"]),
        ("Name,Tags\nA,x; y; z\nB,u; v; w\n", ["Name", "Tags"]),
    ],
)
def test_the_delimiter_that_reads_the_first_line_as_header_wins_a_tie(
    tmp_path: Path, content: str, header: list[str]
) -> None:
    table = load_table(write(tmp_path, "t.csv", content))
    assert table.header == header and table.n_rows == content.count("\n") - 1


def test_xlsx_title_rows_are_skipped(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    sheet = book.active
    for row in (["Term 1 grades"], [], ["Student", "Math"], ["Ann", 90], ["Bo", 70]):
        sheet.append(row)
    book.save(tmp_path / "g.xlsx")
    table = load_table(tmp_path / "g.xlsx")
    assert table.header == ["Student", "Math"] and table.rows == [["Ann", "90"], ["Bo", "70"]]


def test_notes_below_the_table_are_left_out_with_a_note(tmp_path: Path) -> None:
    """A footnote ("* provisional") or a source line below the table is no row: it would be counted, and
    its text would be a name; a row that only names something, blanks after it, stays."""
    rows = "Name,Score\nAnn,5\nBo,7\nCy,9\nDee,3\n"
    table = load_table(
        write(tmp_path, "t.csv", rows + "Total,24\n\n* figures provisional\nSource: club records\n")
    )
    assert [r[0] for r in table.rows] == ["Ann", "Bo", "Cy", "Dee"]  # the notes, then the total below them
    assert "'* figures provisional'; 'Source: club records'" in table.notes[0] and "'Total'" in table.notes[1]
    for note in (
        "¹ estimated,\n",
        "(1) before tax,\n",
        "Note: draft\n",
        "NB - unaudited\n",
        "Source: UN, 2023\n",
    ):
        assert load_table(write(tmp_path, "n.csv", rows + note)).n_rows == 4, note
    for data in ("Zed,\n", "Notes app,\n", "*NSYNC,12\n"):  # data rows: a name, a word, a filled row
        kept = load_table(write(tmp_path, "d.csv", rows + data))
        assert kept.n_rows == 5 and kept.notes == (), data
    # WTQ's rules read WTQ's data as it was read
    frame = pd.DataFrame({"Name": ["Ann", "* provisional"], "Score": ["5", ""]})
    assert table_from_dataframe(frame, value_rules="wtq").n_rows == 2


def test_excel_s_quoted_codes_keep_their_leading_zeros(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, "t.csv", 'Code,Qty\n="00123",4\n="00456",7\n'))
    assert [r[0] for r in table.rows] == ["00123", "00456"]
    # the WTQ rules read such a cell as it is written
    frame = pd.DataFrame({"Code": ['="00123"'], "Qty": ["4"]})
    assert table_from_dataframe(frame, value_rules="wtq").rows[0][0] == '="00123"'


def test_a_units_row_under_the_header_joins_the_header_and_empty_rows_are_no_rows(tmp_path: Path) -> None:
    """An export's row of units under its header ("", "cm", "kg") was the first data row, and a row of empty
    cells ("," in a CSV) was counted as a row."""
    table = load_table(write(tmp_path, "t.csv", "Name,Height,Weight\n,cm,kg\nAnn,170,60\n,\nBo,182,85\n"))
    assert table.header == ["Name", "Height (cm)", "Weight (kg)"]
    assert [r[0] for r in table.rows] == ["Ann", "Bo"]
    assert table.column("Height (cm)").views["number"] == (170.0, 182.0)
    assert table.notes == ("1 empty row left out", "the first row under the header names units (cm, kg)")
    for first in (
        ",n/a,n/a\n",
        "Zed,cm,kg\n",
        ",170,60\n",
        ",tall,\n",
        ",#N/A,#N/A\n",
        ",est.,DNP\n",
    ):  # data: no unit nsm knows
        kept = load_table(
            write(tmp_path, "d.csv", "Name,Height,Weight\n" + first + "Ann,170,60\nBo,182,85\n")
        )
        assert kept.n_rows == 3 and kept.header == ["Name", "Height", "Weight"], first
    assert load_table(write(tmp_path, "u.csv", "Name,Share\n,%\nAnn,12\nBo,30\n")).header == [
        "Name",
        "Share (%)",
    ]
    with pytest.raises(DataError, match="every row is empty"):
        load_table(write(tmp_path, "e.csv", "Name,Score\n,\n,\n"))


def test_a_row_index_written_with_the_data_is_no_column(tmp_path: Path) -> None:
    """`df.to_csv()` (and R's `write.csv`) writes the row index as a first column with no name: it was a
    column `column_1` of 0, 1, 2, ... that the model could filter, sum or answer with."""
    frame = pd.DataFrame({"Name": ["Ann", "Bo", "Cy"], "Age": [30, 41, 25]})
    frame.to_csv(tmp_path / "pandas.csv")
    table = load_table(tmp_path / "pandas.csv")
    assert table.header == ["Name", "Age"] and table.column("Age").views["number"] == (30.0, 41.0, 25.0)
    assert table.notes == ("the first column has no name and numbers the rows from 0, so it is left out",)
    # the same file read by pandas first and given to nsm as a DataFrame
    assert table_from_dataframe(pd.read_csv(tmp_path / "pandas.csv")).header == ["Name", "Age"]
    r_export = load_table(
        write(tmp_path, "r.csv", '"","Name","Age"\n"1","Ann",30\n"2","Bo",41\n"3","Cy",25\n')
    )
    assert r_export.header == ["Name", "Age"]
    # an empty row, and a note below the table, do not hide the index
    noted = load_table(write(tmp_path, "n.csv", ",a,b\n0,x,1\n1,y,2\n,,\n2,z,3\nSource: survey,,\n"))
    assert noted.header == ["a", "b"] and noted.n_rows == 3
    for kept in (
        ",Name,Age\n0,Ann,30\n2,Bo,41\n3,Cy,25\n",  # not the row numbers
        ",Name,Age\nNorth,Ann,30\nSouth,Bo,41\nEast,Cy,25\n",  # row labels
        "Rank,Name,Age\n1,Ann,30\n2,Bo,41\n3,Cy,25\n",  # a named column
        ",Name,Age\n0,Ann,30\n1,Bo,41\n",  # two rows: too little to tell
    ):
        assert len(load_table(write(tmp_path, "k.csv", kept)).header) == 3, kept


def test_a_two_row_header_reads_as_one(tmp_path: Path) -> None:
    """A spreadsheet's group over several columns ("Q1" over "Sales" and "Units", a merged cell) sat in the
    header with blanks beside it, and the columns' own names were a first row of data."""
    text = "Region,Q1,,Q2,\n,Sales,Units,Sales,Units\nNorth,1200,30,1500,35\nSouth,900,22,1100,25\nEast,1300,31,1250,29\n"
    table = load_table(write(tmp_path, "t.csv", text))
    assert table.header == ["Region", "Q1 Sales", "Q1 Units", "Q2 Sales", "Q2 Units"]
    assert table.n_rows == 3 and table.column("Q2 Units").views["number"] == (35.0, 25.0, 29.0)
    assert table.notes == (
        "the header is two rows, read as one ('Region', 'Q1 Sales', 'Q1 Units', 'Q2 Sales', ...)",
    )
    # the first column's name in the second row
    other = load_table(
        write(tmp_path, "u.csv", ",2023,,2024,\nStore,Revenue,Staff,Revenue,Staff\nA,10,2,12,3\nB,8,1,9,1\n")
    )
    assert other.header == ["Store", "2023 Revenue", "2023 Staff", "2024 Revenue", "2024 Staff"]
    openpyxl = pytest.importorskip("openpyxl")  # the same in a workbook: a title row, merged group cells
    book = openpyxl.Workbook()
    sheet = book.active
    for row in (
        ["Sales by quarter"],
        ["Region", "Q1", None, "Q2", None],
        [None, "Sales", "Units", "Sales", "Units"],
    ):
        sheet.append(row)
    sheet.merge_cells("B2:C2")
    sheet.merge_cells("D2:E2")
    for row in (["North", 1200, 30, 1500, 35], ["South", 900, 22, 1100, 25], ["East", 1300, 31, 1250, 29]):
        sheet.append(row)
    book.save(tmp_path / "t.xlsx")
    assert load_table(tmp_path / "t.xlsx").header == table.header
    # a trailing separator's empty column, and a name merged down over both rows ("Region" twice)
    assert load_table(
        write(tmp_path, "v.csv", text.replace("\n", ",\n").replace(",Sales", "Region,Sales", 1))
    ).header == [
        *table.header,
        "",
    ]
    for one_row in (
        "Name,Score,\nAlice,DNF,n/a\nBob,10,3\nCarol,12,5\n",  # a first row of data with missing values
        "Name,2023,\nAlice,-,-\nBob,10,3\nCarol,12,5\n",
        "Name,Team,\nAlice,Red,Top\nBob,Blue,3\nCarol,Red,5\nDan,Blue,4\n",  # a name over a name
        "Name,,Age\nAnn,x,30\nBo,y,41\nCy,z,25\n",  # a column without a name, of text
        "Item,Price,\nA,3,4\nB,5,6\nC,7,8\n",  # the first row is numbers
        "Region,Q1,\nNorth,n/a,3\nSouth,4,5\n",  # too few rows to tell
    ):
        kept = load_table(write(tmp_path, "k.csv", one_row))
        assert kept.n_rows == len(one_row.splitlines()) - 1 and not kept.notes, one_row


def test_a_workbook_s_cells_merged_down_are_each_row_s(tmp_path: Path) -> None:
    """A department merged down over its staff showed in every row in Excel, and was one row's in nsm:
    "how many employees are in Sales?" counted 1. A CSV's blank cells stay blank (there, filling is a guess)."""
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Department", "Employee", "Salary"])
    for row in (
        ["Sales", "Ann", 50000],
        [None, "Bob", 52000],
        [None, "Cy", 48000],
        ["IT", "Dee", 90000],
        [None, "Ed", 1],
    ):
        sheet.append(row)
    sheet.merge_cells("A2:A4")
    sheet.merge_cells("A5:A6")
    book.save(tmp_path / "t.xlsx")
    table = load_table(tmp_path / "t.xlsx")
    assert [row[0] for row in table.rows] == ["Sales", "Sales", "Sales", "IT", "IT"]
    assert [row[1] for row in table.rows] == ["Ann", "Bob", "Cy", "Dee", "Ed"]
    # a title merged over two rows and the table's width stays a title; a number merged down is counted once,
    # as Excel's SUM counts it
    book = openpyxl.Workbook()
    sheet = book.active
    for row in (["Staff list", None, None], [None, None, None], ["Team", "Name", "Budget"]):
        sheet.append(row)
    for row in (["Red", "Ann", 100], [None, "Bo", None], [None, "Cy", None]):
        sheet.append(row)
    sheet.merge_cells("A1:C2")
    sheet.merge_cells("A4:A6")
    sheet.merge_cells("C4:C6")
    book.save(tmp_path / "m.xlsx")
    merged = load_table(tmp_path / "m.xlsx")
    assert merged.header == ["Team", "Name", "Budget"]
    assert [row[0] for row in merged.rows] == ["Red"] * 3 and [row[2] for row in merged.rows] == [
        "100",
        "",
        "",
    ]
    csv = load_table(write(tmp_path, "t.csv", "Department,Employee\nSales,Ann\n,Bob\nIT,Dee\n"))
    assert [row[0] for row in csv.rows] == ["Sales", "", "IT"]


def test_a_summary_row_is_left_out_with_a_note(tmp_path: Path) -> None:
    rows = 'North,"1,200",4\nSouth,980,2\nEast,"1,540",3\n'
    total = load_table(write(tmp_path, "t.csv", f'Region,Sales,Stores\n{rows}Total,"3,720",9\n'))
    assert [r[0] for r in total.rows] == ["North", "South", "East"]
    assert len(total.notes) == 1 and "'Total'" in total.notes[0] and "sums" in total.notes[0]
    # a label naming what it totals; its rate is of the whole (weighted), which no sum checks
    named_csv = 'Region,Sales,Stores,Growth\nNorth,"1,200",4,2%\nSouth,980,2,5%\nEast,"1,540",3,1%\n'
    named = load_table(write(tmp_path, "b.csv", named_csv + 'Region total,"3,720",9,2.6%\n'))
    assert named.n_rows == 3 and "'Region total'" in named.notes[0]
    wrong = load_table(write(tmp_path, "w.csv", named_csv + 'Region total,"3,720",10,2.6%\n'))
    assert wrong.n_rows == 4
    average = load_table(write(tmp_path, "a.csv", f"Region,Sales,Stores\n{rows}Average,1240,3\n"))
    assert average.n_rows == 3 and "averages" in average.notes[0]
    # a row that is only called "Total" (its numbers are not the sums) is data
    product = load_table(write(tmp_path, "p.csv", f"Region,Sales,Stores\n{rows}Total,500,1\n"))
    assert product.n_rows == 4 and product.notes == ()
    # a mean that is only near the "Average" row's number, a short table, a sum past float range: data
    near_csv = 'Region,Sales\nNorth,"1,200"\nSouth,980\nEast,"1,540"\nAverage,1241\n'  # the mean is 1240
    near = load_table(write(tmp_path, "n.csv", near_csv))
    assert near.n_rows == 4
    eclipses = load_table(write(tmp_path, "e.csv", "Type,Count\nPartial,5\nAnnular,3\nTotal,8\n"))
    assert eclipses.n_rows == 3
    huge = load_table(write(tmp_path, "h.csv", "Name,X\na,1e308\nb,1e308\nc,1e308\nTotal,5\n"))
    assert huge.n_rows == 4
    # the WTQ rules read a table as WTQ's data were read
    frame = pd.DataFrame({"Region": ["North", "South", "East", "Total"], "Sales": ["1", "2", "3", "6"]})
    assert table_from_dataframe(frame, value_rules="wtq").n_rows == 4
    assert table_from_dataframe(frame).n_rows == 3


def test_a_remembered_answer_reads_back_as_a_question_file_line(tmp_path):
    from nsmcli.worlds.tables.data.readers import read_question_file, remember_answer

    table = tmp_path / "tables" / "sales.csv"
    table.parent.mkdir()
    table.write_text('Region,Amount\nNorth,"$1,234.50"\n', encoding="utf-8")
    questions = tmp_path / "mine" / "questions.tsv"
    questions.parent.mkdir()
    assert remember_answer(questions, table, "  what  is the   amount? ", [" $1,234.50"]) == (
        False,
        ["$1,234.50"],
    )
    assert remember_answer(questions, table, "which region?", ["North", "South"])[0] is False
    cases = read_question_file(questions)
    assert [(c.table.resolve(), c.question, c.answer) for c in cases] == [
        (table.resolve(), "what is the amount?", ["$1,234.50"]),
        (table.resolve(), "which region?", ["North", "South"]),
    ]
    assert questions.read_text(encoding="utf-8").splitlines()[1].startswith("../tables/sales.csv\t")
    # the same question over the same table: its answer is corrected, not added twice
    assert remember_answer(questions, table, "what is the amount?", ["1234.5"])[0] is True
    assert [c.answer for c in read_question_file(questions)] == [["1234.5"], ["North", "South"]]


def test_remembering_keeps_a_files_other_columns_and_adds_the_answer_column(tmp_path):
    from nsmcli.worlds.tables.data.readers import read_question_file, remember_answer

    table = tmp_path / "t.csv"
    table.write_text("a\n1\n", encoding="utf-8")
    two = tmp_path / "two.tsv"
    two.write_text("\ufefftable\tquestion\nt.csv\thow many rows?\n", encoding="utf-8")
    remember_answer(two, table, "what is a?", ["1"])
    assert two.read_text(encoding="utf-8").splitlines()[0] == "table\tquestion\tanswer"
    assert [c.answer for c in read_question_file(two)] == [None, ["1"]]
    typed = tmp_path / "typed.tsv"
    typed.write_text("table\tquestion\tanswer\ttype\nt.csv\twhat is a?\t2\tlookup\n", encoding="utf-8")
    assert remember_answer(typed, table, "what is a?", ["1"])[0] is True
    assert typed.read_text(encoding="utf-8").splitlines()[1] == "t.csv\twhat is a?\t1\tlookup"


@pytest.mark.parametrize(
    ("header", "answers", "message"),
    [
        ("table\tquestion\tanswer\n", ["a|b"], "holds '|'"),
        ("table\tquestion\tanswer\n", ["  "], "the answer is empty"),
        ("question\ttable\n", ["1"], "the first line must be the header"),
        ("table\tquestion\texpected\n", ["1"], "the first line must be the header"),
    ],
)
def test_a_bad_answer_or_file_is_refused_and_the_file_left_as_it_was(tmp_path, header, answers, message):
    from nsmcli.worlds.tables.data.readers import remember_answer

    table = tmp_path / "t.csv"
    table.write_text("a\n1\n", encoding="utf-8")
    questions = tmp_path / "q.tsv"
    questions.write_text(header + "t.csv\tolder question?\t3\n", encoding="utf-8")
    before = questions.read_bytes()
    with pytest.raises(DataError, match=message):
        remember_answer(questions, table, "what is a?", answers)
    assert questions.read_bytes() == before


def test_a_remembered_worksheet_keeps_its_sheet_and_a_symlinked_file_is_refused(tmp_path):
    from nsmcli.worlds.tables.data.readers import read_question_file, remember_answer, remembered_table

    book = tmp_path / "book.xlsx"
    book.write_bytes(b"not read here")
    questions = tmp_path / "q.tsv"
    assert remembered_table(questions, f"{book}#Sheet 2") == "book.xlsx#Sheet 2"
    remember_answer(questions, f"{book}#Sheet 2", "what?", ["1"])
    assert read_question_file(questions)[0].table == tmp_path / "book.xlsx#Sheet 2"
    link = tmp_path / "link.tsv"
    link.symlink_to(questions)
    with pytest.raises(DataError, match="is a symbolic link"):
        remember_answer(link, book, "what?", ["2"])
    assert read_question_file(questions)[0].answer == ["1"]


def test_a_remembered_table_reads_back_through_a_linked_folder(tmp_path):
    from nsmcli.worlds.tables.data.readers import read_question_file, remember_answer

    deep = tmp_path / "a" / "b" / "c"
    deep.mkdir(parents=True)
    table = deep / "t.csv"
    table.write_text("a\n1\n", encoding="utf-8")
    link = tmp_path / "L"
    link.symlink_to(deep, target_is_directory=True)
    questions = link / "q.tsv"
    remember_answer(questions, link / "t.csv", "what is a?", ["1"])
    [case] = read_question_file(questions)
    assert case.table.is_file() and case.table.resolve() == table.resolve()
