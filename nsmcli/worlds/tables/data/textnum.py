"""Numbers and dates in free text (table cells and questions), CoreNLP/SEMPRE-compatible, pure Python.

The WTQ tagged files were made by SEMPRE (`StringNormalizationUtils`, with `numberCanStartAnywhere` and
`num2CanStartAnywhere` on) on top of CoreNLP NER. We reproduce both layers so that our own tables and
questions look like the official ones:

* `parse_number_lenient` / `parse_num2_lenient` / `parse_date_strict` follow SEMPRE's rules, including
  Java `NumberFormat` quirks ("March 4, 1829" has the number 41829 because spaces are removed first);
* `find_quantities` is a small rule-based stand-in for CoreNLP's NUMBER/ORDINAL/PERCENT/MONEY/DATE/DURATION
  tagger over PTB tokens (`ptb_tokenize`); cells fall back to it when the whole cell is one mention, as
  SEMPRE's language-analyzer fallback does, and questions use it for their entities.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from nsmcli.worlds.tables.data.values import Date

# ---------------------------------------------------------------------------------------------------------
# Java NumberFormat (Locale.US) emulation
# ---------------------------------------------------------------------------------------------------------


def _digit(ch: str) -> int | None:
    if "0" <= ch <= "9":
        return ord(ch) - 48
    if ch.isascii():
        return None
    return unicodedata.decimal(ch, None)


def java_parse_number(s: str, pos: int = 0) -> tuple[float, int] | None:
    """Parse a number at `pos` as Java's US `NumberFormat.parse(s, pos)` does: optional `-`, digits with
    grouping commas anywhere (a trailing comma is not consumed), one decimal point, an optional `E` exponent.
    Returns (value, end index) or None when no digit was read."""
    n = len(s)
    i = pos
    negative = False
    if i < n and s[i] == "-":
        negative, i = True, i + 1
    int_digits: list[str] = []
    frac_digits: list[str] = []
    saw_digit = saw_decimal = False
    backup = -1
    exponent = 0
    while i < n:
        ch = s[i]
        d = _digit(ch)
        if d is not None:
            saw_digit = True
            backup = -1
            (frac_digits if saw_decimal else int_digits).append(str(d))
        elif ch == ".":
            if saw_decimal:
                break
            saw_decimal = True
        elif ch == ",":
            if saw_decimal:
                break
            backup = i
        elif ch == "E":
            j = i + 1
            exp_negative = j < n and s[j] == "-"
            if exp_negative:
                j += 1
            k = j
            while k < n and _digit(s[k]) is not None:
                k += 1
            if k > j:
                exponent = int("".join(str(_digit(c)) for c in s[j:k])) * (-1 if exp_negative else 1)
                i = k
            break
        else:
            break
        i += 1
    if backup != -1:
        i = backup
    if not saw_digit:
        return None
    text = "".join(int_digits) or "0"
    if frac_digits:
        text += "." + "".join(frac_digits)
    try:
        value = float(text) * (10.0**exponent)
    except OverflowError:
        value = float("inf")
    return (-value if negative else value), i


_LEADING_NON_NUMBER = re.compile(r"^[^0-9.]*")


def parse_number_lenient(text: str) -> float | None:
    """SEMPRE's `parseNumberLenient` with `numberCanStartAnywhere`: skip to the first digit or `.`, drop
    spaces, read a number prefix ("$2,000 ft." -> 2000; signs are lost)."""
    s = _LEADING_NON_NUMBER.sub("", text, count=1).replace(" ", "")
    parsed = java_parse_number(s)
    return None if parsed is None else parsed[0]


def parse_num2_lenient(text: str) -> float | None:
    """SEMPRE's `parseNum2Lenient`: the second number of a cell ("3–1" -> 1, "9 October 1970" -> 1970)."""
    s = _LEADING_NON_NUMBER.sub("", text.replace(" ", ""), count=1)
    parsed = java_parse_number(s)
    if parsed is None:
        return None
    s = _LEADING_NON_NUMBER.sub("", s[parsed[1] :], count=1)
    parsed = java_parse_number(s)
    return None if parsed is None else parsed[0]


def parse_number_strict(text: str) -> float | None:
    """The whole string is one number (Java `parseNumberStrict`): "1,000" yes, "9,000 cakes" no."""
    parsed = java_parse_number(text)
    if parsed is None or parsed[1] != len(text):
        return None
    return parsed[0]


# ---------------------------------------------------------------------------------------------------------
# Dates
# ---------------------------------------------------------------------------------------------------------

