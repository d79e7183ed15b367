"""Systematic exploration: per question, the programs and prefixes already fully explored.

MAPO's exploration samples come from the policy, but a finished program is never drawn again as an
exploration sample (mapo.md §3). The original kept a Bloom filter of finished programs and dead-end prefixes;
here each question keeps `children[prefix] = {tokens t : prefix + (t,) is fully explored}`, which is what the
sampler's `exclude(i, prefix)` hook needs, in O(1).

A prefix is marked fully explored lazily: when a finished program is added, its parent prefixes are checked
bottom-up and marked once every valid continuation is explored; a marked prefix's own child set is dropped
(it can no longer be reached). The question is exhausted when the empty prefix's only valid token `(` is
explored. Token ids are stable for an environment (same preprocessing, same interpreter limits), which the
run directory records.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from nsmcli.protocols import Environment

Tokens = tuple[int, ...]


class ExploreCache:
    """The explored sets of all questions of a run."""

    def __init__(self) -> None:
        self.children: dict[str, dict[Tokens, set[int]]] = {}

    def excluded(self, qid: str, prefix: Sequence[int]) -> set[int]:
        """Tokens to hide after `prefix` (their whole subtree is explored)."""
        return self.children.get(qid, {}).get(tuple(prefix), set())

    def table(self, qid: str) -> dict[Tokens, set[int]]:
        """The question's explored map (what an actor needs to sample with exclusion)."""
        return self.children.get(qid, {})

    def exhausted(self, qid: str, env: Environment) -> bool:
        """Every program of this question has been explored."""
        valid = env.valid_tokens(env.initial_state())
        return bool(valid) and set(valid) <= self.excluded(qid, ())

    def add(self, qid: str, env: Environment, tokens: Sequence[int]) -> bool:
        """Mark a finished program (or a dead end) explored and propagate to its prefixes. Returns whether
        it was new."""
        tokens = tuple(tokens)
        if not tokens:
            return False
        table = self.children.setdefault(qid, {})
        # walk down: stop if an ancestor is already explored; remember the states for the walk back up
        states = [env.initial_state()]
        for k, t in enumerate(tokens[:-1]):
            if t in table.get(tokens[:k], ()):
                return False
            states.append(env.step(states[-1], t))
        if tokens[-1] in table.get(tokens[:-1], ()):
            return False
        for k in range(len(tokens) - 1, -1, -1):
            prefix, token = tokens[:k], tokens[k]
            explored = table.setdefault(prefix, set())
            explored.add(token)
            state = states[k]
            if state.error or not set(env.valid_tokens(state)) <= explored:
                break
            if k > 0:
                table.pop(prefix, None)  # the prefix itself is now explored at its parent
        return True

    def add_many(self, qid: str, env: Environment, programs: Iterable[Sequence[int]]) -> int:
        return sum(self.add(qid, env, p) for p in programs)

    # ----- persistence: one JSON-friendly list of explored token paths per question ----------------------

    def to_records(self) -> Iterable[dict]:
        for qid in sorted(self.children):
            paths = sorted([*prefix, t] for prefix, ts in self.children[qid].items() for t in ts)
            if paths:
                yield {"id": qid, "explored": paths}

    @classmethod
    def from_records(cls, records: Iterable[dict]) -> ExploreCache:
        cache = cls()
        for record in records:
            table = cache.children.setdefault(record["id"], {})
            for path in record["explored"]:
                table.setdefault(tuple(path[:-1]), set()).add(int(path[-1]))
        return cache

    def __len__(self) -> int:
        return sum(len(ts) for table in self.children.values() for ts in table.values())
