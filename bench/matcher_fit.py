"""Does a fine-tuned matcher (`nsmcli.train.matcher`: MiniLM reading the question with a program's reading
and answer preview) help the reranker choose, once it also learns from questions over users' tables?

The beams come from `bench/rerank_user_questions.py --cache` (decoded there, with their match texts). The
matcher is fitted on the WTQ held-out questions and the user questions (`--questions`, each weighing
`--user-weight`), `--folds` times on all but one fold (a fold holds whole user tables), and scores the fold
it did not see; a last matcher fitted on all scores WTQ dev, which no fit sees. The reranker is then fitted
as `bench/rerank_user_questions.py` fits it, with and without the matcher's score, and scored by the same
rule, written before any figure: the most of WTQ held out + WTQ dev + user held out. `--variants` fits the
reranker on the same scores with parts of the features or candidates left out (`rerank_user_questions.py`).

    python bench/matcher_fit.py --cache /tmp/beams.pkl --questions examples/fit/questions.tsv --out DIR
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import random
import sys
import time
from pathlib import Path

from common import header, write_result
from rerank_user_questions import VARIANTS, fit_by_the_rule, without

from nsmcli.fileio import atomic_write_bytes, file_sha256
from nsmcli.train.matcher import MatcherFit, MatchProblem, fit_matcher
from nsmcli.train.rerank import (
    DENSE_FEATURES,
    MATCH,
    RERANKER_FILE,
    BeamProblems,
    Reranker,
    choice_matters,
    load_reranker,
)
from nsmcli.worlds import get_world


def match_problems(beams: BeamProblems) -> list[MatchProblem]:
    if beams.texts is None:
        raise SystemExit(f"{beams.split}: the cache has no match texts; decode again with this code")
    if get_world(beams.world or "wtq").describe is not None and not any(
        " | " in texts[0] for texts in beams.texts if texts is not None
    ):  # a matcher fitted on them would be shown the descriptions it never saw
        raise SystemExit(
            f"{beams.split}: the cache's match texts lack the tables' column names; decode again"
        )
    out = []
    for (_features, credits), texts in zip(beams.problems, beams.texts, strict=True):
        question, read = texts if texts is not None else ("", [""] * len(credits))
        out.append((question, read, credits))
    return out


def with_scores(beams: BeamProblems, scores: list[list[float] | None]) -> BeamProblems:
    """`beams` with each candidate's dense features padded to `DENSE_FEATURES`, the matcher's score (0 where
    a problem has none) at `MATCH`."""
    problems = []
    for (features, credits), found in zip(beams.problems, scores, strict=True):
        padded = []
        for k, (dense, sparse) in enumerate(features):
            dense = (list(dense) + [0.0] * len(DENSE_FEATURES))[: len(DENSE_FEATURES)]
            dense[MATCH] = found[k] if found is not None else 0.0
            padded.append((dense, sparse))
        problems.append((padded, credits))
    return dataclasses.replace(beams, problems=problems)


def score(matcher, problems: list[MatchProblem], which: list[int], into: list) -> None:
    for i in which:
        question, texts, credits = problems[i]
        if choice_matters(credits):
            into[i] = matcher.scores(question, texts)


def score_unseen(
    matcher, problems: list[MatchProblem], sets: list[BeamProblems], scored: int, questions: list[Path]
) -> list:
    """Scores of `problems[scored:]`, which the scores file lacks, by the run's last `matcher`. The matcher's
    record must name the WTQ split and question files it was fitted on (by content), those files must be the
    first of `questions`, and the scores file must cover exactly them: the files after were then never seen by
    the matcher, and their scores are held out, as the out-of-fold ones before them. `sets`: the WTQ fit set,
    then one per question file."""
    if matcher is None:
        raise SystemExit("the scores file lacks the last question files: give --matcher-from to score them")
    record = matcher.fitted
    seen = record.get("questions_sha256") or []
    given = [file_sha256(p) for p in questions[: len(seen)]]
    own = 1 + len(seen)  # the WTQ fit set and the matcher's own question files
    if (
        not seen
        or given != seen
        or len(seen) >= len(questions)
        or record.get("wtq_split") != sets[0].split
        or scored != sum(len(b.problems) for b in sets[:own])
    ):
        raise SystemExit(
            "--questions must start with the files of the run that wrote --scores and --matcher-from"
            f" ({record.get('questions')}), unchanged, and add new ones after"
        )
    into: list = [None] * len(problems)
    score(matcher, problems, list(range(scored, len(problems))), into)
    return into[scored:]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, required=True)
    ap.add_argument("--questions", type=Path, action="append", required=True)
    ap.add_argument("--folds", type=int, default=2)
    ap.add_argument("--user-weight", type=float, default=3.0, help="weight of a user question, in both fits")
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--scores",
        type=Path,
        help="a pickle of the matcher's scores: read when it exists, else written (SCORES.partial keeps the"
        " folds already scored, and a run stopped before its end resumes from it)",
    )
    ap.add_argument(
        "--matcher-from",
        type=Path,
        help="with --scores read and --out: a reranker folder of the run that wrote the scores, whose matcher"
        " the rerankers of this run are saved with",
    )
    ap.add_argument(
        "--out",
        type=Path,
        help="write the final matcher and each variant's reranker fitted with it here, in a folder per variant",
    )
    ap.add_argument(
        "--variants",
        default="full",
        help=f"comma-separated, of: {', '.join(VARIANTS)} (`rerank_user_questions.py`): each is fitted with "
        "the matcher's score, on the same scores; the first is also fitted without it",
    )
    args = ap.parse_args()

    cache = pickle.loads(args.cache.read_bytes())  # our own file
    fit_set, dev = cache["fit"], cache["dev"]
    # the decoding's key names the file's path, time and decoder; a worktree's copy of the file has another time
    user = []
    for path in args.questions:
        found = [v for k, v in cache.items() if k.startswith(f"questions-grouped:{path}:")]
        if len(found) != 1:
            raise SystemExit(f"{args.cache} holds {len(found)} decodings of {path}; it needs exactly one")
        user += found
    sets = [fit_set, *user]
    problems = [p for b in sets for p in match_problems(b)]
    weights = [1.0 if b is fit_set else args.user_weight for b in sets for _ in b.problems]
    # folds: a user table's questions together, each WTQ question on its own
    rng = random.Random(args.seed)
    groups = [
        f"table\t{b.groups[i]}" if b.groups is not None else f"{b.split}\t{i}"
        for b in sets
        for i in range(len(b.problems))
    ]
    distinct = sorted(set(groups))
    rng.shuffle(distinct)
    fold_of_group = {g: k % args.folds for k, g in enumerate(distinct)}
    fold = [fold_of_group[g] for g in groups]
    config = MatcherFit(layers=args.layers, epochs=args.epochs, lr=args.lr, seed=args.seed)
    dev_problems = match_problems(dev)
    start = time.time()
    if args.out and args.scores and args.scores.is_file() and not args.matcher_from:
        raise SystemExit(
            "--out needs the matchers fitted in this run (give a --scores file that is not there) or the"
            " run's last matcher (--matcher-from)"
        )
    if args.scores and args.scores.is_file():
        oof, dev_scores = pickle.loads(args.scores.read_bytes())  # our own file
        # the last matcher of the run that wrote the scores, saved beside a reranker of that run
        final = load_reranker(args.matcher_from).matcher if args.matcher_from else None
        if len(oof) < len(problems):
            tail = score_unseen(final, problems, sets, len(oof), args.questions)
            print(
                f"{sum(s is not None for s in tail)} problems scored by the matcher of --matcher-from",
                flush=True,
            )
            oof = oof + tail
    else:
        # the fold matchers' scores are kept as each fold ends, so that a stopped run resumes at its next fold
        partial = args.scores.with_name(args.scores.name + ".partial") if args.scores else None
        run_key = [
            *[f"{p}:{file_sha256(p)}" for p in args.questions],
            *sorted(k for k in cache if k.startswith("questions-grouped:")),  # they name each decoding's time
            len(problems),
            args.folds,
            args.user_weight,
            str(config),
        ]
        oof: list = [None] * len(problems)
        done: list[int] = []
        if partial is not None and partial.is_file():
            saved_key, saved_oof, saved_done = pickle.loads(partial.read_bytes())  # our own file
            if saved_key == run_key:
                oof, done = saved_oof, saved_done
                print(f"resuming after folds {', '.join(str(k + 1) for k in done)} ({partial})", flush=True)
        for k in range(args.folds):
            if k in done:
                continue
            train = [i for i in range(len(problems)) if fold[i] != k]
            matcher = fit_matcher(
                [problems[i] for i in train],
                dataclasses.replace(config, weights=[weights[i] for i in train]),
                progress=print,
            )
            score(matcher, problems, [i for i in range(len(problems)) if fold[i] == k], oof)
            print(f"fold {k + 1} of {args.folds} scored, {time.time() - start:.0f} s", flush=True)
            if partial is not None:
                done.append(k)
                atomic_write_bytes(partial, pickle.dumps((run_key, oof, done)))
        final = fit_matcher(problems, dataclasses.replace(config, weights=weights), progress=print)
        dev_scores: list = [None] * len(dev_problems)
        score(final, dev_problems, list(range(len(dev_problems))), dev_scores)
        print(f"dev scored, {time.time() - start:.0f} s", flush=True)
        if args.scores:
            atomic_write_bytes(args.scores, pickle.dumps((oof, dev_scores)))
            if partial is not None:
                partial.unlink(missing_ok=True)

    # the matcher alone, where the choice matters: its first choice right?
    def alone(scores: list, probs: list[MatchProblem]) -> tuple[int, int]:
        right = asked = 0
        for found, (_, texts, credits) in zip(scores, probs, strict=True):
            if found is None:
                continue
            asked += 1
            best = max(range(len(found)), key=lambda j: (found[j] if texts[j] else -1e9, -j))
            right += credits[best] >= 1
        return right, asked

    rows = []
    offset = 0
    scored_sets = []
    for b in sets:
        scored_sets.append(with_scores(b, oof[offset : offset + len(b.problems)]))
        offset += len(b.problems)
    dev_scored = with_scores(dev, dev_scores)
    fitted: dict[str, Reranker] = {}
    by_file: list[tuple[str, list[int]]] = []  # user held out per question file, when there are several
    variants = args.variants.split(",")
    if any(v not in VARIANTS for v in variants):
        raise SystemExit(f"--variants are of {', '.join(VARIANTS)}")
    # (the variant, with the matcher's score?): the first variant without it says what the matcher adds
    for variant, matched in [(variants[0], False)] + [(v, True) for v in variants]:
        fit_v = [s if matched else with_scores(s, [None] * len(s.problems)) for s in scored_sets]
        dev_v = dev_scored if matched else with_scores(dev, [None] * len(dev.problems))
        # candidates are left out after scoring, so that the scores stay beside their candidates
        fit_v, dev_v = [without(s, variant) for s in fit_v], without(dev_v, variant)
        reranker, (l2, wtq_held, user_held, dev_right, total) = fit_by_the_rule(
            fit_v[0], fit_v[1:], dev_v, args.user_weight, "wtq"
        )
        name = f"{variant}, {'with' if matched else 'without'}"
        rows.append((name, l2, reranker.dense[MATCH], wtq_held, user_held, dev_right, total))
        by_source = reranker.fitted["held_out_right_by_source"][l2]
        by_file.append((name, [by_source[s.split] for s in fit_v[1:]]))
        print(rows[-1], flush=True)
        if matched:
            fitted[variant] = reranker
    oof_alone = alone(oof, problems)
    dev_alone = alone(dev_scores, dev_problems)
    text = header(
        "A fine-tuned matcher beside the reranker's features",
        "python bench/matcher_fit.py " + " ".join(sys.argv[1:]),
    )
    text += (
        f"- matcher: {args.layers} top layers, {args.epochs} epochs, lr {args.lr:g}, user weight "
        f"{args.user_weight:g}, {args.folds} folds, seed {args.seed}\n"
        f"- the matcher alone, where the choice matters: out of fold {oof_alone[0]} of {oof_alone[1]}, "
        f"WTQ dev {dev_alone[0]} of {dev_alone[1]}\n\n"
        "| variant, matcher score | L2 | its weight | WTQ held out | user held out | WTQ dev | sum (the rule) |\n"
        "|---|---:|---:|---:|---:|---:|---:|\n"
    )
    text += "".join(
        f"| {v} | {l2} | {w:.3f} | {a:,} | {u:,} | {d:,} | {s:,} |\n" for v, l2, w, a, u, d, s in rows
    )
    if len(user) > 1:
        text += (
            "\nUser held out by question file ("
            + ", ".join(
                f"{p}: {len(b.problems)} questions" for p, b in zip(args.questions, user, strict=True)
            )
            + "):\n\n"
        )
        text += "".join(f"- {v}: {', '.join(f'{n:,}' for n in counts)}\n" for v, counts in by_file)
    print(text)
    print(f"written to {write_result('matcher-fit', text)}")
    if args.out and final is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        if not args.matcher_from:  # a matcher read from an earlier run keeps the record of its own fit
            final.fitted = {
                **dataclasses.asdict(config),
                "weights": None,  # per question: each WTQ one 1, each user one `user_weight`
                "user_weight": args.user_weight,
                "questions": [str(p) for p in args.questions],
                "wtq_split": fit_set.split,  # a refit on these questions gets in-sample scores
                "questions_sha256": [file_sha256(p) for p in args.questions],  # `rerank.matcher_seen`
            }
        for variant, reranker in fitted.items():
            (args.out / variant).mkdir(exist_ok=True)
            reranker.matcher = final
            reranker.save(args.out / variant / RERANKER_FILE)  # the matcher's files beside it
            print(f"matcher and the {variant} reranker -> {args.out / variant}")


if __name__ == "__main__":
    main()
