"""Round 28 real-world checks: cake orders (JSON), removals jobs (TSV) and cycle lanes by city (CSV)."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"
QUESTIONS = DATA / "questions-round28-w128.tsv"


def money(value: object) -> float:
    """Parse '$1,050.00', '-$50.00' or '£1,250.00'; blank gives NaN."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return float("nan")
    text = str(value).strip()
    if not text:
        return float("nan")
    negative = text.startswith("-")
    text = text.lstrip("-").replace("$", "").replace("£", "").replace(",", "")
    number = float(text)
    return -number if negative else number


def number(value: object) -> float:
    """Parse '1,245.6', '-0.5' or '45%'; blank gives NaN."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return float("nan")
    text = str(value).strip().replace(",", "").replace("%", "")
    return float(text) if text else float("nan")


def cakes() -> pd.DataFrame:
    with open(DATA / "r28_cake_orders.json", encoding="utf-8") as fh:
        df = pd.DataFrame(json.load(fh))
    df["price_n"] = df["Price"].map(money)
    df["deposit_n"] = df["Deposit"].map(money)
    df["pickup"] = pd.to_datetime(df["Pickup Date"], format="%Y-%m-%d")
    df["tiers_n"] = df["Tiers"].astype(int)
    df["notes_blank"] = df["Notes"].fillna("").astype(str).str.strip() == ""
    return df


def jobs() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r28_removal_jobs.tsv", sep="\t", dtype=str, keep_default_na=False)
    for col in df.columns:
        df[col] = df[col].str.strip()
    df["quote_n"] = df["Quote"].map(money)
    df["volume_n"] = df["Volume (m³)"].map(number)
    df["crew_n"] = df["Crew"].astype(int)
    df["date"] = pd.to_datetime(df["Move Date"], format="%d %b %Y")
    return df


def lanes() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r28_cycle_lanes.csv", dtype=str, keep_default_na=False)
    for col in df.columns:
        df[col] = df[col].str.strip()
    df["km_n"] = df["Cycle lanes (km)"].map(number)
    df["change_n"] = df["Change since 2020 (%)"].map(number)
    df["protected_n"] = df["Share protected"].map(number)
    return df


def _row(df: pd.DataFrame, col: str, value: str) -> pd.Series:
    match = df[df[col] == value]
    assert len(match) == 1, (col, value, len(match))
    return match.iloc[0]


def _next_after(df: pd.DataFrame, col: str, value: str, out: str, step: int) -> str:
    pos = df.index[df[col] == value][0]
    return str(df.loc[pos + step, out])


ANSWERS: dict[str, Callable[[], object]] = {
    # cake orders
    "What cake type did Elena Rossi order?": lambda: str(
        _row(cakes(), "Customer", "Elena Rossi")["Cake Type"]
    ),
    "how many red velvet orders do we have": lambda: int(
        (cakes()["Cake Type"].str.lower() == "red velvet").sum()
    ),
    "How many orders came in without any notes?": lambda: int(cakes()["notes_blank"].sum()),
    "Who ordered the most expensive cake?": lambda: str(cakes().sort_values("price_n").iloc[-1]["Customer"]),
    "What's the total value of all the orders picked up in September 2024?": lambda: float(
        cakes().query("pickup.dt.year == 2024 and pickup.dt.month == 9", engine="python")["price_n"].sum()
    ),
    "average price of a 3-tier cake": lambda: float(cakes().query("tiers_n == 3")["price_n"].mean()),
    "which order numbers are due for pickup in october 2024": lambda: (
        cakes().loc[lambda d: d["pickup"].dt.to_period("M") == pd.Period("2024-10", "M"), "Order #"].tolist()
    ),
    "Deposits are shown as negative amounts - which customer's deposit is closest to zero?": lambda: str(
        cakes().loc[lambda d: d["deposit_n"].abs().idxmin(), "Customer"]
    ),
    "How much more did Chloe Park's cake cost than Amara Okafor's?": lambda: float(
        _row(cakes(), "Customer", "Chloe Park")["price_n"]
        - _row(cakes(), "Customer", "Amara Okafor")["price_n"]
    ),
    "whose order comes right after Marcus Bell's in the list": lambda: _next_after(
        cakes(), "Customer", "Marcus Bell", "Customer", 1
    ),
    # removals jobs
    "What's the quote for RM-118?": lambda: str(_row(jobs(), "Job Ref", "RM-118")["Quote"]),
    "how many jobs start from Leeds": lambda: int((jobs()["From"].str.lower() == "leeds").sum()),
    "How many of our jobs were assigned a crew of 4 or more?": lambda: int((jobs()["crew_n"] >= 4).sum()),
    "Which job had the largest volume?": lambda: str(jobs().loc[lambda d: d["volume_n"].idxmax(), "Job Ref"]),
    "list the jobs quoted at more than £1,500": lambda: (
        jobs().loc[lambda d: d["quote_n"] > 1500, "Job Ref"].tolist()
    ),
    "What is our average quote, leaving out any job that has no quote?": lambda: float(
        jobs()["quote_n"].dropna().mean()
    ),
    "Which job has the latest move date?": lambda: str(jobs().loc[lambda d: d["date"].idxmax(), "Job Ref"]),
    "which jobs had a move date between 10 and 20 October 2024": lambda: (
        jobs()
        .loc[lambda d: d["date"].between(pd.Timestamp("2024-10-10"), pd.Timestamp("2024-10-20")), "Job Ref"]
        .tolist()
    ),
    "Which was the bigger move by volume, RM-104 or RM-129?": lambda: str(
        jobs().set_index("Job Ref").loc[["RM-104", "RM-129"], "volume_n"].idxmax()
    ),
    "We've got a few jobs still marked as booked - what's their combined volume in cubic metres?": lambda: (
        float(jobs().loc[lambda d: d["Status"].str.lower() == "booked", "volume_n"].sum())
    ),
    # cycle lanes
    "What share of Ghent's cycle lanes are protected?": lambda: str(
        _row(lanes(), "City", "Ghent")["Share protected"]
    ),
    "how many of the cities are in spain": lambda: int((lanes()["Country"].str.lower() == "spain").sum()),
    "Which cities have fewer km of cycle lanes now than in 2020?": lambda: (
        lanes().loc[lambda d: d["change_n"] < 0, "City"].tolist()
    ),
    "Which city has the lowest share of protected lanes?": lambda: str(
        lanes().dropna(subset=["protected_n"]).sort_values("protected_n").iloc[0]["City"]
    ),
    "how many cities have at least half their lanes protected": lambda: int(
        (lanes()["protected_n"] >= 50).sum()
    ),
    "Which cities have over 1,300 km of cycle lanes?": lambda: (
        lanes().loc[lambda d: d["km_n"] > 1300, "City"].tolist()
    ),
    "How many more km of cycle lanes does Berlin have than Munich?": lambda: float(
        _row(lanes(), "City", "Berlin")["km_n"] - _row(lanes(), "City", "Munich")["km_n"]
    ),
    "average change since 2020 across all the cities": lambda: float(lanes()["change_n"].mean()),
    "Which city grew its cycle lanes more since 2020, Milan or Barcelona?": lambda: str(
        lanes().set_index("City").loc[["Milan", "Barcelona"], "change_n"].idxmax()
    ),
    "which city is listed right before dublin": lambda: _next_after(lanes(), "City", "Dublin", "City", -1),
}


def agrees(computed: object, gold: str) -> bool:
    """Numbers agree within half a unit of the gold's last decimal; strings and lists must match exactly."""
    if isinstance(computed, list):
        return "|".join(str(x) for x in computed) == gold
    if isinstance(computed, (int, float)) and not isinstance(computed, bool):
        decimals = len(gold.split(".")[1]) if "." in gold else 0
        return abs(float(computed) - float(gold)) <= 0.5 * 10**-decimals + 1e-9
    return str(computed) == gold


def main() -> None:
    with open(QUESTIONS, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    ok = 0
    for row in rows:
        value = ANSWERS[row["question"]]()
        good = agrees(value, row["answer"])
        ok += good
        print(f"{'OK ' if good else 'BAD'} [{row['type']}] {row['table']}: {value!r} vs {row['answer']!r}")
    assert set(ANSWERS) == {r["question"] for r in rows}
    print(f"{ok}/{len(rows)} agree; {len({r['type'] for r in rows})} types")


if __name__ == "__main__":
    main()
