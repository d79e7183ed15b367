"""`nsm eval`: load runs -> `nsmcli.train.evaluate.evaluate` -> render, and optionally write predictions."""

from __future__ import annotations

from pathlib import Path

import typer

from nsmcli.cli.output import print_json, progress_bar, safe, stdout
from nsmcli.errors import DataError
from nsmcli.fileio import atomic_write_jsonl, check_output_file
from nsmcli.train.config import MAX_BEAM
from nsmcli.worlds.tables.data.preprocess import load_dataset


def eval_(
    run: Path = typer.Argument(
        ...,
        metavar="RUN",
        help="A run directory written by nsm train, or a bundled model (wtq, wtq-glove, wikisql, "
        "wikisql-glove).",
    ),
    more_runs: list[Path] = typer.Argument(
        None, metavar="RUN2", help="With --ensemble: the other runs of the ensemble."
    ),
    data: Path = typer.Option(
        None, "--data", help="The preprocessed dataset directory (default: the one the run was trained on)."
    ),
    split: str = typer.Option("dev", "--split", help="Split to evaluate; dev/train mean the run's splits."),
    beam: int = typer.Option(
        5, "--beam", min=0, max=MAX_BEAM, help=f"Beam size (0: greedy; at most {MAX_BEAM})."
    ),
    ensemble: bool = typer.Option(
        False,
        "--ensemble",
        help="Ensemble RUN with RUN2 RUN3 ...: one beam whose tokens are scored by the models' mean "
        "probability, then --vote chooses.",
    ),
    weights: str = typer.Option(
        "best",
        "--weights",
        help="best (best on dev), last (last checkpoint) or average (the last checkpoint's moving average, "
        "for runs with average_decay).",
    ),
    keep_unused: bool = typer.Option(
        False,
        "--keep-unused",
        help="Keep beam programs that leave a computed result unused, as the original's evaluator did.",
    ),
    vote: str = typer.Option(
        "rerank",
        "--vote",
        help="rerank: the model's reranker (reranker.json, from nsm rerank) when it has one, else answer; "
        "on a dataset of nsm preprocess tables, its reranker of users' tables (reranker-user.json) where it "
        "has one, as in nsm parse; answer: the most probable program of the answer the beam's programs "
        "favour together; program: the most probable program (the original's choice).",
    ),
    out: Path = typer.Option(
        None,
        "--out",
        help="Write predictions (JSONL: question, program, answer, correct); missing folders are created.",
    ),
    backend: str = typer.Option(
        None,
        "--backend",
        help="inline (one process; the default for one worker), processes or ray (tasks over shards).",
    ),
    workers: int = typer.Option(1, "--workers", min=1, help="Worker processes or Ray workers that decode."),
    address: str = typer.Option(
        None,
        "--address",
        help="With --backend ray: auto (this machine's cluster) or ray://HOST:PORT (default: a local Ray).",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or progress lines."),
    json_out: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Accuracy of a trained run (or an ensemble of runs) under the dataset's official answer check.

    Examples:

    \b
      nsm eval runs/mapo-1 --data data/wtq --split dev --beam 5 \\
          --out predictions.jsonl
      nsm eval runs/mapo-1 --data data/wtq --ensemble runs/mapo-2 runs/mapo-3
      nsm eval runs/harvester-1 --json
      nsm eval runs/mapo-1 --data data/wtq --backend ray --workers 16 \\
          --address auto
    """
    from nsmcli.parser import find_model
    from nsmcli.train.backends import check_address, choose_shard_backend
    from nsmcli.train.evaluate import check_vote, evaluate
    from nsmcli.train.rerank import choosing_reranker
    from nsmcli.train.rundir import RunDir, run_members
    from nsmcli.worlds import get_world

    if more_runs and not ensemble:
        raise DataError("several run directories given: add --ensemble to evaluate them as an ensemble")

    # else read_config says it is missing; an ensemble directory stands for its members
    def members(users: bool) -> list[Path]:
        return [m for r in (run, *(more_runs or [])) for m in run_members(find_model(r) or r, users=users)]

    runs = members(users=False)
    records = [RunDir(r).read_config() for r in runs]  # fail fast, one line, before loading data
    world = get_world(records[0]["language"])
    if world.report is not None:  # a world with figures of its own (Karel: LEAPS's and the honest one)
        if len(runs) > 1:
            raise DataError(f"{world.name} runs are evaluated one at a time")
        payload = world.report(runs[0], records[0])
        if json_out:
            print_json(payload)
        else:
            stdout.print(" ".join(f"{k} {v}" for k, v in payload.items() if k != "program"))
            stdout.print(safe(str(payload.get("program", ""))))
        return
    if data is None:
        data = Path((records[0].get("dataset") or {}).get("path") or "")
        if not str(data):
            raise DataError("give --data: the run does not record its dataset")
    check_vote(vote, "--vote")
    check_address(address, choose_shard_backend(backend, workers))  # before any data is read
    if out is not None:
        check_output_file(out)  # before the evaluation, not after it
    dataset = load_dataset(data)
    _ = dataset.tables  # read (and checked) before the progress bar starts, so an error stands alone
    if dataset.users_tables:  # an ensemble's members for users' tables decode them, as nsm parse does
        runs = members(users=True)
    # a reranker is fitted to one model's beam: that of RUN (a run or a bundled ensemble), alone; on users'
    # tables, the model's reranker of users' tables where it has one, as nsm parse chooses
    reranker, reranker_file = (
        choosing_reranker(find_model(run) or run, users=dataset.users_tables)
        if vote == "rerank" and not more_runs
        else (None, None)
    )
    with progress_bar(quiet) as progress:
        result = evaluate(
            runs,
            dataset,
            split,
            beam,
            weights=weights,
            progress=progress,
            keep_unused=keep_unused,
            vote=vote,
            backend=backend,
            workers=workers,
            address=address,
            reranker=reranker,
        )
    if out is not None:
        atomic_write_jsonl(out, result.prediction_records())
    if json_out:
        payload = result.to_json()
        payload["predictions"] = str(out) if out is not None else None
        payload["reranker"] = reranker_file  # which of the model's reranker files chose (None: none)
        print_json(payload)
        return
    kind = f"ensemble of {len(runs)}" if len(runs) > 1 else safe(str(run))
    decoder = (f"beam {beam}" if beam > 0 else "greedy") + f", {result.vote} vote"
    if reranker_file is not None and result.vote == "rerank":
        decoder += f" ({reranker_file})"
    stdout.print(
        f"[bold]{kind}[/] on {safe(result.split)} ({decoder}): accuracy {result.accuracy:.4f} "
        f"({result.n_correct}/{result.n})"
    )
    if out is not None:
        stdout.print(f"  predictions -> {safe(str(out))}")
