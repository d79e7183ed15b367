"""Does a cross-encoder over (question, program reading) help the linear reranker choose from the beam?

MiniLM reads "[CLS] question [SEP] reading [SEP]" (the reading: `lang.gloss`), its top layers fine-tuned
and a score head on `[CLS]`, trained listwise (the log probability of a problem's right candidates under a
softmax of the scores) on the held-out questions a reranker is fitted on. Its score joins the linear
reranker's dense features; the linear reranker is then fitted as `nsm rerank` fits it (4 folds choose
the L2 strength). The cross-encoder's scores on the fitting questions are out of fold (4 cross-encoders,
each trained on three quarters and scoring the fourth); on dev they are the mean of the 4.

    python bench/cross_encoder.py --model wtq --data data/wtq-word   # bench/results/cross-encoder-wtq.md

The beams are decoded once and kept in --work (they depend on the model and the data only).
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import random
import time
from pathlib import Path

import torch
from common import header, write_result
from torch import nn

import nsmcli.train.rerank as rerank
from nsmcli.model.pretrained import MiniLMText, locate_minilm
from nsmcli.parser import find_model
from nsmcli.train.evaluate import evaluate
from nsmcli.worlds.tables.data.preprocess import load_dataset
from nsmcli.worlds.tables.lang.spec import get_language
from nsmcli.worlds.tables.rerank import program_readings

#: Question pieces kept, and pieces in all, per (question, reading) pair.
QUESTION_PIECES, PAIR_PIECES = 40, 96


def decode(model: str, data: str, split: str, tables_of: str | None, work: Path, workers: int) -> list[dict]:
    """Per question of `split`: its text, each beam candidate's reading, linear features and credit."""
    path = work / f"{split}.json"
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    dataset = load_dataset(data)
    select = rerank.on_tables_of(dataset, tables_of or None)
    result = evaluate(
        [find_model(model) or model],
        dataset,
        split=split,
        beam=5,
        vote="answer",
        workers=workers,
        keep_candidates=True,
        select=select,
    )
    limits = get_language(dataset.language).limits.to_json()
    examples = {e.id: e for e in dataset.examples(split)}
    problems = []
    for prediction in result.predictions:
        candidates = result.candidates.get(prediction.id)
        if not candidates:
            continue
        example = examples[prediction.id]
        question, readings = program_readings(
            example, dataset.bind(example, limits), [c.program for c in candidates]
        )
        problems.append(
            {
                "id": prediction.id,
                "question": question,
                "readings": readings,
                "features": result.rerank_features[prediction.id],
                "credits": [c.credit for c in candidates],
            }
        )
    work.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(problems), encoding="utf-8")
    return problems


def teaches(problem: dict) -> bool:
    return rerank.choice_matters(problem["credits"])


