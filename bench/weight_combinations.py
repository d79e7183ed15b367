"""Weights of one or more runs alone, as an ensemble (beam probabilities of identical programs summed), and
averaged into one model; each with both votes (the most probable program, and the answer vote).

    python bench/weight_combinations.py --data data/wtq runs/wtq-1:best runs/wtq-1:average

A spec is RUN[:best|last|average] (default best). The weight mean needs runs of one model shape.
"""

from __future__ import annotations

import argparse
import sys

import torch
from common import add_decoding_options, header, write_result

from nsmcli.train.evaluate import VOTES, choose, decode, load_run_model, resolve_split, weights_mismatch
from nsmcli.train.questions import QuestionPool, default_kit
from nsmcli.train.rundir import WEIGHTS
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
            out[qid] = [(str(q.env.decode(t)), p, a, bool(q.correct(a))) for t, p, a in hyps]
    return out


def correct(beamsets: list[Beams], vote: str) -> int:
    """Questions answered right when the beams' probabilities of identical programs are summed."""
    right = 0
    for qid in beamsets[0]:
        totals: dict[str, float] = {}
        answers: dict[str, list] = {}
        ok: dict[str, bool] = {}
        for beams in beamsets:
            for text, prob, answer, is_right in beams.get(qid, []):
                totals[text] = totals.get(text, 0.0) + prob
                answers.setdefault(text, answer)
                ok.setdefault(text, is_right)
        if totals:
            right += ok[choose(totals, answers, vote)]
    return right


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("specs", nargs="+", help="RUN[:best|last|average]")
    add_decoding_options(parser)
    parser.add_argument("--name", default="weight-combinations")
    args = parser.parse_args()
    dataset, kit = load_dataset(args.data), default_kit()
    rows: list[tuple[str, list[Beams]]] = []
    states = []
    split = model = config = None
    for spec in args.specs:
        run, which = split_spec(spec)
        model, config, _ = load_run_model(run, kit, which)
        split = split or resolve_split(dataset, args.split, config)
        rows.append((f"`{run}:{which}`", [beams_of(model, config, dataset, split, args.beam)]))
        states.append({k: v.detach().clone() for k, v in model.state_dict().items()})  # as loaded
    if len(args.specs) > 1:
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
