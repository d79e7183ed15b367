"""What a user of `nsm` relies on beyond the answers: help, exit codes, one-line errors, quiet, progress
lines off a terminal, and answers printed the way a person reads them. The command runs in-process."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from nsmcli.cli.main import COMMANDS, main
from nsmcli.display import number_text
from nsmcli.progress import LineProgress, make_progress

ROOT = Path(__file__).resolve().parents[1]
MEDALS = ROOT / "examples" / "tables" / "medals.csv"


def run(capsys, *args: str) -> tuple[int, str, str]:
    """`nsm ARGS` in this process: (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as exited:
        main(list(args))
    captured = capsys.readouterr()
    code = exited.value.code
    return (0 if code is None else int(code)), captured.out, captured.err


def one_line_error(capsys, *args: str) -> str:
    """Run a command that must fail with exit code 2 and exactly one line on stderr; return that line."""
    code, out, err = run(capsys, *args)
    lines = err.strip().splitlines()
    assert code == 2, (code, err)
    assert len(lines) == 1, err
    assert "Traceback" not in err and lines[0].startswith("error: ")
    return lines[0]


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# ----- help ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_no_arguments_prints_help_and_exits_0(capsys, command):
    code, out, err = run(capsys, *([command] if command else []))
    assert code == 0, err
    assert out.startswith("Usage: nsm") and "-h, --help" in out and not err


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_reads_well_at_80_columns(capsys, monkeypatch, command):
    """`-h` works, flags show no `<bool>`, no line passes 80 columns, and no option name is cut; the usage
    line reads as click's (`PROGRAM TABLE`, `[RUN2]...`, no `{PROGRAM}`) and types in a user's words (no
    `<list[Path]>` or `<int range>`)."""
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, *([command] if command else []), "-h")
    assert code == 0
    assert "<bool>" not in out and "…" not in out
    usage = out.splitlines()[0]
    assert "{" not in usage and "[[" not in usage, usage
    assert "<list[" not in out and " range>" not in out
    assert max(len(line) for line in out.splitlines()) <= 80, out
    # words break between words, never at their hyphens (`hard-` / `em`, `pristine-` / `seen-tables`)
    assert not [line for line in out.splitlines() if re.search(r"[a-z]-$", line.rstrip())], out
    if command == "explore":
        assert "--budget-seconds-per-question" in out


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_examples_keep_their_lines(capsys, monkeypatch, command):
    """Each example command of a help text starts a line of its own: help does not re-wrap them into one
    paragraph, which a reader cannot copy from."""
    monkeypatch.setenv("COLUMNS", "80")
    function, _ = COMMANDS[command]
    doc = function.__doc__ or ""
    examples = [
        line.strip().rstrip("\\").strip() for line in doc.splitlines() if line.strip().startswith("nsm ")
    ]
    _, out, _ = run(capsys, command, "-h")
    lines = [line.strip() for line in out.splitlines()]
    for example in examples:
        assert any(line.startswith(example) for line in lines), (example, out)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_has_quiet(capsys, command):
    _, out, _ = run(capsys, command, "-h")
    assert "-q, --quiet" in out


def test_shell_completion_is_offered(capsys, monkeypatch):
    _, out, _ = run(capsys, "-h")
    assert "--install-completion" in out and "--show-completion" in out
    # `--show-completion` is a flag that detects the user's shell from the process tree, which a test run
    # from a detached job does not have: say it is bash
    monkeypatch.setattr("typer.completion._get_shell_name", lambda: "bash")
    code, script, _ = run(capsys, "--show-completion")
    assert code == 0 and "_NSM_COMPLETE" in script


# ----- errors: one line, exit 2 --------------------------------------------------------------------------


def test_usage_errors_are_one_line(capsys, tmp_path):
    assert "see nsm train -h" in one_line_error(capsys, "train", "--out", str(tmp_path / "r"))
    assert "--bogus" in one_line_error(capsys, "execute", "--bogus", "(count all_rows)", str(MEDALS))
    assert "nosuch" in one_line_error(capsys, "nosuch")


