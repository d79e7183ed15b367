"""The Karel world's registry entry (`nsmcli.worlds.WORLDS["karel"]`): presets, limits and the adapter."""

from __future__ import annotations

from typing import Any

from nsmcli.model.context import Context
from nsmcli.worlds import World
from nsmcli.worlds.karel.env import DEFAULT_MAX_LENGTH, KarelEnvironment
from nsmcli.worlds.karel.problems import KarelProblem, KarelProblemSet
from nsmcli.worlds.karel.tasks import get_task


def open_task(source: str, seed: int = 1) -> KarelProblemSet:
    """`karel:harvester` and the run's seed, which draws the 10 training states."""
    return KarelProblemSet(source, seed)


def karel_context(example: KarelProblem, env: KarelEnvironment, vocab: Any, config: Any) -> Context:
    """The model reads the task's name as its one-line question; every DSL token is a built-in action."""
    words = tuple(get_task(example.task).words)
    return Context(
        token_ids=tuple(vocab.ids(words)),
        token_features=tuple((0.0,) for _ in words),
        n_builtins=env.n_builtins,
        constants=(),
        n_computed=0,
        words=words,
    )


def _explore(task: str, out: Any, **options: Any) -> dict:
    from nsmcli.cli.karel import explore_karel

    return explore_karel(task, out, **options)


def _report(run: Any, record: dict) -> dict:
    from nsmcli.worlds.karel.report import karel_report

    return karel_report(run, record)


KAREL = World(
    name="karel",
    summary="Karel program synthesis: the six LEAPS tasks, rewarded by the task score on generated states",
    open=open_task,
    context=karel_context,
    limits=lambda: {"max_length": DEFAULT_MAX_LENGTH},
    limit_bounds={"max_length": (5, 200)},
    train_preset={
        "train_split": "train",
        # model selection on the training states only: the 1,000 fresh states (`dev`) stay unseen until
        # `nsm eval` gives the honest figure
        "dev_split": "train",
        "questions_per_step": 1,
        "n_steps": 100_000,
        "max_evaluations": 65_000,  # LEAPS's own search-stage bound (karel.md §4.5)
        "max_minutes": 15.0,
        "stop_at_reward": 1.0,  # solved on its training states: the reward cannot grow further
        "n_explore": 8,
        "n_extra_explore_for_hard": 24,
        "n_policy": 8,
        "n_replay": 8,
        "buffer_min_reward": 0.0,
        "buffer_size": 16,
        "max_decode_steps": 50,
        "entropy_coeff": 0.01,
        "learning_rate": 0.001,
        "eval_every": 50,
        "eval_beam": 0,
        "checkpoint_every": 200,
        "log_every": 10,
    },
    model_preset={
        "n_builtins": 64,  # <END> and the 50 DSL tokens
        "min_word_count": 1,  # the task name is the only input word
        "use_glove": False,
        "hidden_size": 128,
        "n_layers": 1,
        "dropout": 0.0,
    },
    explore=_explore,
    report=lambda run, record: _report(run, record),
)
