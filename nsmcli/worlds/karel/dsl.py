"""The Karel DSL (karel.md §2), derived from its declaration in grammars/karel.toml.

`Grammar` reads the productions once and derives from them the token vocabulary, an LL(1) predictive
parser for program text, the token-by-token automaton a decoder follows (`advance`, `valid_next`) and the
shortest completion of every partial program (`min_length`). A production `X = X X` declares X as a
non-empty list of X's other alternatives, so the grammar has no empty blocks and the automaton needs no
left recursion. Program text is turned into a small AST (`Program`, `Action`, `While`, ...), printed back
flat (`program_tokens`) or indented (`pretty`).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from nsmcli.errors import GrammarError
from nsmcli.resources import GRAMMAR_DIR

#: The tokens a program outside its `DEF run m( ... m)` wrapper is put in (karel.md §5 omits it).
WRAPPER_OPEN = ("DEF", "run", "m(")
WRAPPER_CLOSE = ("m)",)
#: A program of this many tokens or fewer is a syntax error in LEAPS (the dummy `DEF run m( m)`, §2.4).
MIN_VALID_TOKENS = 5

# Suffixes of the helper non-terminals of a list X (X = X X): one item, and "more items or none".
_ITEM = "@item"
_MORE = "@more"


class Grammar:
    """A context-free grammar declared in a toml file, checked to be LL(1)."""

    def __init__(self, path: Path):
        try:
            spec = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise GrammarError(f"cannot read grammar {path}: {exc}") from None
        missing = [key for key in ("name", "tokens", "start", "productions") if key not in spec]
        if missing:
            raise GrammarError(f"grammar {path} lacks {', '.join(missing)}")
        self.name: str = spec["name"]
        self.tokens: tuple[str, ...] = tuple(spec["tokens"])
        self.token_index = {token: i for i, token in enumerate(self.tokens)}
        self.start: str = spec["start"]
        self.limits: dict = dict(spec.get("limits", {}))
        declared: dict[str, list[list[str]]] = spec["productions"]
        #: non-terminals declared as lists (X = X X) -> their item non-terminal
        self.lists: dict[str, str] = {}
        self.rules: dict[str, tuple[tuple[str, ...], ...]] = {}
        for name, alternatives in declared.items():
            alternatives = [tuple(alt) for alt in alternatives]
            if (name, name) in alternatives:
                item, more = name + _ITEM, name + _MORE
                self.lists[name] = item
                self.rules[name] = ((item, more),)
                self.rules[item] = tuple(alt for alt in alternatives if alt != (name, name))
                self.rules[more] = ((item, more), ())
            else:
                self.rules[name] = tuple(alternatives)
        for name, alternatives in self.rules.items():
            for alt in alternatives:
                for symbol in alt:
                    if symbol not in self.rules and symbol not in self.token_index:
                        raise GrammarError(f"grammar {path}: {name} uses undeclared symbol {symbol!r}")
        self._analyse(path)

    def is_terminal(self, symbol: str) -> bool:
        return symbol not in self.rules

    def _analyse(self, path: Path) -> None:
        """FIRST sets, nullability and minimum lengths by fixed point; then the LL(1) choice table."""
        nullable: set[str] = set()
        first: dict[str, set[str]] = {name: set() for name in self.rules}
        min_len: dict[str, float] = {name: float("inf") for name in self.rules}

        def seq_first(seq: tuple[str, ...]) -> tuple[set[str], bool]:
            out: set[str] = set()
            for symbol in seq:
                if self.is_terminal(symbol):
                    out.add(symbol)
                    return out, False
                out |= first[symbol]
                if symbol not in nullable:
                    return out, False
            return out, True

        changed = True
        while changed:
            changed = False
            for name, alternatives in self.rules.items():
                for alt in alternatives:
                    tokens, is_nullable = seq_first(alt)
                    if not tokens <= first[name]:
                        first[name] |= tokens
                        changed = True
                    if is_nullable and name not in nullable:
                        nullable.add(name)
                        changed = True
                    length = sum(1 if self.is_terminal(s) else min_len[s] for s in alt)
                    if length < min_len[name]:
                        min_len[name] = length
                        changed = True
        for name, length in min_len.items():
            if length == float("inf"):
                raise GrammarError(f"grammar {path}: {name} derives no finite program")
        self._first = {name: frozenset(tokens) for name, tokens in first.items()}
        self._nullable = frozenset(nullable)
        self._min_len = {name: int(length) for name, length in min_len.items()}
        # choice[X][token] = the alternative of X that starts with token; X's empty alternative (if any)
        # is taken on any other token (its follow set is checked by the caller's next symbol)
        self._choice: dict[str, dict[str, tuple[str, ...]]] = {}
        self._empty: dict[str, tuple[str, ...] | None] = {}
        for name, alternatives in self.rules.items():
            table: dict[str, tuple[str, ...]] = {}
            self._empty[name] = None
            for alt in alternatives:
                tokens, is_nullable = seq_first(alt)
                if is_nullable:
                    if tokens or self._empty[name] is not None:
                        raise GrammarError(f"grammar {path}: {name} is not LL(1) (nullable alternatives)")
                    self._empty[name] = alt
                for token in tokens:
                    if token in table:
                        raise GrammarError(f"grammar {path}: {name} is not LL(1) on {token!r}")
                    table[token] = alt
            self._choice[name] = table

    # --- the decoder's automaton: a stack of pending symbols, its top last --------------------------

    def start_stack(self) -> tuple[str, ...]:
        return (self.start,)

    def advance(self, stack: tuple[str, ...], token: str) -> tuple[str, ...] | None:
        """The stack after reading `token`, or None when the grammar does not allow it here."""
        pending = list(stack)
        while pending:
            top = pending.pop()
            if self.is_terminal(top):
                return tuple(pending) if top == token else None
            alt = self._choice[top].get(token, self._empty[top])
            if alt is None:
                return None
            pending.extend(reversed(alt))
        return None

    def next_tokens(self, stack: tuple[str, ...]) -> frozenset[str]:
        """The tokens the grammar allows after `stack`, ignoring length (empty when the program is done)."""
        out: set[str] = set()
        for symbol in reversed(stack):
            if self.is_terminal(symbol):
                out.add(symbol)
                break
            out |= self._first[symbol]
            if symbol not in self._nullable:
                break
        return frozenset(out)

    def min_length(self, stack: tuple[str, ...]) -> int:
        """The fewest tokens that complete a program from `stack`."""
        return sum(1 if self.is_terminal(s) else self._min_len[s] for s in stack)

    def min_symbol_length(self, symbol: str) -> int:
        return 1 if self.is_terminal(symbol) else self._min_len[symbol]

    # --- the text parser: the same choice table, building a tree --------------------------------------

    def parse_tree(self, tokens: list[str]) -> Tree:
        """The parse tree of a whole token list; GrammarError saying where it fails."""
        for i, token in enumerate(tokens):
            if token not in self.token_index:
                raise GrammarError(f"unknown token {token!r} at position {i + 1}")
        tree, end = self._parse(self.start, tokens, 0)
        if end != len(tokens):
            raise GrammarError(f"unexpected {tokens[end]!r} at position {end + 1} after the program's end")
        return tree

    def _parse(self, symbol: str, tokens: list[str], i: int) -> tuple[Tree, int]:
        if self.is_terminal(symbol):
            if i < len(tokens) and tokens[i] == symbol:
                return Tree(symbol, ()), i + 1
            raise GrammarError(f"expected {symbol!r} {_where(tokens, i)}")
        if symbol in self.lists:  # a non-empty list: items while the next token can start one
            item = self.lists[symbol]
            children = []
            while True:
                child, i = self._parse(item, tokens, i)
                children.append(child)
                if i >= len(tokens) or tokens[i] not in self._first[item]:
                    return Tree(symbol, tuple(children)), i
        token = tokens[i] if i < len(tokens) else None
        alt = self._choice[symbol].get(token) if token is not None else None
        if alt is None:
            alt = self._empty[symbol]
        if alt is None:
            expected = " or ".join(sorted(self._first[symbol]))
            raise GrammarError(f"expected {expected} {_where(tokens, i)}")
        children = []
        for part in alt:
            child, i = self._parse(part, tokens, i)
            children.append(child)
        return Tree(symbol, tuple(children)), i


def _where(tokens: list[str], i: int) -> str:
    return f"at position {i + 1}, got {tokens[i]!r}" if i < len(tokens) else "at the end of the program"


@dataclass(frozen=True, slots=True)
class Tree:
    """A parse-tree node: a terminal (no children) or a non-terminal with one child per symbol."""

    symbol: str
    children: tuple[Tree, ...]


@cache
def karel_grammar() -> Grammar:
    """The Karel grammar shipped with nsm (grammars/karel.toml), loaded once."""
    return Grammar(GRAMMAR_DIR / "karel.toml")


# --- the AST ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cond:
    """A perception, under `negations` levels of `not c( ... c)`."""

    predicate: str
    negations: int = 0


@dataclass(frozen=True, slots=True)
class Action:
    name: str


@dataclass(frozen=True, slots=True)
class While:
    cond: Cond
    body: tuple


@dataclass(frozen=True, slots=True)
class If:
    cond: Cond
    body: tuple


@dataclass(frozen=True, slots=True)
class IfElse:
    cond: Cond
    body: tuple
    orelse: tuple


@dataclass(frozen=True, slots=True)
class Repeat:
    count: int
    body: tuple


Statement = Action | While | If | IfElse | Repeat


@dataclass(frozen=True, slots=True)
class Program:
    """`DEF run m( body m)`; a body is a non-empty tuple of statements, executed left-nested."""

    body: tuple


def split_text(text: str) -> list[str]:
    """The tokens of program text, put in the `DEF run m( ... m)` wrapper when it does not start with DEF."""
    tokens = text.split()
    if not tokens:
        raise GrammarError("the program is empty")
    if tokens[0] != "DEF":
        tokens = [*WRAPPER_OPEN, *tokens, *WRAPPER_CLOSE]
    return tokens


def parse(text: str, grammar: Grammar | None = None) -> Program:
    """A program from its text, with or without the `DEF run m( ... m)` wrapper; GrammarError if invalid."""
    return parse_tokens(split_text(text), grammar)


def parse_tokens(tokens: list[str], grammar: Grammar | None = None) -> Program:
    """A program from its full token list (DEF first); GrammarError by the rules of karel.md §2.4."""
    grammar = grammar or karel_grammar()
    tree = grammar.parse_tree(list(tokens))
    if len(tokens) < MIN_VALID_TOKENS:  # the grammar already has no empty block; LEAPS checks this too
        raise GrammarError("a program needs at least one statement")
    return Program(_statements(_child(tree, "S")))


def _child(tree: Tree, symbol: str, nth: int = 0) -> Tree:
    return [c for c in tree.children if c.symbol == symbol][nth]


def _statements(tree: Tree) -> tuple:
    return tuple(_statement(item) for item in tree.children)


def _statement(item: Tree) -> Statement:
    head = item.children[0]
    if head.symbol == "A":
        return Action(head.children[0].symbol)
    if head.symbol == "WHILE":
        return While(_cond(_child(item, "C")), _statements(_child(item, "S")))
    if head.symbol == "IF":
        return If(_cond(_child(item, "C")), _statements(_child(item, "S")))
    if head.symbol == "IFELSE":
        return IfElse(
            _cond(_child(item, "C")), _statements(_child(item, "S")), _statements(_child(item, "S", 1))
        )
    if head.symbol == "REPEAT":
        count = _child(item, "K").children[0].symbol
        return Repeat(int(count.removeprefix("R=")), _statements(_child(item, "S")))
    raise GrammarError(f"no Karel statement starts with {head.symbol!r}")  # a grammar file out of step


def _cond(tree: Tree) -> Cond:
    negations = 0
    while tree.children[0].symbol == "not":
        negations += 1
        tree = _child(tree, "C")
    return Cond(tree.children[0].children[0].symbol, negations)


# --- printing -----------------------------------------------------------------------------------------


def cond_tokens(cond: Cond) -> list[str]:
    return ["not", "c("] * cond.negations + [cond.predicate] + ["c)"] * cond.negations


def statement_tokens(statement: Statement) -> list[str]:
    out: list[str] = []
    _emit(statement, out)
    return out


def _emit(s: Statement, out: list[str]) -> None:
    if isinstance(s, Action):
        out.append(s.name)
        return
    if isinstance(s, Repeat):
        out += ["REPEAT", f"R={s.count}", "r("]
        _emit_block(s.body, out)
        out.append("r)")
        return
    head = {While: "WHILE", If: "IF", IfElse: "IFELSE"}[type(s)]
    out += [head, "c(", *cond_tokens(s.cond), "c)"]
    opener = "w(" if isinstance(s, While) else "i("
    out.append(opener)
    _emit_block(s.body, out)
    out.append(opener[0] + ")")
    if isinstance(s, IfElse):
        out += ["ELSE", "e("]
        _emit_block(s.orelse, out)
        out.append("e)")


def _emit_block(block: tuple, out: list[str]) -> None:
    for s in block:
        _emit(s, out)


def program_tokens(program: Program) -> list[str]:
    """The full token list, `DEF run m( ... m)` included."""
    out = list(WRAPPER_OPEN)
    _emit_block(program.body, out)
    out += WRAPPER_CLOSE
    return out


def program_text(program: Program) -> str:
    """The program on one line, as LEAPS writes it."""
    return " ".join(program_tokens(program))


def pretty(program: Program, indent: str = "    ") -> str:
    """The program indented one block per level; `parse` reads it back."""
    lines = ["DEF run m("]
    _pretty_block(program.body, 1, indent, lines)
    lines.append("m)")
    return "\n".join(lines)


def _pretty_block(block: tuple, depth: int, indent: str, lines: list[str]) -> None:
    pad = indent * depth
    for s in block:
        if isinstance(s, Action):
            lines.append(pad + s.name)
        elif isinstance(s, Repeat):
            lines.append(f"{pad}REPEAT R={s.count} r(")
            _pretty_block(s.body, depth + 1, indent, lines)
            lines.append(pad + "r)")
        else:
            head = {While: "WHILE", If: "IF", IfElse: "IFELSE"}[type(s)]
            opener = "w(" if isinstance(s, While) else "i("
            lines.append(f"{pad}{head} c( {' '.join(cond_tokens(s.cond))} c) {opener}")
            _pretty_block(s.body, depth + 1, indent, lines)
            if isinstance(s, IfElse):
                lines.append(f"{pad}i) ELSE e(")
                _pretty_block(s.orelse, depth + 1, indent, lines)
                lines.append(pad + "e)")
            else:
                lines.append(pad + opener[0] + ")")


def program_size(program: Program) -> int:
    """The number of tokens of the program, `DEF run m( ... m)` included."""
    return len(program_tokens(program))
