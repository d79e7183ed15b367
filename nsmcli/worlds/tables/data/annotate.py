"""Question annotation without CoreNLP: tokens, POS trigger tags, entities and MAPO's features.

The WTQ training questions come without CoreNLP tags, so we produce what MAPO reads from the tagged files
(spec §2.1, §2.2, §2.6) in pure Python: PTB-like tokens, a heuristic POS tagger good enough for the
comparative/superlative trigger words, CoreNLP-style NUMBER/DATE mentions (`textnum.find_quantities`),
string entities matched against the table's cells, the per-token in-table feature and the per-property
question-match feature, plus the `targetCanon` canonical answer that the official evaluator needs.

String entities are linked on word boundaries by default (`linking="word"`): a question n-gram must occur in
a cell as whole words, so "many" does not link to "Germany" nor "april 1" to "April 10". MAPO linked any
substring of a cell (spec §2.2, §8.2 item 12); `linking="substring"` reproduces that.
"""

from __future__ import annotations

import math
import re
import weakref
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from nsmcli.errors import DataError
from nsmcli.worlds.tables.data import lexicon, textnum, units
from nsmcli.worlds.tables.data.table import Column, Table
from nsmcli.worlds.tables.data.units import Unit
from nsmcli.worlds.tables.data.valuerules import (
    HeaderWords,
    header_magnitude,
    is_currency_code,
    names_identifier,
    number_noun,
    race_seconds,
    said_power,
    short_month_year,
    states_money,
)
from nsmcli.worlds.tables.data.values import Date, contains_words, normalize, normalize_user, without_accents

#: NLTK's English stop words, contraction pieces, the empty string and punctuation (MAPO's stop_words.json).
STOP_WORDS = (
    frozenset(
        """i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself yourselves he
    him his himself she she's her hers herself it it's its itself they them their theirs themselves what which
    who whom this that that'll these those am is are was were be been being have has had having do does did
    doing a an the and but if or because as until while of at by for with about against between into through
    during before after above below to from up down in out on off over under again further then once here
    there when where why how all any both each few more most other some such no nor not only own same so than
    too very s t can will just don don't should should've now d ll m o re ve y ain aren aren't couldn
    couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma mightn mightn't
    mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't weren weren't won won't wouldn
    wouldn't 's 't 'd 'll 're 've 'm n't""".split()
    )
    | frozenset(["", '"'])
    | frozenset("? . , : ; ! - -- `` '' ` ' -lrb- -rrb- -lsb- -rsb- -lcb- -rcb- ... & / % $ #".split())
)

ENTITY_KINDS = ("string", "number", "date")

#: How question n-grams are matched against cell text: as whole words, or as any substring (MAPO's way).
LINKING_MODES = ("word", "substring")
#: Word linking answered more dev questions with both bundled models (BENCHMARKS.md, "Entity linking").
DEFAULT_LINKING = "word"


# ---------------------------------------------------------------------------------------------------------
# Tokens and POS tags
# ---------------------------------------------------------------------------------------------------------


def tokenize(text: str) -> list[str]:
    """Lower-cased PTB-like tokens, as in the tagged files' `tokens` ("didn't" -> "did", "n't")."""
    return [t.lower() for t in textnum.ptb_tokenize(text)]


_ADJECTIVES = frozenset(
    """high low long short large small big old young early late fast slow great close far heavy light tall deep
    wide near hot cold strong weak rich poor new easy hard quick busy happy few fine large thin thick wet dry
    warm cool safe loud quiet cheap dear rare common bright dark clean long brief tough broad steep nice
    wealthy healthy lucky pretty ugly simple narrow shallow mighty tiny huge low fat dense sharp smart
    wild calm mild soft firm fierce""".split()
)
_FIXED_TAGS = dict(
    pair.rsplit("/", 1)
    for pair in """more/JJR less/JJR fewer/JJR better/JJR worse/JJR greater/JJR most/JJS least/JJS fewest/JJS best/JJS
    worst/JJS greatest/JJS top/JJ bottom/JJ first/JJ last/JJ next/JJ previous/JJ what/WP who/WP whom/WP
    whose/WP$ which/WDT when/WRB where/WRB how/WRB why/WRB the/DT a/DT an/DT this/DT that/DT these/DT
    those/DT each/DT every/DT all/DT any/DT some/DT no/DT is/VBZ are/VBP was/VBD were/VBD be/VB been/VBN
    did/VBD does/VBZ do/VBP has/VBZ have/VBP had/VBD and/CC or/CC but/CC not/RB n't/RB than/IN of/IN
    in/IN on/IN at/IN by/IN for/IN with/IN from/IN after/IN before/IN between/IN to/TO 's/POS he/PRP
    she/PRP it/PRP they/PRP his/PRP$ her/PRP$ its/PRP$ their/PRP$ ?/. ./. !/. ,/, :/: ;/:""".split()
)


def _base_of(word: str, suffix: str) -> str | None:
    """The adjective a comparative/superlative comes from ("bigger" -> "big", "earliest" -> "early")."""
    return next((base for base in lexicon.base_forms(word[: -len(suffix)]) if base in _ADJECTIVES), None)


def pos_tags(tokens: list[str]) -> list[str]:
    """Heuristic Penn tags. Only JJR/JJS/RBR/RBS matter (MAPO's exploration triggers); the rest is coarse."""
    tags = []
    for i, tok in enumerate(tokens):
        t = tok.lower()
        nxt = tokens[i + 1].lower() if i + 1 < len(tokens) else ""
        if t in ("more", "less") and nxt.endswith("ly"):
            tags.append("RBR")
        elif t in ("most", "least") and nxt.endswith("ly"):
            tags.append("RBS")
        elif t in _FIXED_TAGS:
            tags.append(_FIXED_TAGS[t])
        elif textnum.number_token(t) is not None:
            tags.append("CD")
        elif t.endswith("est") and len(t) > 4 and _base_of(t, "est"):
            tags.append("JJS")
        elif t.endswith("er") and len(t) > 3 and _base_of(t, "er"):
            tags.append("JJR")
        elif re.fullmatch(r"[^\w]+", t):
            tags.append(":")
        elif t.endswith("ly"):
            tags.append("RB")
        elif t.endswith("ing"):
            tags.append("VBG")
        elif t.endswith("ed"):
            tags.append("VBD")
        elif t.endswith("s") and not t.endswith("ss") and len(t) > 3:
            tags.append("NNS")
        else:
            tags.append("NN")
    return tags


# ---------------------------------------------------------------------------------------------------------
# Entities
# ---------------------------------------------------------------------------------------------------------


@dataclass
class Entity:
    """A question constant: kind "string" | "number" | "date", its values (normalised strings, floats or
    Dates) and its token span [start, end)."""

    kind: str
    values: tuple
    start: int
    end: int


@dataclass
class _TableIndex:
    """What annotation needs from one table, computed once: every string cell joined (for substring tests),
    the set of cell numbers and dates, the property names with their slug pieces, and what the user readings
    of questions ask of the table."""

    joined: str
    numbers: frozenset[float]
    dates: frozenset[Date]
    properties: list[tuple[str, tuple[str, ...]]]
    #: whether a column's numbers hold both signs (then words of falling and rising compare with 0)
    signed_column: bool = False
    #: the power of ten the headers count in (`_header_power`)
    header_power: int | None = None
    #: the units the table's columns of quantities are stated in (`valuerules.ValueRules.quantity_unit`)
    units: tuple[Unit, ...] = ()
    #: whether a text column has blank cells beside cells with text (`_has_blank_cells`)
    blanks: bool = False
    #: each column's name, as the words of `column_name_pieces`
    names: frozenset[tuple[str, ...]] = frozenset()
    #: on user tables, the cells of columns that write US states by postal code, every filled cell one
    state_codes: frozenset[str] = frozenset()
    #: on user tables, the playing positions' codes of the positions columns (`_position_cells`)
    position_codes: frozenset[str] = frozenset()
    #: on user tables, the cells of columns whose filled cells repeat (a status, a condition), or which have
    #: too few filled cells to tell: where an adjective's or a verb's base may link a whole cell
    repeated_cells: frozenset[str] = frozenset()
    #: on user tables, the cells of columns where some filled cell repeats (a department, a status), which a
    #: word of a column's name may still mean (`_names_a_column`)
    category_cells: frozenset[str] = frozenset()
    #: on user tables, the words a question names a sports table's coded columns by
    #: (`HeaderWords.league_words`: "goals allowed" of `GA`), by property name
    league_words: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: on user tables, the letters of each property whose header is an acronym (`_acronyms`: `SR`, `RBI`)
    acronyms: dict[str, str] = field(default_factory=dict)
    #: the words of every property's name (`properties`' pieces)
    piece_words: frozenset[str] = frozenset()
    #: on user tables, the cells a question's word may cut short (`_cut_cells`: `juv` of "juveniles")
    cut_cells: frozenset[str] = frozenset()
    #: on user tables, the units of time that plain number columns' names say (`_units_named_by_headers`)
    named_units: tuple[Unit, ...] = ()

    #: the words that name only columns of plain numbers, where headers count in a power (`_plain_words`)
    plain_words: frozenset[str] = frozenset()
    #: whether the table is a user's, read by the user rules (a grade's sign makes another grade there)
    user: bool = False

    def has_substring(self, text: str) -> bool:
        return bool(text) and text in self.joined

    def has_words(self, text: str) -> bool:
        """Whether `text` occurs in some string cell as whole words (see `values.word_pattern`)."""
        return contains_words(text, self.joined, grades=self.user)

    def has_match(self, text: str, linking: str) -> bool:
        return self.has_words(text) if linking == "word" else self.has_substring(text)

    def has_cell(self, text: str) -> bool:
        """Whether some string cell is `text`, whole (cells are joined by newlines)."""
        if not text:
            return False
        cells = self.joined
        return (
            cells == text
            or cells.startswith(text + "\n")
            or cells.endswith("\n" + text)
            or f"\n{text}\n" in cells
        )


_INDEX_CACHE: dict[int, tuple[weakref.ref, _TableIndex]] = {}


def column_name_pieces(slug: str) -> tuple[str, ...]:
    """The words of a column slug that the column-question match counts: `_` pieces minus stop words."""
    return tuple(p for p in slug.split("_") if p and p not in STOP_WORDS)


#: Stop words that may be a whole header's name (`Won`; "won" is a stop word for "won't", `When`, `Where`),
#: unlike words of comparing or place (`Over` of a cricket table would match every "over 100").
_NAMING_STOP_WORDS = frozenset({"won", "when", "where", "who"})


