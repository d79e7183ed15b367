"""`nsm train`: load -> `nsmcli.train.loop.train` -> render."""

from __future__ import annotations

from pathlib import Path

import typer

from nsmcli.cli.output import print_json, progress_bar, safe, stderr, stdout
from nsmcli.train.config import ALGOS, ConfigError


def train(
    preprocessed: Path = typer.Argument(
        None, metavar="PREPROCESSED", help="A directory written by nsm preprocess (or give --env)."
    ),
    env: str = typer.Option(
        None, "--env", help="A generated world instead of a dataset: karel:TASK (e.g. karel:harvester)."
    ),
    programs: Path = typer.Option(
        None, "--programs", help="Programs found by nsm explore (JSONL); they pre-fill the buffer."
    ),
    out: Path = typer.Option(..., "--out", help="Run directory (config, weights, buffer, metrics, best/)."),
    algo: str = typer.Option("mapo", "--algo", help=f"Objective: {', '.join(ALGOS)}."),
    mapo: bool = typer.Option(False, "--mapo", help="Same as --algo mapo (the default)."),
    seed: int = typer.Option(0, "--seed", help="Every random draw derives from (seed, step, example ids)."),
    steps: int = typer.Option(None, "--steps", help="Optimizer steps (default: the preset's; WTQ 25000)."),
    minutes: float = typer.Option(
        None,
        "--minutes",
        help="Stop after this much wall-clock time (evaluations included); evaluate once more.",
    ),
    device: str = typer.Option(
        "cpu", "--device", help="Learner device: cpu or cuda (sampling stays on CPU)."
    ),
    actors: int = typer.Option(0, "--actors", help="Sample in N actors (0: in the learner's process)."),
    backend: str = typer.Option(
        None,
        "--backend",
        help="Where actors sample: inline, processes or ray (default: inline without --actors, else processes).",
    ),
    address: str = typer.Option(
        None,
        "--address",
        help="With --backend ray: auto (this machine's cluster) or ray://HOST:PORT (default: a local Ray).",
    ),
    resume: bool = typer.Option(
        False, "--resume", help="Continue the run in --out from its last checkpoint."
    ),
    init: str = typer.Option(
        None,
        "--init",
        help="Start from a trained run or bundled model (wtq-glove, wikisql-glove): its model settings, vocabulary "
        "and best weights (fine-tuning).",
    ),
    assignments: list[str] = typer.Option(
        None, "--set", help="Override a hyper-parameter: key=value (repeatable; model.<key> for the model)."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or progress lines."),
    json_out: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Train a program synthesiser with MAPO (or a variant): a semantic parser from question-answer pairs and
    explored programs, or a Karel program from a task's reward (--env).

    Hyper-parameters follow the published ones for the dataset's language; --set changes any of them. The
    original's bugs are fixed by default; --set entropy_sign=official, squared_nonreplay_weight=true and
    normalize_by=batch_size restore them.

    Examples:

    \b
      nsm train data/wtq --programs programs.jsonl --out runs/mapo-1 --seed 1
      nsm train data/wtq --programs programs.jsonl --out runs/hard-em-1 \\
          --algo hard-em --minutes 120
      nsm train data/wtq --programs programs.jsonl --out runs/minilm-1 \\
          --set model.encoder=minilm
      nsm train data/wtq --out runs/mapo-1 --resume
      nsm train data/own --programs own-programs.jsonl --out runs/own \\
          --init wtq-glove --steps 200
      nsm train --env karel:harvester --out runs/harvester-1 --seed 1
      nsm train data/wtq --programs programs.jsonl --out runs/ray-1 \\
          --backend ray --actors 8 --address ray://head:10001
    """
    from nsmcli.parser import resolve_model
    from nsmcli.train.loop import train as run_training

    if (preprocessed is None) == (env is None):
        raise ConfigError(
            "give either a preprocessed dataset directory or --env (e.g. --env karel:harvester); see nsm train -h"
        )
    if env is not None:
        from nsmcli.worlds import split_source

        if split_source(env) is None:
            raise ConfigError(f"--env takes a world and a task, such as karel:harvester, not {env!r}")
    if mapo and algo != "mapo":
        raise ConfigError(f"--mapo contradicts --algo {algo}")
    if device not in ("cpu", "cuda") and not device.startswith("cuda:"):
        raise ConfigError(f"--device must be cpu or cuda, not {device!r}")
    if actors < 0:
        raise ConfigError("--actors must not be negative")
    overrides: dict[str, object] = {}
    for item in assignments or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise ConfigError(f"--set expects key=value, got {item!r}")
        overrides[key.strip()] = value.strip()
    if not resume:
        overrides.setdefault("seed", seed)
    if steps is not None:
        overrides["n_steps"] = steps
    if minutes is not None:
        overrides["max_minutes"] = minutes
    start = resolve_model(init) if init is not None else None
    with progress_bar(quiet) as progress:
        result = run_training(
            env if env is not None else preprocessed,
            out,
            programs=programs,
            algo=algo,
            overrides=overrides,
            resume=resume,
            device=device,
            actors=actors,
            backend=backend,
            address=address,
            progress=progress,
            init=start,
        )
    if json_out:
        print_json(result.to_json())
        return
    best = "none" if result.best_dev is None else f"{result.best_dev:.4f} (step {result.best_step})"
    stdout.print(f"[bold]run[/] {safe(result.run)}: step {result.step}, best dev accuracy {best}")
    stdout.print(
        f"  buffer: {result.buffer_programs} programs, coverage {result.buffer_coverage:.1%}; "
        f"{result.questions_per_second:.1f} questions/s over {result.seconds:.0f} s"
    )
    if result.stopped_early:
        stderr.print("stopped before the last step")
    if result.stopped_by_time:
        stderr.print(f"stopped at the time limit after {result.wall_seconds / 60:.1f} minutes (max_minutes)")
