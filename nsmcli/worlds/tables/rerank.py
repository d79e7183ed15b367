"""What the reranker (`nsmcli.train.rerank`) reads off a table question and one finished beam program.

The beam's own probabilities rank programs by how the model decodes, not by whether the program fits the
question: "how many units did Harbor Supply buy in total?" gets `count` above `sum`, and a program that
ignores a number the question states can outrank one that uses it. These features let a linear model,
fitted on held-out questions, weigh such clues against the beam's probabilities (the generic dense
features of `nsmcli.train.rerank.beam_features`). Each is a name worth 1: the functions used and the last
one; the answer's kind (number, date, string) and size; whether the answer echoes the question; the
question's entities the program leaves unused, by kind; columns the question names and the program does
not use, and the reverse; whether the question asks for one thing or several ("which customers") crossed
with the answer's size; whether a program ending in `hop` shows the column it compared, crossed with the
question's opening word, and whether it shows the table's key column (`_key_column`), crossed with the
thing or things asked for; which way each comparison goes beside which way the question's words point
over the column it compares (`_direction_features`); whether each filter keeps the side of a bound the
question sets next to a value, and keeps the bound itself as the words do (`_bound_features`); whether the
final column is the one named after "which" or "what" (`_asked_columns`); whether each comparison compares a
column that the question's adjectives and verbs measure ("oldest": age), and so each sum, average or
difference ("spent": amount); and each question word and word pair
crossed with the functions, the last function, the answer's kind and size. `program_readings` gives the
question and each program read as English (`lang.gloss`), which the generic reranker compares
(`reading_similarity`).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from nsmcli.errors import GrammarError
from nsmcli.worlds.tables.data import units
from nsmcli.worlds.tables.data.annotate import (
    header_words,
    holds_outgoings,
    is_list,
    is_signed,
    names_balance,
    spells_column_name,
)
from nsmcli.worlds.tables.data.lexicon import MAGNITUDE, bounds, degree_base, measured_nouns, pointing
from nsmcli.worlds.tables.data.textnum import BALANCE_WORDS, MONTHS, change_direction
from nsmcli.worlds.tables.data.valuerules import is_code, is_digit_code
from nsmcli.worlds.tables.data.values import Date
from nsmcli.worlds.tables.lang import program as P
from nsmcli.worlds.tables.lang.functions import user_matching
from nsmcli.worlds.tables.lang.gloss import gloss
from nsmcli.worlds.tables.lang.interpreter import returned_column
from nsmcli.worlds.tables.proposals import MIRRORED, holds_all

_WORD = re.compile(r"[a-z]+|\d+")
_ENTITY_KINDS = ("string", "number", "date")


def _answer_kind(answer: Sequence[Any]) -> str:
    if not answer:
        return "none"
    value = answer[0]
    if isinstance(value, Date):
        return "date"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "number"
    return "string"


#: Words that open a question asking for rows or values ("which customers", "list the stores").
_ASKING = {"which", "what", "who", "whom", "list", "name"}


def _asked_number(tokens: Sequence[str], tags: Sequence[str]) -> str:
    """Whether the question asks for one thing or several: the grammatical number of the first noun within
    three words after its asking word ("which customers" -> plural), or "none"."""
    for i, token in enumerate(tokens):
        if token in _ASKING:
            for tag in tags[i + 1 : i + 4]:
                if tag in ("NNS", "NNPS"):
                    return "plural"
                if tag in ("NN", "NNP"):
                    return "singular"
            return "none"
    return "none"


#: Functions that pick or keep the larger or the smaller values: what a program compares (each has a
#: counterpart that compares the other way).
_COMPARING = frozenset(MIRRORED)
#: Functions that reduce a column's values to one ("how much did she spend": a sum of the amounts).
_REDUCING = frozenset({"sum", "average", "diff", "total_diff"})
#: Functions whose column the `measured=` features check against what the question's words measure.
_MEASURING = _COMPARING | _REDUCING


#: The picks by a total (`top_total`, `bottom_total`): their answer is their key column's values, as a `hop`'s.
_SHOWING_TOTALS = frozenset({"top_total", "bottom_total"})


def _slug(arg: Any) -> str | None:
    """A column argument's slug (`r.unit_price-number` -> `unit_price`), None for anything else."""
    return arg.slug if isinstance(arg, P.Column) else None