MONTHS = {
    name: i
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
_JODA_MONTHS = {k: v for k, v in MONTHS.items() if k != "sept"}
_SUTIME = re.compile(r"([0-9X]{4})(?:-([0-9X]{2}))?(?:-([0-9X]{2}))?")
_AMERICAN = re.compile(r"([A-Za-z]+) (\d{1,2}), ([-+]?\d{1,9})")


def make_date(year: int, month: int, day: int) -> Date | None:
    """A Date if the known fields are a valid calendar date (Feb 30 is not), else None."""
    if year == month == day == -1:
        return None
    if month != -1 and not 1 <= month <= 12:
        return None
    if day != -1:
        if not 1 <= day <= 31:
            return None
        if month != -1:
            leap_year = year if year > 0 else 2000
            if day > calendar.monthrange(leap_year, month)[1]:
                return None
    return Date(year, month, day)


def parse_sutime_value(value: str) -> Date | None:
    """A SUTime/ISO value `1995-01-26`, `XXXX-05-31`, `1990-05`, `1990` -> Date (None for `199X`, ranges)."""
    m = _SUTIME.fullmatch(value.upper())
    if not m:
        return None
    fields = [-1 if g is None or "X" in g else int(g) for g in m.groups()]
    return make_date(*fields)


def parse_date_strict(text: str) -> Date | None:
    """SEMPRE's `parseDate` Joda branch: `MMM d, yyyy` ("Jan 26, 1995"). Its SUTime-string branch is left
    to the tagger, as in the tagged files (a lone "9101" is no date there)."""
    m = _AMERICAN.fullmatch(text)
    if m and m.group(1).lower() in _JODA_MONTHS:
        return make_date(int(m.group(3)), _JODA_MONTHS[m.group(1).lower()], int(m.group(2)))
    return None


# ---------------------------------------------------------------------------------------------------------
# PTB-like tokenizer
# ---------------------------------------------------------------------------------------------------------

ABBREVIATIONS = frozenset(
    "st mr mrs ms dr jr sr no vs bros co inc ltd corp mt ft gen col lt sgt capt rev dept univ ave blvd "
    "jan feb mar apr jun jul aug sep sept oct nov dec est approx fig vol op pp ed eds govt assn".split()
)
_LEADING = "\"'`([{<$#£€¿¡"
_TRAILING = "\"')]}>,;:!?%"
_BRACKETS = {"(": "-lrb-", ")": "-rrb-", "[": "-lsb-", "]": "-rsb-", "{": "-lcb-", "}": "-rcb-"}
_DASHES = "–—―"
#: The endings the tokenizer splits off a word ("didn't" -> "did", "n't"), as PTB does.
CLITICS = ("n't", "'s", "'re", "'ve", "'ll", "'d", "'m")
_INNER_SPLIT = re.compile(r"([–—―()\[\]{}]|\.\.\.)")


def _quote(ch: str, opening: bool) -> str:
    if ch == '"':
        return "``" if opening else "''"
    if ch in "`'":
        return "`" if opening else "'"
    return ch


def _split_core(core: str) -> list[str]:
    """Split a chunk without leading/trailing punctuation: clitics, inner dashes and brackets."""
    out: list[str] = []
    for part in _INNER_SPLIT.split(core):
        if not part:
            continue
        if part in _BRACKETS:
            out.append(_BRACKETS[part])
        elif part in _DASHES:
            out.append("--")
        else:
            out.extend(_split_clitic(part))
    return out


def _split_clitic(word: str) -> list[str]:
    low = word.lower().replace("’", "'")
    for clitic in CLITICS:
        if low.endswith(clitic) and len(low) > len(clitic):
            cut = len(word) - len(clitic)
            return [word[:cut], word[cut:].replace("’", "'")]
    if low.endswith("s'") and len(low) > 2 and low[:-2].isalpha():
        return [word[:-1], "'"]
    return [word]


def _is_abbreviation(word: str) -> bool:
    low = word.lower()
    return (
        (len(low) == 1 and low.isalpha())
        or re.fullmatch(r"(?:[a-z]\.)+[a-z]", low) is not None
        or low in ABBREVIATIONS
    )


def ptb_tokenize(text: str) -> list[str]:
    """Case-preserving PTB-style tokens: punctuation split off, `'s`/`n't` split, brackets as `-lrb-`,
    double quotes as `` and '', en/em dashes as `--`; numbers keep their commas, points, hyphens and
    slashes ("10,000", "2006-07", "11/09/2013")."""
    tokens: list[str] = []
    for chunk in text.split():
        head: list[str] = []
        tail: list[str] = []
        while chunk and chunk[0] in _LEADING:
            ch = chunk[0]
            if ch == "'" and re.match(r"'\d0s\b", chunk):
                break
            if ch in "-" and len(chunk) > 1 and chunk[1].isdigit():
                break
            head.append(_BRACKETS.get(ch) or _quote(ch, True))
            chunk = chunk[1:]
        while chunk:
            if chunk.endswith("..."):
                tail.append("...")
                chunk = chunk[:-3]
            elif chunk[-1] in _TRAILING:
                ch = chunk[-1]
                if ch == "'" and len(chunk) > 2 and chunk[-2] == "s" and chunk[:-2].isalpha():
                    break
                tail.append(_BRACKETS.get(ch) or _quote(ch, False))
                chunk = chunk[:-1]
            elif chunk[-1] == "." and len(chunk) > 1:
                if _is_abbreviation(chunk[:-1]):
                    break
                tail.append(".")
                chunk = chunk[:-1]
            else:
                break
        tokens.extend(head)
        if chunk:
            tokens.extend(_split_core(chunk))
        tokens.extend(reversed(tail))
    if tokens and len(tokens[-1]) > 1 and tokens[-1].endswith(".") and tokens[-1] != "...":
        tokens.append(".")  # PTB: a sentence-final abbreviation keeps its period and gets another
    return tokens


# ---------------------------------------------------------------------------------------------------------
# CoreNLP-like quantity tagger
# ---------------------------------------------------------------------------------------------------------

_UNITS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen".split()
    )
}
_TENS = {
    w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), start=2)
}
_MAGNITUDES = {"hundred": 100, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_ORDINAL_WORDS = {
    w: i
    for i, w in enumerate(
        "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
        "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth".split()
    )
}
_ORDINAL_TENS = {
    w: 10 * i
    for i, w in enumerate(
        "twentieth thirtieth fortieth fiftieth sixtieth seventieth eightieth ninetieth".split(), start=2
    )
}
DURATION_UNITS = frozenset(
    "year years yr yrs month months week weeks day days hour hours hr hrs minute minutes min mins second "
    "seconds sec secs decade decades century centuries".split()
)
_CURRENCY = {"$": "$", "#": "£", "£": "£", "€": "€", "us$": "$"}
_CURRENCY_WORDS = frozenset("dollars dollar euros euro pounds pound".split())
_NUMERIC = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[+-]?\.\d+")
_ORDINAL_DIGITS = re.compile(r"(\d+)(?:st|nd|rd|th)")
_DECADE = re.compile(r"(\d{3})0'?s|'(\d)0s|(\d)0s")
_RANGE = re.compile(r"(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)")
_NUMERIC_DATE = re.compile(r"(\d{1,2})([/-])(\d{1,2})\2(\d{4}|\d{2})|(\d{4})-(\d{1,2})-(\d{1,2})")
_DOTTED_DATE = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})")
_YEAR_SLASH = re.compile(r"(\d{4})/(\d{2}|\d{4})")
#: Month names that are also common words: only months next to a day or year.
_AMBIGUOUS_MONTHS = frozenset({"may", "mar", "march", "jan", "sep", "dec"})
_PLAIN_MONTHS = frozenset({"march", "jan", "sep", "dec"})
#: The ways a weekday is written, full name first ("thursday", "thu", "thur", "thurs").
WEEKDAY_FORMS: tuple[tuple[str, ...], ...] = (
    ("monday", "mon"),
    ("tuesday", "tue", "tues"),
    ("wednesday", "wed"),
    ("thursday", "thu", "thur", "thurs"),
    ("friday", "fri"),
    ("saturday", "sat"),
    ("sunday", "sun"),
)
WEEKDAYS = frozenset(form for forms in WEEKDAY_FORMS for form in forms)


