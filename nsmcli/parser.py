"""The Python API for answering questions with a trained model.

    from nsmcli.parser import Parser
    parser = Parser.load("runs/wtq")            # a run directory, or a bundled model's name ("wtq")
    result = parser.parse("which nation won the most gold?", "medals.csv")   # or a URL, DataFrame or Table
    result.display, result.answer, result.program, result.steps, result.sql
    # display: the answer as shown (the cells it was read from, or the computed value rounded for reading);
    # answer: the values the answer check compares. `to_json()` uses the same names.

`nsm parse` is a thin layer over this class.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from nsmcli.display import EMPTY_CELL, step_text
from nsmcli.errors import ArgumentTypeError, CheckpointError, DataError, GrammarError
from nsmcli.memory import gc_paused
from nsmcli.resources import MODELS_DIR
from nsmcli.worlds.tables.data.annotate import annotate_question
from nsmcli.worlds.tables.data.preprocess import Example, run_linking
from nsmcli.worlds.tables.data.readers import (
    QuestionCase,
    check_question,
    load_table,
    read_question_file,
    table_from_dataframe,
)
from nsmcli.worlds.tables.data.table import Table
from nsmcli.worlds.tables.data.valuerules import UserRules
from nsmcli.worlds.tables.lang.interpreter import bind, describe_step, shown_answer
from nsmcli.worlds.tables.lang.spec import Limits, get_language
from nsmcli.worlds.tables.lang.sql import check_dialect, check_program_sql, render_sql

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence

    from nsmcli.train.matcher import Matcher
    from nsmcli.train.rerank import BeamProblems, Reranker


@dataclass
class Candidate:
    program: str
    probability: float
    answer: list


#: A choice is close when the chooser's score of the first choice leads the runner-up's by less than this
#: (log odds: the chooser holds the first at most e^0.5, about 1.65 times as likely); `nsm parse --runner-up`
#: then shows the runner-up. Set on fit questions the chooser never saw (`bench/choice_margin.py`;
#: BENCHMARKS.md), never on the real-world set.
CLOSE_MARGIN = 0.5
#: How many of the next-best programs are tried for a runner-up whose shown answer differs from the first's.
RUNNER_UP_TRIES = 5


@dataclass
class Alternative:
    """The runner-up: the best-scored program whose answer differs from the chosen one's."""

    answer: list
    display: list[str]
    program: str
    probability: float
    reading: str | None
    margin: float  # the chooser's score of the first choice minus this one's (log odds)
    close: bool  # margin < CLOSE_MARGIN: `nsm parse --runner-up` shows it beside the answer


@dataclass
class ParseResult:
    question: str
    answer: list  # the values the answer check compares (string views, numbers, dates)
    program: str | None
    probability: float  # the chosen program's own (renormalised over the beam)
    # what to show a person: the cells the answer was read from ("Norway", "2,102,000"), or for a
    # computed answer (a count, a sum) the value rounded for reading ("20.2", "5")
    display: list[str] = field(default_factory=list)
    answer_probability: float = 0.0  # the beam's programs that give this answer, together
    steps: list[dict] = field(default_factory=list)  # each expression with its type and values
    sql: str | None = None
    candidates: list[Candidate] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # e.g. columns out of the model's reach
    sql_exact: bool = False  # sqlite runs `sql` on the file's cells and gets `answer` (lang.sql.render_sql)
    sql_note: str | None = None  # why `sql` is approximate, when it is
    sql_check: bool | None = None  # with sql_check=True: whether sqlite's answer agrees (None: no SQL form)
    chosen_by: str = "answer"  # what chose the program among the beam's: rerank, answer (vote) or program
    # the program read as English from its language's glosses ("the total units of all rows whose ...")
    reading: str | None = None
    # the best program with another answer, and how far behind the first choice it is (`Alternative`)
    runner_up: Alternative | None = None

    @property
    def close(self) -> bool:
        """Whether the choice was close: the runner-up is nearly as likely as the answer (`CLOSE_MARGIN`)."""
        return self.runner_up is not None and self.runner_up.close

    def to_json(self) -> dict:
        return asdict(self)

    def __repr__(self) -> str:
        if self.program is None:
            return f"ParseResult(question={_cut(self.question)!r}, no program found)"
        return (
            f"ParseResult(question={_cut(self.question)!r}, display={_cut_list(self.display)},\n"
            f"            program={_cut(self.program, 120)!r}, probability={self.probability:.2f}"
            + (f",\n            close runner-up={_cut_list(self.runner_up.display)}" if self.close else "")
            + ")"
        )

    def _repr_html_(self) -> str:
        """Notebook display: the answer, the program and each step's result as a table (all text escaped)."""
        e = html.escape
        if self.program is None:
            return f"<div><b>no program found</b> for {e(self.question)}</div>"
        answer = ", ".join(e(v) if v else f"<i>{EMPTY_CELL}</i>" for v in self.display) or "<i>(nothing)</i>"
        rows = "".join(
            f"<tr><td>v{i}</td><td><code>{e(step['expression'])}</code></td>"
            f"<td style='text-align:left'>{e(step_text(step)).replace(chr(10), '<br>')}</td></tr>"
            for i, step in enumerate(self.steps)
        )
        sql = f"<div><b>sql:</b> <code>{e(self.sql)}</code></div>" if self.sql else ""
        warnings = "".join(f"<div><b>warning:</b> {e(w)}</div>" for w in self.warnings)
        return (
            f"<div><div><b>question:</b> {e(self.question)}</div><div><b>answer:</b> {answer}</div>"
            f"<div><b>program:</b> <code>{e(self.program)}</code> (p = {self.probability:.2f}; "
            f"answer p = {self.answer_probability:.2f})</div>"
            + (f"<div><b>reads:</b> {e(self.reading)}</div>" if self.reading else "")
            + (_runner_up_html(self.runner_up) if self.close else "")
            + f"<table><thead><tr><th>#</th><th>expression</th><th>result</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>{sql}{warnings}</div>"
        )


