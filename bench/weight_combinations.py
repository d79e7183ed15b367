"""Weights of one or more runs alone, as an ensemble (beam probabilities of identical programs summed), and
averaged into one model; each with both votes (the most probable program, and the answer vote).

    python bench/weight_combinations.py --data data/wtq runs/wtq-1:best runs/wtq-1:average
    python bench/weight_combinations.py --data data/wtq-word --subsets 4 --cache /tmp/beams RUN1 RUN2 ...

A spec is RUN[:best|last|average] (default best). The weight mean needs runs of one model shape.
`--subsets K` scores every ensemble of 2 to K of the runs, with the bytes its run directories take, as
bundled (`--subsets` skips the weight mean). `--cache DIR` keeps each run's beams, keyed by the weights
file's sha256, split and beam, so that a later call decodes only the runs it has not seen.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
from pathlib import Path

import torch
from common import add_decoding_options, header, write_result

from nsmcli.fileio import atomic_write_json
from nsmcli.train.evaluate import (
    VOTES,
    choose,
    decode,
    load_run_model,
    pool_programs,
    resolve_split,
    weights_mismatch,
)
from nsmcli.train.questions import QuestionPool, default_kit
from nsmcli.train.rundir import WEIGHTS, RunDir
from nsmcli.worlds.tables.data.preprocess import load_dataset

Beams = dict[str, list[tuple[str, float, list, bool]]]  # question id -> (program, probability, answer, right)


def split_spec(spec: str) -> tuple[str, str]:
    run, _, which = spec.rpartition(":")
    if not run or which not in WEIGHTS:
        return spec, "best"
    return run, which


def beams_of(model, config: dict, dataset, split: str, beam: int) -> Beams:
    pool = QuestionPool(dataset, dataset.examples(split), config["limits"], model)
    out: Beams = {}
    for start in range(0, len(pool.order), 50):
        ids = pool.order[start : start + 50]
        questions = [pool.get(q) for q in ids]
        for qid, q, hyps in zip(ids, questions, decode(model, questions, beam), strict=True):
            example = pool.examples[qid]
            out[qid] = [
                (str(q.env.decode(t)), p, a, dataset.credit(example, q.env, t) >= 1.0) for t, p, a in hyps
            ]
    return out


def correct(beamsets: list[Beams], vote: str) -> int:
    """Questions answered right when the beams' probabilities of identical programs are summed."""
    right = 0
    for qid in beamsets[0]:
        totals: dict[str, float] = {}
        answers: dict[str, list] = {}
        ok: dict[str, bool] = {}
        for beams in beamsets:
            hyps = beams.get(qid, [])
            pool_programs(totals, answers, ((text, prob, answer) for text, prob, answer, _ in hyps))
            for text, _, _, is_right in hyps:
                ok.setdefault(text, is_right)
        if totals:
            right += ok[choose(totals, answers, vote)]
    return right


def weights_file(run: str, which: str) -> Path:
    rundir = RunDir(run)
    best = rundir.best_dir / "model.pt"
    if which == "best" and best.is_file():
        return best
    return rundir.path / "checkpoint" / ("average.pt" if which == "average" else "model.pt")


def cached_beams(cache: Path | None, run: str, which: str, split: str, beam: int, decode_beams) -> Beams:
    """The run's beams from `cache` when they were decoded before with these weights, else decoded now."""
    if cache is None:
        return decode_beams()
    digest = hashlib.sha256(weights_file(run, which).read_bytes()).hexdigest()[:16]
    path = cache / f"{digest}-{which}-{split}-beam{beam}.json"
    if path.is_file():
        return {q: [tuple(h) for h in hyps] for q, hyps in json.loads(path.read_text()).items()}
    beams = decode_beams()
    cache.mkdir(parents=True, exist_ok=True)
    # answers as their reprs: they are only compared (answer_key) and never shown
    atomic_write_json(
        path, {q: [[t, p, [repr(v) for v in a], r] for t, p, a, r in h] for q, h in beams.items()}
    )
    return {q: [(t, p, [repr(v) for v in a], r) for t, p, a, r in h] for q, h in beams.items()}


def bundled_bytes(run: str) -> int:
    """What the run takes as a bundled member: config, vocabulary and best weights in float16."""
    path = Path(run)
    files = [path / "config.json", path / "vocab.json", path / "best" / "info.json"]
    size = sum(f.stat().st_size for f in files if f.is_file())
    state, _ = RunDir(run).load_weights("best")
    return size + sum(v.numel() * (2 if v.is_floating_point() else v.element_size()) for v in state.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("specs", nargs="+", help="RUN[:best|last|average]")
    add_decoding_options(parser)
    parser.add_argument("--name", default="weight-combinations")
    parser.add_argument("--subsets", type=int, default=0, help="score every ensemble of 2 to K of the runs")
    parser.add_argument("--cache", type=Path, help="a directory that keeps each run's beams")
    args = parser.parse_args()
    dataset, kit = load_dataset(args.data), default_kit()
    rows: list[tuple[str, list[Beams]]] = []
    states = []
    split = model = config = None
    for spec in args.specs:
        run, which = split_spec(spec)
        model, config, _ = load_run_model(run, kit, which)
        split = split or resolve_split(dataset, args.split, config)
        beams = cached_beams(
            args.cache,
            run,
            which,
            split,
            args.beam,
            lambda model=model, config=config, split=split: beams_of(
                model, config, dataset, split, args.beam
            ),
        )
        rows.append((f"`{run}:{which}`", [beams]))
        if not args.subsets:
            states.append({k: v.detach().clone() for k, v in model.state_dict().items()})  # as loaded
    if args.subsets:
        singles = list(rows)
        for k in range(2, min(args.subsets, len(singles)) + 1):
            for group in itertools.combinations(range(len(singles)), k):
                mib = sum(bundled_bytes(split_spec(args.specs[i])[0]) for i in group) / 2**20
                label = " + ".join(singles[i][0] for i in group) + f" ({mib:.1f} MiB in float16)"
                rows.append((label, [singles[i][1][0] for i in group]))
    elif len(args.specs) > 1:
        rows.append(("ensemble of all", [b for _, bs in rows for b in bs]))
        mean = {
            k: torch.stack([s[k].float() for s in states]).mean(0) if torch.is_floating_point(v) else v
            for k, v in states[0].items()
        }
        if not weights_mismatch(model.state_dict(), mean) and all(set(s) == set(mean) for s in states):
            model.load_state_dict(mean)
            rows.append(("mean of all weights", [beams_of(model, config, dataset, split, args.beam)]))
    n = len(rows[0][1][0])
    lines = [f"{split}, {n} questions, beam {args.beam}:", ""]
    lines += ["| weights | " + " | ".join(f"{v} vote" for v in VOTES) + " |", "|---|" + "---:|" * len(VOTES)]
    for label, beamsets in rows:
        cells = [f"{100 * c / n:.1f}% ({c:,})" for c in (correct(beamsets, v) for v in VOTES)]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    command = "python bench/weight_combinations.py " + " ".join(sys.argv[1:])
    text = header("Weight combinations", command) + "\n".join(lines)
    print(text)
    write_result(args.name, text + "\n")


if __name__ == "__main__":
    main()
