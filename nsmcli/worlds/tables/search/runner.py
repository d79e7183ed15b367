"""Whole splits (`nsm explore`): `explore` every question of a split of a preprocessed dataset, in worker
processes, resumably, and write the programs found and a coverage report.

Each question is searched with its dataset's answer checker (`Dataset.answer_checker`: the fast, goal-
directed checker the dataset declares, else its `is_correct`). The output depends only on the dataset and
the settings (`ExploreSettings`), never on the number of workers, the backend (worker processes, or Ray
tasks over shards of the questions) or on interruptions, unless a wall-time budget stops a search.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from nsmcli.errors import DataError, NsmError
from nsmcli.fileio import atomic_write_json, atomic_write_jsonl, output_lock
from nsmcli.process import die_with_parent
from nsmcli.progress import make_progress
from nsmcli.worlds.tables.data.preprocess import load_dataset
from nsmcli.worlds.tables.lang.spec import get_language
from nsmcli.worlds.tables.search.explore import (
    DEFAULT_MAX_PROGRAMS,
    SEARCH_VERSION,
    allowed_functions,
    explore,
)

__all__ = ["DEFAULT_MAX_EVALUATIONS", "ExploreSettings", "explore_example", "run_exploration"]

#: Default per-question work budget (expressions evaluated). Deterministic, unlike a time budget; on WTQ
#: train the largest search needs about 60k, so this only stops pathological questions.
DEFAULT_MAX_EVALUATIONS = 500_000
_FSYNC_EVERY_SECONDS = 2.0

# set in the parent before the worker processes fork (or by `_init_worker` where processes are spawned)
_WORKER: dict[str, Any] = {}


@dataclass(frozen=True)
class ExploreSettings:
    """Everything besides the dataset that decides a run's output; a resumed run must use the same."""

    dataset: str
    split: str
    max_programs: int = DEFAULT_MAX_PROGRAMS
    max_evaluations: int | None = DEFAULT_MAX_EVALUATIONS
    budget_seconds: float | None = None
    trigger_words: bool = False
    limit: int | None = None
    #: the interpreter limits (expressions, variables) the programs were searched under
    limits: dict | None = None
    #: the search code's version: an output of an older search is searched again, not reused
    search_version: int = SEARCH_VERSION

    def to_json(self) -> dict:
        return asdict(self)


def explore_example(dataset: Any, example: Any, settings: ExploreSettings) -> tuple[dict, float]:
    """One output record (id, programs, n_found, deterministic statistics) and the seconds it took."""

    q = example.question
    try:
        env = dataset.environment(example)
        allowed = None
        if settings.trigger_words:
            allowed = allowed_functions(env.spec, q.tokens, q.pos_tags)
        result = explore(
            env,
            dataset.answer_checker(example),
            allowed_functions=allowed,
            budget_seconds=settings.budget_seconds,
            max_evaluations=settings.max_evaluations,
            max_programs=settings.max_programs,
            preferred_columns=[c for c, score in q.column_match.items() if score > 0],
        )
    except NsmError as exc:
        return {"id": example.id, "programs": [], "n_found": 0, "error": str(exc)}, 0.0
    stats = result.stats
    record = {
        "id": example.id,
        "programs": result.programs,
        "n_found": result.n_found,
        "stats": {
            "evaluated": stats.evaluated,
            "denotations": stats.denotations,
            "exhausted": stats.exhausted,
        },
    }
    return record, stats.seconds


def _init_worker(dataset_dir: str, split: str, settings: ExploreSettings, parent_pid: int) -> None:
    die_with_parent(parent_pid)
    if not _WORKER:
        dataset = load_dataset(dataset_dir)
        _WORKER.update(dataset=dataset, examples=dataset.examples(split), settings=settings)


def _work(index: int) -> tuple[int, dict, float]:
    record, seconds = explore_example(_WORKER["dataset"], _WORKER["examples"][index], _WORKER["settings"])
    return index, record, seconds


def _explore_shard(shared: tuple[Any, list, ExploreSettings], indices: list[int]) -> list[tuple[dict, float]]:
    """A Ray task's work: the questions at `indices` of the shipped (dataset, examples, settings)."""
    dataset, examples, settings = shared
    return [explore_example(dataset, examples[i], settings) for i in indices]


