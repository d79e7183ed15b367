"""SQL over our typed `Table`: WikiSQL's gold queries, a small SQL text subset, and programs rendered as SQL.

Why this module exists: WikiSQL ships SQL, not answers, so weak supervision needs the gold query's answer
(`wikisql_answer`); and a program is easier to read, check and reuse elsewhere as SQL (`program_to_sql`).

Semantics (WikiSQL's `lib/dbengine.py`, restated; `sqlite_connection` builds the equivalent sqlite3 table):

- A column is *numeric* when it has a number view and no string view (WikiSQL `real`); otherwise *text*.
- Text conditions compare case-insensitively: both sides stripped and lower-cased (`str.lower`). A numeric
  column compares numbers: the condition value is parsed like WikiSQL did (thousands commas allowed, else the
  first number in the text); a value with no number in it matches nothing (WikiSQL itself crashed).
- A SQL number literal compared with a text column that has a number view (WTQ-style tables) compares that
  view; on WikiSQL `text` columns it is compared as text, as sqlite's column affinity does.
- `LIKE` tests the column's string view (normalised text, what programs' containment sees; plain lower-cased
  text on numeric columns) against the lower-cased pattern: it is how `filter_str_contain_any` renders.
- A missing number (None) is SQL NULL: every comparison with it is unknown (three-valued logic).
- Answers: selected values in row order, duplicates kept (raw cell text for text columns, floats or None for
  numeric ones); COUNT(*) counts rows and COUNT(col) non-null values; MAX/MIN/SUM/AVG skip NULLs and an
  aggregate over no values gives [] (sqlite's NULL, dropped). On text columns they mirror sqlite exactly:
  MAX/MIN compare the raw text code point by code point, SUM/AVG read each text's leading number (0 when
  there is none), so answers agree with WikiSQL's sqlite database.

- `CAST(col AS REAL)` (any non-integer numeric type), `CAST(REPLACE(col, ',', '') AS REAL)`, or the
  expression `render_sql` writes for one of the column's number views, reads that view; a comparison's right
  side may be a scalar subquery on the same table, `(SELECT MAX(col) FROM t WHERE ...)`, computed once
  (an aggregate over no values is NULL: the comparison is unknown for every row).

Rendering (`render_sql`): every WikiSQL-language program is a chain of filters ending in `hop`, `count` or an
aggregate, i.e. `SELECT agg(col) FROM t WHERE ...`. WTQ programs render when their functions have an SQL
role (declared beside each function, `functions.SqlForm`): `hop` becomes `SELECT DISTINCT` (WTQ answers are
sets), and `argmax`/`argmin` a condition against a scalar subquery (`"Gold" = (SELECT MAX("Gold") FROM t
WHERE ...)`, ties kept as the program keeps them). Row positions (`first`/`last`/`next`/`previous`: SQL
rows have no order), `same`/`mode`/`diff` and date views have no SQL form.

A number or num2 view reads through an expression over the cell text that `sqlviews.view_sql` verified in
sqlite against the view on every row of the table (`CAST("Gold" AS REAL)`, `REPLACE` of thousands commas
or currency signs, a `CASE` guard making cells without a number NULL, ...); `LIKE` tests and projected
cells are verified the same way. A rendering all of whose parts verified is *exact*: sqlite, on the table
as `sqlite_connection` holds it, returns the program's answer. Otherwise the rendering is approximate and
says where sqlite reads the table differently (`SqlRendering.notes`); `execute_sql` still reads the views
themselves, so it reproduces the program's answer either way.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlglot
from sqlglot import exp

from nsmcli.errors import GrammarError
from nsmcli.worlds.tables.data.evaluate import prediction_text, wikisql_process_answer, wtq_correct
from nsmcli.worlds.tables.data.table import Column, Table
from nsmcli.worlds.tables.data.values import format_number, normalize
from nsmcli.worlds.tables.lang import program as P
from nsmcli.worlds.tables.lang.functions import REGISTRY, SqlForm, user_matching
from nsmcli.worlds.tables.lang.spec import get_language
from nsmcli.worlds.tables.lang.sqlviews import (
    PLACEHOLDER,
    blank_note,
    column_storage,
    contains_note,
    date_key,
    is_numeric,
    like_pattern,
    missing_cells,
    projection_note,
    view_numbers,
    view_sql,
)

__all__ = [
    "AGG_OPS",
    "COND_OPS",
    "execute_wikisql_sql",
    "wikisql_answer",
    "execute_sql",
    "program_to_sql",
    "render_sql",
    "SqlRendering",
    "answers_agree",
    "sql_agrees",
    "sqlite_answer",
    "check_program_sql",
    "sql_column_names",
    "sqlite_connection",
    "parse_condition_number",
]

#: WikiSQL's aggregate and condition operator tables (`sql.agg` and `conds[i][1]` index into them).
AGG_OPS = ("", "MAX", "MIN", "COUNT", "SUM", "AVG")
COND_OPS = ("=", ">", "<")

SUBSET = (
    "SELECT [DISTINCT] [agg(]col[)] FROM table [WHERE conditions], where col may be CAST(col AS REAL) and a "
    "condition may compare with (SELECT agg(col) FROM table [WHERE conditions])"
)

# --------------------------------------------------------------------------------------------------------
# The query model shared by the WikiSQL dict path and the SQL text path.

#: A WHERE clause compiled to a per-row test returning True, False or None (SQL's unknown).
RowTest = Callable[[int], bool | None]


@dataclass(frozen=True)
class _Query:
    column: int | None  # None only for COUNT(*)
    agg: str  # one of AGG_OPS
    where: RowTest | None = None
    distinct: bool = False
    view: str | None = None  # the column is read through an expression of this view (CAST(... AS REAL))


_NUMBER_PREFIX = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_WIKISQL_NUMBER = re.compile(r"[-+]?\d*\.\d+|\d+")  # dbengine.py's fallback: the first number in the text


def parse_condition_number(value: Any) -> float | None:
    """A condition value on a numeric column, read as WikiSQL did (babel's `parse_decimal`, else the first
    number in the text). Unicode minus signs count as minus. None when there is no number at all."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value) if math.isfinite(value) else None
    text = str(value).strip().replace("−", "-")
    if _NUMBER_PREFIX.fullmatch(text.replace(",", "")) and not text.startswith(","):
        return float(text.replace(",", ""))
    m = _WIKISQL_NUMBER.search(text)
    return float(m.group()) if m else None


