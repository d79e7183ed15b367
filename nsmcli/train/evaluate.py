"""Evaluation: decode each question, execute the chosen program, score it with the dataset's official check.

As in OFF (mapo.md §6): beam search (or greedy), beam scores renormalised per question, and accuracy over
all questions (one with no finished program counts as wrong). The extra-work test applies only to training
rewards, not here.

Which program answers (`choose`): OFF predicts the single most probable finished program (`vote="program"`).
nsm's default, `vote="answer"`, sums the probabilities of the beam's programs that give the same answer and
predicts the most probable program of the answer with the largest total: several spurious-looking programs
agreeing on an answer outweigh one slightly more probable program alone. Measured on the bundled models
(beam 5, all dev questions): WTQ 1,164 -> 1,175 of 2,831, WikiSQL 6,204 -> 6,223 of 8,421 (BENCHMARKS.md).

Ensembling (§6.4) sums, per question, the renormalised probabilities of identical programs (canonical text)
across models, then chooses as above.

Decoding runs in this process (`inline`), or over shards of the split in worker processes or Ray tasks
(`nsmcli.train.backends.map_shards`); shards start at multiples of the batch size, so every backend decodes
the same batches and predicts the same.
"""

from __future__ import annotations

import gc
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch

from nsmcli.errors import CheckpointError, DataError
from nsmcli.protocols import ProblemSet
from nsmcli.train.config import MAX_BEAM
from nsmcli.train.questions import ModelKit, QuestionEnv, QuestionPool, build_model, default_kit
from nsmcli.train.rundir import RunDir, run_members

Tokens = tuple[int, ...]


@dataclass
class Prediction:
    id: str
    question: str
    program: str | None
    answer: list
    correct: bool
    prob: float


@dataclass
class EvalResult:
    split: str
    beam: int
    runs: list[str]
    n: int
    n_correct: int
    predictions: list[Prediction] = field(default_factory=list)
    weights: list[dict] = field(default_factory=list)
    vote: str = "answer"
    total_credit: float = 0.0
    """The summed credit (`ProblemSet.credit`): the correct count in the table worlds, scores in Karel."""

    @property
    def accuracy(self) -> float:
        return self.total_credit / self.n if self.n else 0.0

    def to_json(self) -> dict:
        return {
            "split": self.split,
            "beam": self.beam,
            "vote": self.vote,
            "runs": self.runs,
            "weights": self.weights,
            "questions": self.n,
            "correct": self.n_correct,
            "accuracy": round(self.accuracy, 6),
        }

    def prediction_records(self) -> list[dict]:
        return [asdict(p) for p in self.predictions]


VOTES = ("answer", "program")


def check_vote(vote: str, name: str = "vote") -> None:
    """A user's choice of vote, refused with one line naming the option (`name`) when unknown."""
    if vote not in VOTES:
        raise DataError(f"{name} must be one of {', '.join(VOTES)}, got {vote!r}")


def answer_key(answer: Sequence[Any] | None) -> tuple[str, ...]:
    """Answers that the official checks cannot tell apart share a key: the same values in any order. Programs
    without answers (Karel) share one key, so the answer vote is the program vote there."""
    return tuple(sorted(repr(v) for v in answer or ()))


def choose(totals: dict[str, float], answers: dict[str, Sequence[Any]], vote: str = "answer") -> str:
    """The program that answers, among `totals` (program text -> summed probability, in beam order) whose
    answers are `answers`: the most probable program (`program`), or the most probable program of the
    answer whose programs sum highest (`answer`). Ties go to the first in `totals`' order."""
    if vote == "program":
        return max(totals, key=lambda t: totals[t])
    if vote != "answer":
        raise ValueError(f"vote must be one of {', '.join(VOTES)}, got {vote!r}")
    groups: dict[tuple[str, ...], float] = {}
    for text, prob in totals.items():
        key = answer_key(answers[text])
        groups[key] = groups.get(key, 0.0) + prob
    best = max(groups, key=lambda k: groups[k])
    return max((t for t in totals if answer_key(answers[t]) == best), key=lambda t: totals[t])


