"""The policy model on a tiny table: exact scoring over valid tokens, a normalised distribution, valid and
reproducible sampling and beam search, batching that changes nothing, and the GloVe/vocabulary plumbing."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field

import pytest
import torch

from nsmcli.model import ModelConfig, ProgramModel, Vocab, parser
from nsmcli.model import embeddings as E
from nsmcli.worlds.tables.context import CONSTANT_TYPES
from nsmcli.worlds.tables.data.table import Table
from nsmcli.worlds.tables.lang.interpreter import CLOSE, END, OPEN, bind, has_unused_result
from nsmcli.worlds.tables.lang.spec import Limits

# ----- a tiny world --------------------------------------------------------------------------------------


@dataclass
class Ent:
    kind: str
    values: tuple
    start: int
    end: int


@dataclass
class Question:
    """Stand-in with the attributes of `AnnotatedQuestion` the model reads."""

    tokens: list[str]
    entities: list[Ent]
    in_table: list[int]
    column_match: dict[str, float] = field(default_factory=dict)
    pos_tags: list[str] = field(default_factory=list)


@dataclass
class Example:
    id: str
    table_id: str
    question: Question


TINY = Table.from_rows(
    "tiny",
    ["Nation", "Gold", "Year"],
    [["Turkey", "5", "1990"], ["Japan", "3", "1994"], ["Kenya", "5", "1998"]],
)
OTHER = Table.from_rows("other", ["Team", "Points"], [["Ajax", "10"], ["PSV", "12"], ["Feyenoord", "7"]])

Q1 = Question(
    tokens="turkey won how many gold medals in 5 years ?".split(),
    entities=[Ent("string", ("turkey",), 0, 1), Ent("number", (5.0,), 7, 8)],  # entity at token 0
    in_table=[1, 0, 0, 0, 0, 0, 0, 1, 0, 0],
    column_match={"r.gold-string": 1.0, "r.gold-number": 1.0},
)
Q2 = Question(
    tokens="which team has more than 10 points ?".split(),
    entities=[Ent("number", (10.0,), 5, 6)],
    in_table=[0, 0, 0, 0, 0, 1, 0, 0],
    column_match={"r.points-number": 1.0},
)
TWO = Limits(max_expressions=2, max_variables=60)


@pytest.fixture(autouse=True, scope="module")
def one_thread():
    """Tiny tensors: intra-op threads only add overhead (and stall badly on a busy 2-core machine)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def small_config(**kw) -> ModelConfig:
    return ModelConfig(hidden_size=32, embedding_size=8, dropout=0.0, **kw)


def make_vocab() -> Vocab:
    counts = {w: 5 for q in (Q1, Q2) for w in q.tokens}
    counts.update(nation=4, year=3, rare=1)
    return Vocab.from_counts(counts, min_count=3)


@pytest.fixture(scope="module", params=["additive", "dot"])
def world(request):
    """Every model test runs with both decoder attentions (published additive, and dot product)."""
    torch.manual_seed(0)
    vocab = make_vocab()
    model = ProgramModel(small_config(attention=request.param), vocab).eval()
    env1 = bind("wtq", TINY, Q1.entities, limits=TWO)
    env2 = bind("wtq", OTHER, Q2.entities, limits=TWO)
    ctx1 = model.context(Example("q1", "tiny", Q1), env1)
    ctx2 = model.context(Example("q2", "other", Q2), env2)
    return model, (ctx1, env1), (ctx2, env2)


def enumerate_programs(env) -> list[tuple[int, ...]]:
    out = []

    def dfs(state):
        if state.done:
            out.append(state.tokens)
            return
        for tok in env.valid_tokens(state):
            dfs(env.step(state, tok))

    dfs(env.initial_state())
    return out


def assert_valid_program(env, tokens) -> None:
    state = env.initial_state()
    for tok in tokens:
        assert tok in env.valid_tokens(state), (tokens, tok)
        state = env.step(state, tok)
    assert state.done and state.error is None
    assert env.result(state).ok