def test_a_bad_program_is_one_line_and_exit_2(capsys):
    line = one_line_error(capsys, "execute", "(argmax all_rows r.nation-string)", str(MEDALS))
    assert "argmax" in line


def test_an_unknown_column_is_one_line_that_lists_the_columns(capsys):
    line = one_line_error(capsys, "execute", "(hop all_rows r.nope-string)", str(MEDALS))
    assert "unknown column 'r.nope-string'" in line and "columns: r.rank-string" in line


def test_a_string_that_is_not_a_question_entity_says_how_to_fix_it(capsys):
    program = '(filter_str_contain_any all_rows "kenya" r.nation-string) (count v0)'
    line = one_line_error(capsys, "execute", program, str(MEDALS))
    assert "not an entity" in line and '--question "..."' in line
    code, out, _ = run(capsys, "execute", program, str(MEDALS), "--question", "how many are kenya?")
    assert code == 0 and "answer: 1" in out


# ----- answers as a person reads them --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (20.200000000000003, "20.2"),
        (5.0, "5"),
        (0.30000000000000004, "0.3"),
        (2.9999999999999996, "3"),
        (7.636363636363637, "7.636364"),
        (123456.78000000001, "123456.78"),
        (-3.5, "-3.5"),
        (-0.0, "0"),
        (1234567890123456.0, "1234567890123456"),
        (3, "3"),
    ],
)
def test_computed_numbers_are_rounded_for_reading(value, text):
    assert number_text(value) == text


def test_execute_shows_computed_answers_rounded_and_cells_as_written(capsys, tmp_path):
    table = write(tmp_path / "t.csv", 'Item,Price,Note\na,10.1,\nb,10.1,"$1,234.50 total"\nc,0.1,x\n')
    code, out, _ = run(capsys, "execute", "(sum all_rows r.price-number)", str(table))
    assert code == 0 and "answer: 20.3" in out and "20.30000" not in out
    _, out, _ = run(capsys, "execute", "(count all_rows)", str(table))
    assert "answer: 3\n" in out
    _, out, _ = run(capsys, "execute", "(argmin all_rows r.price-number) (hop v0 r.note-string)", str(table))
    assert "answer: x" in out
    # an empty cell is said, not left blank
    _, out, _ = run(capsys, "execute", "(first all_rows) (hop v0 r.note-string)", str(table))
    assert re.search(r"^answer: \(empty cell\)$", out, re.M), out
    assert "string_list: (empty cell)" in out  # and in the steps table too
    _, out, _ = run(capsys, "execute", "(first all_rows) (hop v0 r.note-string)", str(table), "--json")
    assert json.loads(out)["display"] == [""] and json.loads(out)["answer"] == [""]


@pytest.mark.parametrize(
    ("cells", "program", "shown"),
    [
        (["$1,234.50", "$299.88", "$86.12"], "(sum all_rows r.v-number)", "$1,620.50"),
        (["$1,234.50", "$299.88", "$86.12"], "(average all_rows r.v-number)", "$540.17"),
        (["18,204", "21,332", "9,870"], "(sum all_rows r.v-number)", "49,406"),
        (["18,204", "21,332", "9,870"], "(average all_rows r.v-number)", "16,468.67"),
        (["-2.73%", "1.50%", "0.40%"], "(sum all_rows r.v-number)", "-0.83%"),
        (["12", "7", "8"], "(average all_rows r.v-number)", "9"),
        # a total below zero keeps its sign before the symbol
        (["-$10.00", "-$5.50", "$1.00"], "(sum all_rows r.v-number)", "-$14.50"),
        (
            ["$10.00", "$25.50", "$1.00"],
            '(filter_str_contain_any all_rows "alpha" r.k-string) '
            '(filter_str_contain_any all_rows "beta" r.k-string) (diff v0 v1 r.v-number)',
            "$15.50",
        ),
        # no one style (European decimals, mixed symbols): the plain rounded number
        (["1.234,50", "2.000,00", "3,10"], "(sum all_rows r.v-number)", None),
        (["$10", "€20", "$5"], "(sum all_rows r.v-number)", "35"),
    ],
)
def test_computed_numbers_are_written_as_their_column_writes_quantities(
    capsys, tmp_path, cells, program, shown
):
    """A sum of dollar cells is shown in dollars with thousands separators, an average to two decimals; a
    count is a plain number, and the exact value stays in `answer`."""
    rows = "\n".join(f'{k},"{c}"' for k, c in zip(("alpha", "beta", "gamma"), cells, strict=True))
    table = write(tmp_path / "t.csv", f"K,V\n{rows}\n")
    code, out, err = run(capsys, "execute", program, str(table), "--question", "alpha minus beta", "--json")
    assert code == 0, err
    payload = json.loads(out)
    if shown is None:
        assert payload["display"] == [number_text(payload["answer"][0])]
    else:
        assert payload["display"] == [shown]
    _, out, _ = run(capsys, "execute", "(count all_rows)", str(table), "--json")
    assert json.loads(out)["display"] == ["3"]


