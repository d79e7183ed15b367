"""How answers are shown to a person: the table's own cell text where the answer was read from cells,
computed numbers rounded for reading (`20.2`, not `20.200000000000003`; `5`, not `5.0`).

Display only: the evaluator, preprocessing and the model read values through `nsmcli.worlds.tables.data.values` and
`nsmcli.worlds.tables.data.evaluate.prediction_text`, never through this module.
"""

from __future__ import annotations

import math
from typing import Any

#: Float noise is dropped at this many significant digits (`20.200000000000003` is 20.2) ...
NOISE_DIGITS = 12
#: ... and a computed non-integer keeps at most this many decimals (an average: `7.636364`).
MAX_DECIMALS = 6

#: How an answer that is one empty cell is shown in text output (JSON keeps the empty string).
EMPTY_CELL = "(empty cell)"


def number_text(value: float | int) -> str:
    """A computed number for reading: integers in full (`5`, not `5.0`), others without float noise and
    with at most `MAX_DECIMALS` decimals; `-0` as `0`."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        return str(value)
    if value != 0 and abs(value) < 10**-MAX_DECIMALS:
        return f"{value:.3g}"  # tiny values keep three significant digits rather than reading as 0
    if not value.is_integer():
        value = float(f"{value:.{NOISE_DIGITS}g}")
    if value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    text = f"{value:.{MAX_DECIMALS}f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def value_text(value: Any) -> str:
    """One answer value (a string, number or date of the interpreter) as a person reads it."""
    if isinstance(value, float | int) and not isinstance(value, bool):
        return number_text(value)
    return str(value)  # a string, or a Date as `yyyy-mm-dd` (`xx` for unknown fields)


def display_values(answer: list, cells: list[str] | None) -> list[str]:
    """The answer as shown: the cells it was read from when there are any (see
    `nsmcli.worlds.tables.lang.interpreter.answer_cells`), else each computed value rounded for reading."""
    return list(cells) if cells is not None else [value_text(v) for v in answer]


def step_text(step: dict, shown: int = 8) -> str:
    """An intermediate result (from `nsmcli.worlds.tables.lang.interpreter.describe_step`) for a table of steps:
    `string_list: a, b`, or for a row set one line per row with its first cells
    (`row 11: 11 | Kenya | 2 | 0`)."""
    values = step["values"]
    more = f"\n... {len(values)} in all" if len(values) > shown else ""
    if step["type"] == "entity_list" and not values:
        return "no rows"
    if step.get("rows"):
        lines = [
            f"{value}: {' | '.join(list(cells.values())[:4])[:60]}"
            for value, cells in zip(values[:shown], step["rows"], strict=False)
        ]
        return f"{len(values)} row{'s' if len(values) != 1 else ''}\n" + "\n".join(lines) + more
    return f"{step['type']}: " + ", ".join(value_text(v) or EMPTY_CELL for v in values[:shown]) + more
