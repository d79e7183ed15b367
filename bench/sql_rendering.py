"""How often a WTQ program has an SQL form, how often that form is exact, and whether sqlite agrees.

    .venv/bin/python bench/sql_rendering.py [--data /work/shared/data/wtq] [--questions 300] [--walks 30]

Random programs: uniform random walks over the valid next tokens of real WTQ training questions (their
own entities), the space the parser decodes in. Each program with an SQL form (`render_sql`) is run by
nsm's SQL interpreter (`execute_sql`) and by sqlite3 (`sqlite_connection`: raw cell text), and the answers
are compared with the interpreter's by the official answer check (`answers_agree`). Renderings are split
into exact ones (every column view, containment and projection verified in sqlite on the table) and
approximate ones; an exact rendering that sqlite does not agree with is a bug, and the first few are
printed.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
from pathlib import Path

from nsmcli.data.annotate import annotate_question
from nsmcli.data.readers import load_wtq_table
from nsmcli.errors import GrammarError
from nsmcli.lang.interpreter import bind
from nsmcli.lang.sql import answers_agree, execute_sql, render_sql, sqlite_connection


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared/data/wtq")
    parser.add_argument("--split", default="random-split-1-train")
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--walks", type=int, default=30)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    with open(args.data / "data" / f"{args.split}.tsv", encoding="utf-8") as f:
        examples = [line.rstrip("\n").split("\t") for line in f][1:]
    rng = random.Random(args.seed)
    total = rendered = exact = superlatives = ours_agree = 0
    sqlite_agree = {True: 0, False: 0}
    shown = 0
    for _, question, context, _ in rng.sample(examples, args.questions):
        table = load_wtq_table(args.data, context)
        env = bind("wtq", table, annotate_question(question, table).entities)
        conn = sqlite_connection(table)
        for _ in range(args.walks):
            state = env.initial_state()
            while not state.done:
                state = env.step(state, rng.choice(env.valid_tokens(state)))
            program = env.decode(state.tokens)
            total += 1
            try:
                rendering = render_sql(program, table, language="wtq")
            except GrammarError:
                continue
            sql = rendering.sql
            rendered += 1
            exact += rendering.exact
            superlatives += "SELECT MAX(" in sql or "SELECT MIN(" in sql
            expected = env.execute(program).answer
            ours_agree += answers_agree(expected, execute_sql(table, sql), keep_duplicates=False)
            try:
                sqlite_values = [r[0] for r in conn.execute(sql)]
                agrees = answers_agree(expected, sqlite_values, keep_duplicates=False)
            except sqlite3.Error:
                sqlite_values, agrees = None, False
            sqlite_agree[rendering.exact] += agrees
            if rendering.exact and not agrees and shown < 5:
                shown += 1
                print(f"  exact but differs: {context} {program} | {sql} | {expected} vs {sqlite_values}")
    approximate = rendered - exact
    print(f"{total} random programs over {args.questions} questions of {args.split}")
    print(
        f"  with an SQL form: {rendered} ({rendered / total:.1%}); with a superlative subquery: {superlatives}"
    )
    print(
        f"  exact renderings: {exact} ({exact / total:.1%} of programs, {exact / rendered:.1%} of rendered)"
    )
    print(f"  execute_sql gives the program's answer: {ours_agree}/{rendered} ({ours_agree / rendered:.1%})")
    print(
        f"  sqlite3 gives the program's answer, exact renderings: {sqlite_agree[True]}/{exact}"
        f" ({sqlite_agree[True] / max(exact, 1):.1%})"
    )
    print(
        f"  sqlite3 gives the program's answer, approximate renderings: {sqlite_agree[False]}/{approximate}"
        f" ({sqlite_agree[False] / max(approximate, 1):.1%})"
    )


if __name__ == "__main__":
    main()
