"""The in-memory table: ordered columns, raw text for display, typed views for programs.

Every column has a string view (the official WTQ normalisation of each cell; for WikiSQL tables, whose
column types are declared, the lower-cased cell text that WikiSQL answers are compared with). A column also offers a number,
second-number (`num2`, e.g. the 1 of "3–1") or date view when at least `min_typed_fraction` of its cells
parse (MAPO's 20% rule); cells that do not parse hold None in that view. Column order is the file's order.
How cells parse is the table's value rules (`nsmcli.worlds.tables.data.valuerules`): the official WTQ rules for WTQ and
WikiSQL data, the user rules for people's own files; the table records which, so every consumer agrees.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from nsmcli.errors import DataError
from nsmcli.memory import gc_paused
from nsmcli.worlds.tables.data import textnum
from nsmcli.worlds.tables.data.units import Unit, UnitReading
from nsmcli.worlds.tables.data.valuerules import (
    MAX_TOKENS_FOR_NUMBER,
    CellValues,
    ValueRules,
    get_rules,
    parse_cell,
)
from nsmcli.worlds.tables.data.values import normalize

#: View kinds in the order properties are listed (MAPO: string, number, num2, date).
VIEW_KINDS = ("string", "number", "num2", "date")
MIN_TYPED_FRACTION = 0.2

__all__ = [
    "VIEW_KINDS",
    "MIN_TYPED_FRACTION",
    "MAX_TOKENS_FOR_NUMBER",
    "CellValues",
    "Column",
    "Table",
    "parse_cell",
]


@dataclass
class Column:
    """One column: its header, raw cells, and the typed views it offers (kind -> per-row values)."""

    header: str
    slug: str
    raw: tuple[str, ...]
    views: dict[str, tuple] = field(default_factory=dict)

    def property_name(self, kind: str) -> str:
        return f"r.{self.slug}-{kind}"


@dataclass
class Table:
    """A table with ordered columns. `rows` and `header` give the raw text for display."""

    id: str
    columns: list[Column]
    #: WikiSQL's declared `real`/`text` types when they fixed the views; None when views were inferred
    column_types: tuple[str, ...] | None = None
    #: the value rules that typed the cells (`nsmcli.worlds.tables.data.valuerules`), as `from_rows` fitted
    #: them to this table (the user rules carry its decimal convention)
    rules: ValueRules = field(default_factory=lambda: get_rules("wtq"), repr=False, compare=False)
    #: what reading the file changed that a user should know (a summary row left out), one sentence each
    notes: tuple[str, ...] = field(default=(), compare=False)

    @property
    def value_rules(self) -> str:
        """The name of the rules that typed the cells: "wtq" or "user"."""
        return self.rules.name

    @property
    def n_rows(self) -> int:
        return len(self.columns[0].raw) if self.columns else 0

    @property
    def header(self) -> list[str]:
        return [c.header for c in self.columns]

    @property
    def rows(self) -> list[list[str]]:
        return [[c.raw[i] for c in self.columns] for i in range(self.n_rows)]

    def properties(self) -> list[tuple[str, Column, str]]:
        """(property name, column, view kind) in column order, then view order within a column."""
        return [(c.property_name(k), c, k) for c in self.columns for k in VIEW_KINDS if k in c.views]

    def quantity(self, column: Column) -> UnitReading | None:
        """The column read as one quantity with a unit (`ValueRules.column_units`: `2h 30m` cells), computed
        once per table: the reader's notes, question annotation and each answer's display all ask."""
        cache = self.__dict__.setdefault("_quantities", {})
        key = next(j for j, c in enumerate(self.columns) if c is column)  # a position survives pickling
        if key not in cache:
            cache[key] = self.rules.column_units(column.raw, column.header)
        return cache[key]

    def quantity_unit(self, column: Column) -> Unit | None:
        """The unit the column's numbers are in, from its cells or its header (`ValueRules.quantity_unit`)."""
        return self.rules.quantity_unit(column.header, self.quantity(column))

    def answer_unit(self, column: Column) -> Unit | None:
        """The unit an answer computed from the column's numbers is in: `quantity_unit`, else hours for a
        column of times (`ValueRules.clock_unit`). Questions' quantities stay with `quantity_unit` alone: a
        table of start times and durations in minutes must not make "over 45 minutes" ambiguous."""
        return self.quantity_unit(column) or self.rules.clock_unit(column.raw)

    def column(self, name_or_slug: str) -> Column:
        for c in self.columns:
            if name_or_slug in (c.header, c.slug):
                return c
        raise DataError(f"unknown column {name_or_slug!r}; columns are {', '.join(self.header)}")

    @classmethod
    def from_rows(
        cls,
        table_id: str,
        header: Sequence[str],
        rows: Sequence[Sequence[str]],
        *,
        column_types: Sequence[str] | None = None,
        min_typed_fraction: float = MIN_TYPED_FRACTION,
        value_rules: str | ValueRules = "wtq",
    ) -> Table:
        """Build and type a table from raw text.

        `column_types` (WikiSQL's `real`/`text`) fixes the views instead of inferring them: a `real` column
        gets only a number view, a `text` column only a string view, as in MAPO's WikiSQL preprocessing.
        Otherwise `value_rules` (`nsmcli.worlds.tables.data.valuerules`: "wtq", the official rules, or "user") type the cells.
        """
        rules = get_rules(value_rules)
        if not header:
            raise DataError(f"table {table_id}: no columns")
        width = len(header)
        for i, row in enumerate(rows):
            if len(row) != width:
                raise DataError(f"table {table_id}: row {i + 1} has {len(row)} cells, the header has {width}")
        slugs = _unique_slugs(header, rules.header_symbols, rules.header_names, rules.header_details)
        columns = []
        with gc_paused():
            raws = [
                tuple("" if rows[i][j] is None else str(rows[i][j]) for i in range(len(rows)))
                for j in range(width)
            ]
            rules = rules.for_table(raws)  # what the whole table says (the user rules' decimal convention)
            for j, head in enumerate(header):
                declared = column_types[j] if column_types is not None else None
                columns.append(
                    _type_column(str(head), slugs[j], raws[j], declared, min_typed_fraction, rules)
                )
        types = tuple(column_types) if column_types is not None else None
        return cls(table_id, columns, types, rules)


