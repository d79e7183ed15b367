"""A Karel task as `nsmcli.protocols.ProblemSet`: `karel:harvester` and a seed.

Splits: `train` is one problem, the task's 10 training states drawn from the run's seed (LEAPS's
num_demo_per_program, fixed for the whole run as MAPO needs a deterministic reward); `dev` is one problem
with 1,000 fresh states, and `dev-100x100` (tasks whose generator takes a grid size) the same on 100x100
grids for LEAPS's zero-shot test (§4.2), with 100 states by default. The dev states come from one seed string per task and size
(`tasks.dev_stream`, e.g. `karel/harvester/dev`), which no training stream (`karel/harvester/train/seed=N`)
equals, and are shared by all seeds, so every run is judged on the same states.

Reward: the mean task score over the problem's states on the paper's scale (no 0.1 syntax bonus), clipped
at 0. Only HARVESTER can score below 0 (a program that adds markers); clipping the mean, not each state,
keeps the reward equal to the paper's figure whenever that is not negative. An invalid or unfinished
program earns 0 and is not finished. Rewards are cached by program tokens; `evaluations` counts the
programs actually run (one program on one problem's states = 1), as the search and the trainer report.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from nsmcli.errors import DataError, GrammarError
from nsmcli.protocols import Scorer
from nsmcli.worlds.karel.env import DEFAULT_MAX_LENGTH, END, KarelEnvironment
from nsmcli.worlds.karel.interpreter import DEFAULT_MAX_CALLS
from nsmcli.worlds.karel.tasks import (
    DEV_STATES,
    TRAIN_STATES,
    StateSet,
    Task,
    dev_states,
    dev_stream,
    get_task,
    train_stream,
    training_states,
)

WORLD = "karel"
_SIZED_SPLIT = re.compile(r"^dev-(\d+)x(\d+)$")
#: The zero-shot split LEAPS reports (its Table 9), and its number of states (a 100x100 maze takes a while
#: to grow, and 100 states already tell 0.2 from 1.0).
BIG_SPLIT = "dev-100x100"
BIG_STATES = 100


def parse_spec(spec: str) -> Task:
    """The task of `karel:TASK` (any case); DataError otherwise."""
    world, _, name = spec.partition(":")
    if world.strip().lower() != WORLD or not name.strip():
        raise DataError(f"a Karel environment is written karel:TASK (e.g. karel:harvester), not {spec!r}")
    return get_task(name)


@dataclass(frozen=True)
class KarelProblem:
    """One problem: a task and its initial states."""

    id: str
    task: str
    split: str
    states: StateSet = field(compare=False, repr=False)


def problem_id(task: str, split: str, seed: int) -> str:
    """The id of a task's problem on a split: training states differ per seed, the dev ones do not."""
    return f"{task}/{split}/seed={seed}" if split == "train" else f"{task}/{split}"


class KarelProblemSet:
    """The problems of one Karel task for one seed."""

    def __init__(
        self,
        spec: str,
        seed: int = 1,
        *,
        leaps_compat: bool = True,
        train_states: int = TRAIN_STATES,
        dev_count: int = DEV_STATES,
        big_count: int = BIG_STATES,
        max_length: int = DEFAULT_MAX_LENGTH,
    ):
        self.task = parse_spec(spec)
        self.seed = seed
        self.leaps_compat = leaps_compat
        self.train_count = train_states
        self.dev_count = dev_count
        self.big_count = big_count
        self.max_length = max_length
        self._env = KarelEnvironment(max_length=max_length)
        self._examples: dict[str, list[KarelProblem]] = {}
        self._rewards: dict[tuple[str, tuple[int, ...]], tuple[float, bool]] = {}
        #: programs run, per split (cache hits not counted)
        self.evaluations_by_split: Counter[str] = Counter()

    @property
    def world(self) -> str:
        return WORLD

    @property
    def splits(self) -> list[str]:
        return ["train", "dev"] + ([BIG_SPLIT] if self.task.resizable else [])

    @property
    def evaluations(self) -> int:
        """Programs run on a problem's states so far, all splits together."""
        return sum(self.evaluations_by_split.values())

    @property
    def meta(self) -> dict[str, Any]:
        return {
            "task": self.task.name,
            "seed": self.seed,
            "leaps_compat": self.leaps_compat,
            "train_states": self.train_count,
            "dev_states": self.dev_count,
            "big_states": self.big_count,
            "max_length": self.max_length,
            "max_calls": DEFAULT_MAX_CALLS,
            "train_stream": train_stream(self.task, self.seed),
            "dev_stream": dev_stream(self.task),
        }

    @property
    def source(self) -> str:
        return f"{WORLD}:{self.task.name}"

    def load(self) -> None:
        """Nothing to read: the states are generated from the seed wherever the set goes."""

    def examples(self, split: str) -> list[KarelProblem]:
        if split not in self._examples:
            self._examples[split] = [self._problem(split)]
        return self._examples[split]

    def _problem(self, split: str) -> KarelProblem:
        if split == "train":
            states = training_states(self.task, self.seed, self.train_count, leaps_compat=self.leaps_compat)
        elif split == "dev":
            states = dev_states(self.task, self.dev_count, leaps_compat=self.leaps_compat)
        else:
            match = _SIZED_SPLIT.match(split)
            if not match or match.group(1) != match.group(2):
                raise DataError(
                    f"karel:{self.task.name} has no split {split!r}; choose {', '.join(self.splits)}"
                )
            size = int(match.group(1))
            states = dev_states(self.task, self.big_count, size=size, leaps_compat=self.leaps_compat)
        return KarelProblem(problem_id(self.task.name, split, self.seed), self.task.name, split, states)

    def bind(self, example: KarelProblem, limits: Any = None) -> KarelEnvironment:
        """The token reader; `limits` may give another length budget (an int, or an object with
        `max_length`), else the set's own."""
        if isinstance(limits, dict):  # a run's recorded limits
            limits = limits.get("max_length")
        max_length = limits if isinstance(limits, int) else getattr(limits, "max_length", None)
        if max_length is None or max_length == self.max_length:
            return self._env
        return KarelEnvironment(max_length=max_length)

    def scorer(self, example: KarelProblem, env: KarelEnvironment | None = None) -> Scorer:
        env = env or self._env

        def score(tokens: Sequence[int]) -> tuple[float, bool]:
            key = (example.id, tuple(tokens))
            cached = self._rewards.get(key)
            if cached is None:
                cached = self._rewards[key] = self._reward(example, env, tokens)
            return cached

        return score

    def _reward(
        self, example: KarelProblem, env: KarelEnvironment, tokens: Sequence[int]
    ) -> tuple[float, bool]:
        if not tokens or tokens[-1] != END:
            return 0.0, False
        try:
            program = env.program(tokens)
        except GrammarError:
            return 0.0, False
        self.evaluations_by_split[example.split] += 1
        return max(0.0, example.states.score(program)), True

    def score(self, example: KarelProblem, tokens: Sequence[int]) -> float:
        """A finished program's mean score on the paper's scale (negative kept), not cached or counted."""
        return example.states.score(self._env.program(tokens))

    def words(self, example: KarelProblem) -> Sequence[str]:
        return list(self.task.words)

    def credit(self, example: KarelProblem, env: KarelEnvironment, tokens: Sequence[int]) -> float:
        """The reward on the problem's states (the mean task score, clipped at 0)."""
        return self.scorer(example, env)(tokens)[0]

    def text(self, example: KarelProblem) -> str:
        return f"{self.task.title} ({example.split}, {len(example.states)} states)"

    def word_counts(self, split: str) -> dict[str, int]:
        return dict(Counter(self.task.words))