@dataclass(frozen=True)
class Quantity:
    """One CoreNLP-style mention over tokens [start, end): kind is NUMBER, ORDINAL, PERCENT, MONEY, DATE,
    DURATION or DECADE; values are floats (Dates for DATE; the first year for DECADE)."""

    kind: str
    start: int
    end: int
    values: tuple


def number_token(token: str) -> float | None:
    """A numeral token: "1,000", "-7", "15.5", ".25" (grouping must be well formed)."""
    if not _NUMERIC.fullmatch(token):
        return None
    return float(token.replace(",", ""))


def _is_year(token: str) -> int | None:
    if len(token) == 4 and token.isascii() and token.isdigit():
        year = int(token)
        if 500 <= year <= 2999:
            return year
    return None


def number_words_at(tokens: Sequence[str], i: int) -> tuple[float, int] | None:
    """(value, end) of the number spelled in words from token `i` ("two", "twenty five", "one hundred and
    twenty"), None where none starts there."""
    low = [t.lower() for t in tokens]
    if low[i] not in _UNITS and low[i] not in _TENS and low[i].split("-")[0] not in _TENS:
        return None
    return _word_number(low, i)


def _word_number(low: list[str], i: int) -> tuple[float, int] | None:
    """Number words from i: "twenty-one", "two hundred thousand", "4.0 million" -> (value, end)."""
    total = 0.0
    current = 0.0
    last = ""  # "unit", "tens", "hundred", "magnitude"
    j = i
    while j < len(low):
        w = low[j]
        parts = w.split("-")
        if len(parts) == 2 and parts[0] in _TENS and parts[1] in _UNITS and 0 < _UNITS[parts[1]] < 10:
            if last in ("unit", "tens"):
                break
            current, last = current + _TENS[parts[0]] + _UNITS[parts[1]], "unit"
        elif w in _UNITS:
            if last == "unit" or (last == "tens" and not 0 < _UNITS[w] < 10):
                break
            current, last = current + _UNITS[w], "unit"
        elif w in _TENS:
            if last in ("unit", "tens"):
                break
            current, last = current + _TENS[w], "tens"
        elif w in _MAGNITUDES and last:
            mult = _MAGNITUDES[w]
            if mult == 100:
                if last == "hundred":
                    break
                current, last = (current or 1) * 100, "hundred"
            else:
                total, current, last = total + (current or 1) * mult, 0.0, "magnitude"
        elif (
            w == "and"
            and last in ("hundred", "magnitude")
            and j + 1 < len(low)
            and (low[j + 1] in _UNITS or low[j + 1] in _TENS)
        ):
            pass
        elif (
            not last and (v := number_token(w)) is not None and j + 1 < len(low) and low[j + 1] in _MAGNITUDES
        ):
            current, last = v, "unit"
        else:
            break
        j += 1
    if not last:
        return None
    return total + current, j


