"""`nsm preprocess`: a dataset release (WTQ, WikiSQL, or your own questions over your own tables) -> plain
files that every later stage reads.

Output directory (written to a staging directory and swapped in at the end, so a failed run loses nothing):
    meta.json        format version, dataset, language, code version, counts, skipped with reasons
    tables.jsonl     one table per line: id, header, rows (raw text), column_types (WikiSQL only),
                     value_rules (only when not the official WTQ rules, which older files imply)
    <split>.jsonl    one annotated example per line: id, table_id, question annotation, answer
    vocab.json       question-token counts per split (the trainer builds its vocabulary from its train split)

Release formats are the `readers` of the registered worlds (`nsmcli.worlds`); nothing outside them asks
which dataset it is. Each
declares the value rules its tables are typed by (`nsmcli.worlds.tables.data.valuerules`): the official WTQ rules for
WTQ and WikiSQL, the user rules for your own tables. WikiSQL's gold
SQL is used here only to compute each question's answer and is not written out: nothing downstream can
train on it. Questions whose gold answer is empty are kept (about 8% of WikiSQL dev): accuracy is reported
over every question of a split, as MAPO did, and the search simply finds no program for them.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nsmcli import __version__
from nsmcli.errors import DataError, NsmError, brief
from nsmcli.fileio import atomic_write_json, atomic_write_jsonl, output_lock, staged_directory
from nsmcli.worlds.tables.data.annotate import (
    DEFAULT_LINKING,
    AnnotatedQuestion,
    annotate_question,
    canonicalize_answer,
    check_linking,
)
from nsmcli.worlds.tables.data.checkers import AnswerChecker, CallableChecker, WikisqlChecker, WtqChecker
from nsmcli.worlds.tables.data.evaluate import split_tsv_list, wikisql_correct, wtq_correct
from nsmcli.worlds.tables.data.readers import (
    iter_wikisql_tables,
    load_table,
    load_wtq_table,
    read_question_file,
    wtq_table_id,
)
from nsmcli.worlds.tables.data.table import Table
from nsmcli.worlds.tables.lang.choices import choice_pairs, echoes_a_choice
from nsmcli.worlds.tables.lang.interpreter import Environment, bind
from nsmcli.worlds.tables.lang.spec import Limits

FORMAT = "nsm-preprocessed"
#: 2: WikiSQL string views are lower-cased cell text; 3: word linking adds either-or pairs and joins clitics
PREPROCESS_VERSION = 3


@dataclass
class Example:
    """One question with its table id and answer; `question` carries the annotation."""

    id: str
    table_id: str
    question: AnnotatedQuestion
    answer: list
    answer_canon: list | None = None

    def to_json(self) -> dict:
        record = self.question.to_json()
        record.update(id=self.id, table_id=self.table_id, answer=self.answer, answer_canon=self.answer_canon)
        return record

    @classmethod
    def from_json(cls, record: dict) -> Example:
        record = dict(record)
        table_id = record.pop("table_id")
        question = AnnotatedQuestion.from_json(record)
        return cls(record["id"], table_id, question, record["answer"], record.get("answer_canon"))


@dataclass
class RawQuestion:
    id: str
    text: str
    table_id: str
    answer: list
    answer_canon: list | None = None


@dataclass
class DatasetFormat:
    """How one dataset's release is read, which language it uses and how answers are compared.

    `correct` is the official answer test; `make_checker`, if set, builds an example's fast equivalent for
    the program search (`nsmcli.worlds.tables.data.checkers`), typed once and with hints for goal-directed pruning.
    `value_rules` names the rules that type the dataset's cells; `read` is given it."""

    name: str
    language: str
    read: Callable[[Path, str], tuple[dict[str, list[RawQuestion | tuple[str, str]]], Callable[[str], Table]]]
    correct: Callable[[Example, list], bool]
    make_checker: Callable[[Example], AnswerChecker] | None = None
    value_rules: str = "wtq"
    default_dir: str | None = None
    """Where the release is when `--data-dir` is not given (None: it must be given)."""


# ----- WikiTableQuestions --------------------------------------------------------------------------------


