"""Scaling of `nsm train` across actors: Ray actors against actor processes, the learner's own speed, and
what follows for 8, 32 and 128 actors.

Phases (each can run alone; measured figures are kept in bench/results/scaling.json and the report
bench/results/scaling.md is written from all of them):

- `train`: training throughput, questions/s of fresh WTQ MAPO runs (`nsm train`, as
  bench/train_throughput.py measures it) with 1 and 2 actors, `--backend processes` against `--backend ray`.
- `record`: one in-process run with 2 actor processes whose requests and actor results are recorded
  (the basis of the next two phases), and its last weights.
- `sample`: sampling throughput, questions/s of the backends alone: the recorded requests submitted two
  batches ahead, with the recorded run's last weights, in the learner's process (inline), 1 and 2 actor
  processes and 1 and 2 Ray actors. Also the size of the weights and the time of one `ray.put` of them.
- `learner`: the learner's own step time: a fresh run with the same seed fed the recorded actor results
  as fast as it consumes them (a backend that returns them at once). Being deterministic, it must end with
  the recorded run's metrics, which is checked. The time spent in the optimizer step (`_learn`: forward,
  backward, Adam) is counted apart from the rest of the step (buffer, exploration cache, weighting).

The projection for N actors: each actor samples s questions/s (the 1-Ray-actor figure), so N actors
could feed N s questions/s, but the learner consumes at most L = questions per step / learner step time;
throughput is min(N s, L) and the learner saturates at N* = L / s. A step's batch is cut into one shard
per actor, so beyond N = questions_per_step actors sit idle unless the batch grows.

    python bench/scaling.py --data /work/data/wtq-word --programs /work/data/wtq-word-programs-tw.jsonl
    python bench/scaling.py --data ... --programs ... --phases record,sample,learner --steps 150
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import RESULTS, code_version, header, write_result
from train_throughput import measure

from nsmcli.train import loop
from nsmcli.train.actors import ActRequest, ActResult
from nsmcli.train.backends import WorkerSpec, open_backend
from nsmcli.train.questions import QuestionPool, build_model, default_kit
from nsmcli.train.rundir import RunDir
from nsmcli.worlds.tables.data.preprocess import load_dataset

SAVED = RESULTS / "scaling.json"
#: The run settings of every phase (as bench/train_throughput.py's command line sets them).
RUN = {"eval_every": 0, "eval_max_questions": 1, "log_every": 20, "seed": 0}
CONFIGS = [("processes", 1), ("ray", 1), ("processes", 2), ("ray", 2)]


def load() -> dict:
    return json.loads(SAVED.read_text()) if SAVED.exists() else {}


def save(key: str, value: Any) -> None:
    saved = load()
    saved[key] = value
    SAVED.parent.mkdir(parents=True, exist_ok=True)
    SAVED.write_text(json.dumps(saved, indent=1) + "\n")


def command_line() -> str:
    return "python bench/" + " ".join([Path(__file__).name, *sys.argv[1:]])


def context() -> dict:
    return {
        "command": command_line(),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "code": code_version(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


# ----- phase train ---------------------------------------------------------------------------------------


def phase_train(args: argparse.Namespace) -> None:
    """Rows of an earlier call for other configurations are kept (a call may measure a few at a time)."""
    kept = [
        r for r in load().get("train", {}).get("rows", []) if (r["backend"], r["actors"]) not in args.configs
    ]
    rows = []
    for backend, n in args.configs:
        before = os.getloadavg()[0]
        qps, wall = measure(args.data, args.programs, args.steps, n, backend=backend)
        rows.append(
            {
                "backend": backend,
                "actors": n,
                "questions_per_second": round(qps, 2),
                "wall_seconds": round(wall),
            }
        )
        rows[-1]["load_average"] = [round(before, 2), round(os.getloadavg()[0], 2)]
        rows[-1]["date"] = context()["date"]
        print(rows[-1], flush=True)
    order = {c: i for i, c in enumerate(CONFIGS)}
    rows = sorted(kept + rows, key=lambda r: order.get((r["backend"], r["actors"]), len(order)))
    save("train", {**context(), "steps": args.steps, "rows": rows})


# ----- phase record --------------------------------------------------------------------------------------


class Recorder:
    """A backend that passes everything to another and keeps each batch's request and result."""

    def __init__(self, inner: Any):
        self.inner, self.overlaps = inner, inner.overlaps
        self.requests: dict[int, ActRequest] = {}
        self.results: dict[int, ActResult] = {}

    def submit(self, tag: int, state_dict: dict, request: ActRequest) -> None:
        self.requests[tag] = copy.deepcopy(request)  # its buffers are the learner's lists, which grow
        self.inner.submit(tag, state_dict, request)

    def collect(self, tag: int) -> ActResult:
        self.results[tag] = self.inner.collect(tag)
        return self.results[tag]

    def cpu_seconds(self) -> float:
        return self.inner.cpu_seconds()

    def close(self) -> None:
        self.inner.close()