def pool_programs(
    totals: dict[str, float], answers: dict[str, Any], hypotheses: Iterable[tuple[str, float, Any]]
) -> None:
    """Add one model's (program text, probability, answer) for a question to `totals` and `answers`:
    identical program texts add up, over a beam and over an ensemble's members (whose sum the caller
    divides by their number); the first answer seen for a text is kept, and `totals` keeps first-seen order,
    which `choose` breaks ties by."""
    for text, prob, answer in hypotheses:
        totals[text] = totals.get(text, 0.0) + prob
        answers.setdefault(text, answer)


def decode(
    model: Any, questions: Sequence[QuestionEnv], beam: int, keep_unused: bool = False, max_steps: int = 30
) -> list[list[tuple[Tokens, float, list]]]:
    """Finished programs per question as (tokens, probability renormalised over what the decoder returned,
    answer), in the decoder's order (`keep_unused`: see `ProgramModel.beam_search`). Each program is
    executed here once, to drop unfinished ones and read its answer."""
    if beam > MAX_BEAM:
        raise DataError(f"beam {beam:,} is too wide; at most {MAX_BEAM}")
    contexts = [q.context for q in questions]
    envs = [q.env for q in questions]
    with torch.no_grad():
        if beam <= 0:
            raw = [
                [g] if g is not None and g[0] is not None else []
                for g in model.greedy(contexts, envs, keep_unused=keep_unused, max_steps=max_steps)
            ]
        else:
            raw = model.beam_search(
                contexts, envs, beam_size=beam, keep_unused=keep_unused, max_steps=max_steps
            )
    out = []
    for q, hyps in zip(questions, raw, strict=True):
        kept = []
        for tokens, lp in hyps:
            tokens = tuple(int(t) for t in tokens)
            state = q.env.run(tokens)
            if state.done and not state.error:
                kept.append((tokens, float(lp), q.env.answer(state)))
        if kept:
            top = max(lp for _, lp, _ in kept)
            z = sum(math.exp(lp - top) for _, lp, _ in kept)
            kept = [(t, math.exp(lp - top) / z, answer) for t, lp, answer in kept]
        out.append(kept)
    return out


def accuracy(
    model: Any,
    pool: QuestionPool,
    ids: Sequence[str],
    beam: int,
    batch_size: int = 50,
    vote: str = "answer",
    max_steps: int = 30,
) -> float:
    """Dev accuracy of one model (the trainer's periodic evaluation)."""
    was_training = model.training
    model.eval()
    correct = 0
    try:
        for s in range(0, len(ids), batch_size):
            questions = [pool.get(q) for q in ids[s : s + batch_size]]
            for q, hyps in zip(questions, decode(model, questions, beam, max_steps=max_steps), strict=True):
                if hyps:
                    totals = {tokens: p for tokens, p, _ in hyps}
                    answers = {tokens: answer for tokens, _, answer in hyps}
                    correct += q.score(choose(totals, answers, vote))[0]
    finally:
        model.train(was_training)
    return correct / max(1, len(ids))


def resolve_split(dataset: ProblemSet, split: str, config: dict | None = None) -> str:
    """`dev`/`train` mean the run's configured splits when the dataset has no split of that name."""
    if split in dataset.splits:
        return split
    if config is not None:
        named = config.get("train", {}).get(f"{split}_split")
        if named and named in dataset.splits:
            return named
    matches = [s for s in dataset.splits if s.endswith(f"-{split}")]
    if len(matches) == 1:
        return matches[0]
    raise DataError(f"split {split!r} not in {dataset.source}; available: {', '.join(dataset.splits)}")


