"""Training, run directories and evaluation on a tiny hand-made WTQ-style dataset, with a tabular stand-in
policy (same methods as `nsmcli.model.ProgramModel`) so every test runs in seconds and is deterministic."""

from __future__ import annotations

import csv
import io
import json
import math
import re
import shutil
import time
import warnings
import zlib
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest
import torch
from rich.console import Console
from typer.testing import CliRunner

from nsmcli.errors import CheckpointError, DataError
from nsmcli.fileio import output_lock
from nsmcli.progress import make_progress
from nsmcli.train import objectives
from nsmcli.train.buffer import ProgramBuffer
from nsmcli.train.config import ConfigError, TrainConfig, resolve_config
from nsmcli.train.evaluate import choose, evaluate, load_run_model
from nsmcli.train.explore_cache import ExploreCache
from nsmcli.train.loop import dev_subset, train
from nsmcli.train.questions import ModelKit
from nsmcli.train.rundir import RunDir, load_tensors
from nsmcli.worlds.tables.data.preprocess import load_dataset, preprocess
from nsmcli.worlds.tables.lang.interpreter import has_unused_result

# ----- a tabular stand-in policy ----------------------------------------------------------------------------


@dataclass
class StubConfig:
    dropout: float = 0.0
    min_word_count: int = 1
    buckets: int = 1 << 16

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, record: dict) -> StubConfig:
        return cls(**record)


class StubVocab:
    def __init__(self, words: list[str]):
        self.words = words

    @classmethod
    def from_counts(cls, counts: dict, min_count: int = 1) -> StubVocab:
        return cls(sorted(w for w, c in counts.items() if c >= min_count))

    def to_json(self) -> dict:
        return {"words": self.words}

    @classmethod
    def from_json(cls, record: dict) -> StubVocab:
        return cls(list(record["words"]))


class StubModel(torch.nn.Module):
    """One learned logit per (question, prefix, token), softmax over the environment's valid tokens."""

    def __init__(self, config: StubConfig, vocab: StubVocab):
        super().__init__()
        self.config = config
        self.table = torch.nn.Embedding(config.buckets, 1)
        torch.nn.init.zeros_(self.table.weight)

    @classmethod
    def build(cls, config: StubConfig, vocab: StubVocab) -> StubModel:
        return cls(config, vocab)

    def context(self, example, env) -> str:
        return example.id

    def _logits(self, ctx: str, prefix: tuple, valid: tuple) -> torch.Tensor:
        idx = [zlib.crc32(f"{ctx}|{prefix}|{t}".encode()) % self.config.buckets for t in valid]
        return self.table(torch.tensor(idx)).squeeze(-1)

    def log_probs(self, contexts, envs, programs) -> torch.Tensor:
        keys, segments = [], []  # one embedding lookup for the whole batch (one dense gradient)
        for ctx, env, program in zip(contexts, envs, programs, strict=True):
            state, steps = env.initial_state(), []
            for t in program:
                valid = env.valid_tokens(state)
                steps.append((len(keys), len(valid), valid.index(t)))
                keys += [
                    zlib.crc32(f"{ctx}|{state.tokens}|{v}".encode()) % self.config.buckets for v in valid
                ]
                state = env.step(state, t)
            segments.append(steps)
        if not segments:
            return torch.zeros(0)
        logits = self.table(torch.tensor(keys, dtype=torch.long)).squeeze(-1)
        out = []
        for steps in segments:
            total = torch.zeros(())
            for start, n, pick in steps:
                total = total + torch.log_softmax(logits[start : start + n], 0)[pick]
            out.append(total)
        return torch.stack(out)

    @torch.no_grad()
    def sample(self, contexts, envs, n, generator, temperature=1.0, exclude=None, max_steps=30):
        results = []
        for i, (ctx, env) in enumerate(zip(contexts, envs, strict=True)):
            found = []
            for _ in range(n):
                state, logp = env.initial_state(), 0.0
                for _ in range(max_steps):
                    valid = env.valid_tokens(state)
                    hidden = exclude(i, state.tokens) if exclude is not None else ()
                    allowed = [k for k, t in enumerate(valid) if t not in hidden]
                    if not allowed:
                        break
                    lp = torch.log_softmax(self._logits(ctx, state.tokens, valid), 0)
                    pick = allowed[int(torch.multinomial(lp[allowed].exp(), 1, generator=generator))]
                    logp += float(lp[pick])
                    state = env.step(state, valid[pick])
                    if state.done:
                        break
                if state.done and state.error is None:
                    found.append((state.tokens, logp))
            results.append(found)
        return results

    def beam_search(self, contexts, envs, beam_size=5, max_steps=30, keep_unused=False):
        return self.ensemble_beam_search([self], [contexts], envs, beam_size, max_steps, keep_unused)

    @staticmethod
    @torch.no_grad()
    def ensemble_beam_search(models, contexts, envs, beam_size=5, max_steps=30, keep_unused=False):
        # the stand-in keeps programs with unused results (decoding semantics are ProgramModel's, tested there)
        results = []
        for q, env in enumerate(envs):
            beam, finished = [(0.0, env.initial_state())], []
            for _ in range(max_steps):
                grown = []
                for lp0, state in beam:
                    valid = env.valid_tokens(state)
                    each = [
                        torch.log_softmax(m._logits(c[q], state.tokens, valid), 0)
                        for m, c in zip(models, contexts, strict=True)
                    ]
                    lp = (torch.logsumexp(torch.stack(each), 0) - math.log(len(each))).tolist()
                    grown += [(lp0 + lp[k], env.step(state, t)) for k, t in enumerate(valid)]
                grown.sort(key=lambda c: -c[0])
                beam = []
                for lp, state in grown[:beam_size]:
                    if state.done:
                        if state.error is None:
                            finished.append((state.tokens, lp))
                    else:
                        beam.append((lp, state))
                if not beam:
                    break
            finished.sort(key=lambda f: -f[1])
            results.append(finished[:beam_size])
        return results

    @torch.no_grad()
    def greedy(self, contexts, envs, keep_unused=False, max_steps=30):
        found = self.beam_search(contexts, envs, 1, max_steps=max_steps)
        return [f[0] if f else ((), float("-inf")) for f in found]


KIT = ModelKit(StubConfig, StubVocab, StubModel)

# ----- the fixture dataset ------------------------------------------------------------------------------

TABLES = {
    "0": [
        ["Nation", "Gold", "Silver", "Year"],
        ["United States", "10", "3", "1990"],
        ["Turkey", "5", "7", "1992"],
        ["Japan", "4", "1", "1994"],
        ["France", "2", "6", "1996"],
    ],
    "1": [
        ["Player", "Team", "Goals"],
        ["Smith", "Reds", "12"],
        ["Jones", "Blues", "7"],
        ["Brown", "Reds", "3"],
    ],
}
TRAIN = [
    ("nt-1", "which nation won the most gold?", "0", "United States"),
    ("nt-2", "how many gold medals did turkey win?", "0", "5"),
    ("nt-3", "which nation had the fewest silver?", "0", "Japan"),
    ("nt-4", "how many players are there?", "1", "3"),
    ("nt-5", "which player scored the most goals?", "1", "Smith"),
    ("nt-6", "what team does jones play for?", "1", "Blues"),
]
#: Questions whose programs a uniform-ish policy hits often: what pure on-policy learning can find in seconds
#: (the paper's REINFORCE stays under 10% on the real data, where programs are rare).
EASY = [
    ("nt-9", "how many players are there?", "1", "3"),
    ("nt-10", "what is the highest number of goals?", "1", "12"),
    ("nt-11", "which team has the most players?", "1", "Reds"),
    ("nt-12", "how many goals were scored in total?", "1", "22"),
]
DEV = [
    ("nt-7", "which nation won the least gold?", "0", "France"),
    ("nt-8", "which player scored the fewest goals?", "1", "Brown"),
]
FAST = {
    "questions_per_step": 6,
    "learning_rate": 0.1,
    "eval_every": 0,
    "eval_beam": 0,
    "checkpoint_every": 1000,
    "log_every": 1,
}


