"""`train.loop.train`: the only trainer. One loop, read top to bottom:

    sample (actor) -> add found programs to the buffer and the exploration cache -> weights -> loss -> step
    -> log -> evaluate on dev / keep the best -> checkpoint

By default one process alternates actor and learner, which is exactly on-policy and deterministic: every
random draw derives from (seed, step, example ids) -- the batch order, the samples, the replay choice and
the dropout masks -- so a run resumed from its last checkpoint ends where an uninterrupted one does.
With `actors=N` the same actor function runs in N worker processes (or Ray actors, `backend="ray"`) on
one-step-old weights while the main process learns (deterministic for a given N, the same for both backends,
but not equal to the one-process run).
"""

from __future__ import annotations

import contextlib
import math
import os
import platform
import random
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from nsmcli.errors import CheckpointError, DataError
from nsmcli.fileio import LOCK_NAME, output_lock, read_program_file, remove_stale_partials
from nsmcli.protocols import ProblemSet, Tokens
from nsmcli.train import objectives
from nsmcli.train.actors import ActRequest, derive_seed, generator
from nsmcli.train.average import WeightAverage
from nsmcli.train.backends import SamplingBackend, WorkerSpec, check_address, choose_backend, open_backend
from nsmcli.train.buffer import ProgramBuffer
from nsmcli.train.config import ConfigError, TrainConfig, resolve_config, set_field
from nsmcli.train.evaluate import accuracy, resolve_split, weights_mismatch
from nsmcli.train.explore_cache import ExploreCache
from nsmcli.train.questions import (
    ModelKit,
    QuestionPool,
    batches_contexts,
    build_model,
    default_kit,
    plain,
    prepare_pools,
)
from nsmcli.train.rundir import Checkpoint, RunDir, code_version, cpu_copy
from nsmcli.worlds import get_world, open_problems


@dataclass
class TrainResult:
    run: str
    step: int
    best_dev: float | None
    best_step: int | None
    buffer_coverage: float
    buffer_programs: int
    seconds: float
    questions_per_second: float
    stopped_early: bool = False
    wall_seconds: float = 0.0
    stopped_by_time: bool = False
    last: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "run": self.run,
            "step": self.step,
            "best_dev_accuracy": self.best_dev,
            "best_step": self.best_step,
            "buffer_coverage": round(self.buffer_coverage, 4),
            "buffer_programs": self.buffer_programs,
            "seconds": round(self.seconds, 1),
            "questions_per_second": round(self.questions_per_second, 2),
            "stopped_early": self.stopped_early,
            "wall_seconds": round(self.wall_seconds, 1),
            "stopped_by_time": self.stopped_by_time,
        }


def batch_ids(ids: list[str], seed: int, step: int, size: int) -> list[str]:
    """The questions of a step: epochs are seeded permutations of the training set, read in order."""
    size = min(size, len(ids))
    out, perms = [], {}
    for pos in range((step - 1) * size, step * size):
        epoch, k = divmod(pos, len(ids))
        if epoch not in perms:
            perms[epoch] = torch.randperm(len(ids), generator=generator(seed, "epoch", epoch)).tolist()
        out.append(ids[perms[epoch][k]])
    return out


def dev_subset(ids: list[str], n: int, how: str = "first") -> list[str]:
    """The dev questions evaluated during training: all (n = 0), the first n, or a fixed random n kept in
    split order. The random sample depends only on n and the split, not on the run's seed, so runs compare."""
    if not n or n >= len(ids):
        return list(ids)
    if how == "first":
        return ids[:n]
    positions = random.Random(derive_seed("dev-sample", n)).sample(range(len(ids)), n)
    return [ids[pos] for pos in sorted(positions)]


def _model_overrides(model_config: Any, items: dict[str, Any]) -> None:
    for key, value in items.items():
        set_field(model_config, key, value, prefix="model.")
    try:
        getattr(model_config, "validate", lambda: None)()
    except ValueError as exc:
        raise ConfigError(f"model.{exc}") from None


