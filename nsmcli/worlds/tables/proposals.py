"""Programs the table world builds beside the beam's (`World.propose`), for the kinds of question where the
beam reads the question's things right but gets the rest wrong, which a reranker fitted with them weighs
(`nsmcli.train.rerank.add_proposals`). Each comes with its kind, a feature of its own:

- `pick_of_two`: a question naming two things with "or" ("which was bigger, A or B?");
- `sign`: a question that a value fell or rose ("how many stocks closed down?", "which city is shrinking?")
  over a column of both signs: keep the rows below or above 0, or pick the least or largest change;
- `range`: a question of a span between two dates or numbers ("how many tickets between April 10 and
  April 20?"): keep the rows from one to the other;
- `mirror`: each beam program that compares, compared the other way (`argmax` for `argmin`,
  `filter_greater` for `filter_less`): "the lightest", "the fastest lap" and "the biggest drop" are
  often read the wrong way round;
- `strict`: each beam program that keeps rows by a bound, with the bound kept or left out the other way
  (`filter_greater` for `filter_ge`): "more than 20" is not "20 or more";
- `reshown`: each beam program that ends showing a column, showing another of the table's first columns
  instead: the beam often keeps the right rows and shows their category rather than their name.

On a user's table only (`USER_KINDS`), where the models trained on WTQ read people's questions less well:

- `narrowed`: each beam program that leaves out a thing the question names, run on the rows that hold it:
  "how many *home* games had more than 17,000 fans?" is often read as the games over 17,000;
- `summed`: a question asking for a total ("total downloads of the May episodes") where the beam counts
  or shows the rows: each such beam program summing a number column of its rows instead;
- `listed`: a question asking for a total or an average over a list of named things ("the combined GDP of
  France, Germany and the United Kingdom"): the rows of them all, summed, averaged or counted;
- `narrowed_long`: `narrowed` for the beam programs as long as the model writes, which come out one
  expression longer ("when did we get our first win on the road?");
- `paired`: a question of how much more one thing has than another where each is a row of two named things,
  one shared ("how much more did Isartor earn than Altmarkt in January 2024?"): the difference of the two rows,
  a program one expression longer than the model writes;
- `totals`: a question comparing totals of groups of rows, each group the rows of one thing ("which client did
  I bill more hours to, A or B?", "how many more minutes went to A than to B?", "which category sold the most
  in total?"), written with the language's proposal functions, which the model never writes;
- `two_columns`: a question comparing two columns of each row ("which ticket took longest from opened to
  closed?", "how many items are below their reorder level?"), written with the proposal functions
  `difference` and `filter_exceeding`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import combinations, product
from typing import Any, NamedTuple

from nsmcli.errors import GrammarError
from nsmcli.worlds.tables.data import lexicon
from nsmcli.worlds.tables.data.annotate import filled_cells, is_list, is_signed, repeats
from nsmcli.worlds.tables.data.values import Date, contains_words
from nsmcli.worlds.tables.lang import program as P
from nsmcli.worlds.tables.lang.functions import key, user_matching

#: Each comparing function and the one that compares the other way.
MIRRORED = {
    "argmax": "argmin",
    "argmin": "argmax",
    "maximum": "minimum",
    "minimum": "maximum",
    "filter_greater": "filter_less",
    "filter_less": "filter_greater",
    "filter_ge": "filter_le",
    "filter_le": "filter_ge",
    "top_total": "bottom_total",
    "bottom_total": "top_total",
}
#: Each bound filter and the one that keeps or leaves out the bound the other way.
STRICTNESS = {
    "filter_ge": "filter_greater",
    "filter_greater": "filter_ge",
    "filter_le": "filter_less",
    "filter_less": "filter_le",
}
#: At most this many columns are shown by a sign, range or reshown proposal (`_shown`).
SHOWN_COLUMNS = 4


def propose_programs(problem: Any, env: Any, beam: Sequence[str]) -> list[tuple[str, str]]:
    """(program text, kind) of every proposal for `problem` over the table `env` is bound to, given the
    beam's program texts; the caller drops those the beam holds or that fail. The kinds of `USER_KINDS`
    only on a user's table (`user_matching`)."""
    proposals = (
        [(text, "pick_of_two") for text in pick_of_two_programs(problem, env)]
        + [(text, "sign") for text in sign_programs(problem, env)]
        + [(text, "range") for text in range_programs(problem, env)]
        + [(text, "mirror") for text in mirrored_programs(beam)]
        + [(text, "strict") for text in strictness_programs(beam)]
        + [(text, "reshown") for text in reshown_programs(env, beam)]
    )
    if user_matching(env.table):
        proposals += [
            (text, kind) for kind, programs in USER_KINDS.items() for text in programs(problem, env, beam)
        ]
    return proposals


