"""The `inline` backend: the actor runs in the learner's process, on the learner's current weights."""

from __future__ import annotations

from typing import Any

from nsmcli.train.actors import ActRequest, ActResult, act
from nsmcli.train.backends import SplitData, WorkerSpec
from nsmcli.train.rundir import cpu_copy


class InlineBackend:
    """Samples a batch when it is collected. The actor samples on the CPU: with the learner's own model,
    or (`cpu_spec` given, for a learner on a GPU) with a CPU copy loaded before each batch."""

    overlaps = False

    def __init__(self, pool: Any, cpu_spec: WorkerSpec | None = None):
        self.model, self.pool = pool.model, pool
        if cpu_spec is not None:
            data = SplitData(pool.dataset, list(pool.examples.values()))
            self.model, self.pool = cpu_spec.build(data)
        self.copies = cpu_spec is not None
        self.pending: dict[int, tuple[dict, ActRequest]] = {}

    def submit(self, tag: int, state_dict: dict, request: ActRequest) -> None:
        self.pending[tag] = (state_dict, request)

    def collect(self, tag: int) -> ActResult:
        state_dict, request = self.pending.pop(tag)
        if self.copies:
            self.model.load_state_dict(cpu_copy(state_dict))
        return act(self.model, [self.pool.get(q) for q in request.ids], request)

    def cpu_seconds(self) -> float:
        return 0.0  # the learner's own process, counted as such

    def close(self) -> None:
        self.pending.clear()
