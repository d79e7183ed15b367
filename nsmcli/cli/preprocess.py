"""`nsm preprocess`."""

from __future__ import annotations

from pathlib import Path

import typer

from nsmcli.cli.output import print_json, progress_bar, stdout
from nsmcli.errors import DataError
from nsmcli.worlds.tables.data.annotate import DEFAULT_LINKING, LINKING_MODES, check_linking
from nsmcli.worlds.tables.data.preprocess import MixIn, dataset_format, dataset_formats
from nsmcli.worlds.tables.data.preprocess import preprocess as run_preprocess


def preprocess(
    dataset: str = typer.Argument(
        ...,
        metavar="DATASET",
        help=f"Dataset release to read: {', '.join(dataset_formats())} (tables: your own question files and tables).",
    ),
    data_dir: Path = typer.Option(
        None,
        "--data-dir",
        help="The release directory (default: ../shared/data/<dataset>; required for tables).",
    ),
    out: Path = typer.Option(
        None,
        "--out",
        help="Output directory (default: data/<dataset>). Replaced "
        "atomically at the end; an existing one is kept if the run fails.",
    ),
    linking: str = typer.Option(
        DEFAULT_LINKING,
        "--linking",
        help=f"How question words are matched to cell text: {' or '.join(LINKING_MODES)} (word: whole words "
        "only; substring: any part of a cell, as the original MAPO did).",
    ),
    mix_in: str | None = typer.Option(
        None,
        "--mix-in",
        metavar="DIR:SPLIT:COUNT",
        help="Also put the first COUNT questions of SPLIT of the preprocessed dataset DIR, with their tables, "
        "in the train split (tables only): a model trained on DIR and fine-tuned on your questions (nsm train "
        "--init) then keeps practising DIR's questions. DIR must have this run's language and --linking.",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or progress lines."),
    json_out: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Annotate every split of a dataset release into plain files for exploration and training.

    Examples:

    \b
      nsm preprocess wtq --data-dir ../shared/data/wtq --out data/wtq
      nsm preprocess wikisql --data-dir ../shared/data/wikisql --out data/wikisql
      nsm preprocess tables --data-dir examples/own-data --out data/own

    A `tables` directory holds question files <split>.tsv (header table<TAB>question<TAB>answer, table
    paths relative to the file, several answers separated by |) and the CSV, TSV or JSONL tables they name,
    in a subdirectory.
    """
    fmt = dataset_format(dataset)  # unknown names fail before any work
    check_linking(linking)
    mixed = MixIn.parse(mix_in) if mix_in is not None else None  # "" is a mistake, not "none"
    if data_dir is None and fmt.default_dir is None:
        raise DataError(f"nsm preprocess {dataset} needs --data-dir (the directory of its question files)")
    data_dir = data_dir or Path(fmt.default_dir)
    out = out or Path("data") / dataset
    with progress_bar(quiet) as progress:
        summary = run_preprocess(dataset, data_dir, out, progress=progress, linking=linking, mix_in=mixed)
    if json_out:
        print_json(summary.to_json())
        return
    stdout.print(f"[bold]{dataset}[/] -> {out}  ({summary.seconds:.1f} s, {summary.tables} tables)")
    for split, n in summary.examples.items():
        skipped = summary.skipped.get(split, {})
        detail = ", ".join(f"{k}: {v}" for k, v in sorted(skipped.items())) or "none"
        stdout.print(f"  {split:28s} {n:7d} examples   skipped {sum(skipped.values())} ({detail})")
    if summary.mixed_in:
        m = summary.mixed_in
        stdout.print(
            f"  train holds {m['questions']} questions of {m['from']} ({m['split']}) over {m['tables']} tables"
        )
