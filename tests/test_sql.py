"""SQL over typed tables: WikiSQL gold execution, the SQL text subset, and programs rendered as SQL.

The real-data tests check the executor against sqlite3 on every WikiSQL dev gold query, and that random
WikiSQL-language programs over real dev tables render in several dialects and answer like the interpreter.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nsmcli.errors import GrammarError
from nsmcli.worlds.tables.data.readers import iter_wikisql_tables, load_table
from nsmcli.worlds.tables.data.table import Table
from nsmcli.worlds.tables.data.values import Date, normalize
from nsmcli.worlds.tables.lang.interpreter import bind
from nsmcli.worlds.tables.lang.program import ALL_ROWS, Column, Expr, Literal, Program, Ref
from nsmcli.worlds.tables.lang.sql import (
    AGG_OPS,
    _answers_agree_typed,
    answers_agree,
    execute_sql,
    execute_wikisql_sql,
    program_to_sql,
    render_sql,
    sql_agrees,
    sql_column_names,
    sqlite_answer,
    sqlite_connection,
    wikisql_answer,
    wikisql_sqlite_query,
)

DIALECTS = ("sqlite", "duckdb", "postgres", "mysql", "snowflake", "tsql", "spark")


@pytest.fixture
def table() -> Table:
    return Table.from_rows(
        "t1",
        ["Player", "No.", "Nationality", "Score", "Notes"],
        [
            ["Antonio Lang", "21", "United States", "3.5", "Duke"],
            ["Voshon Lenard ", "2", "Turkey (TUR)", "4", "50% off"],
            ["Martin Lewis", "32, 44", "united states", "1,000", "Butler CC (KS)"],
            ["Brad Lohaus", "33", "Ørsted", "4", "Iowa"],
        ],
        column_types=["text", "text", "text", "real", "text"],
    )


# --------------------------------------------------------------------------------------------------------
# WikiSQL gold queries


def q(sel: int, agg: int = 0, conds: list | None = None) -> dict:
    return {"sel": sel, "agg": agg, "conds": conds or []}


def test_selection_keeps_row_order_and_duplicates(table: Table) -> None:
    assert execute_wikisql_sql(table, q(3)) == [3.5, 4.0, 1000.0, 4.0]
    assert execute_wikisql_sql(table, q(0, conds=[[3, 0, "4"]])) == ["Voshon Lenard ", "Brad Lohaus"]


def test_text_conditions_are_case_insensitive_and_stripped(table: Table) -> None:
    assert execute_wikisql_sql(table, q(0, conds=[[2, 0, "UNITED STATES"]])) == [
        "Antonio Lang",
        "Martin Lewis",
    ]
    assert execute_wikisql_sql(table, q(1, conds=[[0, 0, "voshon lenard"]])) == ["2"]
    assert execute_wikisql_sql(table, q(0, conds=[[2, 0, "ØRSTED"]])) == ["Brad Lohaus"]  # Unicode folding
    assert execute_wikisql_sql(table, q(0, conds=[[2, 0, "turkey"]])) == []  # equality, not containment


def test_numeric_conditions_parse_the_value(table: Table) -> None:
    assert execute_wikisql_sql(table, q(0, conds=[[3, 1, "3.9"]])) == [
        "Voshon Lenard ",
        "Martin Lewis",
        "Brad Lohaus",
    ]
    assert execute_wikisql_sql(table, q(0, conds=[[3, 0, "1,000"]])) == ["Martin Lewis"]
    assert execute_wikisql_sql(table, q(0, conds=[[3, 2, 4]])) == ["Antonio Lang"]
    assert execute_wikisql_sql(table, q(0, conds=[[3, 0, "about 4 points"]])) == [
        "Voshon Lenard ",
        "Brad Lohaus",
    ]
    assert execute_wikisql_sql(table, q(0, conds=[[3, 1, "−1"]])) == [
        "Antonio Lang",
        "Voshon Lenard ",
        "Martin Lewis",
        "Brad Lohaus",
    ]
    assert execute_wikisql_sql(table, q(0, conds=[[3, 1, "n/a"]])) == []  # no number: matches nothing


def test_aggregates(table: Table) -> None:
    assert execute_wikisql_sql(table, q(3, 1)) == [1000.0]
    assert execute_wikisql_sql(table, q(3, 2)) == [3.5]
    assert execute_wikisql_sql(table, q(0, 3, [[3, 0, 4]])) == [2]
    assert execute_wikisql_sql(table, q(3, 4)) == [1011.5]
    assert execute_wikisql_sql(table, q(3, 5, [[3, 2, 100]])) == [11.5 / 3]
    assert execute_wikisql_sql(table, q(3, 1, [[3, 1, 5000]])) == []  # empty aggregate
    assert execute_wikisql_sql(table, q(0, 3, [[3, 1, 5000]])) == [0]
    assert wikisql_answer(table, q(0, 3, [[3, 0, 4]])) == [2.0]
    assert isinstance(wikisql_answer(table, q(0, 3))[0], float)
    assert wikisql_answer(table, q(0, 0, [[2, 0, "turkey (tur)"]])) == ["Voshon Lenard "]


def test_aggregates_on_text_columns_mirror_sqlite() -> None:
    cells = ["12abc", " 3", "x", "2.5e1", "", "-4", "Zeta", "alpha", "10", "9"]
    table = Table.from_rows("t", ["A"], [[c] for c in cells], column_types=["text"])
    conn = sqlite_connection(table)
    for agg in AGG_OPS:
        ours = execute_wikisql_sql(table, q(0, AGG_OPS.index(agg)))
        target = f'{agg}("A")' if agg else '"A"'
        ref = [r[0] for r in conn.execute(f"SELECT {target} FROM t")]
        assert _norm(ours) == _norm(ref), agg


@pytest.mark.parametrize(
    "sql",
    [
        {"agg": 0},
        {"sel": 9},
        {"sel": 0, "agg": 7},
        {"sel": 0, "conds": [[0, 5, "x"]]},
        {"sel": 0, "conds": [[0]]},
    ],
)
def test_bad_wikisql_queries(table: Table, sql: dict) -> None:
    with pytest.raises(GrammarError):
        execute_wikisql_sql(table, sql)


# --------------------------------------------------------------------------------------------------------
# SQL text


@pytest.mark.parametrize(
    ("sql", "answer"),
    [
        ('SELECT "Player" FROM anything WHERE "Score" = 4', ["Voshon Lenard ", "Brad Lohaus"]),
        ("SELECT player FROM t WHERE no = '2'", ["Voshon Lenard "]),  # slugs
        ("SELECT Player FROM t WHERE Score >= 4 AND Score <= 4", ["Voshon Lenard ", "Brad Lohaus"]),
        ("SELECT Player FROM t WHERE 4 < Score", ["Martin Lewis"]),  # literal on the left
        ('SELECT "No." FROM t WHERE "Nationality" != \'united states\'', ["2", "33"]),
        ("SELECT Player FROM t WHERE Nationality LIKE '%TUR%'", ["Voshon Lenard "]),  # string view, any case
        ("SELECT Player FROM t WHERE Notes LIKE '%50\\%%' ESCAPE '\\'", ["Voshon Lenard "]),
        ("SELECT Player FROM t WHERE Notes LIKE '_owa'", ["Brad Lohaus"]),
        ("SELECT Player FROM t WHERE NOT Notes LIKE '%u%'", ["Voshon Lenard ", "Brad Lohaus"]),
        (
            "SELECT Player FROM t WHERE Notes NOT LIKE '%u%' AND Score > -1.5",
            ["Voshon Lenard ", "Brad Lohaus"],
        ),
        (
            "SELECT Player FROM t WHERE (Score = 1000 OR Score = 3.5) AND Notes LIKE '%u%'",
            ["Antonio Lang", "Martin Lewis"],
        ),
        ("SELECT DISTINCT Score FROM t", [3.5, 4.0, 1000.0]),
        ("SELECT COUNT(*) AS result FROM t WHERE Score > 3.5", [3]),
        ("SELECT COUNT(Player) FROM t", [4]),
        ("SELECT DISTINCT COUNT(Score) FROM t", [4]),
        ("SELECT AVG(Score) FROM t WHERE Score < 100", [11.5 / 3]),
        ("SELECT SUM(Score) FROM t WHERE Score > 5000", []),
        ("SELECT MAX(Player) FROM t", ["Voshon Lenard "]),
        ("SELECT Player FROM t WHERE Score IS NULL", []),
        ("SELECT Player FROM t WHERE Score = 'n/a'", []),
        ("SELECT Player FROM t WHERE NOT Score = 'n/a'", []),  # unknown stays unknown under NOT
        ("select player from t where nationality = 'UNITED STATES'", ["Antonio Lang", "Martin Lewis"]),
        ("SELECT Player FROM t WHERE Score = (SELECT MAX(Score) FROM t)", ["Martin Lewis"]),
        (
            "SELECT Player FROM t WHERE (SELECT MIN(Score) FROM t WHERE Score > 3.5) = Score",
            ["Voshon Lenard ", "Brad Lohaus"],
        ),
        ("SELECT COUNT(*) FROM t WHERE Score < (SELECT MAX(Score) FROM t)", [3]),
        ("SELECT Player FROM t WHERE Score > (SELECT AVG(Score) FROM t WHERE Score > 5000)", []),  # NULL
        ("SELECT Player FROM t WHERE NOT Score > (SELECT MAX(Score) FROM t WHERE Score > 5000)", []),
        ("SELECT Player FROM t WHERE Player = (SELECT MIN(Player) FROM t)", ["Antonio Lang"]),
        ("SELECT Player FROM t WHERE 100 < CAST(REPLACE(Score, ',', '') AS REAL)", ["Martin Lewis"]),
    ],
)
def test_execute_sql(table: Table, sql: str, answer: list) -> None:
    assert execute_sql(table, sql) == answer


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT * FROM t",
        "SELECT Player, Score FROM t",
        "SELECT Player FROM t ORDER BY Score",
        "SELECT Player FROM t LIMIT 1",
        "SELECT Player FROM t GROUP BY Player",
        "SELECT Player FROM t JOIN u ON t.a = u.a",
        "SELECT Player FROM (SELECT Player FROM t)",
        "SELECT Player FROM t WHERE Score IN (1, 2)",
        "SELECT Player FROM t WHERE Score BETWEEN 1 AND 2",
        "SELECT Player FROM t WHERE Score = Player",
        "SELECT Player FROM t WHERE Score = (SELECT 1)",
        "SELECT Player FROM t WHERE Score = (SELECT Score FROM t)",
        "SELECT Player FROM t WHERE Score = (SELECT MAX(Score) FROM u)",
        "SELECT Player FROM t WHERE Score = (SELECT MAX(Score) FROM t); SELECT 1",
        "SELECT CAST(Player AS INTEGER) FROM t",
        "SELECT CAST(Player AS REAL) FROM t",
        "SELECT CAST(REPLACE(Score, '.', '') AS REAL) FROM t",
        "SELECT CAST(UPPER(Score) AS REAL) FROM t",
        "SELECT COUNT(DISTINCT Player) FROM t",
        "SELECT UPPER(Player) FROM t",
        "SELECT Nope FROM t",
        "SELECT Player FROM t; SELECT Player FROM t",
        "DELETE FROM t",
        "SELECT FROM WHERE (",
        "SELECT Player FROM t WHERE Notes LIKE 3",
        "",
    ],
)
def test_sql_outside_the_subset_is_one_line_grammar_error(table: Table, sql: str) -> None:
    with pytest.raises(GrammarError) as info:
        execute_sql(table, sql)
    message = str(info.value)
    assert "\n" not in message and "Traceback" not in message and "<Token" not in message


def test_unknown_dialect(table: Table) -> None:
    with pytest.raises(GrammarError, match="unknown SQL dialect"):
        execute_sql(table, "SELECT Player FROM t", dialect="nope")
    with pytest.raises(GrammarError, match="unknown SQL dialect"):
        program_to_sql(Program.parse("(count all_rows)"), table, "nope")


def test_column_names_avoid_ambiguity() -> None:
    table = Table.from_rows("d", ["Year", "year", "x_2", "X", "", "Name"], [["1", "2", "3", "4", "5", "6"]])
    names = sql_column_names(table)
    assert len({n.casefold() for n in names}) == len(names)
    assert names[-1] == "Name"
    for j, name in enumerate(names):
        escaped = name.replace('"', '""')
        assert execute_sql(table, f'SELECT "{escaped}" FROM t') == [table.columns[j].raw[0]]
        conn = sqlite_connection(table)
        assert [r[0] for r in conn.execute(f'SELECT "{escaped}" FROM t')] == [table.columns[j].raw[0]]


# --------------------------------------------------------------------------------------------------------
# Programs -> SQL


def test_program_to_sql_shapes(table: Table) -> None:
    program = Program.parse(
        '(filter_str_contain_any all_rows ["turkey" "50%"] r.nationality-string) '
        "(filter_greater v0 3 r.score-number) (hop v1 r.player-string)"
    )
    sql = program_to_sql(program, table)
    assert sql == (
        'SELECT "Player" FROM t WHERE ("Nationality" LIKE \'%turkey%\' OR "Nationality" LIKE \'%50\\%%\' '
        "ESCAPE '\\') AND \"Score\" > 3"
    )
    assert execute_sql(table, sql) == ["Voshon Lenard "]
    assert program_to_sql(Program.parse("(count all_rows)"), table) == "SELECT COUNT(*) FROM t"
    assert (
        program_to_sql(
            Program.parse("(filter_eq all_rows [4 5] r.score-number) (maximum v0 r.score-number)"), table
        )
        == 'SELECT MAX("Score") FROM t WHERE ("Score" = 4 AND "Score" = 5)'
    )
    assert program_to_sql(Program.parse("(average all_rows r.score-number)"), table, "mysql") == (
        "SELECT AVG(`Score`) FROM t"
    )


def test_wtq_programs_render_exactly() -> None:
    wtq = Table.from_rows("w", ["Year", "Result"], [["1990", "Won"], ["1991", "Lost"], ["1991", "3–1"]])
    program = Program.parse(
        '(filter_ge all_rows 1991 r.year-number) (filter_str_contain_not_any v0 ["lost"] r.result-string) (hop v1 r.result-string)'
    )
    sql = program_to_sql(program, wtq, language="wtq")
    assert sql == (
        'SELECT DISTINCT "Result" FROM t WHERE CAST("Year" AS REAL) >= 1991 AND NOT ("Result" LIKE \'%lost%\')'
    )
    assert execute_sql(wtq, sql) == ["3–1"]
    several = program_to_sql(
        Program.parse("(filter_not_eq all_rows [1990 1991] r.year-number) (count v0)"), wtq, language="wtq"
    )
    assert several == "SELECT COUNT(*) FROM t WHERE TRUE"
    assert execute_sql(wtq, several) == [3]
    # filter_not_eq also keeps rows with no number, where SQL's `<>` alone is unknown
    # (a cell with no number is NULL, not sqlite's 0, so the rendering guards the CAST)
    gappy = Table.from_rows("g", ["Year"], [["1990"], ["1991"], ["n/a"]])
    unequal = Program.parse("(filter_not_eq all_rows 1990 r.year-number) (count v0)")
    rendering = render_sql(unequal, gappy, language="wtq")
    assert rendering.exact and rendering.note is None
    assert rendering.sql.startswith("SELECT COUNT(*) FROM t WHERE (") and rendering.sql.endswith("IS NULL)")
    assert execute_sql(gappy, rendering.sql) == [2]
    assert bind("wtq", gappy, [("number", (1990.0,))]).execute(unequal).answer == [2.0]
    assert sqlite_answer(gappy, rendering.sql) == [2]


@pytest.mark.parametrize(
    ("text", "language", "why"),
    [
        ("(filter_eq all_rows 4 r.score-number)", "wikisql", "must end in hop"),
        ("(argmax all_rows r.score-number) (hop v0 r.player-string)", "wikisql", "not a wikisql function"),
        ("(first all_rows) (hop v0 r.player-string)", "wtq", "no order"),
        ("(argmax all_rows r.score-number) (next v0) (hop v1 r.player-string)", "wtq", "no order"),
        ("(mode all_rows r.player-string)", "wtq", "must end in hop"),
        ("(filter_not_eq all_rows 4 r.score-number) (count v0)", "wikisql", "not a wikisql function"),
        (
            "(hop all_rows r.score-number) (filter_eq all_rows v0 r.score-number) (count v1)",
            "wikisql",
            "question values",
        ),
        ("(hop all_rows r.nope-string)", "wikisql", "no property"),
        ("(sum all_rows r.player-string)", "wikisql", "text column"),
    ],
)
def test_programs_without_sql_form(table: Table, text: str, language: str, why: str) -> None:
    with pytest.raises(GrammarError, match=f"program has no SQL form: .*{why}"):
        program_to_sql(Program.parse(text), table, language=language)


def test_superlatives_render_as_scalar_subqueries() -> None:
    """argmax / argmin keep every row tied at the extreme of the rows they were given; number views read
    through CAST (and REPLACE of thousands commas, a guard where cells have no number), which sqlite
    evaluates like the program."""
    wtq = Table.from_rows(
        "w",
        ["Nation", "Gold", "Year"],
        [["USA", "10", "1990"], ["China", "1,200", "1991"], ["Chad", "9", "1991"], ["Peru", "1,200", "n/a"]],
    )
    conn = sqlite_connection(wtq)
    gold = "CAST(REPLACE(\"Gold\", ',', '') AS REAL)"
    cases = {
        "(argmax all_rows r.gold-number) (hop v0 r.nation-string)": (
            f'SELECT DISTINCT "Nation" FROM t WHERE {gold} = (SELECT MAX({gold}) FROM t)',
            ["China", "Peru"],
        ),
        "(filter_eq all_rows 1991 r.year-number) (argmin v0 r.gold-number) (hop v1 r.nation-string)": (
            None,
            ["Chad"],
        ),
        "(argmax all_rows r.gold-number) (argmin v0 r.year-number) (count v1)": (None, [1]),
        "(argmax all_rows r.gold-number) (maximum v0 r.year-number)": (None, [1991.0]),
    }
    for text, (expected_sql, answer) in cases.items():
        program = Program.parse(text)
        result = bind("wtq", wtq, [("number", (1991.0,))]).execute(program)
        assert result.error is None, (text, result.error)
        rendering = render_sql(program, wtq, language="wtq")
        sql = rendering.sql
        assert rendering.exact, (text, rendering.notes)
        assert "(SELECT M" in sql
        if expected_sql is not None:
            assert sql == expected_sql
        assert execute_sql(wtq, sql) == answer
        assert _same([v for v in answer if v is not None], [r[0] for r in conn.execute(sql)])
        assert _same(result.answer, answer), (text, result.answer)


def test_years_before_christ_render_exactly_on_user_tables() -> None:
    """The user reader makes "1200 BC" the number -1200; sqlite reads 1200 unless the SQL says otherwise."""
    cities = Table.from_rows(
        "c",
        ["City", "Founded"],
        [["Lisbon", "1200 BC"], ["Barcelona", "15 B.C."], ["Madrid", "865"]],
        value_rules="user",
    )
    program = Program.parse("(argmin all_rows r.founded-number) (hop v0 r.city-string)")
    answer = bind("wtq", cities).execute(program).answer
    rendering = render_sql(program, cities, language="wtq")
    assert answer == ["lisbon"] and rendering.exact, rendering.notes
    assert sql_agrees(cities, rendering.sql, answer) and execute_sql(cities, rendering.sql) == ["Lisbon"]


def test_num2_and_date_views_render() -> None:
    wtq = Table.from_rows("w", ["Year", "Score"], [["1990", "3–1"], ["May 3, 1991", "2–0"], ["1992", "1–1"]])
    kinds = {k for _, _, k in wtq.properties()}
    assert {"num2", "date"} <= kinds
    program = Program.parse("(argmax all_rows r.score-num2) (hop v0 r.year-string)")
    rendering = render_sql(program, wtq, language="wtq")
    assert rendering.exact, rendering.notes
    answer = bind("wtq", wtq).execute(program).answer
    assert answer == ["1990", "1992"]  # the second numbers 1, 0, 1: ties kept
    assert sql_agrees(wtq, rendering.sql, answer) and execute_sql(wtq, rendering.sql) == ["1990", "1992"]
    # dates compare as yyyymmdd numbers, so they filter and rank rows, but an answer of dates has no SQL form
    latest = Program.parse("(argmax all_rows r.year-date) (hop v0 r.score-string)")
    rendering = render_sql(latest, wtq, language="wtq")
    answer = bind("wtq", wtq).execute(latest).answer
    assert rendering.exact and answer == ["1-1"] and sql_agrees(wtq, rendering.sql, answer)
    assert execute_sql(wtq, rendering.sql) == ["1–1"]
    with pytest.raises(GrammarError, match="answers with dates"):
        program_to_sql(Program.parse("(maximum all_rows r.year-date)"), wtq, language="wtq")


# --------------------------------------------------------------------------------------------------------
# Real data


def _norm(values: list) -> list:
    """Answers for comparison: None dropped, numbers as floats rounded to 9 significant digits."""
    return [float(f"{float(v):.9g}") if isinstance(v, int | float) else v for v in values if v is not None]


@pytest.fixture(scope="module")
def dev(data_dir: Path) -> tuple[dict[str, Table], list[dict]]:
    wikisql = data_dir / "wikisql"
    tables = {t.id: t for t in iter_wikisql_tables(wikisql / "dev.tables.jsonl")}
    with open(wikisql / "dev.jsonl", encoding="utf-8") as f:
        examples = [json.loads(line) for line in f if line.strip()]
    return tables, examples


def test_gold_sql_agrees_with_sqlite_on_all_dev_queries(dev: tuple[dict[str, Table], list[dict]]) -> None:
    tables, examples = dev
    connections: dict[str, object] = {}
    agree, mismatches = 0, []
    for ex in examples:
        table = tables[ex["table_id"]]
        conn = connections.setdefault(table.id, sqlite_connection(table))
        query, params = wikisql_sqlite_query(table, ex["sql"])
        ref = [r[0] for r in conn.execute(query, params)]  # type: ignore[attr-defined]
        ours = execute_wikisql_sql(table, ex["sql"])
        if _norm(ours) == _norm(ref):
            agree += 1
        else:
            mismatches.append((ex["table_id"], ex["sql"], ours[:5], ref[:5]))
    assert len(examples) == 8421
    assert agree == len(examples), mismatches[:10]


# ----- random programs over real tables -------------------------------------------------------------------


def _random_program(rng: random.Random, table: Table) -> Program | None:
    """A random WikiSQL-language program: up to three chained filters, then hop / count / an aggregate.
    Values come from the table's own cells (as question entities do), sometimes perturbed or doubled."""
    props = [(name, kind, col.views[kind]) for name, col, kind in table.properties()]
    strings = [p for p in props if p[1] == "string" and any(p[2])]
    numbers = [p for p in props if p[1] == "number" and any(v is not None for v in p[2])]
    exprs: list[Expr] = []
    rows: object = ALL_ROWS
    for _ in range(rng.choice((0, 1, 1, 2, 2, 3))):
        use_text = strings and (not numbers or rng.random() < 0.5)
        if use_text:
            name, _, view = rng.choice(strings)
            cells = [c for c in view if c]
            values = []
            for _ in range(1 if rng.random() < 0.8 else 2):
                cell = rng.choice(cells)
                words = cell.split()
                if rng.random() < 0.4 and len(words) > 1:
                    cell = rng.choice(words)
                elif rng.random() < 0.2 and len(cell) > 2:
                    start = rng.randrange(len(cell) - 1)
                    cell = cell[start : rng.randrange(start + 1, len(cell) + 1)]
                if cell:
                    values.append(cell)
            if not values:
                continue
            exprs.append(
                Expr("filter_str_contain_any", (rows, Literal("string", tuple(values)), Column(name)))
            )
        elif numbers:
            name, _, view = rng.choice(numbers)
            present = [v for v in view if v is not None]
            values = [rng.choice(present) for _ in range(1 if rng.random() < 0.85 else 2)]
            if rng.random() < 0.2:
                values = [v + rng.choice((-1.5, -1, 0.5, 1)) for v in values]
            function = rng.choice(("filter_eq", "filter_greater", "filter_less"))
            exprs.append(Expr(function, (rows, Literal("number", tuple(values)), Column(name))))
        else:
            continue
        rows = Ref(len(exprs) - 1)
    final = rng.choice(("hop", "hop", "count", "maximum", "minimum", "average", "sum"))
    if final == "count":
        exprs.append(Expr("count", (rows,)))
    elif final == "hop" or not numbers:
        exprs.append(Expr("hop", (rows, Column(rng.choice(props)[0]))))
    else:
        exprs.append(Expr(final, (rows, Column(rng.choice(numbers)[0]))))
    return Program(tuple(exprs))


