"""Accuracy on the questions that offer a choice ("which is deeper, A or B?"), from `nsm eval --out` files.

A question offers a choice when its annotation holds an either-or entity (a string entity of two values or
more: `nsmcli.worlds.tables.lang.choices`). For each predictions file: the accuracy on all questions, on
those, and how many of their predicted programs use the pair.

    nsm eval MODEL --data data/wtq-word --split random-split-1-dev --out P.jsonl
    python bench/choice_questions.py --data data/wtq-word --split random-split-1-dev NAME=P.jsonl ...
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from common import header, write_result

from nsmcli.errors import NsmError
from nsmcli.worlds.tables.data.preprocess import load_dataset
from nsmcli.worlds.tables.lang import program as P


def uses_a_pair(text: str | None) -> bool:
    """Whether a predicted program has a literal of two values or more (an either-or entity)."""
    try:
        program = P.Program.parse(text or "")
    except (NsmError, ValueError):
        return False
    return any(isinstance(a, P.Literal) and len(a.values) > 1 for e in program.exprs for a in e.args)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", required=True, type=Path, help="the preprocessed dataset evaluated")
    parser.add_argument("--split", default="random-split-1-dev")
    parser.add_argument("--name", default="choice-questions", help="the result file's name")
    parser.add_argument("predictions", nargs="+", help="NAME=PATH of an `nsm eval --out` file")
    args = parser.parse_args()
    examples = load_dataset(args.data).examples(args.split)
    offering = {
        e.id for e in examples if any(x.kind == "string" and len(x.values) > 1 for x in e.question.entities)
    }
    lines = [
        "| model | all questions | questions with a choice | their programs that use the pair (right) |",
        "|---|---:|---:|---:|",
    ]
    for item in args.predictions:
        name, _, path = item.partition("=")
        rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line]
        chosen = [r for r in rows if r["id"] in offering]
        using = [r for r in chosen if uses_a_pair(r.get("program"))]
        lines.append(
            f"| {name} | {sum(r['correct'] for r in rows)} / {len(rows)} | "
            f"{sum(r['correct'] for r in chosen)} / {len(chosen)} | "
            f"{len(using)} ({sum(r['correct'] for r in using)}) |"
        )
    command = "python bench/choice_questions.py " + " ".join(
        [f"--data {args.data}", f"--split {args.split}", *args.predictions]
    )
    text = header("Questions that offer a choice", command) + "\n".join(lines) + "\n"
    print(text)
    print(f"written to {write_result(args.name, text)}")


if __name__ == "__main__":
    main()
