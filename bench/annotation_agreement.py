"""Agreement of our CoreNLP-free annotation with the official CoreNLP/SEMPRE tags of WikiTableQuestions.

(a) the 3,537 questions of `tagged/data/pristine-seen-tables.tagged`: canonical answers (our
    `canonicalize_answer` vs `targetCanon`, compared as the official evaluator would) and the question's
    NUMBER/DATE values (multiset per question, and per mention precision/recall);
(b) every cell of `tagged/20x-tagged/*.tagged`: `parse_cell_numbers` / `parse_cell_date` vs the `number`,
    `num2` and `date` columns.

Usage: python bench/annotation_agreement.py [--data /work/shared/data] [--out bench/results/annotation.md]
"""

from __future__ import annotations

import argparse
import csv
import datetime
import glob
import os
import platform
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nsmcli.worlds.tables.data import textnum  # noqa: E402
from nsmcli.worlds.tables.data.annotate import annotate_question, canonicalize_answer  # noqa: E402
from nsmcli.worlds.tables.data.table import Table  # noqa: E402
from nsmcli.worlds.tables.data.values import Date, normalize  # noqa: E402

csv.field_size_limit(1 << 30)
EXAMPLES_PER_CATEGORY = 5


def unescape(text: str) -> str:
    """WTQ TSV escaping: `\\n` newline, `\\p` pipe, `\\\\` backslash."""
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "p": "|", "\\": "\\"}.get(m.group(1), m.group(0)), text)


def split_list(text: str) -> list[str]:
    return [unescape(x) for x in text.split("|")]


def read_tagged(path: str) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


# ---------------------------------------------------------------------------------------------------------
# Official-evaluator-style values
# ---------------------------------------------------------------------------------------------------------


def to_value(original: str, canon: str) -> tuple:
    """The evaluator's `to_value(original, canon)`: a number, a date (year-only dates are numbers), a string."""
    try:
        number = float(canon)
        if number == number and abs(number) != float("inf"):
            return ("number", number)
    except ValueError:
        pass
    date = Date.parse(canon)
    if date is not None:
        if date.month == -1 and date.day == -1:
            return ("number", float(date.year))
        return ("date", date)
    return ("string", normalize(original))


def values_match(a: tuple, b: tuple) -> bool:
    if a[0] != b[0]:
        return False
    if a[0] == "number":
        return abs(a[1] - b[1]) < 1e-6
    return a[1] == b[1]


def canon_category(original: str, gold: tuple, mine: tuple) -> str:
    return f"gold {gold[0]} / ours {mine[0]}" if gold[0] != mine[0] else f"both {gold[0]}, different value"


# ---------------------------------------------------------------------------------------------------------
# Question NUMBER/DATE mentions
# ---------------------------------------------------------------------------------------------------------

_NUMBER_VALUE = re.compile(r"-?\d+(?:\.\d+)?(?:E-?\d+)?")
_DATE_PIECE = re.compile(r"[0-9X]{4}(?:-[0-9X]{2}){0,2}")


def gold_mentions(row: dict[str, str]) -> list[tuple[str, object, str]]:
    """(kind, value, text) for each tagged NUMBER/DATE mention (consecutive tokens with the same tag and
    value). Modifiers (`>=`, `~`) are dropped, "31.0 - 14.0" gives two numbers, "1990/2004" two dates;
    DATE values that are no calendar date (`THIS P1Y`, `PRESENT_REF`, `199X`) are left out."""
    tokens = split_list(row["tokens"])
    tags = row["nerTags"].split("|")
    values = split_list(row["nerValues"])
    out: list[tuple[str, object, str]] = []
    i = 0
    while i < len(tags):
        tag, value = tags[i], values[i] if i < len(values) else ""
        j = i + 1
        while j < len(tags) and tags[j] == tag and (values[j] if j < len(values) else "") == value:
            j += 1
        text = " ".join(tokens[i:j])
        if tag == "NUMBER":
            for m in _NUMBER_VALUE.finditer(value.lstrip("<>=~")):
                out.append(("number", float(m.group()), text))
        elif tag == "DATE":
            for piece in re.split(r"[ /]", value):
                if _DATE_PIECE.fullmatch(piece):
                    date = textnum.parse_sutime_value(piece)
                    if date is not None:
                        out.append(("date", date, text))
        i = j
    return out


