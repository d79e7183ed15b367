"""Value rules: how a column's cell text becomes the typed views (number, num2, date) programs read.

Two rule sets, declared once and chosen by name, in the manner of SQL dialects:

* `WtqRules` ("wtq") are the official WikiTableQuestions rules (SEMPRE/CoreNLP as in the tagged files,
  `nsmcli.worlds.tables.data.textnum`). WTQ and WikiSQL data keep them unchanged: the bundled models were trained on
  them and the official answers were computed with them. They lose signs (`-3.5` -> 3.5), read `2.5M` as
  2.5 and `Mar. 15, 2024` as the number 0.15, and know no day-first or ISO date-time forms.
* `UserRules` ("user") read the spreadsheets people bring: signs (ASCII and Unicode minus), accounting
  negatives `(1,200.00)`, currency symbols and codes (`$1,234.50`, `USD 12`, `12 EUR`), percentages as
  written (`12.5%` -> 12.5, the number a question says when it asks about "12.5%"), magnitude suffixes
  (`3k`, `2.5M`, `1.2bn`, `4 million`), European decimals (`1.234,50`) and day-first dates (`15/03/2024`),
  both decided per column from all of its cells, ISO dates and date-times (`2024-03-15T10:00` is the date
  2024-03-15) and month-name dates (`Mar. 15, 2024`, `1 March 2024`). Times of day are numbers of hours
  (`18:30` and `6:30 pm` -> 18.5), so "trains leaving after 6 pm" is a comparison with 18; years of an era
  are signed (`753 BC` -> -753, as is "500 BC" in a question; `AD 79` -> 79) and `c. 900` is 900; a column
  of quantities with mixed units (`2h 30m`, `45m`) is one number in its smallest unit
  (`nsmcli.worlds.tables.data.units`); a date-time's
  number is its time of day, and a cell stating a full date without a time has no number. Anything else
  is read as the WTQ rules read it, so tables the model was trained on look the same.

Which rules apply is declared per dataset (`nsmcli.worlds.tables.data.preprocess.dataset_formats`) and carried by the `Table`
(`Table.value_rules`), so the interpreter, the question annotator and the SQL rendering see one typing.
Empty cells are missing in every typed view under both rule sets.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import ClassVar

from nsmcli.errors import DataError
from nsmcli.worlds.tables.data import textnum, units
from nsmcli.worlds.tables.data.values import PLAIN_TEXT, Date, normalize, normalize_user

#: Cells with this many tokens or more get no number (MAPO's max_n_tokens_for_num_prop).
MAX_TOKENS_FOR_NUMBER = 10
#: The typed views a column can offer besides its string view.
TYPED_KINDS = ("number", "num2", "date")


@dataclass(frozen=True)
class CellValues:
    """What one cell supports: the number, second number and date are None when absent."""

    string: str
    number: float | None = None
    num2: float | None = None
    date: Date | None = None


def parse_cell(raw: str) -> CellValues:
    """Type one cell by the WTQ rules. The number views apply only to short cells."""
    if not textnum.may_hold_quantity(raw):  # words alone: the readers below find no number and no date
        return CellValues(normalize(raw))
    return _parse_cell_in_full(raw)


def _parse_cell_in_full(raw: str) -> CellValues:
    number = num2 = None
    if len(raw.split()) < MAX_TOKENS_FOR_NUMBER:
        number, num2 = textnum.parse_cell_numbers(raw)
    return CellValues(normalize(raw), number, num2, textnum.parse_cell_date(raw))


class ValueRules:
    """A rule set: the typed values of a column's cells, and which question mentions become numbers."""

    name: ClassVar[str]
    #: CoreNLP-style question mentions (`textnum.Quantity.kind`) that become number entities.
    question_number_kinds: ClassVar[tuple[str, ...]] = ("NUMBER",)
    #: Whether questions are read as a user's table needs (`annotate`): times of day ("after 6 pm") are
    #: numbers of hours, as the cells'; "negative" and "positive" are the number 0 (the cells keep signs);
    #: a yes/no column's name links the cell meant; "won" links a results column's `W`.
    user_question_readings: ClassVar[bool] = False
    #: Header symbols that name a word in column slugs, and so in programs and in the column-question match
    #: ("% Change" is `percent_change`, not a second `change`); the WTQ rules drop them, as WTQ's own data.
    header_symbols: ClassVar[dict[str, str]] = {}
    #: Headers of symbols alone that name words (a box score's `+/-` is the plus-minus); another header
    #: of symbols alone keeps a plain name (`column_9`).
    header_names: ClassVar[dict[str, str]] = {}
    #: How a header's words and a question's words meet in the column-question match beyond equality
    #: (None: only equal words match, as in WTQ's data).
    header_words: ClassVar[HeaderWords | None] = None
    #: Whether a header's parenthesised detail stays in its slug where it alone tells the header from
    #: another (`CPI, annual % (2021)` beside `(2022)`); the WTQ rules drop details, as WTQ's own data.
    header_details: ClassVar[bool] = False

    def cell_values(self, raw: Sequence[str]) -> list[CellValues]:
        """The values of every cell of one column (a column at a time: some rules look at all cells)."""
        raise NotImplementedError

    def question_values(self, tokens: Sequence[str]) -> list[textnum.Quantity]:
        """Number and date mentions these rules read in a question's tokens (in their case) as they read
        cells, where the shared CoreNLP-like reading misses them or reads them otherwise; those spans take
        these readings instead."""
        return []

    def for_table(self, columns: Sequence[Sequence[str]]) -> ValueRules:
        """The rules to type this table's columns with (every column's raw cells given): rules that decide
        something for the whole table return a configured copy; these read every table alike."""
        return self

    def column_units(self, raw: Sequence[str], header: str = "") -> units.UnitReading | None:
        """A column of quantities with units (`2h 30m`, `1.2 km`) read as one quantity in one unit, when these
        rules read units; None otherwise. The header may say what its clocks measure (`Duration`)."""
        return None

    def quantity_unit(self, header: str, quantity: units.UnitReading | None) -> units.Unit | None:
        """The unit a column's numbers are in, from its cells (`quantity`, what `column_units` read) or its
        header ("Height (cm)"), when these rules read units; None otherwise."""
        return None

    def clock_unit(self, raw: Sequence[str]) -> units.Unit | None:
        """The unit of a column's numbers where its cells are times (`18:05`, `1:02:33`), when these rules
        read times; None otherwise."""
        return None

    def column_views(
        self, raw: Sequence[str], min_typed_fraction: float, header: str = ""
    ) -> dict[str, tuple]:
        """The string view, plus each typed view that at least `min_typed_fraction` of the cells have
        (`header`, the column's name, is for rules that read it)."""
        cells = self.cell_values(raw)
        typed = {kind: tuple(getattr(c, kind) for c in cells) for kind in TYPED_KINDS}
        return _views(tuple(c.string for c in cells), typed, min_typed_fraction)


class WtqRules(ValueRules):
    """The official WikiTableQuestions reading of cells (see the module docstring)."""

    name = "wtq"

    def cell_values(self, raw: Sequence[str]) -> list[CellValues]:
        return _each_distinct(raw, parse_cell)


#: A number in scientific notation, the whole cell.
_SCIENTIFIC = re.compile(r"[-+−]?(?:\d+\.?\d*|\.\d+)[eE][-+]?\d{1,4}")
#: An exponent inside a code (`S3E22`, `A1E5`): letters before the digits, so no number in scientific notation.
_CODE_EXPONENT = re.compile(r"[A-Za-z]+\d+[eE]\d+")


def _views(strings: tuple, typed: dict[str, tuple], min_typed_fraction: float) -> dict[str, tuple]:
    """The string view, plus each typed view (one value or None per cell) that at least
    `min_typed_fraction` of the cells have."""
    views: dict[str, tuple] = {"string": strings}
    needed = max(min_typed_fraction * len(strings), 1)
    for kind in TYPED_KINDS:
        values = typed[kind]
        if strings and len(values) - values.count(None) >= needed:
            views[kind] = values
    return views


def _each_distinct(raw: Sequence[str], read: Callable[[str], CellValues]) -> list[CellValues]:
    """`read` of every cell, computed once per distinct text: a cell's values depend only on its text (and
    its column), and real columns repeat their texts (years, countries, Yes/No)."""
    seen: dict[str, CellValues] = {}
    out = []
    for text in raw:
        values = seen.get(text)
        if values is None:
            values = seen[text] = read(text)
        out.append(values)
    return out


# ----- user rules -----------------------------------------------------------------------------------------

#: A cell of a column of numbers or dates that says its value is missing: `..` (statistics offices), `…`.
#: Not a dash, which accounts write for zero, nor `n/a`, which may be "not applicable" and which a user names
#: ("leaving out calls where it was n/a").
_MISSING = re.compile(r"\.\.\.?|…")

