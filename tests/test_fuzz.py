"""Fuzzing (issue 20): hostile tables, questions, program texts and command lines never end in an internal
error or a traceback. Each input either succeeds or fails cleanly: an `NsmError` from the Python API, exit
code 2 with one line on stderr from the CLI; `--json` output is strict JSON without raw control or bidi
characters. A few hundred examples here; `bench/fuzz.py` runs the same targets for many more."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from nsmcli.parser import Parser
from tests import fuzzing

FUZZ = settings(
    max_examples=60,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture(scope="module")
def parser() -> Parser:
    return Parser.load("wtq")


@FUZZ
@given(fuzzing.STRATEGIES["readers"])
def test_table_readers_fail_cleanly(case):
    fuzzing.check_reader(case)


@FUZZ
@given(fuzzing.STRATEGIES["stdin"])
def test_table_readers_fail_cleanly_on_standard_input(case):
    fuzzing.check_stdin_reader(case)


@FUZZ
@given(fuzzing.STRATEGIES["url"])
def test_table_readers_fail_cleanly_on_urls(case):
    """Served by a loopback server this process starts: hostile statuses, types, charsets and lengths."""
    fuzzing.check_url_reader(case)


@FUZZ
@given(fuzzing.STRATEGIES["annotator"])
def test_annotator_fails_cleanly(case):
    fuzzing.check_annotator(case)


@FUZZ
@given(fuzzing.STRATEGIES["interpreter"])
def test_interpreter_fails_cleanly_on_any_program_text(case):
    fuzzing.check_interpreter(case)


@settings(
    FUZZ,
    max_examples=40,
    suppress_health_check=[*FUZZ.suppress_health_check, HealthCheck.function_scoped_fixture],
)
@given(case=fuzzing.STRATEGIES["parser"])
def test_parser_fails_cleanly(parser, case):
    fuzzing.check_parser(parser, case)


@settings(FUZZ, max_examples=40)
@given(fuzzing.STRATEGIES["cli"])
def test_cli_parse_and_execute_exit_0_or_2_with_one_line(case):
    fuzzing.check_cli(case)
