"""The `processes` backend (`--actors N`): N local worker processes, each with its model copy and question
pool, fed weights and shards of each batch through queues."""

from __future__ import annotations

import os
import queue as queue_mod
import time
from typing import Any

import torch

from nsmcli.errors import NsmError
from nsmcli.process import die_with_parent
from nsmcli.train.actors import ActRequest, ActResult, act
from nsmcli.train.backends import WorkerSpec, merge_results, split_request
from nsmcli.train.rundir import cpu_copy


def _worker(rank: int, spec: WorkerSpec, inbox: Any, outbox: Any, parent_pid: int) -> None:
    die_with_parent(parent_pid)
    torch.set_num_threads(1)
    try:
        model, pool = spec.build()
        while True:
            message = inbox.get()
            if message is None:
                break
            tag, state_dict, request = message
            model.load_state_dict(state_dict)
            result = act(model, [pool.get(q) for q in request.ids], request)
            outbox.put((tag, rank, result, None, time.process_time()))
    except Exception as exc:  # reported to the learner, which raises it as one line
        outbox.put((None, rank, None, f"{type(exc).__name__}: {exc}", 0.0))


class ActorPool:
    """N worker processes; each batch is split into N contiguous shards, one per worker."""

    overlaps = True

    def __init__(self, n: int, spec: WorkerSpec):
        import torch.multiprocessing as mp

        ctx = mp.get_context("spawn")
        self.n = n
        self.outbox = ctx.Queue()
        self.inboxes = [ctx.Queue() for _ in range(n)]
        self.procs = [
            ctx.Process(
                target=_worker, args=(r, spec, self.inboxes[r], self.outbox, os.getpid()), daemon=True
            )
            for r in range(n)
        ]
        for p in self.procs:
            p.start()
        self.worker_cpu = [0.0] * n
        self.pending: set[int] = set()
        self.early: dict[tuple[int, int], ActResult] = {}  # (tag, rank): answers to a later batch

    def cpu_seconds(self) -> float:
        """CPU time the workers have used so far (start-up included), as of their latest answers."""
        return sum(self.worker_cpu)

    def submit(self, tag: int, state_dict: dict, request: ActRequest) -> None:
        """Send one batch out; weights are cloned so the learner may keep updating its own in place."""
        snapshot = cpu_copy(state_dict)
        self.pending.add(tag)
        for r, part in enumerate(split_request(request, self.n)):
            self.inboxes[r].put((tag, snapshot, part))

    def collect(self, tag: int, timeout: float = 5.0) -> ActResult:
        parts = {r: self.early.pop((tag, r)) for r in range(self.n) if (tag, r) in self.early}
        while len(parts) < self.n:
            try:
                got_tag, rank, result, failure, cpu = self.outbox.get(timeout=timeout)
            except queue_mod.Empty:
                dead = [r for r, p in enumerate(self.procs) if not p.is_alive()]
                if dead:
                    raise NsmError(
                        f"actor process {dead[0]} died (exit code {self.procs[dead[0]].exitcode})"
                    ) from None
                continue
            if failure is not None:
                raise NsmError(f"actor process {rank} failed: {failure}")
            self.worker_cpu[rank] = cpu
            if got_tag == tag:
                parts[rank] = result
            elif got_tag in self.pending:  # a worker already done with this batch answers the next one
                self.early[got_tag, rank] = result
            else:
                raise NsmError(f"actor process {rank} answered batch {got_tag}, which was not submitted")
        self.pending.discard(tag)
        return merge_results([parts[r] for r in range(self.n)])

    def close(self) -> None:
        for box in self.inboxes:
            box.put(None)
        for p in self.procs:
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()