def _like_semantics_match(table: Table, program: Program) -> bool:
    """Whether sqlite's LIKE (raw text, ASCII case folding) sees what the program's containment sees."""
    ascii_lower = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
    for expr in program.exprs:
        if expr.function != "filter_str_contain_any":
            continue
        column = next(c for c in table.columns if c.property_name("string") == expr.args[2].name)  # type: ignore[union-attr]
        for value in expr.args[1].values:  # type: ignore[union-attr]
            for view, raw in zip(column.views["string"], column.raw, strict=True):
                if (value in view) != (value in raw.translate(ascii_lower)):
                    return False
    return True


def _same(expected: list, actual: list) -> bool:
    if len(expected) != len(actual):
        return False
    for e, a in zip(expected, actual, strict=True):
        if isinstance(e, str):
            if not isinstance(a, str) or normalize(a) != normalize(e):
                return False
        elif isinstance(a, str) or not math.isclose(float(e), float(a), rel_tol=1e-9, abs_tol=1e-9):
            return False
    return True


def test_random_programs_render_and_answer_like_the_interpreter(
    dev: tuple[dict[str, Table], list[dict]],
) -> None:
    tables, _ = dev
    rng = random.Random(20240607)
    pool = sorted(tables)
    n_programs = n_sqlite = 0
    for table_id in rng.sample(pool, 200):
        table = tables[table_id]
        conn = sqlite_connection(table)
        for _ in range(3):
            program = _random_program(rng, table)
            entities = [(a.kind, a.values) for e in program.exprs for a in e.args if isinstance(a, Literal)]
            env = bind("wikisql", table, entities)
            assert env.dropped_constants == 0
            result = env.execute(program)
            # An aggregate over no values is an interpreter error and SQL's NULL, i.e. no answer.
            assert result.error is None or "no values" in result.error, (str(program), result.error)
            expected = [v for v in result.answer if v is not None]
            for dialect in DIALECTS:
                sql = program_to_sql(program, table, dialect)
                # execute_sql parses the text back in its own dialect, then runs it
                answer = [v for v in execute_sql(table, sql, dialect=dialect) if v is not None]
                assert _same(expected, answer), (str(program), dialect, sql, expected, answer)
            if _like_semantics_match(table, program):
                sql = program_to_sql(program, table)
                ref = [r[0] for r in conn.execute(sql) if r[0] is not None]
                assert _same(expected, ref), (str(program), sql, expected, ref)
                n_sqlite += 1
            n_programs += 1
    assert n_programs == 600
    assert n_sqlite > 0.8 * n_programs