def _text_key(value: str) -> str:
    return value.strip().lower()


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "=": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    ">": lambda a, b: a > b,
    "<": lambda a, b: a < b,
    ">=": lambda a, b: a >= b,
    "<=": lambda a, b: a <= b,
}


def _compare_test(
    column: Column, op: str, value: Any, literal_text: str | None = None, view: str | None = None
) -> RowTest:
    """The test `column op value`. `literal_text` is a number literal's SQL spelling (None for strings);
    `view` reads that number view of the column whatever the value (CAST(column AS REAL) and the like)."""
    compare = _COMPARE[op]
    numeric_literal = literal_text is not None
    if view is not None or is_numeric(column) or (numeric_literal and "number" in column.views):
        number = parse_condition_number(value)
        cells = view_numbers(column, view or "number")
        if number is None:
            return lambda i: None
        return lambda i: None if cells[i] is None else compare(cells[i], number)
    text = _text_key(literal_text if numeric_literal else _sqlite_text(value))
    keys = [_text_key(raw) for raw in column.raw]
    return lambda i: compare(keys[i], text)


def _sqlite_text(value: Any) -> str:
    """A bound value as sqlite turns it into text for a TEXT column (`3`, `2.5`, `3.0`)."""
    if isinstance(value, float):
        return repr(value) if value != int(value) or abs(value) >= 1e15 else f"{int(value)}.0"
    return str(value)


def _like_test(column: Column, pattern: str, escape: str | None, negate: bool) -> RowTest:
    regex = _like_regex(pattern.lower(), escape)
    texts = column.views.get("string") or tuple(raw.lower() for raw in column.raw)
    return lambda i: (regex.fullmatch(texts[i]) is None) == negate


def _like_regex(pattern: str, escape: str | None) -> re.Pattern[str]:
    out, i = [], 0
    while i < len(pattern):
        ch = pattern[i]
        if escape is not None and ch == escape and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if ch == "%" else "." if ch == "_" else re.escape(ch))
        i += 1
    return re.compile("".join(out), re.DOTALL)


def _junction(tests: Sequence[RowTest], decisive: bool) -> RowTest:
    """SQL's three-valued AND (decisive=False) / OR (decisive=True): one decisive result settles it,
    otherwise any unknown (None) makes the whole unknown."""

    def test(i: int) -> bool | None:
        unknown = False
        for t in tests:
            r = t(i)
            if r is decisive:
                return decisive
            unknown |= r is None
        return None if unknown else not decisive

    return test


def _and(tests: Sequence[RowTest]) -> RowTest:
    return _junction(tests, decisive=False)


def _or(tests: Sequence[RowTest]) -> RowTest:
    return _junction(tests, decisive=True)


def _not(inner: RowTest) -> RowTest:
    def test(i: int) -> bool | None:
        r = inner(i)
        return None if r is None else not r

    return test


def _run(table: Table, query: _Query) -> list:
    rows = [i for i in range(table.n_rows) if query.where is None or query.where(i) is True]
    if query.column is None:
        return [len(rows)]
    column = table.columns[query.column]
    numeric = query.view is not None or is_numeric(column)
    cells = view_numbers(column, query.view or "number") if numeric else column.raw
    values = [cells[i] for i in rows]
    if query.distinct and query.agg == "":  # DISTINCT applies to result rows, not an aggregate's input
        values = list(dict.fromkeys(values))
    present = [v for v in values if v is not None]
    if query.agg == "":
        return values
    if query.agg == "COUNT":
        return [len(present)]
    if not present:
        return []
    if query.agg in ("MAX", "MIN"):
        return [max(present) if query.agg == "MAX" else min(present)]
    numbers = present if numeric else [_sqlite_text_number(v) for v in present]
    total = math.fsum(numbers)
    return [total if query.agg == "SUM" else total / len(numbers)]


def _sqlite_text_number(text: str) -> float:
    """sqlite's numeric reading of a TEXT value in SUM/AVG: the leading number after blanks, else 0."""
    m = _NUMBER_PREFIX.match(text.lstrip(" \t\n\v\f\r"))
    return float(m.group()) if m else 0.0


# --------------------------------------------------------------------------------------------------------
# WikiSQL gold queries


def _index(value: Any, names: Sequence[str], what: str) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
        return names[value]
    if isinstance(value, str) and value.upper() in names:
        return value.upper()
    raise GrammarError(
        f"bad WikiSQL {what} {value!r}: expected an index 0..{len(names) - 1} or one of {names}"
    )


