"""Where the bundled model's reranker chooses wrong though a right program is among its candidates: the
chosen program against the best-scored right one, sorted into kinds by their structure.

For question files the reranker was not fitted on (the real-world rounds; `examples/fit`'s rounds other
than those in `matcher.json`'s `fitted.questions` and those the reranker of users' tables names in its
record: for the shipped one, every round of `examples/fit` so far). Kinds, first that applies:

- shows another column: the same functions and columns but the last `hop`'s;
- drops / adds a condition: the right program has more / fewer filters;
- compares the other way: one takes `argmax` where the other takes `argmin`;
- `<chosen> for <right>`: another last step among count, sum, average, hop and diff;
- same functions, other columns or values: what is compared or kept is another column or value;
- other structure.

    python bench/chooser_misses.py examples/real/questions-round2.tsv examples/real/questions-round3.tsv
"""

from __future__ import annotations

import argparse
import collections
import sys

from common import header, write_result

from nsmcli.parser import Parser, answer_matches
from nsmcli.worlds.tables.data.readers import load_table, read_question_file
from nsmcli.worlds.tables.lang import program as P

_LAST_STEPS = {"count", "sum", "average", "hop", "diff"}


def kind_of(chosen: P.Program, right: P.Program) -> str:
    """The kind of miss that taking `chosen` for `right` is (the module docstring's list)."""
    chosen_functions = [e.function for e in chosen.exprs]
    right_functions = [e.function for e in right.exprs]

    def filters(functions: list[str]) -> int:
        return sum(f.startswith("filter") for f in functions)

    def columns(program: P.Program) -> list[str]:
        return [str(a) for e in program.exprs for a in e.args if isinstance(a, P.Column)]

    if (
        chosen_functions == right_functions
        and chosen_functions[-1] == "hop"
        and columns(chosen)[:-1] == columns(right)[:-1]
    ):
        return "shows another column"
    if filters(right_functions) != filters(chosen_functions):
        return (
            "drops a condition"
            if filters(right_functions) > filters(chosen_functions)
            else "adds a condition"
        )
    if {"argmax", "argmin"} <= {*chosen_functions, *right_functions} and len(chosen_functions) == len(
        right_functions
    ):
        return "compares the other way"
    if (
        chosen_functions[-1] != right_functions[-1]
        and {chosen_functions[-1], right_functions[-1]} <= _LAST_STEPS
    ):
        return f"{chosen_functions[-1]} for {right_functions[-1]}"
    if chosen_functions == right_functions:
        return "same functions, other columns or values"
    return "other structure"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("questions", nargs="+", help="question files the reranker was not fitted on")
    ap.add_argument("--model", default="wtq")
    args = ap.parse_args()
    parser = Parser.load(args.model)
    reranker = parser.user_reranker or parser.reranker  # its questions are over users' tables
    if reranker is None:
        raise SystemExit(f"{args.model}: no reranker")
    kinds: collections.Counter[str] = collections.Counter()
    asked = among = 0
    for path in args.questions:
        tables: dict = {}
        for case in read_question_file(path):
            if case.table not in tables:
                tables[case.table] = load_table(case.table)
            table = tables[case.table]
            asked += 1
            found = parser.beam_search(case.question, table, 5)
            totals, answers = dict(found.totals), dict(found.answers)
            proposed = reranker.propose(found.problem, found.env, totals, answers)
            texts = list(totals)
            scores = reranker.candidate_scores(found.problem, found.env, totals, answers, proposed)
            order = sorted(range(len(texts)), key=lambda i: -scores[i])
            right = [
                i for i in order if answer_matches(case.answer, parser.answer_of(found, texts[i]), table)
            ]
            among += bool(right)
            if right and right[0] != order[0]:
                kinds[kind_of(P.Program.parse(texts[order[0]]), P.Program.parse(texts[right[0]]))] += 1
    misses = sum(kinds.values())
    lines = [
        header("Chooser misses by kind", "python bench/chooser_misses.py " + " ".join(sys.argv[1:])),
        f"- {asked} questions; the right answer among the candidates for {among}; chosen wrong among those: "
        f"{misses}\n",
        "| kind | misses | share |",
        "|---|---:|---:|",
        *(f"| {k} | {n} | {100 * n / misses:.0f}% |" for k, n in kinds.most_common()),
    ]
    print("\n".join(lines))
    print(f"\nwritten to {write_result('chooser-misses', chr(10).join(lines) + chr(10))}")


if __name__ == "__main__":
    main()
