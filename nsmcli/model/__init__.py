"""The MAPO policy: question encoder, key-variable memory, grammar-constrained pointer decoder."""

from nsmcli.model.config import ModelConfig
from nsmcli.model.context import ConstantKey, Context
from nsmcli.model.parser import ProgramModel
from nsmcli.model.vocab import Vocab

__all__ = ["ConstantKey", "Context", "ModelConfig", "ProgramModel", "Vocab"]