def test_a_number_read_out_of_a_longer_cell_shows_the_number_not_the_cell(capsys, tmp_path):
    """A score `3–1` holds two numbers: `r.score-number` reads 3, and 3 is what is shown (the WikiSQL model
    once printed a whole cell, `03/15/2024`, for the number 3 it had read out of it)."""
    table = write(tmp_path / "games.csv", "Game,Score\n1,3–1\n2,4–0\n")
    args = ("execute", "(hop all_rows r.score-number)", str(table), "--language", "wikisql")
    code, out, _ = run(capsys, *args)
    assert code == 0 and "answer: 3, 4" in out and "3–1" not in out.split("answer:")[1]
    payload = json.loads(run(capsys, *args, "--json")[1])
    assert payload["answer"] == [3.0, 4.0] and payload["display"] == ["3", "4"]


def test_json_numbers_read_as_written(capsys, tmp_path):
    """A count is 10, not 10.0, and a sum of 0.1 and 0.2 is 0.3, not 0.30000000000000004."""
    table = write(tmp_path / "v.csv", "Name,Val\na,0.1\nb,0.2\nc,7\n")
    out = run(
        capsys,
        "execute",
        "(filter_less all_rows 1 r.val-number) (sum v0 r.val-number)",
        str(table),
        "--question",
        "less than 1",
        "--json",
    )[1]
    assert '"answer": [\n    0.3\n  ]' in out and json.loads(out)["answer"] == [0.3]
    out = run(capsys, "execute", "(count all_rows)", str(table), "--json")[1]
    assert '"answer": [\n    3\n  ]' in out


def test_execute_json_and_python_results_use_the_same_names(capsys):
    from dataclasses import fields

    from nsmcli.parser import ParseResult

    code, out, _ = run(
        capsys, "execute", "(argmax all_rows r.gold-number) (hop v0 r.nation-string)", str(MEDALS), "--json"
    )
    execute_keys = set(json.loads(out))
    python_keys = {f.name for f in fields(ParseResult)}
    assert {"answer", "display", "program", "steps", "sql", "warnings"} <= execute_keys & python_keys
    assert "answer_cells" not in execute_keys | python_keys


def test_quiet_silences_warnings_but_json_keeps_them(capsys, tmp_path):
    wide = write(
        tmp_path / "wide.csv",
        ",".join(f"c{i}" for i in range(40)) + "\n" + ",".join(str(i) for i in range(40)) + "\n",
    )
    _, _, err = run(capsys, "execute", "(count all_rows)", str(wide))
    assert "warning:" in err
    code, out, err = run(capsys, "execute", "(count all_rows)", str(wide), "--quiet", "--json")
    assert code == 0 and err == "" and json.loads(out)["warnings"]


# ----- progress off a terminal ---------------------------------------------------------------------------


