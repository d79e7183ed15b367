"""The model's view of a table question (`World.context` of the table languages): MAPO's question
features and constant keys (mapo.md §1.7, §4.3), as a generic `nsmcli.model.context.Context`.

Everything table-specific lives here: column names, entity spans, the in-table bit, the column-question
match, and the question-matched cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from nsmcli.model.context import ConstantKey, Context
from nsmcli.model.vocab import Vocab
from nsmcli.worlds.tables.data.annotate import column_name_pieces
from nsmcli.worlds.tables.lang import program as P
from nsmcli.worlds.tables.lang.interpreter import Environment, _entity_type_value

#: Constant types with an embedding row each (ids are positions; 0 is anything else).
CONSTANT_TYPES = (
    "<other>",
    "column:string",
    "column:number",
    "column:num2",
    "column:date",
    "entity:string",
    "entity:number",
    "entity:date",
)
_TYPE_ID = {name: i for i, name in enumerate(CONSTANT_TYPES)}


class TableContext:
    """The table-question adapter (WTQ, WikiSQL): MAPO's question features and constant keys (§1.7, §4.3)."""

    @staticmethod
    def from_example(
        example: Any,
        env: Environment,
        vocab: Vocab,
        *,
        in_table_bug: bool = False,
        column_match: str = "tokens",
        column_match_binary: bool = False,
        column_cells: bool = False,
    ) -> Context:
        """Featurise an `Example` (or a bare `AnnotatedQuestion`) for its bound environment.

        `in_table_bug` zeroes the in-table bit of number/date entity tokens, as the original preprocessing
        did by accident; by default the annotation's bit is used as is. `column_match` chooses the column
        feature: the annotation's token count, or `substring` (pieces found in the question text, as the
        original computed it); `column_match_binary` clips it at 1 (see `ModelConfig`). `column_cells`
        appends to a column's header words `|` and the cell the question names (`matched_cell`).
        """
        question = getattr(example, "question", example)
        tokens = list(question.tokens)
        in_table = [float(x) for x in question.in_table]
        if in_table_bug:
            strings = {k for e in question.entities if e.kind == "string" for k in range(e.start, e.end)}
            for e in question.entities:
                if e.kind != "string":
                    for k in range(e.start, e.end):
                        if k not in strings:
                            in_table[k] = 0.0
        spans = _entity_spans(question.entities)
        match = getattr(question, "column_match", {}) or {}
        text = getattr(question, "text", "")
        table_columns = {c.slug: c for c in getattr(env.table, "columns", ())}
        column_of: dict[str, int] = {}  # slug -> index in `columns`
        columns: list[tuple[str, ...]] = []
        constants = []
        for arg in env.constant_args[: env.n_constants]:
            if isinstance(arg, P.Column):
                slug, kind = _split_property(arg.name)
                if slug not in column_of:
                    column_of[slug] = len(columns)
                    column = table_columns.get(slug)
                    words = str(column.header if column is not None else "").split()
                    words = words or [p for p in slug.split("_") if p]
                    cell = matched_cell(column, question.entities) if column_cells and column else None
                    columns.append(tuple(words + (["|", *cell.split()] if cell else [])))
                if column_match == "substring":
                    score = float(sum(p in text for p in column_name_pieces(slug)))
                else:
                    score = float(match.get(arg.name, 0.0))
                constants.append(
                    ConstantKey(
                        _TYPE_ID.get(f"column:{kind}", 0),
                        None,
                        tuple(vocab.ids(p for p in slug.split("_") if p)),
                        min(score, 1.0) if column_match_binary else score,
                        column_of[slug],
                    )
                )
            elif isinstance(arg, P.Literal):
                span = spans.get((arg.kind, tuple(arg.values)))
                if span is not None and not 0 <= span[0] <= span[1] < len(tokens):
                    span = None  # a malformed annotation must not index past the question
                constants.append(ConstantKey(_TYPE_ID.get(f"entity:{arg.kind}", 0), span))
            else:
                constants.append(ConstantKey(0))
        return Context(
            token_ids=tuple(vocab.ids(tokens)),
            token_features=tuple((x,) for x in in_table),
            n_builtins=env.var_base,
            constants=tuple(constants),
            n_computed=env.limits.max_expressions,
            words=tuple(tokens),
            columns=tuple(columns),
        )


def table_context(example: Any, env: Environment, vocab: Vocab, config: Any) -> Context:
    """The table world's context adapter, with the model's table options (`ModelConfig`)."""
    return TableContext.from_example(
        example,
        env,
        vocab,
        in_table_bug=config.in_table_bug,
        column_match=config.column_match,
        column_match_binary=config.column_match_binary,
        column_cells=config.encoder_cells,
    )


def matched_cell(column: Any, entities: Sequence) -> str | None:
    """The cell of `column` (its raw text) that the question names: the first cell whose string view
    contains the longest string entity found in the column (TaBERT's and the PyTorch MAPO's question-matched
    content snapshot, mapo.md §8.1), or None."""
    cells = column.views.get("string", ())
    best: tuple[int, int] | None = None  # (entity length, row)
    for e in entities:
        value = str(e.values[0]) if e.kind == "string" and e.values else ""
        if not value:  # a number or date, or the empty text of a blank cell, which names no cell
            continue
        if best is not None and len(value) <= best[0]:
            continue
        row = next((i for i, cell in enumerate(cells) if value in str(cell)), None)
        if row is not None:
            best = (len(value), row)
    return str(column.raw[best[1]]) if best is not None and best[1] < len(column.raw) else None


def _split_property(name: str) -> tuple[str, str]:
    """`r.year_built-number` -> (`year_built`, `number`)."""
    body = name[2:] if name.startswith("r.") else name
    slug, _, kind = body.rpartition("-")
    return (slug, kind) if slug else (body, "")


def _entity_spans(entities: Sequence) -> dict[tuple[str, tuple], tuple[int, int]]:
    """Map each entity's environment form (kind, normalised values) to its first span, end inclusive; the
    environment keeps the first of duplicate entities, so the first span is the one its constant came from."""
    spans: dict[tuple[str, tuple], tuple[int, int]] = {}
    for e in entities:
        try:
            _, values = _entity_type_value(e.kind, e.values)
        except (TypeError, ValueError):
            continue
        spans.setdefault((e.kind, values), (e.start, e.end - 1))
    return spans
