"""Either-or questions: programs that choose between the two cells a question names ("A or B").

"which is deeper, lake tuz or lake palas tuzla?" has one entity of both names (annotate's either-or pairs).
A program that filters on one of the names and answers that same name,
`(filter_str_contain_any all_rows "lake tuz" r.lake-string) (hop v0 r.lake-string)`, is right half of the
time whatever the table says: it echoes one side of the choice. The program that keeps both rows, ranks
them and answers the first, `(filter_str_contain_any all_rows ["lake tuz" "lake palas tuzla"]
r.lake-string) (argmax v0 r.depth-number) (hop v1 r.lake-string)`, is right for a reason.

Exploration searches bottom-up by denotation and keeps the shortest derivation of each row set, so the echo
(one filter) hides the comparison (three expressions that select the same row): `choice_programs` writes
the comparisons out, and an echo earns no reward on a question that offers a choice (`echoes_a_choice`),
in exploration and in training alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from nsmcli.worlds.tables.lang import program as P
from nsmcli.worlds.tables.lang.interpreter import Environment

#: The superlatives a choice is made with ("more", "longer", "earlier": argmax or argmin of a column).
CHOOSING_FUNCTIONS = ("argmax", "argmin")


def choice_pairs(env: Environment) -> list[P.Literal]:
    """The question's either-or entities: string literals of two values or more."""
    return [
        a for a in env.constant_args if isinstance(a, P.Literal) and a.kind == "string" and len(a.values) > 1
    ]


def echoes_a_choice(env: Environment, program: P.Program, answer: Sequence) -> bool:
    """Whether `program`, answering `answer`, names one side of a choice the question offers without
    making it: it filters on one value of an either-or entity (not on the pair) and answers that value.
    A filter on a side that keeps every row of the other side ("kenya" in "kenya rep or kenya" keeps the
    "Kenya Rep" row too) lets what follows compare them: that is no echo."""
    pairs = choice_pairs(env)
    if not pairs or len(answer) != 1:
        return False
    if program.literals().intersection(pairs):
        return False
    echoed = {side for expr in program.exprs for side in _sides_filtered_alone(env, expr, pairs)}
    return str(answer[0]) in echoed


def _sides_filtered_alone(env: Environment, expr: P.Expr, pairs: Sequence[P.Literal]) -> list[str]:
    """The sides of a choice that `expr` filters on by themselves: a one-value literal of a side whose
    filter does not keep every row of another side ("kenya" keeps the "Kenya Rep" row; "kenya rep" does
    not keep the "Kenya" row)."""
    columns = [a for a in expr.args if isinstance(a, P.Column)]
    prop = env.column(columns[0]) if len(columns) == 1 else None
    alone = []
    for arg in expr.args:
        if not (isinstance(arg, P.Literal) and arg.kind == "string" and len(arg.values) == 1):
            continue
        side = arg.values[0]
        others = [v for pair in pairs if side in pair.values for v in pair.values if v != side]
        if not others:
            continue
        if prop is not None and prop.type == "string_property":
            kept = prop.containing(side)
            if any((rows := prop.containing(other)) and rows & kept == rows for other in others):
                continue
        alone.append(side)
    return alone


def choice_programs(env: Environment) -> list[str]:
    """Every "keep both, rank them, answer the first" program of the question's either-or entities: for
    each pair, each text column that holds its values, each ordered column and each superlative."""
    columns = env.typed_columns()
    texts = [a for a, type_ in columns if type_ == "string_property"]
    ordered = [a for a, type_ in columns if type_ in ("num_property", "date_property")]
    return [
        f"(filter_str_contain_any all_rows {pair} {text}) ({choose} v0 {rank}) (hop v1 {text})"
        for pair in choice_pairs(env)
        for text in texts
        for rank in ordered
        for choose in CHOOSING_FUNCTIONS
    ]


__all__ = ["CHOOSING_FUNCTIONS", "choice_pairs", "choice_programs", "echoes_a_choice"]
