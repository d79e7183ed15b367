"""The six Karel tasks of LEAPS x N seeds: our program search or training beside the published rows.

For each task and seed: the LEAPS figure (the best program's mean score on its 10 training states, the
paper's scale), the honest figure (the same program on the task's 1,000 fresh dev states), the program
evaluations used (one program on 10 states = 1) and the wall-clock seconds; then mean ± std over seeds and
the best seed. Published rows from karel.md §4 (LEAPS Table 3, its naive RNN, HPRL-PPO) are printed beside
them, and the zero-shot 100x100 test of LEAPS's Table 9 for the tasks it reports (our programs on
`--big-states` fresh 100x100 states, under the same 220-call budget).

`--algo hill-climbing` (the default) runs nsmcli.worlds.karel.search in this process, one run at a time.
Any other algorithm shells out to `python -m nsmcli train --env karel:TASK --algo ALGO --seed S --out DIR
--quiet` and `python -m nsmcli eval DIR --json`; a run that fails is reported in its row and the rest go on.

    OMP_NUM_THREADS=1 python bench/karel.py --seeds 1-5 --budget 65000 --out /tmp/karel-hc
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path

from common import header, write_result

from nsmcli.worlds.karel.dsl import parse
from nsmcli.worlds.karel.search import DEFAULT_BUDGET, SearchConfig, hill_climb
from nsmcli.worlds.karel.search import write_result as write_run
from nsmcli.worlds.karel.tasks import TASKS, dev_states

ORDER = ["stairclimber", "fourcorner", "topoff", "maze", "cleanhouse", "harvester"]
#: karel.md §4.1 (LEAPS Table 3) and §4.3 (HPRL Table 1): mean (std) over 5 seeds.
PUBLISHED = {
    "LEAPS (published)": [(1.00, 0.00), (0.45, 0.40), (0.81, 0.07), (1.00, 0.00), (0.18, 0.14), (0.45, 0.28)],
    "Naive RNN (LEAPS paper)": [(0.40, 0.49), (0.13, 0.15), (0.26, 0.27), (0.76, 0.43), (0.07, 0.09), (0.21, 0.25)],
    "HPRL-PPO (published)": [(1.00, 0.00)] * 6,
}  # fmt: skip
#: karel.md §4.2 (LEAPS Table 9): original size / zero-shot 100x100, for the tasks it reports.
PUBLISHED_BIG = {"stairclimber": (1.00, 1.00), "maze": (1.00, 1.00), "fourcorner": (0.45, 0.45),
                 "topoff": (0.81, 0.21), "harvester": (0.45, 0.00)}  # fmt: skip


def seed_list(text: str) -> list[int]:
    """`1-5` or `1,2,7`."""
    out: list[int] = []
    for part in text.split(","):
        if "-" in part:
            low, high = part.split("-")
            out += range(int(low), int(high) + 1)
        elif part.strip():
            out.append(int(part))
    return out


def run_hill_climbing(task: str, seed: int, budget: int, out: Path, reuse: bool = False) -> dict:
    config = SearchConfig(task, seed=seed, budget=budget)
    if reuse and (out / "best_program.json").is_file() and (out / "config.json").is_file():
        saved = json.loads((out / "config.json").read_text(encoding="utf-8"))
        if saved == {"algo": "hill-climbing", "env": f"karel:{task}", **asdict(config)}:
            return json.loads((out / "best_program.json").read_text(encoding="utf-8"))
    result = hill_climb(config)
    write_run(out, result, config)
    return result.to_json()


def run_trainer(
    task: str,
    seed: int,
    algo: str,
    out: Path,
    timeout: float,
    budget: int = 65_000,
    minutes: float = 15.0,
    settings: list[str] | None = None,
    reuse: bool = False,
    programs: Path | None = None,
) -> dict:
    """Train and evaluate through the CLI; the eval JSON is expected to carry the two figures. With `reuse`, a
    finished run already in `out` (its `best/` written) is only evaluated again."""
    started = time.perf_counter()
    if reuse and (out / "best").is_dir() and (out / "config.json").is_file():
        return evaluate_run(task, seed, out, timeout, time.perf_counter() - started)
    train = [sys.executable, "-m", "nsmcli", "train", "--env", f"karel:{task}", "--algo", algo, "--seed",
             str(seed), "--out", str(out), "--quiet", "--minutes", str(minutes),
             "--set", f"max_evaluations={budget}"]  # fmt: skip
    for item in settings or []:
        train += ["--set", item]
    if programs is not None:
        train += ["--programs", str(programs)]
    done = subprocess.run(train, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"train exit {done.returncode}: {(done.stderr or done.stdout).strip()[-300:]}")
    return evaluate_run(task, seed, out, timeout, time.perf_counter() - started)


def evaluate_run(task: str, seed: int, out: Path, timeout: float, wall: float) -> dict:
    done = subprocess.run([sys.executable, "-m", "nsmcli", "eval", str(out), "--json"], capture_output=True,
                          text=True, timeout=timeout)  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"eval exit {done.returncode}: {(done.stderr or done.stdout).strip()[-300:]}")
    report = json.loads(done.stdout)
    figures = {key: report.get(key) for key in ("leaps_score", "honest_score", "evaluations", "program")}
    if figures["leaps_score"] is None:
        raise RuntimeError(f"eval JSON has no leaps_score: keys {sorted(report)}")
    return {**figures, "wall_seconds": report.get("wall_seconds", wall), "seed": seed, "task": task}


def run_climb_then_train(task: str, seed: int, args: argparse.Namespace, out: Path) -> dict:
    """Hill climbing with `args.climb` evaluations fills the buffer (`nsm train --programs`), then the
    trainer spends what is left of the budget; evaluations and wall time are the two parts together."""
    climb_dir = out.with_name(out.name + "-climb")
    climb = run_hill_climbing(task, seed, args.climb, climb_dir, args.reuse)
    left = args.budget - climb["evaluations"]
    if left <= 0:
        return {**climb, "climb_leaps_score": climb["leaps_score"]}
    trained = run_trainer(task, seed, args.algo, out, args.timeout, left, args.minutes, args.set, args.reuse,
                          programs=climb_dir / "programs.jsonl")  # fmt: skip
    return {
        **trained,
        "evaluations": climb["evaluations"] + (trained.get("evaluations") or 0),
        "wall_seconds": climb["wall_seconds"] + trained["wall_seconds"],
        "climb_leaps_score": climb["leaps_score"],
    }


def mean_std(values: list[float]) -> str:
    if not values:
        return "—"
    std = statistics.pstdev(values) if len(values) > 1 else 0.0
    return f"{statistics.fmean(values):.2f} ± {std:.2f}"


def big_score(task: str, program: str, states: int, max_calls: int) -> float | None:
    """The program's mean score on fresh 100x100 states (tasks LEAPS reports), else None."""
    if task not in PUBLISHED_BIG:
        return None
    return dev_states(task, states, size=100, max_calls=max_calls).score(parse(program))


