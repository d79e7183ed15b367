"""A program read as English, from each function's `gloss` in its grammar declaration.

`(filter_str_contain_any all_rows "harbor supply co" r.customer-string) (sum v0 r.units-number)` reads
"the total units of all rows whose customer is harbor supply co": every argument is read (a column by its
header words, an entity by its text, `vN` by the reading of expression N) and put in its place in the
function's gloss; the last expression's reading is the program's. The reranker compares this reading with
the question (`nsmcli.train.rerank`), where a sum and a count of the same rows differ by their words.
"""

from __future__ import annotations

import calendar
from collections.abc import Mapping

from nsmcli.errors import GrammarError
from nsmcli.worlds.tables.data.values import Date, format_number
from nsmcli.worlds.tables.lang import program as P
from nsmcli.worlds.tables.lang.spec import GLOSS_PLACE, LanguageSpec


def _date_words(date: Date) -> str:
    parts = []
    if date.month != -1 and 1 <= date.month <= 12:
        parts.append(calendar.month_name[date.month].lower())
    if date.day != -1:
        parts.append(str(date.day))
    if date.year != -1:
        parts.append(str(date.year))
    return " ".join(parts) or str(date)


def _value_words(kind: str, value: object) -> str:
    if isinstance(value, Date):
        return _date_words(value)
    if kind == "number" and isinstance(value, int | float) and not isinstance(value, bool):
        return format_number(float(value))
    return str(value) if value != "" else "blank"  # the empty text asks for a blank cell


def _column_words(column: P.Column, names: Mapping[str, str]) -> str:
    """`r.unit_price-number` -> "unit price", or the name `names` gives its slug."""
    return names.get(column.slug, column.slug).replace("_", " ")


def gloss(program: P.Program | str, language: LanguageSpec, names: Mapping[str, str] | None = None) -> str:
    """The English reading of `program` (its text or its parse) in `language`, each column read by its slug's
    words or by the words `names` gives it (slug -> words joined by "_"). Raises GrammarError for a text
    that does not read, a function the language lacks, or one declared without a gloss."""
    if isinstance(program, str):
        program = P.Program.parse(program)
    readings: list[str] = []
    for expr in program.exprs:
        template = language.function(expr.function).gloss
        if not template:
            raise GrammarError(f"language {language.name}: function {expr.function} has no gloss")
        words = []
        for arg in expr.args:
            if isinstance(arg, P.AllRows):
                words.append("all rows")
            elif isinstance(arg, P.Column):
                words.append(_column_words(arg, names or {}))
            elif isinstance(arg, P.Literal):
                words.append(" or ".join(_value_words(arg.kind, v) for v in arg.values))
            elif 0 <= arg.index < len(readings):
                words.append(readings[arg.index])
            else:
                raise GrammarError(f"{expr} refers to v{arg.index} before it exists")
        if len(words) != len(language.function(expr.function).args):
            raise GrammarError(f"{expr} does not have the arguments {expr.function} declares")
        # one pass over the template: an entity's own text may hold "{2}"
        readings.append(GLOSS_PLACE.sub(lambda m, words=words: words[int(m.group(1)) - 1], template))
    return readings[-1] if readings else ""
