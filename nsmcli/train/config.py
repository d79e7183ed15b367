"""Every training hyper-parameter in one dataclass, with presets per world and overrides that refuse typos.

Layers, as in nanoGPT: the dataclass defaults (WTQ MAPO as published, mapo.md §5.4), then the preset of the
problems' world (`nsmcli.worlds.World.train_preset`), then the algorithm's variant settings (§5.3), then `--set key=value`. The resolved config
is written into the run directory, so a run describes itself.

Defaults fix the original's bugs (mapo.md §8.2): entropy regularisation maximises entropy, no (1-w)^2 on
non-replay samples, the loss is divided by the number of samples actually in the batch. The flags
`entropy_sign`, `squared_nonreplay_weight` and `normalize_by` restore the original behaviour.
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass, fields
from typing import Any

from nsmcli.errors import NsmError

ALGOS = ("mapo", "reinforce", "actor-critic", "mml", "iml", "hard-em", "self-critical")


class ConfigError(NsmError):
    """An unknown hyper-parameter, a value of the wrong type, or an inconsistent combination."""


#: The widest beam decoding accepts: each beam entry keeps decoder states for every question of a batch,
#: so a beam of 100,000 asked for more than 7 GB before failing.
MAX_BEAM = 256

#: JSON types a config file may hold for a field of each declared type (`set_field(..., strict=True)`).
_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "bool": (bool,),
    "int": (int,),
    "float": (int, float),
    "str": (str,),
}


def set_field(config: Any, key: str, value: Any, prefix: str = "", *, strict: bool = False) -> None:
    """Set field `key` of the dataclass `config` from a value or its `--set` text, converted to the field's
    declared type (bool, int, float or str); unknown names and values that do not convert are a ConfigError
    naming the field as `prefix + key`. The one home of `--set` conversion, for training and model configs.

    `strict` is for values read from a run's config.json, which nsm wrote with JSON types: there a string
    "true" for a flag or 1.5 for a count is damage, not a spelling to convert, and a number must be finite."""
    kinds = {f.name: f.type if isinstance(f.type, str) else f.type.__name__ for f in fields(config)}
    if key not in kinds:
        known = ", ".join(prefix + name for name in sorted(kinds))
        raise ConfigError(f"unknown hyper-parameter {prefix + key!r}; known: {known}")
    kind = kinds[key]
    if strict and kind in _JSON_TYPES:
        allowed = _JSON_TYPES[kind]
        if (
            not isinstance(value, allowed)
            or (isinstance(value, bool) and kind != "bool")
            or (isinstance(value, float) and not math.isfinite(value))
        ):
            raise ConfigError(f"{prefix + key} must be a JSON {kind}, got {_brief_value(value)}")
    try:
        if kind == "bool":
            if isinstance(value, str):
                if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError(value)
                value = value.lower() in ("true", "1", "yes")
            elif not isinstance(value, bool):
                raise ValueError(value)
        elif kind == "int":
            if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                raise ValueError(value)
            value = int(value)
        elif kind == "float":
            if isinstance(value, bool):
                raise ValueError(value)
            value = float(value)
        else:
            value = str(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{prefix + key} must be {kind}, got {value!r}") from None
    setattr(config, key, value)


def _brief_value(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:40]}... ({type(value).__name__})"


@dataclass
class TrainConfig:
    """Hyper-parameters of one training run. Field docstrings say what each one does and why."""

    algo: str = "mapo"
    """Objective: mapo, reinforce, actor-critic, mml, iml, hard-em or self-critical. All share one loop and
    one sampler."""
    seed: int = 0
    """Every random draw derives from (seed, step, example ids), so a resumed run repeats an uninterrupted one."""
    n_steps: int = 25000
    """Optimizer steps (WTQ 25k as in run.sh; WikiSQL 15k)."""
    max_minutes: float = 0.0
    """Stop after the step at which the run's wall-clock time (set-up and evaluations included, summed over
    resumes) reaches this many minutes; that step then evaluates and checkpoints as a last step. 0 = no
    limit. For runs compared at equal time; a time limit makes where a run stops depend on the machine."""
    questions_per_step: int = 25
    """Questions per step: OFF's batch_size / (n_replay + n_policy) = 50/2 on WTQ, 750/6 on WikiSQL."""
    train_split: str = ""
    """Training split name; empty = the preset's (random-split-1-train for WTQ, train for WikiSQL)."""
    dev_split: str = ""
    """Split evaluated every `eval_every` steps; empty = the preset's."""

    # ----- optimisation ------------------------------------------------------------------------------------
    learning_rate: float = 1e-3
    """Adam learning rate (beta1 0.9), as published; constant unless `learning_rate_end` is set."""
    learning_rate_end: float = -1.0
    """Cosine decay: the learning rate falls from `learning_rate` to this value over `learning_rate_steps`
    steps and stays there (-1 = constant, as published). Not in the original. On WTQ (decay to 1e-4 over a
    two-hour run) it did not help: level with the constant rate to step 13,000, then dev accuracy fell as the
    training reward rose (BENCHMARKS.md)."""
    learning_rate_steps: int = 0
    """Length of the cosine decay in steps (needed with `learning_rate_end`; a number, not `n_steps`, so a
    resume that extends a run does not change its past)."""
    weight_decay: float = 0.0
    """Decoupled weight decay (AdamW): each step first shrinks every weight by `learning_rate * weight_decay`
    (0 = plain Adam, as published). Not in the original; a regulariser against fitting the buffer's
    spurious programs."""
    encoder_learning_rate: float = 5e-5
    """Learning rate of the pretrained encoder's fine-tuned layers (`model.encoder_train_layers`), scaled by
    the same schedule as `learning_rate`: BERT fine-tuning takes rates near 1e-5 to 1e-4, and 1e-3 would wipe
    out what pretraining learned. Unused when the encoder is frozen (the default)."""
    max_grad_norm: float = 5.0
    """Global gradient-norm clipping."""
    entropy_coeff: float = 0.01
    """Entropy regularisation weight (WTQ 0.01, WikiSQL 0)."""
    entropy_sign: str = "correct"
    """`correct` maximises entropy; `official` reproduces OFF's sign bug, which minimises it (mapo.md §4.5)."""
    average_decay: float = 0.0
    """Evaluate (and keep as `best/`) an exponential moving average of the weights with this decay per step,
    e.g. 0.9995 (the WTQ preset; a horizon of about 2,000 steps); 0 evaluates the trained weights themselves,
    as published (and as the WikiSQL preset does, not yet measured there).
    Training and sampling always use the trained weights. A resumed run may turn it on (it then starts from
    the weights at that step), change it or turn it off. Not in the original."""
    normalize_by: str = "samples"
    """`samples` divides the loss by the number of samples in the batch; `batch_size` reproduces OFF, which
    divides by the configured batch size times n_replay (so a batch with fewer samples takes a smaller step)."""

    # ----- sampling and the buffer -------------------------------------------------------------------------
    n_explore: int = 1
    """Exploration samples per question per step, drawn from the policy with systematic exploration (a
    finished program is never drawn twice). They only feed the buffer."""
    n_extra_explore_for_hard: int = 0
    """More exploration samples for questions whose buffer is empty (WikiSQL: 9)."""
    n_policy: int = 1
    """On-policy samples per question per step (MAPO's out-of-buffer term; REINFORCE's samples)."""
    n_replay: int = 1
    """Buffer programs per question per step; when a buffer holds at most this many they are enumerated."""
    replay_mode: str = "sample"
    """How buffer programs are chosen: `sample` (with replacement, proportional to the model's probability),
    `top_k` (the most probable, weights renormalised), `uniform` (IML)."""
    truncate_buffer_at: int = 0
    """Keep only the top-n buffer programs by model probability, permanently (WikiSQL: 5; 0 = never)."""
    buffer_min_reward: float = 0.5
    """A program enters the buffer when its reward exceeds this: the consistent programs of the 0/1 table
    rewards; any rewarded program where rewards are graded (Karel: 0)."""
    buffer_size: int = 0
    """Keep only the N highest-reward programs per problem (graded rewards; 0 = every program)."""
    max_evaluations: int = 0
    """Stop after the step at which the training problems' programs scored reach this many (the program-
    evaluation budget of program-synthesis benchmarks; 0 = no budget)."""
    stop_at_reward: float = 0.0
    """Stop once some training problem's buffer holds a program of this reward (a single-problem world
    solved: Karel at 1.0 on its training states; 0 = never)."""
    value_coeff: float = 0.5
    """actor-critic: weight of the value head's squared error in the loss."""
    min_replay_weight: float = 0.1
    """MAPO's memory-weight clipping alpha: the in-buffer term is weighted max(pi_B, alpha)."""
    min_replay_weight_start: float = -1.0
    """Anneal alpha: start at this value and move linearly to `min_replay_weight` over
    `min_replay_weight_steps` steps (-1 = no schedule). Starting at 1 makes early MAPO train like MML (the
    buffer term gets weight 1, on-policy samples 0), which learns faster while pi_B is still tiny; the
    published alpha then takes over. Not in the original."""
    min_replay_weight_steps: int = 0
    """Length of the alpha schedule in steps."""
    trainer_prob: bool = False
    """Recompute the replay weights from the learner's own probabilities (OFF's use_trainer_prob, WikiSQL)."""
    squared_nonreplay_weight: bool = False
    """Reproduce OFF's WikiSQL quirk: with trainer_prob the non-replay weight is applied twice, (1-w)^2."""
    use_baseline: bool = False
    """REINFORCE: subtract the mean reward of the question's own samples."""
    max_decode_steps: int = 30
    """Longest token sequence the sampler produces."""
    max_expressions: int = 0
    """Interpreter limit on expressions per program (0 = the language's: WTQ 3, WikiSQL 4). Saved with the
    run, so evaluation decodes under the limits the model was trained with (mapo.md §6.1 pitfall)."""

    # ----- evaluation, checkpoints, logging ----------------------------------------------------------------
    eval_every: int = 200
    """Evaluate on the dev split every this many steps (and at the end); 0 = only at the end. The presets
    use 1,000 (WTQ) and 200 on a random 2,000 dev questions (WikiSQL)."""
    eval_beam: int = 5
    """Beam size of the dev evaluation; 0 = greedy decoding."""
    eval_vote: str = "answer"
    """Which beam program answers at the dev evaluation: `answer` (the most probable program of the answer
    whose programs sum highest, nsm's default) or `program` (the most probable program, as OFF)."""
    eval_max_questions: int = 0
    """Evaluate on n dev questions only (0 = all): a cheap signal for long runs. Which n: `eval_sample`."""
    eval_sample: str = "first"
    """Which questions `eval_max_questions` keeps: `first` (the split's first n, as older runs did) or
    `random` (a fixed random sample, the same for every run and seed, so runs stay comparable). On WikiSQL
    the first 2,000 dev questions are easier than the rest (73.6% vs 66.2% on all 8,421 for one model), so
    `random` is the better stand-in for the whole split."""
    eval_batch_size: int = 50
    """Questions decoded together at evaluation."""
    checkpoint_every: int = 100
    """Write a resumable checkpoint every this many steps (and at the end)."""
    log_every: int = 10
    """Append a metrics line every this many steps (averages over the window)."""

    # ----- derived -----------------------------------------------------------------------------------------
    @property
    def batch_size(self) -> int:
        """OFF's batch_size (trajectories per step), used by `normalize_by=batch_size`."""
        return self.questions_per_step * (self.n_replay + self.n_policy)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def at_step(self, step: int) -> TrainConfig:
        """The settings in force at `step` (1-based): scheduled values resolved, everything else as is."""

        def done(length: int) -> float:  # the part of a schedule of `length` steps behind us at `step`
            return min(1.0, max(0, step - 1) / length)

        changes: dict[str, float] = {}
        if self.min_replay_weight_start != -1.0:
            frac = done(self.min_replay_weight_steps)
            start, end = self.min_replay_weight_start, self.min_replay_weight
            changes["min_replay_weight"] = start + frac * (end - start)
        if self.learning_rate_end != -1.0:
            frac = done(self.learning_rate_steps)
            start, end = self.learning_rate, self.learning_rate_end
            changes["learning_rate"] = end + (start - end) * 0.5 * (1.0 + math.cos(math.pi * frac))
        return dataclasses.replace(self, **changes) if changes else self

    @classmethod
    def from_json(cls, record: dict[str, Any]) -> TrainConfig:
        if not isinstance(record, dict):
            raise ConfigError(f"the training settings must be a JSON object, got {_brief_value(record)}")
        config = cls()
        for key, value in record.items():
            set_field(config, key, value, strict=True)
        config.validate()
        return config

    def set(self, key: str, value: Any) -> None:
        """Set one field, refusing unknown names and values that do not convert to the field's type."""
        set_field(self, key, value)

    def override(self, assignments: list[str]) -> None:
        """Apply `key=value` strings (the CLI's --set)."""
        for item in assignments:
            key, sep, value = item.partition("=")
            if not sep:
                raise ConfigError(f"--set expects key=value, got {item!r}")
            self.set(key.strip().replace("-", "_"), value.strip())
        self.validate()

    def validate(self) -> None:
        if self.algo not in ALGOS:
            raise ConfigError(f"unknown algorithm {self.algo!r}; choose one of: {', '.join(ALGOS)}")
        choices = {
            "entropy_sign": ("correct", "official"),
            "normalize_by": ("samples", "batch_size"),
            "replay_mode": ("sample", "top_k", "uniform"),
            "eval_sample": ("first", "random"),
            "eval_vote": ("answer", "program"),
        }
        for key, allowed in choices.items():
            if getattr(self, key) not in allowed:
                raise ConfigError(f"{key} must be one of {', '.join(allowed)}, got {getattr(self, key)!r}")
        positive = (
            "questions_per_step",
            "n_replay",
            "max_decode_steps",
            "eval_batch_size",
            "checkpoint_every",
        )
        for key in positive:
            if getattr(self, key) < 1:
                raise ConfigError(f"{key} must be at least 1")
        if self.max_minutes < 0:
            raise ConfigError("max_minutes must not be negative")
        for key in (
            "n_steps",
            "n_explore",
            "n_extra_explore_for_hard",
            "n_policy",
            "eval_every",
            "log_every",
        ):
            if getattr(self, key) < 0:
                raise ConfigError(f"{key} must not be negative")
        if self.algo in ("reinforce", "self-critical") and self.n_policy < 1:
            raise ConfigError(f"{self.algo} needs n_policy >= 1")
        if not 0.0 <= self.average_decay < 1.0:
            raise ConfigError("average_decay must be in [0, 1): 0 turns the weight average off")
        if not 0.0 <= self.min_replay_weight <= 1.0:
            raise ConfigError("min_replay_weight must be in [0, 1]")
        if self.min_replay_weight_start != -1.0 and not 0.0 <= self.min_replay_weight_start <= 1.0:
            raise ConfigError("min_replay_weight_start must be in [0, 1], or -1 for no schedule")
        if self.min_replay_weight_start != -1.0 and self.min_replay_weight_steps < 1:
            raise ConfigError("an alpha schedule needs min_replay_weight_steps >= 1")
        if self.encoder_learning_rate < 0:
            raise ConfigError("encoder_learning_rate must not be negative")
        if self.learning_rate < 0:
            raise ConfigError("learning_rate must not be negative (0 freezes the weights)")
        if self.learning_rate_end != -1.0 and not 0.0 <= self.learning_rate_end <= self.learning_rate:
            raise ConfigError("learning_rate_end must be in [0, learning_rate], or -1 for a constant rate")
        if not 0.0 <= self.weight_decay < 1.0 / max(self.learning_rate, 1e-12):
            raise ConfigError(
                "weight_decay must be >= 0 and below 1 / learning_rate (it shrinks each weight)"
            )
        if self.learning_rate_end != -1.0 and self.learning_rate_steps < 1:
            raise ConfigError("a learning-rate decay needs learning_rate_steps >= 1")


