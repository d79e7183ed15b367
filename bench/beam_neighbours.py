"""Would the beam's neighbours answer either-or questions? For each finished program that keeps the rows
of two named things and reads a column of them ("which was bigger, A or B?" decoded as `(filter_str_contain_any
all_rows ["a" "b"] r.x-string) (hop v0 r.name-string)`), add the programs that pick one of the two by the
largest or smallest value of each number column, then fit the reranker as `nsm rerank` does on the
augmented beams (the added programs carry a tiny beam probability and a feature that says they were
added) and score dev.

    python bench/beam_neighbours.py --model wtq --data data/wtq-word   # bench/results/beam-neighbours-wtq.md
"""

from __future__ import annotations

import argparse
import re
import time

from common import header, write_result
from rerank_features import decode, fit_and_score

from nsmcli.train.rerank import candidate_features
from nsmcli.worlds.tables.data.preprocess import load_dataset

_PAIR_HOP = re.compile(
    r"^(\(filter_str_contain_any all_rows \[[^\]]+\] r\.\w+-string\)) \(hop v0 (r\.\w+-\w+)\)$"
)
ADDED_PROBABILITY = 1e-4


def neighbours(text: str, env) -> list[str]:  # noqa: ANN001
    m = _PAIR_HOP.match(text)
    if not m:
        return []
    keep, shown = m.groups()
    return [
        f"{keep} ({pick} v0 {column.property_name('number')}) (hop v1 {shown})"
        for column in env.table.columns
        if "number" in column.views
        for pick in ("argmax", "argmin")
    ]


def from_question(example, env) -> list[str]:  # noqa: ANN001
    """For a question naming two things with "or" between them: keep the rows of both in each string column
    that holds both, pick one by the largest or smallest value of each number column, show that column."""
    if " or " not in f" {example.question.text.lower()} ":
        return []
    named = [e.values[0] for e in example.question.entities if e.kind == "string" and e.values]
    named = [v for v in dict.fromkeys(named) if isinstance(v, str) and '"' not in v][:2]
    if len(named) < 2:
        return []
    out = []
    for column in env.table.columns:
        cells = column.views.get("string")
        if not cells or not all(any(v in str(c) for c in cells) for v in named):
            continue
        keep = (
            f'(filter_str_contain_any all_rows ["{named[0]}" "{named[1]}"] {column.property_name("string")})'
        )
        out += neighbours(f"{keep} (hop v0 {column.property_name('string')})", env)
    return out


def augmented(data, rows, with_question: bool = False):  # noqa: ANN001, ANN201
    """Per problem: (features, credits) of its beam plus the neighbours, and how many problems got any."""
    out, touched, reachable = [], 0, 0
    for example, env, finished, _, _, credits in rows:
        seen = {t for t, _, _ in finished}
        added = []
        sources = [neighbours(text, env) for text, _, _ in finished]
        if with_question:
            sources.append(from_question(example, env))
        for group in sources:
            for other in group:
                if other in seen:
                    continue
                seen.add(other)
                result = env.execute(other)
                if result.error is None:
                    added.append((other, ADDED_PROBABILITY, result.answer))
        candidates = list(finished) + added
        features = candidate_features(data.world, example, env, candidates)
        features = [
            (dense, sparse + (["added=pick_of_two"] if i >= len(finished) else []))
            for i, (dense, sparse) in enumerate(features)
        ]
        more = [data.credit(example, env, tuple(env.encode(t))) for t, _, _ in added]
        touched += bool(added)
        reachable += bool(added) and not any(c >= 1 for c in credits) and any(c >= 1 for c in more)
        out.append((features, list(credits) + more))
    return out, touched, reachable


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="wtq")
    ap.add_argument("--data", default="data/wtq-word")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    data = load_dataset(args.data)
    start = time.time()
    # the beams alone: this script adds its own programs (the world's proposals are the question-built ones)
    fitting = decode(args.model, data, "pristine-seen-tables", "random-split-1-train", args.workers, False)
    dev = decode(args.model, data, "random-split-1-dev", None, args.workers, False)
    n_dev = len(data.examples("random-split-1-dev"))
    lines = []
    for name, make in (
        ("the beam", lambda rows: ([(list(zip(d, f, strict=True)), c) for d, f, c in _plain(rows)], 0, 0)),
        ("the beam + pick-of-two neighbours", lambda rows: augmented(data, rows)),
        (
            "... + pick-of-two programs from the question's two names",
            lambda rows: augmented(data, rows, True),
        ),
    ):
        fit_problems, fit_touched, fit_reach = make(fitting)
        dev_problems, dev_touched, dev_reach = make(dev)
        held, right = fit_and_score(fit_problems, dev_problems, data.world)
        in_beam = sum(any(x >= 1 for x in c) for _, c in dev_problems)
        lines.append(
            f"| {name} | {held:,} | {right:,} ({right / n_dev:.1%}) | {in_beam:,} | {fit_touched:,} / {dev_touched:,} "
            f"| {fit_reach:,} / {dev_reach:,} |"
        )
        print(lines[-1], flush=True)
    command = f"python bench/beam_neighbours.py --model {args.model} --data {args.data}"
    markdown = header(f"Pick-of-two neighbours of the beam: `{args.model}`", command)
    markdown += (
        f"- reranker fitted on pristine-seen-tables over random-split-1-train's tables (held-out figure: 4 "
        f"folds at the chosen L2), scored on random-split-1-dev ({n_dev:,}); {time.time() - start:.0f} s\n\n"
        "| candidates | held out, reranked | dev, reranked | dev, right answer among them | problems with "
        "added programs (held out / dev) | of those, right only by an added one |\n"
        "|---|---:|---:|---:|---:|---:|\n" + "\n".join(lines) + "\n"
    )
    print(f"written to {write_result(f'beam-neighbours-{args.model}', markdown)}")


def _plain(rows):  # noqa: ANN001, ANN202
    from nsmcli.worlds.tables.rerank import rerank_features

    return [(dense, rerank_features(ex, env, cands), credits) for ex, env, cands, dense, _, credits in rows]


if __name__ == "__main__":
    main()
