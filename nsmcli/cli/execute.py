"""`nsm execute`: run a program on a table, showing every intermediate result and the SQL form."""

from __future__ import annotations

import typer

from nsmcli.cli.output import answer_text, print_json, safe, stdout, steps_table, warn
from nsmcli.errors import GrammarError
from nsmcli.worlds.tables.data.annotate import annotate_question
from nsmcli.worlds.tables.data.readers import FORMATS, load_table
from nsmcli.worlds.tables.lang.interpreter import bind, describe_step, shown_answer
from nsmcli.worlds.tables.lang.program import parse_program
from nsmcli.worlds.tables.lang.spec import available_languages, get_language


def execute(
    program: str = typer.Argument(
        ...,
        metavar="PROGRAM",
        help="Program text, e.g. '(argmax all_rows r.gold-number) (hop v0 r.nation-string)'.",
    ),
    table_path: str = typer.Argument(
        ...,
        metavar="TABLE",
        help="A table file (.csv .tsv .txt .json .jsonl .xlsx .parquet), an http(s) URL, or - for stdin.",
    ),
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
    quiet: bool = typer.Option(
        False, "--quiet", "-q", help="No warnings on stderr (--json still lists them)."
    ),
    table_format: str = typer.Option(
        None, "--format", help=f"The table's format when its name does not say: {', '.join(FORMATS)}."
    ),
    encoding: str = typer.Option(None, "--encoding", help="The table's text encoding (default UTF-8)."),
) -> None:
    """Execute a program over a table and show its answer, intermediate results and SQL.

    Columns are named r.<column>-<view> with view string, number, num2 or date; `nsm execute` lists them
    when a name is unknown. Strings, numbers and dates in a program must be entities of --question.

    Examples:

    \b
      nsm execute '(argmax all_rows r.gold-number) (hop v0 r.nation-string)' \\
          examples/tables/medals.csv
      nsm execute '(filter_str_contain_any all_rows "kenya" r.nation-string)' \\
          examples/tables/medals.csv --question "which rows are kenya?"
    """
    from nsmcli.worlds.tables.lang.sql import check_dialect

    check_dialect(sql_dialect)
    table = load_table(table_path, format=table_format, encoding=encoding)
    spec = get_language(language)
    annotated = annotate_question(question, table) if question else None
    env = bind(spec, table, annotated.entities if annotated else [])
    warnings = [*table.notes, *(w for w in (env.reach_warning(),) if w)]
    for message in [] if quiet else warnings:
        warn(message)
    result = env.execute(program)
    columns = [str(a) for a in env.constant_args if str(a).startswith("r.")]
    if not result.ok:
        raise GrammarError(_program_error(result.error or "the program failed", columns))
    sql, sql_exact, sql_note = None, False, None
    try:
        from nsmcli.worlds.tables.lang.sql import render_sql

        rendering = render_sql(parse_program(program), table, dialect=sql_dialect, language=spec.name)
        sql, sql_exact, sql_note = rendering.sql, rendering.exact, rendering.note
    except GrammarError as exc:
        sql = None if json_out else f"-- {exc}"
    steps = [describe_step(e, t, v, table) for e, t, v in result.intermediates]
    answer, display = shown_answer(result, env, annotated.tokens if annotated else ())
    if json_out:
        print_json(
            {
                "program": result.program,
                "answer": answer,
                "display": display,
                "warnings": warnings,
                "type": result.type,
                "sql": sql,
                "sql_exact": sql_exact,
                "sql_note": sql_note,
                "columns": columns,
                "steps": steps,
            }
        )
        return
    if steps:
        stdout.print(steps_table(steps))
    stdout.print(f"[bold]answer:[/] {safe(answer_text(display))}")
    if sql:
        label = "sql" if sql_exact or sql_note is None else f"sql (approximate: {sql_note})"
        stdout.print(f"[bold]{label}:[/] {safe(sql)}")


def _program_error(message: str, columns: list[str], shown: int = 40) -> str:
    """A failed program's error as one line: with the table's column names when a name is unknown, and
    with the fix when a string or number is not an entity of the question."""
    if "unknown column" in message:
        more = f", ... ({len(columns)} in all)" if len(columns) > shown else ""
        return f"{message}; columns: {', '.join(columns[:shown])}{more}"
    if message.endswith("is not an entity of this question"):
        return f'{message}; give the question that mentions it with --question "..."'
    return message
