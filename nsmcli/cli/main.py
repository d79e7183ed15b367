"""`nsm`: the command line. Each command parses options, calls one library function, renders the result.

Exit codes: 0 success, 1 the command ran but its check failed, 2 it could not run (bad input, a usage
error; one line on stderr). Set NSM_DEBUG=1 to see tracebacks.

Help is click's plain layout (it wraps to the terminal and keeps option names whole at 80 columns, also when
piped); `-h` and `--help` both show it, as does a command given no arguments.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

import typer

from nsmcli import __version__
from nsmcli.cli import evaluate as evaluate_cmd
from nsmcli.cli import execute as execute_cmd
from nsmcli.cli import explore as explore_cmd
from nsmcli.cli import helpfmt
from nsmcli.cli import karel as karel_cmd
from nsmcli.cli import parse as parse_cmd
from nsmcli.cli import plot as plot_cmd
from nsmcli.cli import preprocess as preprocess_cmd
from nsmcli.cli import rerank as rerank_cmd
from nsmcli.cli import synthesize as synthesize_cmd
from nsmcli.cli import train as train_cmd
from nsmcli.cli.output import error
from nsmcli.errors import NsmError

try:  # typer >= 0.24 carries its own copy of click
    from typer._click.exceptions import ClickException, UsageError
except ImportError:  # pragma: no cover - older typer on click
    from click.exceptions import ClickException, UsageError
try:
    from typer._click.exceptions import NoArgsIsHelpError
except ImportError:  # pragma: no cover - click < 8.2 prints the help and exits 0 itself
    try:
        from click.exceptions import NoArgsIsHelpError
    except ImportError:
        NoArgsIsHelpError = None

helpfmt.install()

app = typer.Typer(
    name="nsm",
    help="Neural Symbolic Machines for tables: learn to answer questions over tables from question-answer "
    "pairs alone, and ask questions about any CSV.\n\n"
    "\b\nAsk a bundled model:\n"
    '  nsm parse "which nation won the most gold?" examples/tables/medals.csv\n\n'
    "\b\nTrain your own:\n  nsm preprocess -> nsm explore -> nsm train -> nsm eval (-> nsm plot)\n\n"
    "Run nsm COMMAND -h for a command's options.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
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


#: Each command and the one line `nsm -h` lists for it (click would cut the docstring's first sentence).
COMMANDS = {
    "preprocess": (preprocess_cmd.preprocess, "Annotate a dataset release for exploration and training."),
    "synthesize": (
        synthesize_cmd.synthesize,
        "Add templated questions with programs (sums, averages) to a dataset.",
    ),
    "explore": (explore_cmd.explore, "Search each question's consistent programs (resumable)."),
    "train": (train_cmd.train, "Train a parser with MAPO from question-answer pairs."),
    "eval": (evaluate_cmd.eval_, "Accuracy of a trained run or ensemble on a split."),
    "rerank": (rerank_cmd.rerank, "Fit a reranker of a model's beam on held-out questions."),
    "parse": (parse_cmd.parse, "Answer a question about a table with a trained model."),
    "execute": (execute_cmd.execute, "Run a program over a table, step by step, with its SQL."),
    "run-program": (
        karel_cmd.run_program,
        "Run a Karel program on a task's state: the world before and after.",
    ),
    "plot": (plot_cmd.plot, "Draw training curves of runs (dev accuracy, reward, coverage)."),
}
for _name, (_function, _summary) in COMMANDS.items():
    app.command(_name, no_args_is_help=True, short_help=_summary)(_function)


def main(args: list[str] | None = None, fast_exit: bool = False) -> None:
    """Run `nsm` on `args` (default: the command line). Usage errors and known errors become one line on
    stderr and exit code 2; a command or `nsm` given no arguments prints its help and exits 0.

    `fast_exit` (the console command, `console`): a command of `FAST_EXIT_COMMANDS` ends the process as soon
    as its output is flushed, without the interpreter's teardown of every imported module, unless a profiler
    or tracer runs or NSM_NO_FAST_EXIT is set (`_nothing_runs_at_exit`)."""
    fast = fast_exit and _command_name(args) in FAST_EXIT_COMMANDS and _nothing_runs_at_exit()
    exit_ = _exit_fast if fast else sys.exit
    try:
        code = app(args=args, prog_name="nsm", standalone_mode=False)
        sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
        exit_(code if isinstance(code, int) else 0)
    except UsageError as exc:
        if NoArgsIsHelpError is not None and isinstance(exc, NoArgsIsHelpError):
            print(exc.format_message())
            exit_(0)
        error(_usage_line(exc))
        exit_(2)
    except ClickException as exc:  # e.g. a file click itself could not open
        error(exc.format_message())
        exit_(2)
    except NsmError as exc:
        if os.environ.get("NSM_DEBUG"):
            raise
        error(str(exc))
        exit_(2)
    except (KeyboardInterrupt, typer.Abort):
        error("interrupted; files already written are complete (writes are atomic)")
        exit_(130)
    except BrokenPipeError:  # `nsm ... | head -1`: the reader has what it wanted; exit as a shell would
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        exit_(128 + 13)  # SIGPIPE
    except Exception as exc:
        if os.environ.get("NSM_DEBUG"):
            raise
        error(f"internal error: {type(exc).__name__}: {exc} (set NSM_DEBUG=1 for the traceback)")
        exit_(1)


def console() -> None:
    """The `nsm` console command (and `python -m nsmcli`)."""
    main(fast_exit=True)


#: Commands that start no processes and leave nothing to clean up at exit, so that they may skip the
#: interpreter's teardown: once `nsm parse` has printed its answer, tearing down torch's modules is a
#: sizeable part of a cold parse (BENCHMARKS.md, forty-ninth session).
FAST_EXIT_COMMANDS = frozenset({"parse", "execute"})


def _nothing_runs_at_exit() -> bool:
    """Whether no profiler or tracer watches the process (`python -m cProfile`, `coverage run`), whose
    output is written at exit, and NSM_NO_FAST_EXIT is unset."""
    return sys.getprofile() is None and sys.gettrace() is None and not os.environ.get("NSM_NO_FAST_EXIT")


def _command_name(args: list[str] | None) -> str | None:
    """The command `args` (default: the command line) runs: its first word that is no option."""
    words = sys.argv[1:] if args is None else args
    return next((word for word in words if not word.startswith("-")), None)


def _exit_fast(code: int | None) -> NoReturn:
    """Flush what the command printed and end the process with `code` at once."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: nothing more can reach it
            pass
    os._exit(code if isinstance(code, int) else 0)


def _usage_line(exc: UsageError) -> str:
    """A usage error as one line that says where the help is: `missing option '--out' (nsm train -h)`."""
    message = " ".join(exc.format_message().split())
    command = exc.ctx.command_path if exc.ctx is not None else "nsm"
    return f"{message} (see {command} -h)"
