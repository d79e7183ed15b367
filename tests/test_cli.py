"""The `nsm` command as a user meets it: exit codes, one-line errors, JSON output, escaping."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from nsmcli.worlds.tables.data.readers import load_table
from nsmcli.worlds.tables.lang.sql import execute_sql

ROOT = Path(__file__).resolve().parents[1]
MEDALS = ROOT / "examples" / "tables" / "medals.csv"


def nsm(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "nsmcli", *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def assert_one_line_error(proc: subprocess.CompletedProcess, *fragments: str) -> None:
    assert proc.returncode == 2, proc.stderr
    lines = [line for line in proc.stderr.strip().splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def test_help_lists_commands():
    proc = nsm("--help")
    assert proc.returncode == 0
    for command in ("preprocess", "execute"):
        assert command in proc.stdout


def test_execute_json(tmp_path):
    proc = nsm("execute", "(argmax all_rows r.gold-number) (hop v0 r.nation-string)", str(MEDALS), "--json")
    assert proc.returncode == 0, proc.stderr
    payload = json.loads(proc.stdout)
    assert payload["answer"] == ["norway", "germany"]
    assert payload["display"] == ["Norway", "Germany"]  # what the table says, shown to a person
    assert "answer_cells" not in payload  # one naming: Python's ParseResult.display
    assert [s["expression"] for s in payload["steps"]] == [
        "(argmax all_rows r.gold-number)",
        "(hop v0 r.nation-string)",
    ]
    # the superlative's SQL form answers the same on the same table
    assert "(SELECT MAX(" in payload["sql"]
    assert [a.lower() for a in execute_sql(load_table(MEDALS), payload["sql"])] == payload["answer"]


def test_a_summary_row_left_out_is_said_on_stderr_and_in_json(tmp_path):
    table = tmp_path / "sales.csv"
    table.write_text(
        'Region,Sales\nNorth,"1,200"\nSouth,980\nEast,"1,540"\nTotal,"3,720"\n', encoding="utf-8"
    )
    program = "(argmax all_rows r.sales-number) (hop v0 r.region-string)"
    proc = nsm("execute", program, str(table))
    assert proc.returncode == 0, proc.stderr
    assert "warning: the last row ('Total') holds the sums" in proc.stderr and "East" in proc.stdout
    payload = json.loads(nsm("execute", program, str(table), "--json", "--quiet").stdout)
    assert payload["display"] == ["East"] and "'Total'" in payload["warnings"][0]


def test_execute_says_when_no_rows_match():
    """A WikiSQL query whose conditions select nothing: its answer is empty, and the output says so."""
    program = "(filter_greater all_rows 100 r.gold-number)"
    proc = nsm("execute", program, str(MEDALS), "--language", "wikisql", "--question", "gold over 100")
    assert proc.returncode == 0, proc.stderr
    assert "no rows match" in proc.stdout
    proc = nsm(
        "execute", program, str(MEDALS), "--language", "wikisql", "--question", "gold over 100", "--json"
    )
    assert json.loads(proc.stdout)["answer"] == []


def test_execute_reports_a_bad_program_in_one_line_with_exit_2():
    proc = nsm("execute", "(hop all_rows r.nope-string)", str(MEDALS))
    assert_one_line_error(proc, "unknown column", "r.nation-string")
    assert not proc.stdout


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"a,b\n1,2,3\n", "cells"),
        (b"", "empty"),
        (b"\x00\x01\x02\xff\xfe junk \x00", "not a text table"),
        (b"a,b\n", "no rows"),
    ],
    ids=["ragged", "empty", "binary", "header-only"],
)
def test_bad_tables_get_one_line(tmp_path, content, fragment):
    path = tmp_path / "bad.csv"
    path.write_bytes(content)
    assert_one_line_error(nsm("execute", "(count all_rows)", str(path)), fragment, "bad.csv")


def test_missing_table_file(tmp_path):
    assert_one_line_error(nsm("execute", "(count all_rows)", str(tmp_path / "nope.csv")), "nope.csv")


def test_preprocess_unknown_dataset_and_missing_directory(tmp_path):
    assert_one_line_error(nsm("preprocess", "spider", "--out", str(tmp_path / "o")), "unknown dataset", "wtq")
    assert_one_line_error(
        nsm("preprocess", "wtq", "--data-dir", str(tmp_path / "missing"), "--out", str(tmp_path / "o")),
        "does not exist",
    )
    assert_one_line_error(nsm("preprocess", "tables", "--out", str(tmp_path / "o")), "needs --data-dir")
    assert_one_line_error(
        nsm("preprocess", "wtq", "--linking", "fuzzy", "--out", str(tmp_path / "o")),
        "unknown linking 'fuzzy'",
        "word, substring",
    )
    assert not (tmp_path / "o").exists()


def test_preprocess_not_a_release_keeps_existing_output(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("earlier work")
    (tmp_path / "junk").mkdir()
    assert_one_line_error(
        nsm("preprocess", "wikisql", "--data-dir", str(tmp_path / "junk"), "--out", str(out)),
        "not a WikiSQL release",
    )
    assert (out / "keep.txt").read_text() == "earlier work"


def test_preprocess_bundled_mini_release(tmp_path):
    out = tmp_path / "mini"
    proc = nsm("preprocess", "wtq", "--data-dir", "examples/mini-wtq", "--out", str(out), "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["examples"] == {"training": 4}
    assert summary["tables"] == 1
    records = [json.loads(line) for line in (out / "training.jsonl").read_text().splitlines()]
    assert [r["id"] for r in records] == ["mini-0", "mini-1", "mini-2", "mini-3"]
    meta = json.loads((out / "meta.json").read_text())
    assert meta["dataset"] == "wtq" and meta["preprocess_version"] >= 1


def test_row_set_steps_show_the_rows_cells():
    program = (
        '(filter_str_contain_any all_rows "kenya" r.nation-string) (previous v0) (hop v1 r.nation-string)'
    )
    table = str(ROOT / "examples" / "tables" / "medals.csv")
    args = ("execute", program, table, "--question", "before kenya?")
    payload = json.loads(nsm(*args, "--json").stdout)
    first, second = payload["steps"][0], payload["steps"][1]
    assert first["values"] == ["row 11"] and first["rows"][0]["Nation"] == "Kenya"
    assert second["rows"][0]["Nation"] == "Austria" and payload["answer"] == ["austria"]
    shown = nsm(*args).stdout
    assert "row 11: 11 | Kenya" in shown and "row 10: 10 | Austria" in shown


def test_row_cells_are_keyed_by_unique_names_when_headers_repeat():
    from nsmcli.worlds.tables.data.table import Table
    from nsmcli.worlds.tables.lang.interpreter import describe_step

    table = Table.from_rows("t", ["Team", "Team", "Score"], [["a", "b", "1"], ["c", "d", "2"]])
    step = describe_step("(x)", "entity_list", ["row 2"], table)
    assert len(step["rows"][0]) == 3 and list(step["rows"][0].values()) == ["c", "d", "2"]


def test_cell_text_cannot_inject_markup_or_control_sequences(tmp_path):
    path = tmp_path / "evil.csv"
    path.write_text('Name,Score\n"[bold red]boom[/] \x1b[31mred\x1b[0m",3\nplain,4\n', encoding="utf-8")
    proc = nsm("execute", "(argmin all_rows r.score-number) (hop v0 r.name-string)", str(path))
    assert proc.returncode == 0, proc.stderr
    assert "\x1b" not in proc.stdout
    assert "[bold red]boom[/]" in proc.stdout  # shown literally, not interpreted


def test_unknown_sql_dialect_is_refused():
    proc = nsm("execute", "(count all_rows)", str(MEDALS), "--sql", "nosuch")
    assert_one_line_error(proc, "unknown SQL dialect 'nosuch'", "sqlite")


def test_empty_question_is_refused_before_parsing():
    assert_one_line_error(nsm("parse", "  ", str(MEDALS)), "question is empty")


def test_question_file_errors(tmp_path):
    header_only = tmp_path / "q.tsv"
    header_only.write_text("table\tquestion\tanswer\n", encoding="utf-8")
    assert_one_line_error(nsm("parse", "--questions", str(header_only)), "no questions", "q.tsv")
    assert_one_line_error(nsm("parse", "how many?", str(MEDALS), "--questions", str(header_only)), "not both")
    missing_table = tmp_path / "m.tsv"
    missing_table.write_text("table\tquestion\nnope.csv\thow many?\n", encoding="utf-8")
    assert_one_line_error(nsm("parse", "--questions", str(missing_table)), "m.tsv:2", "nope.csv")
    blank = tmp_path / "b.tsv"
    blank.write_text(f"table\tquestion\n{MEDALS}\thow many?\n{MEDALS}\t  \n", encoding="utf-8")
    assert_one_line_error(nsm("parse", "--questions", str(blank)), "b.tsv:3", "question is empty")


def test_invisible_characters_are_shown_escaped_and_joiners_kept():
    from nsmcli.cli.output import answer_text, safe

    assert safe("a\u200bb\ufeffc") == "a\\u200bb\\ufeffc"
    assert safe("\U0001f468\u200d\U0001f469") == "\U0001f468\u200d\U0001f469"  # an emoji sequence
    assert answer_text(["x" * 5000]).endswith("(5,000 characters)") and len(answer_text(["x" * 5000])) < 400
    assert answer_text(list(range(30))).endswith("... (30 in all)")


def test_questions_are_checked_for_length():
    from nsmcli.errors import DataError
    from nsmcli.worlds.tables.data.readers import MAX_QUESTION_CHARS, check_question

    assert check_question("  how   many?\n") == "how many?"
    with pytest.raises(DataError, match="at most"):
        check_question("x" * (MAX_QUESTION_CHARS + 1))


def test_columns_out_of_reach_are_warned_about(tmp_path):
    """A table wider than the program memory: the command still answers, and says what it cannot see."""
    path = tmp_path / "wide.csv"
    header = ",".join(f"c{i}" for i in range(40))
    path.write_text(header + "\n" + ",".join(str(i) for i in range(40)) + "\n" + "1," * 39 + "1\n")
    proc = nsm("execute", "(count all_rows)", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    assert "warning:" in proc.stderr and "from r.c28-number on" in proc.stderr
    (warning,) = json.loads(proc.stdout)["warnings"]
    assert "23 column views from r.c28-number on" in warning


def test_json_output_is_strict_utf8_with_controls_and_bidi_escaped():
    from nsmcli.cli.output import strict_json

    payload = {
        "answer": [float("inf"), float("-inf"), float("nan"), 1.5],
        "question": "bad \udcff byte, DEL \x7f, C1 \x9b[31m, bidi \u202eevil",
    }
    text = strict_json(payload)
    text.encode("utf-8")  # no lone surrogate left: valid UTF-8
    for raw in ("\x7f", "\x9b", "\u202e", "\udcff"):
        assert raw not in text
    back = json.loads(text, parse_constant=lambda c: pytest.fail(f"non-strict constant {c}"))
    assert back["answer"] == ["inf", "-inf", "nan", 1.5]
    assert back["question"] == "bad \ufffd byte, DEL \x7f, C1 \x9b[31m, bidi \u202eevil"


def test_execute_json_with_a_cell_beyond_float_range_is_strict(tmp_path):
    from typer.testing import CliRunner

    from nsmcli.cli.main import app

    table = tmp_path / "big.csv"
    table.write_text(f"a,b\n{'9' * 400},x\n2,y\n", encoding="utf-8")
    done = CliRunner().invoke(
        app, ["execute", "(argmax all_rows r.a-number) (hop v0 r.a-number)", str(table), "--json"]
    )
    assert done.exit_code == 0, done.output
    assert "Infinity" not in done.stdout
    json.loads(done.stdout, parse_constant=lambda c: pytest.fail(f"non-strict constant {c}"))


LEAGUE = ROOT / "examples" / "tables" / "league.csv"


def test_parse_remember_writes_the_given_answer_to_a_question_file(tmp_path):
    questions = tmp_path / "mine.tsv"
    remember = ("parse", "which team scored the most goals?", str(LEAGUE), "--remember", str(questions))
    proc = nsm(*remember, "--answer", "Greenvale")
    assert proc.returncode == 0, proc.stderr
    assert "remembered: Greenvale" in proc.stdout
    proc = nsm("parse", "--questions", str(questions), "--json")
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)["questions"][0]
    assert record["expected"] == ["Greenvale"] and Path(record["table"]).resolve() == LEAGUE.resolve()
    proc = nsm(*remember, "--answer", "Riverside United", "--json")
    assert json.loads(proc.stdout)["remembered"] == {
        "file": str(questions),
        "answer": ["Riverside United"],
        "replaced": True,
    }
    assert questions.read_text(encoding="utf-8").count("\n") == 2  # the header and the one question


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["q?", str(MEDALS), "--answer", "x"], "--answer goes with --remember"),
        (["q?", "-", "--remember", "OUT"], "--remember needs a table file"),
        (["q?", "https://example.invalid/t.csv", "--remember", "OUT"], "--remember needs a table file"),
        (
            ["q?", str(MEDALS), "--remember", "OUT"],
            "--remember needs --answer TEXT when standard input is not",
        ),
        (["q?", str(MEDALS), "--remember", "OUT", "--json"], "--remember needs --answer TEXT with --json"),
        (["q?", str(MEDALS), "--remember", "OUT", "--answer", " "], "--answer: the answer is empty"),
        (["q?", str(MEDALS), "--remember", "OUT", "--answer", "a|"], "--answer: the answer is empty"),
        (
            ["q?", str(MEDALS), "--remember", "OUT", "--answer", "1", "--encoding", "cp1252"],
            "cannot keep --format",
        ),
        (
            ["q?", str(MEDALS), "--remember", "OUT", "--answer", "1", "--format", "csv"],
            "cannot keep --format",
        ),
        (["q?", "missing.csv", "--remember", "OUT", "--answer", "1"], "it is not a table file"),
    ],
)
def test_parse_remember_faults_are_one_line_and_write_nothing(tmp_path, args, fragment):
    out = tmp_path / "mine.tsv"
    proc = subprocess.run(
        [sys.executable, "-m", "nsmcli", "parse", *(str(out) if a == "OUT" else a for a in args)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert_one_line_error(proc, fragment)
    assert not out.exists()


def test_parse_says_a_choice_was_close_and_runner_up_shows_the_other_answer_exactly_then():
    report = json.loads(nsm("parse", "--questions", "examples/questions.tsv", "--json").stdout)
    records = report["questions"]
    close = [r for r in records if r["runner_up"] and r["runner_up"]["close"]]
    rescued = [r for r in close if r["runner_up_correct"] and not r["correct"]]
    assert report["close_runner_up_correct"] == len(rescued)
    assert close and len(close) < len(records)
    human = nsm("parse", "--questions", "examples/questions.tsv", "--runner-up").stdout
    assert human.count("or, close behind:") == len(close)
    plain = nsm("parse", "--questions", "examples/questions.tsv").stdout
    assert "close behind" not in plain  # the runner-up itself is opt-in; that the choice was close is said
    assert plain.count("a close choice: another answer scored nearly as high") == len(close)
    assert "a close choice" not in human
    for record in close:
        assert f"or, close behind: {record['runner_up']['display'][0]}" in human


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ([""], ["Riverside United"]),
        (["2"], ["Greenvale"]),
        (["x"], None),
        (["  Old Quay | Castle Hill "], ["Old Quay", "Castle Hill"]),
        (["=2"], ["2"]),
        (["=", "7"], ["7"]),  # nothing after = asks again
        ([EOFError], None),
        (["X"], None),
        (["a||b", "c"], ["c"]),  # an empty answer asks again
    ],
)
def test_the_remember_prompt_takes_enter_2_x_or_the_answer_typed(monkeypatch, typed, expected):
    from nsmcli.cli import parse as parse_command
    from nsmcli.parser import Alternative, ParseResult

    runner_up = Alternative(["greenvale"], ["Greenvale"], "(p)", 0.2, None, 0.3, True)
    result = ParseResult(
        "q?", ["riverside united"], "(p0)", 0.8, display=["Riverside United"], runner_up=runner_up
    )
    replies = iter(typed)

    def reply(prompt: str) -> str:
        assert "Enter: Riverside United" in prompt and "2: Greenvale" in prompt
        answer = next(replies)
        if answer is EOFError:
            raise EOFError
        return answer

    monkeypatch.setattr(parse_command.stderr, "input", reply)
    assert parse_command._ask_answer(result, None) == expected


def test_the_remember_prompt_offers_no_runner_up_when_the_choice_was_clear(monkeypatch):
    from nsmcli.cli import parse as parse_command
    from nsmcli.parser import Alternative, ParseResult

    runner_up = Alternative(["greenvale"], ["Greenvale"], "(p)", 0.01, None, 4.0, False)
    result = ParseResult(
        "q?", ["riverside united"], "(p0)", 0.99, display=["Riverside United"], runner_up=runner_up
    )
    prompts = []
    monkeypatch.setattr(parse_command.stderr, "input", lambda prompt: prompts.append(prompt) or "2")
    assert parse_command._ask_answer(result, None) == ["2"]  # typed, since no runner-up was offered
    assert "Greenvale" not in prompts[0]


def test_the_remember_prompt_offers_an_answer_the_answer_check_takes():
    from nsmcli.cli.parse import _checkable
    from nsmcli.parser import ParseResult, answer_matches

    # "in millions": the display says the magnitude, which the check does not read, so the value is offered
    result = ParseResult("q?", [61.35], "(p)", 1.0, display=["61.35 million"])
    assert _checkable(result, None) == ["61.35"] and answer_matches(["61.35"], result)
    cells = ParseResult("q?", ["norway"], "(p)", 1.0, display=["Norway"])
    assert _checkable(cells, None) == ["Norway"]
    assert _checkable(ParseResult("q?", ["a|b"], "(p)", 1.0, display=["a|b"]), None) is None
