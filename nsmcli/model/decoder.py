"""The memory-augmented pointer decoder (MAPO §4.2–4.3), generic over environments.

Every action (token) has a key in a per-question memory: learned rows for built-ins, keys built from each
constant's `ConstantKey`, and for computed results the decoder output of the step that created them. A step
feeds the previous action's key to a residual LSTM stack, attends over the question, and scores each action
by the dot product of the output with its key plus a learned weight times the action's feature. Only the
actions the environment says are valid take part in the softmax; everything else is masked.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence

import torch
import torch.nn.functional as F
from torch import nn

from nsmcli.model.context import Context
from nsmcli.model.encoder import Encoded, _forget_bias_one

State = list[tuple[torch.Tensor, torch.Tensor]]


def _trunc_normal(*shape: int, std: float) -> nn.Parameter:
    return nn.Parameter(nn.init.trunc_normal_(torch.empty(*shape), std=std, a=-2 * std, b=2 * std))


class MemoryKeys(nn.Module):
    """Builds the initial memory [Q, A, H] of a batch of contexts: built-ins and constants; computed slots 0."""

    def __init__(self, hidden_size: int, n_builtins: int, n_types: int, init_std: float, span_mask_bug: bool):
        super().__init__()
        self.builtins = _trunc_normal(n_builtins, hidden_size, std=init_std)
        self.types = _trunc_normal(n_types, hidden_size, std=init_std)
        self.name = nn.Linear(hidden_size, hidden_size)
        self.span_mask_bug = span_mask_bug

    def forward(
        self, contexts: Sequence[Context], encoded: Encoded, embed, columns: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Memory [Q, A, H] and action features [Q, A]; A leaves room for every row's computed slots. A
        column's name part is the mean `embed`ding of its name words, or with `columns` [Q, C, H] (a
        pretrained encoder's header vectors) the vector of its original column."""
        device = encoded.outputs.device
        hidden = self.builtins.shape[1]
        # computed slots start after each question's constants; pad so that the widest fits every row
        n_actions = max(c.n_builtins + len(c.constants) for c in contexts) + max(
            c.n_computed for c in contexts
        )
        for c in contexts:
            if c.n_builtins > self.builtins.shape[0]:
                raise ValueError(
                    f"environment has {c.n_builtins} built-in tokens; the model has {self.builtins.shape[0]}"
                    " (raise ModelConfig.n_builtins)"
                )
        q_idx, slot, types, names, spans, feats, column = [], [], [], [], [], [], []
        b_q, b_slot, b_row = [], [], []
        for q, c in enumerate(contexts):
            b_q += [q] * c.n_builtins
            b_slot += range(c.n_builtins)
            b_row += range(c.n_builtins)
            for i, k in enumerate(c.constants):
                q_idx.append(q)
                slot.append(c.n_builtins + i)
                types.append(k.type_id)
                names.append(k.name_ids)
                spans.append(k.span)
                feats.append(k.feature)
                column.append(k.column)
        dtype = encoded.outputs.dtype
        memory = torch.zeros(len(contexts), n_actions, hidden, device=device, dtype=dtype)
        memory = memory.index_put(
            (torch.tensor(b_q, device=device), torch.tensor(b_slot, device=device)),
            self.builtins[torch.tensor(b_row, device=device)],
        )
        features = torch.zeros(len(contexts), n_actions, device=device, dtype=dtype)
        if not q_idx:
            return memory, features
        q_t = torch.tensor(q_idx, device=device)
        slot_t = torch.tensor(slot, device=device)
        keys = self.types[torch.tensor(types, device=device)]
        if columns is not None:  # one vector per original column, shared by its views
            has = torch.tensor([c >= 0 for c in column], device=device)
            idx = torch.tensor([max(c, 0) for c in column], device=device)
            keys = keys + columns[q_t, idx] * has.unsqueeze(-1).to(keys.dtype)
        # name part: mean embedding of the name words, projected (columns)
        width = 0 if columns is not None else max(len(n) for n in names)
        if width:
            ids = torch.tensor([list(n) + [0] * (width - len(n)) for n in names], device=device)
            present = torch.tensor([[j < len(n) for j in range(width)] for n in names], device=device)
            counts = present.sum(1, keepdim=True)
            mean = (embed(ids) * present.unsqueeze(-1)).sum(1) / counts.clamp_min(1)
            keys = keys + torch.where(counts > 0, self.name(mean), torch.zeros_like(mean))
        # span part: mean of the encoder outputs at the span's first and last token (entities)
        starts, ends, has = [], [], []
        for s in spans:
            ok = s is not None and s[0] >= 0 and (not self.span_mask_bug or s[0] + s[1] > 0)
            starts.append(s[0] if ok else 0)
            ends.append(s[1] if ok else 0)
            has.append(ok)
        out = encoded.outputs
        span = 0.5 * (
            out[q_t, torch.tensor(starts, device=device)] + out[q_t, torch.tensor(ends, device=device)]
        )
        keys = keys + span * torch.tensor(has, device=device, dtype=span.dtype).unsqueeze(-1)
        memory = memory.index_put((q_t, slot_t), keys)
        features = features.index_put((q_t, slot_t), torch.tensor(feats, device=device, dtype=features.dtype))
        return memory, features