def test_progress_off_a_terminal_is_a_line_every_interval(monkeypatch):
    monkeypatch.setenv("NSM_PROGRESS_SECONDS", "0")
    sink = io.StringIO()
    progress = make_progress(Console(file=sink, force_terminal=False), lazy=True)
    assert isinstance(progress, LineProgress)
    progress.start()
    task = progress.add_task("training", total=4, status="")
    for step in range(1, 5):
        progress.update(task, completed=step, status=f"loss {1 / step:.2f}")
    progress.stop()
    lines = sink.getvalue().splitlines()
    assert "\x1b" not in sink.getvalue()
    assert re.fullmatch(r"\d\d:\d\d:\d\d training 1/4 \(25\.0%\) loss 1\.00, 0:00:00 elapsed.*", lines[0])
    assert lines[-1].split(" ", 1)[1].startswith("training 4/4 (100.0%) loss 0.25")


def test_progress_lines_wait_for_the_interval(monkeypatch):
    monkeypatch.setenv("NSM_PROGRESS_SECONDS", "3600")
    sink = io.StringIO()
    progress = make_progress(Console(file=sink, force_terminal=False))
    task = progress.add_task("explore", total=2, status="")
    progress.advance(task)
    progress.advance(task)
    progress.stop()
    assert sink.getvalue() == ""  # work shorter than the interval prints nothing


def test_long_commands_print_progress_lines_on_stderr_and_keep_json_clean(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("NSM_PROGRESS_SECONDS", "0")
    args = ("preprocess", "wtq", "--data-dir", str(ROOT / "examples" / "mini-wtq"), "--json")
    code, out, err = run(capsys, *args, "--out", str(tmp_path / "a"))
    assert code == 0 and json.loads(out)["examples"] == {"training": 4}
    assert "annotating 4/4 (100.0%)" in err and "\x1b" not in err
    code, out, err = run(capsys, *args, "--out", str(tmp_path / "b"), "--quiet")
    assert code == 0 and err == "" and json.loads(out)["tables"] == 1


def test_a_bad_progress_interval_is_one_line(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("NSM_PROGRESS_SECONDS", "often")
    args = (
        "preprocess",
        "wtq",
        "--data-dir",
        str(ROOT / "examples" / "mini-wtq"),
        "--out",
        str(tmp_path / "o"),
    )
    assert "NSM_PROGRESS_SECONDS" in one_line_error(capsys, *args)


def test_execute_with_an_unreadable_string_literal_is_one_line_not_an_internal_error(capsys):
    """Found by fuzzing: a raw control character or a bad escape in a quoted string was exit 1."""
    for program in ['(filter_eq all_rows "a\x11b" r.nation-string)', '(hop "x\\q")']:
        assert "bad string literal" in one_line_error(capsys, "execute", program, str(MEDALS))


def test_execute_and_help_run_without_torch():
    """`nsm execute` and `nsm -h` need no model, so they never import torch (most of a cold start)."""
    code = (
        "import sys\n"
        "sys.modules['torch'] = None  # what `import torch` sees where it cannot be imported\n"
        "from nsmcli.cli.main import main\n"
        "main(sys.argv[1:])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "execute", "(count all_rows)", str(MEDALS), "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["display"] == ["11"]
    helped = subprocess.run([sys.executable, "-c", code, "-h"], capture_output=True, text=True, timeout=300)
    assert helped.returncode == 0 and "parse" in helped.stdout


def test_a_profiled_command_still_writes_its_profile(tmp_path):
    """The console command ends parse and execute without the interpreter's teardown, except where a
    profiler (or tracer) would write its output then."""
    profile = tmp_path / "execute.prof"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cProfile",
            "-o",
            str(profile),
            "-m",
            "nsmcli",
            "execute",
            "(count all_rows)",
            str(MEDALS),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "answer: 11" in done.stdout and profile.stat().st_size > 0


def test_a_closed_pipe_ends_quietly_with_the_shells_code():
    """`nsm execute ... | head -1`: the reader closed the pipe; no traceback, no error line, exit 141."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # every write to the pipe now fails with EPIPE
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "nsmcli", "execute", "(hop all_rows r.nation-string)", str(MEDALS)],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
        )
    finally:
        os.close(write_end)
    assert proc.returncode == 141 and proc.stderr == ""
