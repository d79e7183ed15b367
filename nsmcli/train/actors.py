"""The actor: (weights, example ids) -> samples. One process calls it inline; `--actors N` runs it in workers.

For each question of a batch the actor draws exploration samples (from the policy, hiding what the
exploration cache says is explored), scores every buffer program (including the ones it just found) with the
model, draws on-policy samples, and for self-critical decodes greedily. It returns token ids and numbers only,
so the learner process and the workers exchange nothing but weights, example ids and token ids (torchbeast's
shape; mapo.md §5.2 steps 1-3).

Randomness comes from a generator seeded by (seed, step, example ids), so a batch's samples are a function
of the weights and the batch alone.
"""

from __future__ import annotations

import hashlib
import os
import queue as queue_mod
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from nsmcli.errors import NsmError
from nsmcli.process import die_with_parent
from nsmcli.train.questions import QuestionEnv
from nsmcli.train.rundir import cpu_copy

Tokens = tuple[int, ...]


def derive_seed(*parts: Any) -> int:
    """A 63-bit seed from any parts; stable across processes and Python runs (unlike hash())."""
    digest = hashlib.sha256(repr(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "little") & ((1 << 63) - 1)


def generator(*parts: Any) -> torch.Generator:
    return torch.Generator().manual_seed(derive_seed(*parts))


@dataclass
class ActRequest:
    step: int
    seed: int
    ids: list[str]
    buffers: list[list[Tokens]]
    explored: list[dict[Tokens, set[int]]]
    n_explore: list[int]
    """Exploration samples per question (0 when the question is exhausted)."""
    n_policy: int
    greedy: bool
    max_steps: int
    min_reward: float = 0.5
    """A found program joins the buffer when its reward exceeds this (`TrainConfig.buffer_min_reward`)."""


@dataclass
class ActResult:
    explored: list[list[tuple[Tokens, float]]] = field(default_factory=list)
    """Finished exploration samples with their reward."""
    scored: list[list[tuple[Tokens, float]]] = field(default_factory=list)
    """The buffer after exploration (old programs first, then new ones) with log pi of each."""
    policy: list[list[tuple[Tokens, float]]] = field(default_factory=list)
    """On-policy samples that finished without error, with their reward."""
    greedy_reward: list[float | None] = field(default_factory=list)
    n_samples: int = 0
    """Programs scored (the run's program evaluations; repeats included)."""


def act(
    model: Any, questions: Sequence[QuestionEnv], request: ActRequest, score_chunk: int = 512
) -> ActResult:
    """Sample for one batch with the model's current weights (no gradient, dropout off)."""
    gen = generator(request.seed, request.step, "act", *request.ids)
    n = len(questions)
    contexts = [q.context for q in questions]
    envs = [q.env for q in questions]
    out = ActResult(explored=[[] for _ in range(n)], greedy_reward=[None] * n)
    was_training = model.training
    model.eval()
    try:
        with torch.no_grad():
            # 1. systematic exploration: one call per distinct sample count
            for count in sorted({c for c in request.n_explore if c > 0}):
                idx = [i for i in range(n) if request.n_explore[i] == count]
                tables = [request.explored[i] for i in idx]

                def exclude(j: int, prefix: Sequence[int], tables=tables) -> set[int]:
                    return tables[j].get(tuple(prefix), set())

                drawn = model.sample(
                    [contexts[i] for i in idx],
                    [envs[i] for i in idx],
                    count,
                    gen,
                    exclude=exclude,
                    max_steps=request.max_steps,
                )
                for i, samples in zip(idx, drawn, strict=True):
                    seen = set()
                    for tokens, _ in samples:
                        tokens = tuple(int(t) for t in tokens)
                        if tokens in seen:
                            continue
                        seen.add(tokens)
                        r, finished = questions[i].score(tokens)
                        out.n_samples += 1
                        if finished:
                            out.explored[i].append((tokens, r))
            # 2. the buffer after exploration, scored by the model
            buffers = []
            for i in range(n):
                buf = list(request.buffers[i])
                known = set(buf)
                for tokens, r in out.explored[i]:
                    if r > request.min_reward and tokens not in known:
                        buf.append(tokens)
                        known.add(tokens)
                buffers.append(buf)
            flat = [(i, p) for i in range(n) for p in buffers[i]]
            logps: list[float] = []
            for s in range(0, len(flat), score_chunk):
                chunk = flat[s : s + score_chunk]
                lp = model.log_probs(
                    [contexts[i] for i, _ in chunk], [envs[i] for i, _ in chunk], [p for _, p in chunk]
                )
                logps.extend(float(x) for x in lp.detach().cpu().tolist())
            out.scored = [[] for _ in range(n)]
            for (i, p), lp in zip(flat, logps, strict=True):
                out.scored[i].append((p, lp))
            # 3. on-policy samples (no exclusion); error samples are dropped as in OFF
            out.policy = [[] for _ in range(n)]
            if request.n_policy > 0:
                drawn = model.sample(contexts, envs, request.n_policy, gen, max_steps=request.max_steps)
                for i, samples in enumerate(drawn):
                    for tokens, _ in samples:
                        tokens = tuple(int(t) for t in tokens)
                        r, finished = questions[i].score(tokens)
                        out.n_samples += 1
                        if finished:
                            out.policy[i].append((tokens, r))
            # 4. the greedy decode's reward (self-critical baseline)
            if request.greedy:
                for i, (tokens, _) in enumerate(model.greedy(contexts, envs, max_steps=request.max_steps)):
                    out.greedy_reward[i] = questions[i].score(tuple(tokens))[0]
                    out.n_samples += 1
    finally:
        model.train(was_training)
    return out


# ----- worker processes -----------------------------------------------------------------------------------


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


def _worker(rank: int, spec: WorkerSpec, inbox: Any, outbox: Any, parent_pid: int) -> None:
    die_with_parent(parent_pid)
    torch.set_num_threads(1)
    try:
        from nsmcli.train.questions import QuestionPool, build_model

        model = build_model(spec.kit, spec.model_config, spec.vocab, pretrained=False)
        pool = QuestionPool.open(spec.source, spec.split, spec.limits, model, spec.seed)
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
    """N worker processes; each batch is split into N contiguous chunks, one per worker."""

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
        self.pending: dict[Any, list[tuple[int, int]]] = {}
        self.worker_cpu = [0.0] * n

    def cpu_seconds(self) -> float:
        """CPU time the workers have used so far (start-up included), as of their latest answers."""
        return sum(self.worker_cpu)

    def submit(self, tag: Any, state_dict: dict, request: ActRequest) -> None:
        """Send one batch out; weights are cloned so the learner may keep updating its own in place."""
        snapshot = cpu_copy(state_dict)
        size = len(request.ids)
        bounds = [(size * r // self.n, size * (r + 1) // self.n) for r in range(self.n)]
        self.pending[tag] = bounds
        for r, (a, b) in enumerate(bounds):
            part = ActRequest(
                request.step,
                request.seed,
                request.ids[a:b],
                request.buffers[a:b],
                request.explored[a:b],
                request.n_explore[a:b],
                request.n_policy,
                request.greedy,
                request.max_steps,
            )
            self.inboxes[r].put((tag, snapshot, part))

    def collect(self, tag: Any, timeout: float = 5.0) -> ActResult:
        parts: dict[int, ActResult] = {}
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
            if got_tag != tag:
                raise NsmError(f"actor process {rank} answered batch {got_tag}, expected {tag}")
            parts[rank] = result
            self.worker_cpu[rank] = cpu
        del self.pending[tag]
        merged = ActResult()
        for r in range(self.n):
            part = parts[r]
            merged.explored += part.explored
            merged.scored += part.scored
            merged.policy += part.policy
            merged.greedy_reward += part.greedy_reward
            merged.n_samples += part.n_samples
        return merged

    def close(self) -> None:
        for box in self.inboxes:
            box.put(None)
        for p in self.procs:
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()
