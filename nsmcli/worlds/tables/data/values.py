"""One value model for the whole toolkit: strings, numbers and dates.

`normalize` is the official WikiTableQuestions string normaliser (evaluator v1.0.2). Tables, question
entities, the interpreters and the evaluators all use it, so a value that prints the same compares the same.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from dataclasses import dataclass

_QUOTES = re.compile(r"[‘’´`]")
_DQUOTES = re.compile(r"[“”]")
_DASHES = re.compile(r"[‐‑‒–—−]")
_CITATIONS = re.compile(r"((?<!^)\[[^\]]*\]|\[\d+\]|[•♦†‡*#+])*$")
_PARENS = re.compile(r"(?<!^)( \([^)]*\))*$")
_OUTER_QUOTES = re.compile(r'^"([^"]*)"$')
_SPACES = re.compile(r"\s+")


#: ASCII text with none of the characters the substitutions below act on: only its ends, a final period,
#: spacing and case change.
PLAIN_TEXT = re.compile(r"[^`\[\]*#+()\"\x80-\U0010ffff]*")


def normalize(text: str) -> str:
    """The official WTQ normalisation: no diacritics, ASCII quotes and dashes, no trailing citations,
    parenthesised details, outer quotes or final period; lower case; single spaces."""
    if PLAIN_TEXT.fullmatch(text):  # most cells: the same result without the Unicode and citation passes
        text = text.strip()
        if text and text[-1] == ".":
            text = text[:-1]
        return " ".join(text.split()).lower()  # str.split and `\s` know the same whitespace
    return _normalize_any(text)


def normalize_user(text: str) -> str:
    """`normalize` for a user's cell, which keeps a final "+" (the grade `A+`, `18+`, `C++`): the official
    normalisation drops it as a footnote mark of Wikipedia's tables."""
    kept = text.rstrip()
    plus = len(kept) - len(kept.rstrip("+"))
    if not plus:
        return normalize(text)
    base = normalize(kept[:-plus])
    return base + "+" * plus if base else normalize(text)


def without_accents(text: str) -> str:
    """`text` with its letters' diacritics dropped ("Dépenses" -> "Depenses"), the first of `normalize`'s
    passes."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if unicodedata.category(c) != "Mn")


def _normalize_any(text: str) -> str:
    """`normalize` for any text, the official passes in order."""
    text = without_accents(text)
    text = _QUOTES.sub("'", text)
    text = _DQUOTES.sub('"', text)
    text = _DASHES.sub("-", text)
    while True:
        old = text
        text = _CITATIONS.sub("", text.strip())
        text = _PARENS.sub("", text.strip())
        text = _OUTER_QUOTES.sub(r"\1", text.strip())
        if text == old:
            break
    if text and text[-1] == ".":
        text = text[:-1]
    return _SPACES.sub(" ", text).lower().strip()


@dataclass(frozen=True, slots=True, order=True)
class Date:
    """A calendar date whose fields may be unknown (-1), as in WTQ's `xxxx-05-31`."""

    year: int = -1
    month: int = -1
    day: int = -1

    @property
    def fields(self) -> tuple[int, int, int]:
        return (self.year, self.month, self.day)

    @property
    def has_unknown_fields(self) -> bool:
        return -1 in self.fields

    def admits(self, other: Date) -> bool:
        """Whether `other` agrees with every field this date knows (xxxx-11-xx admits 2024-11-02)."""
        return all(mine in (-1, theirs) for mine, theirs in zip(self.fields, other.fields, strict=True))

    def __str__(self) -> str:
        year = "xxxx" if self.year == -1 else f"{self.year:04d}" if self.year >= 0 else str(self.year)
        month = "xx" if self.month == -1 else f"{self.month:02d}"
        day = "xx" if self.day == -1 else f"{self.day:02d}"
        return f"{year}-{month}-{day}"

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Unknown fields sort as 0, so `1990-xx-xx` < `1990-05-xx` < `1991-xx-xx`."""
        return (max(self.year, 0), max(self.month, 0), max(self.day, 0))

    @staticmethod
    def parse(text: str) -> Date | None:
        """Parse `yyyy-mm-dd` with `xx`/`xxxx` for unknown fields (the official evaluator's rule)."""
        parts = text.lower().split("-")
        if len(parts) != 3:
            return None
        try:
            year = -1 if parts[0] in ("xx", "xxxx") else int(parts[0])
            month = -1 if parts[1] == "xx" else int(parts[1])
            day = -1 if parts[2] == "xx" else int(parts[2])
        except ValueError:
            return None
        if year == month == day == -1:
            return None
        if not (month == -1 or 1 <= month <= 12) or not (day == -1 or 1 <= day <= 31):
            return None
        return Date(year, month, day)


def format_number(value: float) -> str:
    """Numbers print as integers when integral (`1990`, not `1990.0`); infinities as `inf`, never a crash."""
    if math.isfinite(value) and value == int(value) and abs(value) < 1e16:
        return str(int(value))
    return repr(float(value))


def contains_substring(text: str, value: str) -> bool:
    """MAPO's containment: `text` anywhere in `value`."""
    return text in value


def contains_words(text: str, value: str, grades: bool = False) -> bool:
    """`text` in `value` as whole words (`word_pattern`; `grades` on a user's table)."""
    return bool(text) and text in value and word_pattern(text, grades).search(value) is not None


#: A text that may be a grade or a rating (`A`, `BBB`), whose sign (`A-`, `BBB+`) makes another one.
_GRADE = re.compile(r"[a-z]{1,3}", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def word_pattern(text: str, grades: bool = False) -> re.Pattern:
    """`text` as whole words: not preceded or followed by a letter or digit where it starts or ends with
    one, and a number not inside a longer one: "1" is not in "1,000" or "2.5" but is in "3-1", "no. 1" and "1,2"; "1964" is in
    "1964,1967". Hyphens, apostrophes, underscores, spaces and other punctuation are boundaries; with `grades`
    (a user's table: the official rules keep them) but for the sign that ends a grade or a rating before a space
    or the end: "a" is not in "a-" or "a+", though it is in "g-f"."""
    head, tail = "", ""
    if text[0].isalnum():
        head = r"(?<![^\W_])" + (r"(?<!\d\.)" if text[0].isdigit() else "")
    if text[-1].isalnum():
        tail = r"(?![^\W_])" + (r"(?!\.\d)(?!,\d{3}(?!\d))" if text[-1].isdigit() else "")
        # a grade's sign is part of it: "a" is not in "a-" nor "bbb" in "bbb+"
        if grades and _GRADE.fullmatch(text):
            tail += r"(?![+\-]+(?:\s|$))"
    return re.compile(head + re.escape(text) + tail)
