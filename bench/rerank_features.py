"""Do more sparse features help the reranker choose from the beam? Each variant adds to or changes the table
world's features (`nsmcli.worlds.tables.rerank.rerank_features`); the reranker is then fitted as `nsm
rerank` fits it (4 folds choose the L2 strength) on the held-out questions and scored on dev.

    python bench/rerank_features.py --model wtq --data data/wtq-word   # bench/results/rerank-features-wtq.md

Variants:
- how_many_column: "how many X" where X (or its singular) is a word of a number column's name, crossed with
  the program's last function ("how many units did ... buy" is a sum or a hop of units, not a count of rows).
- plural_columns: question words also match column names in the singular ("which stores" names `store`)
  wherever the features compare the question's words with column names.

The beams are decoded once per split; the variants only change the features read off them.
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable, Sequence
from typing import Any

from common import header, write_result

import nsmcli.train.evaluate as evaluate_module
import nsmcli.worlds.tables.rerank as table_rerank
from nsmcli.parser import find_model
from nsmcli.train.rerank import best_index, fit_cross_validated, on_tables_of
from nsmcli.worlds.tables.data.preprocess import load_dataset
from nsmcli.worlds.tables.lang import program as P

Row = tuple[Any, Any, list, list, list[float]]  # example, env, candidates, dense features, credits
Variant = Callable[[Any, Any, Sequence[tuple[str, float, Sequence[Any]]]], list[list[str]]]

_HOW_MANY = re.compile(r"\bhow (?:many|much) ([a-z]+)(?: ([a-z]+))?")
_BASE_FEATURES = table_rerank.rerank_features
_BASE_NAMED = table_rerank._words_named


def _singulars(word: str) -> set[str]:
    out = {word}
    if word.endswith("ies") and len(word) > 4:
        out.add(word[:-3] + "y")
    elif word.endswith(("ches", "shes", "xes", "sses")):
        out.add(word[:-2])
    elif word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        out.add(word[:-1])
    return out


def _last_function(text: str) -> str | None:
    try:
        return P.Program.parse(text).exprs[-1].function
    except Exception:
        return None


def how_many_column(example: Any, env: Any, candidates: Sequence) -> list[list[str]]:
    base = _BASE_FEATURES(example, env, candidates)
    m = _HOW_MANY.search(example.question.text.lower())
    if not m:
        return base
    asked = set().union(*(_singulars(w) for w in m.groups() if w))
    named = any(
        asked & set().union(*(_singulars(w) for w in c.slug.split("_") if w)) and "number" in c.views
        for c in env.table.columns
    )
    return [
        sparse + [f"how_many_names_column={named}|last={_last_function(text)}"]
        for sparse, (text, _, _) in zip(base, candidates, strict=True)
    ]


def plural_columns(example: Any, env: Any, candidates: Sequence) -> list[list[str]]:
    def named(slug: str, words: set[str]) -> bool:
        return _BASE_NAMED(slug, set().union(*(_singulars(w) for w in words)) if words else set())

    table_rerank._words_named = named
    try:
        return _BASE_FEATURES(example, env, candidates)
    finally:
        table_rerank._words_named = _BASE_NAMED


VARIANTS: dict[str, Variant] = {
    "the shipped features": _BASE_FEATURES,
    "how_many_column": how_many_column,
    "plural_columns": plural_columns,
}


def decode(model: str, data: Any, split: str, tables_of: str | None, workers: int) -> list[Row]:
    """The beams of `split`, with each problem's example and environment kept for the variants."""
    kept: dict[str, tuple] = {}
    real = evaluate_module.candidate_features

    def recording(world, example, env, finished, with_readings=True):  # noqa: ANN001, ANN202
        features = real(world, example, env, finished, with_readings=with_readings)
        kept[example.id] = (example, env, finished, [dense for dense, _ in features])
        return features

    select = on_tables_of(data, tables_of or None)
    evaluate_module.candidate_features = recording
    try:
        result = evaluate_module.evaluate(
            [find_model(model) or model],
            data,
            split=split,
            beam=5,
            vote="answer",
            workers=workers,
            keep_candidates=True,
            select=select,
        )
    finally:
        evaluate_module.candidate_features = real
    return [
        (*kept[p.id], [c.credit for c in result.candidates[p.id]])
        for p in result.predictions
        if p.id in kept and result.candidates.get(p.id)
    ]


def fit_and_score(fitting: list, dev: list, world: str) -> tuple[int, int]:
    """A reranker fitted on `fitting` as `nsm rerank` fits it: (its held-out right answers at the chosen L2
    over 4 folds, its right answers on `dev`); each problem is (candidates' features, their credits)."""
    reranker, figures = fit_cross_validated(fitting, (3e-4, 1e-3, 3e-3, 1e-2), world)
    right = sum(credits[best_index(reranker.scores(features))] >= 1 for features, credits in dev if features)
    return figures["held_out_right"][f"{figures['l2']:g}"], right


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="wtq")
    ap.add_argument("--data", default="data/wtq-word")
    ap.add_argument("--fit-split", default="pristine-seen-tables")
    ap.add_argument("--tables-of", default="random-split-1-train")
    ap.add_argument("--dev-split", default="random-split-1-dev")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    data = load_dataset(args.data)
    start = time.time()
    fitting = decode(args.model, data, args.fit_split, args.tables_of, args.workers)
    dev = decode(args.model, data, args.dev_split, None, args.workers)
    n_dev = len(data.examples(args.dev_split))
    rows = []
    for name, variant in VARIANTS.items():

        def problems(part: list[Row], variant: Variant = variant) -> list:
            return [
                (list(zip(dense, variant(ex, env, cands), strict=True)), c)
                for ex, env, cands, dense, c in part
            ]

        held, right = fit_and_score(problems(fitting), problems(dev), data.world)
        rows.append(f"| {name} | {held:,} | {right:,} ({right / n_dev:.1%}) |")
        print(rows[-1], flush=True)
    command = f"python bench/rerank_features.py --model {args.model} --data {args.data}"
    markdown = header(f"Reranker feature variants: `{args.model}`", command)
    markdown += (
        f"- fitted on {args.fit_split} over {args.tables_of}'s tables ({len(fitting):,} questions, held-out "
        f"figure: 4 folds at the chosen L2), scored on {args.dev_split} ({n_dev:,}); {time.time() - start:.0f} s\n\n"
        "| features | held out, reranked | dev, reranked |\n|---|---:|---:|\n" + "\n".join(rows) + "\n"
    )
    print(f"written to {write_result(f'rerank-features-{args.model}', markdown)}")


if __name__ == "__main__":
    main()
