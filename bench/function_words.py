"""How often each run's chosen program uses the function that a question's words ask for, on WTQ dev:
"average" -> average, "more" -> diff, "total" -> sum or count. A frozen contextual encoder may blur the
lexical cue that GloVe vectors carry; this counts it.

    python bench/function_words.py --data data/wtq-word --cache /tmp/beams RUN1 RUN2 ...

Runs are RUN[:best|last|average] as in weight_combinations.py, whose beam cache this shares.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from common import add_decoding_options, header, write_result
from weight_combinations import beams_of, cached_beams, split_spec

from nsmcli.train.evaluate import choose, load_run_model, resolve_split
from nsmcli.train.questions import default_kit
from nsmcli.worlds.tables.data.preprocess import load_dataset

#: question word -> the functions a program answering it would use
CUES = {
    "average": ("average",),
    "more": ("diff",),
    "difference": ("diff",),
    "total": ("sum", "count"),
    "how many": ("count", "sum", "diff"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("specs", nargs="+", help="RUN[:best|last|average]")
    add_decoding_options(parser)
    parser.add_argument("--cache", type=Path, help="the beam cache of weight_combinations.py")
    args = parser.parse_args()
    dataset, kit = load_dataset(args.data), default_kit()
    lines = [
        "| cue (questions) | run | chosen program uses it | right |",
        "|---|---|---:|---:|",
    ]
    for spec in args.specs:
        run, which = split_spec(spec)
        model, config, _ = load_run_model(run, kit, which)
        split = resolve_split(dataset, args.split, config)

        def decode_now(model=model, config=config, split=split):
            return beams_of(model, config, dataset, split, args.beam)

        beams = cached_beams(args.cache, run, which, split, args.beam, decode_now)
        texts = {e.id: dataset.text(e).lower() for e in dataset.examples(split)}
        for cue, functions in CUES.items():
            asked = [q for q, text in texts.items() if cue in text and beams.get(q)]
            uses = right = 0
            for q in asked:
                hyps = beams[q]
                chosen = choose({h[0]: h[1] for h in hyps}, {h[0]: h[2] for h in hyps})
                uses += any(f"({f} " in chosen for f in functions)
                right += next(h[3] for h in hyps if h[0] == chosen)
            lines.append(f"| {cue} ({len(asked)}) | `{run}` | {uses} | {right} |")
    command = "python bench/function_words.py " + " ".join(sys.argv[1:])
    text = header("Function words and the programs chosen", command) + "\n".join(lines)
    print(text)
    write_result("function-words", text + "\n")


if __name__ == "__main__":
    main()
