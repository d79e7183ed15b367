"""The question encoder (MAPO §4.1): word embedding + token features -> residual bi-LSTM -> projection."""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


@dataclass
class Encoded:
    """Encoder results for a batch of questions."""

    outputs: torch.Tensor  # [Q, L, H] projected bi-LSTM outputs (attention and entity spans read them)
    mask: torch.Tensor  # [Q, L] True at real tokens
    state: list[tuple[torch.Tensor, torch.Tensor]]  # per layer (h, c) [Q, H]: forward final states


class QuestionEncoder(nn.Module):
    """Bi-LSTM layers of `hidden_size` per direction; layers after the first add their input (residual)."""

    def __init__(self, input_size: int, hidden_size: int, n_layers: int, dropout: float):
        super().__init__()
        self.layers = nn.ModuleList(
            nn.LSTM(
                input_size if i == 0 else 2 * hidden_size, hidden_size, batch_first=True, bidirectional=True
            )
            for i in range(n_layers)
        )
        for layer in self.layers:
            _forget_bias_one(layer)
        self.project = nn.Linear(2 * hidden_size, hidden_size)
        self.dropout = dropout

    def forward(self, inputs: torch.Tensor, lengths: torch.Tensor, drop: bool) -> Encoded:
        """`inputs` [Q, L, input_size] padded; `lengths` [Q] (CPU, each >= 1)."""
        max_len = inputs.shape[1]
        mask = torch.arange(max_len, device=inputs.device)[None, :] < lengths.to(inputs.device)[:, None]
        x = inputs
        state = []
        for i, layer in enumerate(self.layers):
            packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
            out, (h, c) = layer(packed)
            out, _ = pad_packed_sequence(out, batch_first=True, total_length=max_len)
            out = F.dropout(out, self.dropout, training=drop)
            x = out if i == 0 else out + x
            state.append((h[0], c[0]))  # direction 0 = forward, at each sequence's true end
        return Encoded(self.project(x), mask, state)


def _forget_bias_one(lstm: nn.LSTM | nn.LSTMCell) -> None:
    """Forget-gate bias 1 (TF's BasicLSTMCell default): PyTorch has two biases, so set one and zero the other."""
    for name, param in lstm.named_parameters():
        if name.startswith("bias"):
            with torch.no_grad():
                param.zero_()
                if name.startswith("bias_ih"):
                    h = param.shape[0] // 4
                    param[h : 2 * h] = 1.0