def table(
    results: dict[str, list[dict]], failures: dict[str, list[str]], algo: str, big: bool, big_calls: int = 220
) -> str:
    tasks = [t for t in ORDER if t in results]
    head = "| method | " + " | ".join(TASKS[t].title for t in tasks) + " |\n"
    rule = "|---" * (len(tasks) + 1) + "|\n"
    lines = ["### LEAPS figure (10 training states), mean ± std over seeds\n\n", head, rule]
    for name, row in PUBLISHED.items():
        cells = [f"{m:.2f} ± {s:.2f}" for t, (m, s) in zip(ORDER, row, strict=True) if t in tasks]
        lines.append(f"| {name} | " + " | ".join(cells) + " |\n")

    def row(label: str, key: str) -> str:
        cells = []
        for t in tasks:
            values = [r[key] for r in results[t] if r.get(key) is not None]
            cell = mean_std(values)
            if failures.get(t):
                cell += f" ({len(failures[t])} failed)"
            cells.append(cell)
        return f"| {label} | " + " | ".join(cells) + " |\n"

    lines.append(row(f"**{algo}** (ours)", "leaps_score"))
    if any(r.get("climb_leaps_score") is not None for rs in results.values() for r in rs):
        lines.append(row("its hill-climbing start (the buffer it was given)", "climb_leaps_score"))
    lines += ["\n### Honest figure (same program, 1,000 fresh states)\n\n", head, rule]
    lines.append(row(f"**{algo}** (ours)", "honest_score"))
    lines += ["\n### Per task: best seed, evaluations, wall time\n\n",
              "| task | seeds | best seed (LEAPS / honest) | honest / LEAPS | evaluations (mean, max) | "
              "wall s (mean, max) |\n", "|---|---|---|---|---|---|\n"]  # fmt: skip
    for t in tasks:
        rs = results[t]
        if not rs:
            lines.append(f"| {TASKS[t].title} | 0 | all failed: {failures.get(t, [''])[0]} | | | |\n")
            continue
        best = max(rs, key=lambda r: (r["leaps_score"], r.get("honest_score") or 0.0))
        leaps = statistics.fmean(r["leaps_score"] for r in rs)
        honest = [r["honest_score"] for r in rs if r.get("honest_score") is not None]
        ratio = f"{statistics.fmean(honest) / leaps:.3f}" if honest and leaps > 0 else "—"
        evals = [r["evaluations"] for r in rs if r.get("evaluations") is not None]
        walls = [r["wall_seconds"] for r in rs]
        evals_cell = f"{statistics.fmean(evals):,.0f}, {max(evals):,}" if evals else "—"
        lines.append(
            f"| {TASKS[t].title} | {len(rs)} | seed {best['seed']}: {best['leaps_score']:.2f} / "
            f"{(best.get('honest_score') or 0):.2f} | {ratio} | {evals_cell} | "
            f"{statistics.fmean(walls):.1f}, {max(walls):.1f} |\n"
        )
    if big and any(t in PUBLISHED_BIG for t in tasks):
        shown = [t for t in ORDER if t in tasks and t in PUBLISHED_BIG]
        lines += [f"\n### Zero-shot 100x100 (original size / 100x100; ours under a {big_calls:,}-call budget)\n\n",
                  "| method | " + " | ".join(TASKS[t].title for t in shown) + " |\n",
                  "|---" * (len(shown) + 1) + "|\n",
                  "| LEAPS (published) | " + " | ".join(f"{PUBLISHED_BIG[t][0]:.2f} / {PUBLISHED_BIG[t][1]:.2f}"
                                                       for t in shown) + " |\n"]  # fmt: skip
        cells = []
        for t in shown:
            small = [r["leaps_score"] for r in results[t]]
            large = [r["big_score"] for r in results[t] if r.get("big_score") is not None]
            cells.append(f"{statistics.fmean(small):.2f} / {statistics.fmean(large):.2f}" if large else "—")
        lines.append(f"| **{algo}** (ours) | " + " | ".join(cells) + " |\n")
    lines.append("\n### Runs\n\n| task | seed | LEAPS | honest | evaluations | wall s | program |\n")
    lines.append("|---|---|---|---|---|---|---|\n")
    for t in tasks:
        for r in results[t]:
            honest = "—" if r.get("honest_score") is None else f"{r['honest_score']:.3f}"
            evals = "—" if r.get("evaluations") is None else f"{r['evaluations']:,}"
            lines.append(f"| {TASKS[t].title} | {r['seed']} | {r['leaps_score']:.3f} | {honest} | {evals} | "
                         f"{r['wall_seconds']:.1f} | `{r.get('program', '')}` |\n")  # fmt: skip
        for failure in failures.get(t, []):
            lines.append(f"| {TASKS[t].title} | | failed | | | | {failure} |\n")
    return "".join(lines)