def _ordinal(word: str) -> int | None:
    m = _ORDINAL_DIGITS.fullmatch(word)
    if m:
        return int(m.group(1))
    if word in _ORDINAL_WORDS:
        return _ORDINAL_WORDS[word]
    if word in _ORDINAL_TENS:
        return _ORDINAL_TENS[word]
    parts = word.split("-")
    if len(parts) == 2 and parts[0] in _TENS and parts[1] in _ORDINAL_WORDS:
        return _TENS[parts[0]] + _ORDINAL_WORDS[parts[1]]
    return None


def _day(word: str) -> int | None:
    if word.isascii() and word.isdigit() and len(word) <= 2 and 1 <= int(word) <= 31:
        return int(word)
    m = _ORDINAL_DIGITS.fullmatch(word)
    if m and 1 <= int(m.group(1)) <= 31:
        return int(m.group(1))
    return None


def _month(tokens: list[str], low: list[str], i: int) -> int | None:
    w = low[i].rstrip(".")
    return MONTHS.get(w) if w in MONTHS else None


def _may_as_month(tokens: list[str], j: int) -> bool:
    """Whether token `j` is "May" the month, alone: written capitalised, neither asking ("May I know ...")
    nor a name's first word ("orders of May Smith")."""
    following = tokens[j + 1] if j + 1 < len(tokens) else ""
    return (
        tokens[j] == "May"
        and following not in ("I", "we", "We", "you", "You")
        and not (following[:1].isupper() and following[1:].islower())
    )


def _date_at(tokens: list[str], low: list[str], i: int) -> tuple[Date, int] | None:
    """A calendar date starting at i: "july 6th, 2010", "19 september 1984", "december of 1985", "may 2011"."""
    n = len(low)
    if low[i] in WEEKDAYS:
        k = i + 2 if i + 1 < n and low[i + 1] == "," else i + 1
        return _date_at(tokens, low, k) if k < n and low[k] not in WEEKDAYS else None
    day = -1
    j = i
    if (
        _is_year(low[i])
        and i + 1 < n
        and _month(tokens, low, i + 1)
        and (low[i + 1] not in _AMBIGUOUS_MONTHS or (i + 2 < n and _day(low[i + 2]) is not None))
    ):
        month = _month(tokens, low, i + 1) or -1
        end = i + 2
        if end < n and _day(low[end]) is not None:
            day, end = _day(low[end]), end + 1
        date = make_date(int(low[i]), month, day)
        return (date, end) if date is not None else None
    if _day(low[i]) is not None and i + 1 < n and _month(tokens, low, i + 1):
        day, j = _day(low[i]), i + 1
    elif i + 3 < n and _day(low[i]) and low[i + 1] == "of" and _month(tokens, low, i + 2) and low[i] != "1":
        day, j = _day(low[i]), i + 2
    month = _month(tokens, low, j)
    if month is None:
        return None
    end = j + 1
    year = -1
    if day == -1 and end < n and _day(low[end]) is not None:
        day, end = _day(low[end]), end + 1
    elif day == -1 and end < n and _RANGE.fullmatch(low[end]):
        month_only = make_date(-1, month, -1)  # "july 29-31": CoreNLP keeps the month only
        return (month_only, end + 1) if month_only is not None else None
    if end < n and _is_year(low[end]):
        year, end = int(low[end]), end + 1
    elif end + 1 < n and low[end] == "," and _is_year(low[end + 1]):
        year, end = int(low[end + 1]), end + 2
    elif end + 1 < n and low[end] == "of" and _is_year(low[end + 1]):
        year, end = int(low[end + 1]), end + 2
    word = low[j].rstrip(".")
    if day == -1 and year == -1:
        if word in _AMBIGUOUS_MONTHS and word not in _PLAIN_MONTHS and not _may_as_month(tokens, j):
            return None
    date = make_date(year, month, day)
    return (date, end) if date is not None else None