def phase_record(args: argparse.Namespace) -> None:
    import torch

    made: list[Recorder] = []
    real_open = loop.open_backend

    def recording(*a: Any, **k: Any) -> Recorder:
        made.append(Recorder(real_open(*a, **k)))
        return made[-1]

    loop.open_backend = recording
    try:
        run = args.work / "recorded"
        shutil.rmtree(run, ignore_errors=True)
        result = loop.train(
            args.data, run, programs=args.programs, overrides={**RUN, "n_steps": args.steps}, actors=2
        )
    finally:
        loop.open_backend = real_open
    torch.save(
        {"requests": made[0].requests, "results": made[0].results, "run": str(run)},
        args.work / "recorded.pt",
    )
    print(
        f"recorded {len(made[0].results)} batches, {result.questions_per_second:.1f} questions/s", flush=True
    )


def _recorded(args: argparse.Namespace) -> dict:
    import torch

    return torch.load(args.work / "recorded.pt", weights_only=False)


# ----- phase sample --------------------------------------------------------------------------------------


def phase_sample(args: argparse.Namespace) -> None:
    import torch

    recorded = _recorded(args)
    rundir = RunDir(recorded["run"])
    config, vocab = rundir.read_config(), rundir.read_vocab()
    weights = rundir.load_weights("last")[0]
    kit, split = default_kit(), config["train"]["train_split"]
    dataset = load_dataset(args.data)
    spec = WorkerSpec(kit, config["model"], vocab, str(args.data), split, config["limits"])
    model = build_model(kit, config["model"], vocab, pretrained=False)
    model.load_state_dict(weights)
    pool = QuestionPool(dataset, dataset.examples(split), config["limits"], model)
    tags = sorted(recorded["requests"])[: args.batches + 1]
    rows = []
    for backend, n in [("inline", 0), *CONFIGS]:
        before = os.getloadavg()[0]
        sampler = open_backend(backend, n, spec, pool)
        try:
            start = time.perf_counter()
            sampler.submit(tags[0], weights, recorded["requests"][tags[0]])  # start-up and warm-up
            sampler.collect(tags[0])
            first = time.perf_counter() - start
            ahead = 2 if sampler.overlaps else 1
            start, questions = time.perf_counter(), 0
            timed = tags[1:]
            for tag in timed[:ahead]:
                sampler.submit(tag, weights, recorded["requests"][tag])
            for k, tag in enumerate(timed):
                questions += len(sampler.collect(tag).scored)
                if k + ahead < len(timed):
                    nxt = timed[k + ahead]
                    sampler.submit(nxt, weights, recorded["requests"][nxt])
            elapsed = time.perf_counter() - start
        finally:
            sampler.close()
        rows.append(
            {
                "backend": backend,
                "actors": n,
                "questions_per_second": round(questions / elapsed, 2),
                "first_batch_seconds": round(first, 2),
                "load_average": [round(before, 2), round(os.getloadavg()[0], 2)],
            }
        )
        print(rows[-1], flush=True)
    size = sum(t.numel() * t.element_size() for t in weights.values())
    put = _time_ray_put(weights)
    save(
        "sample",
        {
            **context(),
            "batches": len(tags) - 1,
            "questions_per_step": len(recorded["requests"][tags[0]].ids),
            "rows": rows,
            "weights_bytes": size,
            "ray_put_seconds": put,
            "torch_threads": torch.get_num_threads(),
        },
    )


def _time_ray_put(weights: dict) -> float:
    from nsmcli.train.backends.ray import RaySession

    session = RaySession(None, 1)
    try:
        ray = session.ray
        ray.put(weights)
        start = time.perf_counter()
        for _ in range(20):
            ray.put(weights)
        return round((time.perf_counter() - start) / 20, 5)
    finally:
        session.close()


# ----- phase learner -------------------------------------------------------------------------------------


