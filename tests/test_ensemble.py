"""Ensemble directories (`ensemble.json` naming member runs): what `nsm parse --model DIR` and `nsm eval DIR`
combine, and the files they refuse."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
import torch
from typer.testing import CliRunner

from nsmcli.cli.main import app
from nsmcli.errors import CheckpointError
from nsmcli.parser import Parser, find_model
from nsmcli.train.rundir import ENSEMBLE_FILE, MAX_MEMBERS, run_members
from nsmcli.worlds.tables.data.readers import load_table, table_from_dataframe
from tests.fuzzing import run_cli

ROOT = Path(__file__).resolve().parents[1]
MEDALS = ROOT / "examples" / "tables" / "medals.csv"
QUESTIONS = [
    "which nation won the most gold medals?",
    "how many nations won more than 2 silver medals?",
    "what is the total number of bronze medals?",
]


def _write_ensemble(root: Path, members: list[str], user_members: object = None) -> Path:
    """An ensemble directory's file naming `members` (and `user_members`, the members for users' tables, when
    given)."""
    root.mkdir(parents=True, exist_ok=True)
    record: dict = {"format": "nsm-ensemble", "members": members}
    if user_members is not None:
        record["user_members"] = user_members
    (root / ENSEMBLE_FILE).write_text(json.dumps(record))
    return root


def _copy_run(source: Path, target: Path, noise: float = 0.0, seed: int = 0) -> None:
    """A copy of a run whose best weights are perturbed by Gaussian noise (another model of the same kind)."""
    shutil.copytree(source, target)
    if noise:
        path = target / "best" / "model.pt"
        state = torch.load(path, weights_only=True)
        generator = torch.Generator().manual_seed(seed)
        for name, tensor in state.items():
            if tensor.is_floating_point():
                state[name] = tensor + noise * torch.randn(tensor.shape, generator=generator)
        torch.save(state, path)


@pytest.fixture(scope="module")
def ensemble(tmp_path_factory) -> Path:
    """The bundled GloVe WTQ model and a perturbed copy of it, as an ensemble directory."""
    root = tmp_path_factory.mktemp("ensemble") / "wtq-pair"
    _copy_run(find_model("wtq-glove"), root / "a")
    _copy_run(find_model("wtq-glove"), root / "b", noise=0.05, seed=3)
    return _write_ensemble(root, ["a", "b"])


def test_an_ensemble_of_one_model_twice_parses_as_that_model(tmp_path):
    """The members' mean probability of one model with itself is that model's: the same beam."""
    _copy_run(find_model("wtq-glove"), tmp_path / "a")
    _copy_run(find_model("wtq-glove"), tmp_path / "b")
    single = Parser.load(tmp_path / "a")
    twice = Parser.load(_write_ensemble(tmp_path, ["a", "b"]))
    for question in QUESTIONS:
        alone = single.parse(question, MEDALS).candidates
        both = twice.parse(question, MEDALS).candidates
        assert [c.program for c in both] == [c.program for c in alone]
        assert [c.probability for c in both] == pytest.approx([c.probability for c in alone], abs=1e-6)


def test_an_ensemble_decodes_one_beam_scored_by_both_members(ensemble):
    members = [Parser.load(ensemble / m) for m in ("a", "b")]
    combined = Parser.load(ensemble)
    assert len(combined.members) == 2
    differed = False
    for question in QUESTIONS:
        each = [[c.program for c in p.parse(question, MEDALS).candidates] for p in members]
        result = combined.parse(question, MEDALS)
        joint = [c.program for c in result.candidates]
        differed |= joint not in each
        assert 0 < len(joint) <= 5  # one beam of 5, not the members' beams side by side
        probs = [c.probability for c in result.candidates]
        assert probs == sorted(probs, reverse=True)
        assert sum(probs) == pytest.approx(1.0)
        assert result.program in joint and result.answer
    assert differed  # the perturbed member changes the beam: the ensemble is neither member alone


def test_cli_parse_takes_an_ensemble_directory(ensemble):
    res = CliRunner().invoke(app, ["parse", QUESTIONS[0], str(MEDALS), "--model", str(ensemble), "--json"])
    assert res.exit_code == 0, res.output
    payload = json.loads(res.stdout)
    assert payload["program"] and payload["answer"]


@pytest.mark.parametrize(
    ("members", "message"),
    [
        (["../a"], "must name subdirectories, not paths"),
        (["/tmp"], "must name subdirectories, not paths"),
        ([".."], "must name subdirectories, not paths"),
        (["a", "a"], "names a member twice"),
        ([], "non-empty list"),
        ([3], "non-empty list"),
        (["missing"], "not a directory"),
        ([f"m{i}" for i in range(MAX_MEMBERS + 1)], f"at most {MAX_MEMBERS}"),
    ],
)
def test_bad_member_lists_are_refused(tmp_path, members, message):
    (tmp_path / "ens" / "a").mkdir(parents=True)
    root = _write_ensemble(tmp_path / "ens", members)
    with pytest.raises(CheckpointError, match=message):
        run_members(root)


def test_a_member_linked_to_outside_the_ensemble_is_refused(tmp_path):
    (tmp_path / "elsewhere").mkdir()
    root = _write_ensemble(tmp_path / "ens", ["a"])
    (root / "a").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    with pytest.raises(CheckpointError, match="is a link to outside"):
        run_members(root)


def test_a_nested_ensemble_and_a_foreign_file_are_refused(tmp_path):
    inner = _write_ensemble(tmp_path / "outer" / "inner", ["x"])
    (inner / "x").mkdir()
    with pytest.raises(CheckpointError, match="itself an ensemble"):
        run_members(_write_ensemble(tmp_path / "outer", ["inner"]))
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / ENSEMBLE_FILE).write_text('{"format": "something", "members": ["a"]}')
    with pytest.raises(CheckpointError, match="not an nsm ensemble file"):
        run_members(tmp_path / "other")
    (tmp_path / "other" / ENSEMBLE_FILE).write_text("{not json")
    with pytest.raises(CheckpointError, match="corrupt"):
        run_members(tmp_path / "other")


def test_a_run_directory_stands_for_itself(tmp_path):
    assert run_members(tmp_path) == [tmp_path]


def test_members_that_disagree_on_the_language_are_refused(tmp_path):
    root = tmp_path / "mixed"
    shutil.copytree(find_model("wtq-glove"), root / "a")
    shutil.copytree(find_model("wikisql-glove"), root / "b")
    _write_ensemble(root, ["a", "b"])
    with pytest.raises(CheckpointError, match="differ in their language"):
        Parser.load(root)
    code, out, err = run_cli(["parse", QUESTIONS[0], str(MEDALS), "--model", str(root)])
    assert code == 2 and not out and "differ in their language" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_command_that_needs_one_run_names_the_ensembles_members(ensemble):
    from nsmcli.train.rundir import RunDir

    with pytest.raises(CheckpointError, match=r"is an ensemble of runs \(a, b\); give one of its members"):
        RunDir(ensemble).read_config()


def test_users_tables_are_decoded_by_the_members_apart_for_them(ensemble, tmp_path):
    """A bundle may name members for users' own tables (a member fine-tuned on users' questions): a table
    read with the user rules is decoded by them, a WTQ table by the others; a member both name is one."""
    root = tmp_path / "apart"
    for name in ("a", "b"):
        shutil.copytree(ensemble / name, root / name)
    _write_ensemble(root, ["a"], ["a", "b"])
    assert run_members(root) == [root / "a"] and run_members(root, users=True) == [root / "a", root / "b"]
    parser = Parser.load(root)
    both = Parser.load(ensemble)  # a and b together
    alone = Parser.load(ensemble / "a")
    wtq_table = table_from_dataframe(pd.read_csv(MEDALS), value_rules="wtq")
    for question in QUESTIONS:
        users = parser.parse(question, MEDALS).candidates
        assert [c.program for c in users] == [c.program for c in both.parse(question, MEDALS).candidates]
        wtq = parser.parse(question, wtq_table).candidates
        assert [c.program for c in wtq] == [c.program for c in alone.parse(question, wtq_table).candidates]
    assert parser.members_for(load_table(MEDALS))[0][0] is parser.members[0][0]


def test_a_bad_list_of_users_members_is_refused_whichever_set_is_asked_for(tmp_path):
    (tmp_path / "ens" / "a").mkdir(parents=True)
    root = _write_ensemble(tmp_path / "ens", ["a"], ["../a"])
    for users in (False, True):
        with pytest.raises(CheckpointError, match="'user_members' must name subdirectories, not paths"):
            run_members(root, users=users)
    _write_ensemble(tmp_path / "ens", ["a"], [])
    with pytest.raises(CheckpointError, match="'user_members' must be a non-empty list"):
        run_members(root)


def test_eval_on_users_tables_decodes_with_the_members_for_them(ensemble, tmp_path):
    """`nsm eval` on a dataset of `nsm preprocess tables` decodes as `nsm parse` does on the same files."""
    from nsmcli.worlds.tables.data.preprocess import preprocess

    data = tmp_path / "own"
    preprocess("tables", ROOT / "examples" / "own-data", data)
    root = tmp_path / "apart"
    for name in ("a", "b"):
        shutil.copytree(ensemble / name, root / name)
    _write_ensemble(root, ["a"], ["b"])
    code, out, err = run_cli(
        ["eval", str(root), "--data", str(data), "--split", "dev", "--json", "--vote", "answer"]
    )
    assert code == 0, err
    assert [Path(w["run"]).name for w in json.loads(out)["weights"]] == ["b"]
