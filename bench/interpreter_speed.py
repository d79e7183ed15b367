"""Interpreter throughput on real WTQ tables.

A fixed set of programs: for the first N questions of random-split-1-train (annotated as `nsm preprocess`
does), 10 random walks over the valid tokens with seed 0. Measured:
- valid-next-token computations per second with the per-prefix cache cleared (every prefix of every
  program; the first pass also builds the per-table substring masks, later passes reuse them);
- the same through the per-prefix cache (what replaying buffer programs costs);
- complete program executions per second (token by token through `step`, no valid-token computation).
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
import time

from common import DATA, header, write_result

from nsmcli.worlds.tables.data.annotate import annotate_question
from nsmcli.worlds.tables.data.evaluate import split_tsv_list
from nsmcli.worlds.tables.data.readers import load_wtq_table
from nsmcli.worlds.tables.lang.interpreter import bind


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--walks", type=int, default=10)
    args = parser.parse_args()
    wtq = DATA / "wtq"
    with open(wtq / "data" / "random-split-1-train.tsv", encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))[1 : args.questions + 1]
    tables: dict = {}
    envs = []
    for qid, text, context, _ in rows:
        if context not in tables:
            tables[context] = load_wtq_table(wtq, context)
        question = annotate_question(split_tsv_list(text)[0], tables[context], qid=qid)
        envs.append(bind("wtq", tables[context], question.entities))

    rng = random.Random(0)
    programs = []
    for env in envs:
        for _ in range(args.walks):
            state = env.initial_state()
            while not state.done:
                state = env.step(state, rng.choice(env.valid_tokens(state)))
            programs.append((env, state.tokens))
    # the states of every prefix, built once, so the timings below measure only the valid-token work
    states = [(env, env.run(tokens[:i])) for env, tokens in programs for i in range(len(tokens))]

    def valid_pass(fresh: bool) -> float:
        if fresh:
            for env in envs:
                env._cache.clear()
        start = time.perf_counter()
        for env, state in states:
            env.valid_tokens(state)
        return time.perf_counter() - start

    first = valid_pass(True)  # table-level caches (substring masks) still cold
    uncached = min(valid_pass(True) for _ in range(3))
    valid_pass(True)  # fill the cache
    cached = min(valid_pass(False) for _ in range(3))
    start = time.perf_counter()
    for _ in range(3):
        for env, tokens in programs:
            env.run(tokens)
    executions = 3 * len(programs) / (time.perf_counter() - start)
    n = len(states)
    lines = [
        f"- {len(envs)} questions, {len(tables)} tables, {len(programs)} programs, {n} prefixes",
        f"- valid-next-token computations per second, first pass (per-table caches cold): {n / first:,.0f}",
        f"- valid-next-token computations per second (per-prefix cache cleared): {n / uncached:,.0f}",
        f"- valid-next-token lookups per second (per-prefix cache): {n / cached:,.0f}",
        f"- complete program executions per second: {executions:,.0f}",
        "- single process, one core; best of 3 passes",
    ]
    command = "python bench/interpreter_speed.py " + " ".join(sys.argv[1:])
    text = header("Interpreter throughput (WTQ)", command.strip()) + "\n".join(lines) + "\n"
    print(text)
    write_result("interpreter", text)


if __name__ == "__main__":
    main()
