"""`nsm explore`."""

from __future__ import annotations

from pathlib import Path

import typer

from nsmcli.cli.output import print_json, stdout
from nsmcli.fileio import check_output_file


def explore(
    preprocessed: Path = typer.Argument(
        None, metavar="PREPROCESSED", help="A directory written by nsm preprocess (or give --env)."
    ),
    env: str = typer.Option(
        None, "--env", help="Search a generated world instead: karel:TASK (program-space hill climbing)."
    ),
    seed: int = typer.Option(1, "--seed", help="With --env: the seed of the training states and the search."),
    split: str = typer.Option(
        "train", "--split", help="Split to explore; 'train'/'dev' also match e.g. random-split-1-train."
    ),
    out: Path = typer.Option(
        ...,
        "--out",
        help="Output JSONL (one line per question); a report is written beside it as <name>.report.json.",
    ),
    workers: int = typer.Option(
        2, "--workers", min=1, help="Worker processes or Ray workers (questions are independent)."
    ),
    backend: str = typer.Option(
        None,
        "--backend",
        help="inline (one process), processes (the default for --workers > 1) or ray (tasks over shards).",
    ),
    address: str = typer.Option(
        None,
        "--address",
        help="With --backend ray: auto (this machine's cluster) or ray://HOST:PORT (default: a local Ray).",
    ),
    budget_seconds: float = typer.Option(
        None,
        "--budget-seconds-per-question",
        help="Wall-clock cap per question. Off by default: the evaluation cap keeps output deterministic.",
    ),
    max_evaluations: int = typer.Option(
        None,
        "--max-evaluations",
        help="Deterministic budget: expressions evaluated per question (default 500,000); with --env, "
        "programs evaluated on the training states (default 65,000).",
    ),
    max_programs: int = typer.Option(
        20,
        "--max-programs",
        help="Programs kept per question (ranked: fewer "
        "expressions, then question entities used, then columns named in the "
        "question); how many were found in all is recorded.",
    ),
    trigger_words: bool = typer.Option(
        False,
        "--trigger-words/--no-trigger-words",
        help="Skip functions the question gives no hint of (MAPO's filter; 3x faster, lower coverage).",
    ),
    limit: int = typer.Option(None, "--limit", help="Only the first N questions of the split."),
    overwrite: bool = typer.Option(
        False,
        "--overwrite",
        help="Search again even if the output exists with the same settings, or a run with other settings "
        "left partial output.",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or progress lines."),
    json_out: bool = typer.Option(False, "--json", help="Print the coverage report as JSON."),
) -> None:
    """Search for the consistent programs of every question of a split (resumable, parallel).

    A consistent program executes to the question's answer and uses every intermediate result. Killed part
    way, the same command continues where it stopped; the final file is written atomically.

    Examples:

    \b
      nsm explore data/wtq --split random-split-1-train \\
          --out data/wtq-programs.jsonl --workers 2
      nsm explore data/wtq --split random-split-1-dev \\
          --out data/wtq-dev-oracle.jsonl
      nsm explore data/wtq --split random-split-1-train \\
          --out data/wtq-programs.jsonl --backend ray --workers 64 --address auto
      nsm explore --env karel:maze --out runs/maze-hc-1 --seed 1
    """
    from nsmcli.errors import DataError
    from nsmcli.train.backends import check_address, choose_shard_backend
    from nsmcli.train.evaluate import resolve_split
    from nsmcli.worlds import get_world, split_source
    from nsmcli.worlds.tables.data.preprocess import load_dataset
    from nsmcli.worlds.tables.search.runner import run_exploration

    if (preprocessed is None) == (env is None):
        raise DataError("give either a preprocessed dataset directory or --env (e.g. --env karel:maze)")
    if env is not None:
        spec = split_source(env)
        world = get_world(spec[0]) if spec else None
        if world is None or world.explore is None:
            raise DataError(f"--env takes a world with a program search, such as karel:maze, not {env!r}")
        budget = 65_000 if max_evaluations is None else max_evaluations
        world.explore(env, out, seed=seed, budget=budget, json=json_out, quiet=quiet)
        return
    max_evaluations = 500_000 if max_evaluations is None else max_evaluations
    check_output_file(out)
    check_address(address, choose_shard_backend(backend, workers))  # before any data is read
    split = resolve_split(load_dataset(preprocessed), split)
    report = run_exploration(
        preprocessed,
        split,
        out,
        workers=workers,
        budget_seconds_per_question=budget_seconds,
        max_evaluations_per_question=max_evaluations,
        max_programs=max_programs,
        trigger_words=trigger_words,
        limit=limit,
        quiet=quiet,
        overwrite=overwrite,
        backend=backend,
        address=address,
    )
    if json_out:
        print_json(report)
        return
    label = "oracle coverage" if "oracle_coverage" in report else "coverage"
    stdout.print(
        f"[bold]{report['split']}[/]: {label} {report['coverage']:.1%} ({report['covered']:,}/{report['questions']:,}), "
        f"{report['programs_per_covered_question']} programs kept and {report['found_per_covered_question']} "
        f"found per covered question, {report['seconds']} s -> {out}"
        + (
            " (reused: same settings and search version; --overwrite searches again)"
            if report.get("reused")
            else ""
        )
    )
