"""Worker processes that never outlive the command that started them."""

from __future__ import annotations

import ctypes
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def die_with_parent(parent_pid: int) -> None:
    """Ask the kernel to end this worker when `parent_pid` dies (Linux `PR_SET_PDEATHSIG`).

    Without it a worker of a command killed with SIGKILL lives on, finishes its item, and dies on a broken
    pipe with a traceback on the user's terminal. A worker whose parent is already gone exits at once. Other
    systems have no such call; their workers end when their next write to the parent fails.
    """
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent_pid:  # the parent died before the request took effect
        os._exit(0)