def _read_wtq(data_dir: Path, value_rules: str):
    tsvs = sorted((data_dir / "data").glob("*.tsv"))
    if not tsvs or not (data_dir / "csv").is_dir():
        raise DataError(f"{data_dir} is not a WikiTableQuestions release (expected data/*.tsv and csv/)")
    splits: dict[str, list] = {}
    for path in tsvs:
        items: list = []
        with open(path, encoding="utf-8", newline="") as f:
            reader = csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
            header = next(reader, None)
            if header is None or header[:4] != ["id", "utterance", "context", "targetValue"]:
                raise DataError(f"{path}: expected the columns id, utterance, context, targetValue")
            for row in reader:
                if len(row) < 4:
                    items.append((row[0] if row else "?", "malformed line"))
                    continue
                answer = split_tsv_list(row[3])
                try:
                    table_id = wtq_table_id(row[2])
                except DataError:
                    items.append((row[0], "bad table reference"))
                    continue
                items.append(
                    RawQuestion(
                        row[0],
                        split_tsv_list(row[1])[0],
                        table_id,
                        answer,
                        [canonicalize_answer(a) for a in answer],
                    )
                )
        splits[path.stem] = items

    def table(table_id: str) -> Table:
        _, a, b = table_id.split("_")
        return load_wtq_table(data_dir, f"csv/{a}-csv/{b}.csv", value_rules=value_rules)

    return splits, table


def _wtq_correct(example: Example, predicted: list) -> bool:
    return wtq_correct(example.answer, example.answer_canon, predicted)


def _wtq_checker(example: Example) -> WtqChecker:
    return WtqChecker(example.answer, example.answer_canon)


# ----- WikiSQL -------------------------------------------------------------------------------------------


def _read_wikisql(data_dir: Path, value_rules: str):
    from nsmcli.worlds.tables.lang.sql import wikisql_answer

    names = sorted(p.name[: -len(".tables.jsonl")] for p in data_dir.glob("*.tables.jsonl"))
    names = [n for n in names if (data_dir / f"{n}.jsonl").is_file()]
    if not names:
        raise DataError(
            f"{data_dir} is not a WikiSQL release (expected <split>.jsonl and <split>.tables.jsonl)"
        )
    tables: dict[str, Table] = {}
    splits: dict[str, list] = {}
    for split in names:
        for table in iter_wikisql_tables(data_dir / f"{split}.tables.jsonl", value_rules=value_rules):
            tables[table.id] = table
        items: list = []
        for i, line in enumerate(open(data_dir / f"{split}.jsonl", encoding="utf-8")):
            qid = f"{split}-{i}"
            try:
                record = json.loads(line)
                table = tables[record["table_id"]]
                answer = wikisql_answer(table, record["sql"])
            except KeyError:
                items.append((qid, "table or field missing"))
                continue
            except (ValueError, NsmError) as exc:
                items.append((qid, f"gold query failed: {type(exc).__name__}"))
                continue
            items.append(RawQuestion(qid, record["question"], table.id, answer))
        splits[split] = items
    return splits, tables.__getitem__


def _wikisql_correct(example: Example, predicted: list) -> bool:
    return wikisql_correct(example.answer, predicted)


def _wikisql_checker(example: Example) -> WikisqlChecker:
    return WikisqlChecker(example.answer)


# ----- your own questions and tables ----------------------------------------------------------------------


def _read_tables(data_dir: Path, value_rules: str):
    """A directory of question files `<split>.tsv` in the `nsm parse --questions` format (header
    table<TAB>question<TAB>answer; table paths relative to the file; several answers separated by `|`),
    naming tables in any format `load_table` reads (kept in a subdirectory, so that no table is taken for a
    question file). Questions are WTQ-style: the WTQ program language, answers checked by the official WTQ
    evaluator; the tables are typed by `value_rules` (the user rules, as `nsm parse` types them)."""
    files = sorted(data_dir.glob("*.tsv"))
    for path in files:
        if path.stem in RESERVED_NAMES:
            raise DataError(
                f"{path}: a question file cannot be named {path.name}: the output's {path.stem}.json(l) has "
                "that name; rename the split"
            )
    if not files:
        raise DataError(
            f"{data_dir} has no question files (<split>.tsv with the header table<TAB>question<TAB>answer)"
        )
    splits: dict[str, list] = {}
    for path in files:
        items: list = []
        for case in read_question_file(path):
            qid = f"{path.stem}-{case.line}"
            if not case.answer:
                items.append((qid, "no answer"))
                continue
            table_id = Path(os.path.relpath(case.table, data_dir)).as_posix()
            canon = [canonicalize_answer(a) for a in case.answer]
            items.append(RawQuestion(qid, case.question, table_id, case.answer, canon))
        splits[path.stem] = items

    def table(table_id: str) -> Table:
        return load_table(data_dir / table_id, table_id=table_id, value_rules=value_rules)

    return splits, table


