"""Quantities written with units in users' cells and questions: durations, lengths, masses, data sizes.

A column of `2h 30m`, `1h 05m`, `45m` read one number per cell gives 2, 1 and 45, so the longest task is
the 45-minute one. `column_units` reads such a column as one quantity: every cell with a digit is a run of
number-unit parts of one family, and all are stated in the smallest unit the column uses (150, 65 and 45
minutes). A column in one unit (`12 kg`, `7.5 kg`) keeps its numbers, and its unit is still known, so that
a question's "over 10 kg" or "longer than 2 hours" becomes a number in the column's unit
(`question_quantities`).

Parts are one quantity only when they step down (`2h 30m`, `5 ft 11 in`; `_compound`). A unit word may
name units of several families ("m": minutes or metres); a compound decides it (`1h 20m`: minutes), or a
metric prefix of it in the column (`1.2 km`, `800 m`: metres), and a column that never decides has no unit.
An answer read or computed from such a column is stated in the unit a question asks for (`asked_unit`,
`in_unit`: "how many hours" of a column in minutes).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from nsmcli.worlds.tables.data import textnum


@dataclass(frozen=True)
class Unit:
    """A unit: its family and its size in the family's base unit (seconds, metres, grams, bytes)."""

    family: str
    name: str
    size: float

    @property
    def plural(self) -> str:
        return {"inch": "inches", "foot": "feet"}.get(self.name, self.name + "s")


def _family(family: str, units: dict[str, tuple[float, str]]) -> dict[str, Unit]:
    """Each spelling of `family`'s units (space-separated in the keys), as a Unit."""
    return {word: Unit(family, name, size) for words, (size, name) in units.items() for word in words.split()}


_SPELLINGS: tuple[dict[str, Unit], ...] = (
    _family(
        "time",
        {
            "s sec secs second seconds": (1, "second"),
            "m min mins minute minutes": (60, "minute"),
            "h hr hrs hour hours": (3600, "hour"),
            "d day days": (86400, "day"),
            "wk wks week weeks": (604800, "week"),
            "mo mos month months": (2629800, "month"),  # a twelfth of a Julian year
            "y yr yrs year years": (31557600, "year"),
        },
    ),
    _family(
        "length",
        {
            "mm millimetre millimetres millimeter millimeters": (0.001, "millimetre"),
            "cm centimetre centimetres centimeter centimeters": (0.01, "centimetre"),
            "m metre metres meter meters": (1, "metre"),
            "km kilometre kilometres kilometer kilometers": (1000, "kilometre"),
            'in inch inches " ″': (0.0254, "inch"),
            "ft foot feet ' ′": (0.3048, "foot"),
            "yd yds yard yards": (0.9144, "yard"),
            "mi mile miles": (1609.344, "mile"),
        },
    ),
    _family(
        "mass",
        {
            "mg milligram milligrams": (0.001, "milligram"),
            "g gram grams": (1, "gram"),
            "kg kgs kilogram kilograms kilo kilos": (1000, "kilogram"),
            "t tonne tonnes": (1e6, "tonne"),
            "oz ounce ounces": (28.349523125, "ounce"),
            "lb lbs pound pounds": (453.59237, "pound"),
        },
    ),
    _family(
        "data",  # decimal prefixes, as disks and networks count
        {
            "byte bytes": (1, "byte"),  # no "B": "1.2B" is a billion
            "kb": (1e3, "kilobyte"),
            "mb": (1e6, "megabyte"),
            "gb": (1e9, "gigabyte"),
            "tb": (1e12, "terabyte"),
        },
    ),
)
#: Every spelling, lower-cased, with the units it may name (one per family).
UNITS: dict[str, tuple[Unit, ...]] = {}
for _spellings in _SPELLINGS:
    for _word, _unit in _spellings.items():
        UNITS[_word] = (*UNITS.get(_word, ()), _unit)

#: The unit of a time of day's or a clock-written duration's number (`ValueRules.clock_unit`).
HOUR = UNITS["hour"][0]
MINUTE = UNITS["min"][0]