def _enumerate_consistent(dataset, example, max_exprs: int = 2) -> list[str]:
    """All consistent programs of up to two expressions (what nsm explore would find, exhaustively)."""
    env = dataset.environment(example)
    found, stack = [], [env.initial_state()]
    while stack:
        state = stack.pop()
        if state.done:
            if not state.error and not has_unused_result(state, env):
                if dataset.is_correct(example, env.result(state).answer):
                    found.append(str(env.decode(state.tokens)))
            continue
        valid = env.valid_tokens(state)
        if len(state.computed) >= max_exprs and state.func == -1:
            valid = tuple(t for t in valid if t == 0)
        stack.extend(env.step(state, t) for t in valid)
    return sorted(found)


def preprocessed_wtq(root: Path, tables: dict[str, list[list[str]]], splits: dict[str, list[tuple]]) -> Path:
    """`root/pre`: a WTQ-style release of `tables` (key -> rows, header first) and `splits` (name ->
    (id, question, table key, answer) tuples) written under `root/raw`, then preprocessed."""
    raw = root / "raw"
    (raw / "data").mkdir(parents=True)
    (raw / "csv" / "200-csv").mkdir(parents=True)
    for k, rows in tables.items():
        with open(raw / "csv" / "200-csv" / f"{k}.csv", "w", newline="", encoding="utf-8") as f:
            csv.writer(f, quoting=csv.QUOTE_ALL).writerows(rows)
    for name, questions in splits.items():
        with open(raw / "data" / f"{name}.tsv", "w", encoding="utf-8") as f:
            f.write("id\tutterance\tcontext\ttargetValue\n")
            for qid, text, t, answer in questions:
                f.write(f"{qid}\t{text}\tcsv/200-csv/{t}.csv\t{answer}\n")
    preprocess("wtq", raw, root / "pre")
    return root / "pre"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> tuple[Path, Path]:
    """(preprocessed dataset dir, programs file)."""
    root = tmp_path_factory.mktemp("tiny")
    splits = {"random-split-1-train": TRAIN, "random-split-1-dev": DEV, "easy-train": EASY}
    dataset = load_dataset(preprocessed_wtq(root, TABLES, splits))
    programs = root / "programs.jsonl"
    with open(programs, "w", encoding="utf-8") as f:
        for ex in dataset.examples("random-split-1-train"):
            found = _enumerate_consistent(dataset, ex)
            f.write(json.dumps({"id": ex.id, "programs": found, "n_found": len(found)}) + "\n")
    return root / "pre", programs


def _train_accuracy(run: Path, data: Path, weights: str = "last") -> float:
    result = evaluate([run], load_dataset(data), "train", beam=0, weights=weights, kit=KIT)
    return result.accuracy


# ----- every algorithm learns the training set ----------------------------------------------------------

ON_POLICY = {"train_split": "easy-train", "max_expressions": 2, "questions_per_step": 4}
ALGO_SETTINGS = {
    "mapo": {"n_steps": 40},
    "mml": {"n_steps": 40},
    "iml": {"n_steps": 60},
    "hard-em": {"n_steps": 40},
    "reinforce": {"n_steps": 120, "n_policy": 8, "use_baseline": True, **ON_POLICY},
    "self-critical": {"n_steps": 120, "n_policy": 8, **ON_POLICY},
}


@pytest.mark.parametrize("algo", list(ALGO_SETTINGS))
def test_every_algorithm_reaches_full_training_accuracy(tiny, tmp_path, algo):
    data, programs = tiny
    run = tmp_path / algo
    result = train(
        data, run, programs=programs, algo=algo, overrides={**FAST, **ALGO_SETTINGS[algo]}, kit=KIT
    )
    assert result.step == ALGO_SETTINGS[algo]["n_steps"]
    assert _train_accuracy(run, data) == 1.0
    lines = RunDir(run).read_metrics()
    assert len(lines) == result.step and lines[-1]["dev_accuracy"] is not None


def test_time_limit_ends_the_run_with_an_evaluation_and_a_checkpoint(tiny, tmp_path):
    data, programs = tiny
    run = tmp_path / "timed"
    # a limit of ~0 minutes: the first step already reaches it, so it becomes the run's last step
    result = train(data, run, programs=programs, overrides={**FAST, "max_minutes": 1e-9}, kit=KIT)
    assert result.stopped_by_time and result.step == 1
    lines = RunDir(run).read_metrics()
    assert lines[-1]["step"] == 1 and lines[-1]["dev_accuracy"] is not None
    assert lines[-1]["wall_seconds"] > 0 and lines[-1]["cpu_seconds"] >= 0
    assert RunDir(run).has_checkpoint()
    # resuming with a longer limit continues from there, and the clock keeps counting
    more = train(data, run, resume=True, overrides={"max_minutes": 60, "n_steps": 3}, kit=KIT)
    assert more.step == 3 and not more.stopped_by_time
    later = RunDir(run).read_metrics()
    assert later[-1]["wall_seconds"] > lines[-1]["wall_seconds"]  # summed over both calls
    assert later[-1]["cpu_seconds"] >= lines[-1]["cpu_seconds"]
    # the config records the settings now in force and the resume (step, code version, settings)
    config = RunDir(run).read_config()
    assert config["train"]["max_minutes"] == 60 and config["train"]["n_steps"] == 3
    (resumed,) = config["resumes"]
    assert resumed["step"] == 1 and resumed["max_minutes"] == 60 and "git" in resumed["code"]
    assert resumed["runtime"]["actors"] == 0 and resumed["runtime"]["device"] == "cpu"
    assert config["runtime"]["actors"] == 0 and config["runtime"]["torch"] == torch.__version__
    again = train(data, run, resume=True, overrides={"n_steps": 4}, kit=KIT)  # max_minutes stays 60
    assert again.step == 4 and not again.stopped_by_time
    assert [r["step"] for r in RunDir(run).read_config()["resumes"]] == [1, 3]


def test_piped_progress_lines_keep_the_last_dev_figure(tiny, tmp_path, monkeypatch):
    """Off a terminal a line is printed every N seconds, so the line of an evaluation step itself may never
    be printed: every later line still says the last dev figure and the best one."""
    monkeypatch.setenv("NSM_PROGRESS_SECONDS", "0")
    sink = io.StringIO()
    progress = make_progress(Console(file=sink, force_terminal=False))
    data, programs = tiny
    overrides = {**FAST, "n_steps": 4, "eval_every": 2}
    train(data, tmp_path / "r", programs=programs, overrides=overrides, kit=KIT, progress=progress)
    progress.stop()
    lines = [line for line in sink.getvalue().splitlines() if " training " in line]
    after = [line for line in lines if "training 3/4" in line]
    assert after and all(re.search(r"dev \d\.\d{3} at step 2, best \d\.\d{3} \(step \d\)", x) for x in after)
    assert "dev" not in next(line for line in lines if "training 1/4" in line)


def test_dev_subset_first_or_a_fixed_random_sample():
    ids = [f"q{i}" for i in range(1000)]
    assert dev_subset(ids, 0, "random") == ids and dev_subset(ids, 5000, "random") == ids
    assert dev_subset(ids, 10, "first") == ids[:10]
    sample = dev_subset(ids, 200, "random")
    assert len(sample) == 200 and sample == sorted(sample, key=ids.index)  # kept in split order
    assert sample == dev_subset(list(ids), 200, "random")  # the same sample every time (no run seed)
    assert max(ids.index(q) for q in sample) > 500  # spread over the split, not its head
    with pytest.raises(ConfigError, match="eval_sample"):
        resolve_config("wtq", "mapo", {"eval_sample": "last"})


def test_mapo_without_programs_fills_its_buffer_by_exploration(tiny, tmp_path):
    data, _ = tiny
    settings = {**FAST, **ON_POLICY, "n_steps": 40, "n_explore": 4}
    result = train(data, tmp_path / "run", overrides=settings, kit=KIT)
    assert result.buffer_coverage == 1.0  # systematic exploration found a program for every question
    assert _train_accuracy(tmp_path / "run", data) == 1.0


