"""The run directory is the checkpoint: plain files, each written atomically, tensors loaded weights_only.

    RUN/config.json       every hyper-parameter (train + model), interpreter limits, language, dataset meta,
                          the model class, code version (nsm version + git commit); after a resume,
                          the settings then in force and a `resumes` list (step, code version, date)
    RUN/vocab.json        the question vocabulary
    RUN/metrics.jsonl     one line per logged step (loss, rewards, buffer coverage, dev accuracy, q/s)
    RUN/checkpoint/       the resumable state, swapped in as one directory so its files always agree:
        model.pt          weights (torch.save of a state_dict)
        optimizer.pt      Adam state
        state.json        step, best dev accuracy, seconds trained. There is no RNG stream to save:
                          every draw derives from (seed, step, example ids)
        buffer.jsonl      the program buffer as canonical program texts
        explored.jsonl    the exploration cache (explored token paths per question)
    RUN/best/             best-on-dev weights: model.pt + info.json (step, accuracy); they may be stored
                          in float16 (`"stored": "float16"`), widened to float32 as they load

A model directory may instead be an ensemble: `ensemble.json` (`{"format": "nsm-ensemble", "members":
["a", "b"]}`) names run directories inside it, which `nsm parse` and `nsm eval` combine as `nsm eval
--ensemble` does (`run_members`).

A `.pt` file is read only with `torch.load(..., weights_only=True)`: a file that carries a pickle payload
(anything but tensors and plain containers) is refused with a CheckpointError, so a checkpoint can never run
code.
"""

from __future__ import annotations

import io
import json
import pickle
import subprocess
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

import nsmcli
from nsmcli.errors import CheckpointError, brief
from nsmcli.fileio import (
    atomic_write_bytes,
    atomic_write_json,
    atomic_write_jsonl,
    read_jsonl,
    staged_directory,
)
from nsmcli.resources import source_checkout

RUN_FORMAT = "nsm-run"
RUN_VERSION = 1
ENSEMBLE_FILE = "ensemble.json"
ENSEMBLE_FORMAT = "nsm-ensemble"
#: More members than this is not an ensemble anyone ships (and a hostile file cannot make nsm load thousands).
MAX_MEMBERS = 16