#: Output files of a preprocessed dataset besides its splits: no split may take their names.
RESERVED_NAMES = frozenset({"tables", "meta", "vocab"})

WTQ_FORMAT = DatasetFormat(
    "wtq", "wtq", _read_wtq, _wtq_correct, _wtq_checker, default_dir="../shared/data/wtq"
)
WIKISQL_FORMAT = DatasetFormat(
    "wikisql",
    "wikisql",
    _read_wikisql,
    _wikisql_correct,
    _wikisql_checker,
    default_dir="../shared/data/wikisql",
)
TABLES_FORMAT = DatasetFormat("tables", "wtq", _read_tables, _wtq_correct, _wtq_checker, value_rules="user")


def dataset_formats() -> dict[str, DatasetFormat]:
    """Every release format `nsm preprocess` reads: the `readers` of the registered worlds."""
    from nsmcli.worlds import available_worlds, get_world

    formats: dict[str, DatasetFormat] = {}
    for world in available_worlds():
        formats.update(get_world(world).readers)
    return formats


def dataset_format(name: str) -> DatasetFormat:
    formats = dataset_formats()
    if name not in formats:
        raise DataError(f"unknown dataset {name!r}; choose one of: {', '.join(formats)}")
    return formats[name]


def run_linking(config: dict) -> str:
    """The entity linking a run's questions are annotated with: that of the data it was trained on, else
    (runs from before linking was recorded, such as the bundled models) the default."""
    meta = (config.get("dataset") or {}).get("meta") or {}
    return check_linking(meta.get("linking") or DEFAULT_LINKING)


# ----- preprocessing -------------------------------------------------------------------------------------


@dataclass
class Summary:
    dataset: str
    out: str
    examples: dict[str, int] = field(default_factory=dict)
    tables: int = 0
    skipped: dict[str, dict[str, int]] = field(default_factory=dict)
    seconds: float = 0.0
    #: where the train split's mixed-in questions came from (`MixIn`), when some were
    mixed_in: dict | None = None

    def to_json(self) -> dict:
        return {
            "dataset": self.dataset,
            "out": self.out,
            "examples": self.examples,
            "tables": self.tables,
            "skipped": self.skipped,
            "seconds": round(self.seconds, 1),
            **({"mixed_in": self.mixed_in} if self.mixed_in else {}),
        }


