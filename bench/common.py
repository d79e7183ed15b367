"""Shared helpers for the benchmark scripts: where the data is, and how results are recorded."""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("NSM_DATA", ROOT.parent / "shared" / "data"))
RESULTS = ROOT / "bench" / "results"


def machine() -> str:
    cpu = "unknown cpu"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{platform.node()} ({os.cpu_count()} cores, {cpu}, Python {platform.python_version()})"


def _describe(checkout: Path) -> str:
    """The commit, with `-dirty` when the working tree differs from it (`git describe --always --dirty`)."""
    try:
        return subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            cwd=checkout,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def code_version() -> str:
    """The commit of the code measured: of the checkout `nsmcli` is imported from, and, when that is not this
    script's (another worktree on PYTHONPATH, to time or score an older commit), this script's too."""
    import nsmcli

    package_checkout = Path(nsmcli.__file__).resolve().parents[1]
    measured = _describe(package_checkout)
    if package_checkout == ROOT.resolve():
        return measured
    return f"{measured} (`nsmcli` from {package_checkout}; this script's checkout {_describe(ROOT)})"


def header(title: str, command: str) -> str:
    return (
        f"## {title}\n\n- command: `{command}`\n- date: {time.strftime('%Y-%m-%d %H:%M %Z')}\n"
        f"- machine: {machine()}\n- code: {code_version()}\n\n"
    )


def write_result(name: str, markdown: str) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.md"
    path.write_text(markdown, encoding="utf-8")
    return path


def add_decoding_options(parser: argparse.ArgumentParser) -> None:
    """The options of a benchmark that decodes a split of a preprocessed dataset: --data, --split, --beam."""
    parser.add_argument("--data", required=True, help="the preprocessed dataset")
    parser.add_argument("--split", default="dev", help="dev/train mean the run's splits")
    parser.add_argument("--beam", type=int, default=5, help="beam size (0: greedy)")