_CURRENCY_CODES = (
    "USD EUR GBP JPY CHF CAD AUD NZD CNY RMB INR SEK NOK DKK PLN CZK HUF RUB BRL MXN ZAR KRW SGD HKD TRY "
    "ILS THB TWD IDR PHP MYR AED SAR"
).split()
_CURRENCY = (
    r"(?:(?:US|A|AU|C|CA|NZ|HK|S|R|NT|MX)?\$|[€£¥₹₩₽₺₪฿₫₴₦¢]|" + "|".join(_CURRENCY_CODES) + r")(?![A-Za-z])"
)
#: Magnitude suffixes as powers of ten (applied in decimal, so "4.1 billion" is 4100000000, not ...99.9995).
_MAGNITUDES = {
    "k": 3,
    "K": 3,
    "thousand": 3,
    "M": 6,
    "MM": 6,
    "mn": 6,
    "mln": 6,
    "million": 6,
    "B": 9,
    "bn": 9,
    "billion": 9,
    "T": 12,
    "tn": 12,
    "trillion": 12,
}
# Lower-case `m` and `b` are left alone: "100 m" is a distance and "5 b" is rarely a billion.
_MAGNITUDE = "|".join(sorted(map(re.escape, _MAGNITUDES), key=len, reverse=True))
#: A question token of digits and a magnitude suffix: "18k", "1.5M" (a word such as "million" is its own token).
# "B" and "T" alone are left to cells: a question's "room 2B" or "3T" is no billion or trillion
_QUESTION_MAGNITUDE = "|".join(sorted(map(re.escape, set(_MAGNITUDES) - {"B", "T"}), key=len, reverse=True))
_SUFFIXED_NUMBER = re.compile(rf"(?P<sign>[-+−]?)(?P<digits>\d[\d.,]*)(?P<mag>{_QUESTION_MAGNITUDE})")
#: A question's money with a lower-case million or billion ("$1.5m", "€2b"): money only, as in cells.
_MONEY_SUFFIXED_NUMBER = re.compile(r"(?P<sign>[-+−]?)(?P<digits>\d[\d.,]*)(?P<mag>[mMbB])")
_MONEY_TOKEN = re.compile(_CURRENCY)
_NUMBER_NOUN = re.compile(r"(?P<digits>\d[\d.,]*)-(?P<noun>[^\W\d_]{2,})")


def number_noun(token: str) -> re.Match[str] | None:
    """A number joined to the noun it counts ("4-credit courses", "3-bedroom", "5-star"), or None; not a
    magnitude ("$5-million"), a date ("12-Mar") or a unit of time ("5-year return", "1-day pass")."""
    m = _NUMBER_NOUN.fullmatch(token)
    if m is None:
        return None
    noun = m["noun"].lower()
    if noun in _WORD_POWERS or noun in _SPELLED_MAGNITUDES or noun in textnum.MONTHS:
        return None
    return None if noun in textnum.DURATION_UNITS else m


#: A question's number token ("1.5", "-2", "1,200").
_QUESTION_NUMERAL = re.compile(r"(?P<sign>[-+−]?)(?P<digits>\d[\d.,]*|[.,]\d+)")
_MINUS = "-−"
#: A temperature written as one token ("26.5°C", "-3°", "80°F"), which the shared reading leaves alone.
_QUESTION_DEGREES = re.compile(r"(?P<sign>[-+−]?)(?P<digits>\d[\d.,]*)(?:[°º][CcFf]?|℃|℉)")
#: The first group of a numeral whose thousands are grouped by spaces, and each group after it (the last
#: with decimals in either convention).
_SPACED_HEAD = re.compile(r"[-−]?[1-9]\d{0,2}")
_SPACED_GROUP = re.compile(r"\d{3}(?:[.,]\d+)?")
#: A numeral of thousands groups with one separator throughout ("3,000", "10.000"): thousands in either
#: convention, since a question seldom writes three decimals.
_GROUPED_THOUSANDS = re.compile(r"[1-9]\d{0,2}(?:\.\d{3})+|[1-9]\d{0,2}(?:,\d{3})+")
#: Magnitude words a question writes apart from its number ("1.5 mn", "2 bn"); "m" and "b" only after money.
_QUESTION_MAGNITUDE_WORDS = frozenset({"k", "K", "M", "MM", "mn", "mln", "bn", "tn"})
#: Of those, the ones that say a magnitude wherever they stand.
_SPELLED_MAGNITUDES = frozenset({"mn", "mln", "bn", "tn"})
#: What "a" or "an" before these words says ("over a thousand dollars", "a dozen"), and "half a" before them.
_ONE_OF = {"hundred": 100.0, "thousand": 1e3, "million": 1e6, "billion": 1e9, "dozen": 12.0}
#: A year's last two digits after an apostrophe ("March '24"), as the tokenizer splits it.
_TWO_DIGITS = re.compile(r"\d{2}")
#: A year's digits, and "before Christ" as cells and questions write it ("BC", "B.C.", "BCE").
_YEAR_DIGITS = r"\d{1,3}(?:,\d{3})+|\d+"
_BEFORE_CHRIST = r"b\.?\s?c\.?(?:e\.?)?"
#: A year of an era ("753 BC", "79 AD", "500 BCE", "138 B.C."): before Christ is a negative number.
_ERA_YEAR = re.compile(
    rf"\s*(?P<year>{_YEAR_DIGITS})\s*(?:(?P<bc>{_BEFORE_CHRIST})|a\.?\s?d\.?|c\.?\s?e\.?)\s*", re.IGNORECASE
)
#: What may precede a year or an amount without changing it: "AD 79", "c. 900", "ca. 1450", "circa 1200".
_ERA_OR_CIRCA_BEFORE = re.compile(r"\s*(?:a\.?\s?d\.?|c\.|ca\.|circa)\s*(?=\d)", re.IGNORECASE)
#: A question's year and its word for before Christ, two tokens ("founded before 500 BC").
_QUESTION_YEAR = re.compile(_YEAR_DIGITS)
_QUESTION_BC = re.compile(_BEFORE_CHRIST, re.IGNORECASE)
# Each optional piece carries its own trailing whitespace, so no two `\s*` meet: adjacent ones split a run
# of spaces in n^k ways, and a cell of a few hundred spaces took seconds (thousands never finished).
_NUMBER = re.compile(
    rf"""\s*(?:{_CURRENCY}\s*)?(?:(?P<open>\()\s*)?(?:(?P<sign>[-+−])\s*)?(?:(?P<cur>{_CURRENCY})\s*)?
    (?:(?P<sign2>[-+−])\s*)?
    (?P<digits>(?>\d[\d.,'\u00a0\u202f]*\d|\d|[.,]\d+))
    (?:\s*(?P<mag>{_MAGNITUDE}))?(?![A-Za-z])
    \s*(?P<pct>%)?\s*(?:(?P<cur2>{_CURRENCY})\s*)?(?P<close>\))?(?P<rest>.*)""",
    re.VERBOSE | re.DOTALL,
)
_GROUP = "[,'\u00a0\u202f]"
#: Thousands grouped by plain spaces (`1 234,56`, `12 000`): French and Nordic exports. The spaces become
#: no-break spaces, which both conventions read as grouping, so the column's decimal mark still decides.
_SPACE_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?: \d{3})+(?!\d| \d)")
#: A lower-case million or billion ending an amount (`£400m`, `$2.5 b`): only money makes `m` a million.
_TRAILING_MAGNITUDE = re.compile(r"\d(\s*)([mb])\s*\Z")

_US_DIGITS = re.compile(rf"\d{{1,3}}(?:{_GROUP}\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+")
_EU_DIGITS = re.compile(r"\d{1,3}(?:[.'\u00a0\u202f]\d{3})+(?:,\d+)?|\d+(?:,\d+)?|,\d+")
# Only these say which convention a column follows; "1,234" and "1.234" could be either.
_EU_EVIDENCE = re.compile(r"\d*[.\u00a0\u202f]\d{3},\d+|\d+,(?:\d{1,2}|\d{4,})|\d{1,3}(?:\.\d{3}){2,}|,\d+")
#: What `_EU_EVIDENCE` needs without a comma: two groups of three digits after points ("1.234.567").
_POINT_GROUPS = re.compile(r"\.\d{3}\.\d{3}")
_US_EVIDENCE = re.compile(r"\d*[,\u00a0\u202f]\d{3}\.\d+|\d+\.(?:\d{1,2}|\d{4,})|\d{1,3}(?:,\d{3}){2,}|\.\d+")

#: A weekday before a date in digits ("Mon 2024-04-01", "Tue, 03/05/2024"): analytics and calendar exports
_WEEKDAY_BEFORE = r"(?i:(?:" + "|".join(sorted(textnum.WEEKDAYS, key=len, reverse=True)) + r")\.?,?\s+)?"
#: The time of a date-time, with its zone: an offset ("Z", "+01:00"), or UTC, GMT (perhaps with an offset:
#: "GMT+2") or a common zone's abbreviation after a space (" UTC", " cet", " EST")
_TIME = (
    r"(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s*[AaPp][Mm])?"
    r"(?:Z|\s?[+-]\d{2}:?\d{2}|\s(?i:(?:UTC|GMT)(?:[+-]\d{1,2}(?::?\d{2})?)?"
    r"|CET|CEST|EET|EEST|WET|WEST|BST|EST|EDT|CST|CDT|MST|MDT|PST|PDT|AEST|AEDT|JST))?)?"
)
_ISO_DATE = re.compile(rf"\s*{_WEEKDAY_BEFORE}(\d{{4}})([-/])(\d{{1,2}})\2(\d{{1,2}}){_TIME}\s*")
# Dotted dates need a four-digit year: "3.10.12" is a version number.
_NUMERIC_DATE = re.compile(
    rf"\s*{_WEEKDAY_BEFORE}(?P<a>\d{{1,2}})(?:(?P<sep>[/-])(?P<b>\d{{1,2}})(?P=sep)(?P<y>\d{{4}}|\d{{2}})"
    rf"|(?P<dot>\.)(?P<b2>\d{{1,2}})\.(?P<y2>\d{{4}})){_TIME}\s*"
)
#: Somewhere in a text, a numeric date `_NUMERIC_DATE` may read (the test that spares other columns a scan).
_NUMERIC_DATE_IN = re.compile(r"\d{1,2}(?:[/-]\d{1,2}[/-]\d{2}|\.\d{1,2}\.\d{4})")
_YEAR = re.compile(r"\s*(\d{4})\s*")
#: A month and year in digits ("03/2024"): a monthly report's period ("3.2024" is a number, "1-2000" a range,
#: "1/2500" odds).
_NUMERIC_MONTH_YEAR = re.compile(r"\s*(\d{1,2})/((?:1[7-9]|2[01])\d\d)\s*")
#: A spreadsheet's error value ("#DIV/0!", "#N/A"): no number, though "#DIV/0!" holds a digit.
_SPREADSHEET_ERROR = re.compile(
    r"\s*#(?:DIV/0!|N/A|VALUE!|REF!|NAME\?|NUM!|NULL!|SPILL!|CALC!|GETTING_DATA)\s*"
)
#: A time of day alone ("18:05", "6:30 pm", "7 a.m.", "18:05:30"), and the time part of a date-time.
_CLOCK = re.compile(
    r"\s*+(?P<h>\d{1,2})(?::(?P<m>\d{2})(?::(?P<s>\d{2})(?:\.\d+)?)?)?(?:\s*+(?P<half>[AaPp])\.?[Mm]\.?)?\s*+"
)


