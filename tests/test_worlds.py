"""The generic core knows worlds only through `nsmcli.protocols` and the registry `nsmcli.worlds`."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from nsmcli.errors import DataError
from nsmcli.protocols import Environment, ProblemSet
from nsmcli.worlds import WORLDS, World, available_worlds, get_world, split_source

ROOT = Path(__file__).resolve().parents[1]
CORE = [ROOT / "nsmcli" / "train", ROOT / "nsmcli" / "model", ROOT / "nsmcli" / "protocols.py"]


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_train_and_model_import_no_world_module():
    files = [f for c in CORE for f in ([c] if c.is_file() else sorted(c.rglob("*.py")))]
    assert len(files) > 10
    for path in files:
        bad = {m for m in _imports(path) if m.startswith("nsmcli.worlds.") or m == "nsmcli.parser"}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_importing_the_trainer_loads_no_world():
    code = (
        "import sys, nsmcli.train.loop, nsmcli.train.evaluate, nsmcli.model;"
        "print([m for m in sys.modules if m.startswith('nsmcli.worlds.')])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


def test_every_registered_world_loads_and_names_itself():
    for name in available_worlds():
        world = get_world(name)
        assert isinstance(world, World) and world.name == name
        assert set(world.limits()) == set(world.limit_bounds)
        for key, (low, high) in world.limit_bounds.items():
            assert low <= world.limits()[key] <= high
    assert list(WORLDS) == available_worlds()


def test_unknown_world_is_one_clear_error():
    with pytest.raises(DataError, match="unknown world 'chess'"):
        get_world("chess")
    assert split_source("karel:harvester") == ("karel", "harvester")
    assert split_source("data/wtq") is None and split_source("wtq:x") is None


def test_a_preprocessed_dataset_and_its_environment_satisfy_the_protocols(tmp_path):
    from nsmcli.worlds import open_problems
    from nsmcli.worlds.tables.data.preprocess import preprocess

    preprocess("tables", ROOT / "examples" / "own-data", tmp_path / "own")
    problems = open_problems(tmp_path / "own")
    assert isinstance(problems, ProblemSet) and problems.world == "wtq"
    split = problems.splits[0]
    example = problems.examples(split)[0]
    env = problems.bind(example, get_world(problems.world).limits())
    assert isinstance(env, Environment) and env.world == "wtq"
    assert problems.word_counts(split)
    score = problems.scorer(example, env)
    assert score(()) == (0.0, False)  # nothing read: not finished
