"""Systematic program exploration: find the consistent programs of one question, bottom-up by denotation.

MAPO fills its replay buffer by *random* exploration (50 samples x 1000 epochs per question, trigger-word
filter, Bloom filter of finished programs); it reaches about a third of WTQ at one CPU-second per question.
Here the space is enumerated instead, and merged by what expressions *compute*:

- Round 1 evaluates every useful expression over `all_rows` and the constants; round k every expression with
  at least one argument first computed in round k-1 (semi-naive evaluation, so no expression is evaluated
  twice). An expression is kept only when the interpreter would offer it: `first_arg_ok`, `apply` (no
  error) and `useful` of `nsmcli.worlds.tables.lang.functions.REGISTRY`, i.e. the same execution-guided pruning.
- Intermediate results are merged by denotation: one canonical derivation per distinct (type, value), the
  smallest, preferring question entities and columns named in the question, then discovery order. A
  derivation is a set of earlier results, so shared sub-results (`(diff v0 v1 ..)` with `v1 = (next v0)`)
  count once against `max_expressions`.
- A result is kept only if some completion can still turn it into an answer within `max_expressions`: a row
  set needs one more expression, a value list two (a filter, then `hop` or an aggregate). Programs whose
  answer is a row set are never output (no WTQ or WikiSQL answer is a list of rows), except an empty one
  where the language declares `empty_comparisons` and the answer is empty (WikiSQL).
- Expressions that can only be final (their size reaches the limit) are evaluated goal-directed: a checker
  that knows the target (`WtqChecker`, `WikisqlChecker`) says which cells can match which answer item, so
  `hop`/`maximum`/`minimum`/`mode` only run on row sets that contain a matching cell for every item, `count`
  on row sets of a correct size, and `diff` looks up the partner row by value.

Knowledge of the semantics used for speed, each checked by the tests against `apply`: the filters in
`ROWWISE_FILTERS` are `rows & mask(list, column)` (the mask is computed once on all rows) and compare a list
with a column of the same kind; `count` is the number of rows; `diff` is the absolute difference of two
rows' values. Hints only skip expressions that cannot be correct: the output equals that of a plain
callable checker. What merging by denotation gives up: a program whose sub-results are shared (`v1 =
(next v0)`, `(diff v0 v1 ..)`) is found only if the canonical derivation of each sub-result is the one
that shares; and of two derivations of one intermediate result, only the canonical one appears in programs.

Spurious programs: every consistent program is counted (`n_found`), and at most `max_programs` are kept,
ranked by `program_score`: fewer expressions first, then more uses of question entities, then more uses of
columns named in the question, then discovery order (deterministic: constants in table and question order,
functions in grammar order). Measured on 1,150 covered WikiSQL train questions, where the gold SQL says
which columns and aggregate a non-spurious program uses: the top-ranked program has them for 52.3%
(58.7% have such a program at all); entities-first ranking gives 53.5%, within noise, but promotes long
spurious programs (a `diff` of two entity rows) over short correct ones. A plain `is_correct(answer) ->
bool` callable works too, without the goal-directed pruning.

Where the language declares `state_every_condition` (WikiSQL), each kept program is also written with a
filter on each question entity it leaves unused, run first, and only the consistent programs that use the
most entities are kept: merging by denotation never derives a second filter that the table makes redundant,
though the question states it (BENCHMARKS.md, "WikiSQL programs that state every condition").

The answer checkers live in `nsmcli.worlds.tables.data.checkers`; whole splits (`nsm explore`, resumable and parallel)
are run by `nsmcli.worlds.tables.search.runner`.
"""

from __future__ import annotations

import bisect
import math
import time
from collections.abc import Callable, Collection, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from nsmcli.errors import GrammarError
from nsmcli.worlds.tables.data.checkers import AnswerChecker, CallableChecker
from nsmcli.worlds.tables.data.values import Date
from nsmcli.worlds.tables.lang import program as P
from nsmcli.worlds.tables.lang.choices import choice_pairs, choice_programs, echoes_a_choice
from nsmcli.worlds.tables.lang.functions import REGISTRY, ExecError, Prop
from nsmcli.worlds.tables.lang.interpreter import Environment, has_unused_result, to_plain
from nsmcli.worlds.tables.lang.spec import LanguageSpec

__all__ = [
    "DEFAULT_MAX_PROGRAMS",
    "ROWWISE_FILTERS",
    "SEARCH_VERSION",
    "ExploreStats",
    "ExploreResult",
    "allowed_functions",
    "explore",
    "program_score",
    "check_program",
]