def _runner_up_html(runner_up: Alternative) -> str:
    e = html.escape
    answer = ", ".join(e(v) if v else f"<i>{EMPTY_CELL}</i>" for v in runner_up.display)
    reading = f" (reads: {e(runner_up.reading)})" if runner_up.reading else ""
    return f"<div><b>or, close behind:</b> {answer}{reading}</div>"


@dataclass
class Beam:
    """One question's finished beam over a table, before any choice (`Parser.beam`)."""

    question: str  # as checked (`check_question`)
    table: Table
    env: Any  # the table bound to the question's entities (`bind`)
    problem: Example  # the question's annotation as the worlds' rerank features read it
    totals: dict[str, float]  # program text -> probability, renormalised over the beam, most probable first
    answers: dict[str, list]  # program text -> its answer


def _without_non_answers(found: Beam, proposed: dict[str, str]) -> tuple[Beam, dict[str, str]]:
    """`found` (with the world's proposals among its programs) and `proposed` without the programs that
    only repeat the question's text (`echoes_question`) or answer with blank cells alone where the question
    asks for no blank and names another column as much (`answers_blank`, `names_best`), on a user's table
    and where another program remains: "reason for RMA-24163?" is never answered `RMA-24163`, nor "what is
    Viktor Petrov's field goal percentage?" with the empty cell of his `3P%`. It runs after the proposals,
    which may echo too. WTQ's data keeps the beam as its figures measured it."""
    from nsmcli.worlds.tables.data.annotate import is_list
    from nsmcli.worlds.tables.lang.functions import user_matching
    from nsmcli.worlds.tables.rerank import answers_blank, echoes_question, names_best

    if not user_matching(found.table):
        return found, proposed
    # the texts of a pair the question names ("widget or gadget"), of which it may pick one; a list
    # ("widget, gadget and gizmo") is summed or counted, never picked from
    question = found.problem.question
    named = [
        str(v)
        for e in question.entities
        if e.kind == "string" and len(e.values) > 1 and not is_list(e, question.tokens)
        for v in e.values
    ]
    blank_asked = any(e.kind == "string" and e.values == ("",) for e in question.entities)
    kept = [
        t
        for t in found.totals
        if not echoes_question(t, found.answers[t], found.env, named)
        and (blank_asked or not answers_blank(found.answers[t]) or names_best(t, question.column_match))
    ]
    if not kept or len(kept) == len(found.totals):
        return found, proposed
    totals = {t: found.totals[t] for t in kept}
    return (
        replace(found, totals=totals, answers={t: found.answers[t] for t in kept}),
        {t: kind for t, kind in proposed.items() if t in totals},
    )


class FileAnswer(NamedTuple):
    """One question of a question file answered (`Parser.parse_file`)."""

    case: QuestionCase
    result: ParseResult
    correct: bool | None  # None: the file gives no answer
    runner_up_correct: bool | None  # whether the runner-up (shown or not) is right