def _programs(beam: Sequence[str]) -> list[P.Program]:
    """The beam's programs that read as programs (edited as programs, so that a string literal that looks
    like a call is left alone)."""
    out = []
    for text in beam:
        try:
            out.append(P.Program.parse(text))
        except (GrammarError, ValueError):
            continue
    return out


def _each_turned(beam: Sequence[str], turn: dict[str, str]) -> list[str]:
    """Each beam program with every function of `turn` replaced by its counterpart, where it has one."""
    out = []
    for program in _programs(beam):
        if not any(e.function in turn for e in program.exprs):
            continue
        exprs = tuple(P.Expr(turn.get(e.function, e.function), e.args) for e in program.exprs)
        turned = str(P.Program(exprs))
        if turned not in out:
            out.append(turned)
    return out


def mirrored_programs(beam: Sequence[str]) -> list[str]:
    """Each beam program that compares, with every comparison turned the other way (`MIRRORED`)."""
    return _each_turned(beam, MIRRORED)


def strictness_programs(beam: Sequence[str]) -> list[str]:
    """Each beam program that keeps rows by a bound, keeping or leaving out every bound the other way
    (`STRICTNESS`)."""
    return _each_turned(beam, STRICTNESS)


def reshown_programs(env: Any, beam: Sequence[str]) -> list[str]:
    """Each beam program ending in `hop`, showing each other column of `_shown` instead."""
    out = []
    for program in _programs(beam):
        last = program.exprs[-1]
        if last.function != "hop" or not isinstance(last.args[-1], P.Column):
            continue
        for column in _shown(env):
            if column.slug != last.args[-1].slug:
                shown = P.Expr("hop", (*last.args[:-1], column))
                other = str(P.Program((*program.exprs[:-1], shown)))
                if other not in out:
                    out.append(other)
    return out


def _conditions(problem: Any, env: Any) -> list[tuple[tuple[int, int], P.Expr]]:
    """Each thing the question names that can keep rows, as (its token span, a filter of all rows): a text
    a text column holds (`_holding`), and a date over each date column. Not one side of an either-or ("which
    won more, germany or canada?" asks of both)."""
    entities = problem.question.entities
    pairs = [(e.start, e.end) for e in entities if len(e.values) > 1]
    out = []
    for entity in entities:
        if len(entity.values) != 1 or entity.values[0] == "" or _overlaps((entity.start, entity.end), pairs):
            continue  # a pair's side, or the empty text of a blank cell (`annotate`), which `_holding` misplaces
        literal = P.Literal(entity.kind, tuple(entity.values))
        if entity.kind == "string":
            holding = _holding(env, str(entity.values[0]))
            columns = [holding.property_name("string")] if holding is not None else []
            keep = "filter_str_contain_any"
        elif entity.kind == "date":
            columns = [c.property_name("date") for c in env.table.columns if "date" in c.views]
            keep = "filter_eq"
        else:  # a number keeps rows only with a direction the question's words would have to give
            continue
        out += [
            ((entity.start, entity.end), P.Expr(keep, (P.ALL_ROWS, literal, P.Column(c)))) for c in columns
        ]
    return out


def _overlaps(span: tuple[int, int], spans: Sequence[tuple[int, int]]) -> bool:
    return any(span[0] < end and start < span[1] for start, end in spans)


def _after_one(arg: P.Arg) -> P.Arg:
    """An argument of a program moved behind a first expression: all rows become that expression's rows,
    and each reference moves one on."""
    if isinstance(arg, P.AllRows):
        return P.Ref(0)
    return P.Ref(arg.index + 1) if isinstance(arg, P.Ref) else arg


def narrowed_programs(problem: Any, env: Any, beam: Sequence[str]) -> list[str]:
    """Each beam program, and each turned the other way (`mirrored_programs`), run on the rows of a thing the
    question names that it leaves out (`_conditions`; a thing is used when the program has a literal of its
    values, and what shares its words, such as "april" read both as text and as a date, is then used too),
    within `Limits.max_expressions`: "who had the fastest time in the 80m sprint?" is the beam's slowest time
    overall, turned and narrowed."""
    edited = [*beam, *mirrored_programs(beam)]
    return _narrowed(problem, env, edited, lambda length: length < env.limits.max_expressions)


