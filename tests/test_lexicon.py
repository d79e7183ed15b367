"""The words about measuring that questions over user tables use (`nsmcli.worlds.tables.data.lexicon`)."""

from __future__ import annotations

import pytest

from nsmcli.worlds.tables.data.lexicon import (
    ATTRIBUTES,
    attribute_nouns,
    bounds,
    degree_base,
    pointing,
    polarity,
)


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
    # "the biggest order" is its amount; a train that leaves has a departure, "worth" a value
    assert "amount" in attribute_nouns("biggest") and "total" in attribute_nouns("larger")
    assert attribute_nouns("leaves") == ("departure",) == attribute_nouns("departing")
    assert attribute_nouns("arrived") == ("arrival",) and "value" in attribute_nouns("worth")
    assert attribute_nouns("left") == ()  # "how many are left" leaves nothing
    assert "duration" in attribute_nouns("lasted") and attribute_nouns("last") == ()  # "the last booking"
    assert "quote" in attribute_nouns("cheapest")


@pytest.mark.parametrize(
    ("word", "over_numbers", "over_dates", "over_times"),
    [
        ("heaviest", 1, 1, 1),
        ("lightest", -1, -1, -1),
        ("cheaper", -1, -1, -1),
        ("most", 1, 1, 1),
        ("fewest", -1, -1, -1),
        ("oldest", 1, -1, 1),  # the oldest person is the largest age, the oldest date the earliest
        ("newest", 0, 1, 0),
        ("highest", 1, 1, 1),  # over dates, a word without a time direction keeps its own
        ("fastest", 1, 1, -1),  # the fastest lap is the smallest time
        ("slowest", -1, -1, 1),
        ("many", 0, 0, 0),  # "how many" points nowhere
        ("team", 0, 0, 0),
    ],
)
def test_a_word_points_up_or_down_the_column_it_compares(word, over_numbers, over_dates, over_times):
    assert polarity(word) == over_numbers
    assert polarity(word, dates=True) == over_dates
    assert polarity(word, times=True) == over_times


def test_a_degree_word_and_its_adjective_point_one_way():
    assert pointing("which is the least expensive item".split()) == {-1}
    assert pointing("the most recent order".split(), dates=True) == {1}
    assert pointing("the oldest team".split(), dates=True) == {-1}
    assert pointing("more than 20".split()) == {1} and pointing("how many rows".split()) == set()


def test_on_user_tables_near_and_far_point_only_as_degrees():
    question = "when was the most recent quake near caddick".split()
    assert pointing(question, dates=True, degrees_only=True) == {1}
    assert pointing("sales so far".split(), degrees_only=True) == set()
    assert pointing("the nearest store".split(), degrees_only=True) == {-1}
    assert pointing("the farthest throw".split(), degrees_only=True) == {1}
    assert pointing("the furthest site".split(), degrees_only=True) == {1}
    # WTQ tables keep the reading their reranker was fitted with
    assert pointing(question, dates=True) == {1, -1}


def _value(word: str) -> bool:
    return word.isdigit() or word in ("march", "april")


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("which samples weigh more than 33 g", {(1, False)}),
        ("who joined before 2016", {(-1, False)}),
        ("teams with 5 or more wins", {(1, True)}),
        ("samples of 30 g or less", {(-1, True)}),
        ("no more than 4 goals", {(-1, True)}),
        ("games after march 20", {(1, False)}),
        ("in what year after 1990 did it open", {(1, False)}),
        ("transactions on or after march 20", {(1, True)}),
        ("loans due on or before april 2", {(-1, True)}),
        ("the weeks from 2024 03 18 onwards", {(1, True)}),
        ("which passengers on ba 117 have onward connections", set()),
        ("what happened the day after march 20", set()),
        ("from 2001 to 2005", set()),
        ("how many more goals than 3", set()),
        ("under the bridge", set()),
    ],
)
def test_a_bound_is_a_phrase_next_to_a_value(question, said):
    assert bounds(question.split(), _value) == said
