"""The six LEAPS tasks (karel.md §3): seeded generators, per-step values and LEAPS's scoring protocol.

A task samples `Instance`s (a world plus what its value reads: the marker to reach, the cells to clean) and
gives, for one laid-out instance, the value of the state after a program's last action. `StateSet` scores a
program on a list of instances as LEAPS does (§3.0): per state, the value after the last action, but 0 when
the program executed fewer than 2 actions; the program's score is the mean (the paper's scale, without the
0.1 syntax bonus, which `leaps_reward` adds).

`leaps_compat=True` (the default, used for every comparison with published figures) keeps LEAPS's quirks:
the ≥2-actions rule, STAIRCLIMBER's first arrival, the one-action lag of the marker totals of FOURCORNER
and HARVESTER, and TOPOFF states whose last bottom cell always holds a marker (LEAPS's reset bug).
`leaps_compat=False` is the clean variant: no ≥2 rule, no lag, STAIRCLIMBER scored by where Karel ends,
TOPOFF with the last cell empty as its generator intends.

Initial states come from a `random.Random` seeded with a string, so they are reproducible from the seed
(LEAPS draws MAZE and CLEANHOUSE layouts from Python's unseeded global generator).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from nsmcli.errors import DataError, GrammarError
from nsmcli.worlds.karel.dsl import Program, parse
from nsmcli.worlds.karel.interpreter import DEFAULT_MAX_CALLS, Compiled, Layout, Run, Start, layout_start
from nsmcli.worlds.karel.world import EAST, Cell, World, border_walls, world_from_text

#: value(markers, pos, direction, actions, total_change, last_change, first_arrival) of a state after a run
Value = Callable[[list, int, int, int, int, int, int], float]
#: Program reward of an invalid program, and the syntax bonus of a valid one (LEAPS, §2.4 and §3.0).
INVALID_REWARD = 0.01
SYNTAX_BONUS = 0.1
#: LEAPS scores a state 0 when the program executed fewer actions than this (§3.0, leaps_compat only).
MIN_ACTIONS = 2
#: Initial states per training problem (LEAPS's num_demo_per_program) and per honest evaluation.
TRAIN_STATES = 10
DEV_STATES = 1000


@dataclass(frozen=True)
class Instance:
    """An initial state and what the task's value reads (a target cell, the cells that started marked)."""

    world: World
    target: Cell | None = None
    cells: tuple[Cell, ...] = ()


@dataclass(frozen=True)
class Task:
    """One task: its generator, its value after a run, and how big its grid may be."""

    name: str
    title: str
    words: tuple[str, ...]
    size: tuple[int, int]
    #: whether the generator takes another square size (the 100x100 zero-shot test of LEAPS, §4.2)
    resizable: bool
    sample: Callable[[random.Random, int, bool], Instance] = field(repr=False)
    value: Callable[[Instance, Start, bool], Value] = field(repr=False)
    #: the cell whose first arrival the value times (STAIRCLIMBER's marker)
    watches_target: bool = False
    #: whether every initial state is the same one (FOURCORNER, HARVESTER)
    fixed_start: bool = False

    def instance(self, rng: random.Random, size: int | None = None, leaps_compat: bool = True) -> Instance:
        if size is not None and size != self.size[0] and not self.resizable:
            raise DataError(f"karel task {self.name} has a fixed {self.size[0]}x{self.size[1]} map")
        n = size if size is not None else self.size[0]
        if n < 5:
            raise DataError(f"a Karel grid needs at least 5x5 cells, not {n}x{n}")
        return self.sample(rng, n, leaps_compat)


# --- STAIRCLIMBER (§3.1) -------------------------------------------------------------------------------


def _stairs(n: int) -> list[Cell]:
    return [(n - 2 - j, 1 + j) for j in range(n - 2)]


def _stair_walls(n: int) -> frozenset[Cell]:
    walls = border_walls(n, n)
    for k in range(n - 2):
        walls |= {(n - 1 - k, 2 + k), (n - 2 - k, 2 + k)}
    return frozenset(walls)


def stairclimber_instance(lower: int, higher: int, n: int = 12) -> Instance:
    """Karel on stair `lower` facing East, the marker on stair `higher` (state "s{lower}_{higher}")."""
    stairs = _stairs(n)
    world = World(n, n, _stair_walls(n), {stairs[higher]: 1}, stairs[lower], EAST)
    return Instance(world, target=stairs[higher])


def _sample_stairclimber(rng: random.Random, n: int, leaps_compat: bool) -> Instance:
    count = n - 2
    a, b = rng.randrange(count), rng.randrange(count)
    while a == b:
        b = rng.randrange(count)
    return stairclimber_instance(min(a, b), max(a, b), n)


