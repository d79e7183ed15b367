"""The incremental interpreter: one class for every declared language.

`bind(spec, table, entities)` returns an `Environment`: the language bound to one table and one question's
entities. Programs are read token by token; `State`s are immutable, so a beam or a search forks them for free.

Token ids of an environment (its decoder vocabulary):
    0 `<END>`, 1 `(`, 2 `)`, 3 `all_rows`, 4.. the language's functions in declaration order,
    then the variables v0..: constants first (column properties in table order, then question entities in
    question order), then computed results.
The language's proposal functions (`LanguageSpec.proposal_functions`) come after every variable
(`Environment.proposal_base`): outside the decoder's vocabulary, which they leave as it is.

`valid_tokens(state)` applies the grammar's types and the execution-guided pruning of
`nsmcli.worlds.tables.lang.functions`; it is cached per token prefix, so replaying a program costs one computation per
prefix per environment. `step` never raises: a type or value error gives an error state.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from nsmcli.errors import GrammarError
from nsmcli.memory import gc_paused
from nsmcli.worlds.tables.data import lexicon, units
from nsmcli.worlds.tables.data.table import Column, Table
from nsmcli.worlds.tables.data.valuerules import header_magnitude, said_power
from nsmcli.worlds.tables.data.values import Date
from nsmcli.worlds.tables.lang import program as P
from nsmcli.worlds.tables.lang.functions import REGISTRY, ExecError, Prop, rows_of, user_matching
from nsmcli.worlds.tables.lang.spec import ENTITY_TYPE, PROPERTY_TYPE, LanguageSpec, Limits, get_language

END, OPEN, CLOSE, ALL_ROWS = 0, 1, 2, 3
FUNC_BASE = 4
#: How many expressions beyond `Limits.max_expressions` a whole program may run. The decoder and the search
#: never write it (`valid_tokens` keeps the limit, and so the model's memory), but the world's proposals do:
#: the difference of two rows that each need two conditions takes four (`proposals.paired_programs`).
PROPOSAL_EXPRESSIONS = 1
_NO_FUNC, _OPENED = -1, -2


@dataclass(frozen=True, slots=True)
class State:
    """A partial program. `computed` holds (type, value) of finished expressions; `args` those of the
    expression being read; `func` is the function index, -2 right after `(`, -1 between expressions."""

    tokens: tuple[int, ...] = ()
    computed: tuple[tuple[str, Any], ...] = ()
    func: int = _NO_FUNC
    args: tuple[tuple[str, Any], ...] = ()
    done: bool = False
    error: str | None = None


@dataclass
class Result:
    """A finished program: its answer as a list of plain values, or an error."""

    program: str
    type: str | None
    answer: list
    error: str | None
    intermediates: list[tuple[str, str, list]] = field(default_factory=list)  # (expr text, type, values)

    @property
    def ok(self) -> bool:
        return self.error is None


def row_label(index: int) -> str:
    """How a row of a row-set result is written in plain output: `row N`, 1-based."""
    return f"row {index + 1}"


def row_index(label: str) -> int:
    """The 0-based row index of a `row_label`."""
    return int(label.removeprefix("row ")) - 1


def to_plain(type_: str, value: Any) -> list:
    """An interpreter value as a list of JSON-friendly values (rows become `row N`, dates their text)."""
    if type_ == "entity_list":
        return [row_label(i) for i in rows_of(value)]
    if type_ == "num":
        return [value]
    if type_.endswith("_property"):  # a column a program computed (`difference`): its value on each row
        value = value.values
    return [str(v) if isinstance(v, Date) else v for v in value]


def _entity_type_value(kind: str, values: Iterable) -> tuple[str, tuple]:
    if kind == "date":
        values = tuple(v if isinstance(v, Date) else Date.parse(str(v)) for v in values)
    elif kind == "number":
        values = tuple(float(v) for v in values)
    else:
        values = tuple(str(v) for v in values)
    return ENTITY_TYPE[kind], values


class Environment:
    """A language bound to a table and a question's entities."""

    def __init__(
        self, spec: LanguageSpec, table: Table, entities: Sequence = (), limits: Limits | None = None
    ):
        self.spec = spec
        self.table = table
        self.limits = limits or spec.limits
        self.n_rows = table.n_rows
        self.all_rows = (1 << self.n_rows) - 1
        # the decoder's functions, then the proposals' (`LanguageSpec.proposal_functions`), by index
        self.function_specs = spec.functions + spec.proposal_functions
        self.functions = [REGISTRY[f.name] for f in self.function_specs]
        self.function_names = [f.name for f in self.function_specs]
        self.var_base = FUNC_BASE + len(spec.functions)
        #: the first proposal function's token: after every variable a whole program may hold
        self.proposal_base = self.var_base + self.limits.max_variables + PROPOSAL_EXPRESSIONS
        self.constants: list[tuple[str, Any]] = []  # (type, value)
        self.constant_args: list[P.Arg] = []
        self.dropped: list[P.Arg] = []  # constants beyond the memory limit, in the order they came
        for prop in _table_props(table, spec):
            self._add_constant(prop.type, prop, P.Column(prop.name))
        seen = set()
        for ent in entities:
            kind, values = (ent.kind, ent.values) if hasattr(ent, "kind") else ent
            if kind not in ENTITY_TYPE or ENTITY_TYPE[kind] not in spec.ancestors:
                continue
            type_, vals = _entity_type_value(kind, values)
            if (type_, vals) in seen or not vals or any(v is None for v in vals):
                continue
            seen.add((type_, vals))
            self._add_constant(type_, vals, P.Literal(kind, vals))
        self.n_constants = len(self.constants)
        self._prop_by_name = {a.name: i for i, a in enumerate(self.constant_args) if isinstance(a, P.Column)}
        self._lit_index = {
            (a.kind, a.values): i for i, a in enumerate(self.constant_args) if isinstance(a, P.Literal)
        }
        # constants that may fill each declared argument type, by variable index
        self._accepts = _AcceptTable(spec)
        self._arity = [len(f.args) for f in spec.functions]
        # per function and argument position: the (token, value) options among all_rows and the constants
        self._constant_options = [
            [
                ([(ALL_ROWS, ("entity_list", self.all_rows))] if spec.accepts(t, "entity_list") else [])
                + [(self.var_base + i, c) for i, c in enumerate(self.constants) if spec.accepts(t, c[0])]
                for t in f.args
            ]
            for f in spec.functions
        ]
        self._cache: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._single_rows: int | None = None

    def _add_constant(self, type_: str, value: Any, arg: P.Arg) -> None:
        if len(self.constants) >= self.limits.max_variables - self.limits.max_expressions:
            self.dropped.append(arg)  # keep room for computed results, as MAPO did
            return
        self.constants.append((type_, value))
        self.constant_args.append(arg)

    @property
    def dropped_constants(self) -> int:
        return len(self.dropped)

    def reach_warning(self) -> str | None:
        """A sentence for the user when some columns or question values did not fit the variable limit
        (`Limits.max_variables`, MAPO's memory of 60): a program cannot use them. None when all fit."""
        if not self.dropped:
            return None
        columns = [a.name for a in self.dropped if isinstance(a, P.Column)]
        values = [str(a) for a in self.dropped if isinstance(a, P.Literal)]
        parts = []
        if columns:
            parts.append(f"{len(columns)} column views from {columns[0]} on")
        if values:
            parts.append(
                f"{len(values)} question values ({', '.join(values[:3])}{', ...' if len(values) > 3 else ''})"
            )
        return (
            f"the table and question give more than the {self.limits.max_variables - self.limits.max_expressions}"
            f" constants a program can refer to; out of reach: {' and '.join(parts)}. A table with only the"
            " columns the question needs avoids this."
        )

    # ----- vocabulary ------------------------------------------------------------------------------------

    @property
    def vocab_size(self) -> int:
        return self.var_base + self.limits.max_variables

    # ----- the generic environment protocol (`nsmcli.protocols.Environment`) -----------------------------

    @property
    def world(self) -> str:
        return self.spec.name

    @property
    def n_builtins(self) -> int:
        return self.var_base

    @property
    def n_computed(self) -> int:
        return self.limits.max_expressions

    def written_slot(self, before: State, after: State) -> int:
        """A finished expression writes its result to the next computed-variable slot."""
        if len(after.computed) > len(before.computed):
            return self.var_base + self.n_constants + len(after.computed) - 1
        return -1

    def unused_work(self, state: State) -> bool:
        return has_unused_result(state, self)

    def answer(self, state: State) -> list:
        return self.result(state).answer

    def display(self, tokens: Sequence[int]) -> str:
        return str(self.decode(tokens))

    def token_name(self, token: int) -> str:
        if token < FUNC_BASE:
            return ("<END>", "(", ")", "all_rows")[token]
        if token < self.var_base:
            return self.function_names[token - FUNC_BASE]
        if (index := self._function_index(token)) >= 0:  # a proposal function's
            return self.function_names[index]
        return f"v{token - self.var_base}"

    def _function_token(self, index: int) -> int:
        decoders = len(self.spec.functions)
        return FUNC_BASE + index if index < decoders else self.proposal_base + index - decoders

    def _function_index(self, token: int) -> int:
        """The function index of a token, -1 where it names no function."""
        if FUNC_BASE <= token < self.var_base:
            return token - FUNC_BASE
        index = len(self.spec.functions) + token - self.proposal_base
        return index if len(self.spec.functions) <= index < len(self.function_specs) else -1

    # ----- reading tokens --------------------------------------------------------------------------------

    def initial_state(self) -> State:
        return State()

    def _variable(self, state: State, index: int) -> tuple[str, Any]:
        if index < self.n_constants:
            return self.constants[index]
        return state.computed[index - self.n_constants]

    def _n_variables(self, state: State) -> int:
        return self.n_constants + len(state.computed)

    def _at_limit(self, state: State, beyond: int = 0) -> bool:
        return (
            len(state.computed) >= self.limits.max_expressions + beyond
            or self._n_variables(state) >= self.limits.max_variables + beyond
        )

    def step(self, state: State, token: int) -> State:
        """Read one token. Never raises: an invalid token or an execution error gives an error state."""
        if state.done:
            return _fail(state, token, "the program has already ended")
        tokens = state.tokens + (token,)
        if state.func == _NO_FUNC:
            if token == END:
                if not state.computed:
                    return _fail(state, token, "empty program")
                if state.computed[-1][0].endswith("_property"):  # a column a program computed (`difference`)
                    return _fail(
                        state, token, "a program cannot end with a column: read its values with a function"
                    )
                return State(tokens, state.computed, done=True)
            if token == OPEN and not self._at_limit(state, PROPOSAL_EXPRESSIONS):
                return State(tokens, state.computed, _OPENED)
            return _fail(state, token, f"expected ( or <END>, got {self.token_name(token)}")
        if state.func == _OPENED:
            if (func := self._function_index(token)) >= 0:
                return State(tokens, state.computed, func)
            return _fail(state, token, f"expected a function, got {self.token_name(token)}")
        spec = self.function_specs[state.func]
        pos = len(state.args)
        if pos == len(spec.args):
            if token != CLOSE:
                return _fail(state, token, f"expected ), got {self.token_name(token)}")
            try:
                result = self.functions[state.func].apply(self, tuple(_arg_value(a) for a in state.args))
            except ExecError as exc:
                return _fail(state, token, f"({spec.name} ...): {exc}")
            except (
                ArithmeticError,
                TypeError,
                ValueError,
                OverflowError,
            ) as exc:  # defensive: report, never raise
                return _fail(state, token, f"({spec.name} ...): {type(exc).__name__}: {exc}")
            return State(tokens, state.computed + (result,))
        if token == ALL_ROWS:
            value = ("entity_list", self.all_rows)
        elif self.var_base <= token < self.var_base + self._n_variables(state):
            value = self._variable(state, token - self.var_base)
        else:
            return _fail(
                state, token, f"expected an argument of type {spec.args[pos]}, got {self.token_name(token)}"
            )
        if not self.spec.accepts(spec.args[pos], value[0]):
            return _fail(
                state, token, f"{spec.name} argument {pos + 1} must be {spec.args[pos]}, not {value[0]}"
            )
        return State(tokens, state.computed, state.func, state.args + (value,))

    # ----- valid next tokens -----------------------------------------------------------------------------

    def valid_tokens(self, state: State) -> tuple[int, ...]:
        """The tokens that may follow `state`: type-correct and passing execution-guided pruning."""
        cached = self._cache.get(state.tokens)
        if cached is None:
            cached = self._cache[state.tokens] = self._compute_valid(state)
        return cached

    def _compute_valid(self, state: State) -> tuple[int, ...]:
        if state.done:
            return ()
        if state.func == _NO_FUNC:
            if not state.computed:
                return (OPEN,)
            if self._at_limit(state) or state.computed[-1][0] == "num":  # a number feeds no function
                return (END,)
            return (OPEN, END)
        if state.func == _OPENED:  # the decoder's functions only
            return tuple(
                FUNC_BASE + i for i in range(len(self.spec.functions)) if self._function_possible(state, i)
            )
        if state.func >= len(self.spec.functions):  # a proposal's function: nothing the decoder may write
            return ()
        spec = self.function_specs[state.func]
        if len(state.args) == len(spec.args):
            return (CLOSE,)
        return tuple(self._arg_candidates(state, state.func, state.args))

    def _function_possible(self, state: State, func: int) -> bool:
        return any(True for _ in self._arg_candidates(state, func, ()))

    def _arg_candidates(self, state: State, func: int, args: tuple):
        """Yield the tokens that can fill the next argument of `func` after `args` with a useful completion."""
        pos = len(args)
        arity, arg_type = self._arity[func], self.spec.functions[func].args[pos]
        options = self._constant_options[func][pos]
        if state.computed:
            accepts = self._accepts
            extra = [
                (self.var_base + self.n_constants + j, var)
                for j, var in enumerate(state.computed)
                if accepts[arg_type, var[0]]
            ]
            if extra:
                options = options + extra
        fn = self.functions[func]
        if pos == 0 and arg_type == "entity_list":
            first_ok = fn.first_arg_ok
            options = [(t, v) for t, v in options if first_ok(self, v[1])]
        if pos + 1 < arity:
            for token, value in options:
                if any(True for _ in self._arg_candidates(state, func, args + (value,))):
                    yield token
            return
        apply, useful = fn.apply, fn.useful
        plain_args = tuple(_arg_value(a) for a in args)
        for token, value in options:
            plain = plain_args + (_arg_value(value),)
            try:
                result = apply(self, plain)
            except (ExecError, ArithmeticError, TypeError, ValueError):
                continue
            if useful(self, plain, result):
                yield token

    # ----- whole programs --------------------------------------------------------------------------------

    def encode(self, program: P.Program | str) -> list[int]:
        """Token ids of a program's text or tree in this environment (GrammarError if a name is unknown)."""
        if isinstance(program, str):
            program = P.parse_program(program)
        tokens: list[int] = []
        for expr in program.exprs:
            try:
                func = self.function_names.index(expr.function)
            except ValueError:
                raise GrammarError(f"language {self.spec.name} has no function {expr.function!r}") from None
            tokens += [OPEN, self._function_token(func)]
            for arg in expr.args:
                tokens.append(self._arg_token(arg))
            tokens.append(CLOSE)
        tokens.append(END)
        return tokens

    def typed_columns(self) -> list[tuple[P.Column, str]]:
        """Every column of the table with its property type (`string_property`, `num_property`, ...)."""
        return [
            (a, self.constants[i][0]) for i, a in enumerate(self.constant_args) if isinstance(a, P.Column)
        ]

    def column(self, column: P.Column) -> Prop | None:
        """The table's property behind `column` (None: not a column of this table)."""
        index = self._prop_by_name.get(column.name)
        return None if index is None else self.constants[index][1]

    def _arg_token(self, arg: P.Arg) -> int:
        if isinstance(arg, P.AllRows):
            return ALL_ROWS
        if isinstance(arg, P.Ref):
            return self.var_base + self.n_constants + arg.index
        if isinstance(arg, P.Column):
            if arg.name not in self._prop_by_name:
                raise GrammarError(f"unknown column {arg.name!r} in table {self.table.id}")
            return self.var_base + self._prop_by_name[arg.name]
        _, values = _entity_type_value(arg.kind, arg.values)
        index = self._lit_index.get((arg.kind, values))
        if index is None:
            raise GrammarError(f"{arg} is not an entity of this question")
        return self.var_base + index

    def decode(self, tokens: Sequence[int]) -> P.Program:
        """The program tree of a token sequence (which must be well formed)."""
        exprs: list[P.Expr] = []
        i = 0
        while i < len(tokens) and tokens[i] == OPEN:
            index = self._function_index(tokens[i + 1])
            if index < 0:
                raise GrammarError(f"token {tokens[i + 1]} names no function of {self.spec.name}")
            name = self.function_names[index]
            i += 2
            args: list[P.Arg] = []
            while tokens[i] != CLOSE:
                t = tokens[i]
                if t == ALL_ROWS:
                    args.append(P.ALL_ROWS)
                else:
                    index = t - self.var_base
                    args.append(
                        self.constant_args[index]
                        if index < self.n_constants
                        else P.Ref(index - self.n_constants)
                    )
                i += 1
            exprs.append(P.Expr(name, tuple(args)))
            i += 1
        return P.Program(tuple(exprs))

    def run(self, tokens: Sequence[int]) -> State:
        state = self.initial_state()
        for t in tokens:
            state = self.step(state, t)
            if state.error:
                break
        return state

    def execute(self, program: P.Program | str) -> Result:
        """Execute a whole program (text or tree). Never raises for a bad program: see `Result.error`."""
        text = str(program)
        try:
            tree = P.parse_program(program) if isinstance(program, str) else program
            tokens = self.encode(tree)
        except GrammarError as exc:
            return Result(text, None, [], str(exc))
        state = self.run(tokens)
        return self.result(state, tree)

    def result(self, state: State, tree: P.Program | None = None) -> Result:
        if tree is None:
            tree = self.decode(state.tokens)
        intermediates = [
            (str(e), t, to_plain(t, v)) for e, (t, v) in zip(tree.exprs, state.computed, strict=False)
        ]
        if state.error:
            return Result(str(tree), None, [], state.error, intermediates)
        if not state.done:
            return Result(str(tree), None, [], "the program is not finished", intermediates)
        type_, value = state.computed[-1]
        return Result(str(tree), type_, to_plain(type_, value), None, intermediates)


