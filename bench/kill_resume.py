"""kill -9 at random moments (issue 20): `nsm train` and `nsm explore` killed with SIGKILL at seeded random
times, resumed (and perhaps killed again) until they finish, and compared with an undisturbed run.

Train runs on the preprocessed examples/own-data with a tiny model; a resumed run must end with the same
metrics (timing fields aside), the same last and best weights and the same program buffer. A run killed
before it wrote config.json is started again with its first command, any other with `--resume`. Explore runs
on the own-data questions repeated; its output file must be byte-identical. After each kill no process the
killed command started may outlive it. Counted: kills, resumes, mismatches, lost runs (a command that then
failed, or a resumed run that never finished), orphaned processes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, code_version, write_result

sys.path.insert(0, str(ROOT))

from nsmcli.train.rundir import RunDir, load_tensors  # noqa: E402

OWN = ROOT / "examples" / "own-data"
ENV = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
NSM = [sys.executable, "-m", "nsmcli"]
TRAIN_SETTINGS = {
    "n_steps": 40,
    "questions_per_step": 4,
    "checkpoint_every": 3,
    "eval_every": 10,
    "eval_beam": 2,
    "log_every": 2,
    "model.hidden_size": 16,
    "model.embedding_size": 8,
    "model.n_layers": 1,
    "model.use_glove": "false",
}
#: Metrics fields that measure time, which a resumed run cannot repeat.
TIMING = ("questions_per_second", "wall_seconds", "cpu_seconds")
#: Kills of one run at most before it is left to finish.
MAX_KILLS_PER_RUN = 3


def _children(pid: int) -> set[int]:
    """Every descendant of `pid` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat[stat.rindex(")") + 2 :].split()[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return state[state.rindex(")") + 2] != "Z"


def prepare(work: Path) -> tuple[Path, Path, Path]:
    """(own-data preprocessed, its programs, a larger preprocessed set for exploration)."""
    pre, programs = work / "own", work / "own-programs.jsonl"
    subprocess.run(
        [*NSM, "preprocess", "tables", "--data-dir", str(OWN), "--out", str(pre), "-q"], env=ENV, check=True
    )
    subprocess.run(
        [*NSM, "explore", str(pre), "--split", "train", "--out", str(programs), "-q"], env=ENV, check=True
    )
    questions = work / "questions"
    questions.mkdir()
    header, *lines = (OWN / "train.tsv").read_text(encoding="utf-8").splitlines()
    tables = str((OWN / "../tables").resolve())
    lines = [line.replace("../tables", tables) for line in lines]
    (questions / "train.tsv").write_text("\n".join([header, *lines * 8]) + "\n", encoding="utf-8")
    many = work / "many"
    subprocess.run(
        [*NSM, "preprocess", "tables", "--data-dir", str(questions), "--out", str(many), "-q"],
        env=ENV,
        check=True,
    )
    return pre, programs, many


def train_commands(pre: Path, programs: Path, out: Path) -> tuple[list[str], list[str]]:
    sets = [x for k, v in TRAIN_SETTINGS.items() for x in ("--set", f"{k}={v}")]
    base = [*NSM, "train", str(pre), "--programs", str(programs), "--out", str(out)]
    return [*base, "--seed", "3", "--quiet", *sets], [*base, "--resume", "--quiet"]


def explore_command(many: Path, out: Path) -> list[str]:
    return [*NSM, "explore", str(many), "--split", "train", "--out", str(out), "--workers", "2", "--quiet"]


def train_fingerprint(run: Path) -> str:
    rundir = RunDir(run)
    digest = hashlib.sha256()
    metrics = [{k: v for k, v in m.items() if k not in TIMING} for m in rundir.read_metrics()]
    digest.update(json.dumps(metrics, sort_keys=True).encode())
    for weights in (rundir.checkpoint_dir / "model.pt", rundir.best_dir / "model.pt"):
        state = load_tensors(weights)
        for name in sorted(state):
            digest.update(name.encode() + state[name].numpy().tobytes())
    digest.update((rundir.checkpoint_dir / "buffer.jsonl").read_bytes())
    return digest.hexdigest()


def explore_fingerprint(out: Path) -> str:
    return hashlib.sha256(out.read_bytes()).hexdigest()


class Tally:
    def __init__(self) -> None:
        self.runs = self.kills = self.resumes = self.restarts = self.mismatches = self.lost = 0
        self.orphans = self.missed = 0
        self.notes: list[str] = []


def disturbed_run(
    first, resume_for, out: Path, rng: random.Random, horizon: float, started, tally: Tally
) -> bool:
    """Run `first`, killing it (and each resume) at random moments, up to MAX_KILLS_PER_RUN times; True when
    the run finished with exit 0. Half the moments fall anywhere within `horizon` seconds of the start
    (start-up included), half within `horizon / 2` seconds of the moment `started(out)` holds (the work
    under way), so that not every kill lands in Python's and torch's start-up."""
    command, kills = first, 0
    while True:
        proc = subprocess.Popen(command, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        delay = rng.uniform(0.0, horizon) if kills < MAX_KILLS_PER_RUN else None
        seen: set[int] = set()
        if delay is not None and rng.random() < 0.5:
            while proc.poll() is None and not started(out):
                seen |= _children(proc.pid)
                time.sleep(0.01)
            delay /= 2
        deadline = time.monotonic() + (delay if delay is not None else 1e9)
        while proc.poll() is None and time.monotonic() < deadline:
            seen |= _children(proc.pid)
            time.sleep(0.02)
        if proc.poll() is None:
            seen |= _children(proc.pid)
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            proc.stderr.close()
            kills += 1
            tally.kills += 1
            give_up = time.monotonic() + 30  # a hang guard: a process that outlives it is an orphan
            while any(_alive(pid) for pid in seen) and time.monotonic() < give_up:
                time.sleep(0.05)
            left = [pid for pid in seen if _alive(pid)]
            if left:
                tally.orphans += len(left)
                for pid in left:
                    os.kill(pid, signal.SIGKILL)
            command, resumed = resume_for(out)
            if resumed:
                tally.resumes += 1
            else:
                tally.restarts += 1
            continue
        stderr = proc.stderr.read().decode("utf-8", "replace")
        proc.stderr.close()
        if delay is not None:
            tally.missed += 1  # it finished before its kill moment
        if proc.returncode != 0:
            tally.lost += 1
            tally.notes.append(f"exit {proc.returncode} after {kills} kills: {stderr.strip()[-300:]}")
            return False
        return True


def campaign(
    name, reference, make_run, fingerprint, kills_wanted, rng, horizon, started, tally: Tally
) -> None:
    while tally.kills < kills_wanted:
        tally.runs += 1
        out, first, resume_for = make_run(tally.runs)
        if disturbed_run(first, resume_for, out, rng, horizon, started, tally):
            got = fingerprint(out)
            if got != reference:
                tally.mismatches += 1
                tally.notes.append(f"{name} run {tally.runs}: differs from the undisturbed run")
        print(f"{name}: run {tally.runs}, {tally.kills} kills so far", file=sys.stderr, flush=True)


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=ENV, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20, help="kills of each command at least")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--targets", default="train,explore")
    parser.add_argument("--work", type=Path, help="scratch directory (default: a temporary one, removed)")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="nsm-kill-"))
    work.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    pre, programs, many = prepare(work)
    rng = random.Random(args.seed)
    rows = []
    if "train" in args.targets.split(","):
        ref_first, _ = train_commands(pre, programs, work / "train-ref")
        seconds = timed(ref_first)
        reference = train_fingerprint(work / "train-ref")

        def make_train(i: int):
            out = work / f"train-{i}"
            first, resume = train_commands(pre, programs, out)
            # a run killed before it wrote its config starts again with its own command
            return out, first, lambda o: (resume, True) if (o / "config.json").is_file() else (first, False)

        tally = Tally()

        def training(out: Path) -> bool:  # past start-up: the first metrics are written
            return (out / "metrics.jsonl").is_file()

        campaign(
            "train", reference, make_train, train_fingerprint, args.kills, rng, seconds * 1.1, training, tally
        )
        rows.append(("`nsm train`", seconds, tally))
    if "explore" in args.targets.split(","):
        seconds = timed(explore_command(many, work / "explore-ref.jsonl"))
        reference = explore_fingerprint(work / "explore-ref.jsonl")

        def make_explore(i: int):
            out = work / f"explore-{i}.jsonl"
            command = explore_command(many, out)
            return out, command, lambda o: (command, True)  # the same command continues a killed run

        tally = Tally()

        def exploring(out: Path) -> bool:  # past start-up: the first questions are written
            return out.with_name(out.name + ".partial").is_file()

        campaign(
            "explore",
            reference,
            make_explore,
            explore_fingerprint,
            args.kills,
            rng,
            seconds * 1.1,
            exploring,
            tally,
        )
        rows.append(("`nsm explore --workers 2`", seconds, tally))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    lines = [
        "## kill -9 at random moments: every resumed run equals the undisturbed one\n",
        f"- command: `python bench/kill_resume.py {' '.join(sys.argv[1:])}`".replace("  ", " "),
        f"- date: {time.strftime('%Y-%m-%d %H:%M %Z')}",
        f"- code: {code_version()}",
        f"- load average at the end (1, 5, 15 min): {load}",
        f"- wall time: {time.perf_counter() - began:.0f} s\n",
        "| command | undisturbed run (s) | runs | kills | resumes | restarts | finished before the kill "
        "| lost runs | mismatches | orphaned processes |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, seconds, t in rows:
        lines.append(
            f"| {name} | {seconds:.1f} | {t.runs} | {t.kills} | {t.resumes} | {t.restarts} | {t.missed} "
            f"| {t.lost} | {t.mismatches} | {t.orphans} |"
        )
    notes = [f"- {note}" for _, _, t in rows for note in t.notes[:5]]
    if notes:
        lines += ["", *notes]
    markdown = "\n".join(lines) + "\n"
    print(markdown)
    write_result("kill-resume", markdown)
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
