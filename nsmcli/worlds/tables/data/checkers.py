"""Fast answer checkers for the program search: pre-typed versions of the official answer comparisons in
`nsmcli.worlds.tables.data.evaluate` (`wtq_correct`, `wikisql_correct`), with the same verdicts.

The target is typed once per question and every predicted item once per process, and a checker offers
hints (`AnswerChecker`) that let the search skip final expressions that cannot be correct. A dataset
declares its checker in `nsmcli.worlds.tables.data.preprocess.dataset_formats`; `Dataset.answer_checker` returns it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from nsmcli.worlds.tables.data.evaluate import (
    NumberValue,
    parse_number,
    prediction_text,
    to_value,
    to_value_list,
    wikisql_normalize_answer,
    wikisql_process_answer,
)

__all__ = ["AnswerChecker", "WtqChecker", "WikisqlChecker"]


class AnswerChecker:
    """The exact answer test, plus hints that let the search skip hopeless final expressions.

    Hints must be *necessary* conditions of `__call__`, never heuristics: `item_targets(item)` is the bitmask
    of answer items a predicted item can match (None: unknown), `n_targets` the number of answer items,
    `ordered` whether the answer is an ordered list with duplicates (WikiSQL), `number_candidates()` the
    numbers near which a one-number answer must lie (None: unknown).
    """

    n_targets: int | None = None
    ordered: bool = False

    def __call__(self, answer: Sequence) -> bool:
        raise NotImplementedError

    def item_targets(self, item: Any) -> int | None:
        return None

    def number_candidates(self) -> list[float] | None:
        return None


class CallableChecker(AnswerChecker):
    """A plain `is_correct(answer) -> bool` callable as a checker, without hints for pruning."""

    def __init__(self, fn: Callable[[list], bool]):
        self._fn = fn

    def __call__(self, answer: Sequence) -> bool:
        return bool(self._fn(list(answer)))


#: typed form of predicted items, shared by all questions of a process (answers repeat table cells)
_TYPED: dict = {}
_TYPED_MAX = 500_000


def _typed(item: Any):
    """`to_value(prediction_text(item))`, cached. Items are str, float or int (never bool), so the item
    itself is the key: equal items type equally."""
    v = _TYPED.get(item)
    if v is None:
        if len(_TYPED) >= _TYPED_MAX:
            _TYPED.clear()
        v = _TYPED[item] = to_value(prediction_text(item))
    return v


class WtqChecker(AnswerChecker):
    """`nsmcli.worlds.tables.data.evaluate.wtq_correct` with the target typed once and predicted items typed once each."""

    def __init__(self, target_values: Sequence[str], target_canon: Sequence[str] | None = None):
        self.targets = to_value_list(
            list(target_values), None if target_canon is None else list(target_canon)
        )
        self.n_targets = len(self.targets)
        self._all = (1 << self.n_targets) - 1
        self._bits: dict = {}

    def __call__(self, answer: Sequence) -> bool:
        covered = 0
        bits = self._bits
        for p in answer:  # cheap necessary condition first: every target is matched by some item
            b = bits.get(p)
            covered |= self.item_targets(p) if b is None else b
        if covered != self._all:
            return False
        preds = {_typed(p) for p in answer}
        if len(preds) != self.n_targets:
            return False
        return all(any(t.match(p) for p in preds) for t in self.targets)

    def item_targets(self, item: Any) -> int:
        bits = self._bits.get(item)
        if bits is None:
            v = _typed(item)
            bits = 0
            for i, t in enumerate(self.targets):
                if t.match(v):
                    bits |= 1 << i
            self._bits[item] = bits
        return bits

    def number_candidates(self) -> list[float]:
        if self.n_targets != 1:
            return []  # one number is one predicted item
        t = self.targets[0]
        out = [float(t.amount)] if isinstance(t, NumberValue) else []
        text = parse_number(t.normalized)
        if text is not None and float(text) not in out:
            out.append(float(text))
        return out


class WikisqlChecker(AnswerChecker):
    """`nsmcli.worlds.tables.data.evaluate.wikisql_correct`: ordered list equality after MAPO's normalisation."""

    ordered = True

    def __init__(self, gold: Iterable):
        self.gold = wikisql_process_answer(gold)
        self.n_targets = len(self.gold)
        self._bits: dict = {}

    def __call__(self, answer: Sequence) -> bool:
        return wikisql_process_answer(answer) == self.gold

    def item_targets(self, item: Any) -> int:
        key = (type(item), item)
        bits = self._bits.get(key)
        if bits is None:
            v = wikisql_normalize_answer(item)
            bits = 0
            for i, g in enumerate(self.gold):
                if g == v:
                    bits |= 1 << i
            self._bits[key] = bits
        return bits

    def number_candidates(self) -> list[float]:
        if self.n_targets != 1 or not isinstance(self.gold[0], float):
            return []
        return [self.gold[0]]
