"""`nsm rerank`: decode held-out questions with a model -> fit `nsmcli.train.rerank` -> reranker.json."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from nsmcli.cli.output import print_json, progress_bar, safe, stdout, warn
from nsmcli.errors import DataError
from nsmcli.fileio import check_output_file
from nsmcli.train.config import MAX_BEAM

if TYPE_CHECKING:
    from nsmcli.train.rerank import Reranker

FRESH_L2S = "3e-4,1e-3,3e-3,1e-2"
PRIOR_L2S = "1e-3,3e-3,1e-2,3e-2,0.1"


def rerank(
    model: Path = typer.Argument(
        ..., metavar="MODEL", help="A run directory, an ensemble directory or a bundled model name."
    ),
    data: Path = typer.Option(None, "--data", help="The preprocessed dataset holding the held-out split."),
    split: str = typer.Option(
        None, "--split", help="Questions the model never trained on (WTQ: pristine-seen-tables)."
    ),
    questions: list[Path] = typer.Option(
        None,
        "--questions",
        help="A question file over your own tables (table<TAB>question<TAB>answer, as nsm parse "
        "--questions reads) to fit on as well, or alone; repeat for several.",
    ),
    tables_of: str = typer.Option(
        None,
        "--tables-of",
        help="Keep only the questions over this split's tables (WTQ: random-split-1-train, so that no "
        "question over a dev table is fitted on).",
    ),
    questions_weight: float = typer.Option(
        1.0,
        "--questions-weight",
        min=0.0,
        help="How much each --questions problem weighs in the fit beside one of --split (the L2 choice "
        "counts every held-out question alike).",
    ),
    from_scratch: bool = typer.Option(
        False,
        "--from-scratch",
        help="With --questions alone: fit afresh rather than start from the model's reranker (of users' "
        "tables, where it has one apart) and stay near it.",
    ),
    out: Path = typer.Option(
        None,
        "--out",
        help="Where to write the reranker (default: MODEL/reranker.json, which eval and parse use; with "
        "--questions alone, MODEL/reranker-user.json where the model has that reranker of users' tables apart).",
    ),
    beam: int = typer.Option(5, "--beam", min=1, max=MAX_BEAM, help="Beam size of the decoding."),
    folds: int = typer.Option(
        4, "--folds", min=2, help="Cross-validation folds that choose the L2 strength."
    ),
    l2: str = typer.Option(
        None,
        "--l2",
        help="Comma-separated L2 strengths to choose from [default: 3e-4,1e-3,3e-3,1e-2; adjusting the "
        "model's reranker: 1e-3,3e-3,1e-2,3e-2,0.1].",
    ),
    proposals: bool = typer.Option(
        None,
        "--proposals/--no-proposals",
        help="Fit with the programs the world proposes beside the beam's (for a table question: the pick "
        "of one of two things named with 'or', the rows below or above 0, a range between two dates, and "
        "the beam's programs compared the other way or showing another column); the reranker then weighs "
        "them too "
        "[default: on; adjusting the model's reranker: as it was fitted].",
        show_default=False,
    ),
    workers: int = typer.Option(
        1, "--workers", min=1, help="Worker processes that decode (the split, and each --questions file)."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or progress lines."),
    json_out: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Fit a reranker of a model's beam on questions it never trained on: it learns which programs fit
    which questions (a "total" wants a sum, a stated number wants a use), beside the beam's own scores.
    --questions adds your own questions over your tables; given alone, they adjust the model's reranker.

    Examples:

    \b
      nsm rerank runs/mapo-1 --data data/wtq --split pristine-seen-tables \\
          --tables-of random-split-1-train
      nsm rerank my-wtq --questions my_questions.tsv
      nsm eval runs/mapo-1 --data data/wtq --vote answer   # without it
    """
    from nsmcli.parser import decode_question_file, find_model
    from nsmcli.train.rerank import (
        RERANKER_FILE,
        USER_RERANKER_FILE,
        decode_for_reranking,
        fit_beams,
        load_reranker,
        matcher_seen,
        model_matcher,
        on_tables_of,
    )
    from nsmcli.worlds.tables.data.preprocess import load_dataset
    from nsmcli.worlds.tables.data.readers import read_question_file

    model_dir = find_model(model) or model
    if not Path(model_dir).is_dir():
        raise DataError(f"no model at {str(model)!r}: give a run directory or a bundled model name")
    if (data is None) != (split is None):
        raise DataError("give --data and --split together (or neither, with --questions)")
    if data is None and not questions:
        raise DataError("nothing to fit on: give --data and --split, or --questions, or both")
    if tables_of is not None and data is None:
        raise DataError("--tables-of filters the questions of --data: give --data and --split too")
    if data is None and questions_weight == 0:
        raise DataError("--questions-weight 0 leaves nothing to fit on without --data")
    for path in questions or []:  # a bad file fails before any decoding
        if not any(case.answer for case in read_question_file(path)):
            raise DataError(f"{path}: no question has an answer, and nsm rerank fits on answers")
    # a few of the user's questions adjust the model's reranker (its reranker of users' tables, where it has
    # one apart); they are too few to replace it
    has_users_reranker = (Path(model_dir) / USER_RERANKER_FILE).is_file()
    users_apart = data is None and has_users_reranker
    prior = load_reranker(model_dir, users=users_apart) if data is None and not from_scratch else None
    if prior is not None:
        _check_prior(prior, questions or [], proposals)
        proposals = prior.proposals
    proposals = True if proposals is None else proposals
    try:
        # held near the model's reranker, stronger strengths keep it nearer
        chosen = l2 if l2 is not None else (PRIOR_L2S if prior is not None else FRESH_L2S)
        strengths = [float(v) for v in chosen.split(",") if v.strip()]
    except ValueError:
        raise DataError(f"--l2 must be comma-separated numbers, got {l2!r}") from None
    if not strengths or any(not v >= 0 for v in strengths):
        raise DataError(f"--l2 must be comma-separated numbers of 0 or more, got {l2!r}")
    target = (
        out if out is not None else Path(model_dir) / (USER_RERANKER_FILE if users_apart else RERANKER_FILE)
    )
    check_output_file(target)
    silent = quiet or json_out
    report = None if silent else lambda line: stdout.print(safe(line))
    sets = []
    if data is not None:
        dataset = load_dataset(data)
        with progress_bar(silent) as progress:
            sets.append(
                decode_for_reranking(
                    model_dir,
                    dataset,
                    split,
                    select=on_tables_of(dataset, tables_of),
                    beam=beam,
                    workers=workers,
                    progress=progress,
                    proposals=proposals,
                )
            )
    for path in questions or []:
        sets.append(
            decode_question_file(
                model_dir, path, beam=beam, proposals=proposals, progress=report, workers=workers
            )
        )
    matcher = model_matcher(model_dir, users=users_apart)  # its scores are among the features fitted on
    # the split by the name the dataset resolved (`--split dev` names random-split-1-dev)
    in_sample = matcher_seen(matcher, sets[0].split if data is not None else None, questions or [])
    warnings = (
        [
            f"the model's matcher was fitted on {', '.join(in_sample)}: its scores there look better than "
            "they are, and the refit will weigh it too much; fit on questions it has not seen"
        ]
        if in_sample
        else []
    )
    if has_users_reranker and not users_apart and out is None:
        warnings.append(
            f"{model_dir} keeps its reranker of users' tables ({USER_RERANKER_FILE}), which still chooses on "
            "tables read with the user rules: refit it with --questions alone, or remove it"
        )
    for message in [] if quiet else warnings:
        warn(message)
    set_weights = [1.0] * (len(sets) - len(questions or [])) + [questions_weight] * len(questions or [])
    reranker = fit_beams(
        sets,
        sets[0].world or "",
        folds=folds,
        l2s=strengths,
        report=report,
        set_weights=set_weights,
        prior=prior,
    )
    fitted = reranker.fitted
    # the record names what the user named, not the resolved paths of this machine
    fitted.update(
        model=str(model),
        data=None if data is None else str(data),
        tables_of=tables_of,
        questions_files=[str(q) for q in questions or []],
        beam=beam,
    )
    reranker.matcher = matcher
    reranker.save(target)
    if json_out:
        print_json({**fitted, "out": str(target), "warnings": warnings})
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


def _check_prior(prior: Reranker, questions: list[Path], proposals: bool | None) -> None:
    """Refuse to adjust a reranker with proposals it was not fitted with, or with a question file it was
    already fitted on (its held-out figures would then count answers it had seen)."""
    if proposals is not None and proposals != prior.proposals:
        raise DataError(
            "the model's reranker was fitted "
            + ("with" if prior.proposals else "without")
            + " the world's proposals: leave out --proposals/--no-proposals, or give --from-scratch"
        )
    from nsmcli.train.rerank import fitted_question_files

    # the record names the files as given (its own and those of the reranker it started from); read from
    # here, they may name the same file as `questions`
    seen = {Path(str(q)).resolve() for q in fitted_question_files(prior.fitted)}
    for path in questions:
        if path.resolve() in seen:
            raise DataError(
                f"the model's reranker was already fitted on {path}: fit a fresh copy of the model, or give "
                "--from-scratch"
            )
