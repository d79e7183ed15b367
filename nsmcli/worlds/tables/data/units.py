"""Quantities written with units in users' cells and questions: durations, lengths, masses, data sizes.

A column of `2h 30m`, `1h 05m`, `45m` read one number per cell gives 2, 1 and 45, so the longest task is
the 45-minute one. `column_units` reads such a column as one quantity: every cell with a digit is a run of
number-unit parts of one family, and all are stated in the smallest unit the column uses (150, 65 and 45
minutes). A column in one unit (`12 kg`, `7.5 kg`) keeps its numbers, and its unit is still known, so that
a question's "over 10 kg" or "longer than 2 hours" becomes a number in the column's unit
(`question_quantities`).

A unit word may name units of several families ("m": minutes or metres); the column's other cells decide
(`1h 20m` makes it minutes, `1.2 km` metres), and a column that never decides has no unit.
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
_US_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_LETTER_OR_MARK = re.compile(r"[a-zA-Z\"'″′]")


def _parts(cell: str, european: bool) -> list[tuple[float, str]] | None:
    """A cell's (number, unit word) parts, or None when the cell is anything else."""
    iso = _ISO_DURATION.fullmatch(cell)
    if iso and cell.strip() != "P" and any(iso.groupdict().values()):
        found = [(float(iso[k]), w) for k, w in (("d", "d"), ("h", "h"), ("m", "min"), ("s", "s")) if iso[k]]
        return found
    parts = []
    at = 0
    while at < len(cell):
        m = _PART.match(cell, at)
        if m is None or m.end() == at:
            return None
        digits = m["n"]
        if "," in digits:
            if european:
                digits = digits.replace(",", ".")
            elif _US_THOUSANDS.fullmatch(digits):
                digits = digits.replace(",", "")
            else:
                return None
        unit = m["u"].lower()
        if unit not in UNITS:
            return None
        parts.append((float(digits), unit))
        at = m.end()
    return parts or None


@dataclass(frozen=True)
class UnitReading:
    """A column read as one quantity: each cell's amount in `unit`, None for a cell without a digit."""

    unit: Unit
    values: tuple[float | None, ...]
    #: whether any cell changed (units mixed in the column, or several parts in a cell)
    converted: bool


def may_have_units(raw: Sequence[str]) -> bool:
    """Whether a column's first cells hold a digit and a letter or mark: the test that spares the common
    columns `column_units`' reading."""
    return any(_LETTER_OR_MARK.search(text) and _DIGIT.search(text) for text in raw[:50])


def column_units(raw: Sequence[str], european: bool = False) -> UnitReading | None:
    """The column as one quantity, when every cell with a digit is number-unit parts of one family that the
    cells decide; None for any other column. `european`: a comma in a number is a decimal comma."""
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
        for _number, word in parts:
            named = {u.family for u in UNITS[word]}
            families = named if families is None else families & named
        if families == set():
            return None
    if families is None or len(families) != 1:
        return None  # no cell with a unit, or only words several families share ("5m", "3m")
    family = families.pop()

    def unit_of(word: str) -> Unit:
        return next(u for u in UNITS[word] if u.family == family)

    used = {unit_of(w) for parts in read.values() if parts for _n, w in parts}
    smallest = min(used, key=lambda u: u.size)
    several = len({u.size for u in used}) > 1 or any(parts and len(parts) > 1 for parts in read.values())
    values = {
        text: None if parts is None else _round(sum(n * unit_of(w).size for n, w in parts) / smallest.size)
        for text, parts in read.items()
    }
    return UnitReading(smallest, tuple(values[text] for text in raw), several)


#: A unit a header names at its end, in brackets or after a comma: "Height (cm)", "Duration [min]",
#: "Weight, kg".
_BRACKETED_UNIT = re.compile(r"[(\[]\s*(?:in\s+)?([^()\[\]]+?)\s*[)\]]\s*$")
_UNIT_AFTER_COMMA = re.compile(r",\s*([^,]+?)\s*$")


def header_unit(header: str) -> Unit | None:
    """The unit a header names ("Height (cm)", "Life expectancy, total (years)", "Distance (in km)"), when
    the word names units of one family only ("(m)" may be minutes or metres: None)."""
    m = _BRACKETED_UNIT.search(header) or _UNIT_AFTER_COMMA.search(header)
    if m is None:
        return None
    named = UNITS.get(m.group(1).lower().rstrip("."), ())
    return named[0] if len(named) == 1 else None


def _round(value: float) -> float:
    return round(value, 9)


def question_quantities(tokens: Sequence[str], units: Iterable[Unit]) -> list[textnum.Quantity]:
    """Numbers said with a unit of one of `units`' families ("2 hours", "1.5 hrs", "90 min", "an hour",
    "5 km", "2h30m"), as NUMBER mentions in that family's unit from `units`: what a column in that unit
    compares with. `tokens` are the question's PTB tokens in their case; a family with two units in `units`
    is left out (which column the question means is then unknown)."""
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
        families = set(by_family)
        for _number, word in parts:
            families &= {u.family for u in UNITS[word]}
        target = by_family[families.pop()] if len(families) == 1 else None
        if target is not None:
            total = sum(n * next(u for u in UNITS[w] if u.family == target.family).size for n, w in parts)
            out.append(textnum.Quantity("NUMBER", i, end, (_round(total / target.size),)))
        i = end
    return out


_NUMERAL = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?|\.\d+")
#: Unit words that are other words when written apart from the number ("scored 3 in the final", "5 M" is a
#: magnitude, "1990 s"): only glued to it ("5in", "2h") are they units.
_NOT_APART = frozenset(w for w in UNITS if len(w) == 1 or w in ("in", "mo", "t"))
#: Words that say one of a unit ("an hour", "one day").
_ONE = frozenset(("a", "an", "one"))


def _said_parts(tokens: Sequence[str], i: int) -> tuple[int, list[tuple[float, str]]] | None:
    """(end, [(number, unit word)]) of the number-unit parts said from token `i` on ("2 hours 30 minutes",
    "2h30m", "an hour and 20 minutes"); None when none starts there. A unit in capitals ("5 M") is a
    magnitude, no unit."""
    parts: list[tuple[float, str]] = []
    j = i
    while j < len(tokens):
        token = tokens[j]
        glued = _parts(token, european=False) if _DIGIT.match(token) and not token.isdigit() else None
        after = tokens[j + 1] if j + 1 < len(tokens) else ""
        if glued and not any(c.isupper() for c in token):
            parts += glued
            j += 1
        elif (
            (_NUMERAL.fullmatch(token) or token.lower() in _ONE)
            and after.lower() in UNITS
            and not after.isupper()
            and after.lower() not in _NOT_APART
        ):
            number = 1.0 if token.lower() in _ONE else float(token.replace(",", ""))
            parts.append((number, after.lower()))
            j += 2
        else:
            break
        if parts and j + 1 < len(tokens) and tokens[j].lower() in ("and", ",") and _said_parts(tokens, j + 1):
            j += 1  # "2 hours and 30 minutes": one quantity
    if not parts:
        return None
    while j > i and tokens[j - 1].lower() in ("and", ","):
        j -= 1
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