@dataclass(frozen=True)
class MixIn:
    """The first `count` questions of `split` of the preprocessed dataset `path`, added with their tables to
    the `train` split of a `tables` dataset being preprocessed (`nsm preprocess tables --mix-in
    PATH:SPLIT:COUNT`): a model trained on `path` and fine-tuned (`nsm train --init`) on a few thousand
    questions of one's own then keeps practising the questions it learned from, instead of forgetting them.
    Two `tables` datasets number their questions alike (`train-2`), so one cannot be mixed into another."""

    path: Path
    split: str
    count: int

    @classmethod
    def parse(cls, text: str) -> MixIn:
        """`DIR:SPLIT:COUNT`; DIR may itself hold a colon."""
        path, _, rest = text.rpartition(":")
        path, _, split = path.rpartition(":")
        if not (path and split and re.fullmatch(r"[0-9]+", rest) and int(rest) > 0):
            raise DataError(
                f"--mix-in {text!r}: expected DIR:SPLIT:COUNT (data/wtq:random-split-1-train:2000)"
            )
        return cls(Path(path), split, int(rest))

    def read(self, language: str, linking: str) -> tuple[list[Example], list[Table]]:
        """The questions, and the tables they are asked of, as that dataset stores them (a damaged file is a
        DataError naming it); they must be of `language`, linked by `linking` (a question's entities depend
        on it)."""
        source = load_dataset(self.path)  # checks the directory, its format and version
        theirs = source.meta.get("linking", DEFAULT_LINKING)
        if source.language != language or theirs != linking:
            raise DataError(
                f"--mix-in {self.path}: its questions are {source.language} with {theirs} linking; this "
                f"dataset's are {language} with {linking} linking"
            )
        questions = source.examples(self.split)[: self.count]
        if len(questions) < self.count:
            raise DataError(
                f"--mix-in: {self.path} has {len(questions)} questions in {self.split}, not {self.count}"
            )
        ids = Counter(q.id for q in questions)
        if len(ids) < len(questions):
            raise DataError(f"--mix-in: {self.path} repeats question ids ({ids.most_common(1)[0][0]})")
        wanted = sorted({q.table_id for q in questions})
        missing = [t for t in wanted if t not in source.tables]
        if missing:
            raise DataError(f"--mix-in: {self.path} lacks the table {missing[0]!r} of its questions")
        return questions, [source.tables[t] for t in wanted]


def preprocess(
    dataset: str,
    data_dir: Path | str,
    out_dir: Path | str,
    progress: Any = None,
    linking: str = DEFAULT_LINKING,
    mix_in: MixIn | None = None,
) -> Summary:
    """Read a release, annotate every question of every split present, write the plain-file dataset.
    `linking` is how question words are matched to cell text (`nsmcli.worlds.tables.data.annotate.LINKING_MODES`);
    `mix_in` adds another dataset's questions to the `train` split (`MixIn`)."""
    fmt = dataset_format(dataset)
    check_linking(linking)
    if mix_in is not None and fmt is not TABLES_FORMAT:  # refused before a release is read
        raise DataError(f"--mix-in adds to your own question files (nsm preprocess tables), not to {dataset}")
    data_dir, out_dir = Path(data_dir), Path(out_dir)
    if not data_dir.is_dir():
        raise DataError(f"data directory {data_dir} does not exist")
    if out_dir.exists() and not out_dir.is_dir():
        raise DataError(f"output {out_dir} is a file, not a directory")
    # locked before any work: an unwritable --out fails now, and a second run into it is refused
    with output_lock(out_dir, "preprocessing output", inside=False):
        for stale in out_dir.parent.glob(f".{out_dir.name}.*.partial"):  # a killed run's staging directory
            shutil.rmtree(stale, ignore_errors=True)
        return _preprocess(fmt, data_dir, out_dir, progress, linking, mix_in)


