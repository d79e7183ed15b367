"""Atomic file writing: a reader never sees a half-written file, and a failed run loses nothing already there.

Files are written to a temporary sibling, flushed to disk, then renamed over the target. Whole output
directories are built beside the target and swapped in at the end.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any


def file_sha256(path: Path | str) -> str:
    """The sha256 of a file's bytes (hex): what a record names a data file by, wherever it is copied."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


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


def _umask() -> int:
    """The process's umask, read without changing it where Linux tells it (/proc), else by setting and
    restoring it."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _mode_for(path: Path, fresh: int) -> int:
    """The permission bits a plain open() or mkdir() would leave `path` with: an existing file's own, else
    `fresh` less the umask (mkstemp and mkdtemp make their files private, 0600 and 0700)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return fresh & ~_umask()


@contextmanager
def atomic_open(path: Path | str, mode: str = "w") -> Iterator[IO]:
    """Open a temporary sibling of `path` for writing; on success it is flushed, synced and renamed over
    `path`; on failure it is removed and `path` is untouched."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, _mode_for(path, 0o666))
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


def read_program_file(path: Path | str) -> list[dict]:
    """A program file (`nsm explore` output, `nsm synthesize`'s, a run's buffer): JSONL, one
    `{"id", "programs": [...], ...}` per question."""
    from nsmcli.errors import DataError

    path = Path(path)
    if not path.is_file():
        raise DataError(f"program file {path} does not exist")
    try:
        return list(read_jsonl(path))
    except (ValueError, UnicodeDecodeError) as exc:
        raise DataError(f"{path} is not a JSONL program file: {exc}") from exc


@contextmanager
def staged_directory(target: Path | str) -> Iterator[Path]:
    """Yield an empty staging directory; on success it replaces `target`, on failure it is removed and
    `target` is untouched."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent))
    try:
        staging.chmod(_mode_for(target, 0o777))
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


#: The lock file an output directory holds while one nsm process writes it (`output_lock`).
LOCK_NAME = ".nsm.lock"


@contextmanager
def output_lock(path: Path | str, what: str = "output", *, inside: bool = True) -> Iterator[Path]:
    """Hold an exclusive lock on the output `path` while writing it: a second nsm process writing the same
    output gets a DataError at once instead of interleaving its files with ours.

    A directory that is written into (a run) holds its lock as `path/.nsm.lock` (`inside`, and the
    directory is created); a file, or a directory replaced whole at the end (preprocess), is locked by a
    sibling `.NAME.nsm.lock`. The lock is an advisory `flock`, which the kernel drops when the process dies,
    so a killed command never leaves a stale lock behind (the empty file may stay; alone it means nothing).
    """
    from nsmcli.errors import DataError

    path = Path(path)
    lock_file = path / LOCK_NAME if inside else path.parent / f".{path.name}{LOCK_NAME}"
    try:
        lock_file.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise DataError(f"cannot write {what} {path}: {exc.strerror or exc}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise DataError(f"cannot lock {what} {path}: {exc.strerror or exc}") from None
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            raise DataError(
                f"{what} {path} is being written by another nsm process"
                f"{f' (pid {holder})' if holder.isdigit() else ''}; wait for it to finish or choose another "
                "output"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield path
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def remove_stale_partials(directory: Path | str) -> list[Path]:
    """Remove what an interrupted atomic write left in `directory` and its sub-directories: staging
    directories (`.NAME.*.partial`) and temporary files (`.NAME.*.tmp`). Call it only while holding the
    directory's `output_lock`, so a live writer's files are never taken. Returns what was removed."""
    directory = Path(directory)
    removed = []
    if not directory.is_dir():
        return removed
    for path in sorted(directory.rglob(".*")):
        if path.name.endswith(".partial") and path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
        elif path.name.endswith(".tmp") and path.is_file():
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed
