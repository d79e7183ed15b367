"""Karel programs token by token: the `nsmcli.protocols.Environment` of the Karel world (karel.md §2.3).

Action ids: 0 is `<END>` (the program is finished), then the 50 DSL tokens in LEAPS's order (grammars/
karel.toml), so DSL token i is id i + 1. Every id has a learned embedding (`n_builtins`); Karel has no
constants and writes no memory. The valid next tokens follow the grammar's automaton: forced tokens
(`run` after `DEF`, `c(` after `WHILE`, ...), no empty block, and no token whose shortest completion would
pass the length budget (`max_length` tokens after DEF, LEAPS's 45), so every decoded program is valid and
ends within the budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from nsmcli.errors import GrammarError
from nsmcli.worlds.karel.dsl import Grammar, Program, karel_grammar, parse_tokens, pretty

END = 0
END_NAME = "<END>"
DEFAULT_MAX_LENGTH = int(karel_grammar().limits.get("max_length", 45))


@dataclass(frozen=True, slots=True)
class KarelState:
    """A partial program: its token ids, whether `<END>` closed it, an error, and the grammar's stack of
    pending symbols (top last)."""

    tokens: tuple[int, ...]
    done: bool
    error: str | None
    stack: tuple[str, ...]


class KarelEnvironment:
    """Reads Karel programs token by token under the grammar and the length budget."""

    def __init__(self, grammar: Grammar | None = None, max_length: int = DEFAULT_MAX_LENGTH):
        self.grammar = grammar or karel_grammar()
        if max_length < self.grammar.min_length(self.grammar.start_stack()) - 1:
            raise GrammarError(f"a Karel program needs more than max_length={max_length} tokens after DEF")
        self.max_length = max_length
        self.names: tuple[str, ...] = (END_NAME, *self.grammar.tokens)
        self.ids = {name: i for i, name in enumerate(self.names)}
        self._valid: dict[tuple[tuple[str, ...], int], frozenset[int]] = {}
        self._initial = KarelState((), False, None, self.grammar.start_stack())

    @property
    def world(self) -> str:
        return "karel"

    @property
    def n_builtins(self) -> int:
        return len(self.names)

    @property
    def n_constants(self) -> int:
        return 0

    @property
    def n_computed(self) -> int:
        return 0

    def initial_state(self) -> KarelState:
        return self._initial

    def valid_tokens(self, state: KarelState) -> frozenset[int]:
        """The ids that may follow `state`: `<END>` once the program is complete, else the grammar's next
        tokens that leave room for the shortest completion (cached: models replay programs)."""
        if state.done or state.error is not None:
            return frozenset()
        key = (state.stack, len(state.tokens))
        valid = self._valid.get(key)
        if valid is None:
            valid = self._valid[key] = self._compute_valid(state.stack, len(state.tokens))
        return valid

    def _compute_valid(self, stack: tuple[str, ...], used: int) -> frozenset[int]:
        if not stack:
            return frozenset((END,))
        grammar = self.grammar
        budget = self.max_length + 1  # DEF and the max_length tokens after it
        out = []
        for name in grammar.next_tokens(stack):
            after = grammar.advance(stack, name)
            if after is not None and used + 1 + grammar.min_length(after) <= budget:
                out.append(self.ids[name])
        return frozenset(out)

    def step(self, state: KarelState, token: int) -> KarelState:
        if state.error is not None:
            return state
        if token not in self.valid_tokens(state):
            name = self.names[token] if 0 <= token < len(self.names) else str(token)
            why = "the program is finished" if state.done else f"{name!r} cannot follow here"
            return KarelState(state.tokens + (token,), state.done, why, state.stack)
        if token == END:
            return KarelState(state.tokens + (token,), True, None, ())
        stack = self.grammar.advance(state.stack, self.names[token])
        return KarelState(state.tokens + (token,), False, None, stack)

    def run(self, tokens: Sequence[int]) -> KarelState:
        state = self._initial
        for token in tokens:
            state = self.step(state, token)
        return state

    def written_slot(self, before: KarelState, after: KarelState) -> int:
        return -1

    def unused_work(self, state: KarelState) -> bool:
        return False

    def answer(self, state: KarelState) -> None:
        return None  # a Karel program has no answer besides its reward

    def token_name(self, token: int) -> str:
        return self.names[token]

    def encode(self, program: Program | Sequence[str] | str) -> tuple[int, ...]:
        """The ids of a program (its text, as `display` writes it; an AST; or DSL token names), `<END>`
        last. GrammarError for text that is no program."""
        from nsmcli.worlds.karel.dsl import parse, program_tokens

        if isinstance(program, str):
            program = parse(program, self.grammar)
        names = program_tokens(program) if isinstance(program, Program) else list(program)
        return (*(self.ids[n] for n in names), END)

    def dsl_tokens(self, tokens: Sequence[int]) -> list[str]:
        """The DSL token names of ids, `<END>` dropped."""
        return [self.names[t] for t in tokens if t != END]

    def program(self, tokens: Sequence[int]) -> Program:
        """The AST of a finished program's ids; GrammarError if they are not one valid program."""
        return parse_tokens(self.dsl_tokens(tokens), self.grammar)

    def display(self, tokens: Sequence[int]) -> str:
        """The program indented (karel.md's layout); a prefix that is not a whole program, on one line."""
        try:
            return pretty(self.program(tokens))
        except GrammarError:
            return " ".join(self.dsl_tokens(tokens))