def _race_pattern(fraction: str) -> re.Pattern[str]:
    """A race's time, minutes and seconds with hours before them or not, its seconds followed by `fraction`."""
    return re.compile(rf"\s*(?:(?P<h>\d{{1,2}}):(?=\d{{2}}:))?(?P<m>\d{{1,2}}):(?P<s>[0-5]\d{fraction})\s*")


#: A race time with fractions of a second ("1:23.45", "1:02:03.4"): a duration, read as seconds. No time
#: of day is written with hundredths, so the form says which it is.
_RACE_TIME = _race_pattern(r"\.\d{1,3}")
#: A pace, minutes and seconds per distance ("5:32/km", "5:58 min/km", "8:05 /mi", "1:45 per 100m"): minutes, so that the
#: fastest is the least and "how many seconds faster" a difference of them. No time of day has a "/km".
_PACE = re.compile(
    r"\s*(?P<m>\d{1,2}):(?P<s>[0-5]\d(?:\.\d{1,3})?)\s*(?:min\s*)?(?:/|per\s)\s*(?:\d+\s*)?(?:km|k|mi|mile|m|yd)\.?\s*",
    re.IGNORECASE,
)
#: A cell shaped like a time of day (hours and minutes); `ColumnLayout.times` needs every such cell to be one.
_CLOCK_SHAPE = re.compile(r"\s*\d{1,2}:\d{2}(?!\d)")
#: Seconds with tenths or hundredths that are not zero (`12.3`, `12.45`): a race's time, never a clock's; a
#: log's time of day counts milliseconds (`14:03:27.125`).
_TENTHS = re.compile(r":\d{2}\.(?:[1-9]\d?|\d[1-9])(?!\d)")
_CLOCK_OF_DATETIME = re.compile(
    r"[T ](?P<h>\d{1,2}):(?P<m>\d{2})(?::(?P<s>\d{2})(?:\.\d+)?)?(?:\s*(?P<half>[AaPp])[Mm])?"
)
#: Two decimals ending an amount: an accounting export's trailing minus follows them ("1,200.00-"); a band
#: "50,000-" is open-ended.
_CENTS = re.compile(r"[.,]\d{2}$")
_PLAIN_NUMERAL = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_ANY_DIGIT = re.compile(r"\d")
#: Money and percent signs: a cell holding one is no date of the WTQ tagger's (a date mention spans every
#: token of the cell there, and none of its date forms takes such a token).
_MONEY_OR_PERCENT = re.compile(r"[$€£¥%]")
#: A cell's first token when it is letters alone. The tagger's dates all start at a token with a digit, a
#: month or a weekday (`textnum.find_quantities`), and a cell is its date only if one spans every token.
_LEADING_WORD = re.compile(r"\s*([^\W\d_]+)(?=\s|$)")
_DATE_WORDS = frozenset(textnum.MONTHS) | frozenset(textnum.WEEKDAYS)
#: Joins a column's distinct cells for the column-wide scans of `UserRules`; no pattern below matches it.
_SEP = "\x00"
#: The share of a user column's filled cells that gives it a typed view, however many cells are blank.
FILLED_TYPED_FRACTION = 0.5
#: ... and at least this many of them: one "see row 4" in an empty `Comment` column makes no number column.
MIN_FILLED_TYPED = 3
#: A code of letters and digits, one word (`D-2401`, `R10418`, `INV-0042/B`, a refund's `SK-2510R`): an
#: identifier, not an amount; a letter after the digits is no magnitude (`EUR100k`, `R150m` are amounts).
_CODE = re.compile(r"[A-Za-z]+[-_#/]?\d+(?:[AC-JLN-Zac-jln-z](?![A-Za-z]))?(?:[-_/][A-Za-z0-9]+)*")
#: A code of letters and digits alone (`B101`, `R-2285`), in its two parts.
_CODE_PARTS = re.compile(r"(?P<letters>[A-Za-z]+)(?P<joint>[-_#/]?)(?P<digits>\d+)")
#: Currencies written with letters before the amount, as they are joined to it (`R150`, `RM120`, `Rs500`,
#: `S/250`): such a column is prices, not codes (a hyphen makes `R-2285` a job number again).
_CURRENCY_LETTERS = frozenset(
    {"R", "RM", "RS", "RP", "S/", "P", "Q", "KR", "TK", "KSH", "SH", "L", "FT", "BS", "B/"}
)
#: A header that names an amount of money (`Price`, `Monthly fee`, `Total cost`): its cells are amounts
#: even when written like codes.
_AMOUNT_HEADER = re.compile(
    r"\b(?:price|prices|cost|costs|fee|fees|amount|total|revenue|sales|salary|pay|paid|budget|balance|value|"
    r"income|charge|charges|fare|rent|spend|spent|payment|tax)\b",
    re.IGNORECASE,
)
#: A header naming a period, whose codes (`W01`, `M03`, `P12`) keep their order as numbers ("sales in week 3").
_PERIOD_HEADER = re.compile(
    r"\b(?:week|wk|month|mth|period|day|round|rd|stage|lap|leg|quarter|qtr|year|yr|season|term|semester|"
    r"sprint|phase|episode|ep|chapter|level)s?\b",
    re.IGNORECASE,
)
#: Digit groups joined by a hyphen or slash (`100-2041`): an article's number under an `Artikel-Nr.` header,
#: which the number view reads as two numbers the way it reads a score; a range elsewhere (`2-4` players).
_DIGIT_CODE = re.compile(r"\d+(?:[-/]\d+)+")
#: A header that ends naming an identifier (`Order #`, `Employee No.`, `Ext`, `Invoice Number`), not one
#: that counts ("No. of Employees", "Number of Guests").
_IDENTIFIER_LAST = re.compile(
    r"(?:^|[^a-z0-9])(?:id|no|nr|num|number|code|ref|sku|ext|extension|#)\.?$|#$", re.IGNORECASE
)
#: A header naming an identifier: one of these words between non-letters (`Order ID`, `invoice_no`, `SKU`,
#: `Référence`), a `#`, or a number's abbreviation opening it (`N. Documento`, `N° facture`).
_IDENTIFIER_HEADER = re.compile(
    r"#|^\s*n\s?[.°º]\s*\w"
    r"|(?:^|[^a-z0-9])(?:id|ids|no|nr|num|number|code|ref|reference|référence|referenz|sku|isbn|zip|postcode|phone"
    r"|ext|extension|pin|serial)(?:$|[^a-z0-9])",
    re.IGNORECASE,
)


def names_identifier(header: str) -> bool:
    """Whether a header names an identifier or code (`Order ID`, `SKU`, `Invoice No.`, `Ext`)."""
    return _IDENTIFIER_HEADER.search(header) is not None


def is_currency_code(text: str) -> bool:
    """Whether a text is a currency's ISO code (`EUR`, `usd`)."""
    return text.upper() in _CURRENCY_CODES


#: Plain numerals (`_PLAIN_NUMERAL`) joined by `_SEP`.
_NUMERAL_COLUMN = re.compile(r"[0-9]+(?:\.[0-9]+)?(?:\x00[0-9]+(?:\.[0-9]+)?)*")
#: What `normalize` changes in `PLAIN_TEXT` besides case, cell by cell: spacing at an end, repeated
#: spaces, whitespace other than a space, a final period.
_SPACING_OR_PERIOD = re.compile(r"(?:^|\x00)\s|\s(?:\x00|$)|\s\s|[^\S ]|\.(?:\x00|$)")
_MONTH_WORDS = "|".join(sorted(textnum.MONTHS, key=len, reverse=True))
_WEEKDAY_WORDS = "|".join(sorted(textnum.WEEKDAYS, key=len, reverse=True))
_DATE_WORD = re.compile(
    rf"(?:{_MONTH_WORDS}|{_WEEKDAY_WORDS})\.?|of|the|\d{{1,4}}(?:st|nd|rd|th)?|\d{{1,2}}:\d{{2}}(?::\d{{2}})?|[ap]\.?m\.?|[,./-]",
    re.IGNORECASE,
)
_HAS_MONTH = re.compile(rf"(?<![a-z])(?:{_MONTH_WORDS})(?![a-z])", re.IGNORECASE)
_MONTH_DAY_YEAR = re.compile(
    rf"\s*(?P<month>{_MONTH_WORDS})\.? (?P<day>\d{{1,2}})(?:st|nd|rd|th)?,? (?P<year>\d{{4}})\s*",
    re.IGNORECASE,
)
_DAY_MONTH_YEAR = re.compile(
    rf"\s*(?P<day>\d{{1,2}})(?:st|nd|rd|th)? (?P<month>{_MONTH_WORDS})\.?,? (?P<year>\d{{4}})\s*",
    re.IGNORECASE,
)
_NUMBER_RANGE = re.compile(r"\d\s*[-/–]\s*\d")  # "August 8-10": a range, which dateutil would misread
_TOKEN = re.compile(r"\d{1,2}:\d{2}(?::\d{2})?|[A-Za-z]+\.?|\d+(?:st|nd|rd|th)?|[^\sA-Za-z\d]")


