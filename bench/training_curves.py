"""Dev accuracy against time for training runs, from their run directories (metrics.jsonl + config.json).
The tables go to bench/results/NAME.md and the curves (`nsm plot`'s figure) beside them as NAME.png.

The runs are made with `nsm train` (the commands are in BENCHMARKS.md); this script only reads what they
logged, so it can be re-run at any time. Time is the run's wall clock (set-up and evaluations included,
summed over resumes) and the CPU time of its main process: runs that shared the machine are compared
fairly on either axis when they shared it equally, and on CPU time otherwise.

    python bench/training_curves.py runs/cmp-mapo-s1 runs/cmp-mml-s1 runs/cmp-hard-em-s1 \
        --name training-wtq --marks 30,60,90,120
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from common import RESULTS, header, write_result

from nsmcli.errors import NsmError
from nsmcli.plot import draw_curves, read_runs


def read_run(path: Path) -> tuple[dict, list[dict]]:
    config = json.loads((path / "config.json").read_text(encoding="utf-8"))
    lines = [json.loads(x) for x in (path / "metrics.jsonl").read_text(encoding="utf-8").splitlines() if x]
    return config, lines


def best_by(lines: list[dict], limit: float, axis: str) -> tuple[float | None, int | None]:
    """Best dev accuracy evaluated at most `limit` along the axis (seconds, or steps), and its step."""
    best, step = None, None
    for m in lines:
        t = m.get(axis)
        if m.get("dev_accuracy") is None or t is None or t > limit:
            continue
        if best is None or m["dev_accuracy"] > best:
            best, step = m["dev_accuracy"], m["step"]
    return best, step


#: Settings `describe` always prints; any other hyper-parameter is printed where the runs differ in it.
SHOWN = {
    "train.algo",
    "train.seed",
    "train.questions_per_step",
    "train.learning_rate",
    "model.use_glove",
    "model.attention",
}


def settings(config: dict) -> dict[str, object]:
    """Every hyper-parameter of a run as `train.key` / `model.key`."""
    return {f"{part}.{k}": v for part in ("train", "model") for k, v in config.get(part, {}).items()}


def differing(configs: list[dict]) -> set[str]:
    """Hyper-parameters whose values are not the same in all the runs (missing counts as a value)."""
    every = [settings(c) for c in configs]
    keys = set().union(*every) - SHOWN
    return {k for k in keys if len({json.dumps(s.get(k), sort_keys=True) for s in every}) > 1}


def describe(path: Path, config: dict, keys: set[str] = frozenset()) -> str:
    train = config["train"]
    code = config.get("code", {}).get("git", "?")[:7]
    runtime = config.get("runtime", {})
    programs = Path(config["programs"]).name if config.get("programs") else "none"
    own = settings(config)
    extra = ", ".join(f"{k.split('.', 1)[1]} {own.get(k, 'not set')}" for k in sorted(keys))
    return (
        f"`{path.name}`: {train['algo']}, seed {train['seed']}, {train['questions_per_step']} questions/step, "
        f"lr {train['learning_rate']}, GloVe {config['model'].get('use_glove')}, programs {programs}, "
        f"attention {config['model'].get('attention', 'additive')}, "
        f"actors {runtime.get('actors', 'not recorded')}, code {code}"
        + (f"; differs in: {extra}" if extra else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("runs", nargs="+", type=Path)
    parser.add_argument("--name", default="training", help="result file: bench/results/NAME.md")
    parser.add_argument("--marks", default="30,60,90,120", help="minutes at which runs are compared")
    parser.add_argument(
        "--step-marks", default="", help="steps at which runs are also compared (e.g. 2000,4000,8000)"
    )
    args = parser.parse_args()
    marks = [float(x) for x in args.marks.split(",")]
    runs = []
    for path in args.runs:
        try:
            runs.append((path, *read_run(path)))
        except (OSError, ValueError) as exc:
            sys.exit(f"error: {path}: {exc}")
    out = [header("Training curves", "python bench/" + " ".join([Path(__file__).name, *sys.argv[1:]]))]
    keys = differing([c for _, c, _ in runs]) - {"train.max_minutes"}  # time limits: the tables show time
    out.append("Runs:\n" + "\n".join(f"- {describe(p, c, keys)}" for p, c, _ in runs) + "\n")
    for axis, label in (
        ("wall_seconds", "wall-clock"),
        # runs trained before the actors reported their CPU time (2026-11-30, 17:00 UTC) count the main only
        ("cpu_seconds", "CPU (actor processes included in runs trained since 2026-11-30 17:00 UTC)"),
    ):
        out.append(f"Best dev accuracy reached within N minutes of {label} time (step in brackets):\n")
        out.append("| run | " + " | ".join(f"{m:g} min" for m in marks) + " |")
        out.append("|---|" + "---:|" * len(marks))
        for path, _, lines in runs:
            cells = []
            reached = max((x.get(axis) or 0.0 for x in lines), default=0.0)
            for m in marks:
                best, step = best_by(lines, 60 * m, axis)
                if reached < 60 * m:
                    cells.append("not reached")
                else:
                    cells.append("-" if best is None else f"{100 * best:.1f}% ({step})")
            out.append(f"| {path.name} | " + " | ".join(cells) + " |")
        out.append("")
    step_marks = [int(x) for x in args.step_marks.split(",") if x]
    if step_marks:
        out.append("Best dev accuracy up to step N (a comparison that does not depend on machine load):\n")
        out.append("| run | " + " | ".join(f"step {n:,}" for n in step_marks) + " |")
        out.append("|---|" + "---:|" * len(step_marks))
        for path, _, lines in runs:
            cells = []
            last = max((m["step"] for m in lines), default=0)
            for n in step_marks:
                best, step = best_by(lines, n, "step")
                if last < n:
                    cells.append("not reached")
                else:
                    cells.append("-" if best is None else f"{100 * best:.1f}% ({step})")
            out.append(f"| {path.name} | " + " | ".join(cells) + " |")
        out.append("")
    for path, _, lines in runs:
        out.append(f"`{path.name}`, every evaluation:\n")
        out.append("| step | wall min | CPU min | dev accuracy | train reward | buffer coverage |")
        out.append("|---:|---:|---:|---:|---:|---:|")
        for m in lines:
            if m.get("dev_accuracy") is None:
                continue
            wall, cpu = m.get("wall_seconds"), m.get("cpu_seconds")
            out.append(
                f"| {m['step']} | {'-' if wall is None else f'{wall / 60:.1f}'} | "
                f"{'-' if cpu is None else f'{cpu / 60:.1f}'} | {100 * m['dev_accuracy']:.1f}% | "
                f"{m.get('train_reward') or 0:.3f} | {100 * m['buffer_coverage']:.1f}% |"
            )
        qps = [m["questions_per_second"] for m in lines if m.get("questions_per_second")]
        if qps:
            out.append(f"\nMedian training throughput: {sorted(qps)[len(qps) // 2]:.1f} questions/s.\n")
    figure = RESULTS / f"{args.name}.png"
    try:
        draw_curves(read_runs(args.runs), figure)
        out.insert(1, f"![dev accuracy, training reward and buffer coverage]({figure.name})\n")
    except NsmError as exc:  # e.g. matplotlib missing: the tables are still written
        print(f"no figure: {exc}", file=sys.stderr)
        figure = None
    path = write_result(args.name, "\n".join(out) + "\n")
    print(f"wrote {path}" + (f" and {figure}" if figure else ""))


if __name__ == "__main__":
    main()
