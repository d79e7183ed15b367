"""`nsmcli.parser` as a notebook user meets it: a short repr, an HTML view, clear errors for wrong
argument types, and DataFrames whose index carries data."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from nsmcli.errors import ArgumentTypeError, DataError, NsmError
from nsmcli.parser import Parser, ParseResult, as_table

ROOT = Path(__file__).resolve().parents[1]
MEDALS = ROOT / "examples" / "tables" / "medals.csv"


@pytest.fixture(scope="module")
def parser() -> Parser:
    return Parser.load()  # the bundled WTQ model


def test_repr_is_short_and_says_question_answer_program_probability(parser):
    result = parser.parse("which nation won the most gold medals?", MEDALS)
    text = repr(result)
    close = result.runner_up is not None and result.runner_up.close  # its own line: "close runner-up=..."
    assert len(text.splitlines()) <= 2 + close and len(text) < 300 + 100 * close
    for part in (result.question, result.display[0], result.program, f"{result.probability:.2f}"):
        assert part in text


def test_repr_of_no_program():
    assert repr(ParseResult("what?", [], None, 0.0)) == "ParseResult(question='what?', no program found)"


def test_html_view_has_answer_program_and_steps_with_everything_escaped():
    step = {"expression": "(hop all_rows r.name-string)", "type": "string_list", "values": ["<b>x</b>"]}
    result = ParseResult(
        "who is <script>alert(1)</script>?",
        ["<b>x</b>"],
        "(hop all_rows r.name-string)",
        0.5,
        display=["<b>X</b>", ""],
        steps=[step],
        sql='SELECT "a<b" FROM t',
    )
    page = result._repr_html_()
    assert "<script>" not in page and "<b>X</b>" not in page
    assert "&lt;script&gt;" in page and "&lt;b&gt;X&lt;/b&gt;" in page and "(empty cell)" in page
    assert page.count("<tr>") == 2 and "(hop all_rows r.name-string)" in page and "a&lt;b" in page


@pytest.mark.parametrize("table", [[1, 2, 3], [["a", "b"], ["1", "2"]], 5, None, 3.5])
def test_wrong_table_types_raise_an_nsm_error(parser, table):
    with pytest.raises(ArgumentTypeError, match="the table must be a path, a pandas DataFrame") as caught:
        parser.parse("how many nations?", table)
    assert isinstance(caught.value, NsmError) and isinstance(caught.value, TypeError)


def test_an_empty_frame_is_one_clear_error(parser):
    with pytest.raises(DataError, match="^the table has no columns"):
        parser.parse("how many rows?", pd.DataFrame())


def test_a_question_that_is_not_a_string_raises_an_nsm_error(parser):
    with pytest.raises(ArgumentTypeError, match="question must be a string"):
        parser.parse(["how many?"], MEDALS)


def test_dicts_of_columns_and_lists_of_records_are_tables():
    columns = as_table({"Nation": ["Norway", "Kenya"], "Gold": [16, 2]})
    records = as_table([{"Nation": "Norway", "Gold": 16}, {"Nation": "Kenya", "Gold": 2}])
    assert columns.header == records.header == ["Nation", "Gold"]
    assert columns.rows == records.rows == [["Norway", "16"], ["Kenya", "2"]]
    with pytest.raises(DataError, match="cannot make a table"):
        as_table({"a": [1, 2], "b": [1]})


def test_a_named_index_is_kept_and_a_default_one_dropped():
    frame = pd.DataFrame({"Country Name": ["Chad", "Peru"], "GDP": [11.3, 242.6]})
    assert as_table(frame).header == ["Country Name", "GDP"]
    indexed = as_table(frame.set_index("Country Name"))
    assert indexed.header == ["Country Name", "GDP"] and indexed.rows[1] == ["Peru", "242.6"]
    assert as_table(frame[frame["GDP"] > 100]).header == ["Country Name", "GDP"]  # a filtered RangeIndex
    labelled = pd.DataFrame({"GDP": [11.3]}, index=["Chad"])  # unnamed, but the labels are data
    assert as_table(labelled).rows == [["Chad", "11.3"]]


def test_a_dataframe_index_reaches_the_answer(parser):
    frame = pd.read_csv(MEDALS).set_index("Nation")
    result = parser.parse("which nation won the most gold medals?", frame)
    assert result.program is not None and "r.nation-string" in result.program


@pytest.mark.parametrize("enabled", [True, False])
def test_reading_and_parsing_leave_the_garbage_collector_as_they_found_it(parser, enabled):
    """Big tables are read and bound with the cyclic collector paused (nsmcli.memory); a caller's setting
    survives every call, failed ones included."""
    import gc

    from nsmcli.worlds.tables.data.readers import load_table

    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        parser.parse("which nation won the most gold medals?", load_table(MEDALS))
        assert gc.isenabled() is enabled
        with pytest.raises(DataError):
            load_table(ROOT / "no-such-table.csv")
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def _result(answer: list, display: list[str] | None = None) -> ParseResult:
    shown = display if display is not None else [str(a) for a in answer]
    return ParseResult("q?", answer, "(hop all_rows r.revenue-string)", 1.0, display=shown)


@pytest.mark.parametrize(
    ("answer", "expected", "right"),
    [
        (["41.118,35"], "41118.35", True),  # a European cell, a plain expected number
        ([41118.35], "41.118,35", True),
        (["2.5M"], "2.5 million", True),
        (["(120,00)"], "-120", True),  # accounting negative
        (["41.118,35"], "41118.3", False),
        (["3–1"], "3", False),  # a score is no amount
        (["berlin mitte"], "41118.35", False),
    ],
)
def test_answer_check_reads_amounts_as_the_user_table_does(answer, expected, right):
    from nsmcli.parser import answer_matches
    from nsmcli.worlds.tables.data.table import Table

    rows = [["Wien Neubau", "41.118,35", "2.5M"], ["Berlin Mitte", "48.215,70", "(120,00)"]]
    user = Table.from_rows("t", ["store", "revenue", "other"], rows, value_rules="user")
    assert answer_matches([expected], _result(answer), user) is right
    # the official check, and tables read with the WTQ rules, keep the WTQ reading
    wtq = Table.from_rows("t", ["store", "revenue", "other"], rows, value_rules="wtq")
    assert answer_matches([expected], _result(answer), wtq) is answer_matches([expected], _result(answer))


@pytest.mark.parametrize(
    ("answer", "expected", "right"),
    [
        ([53383.333333333336], ["53383.33"], True),  # an average, written to the cent
        ([53383.333333333336], ["53,383.33"], True),
        ([53383.333333333336], ["53383.3"], True),
        ([53383.333333333336], ["53383.34"], False),
        ([4.425], ["4.43"], True),  # float noise at the half
        ([17546.6], ["17547"], True),  # a whole amount rounds from ROUNDED_WHOLE_FROM on
        ([3.4], ["3"], False),  # ... not below it
        ([17547], ["17546.6"], False),  # a whole answer (a count, a cell) is not rounded
        ([175.14], ["175.10"], False),  # the decimals as written count, trailing zero too
        ([2.25, 7.5], ["7.5", "2.3"], True),  # in any order
        ([99.6], ["100"], True),  # ROUNDED_WHOLE_FROM is where whole amounts start to round
        ([98.6], ["99"], False),
    ],
)
def test_answer_check_takes_a_computed_number_as_the_writer_rounded_it(answer, expected, right):
    """A user writes an average as they would read it (`53383.33`); the official check wants every digit."""
    from nsmcli.parser import answer_matches
    from nsmcli.worlds.tables.data.table import Table

    user = Table.from_rows("t", ["store", "revenue"], [["Wien", "41.118,35"]], value_rules="user")
    assert answer_matches(expected, _result(answer), user) is right
    wtq = Table.from_rows("t", ["store", "revenue"], [["Wien", "41.118,35"]], value_rules="wtq")
    assert not answer_matches(expected, _result(answer), wtq)  # WTQ data keeps the official check


def test_answer_check_takes_an_answer_shown_as_the_expected_cell():
    """A rent `£1,395 pcm` read as the number 1395 and shown as its cell is the expected `£1,395 pcm`, whose
    amount the user rules do not read."""
    from nsmcli.parser import answer_matches
    from nsmcli.worlds.tables.data.table import Table

    rows = [["9 Mill Lane", "£1,395 pcm"], ["2 Kiln Row", "£265 pw"]]
    user = Table.from_rows("t", ["property", "rent"], rows, value_rules="user")
    assert answer_matches(["£1,395 pcm"], _result([1395.0], ["£1,395 pcm"]), user)
    assert not answer_matches(["£265 pw"], _result([1395.0], ["£1,395 pcm"]), user)
    wtq = Table.from_rows("t", ["property", "rent"], rows, value_rules="wtq")
    assert not answer_matches(["£1,395 pcm"], _result([1395.0], ["£1,395 pcm"]), wtq)  # the official check


def test_answer_check_reads_a_text_answer_from_its_cell_not_its_lowercased_view():
    from nsmcli.parser import answer_matches
    from nsmcli.worlds.tables.data.table import Table

    user = Table.from_rows("t", ["city", "population"], [["Accra", "2.5M"]], value_rules="user")
    assert answer_matches(["2.5 million"], _result(["2.5m"], ["2.5M"]), user)
    assert not answer_matches(["2.5 million"], _result(["2.5m"], ["2.5m"]), user)  # a metre is no million


QUESTIONS = ROOT / "examples" / "questions.tsv"


@pytest.fixture(scope="module")
def answered_examples(parser):
    return list(parser.parse_file(QUESTIONS))


def test_the_runner_up_is_the_best_scored_other_answer_and_close_means_within_the_margin(answered_examples):
    from nsmcli.parser import CLOSE_MARGIN
    from nsmcli.train.evaluate import answer_key

    with_runner_up = [a.result for a in answered_examples if a.result.runner_up is not None]
    assert len(with_runner_up) >= len(answered_examples) // 2
    for result in with_runner_up:
        runner_up = result.runner_up
        assert answer_key(runner_up.answer) != answer_key(result.answer)
        assert runner_up.display != result.display and runner_up.display
        assert runner_up.program in {c.program for c in result.candidates}
        assert runner_up.margin >= 0  # the chooser scored the chosen program highest
        assert result.close is runner_up.close is (runner_up.margin < CLOSE_MARGIN)
    # the examples hold close choices and clear ones, so both branches are exercised
    assert {result.close for result in with_runner_up} == {True, False}


def test_under_the_answer_vote_the_margin_is_the_log_ratio_of_the_two_answers_probabilities(parser):
    import math

    from nsmcli.train.evaluate import answer_key

    result = parser.parse(
        "which team scored the most goals?", ROOT / "examples" / "tables" / "league.csv", vote="answer"
    )
    assert result.chosen_by == "answer" and result.runner_up is not None
    mass: dict = {}
    for candidate in result.candidates:
        key = answer_key(candidate.answer)
        mass[key] = mass.get(key, 0.0) + candidate.probability
    first, second = mass[answer_key(result.answer)], mass[answer_key(result.runner_up.answer)]
    assert first == max(mass.values())
    assert result.runner_up.margin == pytest.approx(math.log(first / second))


def test_a_close_runner_up_shows_in_repr_html_and_json(answered_examples):
    close = next(a.result for a in answered_examples if a.result.close)
    assert "close runner-up" in repr(close) and close.runner_up.display[0] in repr(close)
    assert "or, close behind" in close._repr_html_()
    assert close.to_json()["runner_up"]["close"] is True
    clear = next(a.result for a in answered_examples if a.result.runner_up and not a.result.close)
    assert "runner-up" not in repr(clear) and "close behind" not in clear._repr_html_()


def test_a_question_file_whose_answer_is_the_close_runner_up_counts_the_runner_up_right(
    parser, answered_examples, tmp_path
):
    close = next(a for a in answered_examples if a.result.close)
    questions = tmp_path / "q.tsv"
    expected = "|".join(close.result.runner_up.display)
    questions.write_text(
        f"table\tquestion\tanswer\n{close.case.table.resolve()}\t{close.case.question}\t{expected}\n",
        encoding="utf-8",
    )
    [answered] = parser.parse_file(questions)
    assert answered.correct is False and answered.runner_up_correct is True


def test_the_choice_is_the_rerankers_and_the_runner_up_its_best_scored_other_answer(
    parser, answered_examples
):
    from nsmcli.train.evaluate import answer_key
    from nsmcli.worlds.tables.data.readers import load_table

    for answered in answered_examples[:12]:
        found = parser.beam_search(answered.case.question, load_table(answered.case.table))
        reranker = parser.reranker_for(found.table)  # a user's file: the reranker of users' tables
        proposed = reranker.propose(found.problem, found.env, found.totals, found.answers)
        chosen = reranker.choose(found.problem, found.env, found.totals, found.answers, proposed)
        assert answered.result.program == chosen
        scores = dict(
            zip(
                found.totals,
                reranker.candidate_scores(found.problem, found.env, found.totals, found.answers, proposed),
                strict=True,
            )
        )
        key = answer_key(found.answers[chosen])
        others = [s for t, s in scores.items() if found.answers[t] and answer_key(found.answers[t]) != key]
        runner_up = answered.result.runner_up
        if runner_up is None:  # no other answer, or every other answer shows as the chosen one's
            shown = {
                tuple(parser.answer_of(found, t).display)
                for t in found.totals
                if found.answers[t] and answer_key(found.answers[t]) != key
            }
            assert shown <= {tuple(answered.result.display)}
            continue
        # the best other answer, unless it shows as the chosen one (then a lower one: a larger margin)
        assert runner_up.margin >= scores[chosen] - max(others) - 1e-9
        assert runner_up.margin == pytest.approx(scores[chosen] - scores[runner_up.program])