def cpu_copy(tensors: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Detached CPU copies of named tensors: what a checkpoint or an actor process is given, so the learner
    can go on updating its own in place (on any device)."""
    return {k: v.detach().to("cpu", copy=True) for k, v in tensors.items()}


def save_tensors(path: Path, obj: Any) -> None:
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    atomic_write_bytes(path, buffer.getvalue())


def load_tensors(path: Path) -> Any:
    """Load a tensor file safely (weights_only). Refuses pickled objects with a clear CheckpointError."""
    if not path.is_file():
        raise CheckpointError(f"{path} is missing")
    try:
        with warnings.catch_warnings():  # torch warns about odd pickle protocols; the error below says it all
            warnings.simplefilter("ignore")
            return torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as exc:
        if "GLOBAL" not in str(exc):  # no object to build, just bytes the unpickler cannot read
            raise CheckpointError(f"{path} is not a readable tensor file (damaged or not nsm's)") from None
        raise CheckpointError(
            f"{path} carries a pickle payload that is not plain tensors; refusing to load it because it "
            "could run code"
        ) from None
    except (RuntimeError, EOFError, OSError, ValueError) as exc:
        if path.stat().st_size == 0:
            raise CheckpointError(f"{path} is empty; the run's weights are lost") from None
        raise CheckpointError(f"{path} is not a readable tensor file ({brief(exc)})") from None


def code_version() -> dict[str, str | None]:
    """nsm's version and the git commit of the source tree, when nsm runs from a git checkout."""
    return {"nsm": nsmcli.__version__, "git": _checkout_commit()}


def _checkout_commit() -> str | None:
    root = source_checkout()
    if root is None:
        return None
    try:
        done = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=5, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return (done.stdout.strip() or None) if done.returncode == 0 else None


@dataclass
class Checkpoint:
    model: dict
    optimizer: dict
    state: dict
    buffer: list[dict]
    explored: list[dict]
    average: dict | None = None
    """The weight average (`average_decay`), when the run keeps one."""


class RunDir:
    """Reads and writes one run directory."""

    def __init__(self, path: Path | str):
        self.path = Path(path)

    @property
    def config_path(self) -> Path:
        return self.path / "config.json"

    @property
    def checkpoint_dir(self) -> Path:
        return self.path / "checkpoint"

    @property
    def best_dir(self) -> Path:
        return self.path / "best"

    @property
    def metrics_path(self) -> Path:
        return self.path / "metrics.jsonl"

    def exists(self) -> bool:
        return self.config_path.is_file()

    def has_checkpoint(self) -> bool:
        return (self._checkpoint_source() / "state.json").is_file()

    def is_unfinished_start(self) -> bool:
        """True for a directory a new run was killed in before it wrote `config.json`: it holds nothing but
        what `train` writes first (vocabulary, lock, partial files), so starting it again loses nothing."""
        if not self.path.is_dir() or self.exists():
            return False
        return all(p.name in _STARTED_FILES or p.name.startswith(".") for p in self.path.iterdir())

    # ----- static files --------------------------------------------------------------------------------

    def write_config(self, record: dict) -> None:
        atomic_write_json(self.config_path, {"format": RUN_FORMAT, "run_version": RUN_VERSION, **record})

    def read_config(self) -> dict:
        if not self.path.is_dir():
            raise CheckpointError(f"run directory {self.path} does not exist")
        if not self.config_path.exists() and (self.path / ENSEMBLE_FILE).exists():
            names = ", ".join(m.name for m in run_members(self.path))
            raise CheckpointError(f"{self.path} is an ensemble of runs ({names}); give one of its members")
        record = _read_json(self.config_path, "run config")
        if not isinstance(record, dict) or record.get("format") != RUN_FORMAT:
            raise CheckpointError(f"{self.config_path} is not an nsm run config")
        if record.get("run_version") != RUN_VERSION:
            raise CheckpointError(f"{self.config_path} was written by another nsm run format")
        for key in ("train", "model", "limits", "language"):
            if key not in record:
                raise CheckpointError(f"{self.config_path} is corrupt: no {key!r}")
        if unknown := sorted(set(record) - CONFIG_KEYS, key=str):
            raise CheckpointError(
                f"{self.config_path}: unknown key{'s' * (len(unknown) > 1)} {_names(unknown)}; "
                f"a run config holds {', '.join(sorted(CONFIG_KEYS))}"
            )
        _check_record(record, self.config_path)
        return record

    def write_vocab(self, record: Any) -> None:
        atomic_write_json(self.path / "vocab.json", record)

    def read_vocab(self) -> Any:
        record = _read_json(self.path / "vocab.json", "vocabulary")
        if not isinstance(record, dict) or not isinstance(record.get("words"), list):
            raise CheckpointError(f"vocabulary {self.path / 'vocab.json'} is corrupt (no word list)")
        words = record["words"]
        if not all(isinstance(w, str) for w in words) or len(set(words)) != len(words):
            raise CheckpointError(
                f"vocabulary {self.path / 'vocab.json'} is corrupt (its words must be distinct strings)"
            )
        return record

    # ----- metrics -------------------------------------------------------------------------------------

    def write_metrics(self, lines: list[dict]) -> None:
        atomic_write_jsonl(self.metrics_path, lines)

    def read_metrics(self) -> list[dict]:
        if not self.metrics_path.is_file():
            return []
        try:
            return list(read_jsonl(self.metrics_path))
        except (ValueError, UnicodeDecodeError) as exc:
            raise CheckpointError(f"{self.metrics_path} is corrupt: {exc}") from None

    # ----- checkpoint ----------------------------------------------------------------------------------

    def save_checkpoint(self, ckpt: Checkpoint) -> None:
        with staged_directory(self.checkpoint_dir) as stage:
            save_tensors(stage / "model.pt", ckpt.model)
            save_tensors(stage / "optimizer.pt", ckpt.optimizer)
            atomic_write_jsonl(stage / "buffer.jsonl", ckpt.buffer)
            atomic_write_jsonl(stage / "explored.jsonl", ckpt.explored)
            atomic_write_json(stage / "state.json", ckpt.state)
            if ckpt.average is not None:
                save_tensors(stage / "average.pt", ckpt.average)

    def _checkpoint_source(self) -> Path:
        """The checkpoint directory, or the previous one left aside if a swap was interrupted."""
        if self.checkpoint_dir.is_dir():
            return self.checkpoint_dir
        old = sorted(self.path.glob(".checkpoint.old-*"))
        return old[-1] if old else self.checkpoint_dir

    def load_checkpoint(self) -> Checkpoint:
        src = self._checkpoint_source()
        if not (src / "state.json").is_file():
            raise CheckpointError(f"{self.path} has no checkpoint to resume from")
        try:
            buffer = list(read_jsonl(src / "buffer.jsonl"))
            explored = list(read_jsonl(src / "explored.jsonl"))
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            raise CheckpointError(f"{src} is corrupt: {exc}") from None
        return Checkpoint(
            load_tensors(src / "model.pt"),
            load_tensors(src / "optimizer.pt"),
            _read_json(src / "state.json", "checkpoint state"),
            buffer,
            explored,
            load_tensors(src / "average.pt") if (src / "average.pt").is_file() else None,
        )

    def save_best(self, model_state: dict, info: dict) -> None:
        with staged_directory(self.best_dir) as stage:
            save_tensors(stage / "model.pt", model_state)
            atomic_write_json(stage / "info.json", info)

    def store_best_in_half_precision(self) -> None:
        """Rewrite `best/` with its float32 tensors stored as float16, half the bytes (for a bundle that
        would not fit its size limit in float32). `load_weights` widens them back to float32, so the model
        computes as before with weights rounded to 11 significant bits; info.json records
        `"stored": "float16"`."""
        state, info = self.load_weights("best")
        if info.get("weights") != "best":
            raise CheckpointError(f"{self.path} has no best/ weights to store in half precision")
        info.pop("weights")
        floats = {k: v for k, v in state.items() if torch.is_tensor(v) and v.dtype == torch.float32}
        for name, tensor in floats.items():
            if tensor.numel() and tensor.abs().max() > torch.finfo(torch.float16).max:
                raise CheckpointError(f"{self.path}: {name} holds values beyond float16's range")
        halved = {**state, **{k: v.half() for k, v in floats.items()}}
        self.save_best(halved, {**info, "stored": "float16"})

    def load_weights(self, which: str = "best") -> tuple[dict, dict]:
        """(state_dict, info) of `best` (falling back to the last checkpoint when no evaluation ran yet),
        `last`, or `average`: the last checkpoint's moving average of the weights (`average_decay`), which is
        what the run's evaluations see, where `last` is the trained weights themselves."""
        if which not in WEIGHTS:
            raise CheckpointError(f"weights must be one of {', '.join(WEIGHTS)}, not {which!r}")
        if which == "best" and (self.best_dir / "model.pt").is_file():
            info = _read_json(self.best_dir / "info.json", "best-model info")
            return _widen_half(load_tensors(self.best_dir / "model.pt")), {"weights": "best", **info}
        src = self._checkpoint_source()
        if not (src / "model.pt").is_file():
            if which != "best" and (self.best_dir / "model.pt").is_file():
                raise CheckpointError(f"{self.path} has no last checkpoint (checkpoint/); use --weights best")
            raise CheckpointError(f"{self.path} has no weights (neither best/ nor checkpoint/)")
        state = _read_json(src / "state.json", "checkpoint state")
        weights = load_tensors(src / "model.pt")
        if which == "average":
            if not (src / "average.pt").is_file():
                raise CheckpointError(f"{self.path} keeps no moving average of its weights (average_decay 0)")
            average = load_tensors(src / "average.pt")
            if (
                not isinstance(weights, dict)
                or not isinstance(average, dict)
                or not set(average) <= set(weights)
            ):
                raise CheckpointError(f"{src / 'average.pt'} does not match {src / 'model.pt'}")
            weights = {**weights, **average}  # the average covers the floating-point tensors only
        # `best` before any evaluation falls back to the last checkpoint, and says so
        return weights, {"weights": "average" if which == "average" else "last", "step": state.get("step")}


def _widen_half(state: Any) -> Any:
    """float16 tensors (weights stored in half precision) as the float32 that every nsm model computes in."""
    if not isinstance(state, dict):
        return state  # weights_mismatch says what is wrong with it
    return {k: v.float() if torch.is_tensor(v) and v.dtype == torch.float16 else v for k, v in state.items()}


#: The top-level keys of a run's config.json: what `train` writes (nsmcli/train/loop.py), `resumes` after
#: a resume included. Anything else is damage or a typo and is refused; a key train starts writing is added
#: here, and old runs, which wrote a subset, still load.
CONFIG_KEYS = frozenset(
    {
        "format",
        "run_version",
        "train",
        "model",
        "limits",
        "language",
        "dataset",
        "programs",
        "programs_loaded",
        "init",
        "model_class",
        "code",
        "runtime",
        "created",
        "resumes",
    }
)

#: What a new run writes before its config: a directory holding only these (and hidden partial files) was
#: killed while starting.
_STARTED_FILES = frozenset({"vocab.json"})

#: Which weights of a run to load (`load_weights`, `nsm eval --weights`).
WEIGHTS = ("best", "last", "average")


def _read_json(path: Path, what: str) -> Any:
    if not path.is_file():
        raise CheckpointError(f"{what} {path} is missing")
    if path.stat().st_size > MAX_JSON_BYTES:
        raise CheckpointError(f"{what} {path} is larger than {MAX_JSON_BYTES // 2**20} MiB; not an nsm file")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except RecursionError:
        raise CheckpointError(f"{what} {path} is corrupt: nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise CheckpointError(f"{what} {path} is corrupt: {brief(exc)}") from None


#: A run's JSON files are a few MiB at most (a WTQ vocabulary is well under one).
MAX_JSON_BYTES = 64 * 2**20


def run_members(path: Path | str, users: bool = False) -> list[Path]:
    """The run directories a model directory stands for: itself, or the members its `ensemble.json` names.
    With `users`, the members that answer on users' own tables where the file names a set apart for them
    (`"user_members"`: a member fine-tuned on users' questions in place of one trained on WTQ), else the
    same. Members are plain names of subdirectories (no paths), so an ensemble file cannot point outside its
    directory; each must be a run directory itself, not another ensemble."""
    path = Path(path)
    file = path / ENSEMBLE_FILE
    if not file.exists():
        return [path]
    record = _read_json(file, "ensemble file")
    if not isinstance(record, dict) or record.get("format") != ENSEMBLE_FORMAT:
        raise CheckpointError(f"{file} is not an nsm ensemble file (format {ENSEMBLE_FORMAT!r} expected)")
    members = _member_dirs(file, path, "members", record.get("members"))
    if "user_members" in record:  # checked whichever set is asked for: a broken file fails either way
        user_members = _member_dirs(file, path, "user_members", record["user_members"])
        if users:
            return user_members
    return members


def _member_dirs(file: Path, path: Path, key: str, members: Any) -> list[Path]:
    """The member directories an ensemble file's list `key` names, each checked to be a run directory
    inside `path`."""
    if not isinstance(members, list) or not members or not all(isinstance(m, str) for m in members):
        raise CheckpointError(f"{file}: {key!r} must be a non-empty list of directory names")
    if len(members) > MAX_MEMBERS:
        raise CheckpointError(
            f"{file}: {key!r} names {len(members)} members; at most {MAX_MEMBERS} are allowed"
        )
    bad = [m for m in members if m in ("", ".", "..") or Path(m).name != m or "\\" in m]
    if bad:
        raise CheckpointError(f"{file}: {key!r} must name subdirectories, not paths: {_names(bad)}")
    if len(set(members)) != len(members):
        raise CheckpointError(f"{file}: {key!r} names a member twice")
    found = [path / m for m in members]
    inside = path.resolve()
    for member in found:
        if member.resolve().parent != inside:  # a symlinked member would load weights from elsewhere
            raise CheckpointError(f"{file}: member {member.name!r} is a link to outside {path}")
        if not member.is_dir():
            raise CheckpointError(f"{file} names {member.name!r}, which is not a directory in {path}")
        if (member / ENSEMBLE_FILE).exists():
            raise CheckpointError(f"{member} is itself an ensemble; members must be run directories")
    return found


def _names(keys: list[str], most: int = 5) -> str:
    """Up to `most` keys quoted and cut to 40 characters each: a hostile file's names stay one short line."""
    shown = [repr(k) if len(k) <= 40 else repr(k[:40]) + "..." for k in keys[:most]]
    return ", ".join(shown) + (f" and {len(keys) - most} more" if len(keys) > most else "")


def _check_record(record: dict, path: Path) -> None:
    """The run config's own fields (the train and model settings are checked by their classes): a
    registered world (the `language` key), consistent with the dataset the run was trained on, and limits
    within the world's bounds."""
    from nsmcli.worlds import available_worlds, get_world

    language = record["language"]
    if not isinstance(language, str) or language not in available_worlds():
        raise CheckpointError(
            f"{path}: language {language!r} is not one nsm knows ({', '.join(available_worlds())})"
        )
    bounds = get_world(language).limit_bounds
    meta = record.get("dataset") or {}
    trained_on = meta.get("meta", {}).get("language") if isinstance(meta, dict) else None
    if isinstance(trained_on, str) and trained_on != language:
        raise CheckpointError(f"{path}: language {language!r}, but the run was trained on {trained_on} data")
    for key in ("train", "model", "limits"):
        if not isinstance(record[key], dict):
            raise CheckpointError(f"{path}: {key!r} must be a JSON object")
    from nsmcli.train.config import ConfigError, TrainConfig

    try:
        TrainConfig.from_json(record["train"])
    except ConfigError as exc:
        raise CheckpointError(f"{path}: in 'train': {exc}") from None
    limits = record["limits"]
    for key, (low, high) in bounds.items():
        value = limits.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise CheckpointError(
                f"{path}: limits.{key} must be an integer from {low} to {high}, got {value!r}"
            )
    if unknown := sorted(set(limits) - set(bounds)):
        raise CheckpointError(f"{path}: unknown limits {_names(unknown)}; known: {', '.join(bounds)}")