class CrossEncoder(nn.Module):
    """The top `n_train` layers of MiniLM (copies) and a score head on `[CLS]`; the layers below are run
    once per pair (`lower`) and kept."""

    def __init__(self, text: MiniLMText, n_train: int):
        super().__init__()
        self.text = text
        self.n_lower = len(text.bert.layers) - n_train
        self.top = nn.ModuleList(copy.deepcopy(layer) for layer in text.bert.layers[self.n_lower :])
        self.top.requires_grad_(True)
        self.head = nn.Linear(text.hidden_size, 1)
        nn.init.zeros_(self.head.weight)
        nn.init.zeros_(self.head.bias)

    @torch.no_grad()
    def lower(self, problem: dict) -> tuple[torch.Tensor, torch.Tensor]:
        tokenizer, text = self.text.tokenizer, self.text
        question = tokenizer.encode(problem["question"], add_special_tokens=False).ids[:QUESTION_PIECES]
        pairs = []
        for reading in problem["readings"]:
            room = PAIR_PIECES - 3 - len(question)
            read = tokenizer.encode(reading or "", add_special_tokens=False).ids[:room]
            pairs.append(([text.cls, *question, text.sep, *read, text.sep], len(question) + 2))
        width = max(len(ids) for ids, _ in pairs)
        ids = torch.zeros(len(pairs), width, dtype=torch.long)
        segments = torch.zeros_like(ids)
        mask = torch.zeros(len(pairs), width, dtype=torch.bool)
        for row, (pieces, first) in enumerate(pairs):
            ids[row, : len(pieces)] = torch.tensor(pieces)
            segments[row, first : len(pieces)] = 1
            mask[row, : len(pieces)] = True
        x = text.bert.embed(ids, segments)
        for layer in text.bert.layers[: self.n_lower]:
            x = layer(x, mask)
        return x.half(), mask

    def forward(self, lowered: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
        x, mask = lowered
        x = x.float()
        for layer in self.top:
            x = layer(x, mask)
        return self.head(x[:, 0]).squeeze(-1)


def train_one(
    text: MiniLMText, lowered: dict, problems: list[dict], args: argparse.Namespace, seed: int
) -> CrossEncoder:
    torch.manual_seed(seed)
    model = CrossEncoder(text, args.train_layers)
    optimizer = torch.optim.AdamW(
        [
            {"params": model.top.parameters(), "lr": args.lr},
            {"params": model.head.parameters(), "lr": args.head_lr},
        ],
        weight_decay=0.01,
    )
    steps = math.ceil(len(problems) / args.batch) * args.epochs
    # linear warm-up over the first 10% of the steps, then linear decay to 0
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min(1.0, (s + 1) / (0.1 * steps)) * max(0.0, (steps - s) / steps)
    )
    order = list(problems)
    rng = random.Random(seed)
    for _ in range(args.epochs):
        rng.shuffle(order)
        for start in range(0, len(order), args.batch):
            batch = order[start : start + args.batch]
            loss = torch.zeros(())
            for problem in batch:
                scores = model(lowered[problem["id"]])
                right = torch.tensor([c >= 1 for c in problem["credits"]])
                loss = loss - (torch.logsumexp(scores[right], 0) - torch.logsumexp(scores, 0))
            optimizer.zero_grad()
            (loss / len(batch)).backward()
            optimizer.step()
            schedule.step()
    return model.eval()


