"""`nsm`: the command line. Each command parses options, calls one library function, renders the result.

Exit codes: 0 success, 1 the command ran but its check failed, 2 it could not run (bad input; one line on
stderr). Set NSM_DEBUG=1 to see tracebacks.
"""

from __future__ import annotations

import os
import sys

import typer

from nsmcli import __version__
from nsmcli.cli import evaluate as evaluate_cmd
from nsmcli.cli import execute as execute_cmd
from nsmcli.cli import explore as explore_cmd
from nsmcli.cli import parse as parse_cmd
from nsmcli.cli import preprocess as preprocess_cmd
from nsmcli.cli import train as train_cmd
from nsmcli.cli.output import error
from nsmcli.errors import NsmError

app = typer.Typer(
    name="nsm",
    help="Neural Symbolic Machines for tables: learn to answer questions over tables from question-answer "
    "pairs alone, and ask questions about any CSV.\n\n"
    'Ask a bundled model:  nsm parse "which nation won the most gold medals?" examples/tables/medals.csv\n\n'
    "Train your own:  nsm preprocess wtq -> nsm explore -> nsm train -> nsm eval.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


def _version(value: bool) -> None:
    if value:
        print(f"nsm {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version."
    ),
) -> None:
    """Neural Symbolic Machines for tables."""


app.command("preprocess", no_args_is_help=True)(preprocess_cmd.preprocess)
app.command("explore", no_args_is_help=True)(explore_cmd.explore)
app.command("train", no_args_is_help=True)(train_cmd.train)
app.command("eval", no_args_is_help=True)(evaluate_cmd.eval_)
app.command("parse", no_args_is_help=True)(parse_cmd.parse)
app.command("execute", no_args_is_help=True)(execute_cmd.execute)


def main() -> None:
    """Console entry point: known errors become one line and exit code 2.

    Typer's standalone mode handles usage errors itself (exit 2, with the usage line); everything else that
    escapes a command lands here.
    """
    try:
        app()
    except NsmError as exc:
        if os.environ.get("NSM_DEBUG"):
            raise
        error(str(exc))
        sys.exit(2)
    except KeyboardInterrupt:
        error("interrupted; files already written are complete (writes are atomic)")
        sys.exit(130)
    except Exception as exc:
        if os.environ.get("NSM_DEBUG"):
            raise
        error(f"internal error: {type(exc).__name__}: {exc} (set NSM_DEBUG=1 for the traceback)")
        sys.exit(1)