def _user_name_pieces(slugs: list[str]) -> list[tuple[str, ...]]:
    """The words of each user header (by slug) that the column match counts: `column_name_pieces`, or, for
    a header of stop words alone, those of `_NAMING_STOP_WORDS` (`Won`), which would match nothing else;
    then the English words of those a German, French or Spanish export writes
    (`lexicon.header_translation`: `Anwesenheitsquote` is also "rate" and "attendance"), a compound's
    modifying words only where no other header holds them (`Umsatzsteuer` beside `Umsatz` is a tax, not
    the revenue)."""
    own = [
        column_name_pieces(slug) or tuple(p for p in slug.split("_") if p in _NAMING_STOP_WORDS)
        for slug in slugs
    ]
    translated = [[lexicon.header_translation(piece) for piece in pieces] for pieces in own]
    heads = [
        {w for named, _ in words for w in named} | set(pieces)
        for pieces, words in zip(own, translated, strict=True)
    ]
    held = Counter(w for words in heads for w in words)  # how many headers hold each word
    out = []
    for pieces, words, own_heads in zip(own, translated, heads, strict=True):
        english = [w for named, _ in words for w in named]
        english += [w for _, modifiers in words for w in modifiers if held[w] == (w in own_heads)]
        out.append((*pieces, *dict.fromkeys(w for w in english if w not in pieces)))
    return out


#: Words joined by hyphens in a header (`In-migration`, `On-time`, `Out-of-stock`).
_HYPHENED = re.compile(r"\b[a-z]+(?:-[a-z]+)+\b")


def _stop_word_compounds(header: str) -> tuple[str, ...]:
    """The hyphened words of a user's header that open with a stop word (`In-migration`, `Out-migration`),
    each as one word: the stop word alone counts for no column, so `In-migration` and `Out-migration` would
    both be just "migration" to the question's "in-migration"."""
    return tuple(w for w in _HYPHENED.findall(header.lower()) if w.split("-", 1)[0] in STOP_WORDS)


def table_index(table: Table) -> _TableIndex:
    """The (cached) annotation index of a table; the cache follows the table object's lifetime."""
    key = id(table)
    hit = _INDEX_CACHE.get(key)
    if hit is not None and hit[0]() is table:
        return hit[1]
    strings: list[str] = []
    numbers: set[float] = set()
    dates: set[Date] = set()
    for column in table.columns:
        strings.extend(v for v in column.views.get("string", ()) if v)
        for kind in ("number", "num2"):
            numbers.update(v for v in column.views.get(kind, ()) if v is not None)
        dates.update(v for v in column.views.get("date", ()) if v is not None)
    user = table.rules.user_question_readings
    if user:
        slugs = [c.slug for c in table.columns]
        pieces_of = {
            c.slug: (*pieces, *_stop_word_compounds(c.header))
            for c, pieces in zip(table.columns, _user_name_pieces(slugs), strict=True)
        }
    else:
        pieces_of = {c.slug: column_name_pieces(c.slug) for c in table.columns}
    properties = [(name, pieces_of[column.slug]) for name, column, _kind in table.properties()]
    signed = any(is_signed(c) for c in table.columns)
    column_units = [table.quantity_unit(c) if "number" in c.views else None for c in table.columns]
    league_words = _league_words(table)
    piece_words = frozenset(p for _, pieces in properties for p in pieces)
    index = _TableIndex(
        "\n".join(strings),
        frozenset(numbers),
        frozenset(dates),
        properties,
        signed,
        _header_power(table),
        tuple(dict.fromkeys(u for u in column_units if u is not None)),
        any(_has_blank_cells(c) for c in table.columns),
        frozenset(column_name_pieces(c.slug) for c in table.columns),
        named_units=_units_named_by_headers(table) if user else (),
        state_codes=_state_code_cells(table) if user else frozenset(),
        position_codes=_position_cells(table) if user else frozenset(),
        repeated_cells=_repeated_cells(table) if user else frozenset(),
        category_cells=_category_cells(table) if user else frozenset(),
        league_words=league_words,
        acronyms=_acronyms(table, league_words) if user else {},
        piece_words=piece_words,
        cut_cells=_cut_cells(table, piece_words) if user else frozenset(),
        plain_words=_plain_words(table) if user else frozenset(),
        user=user,
    )
    _INDEX_CACHE[key] = (weakref.ref(table, lambda _ref, k=key: _INDEX_CACHE.pop(k, None)), index)
    return index


def _as_written(tokens: list[str]) -> str:
    """The normalised text of `tokens` as a cell writes them: words apart, the clitics that the tokenizer
    split off joined back to the word before ("margie 's travel" -> "margie's travel", which no single
    separator gives)."""
    return normalize("".join(t if k == 0 or t in textnum.CLITICS else " " + t for k, t in enumerate(tokens)))


_AND_SIGN = {"and": "&", "&": "and"}


def _joinings(span: list[str], linking: str, ampersand: bool = False) -> Iterator[str]:
    """The texts a span of tokens may stand for in a cell, most likely first: joined by a space, a hyphen or
    nothing, and with word linking also as written (`_as_written`); with `ampersand`, also with "and" and
    "&" swapped ("O'Neil and Sons" is the cell `O'Neil & Sons`)."""
    for sep in (" ", "-", ""):
        yield normalize(sep.join(span))
    if linking == "word":
        yield _as_written(span)
        if ampersand and any(t in _AND_SIGN for t in span):
            yield _as_written([_AND_SIGN.get(t, t) for t in span])


def _string_entities(
    tokens: list[str], index: _TableIndex, linking: str, user_readings: bool = False
) -> list[Entity]:
    """Non-stop-word tokens found in some string cell, expanded to the right while the joined text (with a
    space, a hyphen or nothing between; with word linking also as written, clitics joined, and "and" for
    "&" with `user_readings`) is still found; trailing stop words are not kept, and a leading one only with
    `user_readings` where it opens a whole cell (`_cell_opening`); with `user_readings` a trailing one is
    kept where the span is a whole cell ("hall a"), and a single word that names a column (`_names_a_column`:
    "which model is the cheapest?" of a `model` column) is not read as a cell that holds it. `linking`
    says what found means (`LINKING_MODES`); MAPO's substring linking is reproduced as it was."""
    out: list[Entity] = []
    i = 0
    n = len(tokens)
    while i < n:
        tok = tokens[i]
        value = normalize(tok)
        if user_readings and tok.endswith("+") and index.has_match(normalize_user(tok), linking):
            value = normalize_user(tok)  # "rated bb+" of a user's cell `BB+`, which keeps its sign
        opening = _cell_opening(tokens[i : i + 2], index, linking) if user_readings else None
        if opening is None and (
            tok in STOP_WORDS or value in STOP_WORDS or not index.has_match(value, linking)
        ):
            i += 1
            continue
        end, best = (i + 1, value) if opening is None else (i + 2, opening)
        j = end
        while j < n:
            grown = None
            span = tokens[i : j + 1]
            for candidate in _joinings(span, linking, ampersand=user_readings):
                if index.has_match(candidate, linking):
                    grown = candidate
                    break
            if grown is None and user_readings:
                # "dental assistants" of cells `Dental Assistant`: the span ends in the other number
                grown = _inflected_ending(span, index, linking)
                if grown is not None:
                    end, best = j + 1, grown
                break
            if grown is None:
                break
            j += 1
            # "in hall a" of a cell `Hall A`: a stop word at the end is kept where the span is a whole cell
            if tokens[j - 1] not in STOP_WORDS or (user_readings and index.has_cell(grown)):
                end, best = j, grown
        # counted rows only where no noun follows that the word would modify ("how many eagles games")
        following = tokens[end] if end < n else ""
        counted = (
            user_readings
            and end == i + 1
            and tokens[max(0, i - 2) : i] == ["how", "many"]
            and (following in STOP_WORDS or not following.isalpha() or following.endswith("ed"))
        )
        # a word naming a column ("which model is the cheapest?") is no cell that holds it; nor is "how many
        # runners finished ..." a club `Harbour Runners`
        no_cell = (
            user_readings
            and end == i + 1
            and (_names_a_column(best, index) or _in_a_named_column(best, i, tokens, index))
        )
        if not no_cell and not (counted and not index.has_cell(best) and best.endswith("s")):
            out.append(Entity("string", (best,), i, end))
        i = end
    return out


def _names_a_column(word: str, index: _TableIndex) -> bool:
    """Whether a single linked word names a column rather than the cells that hold it: a column's whole name
    in either number ("plants" of a `Plant` column, not a supplier `Hillside Plants`), or a word of a longer
    name that only free text holds, in columns whose cells do not repeat ("how many donors attended" of a `Donors
    Attended` column, not the comment "donors redirected to Mill Lane"). A cell of a column of repeated
    values keeps the word ("how many people work in sales?" of a department `Sales team` beside a `Total
    Sales` column), and so does a cell that is the word alone ("home" of a column of `Home` and `Away`)."""
    if index.has_cell(word):
        return False
    forms = (word, *inflections(word))
    if any((form,) in index.names for form in forms):
        return True
    if not index.piece_words.intersection(forms):
        return False
    return not any(contains_words(word, cell, grades=True) for cell in index.category_cells)


def _divides_by(entity: Entity, tokens: list[str], index: _TableIndex) -> bool:
    """Whether a string entity is the one word after "per", the rows an amount is divided by ("the average
    nights per booking", "the cheapest plan per month"), rather than cells that hold it (`Booking.com`, `24
    months`); a cell that is the word, or opens with it, keeps it ("the price per adult" of `Adult ticket`)."""
    word = entity.values[0]
    return (
        entity.end == entity.start + 1
        and tokens[entity.start - 1 : entity.start] == ["per"]
        and not index.has_cell(word)
        and not (index.joined.startswith(f"{word} ") or f"\n{word} " in index.joined)
    )


def _in_a_named_column(word: str, at: int, tokens: list[str], index: _TableIndex) -> bool:
    """Whether a single linked word (token `at`) is one word of a column's longer name whose every word the
    question says ("how many team members were deployed" of `Team deployed`, not the outcome `Walked off with
    team`); a cell that is the word alone keeps it, and so does a word the question says twice ("the total
    sales of the people in sales") where this time is neither beside another word of the name ("the tree ID")
    nor right after "which" or "what" ("which tree has the biggest girth?")."""
    if index.has_cell(word):
        return False
    said = {form for t in tokens for form in (t, *inflections(t))}
    names = [name for name in index.names if len(name) > 1 and word in name and said.issuperset(name)]
    if not names:
        return False
    # said again, the other time may name the column: not where this time a word of the name is beside it
    # ("the tree ID"), or it follows "which" ("which tree has ...")
    forms = {word, *inflections(word)}
    beside = set(tokens[max(at - 1, 0) : at] + tokens[at + 1 : at + 2])
    return (
        sum(t in forms for t in tokens) == 1
        or any(beside & (set(name) - {word}) for name in names)
        or tokens[at - 1 : at] in (["which"], ["what"])
    )