def _reads_as_amounts(column: Any, user: bool) -> bool:
    """Whether a column's number view makes it no name column: any number view on WTQ's tables (as the
    reranker was first fitted); on a user's, numbers in at least half its filled cells, so that product names
    of which some hold a number (`Trailhead 30L Backpack`, `Cordless Drill 18V`) still name the rows."""
    numbers = column.views.get("number")
    if numbers is None or not user:
        return numbers is not None
    filled = sum(1 for cell in column.raw if cell.strip())
    return 2 * (len(numbers) - numbers.count(None)) >= filled


def _names_by_code(cell: str, user: bool) -> bool:
    cell = cell.strip()
    return (
        is_code(cell)
        or (cell.isascii() and cell.isdigit())
        or (user and (is_digit_code(cell) or _SEGMENTED_CODE.fullmatch(cell) is not None))
    )


#: A code of letters and digits in turn (`S3E09`, an episode; `A1B2`).
_SEGMENTED_CODE = re.compile(r"(?:[A-Za-z]+\d+){2,}")


def _key_column(table: Any) -> str | None:
    """The slug of the table's first column that names its rows: text (no number or date reading, and not
    codes or order numbers, `D-2401`, `10231`, and on a user's table `100-2041`), every cell filled
    and different from the others (an expense's description, a store's name)."""
    for column in table.columns:
        if _reads_as_amounts(column, table.rules.user_question_readings) or "date" in column.views:
            continue
        if all(_names_by_code(cell, table.rules.user_question_readings) for cell in column.raw):
            continue
        cells = column.views.get("string", ())
        if len(cells) >= 2 and all(cells) and len(set(cells)) == len(cells):
            return column.slug
    return None


#: Functions that pick or keep the larger values, and those that pick or keep the smaller.
_UPWARD = frozenset({"argmax", "maximum", "filter_ge", "filter_greater", "top_total"})
_CLOCK = re.compile(r"\d{1,2}:\d\d")
_TIME_HEADER_WORDS = frozenset({"time", "lap", "duration", "pace", "delay", "elapsed"})


def _timed(column: Any) -> bool:
    """Whether a column holds durations or clock times (`1:42.3`, `3h 35m`, `Lap time`): where the
    fastest is the smallest."""
    if _TIME_HEADER_WORDS & set(column.slug.split("_")):
        return True
    first = next((text for text in column.raw if text.strip()), "")
    if _CLOCK.match(first.strip()):
        return True
    reading = units.column_units(column.raw)
    return reading is not None and reading.unit.family == "time"


@dataclass(frozen=True)
class _Compared:
    """What the direction features need of one column, read once per question: the ways the question's
    words point over it (`lexicon.pointing`), and whether it holds both signs."""

    points: frozenset[int]
    signed: bool


def _compared(column: Any, words: Sequence[str], user: bool) -> _Compared:
    # a column of years reads as dates through its number view too: "the oldest team" is the least year
    # founded; on a user's table "near" and "far" point only as degrees ("a quake near Caddick")
    points = pointing(words, dates="date" in column.views, times=_timed(column), degrees_only=user)
    if (
        user
        and _by_size(words)
        and holds_outgoings(column)
        and not _LEVEL_HEADER_WORDS & set(column.slug.split("_"))
    ):
        points = {-way for way in points}  # "the biggest deduction" of (120.00), (345.00) is the least number
    return _Compared(frozenset(points), is_signed(column))


#: Adjectives of size: "the biggest deduction" is the largest amount, whatever its sign.
_SIZE_BASES = frozenset({"big", "large", "great", "small", "huge"})
#: Headers of a level, not an amount that goes out: "the highest net income" of losses is the least loss.
_LEVEL_HEADER_WORDS = frozenset(
    {"balance", "income", "profit", "net", "change", "growth", "return", "margin"}
)


