"""What the model needs to know about one problem, as plain CPU data (picklable, cacheable per example).

The decoder is generic: it needs input token ids and features, the number of built-in actions, and a key
description for each constant action. Each world computes these in its own adapter (`World.context`; the
table world's is `nsmcli.worlds.tables.context`), so nothing here knows tables or Karel.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ConstantKey:
    """How to build the memory key of one constant: a type, optionally the question span it was read from
    (inclusive token indices) and optionally name words whose mean embedding describes it."""

    type_id: int
    span: tuple[int, int] | None = None
    name_ids: tuple[int, ...] = ()
    feature: float = 0.0  # added to the logit of this action through a learned weight
    column: int = -1  # a column view: the index of its original column in `Context.columns`


@dataclass(frozen=True)
class Context:
    """One question for the model. Action ids: [0, n_builtins) built-ins, then `constants` in order, then
    `n_computed` slots for results computed while decoding."""

    token_ids: tuple[int, ...]
    token_features: tuple[tuple[float, ...], ...]
    n_builtins: int
    constants: tuple[ConstantKey, ...]
    n_computed: int
    words: tuple[str, ...] = ()
    """The input words behind `token_ids` (what a pretrained encoder reads)."""
    columns: tuple[tuple[str, ...], ...] = ()
    """The header words of each original column (one entry for all views of a column)."""
    pretrained: Any = field(default=None, compare=False)
    """A pretrained encoder's vectors for this question (`nsmcli.model.pretrained.PretrainedText`)."""

    @property
    def n_actions(self) -> int:
        return self.n_builtins + len(self.constants) + self.n_computed
