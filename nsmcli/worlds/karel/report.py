"""`nsm eval` of a Karel training run: the two figures of issue 18, from the run's best program.

The run's program is the highest-reward program it found (its buffer, as of the last checkpoint), as LEAPS
reports the best program its search found. The LEAPS figure is that program's score on the run's 10
training states; the honest figure its mean score on the 1,000 fresh dev states (and on 100x100 grids
where the task has them), which training never saw: the trainer selects weights on the training states.
A run that found no rewarded program reports its policy's greedy program instead. The program is also
written to `RUN/best_program.json`, which `nsm run-program RUN` reads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from nsmcli.errors import CheckpointError
from nsmcli.fileio import atomic_write_json
from nsmcli.worlds.karel.dsl import parse, program_text
from nsmcli.worlds.karel.problems import BIG_SPLIT, KarelProblemSet


def _greedy_program(run: Path | str, problems: KarelProblemSet, train: dict) -> str:
    from nsmcli.train.evaluate import decode, load_run_model
    from nsmcli.train.questions import QuestionPool, default_kit

    model, config, _ = load_run_model(run, default_kit(), "best")
    pool = QuestionPool(problems, problems.examples("train"), config["limits"], model)
    question = pool.get(pool.order[0])
    found = decode(model, [question], 0, max_steps=int(train.get("max_decode_steps", 50)))[0]
    if not found:
        raise CheckpointError(f"{run}: the run found no rewarded program and its policy decodes none")
    return question.env.display(found[0][0])


def karel_report(run: Path | str, record: dict[str, Any], big: bool = True) -> dict[str, Any]:
    from nsmcli.train.rundir import RunDir

    rundir = RunDir(run)
    source = (record.get("dataset") or {}).get("path")
    train = record.get("train") or {}
    seed = int(train.get("seed", 1))
    problems = KarelProblemSet(str(source), seed)
    ckpt = rundir.load_checkpoint()
    best: tuple[float, str] | None = None
    for entry in ckpt.buffer:
        rewards = entry.get("rewards") or [1.0] * len(entry.get("programs", []))
        for text, reward in zip(entry.get("programs", []), rewards, strict=False):
            if best is None or float(reward) > best[0]:
                best = (float(reward), text)
    if best is None:  # nothing rewarded found: the run's program is then its policy's greedy decode
        best = (0.0, _greedy_program(run, problems, train))
    program = parse(best[1])
    train_states = problems.examples("train")[0].states
    dev_states = problems.examples("dev")[0].states
    metrics = rundir.read_metrics()
    last = metrics[-1] if metrics else {}
    payload: dict[str, Any] = {
        "task": problems.task.name,
        "seed": seed,
        "algo": train.get("algo"),
        "program": program_text(program),
        "leaps_score": round(train_states.score(program), 6),
        "honest_score": round(dev_states.score(program), 6),
        "dev_states": len(dev_states),
        "evaluations": int(ckpt.state.get("evaluations", last.get("evaluations", 0))),
        "steps": int(ckpt.state.get("step", 0)),
        "wall_seconds": float(ckpt.state.get("wall_seconds", 0.0)),
    }
    if big and BIG_SPLIT in problems.splits:
        payload["honest_100x100"] = round(problems.examples(BIG_SPLIT)[0].states.score(program), 6)
    env = problems.bind(problems.examples("train")[0])
    atomic_write_json(rundir.path / "best_program.json", {**payload, "tokens": list(env.encode(program))})
    return payload
