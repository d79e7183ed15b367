"""English words about measuring, for reading questions over user tables: what an adjective or verb measures
(`attribute_nouns`: "oldest" -> age), for a word in any degree ("old", "older", "oldest": `degree_base`).
"""

from __future__ import annotations

from collections.abc import Container

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
