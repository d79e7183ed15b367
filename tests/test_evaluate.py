"""The official WTQ evaluator's rules (v1.0.2) and MAPO's WikiSQL answer accuracy, one rule per test."""

from __future__ import annotations

import pytest

from nsmcli.worlds.tables.data.evaluate import (
    DateValue,
    NumberValue,
    StringValue,
    check_denotation,
    match,
    parse_number,
    prediction_text,
    split_tsv_list,
    to_value,
    to_value_list,
    unescape_tsv,
    wikisql_correct,
    wikisql_normalize_answer,
    wikisql_process_answer,
    wtq_correct,
)
from nsmcli.worlds.tables.data.values import Date

# ------------------------------------------------------------------------------------------------------
# String normalisation, through string matching


@pytest.mark.parametrize(
    ("target", "prediction"),
    [
        ("Café Müller", "cafe muller"),  # diacritics
        ("Rock ‘n’ Roll", "rock 'n' roll"),  # single smart quotes
        ("it`s", "it's"),  # backtick
        ("“Hello” world", '"hello" world'),  # double smart quotes
        ("1990–1995", "1990-1995"),  # en dash
        ("a—b−c‐d", "a-b-c-d"),  # em dash, minus sign, hyphen
        ("Paris[1]", "paris"),  # numeric citation
        ("Paris[note 2][3]", "paris"),  # several citations, non-numeric included
        ("Smith*", "smith"),  # trailing star
        ("Smith†‡", "smith"),  # trailing daggers
        ("Smith #", "smith"),  # trailing hash
        ("London (UK)", "london"),  # parenthesised details
        ("London (UK) (capital)", "london"),  # several parenthesised details
        ('"Yesterday"', "yesterday"),  # outer quotes
        ('"Yesterday" (1965)[2]', "yesterday"),  # repeated until stable
        ("Inc.", "inc"),  # final period
        ("  New \t York\n City ", "new york city"),  # whitespace collapsed and stripped
        ("NEW YORK", "new york"),  # lower case
    ],
)
def test_normalisation_steps_make_strings_match(target: str, prediction: str) -> None:
    assert wtq_correct([target], None, [prediction])


def test_normalisation_does_not_strip_leading_parenthesis_or_citation() -> None:
    # The lookbehind keeps a cell that is only a parenthesis or a citation.
    assert StringValue("(UK)").normalized == "(uk)"
    assert StringValue("[a]").normalized == "[a]"
    assert StringValue("[1]").normalized == ""  # numeric citations are stripped even at the start


def test_acute_accent_decomposes_before_quote_mapping() -> None:
    # NFKD runs first and turns a spacing acute accent into a space plus a dropped combining mark.
    assert StringValue("it´s").normalized == "it s"


def test_only_one_final_period_is_removed() -> None:
    assert StringValue("etc..").normalized == "etc."


def test_different_strings_do_not_match() -> None:
    assert not wtq_correct(["Paris"], None, ["London"])


# ------------------------------------------------------------------------------------------------------
# Numbers


def test_number_tolerance_is_1e_6() -> None:
    assert wtq_correct(["2.5"], None, [2.5000005])
    assert not wtq_correct(["2.5"], None, [2.500002])


def test_amount_within_1e_6_of_an_integer_becomes_int() -> None:
    assert NumberValue(3.0).amount == 3 and isinstance(NumberValue(3.0).amount, int)
    assert isinstance(NumberValue(3.0000001).amount, int)
    assert isinstance(NumberValue(3.5).amount, float)


def test_official_int_truncation_is_kept() -> None:
    # The official code uses int(), not round(): 2.9999999 becomes 2.
    assert NumberValue(2.9999999).amount == 2


def test_float_noise_in_predictions_prints_as_the_integer() -> None:
    assert prediction_text(0.1 * 3 * 10) == "3"
    assert prediction_text(2.9999999999999996) == "3"
    assert wtq_correct(["3"], None, [2.9999999999999996])


