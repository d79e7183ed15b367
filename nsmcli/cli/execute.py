"""`nsm execute`: run a program on a table, showing every intermediate result and the SQL form."""

from __future__ import annotations

from pathlib import Path

import typer

from nsmcli.cli.output import answer_text, error, print_json, safe, stderr, stdout, steps_table, warn
from nsmcli.data.annotate import annotate_question
from nsmcli.data.readers import load_table
from nsmcli.errors import GrammarError
from nsmcli.lang.interpreter import answer_cells, bind, describe_step
from nsmcli.lang.program import parse_program
from nsmcli.lang.spec import available_languages, get_language


def execute(
    program: str = typer.Argument(
        ..., help="Program text, e.g. '(argmax all_rows r.gold-number) (hop v0 r.nation-string)'."
    ),
    table_path: Path = typer.Argument(..., metavar="TABLE", help="A CSV, TSV or JSONL table."),
    question: str = typer.Option(
        "", "--question", help="Question whose entities (strings, numbers, dates) the program may use."
    ),
    language: str = typer.Option(
        "wtq", "--language", help=f"Program language: {', '.join(available_languages())}."
    ),
    sql_dialect: str = typer.Option(
        "sqlite", "--sql", help="Dialect of the SQL rendering (any sqlglot writes)."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print everything as JSON."),
) -> None:
    """Execute a program over a table and show its answer, intermediate results and SQL.

    Columns are named r.<column>-<view> with view string, number, num2 or date; `nsm execute` lists them
    when a name is unknown.

    Example:

      nsm execute '(argmax all_rows r.gold-number) (hop v0 r.nation-string)' examples/tables/medals.csv
    """
    from nsmcli.lang.sql import check_dialect

    check_dialect(sql_dialect)
    table = load_table(table_path)
    spec = get_language(language)
    entities = annotate_question(question, table).entities if question else []
    env = bind(spec, table, entities)
    warning = env.reach_warning()
    if warning:
        warn(warning)
    result = env.execute(program)
    sql, sql_exact, sql_note = None, False, None
    if result.ok:
        try:
            from nsmcli.lang.sql import render_sql

            rendering = render_sql(parse_program(program), table, dialect=sql_dialect, language=spec.name)
            sql, sql_exact, sql_note = rendering.sql, rendering.exact, rendering.note
        except GrammarError as exc:
            sql = None if json_out else f"-- {exc}"
    columns = [str(a) for a in env.constant_args if str(a).startswith("r.")]
    steps = [describe_step(e, t, v, table) for e, t, v in result.intermediates]
    if json_out:
        print_json(
            {
                "program": result.program,
                "answer": result.answer,
                "answer_cells": answer_cells(result, env),
                "warnings": [warning] if warning else [],
                "type": result.type,
                "error": result.error,
                "sql": sql,
                "sql_exact": sql_exact,
                "sql_note": sql_note,
                "columns": columns,
                "steps": steps,
            }
        )
    else:
        if steps:
            stdout.print(steps_table(steps))
        if result.ok:
            cells = answer_cells(result, env)
            stdout.print(f"[bold]answer:[/] {safe(answer_text(result.answer if cells is None else cells))}")
            if sql:
                label = "sql" if sql_exact or sql_note is None else f"sql (approximate: {sql_note})"
                stdout.print(f"[bold]{label}:[/] {safe(sql)}")
        else:
            error(result.error or "the program failed")
            if "unknown column" in (result.error or ""):
                stderr.print(f"columns: {safe(', '.join(columns))}")
    if not result.ok:
        raise typer.Exit(1)