def _column_index(table: Table, value: Any, what: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(table.columns):
        return value
    raise GrammarError(
        f"bad WikiSQL {what} {value!r}: table {table.id} has columns 0..{len(table.columns) - 1}"
    )


def _wikisql_query(table: Table, sql: dict) -> _Query:
    if not isinstance(sql, dict) or "sel" not in sql:
        raise GrammarError(f"not a WikiSQL query (expected a dict with sel, agg, conds): {sql!r}")
    column = _column_index(table, sql["sel"], "selected column")
    agg = _index(sql.get("agg", 0), AGG_OPS, "aggregate")
    tests = []
    for cond in sql.get("conds") or ():
        if not isinstance(cond, list | tuple) or len(cond) != 3:
            raise GrammarError(f"bad WikiSQL condition {cond!r}: expected [column, op, value]")
        col, op, value = cond
        target = table.columns[_column_index(table, col, "condition column")]
        tests.append(_compare_test(target, _index(op, COND_OPS, "condition operator"), value))
    return _Query(column, agg, _and(tests) if tests else None)


def execute_wikisql_sql(table: Table, sql: dict) -> list:
    """Execute a WikiSQL gold query dict (`{sel, agg, conds}`) on `table` with WikiSQL's semantics.

    Text values are raw cell text, numeric-column values floats (None for a cell with no number), COUNT an
    int; an aggregate over no values is []."""
    return _run(table, _wikisql_query(table, sql))


def wikisql_answer(table: Table, sql: dict) -> list:
    """The weak-supervision answer a preprocessed example stores: JSON values, numbers as floats, strings as
    raw cell text, missing values (sqlite's NULL) dropped, as MAPO's answer processing does."""
    out = []
    for v in execute_wikisql_sql(table, sql):
        if v is None:
            continue
        out.append(v if isinstance(v, str) else float(v))
    return out


# --------------------------------------------------------------------------------------------------------
# Column names in SQL


def sql_column_names(table: Table) -> list[str]:
    """The name each column goes by in SQL: its header text, or its slug when the header is empty, repeated
    (case-insensitively, as SQL identifiers are) or equal to another column's slug."""
    folded = [h.casefold() for h in table.header]
    slugs = {c.slug.casefold(): j for j, c in enumerate(table.columns)}
    names = []
    for j, column in enumerate(table.columns):
        head = folded[j]
        clash = folded.count(head) > 1 or slugs.get(head, j) != j or not column.header.strip()
        names.append(column.slug if clash else column.header)
    return names


def _resolve_column(table: Table, name: str) -> int:
    """Find a column named in SQL: its SQL name, then exact header or slug, then case-insensitive header."""
    for candidates in (
        sql_column_names(table),
        table.header,
        [c.slug for c in table.columns],
    ):
        hits = [j for j, n in enumerate(candidates) if n == name]
        if len(hits) == 1:
            return hits[0]
    hits = [j for j, h in enumerate(table.header) if h.casefold() == name.casefold()]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise GrammarError(
            f"column name {name!r} is ambiguous in table {table.id}; use a slug: "
            + ", ".join(table.columns[j].slug for j in hits)
        )
    raise GrammarError(
        f"unknown column {name!r} in table {table.id}; columns are "
        + ", ".join(repr(n) for n in sql_column_names(table))
    )


# --------------------------------------------------------------------------------------------------------
# SQL text


_AGGREGATES: dict[type, str] = {
    exp.Max: "MAX",
    exp.Min: "MIN",
    exp.Count: "COUNT",
    exp.Sum: "SUM",
    exp.Avg: "AVG",
}
_COMPARISONS: dict[type, str] = {
    exp.EQ: "=",
    exp.NEQ: "!=",
    exp.GT: ">",
    exp.LT: "<",
    exp.GTE: ">=",
    exp.LTE: "<=",
}
_FLIPPED = {"=": "=", "!=": "!=", ">": "<", "<": ">", ">=": "<=", "<=": ">="}
_CLAUSE_NAMES = {
    "joins": "JOIN",
    "laterals": "LATERAL",
    "windows": "WINDOW",
    "with_": "WITH",
    "with": "WITH",
    "group": "GROUP BY",
    "order": "ORDER BY",
}
_SELECT_ARGS = {"expressions", "from", "from_", "where", "distinct"}
_TOKEN_REPR = re.compile(r"<Token token_type: [^,]*, text: (.*?), line: .*?>")


def _outside(what: str) -> GrammarError:
    return GrammarError(f"SQL outside the supported subset {SUBSET}: {what}")


def _parse_error(exc: sqlglot.errors.SqlglotError) -> GrammarError:
    errors = getattr(exc, "errors", None)
    if errors:
        e = errors[0]
        message = _TOKEN_REPR.sub(r"'\1'", str(e.get("description", "")))
        return GrammarError(f"cannot parse SQL (line {e.get('line')}, column {e.get('col')}): {message}")
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return GrammarError("cannot parse SQL: " + _TOKEN_REPR.sub(r"'\1'", first))


def check_dialect(dialect: str) -> None:
    """Raise a GrammarError naming the known dialects unless sqlglot writes `dialect`."""
    try:
        sqlglot.Dialect.get_or_raise(dialect)
    except ValueError:
        known = ", ".join(sorted(d.value for d in sqlglot.Dialects if d.value))
        raise GrammarError(f"unknown SQL dialect {dialect!r}; sqlglot writes: {known}") from None


def _column_of(table: Table, node: exp.Expression) -> int:
    if isinstance(node, exp.Column) and isinstance(node.this, exp.Identifier):
        return _resolve_column(table, node.this.name)
    raise _outside(f"expected a column, got {node.sql()!r}")


def _cast_column(node: exp.Expression) -> exp.Expression | None:
    """The operand of `CAST(x AS ...)`, looking through `REPLACE(x, ...)`; None when `node` is no CAST."""
    if not isinstance(node, exp.Cast) or isinstance(node, exp.TryCast):
        return None
    return node.this.this if isinstance(node.this, exp.Replace) else node.this


def _view_ref(table: Table, node: exp.Expression) -> tuple[int, str] | None:
    """(column, view) when `node` is the expression `program_to_sql` renders for a view of one column."""
    columns = {c.name for c in node.find_all(exp.Column)}
    if len(columns) != 1:
        return None
    j = _resolve_column(table, columns.pop())
    probe = node.copy()
    for c in list(probe.find_all(exp.Column)):
        c.replace(exp.column(PLACEHOLDER, quoted=True))
    text = probe.sql(dialect="sqlite")
    for kind in ("number", "num2", "date"):
        reading = view_sql(table.columns[j], kind)
        if reading.expression is not None and reading.expression.sql(dialect="sqlite") == text:
            return j, kind
    return None


def _column_ref(table: Table, node: exp.Expression) -> tuple[int, str | None]:
    """A column, the expression `program_to_sql` renders for one of its number views, or
    `CAST([REPLACE(]column[, ',', '')] AS REAL)` (any non-integer numeric type), which reads its number
    view. Returns (column index, the view read, None for the column itself)."""
    if not isinstance(node, exp.Column):
        found = _view_ref(table, node)
        if found is not None:
            return found
    inner = _cast_column(node)
    if inner is not None:
        assert isinstance(node, exp.Cast)
        if not node.to.is_type(*exp.DataType.REAL_TYPES):
            raise _outside(f"only CAST(column AS REAL) is supported, got {node.sql()!r}")
        if isinstance(node.this, exp.Replace):  # REPLACE(column, ',', ''): the number view has no commas
            pattern, replacement = node.this.args.get("expression"), node.this.args.get("replacement")
            if not (
                isinstance(pattern, exp.Literal)
                and pattern.is_string
                and pattern.this == ","
                and isinstance(replacement, exp.Literal)
                and replacement.this == ""
            ):
                raise _outside(f"only REPLACE(column, ',', '') may be CAST, got {node.this.sql()!r}")
        j = _column_of(table, inner)
        if "number" not in table.columns[j].views:
            raise GrammarError(
                f"column {sql_column_names(table)[j]!r} of table {table.id} has no numbers to CAST "
                "(fewer than 20% of its cells are numbers)"
            )
        return j, "number"
    return _column_of(table, node), None


def _is_column_ref(node: exp.Expression) -> bool:
    """Whether `_column_ref` reads `node` as a column (the side a comparison is normalised to)."""
    if isinstance(node, exp.Literal | exp.Neg | exp.Subquery | exp.Paren | exp.Select):
        return False
    return isinstance(node, exp.Column) or node.find(exp.Column) is not None


def _literal_of(node: exp.Expression) -> tuple[Any, str | None]:
    """A literal's value and, for numbers, its SQL spelling."""
    if isinstance(node, exp.Paren):
        return _literal_of(node.this)
    if isinstance(node, exp.Literal):
        if node.is_string:
            return node.this, None
        return float(node.this), node.this
    if isinstance(node, exp.Neg) and isinstance(node.this, exp.Literal) and not node.this.is_string:
        return -float(node.this.this), "-" + node.this.this
    raise _outside(f"expected a string or number literal, got {node.sql()!r}")


def _scalar(table: Table, name: str, node: exp.Expression) -> tuple[Any, str | None] | None:
    """A scalar subquery's value and, for a number, its SQL spelling; None for SQL's NULL (no value)."""
    select = node.this
    if not isinstance(select, exp.Select):
        raise _outside(f"expected a subquery, got {node.sql()!r}")
    query = _select_query(table, select, name)
    if not query.agg:
        raise _outside(f"a subquery must compute one aggregate value: {node.sql()!r}")
    values = _run(table, query)
    if not values or values[0] is None:
        return None
    value = values[0]
    return (value, None) if isinstance(value, str) else (float(value), format_number(float(value)))


def _where_test(table: Table, node: exp.Expression, name: str) -> RowTest:
    """Compile a WHERE condition on `table`, whose SQL name (for subqueries) is `name`."""
    if isinstance(node, exp.Paren):
        return _where_test(table, node.this, name)
    if isinstance(node, exp.And):
        return _and([_where_test(table, node.this, name), _where_test(table, node.expression, name)])
    if isinstance(node, exp.Or):
        return _or([_where_test(table, node.this, name), _where_test(table, node.expression, name)])
    if isinstance(node, exp.Not):
        return _not(_where_test(table, node.this, name))
    if isinstance(node, exp.Boolean):
        constant = bool(node.this)
        return lambda i: constant
    if type(node) in _COMPARISONS:
        op = _COMPARISONS[type(node)]
        left, right = node.this, node.expression
        if not _is_column_ref(left) and _is_column_ref(right):
            left, right, op = right, left, _FLIPPED[op]
        j, view = _column_ref(table, left)
        if isinstance(right, exp.Subquery) or (
            isinstance(right, exp.Paren) and isinstance(right.this, exp.Select)
        ):
            scalar = _scalar(table, name, right)
            if scalar is None:
                return lambda i: None
            value, spelling = scalar
        else:
            value, spelling = _literal_of(right)
        return _compare_test(table.columns[j], op, value, spelling, view)
    escape = None
    if isinstance(node, exp.Escape):
        escape, spelling = _literal_of(node.expression)
        if spelling is not None or len(escape) != 1 or not isinstance(node.this, exp.Like | exp.ILike):
            raise _outside(f"ESCAPE must follow LIKE and be one character: {node.sql()!r}")
        node = node.this
    if isinstance(node, exp.Like | exp.ILike):
        column = table.columns[_column_of(table, node.this)]
        pattern, spelling = _literal_of(node.expression)
        if spelling is not None:
            raise _outside(f"LIKE needs a string pattern: {node.sql()!r}")
        return _like_test(column, pattern, escape, bool(node.args.get("negate")))
    if isinstance(node, exp.Is) and isinstance(node.expression, exp.Null):
        j, view = _column_ref(table, node.this)
        cells = table.columns[j]
        values = view_numbers(cells, view or "number") if view or is_numeric(cells) else cells.raw
        return lambda i: values[i] is None
    raise _outside(
        f"unsupported condition {node.sql()!r} (use =, !=, <, >, <=, >=, LIKE, IS NULL, TRUE, AND, OR, NOT)"
    )


def _sql_query(table: Table, sql_text: str, dialect: str) -> _Query:
    check_dialect(dialect)
    try:
        statements = [s for s in sqlglot.parse(sql_text, read=dialect) if s is not None]
    except sqlglot.errors.SqlglotError as exc:
        raise _parse_error(exc) from None
    if len(statements) != 1:
        raise _outside(f"expected one statement, got {len(statements)}")
    select = statements[0]
    if not isinstance(select, exp.Select):
        raise _outside(f"expected a SELECT, got {type(select).__name__.upper()}")
    return _select_query(table, select, None)


def _select_query(table: Table, select: exp.Select, outer: str | None) -> _Query:
    """Compile one SELECT of the subset; `outer` is the enclosing query's table name (None at the top):
    a subquery must read the same table."""
    extra = sorted(k for k, v in select.args.items() if v and k not in _SELECT_ARGS)
    if extra:
        clauses = ", ".join(_CLAUSE_NAMES.get(k, k.rstrip("_").upper()) for k in extra)
        raise _outside(f"{clauses} not supported")
    distinct = select.args.get("distinct")
    if distinct is not None and distinct.args.get("on") is not None:
        raise _outside("DISTINCT ON")
    source = select.args.get("from_") or select.args.get("from")
    if (
        source is None
        or not isinstance(source.this, exp.Table)
        or not isinstance(source.this.this, exp.Identifier)
    ):
        raise _outside("FROM must name one table")
    name = source.this.this.name
    if outer is not None and name != outer:
        raise _outside(f"a subquery must read the same table ({outer}), not {name}")
    if len(select.expressions) != 1:
        raise _outside(f"select exactly one column or aggregate, got {len(select.expressions)}")
    target = select.expressions[0]
    if isinstance(target, exp.Alias):
        target = target.this
    agg = _AGGREGATES.get(type(target), "")
    column: int | None
    view = None
    if agg:
        if target.expressions or isinstance(target.this, exp.Distinct) or target.args.get("distinct"):
            raise _outside(f"unsupported aggregate {target.sql()!r}")
        if agg == "COUNT" and isinstance(target.this, exp.Star):
            column = None
        else:
            column, view = _column_ref(table, target.this)
    else:
        column, view = _column_ref(table, target)
    where = select.args.get("where")
    test = _where_test(table, where.this, name) if where is not None else None
    return _Query(column, agg, test, distinct is not None, view)


def execute_sql(table: Table, sql_text: str, dialect: str = "sqlite") -> list:
    """Execute SQL text of the supported subset on `table` (any table name; columns by header text, SQL
    name or slug). Answers as `execute_wikisql_sql`. Anything else raises a one-line GrammarError."""
    return _run(table, _sql_query(table, sql_text, dialect))


# --------------------------------------------------------------------------------------------------------
# Programs -> SQL


def _no_sql(why: str) -> GrammarError:
    return GrammarError(f"program has no SQL form: {why}")


@dataclass(frozen=True)
class SqlRendering:
    """A program as one SELECT. `exact`: run by sqlite on the table as `sqlite_connection` holds it (each
    column the file's cell text; WikiSQL's `real` columns numbers), it returns the program's answer as
    `answers_agree` compares them. Otherwise `notes` say where sqlite would read the table differently."""

    sql: str
    exact: bool
    notes: tuple[str, ...] = ()

    @property
    def note(self) -> str | None:
        """The notes as one line (None when exact)."""
        return "; ".join(self.notes) if self.notes else None


def answers_agree(expected: Sequence, actual: Sequence, keep_duplicates: bool) -> bool:
    """Whether `actual` (SQL's values, e.g. sqlite's cell text) is the program's answer `expected`, as the
    official checks compare answers: WTQ's denotation check (sets; text normalised; numbers within 1e-6),
    or, for languages that keep duplicates, WikiSQL's (ordered lists; text stripped and lower-cased;
    numbers as floats). Numbers are first rounded to 9 significant digits on both sides, so that the order
    in which a sum adds its values does not count. For WTQ, cell text is first normalised as the program's
    string view is, so both sides are normalised equally often (the official normaliser is not idempotent:
    "a\n(b)" -> "a (b)" -> "a")."""

    if len(expected) == len(actual) == 1 and _same_fixed_text(expected[0], actual[0], keep_duplicates):
        return True  # a projection's check runs once per row of the column: spare the typing of both
    return _answers_agree_typed(expected, actual, keep_duplicates)


def _same_fixed_text(expected: Any, actual: Any, keep_duplicates: bool) -> bool:
    """One identical text on both sides, which WTQ's normaliser leaves as it is: both sides are then typed
    from the same text, and a value always matches itself (the checks never type NaN as a number)."""
    return (
        isinstance(expected, str)
        and expected == actual
        and (keep_duplicates or normalize(expected) == expected)
    )


def _answers_agree_typed(expected: Sequence, actual: Sequence, keep_duplicates: bool) -> bool:
    """`answers_agree` by typing both sides as the official checks do."""

    def rounded(values: Sequence) -> list:
        return [float(f"{v:.9g}") if isinstance(v, float) else v for v in values if v is not None]

    if keep_duplicates:
        return rounded(wikisql_process_answer(expected)) == rounded(wikisql_process_answer(actual))
    cells = [normalize(v) if isinstance(v, str) else v for v in rounded(actual)]
    return wtq_correct([prediction_text(v) for v in rounded(expected)], None, cells)


def sqlite_answer(table: Table, sql: str, table_name: str = "t") -> list:
    """The first column of every row sqlite returns for `sql` on `sqlite_connection(table)`; NULLs dropped.
    Raises GrammarError (one line) when sqlite rejects the query."""
    conn = sqlite_connection(table, table_name)
    try:
        return [row[0] for row in conn.execute(sql) if row[0] is not None]
    except sqlite3.Error as exc:
        raise GrammarError(f"sqlite cannot run the SQL: {exc}") from None
    finally:
        conn.close()


def sql_agrees(table: Table, sql: str, answer: Sequence, language: str = "wtq") -> bool:
    """Run `sql` in sqlite on `table` (as `sqlite_connection` holds it) and compare with a program's
    `answer` (`answers_agree`)."""
    return answers_agree(answer, sqlite_answer(table, sql), get_language(language).keep_duplicates)


class _Renderer:
    """Renders one program on one table, collecting why the SQL is approximate."""

    def __init__(self, program: P.Program, table: Table, keep_duplicates: bool, name: str):
        self.program = program
        self.table = table
        self.keep_duplicates = keep_duplicates
        self.table_name = name
        self.names = sql_column_names(table)
        self.notes: list[str] = []

    def _note(self, j: int, note: str | None) -> None:
        if note is not None:
            text = f"{self.names[j]!r}: {note}"
            if text not in self.notes:
                self.notes.append(text)

    def _agree(self, expected: list, actual: list) -> bool:
        return answers_agree(expected, actual, self.keep_duplicates)

    def prop(self, arg: P.Arg | None, expr: P.Expr) -> tuple[exp.Expression, str]:
        """The SQL reading of a property argument and the view kind the program reads."""
        if not isinstance(arg, P.Column):
            raise _no_sql(f"{expr} needs a column property, got {arg}")
        for j, column in enumerate(self.table.columns):
            for kind in column.views:
                if column.property_name(kind) == arg.name:
                    return self._reading(j, kind), kind
        raise _no_sql(f"table {self.table.id} has no property {arg.name}")

    def _reading(self, j: int, kind: str) -> exp.Expression:
        sql_column = exp.column(self.names[j], quoted=True)
        if kind == "string":
            return sql_column
        reading = view_sql(self.table.columns[j], kind)
        if reading.expression is None:
            raise _no_sql(f"{self.names[j]!r} has no SQL reading of its {kind} view")
        if not reading.exact:
            self._note(j, reading.note)
        return reading.on(sql_column)

    def _column_index(self, arg: P.Arg) -> int:
        assert isinstance(arg, P.Column)
        return next(j for j, c in enumerate(self.table.columns) if arg.name in map(c.property_name, c.views))

    def projection(self, expr: P.Expr, form: SqlForm) -> exp.Expression:
        column, kind = self.prop(expr.args[1] if len(expr.args) == 2 else None, expr)
        if kind == "date":
            raise _no_sql(f"{expr} answers with dates, which SQL reads as yyyymmdd numbers")
        if form.role == "project":
            if kind == "string":
                j = self._column_index(expr.args[1])
                distinct = not self.keep_duplicates
                self._note(j, projection_note(self.table.columns[j], kind, distinct, self._agree))
            return column
        if form.operator in ("SUM", "AVG") and kind == "string":
            raise _no_sql(f"{expr} averages or sums a text column")
        if kind == "string":
            raise _no_sql(f"{expr} ranks text")
        return {"MAX": exp.Max, "MIN": exp.Min, "SUM": exp.Sum, "AVG": exp.Avg}[form.operator](this=column)

    def condition(self, expr: P.Expr, form: SqlForm) -> exp.Expression:
        if len(expr.args) != 3 or not isinstance(expr.args[1], P.Literal):
            raise _no_sql(f"{expr} does not compare a column with question values")
        literal = expr.args[1]
        column, kind = self.prop(expr.args[2], expr)
        if form.role == "contains":
            if literal.kind != "string" or kind != "string":
                raise _no_sql(f"{expr} is a containment test on non-text values")
            j = self._column_index(expr.args[2])
            likes = []
            whole_words = user_matching(self.table)
            for value in literal.values:
                if whole_words and str(value) == "":  # a blank cell (`Prop.containing`), stored as NULL or ''
                    self._note(j, blank_note(self.table.columns[j]))
                    empty = exp.EQ(this=column.copy(), expression=exp.Literal.string(""))
                    null = exp.Is(this=column.copy(), expression=exp.Null())
                    tests = [empty, null]
                    missing = missing_cells(self.table.columns[j])  # `..`: blank to the program
                    if missing:
                        tests.append(
                            exp.In(this=column.copy(), expressions=list(map(exp.Literal.string, missing)))
                        )
                    likes.append(exp.Paren(this=exp.or_(*tests)))
                    continue
                self._note(j, contains_note(self.table.columns[j], str(value), whole_words))
                likes.append(_like(column.copy(), str(value)))
            test = likes[0] if len(likes) == 1 else exp.Paren(this=exp.or_(*likes))
            return exp.Not(this=exp.Paren(this=test)) if form.operator == "NOT" else test
        op = form.operator
        if (literal.kind, kind == "date") not in (("number", False), ("date", True)) or kind == "string":
            raise _no_sql(f"{expr} compares {literal.kind} values with a {kind} property")
        if kind == "date" and user_matching(self.table) and any(v.has_unknown_fields for v in literal.values):
            # `equal_to` takes the unknown fields as any (Prop.user_matching); a date key cannot say that
            raise _no_sql(f"{expr} matches a date with unknown fields on a user table")
        keys = (date_key(v) for v in literal.values) if kind == "date" else literal.values
        values = list(dict.fromkeys(float(v) for v in keys))
        if op == "!=":
            # filter_not_eq keeps rows unequal to the (single) value, and rows with no number, which SQL's
            # `<>` alone would drop (NULL is unknown); a cell never equals several values.
            if len(values) > 1:
                return exp.true()
            unequal = exp.NEQ(this=column, expression=_number_sql(values[0]))
            return exp.Paren(this=exp.or_(unequal, exp.Is(this=column.copy(), expression=exp.Null())))
        # filter_eq with several values keeps nothing, and > / < must beat every value: a conjunction says both
        tests = [_SQL_OPS[op](this=column.copy(), expression=_number_sql(v)) for v in values]
        return tests[0] if len(tests) == 1 else exp.Paren(this=exp.and_(*tests))

    def rows(self, rows: P.Arg, before: int) -> list[exp.Expression]:
        """WHERE conditions selecting the row set `rows` (an argument of expression `before`): filters
        become comparisons, and argmax / argmin keep the rows whose value equals the extreme over the rows
        they were given, `col = (SELECT MAX(col) FROM t WHERE <those rows>)`, ties included as in the
        program."""
        if isinstance(rows, P.AllRows):
            return []
        if not isinstance(rows, P.Ref) or rows.index >= before:
            raise _no_sql(f"{rows} is not a row set computed earlier")
        expr = self.program.exprs[rows.index]
        if not expr.args:
            raise _no_sql(f"{expr} has no arguments")
        inner = self.rows(expr.args[0], rows.index)
        form = _sql_form(expr)
        if form.role in ("compare", "contains"):
            return [*inner, self.condition(expr, form)]
        if form.role == "superlative" and len(expr.args) == 2:
            column, kind = self.prop(expr.args[1], expr)
            if kind == "string":
                raise _no_sql(f"{expr} ranks a {kind} view")
            aggregate = exp.Max if form.operator == "MAX" else exp.Min
            extreme = exp.Select(expressions=[aggregate(this=column.copy())]).from_(
                exp.to_table(self.table_name, quoted=False)
            )
            if inner:
                extreme = extreme.where(exp.and_(*(c.copy() for c in inner)), copy=False)
            return [*inner, exp.EQ(this=column, expression=exp.Subquery(this=extreme))]
        raise _no_sql(f"{expr.function} does not select rows in SQL")


def _sql_form(expr: P.Expr) -> SqlForm:
    form = REGISTRY[expr.function].sql if expr.function in REGISTRY else None
    if form is None:
        raise _no_sql(
            f"{expr.function} has no SQL form (SQL rows have no order, so first/last/next/previous do not "
            "map; same, mode and diff are not rendered)"
        )
    return form


_SQL_OPS: dict[str, type[exp.Expression]] = {v: k for k, v in _COMPARISONS.items()}


def _number_sql(value: float) -> exp.Expression:
    return exp.Literal.number(format_number(float(value)))


def _like(column: exp.Expression, text: str) -> exp.Expression:
    pattern, escape = like_pattern(text)
    like = exp.Like(this=column, expression=exp.Literal.string(pattern))
    if escape:
        return exp.Escape(this=like, expression=exp.Literal.string("\\"))
    return like


def render_sql(
    program: P.Program,
    table: Table,
    dialect: str = "sqlite",
    *,
    language: str = "wikisql",
    table_name: str = "t",
) -> SqlRendering:
    """Render a program as one SELECT in any dialect sqlglot writes, through a sqlglot expression tree, and
    say whether it is exact (`SqlRendering`).

    The program must be a chain of filters and superlatives (`argmax`/`argmin`) from `all_rows` ending in
    `hop`, `count`, `maximum`, `minimum`, `average` or `sum` (expressions it never uses are ignored: they do
    not change its answer); each function's SQL role is declared beside it (`functions.SqlForm`). A column
    view reads through the expression `sqlviews.view_sql` verified in sqlite for this table. Only sqlite
    renderings are checked, so other dialects are never exact. Raises GrammarError("program has no SQL
    form: ...") when there is no rendering at all."""
    check_dialect(dialect)
    spec = get_language(language)
    declared = {f.name for f in spec.functions}
    for expr in program.exprs:
        if expr.function not in declared:
            # the proposals' functions (totals of groups, a GROUP BY; a row's two columns): no rendering here
            if expr.function in {f.name for f in spec.proposal_functions}:
                raise _no_sql(f"{expr.function} has no SQL form here")
            raise _no_sql(f"{expr.function} is not a {spec.name} function")
    if not program.exprs:
        raise _no_sql("empty program")
    last = program.exprs[-1]
    if not last.args:
        raise _no_sql(f"{last} has no arguments")
    form = REGISTRY[last.function].sql if last.function in REGISTRY else None
    renderer = _Renderer(program, table, spec.keep_duplicates, table_name)
    if form is not None and form.role == "count" and len(last.args) == 1:
        projection: exp.Expression = exp.Count(this=exp.Star())
    elif form is not None and (form.role == "project" or (form.role == "aggregate" and len(last.args) == 2)):
        projection = renderer.projection(last, form)
    else:
        raise _no_sql(f"it must end in hop, count or an aggregate, not {last.function}")
    conditions = renderer.rows(last.args[0], len(program.exprs) - 1)
    select = exp.Select(expressions=[projection]).from_(exp.to_table(table_name, quoted=False))
    if not spec.keep_duplicates and form.role == "project":
        select = select.distinct()
    if conditions:
        select = select.where(exp.and_(*conditions), copy=False)
    try:
        sql = select.sql(dialect=dialect)
    except sqlglot.errors.SqlglotError as exc:
        raise _no_sql(f"sqlglot cannot write it in {dialect}: {str(exc).splitlines()[0]}") from None
    notes = list(renderer.notes)
    if dialect != "sqlite":
        notes.append(f"only sqlite renderings are checked against the program, not {dialect}")
    return SqlRendering(sql, not notes, tuple(notes))


def check_program_sql(program: P.Program, table: Table, answer: Sequence, language: str) -> bool | None:
    """Whether sqlite, running the program's sqlite rendering on `table`, gives `answer` (the program's);
    None when the program has no SQL form."""
    try:
        sql = render_sql(program, table, language=language).sql
    except GrammarError:
        return None
    try:
        return sql_agrees(table, sql, answer, language)
    except GrammarError:  # sqlite rejected the query: it does not give the answer
        return False


def program_to_sql(
    program: P.Program,
    table: Table,
    dialect: str = "sqlite",
    *,
    language: str = "wikisql",
    table_name: str = "t",
) -> str:
    """`render_sql(...).sql`: the SQL text alone, exact or not."""
    return render_sql(program, table, dialect, language=language, table_name=table_name).sql


# --------------------------------------------------------------------------------------------------------
# sqlite3


def _pylower(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


def sqlite_connection(table: Table, table_name: str = "t") -> sqlite3.Connection:
    """An in-memory sqlite3 database holding `table` as WikiSQL's did: numeric columns REAL (None -> NULL),
    text columns TEXT (raw cell text), columns named by `sql_column_names`. For cross-checking answers.

    It also has `pylower(x)`, Python's Unicode `str.lower`: sqlite's own `lower()` folds ASCII only, while
    WikiSQL lower-cased in Python (3 of the 8,421 dev gold queries need `Ø`, `Î` or Cyrillic folded)."""
    conn = sqlite3.connect(":memory:")
    conn.create_function("pylower", 1, _pylower, deterministic=True)
    names = sql_column_names(table)
    storage = [column_storage(c) for c in table.columns]
    quoted = ", ".join(
        f'"{n.replace(chr(34), chr(34) * 2)}" {kind}' for n, (kind, _) in zip(names, storage, strict=True)
    )
    conn.execute(f'CREATE TABLE "{table_name}" ({quoted})')
    columns = [cells for _, cells in storage]
    marks = ", ".join("?" * len(columns))
    conn.executemany(f'INSERT INTO "{table_name}" VALUES ({marks})', zip(*columns, strict=True))
    return conn


def wikisql_sqlite_query(table: Table, sql: dict, lower: str = "pylower") -> tuple[str, list]:
    """A gold SQL dict as WikiSQL's dbengine wrote it (text compared through `lower`, numbers on REAL
    columns), over `sqlite_connection`'s column names: the oracle our executor is checked against."""
    names = sql_column_names(table)

    def col(j: int) -> str:
        return '"' + names[j].replace('"', '""') + '"'

    target = col(sql["sel"]) if not sql["agg"] else f"{AGG_OPS[sql['agg']]}({col(sql['sel'])})"
    where, params = [], []
    for j, op, value in sql["conds"]:
        if "string" in table.columns[j].views:
            where.append(f"{lower}({col(j)}) {COND_OPS[op]} {lower}(?)")
            params.append(value)
        else:
            where.append(f"{col(j)} {COND_OPS[op]} ?")
            params.append(float(str(value).replace(",", "").replace("\u2212", "-")))
    return f"SELECT {target} FROM t" + (" WHERE " + " AND ".join(where) if where else ""), params