def _shards(todo: list[int], workers: int) -> list[list[int]]:
    """Consecutive runs of the questions to do: a few per worker (for balance), at most 32 questions each
    (so a killed run loses little)."""
    size = max(1, min(32, -(-len(todo) // (8 * max(1, workers)))))
    return [todo[s : s + size] for s in range(0, len(todo), size)]


def _paths(out_path: Path) -> tuple[Path, Path, Path]:
    """(partial output, its settings, report) beside the output file."""
    stem = out_path.name[: -len(".jsonl")] if out_path.name.endswith(".jsonl") else out_path.name
    return (
        out_path.with_name(out_path.name + ".partial"),
        out_path.with_name(out_path.name + ".partial.settings.json"),
        out_path.with_name(stem + ".report.json"),
    )


def _read_partial(partial: Path, valid_ids: set[str]) -> dict[str, dict]:
    """Complete records of an interrupted run; a trailing partial line (killed mid-write) is cut off."""

    done: dict[str, dict] = {}
    if not partial.exists():
        return done
    data = partial.read_bytes()
    good = 0
    pos = 0
    while pos < len(data):
        end = data.find(b"\n", pos)
        if end < 0:
            break
        try:
            record = json.loads(data[pos:end].decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            break
        if isinstance(record, dict) and record.get("id") in valid_ids:
            done[record["id"]] = record
        pos = good = end + 1
    if good != len(data):
        with open(partial, "r+b") as f:
            f.truncate(good)
    return done


def run_exploration(dataset_dir: Path | str, split: str, out_path: Path | str, **options: Any) -> dict:
    """Explore a split into `out_path`, locked against a second writer of the same output; see
    `_run_exploration` for the options."""
    with output_lock(Path(out_path), "exploration output", inside=False):
        return _run_exploration(dataset_dir, split, out_path, **options)


def _run_exploration(
    dataset_dir: Path | str,
    split: str,
    out_path: Path | str,
    *,
    workers: int = 1,
    budget_seconds_per_question: float | None = None,
    max_evaluations_per_question: int | None = DEFAULT_MAX_EVALUATIONS,
    max_programs: int = DEFAULT_MAX_PROGRAMS,
    trigger_words: bool = False,
    limit: int | None = None,
    quiet: bool = False,
    overwrite: bool = False,
    backend: str | None = None,
    address: str | None = None,
) -> dict:
    """Explore every question of a split of a preprocessed dataset; write one JSON line per question.

    The output (`out_path`, JSON lines in split order: id, programs, n_found, stats) is written at the end
    in one atomic rename. Until then records are appended, as complete lines, to `<out>.partial` (flushed
    per line, fsynced every few seconds) beside `<out>.partial.settings.json`; killing the run loses at
    most the questions in flight, and running the same command again skips the questions already done
    (a torn last line is cut off). The output depends only on the dataset and the settings, never on
    `workers` or interruptions, unless `budget_seconds_per_question` (wall time) stops a search: prefer the
    deterministic `max_evaluations_per_question`. A different setting on resume is refused unless
    `overwrite`. A complete output whose report has the same settings (the search version included) is
    not searched again: its report comes back with `reused` set, unless `overwrite`. Returns the coverage report, also written to `<out stem>.report.json`; on a split that is
    not a training split its coverage is the oracle coverage (questions whose answer some program reaches).
    `backend`: `inline` (one process), `processes` (the default with several workers) or `ray` (tasks over
    shards of the questions on a local Ray instance, or the cluster at `address`).
    """
    from nsmcli.train.backends import check_address, choose_shard_backend

    backend = choose_shard_backend(backend, workers)
    check_address(address, backend)

    start = time.perf_counter()
    out_path = Path(out_path)
    partial, settings_path, report_path = _paths(out_path)
    dataset = load_dataset(dataset_dir)
    examples = dataset.examples(split)
    if limit is not None:
        examples = examples[:limit]
    settings = ExploreSettings(
        dataset.format.name,
        split,
        max_programs,
        max_evaluations_per_question,
        budget_seconds_per_question,
        trigger_words,
        limit,
        get_language(dataset.language).limits.to_json(),
        SEARCH_VERSION,
    )
    ids = [e.id for e in examples]
    if len(set(ids)) != len(ids):
        raise DataError(f"split {split} has duplicate question ids")

    if not overwrite and out_path.exists() and report_path.exists() and not partial.exists():
        try:
            previous_report = json.loads(report_path.read_text(encoding="utf-8"))
        except ValueError:
            previous_report = None
        if previous_report is not None and previous_report.get("settings") == settings.to_json():
            return {**previous_report, "reused": True}  # already complete
    if partial.exists() or settings_path.exists():
        previous = json.loads(settings_path.read_text(encoding="utf-8")) if settings_path.exists() else None
        if previous != settings.to_json():
            if not overwrite:
                raise DataError(
                    f"{partial} holds an interrupted run with other settings ({previous}); "
                    "use the same settings to resume, or overwrite to start again"
                )
            partial.unlink(missing_ok=True)
    atomic_write_json(settings_path, settings.to_json())
    done = _read_partial(partial, set(ids))
    todo = [i for i, e in enumerate(examples) if e.id not in done]

    n_covered = sum(1 for r in done.values() if r["programs"])
    explore_seconds = 0.0
    progress = None
    if not quiet:
        progress = make_progress()
        progress.start()
    task = None
    if progress is not None:
        task = progress.add_task(
            f"explore {split}",
            total=len(examples),
            completed=len(done),
            status=f"coverage {_pct(n_covered, len(done))}",
        )

    with open(partial, "a", encoding="utf-8") as f:
        last_sync = time.monotonic()

        def write(record: dict) -> None:
            nonlocal last_sync, n_covered
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
            f.flush()
            if time.monotonic() - last_sync > _FSYNC_EVERY_SECONDS:
                os.fsync(f.fileno())
                last_sync = time.monotonic()
            done[record["id"]] = record
            n_covered += bool(record["programs"])
            if progress is not None:
                progress.update(task, advance=1, status=f"coverage {_pct(n_covered, len(done))}")

        try:
            if backend == "ray" and todo:
                from nsmcli.train.backends.ray import ray_map

                shared = (dataset, examples, settings)
                _ = dataset.tables  # shipped with the dataset, not read again by every worker
                for _, done_shard in ray_map(
                    _explore_shard, shared, _shards(todo, workers), workers, address
                ):
                    for record, seconds in done_shard:
                        explore_seconds += seconds
                        write(record)
            elif backend == "inline" or len(todo) <= 1:
                for i in todo:
                    record, seconds = explore_example(dataset, examples[i], settings)
                    explore_seconds += seconds
                    write(record)
            else:
                methods = multiprocessing.get_all_start_methods()
                ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
                if ctx.get_start_method() == "fork":
                    _ = dataset.tables  # load once; the workers share it
                    _WORKER.update(dataset=dataset, examples=examples, settings=settings)
                try:
                    with ctx.Pool(
                        workers, _init_worker, (str(dataset_dir), split, settings, os.getpid())
                    ) as pool:
                        for _, record, seconds in pool.imap_unordered(_work, todo, chunksize=4):
                            explore_seconds += seconds
                            write(record)
                finally:
                    _WORKER.clear()
            f.flush()
            os.fsync(f.fileno())
        finally:
            if progress is not None:
                progress.stop()

    records = [done[i] for i in ids]
    atomic_write_jsonl(out_path, records)
    report = _report(
        records,
        settings,
        dataset.format.name,
        workers,
        backend,
        time.perf_counter() - start,
        explore_seconds,
        len(todo),
    )
    report["output"] = str(out_path)
    atomic_write_json(report_path, report)
    partial.unlink(missing_ok=True)
    settings_path.unlink(missing_ok=True)
    return report


def _pct(k: int, n: int) -> str:
    return f"{100 * k / n:.1f}%" if n else "-"


def _report(
    records: list[dict],
    settings: ExploreSettings,
    dataset: str,
    workers: int,
    backend: str,
    seconds: float,
    explore_seconds: float,
    n_explored: int,
) -> dict:
    n = len(records)
    covered = [r for r in records if r["programs"]]
    kept = sum(len(r["programs"]) for r in records)
    found = sum(r["n_found"] for r in records)
    report = {
        "dataset": dataset,
        "split": settings.split,
        "questions": n,
        "covered": len(covered),
        "coverage": round(len(covered) / n, 4) if n else 0.0,
        "programs_per_question": round(kept / n, 2) if n else 0.0,
        "programs_per_covered_question": round(kept / len(covered), 2) if covered else 0.0,
        "found_per_covered_question": round(found / len(covered), 1) if covered else 0.0,
        "exhausted": sum(1 for r in records if r.get("stats", {}).get("exhausted")),
        "errors": sum(1 for r in records if "error" in r),
        "explored_this_run": n_explored,
        "seconds": round(seconds, 1),
        "explore_cpu_seconds_this_run": round(explore_seconds, 1),
        "workers": workers,
        "backend": backend,
        "settings": settings.to_json(),
    }
    if "train" not in settings.split:
        report["oracle_coverage"] = report["coverage"]
    return report
