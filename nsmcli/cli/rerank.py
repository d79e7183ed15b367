"""`nsm rerank`: decode held-out questions with a model -> fit `nsmcli.train.rerank` -> reranker.json."""

from __future__ import annotations

from pathlib import Path

import typer

from nsmcli.cli.output import print_json, progress_bar, safe, stdout
from nsmcli.errors import DataError
from nsmcli.fileio import check_output_file
from nsmcli.train.config import MAX_BEAM


def rerank(
    model: Path = typer.Argument(
        ..., metavar="MODEL", help="A run directory, an ensemble directory or a bundled model name."
    ),
    data: Path = typer.Option(..., "--data", help="The preprocessed dataset holding the held-out split."),
    split: str = typer.Option(
        ..., "--split", help="Questions the model never trained on (WTQ: pristine-seen-tables)."
    ),
    tables_of: str = typer.Option(
        None,
        "--tables-of",
        help="Keep only the questions over this split's tables (WTQ: random-split-1-train, so that no "
        "question over a dev table is fitted on).",
    ),
    out: Path = typer.Option(
        None,
        "--out",
        help="Where to write the reranker (default: MODEL/reranker.json, which eval and parse use).",
    ),
    beam: int = typer.Option(5, "--beam", min=1, max=MAX_BEAM, help="Beam size of the decoding."),
    folds: int = typer.Option(
        4, "--folds", min=2, help="Cross-validation folds that choose the L2 strength."
    ),
    l2: str = typer.Option(
        "3e-4,1e-3,3e-3,1e-2", "--l2", help="Comma-separated L2 strengths to choose from."
    ),
    proposals: bool = typer.Option(
        True,
        "--proposals/--no-proposals",
        help="Fit with the programs the world proposes beside the beam's (a table question naming two "
        "things with 'or': the pick of one by each number column); the reranker then weighs them too.",
    ),
    workers: int = typer.Option(1, "--workers", min=1, help="Worker processes that decode."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or progress lines."),
    json_out: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Fit a reranker of a model's beam on questions it never trained on: it learns which programs fit
    which questions (a "total" wants a sum, a stated number wants a use), beside the beam's own scores.

    Examples:

    \b
      nsm rerank runs/mapo-1 --data data/wtq --split pristine-seen-tables \\
          --tables-of random-split-1-train
      nsm eval runs/mapo-1 --data data/wtq --vote answer   # without it
    """
    from nsmcli.parser import find_model
    from nsmcli.train.rerank import RERANKER_FILE, decode_for_reranking, fit_beams, on_tables_of
    from nsmcli.worlds.tables.data.preprocess import load_dataset

    try:
        strengths = [float(v) for v in l2.split(",") if v.strip()]
    except ValueError:
        raise DataError(f"--l2 must be comma-separated numbers, got {l2!r}") from None
    if not strengths or any(not v >= 0 for v in strengths):
        raise DataError(f"--l2 must be comma-separated numbers of 0 or more, got {l2!r}")
    model_dir = find_model(model) or model
    if not Path(model_dir).is_dir():
        raise DataError(f"no model at {str(model)!r}: give a run directory or a bundled model name")
    target = out if out is not None else Path(model_dir) / RERANKER_FILE
    check_output_file(target)
    dataset = load_dataset(data)
    select = on_tables_of(dataset, tables_of)
    silent = quiet or json_out
    with progress_bar(silent) as progress:
        beams = decode_for_reranking(
            model_dir,
            dataset,
            split,
            select=select,
            beam=beam,
            workers=workers,
            progress=progress,
            proposals=proposals,
        )
    reranker = fit_beams(
        beams,
        dataset.world,
        folds=folds,
        l2s=strengths,
        report=None if silent else lambda line: stdout.print(safe(line)),
    )
    fitted = reranker.fitted
    # the record names what the user named, not the resolved paths of this machine
    fitted.update(model=str(model), data=str(data), tables_of=tables_of, beam=beam)
    reranker.save(target)
    if json_out:
        print_json({**fitted, "out": str(target)})
        return
    if quiet:
        return
    n = fitted["questions"]
    chosen = fitted["held_out_right"][f"{fitted['l2']:g}"]
    stdout.print(
        f"[bold]{safe(fitted['split'])}[/]: {n:,} questions; the answer vote right on "
        f"{fitted['answer_vote_right']:,}, the right answer in the beam for {fitted['right_answer_in_beam']:,}; "
        f"reranked (held out, {fitted['folds']} folds, L2 {fitted['l2']:g}): {chosen:,}"
    )
    stdout.print(f"  reranker -> {safe(str(target))}")
