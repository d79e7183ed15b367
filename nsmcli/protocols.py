"""What the trainer, the actors and the model know about a world: nothing but these protocols.

A *world* (the table languages, Karel) turns its own files or generators into *problems* (a question over
a table, a Karel task with its initial states). Binding a problem gives an `Environment`: a deterministic
token-by-token reader of programs, with the tokens that may come next. A `Scorer` gives a finished
program's reward in [0, 1]. `nsmcli.worlds` registers each world with everything else it brings (reader,
context adapter for the model, presets, explorer, renderers); `train/` and `model/` import this module and
that registry, never a world's own modules.

Action ids of an environment, as the model sees them:
    [0, n_builtins)                          tokens with a learned embedding each (`<END>`, functions, DSL words)
    [n_builtins, n_builtins + n_constants)   constants whose memory keys the world's `Context` describes
    then n_computed slots                    results written to memory while decoding (`written_slot`)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any, Protocol, runtime_checkable

Tokens = tuple[int, ...]


@runtime_checkable
class ProgramState(Protocol):
    """An immutable partial program: a beam or a search forks it for free."""

    @property
    def tokens(self) -> Tokens: ...

    @property
    def done(self) -> bool: ...

    @property
    def error(self) -> str | None: ...


@runtime_checkable
class Environment(Protocol):
    """One problem bound for decoding. `step` never raises: a bad token gives a state with `error` set."""

    @property
    def world(self) -> str:
        """The registry name of its world (`nsmcli.worlds`): the model finds its context adapter there."""
        ...

    @property
    def n_builtins(self) -> int: ...

    @property
    def n_constants(self) -> int: ...

    @property
    def n_computed(self) -> int: ...

    def initial_state(self) -> ProgramState: ...

    def valid_tokens(self, state: Any) -> Collection[int]:
        """The tokens that may follow `state` (empty once done); every completion they allow is valid."""
        ...

    def step(self, state: Any, token: int) -> ProgramState: ...

    def written_slot(self, before: Any, after: Any) -> int:
        """The action id of the memory slot the step `before` -> `after` wrote, or -1."""
        ...

    def run(self, tokens: Sequence[int]) -> ProgramState:
        """`step` over a whole token sequence from the initial state."""
        ...

    def token_name(self, token: int) -> str: ...

    def display(self, tokens: Sequence[int]) -> str:
        """A finished program's canonical text, as the world writes it (a Lisp expression, Karel code)."""
        ...

    def encode(self, text: str) -> list[int]:
        """The tokens of a program text (`display`'s inverse); GrammarError or ValueError if it has none."""
        ...

    def answer(self, state: Any) -> list | None:
        """What a finished program answers (the table worlds), or None where a program has no answer
        besides its reward (Karel)."""
        ...

    def unused_work(self, state: Any) -> bool:
        """Whether a finished program computed something it never used (always False where a language has
        no such notion); such a program earns no reward."""
        ...


#: A finished program's tokens -> (reward in [0, 1], whether it finished without error).
Scorer = Callable[[Sequence[int]], tuple[float, bool]]


@runtime_checkable
class Problem(Protocol):
    """One training or evaluation item of a world (a question; a Karel task's state set)."""

    @property
    def id(self) -> str: ...


@runtime_checkable
class ProblemSet(Protocol):
    """What `nsm train` and `nsm eval` open: named splits of problems, and how to bind and score each."""

    @property
    def world(self) -> str:
        """The registry name of its world (`nsmcli.worlds`)."""
        ...

    @property
    def splits(self) -> list[str]: ...

    @property
    def meta(self) -> dict[str, Any]: ...

    @property
    def source(self) -> str:
        """Where the problems come from (a directory, `karel:harvester`): `nsmcli.worlds.open_problems`
        reopens the same problems from it and the seed (actor processes do)."""
        ...

    def examples(self, split: str) -> list[Any]: ...

    def load(self) -> None:
        """Read everything the problems need into memory, so that the set can be shipped whole to another
        machine (a Ray actor) instead of being reopened there."""
        ...

    def bind(self, example: Any, limits: Any) -> Environment: ...

    def scorer(self, example: Any, env: Environment) -> Scorer: ...

    def credit(self, example: Any, env: Environment, tokens: Sequence[int]) -> float:
        """Evaluation credit of a finished program in [0, 1]: 1 for a correct answer (table worlds, with no
        penalty for unused work, as the original's evaluator), the mean task score (Karel)."""
        ...

    def text(self, example: Any) -> str:
        """The problem as a user reads it (a question; a task name)."""
        ...

    def word_counts(self, split: str) -> dict[str, int]:
        """How often each input word the model reads occurs in `split` (a new run's vocabulary)."""
        ...