#: Words of sign (`textnum.SIGN_WORDS`), read as the words of falling and rising are over a column of both signs.
_SIGN_CHANGES = {"negative": "fall", "positive": "rise"}


def _by_size(words: Sequence[str]) -> bool:
    """Whether the question's words of degree are all of size ("biggest", "largest"), none of level
    ("highest", "lowest")."""
    bases = {b for w in words if (b := degree_base(w, MAGNITUDE)) is not None}
    return bool(bases) and bases <= _SIZE_BASES


def _compared_column(expr: P.Expr) -> P.Column | None:
    """The column a comparing or reducing expression (`argmax`, `filter_less`, `sum`, ...) reads: its last
    column argument."""
    return next((a for a in reversed(expr.args) if isinstance(a, P.Column)), None)


def _direction_features(
    program: P.Program,
    words: Sequence[str],
    changes: set[str],
    columns: dict[str, Any],
    read_columns: dict[str, _Compared],
    user: bool,
) -> list[str]:
    """Which way each comparison of `program` goes beside which way the question's words point over the
    column it compares (`lexicon.polarity`: "lightest" down, "oldest" down over dates and up over ages,
    "fastest" down over times), and beside the question's words of falling and rising ("lost", "grew")
    over a column of both signs. Words the fit never saw then count by the way they point. `columns`: the
    table's columns by slug; `read_columns`: `_compared` of those already read for this question; `user`:
    the table is a user's (`user_matching`)."""
    out = []
    for expr in program.exprs:
        if expr.function not in _COMPARING:
            continue
        column_arg = _compared_column(expr)
        column = columns.get(column_arg.slug) if column_arg is not None else None
        if column is None:
            continue
        if column.slug not in read_columns:
            read_columns[column.slug] = _compared(column, words, user)
        facts = read_columns[column.slug]
        way = "up" if expr.function in _UPWARD else "down"
        for sign in facts.points:
            said = "up" if sign > 0 else "down"
            out.append(f"points={said == way}|view={column_arg.view}")
            out.append(f"points={said == way}|f={expr.function}")
        if not facts.points:
            out.append(f"points=none|f={expr.function}")
        if changes and column_arg.view == "number" and facts.signed:
            zero = any(isinstance(a, P.Literal) and a.values == (0.0,) for a in expr.args)
            for change in changes:
                out.append(f"change={change}|way={way}|zero={zero}")
    return out


#: The filters that keep the rows on one side of a bound, and the side (+1 above, -1 below).
_BOUNDING = {"filter_greater": 1, "filter_ge": 1, "filter_less": -1, "filter_le": -1}
_INCLUSIVE = frozenset({"filter_ge", "filter_le"})


def _bound_features(program: P.Program, said: set[tuple[int, bool]]) -> list[str]:
    """Each bound the question sets next to a value (`lexicon.bounds`: "more than 33", "before 2016", "5 or
    more") beside each filter of `program` that bounds a column by a value: whether it keeps the same
    side, and whether it keeps the bound itself as the words do. `bound=unused` when the question sets a
    bound and no filter bounds by a value."""
    if not said:
        return []
    out = []
    for expr in program.exprs:
        side = _BOUNDING.get(expr.function)
        if side is None or not any(isinstance(a, P.Literal) for a in expr.args):
            continue
        for said_side, kept in said:
            out.append(f"bound_side={side == said_side}")
            out.append(f"bound_side={side == said_side}|kept={(expr.function in _INCLUSIVE) == kept}")
    return out or ["bound=unused"]


def _is_value(word: str) -> bool:
    """A word that gives a bound's value: a number or a month ("may" is more often the verb)."""
    return word.isdigit() or (word in MONTHS and word != "may")