# ----- MAPO's weights, exactly --------------------------------------------------------------------------


def _cfg(**kw) -> TrainConfig:
    cfg = resolve_config("wtq", "mapo")
    for k, v in kw.items():
        cfg.set(k, v)
    return cfg


A, B, C, D = (1, 0), (2, 0), (3, 0), (4, 0)
GEN = torch.Generator().manual_seed(0)


def test_mapo_clips_small_buffer_probability_at_alpha():
    q = objectives.QuestionData(
        [A, B], [math.log(0.02), math.log(0.03)], [objectives.Sample(C, 1.0), objectives.Sample(A, 1.0)]
    )
    items, stats = objectives.weigh(_cfg(n_replay=2), [q], GEN)
    weights = {(it.tokens, it.kind): it.weight for it in items}
    assert weights[(A, "replay")] == pytest.approx(
        0.1 * 0.4
    )  # enumerated: w * p_i / pi_B, w = max(0.05, 0.1)
    assert weights[(B, "replay")] == pytest.approx(0.1 * 0.6)
    assert weights[(C, "nonreplay")] == pytest.approx(0.9)  # new correct program: (1 - w) * R
    assert (A, "nonreplay") not in weights  # in the buffer: rejected, not redrawn
    assert stats.clipped == 1 and stats.pi_b == pytest.approx(0.05)


def test_alpha_schedule_moves_from_mml_like_weights_to_the_published_clipping():
    cfg = _cfg(n_replay=2, min_replay_weight_start=1.0, min_replay_weight_steps=100)
    assert cfg.at_step(1).min_replay_weight == 1.0
    assert cfg.at_step(51).min_replay_weight == pytest.approx(0.55)
    assert cfg.at_step(101).min_replay_weight == pytest.approx(0.1) == cfg.at_step(5000).min_replay_weight
    assert _cfg().at_step(7) == _cfg()  # no schedule: the config itself
    q = objectives.QuestionData([A], [math.log(0.02)], [objectives.Sample(C, 1.0)])
    early = {(it.tokens, it.kind): it.weight for it in objectives.weigh(cfg.at_step(1), [q], GEN)[0]}
    assert early[(A, "replay")] == 1.0 and early[(C, "nonreplay")] == 0.0  # MML-like at the start
    late = {(it.tokens, it.kind): it.weight for it in objectives.weigh(cfg.at_step(101), [q], GEN)[0]}
    assert late[(A, "replay")] == pytest.approx(0.1) and late[(C, "nonreplay")] == pytest.approx(0.9)
    with pytest.raises(ConfigError):
        _cfg(min_replay_weight_start=1.0).validate()  # a schedule needs a length


def test_learning_rate_decays_along_a_cosine_and_then_stays():
    cfg = _cfg(learning_rate=1e-3, learning_rate_end=1e-4, learning_rate_steps=100)
    assert cfg.at_step(1).learning_rate == 1e-3
    assert cfg.at_step(51).learning_rate == pytest.approx(5.5e-4)  # half way: the mean of the two
    assert cfg.at_step(26).learning_rate == pytest.approx(1e-4 + 9e-4 * (1 + math.cos(math.pi / 4)) / 2)
    assert cfg.at_step(101).learning_rate == pytest.approx(1e-4) == cfg.at_step(9000).learning_rate
    assert _cfg().at_step(9000).learning_rate == 1e-3  # constant by default, as published
    with pytest.raises(ConfigError):
        _cfg(learning_rate_end=1e-4).validate()  # a decay needs a length
    with pytest.raises(ConfigError):
        _cfg(learning_rate_end=1e-2, learning_rate_steps=10).validate()  # it only decays


def test_mapo_weights_above_alpha_and_without_buffer():
    q1 = objectives.QuestionData(
        [A, B], [math.log(0.5), math.log(0.3)], [objectives.Sample(C, 1.0), objectives.Sample(D, 0.0)]
    )
    q2 = objectives.QuestionData([], [], [objectives.Sample(C, 1.0)])
    items, stats = objectives.weigh(_cfg(n_replay=2), [q1, q2], GEN)
    got = [(it.question, it.tokens, it.kind, round(it.weight, 12)) for it in items]
    assert got == [
        (0, A, "replay", 0.5),
        (0, B, "replay", 0.3),
        (0, C, "nonreplay", 0.2),
        (0, D, "nonreplay", 0.0),
        (1, C, "nonreplay", 1.0),  # no buffer: the on-policy sample carries the whole weight
    ]
    assert stats.clipped == 0


def test_mapo_samples_one_buffer_program_in_proportion_to_pi():
    q = objectives.QuestionData([A, B, C], [math.log(0.6), math.log(0.3), math.log(0.1)], [])
    gen = torch.Generator().manual_seed(1)
    counts = {A: 0, B: 0, C: 0}
    for _ in range(3000):
        (item,), _ = objectives.weigh(_cfg(n_replay=1), [q], gen)
        assert item.weight == pytest.approx(1.0)  # pi_B = 1 >= alpha, all of it on the one sample
        counts[item.tokens] += 1
    assert counts[A] / 3000 == pytest.approx(0.6, abs=0.04)
    assert counts[C] / 3000 == pytest.approx(0.1, abs=0.03)


def test_trainer_prob_reweighting_and_the_squared_quirk():
    items = [
        objectives.Item(0, A, 0.0, "replay", 1.0, 0.1),
        objectives.Item(0, B, 0.0, "replay", 1.0, 0.1),
        objectives.Item(0, C, 0.9, "nonreplay", 1.0, 0.1),
    ]
    logps = torch.tensor([math.log(0.02), math.log(0.03), math.log(0.5)])
    fixed = objectives.reweigh_with_learner(items, logps, _cfg())
    assert fixed == pytest.approx([0.04, 0.06, 0.9])
    quirk = objectives.reweigh_with_learner(items, logps, _cfg(squared_nonreplay_weight=True))
    assert quirk[2] == pytest.approx(0.81)  # (1 - w)^2, OFF on WikiSQL


def test_other_objectives_weights():
    q = objectives.QuestionData(
        [A, B], [math.log(0.2), math.log(0.6)], [objectives.Sample(C, 1.0), objectives.Sample(D, 0.0)], 1.0
    )
    mml, _ = objectives.weigh(_cfg(algo="mml", n_replay=2), [q], GEN)
    assert [round(it.weight, 12) for it in mml] == [0.25, 0.75]
    iml, _ = objectives.weigh(_cfg(algo="iml", n_replay=2, replay_mode="uniform"), [q], GEN)
    assert [it.weight for it in iml] == [0.5, 0.5]
    hard, _ = objectives.weigh(_cfg(algo="hard-em"), [q], GEN)
    assert [(it.tokens, it.weight) for it in hard] == [(B, 1.0)]
    pg, _ = objectives.weigh(_cfg(algo="reinforce", use_baseline=True), [q], GEN)
    assert [it.weight for it in pg] == [0.5, -0.5]
    sc, _ = objectives.weigh(_cfg(algo="self-critical"), [q], GEN)
    assert [it.weight for it in sc] == [0.0, -1.0]


def test_loss_normalisation_and_entropy_sign():
    w, lp = torch.tensor([1.0, 0.5]), torch.tensor([-1.0, -2.0])
    ent = torch.tensor([3.0])
    fixed = objectives.loss(w, lp, ent, _cfg(entropy_coeff=0.01), n_samples=2)
    assert float(fixed) == pytest.approx(2.0 / 2 - 0.01 * 3.0 / 2)  # maximise entropy
    official = _cfg(entropy_coeff=0.01, normalize_by="batch_size", entropy_sign="official")
    assert float(objectives.loss(w, lp, ent, official, n_samples=2)) == pytest.approx(
        2.0 / 50 + 0.01 * 3.0 / 50
    )


