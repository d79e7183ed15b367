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

from nsmcli.errors import DataError, GrammarError
from nsmcli.protocols import Environment, Tokens


@dataclass
class QuestionBuffer:
    programs: list[Tokens] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    rewards: list[float] = field(default_factory=list)


class ProgramBuffer:
    """Consistent programs per question id, in insertion order."""

    def __init__(self) -> None:
        self._by_id: dict[str, QuestionBuffer] = {}
        self.graded = False
        """Whether any program's reward differs from 1 (then the objectives weigh programs by reward)."""

    def programs(self, qid: str) -> list[Tokens]:
        entry = self._by_id.get(qid)
        return list(entry.programs) if entry else []

    def texts(self, qid: str) -> list[str]:
        entry = self._by_id.get(qid)
        return list(entry.texts) if entry else []

    def contains(self, qid: str, env: Environment, tokens: Sequence[int]) -> bool:
        entry = self._by_id.get(qid)
        return bool(entry) and env.display(tokens) in entry.texts

    def add(
        self, qid: str, env: Environment, tokens: Sequence[int], reward: float = 1.0, limit: int = 0
    ) -> bool:
        """Add a rewarded program; returns whether it was new (and kept). With `limit`, only the `limit`
        highest-reward programs stay (ties: the earlier found)."""
        text = env.display(tokens)
        entry = self._by_id.setdefault(qid, QuestionBuffer())
        if text in entry.texts:
            return False
        if reward != 1.0:
            self.graded = True
        if limit and len(entry.programs) >= limit:
            worst = min(range(len(entry.rewards)), key=lambda i: (entry.rewards[i], -i))
            if entry.rewards[worst] >= reward:
                return False
            self.keep(qid, [i for i in range(len(entry.programs)) if i != worst])
        entry.programs.append(tuple(tokens))
        entry.texts.append(text)
        entry.rewards.append(float(reward))
        return True

    def reward(self, qid: str, tokens: Sequence[int]) -> float | None:
        """The reward of a buffer program, or None when it is not in the buffer."""
        entry = self._by_id.get(qid)
        if entry is None:
            return None
        try:
            return entry.rewards[entry.programs.index(tuple(tokens))]
        except ValueError:
            return None

    def max_reward(self) -> float:
        """The highest reward of any buffer program (0 when empty)."""
        return max((max(e.rewards) for e in self._by_id.values() if e.rewards), default=0.0)

    def best(self, qid: str) -> tuple[str, float] | None:
        """The highest-reward program's text and reward (ties: the earlier found)."""
        entry = self._by_id.get(qid)
        if not entry or not entry.programs:
            return None
        i = max(range(len(entry.rewards)), key=lambda j: (entry.rewards[j], -j))
        return entry.texts[i], entry.rewards[i]

    def keep(self, qid: str, indices: Sequence[int]) -> None:
        """Keep only these programs (permanent truncation, OFF's truncate_replay_buffer_at_n)."""
        entry = self._by_id.get(qid)
        if entry is None:
            return
        order = sorted(set(indices))
        entry.programs = [entry.programs[i] for i in order]
        entry.texts = [entry.texts[i] for i in order]
        entry.rewards = [entry.rewards[i] for i in order]

    def coverage(self, qids: Iterable[str]) -> float:
        """Fraction of these questions with at least one buffer program."""
        qids = list(qids)
        return sum(1 for q in qids if self._by_id.get(q) and self._by_id[q].programs) / max(1, len(qids))

    def __len__(self) -> int:
        return sum(len(e.programs) for e in self._by_id.values())

    # ----- persistence ---------------------------------------------------------------------------------------

    def to_records(self) -> Iterator[dict]:
        for qid in sorted(self._by_id):
            entry = self._by_id[qid]
            if entry.texts:
                record: dict = {"id": qid, "programs": list(entry.texts)}
                if self.graded:
                    record["rewards"] = list(entry.rewards)
                yield record

    def load_records(
        self,
        records: Iterable[dict],
        env_of: Callable[[str], Environment | None],
        reward_of: Callable[[str, Environment, Tokens], float | None] | None = None,
    ) -> tuple[int, int]:
        """Add the programs of `{"id", "programs": [text, ...]}` records. Programs that do not parse, use a
        constant the environment lacks (e.g. beyond the interpreter limits), or get None from `reward_of`
        (not consistent, or rewarded too little) are skipped, as OFF's load_programs skipped them. A record
        may give `rewards` (graded worlds): each program then joins with the reward `reward_of` gives it, the
        file's figure only where there is no `reward_of`, so a file cannot claim what its programs do not
        earn. Returns (added, skipped)."""
        added = skipped = 0
        for record in records:
            try:
                qid, texts = record["id"], record["programs"]
            except (KeyError, TypeError):
                raise DataError(f"program record without id/programs: {str(record)[:80]}") from None
            env = env_of(qid)
            if env is None:
                continue  # a question of another split
            rewards = record.get("rewards") or [1.0] * len(texts)
            if (
                not isinstance(rewards, list)
                or len(rewards) != len(texts)
                or not all(isinstance(r, int | float) and not isinstance(r, bool) for r in rewards)
            ):
                raise DataError(f"program record {qid!r}: rewards do not match its programs")
            for text, reward in zip(texts, rewards, strict=True):
                try:
                    tokens = tuple(env.encode(text))
                except (GrammarError, ValueError, IndexError):
                    skipped += 1
                    continue
                if not _replays(env, tokens):
                    skipped += 1
                    continue
                if reward_of is not None:
                    earned = reward_of(qid, env, tokens)
                    if earned is None:
                        skipped += 1
                        continue
                    if "rewards" in record:
                        reward = earned
                added += self.add(qid, env, tokens, float(reward))
        return added, skipped


def _replays(env: Environment, tokens: Tokens) -> bool:
    """Every token is valid where it stands (the decoder can produce the program)."""
    state = env.initial_state()
    for t in tokens:
        if t not in env.valid_tokens(state):
            return False
        state = env.step(state, t)
    return state.done and not state.error