# ----- random WTQ programs over real tables ---------------------------------------------------------------


def _answer_set(values: list, cells: bool) -> set:
    """A WTQ answer as a set (WTQ answers are sets), numbers to 9 digits; `cells` = raw cell text (SQL's),
    normalised here as the string view is (the official normaliser is not idempotent: "a\n(b)" -> "a (b)"
    -> "a", so the interpreter's already normalised strings are left as they are)."""
    return {
        (normalize(v) if cells else v) if isinstance(v, str) else float(f"{float(v):.9g}")
        for v in values
        if v is not None
    }


def test_random_wtq_programs_with_sql_form_answer_like_the_interpreter(data_dir: Path) -> None:
    """Random walks over the valid tokens of real WTQ dev questions (their own entities): every program that
    renders (filters, superlatives, aggregates) gives the interpreter's answer under `execute_sql`."""
    from nsmcli.worlds.tables.data.annotate import annotate_question
    from nsmcli.worlds.tables.data.readers import load_wtq_table

    wtq = data_dir / "wtq"
    with open(wtq / "data" / "random-split-1-dev.tsv", encoding="utf-8") as f:
        examples = [line.rstrip("\n").split("\t") for line in f][1:]
    rng = random.Random(7)
    rendered = superlatives = total = 0
    for _, question, context, _ in rng.sample(examples, 80):
        table = load_wtq_table(wtq, context)
        env = bind("wtq", table, annotate_question(question, table).entities)
        for _ in range(15):
            state = env.initial_state()
            while not state.done:
                state = env.step(state, rng.choice(env.valid_tokens(state)))
            assert state.error is None
            program = env.decode(state.tokens)
            total += 1
            try:
                sql = program_to_sql(program, table, language="wtq")
            except GrammarError as exc:
                assert "no SQL form" in str(exc)
                continue
            rendered += 1
            superlatives += "SELECT MAX(" in sql or "SELECT MIN(" in sql
            expected = env.execute(program).answer
            ours = _answer_set(execute_sql(table, sql), cells=True)
            assert ours == _answer_set(expected, cells=False), (context, str(program), sql)
    assert total == 80 * 15
    assert rendered > 0.3 * total and superlatives > 0.05 * total, (rendered, superlatives, total)


