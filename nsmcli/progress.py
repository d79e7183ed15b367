"""The one progress display of the toolkit, on stderr, with a free-text status field per task.

On a terminal (or in a notebook) it is a rich progress bar. Anywhere else (a pipe, a log file, `nohup`) a
bar would be nothing or control codes, so it prints a plain line per task every NSM_PROGRESS_SECONDS
seconds (default 30) while the work goes on, and a last one when it ends; work that ends sooner prints
nothing.

Library code that runs long (preprocessing, exploration, training, evaluation) takes an optional
`Progress` or builds one here; the CLI decides whether to show it (`--quiet`).
"""

from __future__ import annotations

import os
import time
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from nsmcli.errors import DataError

#: The environment variable that sets the seconds between progress lines when stderr is not a terminal.
INTERVAL_VARIABLE = "NSM_PROGRESS_SECONDS"
DEFAULT_INTERVAL_SECONDS = 30.0


def progress_interval() -> float:
    """Seconds between progress lines off a terminal: NSM_PROGRESS_SECONDS, else 30 (0: every update)."""
    text = os.environ.get(INTERVAL_VARIABLE, "").strip()
    if not text:
        return DEFAULT_INTERVAL_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not seconds >= 0 or seconds == float("inf"):
        raise DataError(f"{INTERVAL_VARIABLE} must be a number of seconds (0 or more), not {text!r}")
    return seconds


class _LazyProgress(Progress):
    """Starts showing itself with its first task, so a command that fails before any work (a bad
    argument, a missing file) leaves nothing but its error line."""

    def add_task(self, *args: Any, **kwargs: Any) -> TaskID:
        if not self.live.is_started:
            self.start()
        return super().add_task(*args, **kwargs)

    def stop(self) -> None:
        if self.live.is_started:
            super().stop()


class LineProgress(Progress):
    """Progress for a pipe or a log file: rich's task bookkeeping (counts, speed, time left) without the
    live display; a plain line per unfinished task at most every `interval` seconds, when the work reports
    progress, and a last line per task at `stop()` if any line was printed."""

    def __init__(self, *columns: Any, interval: float, console: Console, **kwargs: Any):
        super().__init__(*columns, console=console, disable=True, **kwargs)
        self.interval = interval
        self._last_line = time.monotonic()
        self._printed = False

    def start(self) -> None:
        self._last_line = time.monotonic()

    def stop(self) -> None:
        if self._printed:
            self._print_lines(final=True)
            self._printed = False

    def update(self, task_id: TaskID, **kwargs: Any) -> None:
        super().update(task_id, **kwargs)
        self._tick()

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        super().advance(task_id, advance)
        self._tick()

    def _tick(self) -> None:
        now = time.monotonic()
        if now - self._last_line >= self.interval:
            self._last_line = now
            self._print_lines(final=False)

    def _print_lines(self, final: bool) -> None:
        for task in self.tasks:
            if task.visible and (final or not task.finished):
                self.console.print(task_line(task), markup=False, highlight=False, soft_wrap=True)
                self._printed = True


def task_line(task: Task) -> str:
    """`12:03:10 training 1,200/25,000 (4.8%) loss 0.1234, 0:10:00 elapsed, about 3:18:20 left`."""
    done = f"{task.completed:,.0f}"
    if task.total:
        done += f"/{task.total:,.0f} ({task.completed / task.total:.1%})"
    status = str(task.fields.get("status") or "")
    parts = [f"{time.strftime('%H:%M:%S')} {task.description} {done}" + (f" {status}" if status else "")]
    if task.elapsed is not None:
        parts.append(f"{_clock(task.elapsed)} elapsed")
    if not task.finished and task.time_remaining is not None:
        parts.append(f"about {_clock(task.time_remaining)} left")
    return ", ".join(parts)


def _clock(seconds: float) -> str:
    seconds = int(max(0.0, seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def make_progress(console: Console | None = None, lazy: bool = False) -> Progress:
    """A progress display whose tasks carry a `status` field (e.g. `coverage 90.4%`): a rich bar on a
    terminal (`lazy` ones start with their first task), else a `LineProgress`. The caller stops it."""
    console = console or Console(stderr=True)
    if not (console.is_terminal or console.is_jupyter):
        return LineProgress(TextColumn("{task.description}"), interval=progress_interval(), console=console)
    return (_LazyProgress if lazy else Progress)(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
    )
