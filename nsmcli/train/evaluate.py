"""Evaluation: decode each question, execute the chosen program, score it with the dataset's official check.

As in OFF (mapo.md §6): beam search (or greedy), beam scores renormalised per question, and accuracy over
all questions (one with no finished program counts as wrong). The extra-work test applies only to training
rewards, not here.

Which program answers (`choose`): OFF predicts the single most probable finished program (`vote="program"`).
nsm's default, `vote="answer"`, sums the probabilities of the beam's programs that give the same answer and
predicts the most probable program of the answer with the largest total: several spurious-looking programs
agreeing on an answer outweigh one slightly more probable program alone. Measured on the bundled models
(beam 5, all dev questions): WTQ 1,164 -> 1,175 of 2,831, WikiSQL 6,204 -> 6,223 of 8,421 (BENCHMARKS.md).

An ensemble decodes in one beam whose token probabilities are the mean of its members'
(`ProgramModel.ensemble_beam_search`), then chooses as above. The original (§6.4) instead summed the
renormalised probabilities of identical programs over each model's own beam (`pool_programs`); one beam
prunes with every member's view at each step and steps each environment once (BENCHMARKS.md compares them).

Decoding runs in this process (`inline`), or over shards of the split in worker processes or Ray tasks
(`nsmcli.train.backends.map_shards`); shards start at multiples of the batch size, so every backend decodes
the same batches and predicts the same.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import torch

from nsmcli.errors import CheckpointError, DataError
from nsmcli.protocols import ProblemSet
from nsmcli.train.config import MAX_BEAM
from nsmcli.train.questions import ModelKit, QuestionEnv, QuestionPool, build_model, default_kit
from nsmcli.train.rerank import (
    Reranker,
    add_proposals,
    candidate_features,
    match_texts,
    readings_available,
)
from nsmcli.train.rundir import RunDir, run_members
from nsmcli.worlds import get_world

if TYPE_CHECKING:
    from nsmcli.train.matcher import Matcher

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
class Candidate:
    """One finished program of a question's beam, with the credit its answer earns."""

    program: str
    prob: float
    answer: list
    credit: float


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
    candidates: dict[str, list[Candidate]] = field(default_factory=dict)
    """With `evaluate(keep_candidates=True)`: every finished beam program per question id, in beam order."""
    rerank_features: dict[str, list] = field(default_factory=dict)
    """With `evaluate(keep_candidates=True)` in a world that has them: the candidates' rerank features."""
    match_texts: dict[str, tuple[str, list[str]] | None] = field(default_factory=dict)
    """With `evaluate(keep_candidates=True)`: the question and its candidates' match texts
    (`nsmcli.train.rerank.match_texts`), None in a world that does not read its programs."""

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


#: rerank: the model's reranker (`nsmcli.train.rerank`) when it has one, else as answer
VOTES = ("rerank", "answer", "program")


def check_vote(vote: str, name: str = "vote") -> None:
    """A user's choice of vote, refused with one line naming the option (`name`) when unknown."""
    if vote not in VOTES:
        raise DataError(f"{name} must be one of {', '.join(VOTES)}, got {vote!r}")


def answer_key(answer: Sequence[Any] | None) -> tuple[str, ...]:
    """Answers that the official checks cannot tell apart share a key: the same values in any order. Programs
    without answers (Karel) share one key, so the answer vote is the program vote there."""
    return tuple(sorted(repr(v) for v in answer or ()))


def effective_vote(vote: str, reranker: Reranker | None) -> str:
    """What chooses under `vote`: `rerank` without a reranker is the answer vote."""
    return "answer" if vote == "rerank" and reranker is None else vote


def choose(totals: dict[str, float], answers: dict[str, Sequence[Any]], vote: str = "answer") -> str:
    """The program that answers, among `totals` (program text -> summed probability, in beam order) whose
    answers are `answers`: the most probable program (`program`), or the most probable program of the
    answer whose programs sum highest (`answer`, and `rerank`, which only a `Reranker` does otherwise). Ties
    go to the first in `totals`' order."""
    if vote == "program":
        return max(totals, key=lambda t: totals[t])
    if vote not in ("answer", "rerank"):
        raise ValueError(f"vote must be one of {', '.join(VOTES)}, got {vote!r}")
    groups = answer_mass(totals, answers)
    best = max(groups, key=lambda k: groups[k])
    return max((t for t in totals if answer_key(answers[t]) == best), key=lambda t: totals[t])


