"""Model hyper-parameters: one dataclass, saved beside the weights so a checkpoint rebuilds its own model."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

ATTENTIONS = ("additive", "dot")

#: Inclusive ranges of the sizes and rates: far above any useful model, far below what exhausts memory.
BOUNDS: dict[str, tuple[float, float]] = {
    "hidden_size": (1, 4096),
    "n_layers": (1, 16),
    "embedding_size": (1, 4096),
    "dropout": (0.0, 0.95),
    "min_word_count": (1, 10**9),
    "n_token_features": (0, 64),
    "n_builtins": (1, 4096),
    "n_constant_types": (1, 4096),
    "init_std": (0.0, 10.0),
}
ENCODERS = ("lstm", "minilm")
COLUMN_MATCHES = ("tokens", "substring")


@dataclass
class ModelConfig:
    """Sizes and switches of `ProgramModel` (MAPO §4). Defaults are the published WTQ model, bugs fixed."""

    hidden_size: int = 200
    """LSTM size (per direction in the encoder), attention size and memory key size."""
    n_layers: int = 2
    """Layers of the encoder bi-LSTM and of the decoder LSTM; layers after the first are residual."""
    embedding_size: int = 50
    """Word-vector size: GloVe 6B 50d, projected to `hidden_size`."""
    dropout: float = 0.2
    """Dropout on every LSTM layer's output, in `log_probs` under `model.train()` only; decoding never drops.
    0.2 as published for WTQ; 0.4 learned slower and then plateaued at the same level (BENCHMARKS.md)."""
    min_word_count: int = 3
    """Train-split count a question token needs to get its own vocabulary entry."""
    use_glove: bool = True
    """Use frozen GloVe vectors where the vocabulary has them (needs the optional package to build)."""
    normalize_glove: bool = True
    """L2-normalise GloVe vectors before the projection, as the original did."""
    n_token_features: int = 1
    """Per-question-token features concatenated to the word embedding (WTQ: the in-table bit)."""
    n_builtins: int = 32
    """Learned memory rows for built-in tokens (`<END>`, parentheses, `all_rows`, functions); >= env.var_base."""
    n_constant_types: int = 16
    """Rows of the constant-type embedding (column string/number/num2/date, entity string/number/date...)."""
    init_std: float = 0.1
    """Std of the truncated-normal init of learned embeddings (built-ins, types, words without GloVe)."""
    attention: str = "additive"
    """Decoder attention over the question: `additive` (v·tanh(K + Wq), as published) or `dot` (scaled
    dot product, as the PyTorch reimplementation of MAPO): cheaper, since additive builds a
    [steps x question length x hidden] tensor at every step. Not in the original."""
    span_mask_bug: bool = False
    """Reproduce the original's span mask `start + end > 0`: an entity spanning only token 0 gets no span."""
    in_table_bug: bool = False
    """Reproduce the original's always-false in-table bit for number and date entities."""
    column_match: str = "tokens"
    """The column-question match feature added to a column's logit: how many of the column name's
    non-stop-word pieces are question tokens (`tokens`, nsm's first form) or occur anywhere in the question
    text (`substring`, the original's: "nation" matches "nations", and also "men" matches "women")."""
    column_match_binary: bool = False
    """Clip the match count at 1, as the original did on WTQ (it kept the count on WikiSQL)."""
    encoder: str = "lstm"
    """The question encoder: `lstm` (GloVe words + the bi-LSTM, as published) or `minilm`: the pretrained
    all-MiniLM-L6-v2 over `[CLS] question [SEP] col1 [SEP] ...`, whose token vectors feed attention and
    entity spans and whose header vectors are the column keys (needs `pip install 'nsmcli[encoder]'`; see
    `nsmcli.model.pretrained`). Not in the original."""
    encoder_train_layers: int = 0
    """With `minilm`: fine-tune its top this many of 6 layers (0 = frozen, computed once per question)."""
    value_head: bool = False
    """A learned value V(problem) from the encoder's final state (the actor-critic baseline)."""
    encoder_cells: bool = False
    """With `minilm`: each column's input also carries the cell the question names, `header | cell` (the
    first cell containing the longest string entity found in the column), as TaBERT and the PyTorch MAPO
    did. Not yet measured, so off by default."""
    encoder_lstm: bool = False
    """With `minilm`: the projected token vectors (with the token features) pass through a trainable
    residual bi-LSTM of `n_layers` layers, the published encoder's, which also gives the decoder its initial
    state; without it a frozen encoder leaves the question only a linear projection to learn. Not in the
    original."""
    encoder_words: bool = False
    """With `minilm` and `encoder_lstm`: each token's word vector (GloVe, as the `lstm` encoder embeds it)
    joins its projected MiniLM vector as the bi-LSTM's input. Frozen MiniLM models chose `diff` for "how
    many more" and `average` for "average" far less often than the GloVe model (bench/function_words.py);
    the word vector gives the decoder that lexical cue back. Not yet measured in training, so off."""
    encoder_package: str = ""
    """Recorded when a `minilm` model is built: the package its weights come from..."""
    encoder_version: str = ""
    """...that package's version..."""
    encoder_sha256: str = ""
    """...and the sha256 of its weights file: a model is refused when the installed weights differ."""

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, record: dict[str, Any]) -> ModelConfig:
        """Inverse of `to_json`; unknown keys are an error so that a typo never passes silently."""
        from nsmcli.train.config import ConfigError, set_field  # the one home of typed field setting

        if not isinstance(record, dict):
            raise ValueError("the model settings must be a JSON object")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(record) - names)
        if unknown:
            raise ValueError(f"unknown model config keys: {', '.join(unknown)}")
        config = cls()
        for key, value in record.items():
            try:
                set_field(config, key, value, "model.", strict=True)
            except ConfigError as exc:
                raise ValueError(str(exc)) from None
        config.validate()
        return config

    def validate(self) -> None:
        """Raise ValueError for a value no model can be built with, or one so large that building it would
        exhaust memory (checked before anything is allocated)."""
        for name, (low, high) in BOUNDS.items():
            value = getattr(self, name)
            if not low <= value <= high:
                raise ValueError(f"{name} must be between {low} and {high}, got {value!r}")
        if self.attention not in ATTENTIONS:
            raise ValueError(f"attention must be one of {', '.join(ATTENTIONS)}, got {self.attention!r}")
        if self.encoder not in ENCODERS:
            raise ValueError(f"encoder must be one of {', '.join(ENCODERS)}, got {self.encoder!r}")
        if self.encoder_cells and self.encoder != "minilm":
            raise ValueError("encoder_cells needs encoder=minilm")
        if self.encoder_lstm and self.encoder != "minilm":
            raise ValueError("encoder_lstm needs encoder=minilm")
        if self.encoder_words and not self.encoder_lstm:
            raise ValueError("encoder_words needs encoder=minilm and encoder_lstm")
        if not 0 <= self.encoder_train_layers <= 6 or (
            self.encoder_train_layers and self.encoder != "minilm"
        ):
            raise ValueError("encoder_train_layers must be in [0, 6], and needs encoder=minilm")
        if self.column_match not in COLUMN_MATCHES:
            raise ValueError(
                f"column_match must be one of {', '.join(COLUMN_MATCHES)}, got {self.column_match!r}"
            )