def clock_hours(hour: int, minute: int = 0, second: int = 0, half: str | None = None) -> float | None:
    """A time of day as a number of hours (`half`: "a" or "p" for am and pm, "n" for "at night": 5 to 11
    are pm, 12 midnight, 1 to 4 in the morning); None when it is no time. The sum is in this order so
    that SQL's `H + M / 60.0 + S / 3600.0` gives the same float."""
    if half:
        if not 1 <= hour <= 12:
            return None
        half = half.lower()
        afternoon = half == "p" or (half == "n" and 5 <= hour <= 11)
        hour = hour % 12 + (12 if afternoon else 0)
    if hour > 23 or minute > 59 or second > 59:
        return None
    return hour + minute / 60 + second / 3600


def match_hours(match: re.Match, half: str | None = None) -> float | None:
    """`clock_hours` of a match with groups `h`, `m` and `s` (the last two optional) and `half`, unless
    `half` is given."""
    return clock_hours(int(match["h"]), int(match["m"] or 0), int(match["s"] or 0), half or match["half"])


_CLOCK_TOKEN = re.compile(
    r"(?P<h>\d{1,2})(?:(?P<sep>[:.])(?P<m>\d{2})(?::(?P<s>\d{2}))?)?(?:(?P<half>[ap])\.?m\.?)?"
)
#: Words between the two ends of a range of hours: "between 5 and 6 pm" is 17 to 18.
_RANGE_WORDS = frozenset({"and", "to", "-", "–", "until", "till"})
_HALF_DAY_TOKEN = re.compile(r"(?P<half>[ap])\.?m\.?")
_CLOCK_WORDS = {"noon": 12.0, "midday": 12.0, "midnight": 0.0}
#: Words after an hour that say its half of the day: "between 7 and 9 in the morning" is 7 to 9 am.
_HALF_DAY_PHRASES = {
    ("in", "the", "morning"): "a",
    ("in", "the", "afternoon"): "p",
    ("in", "the", "evening"): "p",
    ("at", "night"): "n",
}


def find_times(tokens: list[str]) -> list[Quantity]:
    """Times of day over lower-cased PTB tokens, as TIME mentions whose value is a number of hours: "18:30",
    "7:00 am", "6 pm", "10am", "6:45 p.m.", "noon", "9 in the morning". A bare number ("after 6") is no
    time."""
    out: list[Quantity] = []
    i = 0
    while i < len(tokens):
        word = tokens[i]
        if word in _CLOCK_WORDS:
            out.append(Quantity("TIME", i, i + 1, (_CLOCK_WORDS[word],)))
            i += 1
            continue
        m = _CLOCK_TOKEN.fullmatch(word)
        end = i + 1
        half = m["half"] if m else None
        if m and half is None and end < len(tokens):
            following = _HALF_DAY_TOKEN.fullmatch(tokens[end])
            if following:
                half, end = following["half"], end + 1
            else:
                phrase = next((p for p in _HALF_DAY_PHRASES if tuple(tokens[end : end + len(p)]) == p), None)
                if phrase is not None:
                    half, end = _HALF_DAY_PHRASES[phrase], end + len(phrase)
        # "6.30" is a time only with an am or pm ("6.30 pm"); alone it is the number 6.3
        if m and ((m["m"] and (m["sep"] == ":" or half)) or (half and not m["m"])):
            hours = match_hours(m, half)
            if hours is not None:
                start = i
                # "5 and 6 pm": the bare hour before a range word takes the same am or pm
                if (
                    half
                    and i >= 2
                    and tokens[i - 1] in _RANGE_WORDS
                    and re.fullmatch(r"\d{1,2}", tokens[i - 2])
                ):
                    first = clock_hours(int(tokens[i - 2]), half=half)
                    if first is not None and not (out and out[-1].end > i - 2):
                        out.append(Quantity("TIME", i - 2, i - 1, (first,)))
                out.append(Quantity("TIME", start, end, (hours,)))
                i = end
                continue
        i += 1
    return out


