"""Does refitting a model's reranker on a user's remembered answers help on that user's own tables?

It simulates a user who asks questions about their tables, confirms the answers (`nsm parse --remember`),
refits (`nsm rerank MODEL --questions FILE`, which adjusts the model's reranker) and then asks new questions
about the same tables. Each table's questions are split in two halves by their order in the files (first,
third, ... and second, fourth, ...). A copy of the model is adjusted on one half of every table and answers
the other half; then the other way round. The model as it is answers the same questions, and the two are
compared question by question (wins: only the refitted copy is right; losses: only the model as it is).

Give question files the model's reranker and matcher never saw (fit questions, never a test set).

    python bench/remembered_refit.py --model wtq --work data/remembered \
        examples/fit/questions-round4.tsv examples/fit/questions-round5.tsv examples/fit/questions-round6.tsv
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from common import code_version, machine, write_result
from user_folds import read_questions, write_questions

from nsmcli.parser import Parser, find_model


def halves(paths: list[Path]) -> tuple[list[str], list[list[list[str]]]]:
    """The questions of `paths`, each table's split in two halves by their order (table paths absolute)."""
    header, parts = None, [[], []]
    seen: dict[str, int] = defaultdict(int)
    for path in paths:
        file_header, rows = read_questions(path)
        header = header or file_header[:3]
        for row in rows:
            if len(row) < 3 or not row[2]:
                continue  # a question without an answer cannot be remembered
            parts[seen[row[0]] % 2].append(row[:3])
            seen[row[0]] += 1
    return header, parts


def outcomes(model: Path | str, questions: Path) -> dict[tuple[str, str], bool]:
    """(table, question) -> whether `model` answers it right, as `nsm parse --questions` checks."""
    parser = Parser.load(model)
    return {
        (str(a.case.table.resolve()), a.case.question): bool(a.correct) for a in parser.parse_file(questions)
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("questions", type=Path, nargs="+")
    ap.add_argument("--model", default="wtq", help="a bundled model name or a model directory")
    ap.add_argument("--work", type=Path, required=True, help="a folder for the halves and the model copies")
    ap.add_argument("--workers", type=int, default=2, help="decoding processes of nsm rerank")
    ap.add_argument("--label", default="", help="a suffix of the result file's name, for a variant")
    args = ap.parse_args()

    start = time.time()
    source = find_model(args.model)
    if source is None:
        raise SystemExit(f"no model {args.model}")
    header, parts = halves(args.questions)
    nsm = str(Path(sys.executable).with_name("nsm"))
    wins = losses = both = neither = 0
    per_half = []
    for k in (0, 1):
        fit, test = args.work / f"half{k}.tsv", args.work / f"half{1 - k}.tsv"
        write_questions(fit, header, parts[k])
        write_questions(test, header, parts[1 - k])
        copy = args.work / f"model-fit-half{k}"
        if copy.exists():
            shutil.rmtree(copy)
        shutil.copytree(source, copy)
        refit = subprocess.run(
            [
                nsm,
                "rerank",
                str(copy),
                "--questions",
                str(fit),
                "--workers",
                str(args.workers),
                "--json",
                "-q",
            ],
            capture_output=True,
            text=True,
        )
        if refit.returncode != 0:
            raise SystemExit(f"nsm rerank failed: {refit.stderr.strip()}")
        shipped, refitted = outcomes(source, test), outcomes(copy, test)
        w = sum(refitted[q] and not shipped[q] for q in shipped)
        lost = sum(shipped[q] and not refitted[q] for q in shipped)
        wins, losses = wins + w, losses + lost
        both += sum(shipped[q] and refitted[q] for q in shipped)
        neither += sum(not shipped[q] and not refitted[q] for q in shipped)
        per_half.append(
            (k, len(parts[k]), len(shipped), sum(shipped.values()), sum(refitted.values()), w, lost)
        )
        print(f"fitted on half {k}: {per_half[-1]}; nsm rerank said {refit.stdout.strip()[:400]}", flush=True)
    bar = 2 * math.sqrt(wins + losses)
    verdict = "helps" if wins - losses >= bar else "hurts" if losses - wins >= bar else "no measurable change"
    asked = sum(row[2] for row in per_half)
    lines = [
        f"## Refitting on remembered answers: `--model {args.model}`\n",
        f"- command: `python bench/remembered_refit.py {' '.join(sys.argv[1:])}`",
        f"- date: {time.strftime('%Y-%m-%d %H:%M %Z')}",
        f"- code: {code_version()}",
        f"- machine: {machine()}; load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}",
        f"- {time.time() - start:.0f} s in all\n",
        "| fitted on | its questions | answered | right as shipped | right refitted | wins | losses |",
        "|---|---:|---:|---:|---:|---:|---:|",
        *(f"| half {k} | {n} | {m} | {s} | {r} | {w} | {lo} |" for k, n, m, s, r, w, lo in per_half),
        "",
        f"- over both: {asked} questions; right as shipped {both + losses}, refitted {both + wins}; wins "
        f"{wins}, losses {losses} (both right {both}, neither {neither})",
        f"- verdict (wins - losses against 2 sqrt(wins + losses) = {bar:.1f}): **{verdict}**",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    name = f"remembered-refit-{Path(args.model).name}" + (f"-{args.label}" if args.label else "")
    print(f"written to {write_result(name, text)}")


if __name__ == "__main__":
    main()
