"""The cheap tests that spare most cells the full typing (a cell of words has no number and no date; a
plain numeral is its own number) change no reading: every cell types exactly as the full readers type it,
under both rule sets and every column layout (issue 20: a 100,000-row table was slow to type)."""

from __future__ import annotations

import re
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nsmcli.worlds.tables.data import textnum, valuerules, values
from nsmcli.worlds.tables.data.valuerules import ColumnLayout, UserRules, parse_cell

#: Pieces that sit at the shortcuts' edges: quantity words whole, inside other words and before "n't",
#: letters that only match without case (long s, Kelvin sign, dotted and dotless i), other scripts'
#: digits, numerals with and without years, signs, grouping and separators.
PIECES = (
    "may", "May", "MAY", "mayor", "dismay", "Sept.", "sept", "ſept", "\u212aing", "İ", "ı", "march",
    "twenty", "twenty-first", "one", "done", "ones", "tenn't", "ten’t", "first", "eleventh", "sun",
    "Friday", "of", "and", "hundred", "thousand", "$", "€", "%", "£", "¥", "US$", "Mondays", "Mayday", "cannot", "wanna", "'s", "n't",
    "0", "7", "12", "1990", "2024", "123456", "3.5", "12.50", ".5", "1,234", "1.234,5", "1e5", "-", "−",
    "/", ".", ",", "(", ")", "[1]", "*", "#", "\"", "`", " ", "  ", "\t", "\u00a0", "\u0663", "\uff11",
    "²", "é", "Ｍａｙ", "x", "abc", "Mon", "–",
)  # fmt: skip
cell = st.lists(st.sampled_from(PIECES), max_size=6).map("".join)
layouts = st.builds(ColumnLayout, european=st.booleans(), day_first=st.booleans())
CHECK = settings(max_examples=300, derandomize=True, deadline=None, database=None,
                 suppress_health_check=[HealthCheck.too_slow])  # fmt: skip

_NEVER = re.compile(r"(?!)")


def _in_full(read, *args):
    """`read(*args)` with every shortcut turned off: no pre-check, no plain-numeral path, no cache."""
    textnum._whole_span.cache_clear()
    with (
        mock.patch.object(textnum, "may_hold_quantity", lambda text: True),
        mock.patch.object(textnum, "_PLAIN_NUMERAL", _NEVER),
        mock.patch.object(valuerules, "_PLAIN_NUMERAL", _NEVER),
        mock.patch.object(valuerules, "_ANY_DIGIT", re.compile(r"")),
        mock.patch.object(valuerules, "_MONEY_OR_PERCENT", _NEVER),
        mock.patch.object(valuerules, "_LEADING_WORD", _NEVER),
    ):
        try:
            return read(*args)
        finally:
            textnum._whole_span.cache_clear()


@CHECK
@given(cell)
def test_wtq_rules_read_every_cell_as_in_full(text):
    textnum._whole_span.cache_clear()
    assert parse_cell(text) == _in_full(parse_cell, text)
    assert textnum.parse_cell_numbers(text) == _in_full(textnum.parse_cell_numbers, text)
    assert textnum.parse_cell_date(text) == _in_full(textnum.parse_cell_date, text)


@CHECK
@given(cell, layouts)
def test_user_rules_read_every_cell_as_in_full(text, layout):
    rules = UserRules()
    textnum._whole_span.cache_clear()
    assert rules.cell(text, layout) == _in_full(rules.cell, text, layout)


@CHECK
@given(st.lists(cell, max_size=8))
def test_a_column_layout_is_inferred_as_in_full(column):
    assert ColumnLayout.infer(column) == _in_full(ColumnLayout.infer, column)


@CHECK
@given(cell | st.text(max_size=30))
def test_the_plain_text_normalisation_is_the_official_one(text):
    assert values.normalize(text) == values._normalize_any(text)