def _sign(match: re.Match) -> float:
    negative = match["open"] is not None or any(s and s in _MINUS for s in (match["sign"], match["sign2"]))
    return -1.0 if negative else 1.0


def _digits_value(digits: str, european: bool, exponent: int) -> float | None:
    if european:
        if not _EU_DIGITS.fullmatch(digits):
            return None
        plain = re.sub(r"[.'\u00a0\u202f]", "", digits).replace(",", ".")
    else:
        if not _US_DIGITS.fullmatch(digits):
            return None
        plain = re.sub(_GROUP, "", digits)
    return float(f"{plain}e{exponent}")


#: A month and a two-digit year joined by a hyphen or an apostrophe (`Apr-24`, `Apr '24`): a spreadsheet's
#: `mmm-yy`, April 2024; a day of April is written `24-Apr` (`d-mmm`).
_MONTH_SHORT_YEAR = re.compile(
    rf"\s*(?P<month>{_MONTH_WORDS})\.?(?:-|\s*['’]|-')(?P<year>\d{{2}})\s*", re.IGNORECASE
)


def _month_years(raw: Sequence[str]) -> bool:
    """Whether a column's `Mmm-NN` cells are months of years (`Apr-24`, `May-24`: a spreadsheet's `mmm-yy`):
    no month comes with more than three numbers (three years), where a week's or a day's dates (`Jan-05`,
    `Jan-12`, `Jan-19`, `Jan-26`) give a month one number each."""
    numbers: dict[str, set[str]] = {}
    for text in dict.fromkeys(raw):  # each distinct cell once: every column of a user's table is laid out
        m = _MONTH_SHORT_YEAR.fullmatch(text)
        if m:
            numbers.setdefault(m["month"].lower()[:3], set()).add(m["year"])
    return bool(numbers) and max(map(len, numbers.values())) <= 3


def short_month_year(text: str) -> Date | None:
    """The month a `_MONTH_SHORT_YEAR` text states (`Apr-24`: April 2024), else None: a cell's where its
    column is months of years (`_month_years`), a question's token where the table holds that month."""
    m = _MONTH_SHORT_YEAR.fullmatch(text)
    if m is None:
        return None
    return textnum.make_date(_full_year(int(m["year"])), textnum.MONTHS[m["month"].lower()], -1)


def _month_name_date(text: str) -> Date | None:
    """A date written with a month name ("Mar. 15, 2024", "1 March 2024", "Friday, March 1st, 2024",
    "March 2024", "May"); fields the text does not state are unknown (-1)."""
    if not _HAS_MONTH.search(text) or _NUMBER_RANGE.search(text):
        return None
    tokens = _TOKEN.findall(text)
    if not tokens or not all(_DATE_WORD.fullmatch(t) for t in tokens):
        return None
    m = _MONTH_DAY_YEAR.fullmatch(text) or _DAY_MONTH_YEAR.fullmatch(text)
    if m:  # the two commonest forms, read directly: dateutil costs ~50 µs a cell
        return textnum.make_date(int(m["year"]), textnum.MONTHS[m["month"].lower()], int(m["day"]))
    return _dateutil_date(text.strip())


@lru_cache(maxsize=65536)
def _dateutil_date(text: str) -> Date | None:
    # dateutil reads month names, abbreviations with or without a period, ordinal days, weekdays and any
    # order of the fields. Two different defaults show which fields the text leaves unstated.
    from dateutil import parser as dateparser

    try:
        first = dateparser.parse(text, default=datetime(2000, 1, 1))
        second = dateparser.parse(text, default=datetime(2004, 2, 2))
    except (ValueError, OverflowError):
        return None
    year = first.year if first.year == second.year else -1
    month = first.month if first.month == second.month else -1
    day = first.day if first.day == second.day else -1
    return textnum.make_date(year, month, day)


def _numeric_date(text: str) -> tuple[int, int, int] | None:
    """(first field, second field, year) of `03/15/2024`, `15-03-24` or `15.03.2024`, with or without a
    weekday before it; which of the first two is the day is the column's decision. Two-digit years 00-49
    are 2000-2049, 50-99 are 1950-1999."""
    m = _NUMERIC_DATE.fullmatch(text)
    return None if m is None else _date_fields(m)


def _date_fields(m: re.Match[str]) -> tuple[int, int, int]:
    """(first field, second field, year) of a match of `_NUMERIC_DATE`."""
    year_text = m["y"] or m["y2"]
    year = _full_year(int(year_text)) if len(year_text) == 2 else int(year_text)
    return int(m["a"]), int(m["b"] or m["b2"]), year


def _full_year(two_digits: int) -> int:
    """A two-digit year in full: "24" is 2024, "98" 1998."""
    return two_digits + (2000 if two_digits < 50 else 1900)


def _month_year(text: str) -> Date | None:
    """The month a text states in digits ("03/2024", `_NUMERIC_MONTH_YEAR`), else None."""
    m = _NUMERIC_MONTH_YEAR.fullmatch(text)
    return textnum.make_date(int(m.group(2)), int(m.group(1)), -1) if m else None


@dataclass(frozen=True)
class ColumnLayout:
    """What a column's cells together say about how to read each of them."""

    european: bool  # `1.234,50`: a comma for decimals, points or spaces for thousands
    day_first: bool  # `15/03/2024`: day before month in numeric dates
    #: `18:05` is a time of day: no cell shaped like one ("25:23", "59:30") says it is a score or a duration
    times: bool = True
    #: `00:25:12.3` is a race's time in seconds, and so is `00:26:00` beside it (`_is_race_column`)
    race: bool = False
    #: `Apr-24` is April 2024 (`_month_years`), not the 24th of April
    month_years: bool = False

    @classmethod
    def infer(cls, raw: Sequence[str], european_default: bool = False) -> ColumnLayout:
        """European decimals when more cells can only be European than can only be US, and
        `european_default` (the table's convention) when the cells do not decide: none can only be either
        (`3.104`, `1,250`), or as many each way; day-first
        when more numeric dates have a first field over 12 than a second one, or, with no such evidence,
        when most numeric dates are written with points (`15.03.2024`, the German habit); times of day
        unless a cell shaped like one is none (`25:23` makes the column scores, `21:18` with it too), or the
        column is a race's times (`_is_race_column`)."""
        eu, us, day_first, _ = _column_evidence(raw)
        shaped = [text for text in set(raw) if _CLOCK_SHAPE.match(text)]
        race = _is_race_column(shaped)
        times = not race and all(UserRules.clock(text) is not None for text in shaped)
        european = eu > us if eu != us else european_default
        return cls(european, day_first, times, race, _month_years(raw))


#: A race's time: minutes and seconds, with hours before them and tenths after them or not (`00:25:12.3`,
#: `1:23.45`, `00:26:00`).
_RACE_CLOCK = _race_pattern(r"(?:\.\d{1,3})?")
#: The most hours a race's time shows: a time of day with hundredths (`14:30:00.25`) shows more.
_RACE_HOURS = 9


def _is_race_column(shaped: Sequence[str]) -> bool:
    """Whether a column's clock-shaped cells are a race's times: one counts tenths or hundredths of a second
    (`00:25:12.3`; no clock says `.3`), every one reads as a race's time, and none shows more than
    `_RACE_HOURS` hours."""
    if not any(_TENTHS.search(text) for text in shaped):
        return False
    found = [_RACE_CLOCK.fullmatch(text) for text in shaped]
    return all(m is not None and int(m["h"] or 0) <= _RACE_HOURS for m in found)


def _race_seconds_of(race: re.Match[str]) -> float:
    return int(race["h"] or 0) * 3600 + int(race["m"]) * 60 + float(race["s"])


def race_seconds(text: str) -> float | None:
    """The seconds a race's time written as a clock says (`1:30:00` is 5400, `23:59.9` is 1439.9), or None."""
    race = _RACE_CLOCK.fullmatch(text)
    return None if race is None else _race_seconds_of(race)


_PLAIN_SECONDS = re.compile(r"\s*\d{1,2}\.\d+\s*")


def _under_a_minute(text: str) -> float | None:
    """The seconds of a race's time under a minute written without a clock (`58.91`), or None."""
    return float(text) if _PLAIN_SECONDS.fullmatch(text) and float(text) < 60 else None


def _race_seconds(raw: Sequence[str]) -> units.UnitReading | None:
    """A race's column of times (`_is_race_column`) in seconds, as the number view reads them, so that "under
    23 minutes" is 1380 of them; None for any other column, or one with another cell with a digit."""
    timed = [text for text in dict.fromkeys(raw) if _ANY_DIGIT.search(text)]
    if not _is_race_column([text for text in timed if _CLOCK_SHAPE.match(text)]):
        return None
    # a swimmer's sub-minute `58.91` beside `1:03.90` is its seconds
    seconds = {text: race_seconds(text) if ":" in text else _under_a_minute(text) for text in timed}
    if None in seconds.values():
        return None
    return units.UnitReading(units.UNITS["s"][0], tuple(seconds.get(text) for text in raw), converted=False)


def _says_hours(text: str) -> bool:
    """Whether a cell is a time that counts hours for certain: with seconds (`1:02:33`) or am/pm (`6:30 PM`),
    not `19:45`, which may be minutes and seconds."""
    m = _CLOCK.fullmatch(text)
    return m is not None and bool(m["s"] or m["half"]) and textnum.match_hours(m) is not None