#: Consistent programs kept per question (the rest are only counted).
DEFAULT_MAX_PROGRAMS = 20

#: Bump when a change to the search, its ranking or its filters (the choice rule) changes which programs it
#: keeps under the same settings: `nsm explore` then searches again instead of reusing an earlier output.
#: 2: a side of a choice whose filter keeps the other side's rows is no echo.
#: 3: WikiSQL's programs state every condition (`LanguageSpec.state_every_condition`).
SEARCH_VERSION = 3

#: Filters whose result is `rows & mask(list, column)` (declared by `SearchHints.rowwise`): the mask is
#: computed once per (list, column) on all rows, then intersected with every row set.
ROWWISE_FILTERS = frozenset(name for name, fn in REGISTRY.items() if fn.search.rowwise)

_ROW_TYPE = "entity_list"
_VALUES_OF = {"string_property": "string_list", "num_property": "num_list", "date_property": "date_list"}
_FULL, _FINAL = 0, 1
_ALL_ROWS = -1  # argument code of all_rows; constant i is -(2 + i); computed results are ids >= 0
_EXEC_ERRORS = (ExecError, ArithmeticError, TypeError, ValueError)


# ----- results ------------------------------------------------------------------------------------------


@dataclass
class ExploreStats:
    """What one search did. `exhausted`: the whole space within the limits was enumerated (no budget hit)."""

    evaluated: int = 0  # expressions evaluated (applied, or intersected for row-wise filters)
    denotations: int = 0  # distinct intermediate results kept
    seconds: float = 0.0
    exhausted: bool = False
    rounds: int = 0

    def to_json(self) -> dict:
        d = asdict(self)
        d["seconds"] = round(self.seconds, 4)
        return d


@dataclass
class ExploreResult:
    """Consistent programs in canonical text, best first (at most `max_programs`); `n_found` counts every
    consistent program the search met, before a question that offers a choice drops its echoes."""

    programs: list[str] = field(default_factory=list)
    n_found: int = 0
    stats: ExploreStats = field(default_factory=ExploreStats)


# ----- trigger words ------------------------------------------------------------------------------------


def allowed_functions(
    spec: LanguageSpec, tokens: Iterable[str], pos_tags: Iterable[str] = ()
) -> frozenset[str]:
    """MAPO's trigger-word filter: a function with triggers is allowed only if one of its trigger words
    (lower-case) occurs among the question tokens or one of its trigger POS tags among the tags."""
    present = {t.lower() for t in tokens} | set(pos_tags)
    return frozenset(
        f.name for f in spec.functions if not f.triggers or any(t in present for t in f.triggers)
    )


# ----- ranking ------------------------------------------------------------------------------------------


def program_score(n_expressions: int, n_entity_uses: int, n_matched_column_uses: int) -> tuple[int, int, int]:
    """Sort key of a consistent program (smaller is better): short programs first (the fewer steps, the
    less room for a coincidence), then programs that use the question's entities, then programs over
    columns the question names."""
    return (n_expressions, -n_entity_uses, -n_matched_column_uses)


def _column_slug(name: str) -> str:
    base = name[2:] if name.startswith("r.") else name
    return base.rsplit("-", 1)[0] if "-" in base else base


def check_program(env: Environment, text: str, is_correct: Callable[[list], bool]) -> str | None:
    """Why `text` is not a consistent program of `env` (None if it is): it must execute through the
    interpreter token by token, every token must be among `valid_tokens` (the decoder could produce it),
    the answer must be correct and no intermediate result may be unused."""
    try:
        tokens = env.encode(text)
    except GrammarError as exc:
        return str(exc)
    state = env.initial_state()
    for t in tokens:
        if t not in env.valid_tokens(state):
            return f"token {env.token_name(t)} is not valid after {len(state.tokens)} tokens"
        state = env.step(state, t)
        if state.error:
            return state.error
    if has_unused_result(state, env):
        return "an intermediate result is unused"
    result = env.result(state)
    if not result.ok:
        return result.error
    if not is_correct(result.answer):
        return f"wrong answer {result.answer}"
    return None


# ----- the search ---------------------------------------------------------------------------------------


class _Budget(Exception):
    pass


def _plain_item(v: Any) -> Any:
    return str(v) if isinstance(v, Date) else v


_DISTANCES: dict[tuple[int, tuple[str, ...]], tuple[LanguageSpec, dict[str, float]]] = {}


