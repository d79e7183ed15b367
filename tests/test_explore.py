"""Systematic exploration: exact program sets on hand-made tables, agreement with a brute-force walk over
the interpreter's valid tokens, trigger words, ranking and the cap, and resumable whole-split runs."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nsmcli.errors import DataError
from nsmcli.worlds.tables.data.checkers import AnswerChecker, WikisqlChecker, WtqChecker
from nsmcli.worlds.tables.data.evaluate import wikisql_correct, wtq_correct
from nsmcli.worlds.tables.data.preprocess import preprocess
from nsmcli.worlds.tables.data.table import Table
from nsmcli.worlds.tables.lang.functions import REGISTRY
from nsmcli.worlds.tables.lang.interpreter import END, OPEN, bind, has_unused_result
from nsmcli.worlds.tables.lang.spec import Limits, get_language
from nsmcli.worlds.tables.search import runner as runner_module  # whose `explore_example` a test replaces
from nsmcli.worlds.tables.search.explore import (
    ROWWISE_FILTERS,
    allowed_functions,
    check_program,
    explore,
    program_score,
)
from nsmcli.worlds.tables.search.runner import run_exploration

FIXTURES = Path(__file__).parent / "fixtures"


def medals() -> Table:
    lines = (FIXTURES / "medals.csv").read_text(encoding="utf-8").splitlines()
    rows = [line.split(",") for line in lines]
    return Table.from_rows("medals", rows[0], rows[1:])


def tiny() -> Table:
    return Table.from_rows("tiny", ["Nation", "Gold"], [["Turkey", "3"], ["Greece", "5"], ["Italy", "1"]])


def finished_programs(env) -> list[tuple[str, list]]:
    """Every finished program without an unused result and its answer, by depth-first search over
    `valid_tokens` (what a decoder can emit)."""
    out: list[tuple[str, list]] = []

    def walk(state):
        for token in env.valid_tokens(state):
            nxt = env.step(state, token)
            if nxt.error:
                continue
            if nxt.done:
                result = env.result(nxt)
                if result.ok and not has_unused_result(nxt, env):
                    out.append((str(env.decode(nxt.tokens)), result.answer))
            else:
                walk(nxt)

    walk(env.initial_state())
    return out


def brute_force(env, is_correct, programs=None) -> set[str]:
    """Every consistent program (optionally from precomputed `finished_programs`)."""
    return {text for text, answer in (programs or finished_programs(env)) if is_correct(answer)}


def assert_consistent(env, programs, is_correct) -> None:
    for p in programs:
        assert check_program(env, p, is_correct) is None, p
        result = env.execute(p)
        assert result.ok and is_correct(result.answer), p


# ----- exact sets -----------------------------------------------------------------------------------------


def test_exact_set_on_a_tiny_table():
    env = bind("wtq", tiny(), [("string", ("turkey",))], limits=Limits(2, 60))
    allowed = {"hop", "argmax", "argmin", "filter_str_contain_any", "count"}
    check = WtqChecker(["Greece"])
    result = explore(env, check, allowed_functions=allowed)
    assert result.programs == ["(argmax all_rows r.gold-number) (hop v0 r.nation-string)"]
    assert result.n_found == 1 and result.stats.exhausted
    check = WtqChecker(["Turkey"])
    assert explore(env, check, allowed_functions=allowed).programs == [
        '(filter_str_contain_any all_rows "turkey" r.nation-string) (hop v0 r.nation-string)'
    ]
    # answer 3: count all rows, or Turkey's gold (3) through either view of the column
    assert explore(env, WtqChecker(["3"]), allowed_functions=allowed).programs == [
        "(count all_rows)",
        '(filter_str_contain_any all_rows "turkey" r.nation-string) (hop v0 r.gold-string)',
        '(filter_str_contain_any all_rows "turkey" r.nation-string) (hop v0 r.gold-number)',
    ]


def test_merging_by_denotation_keeps_one_derivation_preferring_entities():
    # the Japan row alone is reached by (filter_eq all_rows 1994 r.year-number), (argmin all_rows
    # r.silver-number), (filter_eq all_rows 3 r.rank-number)...: one canonical derivation is kept, the one
    # using a question entity
    env = bind("wtq", medals(), [("string", ("turkey",)), ("number", (5.0,)), ("number", (1994.0,))])
    check = WtqChecker(["Japan"])
    result = explore(env, check, max_programs=1000)
    assert_consistent(env, result.programs, check)
    two = [p for p in result.programs if p.count("(") == 2 and p.endswith("(hop v0 r.nation-string)")]
    assert two == ["(filter_eq all_rows 1994 r.year-number) (hop v0 r.nation-string)"]
    assert len(brute_force_two(env, check)) > 1


def brute_force_two(env, check) -> list[str]:
    limited = bind(
        "wtq",
        env.table,
        [(a.kind, a.values) for a in env.constant_args if hasattr(a, "kind")],
        limits=Limits(2, 60),
    )
    return [p for p in brute_force(limited, check) if p.endswith("(hop v0 r.nation-string)")]


def tiny_env(max_expressions: int):
    table = Table.from_rows("t", ["Nation", "Gold"], [["Turkey", "3"], ["Greece", "5"], ["Italy", "1"]])
    return bind(
        "wtq", table, [("string", ("turkey",)), ("number", (3.0,))], limits=Limits(max_expressions, 60)
    )


def medals_env():
    entities = [("string", ("turkey",)), ("number", (5.0,)), ("date", ("1992-xx-xx",))]
    return bind("wtq", medals(), entities, limits=Limits(2, 60))


def wikisql_env():
    table = Table.from_rows(
        "w",
        ["Player", "Team", "Points"],
        [["Ann", "Red", "10"], ["Bob", "Blue", "12"], ["Cid", "Red", "7"]],
        column_types=["text", "text", "real"],
    )
    return bind("wikisql", table, [("string", ("red",)), ("number", (8.0,))], limits=Limits(3, 60))


@pytest.mark.parametrize(
    "make_env",
    [lambda: tiny_env(2), lambda: tiny_env(3), medals_env, wikisql_env],
    ids=["tiny-2", "tiny-3", "medals-2", "wikisql-3"],
)
def test_agrees_with_brute_force_over_valid_tokens(make_env):
    env = make_env()
    programs = finished_programs(env)
    # every answer some program reaches (but lists of rows, which explore never outputs, except no rows
    # where the language declares it: WikiSQL), and one that none reaches
    answers = sorted(
        {tuple(str(x) for x in a) for _, a in programs if not a or not str(a[0]).startswith("row ")}
    )
    answers.append(("nobody",))
    assert len(answers) > 10
    wikisql = env.spec.name == "wikisql"
    assert (() in answers) == wikisql
    for answer in answers:
        check = WikisqlChecker(answer) if wikisql else WtqChecker(answer)
        expected = brute_force(env, check, programs)
        result = explore(env, check, max_programs=10_000)
        assert set(result.programs) <= expected, answer
        assert bool(result.programs) == bool(expected), answer  # merging never loses a reachable answer
        assert result.n_found <= len(expected)
        assert_consistent(env, result.programs, check)


def test_programs_with_several_intermediate_results_are_reachable():
    env = bind("wtq", medals(), [("string", ("turkey",)), ("string", ("france",))])
    # diff of two single rows (Turkey 5 gold, France 2 gold)
    result = explore(env, WtqChecker(["3"]), max_programs=1000)
    turkey = '(filter_str_contain_any all_rows "turkey" r.nation-string)'
    france = '(filter_str_contain_any all_rows "france" r.nation-string)'
    assert {
        f"{turkey} {france} (diff v0 v1 r.gold-number)",
        f"{france} {turkey} (diff v0 v1 r.gold-number)",
    } & set(result.programs)
    # a filter on a computed value: the rows whose gold equals the maximum
    result = explore(env, WtqChecker(["1990"]), max_programs=1000)
    assert (
        "(maximum all_rows r.gold-number) (filter_eq all_rows v0 r.gold-number) (hop v1 r.year-number)"
    ) in result.programs or "(argmax all_rows r.gold-number) (hop v0 r.year-number)" in result.programs
    # shared sub-result: v1 is computed from v0 and both feed diff (Turkey 1992 and the next row, 1994)
    env = bind("wtq", medals(), [("string", ("turkey",))], limits=Limits(3, 60))
    result = explore(
        env,
        WtqChecker(["2"]),
        max_programs=10_000,
        allowed_functions={"filter_str_contain_any", "next", "diff"},
    )
    assert (
        '(filter_str_contain_any all_rows "turkey" r.nation-string) (next v0) (diff v0 v1 r.year-number)'
        in result.programs
    )
    assert_consistent(env, result.programs, WtqChecker(["2"]))


def test_wikisql_programs_use_four_expressions_and_ordered_answers():
    table = Table.from_rows(
        "w",
        ["Player", "Team", "Points", "Year"],
        [
            ["Ann", "Red", "10", "2001"],
            ["Bob", "Blue", "12", "2001"],
            ["Cid", "Red", "7", "2002"],
            ["Dee", "Red", "12", "2001"],
            ["Eve", "Blue", "3", "2002"],
        ],
        column_types=["text", "text", "real", "real"],
    )
    env = bind("wikisql", table, [("string", ("red",)), ("number", (2001.0,)), ("number", (8.0,))])
    gold = ["Ann", "Dee"]
    check = WikisqlChecker(gold)
    result = explore(env, check, max_programs=100)
    assert_consistent(env, result.programs, lambda a: wikisql_correct(gold, a))
    assert any(p.count("(") == 3 for p in result.programs)  # red, 2001, then hop
    three_filters = WikisqlChecker(["Ann"])
    result = explore(env, three_filters, max_programs=1000)
    assert result.programs and all(wikisql_correct(["Ann"], env.execute(p).answer) for p in result.programs)
    # order matters for WikiSQL, and `hop` keeps row order: the reversed list is not reachable
    assert explore(env, WikisqlChecker(["Dee", "Ann"])).programs == []


def test_wikisql_programs_state_every_condition_the_table_makes_redundant():
    """ "Which player of the Red team scored 12 points?": on this table "12" alone selects Dee, so merging
    by denotation never derives the two-filter program; exploration states the team too, keeps only the
    programs that use both entities, and each of them still answers Dee."""
    table = Table.from_rows(
        "w",
        ["Player", "Team", "Points"],
        [["Ann", "Red", "10"], ["Bob", "Blue", "11"], ["Cid", "Red", "7"], ["Dee", "Red", "12"]],
        column_types=["text", "text", "real"],
    )
    env = bind("wikisql", table, [("string", ("red",)), ("number", (12.0,))])
    programs = explore(env, WikisqlChecker(["Dee"])).programs
    assert programs
    assert_consistent(env, programs, lambda a: wikisql_correct(["Dee"], a))
    assert all('"red"' in p and " 12 " in p for p in programs)
    assert (
        '(filter_str_contain_any all_rows "red" r.team-string) (filter_eq v0 12 r.points-number) '
        "(hop v1 r.player-string)"
    ) in programs
    # the same search where the language does not declare it keeps the one-filter program
    plain = bind("wikisql", table, [("string", ("red",)), ("number", (12.0,))])
    plain.spec = dataclasses.replace(plain.spec, state_every_condition=False)
    assert explore(plain, WikisqlChecker(["Dee"])).programs[0] == (
        "(filter_eq all_rows 12 r.points-number) (hop v0 r.player-string)"
    )


# ----- checkers -------------------------------------------------------------------------------------------


def test_checkers_agree_with_the_official_evaluators():
    rng = random.Random(0)
    items = ["1", "1.0", "2", "turkey", "Turkey", "1990", "1990-xx-xx", "3 km", 3.0, 1.0, 2.5, "2.5", "x"]
    targets = [(["1"], None), (["Turkey"], None), (["3 km"], ["3.0"]), (["1990"], None), (["2.5", "x"], None)]
    for values, canon in targets:
        check = WtqChecker(values, canon)
        for _ in range(300):
            answer = rng.sample(items, rng.randint(0, 3))
            assert check(answer) == wtq_correct(values, canon, answer), (values, answer)
            if check(answer):  # the hints are necessary conditions
                covered = 0
                for a in answer:
                    covered |= check.item_targets(a)
                assert covered == (1 << check.n_targets) - 1
    for gold in (["a", "B"], [3.0], ["3"], [None, "x"]):
        check = WikisqlChecker(gold)
        for _ in range(300):
            answer = rng.sample(["a", "b", "B", 3.0, "3", "x", 3, "c"], rng.randint(0, 3))
            assert check(answer) == wikisql_correct(gold, answer), (gold, answer)


def test_rowwise_filters_are_intersections():
    env = bind("wtq", medals(), [("string", ("an",)), ("number", (5.0,)), ("date", ("1992-xx-xx",))])
    rng = random.Random(1)
    lists = [(t, v) for t, v in env.constants if t.endswith("_list")]
    props = [v for t, v in env.constants if t.endswith("_property")]
    for name in ROWWISE_FILTERS:
        fn = REGISTRY[name]
        for larg in lists:
            for prop in props:
                try:
                    whole = fn.apply(env, (env.all_rows, larg, prop))[1]
                except Exception:
                    with pytest.raises(Exception):  # noqa: B017 - the type error happens on any row set
                        fn.apply(env, (rng.randrange(1, env.all_rows + 1), larg, prop))
                    continue
                for _ in range(20):
                    rows = rng.randrange(1, env.all_rows + 1)
                    assert fn.apply(env, (rows, larg, prop))[1] == rows & whole


def test_goal_directed_pruning_changes_nothing():
    env = bind("wtq", medals(), [("string", ("turkey",)), ("number", (5.0,)), ("number", (1994.0,))])
    for answer in (["Japan"], ["2"], ["5"], ["Turkey", "Japan"], ["3"], ["1994"], ["6"]):
        fast = explore(env, WtqChecker(answer), max_programs=10_000)
        plain = explore(env, lambda a, answer=answer: wtq_correct(answer, None, a), max_programs=10_000)
        assert fast.programs == plain.programs and fast.n_found == plain.n_found, answer
        assert fast.stats.evaluated <= plain.stats.evaluated


# ----- trigger words, ranking, budget ---------------------------------------------------------------------


def test_trigger_words():
    spec = get_language("wtq")
    allowed = allowed_functions(spec, ["how", "many", "nations", "won", "gold", "?"], ["WRB", "JJ", "NNS"])
    assert "count" in allowed and {"hop", "filter_eq", "filter_str_contain_any"} <= allowed
    assert not {"argmax", "sum", "diff", "same", "next"} & allowed
    allowed = allowed_functions(
        spec, ["which", "nation", "won", "the", "most", "gold"], ["WDT", "NN", "VBD", "DT", "JJS"]
    )
    assert {"argmax", "maximum", "mode", "filter_le"} <= allowed and "count" not in allowed
    env = bind("wtq", medals(), [("string", ("turkey",))])
    after_turkey = (
        '(filter_str_contain_any all_rows "turkey" r.nation-string) (next v0) (hop v1 r.nation-string)'
    )
    restricted = explore(env, WtqChecker(["Japan"]), allowed_functions={"hop", "filter_str_contain_any"})
    assert after_turkey not in restricted.programs and all("next" not in p for p in restricted.programs)
    allowed = allowed_functions(spec, ["who", "came", "after", "turkey"], ["WP", "VBD", "IN", "NNP"])
    assert "next" in allowed
    result = explore(env, WtqChecker(["Japan"]), allowed_functions=allowed, max_programs=100)
    assert after_turkey in result.programs
    assert all(
        f"({name} " not in p for p in result.programs for name in {f.name for f in spec.functions} - allowed
    )


def test_cap_and_ranking():
    env = bind("wtq", medals(), [("string", ("turkey",)), ("number", (5.0,))])
    check = WtqChecker(["2"])  # many row sets have two rows: a spurious-rich count question
    result = explore(env, check, max_programs=5)
    assert len(result.programs) == 5 and result.n_found > 5
    full = explore(env, check, max_programs=10_000)
    assert full.n_found == result.n_found and full.programs[:5] == result.programs
    scores = []
    for p in full.programs:
        n_exprs = p.count("(")
        ents = p.count('"turkey"') + p.count(" 5 ")
        scores.append(program_score(n_exprs, ents, 0))
    assert scores == sorted(scores)
    two = [p for p in full.programs if p.count("(") == 2]
    with_entities = ["turkey" in p or " 5 " in p for p in two]
    assert with_entities == sorted(with_entities, reverse=True)  # entities first among equal lengths
    assert "(filter_eq all_rows 5 r.gold-number) (count v0)" in two
    # columns named in the question break ties
    preferred = explore(env, check, max_programs=10_000, preferred_columns=["r.silver-number"])
    # the same programs up to which derivation an intermediate result keeps
    assert preferred.n_found == full.n_found and len(preferred.programs) == len(full.programs)
    ranked = [p for p in preferred.programs if p.count("(") == 2 and " 5 " in p and "turkey" not in p]
    silver = [i for i, p in enumerate(ranked) if "silver" in p]
    assert silver and silver == list(range(len(silver)))


def test_budget_stops_the_search():
    env = bind("wtq", medals(), [("string", ("turkey",)), ("number", (5.0,))])
    result = explore(env, WtqChecker(["2"]), max_evaluations=50)
    assert not result.stats.exhausted and result.stats.evaluated <= 51
    assert explore(env, WtqChecker(["2"])).stats.exhausted


# ----- whole splits -----------------------------------------------------------------------------------------

QUESTIONS = [
    ("which nation came after turkey?", "Japan"),
    ("how many nations won 5 gold medals?", "2"),
    ("what year did japan win?", "1994"),
    ("which nation won the most gold?", "United States"),
    ("how many silver medals did turkey win?", "7"),
    ("who had the fewest gold medals?", "Kenya"),
    ("what was the score for france?", "1–0"),
    ("how many nations are listed?", "5"),
    ("which nation has no answer here?", "Atlantis"),
    ("what is the difference in gold between turkey and france?", "3"),
]


@pytest.fixture(scope="module")
def mini_dataset(tmp_path_factory) -> Path:
    raw = tmp_path_factory.mktemp("raw")
    (raw / "csv" / "200-csv").mkdir(parents=True)
    (raw / "csv" / "200-csv" / "0.csv").write_text(
        "\n".join(
            ",".join(f'"{c}"' for c in line.split(","))
            for line in (FIXTURES / "medals.csv").read_text(encoding="utf-8").splitlines()
        )
        + "\n",
        encoding="utf-8",
    )
    (raw / "data").mkdir()
    lines = ["id\tutterance\tcontext\ttargetValue"]
    lines += [f"q-{i}\t{q}\tcsv/200-csv/0.csv\t{a}" for i, (q, a) in enumerate(QUESTIONS)]
    (raw / "data" / "mini-train.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path_factory.mktemp("pre") / "mini"
    preprocess("wtq", raw, out)
    return out


def test_run_exploration_writes_a_deterministic_report(mini_dataset, tmp_path):
    out1 = tmp_path / "a.jsonl"
    report = run_exploration(mini_dataset, "mini-train", out1, quiet=True)
    records = [json.loads(line) for line in out1.read_text().splitlines()]
    assert [r["id"] for r in records] == [f"q-{i}" for i in range(len(QUESTIONS))]
    assert report["questions"] == len(QUESTIONS) and report["covered"] == sum(
        bool(r["programs"]) for r in records
    )
    assert 0.5 <= report["coverage"] < 1.0  # Atlantis is unreachable
    assert json.loads((tmp_path / "a.report.json").read_text())["coverage"] == report["coverage"]
    assert "oracle_coverage" not in report
    assert not (tmp_path / "a.jsonl.partial").exists()
    out2 = tmp_path / "b.jsonl"
    run_exploration(mini_dataset, "mini-train", out2, workers=2, quiet=True)
    assert out2.read_bytes() == out1.read_bytes()
    # rerunning a finished run does nothing and returns its report, marked as reused
    again = run_exploration(mini_dataset, "mini-train", out1, quiet=True)
    assert again["seconds"] == report["seconds"] and again["reused"]
    assert "reused" not in json.loads((tmp_path / "a.report.json").read_text())


def test_an_output_of_an_older_search_is_searched_again(mini_dataset, tmp_path, monkeypatch):
    out = tmp_path / "a.jsonl"
    first = run_exploration(mini_dataset, "mini-train", out, quiet=True)
    monkeypatch.setattr(runner_module, "SEARCH_VERSION", runner_module.SEARCH_VERSION + 1)
    again = run_exploration(mini_dataset, "mini-train", out, quiet=True)
    assert not again.get("reused") and again["explored_this_run"] == first["questions"]
    assert again["settings"]["search_version"] == runner_module.SEARCH_VERSION


def test_run_exploration_resumes_after_a_kill(mini_dataset, tmp_path, monkeypatch):
    reference = tmp_path / "ref.jsonl"
    run_exploration(mini_dataset, "mini-train", reference, quiet=True)
    out = tmp_path / "out.jsonl"
    real = runner_module.explore_example
    calls = {"n": 0}

    def dying(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] > 4:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(runner_module, "explore_example", dying)
    with pytest.raises(KeyboardInterrupt):
        run_exploration(mini_dataset, "mini-train", out, quiet=True)
    monkeypatch.setattr(runner_module, "explore_example", real)
    partial = tmp_path / "out.jsonl.partial"
    assert not out.exists() and len(partial.read_text().splitlines()) == 4
    # killed in the middle of a line: the torn line is dropped and that question explored again
    with open(partial, "a", encoding="utf-8") as f:
        f.write('{"id": "q-4", "programs": ["(co')
    with pytest.raises(DataError):  # other settings do not mix with the interrupted run
        run_exploration(mini_dataset, "mini-train", out, quiet=True, max_programs=3)
    report = run_exploration(mini_dataset, "mini-train", out, quiet=True)
    assert report["explored_this_run"] == len(QUESTIONS) - 4
    assert out.read_bytes() == reference.read_bytes()
    assert not partial.exists()


def test_run_exploration_on_a_dev_split_reports_oracle_coverage(mini_dataset, tmp_path):
    # the same questions under a split name that is not a training split
    dev = tmp_path / "dev"
    dev.mkdir()
    for name in ("tables.jsonl", "vocab.json"):
        (dev / name).write_bytes((mini_dataset / name).read_bytes())
    (dev / "mini-dev.jsonl").write_bytes((mini_dataset / "mini-train.jsonl").read_bytes())
    meta = json.loads((mini_dataset / "meta.json").read_text())
    meta["examples"] = {"mini-dev": meta["examples"]["mini-train"]}
    (dev / "meta.json").write_text(json.dumps(meta))
    report = run_exploration(dev, "mini-dev", tmp_path / "dev.jsonl", quiet=True, limit=3, trigger_words=True)
    assert report["questions"] == 3 and report["oracle_coverage"] == report["coverage"]


def test_outputs_reexecute_on_the_mini_dataset(mini_dataset, tmp_path):
    from nsmcli.worlds.tables.data.preprocess import load_dataset

    out = tmp_path / "x.jsonl"
    run_exploration(mini_dataset, "mini-train", out, quiet=True)
    dataset = load_dataset(mini_dataset)
    by_id = {e.id: e for e in dataset.examples("mini-train")}
    for line in out.read_text().splitlines():
        record = json.loads(line)
        example = by_id[record["id"]]
        env = dataset.environment(example)
        assert_consistent(env, record["programs"], lambda a, e=example: dataset.is_correct(e, a))


def test_datasets_declare_their_fast_answer_checker(mini_dataset):
    from dataclasses import replace

    from nsmcli.worlds.tables.data.preprocess import load_dataset

    dataset = load_dataset(mini_dataset)
    example = dataset.examples("mini-train")[1]
    fast = dataset.answer_checker(example)
    assert isinstance(fast, WtqChecker)
    # a dataset that declares no fast checker gets its official test, wrapped: same programs, no pruning
    dataset.format = replace(dataset.format, make_checker=None)
    plain = dataset.answer_checker(example)
    assert isinstance(plain, AnswerChecker) and not isinstance(plain, WtqChecker)
    env = dataset.environment(example)
    a, b = explore(env, fast), explore(env, plain)
    assert a.programs and (a.programs, a.n_found) == (b.programs, b.n_found)


def test_tokens_of_outputs_start_and_end_properly():
    env = bind("wtq", tiny(), [("string", ("turkey",))])
    for p in explore(env, WtqChecker(["Greece"])).programs:
        tokens = env.encode(p)
        assert tokens[0] == OPEN and tokens[-1] == END


def _children(pid: int) -> set[int]:
    """Pids of the live processes whose parent is `pid` (from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "?"


def _alive(pid: int) -> bool:
    """Running, as opposed to gone or a zombie that only waits for init to reap it."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find the worker processes")
@pytest.mark.parametrize("seed", [None, 1, 2])
def test_explore_killed_with_sigkill_leaves_no_worker_behind(tmp_path, seed):
    """kill -9 of `nsm explore --workers 2` mid-run (after 20 questions, or at a seeded random point: a
    random number of questions written, then a random delay): its workers end with it, silently (no
    broken-pipe tracebacks), and the same command then finishes with the output of an undisturbed run,
    byte for byte (bench/kill_resume.py kills many more times)."""
    rng = random.Random(seed)
    kill_at, delay = (20, 0.0) if seed is None else (rng.randint(1, 60), rng.uniform(0.0, 0.1))
    own = Path(__file__).resolve().parents[1] / "examples" / "own-data"
    data = tmp_path / "questions"
    data.mkdir()
    header, *lines = (own / "train.tsv").read_text(encoding="utf-8").splitlines()
    rows = [line.replace("../tables/", str(own.parent / "tables") + "/") for line in lines]
    (data / "train.tsv").write_text("\n".join([header, *rows * 25]) + "\n", encoding="utf-8")
    pre, out = tmp_path / "pre", tmp_path / "programs.jsonl"
    preprocess("tables", data, pre)
    env = {**os.environ, "OMP_NUM_THREADS": "1"}

    def command(output: Path, workers: int) -> list[str]:
        options = [
            "--split",
            "train",
            "--out",
            str(output),
            "--workers",
            str(workers),
            "--limit",
            "150",
            "-q",
        ]
        return [sys.executable, "-m", "nsmcli", "explore", str(pre), *options]

    reference = tmp_path / "reference.jsonl"
    subprocess.run(command(reference, 1), env=env, check=True)
    proc = subprocess.Popen(command(out, 2), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    partial = out.with_name(out.name + ".partial")
    workers: set[int] = set()
    while proc.poll() is None and not (partial.exists() and partial.read_bytes().count(b"\n") >= kill_at):
        workers |= _children(proc.pid)
        time.sleep(0.02)
    deadline = time.monotonic() + delay
    while proc.poll() is None and time.monotonic() < deadline:
        workers |= _children(proc.pid)
        time.sleep(0.01)
    workers |= _children(proc.pid)
    assert proc.poll() is None, "exploration finished before it could be killed; give it more questions"
    assert workers, "no worker processes were seen"
    proc.kill()
    proc.wait()
    stderr = proc.stderr.read().decode()  # EOF only once every process holding the pipe has ended
    deadline = time.monotonic() + 30  # a hang guard, not a timing: a worker that outlives it is a leak
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [(pid, _command(pid)) for pid in workers if _alive(pid)]
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr
    subprocess.run(command(out, 2), env=env, check=True, stdout=subprocess.DEVNULL)
    assert out.read_bytes() == reference.read_bytes()
