"""How the beam's answer is chosen: the single most probable program (the original) against the answer whose
programs sum highest (nsm's default), and how often the right answer is anywhere in the beam.

    python bench/answer_vote.py --model wtq --data data/wtq --beam 5
"""

from __future__ import annotations

import argparse
import sys

from common import add_decoding_options, header, write_result

from nsmcli.train.evaluate import answer_key, choose, decode, load_run_model, resolve_split
from nsmcli.train.questions import QuestionPool, default_kit
from nsmcli.worlds.tables.data.preprocess import load_dataset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", default="wtq", help="a run directory or a bundled model name")
    add_decoding_options(parser)
    args = parser.parse_args()
    from nsmcli.parser import resolve_model

    dataset = load_dataset(args.data)
    model, config, _ = load_run_model(resolve_model(args.model), default_kit())
    split = resolve_split(dataset, args.split, config)
    pool = QuestionPool(dataset, dataset.examples(split), config["limits"], model)
    counts = {"program": 0, "answer": 0, "in beam": 0, "changed": 0, "became right": 0, "became wrong": 0}
    ids = pool.order
    for start in range(0, len(ids), 50):
        questions = [pool.get(q) for q in ids[start : start + 50]]
        for q, hyps in zip(questions, decode(model, questions, args.beam), strict=True):
            if not hyps:
                continue
            totals = {tokens: p for tokens, p, _ in hyps}
            answers = {tokens: answer for tokens, _, answer in hyps}
            right = {tokens: bool(q.correct(a)) for tokens, a in answers.items()}
            single, voted = choose(totals, answers, "program"), choose(totals, answers, "answer")
            counts["program"] += right[single]
            counts["answer"] += right[voted]
            counts["in beam"] += any(right.values())
            if answer_key(answers[single]) != answer_key(answers[voted]):
                counts["changed"] += 1
                counts["became right"] += right[voted] and not right[single]
                counts["became wrong"] += right[single] and not right[voted]
    n = len(ids)
    lines = [f"{split}, {n} questions, beam {args.beam}:", ""]
    lines += [f"- {key}: {value} ({100 * value / n:.1f}%)" for key, value in counts.items()]
    command = "python bench/answer_vote.py " + " ".join(sys.argv[1:])
    text = header(f"Answer vote ({args.model})", command) + "\n".join(lines)
    print(text)
    write_result(f"answer-vote-{dataset.language}-beam{args.beam}", text + "\n")


if __name__ == "__main__":
    main()