def vote_scores(
    totals: dict[str, float], answers: dict[str, Sequence[Any]], vote: str = "answer"
) -> list[float]:
    """Each program's score under `vote` (`choose`'s), in `totals`' order, on the log scale of a reranker's
    scores: the log of its probability (`program`), or of the summed probability of the programs that give
    its answer (`answer`). Score differences are then log odds whichever chose."""
    if vote == "program":
        return [math.log(max(p, 1e-300)) for p in totals.values()]
    groups = answer_mass(totals, answers)
    return [math.log(max(groups[answer_key(answers[t])], 1e-300)) for t in totals]


def answer_mass(totals: dict[str, float], answers: dict[str, Sequence[Any]]) -> dict[tuple[str, ...], float]:
    """The summed probability of the programs of `totals` that give each answer (by `answer_key`), in the
    order the answers first appear."""
    groups: dict[tuple[str, ...], float] = {}
    for text, prob in totals.items():
        key = answer_key(answers[text])
        groups[key] = groups.get(key, 0.0) + prob
    return groups


def pool_programs(
    totals: dict[str, float], answers: dict[str, Any], hypotheses: Iterable[tuple[str, float, Any]]
) -> None:
    """Add a beam's (program text, probability, answer) for a question to `totals` and `answers`:
    identical program texts add up (over several beams, the caller divides the sums by their number); the
    first answer seen for a text is kept, and `totals` keeps first-seen order, which `choose` breaks ties
    by."""
    for text, prob, answer in hypotheses:
        totals[text] = totals.get(text, 0.0) + prob
        answers.setdefault(text, answer)


def decode(
    model: Any, questions: Sequence[QuestionEnv], beam: int, keep_unused: bool = False, max_steps: int = 30
) -> list[list[tuple[Tokens, float, list]]]:
    """Finished programs per question as (tokens, probability renormalised over what the decoder returned,
    answer), in the decoder's order (`keep_unused`: see `ProgramModel.beam_search`). Each program is
    executed here once, to drop unfinished ones and read its answer."""
    _check_beam(beam)
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
    return _finished(questions, raw)


def decode_ensemble(
    models: Sequence[Any],
    questions: Sequence[Sequence[QuestionEnv]],
    beam: int,
    keep_unused: bool = False,
    max_steps: int = 30,
) -> list[list[tuple[Tokens, float, list]]]:
    """As `decode`, for an ensemble of models of one class decoded in one beam (the class's
    `ensemble_beam_search`, e.g. `ProgramModel.ensemble_beam_search`): `questions[m]` are member m's views
    of the same problems, and the programs run in the first member's environments. One member decodes
    exactly as `decode`; greedy (`beam` 0) is a beam of one."""
    if len(models) == 1:
        return decode(models[0], questions[0], beam, keep_unused, max_steps)
    _check_beam(beam)
    envs = [q.env for q in questions[0]]
    contexts = [[q.context for q in member] for member in questions]
    with torch.no_grad():
        raw = type(models[0]).ensemble_beam_search(
            models, contexts, envs, max(beam, 1), max_steps, keep_unused
        )
    return _finished(questions[0], raw)


def _check_beam(beam: int) -> None:
    if beam > MAX_BEAM:
        raise DataError(f"beam {beam:,} is too wide; at most {MAX_BEAM}")


def _finished(
    questions: Sequence[QuestionEnv], raw: Sequence[Sequence[tuple[Sequence[int], float]]]
) -> list[list[tuple[Tokens, float, list]]]:
    """The decoder's programs run once each: unfinished ones dropped, probabilities renormalised."""
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
    model.load_state_dict(state, assign=True)  # its tensors, not copies of them
    model.eval()
    return model, config, info


#: Per question of a batch: (id, [(program text, probability, answer)]) in the decoder's order.
Decoded = list[tuple[str, list[tuple[str, float, list]]]]