def _amount_text(raw: str) -> str:
    """`raw` with spaces that group thousands made no-break spaces, and a money amount's lower-case `m` or
    `b` made `M` or `bn`; any other text unchanged."""
    if " " in raw:
        raw = _SPACE_GROUPED.sub(lambda m: m[0].replace(" ", "\u00a0"), raw)
    suffix = _TRAILING_MAGNITUDE.search(raw) if raw[-1:] in "mb " else None
    if suffix and _MONEY_TOKEN.search(raw, 0, suffix.start()):
        raw = raw[: suffix.start(1)] + ("M" if suffix[2] == "m" else "bn")
    return raw


def _holds_european_evidence(text: str) -> bool:
    """Whether `_EU_EVIDENCE` matches somewhere in `text`; a substring test first spares a big column
    with no comma and no `.123.456` the scan (every other form of the evidence has a comma)."""
    if "," not in text and _POINT_GROUPS.search(text) is None:
        return False
    return _EU_EVIDENCE.search(text) is not None


def _column_evidence(raw: Sequence[str]) -> tuple[int, int, bool, int]:
    """(cells only European, cells only US, day-first, numeric-date cells) of a column
    (`ColumnLayout.infer`)."""
    eu = us = first_over = second_over = dotted = numeric_dates = 0
    for text, times in Counter(raw).items():  # each distinct cell read once, counted as often as it stands
        if not _ANY_DIGIT.search(text):  # no numeric date and no number: no evidence either way
            continue
        text = _amount_text(text)
        m = _NUMERIC_DATE.fullmatch(text)
        if m:
            first, second, _ = _date_fields(m)
            numeric_dates += times
            first_over += times * (first > 12)
            second_over += times * (second > 12)
            dotted += times * (m["dot"] is not None)  # "Mon. 03/04/2024" is no dotted date
            continue
        if _ISO_DATE.fullmatch(text):
            continue
        n = _NUMBER.match(text)
        if n:
            eu += times * bool(_EU_EVIDENCE.fullmatch(n["digits"]))
            us += times * bool(_US_EVIDENCE.fullmatch(n["digits"]))
    if first_over or second_over:
        day_first = first_over > second_over
    else:
        day_first = dotted * 2 > numeric_dates
    return eu, us, day_first, numeric_dates


class HeaderWords:
    """The common form of a header word and a question word: spreadsheet abbreviations written out ("qty",
    "avg.", "ext") and plurals made singular ("sales", "categories"), so that "the average basket" matches
    `Avg. Basket` and "how many units" matches `Unit`."""

    ABBREVIATIONS: ClassVar[dict[str, str]] = {
        "amt": "amount",
        "ast": "assist",
        "avg": "average",
        "blk": "block",
        "cat": "category",
        "dept": "department",
        "econ": "economy",
        "desc": "description",
        "diff": "difference",
        "dob": "birth",
        "differential": "difference",
        "emp": "employee",
        "ext": "extension",
        "gls": "goal",
        "hrs": "hour",
        "inn": "inning",
        "jan": "january",
        "feb": "february",
        "mar": "march",
        "apr": "april",
        "jun": "june",
        "jul": "july",
        "aug": "august",
        "sep": "september",
        "sept": "september",
        "oct": "october",
        "nov": "november",
        "dec": "december",
        "max": "maximum",
        "mdns": "maiden",
        "mgr": "manager",
        "min": "minimum",
        "mins": "minute",
        "no": "number",
        "num": "number",
        "pct": "percent",
        "percentage": "percent",
        "pop": "population",
        "pos": "position",
        "precip": "precipitation",
        "pts": "point",
        "qtr": "quarter",
        "qty": "quantity",
        "reb": "rebound",
        "ref": "reference",
        "stl": "steal",
        "tel": "telephone",
        "temp": "temperature",
        "wkts": "wicket",
        "yr": "year",
        "yrs": "year",
    }

    #: Column codes of sports tables, as the words a question says them in ("games played" is `GP`); a
    #: question's word meets one as it meets a header's word (`word`, `stem`), or as written ("won").
    SPORTS_CODES: ClassVar[dict[str, tuple[str, ...]]] = {
        "gp": ("game", "played"),
        "otl": ("overtime", "loss"),
    }
    #: Codes only a league table has, where `W` and `L` stand side by side and no `H` (a box's width,
    #: length and height): elsewhere `W` is a width or the west, `PF` a box score's personal fouls and
    #: `GA` Georgia.
    LEAGUE_CODES: ClassVar[dict[str, tuple[str, ...]]] = {
        "w": ("win", "won"),
        "l": ("loss", "lost", "lose"),
        "d": ("draw", "drew", "drawn"),
        "t": ("tie", "tied"),
        "p": ("game", "played"),
        "g": ("game", "played"),
        "gf": ("goal", "scored"),
        "ga": ("goal", "against", "allowed", "conceded", "given", "gave"),
        "gd": ("goal", "difference"),
        "pf": ("point", "scored"),
        "pa": ("point", "against", "allowed", "conceded", "given", "gave"),
    }

    def league_words(self, slug: str, slugs: Collection[str]) -> tuple[str, ...]:
        """The words a question names the column `slug` by when it is a sports table's code (`GP`; `GA` and
        `W` in a league table), else ()."""
        if slug in self.SPORTS_CODES:
            return self.SPORTS_CODES[slug]
        if slug in self.LEAGUE_CODES and "w" in slugs and "l" in slugs and "h" not in slugs:
            return self.LEAGUE_CODES[slug]
        return ()

    @lru_cache(maxsize=4096)  # noqa: B019 - one instance per process; the words of questions and headers recur
    def word(self, word: str) -> str:
        word = self.ABBREVIATIONS.get(word, word)
        if len(word) > 4 and word.endswith("ies"):
            return word[:-3] + "y"
        if len(word) > 5 and word.endswith("sses"):  # "losses", "classes"
            return word[:-2]
        if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
            return word[:-1]
        return word

    #: Endings that make a noun of a verb or inflect it, longest first (`stem`).
    #: No "er": it would make people of verbs ("sell" and `Seller`, "played" and `Player`).
    DERIVED_ENDINGS: ClassVar[tuple[str, ...]] = ("ance", "ence", "ment", "ure", "ing", "al", "ed", "e")

    @lru_cache(maxsize=4096)  # noqa: B019 - as `word`
    def stem(self, word: str) -> str:
        """A word's common form (`word`) less one ending of `DERIVED_ENDINGS`, kept to four letters or more,
        so that "arrive" meets `Arrival`, "departs" `Departure`, "attended" `Attendance` and "closing"
        `Close` (and, a known cost, "states" `Stats`)."""
        word = self.word(word)
        for ending in self.DERIVED_ENDINGS:
            if word.endswith(ending) and len(word) - len(ending) >= 4:
                word = word[: -len(ending)]
                # a verb in -y keeps it: "qualified" meets "qualify", "calorie" "calories" (-ies is -y);
                # only here: "special" is not "species", nor "memorial" "memory"
                return word[:-1] + "y" if ending in ("ed", "e") and word.endswith("i") else word
        return word


#: A space between digits that is no thousands separator: what follows is not exactly three digits.
_UNGROUPED_SPACE = re.compile(r"(\d)\s+(?!\d{3}(?!\d))(?=\d)")


def _wtq_numbers(raw: str) -> tuple[float | None, float | None]:
    """The WTQ reading of a cell with no amount at its start ("Week 12", "3–1"), except that digits join
    across a space only as thousands ("1 234"): "Q1 2024" is 1 and 2024, not 12024."""
    return textnum.parse_cell_numbers(_UNGROUPED_SPACE.sub(r"\1 / ", raw))


