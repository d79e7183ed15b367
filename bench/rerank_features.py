"""Do more sparse features help the reranker choose from the beam? Each variant adds to or changes the table
world's features (`nsmcli.worlds.tables.rerank.rerank_features`); the reranker is then fitted as `nsm
rerank` fits it (4 folds choose the L2 strength) on the held-out questions and scored on dev.

    python bench/rerank_features.py --model wtq --data data/wtq-word   # bench/results/rerank-features-wtq.md

The beams hold the world's proposals (`nsm rerank --proposals`, the default). Variants:
- with_direction: the question's direction ("lightest", "below", "shrinking" point down; "at least" up, "how
  many" nowhere; a word's degrees reach its base) crossed with the program's (`argmax`, `filter_ge` up).
- without_shown_column: the shipped features less "shows_compared" and "shows_key".
- how_many_column: "how many X" where X (or its singular) is a word of a number column's name, crossed with
  the program's last function ("how many units did ... buy" is a sum or a hop of units, not a count of rows).
- plural_columns: question words also match column names in the singular ("which stores" names `store`)
  wherever the features compare the question's words with column names.

The beams are decoded once per split; the variants only change the features read off them.
"""

from __future__ import annotations

import argparse
import pickle
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from common import header, write_result

import nsmcli.train.evaluate as evaluate_module
import nsmcli.worlds.tables.rerank as table_rerank
from nsmcli.parser import find_model
from nsmcli.train.rerank import PROPOSED, best_index, fit_cross_validated, on_tables_of
from nsmcli.worlds.tables.data.lexicon import degree_base
from nsmcli.worlds.tables.data.preprocess import load_dataset
from nsmcli.worlds.tables.lang import program as P

Row = tuple[Any, Any, list, list, set[str], list[float]]  # example, env, candidates, dense, proposed, credits
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


#: Which way a word points on the scale of what it measures: "up" (more of it) or "down". Adjectives are
#: base forms (their degrees reach them through `degree_base`); "fast" and "slow" are absent on purpose:
#: a faster lap is a smaller time but a faster car a larger speed.
_POLES: dict[str, str] = {
    **dict.fromkeys(
        """high large big great long tall heavy hot warm old late wide deep far rich expensive costly many much
        strong loud busy popular wealthy populous most more max maximum top above over exceed exceeds exceeded
        exceeding rise rises rose rising risen gain gains gained grow grows grew growing grown increase
        increased increasing up positive""".split(),
        "up",
    ),
    **dict.fromkeys(
        """low small little short light cold cool young early narrow shallow near poor cheap few weak quiet least
        less min minimum bottom below under fall falls fell falling fallen drop drops dropped dropping decline
        declined declining shrink shrinks shrank shrinking decrease decreased decreasing lose loses lost losing
        down negative""".split(),
        "down",
    ),
}
#: Two-word phrases whose pole differs from their last word's: "at least 20" asks for 20 or more, and "how
#: many" asks for a number, not for more of anything.
_PHRASE_POLES: dict[tuple[str, str], str | None] = {
    ("at", "least"): "up",
    ("at", "most"): "down",
    ("no", "more"): "down",
    ("no", "less"): "up",
    ("how", "many"): None,
    ("how", "much"): None,
}


def _pole(tokens: Sequence[str], i: int) -> str | None:
    """Which way the `i`th of a question's lower-cased tokens points ("up", "down"), or None."""
    if i > 0 and (tokens[i - 1], tokens[i]) in _PHRASE_POLES:
        return _PHRASE_POLES[tokens[i - 1], tokens[i]]
    base = degree_base(tokens[i], _POLES)
    return _POLES[base] if base is not None else None


def _question_direction(tokens: Sequence[str]) -> str:
    """Which way a question points: "up", "down", "both" (words of each) or "none"."""
    found = {_pole(tokens, i) for i in range(len(tokens))} - {None}
    return "both" if len(found) == 2 else (found.pop() if found else "none")


_UP_FUNCTIONS = frozenset({"argmax", "maximum", "filter_ge", "filter_greater"})
_DOWN_FUNCTIONS = frozenset({"argmin", "minimum", "filter_le", "filter_less"})


