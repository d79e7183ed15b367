"""`nsm parse`: answer a question about any table with a trained model."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table as RichTable

from nsmcli.cli.output import print_json, safe, stdout


def parse(
    question: str = typer.Argument(..., help="The question, in English."),
    table_path: Path = typer.Argument(..., metavar="TABLE", help="A CSV, TSV or JSONL table."),
    model: str = typer.Option(
        None,
        "--model",
        help="A run directory from nsm train, or the name of a bundled model: wtq (default) or wikisql.",
    ),
    beam: int = typer.Option(5, "--beam", min=1, help="Beam size (1 = greedy)."),
    sql_dialect: str = typer.Option(
        "sqlite", "--sql", help="Dialect of the SQL rendering (any sqlglot writes)."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print everything as JSON."),
) -> None:
    """Answer a question about a table: the answer, the program, each intermediate result and the SQL.

    Examples:

      nsm parse "which nation won the most gold medals?" examples/tables/medals.csv

      nsm parse "how many cities are in spain?" examples/tables/cities.csv --model wikisql --json
    """
    from nsmcli.parser import Parser

    parser = Parser.load(model)
    result = parser.parse(question, table_path, beam=beam, sql_dialect=sql_dialect)
    if json_out:
        print_json(result.to_json())
    elif result.program is None:
        stdout.print("[bold red]no program found[/] for this question on this table")
    else:
        stdout.print(f"[bold]answer:[/] {safe(', '.join(str(a) for a in result.answer))}")
        stdout.print(f"[bold]program:[/] {safe(result.program)}  (p = {result.probability:.2f})")
        steps = RichTable(show_header=True, header_style="bold")
        for column in ("#", "expression", "result"):
            steps.add_column(column)
        for i, step in enumerate(result.steps):
            values = ", ".join(str(v) for v in step["values"][:8])
            steps.add_row(f"v{i}", safe(step["expression"]), safe(f"{step['type']}: {values}"))
        stdout.print(steps)
        if result.sql:
            stdout.print(f"[bold]sql:[/] {safe(result.sql)}")
    if result.program is None:
        raise typer.Exit(1)