def has_unused_result(state: State, env: Environment) -> bool:
    """MAPO's extra-work test: a computed result other than the last is never used by a later expression."""
    used = set()
    for t in state.tokens:
        if env.var_base + env.n_constants <= t < env.proposal_base:
            used.add(t - env.var_base - env.n_constants)
    return any(i not in used for i in range(len(state.computed) - 1))


class _AcceptTable(dict):
    """Memoised `spec.accepts(arg_type, value_type)`: the valid-token hot loop asks it constantly."""

    def __init__(self, spec: LanguageSpec):
        super().__init__()
        self.spec = spec

    def __missing__(self, pair: tuple[str, str]) -> bool:
        self[pair] = value = self.spec.accepts(*pair)
        return value


def _arg_value(var: tuple[str, Any]) -> Any:
    """The form a function receives: row masks and properties bare, value lists with their type."""
    type_, value = var
    if type_ == "entity_list" or type_.endswith("_property"):
        return value
    return var


def _fail(state: State, token: int, message: str) -> State:
    return State(state.tokens + (token,), state.computed, state.func, state.args, True, message)


def _table_props(table: Table, spec: LanguageSpec) -> list[Prop]:
    """Properties of a table for a language, built once per (table, language) and kept on the table."""
    cache = table.__dict__.setdefault("_bound_props", {})
    props = cache.get(spec.name)
    if props is None:
        with gc_paused():
            props = [
                Prop.build(name, PROPERTY_TYPE[kind], column.views[kind], user_matching=user_matching(table))
                for name, column, kind in table.properties()
                if kind in spec.property_kinds and any(v is not None for v in column.views[kind])
            ]
        cache[spec.name] = props
    return props