# ----- property: every exact rendering is what sqlite answers ---------------------------------------------

EXAMPLE_TABLES = sorted((Path(__file__).resolve().parents[1] / "examples" / "tables").glob("*.csv"))
#: a timetable of ISO date-times, whose number views are times of day
TIME_TABLES = [Path(__file__).resolve().parents[1] / "examples" / "real" / "train_timetable.csv"]


def _messy_table() -> Table:
    """Cells of the kinds people's spreadsheets have: currency, thousands, blanks, n/a, signs, scores."""
    return Table.from_rows(
        "sales",
        ["Date", "Region", "Total", "Change", "Score", "Share"],
        [
            ["03/15/2024", "North", "$8,641.50", "-3.5", "3–1", "12%"],
            ["03/16/2024", "South-East", "$1,234.50", "1.2", "2–0", "7.5%"],
            ["March 1, 2024", "East (E)", "$980.00", "-0.4", "1–1", ""],
            ["2024-03-18", "West", "n/a", "", "0–2", "n/a"],
            ["", "North", "$12,000", "+2", "4–4", "30%"],
        ],
    )


def _other_reader(table: Table) -> Table:
    """The same table as a different reader might type it: signs kept, `(1,200)` negative, `%` a fraction,
    `k`/`M` multiplied, blanks missing. The renderer must stay exact whatever the reader decides."""

    def number(cell: str) -> float | None:
        text = cell.strip().replace(",", "").replace("$", "")
        sign = -1.0 if text.startswith("(") and text.endswith(")") else 1.0
        text = text.strip("()")
        scale = {"%": 0.01, "k": 1e3, "M": 1e6}.get(text[-1:], 1.0) if text else 1.0
        text = text.rstrip("%kM")
        try:
            return sign * float(text) * scale if text else None
        except ValueError:
            return None

    for column in table.columns:
        if "number" in column.views:
            column.views["number"] = tuple(number(c) for c in column.raw)
    return table


