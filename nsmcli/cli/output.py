"""Output policy: results on stdout (human or `--json`), progress and errors on stderr.

Every text that came from a table or a question goes through `safe()` before rich renders it, so no rich
markup or terminal control sequence in a cell reaches the screen.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from rich.console import Console
from rich.markup import escape
from rich.progress import Progress

from nsmcli.progress import make_progress

T = TypeVar("T")
stdout = Console(soft_wrap=True, highlight=False)
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


def display_text(value: Any) -> str:
    """An answer item as a person reads it: numbers without a spurious `.0`."""
    if isinstance(value, float):
        from nsmcli.data.evaluate import prediction_text

        return prediction_text(value)
    return str(value)


def answer_text(values: list, limit: int = 20) -> str:
    """An answer for human output: the first `limit` items joined by commas, each huge one cut (see
    `shorten`), and how many there are in all."""
    if not values:
        return "(nothing: no rows match)"  # WikiSQL's answer to a query whose conditions select no rows
    shown = ", ".join(shorten(display_text(v)) for v in values[:limit])
    return shown + (f", ... ({len(values)} in all)" if len(values) > limit else "")


def step_text(step: dict, shown: int = 8) -> str:
    """An intermediate result for the step table: `string_list: a, b`, or for a row set one line per row
    with its first cells (`row 11: 11 | Kenya | 2 | 0`)."""
    values = step["values"]
    more = f"\n... {len(values)} in all" if len(values) > shown else ""
    if step["type"] == "entity_list" and not values:
        return "no rows"
    if step.get("rows"):
        lines = [
            f"{value}: {' | '.join(list(cells.values())[:4])[:60]}"
            for value, cells in zip(values[:shown], step["rows"], strict=False)
        ]
        return f"{len(values)} row{'s' if len(values) != 1 else ''}\n" + "\n".join(lines) + more
    return f"{step['type']}: " + ", ".join(map(display_text, values[:shown])) + more


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
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2, default=str) + "\n")
    sys.stdout.flush()


def error(message: str) -> None:
    stderr.print(f"[bold red]error:[/] {safe(message)}")


def warn(message: str) -> None:
    stderr.print(f"[bold yellow]warning:[/] {safe(message)}")


@contextmanager
def progress_bar(quiet: bool) -> Iterator[Progress | None]:
    """A rich progress bar on stderr, or None when quiet (or when stderr is not a terminal and quiet)."""
    if quiet:
        yield None
        return
    progress = make_progress(stderr, lazy=True)
    try:
        yield progress
    finally:
        if progress.live.is_started:
            progress.stop()


def track(items: Iterable[T], total: int, description: str, progress: Progress | None) -> Iterator[T]:
    if progress is None:
        yield from items
        return
    task = progress.add_task(safe(description), total=total, status="")
    for item in items:
        yield item
        progress.advance(task)