# A number (US digits or a decimal comma) and its unit word, with optional spacing, a period after an
# abbreviation, and "and" or a comma between parts ("1 hr, 20 min", "5 ft 11 in", "2h30m").
_PART = re.compile(
    r"\s*(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?)\s*(?P<u>[a-zA-Z]+|[\"'″′])\.?\s*(?:,|and\s)?"
)
_ISO_DURATION = re.compile(
    r"\s*P(?:(?P<d>\d+(?:\.\d+)?)D)?(?:T(?:(?P<h>\d+(?:\.\d+)?)H)?(?:(?P<m>\d+(?:\.\d+)?)M)?"
    r"(?:(?P<s>\d+(?:\.\d+)?)S)?)?\s*"
)
_DIGIT = re.compile(r"\d")
_SIGN = re.compile(r"\s*([-+−])(?=\s*\d)")
_US_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_LETTER_OR_MARK = re.compile(r"[a-zA-Z\"'″′]")


#: Two digits without a unit after hours (`1h30`, `2 h 05`), the minutes, as a French or German export writes.
_MINUTES_AFTER_HOURS = re.compile(r"\s*([0-5]\d)\s*")
_HOUR_WORDS = frozenset({"h", "hr", "hrs", "hour", "hours"})
_ONE_DIGIT_HOURS = re.compile(r"\s*[1-9]\s*[a-zA-Z]")


def _parts(cell: str, european: bool) -> list[tuple[float, str]] | None:
    """A cell's (number, unit word) parts, or None when the cell is anything else. A sign before the first
    part is the whole quantity's ("-6 min", "+1h 20m": a flight early or late)."""
    iso = _ISO_DURATION.fullmatch(cell)
    if iso and cell.strip() != "P" and any(iso.groupdict().values()):
        found = [(float(iso[k]), w) for k, w in (("d", "d"), ("h", "h"), ("m", "min"), ("s", "s")) if iso[k]]
        return found
    signed = _SIGN.match(cell)
    if signed:
        unsigned = _parts(cell[signed.end() :], european)
        way = -1.0 if signed[1] in "-−" else 1.0
        return [(way * n, w) for n, w in unsigned] if unsigned else None
    parts = []
    at = 0
    while at < len(cell):
        m = _PART.match(cell, at)
        if m is None or m.end() == at:
            minutes = _MINUTES_AFTER_HOURS.fullmatch(cell, at)
            # "1h30": an hour and 30 minutes; "08h30" and "14h15" are a French clock's times of day
            if minutes and len(parts) == 1 and parts[0][1] in _HOUR_WORDS and _ONE_DIGIT_HOURS.match(cell):
                return [*parts, (float(minutes[1]), "min")]
            return None
        digits = m["n"]
        if "," in digits:
            if european and digits.count(",") == 1 and "." not in digits:
                digits = digits.replace(",", ".")
            elif not european and _US_THOUSANDS.fullmatch(digits):
                digits = digits.replace(",", "")
            else:
                return None  # "1,500,000 m" in a column of decimal commas: no reading
        unit = m["u"].lower()
        if unit not in UNITS:
            return None
        parts.append((float(digits), unit))
        at = m.end()
    return parts or None


def _compound(first: Unit, second: Unit, amount: float) -> bool:
    """Whether `amount` of `second` may follow `first` in one quantity ("2h 30m", "5 ft 11 in", "1 km 200 m"):
    a smaller unit of the same family, at most a thousand times smaller, and less than one `first`. "4220 m
    13,845 ft" (one length twice) and "5 kg, 10 kg" (a list) are none; in "2y 3m" the "m" is months
    (`_MONTHS_AFTER`), never minutes."""
    return (
        first.family == second.family
        and first.size / 1000 <= second.size < first.size
        and amount * second.size < first.size
    )


#: The month: what "m" means after years ("2y 3m", a dog's or a child's age), where minutes never follow.
MONTH = UNITS["month"][0]
_MONTHS_AFTER = frozenset({"year"})


def _months_after_years(parts: Sequence[tuple[float, str]]) -> bool:
    """Whether an "m" of `parts` follows a part in years ("1y 2m"): the cell counts months."""
    return any(
        w == "m" and any(u.name in _MONTHS_AFTER for u in UNITS[before])
        for (_m, before), (_n, w) in zip(parts, parts[1:], strict=False)
    )


