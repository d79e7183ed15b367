"""MAPO's memory buffer: per problem, the rewarded programs found so far (by exploration or training).

In the table worlds a program is kept when it is consistent: it finishes, its answer is correct under the
dataset's official check, and it leaves no unused intermediate result (MAPO's extra-work test; the world's
scorer gives it reward 1). Programs are de-duplicated by their canonical text (`Environment.display`),
which is also what `buffer.jsonl` stores, so a buffer survives any change of token numbering. In memory each
program is kept as token ids of the question's environment, ready for the model.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from nsmcli.errors import DataError, GrammarError
from nsmcli.fileio import read_jsonl
from nsmcli.protocols import Environment

Tokens = tuple[int, ...]


@dataclass
class QuestionBuffer:
    programs: list[Tokens] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)


class ProgramBuffer:
    """Consistent programs per question id, in insertion order."""

    def __init__(self) -> None:
        self._by_id: dict[str, QuestionBuffer] = {}

    def programs(self, qid: str) -> list[Tokens]:
        entry = self._by_id.get(qid)
        return list(entry.programs) if entry else []

    def texts(self, qid: str) -> list[str]:
        entry = self._by_id.get(qid)
        return list(entry.texts) if entry else []

    def contains(self, qid: str, env: Environment, tokens: Sequence[int]) -> bool:
        entry = self._by_id.get(qid)
        return bool(entry) and env.display(tokens) in entry.texts

    def add(self, qid: str, env: Environment, tokens: Sequence[int]) -> bool:
        """Add a (consistent) program; returns whether it was new."""
        text = env.display(tokens)
        entry = self._by_id.setdefault(qid, QuestionBuffer())
        if text in entry.texts:
            return False
        entry.programs.append(tuple(tokens))
        entry.texts.append(text)
        return True

    def keep(self, qid: str, indices: Sequence[int]) -> None:
        """Keep only these programs (permanent truncation, OFF's truncate_replay_buffer_at_n)."""
        entry = self._by_id.get(qid)
        if entry is None:
            return
        order = sorted(set(indices))
        entry.programs = [entry.programs[i] for i in order]
        entry.texts = [entry.texts[i] for i in order]

    def coverage(self, qids: Iterable[str]) -> float:
        """Fraction of these questions with at least one buffer program."""
        qids = list(qids)
        return sum(1 for q in qids if self._by_id.get(q) and self._by_id[q].programs) / max(1, len(qids))

    def __len__(self) -> int:
        return sum(len(e.programs) for e in self._by_id.values())

    # ----- persistence ---------------------------------------------------------------------------------------

    def to_records(self) -> Iterator[dict]:
        for qid in sorted(self._by_id):
            if self._by_id[qid].texts:
                yield {"id": qid, "programs": list(self._by_id[qid].texts)}

    def load_records(
        self,
        records: Iterable[dict],
        env_of: Callable[[str], Environment | None],
        check: Callable[[str, Environment, Tokens], bool] | None = None,
    ) -> tuple[int, int]:
        """Add the programs of `{"id", "programs": [text, ...]}` records. Programs that do not parse, use a
        constant the environment lacks (e.g. beyond the interpreter limits), or fail `check` are skipped, as
        OFF's load_programs skipped them. Returns (added, skipped)."""
        added = skipped = 0
        for record in records:
            try:
                qid, texts = record["id"], record["programs"]
            except (KeyError, TypeError):
                raise DataError(f"program record without id/programs: {str(record)[:80]}") from None
            env = env_of(qid)
            if env is None:
                continue  # a question of another split
            for text in texts:
                try:
                    tokens = tuple(env.encode(text))
                except (GrammarError, ValueError, IndexError):
                    skipped += 1
                    continue
                if not _replays(env, tokens) or (check is not None and not check(qid, env, tokens)):
                    skipped += 1
                    continue
                added += self.add(qid, env, tokens)
        return added, skipped


def _replays(env: Environment, tokens: Tokens) -> bool:
    """Every token is valid where it stands (the decoder can produce the program)."""
    state = env.initial_state()
    for t in tokens:
        if t not in env.valid_tokens(state):
            return False
        state = env.step(state, t)
    return state.done and not state.error


def read_program_file(path: Path | str) -> list[dict]:
    """`nsm explore` output: JSONL, one `{"id", "programs": [...], ...}` per question."""
    path = Path(path)
    if not path.is_file():
        raise DataError(f"program file {path} does not exist")
    try:
        return list(read_jsonl(path))
    except (ValueError, UnicodeDecodeError) as exc:
        raise DataError(f"{path} is not a JSONL program file: {exc}") from exc