def bind(
    spec: LanguageSpec | str, table: Table, entities: Sequence = (), limits: Limits | None = None
) -> Environment:
    """Bind a language (spec or name) to a table and a question's entities ((kind, values) pairs or objects
    with `.kind` and `.values`)."""
    if isinstance(spec, str):
        spec = get_language(spec)
    return Environment(spec, table, entities, limits)


#: Rows of a row-set result shown with their cells (`--json` and the step table); more are only counted.
MAX_STEP_ROWS = 20


def describe_step(expression: str, type_: str, values: list, table: Table) -> dict:
    """One intermediate result; a set of rows also carries the rows' cells (header -> raw text), so a
    person sees which rows a filter kept rather than bare row numbers."""
    step: dict = {"expression": expression, "type": type_, "values": values}
    if type_ == "entity_list":
        names = table.header
        if len(set(names)) != len(names):  # duplicate headers would collide as keys: use the unique slugs
            names = [c.slug for c in table.columns]
        cells = []
        for value in values[:MAX_STEP_ROWS]:
            index = row_index(value)
            cells.append({h: table.columns[j].raw[index] for j, h in enumerate(names)})
        step["rows"] = cells
    return step


def returned_column(expr: P.Expr, spec: LanguageSpec) -> P.Arg | None:
    """The argument whose column's values `expr` returns (declared `values_of_arg2`: `hop`, `maximum`, a
    total's key column); None for a function that returns anything else."""
    if len(expr.args) < 2 or spec.function(expr.function).returns != "values_of_arg2":
        return None
    return expr.args[1]


