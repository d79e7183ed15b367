"""Training throughput (questions per second) of `nsm train` on WTQ, one process against actor processes.

Each configuration trains a fresh MAPO run (published WTQ settings, GloVe when installed, seed 0) for a
fixed number of steps with `OMP_NUM_THREADS=1` and no dev evaluation, and reports the trainer's own
questions-per-second over the steps after the first logging window (set-up and warm-up excluded), with
the ratio to the first configuration. Run it on an otherwise idle machine.

    python bench/train_throughput.py --data data/wtq --programs data/wtq-programs.jsonl --steps 120
    python bench/train_throughput.py --data data/wtq --programs data/wtq-programs.jsonl --actors 0 \
        --attention additive,dot
    python bench/train_throughput.py --data data/wtq --programs data/wtq-programs.jsonl --actors 0 \
        --encoder lstm,minilm
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, header, write_result


def measure(
    data: Path,
    programs: Path,
    steps: int,
    actors: int,
    attention: str = "additive",
    encoder: str = "lstm",
    backend: str | None = None,
) -> tuple[float, float]:
    """(questions/s after the first window, wall seconds of the whole command); `backend`: --backend."""
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        command = [
            sys.executable, "-m", "nsmcli", "train", str(data), "--programs", str(programs),
            "--out", str(run), "--steps", str(steps), "--actors", str(actors), "--quiet",
            "--set", "eval_every=0", "--set", "eval_max_questions=1", "--set", "log_every=20",
            "--set", f"model.attention={attention}", "--set", f"model.encoder={encoder}",
        ]  # fmt: skip
        if backend is not None:
            command += ["--backend", backend]
        env = {**os.environ, "OMP_NUM_THREADS": "1"}
        start = time.perf_counter()
        proc = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - start
        if proc.returncode != 0:
            sys.exit(f"error: {' '.join(command)} failed: {proc.stderr.strip()[-500:]}")
        lines = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines() if x]
    later = [m for m in lines[1:] if m.get("questions_per_second")]
    questions = sum(m["questions"] for m in later)
    seconds = sum(m["questions"] / m["questions_per_second"] for m in later)
    return questions / seconds, wall


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, required=True, help="preprocessed WTQ (nsm preprocess wtq)")
    parser.add_argument("--programs", type=Path, required=True, help="nsm explore output for the train split")
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--actors", default="0,1,2", help="actor process counts to compare")
    parser.add_argument(
        "--attention", default="additive", help="decoder attentions to compare (additive,dot)"
    )
    parser.add_argument("--encoder", default="lstm", help="question encoders to compare (lstm,minilm)")
    args = parser.parse_args()
    attentions, encoders = args.attention.split(","), args.encoder.split(",")
    rows, base = [], None
    for encoder in encoders:
        for attention in attentions:
            for n in (int(x) for x in args.actors.split(",")):
                qps, wall = measure(
                    args.data.resolve(), args.programs.resolve(), args.steps, n, attention, encoder
                )
                base = base or qps
                rows.append(
                    f"| {n} | {encoder} | {attention} | {qps:.1f} | {qps / base:.2f}x | {wall:.0f} s |"
                )
                print(rows[-1], flush=True)
    command = "python bench/" + " ".join([Path(__file__).name, *sys.argv[1:]])
    text = header("Training throughput (WTQ, MAPO)", command)
    text += (
        f"{args.steps} steps of 25 questions from a fresh run, OMP_NUM_THREADS=1, no dev evaluation; "
        "questions/s from the trainer's log after its first 20-step window.\n\n"
        "| actor processes | encoder | attention | questions/s | vs first row | whole command |\n"
        "|---:|---|---|---:|---:|---:|\n" + "\n".join(rows) + "\n"
    )
    name = "train-throughput" if attentions == ["additive"] else "train-throughput-attention"
    if encoders != ["lstm"]:
        name += "-encoder"
    print(f"wrote {write_result(name, text)}")


if __name__ == "__main__":
    main()