class UserRules(ValueRules):
    """The reading of user tables (see the module docstring)."""

    name = "user"
    question_number_kinds = ("NUMBER", "PERCENT", "MONEY")
    user_question_readings = True
    header_symbols = {"%": "percent", "#": "number"}
    header_names = {"+/-": "plus minus", "±": "plus minus"}
    header_words = HeaderWords()
    header_details = True

    def __init__(
        self, european_default: bool = False, day_first: bool = False, space_grouped: bool = False
    ) -> None:
        #: The table's decimal convention, for columns whose own cells do not say (`for_table`).
        self.european_default = european_default
        #: Whether the table's numeric dates put the day first: how a question's `03/04/2024` reads.
        self.day_first = day_first
        #: Whether the table's cells group thousands by spaces (`12 480`): then a question's "10 000" is one
        #: number, and elsewhere "the 3 100 m races" two.
        self.space_grouped = space_grouped

    def for_table(self, columns: Sequence[Sequence[str]]) -> UserRules:
        """European decimals for the columns that do not say when the table's other columns together
        say European: in a file of `48.215,70` revenues, a customer count of `3.104` is 3,104. Also whether
        numeric dates put the day first, and whether cells group thousands by spaces (`12 480`)."""
        joined = [_SEP.join(dict.fromkeys(raw)) for raw in columns]
        spaced = any(_SPACE_GROUPED.search(text) for text in joined)
        # a cell with European evidence holds a match of the pattern somewhere (a necessary condition, also
        # met by US thousands such as "1,250"): tables without a comma-or-point number end here
        has_eu = any(_holds_european_evidence(text) for text in joined)
        may_date = [_NUMERIC_DATE_IN.search(text) is not None for text in joined]
        if not has_eu and not any(may_date):
            return UserRules(space_grouped=True) if spaced else self
        eu = us = day_first = month_first = 0
        for raw, text, maybe in zip(columns, joined, may_date, strict=True):
            if maybe or (has_eu and (_holds_european_evidence(text) or _US_EVIDENCE.search(text))):
                column_eu, column_us, column_day_first, dates = _column_evidence(raw)
                eu, us = eu + column_eu, us + column_us
                # a column votes on day-first only when its cells are numeric dates (`2024-03-16` holds
                # `24-03-16`)
                if dates:
                    day_first, month_first = (
                        day_first + column_day_first,
                        month_first + (not column_day_first),
                    )
        european = has_eu and eu > us
        if not european and day_first <= month_first and not spaced:
            return self
        return UserRules(european_default=european, day_first=day_first > month_first, space_grouped=spaced)

    def _question_digits(self, digits: str, power: int) -> float | None:
        """A question's digits times 10**power, read by the table's decimal convention first: a question may
        still write the other ("1.5M" of a European table)."""
        value = _digits_value(digits, self.european_default, power)
        return value if value is not None else _digits_value(digits, not self.european_default, power)

    def _numeral_digits(self, digits: str) -> float | None:
        """A question's numeral standing alone: groups of three digits are thousands in either convention
        ("more than 3,000 customers" is no 3.0 on a European table), other digits `_question_digits`."""
        if _GROUPED_THOUSANDS.fullmatch(digits):
            return float(re.sub("[.,]", "", digits))
        return self._question_digits(digits, 0)

    def _space_grouped(self, tokens: Sequence[str], i: int) -> tuple[int, float] | None:
        """(end, value) of a numeral whose thousands are grouped by spaces from token `i` on ("10 000",
        "1 234 567", "2 246,40": French and SI write them so, and the tokenizer splits them), on a table whose
        cells group thousands so; else None."""
        if not self.space_grouped or not _SPACED_HEAD.fullmatch(tokens[i]):
            return None
        end = i + 1
        while end < len(tokens) and _SPACED_GROUP.fullmatch(tokens[end]):
            end += 1
            if not tokens[end - 1].isdigit():  # decimals end the numeral
                break
        if end == i + 1:
            return None
        digits = "".join(tokens[i:end]).lstrip("-−")
        value = self._question_digits(digits, 0)
        return None if value is None else (end, -value if tokens[i][0] in _MINUS else value)

    def question_values(self, tokens: Sequence[str]) -> list[textnum.Quantity]:
        """Numbers whose thousands are grouped by spaces as the cells' are ("10 000"), numbers with a magnitude
        suffix ("18k", "1.5M", "2bn"; the cells' suffixes, in their case), numbers with a point or comma on a
        table of European decimals as its cells read them ("10.000" is ten thousand, and so is "10,000"; "2,5"
        is 2.5), temperatures written as one token ("26.5°C"), and numeric dates, day first when a field says so
        ("15/03/2024") or the table's dates do."""
        out = []
        skip_to = 0
        for i, token in enumerate(tokens):
            if i < skip_to:
                continue
            grouped = self._space_grouped(tokens, i)
            if grouped is not None:  # "above 10 000 kWh": ten thousand, not 10 and 0
                end, value = grouped
                out.append(textnum.Quantity("NUMBER", i, end, (value,)))
                skip_to = end
                continue
            money = i > 0 and _MONEY_TOKEN.fullmatch(tokens[i - 1]) is not None
            m = _SUFFIXED_NUMBER.fullmatch(token) or (
                _MONEY_SUFFIXED_NUMBER.fullmatch(token) if money else None
            )
            after = tokens[i + 1] if i + 1 < len(tokens) else ""
            numeral = None if m else _QUESTION_NUMERAL.fullmatch(token)
            spelled = after in _SPELLED_MAGNITUDES or (
                after in _QUESTION_MAGNITUDE_WORDS and (money or "." in token or "," in token)
            )  # "size 10 M" and "2012 K" are no millions or thousands; "1.5 M" and "$3 K" are
            if numeral and (spelled or (money and after.lower() in ("m", "b"))):
                m, end = numeral, i + 2  # "1.5 mn", "2 bn", "$75 m": a suffix written apart
                suffix = after if after in _MAGNITUDES else after.lower()
            else:
                end, suffix = i + 1, (m["mag"] if m else "")
            if m:
                # a lower-case "m" or "b" (money only) is no cell suffix: the words' magnitudes read it
                value = self._question_digits(
                    m["digits"], _MAGNITUDES.get(suffix) or _WORD_POWERS[suffix.lower()]
                )
                if value is not None:
                    value = -value if m["sign"] in ("-", "−") else value
                    out.append(textnum.Quantity("NUMBER", i, end, (value,)))
                skip_to = end
                continue
            if (
                numeral
                and self.european_default
                and ("," in token or "." in token)
                # a magnitude word, an era or a unit of time after it: the shared reading's, a wider span
                and after.lower() not in _WORD_POWERS
                and after.lower() not in textnum.DURATION_UNITS
                and not _QUESTION_BC.fullmatch(after)
            ):
                # "over 10.000 EUR" of a table that writes `1.234,50`: ten thousand, as its cells read
                value = self._numeral_digits(numeral["digits"])
                if value is not None:
                    value = -value if numeral["sign"] in ("-", "−") else value
                    out.append(textnum.Quantity("NUMBER", i, i + 1, (value,)))
                    continue
            degrees = _QUESTION_DEGREES.fullmatch(token)
            if degrees is not None:  # "colder than 26.5°C": 26.5, as a `Water temp` column of `26.5°C` reads
                value = self._numeral_digits(degrees["digits"])
                if value is not None:
                    value = -value if degrees["sign"] in ("-", "−") else value
                    out.append(textnum.Quantity("NUMBER", i, i + 1, (value,)))
                    continue
            compound = number_noun(token)
            if compound is not None:  # "how many 4-credit courses": 4 (the noun matches a column, `annotate`)
                value = self._numeral_digits(compound["digits"])  # "12.000-seat" of a European table
                if value is not None:
                    out.append(textnum.Quantity("NUMBER", i, i + 1, (value,)))
                    continue
            one_of = self._one_of(tokens, i)
            if one_of is not None:  # "a thousand", "half a million"
                end, value = one_of
                out.append(textnum.Quantity("NUMBER", i, end, (value,)))
                skip_to = end
                continue
            if (
                token.lower() in textnum.MONTHS
                and after in ("'", "`")  # the tokenizer makes an opening apostrophe a backquote
                and i + 2 < len(tokens)
                and _TWO_DIGITS.fullmatch(tokens[i + 2])
            ):  # "March '24": the year 2024, not the number 24
                # as a cell's two-digit year: "'98" is 1998, "'24" 2024
                date = textnum.make_date(_full_year(int(tokens[i + 2])), textnum.MONTHS[token.lower()], -1)
                if date is not None:
                    out.append(textnum.Quantity("DATE", i, i + 3, (date,)))
                    skip_to = i + 3
                    continue
            if _MONTH_SHORT_YEAR.fullmatch(token):  # "in Apr-24", as a cell's `Apr-24`
                date = short_month_year(token)
                if date is not None:
                    out.append(textnum.Quantity("DATE", i, i + 1, (date,)))
                continue
            if _NUMERIC_MONTH_YEAR.fullmatch(token):  # "in 4/2024"
                date = _month_year(token)
                if date is not None:
                    out.append(textnum.Quantity("DATE", i, i + 1, (date,)))
                continue
            if token.lower() == "minus" and _QUESTION_NUMERAL.fullmatch(after):  # "a change of minus 3.5"
                value = self._question_digits(after.lstrip("+"), 0)
                if value is not None and after[:1] not in _MINUS:
                    out.append(textnum.Quantity("NUMBER", i, i + 2, (-value,)))
                    skip_to = i + 2
                continue
            if (
                i + 1 < len(tokens)
                and _QUESTION_BC.fullmatch(tokens[i + 1])
                and _QUESTION_YEAR.fullmatch(token)
            ):
                out.append(textnum.Quantity("NUMBER", i, i + 2, (-float(token.replace(",", "")),)))
                continue
            fields = _numeric_date(token)
            if fields:
                first, second, year = fields
                day_first = first > 12 or (second <= 12 and self.day_first)
                day, month = (first, second) if day_first else (second, first)
                date = textnum.make_date(year, month, day)
                if date is not None:
                    out.append(textnum.Quantity("DATE", i, i + 1, (date,)))
        return out

    @staticmethod
    def _one_of(tokens: Sequence[str], i: int) -> tuple[int, float] | None:
        """(end, value) of "a thousand", "a hundred and fifty", "a dozen" or "half a million" at token `i`:
        the spelled number read as "one ..." is (`textnum.find_quantities`)."""
        words = [t.lower() for t in tokens[i : i + 8]]
        half = words[:1] == ["half"]
        at = 1 + half  # where the magnitude word stands
        if len(words) <= at or words[at - 1] not in ("a", "an") or words[at] not in _ONE_OF:
            return None
        if words[at] == "dozen":
            return i + at + 1, 12.0 / (2 if half else 1)
        spelled = textnum.find_quantities(["one", *words[at:]])
        if not spelled or spelled[0].start != 0 or spelled[0].kind not in ("NUMBER", "MONEY"):
            return None
        return i + at - 1 + spelled[0].end, spelled[0].values[0] / (2 if half else 1)

    def cell_values(self, raw: Sequence[str]) -> list[CellValues]:
        layout = ColumnLayout.infer(raw, self.european_default)
        return _each_distinct(raw, lambda text: self.cell(text, layout))

    def column_views(
        self, raw: Sequence[str], min_typed_fraction: float, header: str = ""
    ) -> dict[str, tuple]:
        """As `ValueRules.column_views`; the two commonest columns of big user tables (words alone, and
        plain numerals) are read with column-wide scans instead of one cell at a time.

        A column whose header names an identifier (`Order ID`, `Invoice No.`, `Ext`) and holds bare whole
        numbers has no date view: order 1013 is not the year 1013, which the WTQ rules would make of any
        four-digit number. It has no number view either when its numbers all come with letters (`D-2401`,
        `R10418`), or when its header ends naming the identifier (`Order #`, `Ext`, `Artikel-Nr.`) and its
        numbers number rows (`_numbers_rows`) or are digit groups (`100-2041`): codes and order numbers are
        no amounts to sum or compare, and a question that names one links its cell.

        A column whose cells of one shape are dates only in part has no date view: bare numbers of which some
        are years and some not (a peak's `Top (m)`: 2850 beside 3020), or digit groups of which some are dates
        and some not (a player's `K/D/A`, `5/12/18` beside `13/19/15`) count something else.

        Blank cells are missing values, so a column also has a typed view when half of its filled cells
        (three at least) have one: a `Snowfall` column blank on most days is still a column of numbers,
        while notes that mention a number now and then ("6 x 800m") are not."""
        min_typed_fraction = filled_typed_fraction(raw, min_typed_fraction)
        views = self._column_at_once(raw, min_typed_fraction)
        if views is None:
            views = super().column_views(raw, min_typed_fraction)
            quantity = self.column_units(raw, header)
            # "2h 30m" is 150 minutes, not the numbers 2, 30; "-6min" is -6, which the cell's number lost
            if quantity is not None and (quantity.converted or quantity.values != views.get("number")):
                none = (None,) * len(raw)
                typed = {"number": quantity.values, "num2": none, "date": none}
                views = _views(views["string"], typed, min_typed_fraction)
        if "date" in views and _dates_in_part(raw, views["date"]):
            del views["date"]
        identifier = names_identifier(header)
        if "date" in views and identifier:
            # only years made of bare numbers go: a `Ref date` column keeps its dates
            dated = [text.strip() for text, date in zip(raw, views["date"], strict=True) if date is not None]
            if all(text.isdigit() for text in dated):
                del views["date"]
        if "number" in views and (identifier or _may_be_codes(raw, views["number"])):
            numbered = [text.strip() for text, n in zip(raw, views["number"], strict=True) if n is not None]
            if (
                identifier
                and (
                    all(map(is_code, numbered))
                    or (
                        _IDENTIFIER_LAST.search(header.strip())
                        and (_numbers_rows(numbered) or all(map(is_digit_code, numbered)))
                    )
                )
            ) or (not _AMOUNT_HEADER.search(header) and _codes_number_rows(numbered, header)):
                views.pop("number")
                views.pop("num2", None)
        if ("number" in views or "date" in views) and any(_MISSING.fullmatch(text.strip()) for text in raw):
            # a statistics office's `..` is a value missing, as a blank is: "how many have no figure?"
            views["string"] = tuple(
                "" if _MISSING.fullmatch(text.strip()) else cell
                for text, cell in zip(raw, views["string"], strict=True)
            )
        return views

    def column_units(self, raw: Sequence[str], header: str = "") -> units.UnitReading | None:
        race = _race_seconds(raw)
        if race is not None:
            return race
        durations = units.clock_durations(raw, header)
        if durations is not None:
            return durations
        if not units.may_have_units(raw):
            return None
        return units.column_units(raw, ColumnLayout.infer(raw, self.european_default).european)

    def quantity_unit(self, header: str, quantity: units.UnitReading | None) -> units.Unit | None:
        return quantity.unit if quantity is not None else units.header_unit(header)

    def clock_unit(self, raw: Sequence[str]) -> units.Unit | None:
        """Hours, where every cell with a digit is a time that says it counts hours (`6:30 PM`, a race's
        `1:02:33`), which the number view reads in hours: so that a difference of finish times asked "how
        many seconds" is 134, not 0.037222. A column of `19:45` may be a 5K's minutes and seconds, which the
        number view also reads as hours: it gets no unit, so that no answer states a wrong one."""
        timed = [text for text in set(raw) if _ANY_DIGIT.search(text)]
        return units.HOUR if timed and all(map(_says_hours, timed)) else None

    def _column_at_once(self, raw: Sequence[str], min_typed_fraction: float) -> dict[str, tuple] | None:
        """The views `cell` gives every cell, when all distinct cells are words alone or plain numerals
        (decided on their texts joined by a separator no cell holds); None for any other column."""
        if not raw:
            return None
        distinct = list(dict.fromkeys(raw))
        joined = _SEP.join(distinct)
        if joined.count(_SEP) != len(distinct) - 1:
            return None
        typed: dict[str, dict[str, object]] = {kind: {} for kind in TYPED_KINDS}
        if _NUMERAL_COLUMN.fullmatch(joined) and not (self.european_default and "." in joined):
            # Plain numerals are their own normal form and give ColumnLayout.infer no European and no date
            # evidence; `cell` reads each as float(text), except four-digit years.
            strings = distinct
            typed["number"] = dict(zip(distinct, map(float, distinct), strict=True))
            layout = ColumnLayout(european=False, day_first=False)
            for text in distinct:
                if len(text) == 4 and "." not in text:
                    values = self.cell(text, layout)
                    for kind in TYPED_KINDS:
                        typed[kind][text] = getattr(values, kind)
        elif not textnum.may_hold_quantity(joined):
            # words alone: `cell` gives each its normal form and nothing typed
            if PLAIN_TEXT.fullmatch(joined) and not _SPACING_OR_PERIOD.search(joined):
                strings = joined.lower().split(_SEP)  # what `normalize` does to plain text: only the case
            else:
                strings = [normalize_user(text) for text in distinct]
        else:
            return None
        string_of = dict(zip(distinct, strings, strict=True))
        typed_views = {
            kind: tuple(map(value_of.get, raw)) if value_of else (None,) * len(raw)
            for kind, value_of in typed.items()
        }
        return _views(tuple(map(string_of.__getitem__, raw)), typed_views, min_typed_fraction)

    def cell(self, raw: str, layout: ColumnLayout) -> CellValues:
        """One cell read with its column's layout."""
        # The two commonest cells, read as `_cell_in_full` reads them without its dozen patterns: words
        # alone (no number, no date), and a plain numeral that cannot be a year or a European number.
        if not textnum.may_hold_quantity(raw):
            return CellValues(normalize_user(raw))
        if not layout.european and _PLAIN_NUMERAL.fullmatch(raw) and not _YEAR.fullmatch(raw):
            return CellValues(normalize_user(raw), float(raw))
        return self._cell_in_full(raw, layout)

    def _cell_in_full(self, raw: str, layout: ColumnLayout) -> CellValues:
        string = normalize_user(raw)
        if not raw.strip() or _SPREADSHEET_ERROR.fullmatch(raw):
            return CellValues(string)
        date = self.date(raw, layout)
        if date is not None and (date.day != -1 or (layout.month_years and _MONTH_SHORT_YEAR.fullmatch(raw))):
            clock = _CLOCK_OF_DATETIME.search(raw)
            return CellValues(string, textnum.match_hours(clock) if clock else None, date=date)
        pace = _PACE.fullmatch(raw)
        if pace:
            return CellValues(string, round(int(pace["m"]) + float(pace["s"]) / 60, 9))
        race = (_RACE_CLOCK if layout.race else _RACE_TIME).fullmatch(raw)
        if race and (race["h"] is None or not layout.times):  # "1:23.45" is 83.45 s: the fastest is the least
            return CellValues(string, _race_seconds_of(race))
        clock = self.clock(raw) if layout.times else None
        if clock is not None:
            return CellValues(string, clock, textnum.parse_cell_numbers(raw)[1], date)
        number = num2 = None
        if len(raw.split()) < MAX_TOKENS_FOR_NUMBER:
            number, num2 = self.numbers(raw, layout)
        return CellValues(string, number, num2, date)

    def amount(self, raw: str) -> float | None:
        """The amount a text states and nothing else (`41.118,35`, `$2,469.00`, `2.5 million`, `(120.00)`),
        read with the table's convention where the text does not say; None for any other text ("3–1")."""
        raw = _amount_text(raw)
        m = _NUMBER.fullmatch(raw)
        if m is None or m["rest"].strip() or (m["open"] is None) != (m["close"] is None):
            return None
        return self.numbers(raw, ColumnLayout.infer([raw], self.european_default))[0]

    @staticmethod
    def numbers(raw: str, layout: ColumnLayout) -> tuple[float | None, float | None]:
        """(number, num2): the cell's leading amount, and the number after it ("3–1" -> 3, 1)."""
        raw = _amount_text(raw)
        before = _ERA_OR_CIRCA_BEFORE.match(raw)
        if before:  # "c. 900" is about 900 (the WTQ reading made it 0.9), "AD 79" is 79
            raw = raw[before.end() :]
        era = _ERA_YEAR.fullmatch(raw)
        if era:  # "753 BC" is the year -753, so that the earliest founding is the smallest ("B." no billion)
            year = float(era["year"].replace(",", ""))
            return (-year if era["bc"] else year), None
        if _SCIENTIFIC.fullmatch(raw.strip()):  # "1e308", "-2.5E-3": what spreadsheets and programs export
            value = float(raw.strip().replace("−", "-"))
            return (value if math.isfinite(value) else None), None
        m = _NUMBER.fullmatch(raw)
        if (
            m is None
            or (m["open"] is None) != (m["close"] is None)
            or (m["open"] is not None and m["rest"].strip())  # "(131) 44.75" is a note, not -131
            or re.match(r"\s+\d", raw[m.end("digits") :])  # "162 989": thousands grouped by spaces
        ):
            if _CODE_EXPONENT.fullmatch(raw.strip()):  # "S3E22", an episode's code, is no 3 x 10^22
                return None, None
            return _wtq_numbers(raw)  # no amount at the start: read as WTQ reads it
        value = _digits_value(m["digits"], layout.european, _MAGNITUDES.get(m["mag"] or "", 0))
        if value is None:  # digits the column's convention cannot read; a US reading would contradict it
            return _wtq_numbers(raw) if not layout.european else (None, None)
        if m["rest"].strip() == "-" and _CENTS.search(m["digits"]):
            return -value, None  # "1,200.00-": an accounting export's trailing minus ("1990-" stays a year)
        return _sign(m) * value, textnum.parse_number_lenient(m["rest"])

    @staticmethod
    def clock(raw: str) -> float | None:
        """The hours of a cell that is a time of day and nothing else ("18:05", "6:30 pm", "7 am"): minutes
        or an am/pm, so that "7" stays a number and "3:1" (one digit after the colon) a score."""
        m = _CLOCK.fullmatch(raw)
        if m is None or not (m["m"] or m["half"]):
            return None
        return textnum.match_hours(m)

    @staticmethod
    def date(raw: str, layout: ColumnLayout) -> Date | None:
        """The date a cell states; numeric dates follow the column's day-first decision."""
        m = _ISO_DATE.fullmatch(raw)
        if m:
            return textnum.make_date(int(m.group(1)), int(m.group(3)), int(m.group(4)))
        fields = _numeric_date(raw)
        if fields:
            first, second, year = fields
            day, month = (first, second) if layout.day_first else (second, first)
            return textnum.make_date(year, month, day)
        m = _YEAR.fullmatch(raw)
        if m:
            return textnum.parse_cell_date(raw.strip())
        if _NUMERIC_MONTH_YEAR.fullmatch(raw):
            return _month_year(raw)
        if layout.month_years and _MONTH_SHORT_YEAR.fullmatch(raw):
            return short_month_year(raw)
        date = _month_name_date(raw)
        if date is not None or _MONEY_OR_PERCENT.search(raw):  # the tagger's dates hold no such token
            return date
        word = _LEADING_WORD.match(raw)
        if word and word.group(1).lower() not in _DATE_WORDS:  # its first token can start no date
            return None
        return textnum.parse_cell_date(raw)


