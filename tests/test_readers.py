"""Table loaders: user CSV/TSV/JSONL files (good and bad), WTQ and WikiSQL tables (fixtures and real data)."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pandas as pd
import pytest

from nsmcli.data import readers
from nsmcli.data.readers import (
    iter_wikisql_tables,
    load_table,
    load_wtq_table,
    table_from_dataframe,
    wtq_table_id,
)
from nsmcli.errors import DataError


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