#: "under-21", "over-50s": a name of a group, not a bound.
_HYPHENED_NUMBER = re.compile(r"\b[a-z]+-\d+")
#: Words between "which"/"what" and the column it names; "name" too ("the name of the team" is the team).
_ASKED_SKIP = frozenset("is was are were the a an did does do has have had s name".split())
#: At most this many words name the row whose column "what is X's ..." asks for.
_OWNER_WORDS = 5
#: A closing request for what to show, after a question or clause ("? Give me the timestamps").
_REQUEST = re.compile(
    r"[.?!,;:]\s*(?:please\s+)?(?:give|just|only|list|name|show)(?:\s+(?:me|us))?\s+(?:(?:the|its|their)\s+)?"
    r"(?P<shown>[^.?!]*)"
)
#: A possessive "'s" ("Ingrid Berg's split"), not the letter of a code ("sample S04") nor a contraction
#: ("what's", "that's").
_POSSESSIVE = re.compile(r"\b(?!(?:that|it|what|who|there|here|he|she|let|where|how|when)['’]s\b)\w+['’]s\b")
#: A number's plural in a column's name (`180s`), read as the number.
_PLURAL_NUMBER = re.compile(r"(\d)s\b")
#: "who was the ...": the words after which "who" names the column it asks for.
_WHO_IS_THE = (["is", "the"], ["was", "the"], ["are", "the"], ["were", "the"], ["s", "the"])
#: A question that asks for these is a count ("what was the total number of games"), not a column.
_COUNTING = frozenset({"number"})


def _stem(word: str) -> str:
    """A plural noun's singular, roughly ("cities" -> city, "tasks" -> task); other words as they are."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


_WH_WORDS = frozenset({"which", "what", "who", "whom", "whose", "where", "when", "how", "why"})


#: Words that open a request for a column's values ("list the return IDs ...", "name all stations ...").
_LISTING = frozenset({"list", "name"})
#: Words before the column a listing names.
_LISTING_SKIP = frozenset({"the", "all", "every", "each"})
#: A column's word that says it identifies rows (`Return ID`, `Order No`): "which return" asks for it, where
#: the table has no column of names.
_ID_WORDS = frozenset({"id", "no", "nr", "number", "code", "ref"})


def _first_wh_word(words: Sequence[str]) -> int | None:
    """The position of a question's first wh-word ("which", "who", "when", ...), or None."""
    return next((i for i, w in enumerate(words) if w in _WH_WORDS), None)


def _asked_columns(
    words: Sequence[str],
    naming: dict[str, str],
    user: bool,
    texts: Collection[str] = (),
    possessive: bool = False,
    request: Sequence[str] = (),
) -> set[str]:
    """The columns the question asks for by name right after "which" or "what" ("which platform does ...",
    "what was the average high ..."), or a listing's first word ("list the return IDs ..."): those whose every
    word (`column_naming`) is among the next words (after "is the" and the like; three at most, up to the
    next such word), plurals read as singulars, a word that identifies rows aside where no column names them
    ("which return": `Return ID`). None when "which" or "what" is not the question's first wh-word, or when it
    asks for a number of things ("the total number of games"; on a user's table only a first "number of" or a
    "total number of" does: "which lot number" asks for `Lot`, "the tracking numbers of all parcels" for
    theirs).

    On a user's table only (`user`), as WTQ's reranker was fitted without: the listing and the identifier;
    "who is the" of a column of `texts` ("who was the customer on ..."); and, for a question with a
    `possessive` whose first words name no column, the words after the row's name ("what was Ingrid Berg's
    finish time"); and first of all a closing `request`'s words ("... ? Give the booking refs.")."""
    name_words = _name_words(naming, user)
    if user and request:
        requested = _named_next(request, name_words, user)
        if requested:
            return requested
    who = False
    if user and words and words[0] in _LISTING:
        rest = list(itertools.dropwhile(_LISTING_SKIP.__contains__, words[1:]))
    else:
        first = _first_wh_word(words)
        if first is None:
            return set()
        # "who is the player which scored": a relative "which"; not "who had better attendance"
        who = user and words[first] == "who" and words[first + 1 : first + 3] in _WHO_IS_THE
        if words[first] not in ("which", "what") and not who:
            return set()
        rest = list(itertools.dropwhile(_ASKED_SKIP.__contains__, words[first + 1 :]))
    # "who" asks for someone: a column of text (`texts`), not "who was the session ... with?" of `Session` 12
    named = {s: parts for s, parts in name_words.items() if not who or s in texts}
    out = _named_next(rest, named, user, identifiers=not who)
    if out is None:
        return set()
    if user and possessive and not out and "s" in rest[1 : _OWNER_WORDS + 1]:
        out = _named_next(rest[rest.index("s") + 1 :], named, user) or set()
    return out


