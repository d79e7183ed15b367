"""The bundled models and the program search give byte-identical outputs across refactors of the core.

The golden files in tests/fixtures/golden/ were written by this test (NSM_WRITE_GOLDEN=1) before the table
code moved behind the world registry; every later change must reproduce them exactly: the dev predictions of
both bundled models (beam 5) and the exploration output, on slices of the real dev splits.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "fixtures" / "golden"
WRITE = os.environ.get("NSM_WRITE_GOLDEN") == "1"


def _nsm(*args: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "nsmcli", *args, "--quiet"], capture_output=True, text=True, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stderr


def _wtq_dev_slice(data_dir: Path, dest: Path, n: int) -> Path:
    source = data_dir / "wtq"
    lines = (source / "data" / "random-split-1-dev.tsv").read_text(encoding="utf-8").splitlines()[: n + 1]
    (dest / "data").mkdir(parents=True)
    (dest / "data" / "random-split-1-dev.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for line in lines[1:]:
        context = line.split("\t")[2]
        (dest / context).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source / context, dest / context)
    return dest


def _wikisql_dev_slice(data_dir: Path, dest: Path, n: int) -> Path:
    source = data_dir / "wikisql"
    questions = (source / "dev.jsonl").read_text(encoding="utf-8").splitlines()[:n]
    wanted = {json.loads(q)["table_id"] for q in questions}
    dest.mkdir(parents=True)
    (dest / "dev.jsonl").write_text("\n".join(questions) + "\n", encoding="utf-8")
    with open(source / "dev.tables.jsonl", encoding="utf-8") as f:
        (dest / "dev.tables.jsonl").write_text("".join(x for x in f if json.loads(x)["id"] in wanted))
    return dest


def _check(produced: Path, name: str) -> None:
    golden = GOLDEN / name
    if WRITE:
        shutil.copy(produced, golden)
        return
    assert golden.is_file(), f"{golden} is missing; write it with NSM_WRITE_GOLDEN=1 on a trusted version"
    assert produced.read_bytes() == golden.read_bytes(), f"{name} differs from its golden file"


@pytest.mark.parametrize("dataset", ["wtq", "wikisql"])
def test_bundled_model_dev_predictions_are_unchanged(data_dir, tmp_path, dataset):
    if dataset == "wtq":
        release, split = _wtq_dev_slice(data_dir, tmp_path / "release", 120), "random-split-1-dev"
    else:
        release, split = _wikisql_dev_slice(data_dir, tmp_path / "release", 120), "dev"
    _nsm("preprocess", dataset, "--data-dir", str(release), "--out", str(tmp_path / "data"))
    out = tmp_path / "predictions.jsonl"
    _nsm(
        "eval", dataset, "--data", str(tmp_path / "data"), "--split", split, "--beam", "5", "--out", str(out)
    )
    _check(out, f"{dataset}-dev-predictions.jsonl")


def test_exploration_output_is_unchanged(data_dir, tmp_path):
    release = _wtq_dev_slice(data_dir, tmp_path / "release", 40)
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