def with_score(problems: list[dict], scores: dict[str, list[float]]) -> list:
    """`rerank.fit` problems whose dense features end with the cross-encoder's score (0 where it did not
    score: problems whose choice does not matter)."""
    out = []
    for problem in problems:
        extra = scores.get(problem["id"], [0.0] * len(problem["credits"]))
        features = [
            (dense + [x], sparse) for (dense, sparse), x in zip(problem["features"], extra, strict=True)
        ]
        out.append((features, problem["credits"]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", default="wtq")
    parser.add_argument("--data", default="data/wtq-word")
    parser.add_argument("--fit-split", default="pristine-seen-tables")
    parser.add_argument("--tables-of", default="random-split-1-train")
    parser.add_argument("--dev-split", default="random-split-1-dev")
    parser.add_argument("--work", type=Path, default=Path("/tmp/nsm-cross-encoder"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--train-layers", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--head-lr", type=float, default=1e-3)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--folds", type=int, default=4)
    args = parser.parse_args()
    torch.set_num_threads(1)
    started = time.time()
    fitting = decode(args.model, args.data, args.fit_split, args.tables_of, args.work, args.workers)
    dev = decode(args.model, args.data, args.dev_split, None, args.work, args.workers)
    decoded = time.time()

    text = MiniLMText(locate_minilm(), 0)
    probe = CrossEncoder(text, args.train_layers)
    lowered = {p["id"]: probe.lower(p) for p in fitting + dev if teaches(p)}
    order = list(range(len(fitting)))
    random.Random(7).shuffle(order)
    out_of_fold: dict[str, list[float]] = {}
    dev_sums: dict[str, torch.Tensor] = {}
    alone = []  # per fold: the cross-encoder's own choices right on its held-out quarter
    for fold in range(args.folds):
        held = {fitting[i]["id"] for i in order[fold :: args.folds]}
        model = train_one(
            text, lowered, [p for p in fitting if teaches(p) and p["id"] not in held], args, seed=fold
        )
        with torch.no_grad():
            right = 0
            for p in fitting:
                if p["id"] in held and teaches(p):
                    scores = model(lowered[p["id"]]).tolist()
                    out_of_fold[p["id"]] = scores
                    right += p["credits"][rerank.best_index(scores)] >= 1
            alone.append(right)
            for p in dev:
                if teaches(p):
                    dev_sums[p["id"]] = dev_sums.get(p["id"], 0) + model(lowered[p["id"]])
    dev_scores = {q: (s / args.folds).tolist() for q, s in dev_sums.items()}

    strengths = (3e-4, 1e-3, 3e-3, 1e-2)
    plain = [(p["features"], p["credits"]) for p in fitting]
    linear, figures = rerank.fit_cross_validated(plain, strengths, "wtq", folds=args.folds)
    linear_dev = rerank.right_choices(linear, [(p["features"], p["credits"]) for p in dev])
    names = rerank.DENSE_FEATURES
    rerank.DENSE_FEATURES = (*names, "cross_encoder")  # fit() sizes its dense weights from this
    try:
        joint, joint_figures = rerank.fit_cross_validated(
            with_score(fitting, out_of_fold), strengths, "wtq", folds=args.folds
        )
        joint_dev = rerank.right_choices(joint, with_score(dev, dev_scores))
    finally:
        rerank.DENSE_FEATURES = names
    held_out = figures["held_out_right"][f"{figures['l2']:g}"]
    joint_held_out = joint_figures["held_out_right"][f"{joint_figures['l2']:g}"]
    first_in_beam = sum(p["credits"][0] >= 1 for p in dev)
    lines = [
        f"- model `{args.model}`, fitted on `{args.fit_split}` (tables of `{args.tables_of}`, {len(fitting):,} "
        f"questions, {sum(map(teaches, fitting)):,} with a choice that matters), checked on "
        f"`{args.dev_split}` ({len(dev):,})",
        f"- cross-encoder: MiniLM's top {args.train_layers} layers fine-tuned, lr {args.lr:g} (head "
        f"{args.head_lr:g}), {args.epochs} epochs, batches of {args.batch} questions, {args.folds} folds; "
        f"decoding {decoded - started:.0f} s, the rest {time.time() - decoded:.0f} s",
        "",
        "| chooser | fitting questions (held out) | dev |",
        "|---|---:|---:|",
        f"| the beam's first | {sum(p['credits'][0] >= 1 for p in fitting):,} | {first_in_beam:,} |",
        f"| the cross-encoder alone (out of fold, choices that matter only) | {sum(alone):,} "
        f"of {sum(map(teaches, fitting)):,} | |",
        f"| linear reranker (L2 {figures['l2']:g}) | {held_out:,} | {linear_dev:,} |",
        f"| linear reranker + the cross-encoder's score (L2 {joint_figures['l2']:g}, its weight "
        f"{joint.dense[-1]:.3f}) | {joint_held_out:,} | {joint_dev:,} |",
        f"| the right answer in the beam | {sum(any(c >= 1 for c in p['credits']) for p in fitting):,} | "
        f"{sum(any(c >= 1 for c in p['credits']) for p in dev):,} |",
    ]
    command = f"python bench/cross_encoder.py --model {args.model} --data {args.data}"
    name = Path(args.model).name
    print(
        write_result(
            f"cross-encoder-{name}", header(f"Cross-encoder reranking: `{name}`", command) + "\n".join(lines)
        )
    )
    print("\n".join(lines))


if __name__ == "__main__":
    main()
