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
    "Friday", "of", "and", "hundred", "thousand", "$", "€", "%", "'s", "n't",
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