def weights_mismatch(expected: dict, state: Any) -> str:
    """Why `state` cannot be loaded into a model whose own state is `expected`, in a few words ("" when
    it can): missing and unexpected tensor names and shape differences, each with a first example."""
    if not isinstance(state, dict):
        return "the file holds no state dictionary"
    problems = []
    missing = [k for k in expected if k not in state]
    unexpected = [k for k in state if k not in expected]
    reshaped = [
        k
        for k in expected
        if k in state and (not torch.is_tensor(state[k]) or state[k].shape != expected[k].shape)
    ]
    retyped = [
        k for k in expected if k in state and k not in reshaped and state[k].dtype != expected[k].dtype
    ]
    broken = [
        k
        for k in expected
        if k in state
        and k not in reshaped
        and k not in retyped
        and state[k].is_floating_point()
        and not torch.isfinite(state[k]).all()
    ]
    named = (
        (missing, "missing"),
        (unexpected, "unexpected"),
        (reshaped, "of another shape"),
        (retyped, "of another dtype"),
        (broken, "with NaN or infinite values"),
    )
    for names, what in named:
        if names:
            problems.append(f"{len(names)} tensor{'s' * (len(names) > 1)} {what}, e.g. {names[0]}")
    return "; ".join(problems)


def load_run_model(run: Path | str, kit: ModelKit, weights: str = "best") -> tuple[Any, dict, dict]:
    """(model in eval mode, run config, weights info) of a run directory."""
    rundir = RunDir(run)
    config = rundir.read_config()
    try:
        model = build_model(kit, config["model"], rundir.read_vocab(), pretrained=False)
    except CheckpointError:
        raise
    except Exception as exc:  # a config the model classes cannot read
        raise CheckpointError(f"{rundir.config_path} does not describe a loadable model: {exc}") from None
    state, info = rundir.load_weights(weights)
    mismatch = weights_mismatch(model.state_dict(), state)
    if mismatch:
        raise CheckpointError(f"{run}: weights do not fit the configured model ({mismatch})")
    model.load_state_dict(state)
    model.eval()
    return model, config, info


#: Per question of a batch: (id, [(program text, probability, answer)]) in the decoder's order.
Decoded = list[tuple[str, list[tuple[str, float, list]]]]


def _decode_batches(
    model: Any,
    pool: QuestionPool,
    ids: Sequence[str],
    beam: int,
    keep_unused: bool,
    batch_size: int,
    max_steps: int = 30,
) -> Iterator[Decoded]:
    for s in range(0, len(ids), batch_size):
        chunk = ids[s : s + batch_size]
        hyps = decode(model, [pool.get(q) for q in chunk], beam, keep_unused, max_steps)
        yield [
            (qid, [(pool.env(qid).display(t), p, answer) for t, p, answer in found])
            for qid, found in zip(chunk, hyps, strict=True)
        ]


@dataclass
class _DecodeJob:
    """What a worker decoding shards of a split is sent once: the model and the split's data."""

    kit: ModelKit
    model_config: dict
    vocab: dict
    state: dict
    limits: dict
    dataset: ProblemSet
    examples: list
    beam: int
    keep_unused: bool
    batch_size: int
    max_steps: int = 30


#: The job a worker process decodes for, with its model and pool (kept across its shards).
_DECODER: list = []


def _decode_shard(job: _DecodeJob, bounds: tuple[int, int]) -> Decoded:
    if not _DECODER or _DECODER[0] is not job:
        model = build_model(job.kit, job.model_config, job.vocab, pretrained=False)
        model.load_state_dict(job.state)
        model.eval()
        torch.set_num_threads(1)
        _DECODER[:] = [
            job,
            model,
            QuestionPool(job.dataset, job.examples, job.limits, model),
        ]
    _, model, pool = _DECODER
    ids = pool.order[bounds[0] : bounds[1]]
    return [
        q
        for batch in _decode_batches(
            model, pool, ids, job.beam, job.keep_unused, job.batch_size, job.max_steps
        )
        for q in batch
    ]


