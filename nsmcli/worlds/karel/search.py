"""Stochastic hill climbing in program space (Carvalho, Tjhia and Lelis, ICLR 2024; karel.md §4.4).

Start from a program sampled from the grammar; a neighbour replaces one node of the syntax tree (a
statement, a run of statements a sequence node covers, a condition, a REPEAT count) with a freshly sampled
one of the same kind, within the length budget (45 tokens after DEF, as decoding). Up to `neighbours`
neighbours are tried in turn and the climb moves to the first that scores higher on the training states
(first improvement; equal scores are taken too while `sideways` moves remain, which crosses the flat
regions of the sparse tasks); when none does, it restarts from a new random program. It stops at a
perfect score that also holds on fresh training batches (see `HillClimber`), then tries to shorten the
program, or when `budget` program evaluations (one program on 10 states = 1; a program met again is not
run again and costs nothing) are spent. Everything is drawn from seeded `random.Random`s, so a seed gives
the same programs in the same order.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from nsmcli.fileio import atomic_write_json, atomic_write_text, output_lock, staged_directory
from nsmcli.worlds.karel.dsl import (
    Action,
    Cond,
    If,
    IfElse,
    Program,
    Repeat,
    While,
    program_size,
    program_text,
    statement_tokens,
)
from nsmcli.worlds.karel.env import DEFAULT_MAX_LENGTH, KarelEnvironment
from nsmcli.worlds.karel.problems import problem_id
from nsmcli.worlds.karel.tasks import StateSet, Task, dev_states, get_task, train_stream
from nsmcli.worlds.karel.world import ACTIONS, PERCEPTIONS

ALGO = "hill-climbing"
DEFAULT_BUDGET = 65_000


@dataclass(frozen=True)
class SearchConfig:
    """The settings of one climb (written to the run's config.json)."""

    task: str
    seed: int = 1
    budget: int = DEFAULT_BUDGET
    neighbours: int = 250
    sideways: int = 50
    #: evaluations spent, once a program is perfect, on shortening it without losing score
    polish: int = 3000
    #: the best programs written to programs.jsonl, which `nsm train --programs` puts in MAPO's buffer
    keep: int = 16
    #: batches of 10 more training states a perfect program must also solve (see HillClimber)
    check_batches: int = 8
    #: the most batches of 10 the objective grows to, and the evaluations between two scheduled batches
    max_batches: int = 10
    grow_every: int = 10_000
    max_length: int = DEFAULT_MAX_LENGTH
    max_depth: int = 4
    leaps_compat: bool = True
    train_states: int = 10
    dev_states: int = 1000


@dataclass
class SearchResult:
    task: str
    seed: int
    program: str
    tokens: list[int]
    leaps_score: float
    honest_score: float | None
    evaluations: int
    restarts: int
    wall_seconds: float
    algo: str = ALGO
    #: (evaluations used, best training score) at each improvement of the best program
    improvements: list[tuple[int, float]] = field(default_factory=list)
    #: the `keep` best distinct programs met (the returned one first, then by objective score) and those scores
    programs: list[str] = field(default_factory=list)
    program_scores: list[float] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class _Sampler:
    """Random programs and subtrees from the grammar, with fixed choice weights."""

    def __init__(self, rng: random.Random, max_depth: int):
        self.rng = rng
        self.max_depth = max_depth

    def cond(self) -> Cond:
        return Cond(self.rng.choice(PERCEPTIONS), 1 if self.rng.random() < 0.2 else 0)

    def count(self) -> int:
        return self.rng.randrange(20)

    def block(self, depth: int) -> tuple:
        statements = [self.statement(depth)]
        while len(statements) < 4 and self.rng.random() < 0.4:
            statements.append(self.statement(depth))
        return tuple(statements)

    def statement(self, depth: int):
        r = self.rng.random()
        if depth >= self.max_depth or r < 0.5:
            return Action(self.rng.choice(ACTIONS))
        if r < 0.65:
            return While(self.cond(), self.block(depth + 1))
        if r < 0.75:
            return If(self.cond(), self.block(depth + 1))
        if r < 0.85:
            return IfElse(self.cond(), self.block(depth + 1), self.block(depth + 1))
        return Repeat(self.count(), self.block(depth + 1))


def _block_sites(block: tuple) -> int:
    # each statement, each sequence node (the prefixes s1..sk, k >= 2), and the sites inside statements
    return len(block) + len(block) - 1 + sum(_statement_sites(s) for s in block)


def _statement_sites(s) -> int:
    if isinstance(s, Action):
        return 0
    inner = 1  # the condition or the count
    if isinstance(s, IfElse):
        return inner + _block_sites(s.body) + _block_sites(s.orelse)
    return inner + _block_sites(s.body)


class _Mutation:
    """Replace the `site`-th node of a program (in a fixed order) with a fresh sample."""

    def __init__(self, sampler: _Sampler, site: int):
        self.sampler = sampler
        self.left = site

    def block(self, block: tuple, depth: int) -> tuple:
        for k in range(2, len(block) + 1):  # the sequence node over block[:k]
            if self.left == 0:
                self.left = -1
                return self.sampler.block(depth) + block[k:]
            self.left -= 1
        out = list(block)
        for i, s in enumerate(block):
            if self.left < 0:
                break
            if self.left == 0:
                self.left = -1
                return tuple(out[:i]) + self.sampler.block(depth) + tuple(out[i + 1 :])
            self.left -= 1
            out[i] = self.statement(s, depth)
        return tuple(out)

    def statement(self, s, depth: int):
        if isinstance(s, Action) or self.left < 0:
            return s
        if self.left == 0:
            self.left = -1
            if isinstance(s, Repeat):
                return Repeat(self.sampler.count(), s.body)
            return type(s)(self.sampler.cond(), *_blocks(s))
        self.left -= 1
        if isinstance(s, Repeat):
            return Repeat(s.count, self.block(s.body, depth + 1))
        blocks = [self.block(b, depth + 1) for b in _blocks(s)]
        return type(s)(s.cond, *blocks)


def _blocks(s) -> tuple:
    return (s.body, s.orelse) if isinstance(s, IfElse) else (s.body,)


class HillClimber:
    """One seeded climb on one task's training states.

    The objective is the mean score on the training states: the 10 of the run's seed (the problem set's
    `train` split, on which the LEAPS figure is read) and more batches of 10 drawn further along the same
    seeded stream (never the dev states). A batch joins the objective every `grow_every` evaluations, and
    whenever a program perfect on the objective fails one of the `check_batches` fresh batches it must also
    solve before the climb stops (up to `max_batches` batches in all). LEAPS itself drew 10 fresh states
    every 100 CEM iterations; this keeps a fit to 10 particular states from passing for a solution. A
    program scored on b batches costs b evaluations. Tasks with one fixed initial state (FOURCORNER,
    HARVESTER) keep their single batch.
    """

    def __init__(self, config: SearchConfig):
        self.config = config
        self.task: Task = get_task(config.task)
        self._stream = random.Random(train_stream(self.task, config.seed))
        self.batches: list[StateSet] = [self._batch()]
        self.states = self.batches[0]
        self.objective = self.states
        self.rng = random.Random(f"karel/{self.task.name}/hill-climbing/seed={config.seed}")
        self.sampler = _Sampler(self.rng, config.max_depth)
        self.max_tokens = config.max_length + 1  # DEF included
        self.cache: dict[str, float] = {}
        #: every program scored, with its latest objective score (the cache is dropped when a batch joins)
        self.scores: dict[str, float] = {}
        self.evaluations = 0
        self.restarts = 0

    def _batch(self) -> StateSet:
        config = self.config
        instances = [
            self.task.instance(self._stream, None, config.leaps_compat) for _ in range(config.train_states)
        ]
        return StateSet(self.task, instances, config.leaps_compat)

    def evaluate(self, program: Program) -> float:
        """The program's mean score on the objective's states (cached; a cache hit costs nothing)."""
        key = program_text(program)
        score = self.cache.get(key)
        if score is None:
            compiled = self.objective.compile(program)
            scores = [s for batch in self.batches for s in batch.scores(compiled)]
            score = self.cache[key] = sum(scores) / len(scores)
            self.evaluations += len(self.batches)
        self.scores[key] = score
        return score

    def best_programs(self, first: Program, count: int) -> list[tuple[str, float]]:
        """`first` and the `count - 1` other best-scoring programs met: (text, objective score) pairs."""
        head = program_text(first)
        others = sorted((text for text in self.scores if text != head), key=lambda t: -self.scores[t])
        return [(text, self.scores[text]) for text in [head, *others[: max(0, count - 1)]]]

    def _can_grow(self) -> bool:
        return not self.task.fixed_start and len(self.batches) < self.config.max_batches

    def _join(self, batch: StateSet) -> None:
        """Add a batch to the objective; the cache, scored on fewer states, is dropped."""
        self.batches.append(batch)
        instances = [i for b in self.batches for i in b.instances]
        self.objective = StateSet(self.task, instances, self.config.leaps_compat)
        self.cache.clear()

    def _holds_on_fresh_batches(self, program: Program) -> bool:
        """Whether a program perfect on the objective is perfect on `check_batches` fresh batches too (each
        costs 1 evaluation); the first batch it fails joins the objective."""
        config = self.config
        if not self._can_grow():
            return True
        for _ in range(config.check_batches):
            if self.evaluations >= config.budget:
                return True
            batch = self._batch()
            self.evaluations += 1
            if batch.score(program) < 1.0:
                self._join(batch)
                return False
        return True

    def random_program(self) -> Program:
        while True:
            program = Program(self.sampler.block(0))
            if program_size(program) <= self.max_tokens:
                return program

    def neighbour(self, program: Program) -> Program:
        sites = _block_sites(program.body)
        for _ in range(100):
            mutated = Program(_Mutation(self.sampler, self.rng.randrange(sites)).block(program.body, 0))
            if program_size(mutated) <= self.max_tokens and mutated != program:
                return mutated
        return self.random_program()

    def _affordable(self, programs: int = 1) -> bool:
        """Whether scoring `programs` more programs on the objective stays within the budget."""
        return self.evaluations + programs * len(self.batches) <= self.config.budget

    def run(self, progress: Any = None) -> tuple[Program, float, list[tuple[int, float]]]:
        """The best program found, its score on the 10 training states, and the improvements of the best
        (evaluations used, objective score)."""
        config = self.config
        best = current = self.random_program()
        best_score = current_score = self.evaluate(current)
        improvements = [(self.evaluations, best_score)]
        sideways = config.sideways
        attempts = 0
        while self._affordable():
            if (
                config.grow_every
                and self.evaluations >= config.grow_every * len(self.batches)
                and self._can_grow()
                and self.evaluations + 2 * (len(self.batches) + 1) <= config.budget
            ):
                self._join(self._batch())
                current_score, best_score = self.evaluate(current), self.evaluate(best)
                improvements.append((self.evaluations, best_score))
            if best_score >= 1.0:
                if self._holds_on_fresh_batches(best) or not self._affordable():
                    break
                best_score = self.evaluate(best)
                current, current_score = best, best_score
                improvements.append((self.evaluations, best_score))
                continue
            moved = False
            for _ in range(config.neighbours):
                if not self._affordable():
                    break
                attempts += 1
                if attempts > 20 * config.budget:  # only programs met before are left near here
                    return best, self.states.score(best), improvements
                candidate = self.neighbour(current)
                score = self.evaluate(candidate)
                if score > current_score or (score == current_score and sideways > 0):
                    sideways = sideways - 1 if score == current_score else config.sideways
                    current, current_score, moved = candidate, score, True
                    break
            if not moved:
                if not self._affordable():
                    break
                self.restarts += 1
                current = self.random_program()
                current_score = self.evaluate(current)
                sideways = config.sideways
            if current_score > best_score:
                best, best_score = current, current_score
                improvements.append((self.evaluations, best_score))
            if progress is not None:
                progress(self.evaluations, best_score)
        if best_score >= 1.0 and config.polish > 0:
            best = self.shorten(best, best_score, min(config.budget, self.evaluations + config.polish))
        return best, self.states.score(best), improvements

    def shorten(self, program: Program, score: float, until: int) -> Program:
        """Neighbours that keep `score` with fewer tokens, first improvement, until `until` evaluations or
        `neighbours` tries in a row fail: of programs that fit the training states equally, the shorter
        tends to hold on fresh ones."""
        size = program_size(program)
        failures = 0
        while self.evaluations + len(self.batches) <= until and failures < self.config.neighbours:
            candidate = self.neighbour(program)
            candidate_size = program_size(candidate)
            if candidate_size >= size:
                failures += 1
                continue
            if self.evaluate(candidate) >= score:
                program, size, failures = candidate, candidate_size, 0
            else:
                failures += 1
        return program


def hill_climb(config: SearchConfig, progress: Any = None, honest: bool = True) -> SearchResult:
    """Climb on the task's training states of `config.seed`; score the best program on the 1,000 dev states
    (`honest`) too."""
    started = time.perf_counter()
    climber = HillClimber(config)
    best, best_score, improvements = climber.run(progress)
    wall = time.perf_counter() - started
    honest_score = None
    if honest:
        honest_score = dev_states(climber.task, config.dev_states, leaps_compat=config.leaps_compat).score(
            best
        )
    tokens = list(KarelEnvironment(max_length=config.max_length).encode(best))
    kept = climber.best_programs(best, config.keep)
    return SearchResult(
        task=climber.task.name,
        seed=config.seed,
        program=program_text(best),
        tokens=tokens,
        leaps_score=best_score,
        honest_score=honest_score,
        evaluations=climber.evaluations,
        restarts=climber.restarts,
        wall_seconds=round(wall, 3),
        improvements=improvements,
        programs=[text for text, _ in kept],
        program_scores=[score for _, score in kept],
    )


def write_result(out: Path | str, result: SearchResult, config: SearchConfig) -> Path:
    """Write `best_program.json`, `config.json` and `programs.jsonl` (the best programs, in the form `nsm
    train --programs` reads) into the directory `out`, replaced whole and atomically."""
    out = Path(out)
    with output_lock(out, "output directory", inside=False), staged_directory(out) as staging:
        atomic_write_json(staging / "best_program.json", result.to_json())
        record = {"id": problem_id(result.task, "train", result.seed), "programs": result.programs,
                  "rewards": result.program_scores}  # fmt: skip
        atomic_write_text(staging / "programs.jsonl", json.dumps(record) + "\n")
        atomic_write_json(
            staging / "config.json", {"algo": ALGO, "env": f"karel:{result.task}", **asdict(config)}
        )
    return out


__all__ = ["SearchConfig", "SearchResult", "HillClimber", "hill_climb", "write_result", "statement_tokens"]
