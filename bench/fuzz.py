"""Fuzzing at scale (issue 20): the targets of tests/test_fuzz.py (table readers on files, standard input
and loopback URLs, annotator, interpreter, `Parser.parse`, the CLI's parse and execute in-process) over
many more hostile inputs, counted per target.

Target: 0 internal errors and 0 tracebacks over at least 10,000 examples.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from common import ROOT, code_version, write_result

sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

from nsmcli.parser import Parser  # noqa: E402
from tests import fuzzing  # noqa: E402

#: Share of the examples each target gets: the parser and the CLI load and decode, so they get fewer.
SHARES = {
    "readers": 0.15,
    "stdin": 0.05,
    "url": 0.05,
    "annotator": 0.2,
    "interpreter": 0.25,
    "parser": 0.15,
    "cli": 0.15,
}
SHOWN_FAULTS = 3


def run_target(name: str, check, examples: int, seed_value: int) -> dict:
    counts = {"examples": 0, "ok": 0, "clean": 0, "internal": 0, "faults": []}

    @seed(seed_value)  # reproducible runs
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],  # count every input; shrinking would re-run the failing ones
        suppress_health_check=list(HealthCheck),
    )
    @given(fuzzing.STRATEGIES[name])
    def fuzz(case):
        counts["examples"] += 1
        try:
            counts[check(case)] += 1
        except fuzzing.Fault as fault:
            counts["internal"] += 1
            if len(counts["faults"]) < SHOWN_FAULTS:
                counts["faults"].append(f"{fault} <- {case!r}"[:600])

    fuzz()
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=10_000, help="examples over all targets together")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--targets", default=",".join(SHARES), help="comma-separated: " + ", ".join(SHARES))
    args = parser.parse_args()
    targets = [t for t in args.targets.split(",") if t]
    unknown = sorted(set(targets) - set(SHARES))
    if unknown:
        parser.error(f"unknown targets: {', '.join(unknown)}")
    model = Parser.load("wtq") if "parser" in targets else None
    checks = {
        "readers": fuzzing.check_reader,
        "stdin": fuzzing.check_stdin_reader,
        "url": fuzzing.check_url_reader,  # served by a loopback server on 127.0.0.1
        "annotator": fuzzing.check_annotator,
        "interpreter": fuzzing.check_interpreter,
        "parser": lambda case: fuzzing.check_parser(model, case),
        "cli": fuzzing.check_cli,
    }
    total_share = sum(SHARES[t] for t in targets)
    rows, faults, start = [], [], time.perf_counter()
    planned = {t: max(1, round(args.examples * SHARES[t] / total_share)) for t in targets}
    planned[targets[-1]] = max(1, args.examples - sum(planned[t] for t in targets[:-1]))  # exact total
    for name in targets:
        n = planned[name]
        began = time.perf_counter()
        counts = run_target(name, checks[name], n, args.seed)
        seconds = time.perf_counter() - began
        rows.append((name, counts, seconds))
        faults += [f"- {name}: {f}" for f in counts["faults"]]
        print(f"{name}: {counts['examples']} examples in {seconds:.0f} s", file=sys.stderr, flush=True)
    command = "python bench/fuzz.py " + " ".join(sys.argv[1:])
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    lines = [
        "## Fuzzing: hostile inputs end in success or one clean error\n",
        f"- command: `{command.strip()}`",
        f"- date: {time.strftime('%Y-%m-%d %H:%M %Z')}",
        f"- code: {code_version()}",
        f"- load average at the end (1, 5, 15 min): {load}",
        f"- wall time: {time.perf_counter() - start:.0f} s\n",
        "| target | examples | successes | clean errors | internal errors / tracebacks |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, c, _ in rows:
        lines.append(f"| {name} | {c['examples']:,} | {c['ok']:,} | {c['clean']:,} | {c['internal']:,} |")
    total = {k: sum(c[k] for _, c, _ in rows) for k in ("examples", "ok", "clean", "internal")}
    lines.append(
        f"| **all** | **{total['examples']:,}** | {total['ok']:,} | {total['clean']:,} | **{total['internal']:,}** |"
    )
    if faults:
        lines += ["", "First offending inputs (repr):", "", *faults]
    markdown = "\n".join(lines) + "\n"
    print(markdown)
    write_result("fuzz", markdown)


if __name__ == "__main__":
    main()
