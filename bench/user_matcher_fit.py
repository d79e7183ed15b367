"""Does a matcher fitted on questions over users' kinds of tables only choose better on users' tables?

The shipped matcher (`matcher.pt`, which both rerankers weigh) was fitted on WTQ's held-out questions and the
first 1,320 fit questions. This one reads the same texts (`rerank.match_texts`: the question with the table's
column names, a program's English reading with its answer's first values) and learns from every fit question
(`examples/fit`, `--questions`). Stages, each resumable by its output files:

- `decode`: each question file's beams, proposals, features and match texts (`decode_question_file`, as
  `nsm parse` decodes), a pickle per file in `--cache`. Only the candidates a parse shows the shipped users'
  reranker are used (proposals of its fitted kinds);
- `fold --fold K`: a matcher fitted on the fit questions of every fold but K (folds hold whole tables),
  scoring fold K's: out-of-fold scores, `--out/oof-K.json`. `--residual`: fitted on top of the shipped users'
  reranker's other weights (their score added before the softmax, `MatcherFit.base`);
- `final`: a matcher fitted on every fit question, saved in `--out/model`;
- `weigh`: the shipped users' reranker with that matcher's score in place of the shared one's, its weight the
  one of `WEIGHTS` that chooses right for the most fit questions out of fold (ties: the smaller); or, with
  `--refit-on`, the users' reranker fitted again as the shipped one was made (from the model's `reranker.json`
  as the prior, on those fit files) with the out-of-fold scores; written with the matcher beside it in
  `--out/weighed` or `--out/refitted`. Every stage of one `--out` takes the same settings (`settings.json`).
  Then, once, on the `--judge` files (never fitted on): right choices of the shipped users' reranker and of the
  new one, file by file, with the questions won and lost.

    python bench/user_matcher_fit.py decode --cache DIR FILES...
    python bench/user_matcher_fit.py fold --fold 0 --cache DIR --out DIR --questions FIT_FILES...
    python bench/user_matcher_fit.py final --cache DIR --out DIR --questions FIT_FILES...
    python bench/user_matcher_fit.py weigh --cache DIR --out DIR --questions FIT_FILES... --judge REAL_FILES...
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import pickle
import sys
import time
from pathlib import Path

import matcher_fit
from common import header, write_result
from matcher_fit import match_problems

from nsmcli.fileio import atomic_write_bytes, atomic_write_json, file_sha256
from nsmcli.parser import decode_question_file, find_model
from nsmcli.train.matcher import MATCHER_RECORD, MatcherFit, fit_matcher, load_matcher
from nsmcli.train.rerank import (
    MATCH,
    PROPOSED,
    USER_RERANKER_FILE,
    BeamProblems,
    Reranker,
    choice_matters,
    fit_beams,
    group_folds,
    is_right_choice,
    load_reranker,
)

WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 6.0, 10.0)


def cached(cache: Path, path: Path) -> Path:
    return cache / (str(path).replace("/", "__") + ".pkl")


def shown(beams: BeamProblems, kinds: set[str]) -> BeamProblems:
    """`beams` with the candidates a parse shows a reranker fitted with proposals of `kinds` only."""
    prefix = f"{PROPOSED}="
    problems, texts = [], []
    for (features, credits), read in zip(
        beams.problems, beams.texts or [None] * len(beams.problems), strict=True
    ):
        keep = [
            k
            for k, (_, sparse) in enumerate(features)
            if all(n[len(prefix) :] in kinds for n in sparse if n.startswith(prefix))
        ]
        problems.append(([features[k] for k in keep], [credits[k] for k in keep]))
        texts.append(None if read is None else (read[0], [read[1][k] for k in keep]))
    return dataclasses.replace(beams, problems=problems, texts=texts)


def load(cache: Path, path: Path, kinds: set[str]) -> BeamProblems:
    file = cached(cache, path)
    if not file.is_file():
        raise SystemExit(f"{file} is missing: run the decode stage for {path} first")
    return shown(pickle.loads(file.read_bytes()), kinds)


def with_scores(beams: BeamProblems, scores: dict[str, list[float] | None], path: Path) -> list:
    """`beams`' problems with the matcher's scores (`scores[f"{path}#{i}"]`, 0 where none) at `MATCH`."""
    found = [scores.get(f"{path}#{i}") for i in range(len(beams.problems))]
    return matcher_fit.with_scores(beams, found).problems


def weighing(reranker: Reranker, weight: float) -> Reranker:
    dense = list(reranker.dense)
    dense[MATCH] = weight
    return dataclasses.replace(reranker, dense=dense)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("stage", choices=("decode", "fold", "final", "weigh"))
    ap.add_argument("files", nargs="*", type=Path, help="decode: the question files")
    ap.add_argument("--model", default="wtq")
    ap.add_argument("--cache", type=Path, required=True)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--questions", type=Path, nargs="+", default=[], help="the fit question files")
    ap.add_argument("--judge", type=Path, nargs="+", default=[], help="weigh: the files judged, once")
    ap.add_argument("--fold", type=int, help="fold: the fold held out")
    ap.add_argument(
        "--refit-on",
        type=Path,
        nargs="+",
        default=[],
        help="weigh: refit the users' reranker on these fit files (from the model's reranker.json, as the shipped"
        " one was made) with the new matcher's out-of-fold scores, rather than weigh it in the shipped one",
    )
    ap.add_argument("--folds", type=int, default=2)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--residual",
        action="store_true",
        help="fit the matcher on top of the shipped users' reranker's other weights (its score added before"
        " the softmax), so that it learns what they get wrong",
    )
    args = ap.parse_args()
    model = find_model(args.model)
    if model is None:
        raise SystemExit(f"no model {args.model}")
    args.cache.mkdir(parents=True, exist_ok=True)
    say = lambda line: print(line, flush=True)  # noqa: E731

    if args.stage == "decode":
        for path in args.files:
            if not cached(args.cache, path).is_file():
                start = time.time()
                beams = decode_question_file(model, path)
                atomic_write_bytes(cached(args.cache, path), pickle.dumps(beams))
                say(f"{path}: {len(beams.problems)} questions decoded in {time.time() - start:.0f} s")
        return

    shipped = load_reranker(model, users=True)
    if shipped is None or shipped.proposal_kinds is None:
        raise SystemExit(f"{model} has no users' reranker fitted with proposals")
    kinds = set(shipped.proposal_kinds)
    if args.out is None:
        raise SystemExit("give --out")
    args.out.mkdir(parents=True, exist_ok=True)
    fit_sets = [(path, load(args.cache, path, kinds)) for path in args.questions]
    without_matcher = weighing(shipped, 0.0)
    items = [
        (f"{path}#{i}", beams.groups[i], problem, without_matcher.scores(beams.problems[i][0]))
        for path, beams in fit_sets
        for i, problem in enumerate(match_problems(beams))
    ]
    fold = group_folds([group for _, group, _, _ in items], args.folds, args.seed)
    config = MatcherFit(layers=args.layers, epochs=args.epochs, seed=args.seed)
    # every stage of one --out must fit and read with the same settings: its score files are not keyed by them
    settings = {
        "layers": args.layers,
        "epochs": args.epochs,
        "seed": args.seed,
        "folds": args.folds,
        "residual": args.residual,
        "questions": [str(p) for p in args.questions],
    }
    recorded = args.out / "settings.json"
    if recorded.is_file() and json.loads(recorded.read_text()) != settings:
        raise SystemExit(f"{args.out} holds a run with other settings ({recorded}): give another --out")
    atomic_write_json(recorded, settings)

    if args.stage in ("fold", "final"):
        held = args.fold if args.stage == "fold" else None
        if args.stage == "fold" and (held is None or not 0 <= held < args.folds):
            raise SystemExit(f"give the fold to hold out, 0 to {args.folds - 1}")
        train = [(p, base) for _, g, p, base in items if fold[g] != held]
        if args.residual:  # the matcher learns what the shipped reranker's other weights get wrong
            config.base = [base for _, base in train]
        start = time.time()
        matcher = fit_matcher([p for p, _ in train], config, progress=say)
        say(f"fitted in {time.time() - start:.0f} s")
        if held is not None:
            scores = {
                key: matcher.scores(p[0], p[1]) if choice_matters(p[2]) else None
                for key, g, p, _ in items
                if fold[g] == held
            }
            atomic_write_json(args.out / f"oof-{held}.json", scores)
            return
        (args.out / "model").mkdir(exist_ok=True)
        matcher.save(
            args.out / "model",
            {
                **{k: v for k, v in dataclasses.asdict(config).items() if k not in ("weights", "base")},
                "residual": args.residual,
                "questions": [str(p) for p in args.questions],
                "questions_sha256": [file_sha256(p) for p in args.questions],
                "candidates": f"as the users' reranker is shown them (kinds {sorted(kinds)})",
            },
        )
        return

    # weigh
    oof: dict[str, list[float] | None] = {}
    for k in range(args.folds):
        part = args.out / f"oof-{k}.json"
        if not part.is_file():
            raise SystemExit(f"{part} is missing: run the fold stage {k} first")
        oof.update(json.loads(part.read_text()))
    fit_problems = [p for path, beams in fit_sets for p in with_scores(beams, oof, path)]
    right = {w: sum(is_right_choice(weighing(shipped, w), p) for p in fit_problems) for w in WEIGHTS}
    best = max(WEIGHTS, key=lambda w: (right[w], -w))
    matters = [(features, credits) for features, credits in fit_problems if choice_matters(credits)]
    alone = sum(
        credits[max(range(len(features)), key=lambda k: (features[k][0][MATCH], -k))] >= 1
        for features, credits in matters
    )
    lines = [
        f"- fit questions: {len(fit_problems):,} ({len(args.questions)} files), {args.folds} folds by table, "
        f"layers {args.layers}, epochs {args.epochs}, seed {args.seed}"
        + (", fitted on top of the shipped reranker's other weights (`--residual`)" if args.residual else ""),
        f"- the new matcher alone chooses right for {alone:,} of the {len(matters):,} whose choice matters, out of"
        " fold (a candidate that does not read scores 0)",
        "- right choices out of fold by its weight (the shipped reranker's other weights): "
        + ", ".join(f"{w:g}: {right[w]:,}" for w in WEIGHTS),
        f"- chosen weight {best:g} (the shipped weighs the shared matcher {shipped.dense[MATCH]:g})",
    ]
    final = args.out / "model"
    command = "python bench/user_matcher_fit.py " + " ".join(sys.argv[1:])
    name = "user-matcher-fit" + ("-residual" if args.residual else "") + ("-refit" if args.refit_on else "")
    if not (final / MATCHER_RECORD).is_file():  # the out-of-fold figures alone
        lines.append(f"- no final matcher in {final}: nothing weighed or judged")
        say("\n".join(lines))
        write_result(name, header("A matcher of users' tables apart", command) + "\n".join(lines) + "\n")
        return
    matcher = load_matcher(final)
    if args.refit_on:
        # as the shipped users' reranker was made (`nsm rerank` from the model's `reranker.json`, on these
        # files), with the new matcher's out-of-fold scores in place of the shared matcher's
        prior = load_reranker(model)
        if prior is None:
            raise SystemExit(f"{model} has no reranker.json to refit from")
        if not set(args.refit_on) <= set(args.questions):
            raise SystemExit("--refit-on names files that --questions does not (their out-of-fold scores)")
        sets = [
            dataclasses.replace(beams, problems=with_scores(beams, oof, path))
            for path, beams in fit_sets
            if path in args.refit_on
        ]
        chosen = fit_beams(sets, shipped.world, l2s=(1e-3, 3e-3, 1e-2, 3e-2, 0.1), prior=prior, report=say)
        lines.append(
            f"- refitted from the model's reranker.json on {', '.join(map(str, args.refit_on))} with those "
            f"scores: L2 {chosen.fitted['l2']:g}, the new matcher weighs {chosen.dense[MATCH]:g}"
        )
    else:
        chosen = weighing(shipped, best)
        chosen.fitted = {
            **shipped.fitted,
            "matcher": "a matcher fitted on users' kinds of tables only, its weight chosen out of fold on "
            + ", ".join(map(str, args.questions)),
            "matcher_weights_right": {f"{w:g}": right[w] for w in WEIGHTS},
        }
    chosen.matcher = matcher
    written = args.out / ("refitted" if args.refit_on else "weighed")
    written.mkdir(exist_ok=True)
    chosen.save(written / USER_RERANKER_FILE)  # with the matcher beside it
    if args.judge:
        total_before = total_after = total_wins = total_losses = 0
        for path in args.judge:
            beams = load(args.cache, path, kinds)
            was = [is_right_choice(shipped, p) for p in beams.problems]
            judged = args.out / f"judged-{cached(args.cache, path).stem}.json"
            if judged.is_file():  # the final matcher's scores, computed once
                scores = json.loads(judged.read_text())
            else:
                scores = {
                    f"{path}#{i}": matcher.scores(p[0], p[1]) if choice_matters(p[2]) else None
                    for i, p in enumerate(match_problems(beams))
                }
                atomic_write_json(judged, scores)
            now = [is_right_choice(chosen, p) for p in with_scores(beams, scores, path)]
            wins = sum(b and not a for a, b in zip(was, now, strict=True))
            losses = sum(a and not b for a, b in zip(was, now, strict=True))
            total_before, total_after = total_before + sum(was), total_after + sum(now)
            total_wins, total_losses = total_wins + wins, total_losses + losses
            lines.append(
                f"- {path}: {beams.questions} questions, right choices {sum(was)} -> {sum(now)}"
                f" ({wins} won, {losses} lost)"
            )
        lines.append(
            f"- judged files in all: {total_before:,} -> {total_after:,} ({total_wins} won, {total_losses} lost)"
        )
    text = "\n".join(lines)
    say(text)
    write_result(name, header("A matcher of users' tables apart", command) + text + "\n")


if __name__ == "__main__":
    main()