def _cell_entities(table: Table, rng: random.Random) -> list[tuple[str, tuple]]:
    """Question entities drawn from the table's own cells, as a question mentioning them would have."""
    entities: list[tuple[str, tuple]] = []
    for _, column, kind in table.properties():
        values = [v for v in column.views[kind] if v is not None and v != ""]
        if not values or kind not in ("string", "number"):
            continue
        value = rng.choice(values)
        if kind == "string":
            words = value.split()
            entities.append(("string", (rng.choice(words) if words and rng.random() < 0.5 else value,)))
        else:
            entities.append(("number", (value + rng.choice((0, 0, 0.5, -1)),)))
    return entities


def _random_programs(env, rng: random.Random, n: int) -> list[Program]:
    """Uniform random walks over the valid next tokens: the space the parser decodes in."""
    programs = []
    for _ in range(n):
        state = env.initial_state()
        while not state.done:
            state = env.step(state, rng.choice(env.valid_tokens(state)))
        if state.error is None:
            programs.append(env.decode(state.tokens))
    return programs


def _exact_renderings_agree(table: Table, env, programs: list[Program], language: str) -> tuple[int, int]:
    """Assert that sqlite answers every exactly rendered program as the interpreter does; returns
    (exact renderings, programs with an answer)."""
    exact = answered = 0
    for program in programs:
        result = env.execute(program)
        if result.error is not None:
            continue
        answered += 1
        try:
            rendering = render_sql(program, table, language=language)
        except GrammarError:
            continue
        if rendering.exact:
            exact += 1
            sqlite_values = sqlite_answer(table, rendering.sql)
            assert answers_agree(result.answer, sqlite_values, env.spec.keep_duplicates), (
                table.id,
                str(program),
                rendering.sql,
                result.answer,
                sqlite_values,
            )
    return exact, answered


