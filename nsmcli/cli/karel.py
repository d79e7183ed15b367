"""`nsm run-program` and the Karel side of `nsm explore`: thin layers over nsmcli.worlds.karel."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from nsmcli.cli.output import print_json, progress_bar, safe, stdout
from nsmcli.errors import DataError

RESULT_FILE = "best_program.json"


def _load_program(run_or_program: str, env: str | None) -> tuple[str, str]:
    """(program text, task name) from a run directory's best_program.json or from program text."""
    from nsmcli.worlds.karel.problems import parse_spec

    path = Path(run_or_program)
    if path.is_dir():
        result_file = path / RESULT_FILE
        try:
            record = json.loads(result_file.read_text(encoding="utf-8"))
            program, task = record["program"], record["task"]
        except FileNotFoundError:
            raise DataError(
                f"{path} holds no {RESULT_FILE}; give a Karel run directory or program text"
            ) from None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise DataError(f"cannot read {result_file}: {exc}") from None
        return program, (parse_spec(env).name if env else task)
    if env is None:
        raise DataError("give the task with --env karel:TASK (e.g. --env karel:harvester)")
    return run_or_program, parse_spec(env).name


def run_program(
    run_or_program: str = typer.Argument(
        ..., metavar="RUN_OR_PROGRAM", help="A run directory (its best_program.json) or Karel program text."
    ),
    env: str = typer.Option(
        None, "--env", help="The task, karel:TASK (e.g. karel:harvester); a run directory's own by default."
    ),
    seed: int = typer.Option(1, "--seed", help="Run on the first of this seed's 10 training states."),
    gif: Path = typer.Option(None, "--gif", help="Also write the trajectory as an animated GIF."),
    json_out: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the scores."),
) -> None:
    """Run a Karel program on one initial state of a task: the program indented, the world before and after.

    Examples:

    \b
      nsm run-program --env karel:stairclimber \\
          "WHILE c( noMarkersPresent c) w( turnLeft move turnRight move w)"
      nsm run-program runs/harvester-1 --gif harvester.gif
    """
    from nsmcli.fileio import check_output_file
    from nsmcli.worlds.karel.dsl import parse, pretty, program_text
    from nsmcli.worlds.karel.interpreter import trajectory
    from nsmcli.worlds.karel.tasks import StateSet, get_task, training_states

    text, task_name = _load_program(run_or_program, env)
    program = parse(text)
    if gif is not None:
        check_output_file(gif)
    task = get_task(task_name)
    states = training_states(task, seed)
    first = StateSet(task, states.instances[:1], states.leaps_compat, states.max_calls)
    [(state_score, run)] = first.runs(program)
    path = trajectory(program, first.instances[0].world, states.max_calls)
    train_score = states.score(program)
    if gif is not None:
        from nsmcli.worlds.karel.render import render_gif

        render_gif(path.states, path.actions, gif)
    result = {
        "task": task.name,
        "seed": seed,
        "program": program_text(program),
        "before": path.states[0].text(),
        "after": path.states[-1].text(),
        "actions": path.actions,
        "calls": run.calls,
        "aborted": path.aborted,
        "state_score": state_score,
        "train_score": train_score,
        **({"gif": str(gif)} if gif is not None else {}),
    }
    if json_out:
        print_json(result)
        return
    if not quiet:
        stdout.print(safe(pretty(program)))
        stdout.print()
        before, after = path.states[0].text().splitlines(), path.states[-1].text().splitlines()
        width = len(before[0])
        stdout.print(f"{'before':<{width}}   after")
        for left, right in zip(before, after, strict=True):
            stdout.print(f"{left}   {right}")
        stdout.print()
        ending = ", aborted at the call limit" if path.aborted else ""
        stdout.print(f"{len(path.actions)} actions, {run.calls} calls{ending}")
    stdout.print(
        f"[bold]{task.title}[/] score {state_score:.4f} on this state, {train_score:.4f} on seed {seed}'s "
        f"{len(states)} training states" + (f"; trajectory -> {safe(gif)}" if gif is not None else "")
    )


def explore_karel(
    task: str, out: Path, seed: int = 1, budget: int = 65_000, json: bool = False, quiet: bool = False
) -> dict:
    """`nsm explore --env karel:TASK`: hill climbing in program space; writes OUT/best_program.json and
    OUT/programs.jsonl (the best programs met, which `nsm train --env karel:TASK --programs` starts from)."""
    from nsmcli.fileio import check_output_file
    from nsmcli.worlds.karel.problems import parse_spec
    from nsmcli.worlds.karel.search import SearchConfig, hill_climb, write_result

    name = parse_spec(task).name if ":" in task else task
    if budget < 1:
        raise DataError(f"the evaluation budget must be at least 1, not {budget}")
    check_output_file(Path(out) / "best_program.json")
    config = SearchConfig(name, seed=seed, budget=budget)
    with progress_bar(quiet) as progress:
        report = None
        if progress is not None:
            bar = progress.add_task(f"hill climbing {name}", total=budget, status="")

            def report(evaluations: int, best: float) -> None:
                progress.update(bar, completed=evaluations, status=f"best {best:.3f}")

        result = hill_climb(config, report)
    write_result(out, result, config)
    payload = {**result.to_json(), "out": str(out)}
    if json:
        print_json(payload)
    else:
        stdout.print(
            f"[bold]{name}[/]: LEAPS figure {result.leaps_score:.3f} (10 training states), honest "
            f"{result.honest_score:.3f} (1,000 fresh states), {result.evaluations:,} evaluations, "
            f"{result.wall_seconds:.1f} s -> {safe(out)}"
        )
    return payload