def score(model: ProgramModel, ctx, env, tokens) -> float:
    with torch.no_grad():
        return float(model.log_probs([ctx], [env], [tokens]))


def reference_log_prob(model: ProgramModel, ctx, env, program) -> float:
    """One program, one step at a time: softmax over the gathered valid tokens only, memory written by hand."""
    batch = model._encode([ctx], drop=False)
    memory = batch.memory[0].clone()
    state = [(h[:1], c[:1]) for h, c in batch.encoded.state]
    x = model.decoder.go.unsqueeze(0)
    interp = env.initial_state()
    total = 0.0
    for tok in program:
        out, state = model.decoder.step(
            x, state, batch.att_keys[:1], batch.att_values[:1], batch.encoded.mask[:1], drop=False
        )
        if interp.tokens and interp.tokens[-1] == CLOSE:  # the previous token created a result
            memory[env.var_base + env.n_constants + len(interp.computed) - 1] = out[0]
        valid = list(env.valid_tokens(interp))
        scores = memory[valid] @ out[0] + model.decoder.feature_weight * batch.features[0, valid]
        total += float(torch.log_softmax(scores, dim=0)[valid.index(tok)])
        interp = env.step(interp, tok)
        x = memory[tok].unsqueeze(0)
    return total


# ----- scoring -------------------------------------------------------------------------------------------


def test_log_probs_match_step_by_step_reference(world):
    model, (ctx, env), _ = world
    with torch.no_grad():
        model.decoder.feature_weight.fill_(0.7)  # make the column-match feature count
        try:
            programs = enumerate_programs(env)
            picks = [p for p in programs if len(p) > 8][:6] + programs[
                :3
            ]  # with computed variables, and short
            got = model.log_probs([ctx] * len(picks), [env] * len(picks), picks)
            for p, lp in zip(picks, got.tolist(), strict=True):
                assert lp == pytest.approx(reference_log_prob(model, ctx, env, p), abs=1e-4)
        finally:
            model.decoder.feature_weight.zero_()


def test_probabilities_of_the_whole_space_sum_to_one(world):
    model, (ctx, env), _ = world
    programs = enumerate_programs(env)
    assert len(programs) > 1000
    with torch.no_grad():
        lp = model.log_probs([ctx] * len(programs), [env] * len(programs), programs)
    assert float(lp.exp().sum()) == pytest.approx(1.0, abs=1e-4)


def test_batched_log_probs_equal_one_at_a_time_across_questions(world):
    model, (c1, e1), (c2, e2) = world
    p1 = enumerate_programs(e1)[::150]
    p2 = enumerate_programs(e2)[::40]
    mixed = [(c1, e1, p) for p in p1] + [(c2, e2, p) for p in p2]
    mixed = mixed[::2] + mixed[1::2]  # interleave questions with different action counts
    with torch.no_grad():
        together = model.log_probs([m[0] for m in mixed], [m[1] for m in mixed], [m[2] for m in mixed])
        alone = torch.cat([model.log_probs([c], [e], [p]) for c, e, p in mixed])
    assert torch.allclose(together, alone, atol=1e-5)


def test_invalid_program_is_refused(world):
    model, (ctx, env), _ = world
    with pytest.raises(ValueError):
        model.log_probs([ctx], [env], [(OPEN, END)])
    with pytest.raises(ValueError):
        model.log_probs([ctx], [env], [enumerate_programs(env)[0][:-1]])  # no <END>


def test_dropout_only_in_training_mode(world):
    model, (ctx, env), _ = world
    prog = enumerate_programs(env)[5]
    config = ModelConfig(hidden_size=32, embedding_size=8, dropout=0.5, attention=model.config.attention)
    dropped = ProgramModel(config, model.vocab)
    dropped.load_state_dict(model.state_dict())
    dropped.train()
    torch.manual_seed(1)
    a = dropped.log_probs([ctx], [env], [prog])
    dropped.eval()
    b = dropped.log_probs([ctx], [env], [prog])
    with torch.no_grad():
        assert b.item() == pytest.approx(float(model.log_probs([ctx], [env], [prog])), abs=1e-6)
    assert a.item() != pytest.approx(b.item(), abs=1e-6)