def _name_words(naming: dict[str, str], user: bool) -> dict[str, list[str]]:
    """Each column's name (`column_naming`) as its words, stemmed; on a user's table read as the question's
    words are: `30k` is "30", "k" ("Ingrid Berg's 30K split"), and `180s` "180" (WTQ's reranker was fitted
    with the slug's pieces)."""
    if not user:
        return {s: [_stem(p) for p in n.split("_") if p] for s, n in naming.items()}
    return {s: [_stem(p) for p in _WORD.findall(_PLURAL_NUMBER.sub(r"\1", n))] for s, n in naming.items()}


def _request_words(text: str) -> list[str]:
    """The words a question's closing request names what to show by ("... in August 2024? Give the booking
    refs.", "... heaviest? Just the tracking number please"); none without one."""
    found = _REQUEST.search(text)
    return _WORD.findall(found["shown"]) if found else []


def _named_next(
    rest: Sequence[str], named: dict[str, list[str]], user: bool, identifiers: bool = True
) -> set[str] | None:
    """`_asked_columns` of the words after the wh-word or listing word: the columns (by slug, each with its
    stemmed words in `named`) that the next words name, or with `identifiers` on a user's table the row's
    identifier they name ("which return"); None where they ask for a number of things."""
    taken = list(itertools.takewhile(lambda w: w not in _ASKED_SKIP, rest[:3]))
    asked = {_stem(w) for w in taken}
    # "what is the (total) number of games" counts; on a user's table "which lot number" and "the tracking
    # numbers of all parcels" name a column
    if asked & _COUNTING and (
        not user
        or any(
            rest[k + 1 : k + 2] == ["of"] and (k == 0 or taken[k - 1] == "total")
            for k, w in enumerate(taken)
            if _stem(w) in _COUNTING
        )
    ):
        return None
    out = {s for s, parts in named.items() if parts and set(parts) <= asked}
    if user and identifiers and not out and not any("name" in parts for parts in named.values()):
        out = {
            s
            for s, parts in named.items()
            if (kept := set(parts) - _ID_WORDS) and kept < set(parts) <= asked | _ID_WORDS
        }
    return out


#: Verbs that follow a question's "when" ("when did", "when was"), not a clause's ("when alice scored").
_AUXILIARIES = frozenset("did does do was were is are will has have had can could should would".split())


def _when_columns(words: Sequence[str], table: Any) -> set[str]:
    """The columns a question asks for with "when", its first wh-word ("when did ETH first close above
    3,400?"): those of dates, and those of clock times (`14:35`)."""
    first = _first_wh_word(words)
    # "when did ...", not "when alice scored the most, how many did bob score?"
    if (
        first is None
        or words[first] != "when"
        or words[first + 1 : first + 2] not in ([a] for a in _AUXILIARIES)
    ):
        return set()
    return {
        c.slug
        for c in table.columns
        if "date" in c.views or _CLOCK.fullmatch(next((t for t in c.raw if t.strip()), "").strip())
    }


def _abbreviations_read(words: Sequence[str], table: Any) -> set[str]:
    """The columns' names of three or four letters (`Ave`, `Jan`, `Pos`, `Ext`) that begin a longer word of
    the question ("averaging", "january", "position", "extension"): the question names them. A word that
    only adds a degree or an adverb's ending is another word ("highest" names no `High`, "latest" no `Lat`)."""
    short = {c.slug for c in table.columns if 3 <= len(c.slug) <= 4 and c.slug.isalpha()}
    return {
        s for s in short for w in words if len(w) >= len(s) + 2 and w.startswith(s) and not _of_degree(w, s)
    }