class Replay:
    """A backend that returns recorded results at once: the learner alone sets the pace."""

    overlaps = False

    def __init__(self, results: dict[int, ActResult]):
        self.results = results

    def submit(self, tag: int, state_dict: dict, request: ActRequest) -> None:
        pass

    def collect(self, tag: int) -> ActResult:
        return self.results[tag]

    def cpu_seconds(self) -> float:
        return 0.0

    def close(self) -> None:
        pass


def phase_learner(args: argparse.Namespace) -> None:
    recorded = _recorded(args)
    learn_seconds = [0.0]
    real_open, real_learn = loop.open_backend, loop._learn

    def timed_learn(*a: Any, **k: Any) -> float:
        start = time.perf_counter()
        try:
            return real_learn(*a, **k)
        finally:
            learn_seconds[0] += time.perf_counter() - start

    loop.open_backend = lambda *a, **k: Replay(recorded["results"])
    loop._learn = timed_learn
    steps = len(recorded["results"])
    before = os.getloadavg()[0]
    try:
        run = args.work / f"replay-{time.time_ns()}"
        result = loop.train(
            args.data, run, programs=args.programs, overrides={**RUN, "n_steps": steps}, actors=0
        )
    finally:
        loop.open_backend, loop._learn = real_open, real_learn
    timing = ("questions_per_second", "wall_seconds", "cpu_seconds")
    strip = [
        [{k: v for k, v in m.items() if k not in timing} for m in RunDir(r).read_metrics()]
        for r in (run, recorded["run"])
    ]
    if strip[0] != strip[1]:
        sys.exit("error: the replayed run does not end with the recorded run's metrics")
    per_step = result.seconds / steps
    save(
        "learner",
        {
            **context(),
            "steps": steps,
            "questions_per_step": len(recorded["requests"][1].ids),
            "step_seconds": round(per_step, 4),
            "learn_seconds": round(learn_seconds[0] / steps, 4),
            "questions_per_second": round(result.questions_per_second, 2),
            "load_average": [round(before, 2), round(os.getloadavg()[0], 2)],
            "same_metrics_as_recorded": True,
        },
    )
    print(load()["learner"], flush=True)


# ----- the report ----------------------------------------------------------------------------------------


def report(command: str) -> str:
    saved = load()
    text = header("Scaling: Ray actors, actor processes and the learner (WTQ, MAPO)", command)
    if "train" in saved:
        t = saved["train"]
        rows = {(r["backend"], r["actors"]): r for r in t["rows"]}
        base = {n: r["questions_per_second"] for (b, n), r in rows.items() if b == "processes"}
        text += (
            f"### Training throughput\n\n{t['steps']} steps of a fresh run per row (`nsm train`, seed 0, no dev "
            f"evaluation, questions/s after the first 20-step window); code {t['code']}, measured by "
            f"`{t['command']}`.\n\n"
            "| backend | actors | questions/s | ray / processes | whole command | date | load average (before, after) |\n"
            "|---|---:|---:|---:|---:|---|---|\n"
        )
        for (backend, n), r in rows.items():
            ratio = f"{r['questions_per_second'] / base[n]:.2f}" if n in base else "-"
            text += (
                f"| {backend} | {n} | {r['questions_per_second']} | {ratio} | {r['wall_seconds']} s | "
                f"{r.get('date', t['date'])} | {r['load_average']} |\n"
            )
        text += "\n"
    if "sample" in saved:
        s = saved["sample"]
        text += (
            f"### Sampling throughput\n\nThe backends alone: {s['batches']} recorded batches of "
            f"{s['questions_per_step']} questions, two in flight, with one run's last weights; {s['date']}, "
            f"code {s['code']}, measured by `{s['command']}`. The weights are {s['weights_bytes'] / 1e6:.1f} MB; one `ray.put` of them takes "
            f"{s['ray_put_seconds'] * 1000:.1f} ms.\n\n"
            "| backend | actors | questions/s | first batch (start-up) | load average (before, after) |\n"
            "|---|---:|---:|---:|---|\n"
        )
        for r in s["rows"]:
            text += (
                f"| {r['backend']} | {r['actors']} | {r['questions_per_second']} | {r['first_batch_seconds']} s | "
                f"{r['load_average']} |\n"
            )
        text += "\n"
    if "learner" in saved:
        learner = saved["learner"]
        text += (
            f"### The learner alone\n\nA fresh run fed the {learner['steps']} recorded batches as fast as it "
            f"consumes them (it ends with the recorded run's metrics: checked); {learner['date']}, code "
            f"{learner['code']}, load average {learner['load_average']}, measured by `{learner['command']}`."
            "\n\n"
            f"- step time {learner['step_seconds'] * 1000:.0f} ms, of which the optimizer step (forward, "
            f"backward, Adam) {learner['learn_seconds'] * 1000:.0f} ms and the rest (buffer, cache, weighting, "
            f"requests) {(learner['step_seconds'] - learner['learn_seconds']) * 1000:.0f} ms\n"
            f"- so the learner consumes at most {learner['questions_per_second']} questions/s\n\n"
        )
    if "sample" in saved and "learner" in saved:
        text += projection(saved["sample"], saved["learner"])
    return text