# ----- decoding ------------------------------------------------------------------------------------------


def test_samples_are_valid_reproducible_and_scored(world):
    model, (c1, e1), (c2, e2) = world
    runs = [model.sample([c1, c2], [e1, e2], 20, torch.Generator().manual_seed(7)) for _ in range(2)]
    assert runs[0] == runs[1]
    other = model.sample([c1, c2], [e1, e2], 20, torch.Generator().manual_seed(8))
    assert other != runs[0]
    for per_q, env, ctx in zip(runs[0], (e1, e2), (c1, c2), strict=True):
        assert len(per_q) == 20
        for tokens, lp in per_q:
            assert_valid_program(env, tokens)
            assert lp == pytest.approx(score(model, ctx, env, tokens), abs=1e-4)


def test_temperature_zero_like_sampling_is_greedy(world):
    model, (ctx, env), _ = world
    (greedy_tokens, greedy_lp) = model.greedy([ctx], [env])[0]
    cold = model.sample([ctx], [env], 3, torch.Generator().manual_seed(0), temperature=1e-4)[0]
    assert {t for t, _ in cold} == {greedy_tokens}
    assert greedy_lp == pytest.approx(score(model, ctx, env, greedy_tokens), abs=1e-4)


def test_exclude_hides_tokens_and_abandons_exhausted_samples(world):
    model, (ctx, env), _ = world
    first_funcs = env.valid_tokens(env.step(env.initial_state(), OPEN))
    banned = first_funcs[0]
    seen = []

    def exclude(i, prefix):
        seen.append((i, prefix))
        return {banned} if prefix == (OPEN,) else ()

    samples = model.sample([ctx], [env], 30, torch.Generator().manual_seed(3), exclude=exclude)[0]
    assert samples and all(t[1] != banned for t, _ in samples)
    assert (0, ()) in seen and (0, (OPEN,)) in seen
    # every function hidden after "(": nothing can be drawn, every sample is abandoned
    none = model.sample(
        [ctx], [env], 5, torch.Generator().manual_seed(3), exclude=lambda i, p: set(first_funcs) if p else ()
    )
    assert none == [[]]


def test_max_steps_abandons_unfinished_samples(world):
    model, (ctx, env), _ = world
    assert model.sample([ctx], [env], 5, torch.Generator().manual_seed(0), max_steps=2) == [[]]


def test_beam_search_returns_valid_sorted_programs_scored_like_log_probs(world):
    model, (c1, e1), (c2, e2) = world
    beams = model.beam_search([c1, c2], [e1, e2], beam_size=5)
    for found, ctx, env in zip(beams, (c1, c2), (e1, e2), strict=True):
        assert 1 <= len(found) <= 5
        scores = [lp for _, lp in found]
        assert scores == sorted(scores, reverse=True)
        assert len({t for t, _ in found}) == len(found)
        for tokens, lp in found:
            assert_valid_program(env, tokens)
            assert lp == pytest.approx(score(model, ctx, env, tokens), abs=1e-4)
    # the same question alone gives the same beam
    alone = model.beam_search([c2], [e2], beam_size=5)[0]
    assert [t for t, _ in alone] == [t for t, _ in beams[1]]
    assert [lp for _, lp in alone] == pytest.approx([lp for _, lp in beams[1]], abs=1e-5)


def test_wide_beam_finds_the_most_probable_program(world):
    model, (ctx, env), _ = world
    programs = enumerate_programs(env)
    with torch.no_grad():
        lp = model.log_probs([ctx] * len(programs), [env] * len(programs), programs)
    best = programs[int(lp.argmax())]
    found = model.beam_search([ctx], [env], beam_size=len(programs), keep_unused=True)[0]
    assert found[0][0] == best
    assert len(found) == len(programs)  # a beam as wide as the space keeps every program