def _type_column(
    header: str, slug: str, raw: tuple[str, ...], declared: str | None, min_frac: float, rules: ValueRules
) -> Column:
    column = Column(header, slug, raw)
    if declared == "real":
        numbers = tuple(_plain_number(text) for text in raw)
        column.views["number"] = numbers
        return column
    if declared is not None:
        # Declared types are WikiSQL's: its answers are compared as lower-cased cell text, so the string view
        # is that text (whitespace collapsed), not the WTQ normalisation, which would drop "(17)" from
        # "Baron Davis (17)" and turn "28–24" into "28-24" (8.9% of WikiSQL train answers unreachable).
        column.views["string"] = tuple(" ".join(text.lower().split()) for text in raw)
        return column
    column.views.update(rules.column_views(raw, min_frac, header))
    return column


def _plain_number(text: str) -> float | None:
    try:
        return float(text.replace(",", "").strip())
    except ValueError:
        number, _ = textnum.parse_cell_numbers(text)
        return number


def _unique_slugs(
    header: Sequence[str],
    symbols: Mapping[str, str] | None = None,
    names: Mapping[str, str] | None = None,
    details: bool = False,
) -> list[str]:
    """Lower-case, underscore-joined column slugs (WTQ's `fb:row.row.year_built` style), made unique; each of
    `symbols` in a header becomes its word ("% Change" -> `percent_change`), and a whole header of `names`
    its words (`+/-` -> `plus_minus`). With `details`, headers alike but for a parenthesised detail keep it
    (`cpi_annual_percent_2021`, not `cpi_annual_percent_3`)."""
    texts = []
    for head in header:
        text = str(head)
        text = (names or {}).get(text.strip(), text)
        if re.search(r"[^\W_]", text):  # a header of symbols alone ("#") keeps the plain name
            for symbol, word in (symbols or {}).items():
                text = text.replace(symbol, f" {word} ")
        texts.append(text)
    bases = [_slug_text(text) for text in texts]
    if details:
        shared = {base for base, n in Counter(bases).items() if n > 1 and base}
        bases = [
            _slug_text(_PARENTHESES.sub(" ", t)) if b in shared else b
            for t, b in zip(texts, bases, strict=True)
        ]
    slugs: list[str] = []
    seen: set[str] = set()
    # with details, a counter makes no slug that a later header's detail spells (`score_2` of "Score (2)")
    taken = set(bases) if details else set()
    for j, base in enumerate(bases):
        base = base or f"column_{j + 1}"
        slug, k = base, 2
        while slug in seen or (slug != base and slug in taken):
            slug, k = f"{base}_{k}", k + 1
        seen.add(slug)
        slugs.append(slug)
    return slugs


#: The round brackets of a header's detail, opened so that `normalize` keeps what they hold.
_PARENTHESES = re.compile(r"[()]")


def _slug_text(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "_", normalize(text)).strip("_")
