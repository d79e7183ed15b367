"""Does a chooser that reads all of a question's candidates at once choose better on users' tables?

The users' reranker scores each candidate alone (a linear score over sparse features, the shared matcher's score
among them), so it cannot see what differs between two candidates (a direction, the column shown). This
chooser reads them together: each candidate is the shipped matcher's vector before its head (MiniLM over the
question with the table's column names against the program's reading and answer preview) beside the users'
reranker's score and the beam's own features; one attention layer runs across the candidates of a question,
and a linear head adds a correction to the reranker's score (zero at the start), fitted with the reranker's
objective (a softmax over the question's candidates, the right ones' mass maximised).

Its settings are chosen by folds by table on the fit questions only; the judged files are never fitted on.
The reranker's scores it corrects are out of fold where the shipped users' reranker was fitted (`--refit-on`:
refitted per fold as the shipped one was made, from the model's `reranker.json`), the shipped one's elsewhere.
The caches are `bench/user_matcher_fit.py decode`'s (candidates as a parse shows the users' reranker); for the
fit rounds the parser saw, decode them with members that did not see their tables (`bench/user_folds.py`).

    python bench/listwise_chooser.py vectors --cache DIR --files FILES... --out DIR
    python bench/listwise_chooser.py cv --cache DIR --fit FIT_FILES... --refit-on FILES... --out DIR --grid JSON
    python bench/listwise_chooser.py judge --cache DIR --fit ... --refit-on ... --judge-cache DIR --judge FILES... \
        --out DIR

Training sums floats in an order that depends on the thread count, so a figure is reproduced with the same
`OMP_NUM_THREADS` (each result records it).
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import sys
from pathlib import Path
from typing import Any

import torch
import user_matcher_fit as u
from common import header, write_result
from torch import nn

from nsmcli.fileio import atomic_write_bytes
from nsmcli.parser import find_model
from nsmcli.train.rerank import (
    DENSE_FEATURES,
    PROPOSED,
    BeamProblems,
    best_index,
    choice_matters,
    fit,
    group_folds,
    load_reranker,
)

#: per candidate beside its vector: the reranker's score less the best, its softmax, whether it is the
#: reranker's first, the log of its rank, the dense features, whether it was proposed, whether it reads
N_EXTRA = 4 + len(DENSE_FEATURES) + 2


def vectors_of(matcher: Any, question: str, texts: list[str]) -> torch.Tensor:
    """The matcher's vector of each match text (zeros where a candidate does not read): what its head reads
    (`Matcher.reading`)."""
    out = torch.zeros(len(texts), matcher.text.hidden_size)
    present = [k for k, text in enumerate(texts) if text]
    if present:
        ids, segments, mask = matcher.pieces(question, [texts[k] for k in present])
        out[present] = matcher.reading(matcher.bottom(ids, segments, mask), mask, segments.bool())
    return out


def features(problem: tuple, scores: list[float], vectors: torch.Tensor) -> dict[str, torch.Tensor]:
    candidates, credits = problem
    dense = torch.tensor(
        [(list(d) + [0.0] * len(DENSE_FEATURES))[: len(DENSE_FEATURES)] for d, _ in candidates]
    )
    proposed = torch.tensor([[float(any(n.startswith(f"{PROPOSED}=") for n in s))] for _, s in candidates])
    reads = (vectors.abs().sum(1) > 0).float().unsqueeze(1)
    score = torch.tensor(scores, dtype=torch.float32)
    rank = torch.empty_like(score)
    # stable: among tied scores the first in beam order ranks first, as `best_index` chooses
    rank[torch.argsort(-score, stable=True)] = torch.arange(len(score), dtype=torch.float32)
    extra = torch.cat(
        [
            (score - score.max()).unsqueeze(1),
            torch.softmax(score, 0).unsqueeze(1),
            (rank == 0).float().unsqueeze(1),
            torch.log1p(rank).unsqueeze(1),
            dense,
            proposed,
            reads,
        ],
        1,
    )
    return {"v": vectors.float(), "x": extra, "s": score, "right": torch.tensor([c >= 1 for c in credits])}


class Listwise(nn.Module):
    def __init__(
        self, hidden: int, width: int = 64, heads: int = 4, dropout: float = 0.1, attend: bool = True
    ):
        super().__init__()
        self.norm = nn.LayerNorm(hidden)
        self.read = nn.Linear(hidden, width)
        self.extra = nn.Linear(N_EXTRA, width)
        self.attend = attend
        self.mix: nn.Module = (
            nn.TransformerEncoderLayer(width, heads, 2 * width, dropout, batch_first=True)
            if attend
            else nn.Sequential(nn.GELU(), nn.Dropout(dropout), nn.Linear(width, width), nn.GELU())
        )
        self.head = nn.Linear(width, 1)
        nn.init.zeros_(self.head.weight)
        nn.init.zeros_(self.head.bias)

    def forward(self, v: torch.Tensor, x: torch.Tensor, pad: torch.Tensor) -> torch.Tensor:
        h = self.read(self.norm(v)) + self.extra(x)
        h = self.mix(h, src_key_padding_mask=pad) if self.attend else self.mix(h)
        return self.head(h).squeeze(-1)


def padded(items: list[dict]) -> tuple[torch.Tensor, ...]:
    n, width = max(len(it["s"]) for it in items), items[0]["v"].shape[1]
    v, x = torch.zeros(len(items), n, width), torch.zeros(len(items), n, N_EXTRA)
    s, right = torch.zeros(len(items), n), torch.zeros(len(items), n, dtype=torch.bool)
    pad = torch.ones(len(items), n, dtype=torch.bool)
    for b, it in enumerate(items):
        k = len(it["s"])
        v[b, :k], x[b, :k], s[b, :k], right[b, :k], pad[b, :k] = it["v"], it["x"], it["s"], it["right"], False
    return v, x, s, right, pad


def train(
    items: list[dict], epochs: int = 5, seed: int = 0, lr: float = 1e-3, wd: float = 0.01, **model: Any
):
    torch.manual_seed(seed)
    rng = random.Random(seed)
    net = Listwise(items[0]["v"].shape[1], **model)
    optimiser = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=wd)
    order = list(range(len(items)))
    for _ in range(epochs):
        rng.shuffle(order)
        net.train()
        for start in range(0, len(order), 16):
            v, x, s, right, pad = padded([items[j] for j in order[start : start + 16]])
            score = (s + net(v, x, pad)).masked_fill(pad, -1e4)
            loss = torch.logsumexp(score, 1) - torch.logsumexp(score.masked_fill(~right, -1e4), 1)
            optimiser.zero_grad()
            loss.mean().backward()
            optimiser.step()
    return net.eval()


@torch.no_grad()
def chooses_right(nets: list[Listwise], item: dict) -> bool:
    if "v" not in item:  # the choice does not matter: the reranker's stands
        return item["base_right"]
    v, x, s, right, pad = padded([item])
    score = (s + sum(net(v, x, pad) for net in nets) / len(nets))[0].tolist()
    return bool(item["right"][best_index(score)])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("stage", choices=("vectors", "cv", "judge"))
    ap.add_argument("--model", default="wtq")
    ap.add_argument("--cache", type=Path, required=True, help="the fit files' decoded beams")
    ap.add_argument("--files", type=Path, nargs="*", default=[], help="vectors: the files (of --cache)")
    ap.add_argument("--fit", type=Path, nargs="*", default=[])
    ap.add_argument("--refit-on", type=Path, nargs="*", default=[], help="fit files the users' reranker saw")
    ap.add_argument("--judge-cache", type=Path)
    ap.add_argument("--judge", type=Path, nargs="*", default=[])
    ap.add_argument("--out", type=Path, required=True, help="vectors and results")
    ap.add_argument("--grid", default='[{"epochs": 5, "seeds": [0, 1, 2]}]', help="settings, a JSON list")
    args = ap.parse_args()
    model = find_model(args.model)
    shipped = load_reranker(model, users=True)
    if shipped is None or shipped.matcher is None or shipped.proposal_kinds is None:
        raise SystemExit(f"{model} has no users' reranker weighing a matcher")
    kinds = set(shipped.proposal_kinds)
    args.out.mkdir(parents=True, exist_ok=True)
    say = lambda line: print(line, flush=True)  # noqa: E731

    def vector_file(
        cache: Path, path: Path
    ) -> Path:  # one question file's vectors differ by the cache decoded
        return args.out / f"vectors-{cache.resolve().name}-{u.cached(cache, path).stem}.pkl"

    def key(path: Path) -> str:
        return str(path.resolve())

    def group(path: Path, beams: BeamProblems, i: int) -> str:
        return f"{key(path)}\t{beams.groups[i] if beams.groups else i}"

    if args.stage == "vectors":
        with torch.no_grad():
            for path in args.files:
                if vector_file(args.cache, path).is_file():
                    continue
                beams = u.load(args.cache, path, kinds)
                found = {
                    i: vectors_of(shipped.matcher.eval(), *beams.texts[i]).half()
                    for i, (_, credits) in enumerate(beams.problems)
                    if choice_matters(credits)
                }
                atomic_write_bytes(vector_file(args.cache, path), pickle.dumps(found))
                say(f"{path}: {len(found)} questions' candidates read")
        return

    def items_of(cache: Path, files: list[Path], scores: dict[tuple[str, int], list[float]]) -> list[dict]:
        out = []
        for path in files:
            beams: BeamProblems = u.load(cache, path, kinds)
            vectors = pickle.loads(vector_file(cache, path).read_bytes())
            for i, problem in enumerate(beams.problems):
                score = scores.get((key(path), i)) or shipped.scores(problem[0])
                item: dict[str, Any] = {
                    "group": group(path, beams, i),
                    "base_right": bool(problem[1]) and problem[1][best_index(score)] >= 1,
                }
                if choice_matters(problem[1]):
                    item.update(features(problem, score, vectors[i]))
                out.append(item)
        return out

    fitted_on = {key(Path(f)) for f in shipped.fitted.get("questions_files") or []}
    in_sample = [p for p in args.fit if key(p) in fitted_on and key(p) not in {key(q) for q in args.refit_on}]
    if in_sample:  # their scores would be the shipped reranker's own, in sample
        raise SystemExit(f"the users' reranker was fitted on {in_sample}: name them in --refit-on")
    judged = {key(p) for p in args.judge} & {key(p) for p in [*args.fit, *args.refit_on]}
    if judged:
        raise SystemExit(f"judged files are fitted on too: {sorted(judged)}")
    # one partition of the fit questions' tables, for the reranker's refits and the chooser's folds alike
    fit_sets = {key(path): (path, u.load(args.cache, path, kinds)) for path in [*args.fit, *args.refit_on]}
    fold_of = group_folds(
        [group(path, beams, i) for path, beams in fit_sets.values() for i in range(len(beams.problems))], 4, 0
    )
    # the users' reranker's scores out of fold where it was fitted: refitted per fold as the shipped one was made
    prior = load_reranker(model)
    seen = [
        (key(path), i, fold_of[group(path, beams, i)], p)
        for path, beams in (fit_sets[key(q)] for q in args.refit_on)
        for i, p in enumerate(beams.problems)
    ]
    oof: dict[tuple[str, int], list[float]] = {}
    for k in range(4):
        refit = fit([p for _, _, f, p in seen if f != k], shipped.fitted.get("l2", 1e-3), "wtq", None, prior)
        oof.update({(name, i): refit.scores(p[0]) for name, i, f, p in seen if f == k})
    fit_items = items_of(args.cache, args.fit, oof)
    taught = [it for it in fit_items if "v" in it]
    grid = json.loads(args.grid)
    lines = [
        f"- threads: {torch.get_num_threads()} (`OMP_NUM_THREADS`)",
        f"- fit questions {len(fit_items):,} ({len(taught):,} whose choice matters); the reranker alone, its"
        f" scores out of fold where it was fitted: {sum(it['base_right'] for it in fit_items):,} right",
    ]
    command = "python bench/listwise_chooser.py " + " ".join(sys.argv[1:])
    if args.stage == "cv":
        folds = fold_of
        for setting in grid:
            setting = dict(setting)
            seeds = setting.pop("seeds", [0])
            right = 0
            for k in range(4):
                nets = [
                    train([it for it in taught if folds[it["group"]] != k], seed=s, **setting) for s in seeds
                ]
                right += sum(chooses_right(nets, it) for it in fit_items if folds[it["group"]] == k)
            lines.append(f"- {setting}, seeds {seeds}: {right:,} right out of fold (4 folds by table)")
            say(lines[-1])
        write_result(
            "listwise-chooser-cv", header("A listwise chooser, out of fold", command) + "\n".join(lines)
        )
        return
    if args.judge_cache is None or len(grid) != 1:
        raise SystemExit("judge: give --judge-cache and one setting in --grid")
    setting = dict(grid[0])
    seeds = setting.pop("seeds", [0])
    nets = [train(taught, seed=s, **setting) for s in seeds]
    before = after = won = lost = 0
    for path in args.judge:
        items = items_of(args.judge_cache, [path], {})
        was = [it["base_right"] for it in items]
        now = [chooses_right(nets, it) for it in items]
        before, after = before + sum(was), after + sum(now)
        won += sum(b and not a for a, b in zip(was, now, strict=True))
        lost += sum(a and not b for a, b in zip(was, now, strict=True))
        lines.append(f"- {path}: {len(items)} questions, right choices {sum(was)} -> {sum(now)}")
    lines.append(
        f"- judged files in all ({setting}, seeds {seeds}): {before:,} -> {after:,} ({won} won, {lost} lost)"
    )
    say(lines[-1])
    name = f"listwise-chooser-judged-{torch.get_num_threads()}-threads"
    write_result(name, header("A listwise chooser, judged", command) + "\n".join(lines))


if __name__ == "__main__":
    main()