def projection(sample: dict, learner: dict) -> str:
    one = next(r for r in sample["rows"] if r["backend"] == "ray" and r["actors"] == 1)[
        "questions_per_second"
    ]
    batch = learner["questions_per_step"]
    put = sample["ray_put_seconds"]  # paid by the driver once per update, between two learner steps
    step, learn = learner["step_seconds"] + put, learner["learn_seconds"]
    limit = batch / step
    rest_limit = batch / (step - learn)
    saturation = limit / one
    text = (
        "### Projection for more actors\n\n"
        f"Inputs: one Ray actor samples s = {one} questions/s; the learner takes {learner['step_seconds'] * 1000:.0f}"
        f" ms per step of {batch} questions plus {put * 1000:.0f} ms to put the weights in the object store, so "
        f"it consumes at most L = {limit:.1f} questions/s. With actors overlapping the learner, throughput is "
        f"min(N s, L): the learner saturates at N* = L / s = {saturation:.1f} actors. (On this 2-core machine, "
        "shared, s and L were both measured with the cores contended; the ratio is what matters.)\n\n"
        "| actors | actors can feed (N s) | learner-bound throughput | bound by | idle actors at "
        f"{batch} questions/step |\n|---:|---:|---:|---|---:|\n"
    )
    for n in (8, 32, 128):
        feed = n * one
        text += (
            f"| {n} | {feed:.0f} | {min(feed, limit):.1f} | {'learner' if feed > limit else 'actors'} | "
            f"{max(0, n - batch)} |\n"
        )
    text += (
        f"\nWhat moves N*: (1) a GPU learner shrinks only the optimizer step ({learn * 1000:.0f} ms of "
        f"{step * 1000:.0f}; not measured on a GPU here); even at zero cost, the rest of the step (bookkeeping "
        f"and the weights' put) caps L at {rest_limit:.0f} questions/s (N* = {rest_limit / one:.1f}). (2) Batching: N* scales with questions per step only if the learner's "
        "time per question falls with the batch (the optimizer step's batched forward and backward), while the "
        "per-question bookkeeping stays; and a batch smaller than N leaves actors without a shard. (3) Each "
        f"update ships the weights once ({sample['weights_bytes'] / 1e6:.1f} MB) through the object store; "
        "every node fetches them once per step, so on a cluster the head sends nodes x that per step.\n"
    )
    return text


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, required=True, help="preprocessed WTQ (nsm preprocess wtq)")
    parser.add_argument("--programs", type=Path, required=True, help="nsm explore output for the train split")
    parser.add_argument("--steps", type=int, default=200, help="steps per training run (train, record)")
    parser.add_argument("--batches", type=int, default=60, help="recorded batches per sampling measurement")
    parser.add_argument("--phases", default="train,record,sample,learner")
    parser.add_argument(
        "--configs", default="processes:1,ray:1,processes:2,ray:2", help="backend:actors of the train phase"
    )
    parser.add_argument(
        "--work", type=Path, default=Path(tempfile.gettempdir()) / "nsm-scaling", help="recorded runs"
    )
    args = parser.parse_args()
    args.data, args.programs = args.data.resolve(), args.programs.resolve()
    args.configs = [(c.split(":")[0], int(c.split(":")[1])) for c in args.configs.split(",")]
    args.work.mkdir(parents=True, exist_ok=True)
    phases = {"train": phase_train, "record": phase_record, "sample": phase_sample, "learner": phase_learner}
    for name in filter(None, args.phases.split(",")):  # none: rewrite the report from what was measured
        phases[name](args)
    print(f"wrote {write_result('scaling', report(command_line()))}")


if __name__ == "__main__":
    main()