def narrowed_long_programs(problem: Any, env: Any, beam: Sequence[str]) -> list[str]:
    """`narrowed_programs` of the beam programs as long as the model writes, which come out one expression
    longer ("when did we get our first win on the road?": the wins, the away games among them, the earliest,
    its date); a kind apart, since the chooser weighs them apart."""
    return _narrowed(problem, env, beam, lambda length: length == env.limits.max_expressions)


def _narrowed(problem: Any, env: Any, beam: Sequence[str], narrows: Callable[[int], bool]) -> list[str]:
    """`narrowed_programs` of the beam programs whose number of expressions `narrows` accepts."""
    conditions = _conditions(problem, env)
    entities = problem.question.entities
    out = []
    for program in _programs(beam) if conditions else ():
        if not narrows(len(program.exprs)):
            continue
        literals = {(a.kind, a.values) for e in program.exprs for a in e.args if isinstance(a, P.Literal)}
        used = [(e.start, e.end) for e in entities if (e.kind, tuple(e.values)) in literals]
        for (start, end), keep in conditions:
            if _overlaps((start, end), used):
                continue
            moved = tuple(P.Expr(e.function, tuple(map(_after_one, e.args))) for e in program.exprs)
            narrowed = str(P.Program((keep, *moved)))
            if narrowed not in out:
                out.append(narrowed)
    return out


def _holding(env: Any, *values: str) -> Any | None:
    """The text column (not a date column) with, for each of `values` (texts, not empty), a cell that holds
    it; None for none. On a user's table the first whose cells are those texts whole ("y" of a `Billable`
    column of `Y` and `N`, not the "y" in a client's name), else the first holding them as whole words, as a
    filter keeps them there, else the first holding them at all; on WTQ's, whose filters match any
    substring, the first holding them at all."""
    columns = [c for c in env.table.columns if "date" not in c.views and holds_all(c, values)]
    for holds in (_as_cells, _as_words) if user_matching(env.table) else ():
        found = next((c for c in columns if holds(c, values)), None)
        if found is not None:
            return found
    return columns[0] if columns else None


def _as_cells(column: Any, values: Sequence[str]) -> bool:
    cells = set(filled_cells(column))
    return all(v in cells for v in values)


def _as_words(column: Any, values: Sequence[str]) -> bool:
    cells = filled_cells(column)
    return all(any(contains_words(v, cell, grades=True) for cell in cells) for v in values)


def holds_all(column: Any, values: Sequence[str]) -> bool:
    """Whether each of `values` is in some cell of the column's text view."""
    cells = filled_cells(column)
    return all(any(v in cell for cell in cells) for v in values)


class EitherOr(NamedTuple):
    """A question's either-or pair: its two names, the literal the language writes of them (quotes escaped),
    and the table's columns whose text view holds both, in table order."""

    named: list[str]
    literal: P.Literal
    columns: list[Any]


def either_or_pair(problem: Any, env: Any) -> EitherOr | None:
    """The question's either-or pair (`annotate`'s entity of both names, word linking only), not its first two
    names: "in paris, which sold more, abba or queen?" compares abba with queen; None where the question names
    no pair."""
    pair = next((e for e in problem.question.entities if e.kind == "string" and len(e.values) == 2), None)
    if pair is None:
        return None
    named = [str(v) for v in pair.values]
    columns = [c for c in env.table.columns if holds_all(c, named)]
    return EitherOr(named, P.Literal("string", tuple(named)), columns)


def _starts(problem: Any, env: Any) -> list[tuple[str, str, int]]:
    """Where a proposal's rows start, as (the expressions before, the rows' name, the next variable's
    number): all rows, and the rows of the first thing the question names that a text column holds
    ("Harbour Maritime Museum's visits between September and December")."""
    starts = [("", "all_rows", 0)]
    for entity in problem.question.entities:
        if entity.kind != "string" or len(entity.values) != 1 or entity.values[0] == "":
            continue  # a pair, or the empty text of a blank cell (`annotate`), names no rows
        value = str(entity.values[0])
        holding = _holding(env, value)
        if holding is not None:
            literal = P.Literal("string", (value,))
            keep = f"(filter_str_contain_any all_rows {literal} {holding.property_name('string')}) "
            return [*starts, (keep, "v0", 1)]
    return starts


