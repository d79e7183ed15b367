"""The `ray` backend: actors, exploration and evaluation on a Ray instance (`--backend ray`).

Without an address, a Ray instance is started on this machine for the run (loopback only, no dashboard,
one logical CPU per actor or worker) and stopped after it; `auto` joins the cluster this machine is part
of, `ray://HOST:PORT` connects to a cluster's head through Ray Client. An instance the caller started
already (`ray.init`) is used as it is and left running.

Training: the learner stays in the driver; each actor holds its own model copy and question pool, built
from the split's data shipped once through the object store. Weights go into the object store once per
update and every actor reads the same object. An actor that dies (killed, out of memory) is replaced and
its shards of the batches in flight are submitted again; since a shard's samples depend only on the
weights and the shard, the run goes on as if nothing happened, and says so in one logged line.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from nsmcli.errors import NsmError
from nsmcli.train.actors import ActRequest, ActResult, act
from nsmcli.train.backends import (
    BackendError,
    SplitData,
    WorkerSpec,
    import_ray,
    merge_results,
    split_request,
)

log = logging.getLogger(__name__)

#: How often one actor may die on the same batch before the run gives up.
MAX_RESTARTS_PER_BATCH = 3


class RaySession:
    """A connection to Ray: the caller's instance, a cluster (`address`), or a local one started here."""

    def __init__(self, address: str | None, num_cpus: int):
        self.ray = import_ray()
        self.started = False
        if self.ray.is_initialized():
            return
        options: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": True}
        if address is None:
            options.update(num_cpus=max(1, num_cpus), include_dashboard=False, _node_ip_address="127.0.0.1")
        try:
            self.ray.init(address=address, **options)
        except Exception as exc:  # ConnectionError, RuntimeError, ... : what Ray says, on one line
            where = f"at {address}" if address else "on this machine"
            raise BackendError(
                f"could not start or reach Ray {where}: {' '.join(str(exc).split())}"
            ) from None
        self.started = True

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()
            self.started = False


class _SamplingActor:
    """One Ray actor: a model copy and a question pool over the shipped split."""

    def __init__(self, spec: WorkerSpec, data: SplitData):
        import torch  # here, not at the top: exploration's tasks import this module and need no torch

        torch.set_num_threads(1)
        self.model, self.pool = spec.build(data)

    def act(self, state_dict: dict, request: ActRequest) -> tuple[ActResult, float]:
        self.model.load_state_dict(state_dict)
        return act(self.model, [self.pool.get(q) for q in request.ids], request), time.process_time()

    def pid(self) -> int:
        return os.getpid()