def _of_degree(word: str, short: str) -> bool:
    """Whether `word` is `short`'s letters with a degree's or an adverb's ending ("highest", "higher",
    "latest", "later", "lately") rather than a longer word they shorten ("order" of `Ord`)."""
    return (
        word[len(short) :] in ("est", "ly", "ely")
        or degree_base(word, MAGNITUDE) not in (None, word)  # "maximum" itself still names `Max`
        or word in _TIME_COMPARATIVES
    )


#: Comparatives of time that no magnitude lists ("later" is no `Lat`).
_TIME_COMPARATIVES = frozenset({"later", "latter", "earlier", "sooner"})


def _words_named(slug: str, words: set[str]) -> bool:
    parts = [w for w in slug.split("_") if w]
    return bool(parts) and all(w in words for w in parts)


#: A slug's counter that tells apart columns of one name (`current_account_balance_2`).
_SLUG_COUNTER = re.compile(r"_\d+$")


def column_naming(table: Any) -> dict[str, str]:
    """What names each column, as a slug's words joined by "_", by slug: the slug itself, except that on a
    user's table columns whose slugs differ only in a trailing number (`current_account_balance`,
    `current_account_balance_2` of "Current account balance (BoP, current US$)" and "Current account balance
    (% of GDP)") are named by all their headers' words, so that a question quoting one names it and not the
    other. Headers are read as slugs are (accents dropped, not the letters under them), and columns of one
    header keep their slugs."""
    naming = {c.slug: c.slug for c in table.columns}
    if not user_matching(table):
        return naming
    bases: dict[str, list[Any]] = {}
    for column in table.columns:
        bases.setdefault(_SLUG_COUNTER.sub("", column.slug), []).append(column)
    renamed = {
        c.slug: "_".join(header_words(c)) or c.slug
        for shared in bases.values()
        if len(shared) > 1
        for c in shared
    }
    while True:  # a name two columns would share tells them apart no better than their slugs
        alike = Counter({**naming, **renamed}.values())
        clashing = [slug for slug, name in renamed.items() if alike[name] > 1]
        if not clashing:
            break
        for slug in clashing:
            del renamed[slug]
    naming.update(renamed)
    return naming


#: Adverbs that name the column of their adjective: "when did it actually land" asks of `Actual`.
_ADVERB_ADJECTIVES = {
    "actually": "actual",
    "originally": "original",
    "initially": "initial",
    "officially": "official",
}


def _adverbs_read(words: Sequence[str]) -> set[str]:
    """The adjectives of the question's adverbs of `_ADVERB_ADJECTIVES`."""
    return {_ADVERB_ADJECTIVES[w] for w in words if w in _ADVERB_ADJECTIVES}


def answers_blank(answer: Sequence[Any]) -> bool:
    """Whether an answer is blank cells alone (a `hop` to an empty cell, the `mode` of a column of
    blanks): what a user would read as no answer."""
    return bool(answer) and all(isinstance(value, str) and not value.strip() for value in answer)


def names_best(program_text: str, column_match: dict[str, float]) -> bool:
    """Whether the question names the column a program's last expression reads more than any other column
    (`AnnotatedQuestion.column_match`): "what is Viktor Petrov's 3P%?" names `3P%` above `FG%`, so a blank
    cell there is the answer."""
    try:
        program = P.Program.parse(program_text)
    except (GrammarError, ValueError):
        return False
    column = _compared_column(program.exprs[-1]) if program.exprs else None
    if column is None:
        return False
    scores: dict[str, float] = {}
    for name, score in column_match.items():
        slug = P.Column(name).slug
        scores[slug] = max(scores.get(slug, 0.0), score)
    best = scores.get(column.slug, 0.0)
    return best > 0 and all(score < best for slug, score in scores.items() if slug != column.slug)