def answer_cells(result: Result, env: Environment) -> list[str] | None:
    """The answer as the table writes it ("Norway" rather than the string view's "norway", "2,102,000"
    rather than 2102000.0) when the program's last function returns values of a column of a row set (declared
    `values_of_arg2`: hop, maximum, minimum, mode, top_total): for each answer value, the first cell among those rows
    that has it. None for any other answer (a count, a sum, rows), and for a number read out of a cell that
    holds more than one number (`04/02/2024` read as 4, a score `3-1` read as 1): that cell would hide what
    the answer is; a quantity of mixed units (`2h 30m`, read as 150 minutes) is its cell."""
    if not result.ok or not result.intermediates:
        return None
    last = P.parse_program(result.program).exprs[-1]
    prop = returned_column(last, env.spec)
    if prop is None:
        return None
    source = last.args[0]
    table = env.table
    found = [
        (c, kind) for name, c, kind in table.properties() if isinstance(prop, P.Column) and name == prop.name
    ]
    if len(found) != 1:
        return None
    column, kind = found[0]
    if isinstance(source, P.AllRows):
        rows: Iterable[int] = range(table.n_rows)
    elif isinstance(source, P.Ref) and source.index < len(result.intermediates):
        rows = [row_index(label) for label in result.intermediates[source.index][2]]
    else:
        return None
    first: dict[Any, str] = {}
    for i in rows:
        value = column.views[kind][i]
        if value is not None:
            first.setdefault(str(value) if isinstance(value, Date) else value, column.raw[i])
    cells = [first.get(v) for v in result.answer]
    if any(c is None for c in cells):
        return None
    if kind in ("number", "num2") and any(len(_NUMBERS_IN_CELL.findall(c)) != 1 for c in cells if c):
        quantity = env.table.quantity(column) if kind == "number" else None
        if quantity is None or not quantity.converted:  # "2h 30m" is one quantity: the cell shows it
            return None
    return [c for c in cells if c is not None]