def _shown(env: Any, but: str | None = None) -> list[P.Column]:
    """The columns a proposal shows, in their string view: the table's first `SHOWN_COLUMNS` with text,
    never dates or the column `but` (slug). A table's first columns most often name its rows."""
    columns = [
        c for c in env.table.columns if "string" in c.views and "date" not in c.views and c.slug != but
    ]
    return [P.Column(c.property_name("string")) for c in columns[:SHOWN_COLUMNS]]


def sign_programs(problem: Any, env: Any) -> list[str]:
    """For a question with the number 0 that a word of sign, falling or rising gives (`annotate`: "lost",
    "negative", "closed down"), over each number column of both signs: the rows below 0 and those above it,
    counted, summed or shown by a text column; and the rows of the least and of the largest value, shown.
    From each of `_starts`."""
    if not any(e.kind == "number" and tuple(e.values) == (0.0,) for e in problem.question.entities):
        return []
    signed = [c for c in env.table.columns if is_signed(c)]
    shown = _shown(env)
    programs = []
    for prefix, rows, n in _starts(problem, env) if signed and shown else ():
        for column in signed:
            name = column.property_name("number")
            others = [text for text in shown if text.slug != column.slug]
            for keep in ("filter_less", "filter_greater"):
                kept = f"{prefix}({keep} {rows} 0 {name})"
                programs.append(f"{kept} (count v{n})")
                programs.append(f"{kept} (sum v{n} {name})")
                programs += [f"{kept} (hop v{n} {text})" for text in others]
            for pick in ("argmin", "argmax"):
                programs += [f"{prefix}({pick} {rows} {name}) (hop v{n} {text})" for text in others]
    return programs


#: Words that make two dates or numbers of a question the ends of a range.
_RANGE_WORDS = frozenset({"between", "from"})
#: On a user's table, more words of a span ("April 8 through April 14"); WTQ's reranker was fitted without.
_USER_RANGE_WORDS = frozenset({"through", "thru", "until", "till"})
#: Words that make a range only standing right between its two ends, on a user's table ("April 8 to April
#: 14"): "to" elsewhere is any "to" ("compared to April 10").
_RANGE_JOINS = frozenset({"to", "-", "–"})


def range_programs(problem: Any, env: Any) -> list[str]:
    """For a question with "between" or "from" (on a user's table also "through", or two ends joined by
    "to": "April 8 to April 14") and two dates (or else two numbers), over each column of that kind: the
    rows from the first to the second, both kept, counted, summed by each number column (on a user's table
    also averaged, where the question asks for an average) or shown by the columns of `_shown`. Over all rows
    only: a range and what follows it are the three expressions a WTQ program may have
    (`Limits.max_expressions`)."""
    question = problem.question
    user = user_matching(env.table)
    said_range = bool((_RANGE_WORDS | (_USER_RANGE_WORDS if user else frozenset())) & set(question.tokens))
    for kind in ("date", "number"):
        mentions = [e for e in question.entities if e.kind == kind and len(e.values) == 1]
        joined = _joined_ends(question.tokens, mentions) if user else None
        # the two ends a "to" stands between, else the first two the question names
        ends = list(dict.fromkeys(e.values[0] for e in (joined or mentions)))
        if len(ends) < 2 or not (said_range or joined):
            continue
        low, high = (str(P.Literal(kind, (v,))) for v in _in_order(ends[0], ends[1]))
        # on a user's table, "the average share from 2019 to 2023" averages the rows it keeps
        totals = ("sum", "average") if user and lexicon.AVERAGE_WORDS & set(question.tokens) else ("sum",)
        programs = []
        for column in (c for c in env.table.columns if kind in c.views):
            name = column.property_name(kind)
            kept = f"(filter_ge all_rows {low} {name}) (filter_le v0 {high} {name})"
            programs.append(f"{kept} (count v1)")
            programs += [
                f"{kept} ({total} v1 {c.property_name('number')})"
                for total in totals
                for c in env.table.columns
                if "number" in c.views and c is not column
            ]
            programs += [f"{kept} (hop v1 {text})" for text in _shown(env, but=column.slug)]
        if programs:  # two dates make the range; two numbers only where they make none
            return programs
    return []


