"""How close is the choice? For questions over users' tables that a chooser never saw, how often is the
right answer its first choice, or the second of its distinct answers, and does the margin between the two
separate right first choices from wrong ones? It measures what `nsm parse` would gain by showing the
runner-up when the choice is close (docs/design.md, "Where the real-world figure is stuck").

The beams come from a cache of `bench/rerank_user_questions.py --cache` (each candidate's features and
match texts, whose answer follows the last " = "). Only the questions of `--only` files are counted: give
question files the model's reranker and matcher were never fitted on. The shipped wtq bundle's reranker of
users' tables was fitted on fit rounds four to six, starting from one fitted on the others: every file of
`examples/fit` is in sample for it, so its figures here need a fresh fit round. Fit questions, never a test
set.

    python bench/choice_margin.py --cache data/wtq-chooser-beams.pkl --model wtq \
        --only examples/fit/questions-round7.tsv
"""

from __future__ import annotations

import argparse
import math
import pickle
from pathlib import Path

from user_folds import read_questions

from nsmcli.parser import find_model
from nsmcli.train.rerank import load_reranker

MARGINS = (0.25, 0.5, 1.0, 2.0)


def question_texts(paths: list[Path]) -> set[str]:
    return {row[1] for path in paths for row in read_questions(path)[1]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, required=True)
    ap.add_argument("--model", default="wtq", help="the model whose reranker scores the candidates")
    ap.add_argument("--only", type=Path, action="append", required=True)
    args = ap.parse_args()

    # its questions are over users' tables: the reranker that chooses there
    reranker = load_reranker(find_model(args.model), users=True) or load_reranker(find_model(args.model))
    if reranker is None:
        raise SystemExit(f"{args.model} has no reranker")
    wanted = question_texts(args.only)
    cache = pickle.loads(args.cache.read_bytes())  # our own file
    rows = []  # (first right, runner-up right, margin, covered)
    for key, beams in cache.items():
        if not key.startswith("questions-grouped:"):
            continue
        for (features, credits), texts in zip(beams.problems, beams.texts or [], strict=False):
            if texts is None or texts[0].split(" | columns:")[0] not in wanted:
                continue
            scores = reranker.scores(features)
            distinct, answers = [], set()
            for i in sorted(range(len(scores)), key=lambda i: (-scores[i], i)):
                answer = texts[1][i].rsplit(" = ", 1)[-1] if texts[1][i] else f"#{i}"
                if answer not in answers:
                    answers.add(answer)
                    distinct.append(i)
            second = len(distinct) > 1
            rows.append(
                (
                    credits[distinct[0]] >= 1,
                    second and credits[distinct[1]] >= 1,
                    scores[distinct[0]] - scores[distinct[1]] if second else math.inf,
                    any(c >= 1 for c in credits),
                )
            )
    n = len(rows)
    if not n:
        raise SystemExit("no question of --only is in the cache")
    print(
        f"{n} questions: the right answer among the candidates {sum(r[3] for r in rows)}, first "
        f"{sum(r[0] for r in rows)}, among the first two distinct answers {sum(r[0] or r[1] for r in rows)}"
    )
    for margin in MARGINS:
        close = [r for r in rows if r[2] < margin]
        print(
            f"margin < {margin:g}: {len(close)} questions ({len(close) / n:.0%}), first right "
            f"{sum(r[0] for r in close)}, runner-up right {sum(r[1] for r in close)}; the rest "
            f"{n - len(close)}, first right {sum(r[0] for r in rows if r[2] >= margin)}"
        )


if __name__ == "__main__":
    main()
