"""The registry of worlds: one entry per world, the only place that names them.

A world is everything the generic core (`nsmcli.protocols`, `nsmcli.train`, `nsmcli.model`) needs from one
kind of problem: how to open its problems, the model's context adapter, interpreter limits, the training and
model presets, the algorithms' per-world variants, the release formats `nsm preprocess` reads, and its
optional program search. Each world lives in its
own folder (`nsmcli/worlds/tables/`, `nsmcli/worlds/karel/`) and declares a `World` there; `WORLDS` maps a
registry name to where that declaration is, so nothing of a world is imported until it is used (a cold
`nsm parse` on a table never imports Karel).

A new world is one folder plus one line in `WORLDS`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from nsmcli.errors import DataError
from nsmcli.protocols import Environment, ProblemSet

#: registry name -> "module:attribute" of its `World`.
WORLDS: dict[str, str] = {
    "wtq": "nsmcli.worlds.tables.entry:WTQ",
    "wikisql": "nsmcli.worlds.tables.entry:WIKISQL",
    "karel": "nsmcli.worlds.karel.entry:KAREL",
}


@dataclass(frozen=True)
class World:
    """One world's entry. `open` turns a source (a preprocessed directory, `karel:harvester`) into problems;
    `context(example, env, vocab, model_config)` is the model's adapter (a `nsmcli.model.Context`);
    `limits()` the interpreter limits a new run records, within `limit_bounds`; `train_preset` and
    `model_preset` override the trainer's and the model's defaults; `variants[algo]` the algorithm's
    settings in this world (over the generic `nsmcli.train.config.VARIANTS`); `explore`, if any, is the
    world's own program search behind `nsm explore`."""

    name: str
    summary: str
    open: Callable[..., ProblemSet]
    context: Callable[[Any, Environment, Any, Any], Any]
    limits: Callable[[], dict[str, int]]
    limit_bounds: Mapping[str, tuple[int, int]]
    train_preset: Mapping[str, Any] = field(default_factory=dict)
    model_preset: Mapping[str, Any] = field(default_factory=dict)
    variants: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    explore: Callable[..., Any] | None = None
    readers: Mapping[str, Any] = field(default_factory=dict)
    """Release formats `nsm preprocess` reads into this world's problems, by name."""
    report: Callable[[Any, dict[str, Any]], dict[str, Any]] | None = None
    """`nsm eval` of one of this world's runs, when the world reports more than accuracy (Karel's two
    figures); given the run directory and its config."""
    rerank: (
        Callable[[Any, Environment, Sequence[tuple[str, float, Sequence[Any]]]], list[list[str]]] | None
    ) = None
    """What a reranker (`nsmcli.train.rerank`) reads off a problem and its finished beam programs (text,
    probability, answer, in beam order), beside the generic beam scores: each program's sparse feature
    names. None: the world cannot be reranked."""
    readings: Callable[[Any, Environment, Sequence[str]], tuple[str, list[str]]] | None = None
    """A problem's question and its programs (texts) read in the same words, which the reranker compares
    (`nsmcli.train.rerank.reading_similarity`); "" for a program that does not read. None: no readings."""
    describe: Callable[[Any, Environment], str] | None = None
    """What a matcher (`nsmcli.train.matcher`) reads of a problem beside its question, so that a reading can
    be weighed against what else the problem offers (a table's column names: "the biggest order" is its
    `Total`, not its `Order ID`); None: the question alone."""
    propose: Callable[[Any, Environment, Sequence[str]], list[tuple[str, str]]] | None = None
    """Programs the world builds from a problem and its beam's program texts, each with its kind (a
    feature of its own), which a reranker fitted with them weighs beside the beam's
    (`nsmcli.train.rerank.Reranker.propose`); None: the world proposes none."""


def available_worlds() -> list[str]:
    return list(WORLDS)


@cache
def get_world(name: str) -> World:
    """The registered world `name`; one clear DataError for an unknown one."""
    target = WORLDS.get(name) if isinstance(name, str) else None
    if target is None:
        raise DataError(f"unknown world {name!r}; available: {', '.join(WORLDS)}")
    module, _, attribute = target.partition(":")
    world = getattr(importlib.import_module(module), attribute)
    if not isinstance(world, World) or world.name != name:
        raise TypeError(f"{target} is not the World entry {name!r}")
    return world


def split_source(source: str) -> tuple[str, str] | None:
    """`karel:harvester` -> ("karel", "harvester") for a registered world that names its problems in a
    spec; None for anything else (a path)."""
    name, sep, rest = str(source).partition(":")
    if sep and name in WORLDS and name not in _DIRECTORY_WORLDS:
        return name, rest
    return None


#: Worlds whose problems come from a preprocessed directory (the directory's meta names the world).
_DIRECTORY_WORLDS = frozenset({"wtq", "wikisql"})


def open_problems(source: Any, seed: int = 1) -> ProblemSet:
    """The problems a run trains or is evaluated on: a world spec (`karel:harvester`, with `seed` choosing
    generated states) or a preprocessed dataset directory of a table world."""
    spec = split_source(str(source))
    if spec is not None:
        return get_world(spec[0]).open(str(source), seed=seed)
    from nsmcli.worlds.tables.entry import open_dataset

    return open_dataset(source)