#: A header that states its cells' magnitude: "Revenue ($m)", "Population (millions)", "Sales (in
#: thousands)", "GDP (USD bn)", "Staff (000s)". A bare "(m)" is metres, so one letter needs money beside it.
_HEADER_MAGNITUDE = re.compile(
    r"[(\[]\s*(?:in\s+)?(?:(?:[A-Z]{3}|(?:US|A|AU|C|CA|NZ|HK|S)?[$€£¥])\s*(?P<letter>[kmb])(?![a-z])|"
    r"(?:(?:[A-Z]{3}|(?:US|A|AU|C|CA|NZ|HK|S)?[$€£¥])\s*)?"
    r"(?P<word>thousands?|millions?|billions?|mn|mln|bn|000s?|'000s?))"
    r"(?:\s*(?:[A-Z]{3}|[$€£¥]))?\s*[)\]]",
    re.IGNORECASE,
)
#: Magnitudes as words and lower-case suffixes say them, in questions and in headers.
_WORD_POWERS = {"thousand": 3, "k": 3, "million": 6, "mn": 6, "mln": 6, "m": 6, "billion": 9, "bn": 9, "b": 9}
_HEADER_POWERS = {**_WORD_POWERS, "000": 3, "'000": 3}
_SUFFIXED_POWER = re.compile(r"\d[\d.,]*(k|m|mn|mln|bn|b)", re.IGNORECASE)


