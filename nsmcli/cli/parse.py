"""`nsm parse`: answer questions about any table with a trained model."""

from __future__ import annotations

from pathlib import Path

import typer

from nsmcli.cli.output import answer_text, print_json, safe, stderr, stdout, steps_table, warn
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
        help="rerank: the model's reranker (reranker.json; on your own files reranker-user.json where the model "
        "has one) when it has one, else answer; answer: the most "
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
    runner_up: bool = typer.Option(
        False,
        "--runner-up",
        help="When the choice was close, show the best other answer and what its program reads.",
    ),
    remember: Path = typer.Option(
        None,
        "--remember",
        metavar="FILE",
        help="Write the question, its table and the right answer (--answer, else asked on a terminal) to "
        "the question file FILE, for nsm rerank --questions or nsm preprocess tables. The table must be a "
        "file that reads without --format or --encoding.",
    ),
    right_answer: str = typer.Option(
        None,
        "--answer",
        metavar="TEXT",
        help="With --remember: the right answer (several separated by |), instead of asking.",
    ),
) -> None:
    """Answer a question about a table: the answer, the program, each intermediate result and the SQL.

    Examples:

    \b
      nsm parse "which nation won the most gold?" examples/tables/medals.csv
      nsm parse "how many cities are in spain?" examples/tables/cities.csv \\
          --model wikisql --json
      nsm parse --questions examples/questions.tsv
      nsm parse "which nation won the most gold?" medals.csv --remember mine.tsv

    A close choice (another answer scored nearly as high) is said so; --runner-up shows that other answer
    ("or, close behind: ..."). --remember keeps the answer you confirm, so that your own questions can
    check a model (nsm parse --questions) or refit its reranker (nsm rerank --questions).
    """
    from nsmcli.parser import Parser

    if questions is None and (question is None or table_path is None):
        raise DataError("give a QUESTION and a TABLE, or --questions FILE")
    if questions is not None and (question is not None or table_path is not None):
        raise DataError("give either a QUESTION and a TABLE or --questions FILE, not both")
    _check_remember(remember, right_answer, table_path, questions, json_out, table_format, encoding)
    table = None if table_path is None else load_table(table_path, format=table_format, encoding=encoding)
    parser = Parser.load(model)
    if questions is not None:
        _parse_file(parser, questions, beam, sql_dialect, json_out, vote, quiet, sql_check, runner_up)
        return
    result = parser.parse(question, table, beam=beam, sql_dialect=sql_dialect, vote=vote, sql_check=sql_check)
    for message in [] if quiet else result.warnings:
        warn(message)
    remembered = None
    if json_out:
        if remember is not None:
            remembered = _remember(remember, table_path, question, right_answer.split("|"))
        print_json({**result.to_json(), **({"remembered": remembered} if remembered else {})})
    else:
        if result.program is None:
            stdout.print("[bold red]no program found[/] for this question on this table")
        else:
            _show(result, sql_check, runner_up)
        if remember is not None:
            answers = right_answer.split("|") if right_answer is not None else _ask_answer(result, table)
            if answers is None:
                stdout.print("[bold]not remembered[/]")
            else:
                remembered = _remember(remember, table_path, question, answers)
                verb = "replaced the answer in" if remembered["replaced"] else "written to"
                shown = " | ".join(remembered["answer"])
                stdout.print(f"[bold]remembered:[/] {safe(shown)}  ({verb} {safe(remember)})")
    if result.program is None:
        raise typer.Exit(1)


def _check_remember(
    remember: Path | None,
    right_answer: str | None,
    table_path: str | None,
    questions: Path | None,
    json_out: bool,
    table_format: str | None,
    encoding: str | None,
) -> None:
    """--remember's faults, told before the table is read and the model decodes."""
    import sys

    from nsmcli.fileio import check_output_file
    from nsmcli.worlds.tables.data.readers import clean_answers, is_url, remembered_table

    if remember is None:
        if right_answer is not None:
            raise DataError("--answer goes with --remember FILE (nsm parse --questions checks answers)")
        return
    if questions is not None:
        raise DataError("--remember takes one QUESTION and its TABLE, not --questions (that file has them)")
    if table_path == "-" or is_url(table_path):
        raise DataError(
            "--remember needs a table file (save the table first): a question file names its table"
        )
    if table_format is not None or encoding is not None:  # a question file's line cannot say them
        raise DataError(
            "--remember cannot keep --format or --encoding: save the table as UTF-8 with its format's extension"
        )
    if right_answer is None and (json_out or not sys.stdin.isatty()):
        raise DataError(
            "--remember needs --answer TEXT "
            + ("with --json" if json_out else "when standard input is not a terminal")
        )
    if right_answer is not None:
        try:
            clean_answers(right_answer.split("|"))
        except DataError as exc:
            raise DataError(f"--answer: {exc} (several answers are separated by |)") from None
    check_output_file(remember)
    remembered_table(remember, table_path)


#: What the --remember prompt takes as "skip" (any case).
SKIP = "x"


