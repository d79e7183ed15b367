"""Atomic writes (nsmcli/fileio.py) leave files with the permissions a plain open() would."""

import os
import stat
from contextlib import contextmanager

import pytest

from nsmcli.fileio import atomic_write_json, atomic_write_text, staged_directory


@contextmanager
def umask(mask: int):
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002])
def test_a_new_file_gets_the_umask_not_private_bits(tmp_path, mask):
    with umask(mask):
        atomic_write_text(tmp_path / "a.txt", "x")
        atomic_write_json(tmp_path / "b.json", {"a": 1})
        open(tmp_path / "plain.txt", "w").close()
    assert mode(tmp_path / "a.txt") == mode(tmp_path / "plain.txt") == 0o666 & ~mask
    assert mode(tmp_path / "b.json") == 0o666 & ~mask


def test_a_replaced_file_keeps_its_own_mode(tmp_path):
    target = tmp_path / "a.txt"
    target.write_text("old")
    target.chmod(0o640)
    with umask(0o022):
        atomic_write_text(target, "new")
    assert target.read_text() == "new"
    assert mode(target) == 0o640


def test_a_staged_directory_gets_the_umask(tmp_path):
    with umask(0o022):
        with staged_directory(tmp_path / "out") as staging:
            (staging / "f").write_text("x")
        (tmp_path / "plain").mkdir()
    assert mode(tmp_path / "out") == mode(tmp_path / "plain") == 0o755