def _joined_ends(tokens: Sequence[str], mentions: Sequence[Any]) -> tuple[Any, Any] | None:
    """The two mentions that stand on either side of one word of `_RANGE_JOINS` ("3 to 5 goals"), else
    None."""
    ending_at = {e.end: e for e in mentions}
    starting_at = {e.start: e for e in mentions}
    for at, word in enumerate(tokens):
        if word in _RANGE_JOINS and at in ending_at and at + 1 in starting_at:
            return ending_at[at], starting_at[at + 1]
    return None


def _in_order(first: Any, second: Any) -> tuple[Any, Any]:
    """A range's two ends, the smaller first ("from 2005 back to 2001"); dates only where both say the
    fields they are compared by (a year known in one and not the other leaves them as said)."""
    if isinstance(first, Date) and isinstance(second, Date):
        if (first.year == -1) != (second.year == -1):
            return first, second
        first_fields, second_fields = (
            (first.year, first.month, first.day),
            (second.year, second.month, second.day),
        )
        return (first, second) if first_fields <= second_fields else (second, first)
    return (first, second) if first <= second else (second, first)


def pick_of_two_programs(problem: Any, env: Any) -> list[str]:
    """Programs for a question that names two things with "or" between them ("which was bigger, A or B?"):
    for each string column that holds both, keep the rows of the two, pick one by the largest or smallest
    value of each number column, and show the string column (the beam often reads the right rows and shows
    the wrong column, or compares the wrong column). The reranker weighs them beside the beam's programs."""
    pair = either_or_pair(problem, env)
    if pair is None:
        return []
    numbers = [c.property_name("number") for c in env.table.columns if "number" in c.views]
    programs = []
    for column in pair.columns:
        shown = column.property_name("string")
        keep = f"(filter_str_contain_any all_rows {pair.literal} {shown})"
        programs += [
            f"{keep} ({pick} v0 {number}) (hop v1 {shown})"
            for number in numbers
            for pick in ("argmax", "argmin")
        ]
    return programs


def summed_programs(problem: Any, env: Any, beam: Sequence[str]) -> list[str]:
    """For a question with a word of totals (or "how much" with a word of spending,
    `lexicon.asks_amount_spent`), each beam program that ends counting rows (`count`) or showing
    a column of them (`hop`): the sum of each number column over those rows instead ("total downloads for
    the May episodes" counted the episodes)."""
    tokens = problem.question.tokens
    if not (lexicon.TOTAL_WORDS & set(tokens) or lexicon.asks_amount_spent(tokens)):
        return []
    numbers = [P.Column(c.property_name("number")) for c in env.table.columns if "number" in c.views]
    out = []
    for program in _programs(beam):
        last = program.exprs[-1]
        if last.function not in ("count", "hop"):
            continue
        for column in numbers:
            summed = str(P.Program((*program.exprs[:-1], P.Expr("sum", (last.args[0], column)))))
            if summed not in out:
                out.append(summed)
    return out


def listed_programs(problem: Any, env: Any, beam: Sequence[str]) -> list[str]:
    """For a question naming a list of things one text column holds and asking for a total or an average
    of them (`annotate`'s entity of all their names: "the combined GDP of France, Germany and the United
    Kingdom"): the rows of them all, summed or averaged by each number column, or counted. The beam keeps
    the rows of one thing at a time."""
    tokens = problem.question.tokens
    listed = next((e for e in problem.question.entities if e.kind == "string" and is_list(e, tokens)), None)
    if listed is None:
        return []
    values = [str(v) for v in listed.values]
    holding = _holding(env, *values)
    if holding is None:
        return []
    them = P.Literal("string", tuple(values))
    keep = f"(filter_str_contain_any all_rows {them} {holding.property_name('string')})"
    numbers = [c.property_name("number") for c in env.table.columns if "number" in c.views]
    return (
        [f"{keep} (sum v0 {number})" for number in numbers]
        + [f"{keep} (average v0 {number})" for number in numbers]
        + [f"{keep} (count v0)"]
    )


#: At most this many `paired` programs a question: each costs the chooser a reading of it, and a question naming
#: many things over a table with several date columns and many number columns would give hundreds.
PAIRED_PROGRAMS = 40
#: Words of a question comparing two amounts ("how much more ... than", "the difference between").
_DIFFERENCE_WORDS = frozenset({"than", "difference", "compared", "versus", "vs"})