def _value_stairclimber(instance: Instance, start: Start, leaps_compat: bool) -> Value:
    target = start.layout.index(instance.target)
    if leaps_compat:  # 1 on the action that first reaches the marker, so only if that action is the last
        return lambda mk, pos, d, n, tot, last, first: 1.0 if first and first == n else 0.0
    return lambda mk, pos, d, n, tot, last, first: 1.0 if pos == target else 0.0


# --- FOURCORNER (§3.2) ---------------------------------------------------------------------------------


def _corners(n: int) -> tuple[Cell, ...]:
    return ((1, 1), (n - 2, 1), (n - 2, n - 2), (1, n - 2))


def _sample_fourcorner(rng: random.Random, n: int, leaps_compat: bool) -> Instance:
    return Instance(World(n, n, frozenset(border_walls(n, n)), {}, (n - 2, 2), EAST), cells=_corners(n))


def _value_fourcorner(instance: Instance, start: Start, leaps_compat: bool) -> Value:
    corners = [start.layout.index(cell) for cell in instance.cells]
    lag = 1 if leaps_compat else 0

    def value(mk, pos, d, n, tot, last, first):
        right = sum(1 for i in corners if mk[i] == 1)
        # the running total is updated after the value: the last action's marker is not seen yet
        return 0.0 if tot - lag * last - right > 0 else right / 4

    return value


# --- TOPOFF (§3.3) -------------------------------------------------------------------------------------


def topoff_instance(marked_columns: Sequence[int], n: int = 12) -> Instance:
    """Karel at the bottom-left facing East, one marker on each listed bottom-row column."""
    row = n - 2
    world = World(n, n, frozenset(border_walls(n, n)), {(row, c): 1 for c in marked_columns}, (row, 1), EAST)
    return Instance(world, cells=tuple((row, c) for c in marked_columns))


def _sample_topoff(rng: random.Random, n: int, leaps_compat: bool) -> Instance:
    columns = [c for c in range(1, n - 1) if rng.random() < 0.25]
    last = n - 2
    # LEAPS's evaluator always saw the last cell marked (its reset drops is_top_off); clean mode empties it
    columns = [c for c in columns if c != last] + ([last] if leaps_compat else [])
    return topoff_instance(columns, n)


def _value_topoff(instance: Instance, start: Start, leaps_compat: bool) -> Value:
    layout = start.layout
    n = layout.width
    row = [layout.index((n - 2, c)) for c in range(1, n - 1)]
    marked = {layout.index(cell) for cell in instance.cells}
    expected = [2 if i in marked else 0 for i in row]
    goal = row[-1]
    stride = layout.stride

    def value(mk, pos, d, actions, tot, last, first):
        column = pos % stride - 1
        right = 0
        for i in range(min(column, len(row))):
            if mk[row[i]] != expected[i]:
                break
            right += 1
        if right == len(row) and pos == goal:
            right += 1
        return right / (n - 1)

    return value


# --- MAZE (§3.4) ---------------------------------------------------------------------------------------