def our_mentions(tokens: list[str]) -> list[tuple[str, object, str]]:
    out: list[tuple[str, object, str]] = []
    for q in textnum.find_quantities(tokens):
        text = " ".join(tokens[q.start : q.end])
        if q.kind == "NUMBER":
            out.extend(("number", float(v), text) for v in q.values)
        elif q.kind == "DATE":
            out.extend(("date", d, text) for d in q.values)
    return out


def mention_key(m: tuple[str, object, str]) -> tuple[str, object]:
    kind, value, _ = m
    return (kind, round(value, 6)) if kind == "number" else (kind, value)


def mention_category(m: tuple[str, object, str], side: str) -> str:
    kind, value, text = m
    low = text.lower()
    if side == "gold":
        if re.search(r"\b(score|gross|years?|months?|hours?|days?)\b", low) and kind == "number":
            return "CoreNLP quirk: a word read as a number (score=20, years=0)"
        if kind == "date" and not re.search(r"\d", low):
            return "CoreNLP date from a bare month word we skip (e.g. may)"
    if kind == "number" and re.fullmatch(r"\d{4}", low):
        return f"{side} only: 4-digit number vs year"
    return f"{side} only: {kind}"


# ---------------------------------------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------------------------------------


def load_table(data_dir: Path, context: str, cache: dict[str, Table]) -> Table:
    """The table of a `csv/204-csv/590.csv` context, read from its `.tsv` twin."""
    if context not in cache:
        path = data_dir / "wtq" / context.replace(".csv", ".tsv")
        with open(path, encoding="utf-8") as f:
            lines = [line.rstrip("\n").split("\t") for line in f]
        header = [unescape(x) for x in lines[0]]
        rows = []
        for line in lines[1:]:
            cells = [unescape(x) for x in line][: len(header)]
            rows.append(cells + [""] * (len(header) - len(cells)))
        cache[context] = Table.from_rows(context, header, rows)
    return cache[context]


# ---------------------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------------------