def test_an_ensemble_beam_scores_each_token_by_the_members_mean_probability(world):
    """`ensemble_beam_search`: a program's score is the sum over its steps of the log of the members' mean
    probability of that token. Each member's conditionals come from its exact probabilities of every
    complete program (the prefix masses), so this checks the beam against the models themselves."""
    model, (ctx, env), _ = world
    torch.manual_seed(1)
    other = ProgramModel(model.config, model.vocab).eval()  # another model of the same kind
    other_ctx = other.context(Example("q1", "tiny", Q1), env)
    programs = enumerate_programs(env)
    n = len(programs)
    with torch.no_grad():
        probs = [
            member.log_probs([c] * n, [env] * n, programs).exp().tolist()
            for member, c in ((model, ctx), (other, other_ctx))
        ]
    for p in probs:  # every prefix completes, so prefix masses are the models' conditionals
        assert sum(p) == pytest.approx(1.0, abs=1e-4)

    def mass(m: int, prefix: tuple[int, ...]) -> float:
        return sum(p for prog, p in zip(programs, probs[m], strict=True) if prog[: len(prefix)] == prefix)

    expected = {
        prog: sum(
            math.log(sum(mass(m, prog[: t + 1]) / mass(m, prog[:t]) for m in (0, 1)) / 2)
            for t in range(len(prog))
        )
        for prog in programs
    }
    found = ProgramModel.ensemble_beam_search(
        [model, other], [[ctx], [other_ctx]], [env], n, keep_unused=True
    )[0]
    assert {tuple(t) for t, _ in found} == set(programs)
    for tokens, lp in found:
        assert lp == pytest.approx(expected[tuple(tokens)], abs=1e-4)
    # one member is exactly its own beam search
    alone = ProgramModel.ensemble_beam_search([model], [[ctx]], [env], 5)
    assert alone == model.beam_search([ctx], [env], beam_size=5)


def test_members_of_one_shape_decode_stacked_as_each_would_alone(world, monkeypatch):
    """An ensemble whose decoders have one shape steps them as one (weights stacked on a member axis); it
    finds the same programs with the same scores as stepping each member by itself. Members of other
    shapes still decode, one at a time."""
    model, (c1, e1), (c2, e2) = world
    members, contexts = [model], [[c1, c2]]
    for seed in (1, 2):
        torch.manual_seed(seed)
        other = ProgramModel(model.config, model.vocab).eval()
        members.append(other)
        contexts.append(
            [other.context(Example("q1", "tiny", Q1), e1), other.context(Example("q2", "other", Q2), e2)]
        )
    assert parser._StackedMembers.of(
        members, [m._encode(c, False) for m, c in zip(members, contexts, strict=True)], [0, 1], "cpu"
    )

    def both() -> tuple[list, list]:
        stacked = ProgramModel.ensemble_beam_search(members, contexts, [e1, e2], 4)
        with monkeypatch.context() as patched:
            patched.setattr(parser._StackedMembers, "of", classmethod(lambda cls, *a: None))
            each = ProgramModel.ensemble_beam_search(members, contexts, [e1, e2], 4)
        return stacked, each

    for change in range(2):
        if change:  # weights changed in place after a decode (training goes on): the stack follows them
            with torch.no_grad():
                members[1].decoder.merge.weight.mul_(3.0)
        stacked, each = both()
        assert [[t for t, _ in f] for f in stacked] == [[t for t, _ in f] for f in each]
        for a, b in zip(stacked, each, strict=True):
            assert [lp for _, lp in a] == pytest.approx([lp for _, lp in b], abs=1e-5)
    wider_config = ModelConfig(
        hidden_size=48, embedding_size=8, dropout=0.0, attention=model.config.attention
    )
    wider = ProgramModel(wider_config, model.vocab).eval()
    mixed = [model, wider]
    mixed_contexts = [[c1], [wider.context(Example("q1", "tiny", Q1), e1)]]
    batches = [m._encode(c, False) for m, c in zip(mixed, mixed_contexts, strict=True)]
    assert parser._StackedMembers.of(mixed, batches, [0], "cpu") is None
    assert ProgramModel.ensemble_beam_search(mixed, mixed_contexts, [e1], 3)[0]


