"""Atomic file writing: a reader never sees a half-written file, and a failed run loses nothing already there.

Files are written to a temporary sibling, flushed to disk, then renamed over the target. Whole output
directories are built beside the target and swapped in at the end.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any


def check_output_file(path: Path | str) -> None:
    """Fail now, with a DataError, when `path` cannot become a file: it is a directory, or its folder
    cannot be created or written. Long commands call this before their work, not after."""
    from nsmcli.errors import DataError

    path = Path(path)
    if path.is_dir():
        raise DataError(f"output {path} is a directory; give a file name")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataError(f"cannot create the folder of output {path}: {exc.strerror or exc}") from None
    if not os.access(path.parent, os.W_OK):
        raise DataError(f"cannot write output {path}: its folder is not writable")


@contextmanager
def atomic_open(path: Path | str, mode: str = "w") -> Iterator[IO]:
    """Open a temporary sibling of `path` for writing; on success it is flushed, synced and renamed over
    `path`; on failure it is removed and `path` is untouched."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_bytes(path: Path | str, data: bytes) -> None:
    with atomic_open(path, "wb") as f:
        f.write(data)


def atomic_write_text(path: Path | str, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: Path | str, payload: Any) -> None:
    atomic_write_text(path, json.dumps(payload, ensure_ascii=False, indent=2) + "\n")


def atomic_write_jsonl(path: Path | str, records: Iterable[Any]) -> int:
    """Write one JSON document per line; returns the number of lines."""
    n = 0
    with atomic_open(path, "w") as f:
        for record in records:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
            n += 1
    return n


def read_jsonl(path: Path | str) -> Iterator[Any]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


@contextmanager
def staged_directory(target: Path | str) -> Iterator[Path]:
    """Yield an empty staging directory; on success it replaces `target`, on failure it is removed and
    `target` is untouched."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent))
    try:
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    old = None
    if target.exists():
        old = target.parent / f".{target.name}.old-{os.getpid()}"
        os.replace(target, old)
    os.replace(staging, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