def _inflected_ending(span: list[str], index: _TableIndex, linking: str) -> str | None:
    """The text of a span of two words or more whose last word, in its other number (`inflections`), makes
    it words that some cell holds ("dental assistants" of `Dental Assistant`, "kid shoe" of `Kid Shoes`);
    None when no form does, or the last word is short, a stop word or not a word."""
    last = normalize(span[-1])
    if len(span) < 2 or last in STOP_WORDS or len(last) < 4 or not last.isalpha():
        return None
    for form in inflections(last):
        for candidate in _joinings([*span[:-1], form], linking):
            if index.has_match(candidate, linking):
                return candidate
    return None


def _cell_opening(span: list[str], index: _TableIndex, linking: str) -> str | None:
    """A stop word and the word after it where together they are a whole cell ("how many tasks are not
    started?" of a column of `Not started`, "in progress"): the cell's text, or None. Alone, the stop word
    links nothing, and the next word only part of the cell."""
    if len(span) < 2 or span[0] not in STOP_WORDS or span[1] in STOP_WORDS:
        return None
    return next((c for c in _joinings(span, linking) if index.has_cell(c)), None)


def _covered(entities: Sequence[Entity]) -> set[int]:
    """The token positions that `entities` cover."""
    return {k for e in entities for k in range(e.start, e.end)}


#: Words that make a demonym another country's: "North Korean" is not South Korea's, "East German" not
#: Germany's.
_COMPASS = frozenset("north south east west northern southern eastern western central".split())


def _demonym_entities(tokens: list[str], strings: list[Entity], index: _TableIndex) -> list[Entity]:
    """The country a demonym names where a cell is that country, whole, and the word itself links to none
    ("the German stores": Germany; `lexicon.DEMONYMS`); none after a compass word ("North Korean")."""
    linked = _covered(strings)
    out = []
    for i, token in enumerate(tokens):
        if i in linked or token not in lexicon.DEMONYMS or (i > 0 and tokens[i - 1] in _COMPASS):
            continue
        country = next((c for c in lexicon.DEMONYMS[token] if index.has_cell(c)), None)
        if country is not None:
            out.append(Entity("string", (country,), i, i + 1))
    return out


def _country_name_entities(
    tokens: list[str], cased: list[str], strings: list[Entity], index: _TableIndex
) -> list[Entity]:
    """A country named one way where the table's cells name it another, whole ("the UK universities" of
    `United Kingdom`, "US dates" of `USA`; `lexicon.COUNTRY_NAMES`), at words no entity covers; "us" only
    written "US"."""
    linked = _covered(strings)
    out = []
    for names in lexicon.COUNTRY_NAMES:
        held = next((name for name in names if index.has_cell(name)), None)
        if held is None:
            continue
        for length in (4, 3, 2, 1):
            for i in range(len(tokens) - length + 1):
                span = " ".join(tokens[i : i + length])
                if span == held or span not in names or linked.intersection(range(i, i + length)):
                    continue
                if i > 0 and tokens[i - 1] in _COMPASS:
                    continue  # "north korea" is not South Korea's
                after = tokens[i + length] if i + length < len(tokens) else ""
                if span in ("us", "usa") and after in ("dollar", "dollars", "$", "cents"):
                    continue  # "in US dollars" is a currency
                if span == "us" and (len(cased) != len(tokens) or cased[i] != "US"):
                    continue
                out.append(Entity("string", (held,), i, i + length))
                linked.update(range(i, i + length))
    return out


def _state_code_entities(tokens: list[str], strings: list[Entity], index: _TableIndex) -> list[Entity]:
    """A US state named in full where a column writes states by their postal codes, every filled cell one
    ("sales to texas customers" of a `State` column of `TX`, `CA`; `lexicon.US_STATES`), when the name links
    to no cell. The longest name wins ("west virginia" is WV, or nothing, never VA)."""
    if not index.state_codes:
        return []
    linked = _covered(strings)
    out = []
    i = 0
    while i < len(tokens):
        length = next(
            (
                n
                for n in (3, 2, 1)
                if i + n <= len(tokens) and " ".join(tokens[i : i + n]) in lexicon.US_STATES
            ),
            0,
        )
        if length and not any(k in linked for k in range(i, i + length)):
            code = lexicon.US_STATES[" ".join(tokens[i : i + length])]
            if code in index.state_codes:
                out.append(Entity("string", (code,), i, i + length))
        i += length or 1
    return out


def _weekday_entities(tokens: list[str], entities: list[Entity], index: _TableIndex) -> list[Entity]:
    """A weekday the question writes one way where the table's cells write it another ("on thursday" of a
    `Day` column of `Thu`, "on thurs" of one of `Thursday`; `lexicon.WEEKDAY_OF`), at a word no other
    entity covers and no column's name holds ("hours of sun" of a `Sun` column). A full name may be plural
    ("thursdays"); the short forms that are English words too ("sun", "sat", "wed", "mon") count only after a
    word that names a day ("on sat", "every wed")."""
    taken = _covered(entities)
    out = []
    for i, token in enumerate(tokens):
        forms = lexicon.WEEKDAY_OF.get(token)
        if (
            forms is None
            or i in taken
            or token in index.piece_words
            or index.has_cell(token)
            or (token in lexicon.WEEKDAY_WORDS and (i == 0 or tokens[i - 1] not in lexicon.BEFORE_A_DAY))
        ):
            continue
        cell = next((form for form in forms if index.has_cell(form)), None)
        if cell is not None:
            out.append(Entity("string", (cell,), i, i + 1))
    return out


def inflections(word: str) -> list[str]:
    """The other number of an English noun, most likely first: "thunderstorm" -> thunderstorms,
    thunderstormes; "cities" -> city, citie; "boxes" -> boxe, box. Guesses, which a table's cells confirm
    or not. A word that is no plural though it ends in "s" (`lexicon.NOT_PLURALS`) has no other number."""
    if word in lexicon.NOT_PLURALS:
        return []
    if word.endswith("ies"):
        return [word[:-3] + "y", word[:-1]]
    if word.endswith("es"):
        return [word[:-1], word[:-2]]
    if word.endswith("s") and not word.endswith("ss"):
        return [word[:-1]]
    return [word[:-1] + "ies", word + "s"] if word.endswith("y") else [word + "s", word + "es"]


def _inflected_entities(
    tokens: list[str], strings: list[Entity], index: _TableIndex, table: Table
) -> list[Entity]:
    """A word that links to no cell as it is, but does in its other number, whole ("the first thunderstorm"
    of a column of `Thunderstorms`, "e-bikes" of `E-bike`), as the noun of its adjective ("foggy" of
    `Fog`, `_adjective_bases`), as its verb's base or act ("failed" of `Fail` or `Failure`, `_verb_bases`)
    or as the adjective of its noun ("electricity" of `Electric`, `_adjective_of_noun`): the cell's form. Words of
    four letters or more only: a short word's other number is too often another word; and not a word of a
    column's name in either number ("how many laps" of a `Laps` column asks of the column, not of the
    cells `+1 lap`), unless a cell is that word alone ("rides by members" of a `Member Type` column of
    `Member` and `Casual`)."""
    linked = _covered(strings)
    named = index.piece_words
    out = []
    for i, token in enumerate(tokens):
        word = normalize(token)
        if i in linked or word in STOP_WORDS or len(word) < 4 or not word.replace("-", "").isalpha():
            continue
        # an adjective's or a verb's base is a guess that only a whole cell of a column of repeated values
        # confirms ("foggy" of `Fog`, "failed" of `Fail`): "directory" is no "director", though a `Sales
        # Director` holds the word, and "billed" no `Bill` among the names of a staff list
        guesses = _adjective_bases(word) + _verb_bases(word) + _adjective_of_noun(word)
        forms = inflections(word) + guesses
        if (word in named or named.intersection(forms)) and not _names_its_cell(word, table):
            continue
        form = next(
            (f for f in forms if (f in index.repeated_cells if f in guesses else index.has_words(f))), None
        )
        if form is not None:
            out.append(Entity("string", (form,), i, i + 1))
    return out


def _league_words(table: Table) -> dict[str, tuple[str, ...]]:
    """The words of `HeaderWords.league_words` of each property of a sports table's code (none without
    header words, as under the WTQ rules)."""
    words = table.rules.header_words
    if words is None:
        return {}
    slugs = {c.slug for c in table.columns}
    by_slug = {c.slug: words.league_words(c.slug, slugs) for c in table.columns}
    return {name: by_slug[column.slug] for name, column, _kind in table.properties() if by_slug[column.slug]}


#: An acronym header: two to four capitals and nothing else (`SR`, `HS`, `RBI`, `ERA`).
_ACRONYM = re.compile(r"[A-Z]{2,4}")