def test_beam_search_drops_programs_that_leave_a_result_unused(world):
    """Training never rewards a program with an unused intermediate result, so decoding does not answer
    with one: the beam keeps the best programs that use every result (the original kept them all)."""
    model, (ctx, env), _ = world
    programs = enumerate_programs(env)
    unused = {p for p in programs if has_unused_result(env.run(p), env)}
    assert unused and len(unused) < len(programs)
    with torch.no_grad():
        lp = model.log_probs([ctx] * len(programs), [env] * len(programs), programs).tolist()
    ranked = [p for _, p in sorted(zip(lp, programs, strict=True), key=lambda x: -x[0]) if p not in unused]
    found = model.beam_search([ctx], [env], beam_size=len(programs))[0]
    assert [t for t, _ in found] == ranked
    # greedy too: its answer is the best program without an unused result
    greedy = model.greedy([ctx], [env])[0][0]
    assert greedy in programs and greedy not in unused


def test_other_language_plugs_in(world):
    model, _, (ctx_q, _env) = world
    env = bind("wikisql", OTHER, Q2.entities)
    ctx = model.context(Example("q2", "other", Q2), env)
    assert ctx.n_builtins == env.var_base != world[1][1].var_base
    for tokens, _ in model.sample([ctx], [env], 10, torch.Generator().manual_seed(0))[0]:
        assert_valid_program(env, tokens)
    too_small = ProgramModel(small_config(n_builtins=5), model.vocab)
    with pytest.raises(ValueError, match="n_builtins"):
        too_small.greedy([ctx], [env])


# ----- learning ------------------------------------------------------------------------------------------


def test_adam_steps_raise_a_programs_probability():
    torch.manual_seed(0)
    vocab = make_vocab()
    model = ProgramModel(small_config(), vocab)
    env = bind("wtq", TINY, Q1.entities, limits=TWO)
    ctx = model.context(Q1, env)  # a bare question works too
    target = env.encode('(filter_str_contain_any all_rows "turkey" r.nation-string) (hop v0 r.gold-number)')
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    before = score(model, ctx, env, target)
    for _ in range(5):
        loss = -model.log_probs([ctx], [env], [target]).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    after = score(model, ctx, env, target)
    assert after > before + 0.5
    assert model.embed.learned.weight.grad is not None


# ----- features and constant keys ------------------------------------------------------------------------


def test_context_features_spans_and_types(world):
    model, (ctx, env), _ = world
    assert ctx.n_builtins == env.var_base and len(ctx.constants) == env.n_constants
    assert [f[0] for f in ctx.token_features] == Q1.in_table
    by_name = {str(a): k for a, k in zip(env.constant_args, ctx.constants, strict=True)}
    assert by_name["r.gold-number"].feature == 1.0 and by_name["r.nation-string"].feature == 0.0
    assert CONSTANT_TYPES[by_name["r.gold-number"].type_id] == "column:number"
    assert by_name["r.gold-number"].name_ids == (model.vocab.id("gold"),)
    assert by_name['"turkey"'].span == (0, 0)
    assert by_name["5"].span == (7, 7)
    assert CONSTANT_TYPES[by_name["5"].type_id] == "entity:number"
    buggy = ProgramModel(small_config(in_table_bug=True), model.vocab).context(Q1, env)
    assert [f[0] for f in buggy.token_features] == [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]


