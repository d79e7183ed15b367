"""Sampling backends: where the actor (`nsmcli.train.actors.act`) runs while the learner trains.

- `inline`: in the learner's process, on the current weights (exactly on-policy; the default without actors);
- `processes`: N local worker processes on one-step-old weights (`--actors N`);
- `ray`: N Ray actors, on this machine or a cluster (`--backend ray`), the same work as `processes`.

Each batch is cut into the same contiguous shards (`shard_bounds`) whichever backend samples it, and an
actor's samples depend only on the weights and its shard (its randomness derives from (seed, step, ids)),
so `processes` and `ray` give identical runs for a given number of actors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from nsmcli.errors import NsmError

if TYPE_CHECKING:  # the actor's types; imported lazily so exploration (no torch) can use this module
    from nsmcli.train.actors import ActRequest, ActResult

BACKENDS = ("inline", "processes", "ray")

#: What `pip` installs for `--backend ray`.
RAY_EXTRA = "pip install 'nsmcli[ray]'"


class BackendError(NsmError):
    """A backend that cannot be used as asked (unknown name, missing package, unreachable cluster)."""


class SamplingBackend(Protocol):
    """Runs the actor on batches. `overlaps`: the backend samples batch t+1 (on the weights before step t's
    update) while the learner learns step t; otherwise a batch is submitted right before it is collected."""

    overlaps: bool

    def submit(self, tag: int, state_dict: dict, request: ActRequest) -> None:
        """Start sampling one batch with these weights (the learner may change its own right after)."""
        ...

    def collect(self, tag: int) -> ActResult:
        """The samples of a submitted batch, in the request's question order."""
        ...

    def cpu_seconds(self) -> float:
        """CPU time used by the backend's own workers so far (0 for the learner's own process)."""
        ...

    def close(self) -> None: ...


