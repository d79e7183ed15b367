"""`--backend ray` on a real local Ray instance (loopback, 2 CPUs, no dashboard; one for the module): the
same runs as the worker processes give, an actor killed mid-run, and exploration and evaluation as tasks."""

from __future__ import annotations

import json
import logging
import os
import signal
import sys

import pytest
import torch

from nsmcli.cli.main import main
from nsmcli.train.backends import BackendError, check_address, choose_backend, map_shards
from nsmcli.train.evaluate import evaluate
from nsmcli.train.loop import train
from nsmcli.train.rundir import RunDir
from nsmcli.worlds.tables.data.preprocess import load_dataset
from nsmcli.worlds.tables.search.runner import run_exploration
from tests.test_train import FAST, KIT, _strip_timing, tiny  # noqa: F401 (tiny: the fixture dataset)

RUN = {**FAST, "n_steps": 12}


@pytest.fixture(scope="module")
def local_ray():
    """One Ray instance for the module. Skipped only where Ray is not installed, and never in CI, where
    `make test` installs it."""
    try:
        import ray
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("ray is not installed, and CI must run these tests (pip install 'nsmcli[ray]')")
        pytest.skip("ray is not installed (pip install 'nsmcli[ray]')")
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        _node_ip_address="127.0.0.1",
        logging_level=logging.WARNING,
        runtime_env={"env_vars": {"OMP_NUM_THREADS": "1"}},
    )
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def processes_run(tiny, tmp_path_factory):  # noqa: F811
    """The reference: two actor processes."""
    data, programs = tiny
    out = tmp_path_factory.mktemp("processes") / "run"
    train(data, out, programs=programs, overrides=RUN, actors=2, kit=KIT)
    return RunDir(out)


def _same_run(a: RunDir, b: RunDir) -> None:
    assert _strip_timing(a.read_metrics()) == _strip_timing(b.read_metrics())
    wa, wb = a.load_weights("last")[0], b.load_weights("last")[0]
    assert all(torch.equal(wa[k], wb[k]) for k in wa)
    assert a.load_checkpoint().buffer == b.load_checkpoint().buffer


def test_ray_actors_train_exactly_as_actor_processes(local_ray, tiny, tmp_path, processes_run):  # noqa: F811
    data, programs = tiny
    result = train(data, tmp_path / "run", programs=programs, overrides=RUN, actors=2, backend="ray", kit=KIT)
    assert result.step == 12
    run = RunDir(tmp_path / "run")
    _same_run(run, processes_run)
    assert run.read_config()["runtime"]["backend"] == "ray"
    assert run.read_metrics()[-1]["cpu_seconds"] > 0


def test_a_killed_actor_is_replaced_and_the_run_ends_as_if_undisturbed(
    local_ray,
    tiny,  # noqa: F811
    tmp_path,
    processes_run,
    monkeypatch,
    caplog,
):
    """The actor of the first shard is killed (SIGKILL) right after batch 5 is handed to it: its work is resubmitted
    to a new actor, and nothing is lost or sampled twice (the same metrics, weights and buffer)."""
    from nsmcli.train.backends.ray import RayBackend

    killed = []
    submit = RayBackend.submit

    def submit_then_kill(self, tag, state_dict, request):
        pid = local_ray.get(self.actors[0].pid.remote()) if tag == 5 else None  # idle: batch 4 is collected
        submit(self, tag, state_dict, request)
        if pid is not None:
            os.kill(pid, signal.SIGKILL)  # as the kernel's out-of-memory killer would
            killed.append(pid)

    monkeypatch.setattr(RayBackend, "submit", submit_then_kill)
    data, programs = tiny
    with caplog.at_level(logging.WARNING, logger="nsmcli.train.backends.ray"):
        result = train(
            data, tmp_path / "run", programs=programs, overrides=RUN, actors=2, backend="ray", kit=KIT
        )
    assert killed and result.step == 12
    restarts = [r.getMessage() for r in caplog.records if "restarted" in r.getMessage()]
    assert len(restarts) == 1 and "Ray actor 0 died" in restarts[0] and "batch 5" in restarts[0]
    _same_run(RunDir(tmp_path / "run"), processes_run)


def test_exploration_as_ray_tasks_writes_what_one_process_writes(local_ray, tiny, tmp_path):  # noqa: F811
    data, _ = tiny
    one = run_exploration(data, "random-split-1-train", tmp_path / "one.jsonl", workers=1, quiet=True)
    sharded = run_exploration(
        data, "random-split-1-train", tmp_path / "ray.jsonl", workers=2, backend="ray", quiet=True
    )
    assert (tmp_path / "one.jsonl").read_text() == (tmp_path / "ray.jsonl").read_text()
    assert sharded["covered"] == one["covered"] > 0 and sharded["backend"] == "ray"


def test_evaluation_as_ray_tasks_predicts_what_one_process_predicts(local_ray, tiny, processes_run):  # noqa: F811
    data, _ = tiny
    dataset = load_dataset(data)
    runs = [processes_run.path]
    one = evaluate(runs, dataset, "train", beam=3, weights="last", kit=KIT, batch_size=2)
    sharded = evaluate(
        runs, dataset, "train", beam=3, weights="last", kit=KIT, batch_size=2, backend="ray", workers=2
    )
    assert sharded.prediction_records() == one.prediction_records() and one.n == 6


