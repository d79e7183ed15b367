"""WikiSQL dev accuracy by the gold query's number of conditions, and how many filters the predicted
programs use, from `nsm eval --out` files (the gold SQL is only read here, never used by nsm).

    nsm eval RUN --data data/wikisql-word --split dev --beam 5 --out P.jsonl
    python bench/wikisql_conditions.py --gold ../shared/data/wikisql/dev.jsonl NAME=P.jsonl ...
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

from common import DATA, header, write_result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--gold", type=Path, default=DATA / "wikisql" / "dev.jsonl", help="WikiSQL's dev.jsonl"
    )
    parser.add_argument("--name", default="wikisql-conditions", help="the result file's name")
    parser.add_argument(
        "predictions", nargs="+", help="NAME=PATH of an `nsm eval --out` file (dev, in order)"
    )
    args = parser.parse_args()
    gold = [json.loads(line) for line in args.gold.read_text(encoding="utf-8").splitlines() if line]
    lines = []
    for item in args.predictions:
        name, _, path = item.partition("=")
        rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line]
        if len(rows) != len(gold) or any(r["id"] != f"dev-{i}" for i, r in enumerate(rows)):
            raise SystemExit(f"error: {path} does not hold the {len(gold):,} dev questions in order")
        questions, right, filters = Counter(), Counter(), Counter()
        for g, r in zip(gold, rows, strict=True):
            n = min(len(g["sql"]["conds"]), 3)
            questions[n] += 1
            right[n] += bool(r["correct"])
            filters[n, min(len(re.findall(r"\(filter_", r.get("program") or "")), 3)] += 1
        lines += [
            f"### {name}",
            "",
            "| gold conditions | questions | right | accuracy | programs with 0 / 1 / 2 / 3+ filters |",
            "|---:|---:|---:|---:|---|",
        ]
        for n in sorted(questions):
            used = " / ".join(f"{filters[n, k]:,}" for k in range(4))
            label = "3+" if n == 3 else str(n)
            lines.append(
                f"| {label} | {questions[n]:,} | {right[n]:,} | {right[n] / questions[n]:.1%} | {used} |"
            )
        total = sum(right.values())
        lines += [f"| all | {len(rows):,} | {total:,} | {total / len(rows):.1%} | |", ""]
    command = "python bench/wikisql_conditions.py " + " ".join([f"--gold {args.gold}", *args.predictions])
    text = header("WikiSQL dev by the number of conditions", command) + "\n".join(lines)
    print(text)
    print(f"written to {write_result(args.name, text)}")


if __name__ == "__main__":
    main()