class MemoryDecoder(nn.Module):
    """Residual LSTM stack + attention over the question (additive as published, or scaled dot product) +
    dot-product pointer into the memory."""

    def __init__(
        self, hidden_size: int, n_layers: int, dropout: float, init_std: float, attention: str = "additive"
    ):
        super().__init__()
        self.cells = nn.ModuleList(nn.LSTMCell(hidden_size, hidden_size) for _ in range(n_layers))
        for cell in self.cells:
            _forget_bias_one(cell)
        self.go = _trunc_normal(hidden_size, std=init_std)  # the first step's input
        self.query = nn.Linear(hidden_size, hidden_size)
        self.key = nn.Linear(hidden_size, hidden_size)
        self.value = nn.Linear(hidden_size, hidden_size)
        self.dot = attention == "dot"
        if not self.dot:  # a dot-product model has no score vector, so its checkpoints say which it is
            self.score = nn.Linear(hidden_size, 1, bias=False)
        self.merge = nn.Linear(2 * hidden_size, hidden_size)
        self.feature_weight = nn.Parameter(torch.zeros(1))  # zero-initialised, as in the original
        self.dropout = dropout

    def attention_inputs(self, encoded: Encoded) -> tuple[torch.Tensor, torch.Tensor]:
        """Per-question attention keys and values, computed once per batch."""
        return self.key(encoded.outputs), self.value(encoded.outputs)

    def cell(self, x: torch.Tensor, state: State, drop: bool) -> tuple[torch.Tensor, State]:
        """The LSTM stack on inputs x [N, H]: the top layer's output [N, H] and the new state."""
        new_state = []
        inp = x
        for i, cell in enumerate(self.cells):
            h, c = cell(inp, state[i])
            new_state.append((h, c))
            out = F.dropout(h, self.dropout, training=True) if drop else h
            inp = out if i == 0 else out + inp
        return inp, new_state

    def attend(
        self, top: torch.Tensor, att_keys: torch.Tensor, att_values: torch.Tensor, att_mask: torch.Tensor
    ) -> torch.Tensor:
        """Output o = W[top; context] for top [N, H] or [N, T, H] (all T steps at once), attention tensors
        [N, L, H] and mask [N, L]. Additive attention: score_j = v·tanh(K_j + W_q top); dot product:
        score_j = K_j·W_q top / sqrt(H)."""
        steps = top.dim() == 3
        t = top if steps else top.unsqueeze(1)
        q = self.query(t)  # [N, T, H]
        if self.dot:
            scores = torch.bmm(q, att_keys.transpose(1, 2)) / math.sqrt(q.shape[-1])  # [N, T, L]
        else:
            scores = self.score(torch.tanh(att_keys.unsqueeze(1) + q.unsqueeze(2))).squeeze(-1)  # [N, T, L]
        scores = scores.masked_fill(~att_mask.unsqueeze(1), float("-inf"))
        context = torch.bmm(torch.softmax(scores, dim=-1), att_values)  # [N, T, H]
        out = self.merge(torch.cat([t, context], dim=-1))
        return out if steps else out.squeeze(1)

    def step(
        self,
        x: torch.Tensor,
        state: State,
        att_keys: torch.Tensor,
        att_values: torch.Tensor,
        att_mask: torch.Tensor,
        drop: bool,
    ) -> tuple[torch.Tensor, State]:
        """One step for N hypotheses: input keys x [N, H]; attention tensors already gathered to [N, L, ...]."""
        top, new_state = self.cell(x, state, drop)
        return self.attend(top, att_keys, att_values, att_mask), new_state

    def logits(
        self, output: torch.Tensor, memory: torch.Tensor, features: torch.Tensor, valid: torch.Tensor
    ) -> torch.Tensor:
        """Scores [N, A] of every action; invalid actions get -inf so a softmax covers the valid ones only."""
        raw = torch.bmm(memory, output.unsqueeze(-1)).squeeze(-1) + self.feature_weight * features
        return raw.masked_fill(~valid, float("-inf"))


#: Stacks of recently used ensembles: member decoder ids -> (weight versions, weak references, stack).
_STACKS: dict[tuple[int, ...], tuple[tuple, tuple[weakref.ref, ...], StackedDecoders]] = {}
_KEPT_STACKS = 4


