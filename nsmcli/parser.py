"""The Python API for answering questions with a trained model.

    from nsmcli.parser import Parser
    parser = Parser.load("runs/wtq")            # a run directory, or "wtq" / "wikisql" for a bundled model
    result = parser.parse("which nation won the most gold?", "medals.csv")   # or a DataFrame or a Table
    result.display, result.answer, result.program, result.steps, result.sql   # display: the cells read

`nsm parse` is a thin layer over this class.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from nsmcli.data.annotate import annotate_question
from nsmcli.data.preprocess import run_linking
from nsmcli.data.readers import check_question, load_table, read_question_file, table_from_dataframe
from nsmcli.data.table import Table
from nsmcli.errors import CheckpointError, DataError, GrammarError
from nsmcli.lang.interpreter import answer_cells, bind, describe_step
from nsmcli.lang.spec import get_language
from nsmcli.lang.sql import check_dialect, program_to_sql
from nsmcli.train.questions import limits_from_json

#: Bundled models live here (see `make models`); `--model wtq` and `--model wikisql` name them.
MODELS_DIR = Path(__file__).resolve().parents[1] / "examples" / "models"


@dataclass
class Candidate:
    program: str
    probability: float
    answer: list


@dataclass
class ParseResult:
    question: str
    answer: list
    program: str | None
    probability: float  # the chosen program's own (renormalised over the beam)
    steps: list[dict] = field(default_factory=list)  # each expression with its type and values
    sql: str | None = None
    candidates: list[Candidate] = field(default_factory=list)
    answer_cells: list[str] | None = None  # the answer as the table writes it, when it is read from cells
    warnings: list[str] = field(default_factory=list)  # e.g. columns out of the model's reach
    answer_probability: float = 0.0  # the beam's programs that give this answer, together

    @property
    def display(self) -> list:
        """What to show a person: the table's own cell text where the answer comes from cells."""
        return self.answer_cells if self.answer_cells is not None else self.answer

    def to_json(self) -> dict:
        return asdict(self)


def find_model(name: str | Path) -> Path | None:
    """The run directory `name`, else the bundled model of that name, else None."""
    path = Path(name)
    if path.is_dir():
        return path
    if "/" not in str(name) and (MODELS_DIR / str(name)).is_dir():
        return MODELS_DIR / str(name)
    return None


def resolve_model(model: str | Path | None) -> Path:
    """A run directory path, or the name of a bundled model (default `wtq`)."""
    name = str(model) if model is not None else "wtq"
    if not name.strip():
        raise CheckpointError("the model name is empty: give a run directory or a bundled model name")
    found = find_model(name)
    if found is not None:
        return found
    bundled = (
        ", ".join(sorted(p.name for p in MODELS_DIR.iterdir() if p.is_dir())) if MODELS_DIR.is_dir() else ""
    )
    raise CheckpointError(
        f"no model at {name!r}: give a run directory from nsm train"
        + (f" or a bundled model ({bundled})" if bundled else " (no bundled models are installed)")
    )


def as_table(table: Table | Any, table_id: str = "table") -> Table:
    """A Table from a Table, a pandas DataFrame, or a path to a CSV / TSV / JSONL file."""
    if isinstance(table, Table):
        return table
    if isinstance(table, str | Path):
        return load_table(table)
    return table_from_dataframe(table, table_id)


class Parser:
    """A trained model ready to answer questions over any table."""

    def __init__(self, model: Any, config: dict, path: Path):
        self.model = model
        self.config = config
        self.path = path
        self.language = get_language(config["language"])
        self.limits = limits_from_json(config["limits"]) if config.get("limits") else None
        self.linking = run_linking(config)

    @classmethod
    def load(cls, model: str | Path | None = None, weights: str = "best") -> Parser:
        from nsmcli.train.evaluate import load_run_model
        from nsmcli.train.questions import default_kit

        path = resolve_model(model)
        loaded, config, _ = load_run_model(path, default_kit(), weights)
        return cls(loaded, config, path)

    def parse_file(
        self, path: Path | str, beam: int = 5, sql_dialect: str | None = "sqlite", vote: str = "answer"
    ):
        """Answer every question of a question file; yields (case, result, correct or None)."""
        from nsmcli.data.annotate import canonicalize_answer
        from nsmcli.data.evaluate import wtq_correct

        tables: dict[Path, Table] = {}
        for case in read_question_file(path):
            if case.table not in tables:
                try:
                    tables[case.table] = load_table(case.table)
                except DataError as exc:
                    raise DataError(f"{path}:{case.line}: {exc}") from None
            result = self.parse(
                case.question, tables[case.table], beam=beam, sql_dialect=sql_dialect, vote=vote
            )
            correct = None
            if case.answer is not None:  # the official WTQ answer check
                canon = [canonicalize_answer(a) for a in case.answer]
                correct = result.program is not None and wtq_correct(case.answer, canon, result.answer)
            yield case, result, correct

    def parse(
        self,
        question: str,
        table: Table | Any,
        beam: int = 5,
        sql_dialect: str | None = "sqlite",
        vote: str = "answer",
    ) -> ParseResult:
        """Answer one question: beam search over programs; the chosen one (`vote`, see
        `nsmcli.train.evaluate.choose`: by default the most probable program of the answer the beam's
        programs favour together) executed step by step. `candidates` lists the beam, most probable first."""
        from nsmcli.train.actors import QuestionEnv
        from nsmcli.train.evaluate import answer_key, check_vote, choose, decode

        check_vote(vote)
        question = check_question(question)
        if sql_dialect:
            check_dialect(sql_dialect)
        table = as_table(table)
        annotated = annotate_question(question, table, linking=self.linking)
        env = bind(self.language, table, annotated.entities, self.limits)
        context = self.model.context(annotated, env)
        # the evaluator's decoding (unfinished programs dropped, probabilities renormalised); no answer to check
        question_env = QuestionEnv(env, context, lambda answer: False)
        hyps = decode(self.model, [question_env], beam if beam > 1 else 0)[0]
        candidates = [Candidate(str(env.decode(tokens)), p, answer) for tokens, p, answer in hyps]
        warnings = [w for w in (env.reach_warning(),) if w]
        if not candidates:
            return ParseResult(question, [], None, 0.0, warnings=warnings)
        totals: dict[str, float] = {}  # as in `evaluate`: identical program texts add up
        for c in candidates:
            totals[c.program] = totals.get(c.program, 0.0) + c.probability
        text = choose(totals, {c.program: c.answer for c in candidates}, vote)
        best = next(c for c in candidates if c.program == text)
        key = answer_key(best.answer)
        agreeing = sum(c.probability for c in candidates if answer_key(c.answer) == key)
        result = env.execute(best.program)
        steps = [describe_step(e, t, v, table) for e, t, v in result.intermediates]
        sql = None
        if sql_dialect:
            from nsmcli.lang.program import parse_program

            try:
                sql = program_to_sql(
                    parse_program(best.program), table, dialect=sql_dialect, language=self.language.name
                )
            except GrammarError:
                sql = None
        return ParseResult(
            question,
            result.answer,
            best.program,
            best.probability,
            steps,
            sql,
            candidates,
            answer_cells(result, env),
            warnings,
            agreeing,
        )
