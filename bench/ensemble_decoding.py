"""An ensemble decoded in one beam (`ProgramModel.ensemble_beam_search`, what nsm ships) against the original's
pooling of the members' separate beams (MAPO §6.4): accuracy with the answer vote, and decoding CPU time per
question, one question at a time as `nsm parse` decodes, on one thread. The one beam is timed twice: with
members of one shape stepped as one (`StackedDecoders`, what nsm ships) and one member at a time.

    python bench/ensemble_decoding.py --data data/wtq-word --split random-split-1-dev examples/models/wtq
"""

from __future__ import annotations

import argparse
import time

import torch
from common import header, write_result

from nsmcli.model import parser as model_parser
from nsmcli.train.evaluate import (
    choose,
    decode,
    decode_ensemble,
    load_run_model,
    pool_programs,
    resolve_split,
)
from nsmcli.train.questions import QuestionPool, default_kit
from nsmcli.train.rundir import run_members
from nsmcli.worlds.tables.data.preprocess import load_dataset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", required=True)
    parser.add_argument("--split", default="dev")
    parser.add_argument("--beam", type=int, default=5)
    parser.add_argument("--limit", type=int, default=0, help="the first N questions of the split (0: all)")
    parser.add_argument("runs", nargs="+", help="run directories or one ensemble directory")
    args = parser.parse_args()
    torch.set_num_threads(1)
    dataset = load_dataset(args.data)
    kit = default_kit()
    runs = [m for r in args.runs for m in run_members(r)]
    loaded = [load_run_model(run, kit)[:2] for run in runs]
    split = resolve_split(dataset, args.split, loaded[0][1])
    examples = dataset.examples(split)[: args.limit or None]
    pools = [QuestionPool(dataset, examples, config["limits"], model) for model, config in loaded]
    models = [model for model, _ in loaded]
    one_at_a_time = "one beam, one member at a time"
    right = {"pooled": 0, "one beam": 0, one_at_a_time: 0}
    cpu = {"pooled": 0.0, "one beam": 0.0, one_at_a_time: 0.0}
    stacked = model_parser._StackedMembers.of
    for qid in pools[0].order:
        questions = [[pool.get(qid)] for pool in pools]  # contexts (and encoder vectors) built before timing
        env, example = questions[0][0].env, pools[0].examples[qid]
        start = time.thread_time()
        separate = [decode(m, q, args.beam)[0] for m, q in zip(models, questions, strict=True)]
        cpu["pooled"] += time.thread_time() - start
        start = time.thread_time()
        joint = decode_ensemble(models, questions, args.beam)[0]
        cpu["one beam"] += time.thread_time() - start
        model_parser._StackedMembers.of = classmethod(lambda cls, *a: None)  # type: ignore[method-assign]
        start = time.thread_time()
        each = decode_ensemble(models, questions, args.beam)[0]
        cpu[one_at_a_time] += time.thread_time() - start
        model_parser._StackedMembers.of = stacked  # type: ignore[method-assign]
        for name, beams in (("pooled", separate), ("one beam", [joint]), (one_at_a_time, [each])):
            totals: dict[str, float] = {}
            answers: dict[str, list] = {}
            for found in beams:
                pool_programs(totals, answers, ((str(env.decode(t)), p, a) for t, p, a in found))
            if totals:
                text = choose(totals, answers, "answer")
                right[name] += dataset.credit(example, env, tuple(env.encode(text))) >= 1.0
    n = len(pools[0].order)
    lines = [
        f"{split}, {n} questions, beam {args.beam}, members: {', '.join(f'`{r}`' for r in runs)}",
        "",
        "| decoding | right | decoding CPU per question |",
        "|---|---:|---:|",
        *(
            f"| {name} | {right[name]:,} ({100 * right[name] / max(1, n):.1f}%) | "
            f"{1000 * cpu[name] / max(1, n):.1f} ms |"
            for name in right
        ),
    ]
    command = "python bench/ensemble_decoding.py " + " ".join(
        [f"--data {args.data}", f"--split {args.split}", f"--beam {args.beam}"]
        + ([f"--limit {args.limit}"] if args.limit else [])
        + args.runs
    )
    text = header("Ensemble decoding: one beam against pooled beams", command) + "\n".join(lines) + "\n"
    print(text)
    print(f"written to {write_result('ensemble-decoding', text)}")


if __name__ == "__main__":
    main()