def choose_backend(backend: str | None, actors: int) -> str:
    """The backend a run uses: as given, or today's default (`inline` without actors, else `processes`)."""
    if backend is None:
        return "processes" if actors > 0 else "inline"
    if backend not in BACKENDS:
        raise BackendError(f"--backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if backend == "inline" and actors > 0:
        raise BackendError("--backend inline samples in the learner's process; drop --actors or pick another")
    if backend != "inline" and actors < 1:
        raise BackendError(f"--backend {backend} samples in actors: give --actors N (N >= 1)")
    if backend == "ray":
        import_ray()  # before any work: one line saying what to install
    return backend


def choose_shard_backend(backend: str | None, workers: int) -> str:
    """The backend of work over shards (exploration, evaluation): as given, else `processes` for several
    workers and `inline` for one."""
    if backend is None:
        return "processes" if workers > 1 else "inline"
    if backend not in BACKENDS:
        raise BackendError(f"--backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if backend == "ray":
        import_ray()
    return backend


def check_address(address: str | None, backend: str) -> None:
    """`--address` is for Ray only: `auto` (the cluster this machine belongs to) or `ray://HOST:PORT`."""
    if address is None:
        return
    if backend != "ray":
        raise BackendError("--address names a Ray cluster; it needs --backend ray")
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if address != "auto" and not (address.startswith("ray://") and host and port.isdigit()):
        raise BackendError(f"--address must be auto or ray://HOST:PORT, not {address!r}")


def shard_bounds(size: int, n: int) -> list[tuple[int, int]]:
    """`n` contiguous [start, end) ranges covering `size` items, as even as possible (in order)."""
    return [(size * r // n, size * (r + 1) // n) for r in range(n)]


def split_request(request: ActRequest, n: int) -> list[ActRequest]:
    """One request per actor: contiguous shards of the batch's questions (some may be empty)."""
    from nsmcli.train.actors import ActRequest

    return [
        ActRequest(
            request.step,
            request.seed,
            request.ids[a:b],
            request.buffers[a:b],
            request.explored[a:b],
            request.n_explore[a:b],
            request.n_policy,
            request.greedy,
            request.max_steps,
            request.min_reward,
        )
        for a, b in shard_bounds(len(request.ids), n)
    ]


def merge_results(parts: Sequence[ActResult]) -> ActResult:
    """The shards' results as one, in shard order (the inverse of `split_request`)."""
    from nsmcli.train.actors import ActResult

    merged = ActResult()
    for part in parts:
        merged.explored += part.explored
        merged.scored += part.scored
        merged.policy += part.policy
        merged.greedy_reward += part.greedy_reward
        merged.n_samples += part.n_samples
    return merged


@dataclass
class SplitData:
    """A split's examples with the dataset they come from, its tables loaded: what a Ray actor is shipped
    once (through the object store), so it reads nothing from disk."""

    dataset: Any
    examples: list


@dataclass
class WorkerSpec:
    """Everything a worker needs to rebuild the model and the environments (classes travel by reference)."""

    kit: Any
    model_config: dict
    vocab: dict
    source: str
    """The problems' source, which `nsmcli.worlds.open_problems` reopens (a directory, `karel:harvester`)."""
    split: str
    limits: dict
    seed: int = 1
    encodings: str | None = None
    """A directory of stored question encodings (`BatchContexts`) that the learner prepared; read when
    this machine has it, else the worker encodes questions on first use."""

    def build(self, data: SplitData | None = None) -> tuple[Any, Any]:
        """(model, question pool) of a worker: the pool over `data` when shipped, else read from disk."""
        from pathlib import Path

        from nsmcli.train.questions import BatchContexts, QuestionPool, build_model

        model = build_model(self.kit, self.model_config, self.vocab, pretrained=False)
        if self.encodings is not None and isinstance(model, BatchContexts):
            model.load_encodings(Path(self.encodings))
        if data is None:
            return model, QuestionPool.open(self.source, self.split, self.limits, model, self.seed)
        return model, QuestionPool(data.dataset, data.examples, self.limits, model)


def import_ray() -> Any:
    """The `ray` module, or one line saying what to install."""
    try:
        import ray
    except ImportError:
        raise BackendError(f"--backend ray needs Ray, which is not installed: {RAY_EXTRA}") from None
    return ray


def open_backend(
    name: str, actors: int, spec: WorkerSpec, pool: Any, device: str = "cpu", address: str | None = None
) -> SamplingBackend:
    """The backend `name` (see `choose_backend`) for a learner whose question pool (and model) is `pool`."""
    if name == "inline":
        from nsmcli.train.backends.inline import InlineBackend

        return InlineBackend(pool, spec if device != "cpu" else None)
    if name == "processes":
        from nsmcli.train.backends.processes import ActorPool

        return ActorPool(actors, spec)
    if name == "ray":
        from nsmcli.train.backends.ray import RayBackend

        return RayBackend(actors, spec, SplitData(pool.dataset, list(pool.examples.values())), address)
    raise BackendError(f"unknown backend {name!r}")


# ----- work over shards (exploration, evaluation) ---------------------------------------------------------

_LOCAL_SHARED: dict[str, Any] = {}


def _init_local(shared: Any, parent_pid: int) -> None:
    from nsmcli.process import die_with_parent

    die_with_parent(parent_pid)
    _LOCAL_SHARED["value"] = shared


def _run_local(job: tuple[Callable[[Any, Any], Any], int, Any]) -> tuple[int, Any]:
    function, index, shard = job
    return index, function(_LOCAL_SHARED["value"], shard)


def map_shards(
    backend: str,
    function: Callable[[Any, Any], Any],
    shared: Any,
    shards: Sequence[Any],
    workers: int = 1,
    address: str | None = None,
) -> Iterator[tuple[int, Any]]:
    """(index, function(shared, shard)) for every shard: in order in this process (`inline`), or as they
    finish in `workers` spawned processes or Ray tasks. `function` must be importable (module level);
    `shared` is sent once per process (through the object store with Ray)."""
    if backend == "inline" or not shards:
        for index, shard in enumerate(shards):
            yield index, function(shared, shard)
    elif backend == "processes":
        import multiprocessing
        import os

        ctx = multiprocessing.get_context("spawn")
        jobs = [(function, i, shard) for i, shard in enumerate(shards)]
        with ctx.Pool(min(workers, len(jobs)), _init_local, (shared, os.getpid())) as pool:
            yield from pool.imap_unordered(_run_local, jobs)
    elif backend == "ray":
        from nsmcli.train.backends.ray import ray_map

        yield from ray_map(function, shared, shards, workers, address)
    else:
        raise BackendError(f"--backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