def test_exploration_cache_marks_prefixes_lazily(tiny):
    data, _ = tiny
    dataset = load_dataset(data)
    ex = dataset.examples("random-split-1-train")[3]
    env = dataset.environment(ex)
    cache = ExploreCache()
    count_all = env.encode("(count all_rows)")
    assert cache.add(ex.id, env, count_all) and not cache.add(ex.id, env, count_all)
    prefix = tuple(count_all[:3])  # "( count all_rows" has one continuation: ")"
    # the finished program is explored, so is its single-continuation prefix chain up to "( count"
    assert count_all[1] in cache.excluded(ex.id, (count_all[0],))
    assert prefix not in cache.table(ex.id)
    restored = ExploreCache.from_records(json.loads(json.dumps(list(cache.to_records()))))
    assert restored.table(ex.id) == cache.table(ex.id)


# ----- checkpoints ----------------------------------------------------------------------------------------


def _strip_timing(lines: list[dict]) -> list[dict]:
    timing = ("questions_per_second", "wall_seconds", "cpu_seconds")
    return [{k: v for k, v in line.items() if k not in timing} for line in lines]


@pytest.mark.parametrize(("average_decay", "log_every"), [(0.0, 1), (0.9, 1), (0.0, 3)])
def test_killed_and_resumed_run_matches_an_uninterrupted_one(tiny, tmp_path, average_decay, log_every):
    """Also with a weight average (`average_decay`), which the checkpoint must carry, and with a metrics
    line every 3 steps, whose window a checkpoint at step 4 cuts (found by bench/kill_resume.py: the first
    line after a resume averaged only the steps since the resume)."""
    data, programs = tiny
    settings = {**FAST, "n_steps": 12, "checkpoint_every": 4, "eval_every": 5, "questions_per_step": 4}
    settings.update(average_decay=average_decay, log_every=log_every)
    full = train(data, tmp_path / "full", programs=programs, overrides=settings, kit=KIT)
    killed = train(data, tmp_path / "resumed", programs=programs, overrides=settings, kit=KIT, stop_after=7)
    assert killed.stopped_early and RunDir(tmp_path / "resumed").read_metrics()[-1]["step"] <= 4
    resumed = train(data, tmp_path / "resumed", resume=True, kit=KIT)
    assert resumed.step == full.step == 12
    a, b = RunDir(tmp_path / "full"), RunDir(tmp_path / "resumed")
    assert _strip_timing(a.read_metrics()) == _strip_timing(b.read_metrics())
    wa, wb = a.load_weights("last")[0], b.load_weights("last")[0]
    assert all(torch.equal(wa[k], wb[k]) for k in wa)
    assert (a.checkpoint_dir / "buffer.jsonl").read_text() == (b.checkpoint_dir / "buffer.jsonl").read_text()
    assert json.loads((a.best_dir / "info.json").read_text()) == json.loads(
        (b.best_dir / "info.json").read_text()
    )
    ba, bb = a.load_weights("best")[0], b.load_weights("best")[0]
    assert all(torch.equal(ba[k], bb[k]) for k in ba)


def test_weight_average_is_what_evaluation_keeps(tiny, tmp_path):
    data, programs = tiny
    settings = {**FAST, "n_steps": 6, "eval_every": 6, "average_decay": 0.9}
    train(data, tmp_path / "run", programs=programs, overrides=settings, kit=KIT)
    run = RunDir(tmp_path / "run")
    (best, info), (last, _) = run.load_weights("best"), run.load_weights("last")
    assert info["averaged"] is True and info["step"] == 6
    assert any(not torch.equal(best[k], last[k]) for k in best if torch.is_floating_point(best[k]))


def test_last_moving_average_can_be_loaded_and_evaluated(tiny, tmp_path):
    """`--weights average`: the last checkpoint's moving average, the trained weights elsewhere; refused
    with one line for a run that keeps no average."""
    data, programs = tiny
    settings = {**FAST, "n_steps": 6, "eval_every": 0, "checkpoint_every": 6}
    train(data, tmp_path / "avg", programs=programs, overrides={**settings, "average_decay": 0.9}, kit=KIT)
    train(data, tmp_path / "plain", programs=programs, overrides={**settings, "average_decay": 0.0}, kit=KIT)
    run = RunDir(tmp_path / "avg")
    (average, info), (last, _) = run.load_weights("average"), run.load_weights("last")
    stored = load_tensors(run.checkpoint_dir / "average.pt")
    assert info == {"weights": "average", "step": 6} and set(average) == set(last)
    assert all(torch.equal(average[k], stored[k] if k in stored else last[k]) for k in average)
    assert any(not torch.equal(average[k], last[k]) for k in stored)
    result = evaluate([tmp_path / "avg"], load_dataset(data), "train", beam=0, weights="average", kit=KIT)
    assert result.weights[0]["weights"] == "average" and result.n > 0
    with pytest.raises(CheckpointError, match="keeps no moving average"):
        RunDir(tmp_path / "plain").load_weights("average")
    with pytest.raises(CheckpointError, match="best, last, average"):
        run.load_weights("newest")
    shutil.rmtree(run.best_dir)  # before any evaluation: best falls back to the last weights, and says so
    fallback, info = run.load_weights("best")
    assert info["weights"] == "last" and all(torch.equal(fallback[k], last[k]) for k in last)


def test_weight_average_can_start_at_a_resume_and_survives_a_kill(tiny, tmp_path):
    """Turned on when a run is resumed, the average starts from the weights of that step (its warm-up
    counts from there); killed and resumed again, it continues exactly."""
    data, programs = tiny
    settings = {**FAST, "n_steps": 3, "checkpoint_every": 1, "eval_every": 3, "average_decay": 0.0}
    later = {"n_steps": 8, "average_decay": 0.9}
    for name in ("once", "twice"):
        train(data, tmp_path / name, programs=programs, overrides=settings, kit=KIT)
    train(data, tmp_path / "once", resume=True, overrides=later, kit=KIT)
    killed = train(data, tmp_path / "twice", resume=True, overrides=later, kit=KIT, stop_after=5)
    assert killed.stopped_early
    train(data, tmp_path / "twice", resume=True, kit=KIT)  # keeps the average it was resumed with
    a, b = RunDir(tmp_path / "once"), RunDir(tmp_path / "twice")
    ca, cb = a.load_checkpoint(), b.load_checkpoint()
    assert ca.state["step"] == 8 and ca.state["average_start"] == cb.state["average_start"] == 3
    assert ca.average is not None and cb.average is not None
    assert all(torch.equal(ca.average[k], cb.average[k]) for k in ca.average)
    assert any(not torch.equal(ca.average[k], ca.model[k]) for k in ca.average)
    assert _strip_timing(a.read_metrics()) == _strip_timing(b.read_metrics())
    assert [r["average_decay"] for r in a.read_config()["resumes"]] == [0.9]


def test_a_learning_rate_decayed_to_zero_stops_the_weights(tiny, tmp_path):
    """The optimizer uses the scheduled rate: decayed to 0 after the first step, the weights stay put."""
    data, programs = tiny
    base = {
        **FAST,
        "checkpoint_every": 1,
        "eval_every": 0,
        "learning_rate_end": 0.0,
        "learning_rate_steps": 1,
    }
    train(data, tmp_path / "one", programs=programs, overrides={**base, "n_steps": 1}, kit=KIT)
    train(data, tmp_path / "three", programs=programs, overrides={**base, "n_steps": 3}, kit=KIT)
    train(data, tmp_path / "free", programs=programs, overrides={**FAST, "n_steps": 3}, kit=KIT)
    one, three, free = (RunDir(tmp_path / n).load_weights("last")[0] for n in ("one", "three", "free"))
    assert all(torch.equal(one[k], three[k]) for k in one)
    assert any(not torch.equal(one[k], free[k]) for k in one if torch.is_floating_point(one[k]))


