"""`nsm plot`: training curves of one or more runs -> a PNG (or SVG, PDF)."""

from __future__ import annotations

from pathlib import Path

import typer

from nsmcli.cli.output import print_json, safe, stdout


def plot(
    runs: list[Path] = typer.Argument(..., metavar="RUN", help="Run directories written by nsm train."),
    out: Path = typer.Option(
        Path("curves.png"), "--out", help="The figure: .png, .svg or .pdf; missing folders are created."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing on success."),
    json_out: bool = typer.Option(False, "--json", help="Print what was drawn as JSON."),
) -> None:
    """Draw dev accuracy, training reward and buffer coverage against step and wall-clock time, one line per
    run, from each run's metrics.jsonl. Needs matplotlib (pip install 'nsmcli[plot]').

    Examples:

    \b
      nsm plot runs/mapo-1 --out curves.png
      nsm plot runs/mapo-1 runs/mapo-2 runs/hard-em-1 --out docs/curves.svg
    """
    from nsmcli.plot import check_figure_path, draw_curves, read_runs

    check_figure_path(out)
    curves = read_runs(runs)
    draw_curves(curves, out)
    if json_out:
        print_json({"out": str(out), "runs": [{"label": c.label, "lines": len(c.lines)} for c in curves]})
    elif not quiet:
        stdout.print(f"{len(curves)} run{'s' if len(curves) != 1 else ''} -> {safe(str(out))}")