def _unit_named(word: str, family: str, months: bool) -> Unit | None:
    """The unit of `family` that `word` names; "m" is a month where the column counts months."""
    if months and family == "time" and word == "m":
        return MONTH
    return next((u for u in UNITS[word] if u.family == family), None)


def _families(parts: Sequence[tuple[float, str]], months: bool | None = None) -> set[str]:
    """The families under which `parts` are one quantity: every word names a unit of the family, and each
    part after the first is a `_compound` step down from the one before. `months`: whether "m" is a month
    (a column of ages says so for all its cells); by default where the parts write it after years."""
    found = set()
    if months is None:
        months = _months_after_years(parts)
    for family in {u.family for u in UNITS[parts[0][1]]}:
        named = [_unit_named(w, family, months) for _n, w in parts]
        if all(u is not None for u in named) and all(
            _compound(a, b, n)
            for a, b, (n, _w) in zip(named, named[1:], parts[1:], strict=False)  # type: ignore[arg-type]
        ):
            found.add(family)
    return found


@dataclass(frozen=True)
class UnitReading:
    """A column read as one quantity: each cell's amount in `unit`, None for a cell without a digit."""

    unit: Unit
    values: tuple[float | None, ...]
    #: whether any cell changed (units mixed in the column, or several parts in a cell)
    converted: bool


def may_have_units(raw: Sequence[str]) -> bool:
    """Whether a column may be one of quantities with units: its first cell with a digit reads as number-unit
    parts (in either decimal convention). Exact, since `column_units` needs every such cell to, and cheap:
    the common columns (dates, names with numbers, money) fail on their first cell."""
    first = next((text for text in raw if _DIGIT.search(text)), None)
    if first is None or not _LETTER_OR_MARK.search(first):
        return False
    return _parts(first, european=False) is not None or _parts(first, european=True) is not None


def column_units(raw: Sequence[str], european: bool = False) -> UnitReading | None:
    """The column as one quantity, when every cell with a digit is number-unit parts of one family; None for
    any other column. `european`: a comma in a number is a decimal comma. A word several families share
    ("m": minutes or metres) is decided by a cell where it follows or precedes another unit in one quantity
    (`1h 20m`, `2m 35s`), or by a metric prefix of it in the column (`km`, `cm` beside `m`); a column where
    nothing decides it (`10.12 s`, `8.05 m`: an athletics table of times and distances) has no unit."""
    if not may_have_units(raw):
        return None
    read: dict[str, list[tuple[float, str]] | None] = {}
    families: set[str] | None = None
    for text in dict.fromkeys(raw):
        if not _DIGIT.search(text):
            read[text] = None
            continue
        parts = _parts(text, european)
        if parts is None:
            return None
        read[text] = parts
        families = _families(parts) if families is None else families & _families(parts)
        if not families:
            return None
    if families is None or len(families) != 1:
        return None  # no cell with a unit, or only words several families share ("5m", "3m")
    family = families.pop()
    words = {w for parts in read.values() if parts for _n, w in parts}
    # a column of ages ("9m", "1y 2m", "11m") counts months wherever a cell writes "m" after years, and then
    # every cell must be one quantity so read ("2h 30m" beside "1y 2m" is none)
    months = family == "time" and any(parts and _months_after_years(parts) for parts in read.values())
    if months and not all(family in _families(parts, months=True) for parts in read.values() if parts):
        return None
    for word in words:
        if (
            len(UNITS[word]) > 1
            and not (months and word == "m")
            and not _decided(word, family, words, read.values())
        ):
            return None

    def unit_of(word: str) -> Unit:
        unit = _unit_named(word, family, months)
        assert unit is not None  # every word names a unit of the family (`_families`)
        return unit

    used = {unit_of(w) for w in words}
    smallest = min(used, key=lambda u: u.size)
    several = len({u.size for u in used}) > 1 or any(parts and len(parts) > 1 for parts in read.values())
    values = {
        text: None if parts is None else _round(sum(n * unit_of(w).size for n, w in parts) / smallest.size)
        for text, parts in read.items()
    }
    return UnitReading(smallest, tuple(values[text] for text in raw), several)