def _preprocess(
    fmt: DatasetFormat, data_dir: Path, out_dir: Path, progress: Any, linking: str, mix_in: MixIn | None
) -> Summary:
    dataset = fmt.name
    start = time.perf_counter()
    splits, load_table = fmt.read(data_dir, fmt.value_rules)
    if mix_in is not None and "train" not in splits:
        raise DataError(f"--mix-in adds to the train split, and {data_dir} has none (train.tsv)")
    mixed_questions, mixed_tables = mix_in.read(fmt.language, linking) if mix_in else ([], [])
    summary = Summary(dataset, str(out_dir))
    unique = {q.id: q for items in splits.values() for q in items if isinstance(q, RawQuestion)}
    annotated: dict[str, Example | str] = {}
    tables: dict[str, Table] = {}
    unreadable: dict[str, str] = {}
    task = progress.add_task("annotating", total=len(unique), status="") if progress else None
    for q in sorted(unique.values(), key=lambda q: (q.table_id, q.id)):  # table by table: one load each
        if q.table_id not in tables:
            try:
                tables[q.table_id] = load_table(q.table_id)
            except DataError as exc:
                tables[q.table_id] = None  # type: ignore[assignment]
                unreadable[q.table_id] = f"table unreadable: {exc}"
        table = tables[q.table_id]
        if table is None:
            annotated[q.id] = unreadable[q.table_id]  # every question on it, not only the first
        else:
            if table.n_rows == 0:
                annotated[q.id] = "table has no rows"
            else:
                question = annotate_question(
                    q.text, table, qid=q.id, answer=[str(a) for a in q.answer], linking=linking
                )
                annotated[q.id] = Example(q.id, q.table_id, question, q.answer, q.answer_canon)
        if progress:
            progress.advance(task)
    used_tables = sorted({e.table_id for e in annotated.values() if isinstance(e, Example)})
    clashes = sorted({q.id for q in mixed_questions} & set(annotated)) + sorted(
        {t.id for t in mixed_tables} & set(used_tables)
    )
    if clashes:
        raise DataError(f"--mix-in: {mix_in.path} uses ids this dataset uses too ({', '.join(clashes[:3])})")
    with staged_directory(out_dir) as stage:
        vocab: dict[str, dict[str, int]] = {}
        for split, items in splits.items():
            examples, skipped = [], Counter()
            for item in items:
                result = annotated[item.id] if isinstance(item, RawQuestion) else item[1]
                if isinstance(result, Example):
                    examples.append(result)
                else:
                    skipped[result.split(":")[0]] += 1
            examples += mixed_questions if split == "train" else []
            atomic_write_jsonl(stage / f"{split}.jsonl", (e.to_json() for e in examples))
            vocab[split] = dict(Counter(t for e in examples for t in e.question.tokens).most_common())
            summary.examples[split] = len(examples)
            summary.skipped[split] = dict(skipped)
        summary.tables = atomic_write_jsonl(
            stage / "tables.jsonl", map(table_record, [*(tables[t] for t in used_tables), *mixed_tables])
        )
        if mix_in is not None:
            summary.mixed_in = {
                "from": str(mix_in.path.resolve()),
                "split": mix_in.split,
                "questions": len(mixed_questions),
                "tables": len(mixed_tables),
            }
        atomic_write_json(stage / "vocab.json", vocab)
        summary.seconds = time.perf_counter() - start
        atomic_write_json(
            stage / "meta.json",
            {
                "format": FORMAT,
                "preprocess_version": PREPROCESS_VERSION,
                "nsm_version": __version__,
                "dataset": dataset,
                "language": fmt.language,
                "linking": linking,
                "source": str(data_dir.resolve()),
                "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                **summary.to_json(),
            },
        )
    return summary


def table_record(table: Table) -> dict:
    record = {
        "id": table.id,
        "header": table.header,
        "rows": table.rows,
        "column_types": list(table.column_types) if table.column_types else None,
    }
    if table.value_rules != "wtq":  # written only when needed: WTQ and WikiSQL files stay as they were
        record["value_rules"] = table.value_rules
    return record


# ----- loading -------------------------------------------------------------------------------------------


def _table_from_record(r: dict) -> Table:
    return Table.from_rows(
        r["id"],
        r["header"],
        r["rows"],
        column_types=r.get("column_types"),
        value_rules=r.get("value_rules", "wtq"),
    )