class StackedDecoders:
    """The decoders of an ensemble's members stepped as one (inference only): their weights stacked on a
    leading member axis [M, ...], so a decoding step costs one set of batched ops for all members instead of
    one set per member. Every tensor it takes and gives has that axis first. Numerically the members' own
    steps, up to float rounding (the LSTM cell's gates are computed outside its fused kernel)."""

    def __init__(self, decoders: Sequence[MemoryDecoder]):
        def stacked(tensors: Sequence[torch.Tensor]) -> torch.Tensor:
            return torch.stack([t.detach() for t in tensors])

        first = decoders[0]
        # per layer: [W_ih W_hh]^T [M, 2H, 4H] (input and state in one product) and b_ih + b_hh [M, 1, 4H]
        # (gate order i, f, g, o)
        self.cells = [
            (
                stacked(
                    [torch.cat([d.cells[i].weight_ih, d.cells[i].weight_hh], dim=1).t() for d in decoders]
                ),
                stacked([d.cells[i].bias_ih + d.cells[i].bias_hh for d in decoders]).unsqueeze(1),
            )
            for i in range(len(first.cells))
        ]
        self.dot = first.dot
        self.query = (
            stacked([d.query.weight.t() for d in decoders]),
            stacked([d.query.bias for d in decoders]).unsqueeze(1),
        )
        self.score = (
            None if self.dot else stacked([d.score.weight.squeeze(0) for d in decoders]).unsqueeze(-1)
        )
        self.merge = (
            stacked([d.merge.weight.t() for d in decoders]),
            stacked([d.merge.bias for d in decoders]).unsqueeze(1),
        )
        self.feature_weight = stacked([d.feature_weight for d in decoders]).view(-1, 1, 1)

    @classmethod
    def of(cls, decoders: Sequence[MemoryDecoder]) -> StackedDecoders:
        """The stack of these decoders, built once while their weights stay as they are: stacking copies
        every weight, which would cost a parse about as much as the steps it saves."""
        key = tuple(id(d) for d in decoders)
        # a tensor's version counts its in-place writes (an optimizer step, load_state_dict); its storage
        # address changes when `.to()`, `.double()` or `.data =` give it new storage
        versions = tuple((p._version, p.data_ptr(), p.dtype) for d in decoders for p in d.parameters())
        found = _STACKS.get(key)
        if (
            found is not None
            and found[0] == versions
            and all(r() is d for r, d in zip(found[1], decoders, strict=True))
        ):
            return found[2]
        made = cls(decoders)
        _STACKS[key] = (versions, tuple(weakref.ref(d) for d in decoders), made)
        while len(_STACKS) > _KEPT_STACKS:
            del _STACKS[next(iter(_STACKS))]
        return made

    @staticmethod
    def fits(decoders: Sequence[MemoryDecoder]) -> bool:
        """Whether the decoders have one shape (hidden size, layers, attention), so that they stack."""
        first = decoders[0]

        def shape(d: MemoryDecoder) -> tuple:
            return (d.go.shape, len(d.cells), d.dot, d.go.dtype, d.go.device)

        return all(shape(d) == shape(first) for d in decoders)

    def step(
        self,
        x: torch.Tensor,
        state: State,
        att_keys: torch.Tensor,
        att_values: torch.Tensor,
        att_mask: torch.Tensor,
    ) -> tuple[torch.Tensor, State]:
        """`MemoryDecoder.step` for every member: x [M, N, H], attention tensors [M, N, L, ...]."""
        new_state = []
        inp = x
        for i, ((weight, bias), (h, c)) in enumerate(zip(self.cells, state, strict=True)):
            gates = torch.baddbmm(bias, torch.cat([inp, h], dim=-1), weight)
            in_gate, forget, cell, out_gate = gates.chunk(4, dim=-1)
            c = torch.sigmoid(forget) * c + torch.sigmoid(in_gate) * torch.tanh(cell)
            h = torch.sigmoid(out_gate) * torch.tanh(c)
            new_state.append((h, c))
            inp = h if i == 0 else h + inp
        m, n, hidden = inp.shape
        length = att_keys.shape[2]
        q = torch.baddbmm(self.query[1], inp, self.query[0])  # [M, N, H]
        if self.dot:
            scores = torch.matmul(att_keys, q.unsqueeze(-1)).squeeze(-1) / math.sqrt(hidden)  # [M, N, L]
        else:
            assert self.score is not None
            scores = torch.tanh(att_keys + q.unsqueeze(2)).view(m, n * length, hidden).bmm(self.score)
            scores = scores.view(m, n, length)
        weights = torch.softmax(scores.masked_fill(~att_mask, float("-inf")), dim=-1)
        context = (
            weights.view(m * n, 1, length).bmm(att_values.reshape(m * n, length, hidden)).view(m, n, hidden)
        )
        out = torch.baddbmm(self.merge[1], torch.cat([inp, context], dim=-1), self.merge[0])
        return out, new_state

    def log_probs(
        self, output: torch.Tensor, memory: torch.Tensor, features: torch.Tensor, valid: torch.Tensor
    ) -> torch.Tensor:
        """Every member's log-softmax [M, N, A] over the valid actions (`valid` [N, A], shared)."""
        m, n, n_actions, hidden = memory.shape
        raw = (
            memory.view(m * n, n_actions, hidden).bmm(output.reshape(m * n, hidden, 1)).view(m, n, n_actions)
        )
        raw = raw + self.feature_weight * features
        return torch.log_softmax(raw.masked_fill(~valid, float("-inf")), dim=-1)