def test_int_and_float_forms_of_one_number_are_equal() -> None:
    assert NumberValue(1990) == NumberValue(1990.0)
    assert hash(NumberValue(1990)) == hash(NumberValue(1990.0))
    assert wtq_correct(["1990"], None, [1990])


def test_year_target_matches_float_prediction() -> None:
    assert prediction_text(1990.0) == "1990"
    assert wtq_correct(["1990"], None, [1990.0])
    assert wtq_correct(["1990"], ["1990.0"], ["1990.0"])


def test_number_parsing_rejects_nan_inf_and_python3_only_forms() -> None:
    assert parse_number("12") == 12 and isinstance(parse_number("12"), int)
    assert parse_number(" 12 ") == 12
    assert parse_number("1.5e3") == 1500.0
    for text in ("nan", "inf", "-Infinity", "1_000", "1_000.5", "1,000", "12 km", ""):
        assert parse_number(text) is None, text
    assert isinstance(to_value("1_000"), StringValue)
    assert isinstance(to_value("nan"), StringValue)


def test_string_and_number_do_not_match_unless_text_is_equal() -> None:
    assert not wtq_correct(["3"], None, ["three"])
    assert not NumberValue(3).match(StringValue("3.0"))
    # A number with an original string matches a string with the same normalised text.
    assert NumberValue(3, "3 km").match(StringValue("3 km"))


def test_number_normalized_text_is_the_original_or_the_amount() -> None:
    assert NumberValue(7, "Seven (7)").normalized == "seven"
    assert NumberValue(7).normalized == "7"
    assert NumberValue(1.5).normalized == "1.5"


# ------------------------------------------------------------------------------------------------------
# Dates and canonical forms


def test_date_canon_gives_date_value() -> None:
    value = to_value("May 31, 1990", "1990-05-31")
    assert isinstance(value, DateValue) and value.ymd == (1990, 5, 31)
    assert value.normalized == "may 31, 1990"


def test_date_with_unknown_fields() -> None:
    assert to_value("May 31", "xx-05-31") == DateValue(-1, 5, 31)
    assert to_value("May 31", "xxxx-05-31") == DateValue(-1, 5, 31)
    assert to_value("May 1990", "1990-05-xx") == DateValue(1990, 5, -1)


def test_year_only_canon_becomes_number() -> None:
    value = to_value("1990", "1990-xx-xx")
    assert isinstance(value, NumberValue) and value.amount == 1990
    assert wtq_correct(["the year 1990"], ["1990-xx-xx"], [Date(1990)])
    assert wtq_correct(["1990"], ["1990-xx-xx"], [1990.0])


def test_dates_match_field_by_field_including_unknowns() -> None:
    assert wtq_correct(["May 31, 1990"], ["1990-05-31"], [Date(1990, 5, 31)])
    assert not wtq_correct(["May 31, 1990"], ["1990-05-31"], [Date(1990, 5, -1)])
    assert not wtq_correct(["May 31, 1990"], ["1990-05-31"], [Date(-1, 5, 31)])
    assert not wtq_correct(["May 31"], ["xx-05-31"], [Date(1990, 5, 31)])
    assert wtq_correct(["May 31"], ["xx-05-31"], [Date(-1, 5, 31)])


def test_invalid_dates_are_strings() -> None:
    for text in ("1990-13-01", "1990-05-32", "xx-xx-xx", "1990-05", "a-b-c"):
        assert isinstance(to_value(text), StringValue), text


def test_date_and_number_do_not_match() -> None:
    assert not match(to_value("May 1990", "1990-05-xx"), to_value("1990"))


def test_canon_overrides_original() -> None:
    value = to_value("twelve", "12")
    assert isinstance(value, NumberValue) and value.amount == 12 and value.normalized == "twelve"
    assert wtq_correct(["twelve"], ["12"], [12.0])
    assert wtq_correct(["twelve"], ["12"], ["Twelve"])  # the original text still matches
    assert not wtq_correct(["twelve"], None, [12.0])  # without the canon it is a string