def _square_plus(shared: int, shard: int) -> int:
    return shard * shard + shared


def test_map_shards_gives_every_shard_once_whichever_backend(local_ray):
    for backend in ("inline", "ray"):
        got = sorted(map_shards(backend, _square_plus, 10, [1, 2, 3, 4, 5], workers=2))
        assert got == [(i, s * s + 10) for i, s in enumerate([1, 2, 3, 4, 5])]


def test_backend_choices_and_addresses_are_checked():
    assert choose_backend(None, 0) == "inline" and choose_backend(None, 3) == "processes"
    for backend, actors, message in (
        ("gpu", 2, "must be one of inline, processes, ray"),
        ("inline", 2, "drop --actors"),
        ("ray", 0, "give --actors N"),
    ):
        with pytest.raises(BackendError, match=message):
            choose_backend(backend, actors)
    check_address("auto", "ray")
    check_address("ray://head.example:10001", "ray")
    for address, backend in (("head:10001", "ray"), ("ray://head", "ray"), ("auto", "processes")):
        with pytest.raises(BackendError):
            check_address(address, backend)


def test_without_ray_installed_the_backend_says_what_to_install(tiny, tmp_path, monkeypatch, capsys):  # noqa: F811
    monkeypatch.setitem(sys.modules, "ray", None)  # what `import ray` sees where it is not installed
    data, programs = tiny
    argv = ["nsm", "train", str(data), "--out", str(tmp_path / "run"), "--backend", "ray", "--actors", "2"]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit) as exit_:
        main()
    err = capsys.readouterr().err.strip()
    assert exit_.value.code == 2 and "pip install 'nsmcli[ray]'" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "run").exists()


def test_explore_report_says_which_backend_ran(tiny, tmp_path):  # noqa: F811
    data, _ = tiny
    report = run_exploration(data, "random-split-1-dev", tmp_path / "dev.jsonl", workers=1, quiet=True)
    assert report["backend"] == "inline"
    assert json.loads((tmp_path / "dev.report.json").read_text())["backend"] == "inline"


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (
            ["explore", "--split", "train", "--out", "{tmp}/p.jsonl", "--address", "auto"],
            "needs --backend ray",
        ),
        (
            ["eval", "{tmp}/run", "--data", "{data}", "--backend", "ray", "--address", "head:1"],
            "ray://HOST:PORT",
        ),
        (["train", "{data}", "--out", "{tmp}/run", "--backend", "inline", "--actors", "2"], "drop --actors"),
    ],
)
def test_cli_refuses_bad_backend_options_in_one_line(tiny, tmp_path, monkeypatch, capsys, command, message):  # noqa: F811
    data, _ = tiny
    args = [a.format(tmp=tmp_path, data=data) for a in command]
    if args[0] == "explore":
        args.insert(1, str(data))
    if args[0] == "eval":
        train(data, tmp_path / "run", overrides={**RUN, "n_steps": 1}, kit=KIT)
    monkeypatch.setattr(sys, "argv", ["nsm", *args])
    with pytest.raises(SystemExit) as exit_:
        main()
    err = capsys.readouterr().err.strip()
    assert exit_.value.code == 2 and message in err and len(err.splitlines()) == 1, err


def test_every_backend_samples_the_same_for_the_same_requests_two_batches_in_flight(local_ray, tiny):  # noqa: F811
    """The backend contract: N actors return, per batch, what the actor returns inline on each of the N
    shards, also when a second batch is submitted before the first is collected (a worker may answer it
    first). (A shard's randomness derives from its own ids, so it differs from the unsharded batch's.)"""
    from nsmcli.train.actors import ActRequest
    from nsmcli.train.backends import WorkerSpec, merge_results, open_backend, split_request
    from nsmcli.train.questions import QuestionPool, build_model
    from nsmcli.worlds.tables.lang.spec import get_language
    from tests.test_train import StubConfig

    data, _ = tiny
    dataset, split = load_dataset(data), "random-split-1-train"
    limits = get_language(dataset.language).limits.to_json()
    spec = WorkerSpec(KIT, StubConfig().to_json(), {"words": []}, str(data), split, limits)
    model = build_model(KIT, spec.model_config, spec.vocab)
    pool = QuestionPool(dataset, dataset.examples(split), limits, model)
    ids = pool.order
    requests = {
        step: ActRequest(step, 0, ids, [[] for _ in ids], [{} for _ in ids], [3] * len(ids), 2, True, 8)
        for step in (1, 2)
    }
    inline = open_backend("inline", 0, spec, pool)
    expected = {}
    for step, request in requests.items():
        parts = []
        for k, part in enumerate(split_request(request, 2)):
            inline.submit(k, model.state_dict(), part)
            parts.append(inline.collect(k))
        expected[step] = merge_results(parts)
    assert expected[1].n_samples > 0 and expected[1] != expected[2]
    for name in ("processes", "ray"):
        sampler = open_backend(name, 2, spec, pool)
        try:
            for step, request in requests.items():
                sampler.submit(step, model.state_dict(), request)
            got = {step: sampler.collect(step) for step in requests}
        finally:
            sampler.close()
        assert got == expected, name
