"""The one progress bar of the toolkit: rich, on stderr, with a free-text status field.

Library code that runs long (preprocessing, exploration, training) takes an optional `Progress` or builds
one here; the CLI decides whether to show it (`--quiet`).
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


class _LazyProgress(Progress):
    """Starts showing itself with its first task, so a command that fails before any work (a bad
    argument, a missing file) leaves nothing but its error line."""

    def add_task(self, *args: Any, **kwargs: Any) -> TaskID:
        if not self.live.is_started:
            self.start()
        return super().add_task(*args, **kwargs)


def make_progress(console: Console | None = None, lazy: bool = False) -> Progress:
    """A progress bar whose tasks carry a `status` field (e.g. `coverage 90.4%`); `lazy` ones start
    with their first task (the caller stops them)."""
    return (_LazyProgress if lazy else Progress)(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console or Console(stderr=True),
    )
