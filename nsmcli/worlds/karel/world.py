"""The Karel grid world with LEAPS's semantics (karel.md §1).

`World` is an immutable state: grid size, wall cells, marker counts, Karel's cell and direction. `step`
applies one action and is the readable reference of what each action does; the interpreter
(interpreter.py) runs the same rules on flat arrays, and the tests check the two agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from nsmcli.errors import DataError

Cell = tuple[int, int]

#: Directions, clockwise: d = 0 N, 1 E, 2 S, 3 W; left of d is (d + 3) % 4, right is (d + 1) % 4.
NORTH, EAST, SOUTH, WEST = range(4)
STEP: tuple[Cell, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))
#: How a text map draws Karel facing each direction.
AGENT_GLYPHS = "^>v<"
#: `putMarker` refuses to raise a count above this (LEAPS MAX_NUM_MARKER - 1, §1.2).
MAX_MARKERS = 9

#: The five actions (their DSL names); a blocked move turns Karel around (§1.3).
ACTIONS = ("move", "turnLeft", "turnRight", "pickMarker", "putMarker")
#: The five perceptions; none changes the state or counts as a step (§1.4).
PERCEPTIONS = ("frontIsClear", "leftIsClear", "rightIsClear", "markersPresent", "noMarkersPresent")


@dataclass(frozen=True)
class World:
    """One Karel state. `markers` holds only cells with at least one marker."""

    height: int
    width: int
    walls: frozenset[Cell]
    markers: Mapping[Cell, int]
    agent: Cell
    direction: int
    _marker_items: tuple = field(init=False, repr=False, compare=True)

    def __post_init__(self) -> None:
        markers = {cell: count for cell, count in dict(self.markers).items() if count > 0}
        object.__setattr__(self, "markers", markers)
        object.__setattr__(self, "_marker_items", tuple(sorted(markers.items())))
        if not self.inside(self.agent) or self.agent in self.walls:
            raise DataError(f"Karel's cell {self.agent} is outside the grid or a wall")
        if self.direction not in range(4):
            raise DataError(f"direction {self.direction} is not 0..3 (N, E, S, W)")

    def __hash__(self) -> int:
        return hash((self.height, self.width, self.walls, self._marker_items, self.agent, self.direction))

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.height and 0 <= cell[1] < self.width

    def is_clear(self, cell: Cell) -> bool:
        return self.inside(cell) and cell not in self.walls

    def neighbour(self, direction: int) -> Cell:
        dr, dc = STEP[direction % 4]
        return (self.agent[0] + dr, self.agent[1] + dc)

    def count(self, cell: Cell | None = None) -> int:
        return self.markers.get(self.agent if cell is None else cell, 0)

    def perceive(self, name: str) -> bool:
        """The value of one perception in this state."""
        if name == "frontIsClear":
            return self.is_clear(self.neighbour(self.direction))
        if name == "leftIsClear":
            return self.is_clear(self.neighbour(self.direction + 3))
        if name == "rightIsClear":
            return self.is_clear(self.neighbour(self.direction + 1))
        if name == "markersPresent":
            return self.count() > 0
        if name == "noMarkersPresent":
            return self.count() == 0
        raise DataError(f"unknown perception {name!r}")

    def step(self, action: str) -> World:
        """The state after one action (a blocked move turns around; a failed pick or put changes nothing)."""
        if action == "move":
            front = self.neighbour(self.direction)
            if self.is_clear(front):
                return replace(self, agent=front)
            return replace(self, direction=(self.direction + 2) % 4)
        if action == "turnLeft":
            return replace(self, direction=(self.direction + 3) % 4)
        if action == "turnRight":
            return replace(self, direction=(self.direction + 1) % 4)
        if action in ("pickMarker", "putMarker"):
            count = self.count()
            new = count - 1 if action == "pickMarker" else count + 1
            if not 0 <= new <= MAX_MARKERS:
                return self
            return replace(self, markers={**self.markers, self.agent: new})
        raise DataError(f"unknown action {action!r}")

    def total_markers(self) -> int:
        return sum(self.markers.values())

    def text(self) -> str:
        """A map, one line per row: `#` wall, `.` empty, a digit for markers, `^>v<` for Karel (who hides
        the count of the cell he stands on)."""
        rows = []
        for r in range(self.height):
            line = []
            for c in range(self.width):
                cell = (r, c)
                if cell == self.agent:
                    line.append(AGENT_GLYPHS[self.direction])
                elif cell in self.walls:
                    line.append("#")
                else:
                    count = self.markers.get(cell, 0)
                    line.append(str(count) if count else ".")
            rows.append("".join(line))
        return "\n".join(rows)


def world_from_text(text: str, markers: Mapping[Cell, int] | None = None) -> World:
    """A world from a map drawn as `World.text` does (`#`, `.`, digits, `^>v<`); `markers` adds counts, e.g.
    under Karel. Rows may be indented; blank lines are skipped."""
    rows = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not rows or len({len(row) for row in rows}) != 1:
        raise DataError("a Karel map needs rows of one length")
    walls, counts, agent, direction = set(), {}, None, 0
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "#":
                walls.add((r, c))
            elif ch in AGENT_GLYPHS:
                if agent is not None:
                    raise DataError("a Karel map holds one agent")
                agent, direction = (r, c), AGENT_GLYPHS.index(ch)
            elif ch.isdigit():
                counts[(r, c)] = int(ch)
            elif ch != ".":
                raise DataError(f"unknown map character {ch!r}")
    if agent is None:
        raise DataError("a Karel map needs an agent (^ > v <)")
    counts.update(markers or {})
    return World(len(rows), len(rows[0]), frozenset(walls), counts, agent, direction)


def border_walls(height: int, width: int) -> set[Cell]:
    """The outer ring of cells, wall in every task."""
    return {
        (r, c) for r in range(height) for c in range(width) if r in (0, height - 1) or c in (0, width - 1)
    }


def replay(world: World, actions: Iterable[str]) -> list[World]:
    """The states a sequence of actions passes through, the start included."""
    states = [world]
    for action in actions:
        states.append(states[-1].step(action))
    return states
