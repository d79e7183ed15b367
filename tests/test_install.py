"""`pip install .` gives a working nsm: the wheel and the sdist carry the grammars and the bundled models, and
the installed tool answers from a directory outside the checkout, importing nothing from it.

Everything is offline: the wheel is built without build isolation, installed with --no-index and --no-deps
into a fresh virtual environment, and that environment sees the test environment's dependencies (torch,
pandas, ...) through a .pth file that names their site-packages directories, never the checkout.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import venv
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

import nsmcli

ROOT = Path(__file__).resolve().parents[1]
GRAMMARS = ROOT / "grammars"
MODELS = ROOT / "examples" / "models"
#: What a clone holds that a build must not see: local environments, build leftovers, data and runs.
NOT_SOURCE = {".git", ".venv", "build", "dist", "data", "runs", "out"}
NOT_SOURCE_ANYWHERE = {"__pycache__", ".pytest_cache", ".ruff_cache"}
DEPENDENCIES = ("torch", "pandas", "typer", "rich", "sqlglot")
PIP = (sys.executable, "-m", "pip")
TABLE = "Nation,Gold,Silver,Bronze\nNorway,12,8,5\nGermany,9,11,7\nCanada,7,4,10\nJapan,3,6,2\n"


@dataclass
class Built:
    wheel: Path
    sdist: Path
    work: Path


def offline_env() -> dict[str, str]:
    """The environment for every subprocess: nothing on PYTHONPATH (it would expose the checkout), no index."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_"))}
    env.update(OMP_NUM_THREADS="1", PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    return env


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess:
    proc = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=offline_env(), capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, f"{args}: exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return proc


def ignore_non_source(directory: str, names: list[str]) -> set[str]:
    top = Path(directory) == ROOT
    return {
        n for n in names if n in NOT_SOURCE_ANYWHERE or n.endswith(".egg-info") or (top and n in NOT_SOURCE)
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory):
    """The wheel and the sdist, built from a copy of the checkout (symlinks kept, as a clone has them), so no
    build/ left over from an earlier build can put files into the wheel and the checkout stays untouched."""
    work = tmp_path_factory.mktemp("install")
    source = work / "source"
    shutil.copytree(ROOT, source, symlinks=True, ignore=ignore_non_source)
    dist = work / "dist"
    run(*PIP, "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index", "-w", dist, ".", cwd=source)
    # the PEP 517 hook `python -m build --sdist` calls
    sdist_hook = f"from setuptools import build_meta; build_meta.build_sdist({str(dist)!r})"
    run(sys.executable, "-c", sdist_hook, cwd=source)
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    yield Built(wheel=wheel, sdist=sdist, work=work)
    shutil.rmtree(work, ignore_errors=True)  # about 100 MB


def shipped_files() -> tuple[set[str], set[str]]:
    """The grammar file names and the bundled models' files (relative paths) the repository holds."""
    grammars = {p.name for p in GRAMMARS.glob("*.toml")}
    models = {p.relative_to(MODELS).as_posix() for p in MODELS.rglob("*") if p.is_file()}
    assert {"wtq.toml", "wikisql.toml"} <= grammars
    assert {"wtq/ensemble.json", "wtq/glove/best/model.pt", "wtq/glove/config.json"} <= models
    assert {
        "wikisql/ensemble.json",
        "wikisql/glove/best/model.pt",
        "wikisql/minilm-every-s1/config.json",
    } <= models
    return grammars, models


def under(names: list[str], prefix: str) -> set[str]:
    return {n[len(prefix) :] for n in names if n.startswith(prefix) and not n.endswith("/")}


def test_wheel_carries_the_grammars_and_bundled_models(built):
    names = zipfile.ZipFile(built.wheel).namelist()
    grammars, models = shipped_files()
    assert under(names, "nsmcli/grammars/") == grammars
    assert under(names, "nsmcli/bundled/") == models


def test_sdist_carries_the_grammars_and_bundled_models(built):
    """A wheel built from the sdist (a PyPI install, `python -m build`) needs them there too."""
    with tarfile.open(built.sdist) as sdist:
        names = [member.name for member in sdist.getmembers() if member.isfile()]
    top = f"nsmcli-{nsmcli.__version__}/nsmcli/"
    grammars, models = shipped_files()
    assert under(names, top + "grammars/") == grammars
    assert under(names, top + "bundled/") == models


def dependency_dirs() -> list[str]:
    """The site-packages directories that hold nsm's dependencies in the environment running the tests."""
    found = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    for name in DEPENDENCIES:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin, f"{name} is not installed"
        found.add(str(Path(spec.origin).resolve().parents[1]))
    # a directory holding a nsmcli package (the checkout itself) would shadow the installed one
    return sorted(d for d in found if not (Path(d) / "nsmcli" / "__init__.py").exists())


def test_installed_wheel_executes_and_parses_outside_the_checkout(built):
    env_dir = built.work / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    elsewhere = built.work / "elsewhere"
    elsewhere.mkdir()
    # install before the dependencies become visible: the test environment's own nsmcli (an editable
    # install) would otherwise count as already installed
    run(*PIP, "--python", python, "install", "-q", "--no-deps", "--no-index", built.wheel, cwd=elsewhere)
    purelib = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = Path(run(python, "-c", purelib, cwd=elsewhere).stdout.strip())
    (site / "nsm_test_dependencies.pth").write_text("".join(d + "\n" for d in dependency_dirs()))

    where = json.loads(
        run(
            python,
            "-c",
            "import json, nsmcli, nsmcli.resources as r; "
            "print(json.dumps([nsmcli.__file__, str(r.GRAMMAR_DIR), str(r.MODELS_DIR)]))",
            cwd=elsewhere,
        ).stdout
    )
    for path in where:
        assert Path(path).resolve().is_relative_to(env_dir.resolve()), where
        assert not Path(path).resolve().is_relative_to(ROOT), where

    (elsewhere / "medals.csv").write_text(TABLE, encoding="utf-8")

    def nsm(*args: str) -> dict:
        return json.loads(run(env_dir / "bin" / "nsm", *args, "medals.csv", "--json", cwd=elsewhere).stdout)

    assert [float(v) for v in nsm("execute", "(count all_rows)")["answer"]] == [4.0]
    parsed = nsm("parse", "which nation won the fewest silver medals?")  # the default bundled model
    assert [str(v).lower() for v in parsed["answer"]] == ["canada"]
