"""The Karel environment and problem set against nsmcli.protocols: every decoded program is valid."""

from __future__ import annotations

import random

import pytest

from nsmcli.protocols import Environment, ProblemSet, ProgramState
from nsmcli.worlds.karel.dsl import parse, pretty, program_tokens
from nsmcli.worlds.karel.env import END, KarelEnvironment
from nsmcli.worlds.karel.problems import KarelProblemSet
from nsmcli.worlds.karel.tasks import dev_stream, get_task, train_stream

HV1 = (
    "WHILE c( markersPresent c) w( WHILE c( markersPresent c) w( pickMarker move w) turnRight move turnLeft "
    "WHILE c( markersPresent c) w( pickMarker move w) turnLeft move turnRight w)"
)
BLOCK_OPENERS = {"m(", "w(", "i(", "e(", "r("}


def random_walk(env: KarelEnvironment, rng: random.Random):
    state = env.initial_state()
    while not state.done:
        valid = sorted(env.valid_tokens(state))
        assert valid, f"dead end after {env.dsl_tokens(state.tokens)}"
        state = env.step(state, rng.choice(valid))
        assert state.error is None
    return state


def test_environment_and_problem_set_satisfy_the_protocols():
    problems = KarelProblemSet("karel:harvester", seed=1)
    assert isinstance(problems, ProblemSet)
    env = problems.bind(problems.examples("train")[0], None)
    assert isinstance(env, Environment)
    assert isinstance(env.initial_state(), ProgramState)
    assert (env.n_builtins, env.n_constants, env.n_computed) == (51, 0, 0)
    assert env.token_name(0) == "<END>" and env.token_name(1) == "DEF" and env.token_name(50) == "WHILE"


@pytest.mark.parametrize("max_length", [45, 12])
def test_random_walks_give_valid_programs_within_the_budget(max_length):
    env = KarelEnvironment(max_length=max_length)
    rng = random.Random(0)
    lengths = set()
    for _ in range(2000 if max_length == 45 else 300):
        state = random_walk(env, rng)
        names = env.dsl_tokens(state.tokens)
        assert state.tokens[-1] == END and names[0] == "DEF"
        assert len(names) - 1 <= max_length
        for opener, closer in zip(names, names[1:], strict=False):
            assert not (opener in BLOCK_OPENERS and closer == opener[0] + ")"), "empty block"
        program = env.program(state.tokens)  # parses: valid
        assert program_tokens(program) == names
        lengths.add(len(names) - 1)
    assert max(lengths) == max_length  # the budget is reached exactly, never passed


def test_forced_tokens_and_no_empty_blocks():
    env = KarelEnvironment()
    state = env.initial_state()
    assert env.valid_tokens(state) == {env.ids["DEF"]}
    state = env.run([env.ids[t] for t in ["DEF", "run", "m("]])
    assert env.ids["m)"] not in env.valid_tokens(state)  # DEF run m( m) is invalid
    state = env.step(state, env.ids["move"])
    assert env.ids["m)"] in env.valid_tokens(state)
    assert env.valid_tokens(env.run([*env.encode(parse("move"))])) == frozenset()


def test_a_token_whose_completion_overruns_the_budget_is_masked():
    env = KarelEnvironment(max_length=9)  # run m( move leaves 6 tokens after DEF
    state = env.run([env.ids[t] for t in ["DEF", "run", "m(", "move"]])
    valid = {env.token_name(t) for t in env.valid_tokens(state)}
    assert "REPEAT" in valid  # REPEAT R=k r( A r) m) fits exactly
    assert "WHILE" not in valid and "IFELSE" not in valid  # WHILE c( P c) w( A w) m) needs 8
    state = env.run([env.ids[t] for t in ["DEF", "run", "m(", "move", "move"]])
    assert "REPEAT" not in {env.token_name(t) for t in env.valid_tokens(state)}


def test_an_invalid_step_sets_the_error_and_never_raises():
    env = KarelEnvironment()
    state = env.step(env.initial_state(), env.ids["move"])
    assert state.error and not state.done
    assert env.step(state, env.ids["DEF"]).error == state.error


def test_display_is_indented_and_parses_back():
    env = KarelEnvironment()
    tokens = env.encode(parse(HV1))
    text = env.display(tokens)
    assert text.splitlines()[0] == "DEF run m(" and text.splitlines()[1].startswith("    WHILE")
    assert env.encode(parse(text)) == tokens
    rng = random.Random(1)
    for _ in range(200):
        state = random_walk(env, rng)
        assert env.encode(parse(env.display(state.tokens))) == state.tokens
    assert pretty(parse(HV1)) == text


def test_scorer_rewards_caches_and_counts_evaluations():
    problems = KarelProblemSet("karel:HARVESTER", seed=3)
    train = problems.examples("train")[0]
    env = problems.bind(train, None)
    score = problems.scorer(train, env)
    tokens = env.encode(parse(HV1))
    assert score(tokens) == (1.0, True)
    assert score(tokens) == (1.0, True)
    assert problems.evaluations == 1
    adds = env.encode(parse("REPEAT R=12 r( putMarker r)"))
    assert score(adds) == (0.0, True)  # the paper-scale -8/36 is clipped to 0
    assert problems.score(train, adds) == pytest.approx(-8 / 36)
    assert score(tokens[:-1]) == (0.0, False)
    assert problems.evaluations == 2
    assert problems.words(train) == ["harvester"]


def test_splits_and_seeds():
    problems = KarelProblemSet("karel:maze", seed=1)
    assert problems.splits == ["train", "dev", "dev-100x100"]
    [train] = problems.examples("train")
    [dev] = problems.examples("dev")
    assert len(train.states) == 10 and len(dev.states) == 1000
    again = KarelProblemSet("karel:maze", seed=1).examples("train")[0]
    other = KarelProblemSet("karel:maze", seed=2).examples("train")[0]
    assert [i.world for i in again.states.instances] == [i.world for i in train.states.instances]
    assert [i.world for i in other.states.instances] != [i.world for i in train.states.instances]
    task = get_task("maze")
    assert dev_stream(task) not in {train_stream(task, seed) for seed in range(100)}
    [big] = KarelProblemSet("karel:harvester", big_count=3).examples("dev-100x100")
    assert len(big.states) == 3 and big.states.instances[0].world.height == 100
    assert KarelProblemSet("karel:cleanhouse").source == "karel:cleanhouse"
    assert KarelProblemSet("karel:cleanhouse").splits == ["train", "dev"]


@pytest.mark.parametrize("spec", ["harvester", "karel:", "karel:nope", "tables:harvester"])
def test_bad_specs_are_data_errors(spec):
    from nsmcli.errors import DataError

    with pytest.raises(DataError):
        KarelProblemSet(spec)


def test_the_grammar_file_is_checked(tmp_path):
    from nsmcli.errors import GrammarError
    from nsmcli.worlds.karel.dsl import Grammar

    path = tmp_path / "g.toml"
    path.write_text('name = "g"\nstart = "S"\ntokens = ["a"]\n[productions]\nS = [["a"], ["a", "S"]]\n')
    with pytest.raises(GrammarError, match="not LL"):
        Grammar(path)
    path.write_text('name = "g"\nstart = "S"\ntokens = ["a"]\n[productions]\nS = [["b"]]\n')
    with pytest.raises(GrammarError, match="undeclared"):
        Grammar(path)
    path.write_text('name = "g"\n')
    with pytest.raises(GrammarError, match="lacks"):
        Grammar(path)
