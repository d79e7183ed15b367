"""An exponential moving average of the model's weights, for evaluation and the kept best model.

Why: on WTQ a MAPO run's dev accuracy flattens into noise (+-1 point) after ~9,000 steps, and averaging the
best and the last weights of one run scored 1.3 points above either (BENCHMARKS.md). The trainer keeps
learning and sampling with its own weights; only evaluation (and so `best/`) sees the average. Not in the
original MAPO.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch

from nsmcli.train.rundir import cpu_copy


class WeightAverage:
    """Shadow copy of every floating-point tensor of a model's state, moved towards the model after each
    optimizer step by `decay`, warmed up as `min(decay, (1 + t) / (10 + t))` with t the steps since the
    average began at step `start` (0 for a new run; a resumed run may turn the average on), so its first
    weights do not dominate a short average."""

    def __init__(self, model: torch.nn.Module, decay: float, start: int = 0):
        if not 0.0 < decay < 1.0:
            raise ValueError(f"average decay must be in (0, 1), got {decay}")
        self.decay = decay
        self.start = start
        self.shadow = {
            k: v.detach().clone() for k, v in model.state_dict().items() if torch.is_floating_point(v)
        }

    def rate(self, step: int) -> float:
        """The decay used after optimizer step `step` (1-based, counted from the start of the run)."""
        t = step - self.start
        return min(self.decay, (1.0 + t) / (10.0 + t))

    @torch.no_grad()
    def update(self, model: torch.nn.Module, step: int) -> None:
        d = self.rate(step)
        state = model.state_dict()
        for k, v in self.shadow.items():
            v.mul_(d).add_(state[k].detach(), alpha=1.0 - d)

    def state(self) -> dict[str, torch.Tensor]:
        """The averaged tensors (on the CPU), as saved in a checkpoint."""
        return cpu_copy(self.shadow)

    def load(self, state: dict[str, torch.Tensor]) -> None:
        if set(state) != set(self.shadow):
            raise ValueError("the checkpoint's weight average does not match the model")
        for k, v in state.items():
            self.shadow[k].copy_(v)

    @contextmanager
    def applied(self, model: torch.nn.Module) -> Iterator[None]:
        """Inside the block the model holds the averaged weights; its own are restored afterwards."""
        own = {k: v.detach().clone() for k, v in model.state_dict().items() if k in self.shadow}
        model.load_state_dict(self.shadow, strict=False)
        try:
            yield
        finally:
            model.load_state_dict(own, strict=False)