def test_span_mask_bug_drops_the_span_of_an_entity_at_token_zero(world):
    model, (ctx, env), _ = world
    turkey = env.var_base + [str(a) for a in env.constant_args].index('"turkey"')
    five = env.var_base + [str(a) for a in env.constant_args].index("5")
    buggy = ProgramModel(small_config(span_mask_bug=True, attention=model.config.attention), model.vocab)
    buggy.eval()
    buggy.load_state_dict(model.state_dict())
    with torch.no_grad():
        fixed_mem = model._encode([ctx], drop=False).memory[0]
        buggy_mem = buggy._encode([ctx], drop=False).memory[0]
        type_row = model.memory_keys.types[ctx.constants[turkey - env.var_base].type_id]
    assert torch.allclose(buggy_mem[turkey], type_row)
    assert not torch.allclose(fixed_mem[turkey], type_row)
    assert torch.allclose(fixed_mem[five], buggy_mem[five])


def test_feature_weight_starts_at_zero_and_shifts_logits(world):
    model, _, _ = world
    assert model.decoder.feature_weight.item() == 0.0
    out = torch.randn(2, 4)
    memory = torch.randn(2, 3, 4)
    feats = torch.tensor([[0.0, 1.0, 0.0], [2.0, 0.0, 0.0]])
    valid = torch.tensor([[True, True, False], [True, True, True]])
    with torch.no_grad():
        base = model.decoder.logits(out, memory, feats, valid)
        model.decoder.feature_weight.fill_(0.5)
        try:
            shifted = model.decoder.logits(out, memory, feats, valid)
        finally:
            model.decoder.feature_weight.zero_()
    assert math.isinf(float(base[0, 2])) and float(base[0, 2]) < 0
    assert torch.allclose((shifted - base)[valid], (0.5 * feats)[valid])


# ----- vocabulary, config, GloVe, checkpoints ------------------------------------------------------------


def test_vocab_min_count_order_and_json():
    vocab = Vocab.from_counts({"b": 5, "a": 5, "c": 9, "d": 2}, min_count=3)
    assert vocab.words == ["<PAD>", "<UNK>", "c", "a", "b"]
    assert vocab.id("zzz") == 1 and vocab.ids(["a", "d"]) == [3, 1] and len(vocab) == 5
    assert Vocab.from_json(vocab.to_json()) == vocab


def test_config_json_round_trip_refuses_unknown_keys():
    config = ModelConfig(hidden_size=64, span_mask_bug=True)
    assert ModelConfig.from_json(config.to_json()) == config
    with pytest.raises(ValueError, match="hidden_sise"):
        ModelConfig.from_json({"hidden_sise": 3})
    with pytest.raises(ValueError, match="attention"):
        ModelConfig.from_json({"attention": "multiplicative"})
    assert ModelConfig.from_json({}).attention == "additive"  # checkpoints from before the option


def test_dot_attention_model_has_no_additive_score_vector():
    additive = ProgramModel(small_config(), make_vocab()).state_dict()
    dot = ProgramModel(small_config(attention="dot"), make_vocab()).state_dict()
    assert set(additive) - set(dot) == {"decoder.score.weight"} and set(dot) < set(additive)


def test_glove_rows_are_kept_in_the_state_dict(tmp_path, monkeypatch):
    import numpy as np

    vocab = make_vocab()
    words = ["gold", "the", "turkey", "medals"]
    matrix = np.arange(len(words) * 8, dtype=np.float32).reshape(len(words), 8) + 1.0
    np.save(tmp_path / E.GLOVE_MATRIX, matrix)
    monkeypatch.setattr(E, "glove_words", lambda root: words)
    glove = E.load_glove_rows(vocab, tmp_path)
    assert glove.shape == (len(vocab), 8)
    assert torch.equal(glove[vocab.id("turkey")], torch.from_numpy(matrix[2]))
    assert torch.isnan(glove[vocab.id("won")]).all() and torch.isnan(glove[0]).all()

    torch.manual_seed(0)
    model = ProgramModel(small_config(), vocab, glove).eval()
    assert model.embed.n_pretrained == 3
    buffer = io.BytesIO()
    torch.save(model.state_dict(), buffer)
    buffer.seek(0)
    reloaded = ProgramModel(small_config(), vocab).eval()  # no GloVe at hand
    reloaded.load_state_dict(torch.load(buffer, weights_only=True))
    assert reloaded.embed.n_pretrained == 3
    env = bind("wtq", TINY, Q1.entities, limits=TWO)
    ctx = model.context(Q1, env)
    prog = enumerate_programs(env)[10]
    assert score(model, ctx, env, prog) == score(reloaded, ctx, env, prog)