#: Words that compare with zero: "negative growth" is growth below 0.
SIGN_WORDS = frozenset({"negative", "positive"})
#: Words of falling and of rising, which compare with zero where a column holds both signs: "which cities
#: are shrinking?" of a growth column of -0.4 and 1.2 is growth below 0; "lost" a change below 0; "early" a
#: delay below 0, "refunds" amounts below 0, a "deficit" a balance below 0 (a "surplus" above).
FALLING_WORDS = frozenset(
    {
        "shrinking", "shrank", "shrunk", "shrinks", "shrink", "declined", "declining", "declines", "decline",
        "decreased", "decreasing", "decreases", "fell", "falling", "falls", "fall", "dropped", "dropping",
        "drops", "drop", "lost", "lose", "loses", "losing", "cut", "cuts", "reduced", "loss-making", "early",
        "refund", "refunds", "refunded", "lowered", "lowering", "outgoing", "outgoings", "withdrawal",
        "withdrawals", "debits", "debited", "deficit", "deficits",
    }
)  # fmt: skip
#: Words of a balance's sign ("ran a deficit"): of a column that the word itself names (`Budget deficit`), they
#: state no sign.
BALANCE_WORDS = frozenset({"deficit", "deficits", "surplus", "surpluses"})
RISING_WORDS = frozenset(
    {
        "growing", "grew", "grows", "grow", "rose", "rising", "rises", "rise", "gained", "gaining", "gains",
        "gain", "increased", "increasing", "increases", "incoming", "deposit", "deposits", "deposited",
        "surplus", "surpluses",
    }
)  # fmt: skip
#: "down" and "up" only after a verb of ending or going ("closed down", "went up", "is down"), "lower" and
#: "higher" only after one of ending or trading ("closed lower"; "which is higher, a or b?" compares two).
_DIRECTION_VERBS: dict[str, frozenset[str]] = {
    "down": frozenset({"closed", "close", "closes", "closing", "ended", "ends", "finished", "went", "go",
                       "goes", "is", "was", "are", "were", "trading", "traded"}),
    "lower": frozenset({"closed", "close", "closes", "closing", "ended", "ends", "finished", "trading", "traded"}),
}  # fmt: skip
_DIRECTION_VERBS |= {"up": _DIRECTION_VERBS["down"], "higher": _DIRECTION_VERBS["lower"]}
#: "behind" only after a word of how far ("furthest behind its target"): "who finished right behind Ann"
#: and "which team was behind Arsenal" ask for the next row.
_DIRECTION_VERBS["behind"] = frozenset({"furthest", "farthest", "further", "farther", "most", "far"})
#: money going out of an account or coming into it, over a ledger's signed amounts ("the biggest payment out
#: of the account", "money came into the account")
_DIRECTION_VERBS["out"] = frozenset({"payment", "payments", "paid", "money", "transferred"})
_DIRECTION_VERBS["into"] = frozenset({"came", "come", "comes", "coming", "paid", "deposited"})
#: prices that "got cheaper" fell, and those that "got dearer" rose
_BECOMING = frozenset({"got", "get", "gets", "getting", "became", "become", "becomes", "went", "go", "gone"})
_DIRECTION_VERBS |= {"cheaper": _BECOMING, "dearer": _BECOMING, "pricier": _BECOMING}


#: Words that may follow "in the red" and end its phrase ("in the red right now", "in the red this year").
_AFTER_A_PHRASE = frozenset(
    "right now currently overall again today this last so and or but at on in for by after before since".split()
)


def _ends_phrase(tokens: Sequence[str], k: int) -> bool:
    """Whether nothing that a word would modify stands at token `k`: the end, a sign, or `_AFTER_A_PHRASE`."""
    return k >= len(tokens) or not tokens[k].isalpha() or tokens[k] in _AFTER_A_PHRASE


def change_direction(tokens: Sequence[str], i: int) -> str | None:
    """Whether lower-cased token `i` says a value fell ("fall": "shrinking", "lost", "closed down") or rose
    ("rise": "grew", "went up"), else None."""
    word = tokens[i]
    after_verb = i > 0 and tokens[i - 1] in _DIRECTION_VERBS.get(word, ())
    # "in the red", "overdrawn", "made a loss": below zero; "in the black" above it
    # ... but "in the red team" names a team
    in_the = i > 1 and tuple(tokens[i - 2 : i]) == ("in", "the") and _ends_phrase(tokens, i + 1)
    a_loss = word == "loss" and i > 0 and tokens[i - 1] == "a"
    if word in FALLING_WORDS or (after_verb and word in ("down", "lower", "behind", "out")):
        return "fall"
    if (in_the and word == "red") or word == "overdrawn" or a_loss or (after_verb and word == "cheaper"):
        return "fall"
    if word in RISING_WORDS or (after_verb and word in ("up", "higher", "into")):
        return "rise"
    if (in_the and word == "black") or (after_verb and word in ("dearer", "pricier")):
        return "rise"
    return None


def find_sign_words(tokens: list[str], *, signed_column: bool = False) -> list[Quantity]:
    """The words "negative" and "positive" over lower-cased tokens, as NUMBER mentions of 0: the number a
    filter on the sign compares with. With `signed_column` (the table holds a column of both signs), also
    the words of falling and rising (`change_direction`)."""
    return [
        Quantity("NUMBER", i, i + 1, (0.0,))
        for i, word in enumerate(tokens)
        if word in SIGN_WORDS or (signed_column and change_direction(tokens, i) is not None)
    ]