@pytest.mark.parametrize("language", ["wtq", "wikisql"])
def test_exact_renderings_answer_like_the_program_on_user_tables(language: str) -> None:
    """Random programs over the example tables, a messy table and that table typed by another reader."""
    rng = random.Random(17)
    tables = [load_table(p) for p in EXAMPLE_TABLES + TIME_TABLES] + [
        _messy_table(),
        _other_reader(_messy_table()),
    ]
    exact = answered = 0
    for table in tables:
        for _ in range(3):
            env = bind(language, table, _cell_entities(table, rng))
            e, a = _exact_renderings_agree(table, env, _random_programs(env, rng, 8), language)
            exact, answered = exact + e, answered + a
    assert answered >= 100 and exact > 0.3 * answered, (exact, answered)


def test_exact_renderings_answer_like_the_program_on_wtq_tables(data_dir: Path) -> None:
    from nsmcli.worlds.tables.data.annotate import annotate_question
    from nsmcli.worlds.tables.data.readers import load_wtq_table

    wtq = data_dir / "wtq"
    with open(wtq / "data" / "random-split-1-dev.tsv", encoding="utf-8") as f:
        examples = [line.rstrip("\n").split("\t") for line in f][1:]
    rng = random.Random(23)
    exact = answered = 0
    for _, question, context, _ in rng.sample(examples, 30):
        table = load_wtq_table(wtq, context)
        env = bind("wtq", table, annotate_question(question, table).entities)
        e, a = _exact_renderings_agree(table, env, _random_programs(env, rng, 8), "wtq")
        exact, answered = exact + e, answered + a
    assert answered >= 200 and exact > 0.2 * answered, (exact, answered)


