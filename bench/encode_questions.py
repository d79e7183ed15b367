"""CPU per question of the frozen MiniLM encoder: one question at a time (how training encoded each question
on first use, in the learner and again in each actor), in padded batches (how `ProgramModel.contexts`
prepares a run's questions), and reading the stored encodings back (what a resume, a later run on the same
data or an actor does).

    python bench/encode_questions.py --data data/wikisql-word --split train --questions 2000

Process CPU time with one thread, so the figures are steadier than wall time on a loaded machine.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import torch
from common import header, write_result

from nsmcli.model import ModelConfig, ProgramModel, Vocab
from nsmcli.model import pretrained as pre
from nsmcli.worlds import get_world
from nsmcli.worlds.tables.data.preprocess import load_dataset
from nsmcli.worlds.tables.lang.spec import get_language


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", required=True, type=Path, help="a preprocessed dataset")
    parser.add_argument("--split", default="train")
    parser.add_argument("--questions", type=int, default=2000, help="the first N questions of the split")
    parser.add_argument("--name", default="encode-questions", help="the result file's name")
    args = parser.parse_args()
    torch.set_num_threads(1)
    dataset = load_dataset(args.data)
    examples = dataset.examples(args.split)[: args.questions]
    model = ProgramModel(ModelConfig(encoder="minilm"), Vocab(["<PAD>", "<UNK>"])).eval()
    limits = get_language(dataset.language).limits.to_json()
    envs = [dataset.bind(e, limits) for e in examples]
    world = get_world(envs[0].world)
    contexts = [
        world.context(e, env, model.vocab, model.config) for e, env in zip(examples, envs, strict=True)
    ]
    items = list({pre.text_key(c.words, c.columns): (list(c.words), c.columns) for c in contexts}.values())
    text = pre.MiniLMText(pre.locate_minilm(), 0)

    start = time.process_time()
    for item in items:
        text._encode(*item)
    one = (time.process_time() - start) / len(items)
    start = time.process_time()
    encoded = text.encode_many(items)
    batched = (time.process_time() - start) / len(items)
    text.remember(items, encoded)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / text.store_name
        start = time.process_time()
        pre.save_encodings(path, text, items)
        saved = (time.process_time() - start) / len(items)
        size = path.stat().st_size
        start = time.process_time()
        loaded = pre.load_encodings(path, pre.MiniLMText(pre.locate_minilm(), 0))
        read = (time.process_time() - start) / len(items)
    assert len(loaded) == len(items)
    rows = sum(t.hidden.shape[0] for t in encoded) / len(items)
    lines = [
        f"{len(items):,} distinct questions of {args.data.name}/{args.split}, {rows:.1f} rows of 384 floats each",
        "",
        "| way | CPU ms per question | ratio to one at a time |",
        "|---|---:|---:|",
        f"| one at a time (`encode`) | {1000 * one:.2f} | 1.00 |",
        f"| padded batches (`encode_many`) | {1000 * batched:.2f} | {batched / one:.2f} |",
        f"| written to the store | {1000 * saved:.3f} | {saved / one:.3f} |",
        f"| read from the store (new encoder, weights loaded) | {1000 * read:.3f} | {read / one:.3f} |",
        "",
        f"store size: {size / len(items) / 1024:.1f} KiB per question",
    ]
    command = f"python bench/encode_questions.py --data {args.data} --split {args.split} --questions {args.questions}"
    text_out = header("Encoding questions with the frozen MiniLM", command) + "\n".join(lines) + "\n"
    print(text_out)
    print(f"written to {write_result(args.name, text_out)}")


if __name__ == "__main__":
    main()
