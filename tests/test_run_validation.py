"""A run directory is validated before use: damaged or hostile content is one CheckpointError, never a
silent wrong answer, a traceback or an allocation that exhausts memory (issue 20)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import torch

from nsmcli.errors import CheckpointError
from nsmcli.train.evaluate import load_run_model
from nsmcli.train.questions import default_kit

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = ROOT / "examples" / "models" / "wtq" / "glove"  # a plain run directory (the default is an ensemble)
MEDALS = ROOT / "examples" / "tables" / "medals.csv"


@pytest.fixture()
def run(tmp_path: Path) -> Path:
    """A copy of the bundled GloVe model with its weights as training writes them: float32 (the bundle
    stores them in float16)."""
    from nsmcli.train.rundir import RunDir, save_tensors

    copy = tmp_path / "run"
    shutil.copytree(BUNDLED, copy)
    state, _ = RunDir(copy).load_weights("best")
    save_tensors(copy / "best" / "model.pt", state)
    info = json.loads((copy / "best" / "info.json").read_text())
    info.pop("stored", None)
    (copy / "best" / "info.json").write_text(json.dumps(info))
    return copy


def _edit_config(run: Path, edit) -> None:
    config = json.loads((run / "config.json").read_text())
    edit(config)
    (run / "config.json").write_text(json.dumps(config))


def _load(run: Path):
    return load_run_model(run, default_kit())


def test_the_bundled_model_passes_validation(run: Path) -> None:
    model, config, _ = _load(run)
    assert config["language"] == "wtq" and model is not None


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda c: c["model"].update(n_layers=10**9), "n_layers must be between"),
        (lambda c: c["model"].update(hidden_size=-3), "hidden_size must be between"),
        (lambda c: c["model"].update(dropout=5.0), "dropout must be between"),
        (lambda c: c["model"].update(use_glove="false"), "use_glove must be a JSON bool"),
        (lambda c: c["model"].update(hidden_size=200.5), "hidden_size must be a JSON int"),
        (lambda c: c["train"].update(use_baseline="true"), "use_baseline must be a JSON bool"),
        (lambda c: c.update(train=None), "'train' must be a JSON object"),
        (lambda c: c.update(language=7), "language 7 is not one nsm knows"),
        (lambda c: c.update(language="wikisql"), "trained on wtq data"),
        (lambda c: c["limits"].update(max_variables=10**9), "limits.max_variables"),
        (lambda c: c["limits"].update(max_expressions="3"), "limits.max_expressions"),
        (lambda c: c.update(lanugage="wtq"), "unknown key 'lanugage'; a run config holds"),
        (lambda c: c.update({f"k{i}": 0 for i in range(9)}), "unknown keys 'k0', .* and 4 more"),
        (lambda c: c["train"].update(learning_rat=0.1), "in 'train': unknown hyper-parameter 'learning_rat'"),
        (lambda c: c["model"].update(hiden_size=8), "unknown model config keys: hiden_size"),
        (lambda c: c["limits"].update(max_variable=8), "unknown limits 'max_variable'; known"),
    ],
)
def test_a_damaged_config_is_refused_before_anything_is_built(run: Path, edit, message: str) -> None:
    _edit_config(run, edit)
    with pytest.raises(CheckpointError, match=message):
        _load(run)


def test_an_unknown_key_is_one_line_and_exit_2_on_the_command_line(run: Path) -> None:
    import subprocess
    import sys

    _edit_config(run, lambda c: c.update(extra=1))
    done = subprocess.run(
        [sys.executable, "-m", "nsmcli", "parse", "--model", str(run), "how many?", str(MEDALS)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().count("\n") == 0 and "unknown key 'extra'" in done.stderr


def test_a_deeply_nested_config_is_refused(run: Path) -> None:
    (run / "config.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(CheckpointError, match="nested too deeply|not an nsm run config"):
        _load(run)


def test_a_vocabulary_of_integers_is_refused(run: Path) -> None:
    words = json.loads((run / "vocab.json").read_text())["words"]
    (run / "vocab.json").write_text(json.dumps({"words": list(range(len(words)))}))
    with pytest.raises(CheckpointError, match="distinct strings"):
        _load(run)


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda t: t.double(), "of another dtype"),  # float16 is how bundled models store weights
        (lambda t: t.to(torch.bfloat16), "of another dtype"),
        (lambda t: torch.full_like(t, float("nan")), "NaN or infinite"),
    ],
)
def test_damaged_weights_are_refused(run: Path, damage, message: str) -> None:
    path = run / "best" / "model.pt"
    state = torch.load(path, weights_only=True)
    name = next(k for k, v in state.items() if v.is_floating_point())
    state[name] = damage(state[name])
    torch.save(state, path)
    with pytest.raises(CheckpointError, match=message):
        _load(run)


def test_weights_stored_in_half_precision_load_as_float32_and_decode_alike(run: Path) -> None:
    from nsmcli.parser import Parser
    from nsmcli.train.rundir import RunDir

    full = Parser.load(run)
    questions = ["which nation won the most gold medals?", "how many nations won no silver?"]
    before = [full.parse(q, MEDALS) for q in questions]
    size = (run / "best" / "model.pt").stat().st_size
    RunDir(run).store_best_in_half_precision()
    assert (run / "best" / "model.pt").stat().st_size < 0.55 * size
    stored = torch.load(run / "best" / "model.pt", weights_only=True)
    assert {v.dtype for v in stored.values() if v.is_floating_point()} == {torch.float16}
    assert json.loads((run / "best" / "info.json").read_text())["stored"] == "float16"
    model, _, _ = _load(run)
    assert {p.dtype for p in model.parameters()} == {torch.float32}
    reference = full.model.state_dict()
    for name, weight in model.state_dict().items():
        assert torch.allclose(weight, reference[name], rtol=1e-3, atol=1e-4), name
    after = [Parser.load(run).parse(q, MEDALS) for q in questions]
    assert [(r.program, r.answer) for r in after] == [(r.program, r.answer) for r in before]
    assert [r.probability for r in after] == pytest.approx([r.probability for r in before], abs=1e-2)


def test_an_absurd_beam_is_refused_before_decoding() -> None:
    from nsmcli.errors import DataError
    from nsmcli.parser import Parser

    with pytest.raises(DataError, match="too wide"):
        Parser.load("wtq").parse("how many nations are there?", MEDALS, beam=100_000)


def test_random_bytes_as_weights_are_called_damaged_not_malicious(run: Path) -> None:
    import random

    (run / "best" / "model.pt").write_bytes(random.Random(3).randbytes(100_000))
    with pytest.raises(CheckpointError, match="not a readable tensor file"):
        _load(run)