def test_blank_cell_filters_render_exactly_and_answer_like_the_program() -> None:
    """The empty text a question asking for blank cells links (`annotate`) keeps the empty cells of a user
    table; sqlite keeps the same rows, whether the reader stored a blank as NULL or as ''."""
    blank = Literal("string", ("",))

    def messy() -> Table:
        wtq = _messy_table()
        return Table.from_rows("sales", wtq.header, wtq.rows, value_rules="user")

    for table in (messy(), _other_reader(messy()), load_table(EXAMPLE_TABLES[0])):
        env = bind("wtq", table, [("string", ("",))])
        programs = []
        for _, column, kind in table.properties():
            if kind != "string":
                continue
            prop = Column(column.property_name("string"))
            for function in ("filter_str_contain_any", "filter_str_contain_not_any"):
                kept = Expr(function, (ALL_ROWS, blank, prop))
                programs.append(Program((kept, Expr("count", (Ref(0),)))))
        exact, answered = _exact_renderings_agree(table, env, programs, "wtq")
        assert exact == answered == len(programs), (table.id, exact, answered)
    table = messy()
    env = bind("wtq", table, [("string", ("",))])
    share = Column("r.share-string")
    kept = Program((Expr("filter_str_contain_any", (ALL_ROWS, blank, share)), Expr("count", (Ref(0),))))
    assert env.execute(kept).answer == [1.0]  # "n/a" is written, not blank
    assert execute_sql(table, render_sql(kept, table).sql) == [1]  # the SQL is in the subset nsm runs
    # a cell of spaces or a footnote mark is blank to the program: the SQL names those cells, and agrees
    tips = Table.from_rows(
        "t", ["Order", "Tip"], [["1", "$1"], ["2", " "], ["3", ""], ["4", "*"]], value_rules="user"
    )
    env = bind("wtq", tips, [("string", ("",))])
    kept = Program(
        (Expr("filter_str_contain_any", (ALL_ROWS, blank, Column("r.tip-string"))), Expr("count", (Ref(0),)))
    )
    rendering = render_sql(kept, tips)
    assert env.execute(kept).answer == [3.0] and rendering.exact and "' '" in rendering.sql
    assert sql_agrees(tips, rendering.sql, [3.0])


def test_currency_cells_compare_as_numbers_in_sqlite() -> None:
    """The SQL once shown here, CAST(REPLACE("Total", ',', '') AS REAL) > 1000, selects no row in sqlite
    ('$8,641.50' reads as 0 there: a `<` would select them all); the verified reading drops the sign too."""
    sales = _messy_table()
    program = Program.parse("(filter_greater all_rows 1000 r.total-number) (count v0)")
    answer = bind("wtq", sales, [("number", (1000.0,))]).execute(program).answer
    assert answer == [3.0]
    rendering = render_sql(program, sales, language="wtq")
    assert rendering.exact and "'$'" in rendering.sql
    assert sqlite_answer(sales, rendering.sql) == [3] and execute_sql(sales, rendering.sql) == [3]
    assert sqlite_answer(
        sales, "SELECT COUNT(*) FROM t WHERE CAST(REPLACE(\"Total\", ',', '') AS REAL) > 1000"
    ) == [0]


def test_race_times_with_tenths_are_seconds_in_sqlite_too() -> None:
    times = Table.from_rows(
        "t",
        ["Rider", "Time"],
        [["a", "00:25:12.3"], ["b", "00:24:31.5"], ["c", "01:02:03.4"]],
        value_rules="user",
    )
    program = Program.parse("(average all_rows r.time-number)")
    answer = bind("wtq", times, []).execute(program).answer
    rendering = render_sql(program, times, language="wtq")
    assert rendering.exact and sql_agrees(times, rendering.sql, answer)
    assert math.isclose(answer[0], (1512.3 + 1471.5 + 3723.4) / 3)


def test_a_missing_marker_is_blank_in_sqlite_too() -> None:
    table = Table.from_rows(
        "t", ["Country", "5G"], [["A", "85.0"], ["B", ".."], ["C", ""], ["D", "40.5"]], value_rules="user"
    )
    blank = Literal("string", ("",))
    program = Program(
        (Expr("filter_str_contain_any", (ALL_ROWS, blank, Column("r.5g-string"))), Expr("count", (Ref(0),)))
    )
    answer = bind("wtq", table, [("string", ("",))]).execute(program).answer
    rendering = render_sql(program, table, language="wtq")
    assert answer == [2.0] and rendering.exact and sql_agrees(table, rendering.sql, answer)