def paired_programs(problem: Any, env: Any, beam: Sequence[str]) -> list[str]:
    """For a question of how much more one thing has than another where each is the row of two things the
    question names, one of them shared ("how much more did Isartor earn than Altmarkt in January 2024?",
    "how many more pupils were missing from 8a on 04.03.2024 than on 15.04.2024?"): the rows of the shared
    thing, the row of each other thing among them, and the difference of each number column between the two.
    Four expressions, one more than the model writes (`interpreter.PROPOSAL_EXPRESSIONS`); the beam writes the
    difference of two rows kept by one condition each."""
    if not _DIFFERENCE_WORDS & set(problem.question.tokens):
        return []
    conditions = _conditions(problem, env)
    out = []
    for (span, shared), (first_span, first), (second_span, second) in product(conditions, repeat=3):
        column = first.args[-1]
        if (
            second.args[-1] != column
            or shared.args[-1] == column
            or str(first.args[1]) >= str(second.args[1])  # each pair once, in one order (`diff` is unsigned)
            or _overlaps(span, [first_span, second_span])
            or _overlaps(first_span, [second_span])
        ):
            continue
        moved = [P.Expr(e.function, tuple(map(_after_one, e.args))) for e in (first, second)]
        kept = str(P.Program((shared, *moved)))
        # not the columns that keep the rows: the two sides share the shared thing's value, and their own
        # column's number view ("8a", "8b" both read 8) differs by nothing asked
        keeping = {e.args[-1].slug for e in (shared, first)}
        out += [
            f"{kept} (diff v1 v2 {c.property_name('number')})"
            for c in env.table.columns
            if "number" in c.views and c.slug not in keeping
        ]
    return list(dict.fromkeys(out))[:PAIRED_PROGRAMS]


#: At most this many `totals` programs a question, for the same reason as `PAIRED_PROGRAMS`.
TOTALS_PROGRAMS = 40
#: Words of a question asking which thing is first by a total ("which category sold the most in total?"):
#: one asking for a thing, and one of ranking ("what was the total attendance?" asks for no thing).
_WHICH_WORDS = frozenset({"which", "who", "what", "whose"})
_RANKING_WORDS = frozenset(
    {"most", "least", "fewest", "highest", "lowest", "biggest", "largest", "smallest", "top", "best", "worst"}
)


def totals_programs(problem: Any, env: Any, beam: Sequence[str]) -> list[str]:
    """Programs that compare totals of groups of rows, each group the rows of one thing (written with the
    language's proposal functions `top_total`, `bottom_total` and `total_diff`, which the model never
    writes), for each number column:

    - an either-or where a named thing has several rows ("which client did I bill more hours to, Northwind
      Studio or Hartley & Sons?"): the one of the two with the higher or lower total;
    - how much more one thing has than another where one has several rows ("how many more minutes went to
      Greenway Trust than to Bloom Café?"): the difference of their totals, also among the rows of a third
      thing the question names ("... billable minutes ..." of a `Billable` column's `Y`);
    - which thing is first by a total ("which client did we bill the most hours altogether?"): the value of
      a column of repeated values whose rows' total is the highest or lowest."""
    tokens = set(problem.question.tokens)
    numbers = [c for c in env.table.columns if "number" in c.views]
    out: list[str] = []
    pair = either_or_pair(problem, env)
    for column in pair.columns if pair is not None else ():
        if not _grouped(column, pair.named) or not _one_cell_each(column, pair.named):
            continue
        shown = column.property_name("string")
        keep = f"(filter_str_contain_any all_rows {pair.literal} {shown})"
        out += [
            f"{keep} ({pick} v0 {shown} {n.property_name('number')})"
            for n in numbers
            if n.slug != column.slug
            for pick in ("top_total", "bottom_total")
        ]
    if _DIFFERENCE_WORDS & tokens:
        conditions = _conditions(problem, env)
        texts = [(span, keep) for span, keep in conditions if keep.function == "filter_str_contain_any"]
        for (first_span, first), (second_span, second) in product(texts, repeat=2):
            column = first.args[-1]
            if (
                second.args[-1] != column
                or str(first.args[1]) >= str(second.args[1])  # each pair once (`total_diff` is unsigned)
                or _overlaps(first_span, [second_span])
                or not _grouped(_column_of(env, column), [_text(first), _text(second)])
            ):
                continue
            sides = [first, second]
            starts = [(str(P.Program(tuple(sides))), "v0 v1")]
            for span, shared in conditions:
                if shared.args[-1] != column and not _overlaps(span, [first_span, second_span]):
                    moved = [P.Expr(e.function, tuple(map(_after_one, e.args))) for e in sides]
                    starts.append((str(P.Program((shared, *moved))), "v1 v2"))
            out += [
                f"{kept} (total_diff {refs} {n.property_name('number')})"
                for kept, refs in starts
                for n in numbers
                if n.slug != column.slug
            ]
    if lexicon.TOTAL_WORDS & tokens and _WHICH_WORDS & tokens and _RANKING_WORDS & tokens:
        for column in env.table.columns:
            if "string" not in column.views or "date" in column.views or not repeats(column):
                continue
            out += [
                f"({pick} all_rows {column.property_name('string')} {n.property_name('number')})"
                for n in numbers
                if n.slug != column.slug
                for pick in ("top_total", "bottom_total")
            ]
    return list(dict.fromkeys(out))[:TOTALS_PROGRAMS]


