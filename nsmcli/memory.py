"""Bulk building of many small objects without the cyclic garbage collector.

Reading, typing and binding a large table allocate millions of tuples, strings, floats and lists, none of
which form reference cycles. Each allocation burst triggers collections that walk every live object, so the
collector's work grows with the table squared; pausing it for the burst makes the work linear. Objects made
while paused are still freed by reference counting; the collector resumes afterwards.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector inside the block (nesting is fine; the outermost resumes it)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