def evaluate(
    run_dirs: Sequence[Path | str],
    dataset: ProblemSet,
    split: str = "dev",
    beam: int = 5,
    weights: str = "best",
    kit: ModelKit | None = None,
    batch_size: int = 50,
    progress: Any = None,
    keep_unused: bool = False,
    vote: str = "answer",
    backend: str | None = None,
    workers: int = 1,
    address: str | None = None,
) -> EvalResult:
    """Accuracy of one run, or of an ensemble of runs, on a split, with one prediction per question.
    `keep_unused` keeps beam programs that leave a result unused, as the original's evaluator did; `vote`
    says which program answers (`choose`). `backend` decodes in this process (`inline`, the default for one
    worker), in `workers` processes (`processes`) or Ray tasks (`ray`, on the cluster at `address`)."""
    from nsmcli.train.backends import check_address, choose_shard_backend, map_shards, shard_bounds

    run_dirs = [m for r in run_dirs for m in run_members(r)]
    if not run_dirs:
        raise CheckpointError("no run directory given")
    backend = choose_shard_backend(backend, workers)
    check_address(address, backend)
    kit = kit or default_kit()
    totals: dict[str, dict[str, float]] = {}  # question -> program text -> summed probability
    answers: dict[str, dict[str, list]] = {}  # question -> program text -> answer
    envs: dict[str, Any] = {}  # question -> its bound table (members share language, limits and linking)
    examples: list = []
    infos: list[dict] = []
    resolved = ""
    for r, run in enumerate(run_dirs):
        model, config, info = load_run_model(run, kit, weights)
        infos.append({"run": str(run), **info})
        if config.get("language") != dataset.world:
            raise DataError(
                f"{run} was trained on language {config.get('language')}, {dataset.source} is {dataset.world}"
            )
        split_name = resolve_split(dataset, split, config)
        if r == 0:
            resolved = split_name
            examples = dataset.examples(split_name)
        elif split_name != resolved:
            raise DataError(f"{run} resolves split {split!r} to {split_name}, the first run to {resolved}")
        pool = QuestionPool(dataset, examples, config["limits"], model)
        max_steps = int((config.get("train") or {}).get("max_decode_steps", 30))
        ids = pool.order
        task = (
            progress.add_task(f"decoding ({Path(run).name})", total=len(ids), status="") if progress else None
        )
        if backend == "inline":
            batches: Iterator[Decoded] = _decode_batches(
                model, pool, ids, beam, keep_unused, batch_size, max_steps
            )
        else:
            dataset.load()  # shipped with the job
            job = _DecodeJob(
                kit,
                config["model"],
                RunDir(run).read_vocab(),
                model.state_dict(),
                config["limits"],
                dataset,
                examples,
                beam,
                keep_unused,
                batch_size,
                max_steps,
            )
            n_batches = -(-len(ids) // batch_size)
            shards = [
                (a * batch_size, b * batch_size)
                for a, b in shard_bounds(n_batches, min(n_batches, 4 * workers))
            ]
            batches = (
                decoded for _, decoded in map_shards(backend, _decode_shard, job, shards, workers, address)
            )
        for batch in batches:
            for qid, hyps in batch:  # each question in one batch: the order of batches does not matter
                pool_programs(totals.setdefault(qid, {}), answers.setdefault(qid, {}), hyps)
                if hyps and qid not in envs:
                    envs[qid] = pool.env(qid)
            if progress:
                progress.advance(task, len(batch))
        del model, pool
        gc.collect()
    result = EvalResult(
        resolved, beam, [str(r) for r in run_dirs], len(examples), 0, weights=infos, vote=vote
    )
    for example in examples:
        slot = totals.get(example.id, {})
        if not slot:
            result.predictions.append(Prediction(example.id, dataset.text(example), None, [], False, 0.0))
            continue
        text = choose(slot, answers[example.id], vote)  # ties: model, beam order
        env, answer = envs[example.id], answers[example.id][text]
        credit = dataset.credit(example, env, tuple(env.encode(text)))
        result.n_correct += credit >= 1.0
        result.total_credit += credit
        prob = slot[text] / len(run_dirs)
        result.predictions.append(
            Prediction(example.id, dataset.text(example), text, answer or [], credit >= 1.0, round(prob, 6))
        )
    return result