def with_direction(example: Any, env: Any, candidates: Sequence) -> list[list[str]]:
    direction = _question_direction(example.question.tokens)
    out = []
    for sparse, (text, _, _) in zip(_BASE_FEATURES(example, env, candidates), candidates, strict=True):
        try:
            functions = {e.function for e in P.Program.parse(text).exprs}
        except Exception:
            out.append(sparse)
            continue
        up, down = bool(_UP_FUNCTIONS & functions), bool(_DOWN_FUNCTIONS & functions)
        points = "both" if up and down else "up" if up else "down" if down else "none"
        out.append(sparse + [f"question_points={direction}|program_points={points}"])
    return out


def without_shown_column(example: Any, env: Any, candidates: Sequence) -> list[list[str]]:
    return [
        [n for n in sparse if not n.startswith(("shows_compared=", "shows_key="))]
        for sparse in _BASE_FEATURES(example, env, candidates)
    ]


def with_proposed(sparse: list[list[str]], candidates: Sequence, proposed: set[str]) -> list[list[str]]:
    return [
        names + [PROPOSED] if text in proposed else names
        for names, (text, _, _) in zip(sparse, candidates, strict=True)
    ]


VARIANTS: dict[str, Variant] = {
    "the shipped features": _BASE_FEATURES,
    "with_direction": with_direction,
    "without_shown_column": without_shown_column,
    "how_many_column": how_many_column,
    "plural_columns": plural_columns,
}


def decode(
    model: str, data: Any, split: str, tables_of: str | None, workers: int, proposals: bool = True
) -> list[Row]:
    """The beams of `split` (with the world's proposals when `proposals`), with each problem's example and
    environment kept for the variants."""
    kept: dict[str, tuple] = {}
    real = evaluate_module.candidate_features

    def recording(world, example, env, finished, with_readings=True, proposed=(), matcher=None):  # noqa: ANN001, ANN202
        features = real(
            world, example, env, finished, with_readings=with_readings, proposed=proposed, matcher=matcher
        )
        kept[example.id] = (example, env, finished, [dense for dense, _ in features], set(proposed))
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
            proposals=proposals,
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
    ap.add_argument("--cache", help="a pickle of the decoded beams: read when it exists, else written")
    ap.add_argument(
        "--variants", default=",".join(VARIANTS), help="comma-separated, of: " + ", ".join(VARIANTS)
    )
    args = ap.parse_args()
    chosen = [v.strip() for v in args.variants.split(",") if v.strip()]
    if unknown := [v for v in chosen if v not in VARIANTS]:
        ap.error(f"unknown variants: {', '.join(unknown)}")
    data = load_dataset(args.data)
    start = time.time()
    if args.cache and Path(args.cache).is_file():
        with open(args.cache, "rb") as f:
            fitting, dev = pickle.load(f)
    else:
        fitting = decode(args.model, data, args.fit_split, args.tables_of, args.workers)
        dev = decode(args.model, data, args.dev_split, None, args.workers)
        if args.cache:  # the features read only the environment's table: the rest does not pickle
            tables_only = [
                [(ex, SimpleNamespace(table=env.table), *rest) for ex, env, *rest in part]
                for part in (fitting, dev)
            ]
            try:
                Path(args.cache).write_bytes(pickle.dumps(tables_only))
            except (pickle.PicklingError, AttributeError, TypeError) as exc:
                print(f"not cached: {exc}", flush=True)
    n_dev = len(data.examples(args.dev_split))
    rows = []
    for name in chosen:
        variant = VARIANTS[name]

        def problems(part: list[Row], variant: Variant = variant) -> list:
            return [
                (list(zip(dense, with_proposed(variant(ex, env, cands), cands, proposed), strict=True)), c)
                for ex, env, cands, dense, proposed, c in part
            ]

        held, right = fit_and_score(problems(fitting), problems(dev), data.world)
        rows.append(f"| {name} | {held:,} | {right:,} ({right / n_dev:.1%}) |")
        print(rows[-1], flush=True)
    command = f"python bench/rerank_features.py --model {args.model} --data {args.data} --variants {','.join(chosen)}"
    markdown = header(f"Reranker feature variants: `{args.model}`", command)
    markdown += (
        f"- fitted on {args.fit_split} over {args.tables_of}'s tables ({len(fitting):,} questions, held-out "
        f"figure: 4 folds at the chosen L2), scored on {args.dev_split} ({n_dev:,}); {time.time() - start:.0f} s\n\n"
        "| features | held out, reranked | dev, reranked |\n|---|---:|---:|\n" + "\n".join(rows) + "\n"
    )
    print(f"written to {write_result(f'rerank-features-{args.model}', markdown)}")


if __name__ == "__main__":
    main()
