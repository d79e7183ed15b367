"""A matcher: how well a candidate program answers a question, read by MiniLM with both texts together.

The reranker's `reading_similarity` compares the question and a program's reading as two separate sentence
vectors, so it cannot see that "the oldest respondent" means the highest age rather than the highest
respondent number: both readings share most of their words with the question. The matcher reads the pair
as one input, `[CLS] question | columns: ... [SEP] reading = answer preview [SEP]` (`rerank.match_texts`;
the table's column names let it see that a reading used `Order ID` where `Total` was there to use), so
attention runs between the two, and its score is fitted to the right answers: a softmax over each question's
candidates, the probability of the right ones maximised, as the reranker's own objective.

MiniLM's bottom layers stay as the package ships them (they run once per pair while fitting, and are never
copied); the top `n_train` layers are copies fine-tuned here, with a linear head on their mean over the
match text's pieces. The matcher's score is one more dense feature of the reranker
(`rerank.DENSE_FEATURES`), so its weight is fitted with the rest. It is a tensor file `matcher.pt` (the
top layers and the head, in half precision) with `matcher.json` beside it (the layer count, the MiniLM
package and the sha256 of its weights, how it was fitted), beside the reranker's file. Loading it reads
tensors only.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
from torch import nn

from nsmcli.errors import CheckpointError, DataError
from nsmcli.fileio import atomic_write_json

MATCHER_FILE = "matcher.pt"
MATCHER_RECORD = "matcher.json"
MATCHER_FORMAT = "nsm-matcher"
#: 2: the question is followed by what the world describes of the problem (a table's column names), and
#: the head reads the match text's pieces only
MATCHER_VERSION = 2
#: The most pieces of a question with its description, and of a match text; longer ones are cut (their
#: ends, the last column names and the answer preview, are the least needed parts).
QUESTION_PIECES, TEXT_PIECES = 96, 72
#: One problem to fit on: the question (with the world's description of the problem, `match_texts`), its
#: candidates' match texts ("" for one that does not read), and their credits (>= 1: right).
MatchProblem = tuple[str, list[str], list[float]]


class Matcher(nn.Module):
    """The fine-tuned top of MiniLM and a linear head; the bottom layers are the shared frozen encoder's."""

    def __init__(self, n_train: int = 2):
        super().__init__()
        from nsmcli.model.pretrained import sentence_encoder

        self.text = sentence_encoder()  # frozen, shared, and not a submodule: it is never saved
        if not 1 <= n_train <= self.text.n_layers:
            raise ValueError(f"a matcher fine-tunes 1 to {self.text.n_layers} layers, not {n_train}")
        self.n_train = n_train
        self.top = nn.ModuleList(
            copy.deepcopy(layer).requires_grad_(True) for layer in self.text.bert.layers[-n_train:]
        )
        self.head = nn.Linear(self.text.hidden_size, 1)
        #: how it was fitted (data, figures), for the record
        self.fitted: dict[str, Any] = {}
        nn.init.zeros_(self.head.weight)
        nn.init.zeros_(self.head.bias)

    def pieces(self, question: str, texts: Sequence[str]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """(ids, segments, mask) [N, P] of `[CLS] question [SEP] text [SEP]` for each text; segment 1 is the
        text and its closing `[SEP]`."""
        tokenizer = self.text.tokenizer
        asked = tokenizer.encode(question, add_special_tokens=False).ids[:QUESTION_PIECES]
        rows = []
        for text in texts:
            read = tokenizer.encode(text, add_special_tokens=False).ids[:TEXT_PIECES]
            ids = [self.text.cls, *asked, self.text.sep, *read, self.text.sep]
            rows.append((ids, [0] * (len(asked) + 2) + [1] * (len(read) + 1)))
        width = max(len(ids) for ids, _ in rows)
        ids = torch.zeros(len(rows), width, dtype=torch.long)
        segments = torch.zeros(len(rows), width, dtype=torch.long)
        mask = torch.zeros(len(rows), width, dtype=torch.bool)
        for row, (piece_ids, segment_ids) in enumerate(rows):
            ids[row, : len(piece_ids)] = torch.tensor(piece_ids)
            segments[row, : len(segment_ids)] = torch.tensor(segment_ids)
            mask[row, : len(piece_ids)] = True
        return ids, segments, mask

    @torch.no_grad()
    def bottom(self, ids: torch.Tensor, segments: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """The pieces' vectors after the frozen layers, [N, P, H]."""
        bert = self.text.bert
        x = bert.embed(ids, segments)
        for layer in bert.layers[: self.text.n_layers - self.n_train]:
            x = layer(x, mask)
        return x

    def reading(self, hidden: torch.Tensor, mask: torch.Tensor, pooled: torch.Tensor) -> torch.Tensor:
        """What the head reads [N, H], from `bottom`'s vectors: the mean of the `pooled` pieces (the match
        text's, `pieces`) after the top layers, which attended to the question and its description on the way
        up; a mean over those too would dilute what differs between one question's candidates with what they
        share."""
        for layer in self.top:
            hidden = layer(hidden, mask)
        weights = pooled.unsqueeze(-1).to(hidden.dtype)
        return (hidden * weights).sum(1) / weights.sum(1)

    def forward(self, hidden: torch.Tensor, mask: torch.Tensor, pooled: torch.Tensor) -> torch.Tensor:
        """Scores [N] from `bottom`'s vectors: the head over `reading`."""
        return self.head(self.reading(hidden, mask, pooled)).squeeze(-1)

    @torch.no_grad()
    def scores(self, question: str, texts: Sequence[str]) -> list[float]:
        """The score of each match text against `question`; 0 for an empty text."""
        present = [t for t in texts if t]
        if not present:
            return [0.0] * len(texts)
        was_training = self.training
        self.eval()
        ids, segments, mask = self.pieces(question, present)
        found = iter(self(self.bottom(ids, segments, mask), mask, segments.bool()).tolist())
        self.train(was_training)
        return [next(found) if t else 0.0 for t in texts]

    # ----- files -----------------------------------------------------------------------------------------

    def save(self, directory: Path | str, fitted: dict[str, Any] | None = None) -> None:
        """`matcher.pt` (half precision) and `matcher.json` into `directory`, each written atomically."""
        from nsmcli.train.rundir import save_tensors

        directory = Path(directory)
        files = self.text.files
        save_tensors(
            directory / MATCHER_FILE, {k: v.detach().to(torch.float16) for k, v in self.state_dict().items()}
        )
        atomic_write_json(
            directory / MATCHER_RECORD,
            {
                "format": MATCHER_FORMAT,
                "version": MATCHER_VERSION,
                "layers": self.n_train,
                "encoder": {"package": _package(), "version": files.version, "sha256": files.sha256()},
                "fitted": fitted or {},
            },
        )


def _package() -> str:
    from nsmcli.model.pretrained import PACKAGE

    return PACKAGE


def load_matcher(directory: Path | str) -> Matcher | None:
    """The matcher saved in `directory`, or None when it holds none. One CheckpointError for a damaged or
    foreign file, or one made with other MiniLM weights than the installed package's."""
    import json

    from nsmcli.model.pretrained import check_recorded, locate_minilm
    from nsmcli.train.rundir import load_tensors

    directory = Path(directory)
    record_path = directory / MATCHER_RECORD
    if not record_path.is_file():
        return None
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CheckpointError(f"{record_path} is not a readable matcher record ({exc})") from None
    if not isinstance(record, dict) or record.get("format") != MATCHER_FORMAT:
        raise CheckpointError(f"{record_path} is not an nsm matcher record")
    if record.get("version") != MATCHER_VERSION:
        raise CheckpointError(
            f"{record_path} is matcher version {record.get('version')!r}; this nsm reads {MATCHER_VERSION}"
            + (
                " (version 1 read no column names): remove its matcher.json, matcher.pt and reranker.json, "
                "and fit the reranker again (nsm rerank)"
                if record.get("version") == 1
                else ""
            )
        )
    layers, encoder = record.get("layers"), record.get("encoder")
    if isinstance(layers, bool) or not isinstance(layers, int) or not isinstance(encoder, dict):
        raise CheckpointError(f"{record_path}: 'layers' must be a number and 'encoder' an object")
    if not encoder.get("sha256"):  # without it, other MiniLM weights would pass unnoticed
        raise CheckpointError(f"{record_path} does not name the MiniLM weights it was fitted over (sha256)")
    check_recorded(
        locate_minilm(),
        str(encoder.get("package", "")),
        str(encoder.get("version", "")),
        str(encoder.get("sha256", "")),
    )
    try:
        matcher = Matcher(layers)
    except ValueError as exc:
        raise CheckpointError(f"{record_path}: {exc}") from None
    tensors = load_tensors(directory / MATCHER_FILE)
    if not isinstance(tensors, dict) or not all(isinstance(v, torch.Tensor) for v in tensors.values()):
        raise CheckpointError(f"{directory / MATCHER_FILE} does not hold named tensors")
    if not all(bool(torch.isfinite(v).all()) for v in tensors.values()):
        raise CheckpointError(f"{directory / MATCHER_FILE} holds weights that are not finite numbers")
    try:
        matcher.load_state_dict({k: v.float() for k, v in tensors.items()}, assign=True)
    except RuntimeError:
        raise CheckpointError(f"{directory / MATCHER_FILE} does not fit a {layers}-layer matcher") from None
    matcher.fitted = record.get("fitted") if isinstance(record.get("fitted"), dict) else {}
    return matcher.eval()


# ----- fitting ---------------------------------------------------------------------------------------------


def choice_problems(problems: Sequence[MatchProblem]) -> list[int]:
    """The indices of the problems a fit learns from: some readable candidate right and some wrong."""
    kept = []
    for i, (_, texts, credits) in enumerate(problems):
        read = [c for t, c in zip(texts, credits, strict=True) if t]
        if any(c >= 1 for c in read) and any(c < 1 for c in read):
            kept.append(i)
    return kept


@dataclass
class MatcherFit:
    """How to fit a matcher."""

    layers: int = 2
    epochs: int = 3
    #: problems per optimiser step
    batch: int = 8
    lr: float = 5e-5
    head_lr: float = 1e-3
    seed: int = 0
    #: per problem, how much it weighs (default 1 each)
    weights: list[float] | None = field(default=None, repr=False)
    #: per problem, a score of each candidate that the matcher's is added to before the softmax (default
    #: none): the score of the chooser it will sit in, so that the fit learns what that chooser gets wrong
    #: rather than what it already knows
    base: list[list[float]] | None = field(default=None, repr=False)


def fit_matcher(
    problems: Sequence[MatchProblem], config: MatcherFit, progress: Callable[[str], None] | None = None
) -> Matcher:
    """A matcher fitted to `problems` (those where the choice matters, `choice_problems`): AdamW on the
    negative log of each problem's softmax mass on its right candidates, the frozen layers run once. With
    `config.base`, each readable candidate's base score is added to the matcher's before the softmax (a
    candidate that does not read is left out of it, as without a base)."""
    if config.base is not None and (
        len(config.base) != len(problems)
        or any(len(b) != len(texts) for b, (_, texts, _) in zip(config.base, problems, strict=True))
    ):
        raise DataError("a fit's base needs one score per candidate of every problem")
    torch.manual_seed(config.seed)
    rng = random.Random(config.seed)
    matcher = Matcher(config.layers)
    kept = choice_problems(problems)
    if not kept:
        raise DataError("no question to fit a matcher on has both a right and a wrong readable candidate")
    cached = []
    for number, i in enumerate(kept, start=1):
        question, texts, credits = problems[i]
        readable = [k for k, t in enumerate(texts) if t]
        ids, segments, mask = matcher.pieces(question, [texts[k] for k in readable])
        right = torch.tensor([credits[k] >= 1 for k in readable])
        weight = 1.0 if config.weights is None else config.weights[i]
        base = torch.tensor([config.base[i][k] for k in readable]) if config.base is not None else None
        hidden = matcher.bottom(ids, segments, mask).to(torch.bfloat16)
        cached.append((hidden, mask, segments.bool(), right, weight, base))
        if progress and number % 500 == 0:
            progress(f"matcher: {number} of {len(kept)} questions through the frozen layers")
    optimiser = torch.optim.AdamW(
        [
            {"params": matcher.top.parameters(), "lr": config.lr},
            {"params": matcher.head.parameters(), "lr": config.head_lr},
        ],
        weight_decay=0.01,
    )
    steps = config.epochs * math.ceil(len(cached) / config.batch)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimiser, lambda step: max(0.0, 1 - step / steps))
    matcher.train()
    order = list(range(len(cached)))
    for epoch in range(config.epochs):
        rng.shuffle(order)
        total = 0.0
        for start in range(0, len(order), config.batch):
            loss = torch.zeros(())
            mass = 0.0
            for j in order[start : start + config.batch]:
                hidden, mask, pooled, right, weight, base = cached[j]
                scores = matcher(hidden.float(), mask, pooled)
                if base is not None:
                    scores = scores + base
                loss = loss + weight * (torch.logsumexp(scores, 0) - torch.logsumexp(scores[right], 0))
                mass += weight
            if mass == 0:  # only problems weighing nothing: nothing to learn from this step
                continue
            loss = loss / mass
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item() * mass
        if progress:
            progress(f"matcher: epoch {epoch + 1} of {config.epochs}, loss {total / len(cached):.4f}")
    return matcher.eval()