def interpreter_speed(programs: int) -> str:
    """Program evaluations per second (one random program on a task's 10 training states): programs drawn
    by the hill climber's sampler with a fixed seed, compiled and run once each."""
    from nsmcli.worlds.karel.search import HillClimber

    lines = ["| task | programs | evaluations/s (compile + 10 states) | mean actions per state |\n",
             "|---|---|---|---|\n"]  # fmt: skip
    for task in ORDER:
        climber = HillClimber(SearchConfig(task, seed=0))
        sample = [climber.random_program() for _ in range(programs)]
        started = time.perf_counter()
        for program in sample:
            climber.states.score(program)
        seconds = time.perf_counter() - started
        actions = statistics.fmean(run.actions for p in sample[:200] for _, run in climber.states.runs(p))
        lines.append(f"| {TASKS[task].title} | {programs:,} | {programs / seconds:,.0f} | {actions:.1f} |\n")
    return "".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tasks", default=",".join(ORDER), help="comma-separated task names")
    parser.add_argument("--seeds", default="1-5", help="e.g. 1-5 or 1,3")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="program evaluations per run")
    parser.add_argument("--algo", default="hill-climbing", help="hill-climbing, or an nsm train --algo")
    parser.add_argument("--out", type=Path, default=None, help="a directory for the runs (TASK-seedS)")
    parser.add_argument(
        "--big-states", type=int, default=100, help="100x100 states per zero-shot test (0: skip)"
    )
    parser.add_argument("--big-calls", type=int, default=220, help="call budget of the 100x100 test")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds per train or eval command")
    parser.add_argument("--minutes", type=float, default=15.0, help="wall-clock limit per training run")
    parser.add_argument(
        "--set", action="append", default=[], help="a training setting key=value (repeatable)"
    )
    parser.add_argument("--climb", type=int, default=0, help="with a trainer --algo: hill climbing with this "
                        "many evaluations first fills its buffer (the rest of --budget is the trainer's)")  # fmt: skip
    parser.add_argument("--name", default=None, help="bench/results/NAME.md (default karel-ALGO)")
    parser.add_argument("--reuse", action="store_true", help="keep runs already in --out with these settings")
    parser.add_argument("--speed", type=int, default=0, help="only time the interpreter on N random programs")
    args = parser.parse_args()
    if args.speed:
        command = "python bench/karel.py " + " ".join(sys.argv[1:])
        markdown = header("Karel interpreter speed", command) + interpreter_speed(args.speed)
        print(markdown)
        print(f"written to {write_result('karel-interpreter', markdown)}", file=sys.stderr)
        return
    if args.out is None:
        parser.error("--out is required (a directory for the runs)")
    tasks = [t.strip().lower() for t in args.tasks.split(",") if t.strip()]
    unknown = [t for t in tasks if t not in TASKS]
    if unknown:
        parser.error(f"unknown tasks {unknown}; choose from {', '.join(ORDER)}")
    seeds = seed_list(args.seeds)
    results: dict[str, list[dict]] = {t: [] for t in tasks}
    failures: dict[str, list[str]] = {}
    for task in tasks:
        for seed in seeds:
            out = args.out / f"{task}-seed{seed}"
            try:
                if args.algo == "hill-climbing":
                    record = run_hill_climbing(task, seed, args.budget, out, args.reuse)
                elif args.climb:
                    record = run_climb_then_train(task, seed, args, out)
                else:
                    record = run_trainer(task, seed, args.algo, out, args.timeout, args.budget, args.minutes,
                                         args.set, args.reuse)  # fmt: skip
                if args.big_states and record.get("program"):
                    record["big_score"] = big_score(task, record["program"], args.big_states, args.big_calls)
            except Exception as exc:  # a failed run is a row of the report, not the end of the benchmark
                failures.setdefault(task, []).append(f"seed {seed}: {type(exc).__name__}: {exc}")
                print(f"{task} seed {seed}: FAILED {exc}", file=sys.stderr, flush=True)
                continue
            results[task].append(record)
            honest = record.get("honest_score")
            print(f"{task} seed {seed}: LEAPS {record['leaps_score']:.3f} honest "
                  f"{'—' if honest is None else f'{honest:.3f}'} evaluations {record.get('evaluations')} "
                  f"{record['wall_seconds']:.1f} s", file=sys.stderr, flush=True)  # fmt: skip
    command = "python bench/karel.py " + " ".join(sys.argv[1:])
    algo = f"{args.algo} after {args.climb:,} evaluations of hill climbing" if args.climb else args.algo
    markdown = header(f"Karel (LEAPS tasks), {algo}", command) + table(results, failures, algo,
                                                                       args.big_states > 0, args.big_calls)  # fmt: skip
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "karel.md").write_text(markdown, encoding="utf-8")
    (args.out / "karel.json").write_text(json.dumps({"results": results, "failures": failures}, indent=2))
    path = write_result(args.name or f"karel-{args.algo}", markdown)
    print(markdown)
    print(f"written to {path} and {args.out / 'karel.md'}", file=sys.stderr)


if __name__ == "__main__":
    main()