def _acronyms(table: Table, league: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """The letters of each property whose header is an acronym, by property name: a question names `SR` by
    "strike rate" and `RBI` by "runs batted in", the words whose initials it is (`_initials_named`). Not
    an acronym that the header words' abbreviations or a sports code already spell out (`league`, the
    table's `_league_words`), nor an identifier's (`ID`, `SKU`: "item description" is no `ID`) or a
    currency's code (`EUR`)."""
    words = table.rules.header_words
    if words is None:
        return {}
    return {
        name: column.slug
        for name, column, _kind in table.properties()
        if _ACRONYM.fullmatch(column.header.strip())
        and column.slug not in words.ABBREVIATIONS
        and name not in league
        and not names_identifier(column.header)
        and not is_currency_code(column.header.strip())
    }


def _initials_named(letters: str, tokens: list[str], in_table: list[int], column_words: set[str]) -> bool:
    """Whether consecutive question words have `letters` for initials ("strike rate" for `SR`): words, none
    part of a cell the question names and not all naming columns (`column_words`: "invoice date" names
    `Invoice Date`, while "home runs" is `HR` beside a `Runs` column), the first no stop word and, in an
    acronym of three letters or more, one stop word at most ("runs batted in" for `RBI`; "of a" is no
    `OA`)."""
    size = len(letters)
    for start in range(len(tokens) - size + 1):
        window = tokens[start : start + size]
        stops = sum(w in STOP_WORDS for w in window)
        if (
            "".join(w[0] for w in window) == letters
            and all(w.isalpha() for w in window)
            and window[0] not in STOP_WORDS
            and stops <= (1 if size >= 3 else 0)
            and not any(in_table[start : start + size])
            and not {w for w in window if w not in STOP_WORDS} <= column_words
        ):
            return True
    return False


def _state_code_cells(table: Table) -> frozenset[str]:
    """The cells of the columns that write US states by their postal codes, every filled cell one."""
    held: set[str] = set()
    for column in table.columns:
        filled = filled_cells(column)
        if filled and lexicon.US_STATE_CODES.issuperset(filled):
            held.update(filled)
    return frozenset(held)


_VOWELS = frozenset("aeiouy")
#: Endings that make another form of a whole word, not a word cut short.
_ENDINGS = frozenset({"er", "ers", "est", "ing", "ings", "ed", "es", "ly", "s"})
#: The shortest and the longest cut a category's cell may make of a word it abbreviates (`juv`, `compl`).
_ABBREVIATION_LENGTHS = (3, 5)


def _cut_cells(table: Table, piece_words: frozenset[str]) -> frozenset[str]:
    """The cells of three to five letters in columns of repeated values, two values or more (a column of one
    value filters nothing), that are neither a month's or a weekday's short form nor a word of a column's name:
    those a word of a question may cut short (`_abbreviated_entities`)."""
    shortest, longest = _ABBREVIATION_LENGTHS
    found: set[str] = set()
    for column in table.columns:
        filled = filled_cells(column)
        if repeats(column) and len(set(filled)) > 1:
            found |= {c for c in filled if c.isalpha() and shortest <= len(c) <= longest}
    return frozenset(found - piece_words - set(textnum.MONTHS) - textnum.WEEKDAYS)


def _abbreviated_entities(tokens: list[str], strings: list[Entity], index: _TableIndex) -> list[Entity]:
    """A word that links to nothing as written, where exactly one cell of a column of repeated values is its
    opening cut short: "how many juveniles did we ring" of an `Age` column of `ad` and `juv`, "absent" of
    `ABS`. The cut is three to five letters, ends where a vowel follows, and leaves two or more that are no
    ending of another form ("highest" is not `High`, "yesterday" not `Yes`); a month's or a weekday's short form is
    no cut ("marathon" is not `Mar`), a word of a column's name names the column ("rainfall" of a `Rain (mm)`
    column), and a column of one value only filters nothing."""
    linked = _covered(strings)
    shortest = _ABBREVIATION_LENGTHS[0]
    out = []
    for i, token in enumerate(tokens):
        word = normalize(token)
        if i in linked or word in STOP_WORDS or len(word) < shortest + 2 or not word.isalpha():
            continue
        if word in index.piece_words or index.piece_words.intersection(inflections(word)):
            continue
        opened = [
            cell
            for cell in index.cut_cells
            if word.startswith(cell)
            and len(word) >= len(cell) + 2
            and word[len(cell) :] not in _ENDINGS  # "highest" is no `high` cut short, "offering" no `offer`
            and word[len(cell)] in _VOWELS  # a cut ends a syllable: "juv|eniles"; "yes|terday" is no `yes`
        ]
        if len(opened) == 1:
            out.append(Entity("string", (opened[0],), i, i + 1))
    return out


def filled_cells(column: Column) -> list[str]:
    """A column's filled cells, in its string view."""
    return [str(cell) for cell in column.views.get("string", ()) if cell]


def repeats(column: Column) -> bool:
    """Whether some filled cell of the column is written more than once: a category, a status, a client."""
    filled = filled_cells(column)
    return len(set(filled)) < len(filled)


def _repeated_cells(table: Table) -> frozenset[str]:
    """The cells of the columns whose filled cells repeat (a status, a condition), not of one that names
    each row once; a column of a few cells may be either."""
    found: set[str] = set()
    for column in table.columns:
        filled = filled_cells(column)
        if repeats(column) or len(filled) < _FEW_CELLS:
            found |= set(filled)
    return frozenset(found)


#: Fewer filled cells than this say nothing of whether a column names its rows once each.
_FEW_CELLS = 4


def _category_cells(table: Table) -> frozenset[str]:
    """The cells of the columns where some filled cell repeats: a category's (`Sales team` twice), not free
    text's (comments, notes, each written once)."""
    return frozenset(cell for column in table.columns if repeats(column) for cell in filled_cells(column))


def _names_its_cell(word: str, table: Table) -> bool:
    """Whether a column that `word` names (in either number) holds a cell that is the word alone, in its
    other number: "members" of a `Member Type` column of `Member`."""
    forms = {word, *inflections(word)}
    return any(
        forms & set(column_name_pieces(column.slug)) and forms & set(column.views["string"])
        for column in table.columns
    )


def _verb_bases(word: str) -> list[str]:
    """The base forms a verb in -ed or -ing may come from, and the nouns of the act that the -ed stem makes:
    "failed" -> fail, failure; "closed" -> close, closure; "stopped" -> stop; "carried" -> carry; "arrived"
    -> arrival; "rejected" -> rejection; "buying" -> buy; "winning" -> win (a cell `Fail` or `Failure` of
    "how many launches failed?", `Buy` of "total spent buying BTC"). Guesses, as `inflections`."""
    if len(word) >= 5 and word.endswith("ied"):
        return [word[:-3] + "y"]
    if len(word) >= 5 and word.endswith("ed"):
        stem = word[:-2]
    elif len(word) >= 6 and word.endswith("ing"):
        stem = word[:-3]
    else:
        return []
    # "stopped" -> stop, but "called" is "call" (no "cal"), as "passed" and "filled"
    doubled = stem[-1] == stem[-2] and stem[-1] not in "lsfz"
    bases = [stem, stem + "e", stem[:-1]] if doubled else [stem, stem + "e"]
    # "wedding" is no `Wed`: a month's or a weekday's short form is no verb's base
    bases = [b for b in bases if b not in textnum.MONTHS and b not in textnum.WEEKDAYS]
    nouns = [stem + "ure", stem + "al", stem + "ion", stem + "ation"] if word.endswith("ed") else []
    return bases + nouns


def _adjective_bases(word: str) -> list[str]:
    """The nouns an adjective in -y may come from: "cloudy" -> cloud, "foggy" -> fogg, fog. Guesses, as
    `inflections`."""
    if len(word) < 5 or not word.endswith("y"):
        return []
    base = word[:-1]
    return [base, base[:-1]] if base[-1] == base[-2] else [base]


def _adjective_of_noun(word: str) -> list[str]:
    """The adjective a noun in -icity or -idity comes from: "electricity" -> electric, "humidity" -> humid
    (a cell `Electric` of "the most electricity"). Not other nouns in -ity: "majority" is no `Major`, nor
    "activity" `Active`."""
    if len(word) < 8 or not word.endswith(("icity", "idity")):
        return []
    return [word[:-3]]


#: Words that may stand between a column's name and its cell ("a letter grade of A", "group is B").
_NAME_TO_CELL = frozenset({"of", "is", "was", "=", ":", "equal", "equals"})


def _named_cell_entities(tokens: list[str], strings: list[Entity], table: Table) -> list[Entity]:
    """A word just after a column's name that is a whole cell of that column, a stop word or not ("how many
    students have a letter grade of A?", "in group b"): "a" alone links nothing elsewhere."""
    linked = _covered(strings)
    out = []
    for column in table.columns:
        pieces = column_name_pieces(column.slug)
        named_at = [k for k, token in enumerate(tokens) if pieces and token == pieces[-1]]
        # the cells only of a column the question names: a question's annotation stays cheap on a big table
        cells = set(column.views.get("string", ())) - {""} if named_at else set()
        for at in named_at if cells else ():
            k = at + 1
            while k < len(tokens) and k - at <= 2 and tokens[k] in _NAME_TO_CELL:
                k += 1
            if k < len(tokens) and k not in linked and normalize(tokens[k]) in cells:
                out.append(Entity("string", (normalize(tokens[k]),), k, k + 1))
    return out


#: A token of words joined by slashes ("plus/minus", "w/l"), not of numbers ("03/15", "1/2").
_WORDS_BY_SLASH = re.compile(r"[^\W\d_]+(?:/[^\W\d_]+)+")

#: Words of a column of places in an order ("who finished 10th?" of `Place`): there an ordinal is a number.
_RANK_WORDS = frozenset({"place", "rank", "ranking", "position", "pos", "standing", "finish", "placing"})


def _ranks(table: Table) -> bool:
    """Whether a column of whole numbers from 1 is a rank (`_RANK_WORDS`): there an ordinal is a number
    ("10th": 10); elsewhere "the 2nd highest" names no cell, and MAPO's preprocessing drops them. A
    `Finish Time` is named like a rank but holds no places."""
    return any(_RANK_WORDS & set(c.slug.split("_")) and _places(c) for c in table.columns)


def _places(column: Column) -> bool:
    """Whether a column's numbers are all places: whole, from 1 (blanks aside: a runner who did not finish)."""
    numbers = [v for v in column.views.get("number", ()) if v is not None]
    return bool(numbers) and all(v >= 1 and float(v).is_integer() for v in numbers)


_ARTICLES = frozenset({"the", "a", "an"})


def _either_or_entities(tokens: list[str], strings: list[Entity], user: bool = False) -> list[Entity]:
    """For "A or B" where A and B are linked cells: one entity of both values, spanning "A or B", so that
    one filter keeps both rows and a superlative can choose between them ("which was longer, A or B?").
    A cell holds one value, so a pair is only useful where a filter may match any of its values. On a
    user's table (`user`) a noun may follow A ("the Lumora job or the Corvid one"); WTQ's models were
    trained on the pairs as they were."""
    ending_at = {e.end: e for e in strings}
    out = []
    for second in strings:
        at = second.start - 1  # where the "or" between them stands
        if at >= 1 and tokens[at] in _ARTICLES:  # "the stud finder or the extension cord"
            at -= 1
        if at < 1 or tokens[at] != "or":
            continue
        first = ending_at.get(at - 1 if tokens[at - 1] == "," else at)  # "A, or B" too
        noun = tokens[at - 1]
        if first is None and user and noun.isalpha() and noun not in STOP_WORDS:
            first = ending_at.get(at - 1)
        if first is not None and first.values != second.values:
            out.append(Entity("string", first.values + second.values, first.start, second.end))
    return out


def listed_entities(tokens: list[str], strings: list[Entity]) -> list[Entity]:
    """For a question with a word of totals or averages (`lexicon.AGGREGATE_WORDS`) that names a list of
    linked cells, separated by commas, "the" and one "and" or "&" at least ("the combined GDP of France,
    Germany and the United Kingdom"): one entity of all their values, spanning the list, so that one filter
    keeps the rows of them all. Not after "between" (a difference or a span), and not without such a word: a
    list elsewhere ("Ann and Bo's scores") is read one name at a time, as the models learnt."""
    if not lexicon.AGGREGATE_WORDS & set(tokens):
        return []
    single = sorted((e for e in strings if len(e.values) == 1 and e.values[0] != ""), key=lambda e: e.start)
    out: list[Entity] = []
    run: list[Entity] = []
    for entity in [*single, None]:
        between = set(tokens[run[-1].end : entity.start]) if run and entity is not None else None
        if entity is not None and run and between and between <= {",", "the"} | lexicon.LIST_JOINS:
            run.append(entity)
            continue
        joined = set(tokens[run[0].end : run[-1].start]) if len(run) >= 2 else set()
        values = tuple(dict.fromkeys(v for e in run for v in e.values))
        # "between (the) A and B" is a difference or a span, not a list
        before = [t for t in tokens[: run[0].start] if t not in _ARTICLES] if run else []
        after_between = bool(before) and before[-1] == "between"
        if joined & lexicon.LIST_JOINS and len(values) >= 2 and not after_between:
            out.append(Entity("string", values, run[0].start, run[-1].end))
        run = [entity] if entity is not None else []
    return out


def is_list(entity: Entity, tokens: Sequence[str]) -> bool:
    """Whether a string entity names several things joined by "and" (`listed_entities`), not an either-or
    pair."""
    spanned = set(tokens[entity.start : entity.end])
    return len(entity.values) >= 2 and bool(lexicon.LIST_JOINS & spanned) and "or" not in spanned


def _quantity_entities(
    tokens: list[str], *, ordinals: bool, number_kinds: tuple[str, ...] = ("NUMBER",)
) -> list[Entity]:
    """Number and date entities; `number_kinds` are the mentions that give numbers (the table's value rules
    say which: under the user rules "12.5%" and "$1,000" are numbers, as the cells that write them are)."""
    out: list[Entity] = []
    for q in textnum.find_quantities(tokens):
        if q.kind in number_kinds or (ordinals and q.kind == "ORDINAL"):
            # a numeral beyond float range is no number a cell could equal, and no JSON can carry it
            out.extend(Entity("number", (float(v),), q.start, q.end) for v in q.values if math.isfinite(v))
        elif q.kind == "DATE":
            out.extend(Entity("date", (d,), q.start, q.end) for d in q.values)
    return out


#: The two cells of a yes/no column: the value that says yes, and the one that says no.
_YES_NO = (("yes", "no"), ("y", "n"), ("true", "false"))
_NEGATIONS = frozenset({"no", "not", "n't", "never", "without", "nor", "cannot", "none", "neither"})
#: How many words before a column's name a negation of it may stand ("who would not recommend").
_NEGATION_REACH = 3


def _yes_no_entities(tokens: list[str], table: Table) -> list[Entity]:
    """For each yes/no column whose name's last word the question holds ("recommend" of `Would
    Recommend`; "allow" of `Dogs Allowed`, by `HeaderWords.stem`): the cell the question means there,
    "yes", or "no" when a negation stands just before (a word of the name itself, the "no" of `No Show`, is
    none). A flag column (one mark, such as `Q` or `x`, and blanks) is read the same way: the mark, or the
    blank when negated ("how many swimmers qualified?" of a `Qualified` column of `Q`s). No question writes
    the cell, so no n-gram links it."""
    words = table.rules.header_words
    stems = [words.stem(t) if words is not None else t for t in tokens]
    out = []
    for column in table.columns:
        cells = set(column.views.get("string", ()))
        values = cells - {""}
        pair = next((pair for pair in _YES_NO if values == set(pair)), None)
        flag = "number" not in column.views and len(values) == 1 and "" in cells  # not a sparse `1`
        if pair is None and flag and len(next(iter(values))) <= 3:
            pair = (next(iter(values)), "")
        pieces = column_name_pieces(column.slug)
        if pair is None or not pieces:
            continue
        last = words.stem(pieces[-1]) if words is not None else pieces[-1]
        # "were pbs" of a `PB` column: a plural the stemmer leaves whole
        at = next(
            (k for k, t in enumerate(tokens) if t in (pieces[-1], pieces[-1] + "s") or stems[k] == last), None
        )
        # "unpaid" of a `Paid` column: the name with "un" before it, which negates it
        unnamed = next((k for k, t in enumerate(tokens) if _un_named(t, pieces[-1], last, words)), None)
        if at is None and unnamed is None:
            continue
        at = unnamed if at is None else at
        own = set(column.slug.split("_"))
        before = tokens[max(0, at - _NEGATION_REACH - len(pieces) + 1) : at]
        negated = at == unnamed or any(word in _NEGATIONS and word not in own for word in before)
        # "no pet policy listed" asks for the blank cells, not for "no"
        blank = (
            negated
            and "" in cells
            and bool(_UNSTATED_AFTER_NAME & set(tokens[at + 1 : at + 1 + _NEGATION_REACH]))
        )
        out.append(Entity("string", ("" if blank else pair[negated],), at, at + 1))
    return out


def _un_named(token: str, name: str, stem: str, words: HeaderWords | None) -> bool:
    """Whether `token` is a column's name word with "un" before it ("unpaid" of `Paid`, "unassigned" of
    `Assigned`, by `HeaderWords.stem` too)."""
    rest = token[2:]
    if not token.startswith("un") or len(rest) < 4:
        return False
    return rest == name or (words is not None and words.stem(rest) == stem)


#: Words that ask for a cell with nothing in it ("how many orders have no tip", "missing data", "anonymous
#: donations" of a donor left blank).
_UNNAMED_WORDS = frozenset({"anonymous", "unnamed"})  # unless a cell says so: `Anonymous`
_ABSENCE_WORDS = _UNNAMED_WORDS | {
    "no",
    "without",
    "missing",
    "blank",
    "empty",
    "unassigned",
    "lacking",
    "lacks",
}
#: After "not" or "n't", the words that make it ask for a blank cell ("don't have a trainer", "not listed").
_ABSENT_AFTER_NOT = frozenset(
    "have has had listed recorded given entered assigned filled specified provided set yet".split()
)
#: After "not" or "n't", verbs of stating that ask for a blank cell when a determiner follows them
#: ("didn't list a salary"; "did not record live" does not).
_STATING_VERBS = frozenset("list record give assign specify provide".split())
_DETERMINERS = frozenset("a an any the their his her its".split())
#: Just after "nothing", the words that make it ask for a blank cell ("nothing written in the notes",
#: "nothing listed"; "it cost nothing" asks for zero).
_NOTHING_STATED = frozenset("written listed recorded entered filled given".split())


#: After a negated column's name, the words that make it ask for a blank cell ("no pet policy listed");
#: not "have": "listings with no pets have a balcony" starts another clause.
_UNSTATED_AFTER_NAME = _ABSENT_AFTER_NOT - {"have", "has", "had"}


#: A header of temperatures: a degree sign or a word of temperature (`Low (°C)`, `temp_c`, `Max temp`), or a
#: high or low with a scale's letter (`High (F)`; `Students (F)` alone says no temperature).
_TEMPERATURE_HEADER = re.compile(
    r"[°℃℉]|(?i:temp|celsius|fahrenheit|\bdeg\b)|(?i:\b(?:high|low|max|min|maximum|minimum)\b).*\(\s*[CF]\s*\)"
)
#: ... of temperatures in Fahrenheit: `High (°F)`, `Temp F`, `temp_f`, `Fahrenheit`, `Low (F)`.
_FAHRENHEIT_HEADER = re.compile(
    r"°\s*F\b|℉|(?i:fahrenheit|\btemp[a-z]*[ _]f\b|\bdeg\.?\s*f\b)"
    r"|(?i:\b(?:high|low|max|min|maximum|minimum|temp[a-z]*)\b).*\(\s*F\s*\)"
)
_FAHRENHEIT_CELL = re.compile(r"°\s*F\b|℉")


def _freezing_entities(tokens: list[str], strings: list[Entity], table: Table) -> list[Entity]:
    """The word "freezing" as the number of the freezing point ("days below freezing"), on a table of
    temperatures (a header or a cell says so): 32 where they are in Fahrenheit, else 0. Not where the word
    is part of a cell the question names ("freezing rain")."""
    linked = _covered(strings)
    at = [i for i, token in enumerate(tokens) if token == "freezing" and i not in linked]
    if not at:
        return []
    cells = [
        cell for column in table.columns for cell in column.raw if "°" in cell or "℉" in cell or "℃" in cell
    ]
    if not cells and not any(_TEMPERATURE_HEADER.search(c.header) for c in table.columns):
        return []
    fahrenheit = any(_FAHRENHEIT_HEADER.search(c.header) for c in table.columns) or any(
        _FAHRENHEIT_CELL.search(cell) for cell in cells
    )
    point = 32.0 if fahrenheit else 0.0
    return [Entity("number", (point,), i, i + 1) for i in at]


def _none_of_amount_entities(tokens: list[str], found: list[Entity], table: Table) -> list[Entity]:
    """The number 0 at "no" before a word that names a column of amounts holding a 0 ("how many days had no
    rain at all" of a `Rain (mm)` column of 0.0 and 4.2, "games with no goals"): none of it is an amount of 0
    ("which films have no year" asks for blanks). Not where a number is said already, nor where words after
    ask for blank cells (`_UNSTATED`)."""
    if "no" not in tokens[:-1] or any(e.kind == "number" for e in found):
        return []
    named = {
        word
        for column in table.columns
        if 0.0 in column.views.get("number", ()) and not names_identifier(column.header)
        for word in header_words(column)
        if not word.isdigit() and word not in STOP_WORDS
    }
    out = []
    for i, token in enumerate(tokens[:-1]):
        noun, after = tokens[i + 1], set(tokens[i + 2 : i + 2 + _NEGATION_REACH])
        names = noun in named or any(form in named for form in inflections(noun))
        if token == "no" and names and not _UNSTATED & after:
            out.append(Entity("number", (0.0,), i, i + 1))
    return out


#: Words after a column's name that ask for its blank cells, not for zero: "no weight recorded", "no figure".
_UNSTATED = _UNSTATED_AFTER_NAME | frozenset(
    "reported figure figures data reading readings value shown".split()
)


#: Words after which "half" is a bound: "more than half", "under half", "at least half".
_BEFORE_HALF = frozenset({"than", "over", "under", "above", "below", "least", "most"})
_PERCENT_HEADER = re.compile(r"%|\bpercent", re.IGNORECASE)


def _half_entities(tokens: list[str], found: list[Entity], table: Table) -> list[Entity]:
    """ "half" as the bound a share is compared with ("countries that get more than half of their electricity
    from renewables"): 50 where a column holds percentages (a header or a cell says %), 0.5 where one holds
    fractions (every number from 0 to 1) or none holds percentages. Not inside what `found` already reads
    ("under half an hour")."""
    linked = _covered(found)
    at = [
        i
        for i, token in enumerate(tokens)
        if token == "half" and i > 0 and tokens[i - 1] in _BEFORE_HALF and i not in linked
    ]
    if not at:
        return []
    numbers = [column for column in table.columns if "number" in column.views]
    percent = any(
        _PERCENT_HEADER.search(column.header) or any(cell.rstrip().endswith("%") for cell in column.raw)
        for column in numbers
    )
    fractions = any(
        all(0 <= n <= 1 for n in column.views["number"] if n is not None)
        and not _PERCENT_HEADER.search(column.header)
        for column in numbers
    )
    values = ([50.0] if percent else []) + ([0.5] if fractions or not percent else [])
    return [Entity("number", (value,), i, i + 1) for i in at for value in values]


#: The longest unit of time a column's name may say its plain numbers are in: a `Year` column holds years
#: of the calendar, not durations.
_LONGEST_NAMED_UNIT = units.UNITS["week"][0].size


def _units_named_by_headers(table: Table) -> tuple[Unit, ...]:
    """Units of time that a plain number column's name says by a word of its own (`Minutes`, `MIN`, `Weekly
    Hours`, `Days Open`), where neither its cells nor a bracket state one (`Table.quantity_unit`)."""
    named = []
    for column in table.columns:
        if "number" not in column.views or table.quantity_unit(column) is not None:
            continue
        for piece in column.slug.split("_"):
            spelled = units.UNITS.get(piece, ()) if len(piece) >= 3 else ()
            if len(spelled) == 1 and spelled[0].family == "time" and spelled[0].size <= _LONGEST_NAMED_UNIT:
                named.append(spelled[0])
    return tuple(dict.fromkeys(named))


def _has_blank_cells(column: Column) -> bool:
    """Whether a text column has both blank cells and cells with text: a question may ask for its blanks."""
    cells = column.views.get("string", ())
    return any(c == "" for c in cells) and any(c for c in cells)


def _in_a_column(tokens: list[str], at: int, index: _TableIndex) -> bool:
    """Whether the words from `at` say "in" a column ("nothing in the notes column", "nothing in Notes"); not
    "nothing in total", nor "nothing in fees" of a column of amounts."""
    if tokens[at : at + 1] != ["in"]:
        return False
    named = tokens[at + 1 : at + 4]
    # a column of amounts may be named for its zero: "which students paid nothing in fees?"
    amounts = {p for name, pieces in index.properties if not name.endswith("-string") for p in pieces}
    return bool({"column", "field"} & set(named)) or any(
        w in index.piece_words and w not in amounts for w in named if w not in STOP_WORDS
    )


def _blank_entities(tokens: list[str], index: _TableIndex) -> list[Entity]:
    """The empty text, which on user tables matches a blank cell (`Prop.containing`), at the word asking for
    one ("no", "missing", "don't have ... yet", "didn't list a", "nothing written"), where a text column
    has blanks. No question writes it."""
    if not index.blanks:
        return []
    for at, word in enumerate(tokens):
        after = range(at + 1, min(at + 1 + _NEGATION_REACH, len(tokens)))
        if (
            (word in _ABSENCE_WORDS and not (word in _UNNAMED_WORDS and index.has_words(word)))
            or (word == "nothing" and _NOTHING_STATED & set(tokens[at + 1 : at + 3]))
            or (word == "nothing" and _in_a_column(tokens, at + 1, index))
            or (
                word in ("not", "n't")
                and (
                    _ABSENT_AFTER_NOT & {tokens[k] for k in after}
                    or any(
                        tokens[k] in _STATING_VERBS and k + 1 < len(tokens) and tokens[k + 1] in _DETERMINERS
                        for k in after
                    )
                )
            )
        ):
            return [Entity("string", ("",), at, at + 1)]
    return []


#: The words that mean each one-letter result code of a results column (`W`, `D`, `L`, `T`).
_DRAW_WORDS = frozenset({"draw", "draws", "drew", "drawn", "tie", "ties", "tied"})
_RESULT_WORDS = {
    "w": frozenset({"win", "wins", "won", "winning", "victory", "victories", "beat"}),
    "l": frozenset({"lose", "loses", "lost", "losing", "loss", "losses", "defeat", "defeats", "defeated"}),
    "d": _DRAW_WORDS,
    "t": _DRAW_WORDS,
}


def _result_code_entities(tokens: list[str], table: Table) -> list[Entity]:
    """For each results column (`W` and `L`, perhaps `D` or `T`, every cell a short code): the code that a
    word of the question means ("won" for `W`, "draws" for `D`), at that word. No question writes the
    letter, so no n-gram links it."""
    out = []
    for column in table.columns:
        codes = set(column.views.get("string", ())) - {""}
        # other short codes may stand beside (`OTL`, an overtime loss), which no word here means; a season
        # of results has wins and losses, which a column of weekdays (`M`, `T`, `W`, `F`) has not
        if not {"w", "l"} <= codes or any(len(c) > 3 for c in codes):
            continue
        codes &= _RESULT_WORDS.keys()
        for code in sorted(codes):
            at = next((k for k, word in enumerate(tokens) if word in _RESULT_WORDS[code]), None)
            if at is not None:
                out.append(Entity("string", (code,), at, at + 1))
    return out


#: Words that ask to leave out what follows ("ignoring the blanks", "leaving out calls where it was n/a").
_LEAVING_OUT = frozenset(
    {"ignoring", "ignore", "excluding", "exclude", "skipping", "skip", "disregarding", "omitting"}
)
#: Cells that say a value is missing, which an average or a total leaves out by itself.
_MISSING_CELLS = frozenset({"", "n/a", "na", "n.a.", "none", "null", "nan", "-", "—", "–", "?"})
#: How far before a missing cell's words a word of `_LEAVING_OUT` may stand ("ignoring the blank counts").
_LEAVING_OUT_REACH = 6


def _left_out_missing(tokens: list[str], strings: list[Entity]) -> list[Entity]:
    """`strings` without the blank or missing cells ("", `n/a`) that a question asking for an average or a
    total (`lexicon.AGGREGATE_WORDS`) asks to leave out in the same clause ("average rating, ignoring the
    blanks", "leaving out calls where it was n/a"): the number views hold no value there, so the average or
    total of all rows already leaves them out, while a filter keeping them keeps only them."""

    def left_out(entity: Entity) -> bool:
        before = tokens[max(0, entity.start - _LEAVING_OUT_REACH) : entity.start]
        # within the clause: "excluding fz-2, which readings are blank?" asks for the blanks
        clause = before[max((k + 1 for k, t in enumerate(before) if t in _CLAUSE_BREAKS), default=0) :]
        pairs = set(zip(clause, clause[1:], strict=False))
        return bool(
            _LEAVING_OUT & set(clause)
            or pairs & {("leaving", "out"), ("leave", "out"), ("not", "counting"), ("not", "including")}
        )

    # a count of the rows left keeps a filter ("how many readings, ignoring the blanks?" is not all rows)
    if not lexicon.AGGREGATE_WORDS & set(tokens):
        return strings
    return [
        e for e in strings if not (len(e.values) == 1 and str(e.values[0]) in _MISSING_CELLS and left_out(e))
    ]


#: Tokens that end a clause, which a leaving-out word does not reach past ("where" and "which" may be relative:
#: "leaving out rows where it was n/a").
_CLAUSE_BREAKS = frozenset({",", ";", ".", "?", ":", "-lrb-", "-rrb-"})


def _position_cells(table: Table) -> frozenset[str]:
    """The codes of the positions columns (named `Pos`, `Position` or `Role`, every filled cell but missing ones a
    playing position's code or codes joined by "-" or "/", two different cells or more; `lexicon.POSITION_CODES`)."""
    held: set[str] = set()
    for column in table.columns:
        filled = set(filled_cells(column)) - _MISSING_CELLS
        parts = {part for cell in filled for part in re.split(r"[-/]", cell)}
        if column.slug in lexicon.POSITION_HEADERS and len(filled) > 1 and parts <= lexicon.POSITION_CODES:
            held |= parts
    return frozenset(held)


def _position_code_entities(tokens: list[str], strings: list[Entity], index: _TableIndex) -> list[Entity]:
    """For each positions column (`_position_cells`): the code that the question's words name ("how many
    forwards" of `FW`, "point guards" of `PG`; `lexicon.POSITION_WORDS`), at those words, where no other entity
    covers them. No question writes the code, so no n-gram links it."""
    held = index.position_codes
    if not held:
        return []
    linked = _covered(strings)
    singular = [t[:-1] if len(t) > 3 and t.endswith("s") else t for t in tokens]
    out = []
    i = 0
    while i < len(tokens):
        step = 1
        for length in (2, 1):
            words = tuple(singular[i : i + length])
            codes = lexicon.POSITION_WORDS.get(words) if len(words) == length else None
            code = next((c for c in codes or () if c in held), None)
            if code is not None and not linked.intersection(range(i, i + length)):
                out.append(Entity("string", (code,), i, i + length))
                step = length
                break
        i += step
    return out


def is_signed(column: Column) -> bool:
    """Whether a column's numbers hold both signs (a change, a growth rate, a balance)."""
    numbers = [v for v in column.views.get("number", ()) if v is not None]
    return any(v < 0 for v in numbers) and any(v > 0 for v in numbers)


def _balance_at(tokens: list[str], table: Table) -> list[str]:
    """A ledger's "the balance after the Figma payment" as "the balance at" it: the running balance a row
    states is the one after its own transaction, not the next row's (which "after" reads as, `next`)."""
    if not any("balance" in c.slug.split("_") for c in table.columns):
        return tokens
    return [
        "at"
        if token == "after" and i and tokens[i - 1] == "balance" and not _dated(tokens[i + 1 : i + 2])
        else token
        for i, token in enumerate(tokens)
    ]


def _dated(words: Sequence[str]) -> bool:
    """Whether a question's next word is a number or a month: "the balance after 2015" is a bound."""
    return bool(words) and (any(c.isdigit() for c in words[0]) or words[0] in textnum.MONTHS)


def names_balance(table: Table) -> bool:
    """Whether a column's name says deficit or surplus (`Budget deficit ($bn)`): there "a deficit" is the
    column's values, not a sign (`textnum.BALANCE_WORDS`)."""
    return any(set(c.slug.split("_")) & textnum.BALANCE_WORDS for c in table.columns)


def header_words(column: Column) -> list[str]:
    """A column's header as lower-case words and numbers, accents dropped and symbols left out
    ("Dépenses (2024)" -> depenses, 2024), all of it: a slug drops its parenthesised details."""
    return _NAME_WORD.findall(without_accents(str(column.header)).lower())


def spells_column_name(words: Sequence[str], i: int, table: Table) -> bool:
    """Whether the question's lower-cased words from `i` on spell out a whole column's name of two words or
    more ("negative reviews" of `Negative reviews`): there a sign word names the column. A one-word name
    (`Negative`) is left out: "a negative change" beside it still speaks of a sign."""
    for column in table.columns:
        name = header_words(column)
        if len(name) > 1 and list(words[i : i + len(name)]) == name:
            return True
    return False


_NAME_WORD = re.compile(r"[a-z]+|\d+")


def _in_column_name(tokens: Sequence[str], quantity: Entity, table: Table) -> bool:
    """Whether a number's words and the words after them spell two or more words of a column's name in a row,
    the number's first: "a 3-dart average under 65" of a `3-Dart Avg` column, "the ton-40s" of `Ton-40s`. The
    number names the column there, not a value of it ("4-credit courses" of a `Credits` column keeps its 4)."""
    spoken = [w for t in tokens[quantity.start : quantity.end + 2] for w in _NAME_WORD.findall(t.lower())]
    own = sum(len(_NAME_WORD.findall(t.lower())) for t in tokens[quantity.start : quantity.end])
    if not own or not any(w.isdigit() for w in spoken[:own]):
        return False
    for column in table.columns:
        name = header_words(column)
        for i in range(len(name)):
            run = 0
            while i + run < len(name) and run < len(spoken) and name[i + run] == spoken[run]:
                run += 1
            if run >= max(2, own):
                return True
    return False


def holds_outgoings(column: Column) -> bool:
    """Whether a column's amounts are all money below 0 (`(120.00)`, `-£45.00`): deductions or outgoings,
    whose "biggest" is the most negative."""
    numbers = [v for v in column.views.get("number", ()) if v is not None]
    if len(numbers) < 2 or any(v >= 0 for v in numbers):
        return False
    return all(states_money(text) for text in column.raw if text.strip())


def _header_power(table: Table) -> int | None:
    """The one power of ten the table's headers count in (`valuerules.header_magnitude`); None for none, or
    when headers state different ones (which one a question's number means is then unknown)."""
    powers = {header_magnitude(h) for h in table.header} - {None}
    return powers.pop() if len(powers) == 1 else None


def _plain_words(table: Table) -> frozenset[str]:
    """The words of the names of number columns whose headers state no power of ten (`Arrivals 2022`), but
    those that a column counted in a power is named by too, singular and plural."""

    def words(column: Column) -> set[str]:
        pieces = column_name_pieces(column.slug)
        return {form for piece in pieces if piece.isalpha() for form in (piece, *inflections(piece))}

    numbers = [c for c in table.columns if "number" in c.views]
    plain = set().union(*(words(c) for c in numbers if header_magnitude(c.header) is None))
    counted = set().union(*(words(c) for c in numbers if header_magnitude(c.header) is not None))
    return frozenset(plain - counted)


def _in_table_units(
    quantities: list[Entity], tokens: list[str], power: int | None, plain_words: frozenset[str] = frozenset()
) -> list[Entity]:
    """Numbers said with a magnitude ("more than 5 million people", "over $2bn") in the units the table's
    headers count in (`power`: 5 of a `Population (millions)` column, 2000 of `Revenue ($m)`), so that they
    compare with the cells; left as said when `power` is None. A number said with a magnitude about
    another column of such a table ("area over 2 million" beside `Population (millions)`) is converted
    too: the question does not say which it means; but not one followed by a word that names only a column of
    plain numbers (`plain_words`: "topped 20M arrivals" of `Arrivals 2022` beside `Receipts (US$ bn)`)."""
    if power is None:
        return quantities
    out = []
    for e in quantities:
        said = e.kind == "number" and any(said_power(t) for t in tokens[e.start : e.end])
        if said and not plain_words.intersection(tokens[e.end : e.end + 2]):
            e = Entity("number", tuple(round(v / 10**power, 9) for v in e.values), e.start, e.end)
        out.append(e)
    return out


#: The years a bare four-digit number of a user's question may name whatever the table's dates, and how far
#: around the table's own years a year may lie (a history's "before 1760" of dates from 1750 to 1790).
_LIKELY_YEARS = range(1800, 2101)
_YEARS_AROUND = 50


def _as_number_unless_a_year(entity: Entity, tokens: Sequence[str], index: _TableIndex) -> Entity:
    """A bare four-digit number that CoreNLP's reading makes a year ("over 1000 ppm", "above 3020 m") as the
    number it is, unless it is a likely year or near the years of the table's dates (a history's 1066)."""
    if entity.kind != "date" or entity.end - entity.start != 1 or not tokens[entity.start].isdigit():
        return entity
    date = entity.values[0]
    if not isinstance(date, Date) or (date.month, date.day) != (-1, -1) or date.year in _LIKELY_YEARS:
        return entity
    years = [d.year for d in index.dates if d.year != -1]
    if years and min(years) - _YEARS_AROUND <= date.year <= max(years) + _YEARS_AROUND:
        return entity
    return Entity("number", (float(date.year),), entity.start, entity.end)


def _unheld_month_year(entity: Entity, tokens: Sequence[str], index: _TableIndex) -> bool:
    """Whether a question's "Apr-24" was read as April 2024 where the table holds no such month: then it may
    be a day ("Dec-31" of daily dates), and the cells it names link it as text."""
    if (
        entity.kind != "date"
        or entity.end - entity.start != 1
        or short_month_year(tokens[entity.start]) is None
    ):
        return False
    date = entity.values[0]
    return not any(d.year == date.year and d.month == date.month and d.day == -1 for d in index.dates)


def _with_rules_values(own: list[textnum.Quantity], quantities: list[Entity]) -> list[Entity]:
    """The quantity entities with the rules' own question readings in place of what the shared reading
    made of their spans ("15/03/2024" day first, "18k" as 18,000)."""
    if not own:
        return quantities
    kinds = {"NUMBER": "number", "DATE": "date"}
    return _outside(quantities, own) + [Entity(kinds[q.kind], q.values, q.start, q.end) for q in own]


def _outside(entities: list[Entity], spans: Sequence[Entity | textnum.Quantity]) -> list[Entity]:
    """The entities that share no token with any of `spans`."""
    covered = {k for t in spans for k in range(t.start, t.end)}
    return [e for e in entities if not covered.intersection(range(e.start, e.end))]


def _inside_a_longer(entity: Entity, spans: Sequence[Entity]) -> bool:
    """Whether `entity` lies inside one of `spans` that is longer than it (the "6" of a time "6 pm")."""
    return any(
        s.start <= entity.start and entity.end <= s.end and (entity.start, entity.end) != (s.start, s.end)
        for s in spans
    )


def _outside_longer_dates(
    strings: list[Entity], quantities: list[Entity], index: _TableIndex
) -> list[Entity]:
    """The string entities but those inside a longer date of the question that some date cell agrees with:
    "2024" of "invoiced in August 2024" is that month of a date column, not every cell that writes the year
    (`03-Jul-2024`, `INV-2024-0701`); a whole cell keeps its link (a `Month` column's `August`)."""
    dates = [
        q
        for q in quantities
        if q.kind == "date" and any(d.admits(cell) for d in q.values for cell in index.dates)
    ]

    def a_named_cell(e: Entity) -> bool:  # a month's name, not a day's number that some cell also is
        return index.has_cell(e.values[0]) and any(c.isalpha() for c in e.values[0])

    return [e for e in strings if not _inside_a_longer(e, dates) or a_named_cell(e)]


def _with_times(
    tokens: list[str], strings: list[Entity], quantities: list[Entity]
) -> tuple[list[Entity], list[Entity]]:
    """The string and quantity entities with each time of day as a number of hours, for rules whose cells
    read times so: "6 pm" is 18, in place of the number 6 and of the cell "6" it held (a cell that is the
    whole time, "6 pm", still links)."""
    times = [Entity("number", q.values, q.start, q.end) for q in textnum.find_times(tokens)]
    if not times:
        return strings, quantities
    return [e for e in strings if not _inside_a_longer(e, times)], _outside(quantities, times) + times


def _race_time_entities(tokens: list[str], quantities: list[Entity], index: _TableIndex) -> list[Entity]:
    """A clock the question writes ("under 1:30:00", "faster than 23:59.9") as seconds too, where a column is a
    race's times in seconds (`valuerules.race_seconds`): `_with_times` read it as hours of a day."""
    if units.UNITS["s"][0] not in index.units:
        return []
    out = []
    for i, token in enumerate(tokens):
        seconds = race_seconds(token) if ":" in token else None
        if seconds is not None and not any(q.start == i and q.values == (seconds,) for q in quantities):
            out.append(Entity("number", (seconds,), i, i + 1))
    return out


# ---------------------------------------------------------------------------------------------------------
# Annotated questions
# ---------------------------------------------------------------------------------------------------------


@dataclass
class AnnotatedQuestion:
    """Everything MAPO reads about one question (the fields of its preprocessed jsonl)."""

    id: str
    text: str
    tokens: list[str]
    pos_tags: list[str]
    entities: list[Entity]
    in_table: list[int]
    column_match: dict[str, float] = field(default_factory=dict)
    answer: list[str] | None = None
    answer_canon: list[str] | None = None

    def to_json(self) -> dict[str, Any]:
        """Plain JSON types; dates as `yyyy-mm-dd` with `xx` for unknown fields."""
        return {
            "id": self.id,
            "text": self.text,
            "tokens": list(self.tokens),
            "pos_tags": list(self.pos_tags),
            "entities": [
                {
                    "kind": e.kind,
                    "values": [str(v) if isinstance(v, Date) else v for v in e.values],
                    "start": e.start,
                    "end": e.end,
                }
                for e in self.entities
            ],
            "in_table": list(self.in_table),
            "column_match": dict(self.column_match),
            "answer": None if self.answer is None else list(self.answer),
            "answer_canon": None if self.answer_canon is None else list(self.answer_canon),
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> AnnotatedQuestion:
        """Inverse of `to_json`."""
        entities = []
        for e in d["entities"]:
            if e["kind"] == "date":
                values = tuple(Date.parse(v) for v in e["values"])
            elif e["kind"] == "number":
                values = tuple(float(v) for v in e["values"])
            else:
                values = tuple(e["values"])
            entities.append(Entity(e["kind"], values, int(e["start"]), int(e["end"])))
        return AnnotatedQuestion(
            id=d["id"],
            text=d["text"],
            tokens=list(d["tokens"]),
            pos_tags=list(d["pos_tags"]),
            entities=entities,
            in_table=[int(x) for x in d["in_table"]],
            column_match={k: float(v) for k, v in d["column_match"].items()},
            answer=None if d.get("answer") is None else list(d["answer"]),
            answer_canon=None if d.get("answer_canon") is None else list(d["answer_canon"]),
        )


def annotate_question(
    text: str,
    table: Table,
    *,
    qid: str = "",
    answer: list[str] | None = None,
    ordinals: bool = False,
    linking: str = DEFAULT_LINKING,
) -> AnnotatedQuestion:
    """Annotate one question against its table.

    Entities come in token order (string before number/date at the same start), without duplicate
    (kind, values). Number and date entities follow CoreNLP's NUMBER/DATE mentions: a year alone is a
    date `yyyy-xx-xx` (MAPO's original preprocessing drops those; filter on month == day == -1 to match it),
    signs are kept, "5 years" is a duration and gives no number (on a user's table it gives its number in
    the unit of a column that states or names one), ordinals give numbers only with `ordinals`.
    String entities are cell text matched on word boundaries, or as any substring with
    `linking="substring"` (MAPO's linking).
    """
    check_linking(linking)
    tokens = tokenize(text)
    index = table_index(table)
    if table.rules.user_question_readings:
        tokens = _balance_at(tokens, table)
    number_kinds = table.rules.question_number_kinds
    # "&" for "and" on user tables only: WTQ's data, and the models trained on it, keep MAPO's linking
    strings = _string_entities(tokens, index, linking, user_readings=table.rules.user_question_readings)
    if linking == "word":  # MAPO's substring linking, reproduced as it was, has no pairs
        strings += _either_or_entities(tokens, strings, user=table.rules.user_question_readings)
        if table.rules.user_question_readings:  # WTQ's models were trained without
            strings += listed_entities(tokens, strings)
    # on user tables an ordinal is a number where a column ranks ("who finished 10th?" of `Place`)
    ordinals = ordinals or (table.rules.user_question_readings and _ranks(table))
    # the cased tokens on user tables: "in May?" is the month, "may" the verb (WTQ's data keeps CoreNLP's
    # lower-cased reading, which knew May only next to a day or year)
    cased = textnum.ptb_tokenize(text) if table.rules.user_question_readings else tokens
    quantities = _quantity_entities(cased, ordinals=ordinals, number_kinds=number_kinds)
    if table.rules.user_question_readings:
        quantities = _with_rules_values(table.rules.question_values(cased), quantities)
        quantities = [_as_number_unless_a_year(e, tokens, index) for e in quantities]
        quantities = [e for e in quantities if not _unheld_month_year(e, tokens, index)]
        strings, quantities = _with_times(tokens, strings, quantities)
        quantities += _race_time_entities(tokens, quantities, index)
        # "over 2 hours" of a column in minutes: 120; a number the shared reading made of the span stays
        # beside it ("a 2.7 inch screen" of a table with a column in mm may mean another column)
        said = units.question_quantities(cased, index.units)
        quantities += [Entity("number", q.values, q.start, q.end) for q in said]
        # "more than 30 minutes a game" of a `MIN` column of 34.1, "over 2 hours" of a `Minutes` column: a
        # duration in the unit a plain number column's name says, where no column's stated unit took it
        by_name = units.question_quantities(cased, index.named_units)
        quantities += [
            Entity("number", q.values, q.start, q.end)
            for q in by_name
            if not any(s.start < q.end and q.start < s.end for s in said)
        ]
        signs = textnum.find_sign_words(tokens, signed_column=index.signed_column)
        if names_balance(table):
            signs = [q for q in signs if tokens[q.start] not in textnum.BALANCE_WORDS]
        signs = [
            q
            for q in signs
            if tokens[q.start] not in textnum.SIGN_WORDS or not spells_column_name(tokens, q.start, table)
        ]
        quantities += [Entity("number", q.values, q.start, q.end) for q in signs]
        strings += _yes_no_entities(tokens, table) + _result_code_entities(tokens, table)
        strings += _blank_entities(tokens, index)
        strings += _demonym_entities(tokens, strings, index)
        strings += _state_code_entities(tokens, strings, index)
        strings += _country_name_entities(tokens, cased, strings, index)
        strings += _position_code_entities(tokens, strings, index)
        strings += _weekday_entities(tokens, strings + quantities, index)
        strings += _inflected_entities(tokens, strings, index, table)
        strings += _abbreviated_entities(tokens, strings, index)
        strings += _named_cell_entities(tokens, strings, table)
        strings = _left_out_missing(tokens, strings)
        strings = [e for e in strings if not _divides_by(e, tokens, index)]
        quantities += _freezing_entities(tokens, strings, table)
        quantities += _half_entities(tokens, strings + quantities, table)
        quantities += _none_of_amount_entities(tokens, quantities, table)
        quantities = _in_table_units(quantities, tokens, index.header_power, index.plain_words)
        quantities = [q for q in quantities if not _in_column_name(tokens, q, table)]
        strings = _outside_longer_dates(strings, quantities, index)
    found = strings + quantities
    found.sort(key=lambda e: (e.start, ENTITY_KINDS.index(e.kind)))
    entities: list[Entity] = []
    seen: set[tuple[str, tuple]] = set()
    for e in found:
        key = (e.kind, e.values)
        if key not in seen:
            seen.add(key)
            entities.append(e)
    in_table = [0] * len(tokens)
    for e in entities:
        if (e.kind == "string" and len(e.values) == 1) or _value_in_table(e, index):  # not a pair's "or"
            for k in range(e.start, e.end):
                in_table[k] = 1
    token_set = set(tokens)
    # a header's symbol is a word of its slug ("% Change": percent, change), so the question's symbol is too
    token_set |= {word for symbol, word in table.rules.header_symbols.items() if symbol in token_set}
    # and a header named by its symbols alone names its words ("+/-" of a `+/-` column: plus, minus)
    token_set |= {
        w for name, words in table.rules.header_names.items() if name in token_set for w in words.split()
    }
    # only matching properties are listed; consumers read `column_match.get(name, 0.0)`
    column_match = {}
    words = table.rules.header_words
    if words is not None:  # the user rules: "avg" is "average" and "sales" is "sale" on both sides
        # an abbreviation the question names as a cell is that cell, not a column: "games against STL" of a
        # box score's team `STL` is no steals
        token_set -= {
            t for t, linked in zip(tokens, in_table, strict=True) if linked and t in words.ABBREVIATIONS
        }
        # "plus/minus" and "w/l" are two words each; "03/15" and "1/2" are no words
        token_set |= {part for t in token_set if _WORDS_BY_SLASH.fullmatch(t) for part in t.split("/")}
        # "4-credit courses" names the `Credits` column (its number is `UserRules.question_values`')
        token_set |= {m["noun"] for m in map(number_noun, list(token_set)) if m is not None}
        token_set |= {words.word(t) for t in token_set if t not in STOP_WORDS}  # "no" is no "number"
    stems = {words.stem(t) for t in token_set if t not in STOP_WORDS} if words is not None else set()
    # what the question's adjectives and verbs measure names a column of amounts or dates, not of text
    measured = lexicon.measured_nouns(tokens) if words is not None else set()
    # the question's words that name a column ("invoice date" names `Invoice Date`, not `ID`)
    column_words = (
        {t for t in tokens if t in index.piece_words or words.word(t) in index.piece_words}
        if index.acronyms and words is not None
        else set()
    )
    for name, pieces in index.properties:
        amounts = not name.endswith("-string")
        score = sum(
            p in token_set
            or (
                words is not None
                and (
                    words.word(p) in token_set
                    or words.stem(p) in stems
                    or (amounts and words.word(p) in measured)
                )
            )
            for p in pieces
        )
        # a sports table's code counts each word the question names it by ("goals allowed": `GA` twice)
        score += sum(w in token_set or words.stem(w) in stems for w in index.league_words.get(name, ()))
        # an acronym's words count each ("runs batted in": `RBI` three times), as a header's words named
        # one by one; two letters only once: two words' initials spell one by chance ("unit sales": `US`)
        letters = index.acronyms.get(name)
        if letters and _initials_named(letters, tokens, in_table, column_words):
            score += len(letters) if len(letters) > 2 else 1
        if score:
            column_match[name] = float(score)
    return AnnotatedQuestion(
        id=qid,
        text=text,
        tokens=tokens,
        pos_tags=pos_tags(tokens),
        entities=entities,
        in_table=in_table,
        column_match=column_match,
        answer=None if answer is None else list(answer),
        answer_canon=None if answer is None else [canonicalize_answer(a) for a in answer],
    )


def check_linking(linking: str) -> str:
    """`linking` if it is one of `LINKING_MODES`, else a DataError naming them."""
    if linking not in LINKING_MODES:
        raise DataError(f"unknown linking {linking!r}; choose one of: {', '.join(LINKING_MODES)}")
    return linking


def _value_in_table(entity: Entity, index: _TableIndex) -> bool:
    for v in entity.values:
        if isinstance(v, Date):
            if v in index.dates or (v.month == v.day == -1 and float(v.year) in index.numbers):
                return True
        elif v in index.numbers:
            return True
    return False


# ---------------------------------------------------------------------------------------------------------
# Canonical answers (targetCanon)
# ---------------------------------------------------------------------------------------------------------

_CANON_NUMBER = re.compile(
    r"\+?[$#£€]?\s*((?:\d[\d,]*)?\.?\d+)\s*(%|st|nd|rd|th)?(?:\s+(million|billion|thousand|trillion))?",
    re.IGNORECASE,
)
_MULTIPLIERS = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}


def _canon_number(value: float) -> str:
    return repr(float(value))


def canonicalize_answer(text: str) -> str:
    """The `targetCanon` of an answer, as CoreNLP/SEMPRE wrote it in the tagged files: a date `yyyy-mm-dd`
    (xx for unknown fields) when the answer is a date ("January 26, 1995", "27 September", "October"), a
    number when it is a number with at most a unit or note after it ("17 years" -> 17.0, "$535", "45.7%",
    "100,000"), else the string itself ("Iron Man 3", "2007/08", "1:46" and number words stay strings)."""
    s = text.strip()
    if not s:
        return text
    date = textnum.parse_cell_date(s) if not textnum.number_token(s) else None
    if date is not None and date.month != -1:
        return str(date)
    if date is not None and date.year != -1:
        return _canon_number(date.year)
    m = _CANON_NUMBER.fullmatch(s)
    if m:
        digits = m.group(1).replace(",", "")
        try:
            value = float(digits)
        except ValueError:
            value = None
        if value is not None:
            if m.group(3):
                value *= _MULTIPLIERS[m.group(3).lower()]
            return _canon_number(value)
    parts = s.split(" ")
    if len(parts) == 2:
        value = textnum.parse_number_strict(parts[0])
        if value is not None:
            return _canon_number(value)
    return s


__all__ = [
    "DEFAULT_LINKING",
    "LINKING_MODES",
    "STOP_WORDS",
    "AnnotatedQuestion",
    "Entity",
    "annotate_question",
    "canonicalize_answer",
    "check_linking",
    "pos_tags",
    "table_index",
    "tokenize",
]
