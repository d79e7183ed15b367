"""The MAPO policy: question encoder, key-variable memory, grammar-constrained pointer decoder.

The names below load on first use: `nsmcli.model.context` and `nsmcli.model.vocab` are plain data that the
worlds import, and importing them must not import torch (`nsm execute` and `nsm -h` never need it).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nsmcli.model.config import ModelConfig
    from nsmcli.model.context import ConstantKey, Context
    from nsmcli.model.parser import ProgramModel
    from nsmcli.model.vocab import Vocab

__all__ = ["ConstantKey", "Context", "ModelConfig", "ProgramModel", "Vocab"]

_HOMES = {
    "ConstantKey": "nsmcli.model.context",
    "Context": "nsmcli.model.context",
    "ModelConfig": "nsmcli.model.config",
    "ProgramModel": "nsmcli.model.parser",
    "Vocab": "nsmcli.model.vocab",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'nsmcli.model' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
