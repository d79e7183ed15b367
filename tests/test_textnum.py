"""Numbers and dates of cells and questions, as the official CoreNLP/SEMPRE tags have them."""

from __future__ import annotations

import csv
import glob

import pytest

from nsmcli.worlds.tables.data import textnum
from nsmcli.worlds.tables.data.textnum import (
    find_quantities,
    parse_cell_date,
    parse_cell_numbers,
    parse_number_words,
    ptb_tokenize,
)
from nsmcli.worlds.tables.data.values import Date


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("60", (60.0, None)),
        ("7,169", (7169.0, None)),
        ("3–1", (3.0, 1.0)),
        ("W 38–14", (38.0, 14.0)),
        ("$2,000 ft.", (2000.0, None)),
        ("9 October 1970", (9.0, 1970.0)),
        ("March 4, 1829", (41829.0, None)),  # SEMPRE drops spaces first: "4,1829"
        ("-7", (7.0, None)),  # the sign is skipped with the leading non-digits
        (".25", (0.25, None)),
        ("Eleven", (11.0, None)),
        ("twenty-one", (21.0, None)),
        ("Renaissance", (None, None)),
        ("", (None, None)),
    ],
)
def test_cell_numbers(text: str, expected: tuple) -> None:
    assert parse_cell_numbers(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1969", Date(1969, -1, -1)),
        ("January 26, 1995", Date(1995, 1, 26)),
        ("Jan 26, 1995", Date(1995, 1, 26)),
        ("14 February 1976", Date(1976, 2, 14)),
        ("April 1991", Date(1991, 4, -1)),
        ("3 March", Date(-1, 3, 3)),
        ("2007-08", Date(2007, 8, -1)),  # CoreNLP reads yyyy-mm
        ("1984-85", None),
        ("1983–1984", None),
        ("1976 (UK)", None),  # the date must be the whole cell
        ("9101", None),
        ("06/21/93", Date(-1, 6, 21)),
        ("1990s", None),
        ("Monday, Sept 12", Date(-1, 9, 12)),
        ("February 30, 2001", None),
    ],
)
def test_cell_date(text: str, expected: Date | None) -> None:
    assert parse_cell_date(text) == expected


def test_java_number_parse_quirks() -> None:
    assert textnum.java_parse_number("1,000,000.5 m") == (1000000.5, 11)
    assert textnum.java_parse_number("12,") == (12.0, 2)  # a trailing comma is not consumed
    assert textnum.java_parse_number("abc") is None
    assert textnum.parse_number_strict("9,000 cakes") is None
    assert textnum.parse_number_strict("9,000") == 9000.0


def test_number_words() -> None:
    assert parse_number_words("two hundred thousand") == 200000.0
    assert parse_number_words("twenty one") == 21.0
    assert parse_number_words("4.0 million") == 4000000.0
    assert parse_number_words("one two") is None
    assert parse_number_words("tree") is None


def test_tokenizer() -> None:
    assert ptb_tokenize("Didn't Piotr's team win (in 1990)?") == [
        "Did", "n't", "Piotr", "'s", "team", "win", "-lrb-", "in", "1990", "-rrb-", "?",
    ]  # fmt: skip
    assert ptb_tokenize('the "best" u.s. team, 10,000 fans') == [
        "the", "``", "best", "''", "u.s.", "team", ",", "10,000", "fans",
    ]  # fmt: skip
    assert ptb_tokenize("1983–1984 season.") == ["1983", "--", "1984", "season", "."]


def _kinds(text: str) -> list[tuple[str, tuple]]:
    tokens = ptb_tokenize(text.lower())
    return [(q.kind, q.values) for q in find_quantities(tokens)]


def test_question_quantities() -> None:
    assert _kinds("who won on july 6th, 2010?") == [("DATE", (Date(2010, 7, 6),))]
    assert _kinds("after 1936 or in november?") == [
        ("DATE", (Date(1936, -1, -1),)),
        ("DATE", (Date(-1, 11, -1),)),
    ]
    assert _kinds("more than 10,000 fans and two hundred seats") == [
        ("NUMBER", (10000.0,)),
        ("NUMBER", (200.0,)),
    ]
    assert _kinds("the first and 3rd place") == [("ORDINAL", (1.0,)), ("ORDINAL", (3.0,))]
    assert _kinds("over 25% of $300,000") == [("PERCENT", (25.0,)), ("MONEY", (300000.0,))]
    assert _kinds("lasted 5 years") == [("DURATION", (5.0,))]
    assert _kinds("in the 1990s") == [("DECADE", (1990.0,))]
    assert _kinds("the 1997-2008 and 31-14 games") == [
        ("DATE", (Date(1997, -1, -1), Date(2008, -1, -1))),
        ("NUMBER", (31.0, 14.0)),
    ]
    assert _kinds("may we go") == []  # "may" alone is a verb


def _unescape(text: str) -> str:
    return text.replace("\\n", "\n").replace("\\p", "|").replace("\\\\", "\\")


def test_cells_agree_with_tagged_tables(data_dir) -> None:
    """A slice of the official tagged tables: number, num2 and date agreement stays >= 99%."""
    paths = sorted(glob.glob(str(data_dir / "wtq" / "tagged" / "204-tagged" / "*.tagged")))[:150]
    assert paths
    total = ok_number = ok_num2 = ok_date = 0
    for path in paths:
        with open(path, encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
                if row["row"] == "-1":
                    continue
                content = _unescape(row["content"])
                number, num2 = parse_cell_numbers(content)
                total += 1
                ok_number += number == (float(row["number"]) if row["number"] else None)
                ok_num2 += num2 == (float(row["num2"]) if row["num2"] else None)
                ok_date += parse_cell_date(content) == (Date.parse(row["date"]) if row["date"] else None)
    assert total > 5000
    assert ok_number / total >= 0.995
    assert ok_num2 / total >= 0.995
    assert ok_date / total >= 0.99
