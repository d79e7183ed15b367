"""The program tree and its canonical text form.

`(filter_str_contain_any all_rows "turkey" r.nation-string) (next v0) (hop v1 r.nation-string)`

A program is a sequence of expressions; `vK` names the result of expression K. Columns appear by property
name and question entities by value (strings JSON-quoted, numbers plain, dates `yyyy-mm-dd` with `xx`), so a
program text stays valid whatever order constants were numbered in. Parsing then printing gives the same text.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass

from nsmcli.errors import GrammarError
from nsmcli.worlds.tables.data.values import Date, format_number


@dataclass(frozen=True, slots=True)
class AllRows:
    def __str__(self) -> str:
        return "all_rows"


@dataclass(frozen=True, slots=True)
class Column:
    """A column property such as `r.nation-string`."""

    name: str

    def __str__(self) -> str:
        return self.name

    @property
    def slug(self) -> str:
        """The column's slug: `r.unit_price-number` -> `unit_price`."""
        return self.name[2:].rpartition("-")[0]

    @property
    def view(self) -> str:
        """The view it reads: `r.unit_price-number` -> `number`."""
        return self.name.rpartition("-")[2]


@dataclass(frozen=True, slots=True)
class Literal:
    """A question entity: kind `string`, `number` or `date` and its values (usually one)."""

    kind: str
    values: tuple

    def __str__(self) -> str:
        items = [_literal_text(self.kind, v) for v in self.values]
        return items[0] if len(items) == 1 else "[" + " ".join(items) + "]"


@dataclass(frozen=True, slots=True)
class Ref:
    """The result of expression number `index` (0-based) of the same program."""

    index: int

    def __str__(self) -> str:
        return f"v{self.index}"


Arg = AllRows | Column | Literal | Ref
ALL_ROWS = AllRows()


@dataclass(frozen=True, slots=True)
class Expr:
    function: str
    args: tuple[Arg, ...]

    def __str__(self) -> str:
        return "(" + " ".join([self.function, *map(str, self.args)]) + ")"


@dataclass(frozen=True, slots=True)
class Program:
    exprs: tuple[Expr, ...]

    def __str__(self) -> str:
        return " ".join(map(str, self.exprs))

    def literals(self) -> set[Literal]:
        """The question entities the program uses."""
        return {a for e in self.exprs for a in e.args if isinstance(a, Literal)}

    @staticmethod
    def parse(text: str) -> Program:
        return parse_program(text)


def _literal_text(kind: str, value: object) -> str:
    if kind == "string":
        return json.dumps(value, ensure_ascii=False)
    if kind == "number":
        return format_number(float(value))  # type: ignore[arg-type]
    return str(value)


_TOKEN = re.compile(r'\s*(?:(\()|(\))|(\[)|(\])|("(?:[^"\\]|\\.)*")|([^\s()\[\]"]+))')
_NUMBER = re.compile(r"-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?")
_REF = re.compile(r"v(\d+)")


def _string_literal(token: str, text: str) -> str:
    """A quoted string of a program, read as JSON reads it (the canonical text writes them with json.dumps)."""
    try:
        return json.loads(token)
    except ValueError as exc:  # a bad escape or a raw control character
        raise GrammarError(f"bad string literal {token!r} in {text!r}: {exc.msg}") from None


def _atom(word: str) -> tuple[str, object]:
    """Classify a bare word: ('ref', i) | ('column', name) | ('all_rows', None) | literal (kind, value)."""
    if word == "all_rows":
        return "all_rows", None
    if m := _REF.fullmatch(word):
        return "ref", int(m.group(1))
    if word.startswith("r."):
        return "column", word
    if _NUMBER.fullmatch(word):
        if not math.isfinite(value := float(word)):
            raise GrammarError(f"the number {_short(word)} in the program is beyond the range of numbers")
        return "number", value
    if (d := Date.parse(word)) is not None:
        return "date", d
    raise GrammarError(
        f"cannot read {word!r} in a program (expected all_rows, vN, r.column-kind, a number, "
        "a date yyyy-mm-dd or a quoted string)"
    )


def parse_program(text: str) -> Program:
    """Read a program's canonical text. Raises GrammarError naming the problem."""
    pos, exprs = 0, []
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or not m.group(1):
            raise GrammarError(f"expected '(' at character {pos} of {text!r}")
        pos = m.end()
        m = _TOKEN.match(text, pos)
        if not m or not m.group(6):
            raise GrammarError(f"expected a function name at character {pos} of {text!r}")
        function, pos = m.group(6), m.end()
        args: list[Arg] = []
        while True:
            m = _TOKEN.match(text, pos)
            if not m:
                raise GrammarError(f"unterminated expression in {text!r}")
            pos = m.end()
            if m.group(2):
                break
            if m.group(3):
                values, kind = [], None
                while True:
                    m = _TOKEN.match(text, pos)
                    if not m:
                        raise GrammarError(f"unterminated list in {text!r}")
                    pos = m.end()
                    if m.group(4):
                        break
                    k, v = (
                        ("string", _string_literal(m.group(5), text))
                        if m.group(5)
                        else _atom(m.group(6) or "?")
                    )
                    if kind not in (None, k) or k in ("ref", "column", "all_rows"):
                        raise GrammarError(f"a list literal holds values of one kind, in {text!r}")
                    kind = k
                    values.append(v)
                if not values:
                    raise GrammarError(f"empty list literal in {text!r}")
                args.append(Literal(kind, tuple(values)))  # type: ignore[arg-type]
            elif m.group(5):
                args.append(Literal("string", (_string_literal(m.group(5), text),)))
            elif m.group(6):
                kind, value = _atom(m.group(6))
                if kind == "all_rows":
                    args.append(ALL_ROWS)
                elif kind == "ref":
                    if value >= len(exprs):  # type: ignore[operator]
                        raise GrammarError(f"v{value} is used before it is computed in {text!r}")
                    args.append(Ref(value))  # type: ignore[arg-type]
                elif kind == "column":
                    args.append(Column(value))  # type: ignore[arg-type]
                else:
                    args.append(Literal(kind, (value,)))
            else:
                raise GrammarError(f"unexpected ']' in {text!r}")
        exprs.append(Expr(function, tuple(args)))
        while pos < len(text) and text[pos].isspace():
            pos += 1
    if not exprs:
        raise GrammarError("empty program")
    return Program(tuple(exprs))


def _short(word: str, limit: int = 24) -> str:
    return word if len(word) <= limit else f"{word[:limit]}... ({len(word)} characters)"
