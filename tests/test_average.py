"""The weight average that evaluation can use instead of the trained weights (`average_decay`)."""

from __future__ import annotations

import pytest
import torch

from nsmcli.train.average import WeightAverage


def _linear(value: float) -> torch.nn.Linear:
    layer = torch.nn.Linear(2, 1)
    with torch.no_grad():
        layer.weight.fill_(value)
        layer.bias.fill_(value)
    return layer


def test_average_follows_the_formula_and_leaves_the_model_alone():
    model = _linear(0.0)
    average = WeightAverage(model, decay=0.99)
    with torch.no_grad():
        model.weight.fill_(1.0)
        model.bias.fill_(1.0)
    average.update(model, step=1)  # warm-up: rate = min(0.99, 2 / 11)
    expected = 1.0 - 2.0 / 11.0
    assert average.rate(1) == pytest.approx(2.0 / 11.0)
    assert average.rate(10_000) == 0.99
    assert torch.allclose(average.state()["weight"], torch.full((1, 2), expected))
    with average.applied(model):
        assert torch.allclose(model.weight, torch.full((1, 2), expected))
    assert torch.equal(model.weight, torch.ones(1, 2))  # the trained weights are back


def test_average_restores_the_model_after_an_error_and_refuses_a_foreign_state():
    model = _linear(2.0)
    average = WeightAverage(model, decay=0.5)
    with torch.no_grad():
        model.weight.fill_(4.0)
    with pytest.raises(RuntimeError), average.applied(model):
        raise RuntimeError("evaluation failed")
    assert torch.equal(model.weight, torch.full((1, 2), 4.0))
    with pytest.raises(ValueError, match="does not match"):
        average.load({"weight": torch.zeros(1, 2)})
    with pytest.raises(ValueError, match="decay"):
        WeightAverage(model, decay=1.0)
