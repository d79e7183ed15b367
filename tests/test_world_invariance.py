"""The bundled models and the program search give the same outputs across refactors of the core.

The golden files in tests/fixtures/golden/ were written by this test (NSM_WRITE_GOLDEN=1) before the table
code moved behind the world registry; every later change must reproduce them: the dev predictions of both
bundled models (beam 5) and the exploration output, on slices of the real dev splits, byte for byte, or line
for line with each probability within `PROB_TOLERANCE` (another CPU's kernels move its last digits).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_preprocess import wikisql_slice, wtq_slice

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "fixtures" / "golden"
WRITE = os.environ.get("NSM_WRITE_GOLDEN") == "1"
DEV = "random-split-1-dev"


def _nsm(*args: str) -> None:
    # one thread: probabilities are then summed in one order, so their last printed digit is reproducible
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "nsmcli", *args, "--quiet"], capture_output=True, text=True, cwd=ROOT, env=env
    )
    assert proc.returncode == 0, proc.stderr


#: How far a printed probability may be from its golden one: the golden files were written on one CPU, and
#: another's kernels (AVX2 against AVX-512) sum in another order, which moves the last printed digits.
PROB_TOLERANCE = 1e-5


def _check(produced: Path, name: str) -> None:
    golden = GOLDEN / name
    if WRITE:
        shutil.copy(produced, golden)
        return
    assert golden.is_file(), f"{golden} is missing; write it with NSM_WRITE_GOLDEN=1 on a trusted version"
    if produced.read_bytes() == golden.read_bytes():
        return
    # every line the same but for a probability's last digit: programs, answers and their order exactly
    made, kept = produced.read_text().splitlines(), golden.read_text().splitlines()
    assert len(made) == len(kept), f"{name} differs from its golden file in its number of lines"
    for line, (ours, theirs) in enumerate(zip(map(json.loads, made), map(json.loads, kept), strict=True), 1):
        ours_prob, theirs_prob = ours.pop("prob", None), theirs.pop("prob", None)
        assert ours == theirs, f"{name} line {line} differs from its golden file"
        assert (ours_prob is None) == (theirs_prob is None), (
            f"{name} line {line}: a probability on one side only"
        )
        if ours_prob is not None:
            assert abs(ours_prob - theirs_prob) <= PROB_TOLERANCE, f"{name} line {line}: prob {ours_prob}"


@pytest.mark.parametrize("dataset", ["wtq", "wikisql"])
def test_bundled_model_dev_predictions_are_unchanged(data_dir, tmp_path, dataset):
    if dataset == "wtq":
        release, split = wtq_slice(data_dir, tmp_path / "release", 120, DEV), "random-split-1-dev"
    else:
        release, split = wikisql_slice(data_dir, tmp_path / "release", 120), "dev"
    _nsm("preprocess", dataset, "--data-dir", str(release), "--out", str(tmp_path / "data"))
    out = tmp_path / "predictions.jsonl"
    # the golden predictions are the GloVe models', each now a member of its bundled ensemble
    model = {"wtq": "wtq-glove", "wikisql": "wikisql-glove"}[dataset]
    _nsm("eval", model, "--data", str(tmp_path / "data"), "--split", split, "--beam", "5", "--out", str(out))
    _check(out, f"{dataset}-dev-predictions.jsonl")


def test_exploration_output_is_unchanged(data_dir, tmp_path):
    release = wtq_slice(data_dir, tmp_path / "release", 40, DEV)
    _nsm("preprocess", "wtq", "--data-dir", str(release), "--out", str(tmp_path / "data"))
    out = tmp_path / "programs.jsonl"
    _nsm(
        "explore",
        str(tmp_path / "data"),
        "--split",
        "random-split-1-dev",
        "--out",
        str(out),
        "--workers",
        "1",
        "--max-evaluations",
        "100000",
    )
    _check(out, "wtq-dev-explore.jsonl")
