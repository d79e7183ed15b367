"""`nsm parse` latency with a bundled model: a cold command, and warm questions through the Python API.

Targets (issue 4): warm <= 50 ms per question, cold command <= 3 s.

The package's bytecode is compiled first, as `pip install` does for an installed package: a checkout run
where PYTHONDONTWRITEBYTECODE is set (as here) would otherwise compile every module from source on each
cold start. A bare `import torch` is timed alongside: it is most of a cold parse, and it moves with the
machine's load.
"""

from __future__ import annotations

import argparse
import compileall
import statistics
import subprocess
import sys
import time
from pathlib import Path

from common import ROOT, header, write_result

from nsmcli.parser import Parser
from nsmcli.worlds.tables.data.readers import read_question_file


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", default="wtq")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    compileall.compile_dir(ROOT / "nsmcli", quiet=1)
    cold, torch_import = [], []
    for _ in range(args.repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import torch"], check=True)
        torch_import.append(time.perf_counter() - start)
        start = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "nsmcli",
                "parse",
                "which nation won the most gold medals?",
                "examples/tables/medals.csv",
                "--model",
                args.model,
                "--json",
            ],
            cwd=ROOT,
            check=False,
            capture_output=True,
        )
        cold.append(time.perf_counter() - start)
    model = Parser.load(args.model)
    cases = read_question_file(ROOT / "examples" / "questions.tsv")
    from nsmcli.parser import as_table

    tables = {c.table: as_table(c.table) for c in cases}
    model.parse(cases[0].question, tables[cases[0].table])  # first call warms caches
    warm = []
    for case in cases:
        start = time.perf_counter()
        model.parse(case.question, tables[case.table])
        warm.append(time.perf_counter() - start)
    lines = [
        f"- cold `nsm parse ... --model {args.model}` (process start, model load, one question): median "
        f"{statistics.median(cold):.2f} s over {args.repeats} runs (each run: {_seconds(cold)})",
        f"- `python -c 'import torch'` alone, run before each of them: median "
        f"{statistics.median(torch_import):.2f} s ({_seconds(torch_import)})",
        f"- warm `Parser.parse` (beam 5, SQL rendering included), {len(warm)} example questions: median "
        f"{1000 * statistics.median(warm):.0f} ms, max {1000 * max(warm):.0f} ms",
    ]
    text = header("Parse latency", "python bench/parse_latency.py " + " ".join(sys.argv[1:])) + "\n".join(
        lines
    )
    print(text)
    name = Path(args.model).name if Path(args.model).is_dir() else args.model  # a run or ensemble directory
    write_result(f"parse-{name}", text + "\n")


def _seconds(times: list[float]) -> str:
    return ", ".join(f"{t:.2f}" for t in times)


if __name__ == "__main__":
    main()
