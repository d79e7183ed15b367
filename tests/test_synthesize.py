"""`nsm synthesize`: templated questions with their programs over a dataset's own training tables."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from nsmcli.errors import DataError
from nsmcli.fileio import read_program_file
from nsmcli.worlds.tables.data.preprocess import load_dataset
from nsmcli.worlds.tables.data.synthesize import (
    TEMPLATES,
    USER_READING_SUFFIX,
    synthesize,
    synthesize_examples,
)
from tests.test_train import TABLES, preprocessed_wtq, tiny  # noqa: F401  (the tiny WTQ-style dataset fixture)

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
    examples, records, kept = [], [], Counter()
    for seed in range(3, 9):  # a few seeds: each draws a few of the templates on the tiny tables
        found = synthesize_examples(dataset, "random-split-1-train", per_table=8, seed=seed)
        assert len(found[0]) == len(found[1]) == sum(found[2].values())
        examples, records, kept = examples + found[0], records + found[1], kept + found[2]
    assert examples
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


ODD_TABLES = {
    # a total row, and a value ("china") that is part of another cell ("china pr")
    "10": [
        ["Rank", "Nation", "Gold", "Silver"],
        ["1", "China", "10", "2"],
        ["2", "China PR", "5", "3"],
        ["3", "China", "4", "8"],
        ["4", "Japan", "3", "1"],
        ["Total", "-", "22", "14"],
    ],
    # only Points is a quantity: Laps holds the row numbers, Week names a position
    "11": [
        ["Team", "Laps", "Week", "Points", "Group"],
        ["Reds", "1", "3", "5", "North"],
        ["Blues", "2", "7", "9", "South"],
        ["Greens", "3", "12", "2", "North"],
        ["Golds", "4", "20", "11", "South"],
    ],
}


@pytest.fixture(scope="module")
def odd(tmp_path_factory) -> Path:
    """A preprocessed WTQ-style dataset over `ODD_TABLES` (one question per table)."""
    splits = {
        split: [(f"{split}-{n}", "how many rows?", key, "4") for n, key in enumerate(ODD_TABLES)]
        for split in ("random-split-1-train", "random-split-1-dev")
    }
    return preprocessed_wtq(tmp_path_factory.mktemp("odd"), ODD_TABLES, splits)


def _records(dataset_dir: Path, seeds: range = range(12)) -> list[tuple[str, dict, list]]:
    dataset = load_dataset(dataset_dir)
    found = []
    for seed in seeds:
        examples, records, _, _ = synthesize_examples(dataset, "random-split-1-train", per_table=6, seed=seed)
        found += [(e.table_id, r, e.answer) for e, r in zip(examples, records, strict=True)]
    return found


def test_no_sum_over_a_total_row_and_no_value_that_selects_more_than_its_rows(odd):
    records = _records(odd)
    on_medals = [r for t, r, _ in records if t.endswith("_10")]
    assert on_medals  # the differences remain
    assert {r["template"] for r in on_medals} <= {
        "difference",
        "either_or_more",
        "either_or_less",
        "lookup",
        "sum_of_selected",
        "average_of_selected",
    }
    assert not any('"china"' in r["programs"][0] for r in on_medals)


def test_only_quantities_are_summed_averaged_or_compared(odd):
    records = [r for t, r, _ in _records(odd) if t.endswith("_11")]
    assert {"sum_of_all", "count_above"} <= {r["template"] for r in records}
    measured = {m for r in records for m in re.findall(r"r\.(\w+)-number", r["programs"][0])}
    assert measured == {"points"}


def test_a_difference_names_the_larger_first(odd):
    points = {row[0].lower(): float(row[3]) for row in ODD_TABLES["11"][1:]}
    gold = {row[1].lower(): float(row[2]) for row in ODD_TABLES["10"][1:]}
    checked = 0
    for table_id, record, answer in _records(odd):
        if record["template"] != "difference":
            continue
        a, b = re.findall(r'"([^"]+)"', record["programs"][0])
        values = points if table_id.endswith("_11") else gold
        assert values[a] > values[b] and float(answer[0]) == values[a] - values[b]
        checked += 1
    assert checked


def test_an_either_or_answers_the_one_named_row_with_more_or_less_in_either_order(odd):
    """ "which had more points, reds or blues?" keeps both rows with one filter of the pair entity and
    answers the row with more (fewer) by the raw rows; the larger is named first in some questions and
    second in others, so the order tells nothing."""
    points = {row[0].lower(): float(row[3]) for row in ODD_TABLES["11"][1:]}
    gold = {row[1].lower(): float(row[2]) for row in ODD_TABLES["10"][1:]}
    firsts = []
    for table_id, record, answer in _records(odd):
        if not record["template"].startswith("either_or"):
            continue
        a, b = re.findall(r'"([^"]+)"', record["programs"][0])
        values = points if table_id.endswith("_11") else gold
        more = record["template"] == "either_or_more"
        expected = max((a, b), key=values.get) if more else min((a, b), key=values.get)
        assert [answer[0].lower()] == [expected], record
        firsts.append(expected == a)
    assert True in firsts and False in firsts


def test_a_lookup_answers_the_cell_of_the_column_it_names_in_the_row_it_names(odd):
    found = 0
    for table_id, record, answer in _records(odd):
        if record["template"] != "lookup":
            continue
        header, *rows = ODD_TABLES["11" if table_id.endswith("_11") else "10"]
        (name, by, of) = re.fullmatch(
            r'\(filter_str_contain_any all_rows "([^"]+)" r\.(\w+)-string\) \(hop v0 r\.(\w+)-\w+\)',
            record["programs"][0],
        ).groups()
        column = {h.lower(): k for k, h in enumerate(header)}
        (row,) = [r for r in rows if r[column[by]].lower() == name]
        assert [a.lower() for a in answer] == [row[column[of]].lower()]
        found += 1
    assert found


def test_a_threshold_on_a_row_s_value_keeps_the_rows_the_stated_comparison_keeps(odd):
    """ "more than 5" leaves out the row of 5 and "at least 5" keeps it: thresholds of the `value`
    templates are a cell of the column (neither its least nor its greatest), so the comparison the
    question states answers by the raw rows and its strict or inclusive twin would not earn the reward."""
    points = {row[0].lower(): float(row[3]) for row in ODD_TABLES["11"][1:]}
    keeps = {
        "filter_greater": lambda v, x: v > x,
        "filter_ge": lambda v, x: v >= x,
        "filter_less": lambda v, x: v < x,
        "filter_le": lambda v, x: v <= x,
    }
    seen = set()
    for table_id, record, answer in _records(odd, range(40)):
        template = next(t for t in TEMPLATES if t.name == record["template"])
        if template.threshold != "value" or not table_id.endswith("_11"):
            continue
        (comparison, x) = re.match(
            r"\((filter_\w+) all_rows ([\d.]+) r\.points-number\)", record["programs"][0]
        ).groups()
        x = float(x)
        assert x in set(points.values()) - {min(points.values()), max(points.values())}
        kept = sorted(name for name, v in points.items() if keeps[comparison](v, x))
        if record["programs"][0].endswith("(count v0)"):
            assert [float(a) for a in answer] == [len(kept)], record
        else:
            assert sorted(a.lower() for a in answer) == kept, record
        seen.add(record["template"])
    assert {"rows_at_least", "count_at_most", "rows_above_a_value", "count_below_a_value"} <= seen


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
    with pytest.raises(DataError, match="already has a split"):
        synthesize(out, tmp_path / "twice", per_table=1)
    with pytest.raises(DataError, match="not in"):
        synthesize(data, tmp_path / "x", split="no-such-split")
    with pytest.raises(DataError, match="already exists"):
        synthesize(data, out)
    with pytest.raises(DataError, match="already exists"):
        synthesize(data, Path(data).parent)  # a folder above the dataset: replacing it would delete it
    with pytest.raises(DataError, match="does not exist"):
        synthesize(data, tmp_path / "z", programs=tmp_path / "missing.jsonl")
    assert not (tmp_path / "z").exists()


def test_cli_synthesize_prints_a_summary_and_bad_input_is_one_line(tiny, tmp_path):  # noqa: F811
    data, _ = tiny
    cli = [sys.executable, "-m", "nsmcli", "synthesize"]
    name = "random-split-1-train-synth"
    written = []
    for hash_seed in ("1", "2"):  # the same seed writes the same split whatever the hash seed
        out = tmp_path / f"s{hash_seed}"
        done = subprocess.run(
            [*cli, str(data), "--out", str(out), "--per-table", "6", "--seed", "4", "--json"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["split"] == name
        written.append((out / f"{name}.jsonl").read_bytes())
    assert written[0] == written[1]
    bad = subprocess.run(
        [*cli, str(data), "--out", str(tmp_path / "t"), "--split", "nope"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "nope" in bad.stderr


def test_templates_chooses_what_is_drawn_and_an_unknown_name_is_one_line(tiny, tmp_path):  # noqa: F811
    """`--templates` repeats a recipe written for an earlier set: only the named templates are drawn,
    and the dataset records which."""
    data, _ = tiny
    cli = [sys.executable, "-m", "nsmcli", "synthesize", str(data)]
    out = tmp_path / "sums"
    done = subprocess.run(
        [*cli, "--out", str(out), "--per-table", "6", "--templates", "sum_of_all, sum_of_selected", "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)["by_template"]) == {"sum_of_all", "sum_of_selected"}
    meta = json.loads((out / "meta.json").read_text(encoding="utf-8"))
    assert meta["synthesized"]["random-split-1-train-synth"]["templates"] == ["sum_of_selected", "sum_of_all"]
    bad = subprocess.run(
        [*cli, "--out", str(tmp_path / "t"), "--templates", "sum_of_al"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "sum_of_al" in bad.stderr
    assert not (tmp_path / "t").exists()


DATED_TABLES = {
    # whole dates in Joined, a year alone in Season (no template compares years as dates)
    "12": [
        ["Name", "Joined", "Season", "Goals"],
        ["Ana Silva", "March 4, 2015", "2015", "7"],
        ["Ben Ode", "June 1, 2019", "2016", "3"],
        ["Cy Park", "January 20, 2012", "2017", "9"],
        ["Dee Holt", "October 9, 2017", "2018", "4"],
    ],
}


@pytest.fixture(scope="module")
def dated(tmp_path_factory) -> Path:
    splits = {
        split: [(f"{split}-0", "how many rows?", "12", "4")]
        for split in ("random-split-1-train", "random-split-1-dev")
    }
    return preprocessed_wtq(tmp_path_factory.mktemp("dated"), DATED_TABLES, splits)


def test_earlier_and_later_compare_whole_dates(dated):
    """ "which name had the earlier joined, ben ode or dee holt?" and "... the earliest joined?" answer by
    the dates of the rows, not by their order or the question's order; a year-only column is no date to
    compare."""
    joined = {
        "ana silva": (2015, 3, 4),
        "ben ode": (2019, 6, 1),
        "cy park": (2012, 1, 20),
        "dee holt": (2017, 10, 9),
    }
    seen = set()
    for _, record, answer in _records(dated, range(40)):
        template, program = record["template"], record["programs"][0]
        if template not in {"either_or_earlier", "either_or_later", "earliest", "latest"}:
            continue
        assert "r.joined-date" in program and "season" not in program
        named = re.findall(r'"([^"]+)"', program) or list(joined)
        pick = min if template in {"either_or_earlier", "earliest"} else max
        assert answer == [pick(named, key=joined.get)], record
        seen.add(template)
    assert seen == {"either_or_earlier", "either_or_later", "earliest", "latest"}


def test_months_and_days_are_asked_of_the_user_reading_and_answer_by_the_dates(dated, tmp_path):
    """ "how many names were there in june?" and "... between march 4 and june 1?" are asked of the table
    as the user rules read it (a month keeps the dates within it only there), answer by the rows' dates,
    and the synthesized dataset stores that reading beside the original so training binds them."""
    joined = [(3, 4), (6, 1), (1, 20), (10, 9)]  # (month, day) of the rows of DATED_TABLES["12"]
    seen = set()
    for table_id, record, answer in _records(dated, range(60)):
        template, program = record["template"], record["programs"][0]
        if template not in {"count_in_month", "rows_in_month", "count_between_days"}:
            assert not table_id.endswith(USER_READING_SUFFIX)
            continue
        assert table_id.endswith(USER_READING_SUFFIX) and "r.joined-date" in program
        dates = re.findall(r"xxxx-(\d\d)-(\d\d|xx)", program)
        if template == "count_between_days":
            (m1, d1), (m2, d2) = [(int(m), int(d)) for m, d in dates]
            assert answer == [str(sum((m1, d1) <= day <= (m2, d2) for day in joined))], record
        else:
            ((m, _),) = dates
            rows = [k for k, (month, _) in enumerate(joined) if month == int(m)]
            if template == "count_in_month":
                assert answer == [str(len(rows))], record
            else:
                names = ["ana silva", "ben ode", "cy park", "dee holt"]
                assert sorted(answer) == sorted(names[k] for k in rows), record
        seen.add(template)
    assert seen == {"count_in_month", "rows_in_month", "count_between_days"}
    out = tmp_path / "synth"
    synthesize(dated, out, per_table=8, seed=1, templates=["count_in_month", "count_between_days"])
    copy = load_dataset(out)
    asked = [
        e for e in copy.examples("random-split-1-train-synth") if e.table_id.endswith(USER_READING_SUFFIX)
    ]
    assert asked and all(copy.tables[e.table_id].value_rules == "user" for e in asked)
    assert all(
        copy.tables[t].value_rules == "wtq" for t in copy.tables if not t.endswith(USER_READING_SUFFIX)
    )
    records = {r["id"]: r for r in read_program_file(out / "random-split-1-train-synth-programs.jsonl")}
    for example in asked:
        env = copy.bind(example)
        assert copy.scorer(example, env)(env.encode(records[example.id]["programs"][0]))[0] == 1.0


def test_a_superlative_names_one_row_so_a_tie_at_an_extreme_gets_none() -> None:
    from nsmcli.worlds.tables.data.synthesize import _fill
    from nsmcli.worlds.tables.data.table import Table

    most = next(t for t in TEMPLATES if t.name == "most")
    header = ["Team", "Points"]
    tied = Table.from_rows("t", header, [["Reds", "5"], ["Blues", "9"], ["Greens", "9"], ["Golds", "2"]])
    apart = Table.from_rows("t", header, [["Reds", "5"], ["Blues", "9"], ["Greens", "7"], ["Golds", "2"]])
    assert all(_fill(most, tied, random.Random(seed)) is None for seed in range(20))
    filled = {_fill(most, apart, random.Random(seed)) for seed in range(20)} - {None}
    assert {program for _, program in filled} == {"(argmax all_rows r.points-number) (hop v0 r.team-string)"}


def test_a_table_without_numbers_still_gets_lookups(tmp_path):
    """A lookup asks for another column's cell, so it needs no numeric column (a staff list of names,
    roles and cities)."""
    tables = {
        "0": [
            ["Name", "Role", "City"],
            ["Ann Lee", "Engineer", "Leeds"],
            ["Bo Chan", "Designer", "Hull"],
            ["Cy Dunn", "Manager", "York"],
            ["Di Eze", "Analyst", "Bath"],
        ]
    }
    splits = {
        split: [(f"{split}-0", "how many rows?", "0", "4")]
        for split in ("random-split-1-train", "random-split-1-dev")
    }
    dataset = load_dataset(preprocessed_wtq(tmp_path, tables, splits))
    records = []
    for seed in range(6):
        examples, found, _, _ = synthesize_examples(dataset, "random-split-1-train", per_table=4, seed=seed)
        records += [(e, r) for e, r in zip(examples, found, strict=True)]
    assert records and {r["template"] for _, r in records} == {"lookup"}
    rows = [[cell.lower() for cell in row] for row in tables["0"][1:]]
    for example, record in records:
        name = re.search(r'"([^"]+)"', record["programs"][0]).group(1)
        (row,) = [row for row in rows if name in row]  # the row the question names
        assert example.answer[0].lower() in set(row) - {name}