def _split_overrides(overrides: dict[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    train, model = {}, {}
    for key, value in (overrides or {}).items():
        key = key.replace("-", "_")
        if key.startswith("model."):
            model[key[len("model.") :]] = value
        else:
            train[key] = value
    return train, model


@dataclass
class _Start:
    """The trained run a new run starts from (`init`): its best weights and what the config records."""

    weights: dict
    record: dict


#: The one model setting `--init` may change: unfreezing more top layers of the pretrained encoder than the
#: run trained (the PyTorch MAPO's recipe, mapo.md §8.1: frozen first, fine-tuned after; then deeper).
_INIT_UNFREEZE = "encoder_train_layers"
_TOP = "pretrained.top."


def _initial_run(
    init: Path | str, language: str, model_over: dict[str, Any], kit: ModelKit
) -> tuple[dict, dict, dict, _Start]:
    """(model config, vocabulary, limits, start) of the run `init`: fine-tuning keeps its architecture and
    vocabulary (words it never saw read as unknown), so model settings cannot change, except that a run with
    the pretrained encoder may fine-tune more of its top layers (`model.encoder_train_layers`): the layers it
    trained keep their weights, and the newly unfrozen ones start from the package's."""
    source = RunDir(init)
    record = source.read_config()
    model_json = dict(record["model"])
    other = sorted(set(model_over) - {_INIT_UNFREEZE})
    if other:
        raise ConfigError(
            f"--init takes the model from {init}; model settings ({', '.join(other)}) cannot change"
        )
    trained = int(model_json.get(_INIT_UNFREEZE, 0))
    if _INIT_UNFREEZE in model_over:
        if model_json.get("encoder") != "minilm" or int(model_over[_INIT_UNFREEZE]) <= trained:
            raise ConfigError(
                f"--init: model.{_INIT_UNFREEZE} can only unfreeze more layers of a run with the pretrained "
                f"encoder; {init} has encoder={model_json.get('encoder')}, {_INIT_UNFREEZE}={trained}"
            )
        unfrozen = kit.ModelConfig.from_json(model_json)
        _model_overrides(unfrozen, {_INIT_UNFREEZE: model_over[_INIT_UNFREEZE]})
        model_json = plain(unfrozen.to_json())
    if record.get("language") != language:
        raise DataError(f"{init} was trained on {record.get('language')}; this dataset is {language}")
    weights, info = source.load_weights("best")
    summary = {"run": str(Path(init).resolve()), "code": record.get("code"), **info}
    if _INIT_UNFREEZE in model_over:  # recorded, so that a restart before the first checkpoint fills them too
        summary["unfrozen_layers"] = model_json[_INIT_UNFREEZE]
        summary["trained_layers"] = trained
    return model_json, source.read_vocab(), dict(record["limits"]), _Start(weights, summary)


def _unfreeze(fresh: dict, weights: dict, record: dict) -> dict:
    """The starting weights of a run that unfreezes more top layers than the run it starts from: that run's
    trained top layers move up to the end of the longer stack (`pretrained.top.i` counts from the lowest
    trainable layer), and the newly unfrozen layers below them take the package's weights from `fresh`."""
    shift = int(record["unfrozen_layers"]) - int(record.get("trained_layers", 0))
    moved = {}
    for key, value in weights.items():
        if key.startswith(_TOP):
            index, rest = key[len(_TOP) :].split(".", 1)
            key = f"{_TOP}{int(index) + shift}.{rest}"
        moved[key] = value
    return {**{k: v for k, v in fresh.items() if k.startswith(_TOP)}, **moved}


def _prepare_questions(
    dataset: ProblemSet, pools: Sequence[tuple[QuestionPool, Sequence[str]]], progress: Any
) -> str | None:
    """Build the contexts of the questions training will see, in batches (a pretrained encoder's outputs
    take most of a first epoch one question at a time), keeping the encodings in the dataset directory's
    `encodings/` for later runs and for the actors. Returns that directory (None: nothing stored)."""
    if not batches_contexts(pools[0][0].model):
        return None  # contexts are built on first use, as they cost little
    source = Path(dataset.source)
    store = source / "encodings" if source.is_dir() else None
    task = progress.add_task("encoding questions", total=None, status="") if progress else None

    def advance(done: int, total: int) -> None:
        if progress:
            progress.update(task, completed=done, total=total)

    try:
        prepare_pools(pools, store, advance)
    finally:
        if progress:
            progress.remove_task(task)
    return None if store is None else str(store)


def _fall_back_to_dataset_splits(config: TrainConfig, dataset: ProblemSet, explicit: dict[str, Any]) -> None:
    """The language presets name the official splits (WTQ's random-split-1-*); a dataset of one's own
    (`nsm preprocess tables`) has others. Unless given explicitly, a preset split the dataset lacks becomes
    the dataset's `train` / `dev` split (an exact name, or the one ending in -train / -dev)."""
    for key, kind in (("train_split", "train"), ("dev_split", "dev")):
        if key in explicit or getattr(config, key) in dataset.splits:
            continue
        try:
            config.set(key, resolve_split(dataset, kind))
        except DataError:
            pass  # reported below with the available splits


def train(data: Path | str, out: Path | str, **options: Any) -> TrainResult:
    """Train (or resume) a run in `out`; see `_train` for the options.

    The run directory is locked while this runs (a second writer gets one clear error), and what an earlier,
    killed call left half-written there is removed first. A directory this call created and left holding
    nothing (its set-up failed) is removed again, so a mistyped option leaves no trace.
    """
    path = Path(out)
    if options.get("resume") and not path.is_dir():  # before the lock, which would create it
        raise CheckpointError(f"run directory {path} does not exist")
    created = not path.exists()
    try:
        with output_lock(path, "run directory"):
            remove_stale_partials(path)
            return _train(data, path, **options)
    except BaseException:
        if created and path.is_dir() and all(p.name == LOCK_NAME for p in path.iterdir()):
            shutil.rmtree(path, ignore_errors=True)
        raise


def _train(
    data: Path | str,
    out: Path | str,
    *,
    programs: Path | str | None = None,
    algo: str = "mapo",
    overrides: dict[str, Any] | None = None,
    resume: bool = False,
    device: str = "cpu",
    actors: int = 0,
    backend: str | None = None,
    address: str | None = None,
    kit: ModelKit | None = None,
    progress: Any = None,
    stop_after: int | None = None,
    on_log: Callable[[dict], None] | None = None,
    init: Path | str | None = None,
) -> TrainResult:
    """Train (or resume) a run in `out` on a preprocessed dataset. `overrides` are TrainConfig fields, or
    `model.<field>` for the model config; on resume only the `RESUMABLE` settings may change. `stop_after` ends the call
    after that step without writing anything more (what a kill does; tests use it). `init` names a trained
    run whose model settings, vocabulary, limits and best weights a new run starts from (fine-tuning).
    `backend` says where the actors sample (`nsmcli.train.backends`; default: inline without actors, else
    processes) and `address` which Ray cluster `backend="ray"` joins (default: a local instance)."""
    clock = _Clock()
    backend = choose_backend(backend, actors)
    check_address(address, backend)
    kit = kit or default_kit()
    dataset = open_problems(data, _problem_seed(RunDir(out), resume, overrides))
    world = get_world(dataset.world)
    rundir = RunDir(out)
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise DataError("--device cuda was asked for but no CUDA device is available")

    # ----- set up: a new run, or the state of the last checkpoint ---------------------------------------
    train_over, model_over = _split_overrides(overrides)
    initial: _Start | None = None
    if resume and init is not None:
        raise ConfigError("--init starts a new run; a resumed run continues from its own checkpoint")
    if resume:
        if rundir.is_unfinished_start():
            raise CheckpointError(
                f"{out} was killed before its set-up finished, so there is nothing to resume; run the same "
                "command without --resume to start it again"
            )
        record = rundir.read_config()
        if record["language"] != dataset.world:
            raise DataError(f"{out} was trained on {record['language']}; {data} is {dataset.world}")
        config = TrainConfig.from_json(record["train"])
        unknown = set(train_over) - set(RESUMABLE)
        if unknown or model_over:
            raise ConfigError(
                f"a resumed run keeps its config; only {', '.join(RESUMABLE)} may change (got {sorted(unknown)})"
            )
        for key in RESUMABLE:
            if key in train_over:
                config.set(key, train_over[key])
        model_json, vocab_json, limits = record["model"], rundir.read_vocab(), record["limits"]
        ckpt = rundir.load_checkpoint() if rundir.has_checkpoint() else None
        programs_path = record.get("programs")
        if ckpt is None and record.get("init"):
            # killed after its config but before its first checkpoint: it starts again from what it records
            initial = _Start(RunDir(record["init"]["run"]).load_weights("best")[0], record["init"])
    else:
        if rundir.exists() or (rundir.path.is_dir() and not rundir.is_unfinished_start()):
            raise CheckpointError(
                f"{out} already exists; pass --resume to continue it, or choose another --out"
            )
        config = resolve_config(dataset.world, algo, train_over)
        _fall_back_to_dataset_splits(config, dataset, train_over)
        if init is not None:
            model_json, vocab_json, limits, initial = _initial_run(init, dataset.world, model_over, kit)
        else:
            model_config = kit.ModelConfig()
            critic = {"value_head": True} if config.algo == "actor-critic" else {}
            _model_overrides(model_config, {**world.model_preset, **critic, **model_over})
            counts = dataset.word_counts(config.train_split)
            vocab_json = plain(kit.Vocab.from_counts(counts, model_config.min_word_count).to_json())
            model_json = plain(model_config.to_json())
            limits = world.limits()
        if config.max_expressions:
            limits["max_expressions"] = config.max_expressions
        ckpt = None
        loaded = (0, 0)
        programs_path = str(Path(programs).resolve()) if programs else None
    for split in (config.train_split, config.dev_split):
        if split not in dataset.splits:
            raise DataError(
                f"split {split!r} not in {dataset.source}; available: {', '.join(dataset.splits)}"
            )

    torch.manual_seed(derive_seed(config.seed, "init"))
    model = build_model(kit, model_json, vocab_json, pretrained=ckpt is None and initial is None)
    built = getattr(model, "config", None)
    if ckpt is None and hasattr(
        built, "to_json"
    ):  # what building recorded: the pretrained encoder's identity
        model_json = plain(built.to_json())
    if ckpt is None and initial is not None:
        if initial.record.get("unfrozen_layers"):
            initial.weights = _unfreeze(model.state_dict(), initial.weights, initial.record)
        mismatch = weights_mismatch(model.state_dict(), initial.weights)
        if mismatch:
            raise CheckpointError(f"{init}: weights do not fit its configured model ({mismatch})")
        model.load_state_dict(initial.weights)
    train_pool = QuestionPool(dataset, dataset.examples(config.train_split), limits, model)
    dev_pool = QuestionPool(dataset, dataset.examples(config.dev_split), limits, model)
    train_ids = train_pool.order
    dev_ids = dev_subset(dev_pool.order, config.eval_max_questions, config.eval_sample)
    if not train_ids:
        raise DataError(f"split {config.train_split} of {dataset.source} has no examples")
    buffer, cache = ProgramBuffer(), ExploreCache()
    metrics: list[dict] = []
    step, best, best_step, seconds = 0, None, None, 0.0
    evaluations = 0  # programs scored by the actors (the budget unit of program synthesis)
    if ckpt is None:
        if programs_path:
            loaded = buffer.load_records(
                read_program_file(programs_path),
                _env_of(train_pool),
                reward_of=_earned(train_pool, config.buffer_min_reward),
            )
            for qid in train_ids:
                cache.add_many(qid, train_pool.env(qid), buffer.programs(qid))  # OFF: saved programs = cache
    if ckpt is None and not resume:
        rundir.path.mkdir(parents=True, exist_ok=True)
        rundir.write_vocab(vocab_json)
        rundir.write_config(
            {
                "train": config.to_json(),
                "model": model_json,
                "limits": limits,
                "language": dataset.world,
                "dataset": {"path": dataset.source, "meta": _meta_summary(dataset.meta)},
                "programs": programs_path,
                "programs_loaded": {"added": loaded[0], "skipped": loaded[1]} if programs_path else None,
                "init": initial.record if initial is not None else None,
                "model_class": f"{kit.ProgramModel.__module__}.{kit.ProgramModel.__qualname__}",
                "code": code_version(),
                "runtime": _runtime(device, actors, backend),
                "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            }
        )
    else:
        if ckpt is not None:  # else killed before its first checkpoint: it starts again at step 0
            model.load_state_dict(ckpt.model)
            buffer.load_records(ckpt.buffer, _env_of(train_pool))
            cache = ExploreCache.from_records(ckpt.explored)
            step, best, best_step = (
                ckpt.state["step"],
                ckpt.state.get("best_dev"),
                ckpt.state.get("best_step"),
            )
            seconds = float(ckpt.state.get("seconds", 0.0))
            evaluations = int(ckpt.state.get("evaluations", 0))
            # checkpoints written before these clocks existed only know the training-loop time: start there
            clock.resume(ckpt.state.get("wall_seconds", seconds), ckpt.state.get("cpu_seconds", seconds))
            metrics = [m for m in rundir.read_metrics() if m.get("step", 0) <= step]
        # the config keeps the settings in force (a later resume continues with them) and each resume's
        # step, code version and RESUMABLE settings, so a run continued by newer code says so
        resumed = {"step": step, "code": code_version(), "date": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        resumed.update({key: getattr(config, key) for key in RESUMABLE})
        resumed["runtime"] = _runtime(device, actors, backend)
        rundir.write_config(
            {**record, "train": config.to_json(), "resumes": [*record.get("resumes", []), resumed]}
        )

    model.to(device)
    model.train()
    params = [p for p in model.parameters() if p.requires_grad]
    # fine-tuned pretrained layers (model.encoder_train_layers) learn at their own, smaller rate
    tuned = {id(p) for p in getattr(model, "pretrained_parameters", lambda: [])()}
    groups = [{"params": [p for p in params if id(p) not in tuned], "lr_scale": 1.0}]
    if tuned:
        scale = config.encoder_learning_rate / config.learning_rate if config.learning_rate else 0.0
        groups.append({"params": [p for p in params if id(p) in tuned], "lr_scale": scale})
    optimizer = torch.optim.Adam(
        groups,
        lr=config.learning_rate,
        betas=(0.9, 0.999),
        weight_decay=config.weight_decay,
        decoupled_weight_decay=True,  # AdamW's decay; with weight_decay 0 this is plain Adam
    )
    if ckpt is not None:
        optimizer.load_state_dict(ckpt.optimizer)
    average = None
    if config.average_decay:
        # a resumed run that turns the average on starts it from the weights it resumes with
        since = step if ckpt is None or ckpt.average is None else int(ckpt.state.get("average_start", 0))
        average = WeightAverage(model, config.average_decay, since)
        if ckpt is not None and ckpt.average is not None:
            try:
                average.load(ckpt.average)
            except ValueError as exc:
                raise CheckpointError(f"{rundir.path}: {exc}") from None
    store = _prepare_questions(dataset, [(train_pool, train_ids), (dev_pool, dev_ids)], progress)
    spec = WorkerSpec(
        kit, model_json, vocab_json, dataset.source, config.train_split, limits, config.seed, store
    )
    workers = open_backend(backend, actors, spec, train_pool, device, address)

    def request(at: int) -> ActRequest:
        ids = batch_ids(train_ids, config.seed, at, config.questions_per_step)
        n_explore = []
        for qid in ids:
            n = 0
            if config.n_explore and not cache.exhausted(qid, train_pool.env(qid)):
                n = config.n_explore + (0 if buffer.programs(qid) else config.n_extra_explore_for_hard)
            n_explore.append(n)
        return ActRequest(
            at,
            config.seed,
            ids,
            [buffer.programs(q) for q in ids],
            [cache.table(q) for q in ids],
            n_explore,
            config.n_policy,
            config.algo == "self-critical",
            config.max_decode_steps,
            config.buffer_min_reward,
        )

    def admit(qid: str, env: Any, tokens: Tokens, reward: float) -> bool:
        """A found program joins the buffer when its reward clears the bar (and the size cap keeps it)."""
        return reward > config.buffer_min_reward and buffer.add(qid, env, tokens, reward, config.buffer_size)

    def cpu_state() -> dict:
        return cpu_copy(model.state_dict())

    def save_checkpoint() -> None:
        # metrics first, so they never run ahead of the checkpoint a resume reads
        rundir.write_metrics(metrics)
        rundir.save_checkpoint(
            Checkpoint(
                cpu_state(),
                optimizer.state_dict(),
                {
                    "step": step,
                    "best_dev": best,
                    "best_step": best_step,
                    "seconds": seconds,
                    "evaluations": evaluations,
                    **clock.columns(workers),
                    **({"average_start": average.start} if average is not None else {}),
                    # the steps since the last metrics line: a resume logs the same averages
                    "log_window": window,
                },
                list(buffer.to_records()),
                list(cache.to_records()),
                average.state() if average is not None else None,
            )
        )

    # ----- the loop ------------------------------------------------------------------------------------
    task = progress.add_task("training", total=config.n_steps, status="") if progress else None
    if progress:
        progress.update(task, completed=step)
    # the last evaluation stays on every later progress line: a piped log prints a line every N seconds,
    # and the line of an evaluation step itself may never be printed
    dev_status = "" if best is None else f", best dev {best:.3f} (step {best_step or 0:,})"
    window: list[dict] = list(ckpt.state.get("log_window", [])) if ckpt is not None else []
    if not all(isinstance(w, dict) and set(w) == set(_WINDOW_KEYS) for w in window):
        raise CheckpointError(f"{rundir.checkpoint_dir / 'state.json'} is corrupt: a bad log_window")
    window_start = time.perf_counter()
    stopped = out_of_time = False
    try:
        if ckpt is None:
            save_checkpoint()  # step 0: a run killed from here on resumes (`--resume`) instead of starting over
        if workers.overlaps and step < config.n_steps:
            workers.submit(step + 1, model.state_dict(), request(step + 1))
        while step < config.n_steps:
            step += 1
            t0 = time.perf_counter()

            # 1. act: exploration samples, buffer scores, on-policy samples (weights as of the last step with
            # actors that overlap the learner, else the current ones)
            if not workers.overlaps:
                workers.submit(step, model.state_dict(), request(step))
            result = workers.collect(step)
            ids = batch_ids(train_ids, config.seed, step, config.questions_per_step)
            evaluations += result.n_samples

            # 2. the buffer grows with every new consistent program; the exploration cache with every sample
            new_programs = 0
            questions: list[objectives.QuestionData] = []
            for i, qid in enumerate(ids):
                env = train_pool.env(qid)
                for tokens, r in result.explored[i]:
                    cache.add(qid, env, tokens)
                    new_programs += admit(qid, env, tokens, r)
                scored = result.scored[i]
                if config.buffer_size:  # programs the size cap pushed out
                    scored = [(t, lp) for t, lp in scored if buffer.reward(qid, t) is not None]
                if config.truncate_buffer_at and len(scored) > config.truncate_buffer_at:
                    scored = sorted(scored, key=lambda s: -s[1])[: config.truncate_buffer_at]
                    buffer.keep(
                        qid, [buffer.programs(qid).index(t) for t, _ in scored if t in buffer.programs(qid)]
                    )
                questions.append(
                    objectives.QuestionData(
                        [t for t, _ in scored],
                        [lp for _, lp in scored],
                        [objectives.Sample(t, r) for t, r in result.policy[i]],
                        result.greedy_reward[i],
                        [buffer.reward(qid, t) or 0.0 for t, _ in scored] if buffer.graded else None,
                    )
                )
            if workers.overlaps and step < config.n_steps:
                workers.submit(step + 1, model.state_dict(), request(step + 1))  # overlaps with learning
            for i, qid in enumerate(ids):  # after weighting in OFF; the weights below use `questions`
                for tokens, r in result.policy[i]:
                    new_programs += admit(qid, train_pool.env(qid), tokens, r)

            # 3. weights
            now = config.at_step(step)  # scheduled settings (alpha) resolved
            items, stats = objectives.weigh(now, questions, generator(config.seed, step, "replay"))

            # 4. loss, backward, clip, step (at the scheduled learning rate)
            for group in optimizer.param_groups:
                group["lr"] = now.learning_rate * group.get("lr_scale", 1.0)
            loss_value = _learn(model, optimizer, params, now, items, [train_pool.get(q) for q in ids], step)
            if average is not None:
                average.update(model, step)

            # 5. log
            policy_rewards = [r for p in result.policy for _, r in p]
            drawn = policy_rewards or [r for e in result.explored for _, r in e]
            window.append(
                {
                    "loss": loss_value,
                    "reward": sum(drawn) / len(drawn) if drawn else None,
                    "new_programs": new_programs,
                    "samples": len(items),
                    "clip_frac": stats.clipped / len(ids),
                    "pi_b": stats.pi_b / stats.with_buffer if stats.with_buffer else None,
                    "questions": len(ids),
                }
            )
            seconds += time.perf_counter() - t0
            if progress:
                progress.update(task, completed=step, status=f"loss {loss_value:.4f}{dev_status}")
            out_of_time = bool(config.max_minutes) and clock.wall() >= 60.0 * config.max_minutes
            # the evaluation budget spent, or a single-problem world solved: ends the run like the clock
            out_of_budget = bool(config.max_evaluations) and evaluations >= config.max_evaluations
            out_of_budget = out_of_budget or (
                bool(config.stop_at_reward) and buffer.max_reward() >= config.stop_at_reward
            )
            finishing = out_of_time or out_of_budget
            last = step == config.n_steps or finishing
            line = None
            if step % max(1, config.log_every) == 0 or last or _eval_due(config, step):
                elapsed = time.perf_counter() - window_start
                line = _metrics_line(step, window, buffer.coverage(train_ids), len(buffer), elapsed)
                line["evaluations"] = evaluations
                window, window_start = [], time.perf_counter()

            # 6. evaluate on dev, keep the best weights
            if _eval_due(config, step) or finishing:
                with average.applied(model) if average is not None else contextlib.nullcontext():
                    acc = accuracy(
                        model,
                        dev_pool,
                        dev_ids,
                        config.eval_beam,
                        config.eval_batch_size,
                        config.eval_vote,
                        config.max_decode_steps,
                    )
                    if best is None or acc > best:
                        best, best_step = acc, step
                        info = {"step": step, "dev_accuracy": acc, "split": config.dev_split}
                        rundir.save_best(cpu_state(), {**info, "averaged": average is not None})
                assert line is not None
                line["dev_accuracy"] = round(acc, 6)
                dev_status = f", dev {acc:.3f} at step {step:,}, best {best:.3f} (step {best_step:,})"
                if progress:
                    progress.update(task, status=f"loss {loss_value:.4f}{dev_status}")
            if line is not None:
                line.update(clock.columns(workers))  # after the evaluation, so its time is counted
                metrics.append(line)
                if on_log:
                    on_log(line)

            if stop_after is not None and step >= stop_after and step < config.n_steps:
                stopped = True
                break

            # 7. checkpoint
            if step % config.checkpoint_every == 0 or last:
                save_checkpoint()
            if finishing:
                break
    finally:
        workers.close()
    n_questions = sum(m.get("questions", 0) for m in metrics)
    return TrainResult(
        str(rundir.path),
        step,
        best,
        best_step,
        buffer.coverage(train_ids),
        len(buffer),
        seconds,
        n_questions / seconds if seconds else 0.0,
        stopped,
        last=metrics[-1] if metrics else {},
        wall_seconds=clock.wall(),
        stopped_by_time=out_of_time,
    )


#: Settings a resumed run may change: how long it goes on and which weights evaluation sees (turned on at a
#: resume, the weight average starts there), nothing about how it learns.
RESUMABLE = ("n_steps", "max_minutes", "average_decay")


def _runtime(device: str, actors: int, backend: str) -> dict[str, Any]:
    """How the run is executed: not hyper-parameters, but actors change which (slightly stale) policy
    samples, and the rest explains its speed."""
    return {
        "device": device,
        "actors": actors,
        "backend": backend,
        "torch_threads": torch.get_num_threads(),
        "cpus": os.cpu_count(),
        "host": platform.node(),
        "python": platform.python_version(),
        "torch": torch.__version__,
    }


class _Clock:
    """Wall-clock and CPU time of a run, summed over resumes. Counted from the start of `train`, so loading
    data and evaluations are included: what a user waits. CPU time adds the actor processes' own (`actors`)."""

    def __init__(self) -> None:
        self.wall0, self.cpu0 = time.perf_counter(), time.process_time()
        self.wall_before = self.cpu_before = 0.0

    def resume(self, wall: float, cpu: float) -> None:
        self.wall_before, self.cpu_before = float(wall), float(cpu)

    def wall(self) -> float:
        return self.wall_before + time.perf_counter() - self.wall0

    def columns(self, actors: SamplingBackend | None = None) -> dict[str, float]:
        workers = actors.cpu_seconds() if actors is not None else 0.0
        return {
            "wall_seconds": round(self.wall(), 3),
            "cpu_seconds": round(self.cpu_before + time.process_time() - self.cpu0 + workers, 3),
        }


def _eval_due(config: TrainConfig, step: int) -> bool:
    return step == config.n_steps or bool(config.eval_every and step % config.eval_every == 0)


def _learn(
    model: Any,
    optimizer: torch.optim.Optimizer,
    params: list,
    config: TrainConfig,
    items: list[objectives.Item],
    questions: list,
    step: int,
) -> float:
    """One optimizer step on the weighted items; returns the loss. Dropout masks derive from (seed, step)."""
    if not items:
        return 0.0
    use_entropy = config.entropy_coeff != 0.0
    exact_entropy = use_entropy and hasattr(model, "log_probs_and_entropy")
    needed = [
        j
        for j, it in enumerate(items)
        if it.weight != 0.0
        or it.kind == "critic"
        or (use_entropy and (exact_entropy or it.kind != "replay"))
        or (config.trainer_prob and it.kind == "replay")
    ]
    if not needed:
        return 0.0
    torch.manual_seed(derive_seed(config.seed, step, "learn"))
    model.train()
    chosen = [items[j] for j in needed]
    contexts = [questions[it.question].context for it in chosen]
    envs = [questions[it.question].env for it in chosen]
    programs = [it.tokens for it in chosen]
    entropy = None
    if exact_entropy:
        logps, entropy = model.log_probs_and_entropy(contexts, envs, programs)
    else:
        logps = model.log_probs(contexts, envs, programs)
        if use_entropy:
            on_policy = torch.tensor([it.kind != "replay" for it in chosen], device=logps.device)
            entropy = objectives.entropy_estimate(logps[on_policy])
    critic = None
    if config.trainer_prob and config.algo == "mapo":
        weights = torch.tensor(objectives.reweigh_with_learner(chosen, logps, config), dtype=logps.dtype)
    elif any(it.kind == "critic" for it in chosen):
        values = model.value(contexts)  # the learned baseline V(problem), one per item
        weights = objectives.advantages(chosen, values)
        critic = config.value_coeff * objectives.value_loss(chosen, values)
    else:
        weights = torch.tensor([it.weight for it in chosen], dtype=logps.dtype)
    total = objectives.loss(weights.to(logps.device), logps, entropy, config, len(items))
    if critic is not None:
        total = total + critic
    optimizer.zero_grad(set_to_none=True)
    total.backward()
    if config.max_grad_norm > 0:
        torch.nn.utils.clip_grad_norm_(params, config.max_grad_norm)
    optimizer.step()
    value = float(total.detach())
    return value if math.isfinite(value) else float("nan")


#: What each step adds to the metrics window (`_metrics_line` averages or sums them).
_WINDOW_KEYS = ("loss", "reward", "new_programs", "samples", "clip_frac", "pi_b", "questions")


def _metrics_line(step: int, window: list[dict], coverage: float, n_programs: int, elapsed: float) -> dict:
    def mean(key: str) -> float | None:
        values = [w[key] for w in window if w[key] is not None]
        return round(sum(values) / len(values), 6) if values else None

    questions = sum(w["questions"] for w in window)
    return {
        "step": step,
        "loss": mean("loss"),
        "train_reward": mean("reward"),
        "buffer_coverage": round(coverage, 6),
        "buffer_programs": n_programs,
        "new_programs": sum(w["new_programs"] for w in window),
        "samples": sum(w["samples"] for w in window),
        "clip_frac": mean("clip_frac"),
        "pi_b": mean("pi_b"),
        "questions": questions,
        "questions_per_second": round(questions / elapsed, 3) if elapsed > 0 else None,
    }


def _problem_seed(rundir: RunDir, resume: bool, overrides: dict[str, Any] | None) -> int:
    """The seed that chooses a generated world's problems (Karel's initial states): the run's own."""
    if resume and rundir.exists():
        with contextlib.suppress(CheckpointError, KeyError, TypeError, ValueError, AttributeError):
            return int(rundir.read_config()["train"].get("seed", TrainConfig().seed))  # else: reported later
    seed = (overrides or {}).get("seed", TrainConfig().seed)
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else TrainConfig().seed


def _env_of(pool: QuestionPool) -> Callable[[str], Any]:
    return lambda qid: pool.env(qid) if qid in pool.examples else None


def _earned(pool: QuestionPool, min_reward: float) -> Callable[[str, Any, tuple], float | None]:
    """A saved program's reward on its problem, None when it does not exceed the buffer's bar (as found ones)."""

    def reward(qid: str, env: Any, tokens: tuple) -> float | None:
        earned = pool.dataset.scorer(pool.examples[qid], env)(tokens)[0]
        return earned if earned > min_reward else None

    return reward


def _meta_summary(meta: dict) -> dict:
    keep = (
        "format",
        "preprocess_version",
        "nsm_version",
        "dataset",
        "language",
        "linking",
        "created",
        "examples",
    )
    return {k: meta[k] for k in keep if k in meta}
