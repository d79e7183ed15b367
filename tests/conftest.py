"""Shared fixtures. Real-data tests read ../shared/data and skip when it is absent (a user's clone)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The shared dataset directory; skips (or fails with NSM_REQUIRE_DATA=1) when it is missing."""
    path = Path(__file__).resolve().parents[2] / "shared" / "data"
    if not path.is_dir():
        reason = f"dataset directory {path} not found"
        if os.environ.get("NSM_REQUIRE_DATA") == "1":
            pytest.fail(f"{reason} (NSM_REQUIRE_DATA=1)")
        pytest.skip(reason)
    return path