#: Per-algorithm settings (mapo.md §5.3), applied over the world's preset; a world adds its own
#: (`World.variants`) over these.
VARIANTS: dict[str, dict[str, Any]] = {
    "mapo": {},
    "mml": {"n_policy": 0, "trainer_prob": False},  # pure MML: OFF's WikiSQL mml clipped it too
    "iml": {"n_policy": 0, "replay_mode": "uniform", "truncate_buffer_at": 0, "trainer_prob": False},
    "hard-em": {"n_replay": 1, "n_policy": 0, "replay_mode": "top_k", "trainer_prob": False},
    "reinforce": {"n_explore": 0, "n_extra_explore_for_hard": 0, "trainer_prob": False},
    "actor-critic": {"n_explore": 0, "n_extra_explore_for_hard": 0, "trainer_prob": False},
    "self-critical": {"n_explore": 0, "n_extra_explore_for_hard": 0, "trainer_prob": False},
}


def resolve_config(world: str, algo: str = "mapo", overrides: dict[str, Any] | None = None) -> TrainConfig:
    """Defaults -> the world's preset -> the algorithm's variant (generic, then the world's) -> explicit
    overrides. `world` is a registry name (`nsmcli.worlds`)."""
    from nsmcli.worlds import get_world

    entry = get_world(world)
    config = TrainConfig()
    config.set("algo", algo)
    for key, value in entry.train_preset.items():
        config.set(key, value)
    for variant in (VARIANTS.get(algo, {}), entry.variants.get(algo, {})):
        for key, value in variant.items():
            config.set(key, value)
    for key, value in (overrides or {}).items():
        config.set(key, value)
    config.validate()
    return config


def describe_fields() -> dict[str, str]:
    """Field name -> its docstring (for --help and the config file's comments)."""
    import ast
    import inspect
    import textwrap

    tree = ast.parse(textwrap.dedent(inspect.getsource(TrainConfig)))
    docs: dict[str, str] = {}
    body = tree.body[0].body  # type: ignore[attr-defined]
    for node, after in zip(body, body[1:], strict=False):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
        ):
            docs[node.target.id] = " ".join(str(after.value.value).split())
    return docs


def dumps(config: TrainConfig) -> str:
    return json.dumps(config.to_json(), indent=2)
