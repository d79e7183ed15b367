"""How often a WTQ program has an SQL form, how often that form is exact, and whether sqlite agrees.

    .venv/bin/python bench/sql_rendering.py [--data /work/shared/data/wtq] [--questions 300] [--walks 30]
    .venv/bin/python bench/sql_rendering.py --language wikisql [--data /work/shared/data/wikisql]

Random programs: uniform random walks over the valid next tokens of real WTQ training questions (their
own entities), the space the parser decodes in; with `--language wikisql`, of WikiSQL dev questions over
WikiSQL's tables (numeric columns REAL, as WikiSQL's database has them). Each program with an SQL form (`render_sql`) is run by
nsm's SQL interpreter (`execute_sql`) and by sqlite3 (`sqlite_connection`: raw cell text), and the answers
are compared with the interpreter's by the official answer check (`answers_agree`). Renderings are split
into exact ones (every column view, containment and projection verified in sqlite on the table) and
approximate ones; an exact rendering that sqlite does not agree with is a bug, and the first few are
printed.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
from pathlib import Path

from nsmcli.errors import GrammarError
from nsmcli.worlds.tables.data.annotate import annotate_question
from nsmcli.worlds.tables.data.readers import iter_wikisql_tables, load_wtq_table
from nsmcli.worlds.tables.lang.interpreter import bind
from nsmcli.worlds.tables.lang.sql import answers_agree, execute_sql, render_sql, sqlite_connection


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--language", choices=("wtq", "wikisql"), default="wtq")
    parser.add_argument("--data", type=Path, help="default: /work/shared/data/<language>")
    parser.add_argument("--split", help="default: random-split-1-train (wtq), dev (wikisql)")
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--walks", type=int, default=30)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    language = args.language
    data = args.data or Path(__file__).resolve().parents[2] / "shared" / "data" / language
    split = args.split or ("random-split-1-train" if language == "wtq" else "dev")
    keep_duplicates = language == "wikisql"
    if language == "wtq":
        with open(data / "data" / f"{split}.tsv", encoding="utf-8") as f:
            examples = [(q, c) for _, q, c, _ in (line.rstrip("\n").split("\t") for line in list(f)[1:])]

        def load(context: str):
            return load_wtq_table(data, context)
    else:
        tables = {t.id: t for t in iter_wikisql_tables(data / f"{split}.tables.jsonl")}
        with open(data / f"{split}.jsonl", encoding="utf-8") as f:
            examples = [(ex["question"], ex["table_id"]) for ex in map(json.loads, f)]
        load = tables.__getitem__
    rng = random.Random(args.seed)
    total = rendered = exact = superlatives = ours_agree = 0
    sqlite_agree = {True: 0, False: 0}
    shown = 0
    for question, context in rng.sample(examples, args.questions):
        table = load(context)
        env = bind(language, table, annotate_question(question, table).entities)
        conn = sqlite_connection(table)
        for _ in range(args.walks):
            state = env.initial_state()
            while not state.done:
                state = env.step(state, rng.choice(env.valid_tokens(state)))
            program = env.decode(state.tokens)
            total += 1
            try:
                rendering = render_sql(program, table, language=language)
            except GrammarError:
                continue
            sql = rendering.sql
            rendered += 1
            exact += rendering.exact
            superlatives += "(SELECT MAX(" in sql or "(SELECT MIN(" in sql
            expected = env.execute(program).answer
            ours_agree += answers_agree(expected, execute_sql(table, sql), keep_duplicates=keep_duplicates)
            try:
                sqlite_values = [r[0] for r in conn.execute(sql)]
                agrees = answers_agree(expected, sqlite_values, keep_duplicates=keep_duplicates)
            except sqlite3.Error:
                sqlite_values, agrees = None, False
            sqlite_agree[rendering.exact] += agrees
            if rendering.exact and not agrees and shown < 5:
                shown += 1
                print(f"  exact but differs: {context} {program} | {sql} | {expected} vs {sqlite_values}")
    approximate = rendered - exact
    print(f"{total} random {language} programs over {args.questions} questions of {split}")
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
