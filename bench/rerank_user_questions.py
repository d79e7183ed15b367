"""Does fitting the reranker on questions over users' own tables, beside WTQ's held-out questions, choose
better? The beams are decoded once (`--cache`); each weight of the user questions (`nsm rerank
--questions-weight`; 0 fits on WTQ alone) is then fitted as `nsm rerank` fits (4 folds choose the L2 strength
among all problems), and scored on:

- WTQ held out: the 4-fold held-out choices over the WTQ held-out questions (`--split` of `nsm rerank`);
- user held out: the 4-fold held-out choices over the user questions (`--questions`): never fitted on;
- WTQ dev: the final fit's choices on `random-split-1-dev`.

The rule that picks the weight is written before any figure: the most of WTQ held out + WTQ dev + user held
out. The real-world set (`examples/real`) is not read here; `bench/real_world.py` measures the one shipped.

`--variants` also fits the same beams with parts of the features left out, to see what each adds:
- `full`: every feature and proposal;
- `no_direction`: without the features of which way the question points (`points=`, `change=`);
- `no_bounds_asked`: without the features of the thirty-second session (`bound_side=`, `bound=unused`,
  `final_asked=`, `measured=`): the bounds a question sets, the column it asks for, what its adjectives
  measure;
- `no_new_proposals`: also without the sign, range, mirror, strict and reshown proposals (the candidates
  they added, and the `proposed=<kind>` names): the features and proposals of the thirtieth session. The
  dense beam features were read with those candidates present, which only their tiny probability touches;
- `function_words`: the question's words (`w=`) only in grams of function and quantity words ("how many",
  "the most", "total", "cheapest"): a content word ("salary", "gloves") names one table's topic, which
  a new table does not share.

    python bench/rerank_user_questions.py --questions examples/fit/questions.tsv --cache /tmp/beams.pkl

When a member of `--model` was fine-tuned on the user questions themselves, their beams must come from
members that never saw their tables: `bench/user_folds.py` splits them in folds by table, and
`--decode-with FOLD_FILE=MODEL` decodes each fold with a bundle whose member trained on the other folds.
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import sys
from pathlib import Path

from common import header, write_result

from nsmcli.parser import decode_question_file, find_model
from nsmcli.train.rerank import (
    BeamProblems,
    Reranker,
    decode_for_reranking,
    fit_beams,
    on_tables_of,
    right_choices,
)
from nsmcli.worlds.tables.data import lexicon
from nsmcli.worlds.tables.data.annotate import STOP_WORDS
from nsmcli.worlds.tables.data.preprocess import load_dataset

#: What each variant leaves out: (prefixes of sparse names dropped, names whose candidates are dropped).
VARIANTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "full": ((), ()),
    "no_direction": (("points=", "change="), ()),
    "no_bounds_asked": (("bound", "final_asked=", "measured="), ()),
    "no_new_proposals": (
        ("points=", "change=", "proposed="),
        ("proposed=sign", "proposed=range", "proposed=mirror", "proposed=strict", "proposed=reshown"),
    ),
    # the kinds proposed on user tables only (`proposals.USER_KINDS`), one at a time and both
    "no_narrowed": ((), ("proposed=narrowed",)),
    "no_summed": ((), ("proposed=summed",)),
    "no_user_kinds": ((), ("proposed=narrowed", "proposed=summed")),
    "function_words": ((), ()),  # and `_WORD_FILTERS`
}
#: Words that say what to compute rather than what about (`function_words`), beside the stop words and the
#: adjectives that point up or down a column (`lexicon.polarity`: "highest", "cheapest", "latest").
_QUANTITY_WORDS = frozenset(
    "total totals sum average mean number count difference per each times first last next previous top "
    "bottom many much combined altogether overall ago list name named".split()
)


def _function_gram(gram: str) -> bool:
    return all(
        w in STOP_WORDS or w in _QUANTITY_WORDS or lexicon.polarity(w) or lexicon.polarity(w, dates=True)
        for w in gram.split("_")
    )


#: The lexical features (`w=<gram>|...`) each variant keeps, by their gram.
_WORD_FILTERS = {"function_words": _function_gram}


def without(beams: BeamProblems, variant: str) -> BeamProblems:
    """`beams` with the names and candidates `VARIANTS[variant]` leaves out."""
    prefixes, candidates_with = VARIANTS[variant]
    gram_kept = _WORD_FILTERS.get(variant)
    if not prefixes and not candidates_with and gram_kept is None:
        return beams

    def kept_name(name: str) -> bool:
        if prefixes and name.startswith(prefixes):
            return False
        return gram_kept is None or not name.startswith("w=") or gram_kept(name[2:].split("|", 1)[0])

    problems = []
    for features, credits in beams.problems:
        kept = [i for i, (_, sparse) in enumerate(features) if not set(candidates_with) & set(sparse)]
        problems.append(
            (
                [(features[i][0], [n for n in features[i][1] if kept_name(n)]) for i in kept],
                [credits[i] for i in kept],
            )
        )
    return dataclasses.replace(beams, problems=problems)


def fit_by_the_rule(
    wtq: BeamProblems, user: list[BeamProblems], dev: BeamProblems, user_weight: float, world: str
) -> tuple[Reranker, tuple[str, int, int, int, int]]:
    """A reranker fitted on `wtq` and `user` (each user question weighing `user_weight`), with the rule's
    figures: (its L2, WTQ held out, user held out, WTQ dev, their sum)."""
    reranker = fit_beams([wtq, *user], world, set_weights=[1.0] + [user_weight] * len(user))
    l2 = f"{reranker.fitted['l2']:g}"
    by_source = reranker.fitted["held_out_right_by_source"][l2]
    wtq_held = by_source[wtq.split]
    user_held = sum(by_source[b.split] for b in user)
    dev_right = right_choices(reranker, dev.problems)
    return reranker, (l2, wtq_held, user_held, dev_right, wtq_held + user_held + dev_right)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="wtq")
    ap.add_argument(
        "--decode-with",
        action="append",
        default=[],
        metavar="FILE=MODEL",
        help="decode the question file FILE (as given to --questions) with MODEL instead of --model: a member"
        " fine-tuned on the fit questions decodes each fold with a model that never saw its tables",
    )
    ap.add_argument("--data", default="data/wtq-word")
    ap.add_argument("--fit-split", default="pristine-seen-tables")
    ap.add_argument("--tables-of", default="random-split-1-train")
    ap.add_argument("--dev-split", default="random-split-1-dev")
    ap.add_argument("--questions", type=Path, action="append", required=True)
    ap.add_argument("--weights", default="0,1,3,10", help="comma-separated weights of the user questions")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--cache", type=Path, help="a pickle of the decoded beams: read when it exists, else written"
    )
    ap.add_argument("--out", type=Path, help="write the chosen weight's reranker here (of `--ship`)")
    ap.add_argument("--variants", default="full", help=f"comma-separated, of: {', '.join(VARIANTS)}")
    ap.add_argument("--ship", default="full", help="the variant whose chosen weight `--out` writes")
    args = ap.parse_args()

    model_dir = find_model(args.model)
    decode_with = {}
    for given in args.decode_with:
        name, sep, model = given.partition("=")
        if not sep or Path(name) not in args.questions:
            raise SystemExit(f"--decode-with {given!r}: FILE=MODEL, FILE one of --questions")
        decode_with[Path(name)] = find_model(model)
    cache: dict = {}
    if args.cache and args.cache.is_file():
        cache = pickle.loads(args.cache.read_bytes())  # our own file, written below
    # the cache names the model that decoded WTQ's splits, and each question file's key its decoder: beams of
    # another model are never taken for this one's (out-of-fold beams are the point of --decode-with)
    if cache.get("model", str(model_dir)) != str(model_dir):
        raise SystemExit(
            f"{args.cache} holds beams of {cache['model']}, not of {model_dir}: give another --cache"
        )
    cache["model"] = str(model_dir)
    dataset = load_dataset(args.data)
    if "fit" not in cache:
        select = on_tables_of(dataset, args.tables_of)
        cache["fit"] = decode_for_reranking(
            model_dir, dataset, args.fit_split, select=select, workers=args.workers
        )
        cache["dev"] = decode_for_reranking(model_dir, dataset, args.dev_split, workers=args.workers)
    user = []
    for path in args.questions:
        decoder = decode_with.get(path, model_dir)
        key = f"questions-grouped:{path}:{path.stat().st_mtime_ns}:{decoder}"
        if key not in cache:
            cache[key] = decode_question_file(decoder, path, progress=print)
        user.append(cache[key])
    if args.cache:
        args.cache.write_bytes(pickle.dumps(cache))
    fit_set, dev = cache["fit"], cache["dev"]

    rows = []
    best = None
    for variant in args.variants.split(","):
        fit_v, dev_v = without(fit_set, variant), without(dev, variant)
        user_v = [without(b, variant) for b in user]
        for weight in [float(w) for w in args.weights.split(",")]:
            reranker, (l2, wtq_held, user_held, dev_right, score) = fit_by_the_rule(
                fit_v, user_v, dev_v, weight, dataset.world
            )
            rows.append((variant, weight, l2, wtq_held, user_held, dev_right, score))
            print(rows[-1], flush=True)
            if variant == args.ship and (best is None or score > best[0]):
                best = (score, weight, reranker)

    n_user = sum(b.questions for b in user)
    text = header(
        "Reranker fitted on user-table questions beside WTQ held-out ones",
        "python bench/rerank_user_questions.py " + " ".join(sys.argv[1:]),
    )
    text += (
        f"- WTQ held out: {fit_set.questions:,} questions ({fit_set.split}, the right answer in the beam for "
        f"{fit_set.right_answer_in_beam:,}); WTQ dev: {dev.questions:,} ({dev.right_answer_in_beam:,} in the "
        f"beam, answer vote {dev.answer_vote_right:,}); user questions: {n_user} "
        f"({sum(b.right_answer_in_beam for b in user)} in the beam, answer vote "
        f"{sum(b.answer_vote_right for b in user)}) from {', '.join(f'`{p}`' for p in args.questions)}\n\n"
        "| features | user weight | L2 | WTQ held out | user held out | WTQ dev | sum (the rule) |\n"
        "|---|---:|---:|---:|---:|---:|---:|\n"
    )
    text += "".join(
        f"| {v} | {w:g} | {l2} | {a:,} | {u:,} | {d:,} | {s:,} |\n" for v, w, l2, a, u, d, s in rows
    )
    if best is not None:
        text += f"\nChosen by the rule ({args.ship}): weight {best[1]:g}.\n"
    print(text)
    print(f"written to {write_result('rerank-user-questions', text)}")
    if args.out and best is not None:
        # the record `nsm rerank` writes for the same fit
        best[2].fitted.update(
            model=args.model,
            data=args.data,
            tables_of=args.tables_of,
            questions_files=[str(p) for p in args.questions],
            beam=5,
        )
        best[2].save(args.out)
        print(f"reranker -> {args.out}")


if __name__ == "__main__":
    main()
