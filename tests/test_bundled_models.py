"""The models shipped in examples/models answer the example questions out of the box."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nsmcli.parser import MODELS_DIR, Parser, find_model
from nsmcli.train.rerank import load_reranker
from nsmcli.train.rundir import RunDir, run_members, save_tensors

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ROOT / "examples" / "questions.tsv"


def stated_count() -> int:
    """The number of example questions README.md says the bundled WTQ model answers correctly."""
    match = re.search(r"answers (\d+) of the (\d+) example questions", (ROOT / "README.md").read_text())
    assert match, "README.md must state how many example questions the bundled WTQ model answers"
    return int(match.group(1))


def test_bundled_models_are_small_plain_run_directories_or_ensembles_of_them():
    for name in ("wtq", "wikisql"):
        model = MODELS_DIR / name
        for run in {*run_members(model), *run_members(model, users=True)}:
            assert (run / "config.json").is_file() and (run / "best" / "model.pt").is_file()
        size = sum(f.stat().st_size for f in model.rglob("*") if f.is_file())
        # the WTQ bundle: two members, the member for users' tables, the GloVe fallback, the rerankers and their
        # matcher (7 MB); both bundles together keep the wheel well under PyPI's 100 MB a file
        assert size <= 46 * 2**20, f"{name}: {size} bytes"
    for name in ("wtq", "wikisql"):  # each an ensemble of its GloVe model and a MiniLM member
        assert len(run_members(MODELS_DIR / name)) > 1
    # the WTQ ensemble chooses with its reranker (fitted on held-out questions); WikiSQL has none to fit on
    assert load_reranker(MODELS_DIR / "wtq") is not None and load_reranker(MODELS_DIR / "wikisql") is None


def test_the_default_falls_back_to_the_glove_model_without_the_encoder_package(monkeypatch):
    """`pip install nsmcli` without the [encoder] extra still answers, and says how to get the default."""
    import importlib.util

    from nsmcli.errors import CheckpointError
    from nsmcli.model import pretrained

    real = importlib.util.find_spec
    monkeypatch.setattr(
        pretrained.importlib.util,
        "find_spec",
        lambda name, *a: None if name == pretrained.MODULE else real(name, *a),
    )
    parser = Parser.load()
    assert parser.path == find_model("wtq-glove") == MODELS_DIR / "wtq" / "glove"
    result = parser.parse("how many nations are listed?", ROOT / "examples" / "tables" / "medals.csv")
    assert result.program and any(
        "pip install 'nsmcli[encoder]'" in w and "wtq-glove" in w for w in result.warnings
    )
    for named in ("wtq", "wikisql"):  # named explicitly: no silent substitute
        with pytest.raises(CheckpointError, match=r"pip install 'nsmcli\[encoder\]'"):
            Parser.load(named)
    glove = Parser.load("wikisql-glove")
    assert glove.path == MODELS_DIR / "wikisql" / "glove" and glove.language.name == "wikisql"


def test_bundled_wtq_model_answers_the_stated_number_of_example_questions():
    parser = Parser.load()  # no argument: the bundled WTQ model
    outcomes = [answered.correct for answered in parser.parse_file(QUESTIONS)]
    assert len(outcomes) >= 20
    assert sum(outcomes) >= stated_count()


def test_parse_without_model_uses_the_bundled_one_and_prints_json():
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "nsmcli",
            "parse",
            "how many nations are listed?",
            str(ROOT / "examples" / "tables" / "medals.csv"),
            "--json",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode in (0, 1), proc.stderr
    payload = json.loads(proc.stdout)
    assert payload["question"] == "how many nations are listed?"
    assert set(payload) >= {"answer", "program", "steps", "sql", "candidates"}


@pytest.mark.parametrize("name", ["wikisql", "wikisql-glove"])
def test_wikisql_models_by_name(name):
    parser = Parser.load(name)
    assert parser.language.name == "wikisql"
    encoders = [config["model"].get("encoder") for _, config in parser.members]
    assert ("minilm" in encoders) == (name == "wikisql") and len(encoders) == (2 if name == "wikisql" else 1)
    result = parser.parse("how many cities are in spain?", ROOT / "examples" / "tables" / "cities.csv")
    assert result.program is None or result.program.startswith("(")


def test_parse_answers_with_the_answer_its_beam_favours():
    """With vote="answer" (the default for a model without a reranker) the answer whose beam programs sum
    highest, shown with its most probable program; with vote="program" the single most probable program,
    as the original."""
    from nsmcli.train.evaluate import answer_key

    parser = Parser.load("wtq")
    table = ROOT / "examples" / "tables" / "medals.csv"
    for question in ("which nation won the most gold medals?", "how many nations won no silver?"):
        single = parser.parse(question, table, beam=5, vote="program")
        assert single.program == single.candidates[0].program
        voted = parser.parse(question, table, beam=5, vote="answer")
        totals: dict = {}
        for c in voted.candidates:
            totals[answer_key(c.answer)] = totals.get(answer_key(c.answer), 0.0) + c.probability
        assert totals[answer_key(voted.answer)] == max(totals.values())
        chosen = [c for c in voted.candidates if answer_key(c.answer) == answer_key(voted.answer)]
        assert voted.program == max(chosen, key=lambda c: c.probability).program
        # what the user is shown as the answer's confidence: every agreeing program's share
        assert voted.answer_probability == pytest.approx(totals[answer_key(voted.answer)])
        assert voted.answer_probability >= voted.probability


def test_parse_sql_check_runs_the_sql_in_sqlite():
    """--sql-check runs the shown SQL in sqlite on the table: an exact rendering agrees with the answer."""
    medals = str(ROOT / "examples" / "tables" / "medals.csv")
    question = "which nation won the least gold medals?"  # the bundled model answers with argmin: SQL
    base = [sys.executable, "-m", "nsmcli", "parse", question, medals, "--sql-check"]
    proc = subprocess.run([*base, "--json"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    payload = json.loads(proc.stdout)
    assert payload["sql"] and payload["sql_exact"] is True and payload["sql_note"] is None
    assert payload["sql_check"] is True
    result = Parser.load("wtq").parse(question, medals, sql_check=True)
    assert (result.sql, result.sql_exact, result.sql_check) == (payload["sql"], True, True)
    text = subprocess.run(base, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert "sql check: sqlite's answer agrees with the program's" in text.stdout
    assert "approximate" not in text.stdout


def _checkpoint_only_glove(run: Path) -> Path:
    """A copy of the bundled GloVe model as a run stopped at step 7, before its first dev evaluation: only
    checkpoint/ (the float32 weights training computes in; the bundle's best/ is float16)."""
    shutil.copytree(find_model("wtq-glove"), run)
    (run / "checkpoint").mkdir()
    state, _ = RunDir(run).load_weights("best")
    save_tensors(run / "checkpoint" / "model.pt", state)
    (run / "best" / "model.pt").unlink()
    (run / "checkpoint" / "state.json").write_text('{"step": 7}')
    return run


def test_a_run_without_best_weights_answers_from_its_last_checkpoint_and_says_so(tmp_path):
    """A run stopped before its first dev evaluation has only checkpoint/: it answers, with a warning."""
    run = _checkpoint_only_glove(tmp_path / "run")
    result = Parser.load(run).parse(
        "how many nations are listed?", ROOT / "examples" / "tables" / "medals.csv"
    )
    assert result.program and any("no best/ weights" in w and "(step 7)" in w for w in result.warnings)
    assert not any(
        "no best/ weights" in w
        for w in Parser.load("wtq-glove")
        .parse("how many nations are listed?", ROOT / "examples" / "tables" / "medals.csv")
        .warnings
    )


def test_a_set_of_members_loaded_for_a_users_table_says_what_it_lacks(tmp_path):
    """The members for users' tables load on the first such table; their notes reach that parse's warnings."""
    root = tmp_path / "ens"
    shutil.copytree(find_model("wtq-glove"), root / "a")
    _checkpoint_only_glove(root / "b")
    record = {"format": "nsm-ensemble", "members": ["a"], "user_members": ["a", "b"]}
    (root / "ensemble.json").write_text(json.dumps(record))
    parser = Parser.load(root)
    assert parser.notes == []  # the WTQ set has best weights; the users' set is not loaded yet
    result = parser.parse("how many nations are listed?", ROOT / "examples" / "tables" / "medals.csv")
    assert any("no best/ weights" in w and "(step 7)" in w for w in result.warnings)


def test_the_bundled_wtq_model_decodes_users_tables_with_its_member_for_them():
    from nsmcli.worlds.tables.data.readers import load_table

    parser = Parser.load("wtq")
    users = parser.members_for(load_table(ROOT / "examples" / "tables" / "medals.csv"))
    assert len(users) == len(parser.members) == 2
    assert users[0][0] is parser.members[0][0]  # the GloVe member, shared and loaded once
    assert users[1][0] is not parser.members[1][0]  # a MiniLM member fine-tuned on users' questions