#: A duration written as a clock: minutes and seconds (`32:15`, `125:30`) or hours, minutes and seconds
#: (`1:02:45`).
_CLOCK_DURATION = re.compile(r"\s*(?:(?P<h>\d{1,3}):(?=\d\d:))?(?P<m>\d{1,3}):(?P<s>[0-5]\d)\s*")
#: The most hours a time of day's clock shows: a `m:ss` cell over it is no time of day.
_CLOCK_HOURS = 23


#: A header that says its clocks measure a length of time (`Duration`, `Avg wait`, `Pace (min/mi)`,
#: `Avg Wait (m:ss)`, `track_length`): a track's `3:45` there is not three hours and three quarters. The `mm:ss`
#: of `(hh:mm:ss)` is no such word: `Departure (hh:mm:ss)` is a clock of the day.
_DURATION_HEADER = re.compile(
    r"(?<![a-z])(?:duration|length|runtime|run time|pace|wait|waiting time|(?<!:)m+:s+)s?(?![a-z])",
    re.IGNORECASE,
)
#: A header that says its clocks count hours (`Duration (h:mm)`, `Shift length (hours)`): `2:45` is then
#: hours and minutes, as the rules read a clock. `(h:mm:ss)` gives a duration's whole clock, not hours.
_HOURS_HEADER = re.compile(r"(?<![a-z])(?:h+:m+(?!:)|hours?|hrs?)(?![a-z])", re.IGNORECASE)
#: A header that names a length of time outright (`Duration`, `Match length`, `Avg wait`): its `h:mm:ss` clocks
#: are lengths too. `Run time` and `Pace` are not enough for those: a job's `Last run time` of `02:00:00` is a
#: time of day.
_LENGTH_HEADER = re.compile(r"(?<![a-z])(?:duration|length|wait|waiting time)s?(?![a-z])", re.IGNORECASE)


def names_duration(header: str) -> bool:
    """Whether a column's header says its clocks are durations in minutes and seconds: it names a length of
    time (`_DURATION_HEADER`) and no hours (`_HOURS_HEADER`)."""
    return _DURATION_HEADER.search(header) is not None and _HOURS_HEADER.search(header) is None


def names_length(header: str) -> bool:
    """Whether a header that names a duration (`names_duration`) names a length of time outright
    (`_LENGTH_HEADER`), so that its clocks are lengths even when every one is `h:mm:ss`."""
    return names_duration(header) and _LENGTH_HEADER.search(header) is not None


def clock_durations(raw: Sequence[str], header: str = "") -> UnitReading | None:
    """The column as durations in minutes, where its cells say they are durations written as clocks: every
    cell with a digit is `m:ss` or `h:mm:ss`, both forms are there, and a `m:ss` cell is no time of day
    (`32:15`): a podcast's `32:15` beside its `1:02:45` is 32.25 minutes, not 32 beside 1. Or where the
    header says so (`names_duration`: `Duration`, `Avg wait`, `Run time`) and some cell is `m:ss`: a playlist's
    `3:45` is 3.75 minutes, beside a `1:05:20` or not. Or where the header names a length of time outright
    (`names_length`: `Duration`, `Avg wait`): a match's `00:42:10` is 42.17 minutes, not 0.70 of an hour. Other
    clock columns stay as the rules read them: `18:05` beside `18:05:30` is a time of day, `25:23` alone may be a
    score, and `1:02:45` alone, under a header that names no length (`Last run time`), reads as a time in hours."""
    first = next((text for text in raw if _DIGIT.search(text)), None)
    if first is None or _CLOCK_DURATION.fullmatch(first) is None:  # cheap: most columns fail here
        return None
    values: dict[str, float | None] = {}
    short = long = False
    over_a_day = False
    for text in dict.fromkeys(raw):
        if not _DIGIT.search(text):
            values[text] = None
            continue
        m = _CLOCK_DURATION.fullmatch(text)
        if m is None or (m["h"] is not None and int(m["m"]) >= 60):
            return None
        if m["h"] is None:
            short = True
            over_a_day = over_a_day or int(m["m"]) > _CLOCK_HOURS
        else:
            long = True
        values[text] = _round(int(m["h"] or 0) * 60 + int(m["m"]) + int(m["s"]) / 60)
    # the header is read only for the few columns of clocks, and only where the cells alone do not decide; a
    # duration's header makes `m:ss` cells minutes, a length's (`names_length`) its `h:mm:ss` cells alone too
    if not (short and long and over_a_day) and not (
        names_duration(header) and (short or _LENGTH_HEADER.search(header) is not None)
    ):
        return None
    return UnitReading(MINUTE, tuple(values[text] for text in raw), converted=True)