def _ask_answer(result, table) -> list[str] | None:
    """The right answer as the user confirms it on the terminal: Enter takes the answer, 2 the runner-up
    (offered, with its answer, when the choice was close), x skips, and anything else is the answer itself
    (=TEXT for a literal 2 or x). An answer is offered only in a form the answer check accepts for it."""
    from nsmcli.worlds.tables.data.readers import clean_answers

    first = _checkable(result, table) if result.program is not None else None
    second = _checkable(result.runner_up, table) if result.close else None
    choices = ([f"Enter: {answer_text(first)}"] if first else []) + (
        [f"2: {answer_text(second)}"] if second else []
    )
    prompt = f"right answer? ({'; '.join([*choices, f'{SKIP}: skip', 'or type it'])}) "
    while True:
        try:
            typed = stderr.input(safe(prompt)).strip()
        except EOFError:  # Ctrl-D skips; Ctrl-C interrupts, as everywhere
            return None
        if typed.lower() == SKIP:
            return None
        if typed == "" and first:
            return first
        if typed == "2" and second:
            return second
        typed = typed.removeprefix("=").strip()
        if not typed:
            continue
        try:
            return clean_answers(typed.split("|"))
        except DataError as exc:
            warn(f"{exc}; type it again (several answers are separated by |)")


def _checkable(found, table) -> list[str] | None:
    """The answer of `found` (a result or its runner-up) as text that the answer check takes as right for
    it: the cells as shown, else the plain values (a display such as "61.35 million" is not one); None when
    neither can be written to a question file."""
    from nsmcli.display import value_text
    from nsmcli.parser import answer_matches
    from nsmcli.worlds.tables.data.readers import clean_answers

    for answers in (found.display, [value_text(v) for v in found.answer]):
        try:
            written = clean_answers(answers)
        except DataError:
            continue
        if answer_matches(written, found, table):
            return written
    return None


def _remember(path: Path, table_path: str, question: str, answers: list[str]) -> dict:
    from nsmcli.worlds.tables.data.readers import remember_answer

    replaced, written = remember_answer(path, Path(table_path), question, answers)
    return {"file": str(path), "answer": written, "replaced": replaced}


def _show(result, sql_check: bool = False, runner_up: bool = False) -> None:
    stdout.print(f"[bold]answer:[/] {safe(answer_text(result.display))}")
    stdout.print(
        f"[bold]program:[/] {safe(result.program)}  "
        f"(p = {result.probability:.2f}; answer p = {result.answer_probability:.2f}"
        + ("; chosen by the model's reranker)" if result.chosen_by == "rerank" else ")")
    )
    if result.reading:
        stdout.print(f"[bold]reads:[/] {safe(result.reading)}")
    for line in _close_lines(result, runner_up):
        stdout.print(f"[bold]{line[0]}:[/] {safe(line[1])}")
    stdout.print(steps_table(result.steps))
    for line in _sql_lines(result, sql_check):
        stdout.print(f"[bold]{line[0]}:[/] {safe(line[1])}")


def _close_lines(result, runner_up: bool) -> list[tuple[str, str]]:
    """(label, text) lines after a close choice: with `runner_up` the runner-up's answer and what its program
    reads, else a note that the choice was close (close first choices are right far less often than the
    rest; BENCHMARKS.md, forty-sixth session)."""
    if not result.close:
        return []
    if not runner_up:
        return [("a close choice", "another answer scored nearly as high (--runner-up shows it)")]
    other = result.runner_up
    reading = f" (reads: {other.reading})" if other.reading else ""
    return [("or, close behind", f"{answer_text(other.display)}{reading}")]


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
    runner_up: bool = False,
) -> None:
    records, n_known, n_right, n_close_right = [], 0, 0, 0
    cases = parser.parse_file(path, beam=beam, sql_dialect=sql_dialect, vote=vote, sql_check=sql_check)
    for case, result, correct, runner_up_correct in cases:
        close_right = bool(result.close and runner_up_correct and not correct)
        if correct is not None:
            n_known += 1
            n_right += correct
            n_close_right += close_right
        if json_out:
            records.append(
                {
                    "table": str(case.table),
                    "expected": case.answer,
                    "correct": correct,
                    "runner_up_correct": runner_up_correct,
                    **result.to_json(),
                }
            )
            continue
        mark = {True: "[green]right[/]", False: "[red]wrong[/]", None: ""}[correct]
        if close_right and runner_up:
            mark += " [yellow](the close runner-up is right)[/]"
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
            for label, text in [
                *_close_lines(result, runner_up),
                *_sql_lines(result, sql_check),
            ]:
                stdout.print(f"  {label}: {safe(text)}")
    if json_out:
        print_json(
            {
                "questions": records,
                "answered_correctly": n_right,
                "with_answers": n_known,
                "close_runner_up_correct": n_close_right,
            }
        )
    elif n_known:
        stdout.print(
            f"\n[bold]{n_right} of {n_known}[/] questions answered correctly"
            + (
                f"; the close runner-up shown was right for {n_close_right} more"
                if n_close_right and runner_up
                else ""
            )
        )
