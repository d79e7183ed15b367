"""Hill climbing in Karel program space, its output directory, and `nsm run-program`."""

from __future__ import annotations

import json

from nsmcli.worlds.karel.dsl import parse, program_size
from nsmcli.worlds.karel.env import KarelEnvironment
from nsmcli.worlds.karel.search import HillClimber, SearchConfig, hill_climb, write_result
from tests.fuzzing import run_cli

SC1 = "WHILE c( noMarkersPresent c) w( turnLeft move turnRight move w)"


def test_hill_climbing_is_deterministic_for_a_seed():
    config = SearchConfig("harvester", seed=4, budget=300)
    first, again = hill_climb(config, honest=False), hill_climb(config, honest=False)
    assert (first.program, first.leaps_score, first.evaluations) == (
        again.program,
        again.leaps_score,
        again.evaluations,
    )
    other = hill_climb(SearchConfig("harvester", seed=5, budget=300), honest=False)
    assert other.program != first.program


def test_hill_climbing_respects_the_evaluation_budget_and_the_length_limit():
    climber = HillClimber(SearchConfig("cleanhouse", seed=1, budget=200))
    best, score, improvements = climber.run()
    assert climber.evaluations == 200
    assert len(climber.cache) == 200  # each evaluation is a distinct program
    assert all(program_size(parse(text)) <= 46 for text in climber.cache)
    assert improvements[-1][1] == score and score == climber.states.score(best)


def test_hill_climbing_solves_stairclimber_on_a_small_budget():
    result = hill_climb(SearchConfig("stairclimber", seed=1, budget=3000))
    assert result.leaps_score == 1.0 and result.evaluations <= 3000
    assert result.honest_score is not None and result.honest_score >= 0.95
    env = KarelEnvironment()
    assert env.run(result.tokens).done  # the tokens replay as a finished program


def test_write_result_and_run_program_from_the_directory(tmp_path):
    config = SearchConfig("stairclimber", seed=2, budget=2000)
    result = hill_climb(config)
    out = write_result(tmp_path / "run", result, config)
    record = json.loads((out / "best_program.json").read_text())
    assert {"task", "seed", "program", "tokens", "leaps_score", "honest_score", "evaluations",
            "wall_seconds", "algo"} <= set(record)  # fmt: skip
    assert record["algo"] == "hill-climbing"
    assert json.loads((out / "config.json").read_text())["budget"] == 2000
    code, stdout, stderr = run_cli(["run-program", str(out), "--json"])
    assert code == 0, stderr
    shown = json.loads(stdout)
    assert shown["task"] == "stairclimber" and shown["train_score"] == result.leaps_score


def test_run_program_prints_the_program_and_the_worlds():
    code, stdout, stderr = run_cli(["run-program", SC1, "--env", "karel:stairclimber", "--seed", "3"])
    assert code == 0, stderr
    assert stdout.startswith("DEF run m(\n    WHILE c( noMarkersPresent c) w(")
    assert "before" in stdout and "after" in stdout and "STAIRCLIMBER score 1.0000" in stdout


def test_run_program_writes_a_gif(tmp_path):
    gif = tmp_path / "sc.gif"
    code, _, stderr = run_cli(["run-program", SC1, "--env", "karel:stairclimber", "--gif", str(gif), "-q"])
    assert code == 0, stderr
    from PIL import Image

    with Image.open(gif) as image:
        assert image.n_frames > 2


def test_run_program_bad_input_is_one_line_and_exit_2(tmp_path):
    for args in (
        ["run-program", "WHILE c( frontIsClear c) w( w)", "--env", "karel:maze"],
        ["run-program", "move"],
        ["run-program", "move", "--env", "karel:nope"],
        ["run-program", str(tmp_path)],
    ):
        code, stdout, stderr = run_cli(args)
        assert code == 2 and stdout == "" and len(stderr.strip().splitlines()) == 1, (args, stderr)


def test_explore_karel_writes_the_run_and_reports_json(tmp_path, capsys):
    from nsmcli.cli.karel import explore_karel

    payload = explore_karel("karel:maze", tmp_path / "maze", seed=1, budget=500, json=True, quiet=True)
    printed = json.loads(capsys.readouterr().out)
    assert printed["evaluations"] == payload["evaluations"] <= 500
    assert json.loads((tmp_path / "maze" / "best_program.json").read_text())["program"] == payload["program"]


def test_growing_objective_stays_within_the_budget():
    climber = HillClimber(SearchConfig("cleanhouse", seed=2, budget=403, grow_every=50))
    climber.run()
    assert len(climber.batches) > 2  # fresh training batches joined the objective
    assert climber.evaluations <= 403
    fixed = HillClimber(SearchConfig("harvester", seed=2, budget=150, grow_every=50))
    fixed.run()
    assert len(fixed.batches) == 1  # one fixed initial state: nothing to draw
