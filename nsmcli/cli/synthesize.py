"""`nsm synthesize`."""

from __future__ import annotations

from pathlib import Path

import typer

from nsmcli.cli.output import print_json, stdout


def synthesize(
    data: Path = typer.Argument(..., metavar="DATA", help="A preprocessed dataset (nsm preprocess)."),
    out: Path = typer.Option(..., "--out", help="The new dataset directory (written whole or not at all)."),
    split: str = typer.Option("random-split-1-train", "--split", help="The training split to extend."),
    name: str = typer.Option(None, "--name", help="Name of the new split (default: SPLIT-synth)."),
    per_table: int = typer.Option(2, "--per-table", help="Templated questions per table, at most."),
    seed: int = typer.Option(0, "--seed", help="Seed of the templates and slots drawn."),
    programs: Path = typer.Option(
        None, "--programs", help="A program file (nsm explore) to merge with the templates' programs."
    ),
    templates: str = typer.Option(
        None, "--templates", help="Comma-separated template names to draw from (default: all)."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing but errors."),
    json_out: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Add templated questions with their programs (sums, averages, thresholds, differences, either-or,
    superlatives) over a split's own tables, as a new split of a copy of the dataset.

    Examples:

    \b
      nsm synthesize data/wtq --out data/wtq-synth --programs P.jsonl
      nsm train data/wtq-synth --out runs/synth \\
        --programs data/wtq-synth/random-split-1-train-synth-programs.jsonl \\
        --set train_split=random-split-1-train-synth
    """
    from nsmcli.worlds.tables.data.synthesize import (
        synthesize as run_synthesize,
    )  # on use: `nsm -h` stays fast

    summary = run_synthesize(
        data,
        out,
        split=split,
        name=name,
        per_table=per_table,
        seed=seed,
        programs=programs,
        templates=None if templates is None else [t.strip() for t in templates.split(",") if t.strip()],
    )
    if json_out:
        print_json(summary.to_json())
        return
    if quiet:
        return
    stdout.print(
        f"[bold]{summary.split}[/] in {summary.out}: {summary.base_examples} questions of {split} "
        f"+ {summary.added} templated"
    )
    for template, n in summary.by_template.items():
        stdout.print(f"  {template:22s} {n:6d}")
    stdout.print(f"  programs: {summary.programs_file}")
