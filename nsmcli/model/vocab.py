"""The question-word vocabulary: train-split tokens seen at least `min_count` times, plus two specials.

Ids are deterministic (specials, then descending count, ties alphabetical), so a vocabulary rebuilt from the
same counts gives the same ids, and the JSON form a run directory keeps is enough to reload a model.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

PAD, UNK = "<PAD>", "<UNK>"
SPECIALS = (PAD, UNK)
PAD_ID, UNK_ID = 0, 1


class Vocab:
    """Word <-> id. Unknown words map to `<UNK>`; `<PAD>` pads batches and is never a real token."""

    def __init__(self, words: Sequence[str]):
        if tuple(words[: len(SPECIALS)]) != SPECIALS:
            raise ValueError(f"a vocabulary starts with {SPECIALS}")
        self.words: list[str] = list(words)
        self.index: dict[str, int] = {w: i for i, w in enumerate(self.words)}
        if len(self.index) != len(self.words):
            raise ValueError("duplicate words in vocabulary")

    @classmethod
    def from_counts(cls, counts: Mapping[str, int], min_count: int = 3) -> Vocab:
        """Words with count >= min_count, most frequent first (ties alphabetical, so ids are stable)."""
        kept = sorted(
            (w for w, c in counts.items() if c >= min_count and w not in SPECIALS),
            key=lambda w: (-counts[w], w),
        )
        return cls([*SPECIALS, *kept])

    @classmethod
    def from_dataset(cls, path: Path | str, split: str = "train", min_count: int = 3) -> Vocab:
        """Build from a preprocessed dataset's `vocab.json` ({split: {token: count}})."""
        path = Path(path)
        counts = json.loads((path / "vocab.json" if path.is_dir() else path).read_text(encoding="utf-8"))
        if split not in counts:
            raise ValueError(f"vocab.json has no split {split!r}; it has {', '.join(counts)}")
        return cls.from_counts(counts[split], min_count)

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: object) -> bool:
        return word in self.index

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Vocab) and self.words == other.words

    def id(self, word: str) -> int:
        return self.index.get(word, UNK_ID)

    def ids(self, words: Iterable[str]) -> list[int]:
        return [self.index.get(w, UNK_ID) for w in words]

    def to_json(self) -> dict[str, Any]:
        return {"words": list(self.words)}

    @classmethod
    def from_json(cls, record: dict[str, Any]) -> Vocab:
        return cls(record["words"])