def maze_world(rng: random.Random, n: int = 8) -> World:
    """A spanning-tree maze grown by LEAPS's stack procedure from the bottom-left lattice cell."""
    rows = range(2, n - 1, 2) if n % 2 == 0 else range(1, n - 1, 2)
    lattice = {(r, c) for r in rows for c in range(1, n - 2, 2)}
    start = (n - 2, 1) if (n - 2, 1) in lattice else max(lattice)
    opened = {start}
    visited = {start}
    stack = [start]
    while stack:
        cell = stack.pop()
        neighbours = [(cell[0] + dr, cell[1] + dc) for dr, dc in ((-2, 0), (0, 2), (2, 0), (0, -2))]
        neighbours = [c for c in neighbours if c in lattice]
        rng.shuffle(neighbours)
        for nb in neighbours:
            if nb not in visited:
                stack.append(cell)
                opened.add(((cell[0] + nb[0]) // 2, (cell[1] + nb[1]) // 2))
                opened.add(nb)
                visited.add(nb)
                stack.append(nb)
    walls = frozenset((r, c) for r in range(n) for c in range(n) if (r, c) not in opened)
    return World(n, n, walls, {}, start, EAST)


def _sample_maze(rng: random.Random, n: int, leaps_compat: bool) -> Instance:
    world = maze_world(rng, n)
    open_cells = sorted((r, c) for r in range(n) for c in range(n) if (r, c) not in world.walls)
    target = rng.choice(open_cells)
    return Instance(World(n, n, world.walls, {target: 1}, world.agent, EAST), target=target)


def _value_maze(instance: Instance, start: Start, leaps_compat: bool) -> Value:
    target = start.layout.index(instance.target)
    return lambda mk, pos, d, n, tot, last, first: 1.0 if pos == target else 0.0


# --- CLEANHOUSE (§3.5) ---------------------------------------------------------------------------------

CLEANHOUSE_MAP = """
######################
#..##########v#......#
#..#........2.#####.##
##.#................##
##........#.........##
###.#.###.#..###.#.###
#...#...#....#...#..##
#...#...#....#...#...#
#...#...#....#...##..#
#...#...##..##...##.##
#...#...##..##...#..##
#...#...##..##...#..##
#...#...##..##...#..##
######################
"""
#: The 68 wall-adjacent cells LEAPS's generator may drop a marker on (§3.5).
CLEANHOUSE_CANDIDATES: tuple[Cell, ...] = (
    (1, 1), (1, 2), (2, 1), (2, 2), (2, 4), (2, 5), (2, 6), (2, 7), (2, 8), (2, 9), (2, 10), (2, 11),
    (3, 2), (3, 4), (4, 2), (4, 3), (4, 4), (4, 6), (4, 7), (4, 8), (4, 9), (5, 3), (5, 5), (5, 9),
    (6, 1), (6, 2), (6, 3), (6, 5), (6, 6), (6, 7), (6, 9), (7, 1), (7, 3), (7, 5), (7, 7), (7, 9),
    (8, 1), (8, 3), (8, 5), (8, 7), (8, 9), (8, 12), (9, 1), (9, 3), (9, 5), (9, 7), (9, 10), (9, 11),
    (10, 1), (10, 3), (10, 5), (10, 7), (10, 10), (10, 11), (11, 1), (11, 3), (11, 5), (11, 7), (11, 10),
    (11, 11), (12, 1), (12, 2), (12, 3), (12, 5), (12, 6), (12, 7), (12, 10), (12, 11),
)  # fmt: skip
CLEANHOUSE_MARKERS = 10


def cleanhouse_instance(cells: Sequence[Cell]) -> Instance:
    """The CLEANHOUSE map with one marker on each of `cells` and two in the dustbin."""
    base = world_from_text(CLEANHOUSE_MAP)
    markers = {**base.markers, **dict.fromkeys(cells, 1)}
    return Instance(replace(base, markers=markers), cells=tuple(cells))


def _sample_cleanhouse(rng: random.Random, n: int, leaps_compat: bool) -> Instance:
    return cleanhouse_instance(rng.sample(CLEANHOUSE_CANDIDATES, CLEANHOUSE_MARKERS))


def _value_cleanhouse(instance: Instance, start: Start, leaps_compat: bool) -> Value:
    cells = [start.layout.index(cell) for cell in instance.cells]
    total = len(cells)
    return lambda mk, pos, d, n, tot, last, first: sum(1 for i in cells if not mk[i]) / total


# --- HARVESTER (§3.6) ----------------------------------------------------------------------------------


def _sample_harvester(rng: random.Random, n: int, leaps_compat: bool) -> Instance:
    interior = tuple((r, c) for r in range(1, n - 1) for c in range(1, n - 1))
    world = World(n, n, frozenset(border_walls(n, n)), dict.fromkeys(interior, 1), (n - 2, 1), EAST)
    return Instance(world, cells=interior)


def _value_harvester(instance: Instance, start: Start, leaps_compat: bool) -> Value:
    total = len(instance.cells)
    lag = 1 if leaps_compat else 0
    # (initial - current total) / initial, the total lagging one action; negative once markers are added
    return lambda mk, pos, d, n, tot, last, first: -(tot - lag * last) / total


TASKS: dict[str, Task] = {
    task.name: task
    for task in (
        Task("stairclimber", "STAIRCLIMBER", ("stair", "climber"), (12, 12), True, _sample_stairclimber,
             _value_stairclimber, watches_target=True),
        Task("fourcorner", "FOURCORNER", ("four", "corner"), (12, 12), True, _sample_fourcorner,
             _value_fourcorner, fixed_start=True),
        Task("topoff", "TOPOFF", ("top", "off"), (12, 12), True, _sample_topoff, _value_topoff),
        Task("maze", "MAZE", ("maze",), (8, 8), True, _sample_maze, _value_maze),
        Task("cleanhouse", "CLEANHOUSE", ("clean", "house"), (14, 22), False, _sample_cleanhouse,
             _value_cleanhouse),
        Task("harvester", "HARVESTER", ("harvester",), (8, 8), True, _sample_harvester, _value_harvester,
             fixed_start=True),
    )
}  # fmt: skip


def get_task(name: str) -> Task:
    """A task by name, any case (`harvester`, `HARVESTER`); DataError listing the names otherwise."""
    task = TASKS.get(name.strip().lower())
    if task is None:
        raise DataError(f"unknown karel task {name!r}; choose one of {', '.join(TASKS)}")
    return task


def sample_instances(task: Task, stream: str, count: int, size: int | None = None,
                     leaps_compat: bool = True) -> list[Instance]:  # fmt: skip
    """`count` instances from the generator seeded with the string `stream` (random.Random hashes a string
    seed with SHA-512, so the states do not depend on PYTHONHASHSEED or the platform)."""
    rng = random.Random(stream)
    return [task.instance(rng, size, leaps_compat) for _ in range(count)]


def train_stream(task: Task, seed: int, size: int | None = None) -> str:
    """The seed string of a run's training states: `karel/harvester/train/seed=1`."""
    return f"karel/{task.name}/train/seed={seed}" + (f"/size={size}" if size else "")


def dev_stream(task: Task, size: int | None = None) -> str:
    """The seed string of the honest evaluation's states: one fixed set per task and grid size, shared by
    every run (so seeds are compared on the same states); its label differs from every training stream's."""
    return f"karel/{task.name}/dev" + (f"/size={size}" if size else "")


class StateSet:
    """Instances of one task, laid out once; scores programs as LEAPS does."""

    def __init__(self, task: Task, instances: Sequence[Instance], leaps_compat: bool = True,
                 max_calls: int = DEFAULT_MAX_CALLS):  # fmt: skip
        if not instances:
            raise DataError("a Karel state set needs at least one state")
        self.task = task
        self.instances = list(instances)
        self.leaps_compat = leaps_compat
        self.max_calls = max_calls
        self.min_actions = MIN_ACTIONS if leaps_compat else 0
        layouts: dict = {}
        self.starts: list[Start] = []
        self._prepared = []
        for instance in self.instances:
            world = instance.world
            key = (world.height, world.width, world.walls)
            if key not in layouts:
                layouts[key] = Layout(world.height, world.width, world.walls)
            watch = instance.target if task.watches_target else None
            start = layout_start(world, layouts[key], watch)
            self.starts.append(start)
            value = task.value(instance, start, leaps_compat)
            self._prepared.append(
                (start.markers, start.pos, start.direction, start.layout.open, start.layout.deltas,
                 start.watch, value)
            )  # fmt: skip

    def __len__(self) -> int:
        return len(self.instances)

    def compile(self, program: Program) -> Compiled:
        return Compiled(program, self.max_calls)

    def scores(self, program: Program | Compiled) -> list[float]:
        """The per-state scores of a program (paper scale)."""
        compiled = program if isinstance(program, Compiled) else self.compile(program)
        if compiled.max_calls != self.max_calls:
            compiled = self.compile(compiled.program)
        run = compiled.raw()
        min_actions = self.min_actions
        out = []
        for markers, pos, d, open_, deltas, watch, value in self._prepared:
            mk = list(markers)
            pos, d, n, tot, last, first, _calls = run(mk, pos, d, open_, deltas, watch, None)
            out.append(0.0 if n < min_actions else value(mk, pos, d, n, tot, last, first))
        return out

    def runs(self, program: Program) -> list[tuple[float, Run]]:
        """Each state's score with its run (actions, calls, final cells), for display and tests."""
        compiled = self.compile(program)
        out = []
        for start, (*_, value) in zip(self.starts, self._prepared, strict=True):
            run = compiled.run(start)
            args = (run.markers, run.pos, run.direction, run.actions, run.total_change, run.last_change,
                    run.first_arrival)  # fmt: skip
            out.append((0.0 if run.actions < self.min_actions else value(*args), run))
        return out

    def score(self, program: Program | Compiled) -> float:
        """The mean per-state score (the paper's scale: 1.0 solves every state)."""
        scores = self.scores(program)
        return sum(scores) / len(scores)


def training_states(task: Task | str, seed: int, count: int = TRAIN_STATES, size: int | None = None,
                    leaps_compat: bool = True) -> StateSet:  # fmt: skip
    task = get_task(task) if isinstance(task, str) else task
    return StateSet(task, sample_instances(task, train_stream(task, seed, size), count, size, leaps_compat),
                    leaps_compat)  # fmt: skip


def dev_states(
    task: Task | str,
    count: int = DEV_STATES,
    size: int | None = None,
    leaps_compat: bool = True,
    max_calls: int = DEFAULT_MAX_CALLS,
) -> StateSet:
    task = get_task(task) if isinstance(task, str) else task
    instances = sample_instances(task, dev_stream(task, size), count, size, leaps_compat)
    return StateSet(task, instances, leaps_compat, max_calls)


def leaps_reward(text: str, states: StateSet) -> float:
    """LEAPS's program reward of program text: 0.1 + mean score if valid, 0.01 if not (§2.4, §3.0)."""
    try:
        program = parse(text)
    except GrammarError:
        return INVALID_REWARD
    return SYNTAX_BONUS + states.score(program)