def _cut(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _cut_list(values: list[str], shown: int = 5) -> str:
    items = ", ".join(repr(_cut(v, 40)) for v in values[:shown])
    return f"[{items}{f', ... ({len(values)} in all)' if len(values) > shown else ''}]"


def answer_matches(
    expected: list[str], result: ParseResult | Alternative, table: Table | None = None
) -> bool:
    """The official WTQ answer check of a parse against the expected answers (`nsm parse --questions`).

    On a table read with the user rules, an answer also matches when both sides state the same amounts
    as that table's reader reads them: the cell `41.118,35` of a European file is the expected `41118.35`,
    and `2.5M` is `2.5 million`. The official check alone reads both with the WTQ rules, which know neither.
    There, an answer shown as the expected texts (its cells as the table writes them) matches too, and a
    computed number also matches an expected one written rounded (`_rounded_match`).
    """
    from nsmcli.worlds.tables.data.annotate import canonicalize_answer
    from nsmcli.worlds.tables.data.evaluate import wtq_correct

    if result.program is None:
        return False
    canon = [canonicalize_answer(a) for a in expected]
    if wtq_correct(expected, canon, result.answer):
        return True
    rules = table.rules if table is not None else None
    if not isinstance(rules, UserRules):
        return False
    # the answer shown is the expected text itself, as the table writes it (`£1,395 pcm`, whose amount the
    # user rules do not read: a rent a month)
    if sorted(canonicalize_answer(d) for d in result.display) == sorted(canon):
        return True
    # a text item is read from its cell as the table writes it ("2.5M"), not from its normalised string
    # view ("2.5m"), when the display lists one cell per item
    cells = result.display if len(result.display) == len(result.answer) else [None] * len(result.answer)
    predicted = [
        c if isinstance(a, str) and c is not None else a for a, c in zip(result.answer, cells, strict=True)
    ]
    amounts = [rules.amount(a) for a in expected]
    as_read = [a if amount is None else repr(amount) for a, amount in zip(expected, amounts, strict=True)]
    if wtq_correct(as_read, as_read, [_as_amount(a, rules) for a in predicted]):
        return True
    return _rounded_match(list(zip(expected, amounts, strict=True)), result.answer)


#: A whole expected number stands for a computed one rounded to the unit only from this size on: "17547"
#: for an average of 17,546.6 is the writer rounding; "3" for 3.4 is more likely another answer.
ROUNDED_WHOLE_FROM = 100


def _rounded_match(expected: list[tuple[str, float | None]], answer: Sequence[Any]) -> bool:
    """Whether each computed number of `answer` (a non-integer: an average, a ratio) is an expected amount
    (text, amount) as the writer rounded it, to the decimals the text is written with (`53383.33` for
    53,383.333...), in some order; other items must equal an expected amount. Whole amounts round only from
    `ROUNDED_WHOLE_FROM` on."""
    left = [(text, float(amount)) for text, amount in expected if amount is not None]
    if not answer or len(answer) != len(expected) or len(left) != len(expected):
        return False
    for value in answer:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            return False
        match = next((item for item in left if _rounds_to(float(value), *item)), None)
        if match is None:
            return False
        left.remove(match)
    return True


_WRITTEN_DECIMALS = re.compile(r"[.,](\d+)\D*$")


def _rounds_to(value: float, text: str, written: float) -> bool:
    """Whether `value` written with the decimals of `text` (the digits after its last point or comma; a
    thousands group counts as three, which only makes the check stricter) is `written`."""
    if value == written:
        return True
    if value.is_integer():  # a count or a cell's whole amount is not rounded by the writer
        return False
    found = _WRITTEN_DECIMALS.search(text.strip())
    decimals = len(found[1]) if found else 0
    if decimals == 0 and abs(written) < ROUNDED_WHOLE_FROM:
        return False
    return abs(value - written) <= 0.5 * 10**-decimals * (1 + 1e-9)


def _as_amount(item: Any, rules: UserRules) -> Any:
    """A text item as the number it states in full under `rules` (its text when it states none)."""
    if not isinstance(item, str):
        return item
    amount = rules.amount(item)
    return item if amount is None else repr(amount)


def find_model(name: str | Path) -> Path | None:
    """The run directory `name`, else the bundled model of that name (or member of one), else None."""
    path = Path(name)
    if path.is_dir():
        return path
    if "/" not in str(name) and (MODELS_DIR / str(name)).is_dir():
        return MODELS_DIR / str(name)
    member = MEMBER_MODELS.get(str(name))
    if member is not None and MODELS_DIR.joinpath(*member).is_dir():
        return MODELS_DIR.joinpath(*member)
    return None


#: The bundled model `nsm parse` answers with when none is named.
DEFAULT_MODEL = "wtq"
#: Members of a bundled ensemble that answer alone under a name of their own (one copy on disk).
MEMBER_MODELS = {"wtq-glove": ("wtq", "glove"), "wikisql-glove": ("wikisql", "glove")}
#: A bundled model that needs an optional extra (the pretrained encoder) -> the bundled model that answers
#: in its place when none is named and the extra is not installed.
FALLBACK_MODELS = {"wtq": "wtq-glove"}


def resolve_model(model: str | Path | None) -> Path:
    """A run directory path, or the name of a bundled model (default `DEFAULT_MODEL`)."""
    name = str(model) if model is not None else DEFAULT_MODEL
    if not name.strip():
        raise CheckpointError("the model name is empty: give a run directory or a bundled model name")
    found = find_model(name)
    if found is not None:
        return found
    bundled = (
        ", ".join(sorted([*(p.name for p in MODELS_DIR.iterdir() if p.is_dir()), *MEMBER_MODELS]))
        if MODELS_DIR.is_dir()
        else ""
    )
    raise CheckpointError(
        f"no model at {name!r}: give a run directory from nsm train"
        + (f" or a bundled model ({bundled})" if bundled else " (no bundled models are installed)")
    )


def as_table(table: Table | Any, table_id: str = "table") -> Table:
    """A Table from a Table, a pandas DataFrame, a dict of columns, a list of records (dicts), or anything
    `load_table` reads: a path (.csv .tsv .txt .json .jsonl .xlsx .parquet), an http(s) URL or `-` for
    standard input. Files and frames get the user value rules; a Table keeps its own. A DataFrame's index
    becomes a column when it is named (`df.set_index("Country")`) or holds labels; an unnamed integer index
    (the default one, or what is left of it after filtering) is dropped. Anything else is an
    `ArgumentTypeError`."""
    if isinstance(table, Table):
        return table
    if isinstance(table, str | Path):
        return load_table(table)
    import pandas as pd  # here, not at the top: a file needs no pandas, and importing it is slow

    if isinstance(table, dict) or (isinstance(table, list) and all(isinstance(r, dict) for r in table)):
        try:
            table = pd.DataFrame(table)
        except (ValueError, TypeError) as exc:
            raise DataError(f"cannot make a table of the given {type(table).__name__}: {exc}") from None
    if not isinstance(table, pd.DataFrame):
        raise ArgumentTypeError(
            "the table must be a path, a pandas DataFrame, a dict of columns or a list of records (dicts), "
            f"not {_type_name(table)}"
        )
    if _index_holds_data(table.index):
        table = table.reset_index()
    if len(table.columns) == 0:
        raise DataError("the table has no columns (an empty DataFrame, dict or list)")
    return table_from_dataframe(table, table_id)


def _checked_question(question: Any, beam: Any) -> str:
    """The question as `check_question` leaves it; an `ArgumentTypeError` for a question that is no string
    or a beam that is no non-negative integer."""
    if not isinstance(question, str):
        raise ArgumentTypeError(f"the question must be a string, not {_type_name(question)}")
    if isinstance(beam, bool) or not isinstance(beam, int) or beam < 0:
        raise ArgumentTypeError(f"beam must be a non-negative integer, not {beam!r}")
    return check_question(question)


def _index_holds_data(index: Any) -> bool:
    import pandas as pd

    if any(name is not None for name in index.names):
        return True
    return not pd.api.types.is_integer_dtype(index.dtype)


def _type_name(value: Any) -> str:
    if isinstance(value, list):
        return "a list whose items are not all dicts"
    return f"{type(value).__name__} {_cut(repr(value), 40)}"


class Parser:
    """A trained model, or an ensemble of them, ready to answer questions over any table."""

    def __init__(
        self,
        members: list[tuple[Any, dict]],
        path: Path,
        user_members: Callable[[], list[tuple[Any, dict]]] | None = None,
    ):
        """`members`: (model, run config) pairs; several are an ensemble, which must agree on the language,
        the interpreter limits and the entity linking, so that one bound table serves them all.
        `user_members`: loads the members that answer on users' own tables instead (`members_for`), where the
        model has a set apart for them; called on the first such table, so that a parse loads one set."""
        if not members:
            raise CheckpointError(f"{path}: no model to load")
        self.members = members
        self.path = path
        first = members[0][1]
        _check_agreement(members, first, path)
        self._load_user_members = user_members
        self._user_members: list[tuple[Any, dict]] | None = None
        self.language = get_language(first["language"])
        self.limits = Limits.from_json(first["limits"]) if first.get("limits") else None
        self.linking = run_linking(first)
        #: What every result's warnings repeat (why this model answers rather than the one asked for).
        self.notes: list[str] = []
        #: The rerankers read so far (users' tables or not -> reranker or None). `path`'s reranker files are
        #: read on first use: a parse needs one of the two, and each is megabytes of JSON on a cold parse.
        self._rerankers: dict[bool, Reranker | None] = {}
        self._matcher: Matcher | None = None  # the model's matcher, once a reranker file has read it

    @property
    def reranker(self) -> Reranker | None:
        """Chooses among the beam's programs with `vote="rerank"` (`nsmcli.train.rerank`); None: the answer
        vote chooses."""
        return self._reranker(users=False)

    @reranker.setter
    def reranker(self, reranker: Reranker | None) -> None:
        self._rerankers[False] = reranker

    @property
    def user_reranker(self) -> Reranker | None:
        """Chooses instead on users' own tables, where the model has a reranker apart for them."""
        return self._reranker(users=True)

    @user_reranker.setter
    def user_reranker(self, reranker: Reranker | None) -> None:
        self._rerankers[True] = reranker

    def _reranker(self, users: bool) -> Reranker | None:
        if users not in self._rerankers:
            from nsmcli.train.rerank import load_reranker

            # one matcher serves both rerankers: the model's, beside them, read once (not the matcher of a
            # reranker set by hand)
            reranker = load_reranker(self.path, users=users, matcher=self._matcher)
            if reranker is not None and reranker.matcher is not None:
                self._matcher = reranker.matcher
            if reranker is not None and reranker.world != self.language.name:
                raise CheckpointError(
                    f"{self.path}: its reranker was fitted in the {reranker.world} world, the "
                    f"model writes {self.language.name}"
                )
            self._rerankers[users] = reranker
        return self._rerankers[users]

    def reranker_for(self, table: Table) -> Reranker | None:
        """The reranker that chooses on `table`: the one for users' tables on a table read with the user
        rules, where the model has one apart, else the model's reranker. Only the one chosen is read."""
        from nsmcli.worlds.tables.lang.functions import user_matching

        if user_matching(table) and self.user_reranker is not None:
            return self.user_reranker
        return self.reranker

    def members_for(self, table: Table) -> list[tuple[Any, dict]]:
        """The members that decode questions over `table`: on a table read with the user rules, the model's
        members for users' tables where it has a set apart (loaded on first use), else its members."""
        from nsmcli.worlds.tables.lang.functions import user_matching

        if self._load_user_members is None or not user_matching(table):
            return self.members
        if self._user_members is None:
            loaded = self._load_user_members()
            _check_agreement(loaded, self.members[0][1], self.path)
            self._user_members = loaded
        return self._user_members

    @property
    def model(self) -> Any:
        """The first (for a single run, the only) member's model."""
        return self.members[0][0]

    @property
    def config(self) -> dict:
        """The first member's run config."""
        return self.members[0][1]

    @classmethod
    def load(cls, model: str | Path | None = None, weights: str = "best") -> Parser:
        """A run directory, an ensemble directory (`ensemble.json`, `nsmcli.train.rundir.run_members`) or a
        bundled model's name (default `wtq`). With no model named and the default's encoder not installed,
        the bundled fallback (`FALLBACK_MODELS`) answers instead, and every result's warnings say so. The
        model's reranker files are read when a parse first needs one, so a broken one is the first parse's
        `CheckpointError`."""
        from nsmcli.model.pretrained import EncoderNotInstalled

        try:
            return cls._load(model, weights)
        except EncoderNotInstalled as exc:  # a broken install still fails, with its own line
            fallback = FALLBACK_MODELS.get(DEFAULT_MODEL) if model is None else None
            if fallback is None or find_model(fallback) is None:
                raise
            parser = cls._load(fallback, weights)
            parser.notes.append(f"{exc}; answering with the bundled {fallback} model instead")
            return parser

    @classmethod
    def _load(cls, model: str | Path | None, weights: str) -> Parser:
        from nsmcli.train.evaluate import load_run_model
        from nsmcli.train.questions import default_kit
        from nsmcli.train.rundir import run_members

        path = resolve_model(model)
        kit = default_kit()
        loaded: dict[Path, tuple[Any, dict]] = {}  # a member both sets name is loaded once
        notes = []

        def load_set(dirs: list[Path]) -> list[tuple[Any, dict]]:
            members = []
            for member in dirs:
                if member not in loaded:
                    run_model, config, info = load_run_model(member, kit, weights)
                    loaded[member] = (run_model, config)
                    if weights == "best" and info.get("weights") != "best":  # a run not evaluated on dev yet
                        notes.append(
                            f"{member} has no best/ weights (no dev evaluation yet): answering with its last "
                            f"checkpoint (step {info.get('step')})"
                        )
                members.append(loaded[member])
            return members

        default_dirs, user_dirs = run_members(path), run_members(path, users=True)
        apart = user_dirs != default_dirs
        parser = cls(load_set(default_dirs), path, (lambda: load_set(user_dirs)) if apart else None)
        parser.notes = notes  # the list a set loaded later (on a user's table) adds its notes to
        return parser

    def parse_file(
        self,
        path: Path | str,
        beam: int = 5,
        sql_dialect: str | None = "sqlite",
        vote: str = "rerank",
        sql_check: bool = False,
    ) -> Iterator[FileAnswer]:
        """Answer every question of a question file; yields a `FileAnswer` for each (its `correct` and
        `runner_up_correct` are None for a question without an answer)."""
        for case, table in _with_tables(path, read_question_file(path)):
            result = self.parse(
                case.question, table, beam=beam, sql_dialect=sql_dialect, vote=vote, sql_check=sql_check
            )
            if case.answer is None:
                yield FileAnswer(case, result, None, None)
                continue
            runner_up = result.runner_up
            yield FileAnswer(
                case,
                result,
                answer_matches(case.answer, result, table),
                runner_up is not None and answer_matches(case.answer, runner_up, table),
            )

    def parse(
        self,
        question: str,
        table: Table | Any,
        beam: int = 5,
        sql_dialect: str | None = "sqlite",
        vote: str = "rerank",
        sql_check: bool = False,
    ) -> ParseResult:
        """Answer one question: beam search over programs; the chosen one (`vote`, see
        `nsmcli.train.evaluate.choose`: by default the model's reranker when it has one, else the most
        probable program of the answer the beam's programs favour together) executed step by step. `candidates` lists the beam, most probable first.
        `sql_check` also runs the program's SQL in sqlite on the table and compares the answers."""
        # one question's burst of acyclic objects: on a big table the collector's scans would dominate
        with gc_paused():
            return self._parse(question, table, beam, sql_dialect, vote, sql_check)

    def beam_search(self, question: str, table: Table | Any, beam: int = 5) -> Beam:
        """The finished programs of a beam search for `question` over `table`, and their answers; no
        choice among them (`parse` makes one)."""
        from nsmcli.train.actors import QuestionEnv
        from nsmcli.train.evaluate import decode_ensemble, pool_programs

        question = _checked_question(question, beam)
        table = as_table(table)
        annotated = annotate_question(question, table, linking=self.linking)
        env = bind(self.language, table, annotated.entities, self.limits)
        # as in `evaluate`: the members decode in one beam, and identical program texts add up; the
        # evaluator's decoding (unfinished programs dropped, probabilities renormalised); no answer to check
        models = [model for model, _ in self.members_for(table)]
        questions = [
            [QuestionEnv(env, model.context(annotated, env), lambda answer: False)] for model in models
        ]
        found = decode_ensemble(models, questions, beam if beam > 1 else 0)[0]
        totals: dict[str, float] = {}
        answers: dict[str, list] = {}
        pool_programs(totals, answers, ((str(env.decode(t)), p, a) for t, p, a in found))
        problem = Example(annotated.id, table.id, annotated, [])
        return Beam(question, table, env, problem, totals, answers)

    def answer_of(self, found: Beam, program: str) -> ParseResult:
        """The answer of one program of `found` (its cells as the table writes them, `shown_answer`), as a
        result that `answer_matches` checks; no steps, SQL or reading."""
        result = found.env.execute(program)
        answer, display = shown_answer(result, found.env, found.problem.question.tokens)
        return ParseResult(found.question, answer, program, found.totals.get(program, 0.0), display=display)

    def _parse(
        self,
        question: str,
        table: Table | Any,
        beam: int,
        sql_dialect: str | None,
        vote: str,
        sql_check: bool,
    ) -> ParseResult:
        from nsmcli.train.evaluate import answer_key, check_vote, choose, effective_vote, vote_scores
        from nsmcli.train.rerank import chosen_text

        check_vote(vote)
        _checked_question(question, beam)  # the question's faults are told before the dialect's
        if sql_dialect:
            check_dialect(sql_dialect)
        found = self.beam_search(question, table, beam)
        question, table, env, annotated = found.question, found.table, found.env, found.problem.question
        warnings = [*self.notes, *table.notes, *(w for w in (env.reach_warning(),) if w)]
        if not found.totals:
            return ParseResult(question, [], None, 0.0, warnings=warnings)
        table_reranker = self.reranker_for(table) if vote == "rerank" else None  # read only when it chooses
        chosen_by = effective_vote(vote, table_reranker)
        problem = found.problem
        reranker = table_reranker if chosen_by == "rerank" else None
        # a reranker fitted with the world's proposals weighs them beside the beam's programs
        proposed = reranker.propose(problem, env, found.totals, found.answers) if reranker is not None else {}
        found, proposed = _without_non_answers(found, proposed)
        totals, answers = found.totals, found.answers
        # most probable first; ties keep the beam's order (sorted is stable)
        candidates = [Candidate(t, p, answers[t]) for t, p in sorted(totals.items(), key=lambda kv: -kv[1])]
        if reranker is not None:
            scores = reranker.candidate_scores(problem, env, totals, answers, proposed)
            text = chosen_text(totals, scores)  # `Reranker.choose`, keeping the scores for the runner-up
        else:
            scores = vote_scores(totals, answers, chosen_by)
            text = choose(totals, answers, chosen_by)
        best = next(c for c in candidates if c.program == text)
        key = answer_key(best.answer)
        # proposals carry a token probability beside the beam's normalised one: at most 1 in all
        agreeing = min(1.0, sum(c.probability for c in candidates if answer_key(c.answer) == key))
        result = env.execute(best.program)
        steps = [describe_step(e, t, v, table) for e, t, v in result.intermediates]
        from nsmcli.worlds.tables.lang.program import parse_program

        program = parse_program(best.program)
        reading = self._reading(best.program, table)
        answer, display = shown_answer(result, env, annotated.tokens)
        runner_up = self._runner_up(found, scores, text, display)
        sql, sql_exact, sql_note = None, False, None
        if sql_dialect:
            try:
                rendering = render_sql(program, table, dialect=sql_dialect, language=self.language.name)
                sql, sql_exact, sql_note = rendering.sql, rendering.exact, rendering.note
            except GrammarError:
                pass
        checked = check_program_sql(program, table, result.answer, self.language.name) if sql_check else None
        return ParseResult(
            question,
            answer,
            best.program,
            best.probability,
            display=display,
            answer_probability=agreeing,
            steps=steps,
            sql=sql,
            candidates=candidates,
            warnings=warnings,
            sql_exact=sql_exact,
            sql_note=sql_note,
            sql_check=checked,
            chosen_by=chosen_by,
            reading=reading,
            runner_up=runner_up,
        )

    def _reading(self, program: str, table: Table) -> str | None:
        """The program read as English from its language's glosses, each column by what names it
        (`column_naming`); None for a language without them."""
        from nsmcli.worlds.tables.lang.gloss import gloss
        from nsmcli.worlds.tables.lang.program import parse_program
        from nsmcli.worlds.tables.rerank import column_naming

        try:
            return gloss(parse_program(program), self.language, column_naming(table))
        except GrammarError:
            return None

    def _runner_up(
        self, found: Beam, scores: Sequence[float], chosen: str, display: list[str]
    ) -> Alternative | None:
        """The best-scored program of `found` (scores in its `totals`' order) whose answer differs from the
        chosen program's and is not empty, and whose shown answer differs from `display`; None when there is
        none among the next `RUNNER_UP_TRIES` such programs."""
        from nsmcli.train.evaluate import answer_key

        texts = list(found.totals)
        first = scores[texts.index(chosen)]
        chosen_key = answer_key(found.answers[chosen])
        # best score first; ties to the more probable program, then to the beam's order (sort is stable)
        order = sorted(range(len(texts)), key=lambda i: (-scores[i], -found.totals[texts[i]]))
        others = [
            i for i in order if found.answers[texts[i]] and answer_key(found.answers[texts[i]]) != chosen_key
        ]
        for i in others[:RUNNER_UP_TRIES]:
            shown = self.answer_of(found, texts[i])
            if shown.display == display:  # the same answer as shown (a number and its cell's text)
                continue
            margin = first - scores[i]
            return Alternative(
                shown.answer,
                shown.display,
                texts[i],
                shown.probability,
                self._reading(texts[i], found.table),
                margin,
                margin < CLOSE_MARGIN,
            )
        return None


def _check_agreement(members: Sequence[tuple[Any, dict]], first: dict, path: Path) -> None:
    """That an ensemble's members agree on the language, the interpreter limits and the entity linking."""
    for _, config in members:
        for key, what in (("language", "language"), ("limits", "interpreter limits")):
            if config.get(key) != first.get(key):
                raise CheckpointError(f"{path}: the ensemble's members differ in their {what}")
        if run_linking(config) != run_linking(first):
            raise CheckpointError(f"{path}: the ensemble's members differ in their entity linking")


def _with_tables(path: Path | str, cases: Iterable[QuestionCase]) -> Iterator[tuple[QuestionCase, Table]]:
    """Each case of the question file `path` with its table, each table read once; a table that cannot be
    read is a `DataError` naming the file's line."""
    tables: dict[Path, Table] = {}
    for case in cases:
        if case.table not in tables:
            try:
                tables[case.table] = load_table(case.table)
            except DataError as exc:
                raise DataError(f"{path}:{case.line}: {exc}") from None
        yield case, tables[case.table]


def decode_question_file(
    model_dir: Path | str,
    path: Path | str,
    beam: int = 5,
    proposals: bool = True,
    progress: Callable[[str], None] | None = None,
    workers: int = 1,
) -> BeamProblems:
    """Decode the questions of a question file (`table<TAB>question<TAB>answer`, users' own tables) with
    the model at `model_dir`, as `nsm parse` does: their beams (with the world's proposals when
    `proposals`), each candidate's features (with the scores of the matcher the model's reranker weighs) and
    match texts, and its credit by `answer_matches` (1 or 0). Questions without an answer are left out;
    the file must hold questions the model and its reranker never saw answered. With `workers` > 1 the
    questions are decoded and scored in that many processes, each table's questions in one; a process
    scores with one thread, so its features can differ from one process's in the last digits."""
    from nsmcli.train.backends import map_shards, shard_bounds
    from nsmcli.train.rerank import BeamProblems

    cases = list(enumerate(case for case in read_question_file(path) if case.answer is not None))
    job = _QuestionFileJob(str(model_dir), str(path), beam, proposals)
    tables = list(dict.fromkeys(case.table for _, case in cases))
    if workers <= 1 or len(tables) < 2:
        world, found = _decode_questions(Parser.load(model_dir), job, cases, progress)
    else:
        # shards of whole tables, in the file's order, so that each table is read once per shard
        groups = [set(tables[a:b]) for a, b in shard_bounds(len(tables), min(len(tables), 4 * workers))]
        shards = [[(i, case) for i, case in cases if case.table in group] for group in groups]
        if progress:
            progress(f"{path}: decoding {len(cases)} questions in {min(workers, len(shards))} processes")
        found, worlds = {}, set()
        for _, (shard_world, part) in map_shards("processes", _decode_shard, job, shards, workers):
            found.update(part)
            worlds.add(shard_world)
            if progress:
                progress(f"{path}: {len(found)} of {len(cases)} questions decoded")
        [world] = worlds  # every shard's model is the same
    assert len(found) == len(cases), "a question of the file was not decoded"
    decoded = [d for i, _ in cases if (d := found[i]) is not None]
    return BeamProblems(
        str(path),
        [(d.features, d.credits) for d in decoded],
        sum(d.vote_right for d in decoded),
        len(cases),
        proposals,
        world,
        [d.group for d in decoded],
        [d.matched for d in decoded],
    )


@dataclass
class _QuestionFileJob:
    """What a process decoding part of a question file is sent once."""

    model_dir: str
    path: str  # for error messages: the cases come with each shard
    beam: int
    proposals: bool


@dataclass
class _DecodedQuestion:
    features: list
    credits: list[float]
    matched: tuple[str, list[str]] | None  # the question and its candidates' match texts
    group: str  # its table, which cross-validation holds out whole
    vote_right: bool  # whether the beam's answer vote is right


#: In a worker process: the job it decodes for and its parser (kept across the job's shards).
_WORKER_PARSER: list = []


def _decode_shard(
    job: _QuestionFileJob, cases: list[tuple[int, QuestionCase]]
) -> tuple[str, dict[int, _DecodedQuestion | None]]:
    """A worker process's part of `decode_question_file`: one thread, the parser loaded once per job."""
    if not _WORKER_PARSER or _WORKER_PARSER[0] != job:
        import torch

        torch.set_num_threads(1)
        _WORKER_PARSER[:] = [job, Parser.load(job.model_dir)]
    return _decode_questions(_WORKER_PARSER[1], job, cases)


def _decode_questions(
    parser: Parser,
    job: _QuestionFileJob,
    cases: list[tuple[int, QuestionCase]],
    progress: Callable[[str], None] | None = None,
) -> tuple[str, dict[int, _DecodedQuestion | None]]:
    """The model's world, and the numbered answered questions `cases` of `job`'s file decoded and scored
    (None: an empty beam); `progress` hears every 50 questions."""
    from nsmcli.train.evaluate import choose
    from nsmcli.train.rerank import add_proposals, candidate_features, match_texts, readings_available

    world = parser.language.name
    with_readings = readings_available()
    # the scores of the matcher that users' tables are chosen with, for a refit
    reranker = parser.user_reranker or parser.reranker
    matcher = reranker.matcher if reranker is not None else None
    out: dict[int, _DecodedQuestion | None] = {}
    for (i, _), (case, table) in zip(cases, _with_tables(job.path, (c for _, c in cases)), strict=True):
        found = parser.beam_search(case.question, table, job.beam)
        if not found.totals:
            out[i] = None
            continue
        # the answer vote as `Parser.parse` takes it without a reranker: over the beam, echoes left out
        voted, _ = _without_non_answers(found, {})
        vote = choose(voted.totals, voted.answers, "answer")
        vote_right = answer_matches(case.answer, parser.answer_of(voted, vote), table)
        proposed = (
            add_proposals(world, found.problem, found.env, found.totals, found.answers)
            if job.proposals
            else {}
        )
        found, proposed = _without_non_answers(found, proposed)  # as `Parser.parse` chooses
        texts = list(found.totals)
        credits = [float(answer_matches(case.answer, parser.answer_of(found, t), table)) for t in texts]
        candidates = [(t, found.totals[t], found.answers[t] or []) for t in texts]
        features = candidate_features(
            world,
            found.problem,
            found.env,
            candidates,
            with_readings=with_readings,
            proposed=proposed,
            matcher=matcher,
        )
        matched = match_texts(world, found.problem, found.env, candidates)
        out[i] = _DecodedQuestion(features, credits, matched, str(case.table.resolve()), vote_right)
        if progress and len(out) % 50 == 0:
            progress(f"{job.path}: {len(out)} of {len(cases)} questions decoded")
    return world, out
