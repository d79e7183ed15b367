"""The registry entries of the table languages (`nsmcli.worlds.WORLDS`): presets, limits and adapters."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from nsmcli.worlds import World
from nsmcli.worlds.tables.context import table_context
from nsmcli.worlds.tables.data.preprocess import (
    TABLES_FORMAT,
    WIKISQL_FORMAT,
    WTQ_FORMAT,
    Dataset,
    load_dataset,
)
from nsmcli.worlds.tables.lang.spec import get_language
from nsmcli.worlds.tables.proposals import propose_programs
from nsmcli.worlds.tables.rerank import program_readings, rerank_features, table_description

#: Interpreter limits a run may record: beyond them a program memory or expression chain is no model's.
LIMIT_BOUNDS = {"max_expressions": (1, 64), "max_variables": (1, 1024)}


def open_dataset(source: Path | str, seed: int = 1) -> Dataset:
    """A preprocessed directory (`nsm preprocess`); `seed` is unused: its problems are fixed."""
    return load_dataset(source)


def _explore(*args: Any, **options: Any) -> dict:
    from nsmcli.worlds.tables.search.runner import run_exploration

    return run_exploration(*args, **options)


def _limits(language: str):
    return lambda: get_language(language).limits.to_json()


WTQ = World(
    name="wtq",
    summary="WikiTableQuestions-style questions over any table, in the WTQ Lisp",
    open=open_dataset,
    context=table_context,
    limits=_limits("wtq"),
    limit_bounds=LIMIT_BOUNDS,
    # mapo.md §5.4
    train_preset={
        "train_split": "random-split-1-train",
        "dev_split": "random-split-1-dev",
        "n_steps": 25000,
        "questions_per_step": 25,
        "entropy_coeff": 0.01,
        # a beam-5 pass over the 2,831 dev questions costs ~55 training steps on 2 cores: every 1,000
        # steps spends ~5% of a run on evaluation (every 200 steps spent 28%)
        "eval_every": 1000,
        # evaluate (and keep) a moving average of the weights: ahead of the trajectory's own weights at
        # almost every evaluation of a two-hour run (BENCHMARKS.md). Not in the original.
        "average_decay": 0.9995,
    },
    variants={"mml": {"n_replay": 2, "replay_mode": "sample"}, "iml": {"n_replay": 2}},
    explore=_explore,
    readers={"wtq": WTQ_FORMAT, "tables": TABLES_FORMAT},
    rerank=rerank_features,
    readings=program_readings,
    describe=table_description,
    propose=propose_programs,
)

WIKISQL = World(
    name="wikisql",
    summary="WikiSQL questions: one table, a SQL-like language of selections and aggregates",
    open=open_dataset,
    context=table_context,
    limits=_limits("wikisql"),
    limit_bounds=LIMIT_BOUNDS,
    train_preset={
        "train_split": "train",
        "dev_split": "dev",
        "n_steps": 15000,
        "questions_per_step": 125,
        "entropy_coeff": 0.0,
        "n_extra_explore_for_hard": 9,
        "n_replay": 5,
        "replay_mode": "top_k",
        "truncate_buffer_at": 5,
        "trainer_prob": True,
        # 8,421 dev questions are slow to decode: a fixed random 2,000 every 200 steps; `nsm eval` gives the
        # whole split
        "eval_every": 200,
        "eval_max_questions": 2000,
        "eval_sample": "random",
    },
    model_preset={"dropout": 0.0},  # mapo.md §5.4: no dropout on WikiSQL
    explore=_explore,
    readers={"wikisql": WIKISQL_FORMAT},
    rerank=rerank_features,
    readings=program_readings,
    describe=table_description,
)
