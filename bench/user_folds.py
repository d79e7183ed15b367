"""Split question files over users' tables into folds by table, for training parser members out of fold.

A chooser (reranker and matcher) learns from the beams of questions the parser never trained on. When a
member is fine-tuned on the fit questions (`nsm preprocess tables --mix-in`, `nsm train --init`), the fit
questions' beams must therefore come from members that did not see their tables: fold K's questions are
decoded by the member trained on all the other folds. This writes, under OUT:

- `fold<K>.tsv`: fold K's questions (decode them with the member `not<K>`);
- `not<K>/train.tsv` and `not<K>/dev.tsv`: the other folds' questions, for `nsm preprocess tables`;
- `all/train.tsv` and `all/dev.tsv`: every question, for the member that ships.

A `dev.tsv` is the first `--dev` questions of its `train.tsv` (MAPO's runs need a dev split; with no held-out
questions the best weights are in effect the last); with `--dev-questions FILE`, `all/dev.tsv` is FILE's
questions instead, which no `train.tsv` holds (the bundle's member for users' tables picks its weights on a fit
round it never trains on). Table paths are rewritten relative to each new file.

    python bench/user_folds.py examples/fit/questions.tsv examples/fit/questions-round3.tsv --out data/uf
"""

from __future__ import annotations

import argparse
import csv
import os
import random
from pathlib import Path

from nsmcli.fileio import atomic_write_text


def read_questions(path: Path) -> tuple[list[str], list[list[str]]]:
    # as nsm reads question files: a spreadsheet's byte-order mark, and lines of blanks skipped
    with path.open(newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    header, body = rows[0], [r for r in rows[1:] if "".join(r).strip()]
    if header[:3] != ["table", "question", "answer"]:
        raise SystemExit(f"{path}: the header must start with table, question, answer")
    for row in body:
        if len(row) < 2 or not row[0].strip():
            raise SystemExit(f"{path}: expected table<TAB>question[<TAB>answer], got {row!r}")
    # table paths absolute, so that they can be written relative to any new file
    return header, [[str((path.parent / r[0]).resolve()), *r[1:]] for r in body]


def write_questions(path: Path, header: list[str], rows: list[list[str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["\t".join(header)]
    lines += ["\t".join([os.path.relpath(r[0], path.parent.resolve()), *r[1:]]) for r in rows]
    atomic_write_text(path, "\n".join(lines) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("questions", type=Path, nargs="+")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--folds", type=int, default=2)
    ap.add_argument("--dev", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--dev-questions", type=Path, help="all/dev.tsv: this file's questions, held out of training"
    )
    args = ap.parse_args()

    header: list[str] | None = None
    rows: list[list[str]] = []
    for path in args.questions:
        own_header, own_rows = read_questions(path)
        if header is not None and own_header != header:
            raise SystemExit(f"{path}: its header differs from {args.questions[0]}'s")
        header = own_header
        rows += own_rows
    assert header is not None
    dev_rows = None
    if args.dev_questions is not None:  # checked before any file is written
        dev_header, dev_rows = read_questions(args.dev_questions)
        if dev_header != header:
            raise SystemExit(f"{args.dev_questions}: its header differs from {args.questions[0]}'s")
        if args.dev_questions.resolve() in {q.resolve() for q in args.questions}:
            raise SystemExit(f"{args.dev_questions} is also a training file")
    tables = sorted({r[0] for r in rows})
    random.Random(args.seed).shuffle(tables)
    fold_of = {t: k % args.folds for k, t in enumerate(tables)}
    names = [chr(ord("A") + k) for k in range(args.folds)]
    for k, name in enumerate(names):
        inside = [r for r in rows if fold_of[r[0]] == k]
        outside = [r for r in rows if fold_of[r[0]] != k]
        write_questions(args.out / f"fold{name}.tsv", header, inside)
        write_questions(args.out / f"not{name}" / "train.tsv", header, outside)
        write_questions(args.out / f"not{name}" / "dev.tsv", header, outside[: args.dev])
        print(f"fold {name}: {len(inside)} questions over {sum(v == k for v in fold_of.values())} tables")
    write_questions(args.out / "all" / "train.tsv", header, rows)
    write_questions(args.out / "all" / "dev.tsv", header, rows[: args.dev] if dev_rows is None else dev_rows)
    print(f"all: {len(rows)} questions over {len(tables)} tables -> {args.out}")


if __name__ == "__main__":
    main()
