"""Either-or questions ("which won more gold, germany or kenya?"): exploration finds the comparison, which
its one derivation per row set hides behind the shorter echo of one side, and an echo earns no reward."""

from __future__ import annotations

from pathlib import Path

import pytest

from nsmcli.worlds.tables.data.annotate import annotate_question
from nsmcli.worlds.tables.data.checkers import WtqChecker
from nsmcli.worlds.tables.data.preprocess import load_dataset
from nsmcli.worlds.tables.data.table import Table
from nsmcli.worlds.tables.lang import program as P
from nsmcli.worlds.tables.lang.choices import echoes_a_choice
from nsmcli.worlds.tables.lang.interpreter import bind
from nsmcli.worlds.tables.search.explore import explore
from tests.test_train import preprocessed_wtq

ROWS = [["Germany", "3", "1"], ["Kenya", "2", "5"], ["France", "1", "0"], ["Peru", "0", "2"]]
COMPARISON = (
    '(filter_str_contain_any all_rows ["germany" "kenya"] r.nation-string) (argmax v0 r.gold-number) '
    "(hop v1 r.nation-string)"
)
ECHO = '(filter_str_contain_any all_rows "germany" r.nation-string) (hop v0 r.nation-string)'


@pytest.fixture()
def table() -> Table:
    return Table.from_rows("t", ["Nation", "Gold", "Silver"], ROWS)


def test_exploration_finds_the_comparison_and_drops_the_echo(table: Table) -> None:
    env = bind(
        "wtq", table, annotate_question("which nation won more gold, germany or kenya?", table).entities
    )
    programs = explore(env, WtqChecker(["Germany"])).programs
    assert programs[0] == COMPARISON
    assert ECHO not in programs and all("[" in p for p in programs)
    # without a choice the same answer keeps its short program
    env = bind("wtq", table, annotate_question("which nation is germany?", table).entities)
    assert ECHO in explore(env, WtqChecker(["Germany"])).programs


def test_an_echo_is_one_side_of_the_choice_named_and_answered(table: Table) -> None:
    env = bind("wtq", table, annotate_question("which won more gold, germany or kenya?", table).entities)

    def echoes(text: str) -> bool:
        return echoes_a_choice(env, P.Program.parse(text), env.execute(text).answer)

    assert echoes(ECHO)
    assert not echoes(COMPARISON)
    assert not echoes("(argmax all_rows r.gold-number) (hop v0 r.nation-string)")  # names no side
    kenya = '(filter_str_contain_any all_rows "kenya" r.nation-string) (hop v0 r.silver-number)'
    assert not echoes(kenya)  # answers no side


def test_the_training_reward_gives_an_echo_nothing(tmp_path: Path) -> None:
    tables = {"0": [["Nation", "Gold", "Silver"], *ROWS]}
    questions = [("nt-0", "which won more gold, germany or kenya?", "0", "Germany")]
    splits = {"random-split-1-train": questions, "random-split-1-dev": questions}
    dataset = load_dataset(preprocessed_wtq(tmp_path, tables, splits))
    (example,) = dataset.examples("random-split-1-train")
    env = dataset.bind(example)
    score = dataset.scorer(example, env)
    assert score(env.encode(COMPARISON)) == (1.0, True)
    assert score(env.encode(ECHO)) == (0.0, True)


def test_a_side_whose_filter_keeps_the_other_side_can_still_compare() -> None:
    rows = [["Kenya Rep", "1", "1"], ["Kenya", "4", "0"], ["Peru", "0", "2"]]
    table = Table.from_rows("t", ["Nation", "Gold", "Silver"], rows)
    env = bind("wtq", table, annotate_question("which won more gold, kenya rep or kenya?", table).entities)

    def echoes(text: str) -> bool:
        return echoes_a_choice(env, P.Program.parse(text), env.execute(text).answer)

    # "kenya" also keeps the "Kenya Rep" row, so ranking after it compares both sides
    compare = '(filter_str_contain_any all_rows "kenya" r.nation-string) ({} v0 r.gold-number) (hop v1 r.nation-string)'
    assert env.execute(compare.format("argmax")).answer == ["kenya"]
    assert not echoes(compare.format("argmax"))
    assert not echoes(compare.format("argmin"))  # answers "kenya rep"
    # "kenya rep" keeps only its own row: answering it is an echo
    assert echoes('(filter_str_contain_any all_rows "kenya rep" r.nation-string) (hop v0 r.nation-string)')
