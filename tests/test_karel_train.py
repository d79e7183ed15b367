"""Karel through the same commands as the tables: nsm train --env, nsm eval, nsm run-program."""

from __future__ import annotations

import json

import pytest
import torch
from typer.testing import CliRunner

from nsmcli.cli.main import app, main
from nsmcli.train.loop import train
from nsmcli.train.rundir import RunDir
from nsmcli.worlds import get_world, open_problems

FAST = {"n_steps": 12, "eval_every": 6, "checkpoint_every": 6, "log_every": 3, "max_minutes": 0.0}


def _cli(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize("algo", ["mapo", "reinforce", "actor-critic"])
def test_every_algorithm_trains_on_a_karel_task(tmp_path, algo):
    torch.set_num_threads(1)
    run = tmp_path / algo
    result = train("karel:maze", run, algo=algo, overrides={**FAST, "seed": 3})
    assert result.step == 12
    record = RunDir(run).read_config()
    assert record["language"] == "karel" and record["dataset"]["path"] == "karel:maze"
    lines = RunDir(run).read_metrics()
    assert lines[-1]["evaluations"] > 0 and "dev_accuracy" in lines[-1]
    assert record["train"]["dev_split"] == "train"  # model selection never sees the fresh states


def test_eval_reports_both_figures_and_run_program_reads_the_run(tmp_path):
    torch.set_num_threads(1)
    run = tmp_path / "run"
    train("karel:maze", run, overrides={**FAST, "seed": 1})
    out = _cli("eval", str(run), "--json")
    assert out.exit_code == 0, out.output
    report = json.loads(out.output)
    assert 0.0 <= report["leaps_score"] <= 1.0 and 0.0 <= report["honest_score"] <= 1.0
    assert report["dev_states"] == 1000 and report["evaluations"] > 0
    # the program it reports is the run's best: its training score is the best buffer reward
    ckpt = RunDir(run).load_checkpoint()
    best = max(r for entry in ckpt.buffer for r in entry.get("rewards", [1.0] * len(entry["programs"])))
    assert report["leaps_score"] == pytest.approx(best, abs=1e-6)
    shown = _cli("run-program", str(run), "--quiet")
    assert shown.exit_code == 0, shown.output


def test_a_resumed_karel_run_matches_an_uninterrupted_one(tmp_path):
    torch.set_num_threads(1)
    full = train("karel:stairclimber", tmp_path / "full", overrides={**FAST, "seed": 2})
    train("karel:stairclimber", tmp_path / "cut", overrides={**FAST, "seed": 2}, stop_after=7)
    resumed = train("karel:stairclimber", tmp_path / "cut", resume=True)
    assert resumed.step == full.step
    strip = ("questions_per_second", "wall_seconds", "cpu_seconds")
    a = [{k: v for k, v in m.items() if k not in strip} for m in RunDir(tmp_path / "full").read_metrics()]
    b = [{k: v for k, v in m.items() if k not in strip} for m in RunDir(tmp_path / "cut").read_metrics()]
    assert a == b


def _error(capsys, *args: str) -> str:
    with pytest.raises(SystemExit) as exited:
        main(list(args))
    err = capsys.readouterr().err.strip().splitlines()
    assert exited.value.code == 2 and len(err) == 1 and err[0].startswith("error: "), err
    return err[0]


def test_karel_cli_errors_are_one_line(capsys, tmp_path):
    assert "chess" in _error(capsys, "train", "--env", "karel:chess", "--out", str(tmp_path / "r"))
    assert "karel:harvester" in _error(capsys, "train", "--env", "tables:x", "--out", str(tmp_path / "r"))
    assert "budget" in _error(
        capsys, "explore", "--env", "karel:maze", "--out", str(tmp_path / "e"), "--max-evaluations", "0"
    )
    assert not (tmp_path / "r").exists()


def test_the_karel_preset_is_the_world_s():
    world = get_world("karel")
    problems = open_problems("karel:harvester", seed=4)
    assert problems.world == "karel" and problems.meta["seed"] == 4
    assert world.train_preset["max_evaluations"] == 65_000 and world.limits() == {"max_length": 45}


def test_more_actors_than_problems_per_step(tmp_path):
    """One Karel problem per step and two actor processes: one actor gets an empty shard."""
    result = train("karel:maze", tmp_path / "a2", actors=2, overrides={**FAST, "n_steps": 4, "seed": 1})
    assert result.step == 4 and RunDir(tmp_path / "a2").read_metrics()[-1]["evaluations"] > 0


def test_a_run_that_found_nothing_reports_its_greedy_program(tmp_path, capsys):
    """No sample at all, so an empty buffer: eval reports the policy's own program, not an error."""
    run = tmp_path / "empty"
    settings = {**FAST, "n_steps": 2, "n_explore": 0, "n_extra_explore_for_hard": 0, "n_policy": 0}
    train("karel:stairclimber", run, overrides=settings)
    assert not RunDir(run).load_checkpoint().buffer
    with pytest.raises(SystemExit) as exited:
        main(["eval", str(run), "--json"])
    assert exited.value.code in (0, None)
    report = json.loads(capsys.readouterr().out)
    assert report["program"].startswith("DEF run m(") and 0.0 <= report["leaps_score"] <= 1.0


def test_hill_climbing_programs_fill_the_mapo_buffer_with_their_earned_rewards(tmp_path):
    """`nsm explore --env karel:TASK` writes programs.jsonl; `nsm train --programs` starts from them, each
    with the reward it earns on the run's training states, whatever the file claims."""
    from nsmcli.worlds.karel.search import SearchConfig, hill_climb, write_result

    torch.set_num_threads(1)
    config = SearchConfig("harvester", seed=1, budget=600, keep=4)
    result = hill_climb(config, honest=False)
    write_result(tmp_path / "climb", result, config)
    record = json.loads((tmp_path / "climb" / "programs.jsonl").read_text())
    assert record["id"] == "harvester/train/seed=1" and record["programs"][0] == result.program
    assert len(record["programs"]) == 4 and record["rewards"][0] == pytest.approx(result.leaps_score)
    record["rewards"] = [1.0] * 4  # a file that overstates its programs
    forged = tmp_path / "forged.jsonl"
    forged.write_text(json.dumps(record) + "\n")
    train("karel:harvester", tmp_path / "run", programs=forged, overrides={**FAST, "seed": 1, "n_steps": 1})
    ckpt = RunDir(tmp_path / "run").load_checkpoint()
    (entry,) = ckpt.buffer
    loaded = {" ".join(text.split()): r for text, r in zip(entry["programs"], entry["rewards"], strict=True)}
    assert loaded[result.program] == pytest.approx(result.leaps_score)
    assert max(loaded.values()) < 1.0  # no program earned the file's 1.0
    # a file for another seed's training states fills nothing
    train("karel:harvester", tmp_path / "other", programs=forged, overrides={**FAST, "seed": 2, "n_steps": 1})
    assert all(r < 1.0 for e in RunDir(tmp_path / "other").load_checkpoint().buffer for r in e["rewards"])