def test_weight_decay_shrinks_each_weight_before_the_adam_step(tiny, tmp_path):
    """AdamW's rule: a step from weights w gives the plain Adam step's result minus lr * wd * w. Both runs
    share the first step (the tiny model starts from zeros, which decay leaves alone), so at step 2 they
    differ by exactly lr * wd * (the weights after step 1)."""
    data, programs = tiny
    base = {**FAST, "checkpoint_every": 1, "eval_every": 0, "learning_rate": 1e-2}
    runs = {"one": {"n_steps": 1}, "adam": {"n_steps": 2}, "decayed": {"n_steps": 2, "weight_decay": 5.0}}
    for name, extra in runs.items():
        train(data, tmp_path / name, programs=programs, overrides={**base, **extra}, kit=KIT)
    one, adam, decayed = (RunDir(tmp_path / n).load_weights("last")[0] for n in runs)
    floats = [k for k in one if torch.is_floating_point(one[k]) and one[k].abs().sum() > 0]
    assert floats
    for k in floats:
        torch.testing.assert_close(decayed[k], adam[k] - 1e-2 * 5.0 * one[k], rtol=1e-5, atol=1e-7)
        assert not torch.equal(decayed[k], adam[k])
    with pytest.raises(ConfigError):
        _cfg(weight_decay=-0.1).validate()


def test_new_run_refuses_an_existing_directory(tiny, tmp_path):
    data, programs = tiny
    train(data, tmp_path / "run", programs=programs, overrides={**FAST, "n_steps": 1}, kit=KIT)
    with pytest.raises(CheckpointError, match="--resume"):
        train(data, tmp_path / "run", programs=programs, overrides={**FAST, "n_steps": 1}, kit=KIT)


def _killed_before_first_checkpoint(run: Path) -> None:
    """The state a kill leaves between writing config.json and finishing the step-0 checkpoint: a config,
    a vocabulary, and a staging directory the checkpoint swap never reached."""
    for name in ("checkpoint", "best"):
        shutil.rmtree(run / name, ignore_errors=True)
    (run / "metrics.jsonl").unlink(missing_ok=True)
    (run / ".checkpoint.abc123.partial").mkdir()
    (run / ".checkpoint.abc123.partial" / "model.pt").write_bytes(b"\0" * 100)


def test_run_killed_before_its_first_checkpoint_resumes_to_the_same_end(tiny, tmp_path):
    data, programs = tiny
    settings = {**FAST, "n_steps": 6, "checkpoint_every": 100, "eval_every": 3, "questions_per_step": 4}
    full = train(data, tmp_path / "full", programs=programs, overrides=settings, kit=KIT)
    run = tmp_path / "killed"
    killed = train(data, run, programs=programs, overrides=settings, kit=KIT, stop_after=2)
    assert killed.stopped_early and RunDir(run).has_checkpoint()  # the step-0 checkpoint
    assert json.loads((run / "checkpoint" / "state.json").read_text())["step"] == 0
    _killed_before_first_checkpoint(run)
    resumed = train(data, run, resume=True, kit=KIT)
    assert resumed.step == full.step == 6
    assert not list(run.glob(".*.partial"))  # the stale staging directory is gone
    a, b = RunDir(tmp_path / "full"), RunDir(run)
    assert _strip_timing(a.read_metrics()) == _strip_timing(b.read_metrics())
    wa, wb = a.load_weights("last")[0], b.load_weights("last")[0]
    assert all(torch.equal(wa[k], wb[k]) for k in wa)
    assert [r["step"] for r in b.read_config()["resumes"]] == [0]


def test_run_killed_before_its_config_starts_again_with_the_same_command(tiny, tmp_path):
    data, programs = tiny
    settings = {**FAST, "n_steps": 2}
    run = tmp_path / "run"
    run.mkdir()
    (run / "vocab.json").write_text("{}")  # written just before config.json
    (run / ".config.json.x1.tmp").write_text("{")  # the config write the kill cut short
    with pytest.raises(CheckpointError, match="without --resume"):
        train(data, run, resume=True, kit=KIT)
    result = train(data, run, programs=programs, overrides=settings, kit=KIT)
    assert result.step == 2 and RunDir(run).exists() and not list(run.glob(".*.tmp"))


def test_a_directory_with_other_files_is_not_taken_for_an_unfinished_run(tiny, tmp_path):
    data, programs = tiny
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(CheckpointError, match="already exists"):
        train(data, tmp_path, programs=programs, overrides={**FAST, "n_steps": 1}, kit=KIT)
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_a_run_directory_in_use_is_refused_with_one_clear_error(tiny, tmp_path):
    data, programs = tiny
    run = tmp_path / "run"
    with output_lock(run, "run directory"):  # another nsm process writing it
        with pytest.raises(DataError, match="being written by another nsm process"):
            train(data, run, programs=programs, overrides={**FAST, "n_steps": 1}, kit=KIT)
    assert train(data, run, programs=programs, overrides={**FAST, "n_steps": 1}, kit=KIT).step == 1


def test_failed_set_up_leaves_no_directory_behind(tiny, tmp_path):
    data, programs = tiny
    with pytest.raises(DataError, match="split"):
        train(data, tmp_path / "typo", programs=programs, overrides={**FAST, "train_split": "nope"}, kit=KIT)
    assert not (tmp_path / "typo").exists()


def test_unwritable_output_is_one_clear_error(tiny, tmp_path):
    data, programs = tiny
    (tmp_path / "a-file").write_text("")  # a run directory cannot be made inside a file (true for root too)
    with pytest.raises(DataError, match="cannot write run directory"):
        train(data, tmp_path / "a-file" / "run", programs=programs, overrides={**FAST, "n_steps": 1}, kit=KIT)


class _Payload:
    def __reduce__(self):
        return (print, ("this would run",))


def test_checkpoint_with_a_pickle_payload_is_refused(tiny, tmp_path):
    data, programs = tiny
    run = tmp_path / "run"
    train(data, run, programs=programs, overrides={**FAST, "n_steps": 2}, kit=KIT)
    torch.save({"table.weight": torch.zeros(1), "evil": _Payload()}, run / "checkpoint" / "model.pt")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # torch's own warning about the payload must not reach the user
        with pytest.raises(CheckpointError, match="pickle payload"):
            load_tensors(run / "checkpoint" / "model.pt")
    with pytest.raises(CheckpointError, match="pickle payload"):
        train(data, run, resume=True, overrides={"n_steps": 3}, kit=KIT)


