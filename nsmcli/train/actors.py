"""The actor: (weights, example ids) -> samples. Where it runs is a sampling backend's business
(`nsmcli.train.backends`: inline, worker processes or Ray actors).

For each question of a batch the actor draws exploration samples (from the policy, hiding what the
exploration cache says is explored), scores every buffer program (including the ones it just found) with the
model, draws on-policy samples, and for self-critical decodes greedily. It returns token ids and numbers only,
so the learner and the actors exchange nothing but weights, example ids and token ids (torchbeast's
shape; mapo.md §5.2 steps 1-3).

Randomness comes from a generator seeded by (seed, step, example ids), so a batch's samples are a function
of the weights and the batch alone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from nsmcli.train.questions import QuestionEnv

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
    if not questions:  # an actor's empty shard (more actors than questions in a step)
        return ActResult()
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
