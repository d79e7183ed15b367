"""Sample weights of every training objective, and the loss built from them.

All objectives share one form: a list of (question, program, weight) items and the loss
    sum_i weight_i * (-log pi(program_i)) / normaliser  (+ entropy regularisation).
Only the weights differ, so each algorithm is one small function from what the actor saw for a question
(buffer programs with their probabilities, on-policy samples with rewards, the greedy decode's reward) to
weighted items. They are registered in `OBJECTIVES`; the loop never asks which algorithm it runs.

MAPO (mapo.md §5.1-5.2): with pi_B the model's total probability of the buffer and w = max(pi_B, alpha),
the in-buffer expectation gets weight w (split over the replayed programs: sampled in proportion to pi, or
enumerated exactly when the buffer is small) and an on-policy sample outside the buffer (one-shot rejection
sampling: a sample inside the buffer is dropped, not redrawn) gets (1 - w) * R, or R when the question has
no buffer yet.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import torch

from nsmcli.train.config import TrainConfig

Tokens = tuple[int, ...]


@dataclass
class Sample:
    tokens: Tokens
    reward: float


@dataclass
class QuestionData:
    """What the objective sees for one question of the batch."""

    buffer: list[Tokens] = field(default_factory=list)
    buffer_logps: list[float] = field(default_factory=list)
    policy: list[Sample] = field(default_factory=list)
    """On-policy samples that finished without error."""
    greedy_reward: float | None = None
    buffer_rewards: list[float] | None = None
    """Each buffer program's reward (None: all 1, the table worlds' consistent programs)."""


@dataclass
class Item:
    """One training sample: `kind` is replay (from the buffer), nonreplay (MAPO's out-of-buffer sample) or
    policy (REINFORCE-style). `reward` and `actor_weight` (the w the actor used) let the learner recompute
    weights from its own probabilities (`trainer_prob`)."""

    question: int
    tokens: Tokens
    weight: float
    kind: str
    reward: float = 0.0
    actor_weight: float = 0.0


@dataclass
class Stats:
    with_buffer: int = 0
    clipped: int = 0
    """Questions with a buffer whose pi_B is below alpha (OFF's clip_frac numerator)."""
    pi_b: float = 0.0
    """Sum of pi_B over questions with a buffer."""


# ----- choosing buffer programs ---------------------------------------------------------------------------


def select_replay(
    logps: Sequence[float], n: int, mode: str, generator: torch.Generator
) -> list[tuple[int, float]]:
    """(buffer index, weight) pairs whose weights sum to 1: an estimate of the expectation over the buffer
    under pi restricted to it (`sample`, `top_k`) or under the uniform distribution (`uniform`). A buffer of
    at most n programs is enumerated exactly."""
    k = len(logps)
    if k == 0:
        return []
    lp = torch.tensor(list(logps), dtype=torch.float64)
    if mode == "top_k":
        order = sorted(range(k), key=lambda i: (-logps[i], i))[:n]
        probs = torch.softmax(lp[order], 0).tolist()
        return list(zip(order, probs, strict=True))
    if k <= n:
        probs = [1.0 / k] * k if mode == "uniform" else torch.softmax(lp, 0).tolist()
        return list(enumerate(probs))
    dist = torch.full((k,), 1.0 / k, dtype=torch.float64) if mode == "uniform" else torch.softmax(lp, 0)
    picks = torch.multinomial(dist, n, replacement=True, generator=generator).tolist()
    return [(i, 1.0 / n) for i in picks]


def buffer_probability(logps: Sequence[float]) -> float:
    """pi_B = sum of the buffer programs' probabilities (computed in log space)."""
    if not logps:
        return 0.0
    return math.exp(torch.logsumexp(torch.tensor(list(logps), dtype=torch.float64), 0).item())


# ----- the objectives -------------------------------------------------------------------------------------


def _mapo(qi: int, q: QuestionData, cfg: TrainConfig, gen: torch.Generator, stats: Stats) -> list[Item]:
    items = []
    w = 0.0
    if q.buffer:
        pi_b = buffer_probability(q.buffer_logps)
        w = max(pi_b, cfg.min_replay_weight)
        stats.with_buffer += 1
        stats.clipped += pi_b < cfg.min_replay_weight
        stats.pi_b += pi_b
        rewards = q.buffer_rewards or [1.0] * len(q.buffer)
        for i, share in select_replay(q.buffer_logps, cfg.n_replay, cfg.replay_mode, gen):
            # graded rewards: the in-buffer expectation of R under pi restricted to the buffer
            weight = w * share * rewards[i]
            items.append(Item(qi, q.buffer[i], weight, "replay", rewards[i], w))
    in_buffer = set(q.buffer)
    for s in q.policy:
        if s.tokens in in_buffer:
            continue  # rejected: this sample belongs to the in-buffer term
        weight = (1.0 - w) * s.reward if q.buffer else s.reward
        items.append(Item(qi, s.tokens, weight, "nonreplay", s.reward, w))
    return items


def _replay_only(mode: str | None) -> Callable:
    def objective(
        qi: int, q: QuestionData, cfg: TrainConfig, gen: torch.Generator, stats: Stats
    ) -> list[Item]:
        if not q.buffer:
            return []
        stats.with_buffer += 1
        n = 1 if mode == "top_k" else cfg.n_replay
        picks = select_replay(q.buffer_logps, n, mode or cfg.replay_mode, gen)
        return [Item(qi, q.buffer[i], share, "replay", 1.0, 1.0) for i, share in picks]

    return objective


def _policy_gradient(baseline: str) -> Callable:
    def objective(
        qi: int, q: QuestionData, cfg: TrainConfig, gen: torch.Generator, stats: Stats
    ) -> list[Item]:
        if not q.policy:
            return []
        b = 0.0
        if baseline == "greedy":
            b = q.greedy_reward or 0.0
        elif baseline == "mean" and cfg.use_baseline:
            b = sum(s.reward for s in q.policy) / len(q.policy)
        # "value": the weight becomes R - V(problem) in the learner, where the value head is evaluated
        kind = "critic" if baseline == "value" else "policy"
        return [Item(qi, s.tokens, s.reward - b, kind, s.reward) for s in q.policy]

    return objective


#: algorithm -> weights of one question's items. MML enumerates/samples in proportion to pi (weight = the
#: normalised probability), IML uniformly, hard EM takes the most probable buffer program. Actor-critic
#: (Keneshloo et al. 2018's A2C form for sequence generation): REINFORCE with a learned value baseline,
#: `advantages` below.
OBJECTIVES: dict[str, Callable[[int, QuestionData, TrainConfig, torch.Generator, Stats], list[Item]]] = {
    "mapo": _mapo,
    "mml": _replay_only(None),
    "iml": _replay_only("uniform"),
    "hard-em": _replay_only("top_k"),
    "reinforce": _policy_gradient("mean"),
    "actor-critic": _policy_gradient("value"),
    "self-critical": _policy_gradient("greedy"),
}


def weigh(
    cfg: TrainConfig, questions: Sequence[QuestionData], generator: torch.Generator
) -> tuple[list[Item], Stats]:
    """The weighted training items of a batch under the configured algorithm."""
    stats = Stats()
    objective = OBJECTIVES[cfg.algo]
    items: list[Item] = []
    for qi, q in enumerate(questions):
        items.extend(objective(qi, q, cfg, generator, stats))
    return items, stats


def reweigh_with_learner(items: Sequence[Item], logps: torch.Tensor, cfg: TrainConfig) -> list[float]:
    """OFF's use_trainer_prob: recompute MAPO weights from the learner's own probabilities of the replayed
    programs: replay weight p_i / sum(p) * w with w = max(sum(p), alpha), non-replay weight (1 - w) * R. With
    `squared_nonreplay_weight` the actor's (1 - w) is kept as well, reproducing OFF's (1 - w)^2."""
    lp = logps.detach().double().cpu()
    replay: dict[int, list[int]] = {}
    for j, item in enumerate(items):
        if item.kind == "replay":
            replay.setdefault(item.question, []).append(j)
    w_of: dict[int, float] = {}
    weights = [item.weight for item in items]
    for q, idx in replay.items():
        total = math.exp(torch.logsumexp(lp[idx], 0).item())
        w = max(total, cfg.min_replay_weight)
        w_of[q] = w
        shares = torch.softmax(lp[idx], 0).tolist()
        for j, share in zip(idx, shares, strict=True):
            weights[j] = share * w
    for j, item in enumerate(items):
        if item.kind == "nonreplay" and item.question in w_of:
            weight = (1.0 - w_of[item.question]) * item.reward
            if cfg.squared_nonreplay_weight:
                weight *= 1.0 - item.actor_weight
            weights[j] = weight
    return weights


def advantages(items: Sequence[Item], values: torch.Tensor) -> torch.Tensor:
    """actor-critic: each sample's weight R - V, with V the value head's estimate for its problem (no
    gradient through the weight: the critic learns from `value_loss`)."""
    rewards = torch.tensor([it.reward for it in items], dtype=values.dtype, device=values.device)
    return rewards - values.detach()


def value_loss(items: Sequence[Item], values: torch.Tensor) -> torch.Tensor:
    """Mean squared error of the value head against the samples' rewards."""
    rewards = torch.tensor([it.reward for it in items], dtype=values.dtype, device=values.device)
    return ((values - rewards) ** 2).mean()


# ----- the loss -------------------------------------------------------------------------------------------


def loss(
    weights: torch.Tensor, logps: torch.Tensor, entropy: torch.Tensor | None, cfg: TrainConfig, n_samples: int
) -> torch.Tensor:
    """sum(w * -log pi) / normaliser -/+ entropy_coeff * sum(H) / normaliser.

    `normalize_by=samples` divides by the samples actually in the batch; `batch_size` reproduces OFF: the
    policy term times n_replay (its `scale`) over the configured batch size, the entropy over the batch
    size. With `entropy_sign=correct` the entropy is subtracted (maximised); `official` adds it, OFF's bug.
    """
    if cfg.normalize_by == "batch_size":
        pg_norm, ent_norm = cfg.batch_size / cfg.n_replay, float(cfg.batch_size)
    else:
        pg_norm = ent_norm = float(max(1, n_samples))
    total = -(weights * logps).sum() / pg_norm
    if entropy is not None and cfg.entropy_coeff:
        sign = -1.0 if cfg.entropy_sign == "correct" else 1.0
        total = total + sign * cfg.entropy_coeff * entropy.sum() / ent_norm
    return total


def entropy_estimate(logps: torch.Tensor) -> torch.Tensor:
    """Per-sample entropy estimate for on-policy samples when the model has no exact per-step entropy:
    its value is -log pi(a) (E[-log pi] = H) and its gradient -log pi(a) * grad log pi(a), the score-function
    estimate of grad H."""
    neg = -logps.detach()
    return neg + neg * (logps - logps.detach())