def test_the_pre_check_lets_through_what_the_tagger_reads():
    for text in ("May", "twenty-one", "Eleven", "the first", "ten't", "٣", "Sept."):
        assert textnum.may_hold_quantity(text), text
    for text in ("mayor", "phone", "Kenya", "done", ""):
        assert not textnum.may_hold_quantity(text), text


#: Columns that take the column-wide reading (words alone, plain numerals with years among them) and ones
#: that must not (a cell holding the separator, a quantity word, a sign, one non-plain cell among many).
NUMERALS = ("0", "7", "12", "1990", "2024", "0123", "123456", "3.5", "12.50", "1.234", "0.000")
WORDS = (
    "abc",
    "Abc",
    "x y",
    "x  y",
    " x",
    "x ",
    "x.",
    "a.b",
    "\tx",
    "x\x1cy",
    "é",
    "mayor",
    "",
    "A[1]",
    "(b)",
)
column_cell = st.sampled_from(NUMERALS + WORDS + ("\x00", "a\x00b", "may", "-3", "$5", "15/03/2024")) | cell


EUROPEAN_CELLS = ("48.215,70", "1,5", "3.104", "1.234.567", "€0,99", "12,345.6", "1,250", "2.611")


def _column_views_cell_by_cell(raw, fraction, european_default=False):
    # the user rules' share over filled cells applies to both readings alike
    fraction = valuerules.filled_typed_fraction(raw, fraction)
    views = valuerules.ValueRules.column_views(UserRules(european_default), raw, fraction)
    # the column-wide rule after the reading, for both alike: dates read in part are none
    if "date" in views and valuerules._dates_in_part(raw, views["date"]):
        del views["date"]
    return views


@CHECK
@given(
    st.lists(st.sampled_from(NUMERALS), min_size=1, max_size=12)
    | st.lists(st.sampled_from(WORDS), min_size=1, max_size=12)
    | st.lists(column_cell, min_size=1, max_size=12),
    st.sampled_from((0.0, 0.5, 1.0)),
    st.booleans(),
)
def test_a_column_read_at_once_has_the_views_of_its_cells_read_one_by_one(raw, fraction, european):
    raw = tuple(raw)
    assert UserRules(european).column_views(raw, fraction) == _column_views_cell_by_cell(
        raw, fraction, european
    )


def test_the_column_wide_reading_takes_the_common_columns_and_leaves_the_rest():
    rules = UserRules()
    assert rules._column_at_once(("12", "3.5", "1990"), 0.5) is not None
    assert rules._column_at_once(("Paris", "new  york", "St. Louis."), 0.5) is not None
    for raw in (("12", "-3"), ("Paris", "may"), ("a\x00b", "c"), ("Paris", "5 km"), ()):
        assert rules._column_at_once(raw, 0.5) is None, raw
    views = rules.column_views(("12", "1990", "3.5"), 0.5)
    assert views["number"][0] == 12.0 and views["number"][2] == 3.5
    assert views == _column_views_cell_by_cell(("12", "1990", "3.5"), 0.5)


@CHECK
@given(st.lists(st.lists(column_cell | st.sampled_from(EUROPEAN_CELLS), min_size=1, max_size=6), max_size=4))
def test_the_tables_decimal_convention_is_the_count_over_all_its_columns(columns):
    """`UserRules.for_table` skips the count for tables with no European pattern: the same decision."""
    eu = us = 0
    for raw in columns:
        column_eu, column_us, _, _ = valuerules._column_evidence(raw)
        eu, us = eu + column_eu, us + column_us
    assert UserRules().for_table(columns).european_default == (eu > us)


@CHECK
@given(st.lists(st.one_of(cell, st.sampled_from(["1.234.567", ".123.456", "12.345,6", "9,99"])), max_size=6))
def test_the_european_evidence_pre_check_answers_as_the_scan(cells):
    text = "\x00".join(cells)
    assert valuerules._holds_european_evidence(text) == (valuerules._EU_EVIDENCE.search(text) is not None)