def pct(k: int, n: int) -> str:
    return f"{100.0 * k / n:.2f}% ({k}/{n})" if n else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).resolve().parent / "results" / "annotation.md"
    )
    args = parser.parse_args()
    tagged = args.data / "wtq" / "tagged"
    lines: list[str] = []

    def say(text: str = "") -> None:
        print(text)
        lines.append(text)

    # (a) questions -----------------------------------------------------------------------------------------
    rows = read_tagged(str(tagged / "data" / "pristine-seen-tables.tagged"))
    canon_ok = 0
    canon_bad: dict[str, list[str]] = defaultdict(list)
    ner_ok = 0
    ner_bad: dict[str, list[str]] = defaultdict(list)
    tp = n_gold = n_ours = 0
    tok_ok = 0
    trig_ok = 0
    t0 = time.perf_counter()
    for row in rows:
        originals = split_list(row["targetValue"])
        golds = split_list(row["targetCanon"])
        ok = True
        for original, gold in zip(originals, golds, strict=False):
            mine = canonicalize_answer(original)
            gv, mv = to_value(original, gold), to_value(original, mine)
            if not values_match(gv, mv):
                ok = False
                canon_bad[canon_category(original, gv, mv)].append(
                    f"`{original}`: gold `{gold}`, ours `{mine}`"
                )
        canon_ok += ok
        tokens = [t.lower() for t in textnum.ptb_tokenize(row["utterance"])]
        gold_tokens = [t.replace("\\/", "/") for t in split_list(row["tokens"])]
        tok_ok += tokens == gold_tokens
        gold_m = gold_mentions(row)
        our_m = our_mentions(tokens)
        g = Counter(mention_key(m) for m in gold_m)
        o = Counter(mention_key(m) for m in our_m)
        common = sum((g & o).values())
        tp += common
        n_gold += sum(g.values())
        n_ours += sum(o.values())
        if g == o:
            ner_ok += 1
        else:
            for m in gold_m:
                if g[mention_key(m)] > o[mention_key(m)]:
                    ner_bad[mention_category(m, "gold")].append(
                        f"{row['utterance']}  [gold {m[1]} on `{m[2]}`]"
                    )
                    break
            else:
                for m in our_m:
                    if o[mention_key(m)] > g[mention_key(m)]:
                        ner_bad[mention_category(m, "ours")].append(
                            f"{row['utterance']}  [ours {m[1]} on `{m[2]}`]"
                        )
                        break
        if gold_tokens == tokens:
            from nsmcli.worlds.tables.data.annotate import pos_tags

            trig = {"JJR", "JJS", "RBR", "RBS"}
            ours_t = [t in trig for t in pos_tags(tokens)]
            gold_t = [t in trig for t in row["posTags"].split("|")]
            trig_ok += ours_t == gold_t
    t_questions = time.perf_counter() - t0

    # whole annotation timing (tables built from the .tsv files, cached per table)
    t0 = time.perf_counter()
    cache: dict[str, Table] = {}
    for row in rows:
        table = load_table(args.data, row["context"], cache)
        annotate_question(row["utterance"], table, qid=row["id"], answer=split_list(row["targetValue"]))
    t_annotate = time.perf_counter() - t0

    # (b) cells ------------------------------------------------------------------------------------------------
    t0 = time.perf_counter()
    cell_total = 0
    stats = {k: Counter() for k in ("number", "num2", "date")}
    cell_bad: dict[str, list[str]] = defaultdict(list)
    for path in sorted(glob.glob(str(tagged / "20*-tagged" / "*.tagged"))):
        for row in read_tagged(path):
            if row["row"] == "-1":
                continue
            cell_total += 1
            content = unescape(row["content"])
            number, num2 = textnum.parse_cell_numbers(content)
            date = textnum.parse_cell_date(content)
            gold = {
                "number": float(row["number"]) if row["number"] else None,
                "num2": float(row["num2"]) if row["num2"] else None,
                "date": Date.parse(row["date"]) if row["date"] else None,
            }
            for kind, mine in (("number", number), ("num2", num2), ("date", date)):
                g = gold[kind]
                if kind == "date":
                    same = g == mine
                else:
                    same = g == mine or (
                        g is not None and mine is not None and abs(g - mine) <= 1e-6 * max(1, abs(g))
                    )
                stats[kind]["all"] += 1
                stats[kind]["all_ok"] += same
                if g is not None or mine is not None:
                    stats[kind]["valued"] += 1
                    stats[kind]["valued_ok"] += same
                if not same:
                    if g is None:
                        cat = f"{kind}: ours only"
                    elif mine is None:
                        cat = f"{kind}: gold only"
                    else:
                        cat = f"{kind}: different value"
                    cell_bad[cat].append(
                        f"`{content[:60]!r}`: gold {g}, ours {mine} (CoreNLP {row['nerValues'][:50]})"
                    )
    t_cells = time.perf_counter() - t0

    # report -----------------------------------------------------------------------------------------------------
    uname = " ".join(platform.uname())
    say("# Annotation agreement with the official CoreNLP/SEMPRE tags")
    say()
    say(f"- command: `python bench/annotation_agreement.py --data {args.data}`")
    say(f"- date: {datetime.datetime.now().isoformat(timespec='seconds')}")
    try:
        uname = subprocess.run(["uname", "-a"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    say(f"- machine: `{uname}`, nproc {os.cpu_count()}")
    say()
    say("## (a) Questions (pristine-seen-tables.tagged)")
    say()
    n = len(rows)
    say(
        f"- answer canonical values (`targetCanon`, evaluator comparison), all items equal: {pct(canon_ok, n)}"
    )
    say(f"- question NUMBER/DATE value multisets equal: {pct(ner_ok, n)}")
    say(f"- NUMBER/DATE mentions: precision {pct(tp, n_ours)}, recall {pct(tp, n_gold)}")
    say(f"- tokens identical to CoreNLP's (slashes unescaped): {pct(tok_ok, n)}")
    say(f"- JJR/JJS/RBR/RBS trigger tags identical, among those questions: {pct(trig_ok, tok_ok)}")
    say(
        f"- time: tokens+mentions+canon {t_questions:.1f}s; full `annotate_question` incl. building "
        f"{len(cache)} tables {t_annotate:.1f}s"
    )
    say()
    say("## (b) Table cells (20x-tagged, all rows but headers)")
    say()
    say("| view | all cells | cells where either side has a value |")
    say("|---|---|---|")
    for kind in ("number", "num2", "date"):
        s = stats[kind]
        say(f"| {kind} | {pct(s['all_ok'], s['all'])} | {pct(s['valued_ok'], s['valued'])} |")
    say(f"\n{cell_total} cells in {t_cells:.1f}s")
    say()
    say("## Remaining disagreements")
    for title, groups in (
        ("Answer canon", canon_bad),
        ("Question NUMBER/DATE", ner_bad),
        ("Cells", cell_bad),
    ):
        say()
        say(f"### {title}")
        for cat, examples in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            say()
            say(f"- **{cat}**: {len(examples)}")
            for ex in examples[:EXAMPLES_PER_CATEGORY]:
                say(f"  - {ex}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