def _column_of(env: Any, column: P.Column) -> Any:
    """The table's column behind a string view."""
    return next(c for c in env.table.columns if c.property_name("string") == column.name)


def _text(keep: P.Expr) -> str:
    """The text a `filter_str_contain_any` of one literal keeps the rows of."""
    literal = keep.args[1]
    assert isinstance(literal, P.Literal)
    return str(literal.values[0])


def _grouped(column: Any, values: Sequence[str]) -> bool:
    """Whether some of `values` is in more than one cell of the column's text view (as whole words, as a
    user's filter keeps them): a group of rows."""
    cells = filled_cells(column)
    return any(sum(contains_words(v, cell, grades=True) for cell in cells) > 1 for v in values)


def _one_cell_each(column: Any, values: Sequence[str]) -> bool:
    """Whether the cells holding each of `values` are one cell, written alike: `top_total` totals the rows of
    each cell, so `Northwind Studio` beside `Northwind Studio - retainer` would split one client in two."""
    cells = filled_cells(column)
    return all(len({cell for cell in cells if contains_words(v, cell, grades=True)}) == 1 for v in values)


#: At most this many `two_columns` programs a question, for the same reason as `PAIRED_PROGRAMS`.
TWO_COLUMN_PROGRAMS = 60
#: Words of a question that measures a span of time between two dates of a row ("which bug took longest
#: from opened to closed?", "how many days did returns take on average?").
_SPAN_WORDS = frozenset({"took", "take", "takes", "long", "longer", "longest", "days", "quickest", "fastest"})
#: Words of a question that compares a row's amount with another of its own ("below their reorder level",
#: "seats left", "capacity minus enrolled").
_OWN_WORDS = frozenset({"their", "its", "minus", "left", "remaining", "outstanding", "short"})
#: Words of a column's name that name no thing of their own (`Closed at`, `Return date`, `Order no`): the
#: others name the column, where it has others.
_NAME_FILLERS = frozenset({"at", "on", "of", "the", "date", "time", "no", "nr"})


