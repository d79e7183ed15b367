"""Output policy: results on stdout (human or `--json`), progress and errors on stderr.

Every text that came from a table or a question goes through `safe()` before rich renders it, so no rich
markup or terminal control sequence in a cell reaches the screen.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from rich.console import Console
from rich.markup import escape
from rich.progress import Progress

from nsmcli.display import EMPTY_CELL, step_text, value_text
from nsmcli.progress import make_progress

T = TypeVar("T")


class _PipedConsole(Console):
    """rich exits with code 1 when its reader closes the pipe; `nsm.cli.main` exits as a shell would."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


stdout = _PipedConsole(soft_wrap=True, highlight=False)
stderr = Console(stderr=True, highlight=False, soft_wrap=True)

_CONTROL = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]"
)


def safe(text: Any) -> str:
    """Text from data, made inert: control, invisible and bidi-override characters shown as `\\x..` or
    `\\u....`, markup escaped. The zero-width (non-)joiners stay: scripts and emoji need them."""
    cleaned = _CONTROL.sub(_escape_char, str(text))
    return escape(cleaned)


def _escape_char(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shorten(text: str, limit: int = 300) -> str:
    """Human output of one answer: a huge cell is cut (with its length said); `--json` keeps all of it."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def answer_text(values: list, limit: int = 20) -> str:
    """An answer for human output (`display` values, or raw values rounded for reading): the first `limit`
    items joined by commas, an empty cell said in words, each huge one cut (see `shorten`), and how many
    there are in all."""
    if not values:
        return "(nothing: no rows match)"  # WikiSQL's answer to a query whose conditions select no rows
    shown = ", ".join(shorten(value_text(v)) if v != "" else EMPTY_CELL for v in values[:limit])
    return shown + (f", ... ({len(values)} in all)" if len(values) > limit else "")


def steps_table(steps: list[dict]) -> Any:
    """The rich table of a program's intermediate results (text from data made inert)."""
    from rich.table import Table as RichTable

    table = RichTable(show_header=True, header_style="bold")
    for column in ("#", "expression", "result"):
        table.add_column(column)
    for i, step in enumerate(steps):
        table.add_row(f"v{i}", safe(step["expression"]), safe(step_text(step)))
    return table


def print_json(payload: Any) -> None:
    """`--json` output: always strict JSON in UTF-8 (see `strict_json`)."""
    sys.stdout.write(strict_json(payload) + "\n")
    sys.stdout.flush()


#: Characters written as \uXXXX escapes in JSON output although JSON allows them raw: DEL and the C1
#: controls (a terminal acts on them) and the bidirectional controls (they reorder what a reader sees).
_UNSAFE_IN_JSON = re.compile("[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
#: Lone surrogates: how Python decodes bytes that are not UTF-8 in argv and file names (surrogateescape).
_SURROGATE = re.compile("[\ud800-\udfff]")


def strict_json(payload: Any) -> str:
    """JSON that strict parsers accept and terminals cannot be steered by: infinities and NaN become the
    strings "inf", "-inf" and "nan" (JSON has no such numbers; a table cell of 400 nines is one), text that
    is not valid Unicode (undecodable bytes in a question) gets U+FFFD, and control and bidi characters are
    escaped. Numbers read as a person writes them: a whole float is an integer (a count is 10, not 10.0) and
    others keep 15 significant digits, which drops binary noise (a sum of 0.1 and 0.2 is 0.3) and nothing
    a table or a computation states."""
    text = json.dumps(_json_value(payload), ensure_ascii=False, indent=2, default=str, allow_nan=False)
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _json_value(value: Any) -> Any:
    if isinstance(value, float):
        if not math.isfinite(value):
            return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
        if value.is_integer() and abs(value) < 2**53:  # beyond, not every integer is a float
            return int(value)
        return float(f"{value:.15g}")
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {_json_value(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_value(v) for v in value]
    return value


def error(message: str) -> None:
    stderr.print(f"[bold red]error:[/] {safe(message)}")


def warn(message: str) -> None:
    stderr.print(f"[bold yellow]warning:[/] {safe(message)}")


@contextmanager
def progress_bar(quiet: bool) -> Iterator[Progress | None]:
    """The progress display on stderr (a bar on a terminal, a line every NSM_PROGRESS_SECONDS elsewhere;
    see `nsmcli.progress`), or None when quiet. Stdout stays for the command's result (`--json` too)."""
    if quiet:
        yield None
        return
    progress = make_progress(stderr, lazy=True)
    try:
        yield progress
    finally:
        progress.stop()


def track(items: Iterable[T], total: int, description: str, progress: Progress | None) -> Iterator[T]:
    if progress is None:
        yield from items
        return
    task = progress.add_task(safe(description), total=total, status="")
    for item in items:
        yield item
        progress.advance(task)