def find_quantities(tokens: list[str], *, slash_years: bool = False) -> list[Quantity]:
    """CoreNLP-like NUMBER/ORDINAL/PERCENT/MONEY/DATE/DURATION/DECADE mentions over PTB tokens.

    `slash_years`: read "1997/98" as the year 1997 (CoreNLP does so only sometimes; off by default)."""
    low = [t.lower() for t in tokens]
    out: list[Quantity] = []
    n = len(low)
    i = 0
    while i < n:
        w = low[i]
        # --- dates ---------------------------------------------------------------------------------------
        found = _date_at(tokens, low, i)
        if found:
            date, end = found
            out.append(Quantity("DATE", i, end, (date,)))
            i = end
            continue
        m = _NUMERIC_DATE.fullmatch(w.replace("\\/", "/"))
        if m:
            if m.group(1):
                year = int(m.group(4)) if len(m.group(4)) == 4 else -1
                date = make_date(year, int(m.group(1)), int(m.group(3)))
            else:
                date = make_date(int(m.group(5)), int(m.group(6)), int(m.group(7)))
            if date is not None:
                out.append(Quantity("DATE", i, i + 1, (date,)))
                i += 1
                continue
        m = _DOTTED_DATE.fullmatch(w)
        if m:
            date = make_date(int(m.group(3)), int(m.group(2)), int(m.group(1)))
            if date is not None:
                out.append(Quantity("DATE", i, i + 1, (date,)))
                i += 1
                continue
        year = _is_year(w)
        if year is not None and not (i + 1 < n and (low[i + 1] in DURATION_UNITS or low[i + 1] == "%")):
            out.append(Quantity("DATE", i, i + 1, (Date(year, -1, -1),)))
            i += 1
            continue
        m = _DECADE.fullmatch(w)
        if m:
            if m.group(1):
                start = int(m.group(1)) * 10
            else:
                start = 1900 + int(m.group(2) or m.group(3)) * 10
            out.append(Quantity("DECADE", i, i + 1, (float(start),)))
            i += 1
            continue
        m = _YEAR_SLASH.fullmatch(w.replace("\\/", "/"))
        if m and slash_years and _is_year(m.group(1)):
            out.append(Quantity("DATE", i, i + 1, (Date(int(m.group(1)), -1, -1),)))
            i += 1
            continue
        m = _RANGE.fullmatch(w)
        if m:
            a, b = m.group(1), m.group(2)
            if _is_year(a) and len(b) == 4 and _is_year(b):
                out.append(Quantity("DATE", i, i + 1, (Date(int(a), -1, -1), Date(int(b), -1, -1))))
            elif _is_year(a) and len(b) == 2 and 1 <= int(b) <= 12:
                out.append(Quantity("DATE", i, i + 1, (Date(int(a), int(b), -1),)))
            else:
                out.append(Quantity("NUMBER", i, i + 1, (float(a), float(b))))
            i += 1
            continue
        # --- money, percent, numbers -------------------------------------------------------------------
        if w in _CURRENCY and i + 1 < n:
            parsed = _number_at(low, i + 1)
            if parsed:
                value, end = parsed
                out.append(Quantity("MONEY", i, end, (value,)))
                i = end
                continue
        ordinal = _ordinal(w)
        if ordinal is not None:
            out.append(Quantity("ORDINAL", i, i + 1, (float(ordinal),)))
            i += 1
            continue
        parsed = _number_at(low, i)
        if parsed:
            value, end = parsed
            kind = "NUMBER"
            if end < n and low[end] in ("%", "percent"):
                kind, end = "PERCENT", end + 1
            elif end < n and low[end] in _CURRENCY_WORDS:
                kind, end = "MONEY", end + 1
            elif end < n and low[end] in DURATION_UNITS:
                kind = "DURATION"
            elif end + 1 < n and low[end + 1] in DURATION_UNITS and low[end] in ("-",):
                kind = "DURATION"
            out.append(Quantity(kind, i, end, (value,)))
            i = end
            continue
        i += 1
    return out


def _number_at(low: list[str], i: int) -> tuple[float, int] | None:
    value = number_token(low[i])
    if value is not None:
        end = i + 1
        if end < len(low) and low[end] in _MAGNITUDES and low[end] != "hundred":
            value, end = value * _MAGNITUDES[low[end]], end + 1
        return value, end
    return _word_number(low, i)


# ---------------------------------------------------------------------------------------------------------
# Cells
# ---------------------------------------------------------------------------------------------------------

_WHOLE_NUMBER_KINDS = ("NUMBER", "ORDINAL", "PERCENT", "MONEY")