def _decided(
    word: str, family: str, words: set[str], cells: Iterable[list[tuple[float, str]] | None]
) -> bool:
    """Whether the column decides that `word`, a unit of several families, is of `family`: it stands in one
    quantity with another unit (`1h 20m`), or a prefixed form of it is a unit of `family` there (`km`)."""
    if any(parts and len(parts) > 1 and any(w == word for _n, w in parts) for parts in cells):
        return True
    return any(w != word and w.endswith(word) and any(u.family == family for u in UNITS[w]) for w in words)


#: A unit a header names at its end, in brackets or after a comma: "Height (cm)", "Duration [min]",
#: "Weight, kg" (the text inside is stripped in Python: patterns with spaces on both sides of a lazy group
#: take cubic time on long headers).
_BRACKETED_UNIT = re.compile(r"[(\[]([^()\[\]]*)[)\]]\s*$")
_UNIT_AFTER_COMMA = re.compile(r",([^,]*)$")
_IN = re.compile(r"in\s+")


def header_unit(header: str) -> Unit | None:
    """The unit a header names ("Height (cm)", "Life expectancy, total (years)", "Distance (in km)"), when
    the word names units of one family only ("(m)" may be minutes or metres: None)."""
    end = header[-60:]
    m = _BRACKETED_UNIT.search(end) or _UNIT_AFTER_COMMA.search(end)
    if m is None:
        return None
    word = m.group(1).strip()
    word = word[_IN.match(word).end() :] if _IN.match(word) else word
    named = UNITS.get(word.lower().rstrip("."), ())
    return named[0] if len(named) == 1 else None


def _round(value: float) -> float:
    return round(value, 9)


def question_quantities(tokens: Sequence[str], units: Iterable[Unit]) -> list[textnum.Quantity]:
    """Numbers said with a unit of one of `units`' families ("2 hours", "1.5 hrs", "90 min", "more than an
    hour", "5 km", "2h30m", "2 hours and 30 minutes"), as NUMBER mentions in that family's unit from
    `units`: what a column in that unit compares with. `tokens` are the question's PTB tokens in their case;
    a family with two units in `units` is left out (which column the question means is then unknown), and
    so is a word several families share said alone ("the 100m", "5m")."""
    by_family: dict[str, Unit | None] = {}
    for unit in units:
        by_family[unit.family] = unit if by_family.get(unit.family, unit) == unit else None
    out = []
    i = 0
    while i < len(tokens):
        said = _said_parts(tokens, i)
        if said is None:
            i += 1
            continue
        end, parts = said
        families = _families(parts) & set(by_family)
        alone = len(parts) == 1 and len(UNITS[parts[0][1]]) > 1
        target = by_family[families.pop()] if len(families) == 1 and not alone else None
        if target is not None:
            months = _months_after_years(parts)  # "older than 1y6m": 18 months
            total = sum(n * _unit_named(w, target.family, months).size for n, w in parts)  # type: ignore[union-attr]
            out.append(textnum.Quantity("NUMBER", i, end, (_round(total / target.size),)))
        i = end
    return out


_NUMERAL = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?|\.\d+")
#: Unit words that are other words when written apart from the number ("scored 3 in the final", "5 M" is a
#: magnitude, "1990 s"): only glued to it ("5in", "2h") are they units.
_NOT_APART = frozenset(w for w in UNITS if len(w) == 1 or w in ("in", "mo", "t"))
#: Words that say one of a unit ("an hour", "one day").
_ONE = frozenset(("a", "an", "one"))
#: What "an hour" follows when it is a quantity compared with ("more than an hour", "under a day"), not a
#: rate ("$20 an hour", "twice a week").
_BEFORE_ONE = frozenset("than over under about around least most within exceeding for took lasted".split())
#: Units written in capitals that are no magnitude ("1 GB", "2TB", "5 KM"): "5 M", "$3 MM" and "2 BN" are.
_CAPITAL_UNIT = re.compile(r"(?<![A-Za-z])(?:[KMGTP]B|KM|KG)$")
#: A decade ("1990s", "80s"), which reads like a number of seconds.
_DECADE = re.compile(r"(?:\d\d)?\d0s")


