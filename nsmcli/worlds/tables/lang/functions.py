"""Semantics of every declared program function, written once and shared by all languages.

Values inside the interpreter are small and hashable, so partial programs can be merged by result:
- a row set (`entity_list`) is an int bitmask, bit i = row i;
- a value list (`string_list`, `num_list`, `date_list`) is a tuple of str / float / `Date`;
- `num` is a float; a property is a `Prop`.

Each function has `apply(env, args) -> (type, value)` (raising `ExecError`, which the interpreter turns into an
error result) and `useful(env, args, result) -> bool`, MAPO's execution-guided pruning: the decoder and the
search are offered a token only when some completion of the expression is useful. The rules, in short: a
filter must keep at least one row and drop at least one; a superlative or aggregate needs more than one row
and a column with values on them; `same` needs exactly one row; `next`/`previous` must not start from all rows
and must land on a row; `diff` takes two different single rows.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date as date_type
from functools import cached_property
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from nsmcli.memory import gc_paused
from nsmcli.worlds.tables.data.values import Date, contains_substring, contains_words

if TYPE_CHECKING:
    from nsmcli.worlds.tables.data.table import Table
    from nsmcli.worlds.tables.lang.interpreter import Environment


class ExecError(Exception):
    """A type or value error inside one expression; never escapes the interpreter."""


def mask_of(rows: Sequence[int]) -> int:
    """The row mask of row indices: built in one pass over a byte array, linear in the highest row, where
    OR-ing one shifted bit per row would copy the growing mask once per row."""
    if len(rows) == 1:
        return 1 << rows[0]
    if not rows:
        return 0
    bits = bytearray(max(rows) // 8 + 1)
    for r in rows:
        bits[r >> 3] |= 1 << (r & 7)
    return int.from_bytes(bits, "little")


class _LazyMasks(Mapping):
    """key -> row mask, built from the key's row indices on first use and then kept.

    A mask per distinct value, and a cumulative mask per sorted value, cost memory quadratic in the rows of
    a column of distinct values (a 100,000-row table of unique cells reached 13 GB); a program reads a few."""

    def __init__(self, rows: dict[Any, list[int]]):
        self._rows = rows
        self._masks: dict[Any, int] = {}

    def __getitem__(self, key: Any) -> int:
        mask = self._masks.get(key)
        if mask is None:
            mask = self._masks[key] = mask_of(self._rows[key])
        return mask

    def __iter__(self) -> Iterator:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)


class _LazySequence(Sequence):
    """A read-only list whose items `make(i)` builds on first use."""

    def __init__(self, n: int, make: Callable[[int], int]):
        self._n, self._make, self._items = n, make, {}

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        item = self._items.get(i)
        if item is None:
            item = self._items[i] = self._make(i)
        return item

    def __len__(self) -> int:
        return self._n


# The lazy masks' makers are classes, not closures, so that a bound table pickles (decoding in worker
# processes ships it).
@dataclass(frozen=True)
class _GroupMask:
    group_rows: list[list[int]]

    def __call__(self, i: int) -> int:
        return mask_of(self.group_rows[i])


@dataclass(frozen=True)
class _PrefixMask:
    order: list[int]
    ends: list[int]

    def __call__(self, i: int) -> int:
        return mask_of(self.order[: self.ends[i]])


@dataclass(eq=False)
class Prop:
    """A column view bound as a property constant: its name, type and per-row values (None = missing).

    Its index (value -> row mask) and, for ordered views, the distinct values sorted with their masks and
    cumulative masks, so that comparisons and superlatives are a bisection and a mask operation, are built on
    first use, each mask too (`_LazyMasks`): binding a table costs nothing per cell, and a parse on a large
    table pays only for the columns its programs read.
    """

    name: str
    type: str
    values: tuple
    _contains: dict = field(default_factory=dict)  # substring -> row mask (string properties)
    #: User tables (`user_matching`): `containing` matches whole words (`values.word_pattern`), not any
    #: substring, so "april 1" does not find "april 10, 2024"; and `equal_to` takes a date's unknown fields
    #: as any, so "november" (xxxx-11-xx) equals 2024-11-02; the empty text is in a blank cell only.
    #: WTQ and WikiSQL keep MAPO's exact tests.
    user_matching: bool = False
    _partial_dates: dict = field(default_factory=dict)  # a date with unknown fields -> row mask

    @classmethod
    def build(cls, name: str, type_: str, values: tuple, user_matching: bool = False) -> Prop:
        return cls(name, type_, values, user_matching=user_matching)

    @cached_property
    def _rows(self) -> dict[Any, list[int]]:
        """value -> its row indices, ascending."""
        rows: dict[Any, list[int]] = {}
        with gc_paused():  # millions of small lists on a large table, none in a cycle
            for i, v in enumerate(self.values):
                if v is not None:
                    rows.setdefault(v, []).append(i)
        return rows

    @cached_property
    def index(self) -> Mapping:
        """value -> row mask."""
        return _LazyMasks(self._rows)

    @cached_property
    def present_values(self) -> tuple:
        """The values of the rows that have one, in row order."""
        return tuple(v for v in self.values if v is not None)

    @cached_property
    def present(self) -> int:
        """The mask of rows with a value."""
        return mask_of([i for i, v in enumerate(self.values) if v is not None])

    def _order(self) -> None:
        """Sort the distinct values once, setting the four ordered attributes (each a `cached_property` that
        calls this when first read; afterwards a read is a plain instance attribute, as on the hot path of
        comparisons and superlatives)."""
        if self.type == "string_property":
            keys, values, masks, cumulative = [], [], [], []
        else:
            with gc_paused():
                by_key: dict = {}  # ordering key -> (first value with it, the rows of every value with it)
                for v, value_rows in self._rows.items():
                    k = key(v)
                    prev = by_key.get(k)
                    by_key[k] = (v, list(value_rows)) if prev is None else (prev[0], prev[1] + value_rows)
                keys = sorted(by_key)
                groups = [by_key[k] for k in keys]
                group_rows = [r for _, r in groups]
                order = [r for g in group_rows for r in g]  # rows in ascending key order
                ends = list(accumulate(len(g) for g in group_rows))
            values = [v for v, _ in groups]
            masks = _LazySequence(len(groups), _GroupMask(group_rows))
            cumulative = _LazySequence(len(groups), _PrefixMask(order, ends))
        self.__dict__.update(
            sorted_keys=keys, sorted_values=values, sorted_masks=masks, cumulative=cumulative
        )

    @cached_property
    def sorted_keys(self) -> list:
        """Distinct ordering keys, ascending."""
        self._order()
        return self.__dict__["sorted_keys"]

    @cached_property
    def sorted_values(self) -> list:
        self._order()
        return self.__dict__["sorted_values"]

    @cached_property
    def sorted_masks(self) -> Sequence:
        self._order()
        return self.__dict__["sorted_masks"]

    @cached_property
    def cumulative(self) -> Sequence:
        """cumulative[i] = rows with key <= sorted_keys[i]."""
        self._order()
        return self.__dict__["cumulative"]

    def extreme_of_all(self, highest: bool) -> tuple[Any, int]:
        """The highest (lowest) value over every row that has one, and the mask of the rows tied with it: as
        `sorted_values` and `sorted_masks` give them (the first such value in row order), but without
        sorting a column not sorted yet (a superlative over all rows is most of a large table's pruning)."""
        if "sorted_masks" not in self.__dict__:
            if not self._rows:
                raise ExecError(f"no values of {self.name} on these rows")
            best = (max if highest else min)(map(key, self._rows))
            tied = [v for v in self._rows if key(v) == best]
            return tied[0], mask_of([r for v in tied for r in self._rows[v]])
        if not self.sorted_keys:
            raise ExecError(f"no values of {self.name} on these rows")
        i = len(self.sorted_keys) - 1 if highest else 0
        return self.sorted_values[i], self.sorted_masks[i]

    def at_most(self, bound, strict: bool) -> int:
        """Rows whose value is <= bound (< bound when strict)."""
        i = (bisect_left if strict else bisect_right)(self.sorted_keys, bound)
        return self.cumulative[i - 1] if i else 0

    def equal_to(self, value: Any) -> int:
        """Rows whose value equals `value`; on user tables a date's unknown fields match any."""
        if not (self.user_matching and isinstance(value, Date) and value.has_unknown_fields):
            return self.index.get(value, 0)
        mask = self._partial_dates.get(value)
        if mask is None:
            agree = [
                r for v, rows in self._rows.items() if isinstance(v, Date) and value.admits(v) for r in rows
            ]
            mask = self._partial_dates[value] = mask_of(agree)
        return mask

    def beyond_partial_dates(self, dates: Sequence[Date], greater: bool, strict: bool) -> int:
        """Rows whose date is after (`greater`) or before every one of `dates` on the fields each knows, as
        on user tables (`user_matching`): "after 2016" (2016-xx-xx) is from 2017 on, and "after March 10"
        (xxxx-03-10) is after March 10 of the row's own year. A row date that lacks such a field is kept out."""
        kept = []
        for value, rows in self._rows.items():
            if all(_beyond(value, q, greater, strict) for q in dates):
                kept.extend(rows)
        return mask_of(kept)

    def containing(self, text: str) -> int:
        mask = self._contains.get(text)
        if mask is None:
            found = _contains_user if self.user_matching else contains_substring
            mask = mask_of([r for value, rows in self._rows.items() if found(text, value) for r in rows])
            self._contains[text] = mask
        return mask


def _contains_user(text: str, value: Any) -> bool:
    """How user tables' filters find `text` in a cell: as whole words, and the empty text (a question asking
    for a blank cell, `annotate`) in an empty cell only."""
    return contains_words(text, value, grades=True) if text else value == ""


def _beyond(value: Date, bound: Date, greater: bool, strict: bool) -> bool:
    fields = [(mine, theirs) for mine, theirs in zip(value.fields, bound.fields, strict=True) if theirs != -1]
    if not fields or any(mine == -1 for mine, _ in fields):
        return False
    mine, theirs = tuple(m for m, _ in fields), tuple(t for _, t in fields)
    if mine == theirs:
        return not strict
    return mine > theirs if greater else mine < theirs


def user_matching(table: Table) -> bool:
    """Whether the table's filters match as a person means them (`Prop.user_matching`): on a table read by
    the user rules (a user's file), yes; on WTQ and WikiSQL data, MAPO's exact tests, on which the bundled
    models were trained and which their dev figures measure."""
    return table.value_rules == "user"


def rows_of(mask: int) -> list[int]:
    """Row indices of a mask, ascending."""
    if mask.bit_length() > 64:  # wide masks: scanning the binary text is ~2.5x faster than bit tricks
        return [i for i, c in enumerate(bin(mask)[:1:-1]) if c == "1"]
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def key(value: Any) -> Any:
    """Ordering key shared by numbers and dates (dates by year, month, day; unknown fields as 0)."""
    return value.sort_key if isinstance(value, Date) else value


VALUES_OF = {"string_property": "string_list", "num_property": "num_list", "date_property": "date_list"}


@dataclass(frozen=True)
class SqlForm:
    """How an expression renders in SQL (`nsmcli.worlds.tables.lang.sql`): its role there and the SQL operator.

    Roles: `project` (SELECT a view), `count` (COUNT(*)), `aggregate` (operator MAX/MIN/SUM/AVG),
    `compare` (a WHERE comparison, operator =, !=, >, <, >=, <=), `contains` (LIKE; operator NOT negates),
    `superlative` (a comparison with a MAX/MIN subquery)."""

    role: str
    operator: str = ""


@dataclass(frozen=True)
class SearchHints:
    """What the program search (`nsmcli.worlds.tables.search.explore`) may assume of a function to go
    faster; tests check each claim against `apply`. Hints only skip expressions that cannot be correct."""

    rowwise: bool = False
    """The result is `rows & mask(list, column)`: the mask is computed once on all rows."""
    one_item: bool = False
    """Its answer is a single item (an aggregate or extreme)."""
    numeric: bool = False
    """It aggregates numbers: its answer is a number computed from the cells."""
    by_target: bool = False
    """Its answer items are cells of the row set: it runs only on row sets holding a cell for every item."""
    row_count: bool = False
    """Its answer is the number of rows: it runs only on row sets of a correct size."""
    ordered_cells: bool = False
    """Its answer lists cells in row order, duplicates kept (an ordered answer must match that order)."""
    pair_difference: bool = False
    """The absolute difference of two single rows' values: the partner row is looked up by value."""


@dataclass(frozen=True)
class Function:
    apply: Callable[[Environment, tuple], tuple[str, Any]]
    useful: Callable[[Environment, tuple, tuple[str, Any]], bool]
    #: cheap necessary condition on the first argument (a row mask), checked before anything else
    first_arg_ok: Callable[[Environment, int], bool]
    #: None: no SQL form (SQL rows have no order, and some functions have no SQL counterpart)
    sql: SqlForm | None = None
    search: SearchHints = SearchHints()


REGISTRY: dict[str, Function] = {}


def _nonempty(env: Environment, rows: int) -> bool:
    return rows != 0


def _several(env: Environment, rows: int) -> bool:
    return rows & (rows - 1) != 0


def _single(env: Environment, rows: int) -> bool:
    return rows != 0 and rows & (rows - 1) == 0


def _always(env: Environment, args: tuple, result: tuple) -> bool:
    return True


def function(
    name: str,
    first_arg_ok=_several,
    useful=_always,
    sql: SqlForm | None = None,
    search: SearchHints = SearchHints(),
):
    """Declare a function once: its semantics, pruning, SQL rendering and search hints."""

    def register(apply):
        REGISTRY[name] = Function(apply, useful, first_arg_ok, sql, search)
        return apply

    return register


def _values(env: Environment, rows: int, prop: Prop) -> Sequence:
    present = prop.present
    if rows & present == present:  # every row with a value (`all_rows`, mostly): no walk over the mask's bits
        return prop.present_values
    vals = prop.values
    return [vals[i] for i in rows_of(rows & present)]


def _matching_type(values_type: str, prop: Prop) -> None:
    if VALUES_OF[prop.type] != values_type:
        raise ExecError(f"{values_type} compared with {prop.type} {prop.name}")


def _proper_subset(env: Environment, args: tuple, result: tuple) -> bool:
    return result[1] != 0 and result[1] != args[0]


def _has_values(env: Environment, args: tuple, result: tuple) -> bool:
    return len(result[1]) > 0


# ----- row sets -> values ---------------------------------------------------------------------------------


@function(
    "hop",
    first_arg_ok=_nonempty,
    useful=_has_values,
    sql=SqlForm("project"),
    search=SearchHints(by_target=True, ordered_cells=True),
)
def hop(env, args):
    rows, prop = args
    values = _values(env, rows, prop)
    if not env.spec.keep_duplicates:
        values = list(dict.fromkeys(values))
    return VALUES_OF[prop.type], tuple(values)


def _extreme_on(rows: int, prop: Prop, highest: bool) -> tuple[Any, int]:
    """The highest (lowest) value on `rows` and the mask of every row (of the column) tied with it."""
    if prop.type == "string_property":
        raise ExecError(f"{prop.name} is not ordered")
    if rows & prop.present == prop.present:
        return prop.extreme_of_all(highest)
    i = _extreme_index(rows, prop, highest)
    return prop.sorted_values[i], prop.sorted_masks[i]


def _extreme_index(rows: int, prop: Prop, highest: bool) -> int:
    """Index in `prop.sorted_values` of the highest (lowest) value on `rows`."""
    masks = prop.sorted_masks
    for i in range(len(masks) - 1, -1, -1) if highest else range(len(masks)):
        if masks[i] & rows:
            return i
    raise ExecError(f"no values of {prop.name} on these rows")


def _extreme(highest: bool):
    """maximum / minimum: the extreme value itself, as a one-value list."""

    def apply(env, args):
        rows, prop = args
        return VALUES_OF[prop.type], (_extreme_on(rows, prop, highest)[0],)

    return apply


function(
    "maximum",
    useful=_has_values,
    sql=SqlForm("aggregate", "MAX"),
    search=SearchHints(one_item=True, by_target=True),
)(_extreme(highest=True))
function(
    "minimum",
    useful=_has_values,
    sql=SqlForm("aggregate", "MIN"),
    search=SearchHints(one_item=True, by_target=True),
)(_extreme(highest=False))


@function("mode", useful=_has_values, search=SearchHints(by_target=True))
def mode(env, args):
    rows, prop = args
    counts: dict = {}
    for v in _values(env, rows, prop):
        counts[v] = counts.get(v, 0) + 1
    if not counts:
        raise ExecError(f"no values of {prop.name} on these rows")
    best = max(counts.values())
    return VALUES_OF[prop.type], tuple(v for v, c in counts.items() if c == best)


# ----- row sets -> numbers --------------------------------------------------------------------------------


def _countable(env: Environment, rows: int) -> bool:
    """No rows count as 0 where comparisons may select none (SQL's COUNT over no rows)."""
    return rows != 0 or env.spec.empty_comparisons


@function("count", first_arg_ok=_countable, sql=SqlForm("count"), search=SearchHints(row_count=True))
def count(env, args):
    return "num", float(args[0].bit_count())


def _numeric(values: list, prop: Prop) -> list:
    if prop.type != "num_property":
        raise ExecError(f"{prop.name} is not a number column")
    if not values:
        raise ExecError(f"no values of {prop.name} on these rows")
    return values


@function("sum", sql=SqlForm("aggregate", "SUM"), search=SearchHints(one_item=True, numeric=True))
def sum_(env, args):
    rows, prop = args
    return "num", float(sum(_numeric(_values(env, rows, prop), prop)))


@function("average", sql=SqlForm("aggregate", "AVG"), search=SearchHints(one_item=True, numeric=True))
def average(env, args):
    rows, prop = args
    values = _numeric(_values(env, rows, prop), prop)
    return "num", sum(values) / len(values)


def _diff_useful(env, args, result) -> bool:
    return args[0] != args[1]


@function("diff", first_arg_ok=_single, useful=_diff_useful, search=SearchHints(pair_difference=True))
def diff(env, args):
    rows1, rows2, prop = args
    if rows1.bit_count() != 1 or rows2.bit_count() != 1:
        raise ExecError("diff needs two single rows")
    (a,), (b,) = _numeric(_values(env, rows1, prop), prop), _numeric(_values(env, rows2, prop), prop)
    return "num", abs(a - b)


# ----- totals of groups: written by the world's proposals only (`LanguageSpec.proposal_functions`) ----------


@function("total_diff", first_arg_ok=_nonempty)
def total_diff(env, args):
    """How far apart two row sets' totals are: "how many more hours went to Greenway Trust than to Bloom
    Café?" where each client has several rows (`diff` takes single rows)."""
    rows1, rows2, prop = args
    if rows1 & rows2:
        raise ExecError("total_diff needs two row sets with no row in common")
    a, b = sum(_numeric(_values(env, rows1, prop), prop)), sum(_numeric(_values(env, rows2, prop), prop))
    return "num", float(abs(a - b))


def _by_total(highest: bool):
    """top_total / bottom_total: the values of a key column whose rows' total of a number column is the
    highest (lowest): "which client did I bill more hours to, A or B?", "which category sold the most in
    all?". Ties give every tied value, in row order."""

    def apply(env, args):
        rows, key, prop = args
        if prop.type != "num_property":
            raise ExecError(f"{prop.name} is not a number column")
        totals: dict = {}
        for i in rows_of(rows & key.present & prop.present):
            totals[key.values[i]] = totals.get(key.values[i], 0.0) + prop.values[i]
        if len(totals) < 2:
            raise ExecError(f"no two values of {key.name} to compare totals of")
        best = max(totals.values()) if highest else min(totals.values())
        # sums of the same amounts in another order differ in their last bits (0.1 + 0.2 against 0.3)
        tied = [k for k, total in totals.items() if math.isclose(total, best, rel_tol=1e-9, abs_tol=1e-9)]
        return VALUES_OF[key.type], tuple(tied)

    return apply


function("top_total")(_by_total(highest=True))
function("bottom_total")(_by_total(highest=False))


# ----- two columns of each row: written by the world's proposals only ----------------------------------------


def _row_difference(first: Any, second: Any) -> float | None:
    """A row's first value less its second: numbers as they are, two whole dates in days; None otherwise."""
    if isinstance(first, Date) and isinstance(second, Date):
        if first.has_unknown_fields or second.has_unknown_fields:
            return None
        try:
            return float(_ordinal(first) - _ordinal(second))
        except ValueError:  # a date no calendar has (a WTQ `2011-02-30`)
            return None
    if isinstance(first, int | float) and isinstance(second, int | float):
        return float(first) - float(second)
    return None


def _ordinal(value: Date) -> int:
    return date_type(value.year, value.month, value.day).toordinal()


def _two_columns(first: Prop, second: Prop) -> None:
    if first is second or first.type != second.type or first.type == "string_property":
        raise ExecError(f"{first.name} and {second.name} are not two columns of one ordered kind")


@function("difference")
def difference(env, args):
    """Each row's first column less its second, a number column of its own ("the days from opened to closed",
    "capacity minus enrolled"), which the other functions then read as any number column: the bug that took
    longest to close is the `argmax` of closed less opened."""
    first, second = args
    _two_columns(first, second)
    values = tuple(
        None if a is None or b is None else _row_difference(a, b)
        for a, b in zip(first.values, second.values, strict=True)
    )
    if all(v is None for v in values):
        raise ExecError(f"no row has both {first.name} and {second.name}")
    name = f"({first.name} - {second.name})"
    return "num_property", Prop.build(name, "num_property", values, user_matching=first.user_matching)


@function("filter_exceeding", first_arg_ok=_nonempty, useful=_proper_subset)
def filter_exceeding(env, args):
    """The rows whose first column is above their second ("the items below their reorder level" keeps those
    whose reorder level is above their stock; "paid after the due date")."""
    rows, first, second = args
    _two_columns(first, second)
    kept = [
        i
        for i in rows_of(rows & first.present & second.present)
        if (d := _row_difference(first.values[i], second.values[i])) is not None and d > 0
    ]
    return "entity_list", mask_of(kept)


# ----- row sets -> row sets -------------------------------------------------------------------------------


def _equal_rows(rows: int, values: tuple, prop: Prop) -> int:
    distinct = set(values)
    if len(distinct) != 1:
        return 0  # a cell holds one value, so it never equals a set of several
    return prop.equal_to(next(iter(distinct))) & rows


@function("filter_eq", useful=_proper_subset, sql=SqlForm("compare", "="), search=SearchHints(rowwise=True))
def filter_eq(env, args):
    rows, (vtype, values), prop = args
    _matching_type(vtype, prop)
    return "entity_list", _equal_rows(rows, values, prop)


@function(
    "filter_not_eq", useful=_proper_subset, sql=SqlForm("compare", "!="), search=SearchHints(rowwise=True)
)
def filter_not_eq(env, args):
    rows, (vtype, values), prop = args
    _matching_type(vtype, prop)
    return "entity_list", rows & ~_equal_rows(rows, values, prop)


def _comparison_useful(env: Environment, args: tuple, result: tuple) -> bool:
    """A comparison keeps a proper subset of its rows, an empty one only where the language declares
    `empty_comparisons`."""
    rows = result[1]
    return rows != args[0] and (rows != 0 or env.spec.empty_comparisons)


def _compare(greater: bool, strict: bool):
    """filter_ge / greater / le / less: keep a row if its value beats every value of the list."""

    def apply(env, args):
        rows, (vtype, values), prop = args
        _matching_type(vtype, prop)
        if not values:
            raise ExecError("comparison with an empty list")
        if prop.user_matching and any(isinstance(v, Date) and v.has_unknown_fields for v in values):
            return "entity_list", rows & prop.beyond_partial_dates(values, greater, strict)
        keys = [key(v) for v in values]
        if greater:
            return "entity_list", rows & prop.present & ~prop.at_most(max(keys), strict=not strict)
        return "entity_list", rows & prop.at_most(min(keys), strict=strict)

    return apply


function(
    "filter_ge", useful=_comparison_useful, sql=SqlForm("compare", ">="), search=SearchHints(rowwise=True)
)(_compare(greater=True, strict=False))
function(
    "filter_greater", useful=_comparison_useful, sql=SqlForm("compare", ">"), search=SearchHints(rowwise=True)
)(_compare(greater=True, strict=True))
function(
    "filter_le", useful=_comparison_useful, sql=SqlForm("compare", "<="), search=SearchHints(rowwise=True)
)(_compare(greater=False, strict=False))
function(
    "filter_less", useful=_comparison_useful, sql=SqlForm("compare", "<"), search=SearchHints(rowwise=True)
)(_compare(greater=False, strict=True))


def _contain_mask(rows: int, strings: tuple, prop: Prop) -> int:
    if prop.type != "string_property":
        raise ExecError(f"{prop.name} is not a text column")
    mask = 0
    for s in strings:
        mask |= prop.containing(s)
    return mask & rows


@function(
    "filter_str_contain_any", useful=_proper_subset, sql=SqlForm("contains"), search=SearchHints(rowwise=True)
)
def filter_str_contain_any(env, args):
    rows, (_, strings), prop = args
    return "entity_list", _contain_mask(rows, strings, prop)


@function(
    "filter_str_contain_not_any",
    useful=_proper_subset,
    sql=SqlForm("contains", "NOT"),
    search=SearchHints(rowwise=True),
)
def filter_str_contain_not_any(env, args):
    rows, (_, strings), prop = args
    return "entity_list", rows & ~_contain_mask(rows, strings, prop)


def _superlative(highest: bool):
    """argmax / argmin: every row tied at the extreme value (all ties, as MAPO)."""

    def apply(env, args):
        rows, prop = args
        return "entity_list", _extreme_on(rows, prop, highest)[1] & rows

    return apply


function("argmax", useful=_proper_subset, sql=SqlForm("superlative", "MAX"))(_superlative(highest=True))
function("argmin", useful=_proper_subset, sql=SqlForm("superlative", "MIN"))(_superlative(highest=False))


def _same_useful(env, args, result) -> bool:
    return result[1] != 0


@function("same", first_arg_ok=_single, useful=_same_useful)
def same(env, args):
    rows, prop = args
    if rows.bit_count() != 1:
        raise ExecError("same needs exactly one row")
    row = rows.bit_length() - 1
    value = prop.values[row]
    if value is None:
        return "entity_list", 0
    return "entity_list", prop.index[value] & ~rows


@function("first")
def first(env, args):
    rows = args[0]
    if not rows:
        raise ExecError("first of no rows")
    return "entity_list", rows & -rows


@function("last")
def last(env, args):
    rows = args[0]
    if not rows:
        raise ExecError("last of no rows")
    return "entity_list", 1 << (rows.bit_length() - 1)


def _shift_first_ok(env: Environment, rows: int) -> bool:
    return rows != 0 and rows != env.all_rows


def _landed(env, args, result) -> bool:
    return result[1] != 0


@function("next", first_arg_ok=_shift_first_ok, useful=_landed)
def next_(env, args):
    return "entity_list", (args[0] << 1) & env.all_rows


@function("previous", first_arg_ok=_shift_first_ok, useful=_landed)
def previous(env, args):
    return "entity_list", args[0] >> 1