class Dataset:
    """A preprocessed directory: tables, examples per split, and the dataset's language and answer check."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        meta_path = self.path / "meta.json"
        if not meta_path.is_file():
            raise DataError(
                f"{self.path} is not a preprocessed dataset (no meta.json); run nsm preprocess first"
            )
        try:
            self.meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise DataError(f"{meta_path} is corrupt: {exc}") from exc
        if self.meta.get("format") != FORMAT or self.meta.get("preprocess_version") != PREPROCESS_VERSION:
            raise DataError(
                f"{self.path} was written by another preprocessing version; run nsm preprocess again"
            )
        self.format = dataset_format(self.meta["dataset"])
        self._tables: dict[str, Table] | None = None

    @property
    def splits(self) -> list[str]:
        return list(self.meta["examples"])

    @property
    def language(self) -> str:
        return self.format.language

    @property
    def users_tables(self) -> bool:
        """Whether its tables are typed by the user rules (`nsm preprocess tables`), as `nsm parse` types a
        user's file: a model's reranker of users' tables chooses on them."""
        return self.format.value_rules == "user"

    @property
    def tables(self) -> dict[str, Table]:
        if self._tables is None:
            tables = self._read_records("tables.jsonl", _table_from_record)
            self._tables = {t.id: t for t in tables}
        return self._tables

    def examples(self, split: str) -> list[Example]:
        if split not in self.meta["examples"] or not (self.path / f"{split}.jsonl").is_file():
            raise DataError(f"split {split!r} not in {self.path}; available: {', '.join(self.splits)}")
        return self._read_records(f"{split}.jsonl", Example.from_json)

    def _read_records(self, name: str, parse: Callable[[dict], Any]) -> list:
        """Every line of one of the dataset's files through `parse`; a damaged line is a DataError naming
        the file and line, not a stack trace."""
        path = self.path / name
        if not path.is_file():
            raise DataError(f"{path} is missing; run nsm preprocess again")
        records = []
        with open(path, "rb") as f:  # bytes: a decoding error is then a corrupt line like any other
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    records.append(parse(json.loads(line)))
                except (ValueError, KeyError, TypeError, AttributeError) as exc:
                    if isinstance(exc, json.JSONDecodeError):
                        reason = f"invalid JSON: {exc.msg}"
                    elif isinstance(exc, KeyError):
                        reason = f"no {exc}"
                    else:
                        reason = brief(exc)
                    raise DataError(
                        f"{path} line {number} is corrupt ({reason}); run nsm preprocess again"
                    ) from None
        return records

    def iter_examples(self, split: str) -> Iterator[Example]:
        yield from self.examples(split)

    def environment(self, example: Example) -> Environment:
        return self.bind(example)

    def is_correct(self, example: Example, predicted: list) -> bool:
        return self.format.correct(example, predicted)

    # ----- the generic problem-set protocol (`nsmcli.protocols.ProblemSet`) ------------------------------

    @property
    def world(self) -> str:
        return self.language

    @property
    def source(self) -> str:
        return str(self.path.resolve())

    def load(self) -> None:
        _ = self.tables

    def bind(self, example: Example, limits: dict | Limits | None = None) -> Environment:
        """The example's question bound to its table, with a run's interpreter limits (JSON or `Limits`;
        None: the language's own)."""
        if isinstance(limits, dict):
            limits = Limits.from_json(limits)
        table = self.tables.get(example.table_id)
        if table is None:
            raise DataError(
                f"{self.path}: question {example.id} names table {example.table_id!r}, which is missing"
            )
        return bind(self.language, table, example.question.entities, limits)

    def scorer(self, example: Example, env: Environment) -> Callable[[Sequence[int]], tuple[float, bool]]:
        """Reward 1 only for a consistent program: the right answer and no unused intermediate result, as
        OFF's environment with punish_extra_work, and no echo of one side of an "A or B" choice that the
        program does not make (`lang.choices`: right half of the time whatever the table says)."""

        def score(tokens: Sequence[int]) -> tuple[float, bool]:
            state = env.run(tokens)
            if not state.done or state.error:
                return 0.0, False
            if env.unused_work(state):
                return 0.0, True
            answer = env.result(state).answer
            if not self.is_correct(example, answer):
                return 0.0, True
            if choice_pairs(env) and echoes_a_choice(env, env.decode(tokens), answer):
                return 0.0, True
            return 1.0, True

        return score

    def credit(self, example: Example, env: Environment, tokens: Sequence[int]) -> float:
        state = env.run(tokens)
        ok = state.done and not state.error and self.is_correct(example, env.result(state).answer)
        return 1.0 if ok else 0.0

    def text(self, example: Example) -> str:
        return example.question.text

    def word_counts(self, split: str) -> dict[str, int]:
        """Question-token counts of `split`, as preprocessing wrote them."""
        path = self.path / "vocab.json"
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise DataError(f"{path} is missing or corrupt: {exc}") from None
        if split not in record:
            raise DataError(f"{path} has no counts for split {split!r}")
        return record[split]

    def answer_checker(self, example: Example) -> AnswerChecker:
        """The answer test of `example` for the program search: the fast checker the dataset declares
        (`DatasetFormat.make_checker`), else `is_correct` wrapped (no goal-directed pruning)."""
        if self.format.make_checker is not None:
            return self.format.make_checker(example)
        return CallableChecker(lambda answer: self.is_correct(example, answer))


def load_dataset(path: Path | str) -> Dataset:
    return Dataset(path)
