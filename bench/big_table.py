"""Time and memory of `nsm parse` on a large table of unique cells (issue 20: a 100,000 x 10 table must
parse within 10 s of CPU and 2 GB).

The table is generated from a seed: even columns hold numbers (integers and decimals), odd columns words of
letters, every cell distinct, so typing each distinct text once gains nothing. The command runs as a child
process; its user+system CPU time and peak resident memory come from the kernel (wait4), and `--profile`
prints where an in-process load of the table spends its time instead.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import string
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from common import ROOT, code_version, write_result

QUESTION = "which col1 has the largest col0?"


def write_table(path: Path, rows: int, cols: int, seed: int, kind: str = "plain") -> None:
    """`plain`: numbers and lower-case words; `mixed`: the cells user tables hold that need reading one by
    one (money, percentages, signed and grouped numbers, ISO and month-name dates, capitalised and accented
    words with numbers in them)."""
    rng = random.Random(seed)
    seen: set[str] = set()

    def unique(make) -> str:
        while True:
            text = make()
            if text not in seen:
                seen.add(text)
                return text

    def number() -> str:
        if rng.random() < 0.5:
            return str(rng.randrange(10**7))
        return f"{rng.randrange(10**5)}.{rng.randrange(100):02d}"

    def word() -> str:
        return "".join(rng.choices(string.ascii_lowercase, k=rng.randint(6, 10)))

    months = ["Jan.", "Feb.", "Mar.", "April", "May", "June", "July", "Aug.", "Sept.", "Oct.", "Nov.", "Dec."]

    def mixed(column: int) -> Callable[[], str]:
        return [
            lambda: f"${rng.randrange(10**6):,}.{rng.randrange(100):02d}",
            lambda: f"{rng.randrange(-(10**6), 10**6) / 100}%",
            lambda: f"{rng.randrange(1000, 3000)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            lambda: f"{rng.choice(months)} {rng.randint(1, 28)}, {rng.randrange(1000, 3000)}",
            lambda: f"{word().capitalize()} São {rng.randrange(10**5)}",
        ][column % 5]

    makers = [mixed(c) if kind == "mixed" else number if c % 2 == 0 else word for c in range(cols)]
    with open(path, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow([f"col{c}" for c in range(cols)])
        for _ in range(rows):
            out.writerow([unique(make) for make in makers])


def measure(table: Path) -> tuple[int, float, float, float]:
    """(exit code, CPU seconds, wall seconds, peak resident GiB) of `nsm parse` on `table`."""
    command = [sys.executable, "-m", "nsmcli", "parse", QUESTION, str(table), "--json"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    return os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 2**20


def profile(table: Path) -> None:
    import cProfile
    import pstats

    from nsmcli.worlds.tables.data.readers import load_table

    profiler = cProfile.Profile()
    profiler.runcall(load_table, table)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--cols", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--kind", choices=("plain", "mixed"), default="plain", help="what the cells hold")
    parser.add_argument("--table", type=Path, help="where to write the table (default: a temporary file)")
    parser.add_argument("--profile", action="store_true", help="profile load_table in-process instead")
    args = parser.parse_args()
    table = (
        args.table
        or Path(os.environ.get("TMPDIR", "/tmp")) / f"nsm-big-{args.kind}-{args.rows}x{args.cols}.csv"
    )
    write_table(table, args.rows, args.cols, args.seed, args.kind)
    print(
        f"{table}: {args.rows} x {args.cols}, {table.stat().st_size / 2**20:.1f} MiB, code {code_version()}"
    )
    if args.profile:
        profile(table)
        return
    code, cpu, wall, peak = measure(table)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    line = f"exit {code}; CPU {cpu:.1f} s; wall {wall:.1f} s; peak resident {peak:.2f} GiB"
    print(f"{line}; load {load}")
    markdown = (
        f"## nsm parse on a {args.rows:,} x {args.cols} table of unique cells ({args.kind})\n\n"
        f"- command: `python bench/big_table.py --rows {args.rows} --cols {args.cols} --seed {args.seed} "
        f"--kind {args.kind}`\n"
        f"- date: {time.strftime('%Y-%m-%d %H:%M %Z')}\n- code: {code_version()}\n"
        f"- load average at the end (1, 5, 15 min): {load}\n- question: {QUESTION!r}\n\n{line}\n"
    )
    suffix = "" if args.kind == "plain" else f"-{args.kind}"
    write_result(f"big-table-{args.rows}x{args.cols}{suffix}", markdown)


if __name__ == "__main__":
    main()