def unit_column(result: Result, env: Environment) -> tuple[str, list[str]] | None:
    """(last function, raw cells of its column) when the last function returns a number computed over a
    number column (declared `returns = "num"` with a `num_property` argument: sum, average, diff): the
    answer is in that column's unit (dollars, percent) and can be written as its cells are. None for any
    other answer (a count has no column)."""
    if not result.ok or not result.intermediates:
        return None
    last = P.parse_program(result.program).exprs[-1]
    function = env.spec.function(last.function)
    if function.returns != "num" or "num_property" not in function.args:
        return None
    column = _number_column(last, env)
    return (last.function, list(column.raw)) if column is not None else None


def _number_column(last: P.Expr, env: Environment) -> Column | None:
    """The column whose number view `last` answers with: the column whose values it returns (`hop`,
    `maximum`, a total's key), else its last column argument (`sum`, `diff`); if exactly one."""
    shown = returned_column(last, env.spec)
    names = [a.name for a in ((shown,) if shown is not None else last.args) if isinstance(a, P.Column)]
    found = [
        c for name, c, kind in env.table.properties() if names and name == names[-1] and kind == "number"
    ]
    return found[0] if len(found) == 1 else None


@dataclass(frozen=True)
class AnswerUnit:
    """The unit of a numeric answer read or computed from a column of quantities (`answer_unit`)."""

    unit: units.Unit
    #: whether the answer is computed (a sum, an average, a difference) rather than read from a cell
    computed: bool
    #: whether the column's cells mix units (`2h 30m`, `45m`): their numbers are in `unit`, which no cell says
    mixed: bool