def echoes_question(
    program_text: str, answer: Sequence[Any], env: Any = None, named: Collection[str] = ()
) -> bool:
    """Whether a program only repeats what the question said: it keeps the rows whose column holds a text
    the question names, then shows that column, and every cell it shows is that text ("reason for
    RMA-24163?" answered `RMA-24163`). A cell that holds more than the text ("Boston Red Sox" for "boston")
    is an answer. So is the text where it is one of `named` (the values of the pairs the question names), two
    or more of which cells of that column of `env`'s table hold: "which sold more, A or B?" picks one of its
    own names."""
    try:
        program = P.Program.parse(program_text)
    except (GrammarError, ValueError):
        return False
    if len(program.exprs) < 2 or not answer:
        return False
    kept, shown = program.exprs[-2:]
    if kept.function != "filter_str_contain_any" or shown.function != "hop":
        return False
    literal, column = kept.args[1], kept.args[2]
    if not isinstance(literal, P.Literal) or len(literal.values) != 1 or not isinstance(column, P.Column):
        return False
    last = shown.args[-1]
    if not (
        isinstance(last, P.Column)
        and last.slug == column.slug
        and all(str(value) == str(literal.values[0]) for value in answer)
    ):
        return False
    if env is None:
        return True
    return not (str(literal.values[0]) in named and _names_held(env, column.name, named) >= 2)


def _names_held(env: Any, property_name: str, named: Collection[str]) -> int:
    """How many of the texts `named` some cell of the table's column `property_name` holds."""
    column = next((c for c in env.table.columns if c.property_name("string") == property_name), None)
    if column is None:
        return 0
    return sum(holds_all(column, (name,)) for name in set(named) if name)


