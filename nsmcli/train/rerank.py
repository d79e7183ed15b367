"""A linear reranker over a model's finished beam programs, fitted on questions the model never trained on.

The beam holds the right answer far more often than the beam's own choice is right (BENCHMARKS.md), so the
choice, not the search, loses most questions. Each candidate has a few dense features: the beam's own
scores (`beam_features`, the same in every world) and, where its world reads programs in words
(`World.readings`), how close that reading is to the question (`reading_similarity`, MiniLM sentence
vectors) and, where the reranker has one, a fine-tuned matcher's score of the pair (`nsmcli.train.matcher`);
and sparse feature names that its world reads off the problem and the program (`World.rerank`).
The reranker scores each candidate as a weighted sum of them and answers with the best. Its weights are
fitted by maximising the probability of the candidates that earn credit (a softmax over each problem's
candidates, summed over the right ones), which is convex: full-batch L-BFGS finds the optimum, so a fit
depends on its data and its L2 strength only, and that strength is chosen by k-fold cross-validation within
the fitting questions. It starts from the beam's own order (the log probability's weight 1), so where its
features say nothing, it answers as the beam does.

The fitted reranker is a plain JSON file (`reranker.json`) beside a model's weights, or beside an
ensemble's `ensemble.json`; `nsm eval` and `nsm parse` use it by default (`--vote rerank`), and `nsm rerank`
fits one. A model may also hold `reranker-user.json`, the chooser of users' own tables (those read with the
user rules): questions over them are asked and tabled unlike WTQ's, and a chooser fitted for them need not
trade WTQ's choices away. Without it the one reranker chooses for every table. Loading a reranker reads
numbers and names only (and a matcher's tensors, `matcher.pt`, where it weighs one).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import torch

from nsmcli.errors import CheckpointError, DataError, GrammarError
from nsmcli.fileio import atomic_write_json, file_sha256

if TYPE_CHECKING:
    from nsmcli.train.matcher import Matcher

RERANKER_FILE = "reranker.json"
#: The reranker of users' own tables, where a model has one apart (`load_reranker(..., users=True)`).
USER_RERANKER_FILE = "reranker-user.json"
RERANKER_FORMAT = "nsm-reranker"
RERANKER_VERSION = 1
#: Weights smaller than this are not written: the file stays small, and the scores move by less than
#: the sum of the dropped ones (a few hundredths at most).
MIN_WEIGHT = 1e-3
#: Features of one problem's candidates: per candidate, (dense values, sparse feature names).
Features = list[tuple[list[float], list[str]]]
#: One problem's finished beam programs: (program text, probability renormalised over the beam, answer),
#: in beam order.
Candidates = Sequence[tuple[str, float, Sequence[Any]]]
#: The dense features, in order (`beam_features`, `reading_similarity`, then a matcher's score,
#: `nsmcli.train.matcher`); a reranker file names them.
#: A file of an earlier nsm that lacks the last ones reads with weight 0 for them.
DENSE_FEATURES = (
    "log_prob",
    "log_answer_prob",
    "first_in_beam",
    "answer_leads_vote",
    "reading_similarity",
    "reading_match",
)
SIMILARITY = DENSE_FEATURES.index("reading_similarity")
#: the score of a fine-tuned matcher (`nsmcli.train.matcher`), where the reranker has one
MATCH = DENSE_FEATURES.index("reading_match")


def beam_features(candidates: Candidates) -> list[list[float]]:
    """Per candidate, what the beam itself says: its log probability, its answer's summed log probability
    (what the answer vote sums, `nsmcli.train.evaluate.answer_key`), whether it is the beam's first, and
    whether its answer leads the vote."""
    from nsmcli.train.evaluate import answer_key

    votes: dict[tuple[str, ...], float] = {}
    for _, prob, answer in candidates:
        votes[answer_key(answer)] = votes.get(answer_key(answer), 0.0) + prob
    leading = max(votes.values(), default=0.0)
    return [
        [
            math.log(max(prob, 1e-9)),
            math.log(max(votes[answer_key(answer)], 1e-9)),
            float(index == 0),
            float(votes[answer_key(answer)] == leading),
        ]
        for index, (_, prob, answer) in enumerate(candidates)
    ]


def reading_similarity(question: str, readings: Sequence[str]) -> list[float]:
    """How close each program's reading is to the question in meaning: the cosine of their MiniLM sentence
    vectors (`nsmcli.model.pretrained`), 0 for an empty reading. A program that sums "units" reads closer to
    "how many units in total?" than one that counts the same rows. Needs `nsmcli[encoder]`."""
    from nsmcli.model.pretrained import sentence_encoder

    present = [r for r in readings if r]
    if not present:
        return [0.0] * len(readings)
    vectors = sentence_encoder().sentence_vectors([question, *present])
    cosines = iter((vectors[1:] @ vectors[0]).tolist())
    return [next(cosines) if r else 0.0 for r in readings]


def readings_available() -> bool:
    """Whether `reading_similarity` can run here (the MiniLM package is installed)."""
    from nsmcli.model.pretrained import EncoderUnavailable, locate_minilm

    try:
        locate_minilm()
    except EncoderUnavailable:
        return False
    return True


#: The sparse feature of a program the world proposed (`World.propose`) rather than the beam found.
PROPOSED = "proposed"
#: The probability a proposed program carries into the beam features: below what a beam keeps.
PROPOSED_PROBABILITY = 1e-4


def add_proposals(
    world: str,
    problem: Any,
    env: Any,
    totals: dict[str, float],
    answers: dict[str, Any],
    kinds: Collection[str] | None = None,
) -> dict[str, str]:
    """Add the world's proposals for `problem` (`World.propose`, given the beam's programs) to a beam's
    `totals` (program text -> probability) and `answers`, after the beam's programs, with
    `PROPOSED_PROBABILITY`: those the beam lacks that finish without error, of `kinds` only where given.
    Their texts, in order, with their kinds."""
    from nsmcli.worlds import get_world

    propose = get_world(world).propose
    added: dict[str, str] = {}
    for text, kind in propose(problem, env, list(totals)) if propose is not None else ():
        if text in totals or (kinds is not None and kind not in kinds):
            continue
        try:
            state = env.run(env.encode(text))
        except (GrammarError, ValueError):  # a column or value the question's program space lacks
            continue
        if state.error is not None or not state.done:
            continue
        totals[text] = PROPOSED_PROBABILITY
        answers[text] = env.answer(state)
        added[text] = kind
    return added


def candidate_features(
    world: str,
    problem: Any,
    env: Any,
    candidates: Candidates,
    with_readings: bool = True,
    proposed: Mapping[str, str] | Collection[str] = (),
    matcher: Matcher | None = None,
) -> Features:
    """Every candidate's dense (`beam_features`, then `reading_similarity` where the world reads its programs
    and `with_readings`, else 0, then the `matcher`'s score of its match text, else 0) and sparse
    (`World.rerank`, and `PROPOSED` for the texts in `proposed`, with `PROPOSED=kind` where it maps them
    to their kinds) features."""
    from nsmcli.worlds import get_world

    entry = get_world(world)
    if entry.rerank is None:
        raise DataError(f"the {world} world has no rerank features")
    similarity = [0.0] * len(candidates)
    readings = None
    if (with_readings or matcher is not None) and entry.readings is not None:
        readings = entry.readings(problem, env, [text for text, _, _ in candidates])
    if with_readings and readings is not None:
        similarity = reading_similarity(*readings)
    matched = [0.0] * len(candidates)
    if matcher is not None and (texts := match_texts(world, problem, env, candidates, readings)) is not None:
        matched = matcher.scores(*texts)
    dense = [beam + [s, m] for beam, s, m in zip(beam_features(candidates), similarity, matched, strict=True)]
    sparse = entry.rerank(problem, env, candidates)
    if proposed:
        kinds = proposed if isinstance(proposed, Mapping) else {}
        sparse = [
            names + [PROPOSED] + ([f"{PROPOSED}={kinds[text]}"] if text in kinds else [])
            if text in proposed
            else names
            for (text, _, _), names in zip(candidates, sparse, strict=True)
        ]
    return list(zip(dense, sparse, strict=True))


#: How many of an answer's values a match text shows, and its most characters.
PREVIEW_VALUES, PREVIEW_CHARS = 3, 80


def answer_preview(answer: Sequence[Any]) -> str:
    """A short text of an answer for a match text: its first values, and how many there are in all."""
    values = [str(v) for v in answer[:PREVIEW_VALUES]]
    text = ", ".join(values) if values else "nothing"
    if len(answer) > PREVIEW_VALUES:
        text += f" ... ({len(answer)} values)"
    return text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 3] + "..."


def match_texts(
    world: str,
    problem: Any,
    env: Any,
    candidates: Candidates,
    readings: tuple[str, list[str]] | None = None,
) -> tuple[str, list[str]] | None:
    """What a matcher (`nsmcli.train.matcher`) reads: the question, with what the world describes of the
    problem after it (`World.describe`: a table's column names), and per candidate its program's reading
    (`World.readings`, or `readings` when the caller has them) with a preview of its answer ("" for a
    program that does not read). None in a world that does not read its programs."""
    from nsmcli.worlds import get_world

    entry = get_world(world)
    if entry.readings is None:
        return None
    question, read = readings or entry.readings(problem, env, [text for text, _, _ in candidates])
    if entry.describe is not None:
        question = f"{question} | {entry.describe(problem, env)}"
    return question, [
        f"{reading} = {answer_preview(list(answer or []))}" if reading else ""
        for reading, (_, _, answer) in zip(read, candidates, strict=True)
    ]


def best_index(scores: Sequence[float]) -> int:
    """The index of the highest score; ties go to the first (the beam's order)."""
    return max(range(len(scores)), key=lambda i: (scores[i], -i))


def chosen_text(totals: dict[str, float], scores: Sequence[float]) -> str:
    """The program text of `totals` (in its order) that `scores` rank first: the choice `Reranker.choose`
    makes, for a caller that keeps the scores."""
    return list(totals)[best_index(scores)]


@dataclass
class Reranker:
    """Weights over one world's rerank features (`World.rerank`)."""

    world: str
    #: weights of `DENSE_FEATURES`, in order
    dense: list[float]
    sparse: dict[str, float]
    #: how it was fitted (data, split, L2, cross-validation figures), for the record
    fitted: dict[str, Any] = field(default_factory=dict)
    #: whether it was fitted with the world's proposals beside the beams (`add_proposals`), and so weighs them
    proposals: bool = False
    #: the kinds of proposal it was fitted with (`proposal_kinds`), the only ones it is shown; None: all
    #: that the world proposes
    proposal_kinds: tuple[str, ...] | None = None
    #: the fine-tuned matcher whose score `dense[MATCH]` weighs (its own files beside the reranker's)
    matcher: Matcher | None = field(default=None, repr=False, compare=False)

    def scores(self, features: Features) -> list[float]:
        out = []
        for dense, sparse in features:
            # features decoded by an earlier nsm lack the last dense ones: they read as 0; more than the
            # weights is a misalignment, never read quietly
            if len(dense) > len(self.dense):
                raise ValueError(f"{len(dense)} dense features against {len(self.dense)} weights")
            out.append(
                sum(w * x for w, x in zip(self.dense, dense, strict=False))
                + sum(self.sparse.get(n, 0.0) for n in sparse)
            )
        return out

    def propose(
        self, problem: Any, env: Any, totals: dict[str, float], answers: dict[str, Any]
    ) -> dict[str, str]:
        """`add_proposals` of the kinds this reranker was fitted with, else nothing: the texts added, with
        their kinds. A kind the world proposes that the fit never saw would be weighed by the `proposed`
        weight alone."""
        if not self.proposals:
            return {}
        return add_proposals(self.world, problem, env, totals, answers, self.proposal_kinds)

    def choose(
        self,
        problem: Any,
        env: Any,
        totals: dict[str, float],
        answers: dict[str, Sequence[Any]],
        proposed: Mapping[str, str] | Collection[str] = (),
    ) -> str:
        """The program text among `totals` (program text -> probability, in beam order, with the texts of
        `proposed` that `propose` added) that scores highest; ties go to the first in beam order."""
        return chosen_text(totals, self.candidate_scores(problem, env, totals, answers, proposed))

    def candidate_scores(
        self,
        problem: Any,
        env: Any,
        totals: dict[str, float],
        answers: dict[str, Sequence[Any]],
        proposed: Mapping[str, str] | Collection[str] = (),
    ) -> list[float]:
        """The score of each program text of `totals`, in its order (`choose` takes the highest)."""
        candidates = [(t, totals[t], answers[t] or []) for t in totals]
        # the sentence encoder runs only for a reranker that weighs its similarity
        features = candidate_features(
            self.world,
            problem,
            env,
            candidates,
            with_readings=self.dense[SIMILARITY] != 0,
            proposed=proposed,
            matcher=self.matcher if self.dense[MATCH] != 0 else None,
        )
        return self.scores(features)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RERANKER_FORMAT,
            "version": RERANKER_VERSION,
            "world": self.world,
            "dense": dict(zip(DENSE_FEATURES, (round(w, 6) for w in self.dense), strict=True)),
            "sparse": {n: round(w, 4) for n, w in sorted(self.sparse.items()) if abs(w) >= MIN_WEIGHT},
            "fitted": self.fitted,
            "proposals": self.proposals,
            **({"proposal_kinds": list(self.proposal_kinds)} if self.proposal_kinds is not None else {}),
        }

    def save(self, path: Path | str) -> None:
        """The reranker's JSON file at `path`, with its matcher's files beside it when it weighs one."""
        if self.dense[MATCH] != 0:
            if self.matcher is None:
                raise DataError("the reranker weighs a matcher's score and has no matcher to save with it")
            self.matcher.save(Path(path).parent, self.matcher.fitted)
        atomic_write_json(Path(path), self.to_json())

    @classmethod
    def from_json(cls, record: Any, source: str = "reranker") -> Reranker:
        """A reranker from its JSON record; one CheckpointError naming `source` for anything else."""
        if not isinstance(record, dict) or record.get("format") != RERANKER_FORMAT:
            raise CheckpointError(
                f"{source} is not an nsm reranker file (format {RERANKER_FORMAT!r} expected)"
            )
        if record.get("version") != RERANKER_VERSION:
            raise CheckpointError(
                f"{source} is reranker version {record.get('version')!r}; this nsm reads {RERANKER_VERSION}"
            )
        world, dense, sparse = record.get("world"), record.get("dense"), record.get("sparse")
        if not isinstance(world, str) or not isinstance(dense, dict) or not isinstance(sparse, dict):
            raise CheckpointError(f"{source}: 'world' must be a name, 'dense' and 'sparse' objects")
        from nsmcli.worlds import available_worlds, get_world

        if world not in available_worlds() or get_world(world).rerank is None:
            raise CheckpointError(f"{source}: the world {world!r} has no reranker")
        if not dense or tuple(dense) != DENSE_FEATURES[: len(dense)]:
            raise CheckpointError(
                f"{source}: its dense features {', '.join(map(str, dense))} are not the {world} world's "
                f"({', '.join(DENSE_FEATURES)})"
            )

        def weight(value: Any) -> float:
            return sparse_weights({"": value}, source)[""]

        weights = sparse_weights(sparse, source)
        kinds = record.get("proposal_kinds")
        if kinds is None:  # a file of an earlier nsm: the kinds it has weights of, else all, as it was read
            kinds = list(_kinds_named(weights)) or None
        elif not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
            raise CheckpointError(f"{source}: 'proposal_kinds' must be a list of names")
        return cls(
            world,
            [weight(dense[n]) if n in dense else 0.0 for n in DENSE_FEATURES],
            weights,
            record.get("fitted") if isinstance(record.get("fitted"), dict) else {},
            proposals=record.get("proposals") is True,  # a file of an earlier nsm has none
            proposal_kinds=tuple(kinds) if kinds is not None else None,
        )


def sparse_weights(record: dict, source: str) -> dict[str, float]:
    """The sparse weights of a reranker file's record; one CheckpointError for any that is not a finite
    number. Checked in bulk: a shipped file holds about 80,000, and a cold `nsm parse` reads them all."""
    values = list(record.values())
    try:
        finite = {type(v) for v in values} <= {int, float} and all(map(math.isfinite, values))
    except OverflowError:  # an integer too large for a float
        finite = False
    if not finite:
        raise CheckpointError(f"{source}: every weight must be a finite number")
    return dict(zip(map(str, record), map(float, values), strict=True))


def load_reranker(
    model_dir: Path | str, users: bool = False, matcher: Matcher | None = None
) -> Reranker | None:
    """The reranker beside a model (`reranker.json` in its directory), or None when it has none. `users`:
    the one apart for users' own tables (`reranker-user.json`), or None when the model has none apart.
    `matcher`: the model's matcher, already loaded (both rerankers weigh the one beside them)."""
    path = Path(model_dir) / (USER_RERANKER_FILE if users else RERANKER_FILE)
    if not path.is_file():
        return None
    import json

    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise CheckpointError(f"{path} cannot be read as JSON: {exc}") from None
    reranker = Reranker.from_json(record, str(path))
    if reranker.dense[MATCH] != 0:
        from nsmcli.train.matcher import load_matcher

        reranker.matcher = matcher if matcher is not None else load_matcher(path.parent)
        if reranker.matcher is None:
            raise CheckpointError(f"{path} weighs a matcher, and {path.parent} holds none (matcher.json)")
    return reranker


def choice_matters(credits: Sequence[float]) -> bool:
    """Whether a problem's choice matters: some of its candidates right (credit >= 1) and some wrong."""
    right = [c >= 1 for c in credits]
    return any(right) and not all(right)


def fit(
    problems: Sequence[tuple[Features, list[float]]],
    l2: float,
    world: str,
    weights: Sequence[float] | None = None,
    prior: Reranker | None = None,
) -> Reranker:
    """Weights maximising the mean log probability of each problem's right candidates (credit >= 1) under a
    softmax of the scores, minus `l2` times the sparse weights' squared norm; with `weights` (one per
    problem), the weighted mean. Problems whose candidates are all right or all wrong teach nothing and
    are left out. With a `prior` reranker the fit starts from its weights and `l2` pulls every weight (the
    dense ones too) toward them rather than toward 0: a few problems adjust it, and what they never show
    keeps its weight."""
    if weights is not None and len(weights) != len(problems):
        raise DataError(f"{len(weights)} weights for {len(problems)} problems")
    kept = [
        i for i, (_, y) in enumerate(problems) if choice_matters(y) and (weights is None or weights[i] > 0)
    ]
    useful = [problems[i] for i in kept]
    weight_t = (
        None if weights is None else torch.tensor([float(weights[i]) for i in kept], dtype=torch.float64)
    )
    names: dict[str, int] = {n: i for i, n in enumerate(prior.sparse)} if prior is not None else {}
    for features, _ in useful:
        for _, sparse in features:
            for n in sparse:
                names.setdefault(n, len(names))
    n_dense = len(DENSE_FEATURES)
    dense_w = torch.zeros(n_dense, dtype=torch.float64)
    dense_w[0] = 1.0  # the beam's own order
    sparse_0 = torch.zeros(len(names), 1, dtype=torch.float64)
    if prior is not None:
        dense_w = torch.tensor(prior.dense, dtype=torch.float64)
        for n, w in prior.sparse.items():
            sparse_0[names[n], 0] = w
    dense_0 = dense_w.clone()
    if not useful:
        return Reranker(world, dense_w.tolist(), {n: float(sparse_0[i, 0]) for n, i in names.items()})
    # the candidates of all problems in one flat list (problems differ in size: a few proposals make one
    # of a hundred where most have a dozen), each with its problem's index
    problem_of = torch.tensor([q for q, (_, y) in enumerate(useful) for _ in y], dtype=torch.long)
    # features decoded by an earlier nsm lack the last dense ones, which read as 0 (as their weights do)
    dense = torch.tensor(
        [[*d, *[0.0] * (n_dense - len(d))] for features, _ in useful for d, _ in features],
        dtype=torch.float64,
    )
    right = torch.tensor([c >= 1 for _, credits in useful for c in credits], dtype=torch.bool)
    # each candidate's sparse feature names as (candidate, name) pairs: a step gathers the pairs' weights
    # and adds them up per candidate, several times faster than an embedding bag of the same sums
    pair_rows: list[int] = []
    pair_names: list[int] = []
    for row, (_, sparse) in enumerate(f for features, _ in useful for f in features):
        pair_rows.extend(itertools.repeat(row, len(sparse)))
        pair_names.extend(names[n] for n in sparse)
    pair_rows_t = torch.tensor(pair_rows, dtype=torch.long)
    pair_names_t = torch.tensor(pair_names, dtype=torch.long)
    n_problems = len(useful)

    def log_sum_exp(score: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
        """Per problem, the log of the summed exp of its candidates' scores (`index`: their problems)."""
        top = torch.full((n_problems,), -math.inf, dtype=score.dtype)
        top = top.scatter_reduce(0, index, score.detach(), "amax")
        total = torch.zeros(n_problems, dtype=score.dtype).index_add(0, index, torch.exp(score - top[index]))
        return torch.log(total) + top

    dense_w.requires_grad_(True)
    sparse_w = sparse_0.clone().requires_grad_(True)
    optimizer = torch.optim.LBFGS(
        [dense_w, sparse_w],
        max_iter=500,
        history_size=20,
        line_search_fn="strong_wolfe",
        tolerance_grad=1e-7,
        tolerance_change=1e-10,
    )

    def objective() -> torch.Tensor:
        optimizer.zero_grad()
        sparse_sum = torch.zeros(len(dense), dtype=torch.float64).index_add(
            0, pair_rows_t, sparse_w[pair_names_t, 0]
        )
        score = dense @ dense_w + sparse_sum
        # log of the right candidates' share of the softmax over each problem's candidates
        log_right = log_sum_exp(score[right], problem_of[right]) - log_sum_exp(score, problem_of)
        # unweighted, the plain mean: the same sums, and so the same fit, as before weights existed
        fit_term = log_right.mean() if weight_t is None else (weight_t * log_right).sum() / weight_t.sum()
        loss = -fit_term + l2 * ((sparse_w - sparse_0) ** 2).sum()
        if prior is not None:
            loss = loss + l2 * ((dense_w - dense_0) ** 2).sum()
        loss.backward()
        return loss

    optimizer.step(objective)
    learned = sparse_w.detach().view(-1).tolist()
    return Reranker(world, dense_w.detach().tolist(), {n: learned[i] for n, i in names.items()})


def proposal_kinds(problems: Sequence[tuple[Features, list[float]]]) -> tuple[str, ...]:
    """The kinds of proposal among `problems`' candidates (their `PROPOSED=kind` names), sorted."""
    return _kinds_named(n for features, _ in problems for _, sparse in features for n in sparse)


def _kinds_named(names: Iterable[str]) -> tuple[str, ...]:
    """The proposal kinds that sparse feature names name (`PROPOSED=kind`), sorted."""
    prefix = f"{PROPOSED}="
    return tuple(sorted({n[len(prefix) :] for n in names if n.startswith(prefix)}))


def is_right_choice(reranker: Reranker, problem: tuple[Features, list[float]]) -> bool:
    """Whether the reranker's choice answers a problem right (ties to the first in beam order)."""
    features, credits = problem
    return bool(features) and credits[best_index(reranker.scores(features))] >= 1


def right_choices(reranker: Reranker, problems: Sequence[tuple[Features, list[float]]]) -> int:
    """How many problems the reranker's choice answers right (ties to the first in beam order)."""
    return sum(is_right_choice(reranker, p) for p in problems)


def group_folds(groups: Sequence[str], folds: int, seed: int = 0) -> dict[str, int]:
    """The fold of each group (a table's questions are held out together): the groups in a seeded shuffled
    order, dealt round the folds."""
    names = sorted(set(groups))
    random.Random(seed).shuffle(names)
    return {name: i % folds for i, name in enumerate(names)}


def fit_cross_validated(
    problems: Sequence[tuple[Features, list[float]]],
    l2s: Sequence[float],
    world: str,
    folds: int = 4,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
    sources: Sequence[str] | None = None,
    weights: Sequence[float] | None = None,
    groups: Sequence[str] | None = None,
    prior: Reranker | None = None,
) -> tuple[Reranker, dict[str, Any]]:
    """The L2 strength that answers most held-out problems over `folds` folds (problems shuffled with
    `seed`), then a fit on every problem with it; also the figures per strength, and with `sources` (a
    name per problem: where it comes from) the held-out figures per source too. `weights`, `prior`: as
    `fit`'s. `groups` (a name per problem) keeps the problems of a group in one fold: questions over one
    table are held out together, so a fold is scored on tables its fit never saw. With fewer groups than
    folds, the problems are held out one by one instead (the record's `held_out` says which)."""
    if not l2s:
        raise DataError("give at least one L2 strength")
    if not problems:
        raise DataError("no problems to fit a reranker on")
    held_out = "problems"
    if groups is not None and len(set(groups)) >= folds:
        held_out = "groups"
    else:
        groups = None
    if groups is None:
        order = list(range(len(problems)))
        random.Random(seed).shuffle(order)
        parts = [order[k::folds] for k in range(folds)]
    else:
        fold_of = group_folds(groups, folds, seed)
        parts = [[i for i, g in enumerate(groups) if fold_of[g] == k] for k in range(folds)]
    figures: dict[str, int] = {}
    by_source: dict[str, dict[str, int]] = {}
    for l2 in l2s:
        right = dict.fromkeys(sources or (), 0)
        for k in range(folds):
            rest = [i for j, part in enumerate(parts) if j != k for i in part]
            rest_weights = None if weights is None else [weights[i] for i in rest]
            reranker = fit([problems[i] for i in rest], l2, world, rest_weights, prior)
            for i in parts[k]:
                if is_right_choice(reranker, problems[i]):
                    source = sources[i] if sources is not None else ""
                    right[source] = right.get(source, 0) + 1
        figures[f"{l2:g}"] = sum(right.values())
        if sources is not None:
            by_source[f"{l2:g}"] = right
        if progress:
            progress(
                f"L2 {l2:g}: {figures[f'{l2:g}']:,} of {len(problems):,} held-out problems right"
                + ("".join(f"; {s}: {n:,}" for s, n in right.items()) if sources is not None else "")
            )
    best = max(l2s, key=lambda v: (figures[f"{v:g}"], v))  # ties: the stronger regularisation
    reranker = fit(problems, best, world, weights, prior)
    record: dict[str, Any] = {
        "l2": best,
        "folds": folds,
        "held_out": held_out,
        "held_out_right": figures,
        "problems": len(problems),
    }
    if sources is not None:
        record["held_out_right_by_source"] = by_source
    return reranker, record


@dataclass
class BeamProblems:
    """A model's beams over a split, ready to fit a reranker on: per problem, the candidates' features and
    credits; with what the beam's own answer vote got right."""

    split: str
    problems: list[tuple[Features, list[float]]]
    answer_vote_right: int
    questions: int
    #: whether the candidates hold the world's proposals (`add_proposals`) beside the beam's programs
    proposals: bool = False
    #: the world of the problems (a table language's name: wtq, wikisql)
    world: str | None = None
    #: per problem, the group that cross-validation holds out together (the table of a question file's
    #: question); None: each problem alone
    groups: list[str] | None = None
    #: per problem, the question and its candidates' match texts (`match_texts`), to fit a matcher on;
    #: None where the world does not read its programs
    texts: list[tuple[str, list[str]] | None] | None = None

    @property
    def right_answer_in_beam(self) -> int:
        return sum(any(c >= 1 for c in credits) for _, credits in self.problems)


def on_tables_of(dataset: Any, split: str | None) -> Callable[[Any], bool] | None:
    """The filter that keeps the problems asked of `split`'s tables (`nsm rerank --tables-of`: held-out
    questions over training tables, none over a dev table); None keeps every problem."""
    if split is None:
        return None
    tables = {e.table_id for e in dataset.examples(split)}
    return lambda example: example.table_id in tables


def choosing_reranker(model_dir: Path | str, users: bool = False) -> tuple[Reranker | None, str | None]:
    """The reranker that chooses for a model (`users`: on users' tables, where its reranker of users' tables
    apart does when it has one, else its own reranker), and the name of the file it was read from; (None,
    None) when it has none."""
    for apart in (True, False) if users else (False,):
        reranker = load_reranker(model_dir, users=apart)
        if reranker is not None:
            return reranker, USER_RERANKER_FILE if apart else RERANKER_FILE
    return None, None


def model_matcher(model_dir: Path | str, users: bool = False) -> Matcher | None:
    """The matcher a model's reranker weighs (`users`: its reranker of users' tables, else its own), if
    any: a refit of that reranker needs its scores among the features. They are out of sample only on
    questions the matcher was not fitted on (its `matcher.json` names them); on those it was, they look
    better than they are, and the refit weighs them too much."""
    shipped, _ = choosing_reranker(model_dir, users)
    return shipped.matcher if shipped is not None else None


def fitted_question_files(fitted: Mapping[str, Any]) -> list[str]:
    """The question files a reranker's record (`Reranker.fitted`) says it was fitted on, and those of the
    reranker it started from, and so on back."""
    files = [str(q) for q in fitted.get("questions_files") or []]
    files += [str(s["split"]) for s in fitted.get("sets") or [] if isinstance(s, Mapping) and "split" in s]
    prior = fitted.get("prior")
    return files + (fitted_question_files(prior) if isinstance(prior, Mapping) else [])


def matcher_seen(matcher: Matcher | None, split: str | None, questions: Sequence[Path]) -> list[str]:
    """Which of a refit's data (`split` of a dataset, by its full name; question files, by their bytes)
    `matcher` was fitted on, by its record (`matcher.json`: `wtq_split`, `questions_sha256`). Its scores
    there are in-sample: they look better than they are, and a refit on them weighs the matcher too much."""
    if matcher is None:
        return []
    record = matcher.fitted
    seen = [f"split {split}"] if split is not None and split == record.get("wtq_split") else []
    digests = set(record.get("questions_sha256") or [])
    return seen + [str(path) for path in questions if digests and file_sha256(path) in digests]


def decode_for_reranking(
    model_dir: Path | str,
    dataset: Any,
    split: str,
    select: Callable[[Any], bool] | None = None,
    beam: int = 5,
    workers: int = 1,
    progress: Any = None,
    proposals: bool = True,
) -> BeamProblems:
    """Decode `split` (the problems `select` keeps) with the model at `model_dir`: its beams (with the
    world's proposals, `add_proposals`, when `proposals`), their credits and features (with the scores of
    the matcher the model's reranker weighs, `model_matcher`), and their match texts. The split must hold
    problems the model did not train on, or a fit learns how the model recalls its training answers rather
    than how it fails on new ones."""
    from nsmcli.train.evaluate import evaluate
    from nsmcli.worlds import get_world

    if get_world(dataset.world).rerank is None:  # before the decoding, not after it
        raise DataError(f"the {dataset.world} world has no rerank features")
    result = evaluate(
        [model_dir],
        dataset,
        split=split,
        beam=beam,
        vote="answer",
        workers=workers,
        progress=progress,
        keep_candidates=True,
        select=select,
        proposals=proposals,
        matcher=model_matcher(model_dir),
        users=dataset.users_tables,  # decoded as nsm parse decodes such tables
    )
    kept = [p.id for p in result.predictions if result.candidates.get(p.id)]
    problems = [(result.rerank_features[i], [c.credit for c in result.candidates[i]]) for i in kept]
    texts = [result.match_texts.get(i) for i in kept]
    return BeamProblems(
        result.split, problems, result.n_correct, result.n, proposals, dataset.world, texts=texts
    )


def fit_beams(
    beams: BeamProblems | Sequence[BeamProblems],
    world: str,
    folds: int = 4,
    l2s: Sequence[float] = (3e-4, 1e-3, 3e-3, 1e-2),
    report: Callable[[str], None] | None = None,
    set_weights: Sequence[float] | None = None,
    prior: Reranker | None = None,
) -> Reranker:
    """A reranker fitted to `beams` (`fit_cross_validated`; several sets of beams are fitted as one, each
    problem of the i-th set weighing `set_weights[i]`, default 1), its record (`Reranker.fitted`) holding
    the figures: the answer vote's right answers, the beams' right answers, and the held-out ones per L2,
    in all and (for several sets) per set. `prior`: a reranker to start from and stay near (`fit`)."""
    sets = [beams] if isinstance(beams, BeamProblems) else list(beams)
    if not sets:
        raise DataError("no beams to fit a reranker on")
    if any(b.world not in (None, world) for b in sets):
        raise DataError(f"the beams to fit on are not all of the {world} world")
    if prior is not None and prior.world != world:
        raise DataError(f"the reranker to start from was fitted in the {prior.world} world, not {world}")
    if prior is not None and prior.proposals != sets[0].proposals:
        raise DataError(
            "the reranker to start from was fitted "
            + ("with" if prior.proposals else "without")
            + " the world's proposals, the beams to fit on hold "
            + ("them" if sets[0].proposals else "none")
        )
    if len({b.proposals for b in sets}) > 1:
        raise DataError("the beams to fit on differ in whether they hold the world's proposals")
    if set_weights is not None and len(set_weights) != len(sets):
        raise DataError(f"{len(set_weights)} weights for {len(sets)} sets of beams")
    problems = [p for b in sets for p in b.problems]
    sources = [b.split for b in sets for _ in b.problems]
    weights = None
    if set_weights is not None and any(w != 1 for w in set_weights):
        weights = [w for b, w in zip(sets, set_weights, strict=True) for _ in b.problems]
    groups = None
    if any(b.groups is not None for b in sets):  # a problem of no group is a group of its own
        groups = [
            f"table\t{b.groups[i]}" if b.groups is not None else f"{b.split}\t{i}"
            for b in sets
            for i in range(len(b.problems))
        ]
    reranker, figures = fit_cross_validated(
        problems,
        l2s,
        world,
        folds=folds,
        progress=report,
        sources=sources if len(sets) > 1 else None,
        weights=weights,
        groups=groups,
        prior=prior,
    )
    reranker.proposals = sets[0].proposals
    if reranker.proposals:
        reranker.proposal_kinds = proposal_kinds(problems)
    reranker.fitted = {
        "split": "+".join(b.split for b in sets),
        "questions": sum(b.questions for b in sets),
        "answer_vote_right": sum(b.answer_vote_right for b in sets),
        "right_answer_in_beam": sum(b.right_answer_in_beam for b in sets),
        **figures,
    }
    if prior is not None:  # what it started from, for the record (not what that one started from)
        reranker.fitted["prior"] = {k: v for k, v in prior.fitted.items() if k != "prior"}
    if len(sets) > 1:
        reranker.fitted["sets"] = [
            {
                "split": b.split,
                "questions": b.questions,
                "answer_vote_right": b.answer_vote_right,
                "right_answer_in_beam": b.right_answer_in_beam,
                "weight": 1.0 if set_weights is None else float(w),
            }
            for b, w in zip(sets, set_weights or [1.0] * len(sets), strict=True)
        ]
    return reranker
