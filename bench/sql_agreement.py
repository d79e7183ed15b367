"""Agreement of `execute_wikisql_sql` with sqlite3 on WikiSQL gold queries, and its speed.

    .venv/bin/python bench/sql_agreement.py [--data /work/shared/data/wikisql] [--split dev] [--split train]

Each table is loaded into an in-memory sqlite3 database (`sqlite_connection`); the gold query is written as
WikiSQL's dbengine wrote it (`pylower(col) = pylower(?)` on text, numbers on REAL columns) and both answers
are compared after dropping NULLs and rounding numbers to 9 significant digits. `--ascii-lower` uses
sqlite's own `lower()`, which folds ASCII only, to count the queries that need Unicode case folding.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from nsmcli.worlds.tables.data.readers import iter_wikisql_tables
from nsmcli.worlds.tables.lang.sql import execute_wikisql_sql, sqlite_connection, wikisql_sqlite_query


def _norm(values: list) -> list:
    return [float(f"{float(v):.9g}") if isinstance(v, int | float) else v for v in values if v is not None]


def run(data: Path, split: str, lower: str) -> None:
    start = time.perf_counter()
    tables = {t.id: t for t in iter_wikisql_tables(data / f"{split}.tables.jsonl")}
    loaded = time.perf_counter()
    with open(data / f"{split}.jsonl", encoding="utf-8") as f:
        examples = [json.loads(line) for line in f if line.strip()]
    connections = {}
    agree, ours_time, shown = 0, 0.0, 0
    for ex in examples:
        table = tables[ex["table_id"]]
        conn = connections.get(table.id) or connections.setdefault(table.id, sqlite_connection(table))
        query, params = wikisql_sqlite_query(table, ex["sql"], lower)
        try:
            ref = [r[0] for r in conn.execute(query, params)]
        except ValueError:  # a condition value with no number: WikiSQL crashed, we match nothing
            ref = []
        t0 = time.perf_counter()
        ours = execute_wikisql_sql(table, ex["sql"])
        ours_time += time.perf_counter() - t0
        if _norm(ours) == _norm(ref):
            agree += 1
        elif shown < 5:
            shown += 1
            print(f"  differs: {ex['table_id']} {ex['sql']} ours={ours[:3]} sqlite={ref[:3]}")
    print(
        f"{split}: {agree}/{len(examples)} agree with sqlite3 ({lower}); tables loaded in "
        f"{loaded - start:.1f}s; execute_wikisql_sql {1e6 * ours_time / max(len(examples), 1):.0f} us/query"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared/data/wikisql"
    )
    parser.add_argument("--split", action="append", help="dev (default), train")
    parser.add_argument("--ascii-lower", action="store_true", help="use sqlite's ASCII-only lower()")
    args = parser.parse_args()
    for split in args.split or ["dev"]:
        run(args.data, split, "lower" if args.ascii_lower else "pylower")


if __name__ == "__main__":
    main()