#: The words a quantity without digits is made of: a mention with no digit names a month (`_date_at`) or is
#: a number or ordinal in words; weekdays, "of", "and", magnitudes and currency only extend one.
_QUANTITY_WORDS = (*MONTHS, *_UNITS, *_TENS, *_ORDINAL_WORDS, *_ORDINAL_TENS)
# A token only ever ends between two letters before the clitic "n't" (`_split_clitic`), so a quantity word
# as a token is never preceded by a letter, and followed by none unless "n't" follows.
# Matched without case over the text itself: that finds every word `t.lower()` of a token would (and a
# few more, such as "ſept", which the tokenizer then rejects). A digit: `\d` and `unicodedata.decimal` both
# mean Unicode category Nd.
_DIGIT_OR_QUANTITY_WORD = re.compile(
    rf"\d|(?<![a-z])(?:{'|'.join(sorted(_QUANTITY_WORDS, key=len, reverse=True))})(?:(?![a-z])|(?=n['’]t))",
    re.IGNORECASE,
)


def may_hold_quantity(text: str) -> bool:
    """False when `text` can hold no number or date mention at all (no digit and no quantity word): the
    cheap test that spares most text cells the tokenizer and the tagger."""
    return _DIGIT_OR_QUANTITY_WORD.search(text) is not None


#: A numeral with no sign, grouping or exponent: its own only token, which `find_quantities` tags as a year
#: or a number.
_PLAIN_NUMERAL = re.compile(r"[0-9]+(?:\.[0-9]+)?")


@lru_cache(maxsize=65536)
def _whole_span(text: str) -> Quantity | None:
    """The single quantity that spans every token of `text`, if any (SEMPRE's language-analyzer rule)."""
    if not may_hold_quantity(text):
        return None
    plain = _PLAIN_NUMERAL.fullmatch(text.strip())
    if plain:  # one numeral token, the commonest cell: a year or a number, as the tagger below reads it
        year = _is_year(plain.group())
        return (
            Quantity("DATE", 0, 1, (Date(year, -1, -1),))
            if year
            else Quantity("NUMBER", 0, 1, (float(plain.group()),))
        )
    tokens = ptb_tokenize(text)
    if not tokens:
        return None
    found = _merge_dates(find_quantities(tokens), tokens)
    if len(found) == 1 and found[0].start == 0 and found[0].end == len(tokens):
        return found[0]
    return None


def _year_only(q: Quantity) -> bool:
    return all(d.month == -1 and d.day == -1 for d in q.values)


def _merge_dates(found: list[Quantity], tokens: list[str]) -> list[Quantity]:
    """CoreNLP joins dates in a list ("1972, 2008", years on separate lines) into one mention with the
    first value; a dash joins them only when both are the same ("2004–2004")."""
    merged: list[Quantity] = []
    for q in found:
        if (
            merged
            and q.kind == "DATE"
            and merged[-1].kind == "DATE"
            and _year_only(q)
            and _year_only(merged[-1])
        ):
            prev = merged[-1]
            gap = tokens[prev.end : q.start]
            if all(t in (",", ";") for t in gap) or (
                all(t in ("--", "-") for t in gap) and prev.values == q.values
            ):
                merged[-1] = Quantity("DATE", prev.start, q.end, prev.values)
                continue
        merged.append(q)
    return merged


def parse_cell_numbers(text: str) -> tuple[float | None, float | None]:
    """(number, num2) of a table cell as in the WTQ tagged files: the first number anywhere in the cell
    ("$2,000 ft." -> 2000, "Eleven" -> 11) and the number after it ("3–1" -> 1)."""
    if not may_hold_quantity(text):  # no digit for the lenient readers, no words for the tagger
        return None, None
    number = parse_number_lenient(text)
    if number is None:
        q = _whole_span(text)
        if q is not None and q.kind in _WHOLE_NUMBER_KINDS and len(q.values) == 1:
            number = q.values[0]
    return number, parse_num2_lenient(text)


def parse_cell_date(text: str) -> Date | None:
    """The date a table cell states, as in the WTQ tagged files: a `yyyy[-mm[-dd]]` or `Mon d, yyyy` cell,
    else a cell that is one CoreNLP-style date ("19 September 1984", "April 1991", "May")."""
    if not may_hold_quantity(text):
        return None
    date = parse_date_strict(text)
    if date is not None:
        return date
    q = _whole_span(text)
    if q is not None and q.kind == "DATE" and len(q.values) == 1:
        return q.values[0]
    return None


def parse_number_words(text: str) -> float | None:
    """A number written in words or digits, e.g. "twenty-one", "two hundred thousand", "4.0 million"."""
    tokens = [t.lower() for t in ptb_tokenize(text)]
    if not tokens:
        return None
    parsed = _number_at(tokens, 0)
    if parsed is None or parsed[1] != len(tokens):
        return None
    return parsed[0]
