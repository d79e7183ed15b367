"""How often a WTQ program has an SQL form, and whether that SQL gives the program's answer.

    .venv/bin/python bench/sql_rendering.py [--data /work/shared/data/wtq] [--questions 300] [--walks 30]

Random programs: uniform random walks over the valid next tokens of real WTQ training questions (their
own entities), the space the parser decodes in. Each program with an SQL form (`program_to_sql`) is run by
nsm's SQL interpreter (`execute_sql`) and by sqlite3 (`sqlite_connection`: raw cell text), and the answers
are compared with the interpreter's as sets (cell text normalised as the string view is; numbers to 9
significant digits).
"""

from __future__ import annotations

import argparse
import random
import sqlite3
from pathlib import Path

from nsmcli.data.annotate import annotate_question
from nsmcli.data.readers import load_wtq_table
from nsmcli.data.values import normalize
from nsmcli.errors import GrammarError
from nsmcli.lang.interpreter import bind
from nsmcli.lang.sql import execute_sql, program_to_sql, sqlite_connection


def _answer_set(values: list, cells: bool) -> set:
    return {
        (normalize(v) if cells else v) if isinstance(v, str) else float(f"{float(v):.9g}")
        for v in values
        if v is not None
    }


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
    total = rendered = superlatives = ours_agree = sqlite_agree = 0
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
                sql = program_to_sql(program, table, language="wtq")
            except GrammarError:
                continue
            rendered += 1
            superlatives += "SELECT MAX(" in sql or "SELECT MIN(" in sql
            expected = _answer_set(env.execute(program).answer, cells=False)
            ours_agree += _answer_set(execute_sql(table, sql), cells=True) == expected
            try:
                sqlite_answer = _answer_set([r[0] for r in conn.execute(sql)], cells=True)
            except sqlite3.Error:
                sqlite_answer = None
            sqlite_agree += sqlite_answer == expected
    print(f"{total} random programs over {args.questions} questions of {args.split}")
    print(
        f"  with an SQL form: {rendered} ({rendered / total:.1%}); with a superlative subquery: {superlatives}"
    )
    print(f"  execute_sql gives the program's answer: {ours_agree}/{rendered} ({ours_agree / rendered:.1%})")
    print(
        f"  sqlite3 gives the program's answer:     {sqlite_agree}/{rendered} ({sqlite_agree / rendered:.1%})"
    )


if __name__ == "__main__":
    main()
