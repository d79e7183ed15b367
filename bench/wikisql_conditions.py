"""WikiSQL by the gold query's number of conditions (the gold SQL is only read here, never used by nsm):
dev accuracy and the filters of the predicted programs, from `nsm eval --out` files; or, with `--explore N`,
the filters of the programs exploration ranks first on N training questions (every k-th), with and without
the language's `state_every_condition`.

    nsm eval RUN --data data/wikisql-word --split dev --beam 5 --out P.jsonl
    python bench/wikisql_conditions.py NAME=P.jsonl ...
    python bench/wikisql_conditions.py --explore 2000 --data data/wikisql-word
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
from collections import Counter
from pathlib import Path

from common import DATA, header, write_result

from nsmcli.worlds.tables.data.preprocess import load_dataset
from nsmcli.worlds.tables.search.explore import explore


def _filters(program: str | None) -> int:
    return len(re.findall(r"\(filter_", program or ""))


def explored(data: Path, gold_path: Path, n: int) -> list[str]:
    """Table lines: per gold condition count, how often the first explored program has that many filters
    (and any kept program does), with the language's `state_every_condition` off and on."""
    dataset = load_dataset(data)
    examples = dataset.examples("train")
    gold = [json.loads(line) for line in gold_path.read_text(encoding="utf-8").splitlines() if line]
    chosen = list(range(0, len(examples), max(1, len(examples) // n)))[:n]
    lines = [
        f"{len(chosen):,} training questions (every {max(1, len(examples) // n)}th), first-ranked program:",
        "",
        "| every condition | gold conditions | questions | covered | first has that many filters | some has | "
        "programs per covered |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for state in (False, True):
        counts: Counter = Counter()
        for i in chosen:
            example = examples[i]
            if example.id != f"train-{i}":
                raise SystemExit(f"error: {data}'s train split is not WikiSQL's train.jsonl in order")
            env = dataset.bind(example)
            env.spec = dataclasses.replace(env.spec, state_every_condition=state)
            programs = explore(env, dataset.answer_checker(example)).programs
            k = min(len(gold[i]["sql"]["conds"]), 3)
            counts[k, "questions"] += 1
            if programs:
                counts[k, "covered"] += 1
                counts[k, "first"] += _filters(programs[0]) == k
                counts[k, "some"] += any(_filters(p) == k for p in programs)
                counts[k, "programs"] += len(programs)
        for k in sorted({k for k, _ in counts}):
            covered = counts[k, "covered"]
            lines.append(
                f"| {'on' if state else 'off'} | {'3+' if k == 3 else k} | {counts[k, 'questions']:,} | "
                f"{covered:,} | {counts[k, 'first']:,} | {counts[k, 'some']:,} | "
                f"{counts[k, 'programs'] / max(1, covered):.1f} |"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--gold", type=Path, default=DATA / "wikisql" / "dev.jsonl", help="WikiSQL's dev.jsonl"
    )
    parser.add_argument("--name", default="wikisql-conditions", help="the result file's name")
    parser.add_argument("--explore", type=int, default=0, help="explore N training questions instead")
    parser.add_argument("--data", type=Path, help="with --explore: the preprocessed WikiSQL dataset")
    parser.add_argument(
        "predictions", nargs="*", help="NAME=PATH of an `nsm eval --out` file (dev, in order)"
    )
    args = parser.parse_args()
    if args.explore:
        if args.data is None:
            raise SystemExit("error: --explore needs --data")
        lines = explored(args.data, args.gold.with_name("train.jsonl"), args.explore)
        command = f"python bench/wikisql_conditions.py --explore {args.explore} --data {args.data}"
        text = header("WikiSQL exploration by the number of conditions", command) + "\n".join(lines) + "\n"
        print(text)
        print(f"written to {write_result(args.name + '-explore', text)}")
        return
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
