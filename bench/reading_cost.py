"""What the reranker's reading similarity costs a warm parse: the same model and questions, its reranker as
fitted and with the similarity's weight set to 0 (then the sentence encoder never runs), alternating the
order per question, best of `--repeats` each.

    python bench/reading_cost.py --model wtq     # writes bench/results/reading-cost-wtq.md
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

from common import ROOT, header, write_result

from nsmcli.parser import Parser, as_table
from nsmcli.train.rerank import SIMILARITY
from nsmcli.worlds.tables.data.readers import read_question_file


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", default="wtq", help="a bundled model name or a run directory")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    model = Parser.load(args.model)
    if model.reranker is None or model.reranker.dense[SIMILARITY] == 0:
        sys.exit(f"{args.model} has no reranker that weighs the reading similarity")
    with_readings = model.reranker
    without = replace(with_readings, dense=[*with_readings.dense])
    without.dense[SIMILARITY] = 0.0
    cases = read_question_file(ROOT / "examples" / "questions.tsv")
    tables = {c.table: as_table(c.table) for c in cases}
    times: dict[str, list[float]] = {"with": [], "without": []}
    for reranker in (with_readings, without):  # warm both paths' caches
        model.reranker = reranker
        model.parse(cases[0].question, tables[cases[0].table])
    for number, case in enumerate(cases):
        order = [("with", with_readings), ("without", without)]
        best = {}
        for name, reranker in order if number % 2 == 0 else order[::-1]:
            model.reranker = reranker
            runs = []
            for _ in range(args.repeats):
                start = time.perf_counter()
                model.parse(case.question, tables[case.table])
                runs.append(time.perf_counter() - start)
            best[name] = min(runs)
        for name, seconds in best.items():
            times[name].append(seconds)
    w, wo = statistics.median(times["with"]), statistics.median(times["without"])
    lines = [
        f"- {len(cases)} example questions (`examples/questions.tsv`), beam 5, best of {args.repeats} each, "
        "the order alternating per question",
        f"- warm `Parser.parse`, median: **{1000 * w:.1f} ms** with the reading similarity, "
        f"{1000 * wo:.1f} ms with its weight at 0 (ratio {w / wo:.2f}); max {1000 * max(times['with']):.1f} "
        f"and {1000 * max(times['without']):.1f} ms",
    ]
    name = Path(args.model).name if Path(args.model).is_dir() else args.model
    command = "python bench/reading_cost.py " + " ".join(sys.argv[1:])
    text = header(f"The reading similarity's cost: `--model {args.model}`", command) + "\n".join(lines) + "\n"
    print(text)
    print(f"written to {write_result(f'reading-cost-{name}', text)}")


if __name__ == "__main__":
    main()