def answer_unit(result: Result, env: Environment) -> AnswerUnit | None:
    """The unit of the answer's numbers, when the last function reads a column's number view (sum, average,
    diff, maximum, minimum, hop) and the table's rules know that column's unit (`2h 30m` cells, a header
    `Height (cm)`); None otherwise, and on tables read with the WTQ rules."""
    if not result.ok or not result.intermediates or result.type not in ("num", "num_list"):
        return None
    last = P.parse_program(result.program).exprs[-1]
    column = _number_column(last, env)
    unit = env.table.answer_unit(column) if column is not None else None
    if column is None or unit is None:
        return None
    reading = env.table.quantity(column)
    mixed = reading is not None and reading.converted
    return AnswerUnit(unit, env.spec.function(last.function).returns == "num", mixed)


def shown_answer(
    result: Result, env: Environment, question_tokens: Sequence[str] = ()
) -> tuple[list, list[str]]:
    """(answer, display) of a finished program. The display is the answer's cells as the table writes them,
    or computed numbers in their column's style (`nsmcli.display.display_values`). A numeric answer from a
    column of quantities is stated in the unit the question asks for ("how many hours", "in metres": 990
    minutes is 16.5 hours) and shown with it; a computed answer over a column of mixed units (whose numbers
    no cell states) is shown with the column's unit ("990 minutes")."""
    from nsmcli.display import display_values, value_text

    # "how much was spent on fuel?" of a ledger's `-120.20`: 120.20, as the cell `-$120.20` shows `$120.20`
    spent = _asks_amount_spent(result, env, question_tokens)
    ran = result  # the answer's cells are found by the values the program gave
    if spent:
        result = dataclasses.replace(result, answer=[-v for v in result.answer])
    asked_power = _said_power_in(question_tokens)
    shift = _asked_magnitude(result, env, asked_power) if asked_power is not None else 0
    if shift:  # "average opening weekend, in millions": 61,350,000 is 61.35 millions
        word = _MAGNITUDE_WORDS[asked_power]
        answer = [v / 10**shift if _is_number(v) else v for v in result.answer]
        return answer, [f"{value_text(v)} {word}" if _is_number(v) else value_text(v) for v in answer]
    quantity = answer_unit(result, env)
    asked = units.asked_unit(question_tokens) if quantity is not None else None
    if quantity is not None and asked is not None and asked.family == quantity.unit.family:
        answer = [units.in_unit(v, quantity.unit, asked) if _is_number(v) else v for v in result.answer]
        return answer, [f"{value_text(v)} {asked.plural}" if _is_number(v) else value_text(v) for v in answer]
    if quantity is not None and quantity.computed and quantity.mixed:
        unit = quantity.unit
        return result.answer, [f"{value_text(v)} {unit.plural}" for v in result.answer]
    cells = answer_cells(ran, env)
    if spent and cells is not None:
        cells = [_unsigned(cell) for cell in cells]
    return result.answer, display_values(result.answer, cells, unit_column(result, env))