def test_empty_canon_falls_back_to_original() -> None:
    assert to_value("12", "") == NumberValue(12)


def test_value_passed_through() -> None:
    value = StringValue("x")
    assert to_value(value) is value


# ------------------------------------------------------------------------------------------------------
# Set semantics


def test_duplicate_predictions_collapse() -> None:
    assert wtq_correct(["Paris"], None, ["Paris", "paris", "PARIS."])
    assert wtq_correct(["3"], None, [3, 3.0, "3"])


def test_duplicate_targets_collapse() -> None:
    assert len(to_value_list(["a", "A", "a."])) == 1


def test_size_mismatch_fails() -> None:
    assert not wtq_correct(["Paris"], None, ["Paris", "London"])
    assert not wtq_correct(["Paris", "London"], None, ["Paris"])
    assert not wtq_correct(["Paris"], None, [])


def test_order_is_irrelevant() -> None:
    assert wtq_correct(["Paris", "London", "3"], None, [3, "london", "paris"])


def test_every_target_must_match_some_prediction() -> None:
    targets = to_value_list(["a", "b"])
    assert check_denotation(targets, to_value_list(["b", "a"]))
    assert not check_denotation(targets, to_value_list(["a", "c"]))


def test_canon_list_length_must_match() -> None:
    with pytest.raises(ValueError):
        to_value_list(["a", "b"], ["a"])


def test_row_ids_never_match_strings() -> None:
    assert not wtq_correct(["3"], None, ["row_3"])


# ------------------------------------------------------------------------------------------------------
# WikiSQL


def test_wikisql_order_matters() -> None:
    assert wikisql_correct(["a", "b"], ["a", "b"])
    assert not wikisql_correct(["a", "b"], ["b", "a"])


def test_wikisql_duplicates_matter() -> None:
    assert not wikisql_correct(["a"], ["a", "a"])
    assert wikisql_correct(["a", "a"], ["A", "a"])


def test_wikisql_decimal_strings_are_numbers() -> None:
    assert wikisql_normalize_answer("1,234") == 1234.0
    assert wikisql_correct(["1,234"], [1234.0])
    assert wikisql_correct(["3"], [3])
    assert wikisql_correct([" -2.5 "], [-2.5])
    assert not wikisql_correct(["3"], [3.5])


def test_wikisql_strings_are_case_insensitive_and_stripped() -> None:
    assert wikisql_normalize_answer("  New York ") == "new york"
    assert wikisql_correct(["New York"], ["new york"])
    assert not wikisql_correct(["New York"], ["new york city"])


def test_wikisql_non_numbers_stay_strings() -> None:
    assert wikisql_normalize_answer("1990-2000") == "1990-2000"
    assert wikisql_normalize_answer("12 km") == "12 km"
    assert wikisql_normalize_answer("nan") == "nan"


def test_wikisql_none_dropped() -> None:
    assert wikisql_process_answer([None, "a", None]) == ["a"]
    assert wikisql_correct([None], [])


# ------------------------------------------------------------------------------------------------------
# WTQ TSV fields


def test_unescape_tsv() -> None:
    assert unescape_tsv(r"a\nb") == "a\nb"
    assert unescape_tsv(r"a\pb") == "a|b"
    assert unescape_tsv(r"a\\nb") == "a\\nb"
    assert unescape_tsv(r"a\\pb") == "a\\pb"
    assert unescape_tsv(r"c:\x") == r"c:\x"
    assert unescape_tsv("trailing\\") == "trailing\\"


def test_split_tsv_list() -> None:
    assert split_tsv_list(r"a|b\pc|d\nE") == ["a", "b|c", "d\nE"]
    assert split_tsv_list("one") == ["one"]
