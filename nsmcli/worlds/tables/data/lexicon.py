"""English words about measuring, for reading questions over user tables: what an adjective or verb measures
(`attribute_nouns`: "oldest" -> age), for a word in any degree ("old", "older", "oldest": `degree_base`).
"""

from __future__ import annotations

from collections.abc import Container, Sequence

#: What a question's adjective measures: the nouns a header names it by (WordNet's "attribute" relation),
#: so that "the oldest respondent" matches `Age`. Keys are base forms; values are singular and written
#: out, the common form of `valuerules.HeaderWords.word`.
ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "old": ("age",),
    "young": ("age",),
    "long": ("length", "duration"),
    "short": ("length", "duration", "height"),
    "tall": ("height",),
    "high": ("height",),
    "heavy": ("weight", "mass"),
    "light": ("weight", "mass"),
    "hot": ("temperature", "high"),
    "warm": ("temperature", "high"),
    "cold": ("temperature", "low"),
    "cool": ("temperature", "low"),
    "fast": ("speed", "time", "pace"),
    "quick": ("speed", "time", "pace"),
    "slow": ("speed", "time", "pace"),
    "expensive": ("price", "cost", "amount", "fee"),
    "cheap": ("price", "cost", "amount", "fee"),
    "costly": ("price", "cost", "amount", "fee"),
    "big": ("size",),
    "large": ("size",),
    "small": ("size",),
    "wide": ("width",),
    "narrow": ("width",),
    "deep": ("depth",),
    "shallow": ("depth",),
    "far": ("distance",),
    "near": ("distance",),
    "rich": ("income", "wealth"),
    "poor": ("income", "wealth"),
    "wealthy": ("income", "wealth"),
    "populous": ("population",),
    "wet": ("precipitation", "rainfall", "rain"),
    "dry": ("precipitation", "rainfall", "rain"),
    "rainy": ("precipitation", "rainfall", "rain"),
    "windy": ("wind",),
    "strong": ("strength",),
    "weak": ("strength",),
    "popular": ("popularity",),
    "profitable": ("profit", "margin"),
    "valuable": ("value",),
}


#: Verbs of measuring and the nouns a header names the measure by ("growing" -> `Growth`); exact forms
#: only, since a verb has no degrees ("liver" is no "live", "seller" no "sell").
VERBS: dict[str, tuple[str, ...]] = {
    "grow": ("growth",),
    "grew": ("growth",),
    "grown": ("growth",),
    "growing": ("growth",),
    "weigh": ("weight", "mass"),
    "weighed": ("weight", "mass"),
    "weighing": ("weight", "mass"),
    "cost": ("price", "cost"),
    "costs": ("price", "cost"),
    "earn": ("earnings", "income", "salary", "revenue"),
    "earned": ("earnings", "income", "salary", "revenue"),
    "live": ("life",),
    "lived": ("life",),
    "sell": ("sale",),
    "sold": ("sale",),
    "spend": ("spending", "amount", "cost"),
    "spent": ("spending", "amount", "cost"),
}


def degree_base(word: str, known: Container[str]) -> str | None:
    """The base form in `known` of `word` or of its comparative or superlative ("heaviest" -> "heavy",
    "hotter" -> "hot", "larger" -> "large"), or None."""
    if word in known:
        return word
    for suffix in ("est", "er"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            base = next((b for b in base_forms(word[: -len(suffix)]) if b in known), None)
            if base is not None:
                return base
    return None


def base_forms(stem: str) -> list[str]:
    """The base forms a comparative's or superlative's stem may come from: "bigg" -> big, "larg" -> large,
    "heavi" -> heavy (the stem itself first)."""
    forms = [stem, stem + "e"]
    if len(stem) > 2 and stem[-1] == stem[-2]:
        forms.append(stem[:-1])
    if stem.endswith("i"):
        forms.append(stem[:-1] + "y")
    return forms


def attribute_nouns(word: str) -> tuple[str, ...]:
    """The header nouns a question word measures (`ATTRIBUTES`), through its degree: "oldest" -> ("age",),
    "heavier" -> ("weight", "mass"), or of its verb (`VERBS`); () for any other word."""
    if word in VERBS:
        return VERBS[word]
    base = degree_base(word, ATTRIBUTES)
    return ATTRIBUTES[base] if base is not None else ()


#: Which way an adjective (base form) or degree word points on the quantity it measures: "heaviest" is the
#: most weight (+1), "cheapest" the least price (-1). Speed words measure speed: over a column of times
#: they point the other way (`polarity`).
MAGNITUDE: dict[str, int] = {
    **dict.fromkeys(
        "old long tall high heavy hot warm fast quick expensive costly big large wide deep far rich wealthy "
        "populous wet rainy windy strong popular profitable valuable great more most top maximum "
        "max busy loud bright".split(),
        1,
    ),
    **dict.fromkeys(
        "young short light cold cool slow cheap small narrow shallow near poor dry weak low few less "
        "least fewer fewest bottom minimum min quiet dim".split(),
        -1,
    ),
}
#: Which way a word points in time, over a column of dates: "oldest" and "first" are the earliest (-1),
#: "newest" and "most recent" the latest (+1).
TIME_DIRECTION: dict[str, int] = {
    **dict.fromkeys("old early first soon long".split(), -1),
    **dict.fromkeys("young new recent late last".split(), 1),
}
#: Adjectives of speed: the fastest of a column of times is its smallest.
SPEED = frozenset({"fast", "quick", "slow"})


def polarity(word: str, *, dates: bool = False, times: bool = False) -> int:
    """Which way `word` in any degree ("heaviest", "older", "most") points over the compared column: +1 to
    its largest values, -1 to its smallest, 0 for a word that does not say. `dates`: the column holds dates
    or years, where a word of time (`TIME_DIRECTION`) says it first; `times`: it holds durations or clock
    times, where speed words point down."""
    if dates:
        base = degree_base(word, TIME_DIRECTION)
        if base is not None:
            return TIME_DIRECTION[base]
    base = degree_base(word, MAGNITUDE)
    if base is None:
        return 0
    return -MAGNITUDE[base] if times and base in SPEED else MAGNITUDE[base]


#: Words that make the adjective after them a degree of theirs: "least expensive" points down, "most
#: recent" up, as the adjective's own way times theirs.
DEGREE_WORDS = {"most": 1, "more": 1, "least": -1, "less": -1}


def pointing(words: Sequence[str], *, dates: bool = False, times: bool = False) -> set[int]:
    """The ways (+1, -1) a question's words point over a column (`polarity`), a degree word and the
    adjective after it read as one ("least expensive": -1, not both ways)."""
    ways = set()
    i = 0
    while i < len(words):
        degree = DEGREE_WORDS.get(words[i])
        after = polarity(words[i + 1], dates=dates, times=times) if i + 1 < len(words) else 0
        if degree is not None and after and words[i + 1] not in DEGREE_WORDS:
            ways.add(degree * after)
            i += 2
            continue
        way = polarity(words[i], dates=dates, times=times)
        if way:
            ways.add(way)
        i += 1
    return ways
