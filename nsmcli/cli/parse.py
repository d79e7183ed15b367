"""`nsm parse`: answer questions about any table with a trained model."""

from __future__ import annotations

from pathlib import Path

import typer

from nsmcli.cli.output import answer_text, print_json, safe, stdout, steps_table, warn
from nsmcli.errors import DataError
from nsmcli.train.config import MAX_BEAM
from nsmcli.worlds.tables.data.readers import FORMATS, load_table


def parse(
    question: str = typer.Argument(None, metavar="QUESTION", help="The question, in English."),
    table_path: str = typer.Argument(
        None,
        metavar="TABLE",
        help="A table file (.csv .tsv .txt .json .jsonl .xlsx .parquet), an http(s) URL, or - for stdin.",
    ),
    model: str = typer.Option(
        None,
        "--model",
        help="A run directory from nsm train, or a bundled model: wtq (default), wtq-glove, wikisql or "
        "wikisql-glove.",
    ),
    questions: Path = typer.Option(
        None,
        "--questions",
        help="Answer every line of a TSV file (table, question[, answer]) instead; "
        "with answers, also count how many are right.",
    ),
    beam: int = typer.Option(
        5, "--beam", min=1, max=MAX_BEAM, help=f"Beam size (1 = greedy; at most {MAX_BEAM})."
    ),
    sql_dialect: str = typer.Option(
        "sqlite", "--sql", help="Dialect of the SQL rendering (any sqlglot writes)."
    ),
    vote: str = typer.Option(
        "rerank",
        "--vote",
        help="rerank: the model's reranker (reranker.json) when it has one, else answer; answer: the most "
        "probable program of the answer the beam's programs favour together; program: the most probable "
        "program (the original's choice).",
    ),
    sql_check: bool = typer.Option(
        False, "--sql-check", help="Run the SQL in sqlite on the table and say whether it gives the answer."
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
    """Answer a question about a table: the answer, the program, each intermediate result and the SQL.

    Examples:

    \b
      nsm parse "which nation won the most gold?" examples/tables/medals.csv
      nsm parse "how many cities are in spain?" examples/tables/cities.csv \\
          --model wikisql --json
      nsm parse --questions examples/questions.tsv
    """
    from nsmcli.parser import Parser

    if questions is None and (question is None or table_path is None):
        raise DataError("give a QUESTION and a TABLE, or --questions FILE")
    if questions is not None and (question is not None or table_path is not None):
        raise DataError("give either a QUESTION and a TABLE or --questions FILE, not both")
    table = None if table_path is None else load_table(table_path, format=table_format, encoding=encoding)
    parser = Parser.load(model)
    if questions is not None:
        _parse_file(parser, questions, beam, sql_dialect, json_out, vote, quiet, sql_check)
        return
    result = parser.parse(question, table, beam=beam, sql_dialect=sql_dialect, vote=vote, sql_check=sql_check)
    for message in [] if quiet else result.warnings:
        warn(message)
    if json_out:
        print_json(result.to_json())
    elif result.program is None:
        stdout.print("[bold red]no program found[/] for this question on this table")
    else:
        _show(result, sql_check)
    if result.program is None:
        raise typer.Exit(1)


def _show(result, sql_check: bool = False) -> None:
    stdout.print(f"[bold]answer:[/] {safe(answer_text(result.display))}")
    stdout.print(
        f"[bold]program:[/] {safe(result.program)}  "
        f"(p = {result.probability:.2f}; answer p = {result.answer_probability:.2f}"
        + ("; chosen by the model's reranker)" if result.chosen_by == "rerank" else ")")
    )
    if result.reading:
        stdout.print(f"[bold]reads:[/] {safe(result.reading)}")
    stdout.print(steps_table(result.steps))
    for line in _sql_lines(result, sql_check):
        stdout.print(f"[bold]{line[0]}:[/] {safe(line[1])}")


def _sql_lines(result, sql_check: bool) -> list[tuple[str, str]]:
    """(label, text) lines for the SQL: marked approximate when it is, and the --sql-check verdict."""
    lines = []
    if result.sql:
        lines.append(("sql" if result.sql_exact else f"sql (approximate: {result.sql_note})", result.sql))
    if sql_check:
        if result.sql_check is None:
            verdict = "the program has no SQL form"
        else:
            verdict = f"sqlite's answer {'agrees with' if result.sql_check else 'DIFFERS from'} the program's"
        lines.append(("sql check", verdict))
    return lines


def _parse_file(
    parser,
    path: Path,
    beam: int,
    sql_dialect: str,
    json_out: bool,
    vote: str,
    quiet: bool = False,
    sql_check: bool = False,
) -> None:
    records, n_known, n_right = [], 0, 0
    cases = parser.parse_file(path, beam=beam, sql_dialect=sql_dialect, vote=vote, sql_check=sql_check)
    for case, result, correct in cases:
        if correct is not None:
            n_known += 1
            n_right += correct
        if json_out:
            records.append(
                {"table": str(case.table), "expected": case.answer, "correct": correct, **result.to_json()}
            )
            continue
        mark = {True: "[green]right[/]", False: "[red]wrong[/]", None: ""}[correct]
        stdout.print(f"\n[bold]{safe(case.question)}[/]  ({safe(case.table.name)}) {mark}")
        for message in [] if quiet else result.warnings:
            warn(message)
        if result.program is None:
            stdout.print("no program found")
        else:
            stdout.print(
                f"  answer: {safe(answer_text(result.display))}"
                + (f"   expected: {safe(' | '.join(case.answer))}" if case.answer else "")
            )
            stdout.print(f"  program: {safe(result.program)}")
            if result.reading:
                stdout.print(f"  reads: {safe(result.reading)}")
            for label, text in _sql_lines(result, sql_check):
                stdout.print(f"  {label}: {safe(text)}")
    if json_out:
        print_json({"questions": records, "answered_correctly": n_right, "with_answers": n_known})
    elif n_known:
        stdout.print(f"\n[bold]{n_right} of {n_known}[/] questions answered correctly")