def _decode_batches(
    models: Sequence[Any],
    pools: Sequence[QuestionPool],
    ids: Sequence[str],
    beam: int,
    keep_unused: bool,
    batch_size: int,
    max_steps: int = 30,
) -> Iterator[Decoded]:
    for s in range(0, len(ids), batch_size):
        chunk = ids[s : s + batch_size]
        for pool in pools:
            pool.prepare(chunk)  # a pretrained encoder encodes the chunk's questions in one batch
        questions = [[pool.get(q) for q in chunk] for pool in pools]
        hyps = decode_ensemble(models, questions, beam, keep_unused, max_steps)
        yield [
            (qid, [(pools[0].env(qid).display(t), p, answer) for t, p, answer in found])
            for qid, found in zip(chunk, hyps, strict=True)
        ]


@dataclass
class _Member:
    """One model of a decoding job: what rebuilds it in a worker."""

    model_config: dict
    vocab: dict
    state: dict
    limits: dict


@dataclass
class _DecodeJob:
    """What a worker decoding shards of a split is sent once: the models and the split's data."""

    kit: ModelKit
    members: list[_Member]
    dataset: ProblemSet
    examples: list
    beam: int
    keep_unused: bool
    batch_size: int
    max_steps: int = 30


#: The job a worker process decodes for, with its models and pools (kept across its shards).
_DECODER: list = []