def test_build_without_the_glove_package_learns_every_embedding(monkeypatch):
    monkeypatch.setattr(parser, "load_glove_rows", lambda vocab, root=None: None)
    model = ProgramModel.build(small_config(), make_vocab())
    assert model.embed.n_pretrained == 0
    assert ProgramModel.build(small_config(use_glove=False), make_vocab()).embed.n_pretrained == 0


def test_real_annotation_feeds_the_adapter():
    from nsmcli.worlds.tables.data.annotate import annotate_question

    question = annotate_question("how many gold medals did kenya win after 1990 ?", TINY)
    env = bind("wtq", TINY, question.entities)
    model = ProgramModel(small_config(), make_vocab()).eval()
    ctx = model.context(question, env)
    assert len(ctx.token_ids) == len(question.tokens) == len(ctx.token_features)
    spans = [k.span for k in ctx.constants if k.span is not None]
    assert len(spans) == env.n_constants - sum(1 for k in ctx.constants if k.name_ids)
    for start, end in spans:
        assert 0 <= start <= end < len(question.tokens)
    tokens, lp = model.greedy([ctx], [env])[0]
    assert_valid_program(env, tokens)


def test_glove_fallbacks_for_ptb_escapes_and_multi_piece_tokens():
    vocab = Vocab(["<PAD>", "<UNK>", "-lrb-", "gold/silver", "a-league", "zzz"])
    words = ["(", "gold", "silver", "league"]
    matrix = torch.eye(4)
    rows = E.glove_rows_for(vocab, words, lambda idx: matrix[idx])
    assert torch.equal(rows[2], matrix[0])
    assert torch.equal(rows[3], (matrix[1] + matrix[2]) / 2)
    assert torch.equal(rows[4], matrix[3])  # "a" has no vector: the found pieces' mean
    assert torch.isnan(rows[5]).all() and torch.isnan(rows[:2]).all()


def test_column_match_forms():
    """`tokens` counts name pieces that are question tokens; `substring` (the original's) finds them in the
    question text, plural or not; `column_match_binary` clips the count at 1 (the original on WTQ)."""
    from nsmcli.worlds.tables.data.annotate import annotate_question

    table = Table.from_rows(
        "t", ["Nation", "Gold medal", "Year"], [["Kenya", "5", "1990"], ["Peru", "3", "1991"]]
    )
    question = annotate_question("which nations won a gold medal in 1990 ?", table)
    env = bind("wtq", table, question.entities)

    def features(**kw) -> dict[str, float]:
        ctx = ProgramModel(small_config(**kw), make_vocab()).context(question, env)
        return {
            str(a): k.feature for a, k in zip(env.constant_args, ctx.constants, strict=True) if k.name_ids
        }

    assert features()["r.nation-string"] == 0.0 and features()["r.gold_medal-number"] == 2.0
    assert features(column_match="substring")["r.nation-string"] == 1.0
    assert features(column_match="substring", column_match_binary=True)["r.gold_medal-number"] == 1.0
    assert features(column_match_binary=True)["r.year-number"] == 0.0
    with pytest.raises(ValueError, match="column_match"):
        ModelConfig.from_json({**small_config().to_json(), "column_match": "fuzzy"})