def _one_part(tokens: Sequence[str], j: int, first: bool) -> tuple[int, list[tuple[float, str]]] | None:
    """(end, parts) of one number-unit part at token `j`: a glued token ("2h", "2h30m") or a number and a
    unit word ("2 hours", "two hours", "an hour"); None when none is there. A unit in capitals ("5 M") is a
    magnitude, unless it is one of bytes, kilometres or kilograms (`_CAPITAL_UNIT`: "1 GB")."""
    token = tokens[j]
    if _DIGIT.match(token) and _LETTER_OR_MARK.search(token):
        if (any(c.isupper() for c in token) and not _CAPITAL_UNIT.search(token)) or _DECADE.fullmatch(token):
            return None
        glued = _parts(token, european=False)
        return (j + 1, glued) if glued else None
    after = tokens[j + 1] if j + 1 < len(tokens) else ""
    word = after.lower()
    compared = not first or (j > 0 and tokens[j - 1].lower() in _BEFORE_ONE)
    # "one" alone is `_ONE`'s below ("more than one hour"); "one hundred and twenty minutes" is spelled
    spelled = (
        textnum.number_words_at(tokens, j)
        if compared and (token.lower() not in _ONE or word == "hundred")
        else None
    )
    if spelled is not None and spelled[1] < len(tokens):  # "longer than twenty five minutes"
        value, end = spelled
        unit = tokens[end]
        if unit.lower() in UNITS and unit.lower() not in _NOT_APART and not unit.isupper():
            return end + 1, [(value, unit.lower())]
    if token.lower() == "half" and word in _ONE and compared:  # "half an hour"
        unit = tokens[j + 2].lower() if j + 2 < len(tokens) else ""
        return (j + 3, [(0.5, unit)]) if unit in UNITS and unit not in _NOT_APART else None
    if word not in UNITS or (after.isupper() and not _CAPITAL_UNIT.fullmatch(after)) or word in _NOT_APART:
        return None
    if _NUMERAL.fullmatch(token):
        return j + 2, [(float(token.replace(",", "")), word)]
    if token.lower() in _ONE and compared:
        return j + 2, [(1.0, word)]
    return None


def _said_parts(tokens: Sequence[str], i: int) -> tuple[int, list[tuple[float, str]]] | None:
    """(end, [(number, unit word)]) of one quantity said from token `i` on: parts that step down as one
    quantity does (`_compound`: "2 hours 30 minutes", "2h30m", "an hour and 20 minutes"; not "between 2
    hours and 3 hours"); None when no part starts there."""
    found = _one_part(tokens, i, first=True)
    if found is None:
        return None
    j, parts = found
    while j < len(tokens):
        if [t.lower() for t in tokens[j : j + 3]] == ["and", "a", "half"]:  # "an hour and a half"
            number, word = parts[-1]
            parts[-1] = (number + 0.5, word)
            j += 3
            continue
        at = j + 1 if tokens[j].lower() in ("and", ",") else j
        following = _one_part(tokens, at, first=False) if at < len(tokens) else None
        if following is None or not _families(parts + following[1]):
            break
        j, parts = following[0], parts + following[1]
    return j, parts


def asked_unit(tokens: Sequence[str]) -> Unit | None:
    """The unit a question asks its answer in: "how many hours ...", "... in minutes?"; None when it names
    none (or a word several families share)."""
    for i, token in enumerate(tokens):
        word = token.lower()
        named = UNITS.get(word, ())
        if len(named) != 1 or word in _NOT_APART:
            continue
        before = [t.lower() for t in tokens[max(i - 2, 0) : i]]
        if before == ["how", "many"] or before[-1:] == ["in"]:
            return named[0]
    return None


def in_unit(value: float, unit: Unit, asked: Unit) -> float:
    """`value` in `unit` stated in `asked` (of the same family)."""
    return _round(value * unit.size / asked.size)
