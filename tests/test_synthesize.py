"""`nsm synthesize`: templated questions with their programs over a dataset's own training tables."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from nsmcli.errors import DataError
from nsmcli.train.buffer import read_program_file
from nsmcli.worlds.tables.data.preprocess import load_dataset
from nsmcli.worlds.tables.data.synthesize import TEMPLATES, synthesize, synthesize_examples
from tests.test_train import TABLES, tiny  # noqa: F401  (the tiny WTQ-style dataset fixture)

ROOT = Path(__file__).resolve().parents[1]


def _rows(table_key: str) -> list[dict[str, str]]:
    header, *rows = TABLES[table_key]
    return [dict(zip(header, row, strict=True)) for row in rows]


def _expected(program: str, table_key: str) -> float | None:
    """The answer of a sum or average program, computed from the raw fixture rows (not the interpreter)."""
    rows = _rows(table_key)
    header = TABLES[table_key][0]
    slug = {h.lower(): h for h in header}
    selected = re.match(
        r'\(filter_str_contain_any all_rows "([^"]+)" r\.(\w+)-string\) \((sum|average) v0 r\.(\w+)-number\)$',
        program,
    )
    every = re.match(r"\((sum|average) all_rows r\.(\w+)-number\)$", program)
    if selected:
        value, by, op, of = selected.groups()
        numbers = [float(r[slug[of]]) for r in rows if r[slug[by]].lower() == value]
    elif every:
        op, of = every.groups()
        numbers = [float(r[slug[of]]) for r in rows]
    else:
        return None
    return sum(numbers) if op == "sum" else sum(numbers) / len(numbers)


def test_every_templated_question_is_answered_by_its_program(tiny):  # noqa: F811
    """Each question comes with the program it means; annotated like any question, its own entities
    express that program, which earns the reward; sums and averages equal the raw rows' arithmetic."""
    data, _ = tiny
    dataset = load_dataset(data)
    examples, records, kept, _ = synthesize_examples(dataset, "random-split-1-train", per_table=8, seed=3)
    assert examples and len(examples) == len(records) == sum(kept.values())
    assert {"sum_of_selected", "sum_of_all"} <= set(kept)
    checked = 0
    for example, record in zip(examples, records, strict=True):
        assert record["id"] == example.id and record["template"] in {t.name for t in TEMPLATES}
        env = dataset.bind(example)
        tokens = env.encode(record["programs"][0])
        assert dataset.scorer(example, env)(tokens)[0] == 1.0, (example.question.text, record)
        key = example.table_id.split("/")[-1].split(".")[0].split("_")[-1]
        expected = _expected(record["programs"][0], key) if key in TABLES else None
        if expected is not None:
            assert float(example.answer[0]) == pytest.approx(expected), example.question.text
            checked += 1
    assert checked >= 2


def test_position_and_year_columns_are_not_summed(tiny):  # noqa: F811
    data, _ = tiny
    dataset = load_dataset(data)
    _, records, _, _ = synthesize_examples(dataset, "random-split-1-train", per_table=8, seed=1)
    assert records and not any("r.year-" in r["programs"][0] for r in records)


def test_synthesize_writes_a_copy_with_one_more_split_and_its_programs(tiny, tmp_path):  # noqa: F811
    data, programs = tiny
    before = {p.name: p.read_bytes() for p in Path(data).iterdir()}
    out = tmp_path / "synth"
    summary = synthesize(data, out, per_table=4, seed=2, programs=programs)
    assert {p.name: p.read_bytes() for p in Path(data).iterdir()} == before  # the source is untouched
    copy = load_dataset(out)
    name = "random-split-1-train-synth"
    base = copy.examples("random-split-1-train")
    extended = copy.examples(name)
    assert [e.id for e in extended[: len(base)]] == [e.id for e in base]
    assert len(extended) == len(base) + summary.added and summary.added > 0
    assert copy.examples("random-split-1-dev") == load_dataset(data).examples("random-split-1-dev")
    assert copy.word_counts(name)  # training builds its vocabulary from the new split
    records = read_program_file(summary.programs_file)
    assert [r["id"] for r in records[: len(read_program_file(programs))]] == [
        r["id"] for r in read_program_file(programs)
    ]
    assert {r["id"] for r in records} >= {e.id for e in extended[len(base) :]}
    again = synthesize(data, tmp_path / "again", per_table=4, seed=2, programs=programs)
    assert (out / f"{name}.jsonl").read_bytes() == (tmp_path / "again" / f"{name}.jsonl").read_bytes()
    assert again.by_template == summary.by_template
    with pytest.raises(DataError, match="already has a split"):
        synthesize(out, tmp_path / "twice", per_table=1)
    with pytest.raises(DataError, match="not in"):
        synthesize(data, tmp_path / "x", split="no-such-split")
    assert not (tmp_path / "x").exists()


def test_cli_synthesize_prints_a_summary_and_bad_input_is_one_line(tiny, tmp_path):  # noqa: F811
    data, _ = tiny
    cli = [sys.executable, "-m", "nsmcli", "synthesize"]
    done = subprocess.run(
        [*cli, str(data), "--out", str(tmp_path / "s"), "--json"], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["split"] == "random-split-1-train-synth"
    bad = subprocess.run(
        [*cli, str(data), "--out", str(tmp_path / "t"), "--split", "nope"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "nope" in bad.stderr