def test_damaged_run_files_get_one_clear_message(tiny, tmp_path):
    data, programs = tiny
    run = tmp_path / "run"
    train(data, run, programs=programs, overrides={**FAST, "n_steps": 2}, kit=KIT)
    weights = run / "best" / "model.pt"
    good = weights.read_bytes()

    def message(which: str = "best") -> str:
        with pytest.raises(CheckpointError) as caught:
            load_run_model(run, KIT, which)
        assert "\n" not in str(caught.value)
        return str(caught.value)

    weights.write_bytes(b"")
    assert "is empty" in message()
    weights.write_bytes(good[: len(good) // 2])
    assert "not a readable tensor file" in message()
    torch.save({"bogus": torch.zeros(2)}, weights)
    assert "do not fit the configured model" in message() and "missing" in message()
    weights.write_bytes(good)
    vocab = (run / "vocab.json").read_text()
    (run / "vocab.json").write_text('{"nope": 1}')
    assert "vocabulary" in message()
    (run / "vocab.json").write_text(vocab)
    shutil.rmtree(run / "checkpoint")
    assert "no last checkpoint" in message("last")


def test_damaged_dataset_lines_are_named(tiny, tmp_path):
    data, _ = tiny
    copy = tmp_path / "data"
    shutil.copytree(data, copy)
    lines = (copy / "tables.jsonl").read_text().splitlines()
    lines[1] = lines[1][:20]
    (copy / "tables.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError, match=r"tables.jsonl line 2 is corrupt \(invalid JSON"):
        _ = load_dataset(copy).tables
    split = next(iter(load_dataset(copy).splits))
    (copy / f"{split}.jsonl").write_text('{"id": "q"}\n')
    with pytest.raises(DataError, match=f"{split}.jsonl line 1 is corrupt \\(no 'table_id'\\)"):
        load_dataset(copy).examples(split)


# ----- evaluation -----------------------------------------------------------------------------------------


def _train_seeds(tiny, tmp_path: Path, prefix: str, seeds: tuple[int, ...], n_steps: int) -> None:
    """Small stand-in-policy runs `tmp_path/<prefix><seed>`, one per seed (for evaluation and ensembles)."""
    data, programs = tiny
    for seed in seeds:
        overrides = {**FAST, "n_steps": n_steps, "seed": seed}
        train(data, tmp_path / f"{prefix}{seed}", programs=programs, overrides=overrides, kit=KIT)


def test_eval_writes_predictions_and_ensembles(tiny, tmp_path):
    data, _ = tiny
    _train_seeds(tiny, tmp_path, "r", (0, 1), n_steps=30)
    dataset = load_dataset(data)
    single = evaluate([tmp_path / "r0"], dataset, "train", beam=3, kit=KIT)
    assert single.n == 6 and single.accuracy == 1.0
    p = single.predictions[0]
    assert p.program and p.correct and 0 < p.prob <= 1 and p.question
    # the original's decoding (programs with unused results kept) answers these as well
    assert evaluate([tmp_path / "r0"], dataset, "train", beam=3, kit=KIT, keep_unused=True).accuracy == 1.0
    both = evaluate([tmp_path / "r0", tmp_path / "r1"], dataset, "dev", beam=3, kit=KIT)
    assert both.n == 2 and len(both.predictions) == 2 and both.split == "random-split-1-dev"
    assert all(0 <= pr.prob <= 1 for pr in both.predictions)


def test_an_ensemble_directory_evaluates_as_its_members_do(tiny, tmp_path):
    """`nsm eval DIR` on a directory whose ensemble.json names runs = `nsm eval RUN --ensemble RUN2`."""
    data, _ = tiny
    _train_seeds(tiny, tmp_path / "ens", "r", (0, 1), n_steps=30)
    (tmp_path / "ens" / "ensemble.json").write_text('{"format": "nsm-ensemble", "members": ["r0", "r1"]}')
    dataset = load_dataset(data)
    listed = evaluate([tmp_path / "ens" / "r0", tmp_path / "ens" / "r1"], dataset, "dev", beam=3, kit=KIT)
    packed = evaluate([tmp_path / "ens"], dataset, "dev", beam=3, kit=KIT)
    assert packed.runs == listed.runs and len(packed.runs) == 2
    assert [asdict(p) for p in packed.predictions] == [asdict(p) for p in listed.predictions]
    # in worker processes: the second member's job ships the tables the first member bound
    sharded = evaluate([tmp_path / "ens"], dataset, "dev", beam=3, kit=KIT, backend="processes", workers=2)
    assert [asdict(p) for p in sharded.predictions] == [asdict(p) for p in listed.predictions]


def test_answer_vote_sums_the_programs_of_one_answer():
    totals = {"(a)": 0.4, "(b)": 0.35, "(c)": 0.25}
    answers = {"(a)": ["x"], "(b)": ["y", "z"], "(c)": ["z", "y"]}  # the same answer in another order
    assert choose(totals, answers, "program") == "(a)"  # the original's choice: the single best program
    assert choose(totals, answers, "answer") == "(b)"  # 0.6 for {y, z}: its most probable program
    assert choose(totals, {**answers, "(c)": ["z"]}, "answer") == "(a)"  # three answers: 0.4 wins
    assert choose({"(a)": 0.5, "(b)": 0.5}, {"(a)": [1], "(b)": [2]}, "answer") == "(a)"  # ties: first
    assert choose(totals, {t: [] for t in totals}, "answer") == "(a)"  # one (empty) answer: its best program
    with pytest.raises(ValueError, match="vote"):
        choose(totals, answers, "majority")


def test_cli_eval_writes_predictions(tiny, tmp_path, monkeypatch):
    from nsmcli.cli import evaluate as eval_cmd
    from nsmcli.train import evaluate as eval_lib

    data, programs = tiny
    train(data, tmp_path / "run", programs=programs, overrides={**FAST, "n_steps": 20}, kit=KIT)
    monkeypatch.setattr(eval_lib, "default_kit", lambda: KIT)
    app = _app(eval_cmd.eval_)
    out = tmp_path / "pred.jsonl"
    res = CliRunner().invoke(
        app,
        [
            str(tmp_path / "run"),
            "--data",
            str(data),
            "--split",
            "train",
            "--beam",
            "2",
            "--out",
            str(out),
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["questions"] == 6 and summary["accuracy"] == 1.0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 6 and {"question", "program", "answer", "correct"} <= set(records[0])


# ----- CLI bad input --------------------------------------------------------------------------------------


def _app(command):
    import typer

    app = typer.Typer()
    app.command()(command)  # a one-command app: invoked without the command name
    return app


def _run_main(args: list[str]):
    """The real entry point's error policy: NsmError -> one line, exit 2."""
    import subprocess
    import sys

    code = (
        "import sys, typer\n"
        "from nsmcli.cli import main as m\n"
        "from nsmcli.cli.evaluate import eval_\n"
        "from nsmcli.cli.train import train\n"
        "m.app.command('train')(train)\n"
        "m.app.command('eval')(eval_)\n"
        "sys.argv = ['nsm'] + sys.argv[1:]\n"
        "m.main()\n"
    )
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)


def test_cli_missing_run_dir_is_one_line_exit_2(tiny, tmp_path):
    data, _ = tiny
    done = _run_main(["eval", str(tmp_path / "nope"), "--data", str(data)])
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "does not exist" in done.stderr


def test_cli_corrupt_config_is_one_line_exit_2(tiny, tmp_path):
    data, _ = tiny
    run = tmp_path / "run"
    run.mkdir()
    (run / "config.json").write_text("{not json")
    for args in (
        ["eval", str(run), "--data", str(data)],
        ["train", str(data), "--out", str(run), "--resume"],
    ):
        done = _run_main(args)
        assert done.returncode == 2, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and "corrupt" in done.stderr


def test_cli_eval_checks_its_output_path_before_evaluating(tiny, tmp_path):
    data, programs = tiny
    train(data, tmp_path / "run", programs=programs, overrides={**FAST, "n_steps": 2}, kit=KIT)
    (tmp_path / "taken").mkdir()
    done = _run_main(["eval", str(tmp_path / "run"), "--data", str(data), "--out", str(tmp_path / "taken")])
    assert done.returncode == 2 and "is a directory" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_cli_rejects_unknown_hyper_parameter(tiny, tmp_path):
    data, _ = tiny
    done = _run_main(["train", str(data), "--out", str(tmp_path / "run"), "--set", "learning_rat=0.1"])
    assert done.returncode == 2 and "unknown hyper-parameter" in done.stderr


@pytest.mark.parametrize(
    ("assignment", "message"),
    [
        ("model.hiden_size=16", "unknown hyper-parameter 'model.hiden_size'"),
        ("model.use_glove=ture", "model.use_glove must be bool"),
        ("model.dropout=lots", "model.dropout must be float"),
        ("model.hidden_size=1.5", "model.hidden_size must be int"),
        ("model.attention=multiplicative", "model.attention must be one of"),
    ],
)
def test_cli_rejects_bad_model_hyper_parameters(tiny, tmp_path, assignment, message):
    data, programs = tiny
    args = ["train", str(data), "--programs", str(programs), "--out", str(tmp_path / "run")]
    args += ["--set", assignment]
    done = _run_main(args)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_cli_minutes_limit_stops_with_a_summary(tiny, tmp_path):
    data, programs = tiny
    args = ["train", str(data), "--programs", str(programs), "--out", str(tmp_path / "run"), "--json", "-q"]
    args += ["--minutes", "0.000001", "--set", "model.hidden_size=16", "--set", "model.use_glove=false"]
    done = _run_main(args)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["stopped_by_time"] is True and summary["step"] == 1 and summary["wall_seconds"] > 0


def test_actor_processes_train_too(tiny, tmp_path):
    """--actors 2: the same actor function in two spawned workers on one-step-old weights."""
    data, programs = tiny
    main_cpu = time.process_time()
    result = train(
        data, tmp_path / "run", programs=programs, overrides={**FAST, "n_steps": 30}, actors=2, kit=KIT
    )
    main_cpu = time.process_time() - main_cpu
    assert result.step == 30
    # the CPU time a run reports includes its workers' (each imports torch and builds a model: > 0)
    assert RunDir(tmp_path / "run").read_metrics()[-1]["cpu_seconds"] > main_cpu
    assert _train_accuracy(tmp_path / "run", data) == 1.0
    assert RunDir(tmp_path / "run").read_config()["runtime"]["actors"] == 2  # the run says how it ran
    # the samples of a step depend on its weights and batch only, not on which worker or when: a second
    # run repeats the first (what `make models` relies on to rebuild the bundled WTQ model)
    again = train(
        data, tmp_path / "again", programs=programs, overrides={**FAST, "n_steps": 30}, actors=2, kit=KIT
    )
    assert again.step == 30
    first, second = (_strip_timing(RunDir(tmp_path / n).read_metrics()) for n in ("run", "again"))
    assert first == second


# ----- the same with the real neural parser -------------------------------------------------------------

# min_word_count 1: with six questions, most words occur once and would all be <UNK> otherwise.
REAL_MODEL = {"learning_rate": 0.01, "model.hidden_size": 32, "model.dropout": 0.0, "model.min_word_count": 1}


@pytest.fixture
def without_glove(monkeypatch):
    """The real parser as on a machine without the optional GloVe package (learned embeddings), so these
    tests train the same model whether or not `pip install nsmcli[glove]` was run."""
    from nsmcli.model import parser as model_parser

    monkeypatch.setattr(model_parser, "load_glove_rows", lambda vocab, root=None: None)


@pytest.mark.parametrize("algo", ["mapo", "mml", "iml", "hard-em"])
def test_real_parser_reaches_full_training_accuracy(tiny, tmp_path, algo, without_glove):
    """`nsmcli.model.ProgramModel` (small) learns the tiny training set with every buffer-based objective."""
    torch.set_num_threads(1)
    data, programs = tiny
    run = tmp_path / algo
    train(data, run, programs=programs, algo=algo, overrides={**FAST, **REAL_MODEL, "n_steps": 100})
    result = evaluate([run], load_dataset(data), "train", beam=0, weights="last")
    assert result.accuracy == 1.0


def test_dot_attention_parser_learns_and_its_runs_reload(tiny, tmp_path, without_glove):
    """--set model.attention=dot trains, is saved in the run's config, and evaluation rebuilds that model."""
    torch.set_num_threads(1)
    data, programs = tiny
    run = tmp_path / "dot"
    over = {**FAST, **REAL_MODEL, "n_steps": 100, "model.attention": "dot"}
    train(data, run, programs=programs, overrides=over)
    assert RunDir(run).read_config()["model"]["attention"] == "dot"
    assert evaluate([run], load_dataset(data), "train", beam=0, weights="last").accuracy == 1.0
    with pytest.raises(ConfigError, match="attention"):
        train(
            data, tmp_path / "bad", programs=programs, overrides={**FAST, "model.attention": "multiplicative"}
        )


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device on this machine")
def test_learner_on_cuda_learns_and_resumes(tiny, tmp_path, without_glove):
    """--device cuda: the learner (and dev evaluation) on the GPU, sampling on a CPU copy; checkpoints load
    on the CPU and a resumed GPU run continues."""
    torch.set_num_threads(1)
    data, programs = tiny
    run = tmp_path / "cuda"
    over = {**FAST, **REAL_MODEL, "n_steps": 100, "checkpoint_every": 50}
    killed = train(data, run, programs=programs, overrides=over, device="cuda", stop_after=60)
    assert killed.stopped_early
    result = train(data, run, resume=True, device="cuda")
    assert result.step == 100
    assert evaluate([run], load_dataset(data), "train", beam=0, weights="last").accuracy == 1.0


def test_cuda_without_a_device_is_a_clear_error(tiny, tmp_path, monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    data, programs = tiny
    with pytest.raises(Exception, match="no CUDA device"):
        train(data, tmp_path / "run", programs=programs, overrides=FAST, device="cuda", kit=KIT)


#: On-policy objectives with the real parser: no buffer, so they need many samples, an entropy bonus and a
#: gentler step. Even so the policy can collapse: "highest number of goals" and "goals in total" share words,
#: a reward on one question's `sum` pulls the other's policy onto `sum`, and once all 16 samples agree the
#: baseline cancels every gradient (the paper's REINFORCE failure, in miniature). With learned embeddings,
#: 400 steps reach 100% for REINFORCE with seeds 2 and 3 (75% with seeds 0 and 1) and for self-critical with
#: seeds 0-2; the test pins a seed that succeeds, so it checks that these objectives can learn the set end to
#: end with the real model.
ON_POLICY_REAL = {"n_steps": 400, "n_policy": 16, "learning_rate": 0.003, "entropy_coeff": 0.05}


@pytest.mark.parametrize(
    ("algo", "settings"),
    [
        ("reinforce", {"use_baseline": True, "seed": 2}),
        ("self-critical", {"seed": 1}),
    ],
)
def test_real_parser_learns_the_easy_set_on_policy(tiny, tmp_path, algo, settings, without_glove):
    torch.set_num_threads(1)
    data, _ = tiny
    run = tmp_path / algo
    overrides = {**FAST, **REAL_MODEL, **ON_POLICY, **ON_POLICY_REAL, **settings}
    train(data, run, algo=algo, overrides=overrides)
    result = evaluate([run], load_dataset(data), "easy-train", beam=0, weights="last")
    assert result.accuracy == 1.0


def test_cli_eval_ensemble_syntax(tiny, tmp_path, monkeypatch):
    """`nsm eval RUN --ensemble RUN2 RUN3`, as documented; several runs without --ensemble are refused."""
    from nsmcli.cli import evaluate as eval_cmd
    from nsmcli.train import evaluate as eval_lib

    data, _ = tiny
    _train_seeds(tiny, tmp_path, "run", (1, 2), n_steps=10)
    monkeypatch.setattr(eval_lib, "default_kit", lambda: KIT)
    app = _app(eval_cmd.eval_)
    runs = [str(tmp_path / "run1"), "--ensemble", str(tmp_path / "run2"), str(tmp_path / "run1")]
    res = CliRunner().invoke(app, [*runs, "--data", str(data), "--split", "train", "--json"])
    assert res.exit_code == 0, res.output
    assert len(json.loads(res.stdout)["runs"]) == 3 and json.loads(res.stdout)["vote"] == "answer"
    res = CliRunner().invoke(
        app, [*runs, "--data", str(data), "--split", "train", "--json", "--vote", "program"]
    )
    assert res.exit_code == 0 and json.loads(res.stdout)["vote"] == "program"
    res = CliRunner().invoke(app, [*runs, "--data", str(data), "--vote", "majority"])
    assert res.exit_code != 0 and "--vote must be one of rerank, answer, program" in str(res.exception)
    res = CliRunner().invoke(app, [str(tmp_path / "run1"), str(tmp_path / "run2"), "--data", str(data)])
    assert res.exit_code != 0 and "--ensemble" in str(res.exception)


# ----- a dataset of one's own ------------------------------------------------------------------------------


def test_own_tables_dataset_trains_on_its_own_train_and_dev_splits(tmp_path):
    """The WTQ preset names random-split-1-train/-dev; a `tables` dataset's train and dev take their place
    unless a split is given explicitly."""
    from nsmcli.worlds.tables.search.runner import run_exploration

    own = Path(__file__).resolve().parents[1] / "examples" / "own-data"
    preprocess("tables", own, tmp_path / "pre")
    programs = tmp_path / "programs.jsonl"
    run_exploration(tmp_path / "pre", "train", programs, workers=1, quiet=True)
    run = tmp_path / "run"
    train(tmp_path / "pre", run, programs=programs, algo="mml", overrides={**FAST, "n_steps": 60}, kit=KIT)
    config = RunDir(run).read_config()["train"]
    assert (config["train_split"], config["dev_split"]) == ("train", "dev")
    assert _train_accuracy(run, tmp_path / "pre") == 1.0
    explicit = {**FAST, "n_steps": 1, "dev_split": "train"}
    train(tmp_path / "pre", tmp_path / "run2", programs=programs, overrides=explicit, kit=KIT)
    assert RunDir(tmp_path / "run2").read_config()["train"]["dev_split"] == "train"


def test_init_starts_a_new_run_from_a_trained_one(tiny, tmp_path):
    """`--init`: the new run takes the trained run's model settings, vocabulary and best weights (with a
    zero learning rate they are exactly what it ends with) and records where it started."""
    data, programs = tiny
    base = tmp_path / "base"
    train(data, base, programs=programs, overrides={**FAST, "n_steps": 10, "eval_every": 10}, kit=KIT)
    tuned = tmp_path / "tuned"
    frozen = {**FAST, "n_steps": 2, "learning_rate": 0.0, "train_split": "easy-train"}
    train(data, tuned, programs=programs, overrides=frozen, kit=KIT, init=base)
    a, b = RunDir(base), RunDir(tuned)
    assert b.read_vocab() == a.read_vocab() and b.read_config()["model"] == a.read_config()["model"]
    record = b.read_config()["init"]
    assert record["run"] == str(base.resolve()) and record["weights"] == "best" and record["step"] == 10
    start, last = a.load_weights("best")[0], b.load_weights("last")[0]
    assert all(torch.equal(start[k], last[k]) for k in start)
    with pytest.raises(ConfigError, match="cannot change"):
        train(data, tmp_path / "x", programs=programs, overrides={"model.buckets": 8}, kit=KIT, init=base)
    with pytest.raises(ConfigError, match="new run"):
        train(data, tuned, resume=True, kit=KIT, init=base)
    other = tmp_path / "other"
    shutil.copytree(base, other)
    config = json.loads((other / "config.json").read_text())
    config["dataset"]["meta"]["language"] = "wikisql"  # a consistent WikiSQL run
    (other / "config.json").write_text(json.dumps({**config, "language": "wikisql"}))
    with pytest.raises(DataError, match="trained on wikisql"):
        train(data, tmp_path / "y", programs=programs, overrides=FAST, kit=KIT, init=other)


@pytest.mark.parametrize("kill_point", [("step", 0), ("step", 7), ("random", 1), ("random", 2)])
def test_train_killed_with_sigkill_resumes_to_the_same_end(tiny, tmp_path, kill_point):
    """A real `nsm train` process killed with SIGKILL and then resumed ends exactly where an uninterrupted
    run does: same metrics, same weights. Killed once its checkpoint has passed a step (0, before any
    training; 7, mid-run), or at a seeded random point: a random step, then a random delay that lands
    anywhere in a step, a metrics window, an evaluation or a checkpoint write (bench/kill_resume.py kills
    many more times)."""
    import os
    import random
    import signal
    import subprocess
    import sys

    kind, value = kill_point
    rng = random.Random(value)
    kill_after, delay = (value, 0.0) if kind == "step" else (rng.randint(0, 10), rng.uniform(0.0, 0.2))
    data, programs = tiny
    settings = {**FAST, "n_steps": 16, "checkpoint_every": 3, "eval_every": 8, "eval_beam": 2, "log_every": 2}
    model = {
        "model.hidden_size": 16,
        "model.embedding_size": 8,
        "model.n_layers": 1,
        "model.use_glove": "false",
    }
    sets = [x for k, v in {**settings, **model}.items() for x in ("--set", f"{k}={v}")]

    def command(out: Path) -> list[str]:
        return [
            sys.executable,
            "-m",
            "nsmcli",
            "train",
            str(data),
            "--programs",
            str(programs),
            "--out",
            str(out),
        ]

    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    full = tmp_path / "full"
    done = subprocess.run(
        [*command(full), "--seed", "2", "--quiet", *sets], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    run = tmp_path / "killed"
    proc = subprocess.Popen(
        [*command(run), "--seed", "2", "--quiet", *sets], env=env, stderr=subprocess.DEVNULL
    )
    state = run / "checkpoint" / "state.json"
    while proc.poll() is None:
        try:
            if json.loads(state.read_text())["step"] >= kill_after:
                break
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.01)
    time.sleep(delay)
    assert proc.poll() is None, "the run finished before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    resumed = subprocess.run([*command(run), "--resume", "--quiet"], env=env, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    a, b = RunDir(full), RunDir(run)
    assert _strip_timing(a.read_metrics()) == _strip_timing(b.read_metrics())
    wa, wb = a.load_weights("last")[0], b.load_weights("last")[0]
    assert all(torch.equal(wa[k], wb[k]) for k in wa)


def test_resuming_a_run_that_does_not_exist_says_so_and_creates_nothing(tiny, tmp_path):
    data, _ = tiny
    with pytest.raises(CheckpointError, match="does not exist"):
        train(data, tmp_path / "nope", resume=True, kit=KIT)
    assert not (tmp_path / "nope").exists()


def test_actor_critic_learns_with_a_value_head(tiny, tmp_path, without_glove):
    """--algo actor-critic: REINFORCE against a learned value baseline; the run's model has a value head
    (others keep their state-dict keys), and the value learns the rewards it is trained against."""
    torch.set_num_threads(1)
    data, programs = tiny
    run = tmp_path / "ac"
    # the on-policy settings of the tests above: with 150 steps of 8 samples the outcome hung on the CPU's
    # arithmetic (1 of 4 right on an AVX2 machine, where seeds 0-2 all learn with these)
    settings = {**FAST, **REAL_MODEL, **ON_POLICY, **ON_POLICY_REAL}
    train(data, run, algo="actor-critic", overrides=settings)
    weights = RunDir(run).load_weights("last")[0]
    assert "value_head.weight" in weights
    assert RunDir(run).read_config()["model"]["value_head"] is True
    result = evaluate([run], load_dataset(data), "train", beam=0, weights="last")
    assert result.accuracy >= 0.5
    lines = RunDir(run).read_metrics()
    assert all(math.isfinite(line["loss"]) for line in lines if line["loss"] is not None)


def test_graded_rewards_keep_the_best_programs_and_weigh_replays_by_reward(tiny):
    data, _ = tiny
    dataset = load_dataset(data)
    example = dataset.examples("random-split-1-train")[0]
    env = dataset.bind(example)
    texts = ["(count all_rows)", "(first all_rows) (hop v0 r.nation-string)", "(last all_rows)"]
    programs = [tuple(env.encode(t)) for t in texts if env.execute(t).ok]
    assert len(programs) >= 2
    buffer = ProgramBuffer()
    assert buffer.add("q", env, programs[0], 0.3, limit=1)
    assert not buffer.add("q", env, programs[1], 0.2, limit=1)  # worse than the one kept
    assert buffer.add("q", env, programs[1], 0.9, limit=1)
    assert buffer.programs("q") == [programs[1]] and buffer.reward("q", programs[1]) == 0.9
    assert buffer.graded and buffer.best("q") == (env.display(programs[1]), 0.9)
    restored = ProgramBuffer()
    restored.load_records(json.loads(json.dumps(list(buffer.to_records()))), lambda qid: env)
    assert restored.reward("q", programs[1]) == 0.9
    q = objectives.QuestionData([programs[1]], [0.0], [], None, [0.9])
    cfg = TrainConfig()
    items, _ = objectives.weigh(cfg, [q], torch.Generator().manual_seed(0))
    assert [round(it.weight, 6) for it in items] == [0.9]  # w = pi_B = 1, times the reward


def test_evaluation_budget_ends_the_run_and_is_recorded(tiny, tmp_path):
    data, programs = tiny
    result = train(
        data,
        tmp_path / "b",
        programs=programs,
        overrides={**FAST, "n_steps": 50, "max_evaluations": 30},
        kit=KIT,
    )
    lines = RunDir(tmp_path / "b").read_metrics()
    assert result.step < 50 and lines[-1]["evaluations"] >= 30 > lines[-2]["evaluations"]