_MAGNITUDE_WORDS = {3: "thousand", 6: "million", 9: "billion", 12: "trillion"}


#: Words of a question about what is left after the money went out: a net or a balance keeps its sign.
_SIGNED_TOTAL_WORDS = frozenset({"net", "balance", "balances", "left", "remaining"})


def _asks_amount_spent(result: Result, env: Environment, question_tokens: Sequence[str]) -> bool:
    """Whether the question asks "how much" was spent or paid (`lexicon.SPENDING`), not a net or a balance,
    and the answer is negative numbers read or computed from one number column of a user's table: a ledger
    writes its outgoings negative (`-120.20`, `(1,200.00)`), and the amount spent is their size."""
    if not user_matching(env.table) or not result.ok or not result.intermediates or not result.answer:
        return False
    if result.type not in ("num", "num_list") or not all(_is_number(v) and v < 0 for v in result.answer):
        return False
    words = [token.lower() for token in question_tokens]
    if not lexicon.asks_amount_spent(words) or not _SIGNED_TOTAL_WORDS.isdisjoint(words):
        return False
    return _number_column(P.parse_program(result.program).exprs[-1], env) is not None


def _unsigned(cell: str) -> str:
    """A negative amount's cell without its sign: `-$120.20` -> `$120.20`, `(1,200.00)` -> `1,200.00`,
    `1,200.00-` -> `1,200.00`."""
    text = cell.strip()
    if text.startswith("(") and text.endswith(")"):
        return text[1:-1].strip()
    if text.endswith(("-", "−")):
        return text[:-1].rstrip()
    return re.sub(r"^([^\d\-−]*)[-−]\s*", r"\1", text, count=1)