def two_columns_programs(problem: Any, env: Any, beam: Sequence[str]) -> list[str]:
    """Programs over two columns of each row, written with the language's proposal functions `difference`
    and `filter_exceeding`, for each pair of number columns or of date columns the question names (every
    word of a column's name, stemmed: "closed" names `Close`), or of date columns one of which it names
    where it speaks of a span ("which ticket took longest to close?"):

    - the rows where one is above the other ("how many items are below their reorder level?"), counted or
      shown;
    - each row's difference, the later date or larger number first: its largest or smallest row shown, its
      average or total, and the rows above or below a number the question names ("which returns took more
      than 20 days?"), counted or shown; and, for a question naming two things with "or", the one of the two
      with the larger or smaller difference ("which took longer to get closed, RR-2403 or RR-2404?").

    From each of `_starts`, each with its share of `TWO_COLUMN_PROGRAMS`."""
    stemmer = env.table.rules.header_words
    if stemmer is None:
        return []
    words = [w for t in problem.question.tokens for w in re.findall(r"[a-z]+", t.lower())]
    stems = {stemmer.stem(w) for w in words}
    named = [c for c in env.table.columns if _names(c, stems, stemmer)]
    if not named:
        return []
    # one named column is enough where the question speaks of a span between dates, or of a row's own
    # other amount ("below *their* reorder level"); else both must be named. Pairs of two named columns come
    # first, before the cap (`TWO_COLUMN_PROGRAMS`).
    one_enough = {"date": bool(_SPAN_WORDS & set(words)), "number": bool(_OWN_WORDS & set(words))}
    both_named, one_named = [], []
    for kind in ("number", "date"):
        ordered = [c for c in env.table.columns if kind in c.views]
        for first, second in combinations(ordered, 2):
            if first in named and second in named:
                both_named.append(_larger_first(first, second, kind))
            elif one_enough[kind] and (first in named or second in named):
                one_named.append(_larger_first(first, second, kind))
    pairs = both_named + one_named
    if not pairs:
        return []
    shown = _shown(env)
    numbers = [e for e in problem.question.entities if e.kind == "number" and len(e.values) == 1]
    pair = either_or_pair(problem, env)
    starts = _starts(problem, env)
    # each start its share of the cap: the all-rows programs of many pairs would otherwise crowd out the rows of
    # the thing the question names ("the final price of PS-2410 over its quote")
    share = TWO_COLUMN_PROGRAMS // len(starts)
    by_start: dict[str, list[str]] = {prefix: [] for prefix, _, _ in starts}
    for (prefix, rows, n), (larger, smaller) in product(starts, pairs):
        out = by_start[prefix]
        texts = [t for t in shown if t.slug not in (larger.slug, smaller.slug)]
        for above, below in ((larger, smaller), (smaller, larger)):
            kept = f"{prefix}(filter_exceeding {rows} {above} {below})"
            out.append(f"{kept} (count v{n})")
            out += [f"{kept} (hop v{n} {t})" for t in texts]
        gap = f"{prefix}(difference {larger} {smaller})"
        d = f"v{n}"
        out += [f"{gap} (average {rows} {d})", f"{gap} (sum {rows} {d})"]
        for pick in ("argmax", "argmin"):
            out += [f"{gap} ({pick} {rows} {d}) (hop v{n + 1} {t})" for t in texts]
        for entity in numbers:
            bound = P.Literal("number", tuple(entity.values))
            for keep in ("filter_greater", "filter_less"):
                kept = f"{gap} ({keep} {rows} {bound} {d})"
                out.append(f"{kept} (count v{n + 1})")
                out += [f"{kept} (hop v{n + 1} {t})" for t in texts]
        if pair is not None and not prefix:
            for name in (c.property_name("string") for c in pair.columns):
                keep = (
                    f"(difference {larger} {smaller}) (filter_str_contain_any all_rows {pair.literal} {name})"
                )
                out += [f"{keep} ({pick} v1 v0) (hop v2 {name})" for pick in ("argmax", "argmin")]
    return [text for programs in by_start.values() for text in list(dict.fromkeys(programs))[:share]]


def _names(column: Any, stems: set[str], stemmer: Any) -> bool:
    """Whether the question names the column: every word of its slug but `_NAME_FILLERS`, stemmed, is among
    the question's."""
    parts = [w for w in column.slug.split("_") if w and not w.isdigit()]
    parts = [w for w in parts if w not in _NAME_FILLERS] or parts
    return bool(parts) and all(stemmer.stem(w) in stems for w in parts)


def _larger_first(first: Any, second: Any, kind: str) -> tuple[P.Column, P.Column]:
    """The two columns' views of `kind`, the one larger on most rows that have both first: a span is the
    later date less the earlier, "capacity minus enrolled" the larger number less the smaller."""
    a, b = first.views[kind], second.views[kind]
    both = [(x, y) for x, y in zip(a, b, strict=True) if x is not None and y is not None]
    above = sum(1 for x, y in both if key(x) > key(y))
    below = sum(1 for x, y in both if key(x) < key(y))
    names = (P.Column(first.property_name(kind)), P.Column(second.property_name(kind)))
    return names if above >= below else names[::-1]


#: The kinds proposed on users' tables only: each widens the candidates where the models, trained on WTQ,
#: miss how people ask about their own tables (a second condition the beam drops, a total it counts);
#: on WTQ tables the beam is in the models' own distribution and these cost more than they add there.
#: A reranker sees only the kinds it was fitted with (`Reranker.proposal_kinds`), so a kind added here is
#: weighed only after a refit (`nsm rerank`); the bundle's reranker of users' tables was fitted with all of these
#: but `totals` and `two_columns`; a refit on the fit rounds with `two_columns` did not learn to choose it
#: (BENCHMARKS.md, fifty-fifth session).
USER_KINDS: dict[str, Callable[[Any, Any, Sequence[str]], list[str]]] = {
    "narrowed": narrowed_programs,
    "summed": summed_programs,
    "listed": listed_programs,
    "paired": paired_programs,
    "narrowed_long": narrowed_long_programs,
    "totals": totals_programs,
    "two_columns": two_columns_programs,
}