class RayBackend:
    """N Ray actors; each batch is split into the same N contiguous shards as `processes` uses."""

    overlaps = True

    def __init__(self, n: int, spec: WorkerSpec, data: SplitData, address: str | None = None):
        data.dataset.load()  # read here, so the actors are shipped it instead of reading it
        self.session = RaySession(address, n)
        ray = self.ray = self.session.ray
        try:
            self.n, self.spec = n, spec
            self.data_ref = ray.put(data)
            self.actor_class = ray.remote(num_cpus=1, max_restarts=0)(_SamplingActor)
            self.actors = [self._start() for _ in range(n)]
            # tag -> (weights in the object store, the shards, each shard's pending result)
            self.pending: dict[int, tuple[Any, list[ActRequest], list[Any]]] = {}
            self.worker_cpu = [0.0] * n
            self.cpu_of_dead = 0.0
            self.restarts = 0
        except BaseException:
            self.session.close()
            raise

    def _start(self) -> Any:
        return self.actor_class.remote(self.spec, self.data_ref)

    def cpu_seconds(self) -> float:
        """CPU time the actors have used so far (replaced ones included), as of their latest answers."""
        return self.cpu_of_dead + sum(self.worker_cpu)

    def submit(self, tag: int, state_dict: dict, request: ActRequest) -> None:
        weights = self.ray.put({k: v.detach().to("cpu") for k, v in state_dict.items()})  # copied in now
        parts = split_request(request, self.n)
        self.pending[tag] = (
            weights,
            parts,
            [a.act.remote(weights, p) for a, p in zip(self.actors, parts, strict=True)],
        )

    def collect(self, tag: int) -> ActResult:
        ray = self.ray
        _, parts, refs = self.pending[tag]
        results: list[ActResult] = []
        for rank in range(self.n):
            deaths = 0
            while True:
                try:
                    result, cpu = ray.get(refs[rank])
                    break
                except (ray.exceptions.RayActorError, ray.exceptions.ObjectLostError) as exc:
                    deaths += 1
                    if deaths > MAX_RESTARTS_PER_BATCH:
                        raise BackendError(
                            f"Ray actor {rank} died {deaths} times on batch {tag}; giving up: {_brief(exc)}"
                        ) from None
                    self._replace(rank, tag, exc)
                except ray.exceptions.RayTaskError as exc:
                    raise BackendError(f"Ray actor {rank} failed: {_brief(exc.cause or exc)}") from None
            self.worker_cpu[rank] = cpu
            results.append(result)
        del self.pending[tag]
        return merge_results(results)

    def _replace(self, rank: int, tag: int, exc: BaseException) -> None:
        """A new actor in place of a dead one, given the dead one's shards of every batch in flight."""
        self.restarts += 1
        self.cpu_of_dead += self.worker_cpu[rank]
        self.worker_cpu[rank] = 0.0
        with contextlib.suppress(Exception):
            self.ray.kill(self.actors[rank])
        self.actors[rank] = self._start()
        for weights, parts, refs in self.pending.values():
            refs[rank] = self.actors[rank].act.remote(weights, parts[rank])
        log.warning(
            "Ray actor %d died (%s) on batch %d; restarted it and resubmitted its work",
            rank,
            _brief(exc, 120),
            tag,
        )

    def close(self) -> None:
        with contextlib.suppress(Exception):
            for actor in self.actors:
                self.ray.kill(actor)
        self.pending.clear()
        self.session.close()


def _brief(exc: BaseException, limit: int = 300) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ----- tasks over shards (exploration, evaluation) -------------------------------------------------------

#: What a Ray worker process has deserialized of the shared objects it was given (ObjectRef hex -> value).
_SHARED: dict[str, Any] = {}


def _run_shard(function: Callable[[Any, Any], Any], shared: list, index: int, shard: Any) -> tuple[int, Any]:
    # `shared` holds the reference in a list, so Ray does not resolve it per task: each worker process
    # deserializes the shared object once, however many shards it runs
    ray = import_ray()
    key = shared[0].hex()
    if key not in _SHARED:
        _SHARED.clear()
        _SHARED[key] = ray.get(shared[0])
    return index, function(_SHARED[key], shard)


def ray_map(
    function: Callable[[Any, Any], Any],
    shared: Any,
    shards: Iterable[Any],
    workers: int,
    address: str | None = None,
) -> Iterator[tuple[int, Any]]:
    """(index, function(shared, shard)) for every shard, as Ray tasks finish (in any order). `shared` goes
    through the object store once. A task whose worker dies is run again by Ray."""
    session = RaySession(address, workers)
    ray = session.ray
    pending: list = []
    try:
        task = ray.remote(num_cpus=1, max_retries=MAX_RESTARTS_PER_BATCH)(_run_shard)
        shared_ref = [ray.put(shared)]
        pending = [task.remote(function, shared_ref, i, shard) for i, shard in enumerate(shards)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            try:
                yield ray.get(done[0])
            except ray.exceptions.RayTaskError as exc:
                if isinstance(exc.cause, NsmError):
                    raise exc.cause from None
                raise BackendError(f"a Ray task failed: {_brief(exc.cause or exc)}") from None
            except ray.exceptions.RayError as exc:
                raise BackendError(f"a Ray task was lost: {_brief(exc)}") from None
    finally:
        for ref in pending:
            with contextlib.suppress(Exception):
                ray.cancel(ref)
        session.close()