def _said_power_in(tokens: Sequence[str]) -> int | None:
    """The power of ten a question asks its answer in: "in millions", "in thousands of dollars", and after a
    currency "in € millions", "in US$ billions", "in £m", "in $k" (a letter alone only after a currency: "in
    m" may be metres)."""
    words = [token.lower() for token in tokens]
    for i, word in enumerate(words[:-1]):
        if word != "in":
            continue
        currency = words[i + 1] in _CURRENCY_TOKENS
        token = words[i + 2] if currency and i + 2 < len(words) else words[i + 1]
        if token.isalpha() and (len(token.rstrip("s")) > 1 or currency):  # "in ms" is milliseconds
            power = said_power(token)
            if power in _MAGNITUDE_WORDS:
                return power
    return None


#: Currencies a question may name between "in" and a magnitude ("in € millions", "in US$ billions").
_CURRENCY_TOKENS = frozenset({"$", "€", "£", "¥", "us$", "a$", "c$", "usd", "eur", "gbp", "chf", "jpy"})


def _asked_magnitude(result: Result, env: Environment, asked: int) -> int:
    """How many powers of ten a user's question asks a numeric answer to be scaled down by: the power it asks
    in (`asked`, "in millions": 6) less the power its column's header already counts in (`GDP (million
    EUR)`: 6, so none); 0 on WTQ's tables and for answers that are no numbers of a column."""
    if not user_matching(env.table) or not result.ok or not result.intermediates:
        return 0
    if result.type not in ("num", "num_list") or not all(map(_is_number, result.answer)):
        return 0
    column = _number_column(P.parse_program(result.program).exprs[-1], env)
    if column is None:
        return 0
    return max(asked - (header_magnitude(column.header) or 0), 0)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


#: The numbers a cell writes (`1,234.50`, `2.5`, `03`): a cell with one of them reads as that number.
_NUMBERS_IN_CELL = re.compile(r"\d+(?:[.,]\d+)*")