def filled_typed_fraction(raw: Sequence[str], min_typed_fraction: float) -> float:
    """The share of all of a user column's cells that a typed view needs: `min_typed_fraction`, or less
    where blanks are many, so that half its filled cells (`MIN_FILLED_TYPED` at least) suffice."""
    if not raw:
        return min_typed_fraction
    filled = sum(1 for text in raw if text.strip())
    return min(min_typed_fraction, max(FILLED_TYPED_FRACTION * filled, MIN_FILLED_TYPED) / len(raw))


def _numbers_rows(cells: Sequence[str]) -> bool:
    """Whether whole numbers number rows as identifiers do: each different, and either all of one width of
    three digits or more (order 10231, extension 4412) or counting up by one in table order (payment 1, 2,
    3, ...); counts (`Attendees #`: 12, 30, 7) do neither."""
    if len(set(cells)) != len(cells) or len(cells) < 2 or not all(c.isascii() and c.isdigit() for c in cells):
        return False
    widths = {len(cell) for cell in cells}
    numbers = [int(cell) for cell in cells]
    counting = all(b == a + 1 for a, b in itertools.pairwise(numbers))
    return counting or (len(widths) == 1 and widths.pop() >= 3)


#: An amount written as a company's books write money going out: in parentheses (`(120.00)`).
_ACCOUNTING = re.compile(r"\s*\(\s*[^()]*\d[^()]*\)\s*")


def states_money(text: str) -> bool:
    """Whether a cell writes money: with a currency (`£45.00`, `-$3`, `12,50 €`, `EUR 12`) or in an
    accounting's parentheses (`(120.00)`)."""
    return _MONEY_TOKEN.search(text) is not None or _ACCOUNTING.fullmatch(text) is not None


_SHORT_DIGIT_GROUPS = re.compile(r"\d{1,2}([/-])\d{1,2}\1\d{1,2}")


def _dates_in_part(raw: Sequence[str], dates: Sequence[Date | None]) -> bool:
    """Whether some cells of one shape read as dates and others of that shape do not: bare whole numbers
    (years or not), or three groups of one or two digits (`5/12/18`), two of them at least and a fifth: one cell
    that is no date (`03/17/2024` among day-first dates, a `0` among years) is a slip, not another kind of
    column."""
    read = {"bare": [0, 0], "groups": [0, 0]}  # cells of the shape, and those of them no date
    for text, date in zip(raw, dates, strict=True):
        text = text.strip()
        shape = "bare" if text.isdigit() else "groups" if _SHORT_DIGIT_GROUPS.fullmatch(text) else None
        if shape is not None:
            read[shape][0] += 1
            read[shape][1] += date is None
    return any(missed >= 2 and missed * 5 >= total for total, missed in read.values())


def is_code(text: str) -> bool:
    """Whether a cell is a code, letters then digits in one word (`D-2401`, `R10418`, `ECON305`): it names a
    row, it states no amount (while `10k`, `12V` and `4K` do)."""
    return _CODE.fullmatch(text.strip()) is not None


def _may_be_codes(raw: Sequence[str], numbers: Sequence[float | None]) -> bool:
    """Whether a column's first cell with a number is a code (`B101`): cheap, so that a column of amounts
    is not scanned for codes."""
    first = next((text for text, n in zip(raw, numbers, strict=True) if n is not None), None)
    return first is not None and _CODE_PARTS.fullmatch(first.strip()) is not None


def _codes_number_rows(cells: Sequence[str], header: str = "") -> bool:
    """Whether cells are codes that number rows whatever the header says (`B101`, `B102`, ...; `R-2285`): one
    letter prefix, and digits each different, all of one width of three or more (or two padded with a zero,
    `M01`, where the `header` names no period), and no years (`FY2023`).
    A booking's `B113` is no amount of 113 to sum; `Q1`-`Q4` and `P1`-`P5` keep their order."""
    found = []
    for cell in cells:  # a column of amounts fails at its first cell
        m = _CODE_PARTS.fullmatch(cell)
        if m is None:
            return False
        found.append(m)
    if not found:
        return False
    prefixes = {m["letters"].upper() + (m["joint"] or "") for m in found}
    digits = [m["digits"] for m in found]
    if len(prefixes) != 1:
        return False
    prefix = prefixes.pop()
    if is_currency_code(prefix) or prefix in _CURRENCY_LETTERS:  # `EUR100`, a rand's `R150`, `RM120`
        return False
    widths = {len(d) for d in digits}
    years = all(len(d) == 4 and 1800 <= int(d) <= 2100 for d in digits)
    width = widths.pop() if len(widths) == 1 else 0
    # two digits padded with a zero (`M01`, `TC-06`) number rows too, but not periods (`W01` of a `Week`)
    padded = width == 2 and any(d.startswith("0") for d in digits) and not _PERIOD_HEADER.search(header)
    return len(set(digits)) == len(digits) and (width >= 3 or padded) and not years


def is_digit_code(text: str) -> bool:
    """Whether a cell is digit groups joined by hyphens or slashes (`100-2041`): a code where its header
    names an identifier (`Artikel-Nr.`), else perhaps a range or a score."""
    return _DIGIT_CODE.fullmatch(text.strip()) is not None


def header_magnitude(header: str) -> int | None:
    """The power of ten a header says its cells are counted in ("Revenue ($m)" -> 6); None for none."""
    m = _HEADER_MAGNITUDE.search(header)
    if m is None:
        return None
    unit = (m["word"] or m["letter"]).lower()
    return _HEADER_POWERS[unit.rstrip("s")]


def said_power(token: str) -> int | None:
    """The power of ten a question token says: a magnitude word ("million", "millions", "bn") or a number's
    suffix ("1.5m", "2BN"); None for any other token."""
    token = token.lower()
    suffixed = _SUFFIXED_POWER.fullmatch(token)
    return _WORD_POWERS.get(suffixed.group(1) if suffixed else token.rstrip("s"))


RULES: dict[str, ValueRules] = {rules.name: rules for rules in (WtqRules(), UserRules())}


def get_rules(rules: str | ValueRules) -> ValueRules:
    """The rule set of that name (or the rule set itself)."""
    if isinstance(rules, ValueRules):
        return rules
    if rules not in RULES:
        raise DataError(f"unknown value rules {rules!r}; choose one of: {', '.join(RULES)}")
    return RULES[rules]