def rerank_features(
    problem: Any, env: Any, candidates: Sequence[tuple[str, float, Sequence[Any]]]
) -> list[list[str]]:
    """The sparse feature names of each candidate (program text, beam probability, answer), given in beam
    order, of the question `problem` (an `Example`: its `question` is the annotation) over the table that
    `env` is bound to. A program text that does not read gets none."""
    question = problem.question
    text = question.text.lower()
    words = _WORD.findall(text)
    word_set = set(words)
    grams = words + [f"{a}_{b}" for a, b in zip(words, words[1:], strict=False)]
    lists = [e for e in question.entities if e.kind == "string" and is_list(e, question.tokens)]
    # a list stands for its parts (`annotate.listed_entities`): it is not counted beside them
    named_entities = {
        k: sum(1 for e in question.entities if e.kind == k and e not in lists) for k in _ENTITY_KINDS
    }
    list_values = {tuple(e.values) for e in lists}
    asked = _asked_number(question.tokens, question.pos_tags)
    user = user_matching(env.table)
    if user:  # WTQ's reranker was fitted without
        word_set |= _adverbs_read(words) | _abbreviations_read(words, env.table)
        # a header's symbol is a word of its slug ("(% of GDP)": percent_of_gdp), so the question's is too
        word_set |= {word for symbol, word in env.table.rules.header_symbols.items() if symbol in text}
    naming = column_naming(env.table)
    named_columns = {slug for slug, name in naming.items() if _words_named(name, word_set)}
    opening = next((t for t in question.tokens if t in _ASKING or t == "how"), "none")
    key = _key_column(env.table)
    balance_named = names_balance(env.table)
    changes = {
        c
        for i in range(len(words))
        if (c := change_direction(words, i)) is not None and not (balance_named and words[i] in BALANCE_WORDS)
    }
    if user:  # "negative growth" of a column of both signs is below 0, as "fell" is; WTQ's fit had neither
        changes |= {
            _SIGN_CHANGES[w]
            for i, w in enumerate(words)
            if w in _SIGN_CHANGES and not spells_column_name(words, i, env.table)  # "negative reviews"
        }
    columns = {c.slug: c for c in env.table.columns}
    read_columns: dict[str, _Compared] = {}
    said_bounds = bounds(_WORD.findall(_HYPHENED_NUMBER.sub(" ", text)), _is_value)
    texts = {c.slug for c in env.table.columns if set(c.views) == {"string"}}
    possessive = _POSSESSIVE.search(text) is not None
    asked_columns = _asked_columns(words, naming, user, texts, possessive, _request_words(text)) or (
        _when_columns(words, env.table) if user else set()
    )
    measured = measured_nouns(words)
    out = []
    for program_text, _, answer in candidates:
        answer = list(answer or [])
        try:
            program = P.Program.parse(program_text)
        except (GrammarError, ValueError):
            out.append([])
            continue
        functions = sorted({e.function for e in program.exprs})
        last = program.exprs[-1].function
        kind = _answer_kind(answer)
        size = "one" if len(answer) == 1 else ("many" if answer else "zero")
        echo = any(isinstance(v, str) and v and v.lower() in text for v in answer)
        literals = [a for e in program.exprs for a in e.args if isinstance(a, P.Literal)]
        used_columns = {_slug(a) for e in program.exprs for a in e.args} - {None}
        sparse = [f"f={f}" for f in functions] + [
            f"last={last}",
            f"kind={kind}",
            f"size={size}",
            f"len={len(program.exprs)}",
            f"echo={echo}",
            f"last={last}|kind={kind}",
            f"asked={asked}|size={size}",
            f"asked={asked}|last={last}",
            f"mentioned_unused={min(len(named_columns - used_columns), 2)}",
            f"used_unmentioned={min(len(used_columns - named_columns), 3)}",
        ]
        # a total's pick shows its key column's values as a `hop` of it would: described as one, so that
        # what the fit learned of the column a program shows holds for it too
        shows = "hop" if last in _SHOWING_TOTALS else last
        if shows == "hop":
            # what a program shows: the value it compared ("what was the highest price", and "the most
            # expensive item" misread) or the rows' names ("which store")
            shown = _slug(returned_column(program.exprs[-1], env.spec))
            compared = {_slug(_compared_column(e)) for e in program.exprs if e.function in _COMPARING} - {
                None
            }
            if compared:
                sparse.append(f"shows_compared={shown in compared}|opening={opening}")
            sparse.append(f"shows_key={shown is not None and shown == key}|asked={asked}")
        final_columns = [a for a in program.exprs[-1].args if isinstance(a, P.Column)]
        if final_columns:
            final = (
                returned_column(program.exprs[-1], env.spec) if last in _SHOWING_TOTALS else final_columns[-1]
            )
            assert isinstance(final, P.Column)
            final_named = final.slug in named_columns
            sparse.append(f"final_column_named={final_named}|last={shows}")
            sparse.append(f"final_column_view={final.view}")
            if asked_columns:
                sparse.append(f"final_asked={final.slug in asked_columns}|last={shows}")
        if measured:
            for e in program.exprs:
                compared_column = _compared_column(e) if e.function in _MEASURING else None
                if compared_column is not None:
                    parts = set(compared_column.slug.split("_"))
                    sparse.append(f"measured={bool(parts & measured)}|f={e.function}")
        sparse += _bound_features(program, said_bounds)
        sparse += _direction_features(program, words, changes, columns, read_columns, user)
        for k in _ENTITY_KINDS:
            # a list's literal uses each of its parts
            used = sum(
                len(a.values) if tuple(a.values) in list_values else 1 for a in literals if a.kind == k
            )
            unused = named_entities[k] - used
            sparse.append(f"unused_{k}={min(max(unused, 0), 2)}")
        for w in grams:
            sparse.append(f"w={w}|last={last}")
            sparse.extend(f"w={w}|f={f}" for f in functions)
            sparse.append(f"w={w}|kind={kind}")
            sparse.append(f"w={w}|size={size}")
        out.append(sparse)
    return out


def program_readings(problem: Any, env: Any, programs: Sequence[str]) -> tuple[str, list[str]]:
    """The question's text and each program read as English (`lang.gloss`, from the grammar's glosses of
    the language `env` speaks, each column by what names it, `column_naming`); "" for a program that does not
    read."""
    names = column_naming(env.table)
    readings = []
    for text in programs:
        try:
            readings.append(gloss(text, env.spec, names))
        except (GrammarError, ValueError):
            readings.append("")
    return problem.question.text, readings


#: The most column names a matcher reads of a table (the first ones).
DESCRIBED_COLUMNS = 16


def table_description(problem: Any, env: Any) -> str:
    """What a matcher reads of a table beside the question: its column names, as the file writes them
    (their line breaks as spaces)."""
    return "columns: " + "; ".join(" ".join(c.header.split()) for c in env.table.columns[:DESCRIBED_COLUMNS])
