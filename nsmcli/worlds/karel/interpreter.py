"""Running Karel programs with LEAPS's call budget (karel.md §2.5), fast.

A program is compiled once into a Python function (generated source, then `compile`): each action and
perception becomes a few lines over a flat marker array and an "open cell" mask of the grid padded by a
ring of wall, the call counter is a local variable. Searching and training evaluate tens of thousands of
programs on ten states each, and this runs them several times faster than walking the AST.

The call budget, exactly as LEAPS counts it: +1 when the program starts; +1 on entering any statement;
one more for a sequence node (sequences nest to the left, so a block of n statements pays 2(n - 1) before
its first statement), for IF / IFELSE (before the test), WHILE (once, before the first test) and REPEAT
(once, before the first iteration). Conditions are free. The increment that takes the counter above the
limit aborts the run; the actions done so far stand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from nsmcli.errors import GrammarError
from nsmcli.worlds.karel.dsl import Action, Cond, If, IfElse, Program, Repeat, While, karel_grammar
from nsmcli.worlds.karel.world import ACTIONS, MAX_MARKERS, World

#: LEAPS's MAX_FUNC_CALL.
DEFAULT_MAX_CALLS = int(karel_grammar().limits.get("max_calls", 220))
# CPython allows 20 statically nested loops/try blocks in one function; the try of the runner takes one.
_MAX_LOOP_DEPTH = 19


class _Abort(Exception):
    """The call counter passed its limit."""


class Layout:
    """A grid's cells as flat indexes of the grid padded by one ring of wall, so a step never leaves it."""

    def __init__(self, height: int, width: int, walls: frozenset):
        self.height, self.width = height, width
        self.stride = width + 2
        self.size = (height + 2) * self.stride
        self.open = [False] * self.size
        for r in range(height):
            for c in range(width):
                if (r, c) not in walls:
                    self.open[self.index((r, c))] = True
        #: flat offsets of the cell in front for d = N, E, S, W
        self.deltas = (-self.stride, 1, self.stride, -1)

    def index(self, cell: tuple[int, int]) -> int:
        return (cell[0] + 1) * self.stride + cell[1] + 1

    def cell(self, index: int) -> tuple[int, int]:
        return (index // self.stride - 1, index % self.stride - 1)


@dataclass(frozen=True)
class Start:
    """An initial state laid out for the interpreter; `watch` is a flat cell whose first arrival is timed
    (STAIRCLIMBER's marker), -1 for none."""

    world: World
    layout: Layout
    markers: tuple[int, ...]
    pos: int
    direction: int
    watch: int = -1


def layout_start(world: World, layout: Layout | None = None, watch: tuple[int, int] | None = None) -> Start:
    layout = layout or Layout(world.height, world.width, world.walls)
    markers = [0] * layout.size
    for cell, count in world.markers.items():
        markers[layout.index(cell)] = count
    return Start(
        world, layout, tuple(markers), layout.index(world.agent), world.direction,
        layout.index(watch) if watch is not None else -1,
    )  # fmt: skip


@dataclass(frozen=True)
class Run:
    """What one run left: the final cells and agent, and the bookkeeping the task scores need.

    `total_change` is the net number of markers put (successful puts minus picks) and `last_change` the
    last action's share of it (the lag of FOURCORNER and HARVESTER); `first_arrival` the 1-based number of
    the action that first brought Karel onto the watched cell (0: never)."""

    markers: list[int]
    pos: int
    direction: int
    actions: int
    total_change: int
    last_change: int
    first_arrival: int
    calls: int

    def aborted(self, max_calls: int = DEFAULT_MAX_CALLS) -> bool:
        return self.calls > max_calls


_CONDITIONS = {
    "frontIsClear": "O[pos + D[d]]",
    "leftIsClear": "O[pos + D[(d + 3) & 3]]",
    "rightIsClear": "O[pos + D[(d + 1) & 3]]",
    "markersPresent": "mk[pos]",
    "noMarkersPresent": "not mk[pos]",
}
_ACTION_CODE = {
    "move": [
        "q = pos + D[d]",
        "if O[q]:",
        "    pos = q",
        "    if q == watch and not first:",
        "        first = n + 1",
        "else:",
        "    d ^= 2",
        "last = 0",
    ],
    "turnLeft": ["d = (d + 3) & 3", "last = 0"],
    "turnRight": ["d = (d + 1) & 3", "last = 0"],
    "pickMarker": [
        "if mk[pos]:",
        "    mk[pos] -= 1",
        "    tot -= 1",
        "    last = -1",
        "else:",
        "    last = 0",
    ],
    "putMarker": [
        f"if mk[pos] < {MAX_MARKERS}:",
        "    mk[pos] += 1",
        "    tot += 1",
        "    last = 1",
        "else:",
        "    last = 0",
    ],
}
assert set(_ACTION_CODE) == set(ACTIONS)


class Compiled:
    """A program compiled for execution; `run(start)` executes it on one initial state."""

    def __init__(self, program: Program, max_calls: int = DEFAULT_MAX_CALLS, trace: bool = False):
        self.program = program
        self.max_calls = max_calls
        self.trace = trace
        lines = [
            "def _run(mk, pos, d, O, D, watch, tr):",
            "    cnt = 1",
            "    n = tot = last = first = 0",
            "    try:",
        ]
        self._limit = max_calls
        self._block(program.body, 2, lines, 0)
        lines += [
            "    except _Abort:",
            f"        cnt = {max_calls + 1}",
            "    return pos, d, n, tot, last, first, cnt",
        ]
        namespace = {"_Abort": _Abort}
        try:
            exec(compile("\n".join(lines), "<karel program>", "exec"), namespace)
        except (SyntaxError, RecursionError, MemoryError):
            raise GrammarError("the program nests too deeply to run") from None
        self._function = namespace["_run"]

    def _charge(self, k: int, depth: int, lines: list[str]) -> None:
        pad = "    " * depth
        lines.append(f"{pad}cnt += {k}")
        lines.append(f"{pad}if cnt > {self._limit}: raise _Abort")

    def _block(self, block: tuple, depth: int, lines: list[str], loops: int) -> None:
        if len(block) > 1:
            self._charge(2 * (len(block) - 1), depth, lines)
        for statement in block:
            self._statement(statement, depth, lines, loops)

    def _statement(self, s, depth: int, lines: list[str], loops: int) -> None:
        pad = "    " * depth
        if isinstance(s, Action):
            self._charge(1, depth, lines)
            lines += [pad + line for line in _ACTION_CODE[s.name]]
            lines.append(pad + "n += 1")
            if self.trace:
                lines.append(f"{pad}tr.append({s.name!r})")
            return
        self._charge(2, depth, lines)
        if isinstance(s, (While, Repeat)):
            if loops + 1 > _MAX_LOOP_DEPTH:
                raise GrammarError(f"the program nests more than {_MAX_LOOP_DEPTH} loops")
            head = f"while {_condition(s.cond)}:" if isinstance(s, While) else f"for _ in range({s.count}):"
            lines.append(pad + head)
            self._block(s.body, depth + 1, lines, loops + 1)
        elif isinstance(s, If):
            lines.append(f"{pad}if {_condition(s.cond)}:")
            self._block(s.body, depth + 1, lines, loops)
        elif isinstance(s, IfElse):
            lines.append(f"{pad}if {_condition(s.cond)}:")
            self._block(s.body, depth + 1, lines, loops)
            lines.append(pad + "else:")
            self._block(s.orelse, depth + 1, lines, loops)
        else:
            raise GrammarError(f"not a Karel statement: {s!r}")

    def run(self, start: Start, trace: list[str] | None = None) -> Run:
        markers = list(start.markers)
        layout = start.layout
        pos, d, n, tot, last, first, cnt = self._function(
            markers, start.pos, start.direction, layout.open, layout.deltas, start.watch, trace
        )
        return Run(markers, pos, d, n, tot, last, first, cnt)

    def raw(self):
        """The compiled function `(markers, pos, d, open, deltas, watch, trace) -> (pos, d, actions,
        total_change, last_change, first_arrival, calls)`; it changes `markers` in place."""
        return self._function


def _condition(cond: Cond) -> str:
    code = _CONDITIONS[cond.predicate]
    for _ in range(cond.negations):
        code = f"not ({code})"
    return code


def final_world(start: Start, run: Run) -> World:
    """The World a run left (for display and tests; scoring reads the flat arrays)."""
    layout = start.layout
    markers = {layout.cell(i): count for i, count in enumerate(run.markers) if count}
    return World(start.world.height, start.world.width, start.world.walls, markers, layout.cell(run.pos),
                 run.direction)  # fmt: skip


@dataclass(frozen=True)
class Trajectory:
    """One run in full: the actions in order, the states they pass through, the call count."""

    actions: list[str]
    states: list[World]
    calls: int
    aborted: bool


def trajectory(program: Program, world: World, max_calls: int = DEFAULT_MAX_CALLS) -> Trajectory:
    """Run `program` on `world` and return every intermediate state (the world's own `step` replays the
    actions, a cross-check of the compiled interpreter)."""
    from nsmcli.worlds.karel.world import replay

    actions: list[str] = []
    run = Compiled(program, max_calls, trace=True).run(layout_start(world), actions)
    return Trajectory(actions, replay(world, actions), run.calls, run.aborted(max_calls))


def compile_program(program: Program, max_calls: int = DEFAULT_MAX_CALLS) -> Compiled:
    return Compiled(program, max_calls)


def run_program(program: Program, world: World, max_calls: int = DEFAULT_MAX_CALLS) -> tuple[World, Run]:
    """Run a program on one world: (the final world, the run's counts)."""
    start = layout_start(world)
    run = Compiled(program, max_calls).run(start)
    return final_world(start, run), run


def starts(worlds: Sequence[World], watches: Sequence | None = None) -> list[Start]:
    """Lay out several worlds, sharing one Layout between worlds of the same grid and walls."""
    layouts: dict = {}
    out = []
    for i, world in enumerate(worlds):
        key = (world.height, world.width, world.walls)
        if key not in layouts:
            layouts[key] = Layout(world.height, world.width, world.walls)
        out.append(layout_start(world, layouts[key], watches[i] if watches else None))
    return out
