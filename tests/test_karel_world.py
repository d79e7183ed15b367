"""The Karel world, interpreter and tasks against the fixed-state tests of karel.md §5 (values produced by
the LEAPS reference code), and distribution checks of our own generators (§5.8)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from nsmcli.errors import GrammarError
from nsmcli.worlds.karel.dsl import parse
from nsmcli.worlds.karel.interpreter import run_program, trajectory
from nsmcli.worlds.karel.tasks import (
    CLEANHOUSE_CANDIDATES,
    INVALID_REWARD,
    TASKS,
    Instance,
    StateSet,
    cleanhouse_instance,
    leaps_reward,
    maze_world,
    sample_instances,
    stairclimber_instance,
    topoff_instance,
)
from nsmcli.worlds.karel.world import EAST, NORTH, World, world_from_text


def state_set(task: str, *instances: Instance, leaps_compat: bool = True) -> StateSet:
    return StateSet(TASKS[task], instances, leaps_compat)


def one(task: str, instance: Instance, program: str) -> tuple[float, int, int]:
    """(score, actions, calls) of a program on one state."""
    [(score, run)] = state_set(task, instance).runs(parse(program))
    return score, run.actions, run.calls


def fourcorner() -> Instance:
    return TASKS["fourcorner"].instance(random.Random(0))


def harvester() -> Instance:
    return TASKS["harvester"].instance(random.Random(0))


# --- §5.1 world and interpreter ---------------------------------------------------------------------


def test_blocked_move_turns_karel_around():
    world = fourcorner().world
    assert world.agent == (10, 2) and world.direction == EAST
    after, run = run_program(parse("DEF run m( turnRight move move m)"), world)
    assert (after.agent, after.direction, run.actions, run.calls) == ((9, 2), NORTH, 3, 8)


def test_four_left_turns_then_a_move():
    after, run = run_program(
        parse("DEF run m( turnLeft turnLeft turnLeft turnLeft move m)"), fourcorner().world
    )
    assert (after.agent, after.direction, run.calls) == ((10, 3), EAST, 14)


def test_put_marker_stops_at_nine():
    after, run = run_program(parse("DEF run m( REPEAT R=12 r( putMarker r) m)"), fourcorner().world)
    assert (after.count((10, 2)), run.actions, run.calls) == (9, 12, 15)


def test_failed_pick_is_still_a_step():
    after, run = run_program(
        parse("DEF run m( pickMarker putMarker pickMarker pickMarker m)"), fourcorner().world
    )
    assert (after.count((10, 2)), run.actions) == (0, 4)


@pytest.mark.parametrize(
    ("program", "actions", "calls"),
    [
        ("WHILE c( markersPresent c) w( turnLeft w)", 217, 221),
        ("REPEAT R=19 r( REPEAT R=19 r( turnLeft r) r)", 195, 221),
        ("REPEAT R=0 r( move r) turnLeft", 1, 6),
        ("WHILE c( not c( frontIsClear c) c) w( move w)", 0, 3),
        ("IFELSE c( not c( markersPresent c) c) i( move i) ELSE e( turnRight e)", 1, 4),
    ],
)
def test_call_budget_on_the_harvester_start(program, actions, calls):
    _, run = run_program(parse(program), harvester().world)
    assert (run.actions, run.calls) == (actions, calls)


def test_ifelse_takes_the_else_branch():
    after, _ = run_program(
        parse("IFELSE c( not c( markersPresent c) c) i( move i) ELSE e( turnRight e)"), harvester().world
    )
    assert after.agent == (6, 1) and after.direction == 2


def test_harvester_value_goes_negative_when_markers_are_added():
    score, actions, _ = one("harvester", harvester(), "DEF run m( REPEAT R=12 r( putMarker r) m)")
    after, _ = run_program(parse("DEF run m( REPEAT R=12 r( putMarker r) m)"), harvester().world)
    assert after.count((6, 1)) == 9 and actions == 12
    assert score == pytest.approx(-8 / 36)


@pytest.mark.parametrize(
    "program",
    [
        "DEF run m( move m)",
        "DEF run m( REPEAT R=0 r( move r) turnLeft m)",
        "WHILE c( not c( not c( frontIsClear c) c) c) w( move w)",
        "IF c( frontIsClear c) i( IF c( markersPresent c) i( pickMarker i) i)",
        "REPEAT R=3 r( REPEAT R=2 r( move r) turnLeft r)",
    ],
)
def test_valid_programs_parse(program):
    parse(program)


@pytest.mark.parametrize(
    "program",
    [
        "DEF run m( m)",
        "WHILE c( frontIsClear c) w( w)",
        "IF c( frontIsClear c) i( move i) ELSE e( move e)",
        "IFELSE c( frontIsClear c) i( move i)",
        "REPEAT R=20 r( move r)",
        "DEF run m( move m) move",
        "run m( move m)",
        "DEF run m( move",
        "IF c( move c) i( move i)",
    ],
)
def test_invalid_programs_are_rejected_and_earn_the_invalid_reward(program):
    with pytest.raises(GrammarError):
        parse(program)
    assert leaps_reward(program, state_set("fourcorner", fourcorner())) == INVALID_REWARD


def test_compiled_interpreter_agrees_with_the_world_step_by_step():
    program = parse(
        "WHILE c( frontIsClear c) w( IF c( markersPresent c) i( pickMarker putMarker putMarker i) "
        "IFELSE c( rightIsClear c) i( turnRight move i) ELSE e( move turnLeft e) w)"
    )
    for instance in sample_instances(TASKS["topoff"], "test/agree", 5):
        path = trajectory(program, instance.world)
        after, run = run_program(program, instance.world)
        assert path.states[-1] == after and len(path.actions) == run.actions


# --- §5.2 STAIRCLIMBER --------------------------------------------------------------------------------

SC1 = "WHILE c( noMarkersPresent c) w( turnLeft move turnRight move w)"
STAIR_STATES = [(0, 9), (0, 1), (3, 5), (8, 9)]


def stairs():
    return [stairclimber_instance(a, b) for a, b in STAIR_STATES]


def test_stairclimber_layout_matches_the_drawn_map():
    world = stairclimber_instance(0, 9).world
    assert world.text().splitlines()[1] == "#.........1#"
    assert world.text().splitlines()[10] == "#>##.......#"


@pytest.mark.parametrize(
    ("program", "scores", "actions", "calls", "reward"),
    [
        (SC1, [1, 1, 1, 1], [36, 4, 8, 4], [93, 13, 23, 13], 1.1),
        (SC1 + " turnLeft", [0, 0, 0, 0], None, [96, 16, 26, 16], 0.1),
        (
            "WHILE c( noMarkersPresent c) w( turnRight move w) WHILE c( rightIsClear c) w( turnLeft w)",
            [1, 1, 1, 1], [72, 8, 16, 8], [151, 23, 39, 23], 1.1,
        ),
        ("WHILE c( noMarkersPresent c) w( turnRight move turnRight move w)", [1, 1, 1, 1], None, None, 1.1),
        ("turnLeft move turnRight move", [0, 1, 0, 1], None, [11] * 4, 0.6),
        ("move", [0, 0, 0, 0], None, None, 0.1),
        ("WHILE c( frontIsClear c) w( turnLeft w)", [0, 0, 0, 0], [0] * 4, [3] * 4, 0.1),
        ("REPEAT R=19 r( turnLeft move turnRight move r)", [0, 0, 0, 0], [76] * 4, [193] * 4, 0.1),
    ],
)  # fmt: skip
def test_stairclimber(program, scores, actions, calls, reward):
    states = state_set("stairclimber", *stairs())
    runs = states.runs(parse(program))
    assert [s for s, _ in runs] == scores
    if actions is not None:
        assert [r.actions for _, r in runs] == actions
    if calls is not None:
        assert [r.calls for _, r in runs] == calls
    assert leaps_reward(program, states) == pytest.approx(reward)


@pytest.mark.parametrize(
    "program", ["DEF run m( m)", "WHILE c( frontIsClear c) w( w)", "DEF run m( turnLeft move m"]
)
def test_stairclimber_invalid(program):
    assert leaps_reward(program, state_set("stairclimber", *stairs())) == INVALID_REWARD


# --- §5.3 MAZE ----------------------------------------------------------------------------------------

MAZE_A = """
########
########
#...#.##
###.#.##
#.#...##
#.#.####
#>....##
########
"""
MAZE_B = """
########
########
#.....##
#.###.##
#...#.##
###.#.##
#>..#.##
########
"""
MZ1 = (
    "WHILE c( noMarkersPresent c) w( IFELSE c( rightIsClear c) i( turnRight i) ELSE e( "
    "WHILE c( not c( frontIsClear c) c) w( turnLeft w) e) move w)"
)
MZ3 = (
    "WHILE c( noMarkersPresent c) w( IFELSE c( leftIsClear c) i( turnLeft i) ELSE e( "
    "WHILE c( not c( frontIsClear c) c) w( turnRight w) e) move w)"
)


def maze(text: str, target: tuple[int, int]) -> Instance:
    world = world_from_text(text, {target: 1})
    return Instance(world, target=target)


def mazes():
    return [maze(MAZE_A, (2, 1)), maze(MAZE_A, (6, 1)), maze(MAZE_A, (6, 2)), maze(MAZE_B, (6, 5))]


@pytest.mark.parametrize(
    ("program", "scores", "actions", "calls", "reward"),
    [
        (MZ1, [1, 0, 0, 1], [30, 0, 1, 21], [145, None, None, 114], 0.6),
        (MZ1 + " turnLeft", [1, 0, 1, 1], [None, 1, None, None], [148, None, None, None], 0.85),
        (MZ1 + " turnLeft turnLeft", [1, 1, 1, 1], [None, 2, None, None], [151, None, None, 120], 1.1),
        (MZ3, [1, 0, 1, 1], [18, None, 9, None], [85, None, None, None], 0.85),
    ],
)
def test_maze(program, scores, actions, calls, reward):
    states = state_set("maze", *mazes())
    runs = states.runs(parse(program))
    assert [s for s, _ in runs] == scores
    for want, (_, run) in zip(actions, runs, strict=True):
        assert want is None or run.actions == want
    for want, (_, run) in zip(calls, runs, strict=True):
        assert want is None or run.calls == want
    assert leaps_reward(program, states) == pytest.approx(reward)


# --- §5.4 FOURCORNER ----------------------------------------------------------------------------------

FC1 = (
    "WHILE c( noMarkersPresent c) w( WHILE c( frontIsClear c) w( move w) "
    "IF c( noMarkersPresent c) i( putMarker turnLeft move i) w)"
)
FC4 = "WHILE c( frontIsClear c) w( move w) putMarker turnLeft WHILE c( frontIsClear c) w( move w) putMarker"


@pytest.mark.parametrize(
    ("program", "score", "actions", "calls"),
    [
        (FC1, 1.0, 52, 101),
        (FC1 + " putMarker", 0.0, 53, 104),
        (FC1 + " turnLeft move putMarker", 1.0, 55, 110),
        (FC4, 0.5, 20, 33),
        (FC4 + " turnLeft", 0.5, 21, 36),
        ("REPEAT R=4 r( WHILE c( frontIsClear c) w( move w) putMarker turnLeft r)", 1.0, 43, 70),
    ],
)
def test_fourcorner(program, score, actions, calls):
    assert one("fourcorner", fourcorner(), program) == (pytest.approx(score), actions, calls)


# --- §5.5 TOPOFF --------------------------------------------------------------------------------------

TO1 = "WHILE c( frontIsClear c) w( IF c( markersPresent c) i( putMarker i) move w)"
TO2 = TO1 + " IF c( markersPresent c) i( putMarker i)"
TOPOFF_STATES = [(3, 7), (3, 7, 10), (1, 2, 10), ()]


@pytest.mark.parametrize(
    ("program", "scores"),
    [
        (TO1, [1, 9 / 11, 9 / 11, 1]),
        (TO2, [1, 1, 1, 1]),
        ("move move", [2 / 11, 2 / 11, 0, 3 / 11]),
        ("WHILE c( frontIsClear c) w( move w)", [2 / 11, 2 / 11, 0, 1]),
        ("WHILE c( frontIsClear c) w( putMarker move w)", [0, 0, 2 / 11, 0]),
        (TO2 + " turnLeft", [1, 1, 1, 1]),
    ],
)
def test_topoff(program, scores):
    states = state_set("topoff", *[topoff_instance(cols) for cols in TOPOFF_STATES])
    assert [s for s, _ in states.runs(parse(program))] == pytest.approx(scores, abs=1e-12)


def test_topoff_counts():
    states = state_set("topoff", *[topoff_instance(cols) for cols in TOPOFF_STATES])
    runs = states.runs(parse(TO1))
    assert [r.actions for _, r in runs] == [11, 11, 11, 9]
    assert [r.calls for _, r in runs] == [50, 50, 50, 48]


# --- §5.6 HARVESTER -----------------------------------------------------------------------------------

HV1 = (
    "WHILE c( markersPresent c) w( WHILE c( markersPresent c) w( pickMarker move w) turnRight move turnLeft "
    "WHILE c( markersPresent c) w( pickMarker move w) turnLeft move turnRight w)"
)


@pytest.mark.parametrize(
    ("program", "score", "actions", "calls"),
    [
        (HV1, 1.0, 90, 219),
        ("WHILE c( markersPresent c) w( pickMarker move w)", 6 / 36, 12, 27),
        ("move pickMarker", 0.0, 2, 5),
        ("pickMarker move", 1 / 36, 2, 5),
        (
            "WHILE c( markersPresent c) w( WHILE c( markersPresent c) w( pickMarker move w) turnLeft move "
            "turnLeft WHILE c( markersPresent c) w( pickMarker move w) turnRight move turnRight w)",
            7 / 36, 26, 79,
        ),
        (
            "REPEAT R=6 r( REPEAT R=5 r( pickMarker move r) pickMarker turnLeft move turnLeft "
            "REPEAT R=5 r( pickMarker move r) pickMarker turnRight move turnRight r)",
            1.0, 84, 221,
        ),
    ],
)  # fmt: skip
def test_harvester(program, score, actions, calls):
    assert one("harvester", harvester(), program) == (pytest.approx(score), actions, calls)


# --- §5.7 CLEANHOUSE ----------------------------------------------------------------------------------

CLEANHOUSE_CELLS = [(5, 9), (2, 11), (8, 1), (3, 2), (8, 9), (2, 6), (1, 2), (6, 2), (4, 3), (2, 4)]
CH4 = (
    "REPEAT R=19 r( IFELSE c( rightIsClear c) i( turnRight move i) ELSE e( IFELSE c( frontIsClear c) "
    "i( move i) ELSE e( turnLeft e) e) IF c( markersPresent c) i( pickMarker i) r)"
)


@pytest.mark.parametrize(
    ("program", "score", "actions", "calls"),
    [
        (
            "WHILE c( frontIsClear c) w( IF c( markersPresent c) i( pickMarker i) IFELSE c( leftIsClear c) "
            "i( turnLeft i) ELSE e( move e) w)",
            0.0, 31, 221,
        ),
        (CH4, 0.6, 29, 184),
        (
            "WHILE c( leftIsClear c) w( IF c( markersPresent c) i( pickMarker i) IFELSE c( frontIsClear c) "
            "i( move i) ELSE e( turnRight e) w)",
            0.0, 0, 3,
        ),
    ],
)  # fmt: skip
def test_cleanhouse(program, score, actions, calls):
    assert one("cleanhouse", cleanhouse_instance(CLEANHOUSE_CELLS), program) == (
        pytest.approx(score),
        actions,
        calls,
    )


def test_cleanhouse_map():
    world = cleanhouse_instance(CLEANHOUSE_CELLS).world
    assert (world.height, world.width, world.agent, world.direction) == (14, 22, (1, 13), 2)
    assert world.count((2, 12)) == 2 and world.total_markers() == 12
    assert len(set(CLEANHOUSE_CANDIDATES)) == 68
    assert not set(CLEANHOUSE_CANDIDATES) & world.walls


# --- §5.8 our generators ------------------------------------------------------------------------------


def sampled(task: str, count: int, leaps_compat: bool = True, stream: str = "test/distribution") -> StateSet:
    return StateSet(TASKS[task], sample_instances(TASKS[task], stream, count, leaps_compat=leaps_compat),
                    leaps_compat)  # fmt: skip


def test_reference_solutions_solve_every_sampled_state():
    stair = sampled("stairclimber", 300)
    runs = stair.runs(parse(SC1))
    assert all(s == 1.0 for s, _ in runs) and max(r.calls for _, r in runs) <= 93
    assert sampled("fourcorner", 10).score(parse(FC1)) == 1.0
    harvest = sampled("harvester", 3).runs(parse(HV1))
    assert all(s == 1.0 and r.calls == 219 for s, r in harvest)
    assert sampled("maze", 300).score(parse(MZ1 + " turnLeft turnLeft")) == 1.0


@pytest.mark.parametrize("leaps_compat", [True, False])
def test_topoff_reference_solutions(leaps_compat):
    states = sampled("topoff", 300, leaps_compat)
    assert states.score(parse(TO2)) == 1.0
    assert states.score(parse(TO1)) == pytest.approx(9 / 11 if leaps_compat else 1.0)


def test_maze_right_hand_follower_scores_near_the_reference():
    assert sampled("maze", 1000).score(parse(MZ1)) == pytest.approx(0.895, abs=0.03)


def test_cleanhouse_right_hand_follower_scores_near_the_reference():
    assert 0.17 <= sampled("cleanhouse", 300).score(parse(CH4)) <= 0.28


def test_maze_generator_statistics():
    rng = random.Random("test/maze")
    worlds = [maze_world(rng) for _ in range(300)]
    assert all(64 - len(w.walls) == 17 for w in worlds)
    assert all((1, c) in w.walls and (r, 6) in w.walls for w in worlds for c in range(8) for r in range(8))
    targets = [i.target for i in sample_instances(TASKS["maze"], "test/maze-targets", 3000)]
    assert sum(t == (6, 1) for t in targets) / len(targets) == pytest.approx(1 / 17, abs=0.015)


def test_stairclimber_pairs_are_uniform_over_45():
    instances = sample_instances(TASKS["stairclimber"], "test/stairs", 4500)
    pairs = Counter((i.world.agent, i.target) for i in instances)
    assert len(pairs) == 45
    assert max(pairs.values()) < 160 and min(pairs.values()) > 50


def test_topoff_marker_rate():
    instances = sample_instances(TASKS["topoff"], "test/topoff", 400, leaps_compat=False)
    marked = sum(len(i.cells) for i in instances)
    assert marked / (400 * 9) == pytest.approx(0.25, abs=0.03)
    assert all((10, 10) not in i.cells for i in instances)
    assert all((10, 10) in i.cells for i in sample_instances(TASKS["topoff"], "test/topoff", 50))


def test_generators_are_reproducible_from_the_seed_string():
    for task in TASKS.values():
        first = [i.world for i in sample_instances(task, "test/repro", 5)]
        again = [i.world for i in sample_instances(task, "test/repro", 5)]
        assert first == again


@pytest.mark.parametrize("task", [t for t, spec in TASKS.items() if spec.resizable])
def test_tasks_scale_to_100x100(task):
    instance = TASKS[task].instance(random.Random(3), size=100)
    assert (instance.world.height, instance.world.width) == (100, 100)


def test_world_text_round_trip():
    world = world_from_text(MAZE_A, {(6, 1): 3})
    assert world_from_text(world.text(), {(6, 1): 3}) == world
    assert isinstance(world, World)
