"""The one progress bar of the toolkit: rich, on stderr, with a free-text status field.

Library code that runs long (preprocessing, exploration, training) takes an optional `Progress` or builds
one here; the CLI decides whether to show it (`--quiet`).
"""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


def make_progress(console: Console | None = None) -> Progress:
    """A progress bar whose tasks carry a `status` field (e.g. `coverage 90.4%`)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console or Console(stderr=True),
    )