def test_readings_sqlite_cannot_reproduce_are_approximate_and_say_why() -> None:
    table = Table.from_rows(
        "n",
        ["Name", "Goals"],
        [["Turkey (TUR)", "Eleven"], ["Chad", "3"], ["Peru", "twelve"], ["Togo (TGO)", "4"]],
    )
    env = bind("wtq", table, [("string", ("tgo",))])
    # number words: the WTQ rules read "Eleven" as 11, sqlite as 0
    best = Program.parse("(argmax all_rows r.goals-number) (hop v0 r.name-string)")
    rendering = render_sql(best, table, language="wtq")
    assert not rendering.exact and rendering.note is not None and "'Eleven'" in rendering.note
    assert not sql_agrees(table, rendering.sql, env.execute(best).answer)  # sqlite's answer does differ
    assert execute_sql(table, rendering.sql) == ["Peru"]  # nsm's own SQL interpreter reads the view
    # containment: the string view drops "(TGO)", LIKE sees it
    tur = Program.parse('(filter_str_contain_any all_rows "tgo" r.name-string) (count v0)')
    rendering = render_sql(tur, table, language="wtq")
    assert not rendering.exact and "LIKE '%tgo%'" in (rendering.note or "")
    assert not sql_agrees(table, rendering.sql, env.execute(tur).answer)
    # only sqlite renderings are checked
    count = Program.parse("(count all_rows)")
    assert render_sql(count, table, language="wtq").exact
    assert not render_sql(count, table, "postgres", language="wtq").exact


def test_sql_of_user_table_filters_says_where_it_differs_from_whole_word_and_partial_date_matching():
    rows = [["April 1, 2024", "44"], ["April 10, 2024", "52"], ["March 3, 2024", "40"]]
    user = Table.from_rows("w", ["Date", "Low"], rows, value_rules="user")
    wtq = Table.from_rows("w", ["Date", "Low"], rows)
    april_1 = Program.parse('(filter_str_contain_any all_rows "april 1" r.date-string) (count v0)')
    rendering = render_sql(april_1, user, language="wtq")  # LIKE finds April 10, the whole-word test not
    assert not rendering.exact and "'April 10, 2024'" in (rendering.note or "")
    assert not sql_agrees(user, rendering.sql, bind("wtq", user).execute(april_1).answer)
    assert render_sql(april_1, wtq, language="wtq").exact  # MAPO's substring test is LIKE's
    march = Program.parse('(filter_str_contain_any all_rows "march" r.date-string) (count v0)')
    assert render_sql(march, user, language="wtq").exact
    # a date with unknown fields matches any of them on a user table: no SQL form
    in_april = Program.parse("(filter_eq all_rows xxxx-04-xx r.date-date) (count v0)")
    with pytest.raises(GrammarError, match="unknown fields"):
        render_sql(in_april, user, language="wtq")
    full = Program.parse("(filter_eq all_rows 2024-04-01 r.date-date) (count v0)")
    assert render_sql(full, user, language="wtq").exact


@pytest.mark.parametrize(
    ("cells", "kind", "view"),
    [
        (["Lancaster (3-1)", "Smith (3-6)", "Drabek (13-10)"], "num2", None),
        (["16 September 1992", "1 July 1982", "n/a"], "num2", None),
        (["Tikka -88", "Espoon Tikka / -88", "[44]"], "number", None),
        (["August 1", "22 June", "1943", "2005-08-23", "June, 2007", "2024-03-15T10:00"], "date", None),
        (["03/15/2024", "12/01/2023", "n/a"], "date", None),
        # as a reader that decides day-first for this column and reads date-times would type them
        (["15/03/2024", "01/12/2023", "n/a"], "date", (Date(2024, 3, 15), Date(2023, 12, 1), None)),
        (["2024-03-15T10:00", "2024-03-16T09:30"], "date", (Date(2024, 3, 15), Date(2024, 3, 16))),
        # times of day as the user rules read them: a number of hours
        (["2024-03-15T10:00", "2024-03-16T09:30:15", "n/a"], "number", (10.0, 9.5 + 15 / 3600, None)),
        (["18:05", "7:30", "00:45"], "number", (18 + 5 / 60, 7.5, 0.75)),
    ],
)
def test_views_with_a_verified_sql_reading(cells: list[str], kind: str, view: tuple | None) -> None:
    """Readings sqlite reproduces cell for cell, whichever rule produced the view."""
    from nsmcli.worlds.tables.lang.sqlviews import view_sql

    table = Table.from_rows("v", ["C", "Row"], [[c, str(i)] for i, c in enumerate(cells)])
    column = table.columns[0]
    if view is not None:
        column.views[kind] = view
    assert kind in column.views
    reading = view_sql(column, kind)
    assert reading.exact, reading.note
    program = Program.parse(f"(argmax all_rows r.c-{kind}) (hop v0 r.row-string)")
    rendering = render_sql(program, table, language="wtq")
    answer = bind("wtq", table).execute(program).answer
    assert rendering.exact and sql_agrees(table, rendering.sql, answer), (rendering.sql, answer)


_CELL_TEXT = st.one_of(
    st.text(max_size=12),
    st.sampled_from(
        [
            "nan",
            "NaN",
            "inf",
            "-inf",
            "1e400",
            "2024-03-15",
            "1,234",
            "3.50",
            "A.",
            " x ",
            "(b)",
            "a\n(b)",
            "x (y) (z)",
        ]
    ),
    st.from_regex(r"[+-]?\d{1,4}(\.\d{1,3})?", fullmatch=True),
)


@settings(max_examples=400, deadline=None)
@given(text=_CELL_TEXT, keep_duplicates=st.booleans())
def test_the_one_text_shortcut_answers_as_the_typed_check(text: str, keep_duplicates: bool) -> None:
    """`answers_agree` skips typing when one identical text stands on both sides (a projection checks every
    row of its column so); its answer must be the typed check's, for any text, NaN-looking ones included."""
    assert answers_agree([text], [text], keep_duplicates) == _answers_agree_typed(
        [text], [text], keep_duplicates
    )