class _Search:
    def __init__(
        self,
        env: Environment,
        checker: AnswerChecker,
        allowed: Collection[str] | None,
        budget_seconds: float | None,
        max_evaluations: int | None,
        max_programs: int,
        preferred_columns: Collection[str],
    ):
        self.env = env
        self.spec = env.spec
        self.checker = checker
        self.max_exp = env.limits.max_expressions
        self.max_programs = max_programs
        self.t0 = time.perf_counter()
        self.deadline = None if budget_seconds is None else self.t0 + budget_seconds
        self.max_evaluations = max_evaluations
        self.evaluated = 0
        self.functions = [f for f in self.spec.functions if allowed is None or f.name in allowed]
        # constants
        preferred = {_column_slug(c) for c in preferred_columns}
        self.props: list[tuple[int, Prop]] = []
        self.lists: list[tuple[int, str, Any]] = []
        self.code_ents: dict[int, int] = {}
        self.code_cols: dict[int, int] = {}
        for i, ((type_, value), arg) in enumerate(zip(env.constants, env.constant_args, strict=True)):
            code = -2 - i
            if isinstance(arg, P.Column):
                self.props.append((code, value))
                if _column_slug(arg.name) in preferred:
                    self.code_cols[code] = 1
            else:
                self.lists.append((code, type_, value))
                self.code_ents[code] = 1
        # results: parallel arrays indexed by id
        self.types: list[str] = []
        self.values: list[Any] = []
        self.deps: list[tuple[int, ...]] = []  # ids this result's derivation uses, itself included, ascending
        self.exprs: list[tuple[str, tuple[int, ...]]] = []
        self.keys: list[tuple[int, int, int]] = []
        self.own: list[tuple[int, int]] = []  # (entity uses, matched column uses) of the expression itself
        self.round_of: list[int] = []
        self.index: dict[tuple[str, Any], int] = {}
        # answers
        self.found: list[tuple] = []
        self.n_found = 0
        self.seq = 0
        self._judged: dict = {}
        self._tmasks: dict[int, list[int] | None] = {}
        self._filter_masks: dict[tuple[str, int, int], int | None] = {}
        self._good_counts: set[int] | None = None
        self.cands = checker.number_candidates()
        # results equal to a constant are never kept: the constant itself is cheaper
        self.atoms = {(t, v) for _, t, v in self.lists} | {(_ROW_TYPE, env.all_rows)}
        self.round = 0
        # an empty row set is an answer only where the language lets comparisons select no rows and the
        # checker accepts an empty answer (a WikiSQL query whose conditions select nothing)
        self.empty_answer = self.spec.empty_comparisons and self._judge(_ROW_TYPE, 0)
        # distance from a result type to an answer: rows need one more expression, lists two
        cache_key = (id(self.spec), tuple(f.name for f in self.functions))
        cached = _DISTANCES.get(cache_key)
        if cached is None or cached[0] is not self.spec:
            cached = _DISTANCES[cache_key] = (self.spec, self._distances())
        self.dist = cached[1]
        self.store_max = {t: self.max_exp - d for t, d in self.dist.items() if d != math.inf}
        self._mode_tables: dict[str, list[int | None]] = {}

    # -- bookkeeping --------------------------------------------------------------------------------------

    def _distances(self) -> dict[str, int]:
        """Fewest expressions that turn a value of each type into a non-row answer (inf: never)."""
        types = set(self.spec.ancestors)
        inf = math.inf
        dist = {t: inf for t in types}
        for _ in range(len(types) + 1):
            for f in self.functions:
                outs = self._return_types(f)
                step = min((1 if o != _ROW_TYPE else 1 + dist.get(o, inf)) for o in outs) if outs else inf
                for a in f.args:
                    for t in types:
                        if self.spec.accepts(a, t) and step < dist[t]:
                            dist[t] = step
        return dist

    def _return_types(self, f) -> list[str]:
        if f.returns == "values_of_arg2":
            return [t for t in ("string_list", "num_list", "date_list") if t in self.spec.ancestors]
        return [f.returns]

    def _tick(self, n: int = 1) -> None:
        self.evaluated += n
        if self.max_evaluations is not None and self.evaluated > self.max_evaluations:
            raise _Budget
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Budget

    def _mode(self, type_: str, size: int) -> int | None:
        """FULL: evaluate and keep as an intermediate; FINAL: only as an answer; None: useless."""
        if size <= self.store_max.get(type_, -1):
            return _FULL
        if (type_ == _ROW_TYPE and not self.empty_answer) or size > self.max_exp:
            return None
        return _FINAL

    def _modes(self, type_: str) -> list[int | None]:
        """`_mode(type_, size)` for every size up to the limit (index: size)."""
        table = self._mode_tables.get(type_)
        if table is None:
            table = self._mode_tables[type_] = [self._mode(type_, s) for s in range(self.max_exp + 2)]
        return table

    def _size_limit(self, f) -> int:
        """The largest result size at which an expression of `f` is still worth evaluating."""
        return max(
            self.store_max.get(t, -1) if t == _ROW_TYPE and not self.empty_answer else self.max_exp
            for t in self._return_types(f)
        )

    def _own(self, codes: tuple[int, ...]) -> tuple[int, int]:
        ents = cols = 0
        for c in codes:
            if c < -1:
                ents += self.code_ents.get(c, 0)
                cols += self.code_cols.get(c, 0)
        return ents, cols

    def _counts_of(self, union: tuple[int, ...], codes: tuple[int, ...]) -> tuple[int, int, int]:
        """(expressions, entity uses, matched column uses) of a derivation."""
        ents, cols = self._own(codes)
        for i in union:
            e, c = self.own[i]
            ents += e
            cols += c
        return len(union) + 1, ents, cols

    def _key(self, union: tuple[int, ...], codes: tuple[int, ...]) -> tuple[int, int, int]:
        """Preference among derivations of one intermediate result: the smallest (so that it can still be
        extended), then entities, then matched columns."""
        size, ents, cols = self._counts_of(union, codes)
        return (size, -ents, -cols)

    @staticmethod
    def _union(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
        if not a:
            return b
        if not b or a == b:
            return a
        return tuple(sorted(set(a) | set(b)))

    def _store(
        self, type_: str, value: Any, fname: str, codes: tuple[int, ...], union: tuple[int, ...]
    ) -> None:
        """Keep a result unless an earlier round computed it; within a round keep the best derivation."""
        k = (type_, value)
        i = self.index.get(k)
        if (i is not None and self.round_of[i] != self.round) or k in self.atoms:
            return
        key = self._key(union, codes)
        if i is None:
            i = len(self.types)
            self.index[k] = i
            self.types.append(type_)
            self.values.append(value)
            self.deps.append(union + (i,))
            self.exprs.append((fname, codes))
            self.keys.append(key)
            self.own.append(self._own(codes))
            self.round_of.append(self.round)
        elif key < self.keys[i]:
            self.deps[i] = union + (i,)
            self.exprs[i] = (fname, codes)
            self.keys[i] = key
            self.own[i] = self._own(codes)

    def _judge(self, type_: str, value: Any) -> bool:
        k = (type_, value)
        ok = self._judged.get(k)
        if ok is None:
            ok = self._judged[k] = bool(self.checker(to_plain(type_, value)))
        return ok

    def _found(self, fname: str, codes: tuple[int, ...], union: tuple[int, ...]) -> None:
        self.n_found += 1
        self.found.append((program_score(*self._counts_of(union, codes)), self.seq, fname, codes, union))
        self.seq += 1
        if len(self.found) > 4 * self.max_programs + 64:
            self.found.sort(key=lambda x: x[:2])
            del self.found[self.max_programs :]

    def _result(
        self, result: tuple[str, Any], mode: int, fname: str, codes: tuple, da: tuple, db: tuple = ()
    ) -> None:
        """A computed, useful expression: check it as an answer, keep it as an intermediate. The derivation
        is the union of the arguments' derivations `da` and `db`, computed only when needed."""
        type_, value = result
        if type_ == _ROW_TYPE:
            if value == 0 and self.empty_answer:  # no rows only where the language declares it
                self._found(fname, codes, self._union(da, db))
            if mode == _FULL:
                i = self.index.get(result)
                if i is None or self.round_of[i] == self.round:
                    self._store(type_, value, fname, codes, self._union(da, db))
            return
        if self._judge(type_, value):
            self._found(fname, codes, self._union(da, db))
        if mode == _FULL:
            i = self.index.get(result)
            if i is None or self.round_of[i] == self.round:
                self._store(type_, value, fname, codes, self._union(da, db))

    def _apply(self, fn, args: tuple) -> tuple[str, Any] | None:
        self._tick()
        try:
            result = fn.apply(self.env, args)
        except _EXEC_ERRORS:
            return None
        return result if fn.useful(self.env, args, result) else None

    # -- argument pools ------------------------------------------------------------------------------------

    def _pools(self) -> tuple[list, list, list, list]:
        """(frontier rows, older rows, frontier lists, older lists) as (code, type, value, deps)."""
        if self.round == 1:
            rows_new = [(_ALL_ROWS, _ROW_TYPE, self.env.all_rows, ())]
            lists_new = [(c, t, v, ()) for c, t, v in self.lists]
            return rows_new, [], lists_new, []
        rows_new, rows_old, lists_new, lists_old = [], [(_ALL_ROWS, _ROW_TYPE, self.env.all_rows, ())], [], []
        lists_old.extend((c, t, v, ()) for c, t, v in self.lists)
        for i, type_ in enumerate(self.types):
            item = (i, type_, self.values[i], self.deps[i])
            new = self.round_of[i] == self.round - 1
            if type_ == _ROW_TYPE:
                (rows_new if new else rows_old).append(item)
            else:
                (lists_new if new else lists_old).append(item)
        return rows_new, rows_old, lists_new, lists_old

    # -- rounds -------------------------------------------------------------------------------------------

    def run(self) -> ExploreResult:
        exhausted = True
        try:
            for r in range(1, self.max_exp + 1):
                self.round = r
                if not self._round():
                    break
        except _Budget:
            exhausted = False
        return self._finish(exhausted)

    def _round(self) -> bool:
        rows_new, rows_old, lists_new, lists_old = self._pools()
        if not rows_new and not lists_new:
            return False
        for f in self.functions:
            fn = REGISTRY.get(f.name)
            if fn is None:
                raise GrammarError(
                    f"function {f.name!r} has no semantics in nsmcli.worlds.tables.lang.functions"
                )
            args = f.args
            if not args or args[0] != _ROW_TYPE:
                raise GrammarError(f"explore needs an entity_list first argument ({f.name})")
            if len(args) == 1:
                self._unary(f, fn, rows_new)
            elif len(args) == 2 and args[1].endswith("property"):
                self._rows_prop(f, fn, rows_new)
            elif len(args) == 3 and args[2].endswith("property") and args[1] == _ROW_TYPE:
                self._pair(f, fn, rows_new, rows_old)
            elif len(args) == 3 and args[2].endswith("property"):
                self._filter(f, fn, rows_new, rows_old, lists_new, lists_old)
            else:
                raise GrammarError(f"explore does not support the signature of {f.name}: {args}")
        return True

    def _return_type_of(self, f, prop: Prop) -> str:
        return _VALUES_OF[prop.type] if f.returns == "values_of_arg2" else f.returns

    def _unary(self, f, fn, rows_new) -> None:
        name = f.name
        env = self.env
        for code, _, rows, deps in rows_new:
            if not fn.first_arg_ok(env, rows):
                continue
            mode = self._mode(f.returns, len(deps) + 1)
            if mode is None:
                continue
            if mode == _FINAL and fn.search.row_count and rows.bit_count() not in self._counts():
                self._tick()
                continue
            result = self._apply(fn, (rows,))
            if result is not None:
                self._result(result, mode, name, (code,), deps)

    def _counts(self) -> set[int]:
        if self._good_counts is None:
            cands = self.cands
            n = self.env.n_rows
            low = 0 if REGISTRY["count"].first_arg_ok(self.env, 0) else 1
            ks = (
                range(low, n + 1)
                if cands is None
                else sorted({round(c) for c in cands if low <= round(c) <= n})
            )
            self._good_counts = {k for k in ks if self._judge("num", float(k))}
        return self._good_counts

    def _targets(self, prop: Prop) -> list[int] | None:
        """Per answer item, the rows of `prop` whose value can match it; [] when unknown (no pruning);
        None when some item matches no row (nothing computed from this column can be the answer)."""
        code = id(prop)
        if code in self._tmasks:
            return self._tmasks[code]
        n = self.checker.n_targets
        masks: list[int] | None = [] if n is None else [0] * n
        for value, rows in prop.index.items() if masks else ():
            bits = self.checker.item_targets(_plain_item(value))
            if bits is None:  # no hint: no pruning
                masks = []
                break
            t = 0
            while bits:
                if bits & 1:
                    masks[t] |= rows
                bits >>= 1
                t += 1
        if masks and not all(masks):
            masks = None
        self._tmasks[code] = masks
        return masks

    def _rows_prop(self, f, fn, rows_new) -> None:
        """(rows, property) functions: hop, superlatives, aggregates, same."""
        name = f.name
        env = self.env
        rows_ok = [r for r in rows_new if fn.first_arg_ok(env, r[2])]
        if not rows_ok:
            return
        n_targets = self.checker.n_targets
        one_item = fn.search.one_item and n_targets is not None and n_targets != 1
        numeric = fn.search.numeric
        by_target = fn.search.by_target
        keep_order = self.checker.ordered and self.spec.keep_duplicates and fn.search.ordered_cells
        for pcode, prop in self.props:
            if not self.spec.accepts(f.args[1], prop.type):
                continue
            rtype = self._return_type_of(f, prop)
            masks: list[int] | None = []
            final_ok = not one_item and not (numeric and self.cands == [])
            if final_ok and by_target:
                masks = self._targets(prop)
                final_ok = masks is not None
            codes_tail = (pcode,)
            modes = self._modes(rtype)
            for code, _, rows, deps in rows_ok:
                size = len(deps) + 1
                mode = modes[size] if size < len(modes) else None
                if mode is None:
                    continue
                if mode == _FINAL:
                    if not final_ok:
                        continue
                    if masks:
                        self._tick()
                        if not all(rows & m for m in masks):  # type: ignore[union-attr]
                            continue
                        if keep_order and (rows & prop.present).bit_count() != n_targets:
                            continue
                result = self._apply(fn, (rows, prop))
                if result is not None:
                    self._result(result, mode, name, (code, *codes_tail), deps)

    def _filter(self, f, fn, rows_new, rows_old, lists_new, lists_old) -> None:
        """(rows, list, property) functions: every pair with at least one argument from the last round.

        Row sets are bucketed by derivation size, so a list is only paired with row sets whose combined
        derivation can fit; row sets sharing part of the list's derivation are found through their ancestors.
        """
        name = f.name
        env = self.env
        rowwise = fn.search.rowwise
        props = [(c, p) for c, p in self.props if self.spec.accepts(f.args[2], p.type)]
        limit = self._size_limit(f)
        if not props or limit < 1:
            return
        useful = fn.useful
        modes: dict[tuple[str, int], int | None] = {}
        # a filter compares a list with a column of the same kind (otherwise `apply` raises ExecError)
        same_kind = rowwise
        for rows_pool, lists_pool in ((rows_new, lists_new + lists_old), (rows_old, lists_new)):
            rows_ok = [r for r in rows_pool if fn.first_arg_ok(env, r[2])]
            if not rows_ok or not lists_pool:
                continue
            longest = max(len(r[3]) for r in rows_ok)
            fitting: list[list[int]] = [[] for _ in range(longest + 1)]  # positions with len(deps) <= k
            ancestors: dict[int, list[int]] = {}
            for pos, r in enumerate(rows_ok):
                fitting[len(r[3])].append(pos)
                for a in r[3]:
                    ancestors.setdefault(a, []).append(pos)
            for k in range(1, longest + 1):
                fitting[k] = fitting[k - 1] + fitting[k]
                fitting[k].sort()
            for lcode, ltype, lvalue, ldeps in lists_pool:
                nl = len(ldeps)
                if nl + 1 > limit or not self.spec.accepts(f.args[1], ltype):
                    continue
                budget = limit - 1 - nl
                todo = [(pos, len(rows_ok[pos][3]) + nl + 1) for pos in fitting[min(budget, longest)]]
                shared = {}
                for a in ldeps:
                    for pos in ancestors.get(a, ()):
                        if len(rows_ok[pos][3]) > budget and pos not in shared:
                            size = len(self._union(rows_ok[pos][3], ldeps)) + 1
                            if size <= limit:
                                shared[pos] = size
                if shared:
                    todo = sorted(todo + list(shared.items()))
                if not todo:
                    continue
                larg = (ltype, lvalue)
                for pcode, prop in props:
                    if same_kind and _VALUES_OF.get(prop.type) != ltype:
                        continue
                    if rowwise:
                        mask = self._filter_mask(name, fn, lcode, larg, pcode, prop)
                        if mask is None:
                            continue
                    rtype = self._return_type_of(f, prop)
                    codes_tail = (lcode, pcode)
                    if rowwise:
                        self._tick(len(todo))
                    for pos, size in todo:
                        mk = (rtype, size)
                        mode = modes[mk] if mk in modes else modes.setdefault(mk, self._mode(rtype, size))
                        if mode is None:
                            continue
                        code, _, rows, deps = rows_ok[pos]
                        args = (rows, larg, prop)
                        if rowwise:
                            result = (_ROW_TYPE, rows & mask)
                            if not useful(env, args, result):
                                continue
                        else:
                            result = self._apply(fn, args)
                            if result is None:
                                continue
                        if mode == _FINAL and result[0] == _ROW_TYPE and result[1] != 0:
                            continue
                        self._result(result, mode, name, (code, *codes_tail), deps, ldeps)

    def _filter_mask(self, name: str, fn, lcode: int, larg: tuple, pcode: int, prop: Prop) -> int | None:
        key = (name, lcode, pcode)
        if key in self._filter_masks:
            return self._filter_masks[key]
        self._tick()
        try:
            mask = fn.apply(self.env, (self.env.all_rows, larg, prop))[1]
        except _EXEC_ERRORS:
            mask = None
        self._filter_masks[key] = mask
        return mask

    def _pair(self, f, fn, rows_new, rows_old) -> None:
        """(rows, rows, property) functions such as `diff`: pairs with at least one new row set."""
        props = [(c, p) for c, p in self.props if self.spec.accepts(f.args[2], p.type)]
        if not props or self._size_limit(f) < 1:
            return
        cands = self.cands
        if cands == [] and f.returns == "num":
            return  # the answer is no number, and a number is only ever an answer
        firsts = [r for r in rows_new + rows_old if fn.first_arg_ok(self.env, r[2])]
        new_codes = {r[0] for r in rows_new}
        for pcode, prop in props:
            if cands is not None and fn.search.pair_difference and prop.type == "num_property":
                self._diff_lookup(f, fn, firsts, new_codes, pcode, prop, cands)
                continue
            for a in firsts:
                for b in firsts:
                    if a[0] in new_codes or b[0] in new_codes:
                        self._pair_one(f, fn, a, b, pcode, prop)

    def _pair_one(self, f, fn, a, b, pcode: int, prop: Prop) -> None:
        union = self._union(a[3], b[3])
        mode = self._mode(self._return_type_of(f, prop), len(union) + 1)
        if mode is None:
            return
        result = self._apply(fn, (a[2], b[2], prop))
        if result is None or (mode == _FINAL and result[0] == _ROW_TYPE and result[1] != 0):
            return
        self._result(result, mode, f.name, (a[0], b[0], pcode), union)

    def _diff_lookup(self, f, fn, firsts, new_codes, pcode: int, prop: Prop, cands: list[float]) -> None:
        """`diff` toward a known number: for each row, look its partner up by value instead of trying all.
        The pairs are then evaluated in the order of the plain double loop, so ranking ties break the same."""
        vals = prop.values
        keyed = []
        for pos, r in enumerate(firsts):
            v = vals[r[2].bit_length() - 1]
            if v is not None:
                keyed.append((v, pos))
        keyed.sort()
        xs = [k[0] for k in keyed]
        pairs = set()
        for x, i in keyed:
            for c in cands:
                tol = 1e-6 + 1e-9 * abs(c)
                for centre in (x + c, x - c) if c else (x,):
                    lo = bisect.bisect_left(xs, centre - tol)
                    hi = bisect.bisect_right(xs, centre + tol)
                    for j in range(lo, hi):
                        pairs.add((i, keyed[j][1]))
        for i, j in sorted(pairs):
            a, b = firsts[i], firsts[j]
            if a[0] in new_codes or b[0] in new_codes:
                self._pair_one(f, fn, a, b, pcode, prop)

    # -- output -------------------------------------------------------------------------------------------

    def _finish(self, exhausted: bool) -> ExploreResult:
        found = sorted(self.found, key=lambda x: x[:2])[: self.max_programs]
        programs = []
        seen = set()
        for _, _, fname, codes, union in found:
            text = self._text(fname, codes, union)
            if text not in seen:
                seen.add(text)
                programs.append(text)
        if choice_pairs(self.env):
            programs = self._with_choices(programs)
        if self.spec.state_every_condition:
            programs = self._with_every_condition(programs)
        stats = ExploreStats(
            self.evaluated, len(self.types), time.perf_counter() - self.t0, exhausted, self.round
        )
        return ExploreResult(programs, self.n_found, stats)

    def _with_choices(self, programs: list[str]) -> list[str]:
        """On a question that offers a choice ("A or B"): the consistent comparisons of its two sides
        first, which the search's one derivation per row set hides behind the shorter echo of one side,
        and no echo (`choices` module)."""
        made = [t for t in choice_programs(self.env) if check_program(self.env, t, self.checker) is None]
        kept = [
            t
            for t in programs
            if t not in made and not echoes_a_choice(self.env, P.Program.parse(t), self.env.execute(t).answer)
        ]
        return (made + kept)[: self.max_programs]

    def _with_every_condition(self, programs: list[str]) -> list[str]:
        """Where the language declares `state_every_condition` (WikiSQL): each program is extended with a
        filter on each question entity it leaves unused, put first (the program's first expression over all
        rows then reads its rows), where the result is still consistent; only the programs that use the
        most entities are kept. On the training table a condition is often redundant (one
        filter already selects the row), and merging by denotation then never derives the two-filter
        program, so the model would learn to drop conditions that other tables need."""
        entities = [a for a in self.env.constant_args if isinstance(a, P.Literal)]
        columns = self.env.typed_columns()
        if not entities or not programs:
            return programs
        found = {t: P.Program.parse(t) for t in programs}
        frontier = list(found)
        for _ in range(self.max_exp - 1):
            grown = []
            for text in frontier:
                program = found[text]
                if len(program.exprs) >= self.max_exp:
                    continue
                used = program.literals()
                for entity in entities:
                    if entity in used:
                        continue
                    for condition in self._conditions(entity, columns):
                        extended = _prefixed(condition, program)
                        if extended is None:
                            continue
                        t = str(extended)
                        if t not in found and check_program(self.env, t, self.checker) is None:
                            found[t] = extended
                            grown.append(t)
            if not grown:
                break
            frontier = grown[: 4 * self.max_programs]  # bounded: a few columns per entity at most
        uses = {t: len(p.literals()) for t, p in found.items()}
        most = max(uses.values())
        kept = [t for t in found if uses[t] == most]
        kept.sort(key=lambda t: len(found[t].exprs))  # stable: the search's ranking among equals
        return kept[: self.max_programs]

    def _conditions(self, entity: P.Literal, columns: list[tuple[P.Column, str]]) -> list[P.Expr]:
        """The filters over all rows that state `entity` as a condition on some column of its kind."""
        if entity.kind == "string":
            return [
                P.Expr("filter_str_contain_any", (P.ALL_ROWS, entity, c))
                for c, type_ in columns
                if type_ == "string_property"
            ]
        ordered = [c for c, type_ in columns if type_ in ("num_property", "date_property")]
        names = [f.name for f in self.functions if f.name in _CONDITION_FILTERS]
        return [P.Expr(name, (P.ALL_ROWS, entity, c)) for name in names for c in ordered]

    def _text(self, fname: str, codes: tuple[int, ...], union: tuple[int, ...]) -> str:
        position = {i: k for k, i in enumerate(union)}
        exprs = [self._expr(*self.exprs[i], position) for i in union]
        exprs.append(self._expr(fname, codes, position))
        return str(P.Program(tuple(exprs)))

    def _expr(self, fname: str, codes: tuple[int, ...], position: dict[int, int]) -> P.Expr:
        args: list[P.Arg] = []
        for c in codes:
            if c == _ALL_ROWS:
                args.append(P.ALL_ROWS)
            elif c < 0:
                args.append(self.env.constant_args[-2 - c])
            else:
                args.append(P.Ref(position[c]))
        return P.Expr(fname, tuple(args))


#: The comparisons a number or date condition may be stated with (`_with_every_condition`).
_CONDITION_FILTERS = ("filter_eq", "filter_greater", "filter_less")


def _prefixed(condition: P.Expr, program: P.Program) -> P.Program | None:
    """`program` with `condition` (a filter over all rows) run first: the program's first expression over
    all rows reads the condition's rows instead, and every reference moves up by one. None when no
    expression reads all rows."""
    first = next((k for k, e in enumerate(program.exprs) if e.args and e.args[0] == P.ALL_ROWS), None)
    if first is None:
        return None
    exprs = []
    for k, e in enumerate(program.exprs):
        args = [
            P.Ref(0) if (k == first and j == 0) else P.Ref(a.index + 1) if isinstance(a, P.Ref) else a
            for j, a in enumerate(e.args)
        ]
        exprs.append(P.Expr(e.function, tuple(args)))
    return P.Program((condition, *exprs))


def explore(
    env: Environment,
    is_correct: AnswerChecker | Callable[[list], bool],
    *,
    allowed_functions: Collection[str] | None = None,
    budget_seconds: float | None = None,
    max_evaluations: int | None = None,
    max_programs: int = DEFAULT_MAX_PROGRAMS,
    preferred_columns: Collection[str] = (),
) -> ExploreResult:
    """Find the consistent programs of one question by exhaustive bottom-up search (see the module doc).

    `is_correct` takes an answer as `Environment.execute` returns it (`Result.answer`); pass a `WtqChecker`
    or `WikisqlChecker` (`nsmcli.worlds.tables.data.checkers`; a dataset's is `Dataset.answer_checker`) for goal-directed
    pruning. `allowed_functions` restricts the functions (e.g. the
    trigger-word filter), `budget_seconds` / `max_evaluations` stop the search early (`max_evaluations` is
    deterministic, time is not), `preferred_columns` (property names or column slugs named in the question)
    break ranking ties.
    """
    checker = is_correct if isinstance(is_correct, AnswerChecker) else CallableChecker(is_correct)
    search = _Search(
        env, checker, allowed_functions, budget_seconds, max_evaluations, max_programs, preferred_columns
    )
    return search.run()
