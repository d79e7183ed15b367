"""Accuracy of a bundled model on the real-world question set (`examples/real`), per question type.

Each question goes through the Python API (`Parser.load(model)`, `.parse(question, table)`) and is scored
with the answer check of `nsm parse --questions` (`nsmcli.parser.answer_matches`). A table the reader
cannot load counts every one of its questions as wrong; such tables are listed separately as unreadable.

    python bench/real_world.py --model wtq      # writes bench/results/real-world-wtq.md
    python bench/real_world.py --model wtq --questions examples/real/questions-round2.tsv   # ...-wtq-round2.md
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

from common import ROOT, code_version, machine, write_result

from nsmcli.errors import DataError
from nsmcli.parser import CLOSE_MARGIN, Parser, answer_matches
from nsmcli.worlds.tables.data.readers import QuestionCase, load_table, read_question_file
from nsmcli.worlds.tables.data.table import Table

REAL = ROOT / "examples" / "real"


def question_types(path: Path) -> tuple[dict[int, str], list[str]]:
    """The `type` column of the question file by line number, and the declared types in their order."""
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    by_line = {number: line.split("\t")[3] for number, line in enumerate(lines[1:], start=2) if line.strip()}
    declared_file = path.parent / "question_types.tsv"
    declared = (
        [line.split("\t")[0] for line in declared_file.read_text(encoding="utf-8").splitlines()[1:]]
        if declared_file.is_file()
        else []
    )
    return by_line, declared + sorted(set(by_line.values()) - set(declared))


def any_candidate_right(model: Parser, case: QuestionCase, table: Table, beam: int) -> bool:
    """Whether some program the choice sees (the beam's, and the proposals of a reranker fitted with them)
    answers `case` right."""
    found = model.beam_search(case.question, table, beam)
    if (reranker := model.reranker_for(found.table)) is not None:
        reranker.propose(found.problem, found.env, found.totals, found.answers)
    return any(answer_matches(case.answer, model.answer_of(found, text), table) for text in found.totals)


def short(items: list) -> str:
    text = " | ".join(str(item) for item in items)
    return text if len(text) <= 60 else text[:57] + "..."


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", default="wtq", help="a bundled model name or a run directory")
    parser.add_argument("--questions", type=Path, default=REAL / "questions.tsv")
    parser.add_argument("--beam", type=int, default=5)
    parser.add_argument(
        "--candidates",
        action="store_true",
        help="also count the questions whose right answer is among the candidates the choice sees (the "
        "beam's programs and, for a reranker fitted with them, the world's proposals): a second decoding",
    )
    args = parser.parse_args()

    types_by_line, type_order = question_types(args.questions)
    cases = read_question_file(args.questions)
    start = time.perf_counter()
    model = Parser.load(args.model)
    tables, unreadable = {}, {}
    among = 0
    close = [0, 0, 0, 0]  # runner-up shown: questions, first right, runner-up right, only the runner-up right
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # type -> [right, asked]
    wrong = []
    for case in cases:
        kind = types_by_line[case.line]
        totals[kind][1] += 1
        if case.table not in tables and case.table not in unreadable:
            try:
                tables[case.table] = load_table(case.table)
            except DataError as exc:
                unreadable[case.table] = str(exc)
        if case.table in unreadable:
            continue
        result = model.parse(case.question, tables[case.table], beam=args.beam)
        if args.candidates:
            among += any_candidate_right(model, case, tables[case.table], args.beam)
        right_first = answer_matches(case.answer, result, tables[case.table])
        if result.close:  # `nsm parse --runner-up` shows the runner-up beside the answer
            close[0] += 1
            close[1] += right_first
            close[2] += answer_matches(case.answer, result.runner_up, tables[case.table])
            close[3] += not right_first and answer_matches(case.answer, result.runner_up, tables[case.table])
        if right_first:
            totals[kind][0] += 1
        else:
            got = "no program" if result.program is None else short(result.display)
            wrong.append((kind, case, got, result.program))
    elapsed = time.perf_counter() - start

    right = sum(r for r, _ in totals.values())
    asked = sum(n for _, n in totals.values())
    skipped = sum(1 for c in cases if c.table in unreadable)
    command = "python bench/real_world.py " + " ".join(sys.argv[1:])
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    lines = [
        f"## Real-world questions: `--model {args.model}`\n",
        f"- command: `{command}`",
        f"- date: {time.strftime('%Y-%m-%d %H:%M %Z')}",
        f"- code: {code_version()}",
        f"- machine: {machine()}; load average {load} (1, 5, 15 min)",
        f"- {asked} questions over {len({c.table for c in cases})} tables, beam {args.beam}, "
        f"{elapsed:.0f} s in all (model load included)\n",
        *(
            [f"- the right answer among the candidates the choice sees: {among} of {asked}\n"]
            if args.candidates
            else []
        ),
        f"- close choices (the chooser's margin below {CLOSE_MARGIN:g}, where `nsm parse --runner-up` shows "
        f"the runner-up): {close[0]} questions; there the first answer is right for {close[1]}, the runner-up "
        f"for {close[2]}; right answers shown with `--runner-up` (the first, or a close runner-up when the "
        f"first is wrong): {right + close[3]} of {asked}\n",
        "| type | questions | right | accuracy |",
        "|---|---:|---:|---:|",
    ]
    for kind in type_order:
        if kind in totals:
            r, n = totals[kind]
            lines.append(f"| {kind} | {n} | {r} | {100 * r / n:.0f}% |")
    lines.append(f"| **total** | **{asked}** | **{right}** | **{100 * right / asked:.1f}%** |")
    if unreadable:
        lines += [
            "",
            f"Unreadable tables ({skipped} questions, counted as wrong above; "
            f"on the readable tables: {right} of {asked - skipped}, "
            f"{100 * right / max(asked - skipped, 1):.1f}%):",
            "",
        ]
        lines += [f"- `{path.name}`: {message}" for path, message in unreadable.items()]
    lines += [
        "",
        "Wrong answers on readable tables:",
        "",
        "| type | table | question | expected | got | program |",
    ]
    lines.append("|---|---|---|---|---|---|")
    for kind, case, got, program in wrong:
        cells = [
            kind,
            case.table.name,
            case.question,
            short(case.answer),
            got,
            f"`{program}`" if program else "",
        ]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    text = "\n".join(lines) + "\n"
    print(text)
    name = Path(args.model).name if Path(args.model).is_dir() else args.model
    # another question file (`questions-round2.tsv`) writes beside the first rounds' result, not over it
    suffix = (
        "" if args.questions.name == "questions.tsv" else "-" + args.questions.stem.removeprefix("questions-")
    )
    print(f"written to {write_result(f'real-world-{name}{suffix}', text)}")


if __name__ == "__main__":
    main()