def _decode_shard(job: _DecodeJob, bounds: tuple[int, int]) -> Decoded:
    if not _DECODER or _DECODER[0] is not job:
        torch.set_num_threads(1)
        models = []
        for member in job.members:
            model = build_model(job.kit, member.model_config, member.vocab, pretrained=False)
            model.load_state_dict(member.state)
            models.append(model.eval())
        pools = QuestionPool.for_ensemble(job.dataset, job.examples, job.members[0].limits, models)
        _DECODER[:] = [job, models, pools]
    _, models, pools = _DECODER
    ids = pools[0].order[bounds[0] : bounds[1]]
    return [
        q
        for batch in _decode_batches(
            models, pools, ids, job.beam, job.keep_unused, job.batch_size, job.max_steps
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
    vote: str = "rerank",
    backend: str | None = None,
    workers: int = 1,
    address: str | None = None,
    keep_candidates: bool = False,
    reranker: Reranker | None = None,
    select: Callable[[Any], bool] | None = None,
    proposals: bool = False,
    matcher: Matcher | None = None,
    users: bool = False,
) -> EvalResult:
    """Accuracy of one run, or of an ensemble of runs, on a split, with one prediction per question.
    `keep_unused` keeps beam programs that leave a result unused, as the original's evaluator did; `vote`
    says which program answers (`choose`). `backend` decodes in this process (`inline`, the default for one
    worker), in `workers` processes (`processes`) or Ray tasks (`ray`, on the cluster at `address`).
    `keep_candidates` scores every finished program of each beam into `EvalResult.candidates` (and, where the
    world has them, their rerank features into `EvalResult.rerank_features`, with `matcher`'s scores), with
    the world's proposals among them when `proposals` (`nsmcli.train.rerank.add_proposals`). With `vote="rerank"`, `reranker`
    chooses (`nsmcli.train.rerank`), among the proposals too when it was fitted with them; `select` keeps
    only the split's problems it accepts. `users`: an ensemble decodes with its members for users' tables
    (`run_members`), as `nsm parse` does on a user's file."""
    from nsmcli.train.backends import check_address, choose_shard_backend, map_shards, shard_bounds

    run_dirs = [m for r in run_dirs for m in run_members(r, users=users)]
    if not run_dirs:
        raise CheckpointError("no run directory given")
    backend = choose_shard_backend(backend, workers)
    check_address(address, backend)
    kit = kit or default_kit()
    models, configs, infos = [], [], []
    examples: list = []
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
            examples = [e for e in dataset.examples(split_name) if select is None or select(e)]
        elif split_name != resolved:
            raise DataError(f"{run} resolves split {split!r} to {split_name}, the first run to {resolved}")
        if configs and config["limits"] != configs[0]["limits"]:
            raise DataError(
                f"{run} was trained with program limits {config['limits']}, {run_dirs[0]} with "
                f"{configs[0]['limits']}: an ensemble decodes one program space"
            )
        models.append(model)
        configs.append(config)
    # the members decode together, in one beam (`decode_ensemble`)
    pools = QuestionPool.for_ensemble(dataset, examples, configs[0]["limits"], models)
    max_steps = int((configs[0].get("train") or {}).get("max_decode_steps", 30))
    ids = pools[0].order
    names = ", ".join(Path(run).name for run in run_dirs)
    task = progress.add_task(f"decoding ({names})", total=len(ids), status="") if progress else None
    if backend == "inline":
        batches: Iterator[Decoded] = _decode_batches(
            models, pools, ids, beam, keep_unused, batch_size, max_steps
        )
    else:
        dataset.load()  # shipped with the job
        members = [
            _Member(c["model"], RunDir(run).read_vocab(), m.state_dict(), c["limits"])
            for run, m, c in zip(run_dirs, models, configs, strict=True)
        ]
        job = _DecodeJob(kit, members, dataset, examples, beam, keep_unused, batch_size, max_steps)
        n_batches = -(-len(ids) // batch_size)
        shards = [
            (a * batch_size, b * batch_size) for a, b in shard_bounds(n_batches, min(n_batches, 4 * workers))
        ]
        batches = (
            decoded for _, decoded in map_shards(backend, _decode_shard, job, shards, workers, address)
        )
    totals: dict[str, dict[str, float]] = {}  # question -> program text -> probability
    answers: dict[str, dict[str, list]] = {}  # question -> program text -> answer
    for batch in batches:
        for qid, hyps in batch:  # each question in one batch: the order of batches does not matter
            pool_programs(totals.setdefault(qid, {}), answers.setdefault(qid, {}), hyps)
        if progress:
            progress.advance(task, len(batch))
    if reranker is not None and reranker.world != dataset.world:
        raise DataError(
            f"the reranker was fitted in the {reranker.world} world, {dataset.source} is {dataset.world}"
        )
    vote = effective_vote(vote, reranker)
    with_features = keep_candidates and get_world(dataset.world).rerank is not None
    # without nsmcli[encoder] the features lack the readings' similarity (0), and a fit gives it no weight
    with_readings = with_features and readings_available()
    result = EvalResult(
        resolved,
        beam,
        [str(r) for r in run_dirs],
        len(examples),
        0,
        weights=infos,
        vote=vote,
    )
    # the choice has its own line: a reranker with a matcher reads every candidate with MiniLM
    choosing = (
        progress.add_task("choosing", total=len(examples), status="")
        if progress and (vote == "rerank" or keep_candidates)
        else None
    )
    for done, example in enumerate(examples):
        if choosing is not None:
            progress.update(choosing, completed=done)  # the questions chosen before this one
        slot = totals.get(example.id, {})
        if not slot:
            result.predictions.append(Prediction(example.id, dataset.text(example), None, [], False, 0.0))
            continue
        env = pools[0].env(example.id)
        proposed: dict[str, str] = {}
        reranked = vote == "rerank" and reranker is not None
        if reranked:
            proposed = reranker.propose(example, env, slot, answers[example.id])
            text = reranker.choose(example, env, slot, answers[example.id], proposed)
        else:
            text = choose(slot, answers[example.id], vote)  # ties: beam order
        # after the choice: a vote without a reranker ignores them; never twice (proposals are made from
        # the beam's programs, not from earlier proposals)
        if keep_candidates and proposals and not (reranked and reranker.proposals):
            proposed |= add_proposals(dataset.world, example, env, slot, answers[example.id])
        answer = answers[example.id][text]
        if keep_candidates:
            finished = [(t, p, answers[example.id][t] or []) for t, p in slot.items()]
            result.candidates[example.id] = [
                Candidate(t, p, a, dataset.credit(example, env, tuple(env.encode(t)))) for t, p, a in finished
            ]
            if with_features:
                result.rerank_features[example.id] = candidate_features(
                    dataset.world,
                    example,
                    env,
                    finished,
                    with_readings=with_readings,
                    proposed=proposed,
                    matcher=matcher,
                )
            result.match_texts[example.id] = match_texts(dataset.world, example, env, finished)
        credit = dataset.credit(example, env, tuple(env.encode(text)))
        result.n_correct += credit >= 1.0
        result.total_credit += credit
        prob = slot[text]
        result.predictions.append(
            Prediction(example.id, dataset.text(example), text, answer or [], credit >= 1.0, round(prob, 6))
        )
    if choosing is not None:
        progress.update(choosing, completed=len(examples))
    return result
