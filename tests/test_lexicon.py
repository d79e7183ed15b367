"""The words about measuring that questions over user tables use (`nsmcli.worlds.tables.data.lexicon`)."""

from __future__ import annotations

import pytest

from nsmcli.worlds.tables.data.lexicon import ATTRIBUTES, attribute_nouns, degree_base


@pytest.mark.parametrize(
    ("word", "base"),
    [("heaviest", "heavy"), ("hotter", "hot"), ("larger", "large"), ("oldest", "old"), ("long", "long")],
)
def test_a_comparative_or_superlative_reaches_its_base(word, base):
    assert degree_base(word, ATTRIBUTES) == base


def test_a_word_that_only_ends_like_a_degree_has_no_base():
    assert degree_base("best", {"b"}) is None  # the stem keeps two letters at least
    assert degree_base("water", ATTRIBUTES) is None and degree_base("number", ATTRIBUTES) is None


def test_an_adjective_in_any_degree_names_what_it_measures():
    assert attribute_nouns("oldest") == ("age",) == attribute_nouns("younger")
    assert "mass" in attribute_nouns("heaviest") and "length" in attribute_nouns("longer")
    assert attribute_nouns("growing") == ("growth",)
    assert attribute_nouns("fastest") and attribute_nouns("team") == ()
