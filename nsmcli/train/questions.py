"""What training, actors and evaluation share: building the model from plain JSON, and per-question data.

`ModelKit` names the three classes of the model contract (config, vocabulary, model); the default is
`nsmcli.model`'s. Classes are passed by reference (never read from a run directory), so rebuilding a model
from a run never imports anything the run names.

`QuestionPool` binds each problem's environment once, with the run's interpreter limits, and caches the
model's per-problem context and scorer, so replaying programs and re-encoding questions cost nothing after
the first time. Problems come from any registered world (`nsmcli.protocols.ProblemSet`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Protocol, runtime_checkable

from nsmcli.errors import NsmError
from nsmcli.protocols import Environment, ProblemSet, Scorer
from nsmcli.worlds import open_problems


@runtime_checkable
class BatchContexts(Protocol):
    """A model that builds many problems' contexts at once, keeping costly parts (a pretrained encoder's
    outputs) in a store directory that other processes read (`nsmcli.model.ProgramModel`)."""

    @property
    def batches_contexts(self) -> bool:
        """Whether building contexts at once saves work (else they are built on first use)."""
        ...

    def contexts(
        self,
        examples: Sequence[Any],
        envs: Sequence[Environment],
        store: Path | None = None,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> list[Any]: ...

    def load_encodings(self, store: Path) -> None: ...


class ModelKit(NamedTuple):
    ModelConfig: Any
    Vocab: Any
    ProgramModel: Any


def default_kit() -> ModelKit:
    try:
        from nsmcli import model as m
    except ImportError as exc:
        raise NsmError(f"the model package nsmcli.model is not available: {exc}") from None
    return ModelKit(m.ModelConfig, m.Vocab, m.ProgramModel)


def plain(value: Any) -> Any:
    """A to_json() result as a JSON value (accepts implementations that return a string)."""
    return json.loads(value) if isinstance(value, str) else value


def build_model(kit: ModelKit, model_config: dict, vocab: Any, pretrained: bool = True) -> Any:
    """A model from its JSON config and vocabulary. `pretrained=False` skips reading pretrained vectors
    (GloVe): for a model whose weights, vectors included, come from a checkpoint right after."""
    config, vocab = kit.ModelConfig.from_json(model_config), kit.Vocab.from_json(vocab)
    if pretrained:
        return kit.ProgramModel.build(config, vocab)
    return kit.ProgramModel(config, vocab)


@dataclass
class QuestionEnv:
    """What the actor needs per problem: the environment, the model's context and the reward."""

    env: Environment
    context: Any
    score: Scorer


class QuestionPool:
    """Examples of one split by id, each with its environment and model context built on first use.
    `limits` are the run's recorded interpreter limits (JSON), which the world binds with."""

    def __init__(self, dataset: ProblemSet, examples: list[Any], limits: dict[str, int], model: Any):
        self.dataset = dataset
        self.examples = {e.id: e for e in examples}
        self.order = [e.id for e in examples]
        self.limits = limits
        self.model = model
        self._cache: dict[str, QuestionEnv] = {}
        self._envs: dict[str, Environment] = {}

    @classmethod
    def open(cls, source: str, split: str, limits: dict, model: Any, seed: int = 1) -> QuestionPool:
        dataset = open_problems(source, seed)
        return cls(dataset, dataset.examples(split), limits, model)

    @classmethod
    def for_ensemble(
        cls, dataset: ProblemSet, examples: list[Any], limits: dict[str, int], models: list[Any]
    ) -> list[QuestionPool]:
        """One pool per member of an ensemble (whose members share limits): the bound environments are
        shared, so each question binds its table once; the contexts are each model's own."""
        first = cls(dataset, examples, limits, models[0])
        pools = [first]
        for model in models[1:]:
            other = cls(dataset, [], limits, model)
            other.examples, other.order, other._envs = first.examples, first.order, first._envs
            pools.append(other)
        return pools

    def env(self, qid: str) -> Environment:
        env = self._envs.get(qid)
        if env is None:
            env = self._envs[qid] = self.dataset.bind(self.examples[qid], self.limits)
        return env

    def prepare(
        self,
        qids: Sequence[str],
        store: Path | None = None,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> None:
        """Build these problems' contexts now, all at once (`prepare_pools`)."""
        prepare_pools([(self, qids)], store, on_progress)

    def get(self, qid: str) -> QuestionEnv:
        hit = self._cache.get(qid)
        if hit is None:
            example, env = self.examples[qid], self.env(qid)
            context = self.model.context(example, env)
            hit = self._cache[qid] = QuestionEnv(env, context, self.dataset.scorer(example, env))
        return hit


def batches_contexts(model: Any) -> bool:
    """Whether `model` builds contexts faster at once (`BatchContexts` with something to batch)."""
    return isinstance(model, BatchContexts) and model.batches_contexts


def prepare_pools(
    pools: Sequence[tuple[QuestionPool, Sequence[str]]],
    store: Path | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> None:
    """Build the contexts of these pools' problems now, in one call of their shared model's `contexts`
    (`BatchContexts`: one batched encoding, one read and at most one write of `store`), instead of one by
    one on first use; a model with nothing to batch builds them on first use as before."""
    models = {id(pool.model) for pool, _ in pools}
    if len(models) != 1:
        for pool, qids in pools:  # pools of different models (an ensemble) each prepare their own
            prepare_pools([(pool, qids)], store, on_progress)
        return
    model = pools[0][0].model
    if not batches_contexts(model):
        return
    todo = [(pool, q) for pool, qids in pools for q in dict.fromkeys(qids) if q not in pool._cache]
    examples = [pool.examples[q] for pool, q in todo]
    envs = [pool.env(q) for pool, q in todo]
    contexts = model.contexts(examples, envs, store, on_progress)
    for (pool, qid), example, env, context in zip(todo, examples, envs, contexts, strict=True):
        pool._cache[qid] = QuestionEnv(env, context, pool.dataset.scorer(example, env))
