"""Program languages, declared once in `grammars/<name>.toml` and loaded into a `LanguageSpec`.

A declaration gives each function's name, argument types, return type and trigger words. The type
hierarchy (concrete type -> ancestors) is declared beside it, so "which tokens may fill this argument" is
derived, never hand-written per language.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from nsmcli.errors import GrammarError
from nsmcli.resources import GRAMMAR_DIR

#: Property type of each column view kind.
PROPERTY_TYPE = {
    "string": "string_property",
    "number": "num_property",
    "num2": "num_property",
    "date": "date_property",
}
#: List type of the values a property yields (`hop`, `maximum`, `mode` return it: `values_of_arg2`).
VALUES_TYPE = {"string_property": "string_list", "num_property": "num_list", "date_property": "date_list"}
#: List type of each question entity kind.
ENTITY_TYPE = {"string": "string_list", "number": "num_list", "date": "date_list"}
#: A place in a function's `gloss` for its N-th argument's reading: `{1}`, `{2}` ...
GLOSS_PLACE = re.compile(r"\{(\d+)\}")


@dataclass(frozen=True)
class FunctionSpec:
    name: str
    args: tuple[str, ...]
    returns: str
    triggers: tuple[str, ...]
    #: the function read as English, `{1}`, `{2}` ... standing for its arguments' readings (`lang.gloss`)
    gloss: str = ""


@dataclass(frozen=True)
class Limits:
    """Interpreter limits; results depend on them, so runs and program files record them."""

    max_expressions: int
    max_variables: int

    def to_json(self) -> dict:
        return {"max_expressions": self.max_expressions, "max_variables": self.max_variables}

    @classmethod
    def from_json(cls, record: dict) -> Limits:
        return cls(int(record["max_expressions"]), int(record["max_variables"]))


@dataclass(frozen=True)
class LanguageSpec:
    name: str
    description: str
    functions: tuple[FunctionSpec, ...]
    ancestors: dict[str, tuple[str, ...]]
    property_kinds: tuple[str, ...]
    keep_duplicates: bool
    limits: Limits
    #: comparisons (`filter_greater` ...) may select no rows, and a program may end there with an empty
    #: answer: the right answer to a query whose conditions select nothing (WikiSQL; see its grammar)
    empty_comparisons: bool = False
    #: exploration states every question entity as a condition where the program stays consistent, and
    #: keeps the programs that use the most entities (WikiSQL, whose queries state every condition even
    #: where the table makes one redundant; see `search.explore`)
    state_every_condition: bool = False
    #: functions that only the world's proposals write (`[proposal_functions]`): never in the decoder's
    #: vocabulary, so declaring one changes no model's token ids (`interpreter.Environment`)
    proposal_functions: tuple[FunctionSpec, ...] = ()

    def function(self, name: str) -> FunctionSpec:
        for f in self.functions + self.proposal_functions:
            if f.name == name:
                return f
        raise GrammarError(f"language {self.name} has no function {name!r}")

    def accepts(self, arg_type: str, value_type: str) -> bool:
        """Whether a value of concrete `value_type` may fill an argument declared as `arg_type`."""
        return arg_type == value_type or arg_type in self.ancestors.get(value_type, ())

    def concrete_types(self, arg_type: str) -> frozenset[str]:
        return frozenset(t for t in self.ancestors if self.accepts(arg_type, t))


def available_languages() -> list[str]:
    """The typed table languages among the declared grammars (Karel's context-free grammar is not one)."""
    return sorted(p.stem for p in GRAMMAR_DIR.glob("*.toml") if _is_table_grammar(p))


def _is_table_grammar(path: Path) -> bool:
    try:
        return "functions" in tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return True  # named, so that loading it reports what is wrong


@cache
def get_language(name: str) -> LanguageSpec:
    """Load a declared language by name (`wtq`, `wikisql`) or by path to a grammar file."""
    path = Path(name) if name.endswith(".toml") else GRAMMAR_DIR / f"{name}.toml"
    if not path.is_file() or (not name.endswith(".toml") and name not in available_languages()):
        raise GrammarError(f"unknown language {name!r}; available: {', '.join(available_languages())}")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        return _build(raw)
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
        raise GrammarError(f"{path}: malformed grammar ({exc})") from exc


def _build(raw: dict) -> LanguageSpec:
    ancestors = {t: tuple(parents) for t, parents in raw["types"].items()}
    known = set(ancestors) | {p for parents in ancestors.values() for p in parents}
    functions = _function_specs(raw["functions"], known)
    proposal_functions = _function_specs(raw.get("proposal_functions", {}), known)
    if clash := {f.name for f in functions} & {f.name for f in proposal_functions}:
        raise ValueError(f"functions declared twice: {', '.join(sorted(clash))}")
    kinds = tuple(raw["property_kinds"])
    for k in kinds:
        if k not in PROPERTY_TYPE:
            raise ValueError(f"unknown property kind {k!r}")
    limits = Limits(int(raw["limits"]["max_expressions"]), int(raw["limits"]["max_variables"]))
    return LanguageSpec(
        raw["name"],
        raw.get("description", ""),
        functions,
        ancestors,
        kinds,
        bool(raw["keep_duplicates"]),
        limits,
        bool(raw.get("empty_comparisons", False)),
        bool(raw.get("state_every_condition", False)),
        proposal_functions,
    )


def _function_specs(declared: dict, known: set[str]) -> tuple[FunctionSpec, ...]:
    functions = []
    for name, decl in declared.items():
        args = tuple(decl["args"])
        for a in args:
            if a not in known:
                raise ValueError(f"function {name}: unknown argument type {a!r}")
        returns = decl["returns"]
        if returns not in known and returns != "values_of_arg2":
            raise ValueError(f"function {name}: unknown return type {returns!r}")
        gloss = str(decl.get("gloss", ""))
        named = {int(n) for n in GLOSS_PLACE.findall(gloss)}
        if gloss and named != set(range(1, len(args) + 1)):
            raise ValueError(f"function {name}: its gloss must name each of {{1}} to {{{len(args)}}}")
        functions.append(FunctionSpec(name, args, returns, tuple(decl.get("triggers", ())), gloss))
    return tuple(functions)
