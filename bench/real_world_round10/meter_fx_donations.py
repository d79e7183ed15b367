"""Round 10 (w56) answers: smart-meter log, FX/crypto quotes and charity donations, computed with pandas."""

from __future__ import annotations

import csv
import sys
from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
TSV = REAL / "questions-round10-w56.tsv"


def _money(text: object) -> float | None:
    """Parse '£12.40', '1,000.00' or accounting-style '(50.00)' into a float; blank -> None."""
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return None
    s = str(text).strip().replace("£", "").replace("$", "").replace(",", "")
    if not s:
        return None
    if s.startswith("(") and s.endswith(")"):
        return -float(s[1:-1])
    return float(s)


def _volume(text: object) -> float | None:
    """Parse '1.2bn', '850M' or 'n/a' into a number of units."""
    s = str(text).strip().lower()
    if s in ("", "n/a", "nan"):
        return None
    for suffix, mult in (("bn", 1e9), ("b", 1e9), ("m", 1e6), ("k", 1e3)):
        if s.endswith(suffix):
            return float(s[: -len(suffix)]) * mult
    return float(s)


def meter() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r10_smart_meter_log.csv", dtype=str, keep_default_na=False)
    df["when"] = pd.to_datetime(df["Timestamp"], format="%Y-%m-%d %H:%M")
    df["kwh"] = pd.to_numeric(df["Reading (kWh)"].replace("", None))
    df["gbp"] = df["Cost"].map(_money)
    df["tariff"] = df["Tariff"].str.strip().str.lower()
    return df


def fx() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r10_fx_crypto_quotes.csv", dtype=str, keep_default_na=False)
    df["day"] = pd.to_datetime(df["Date"], format="%b %d, %Y")
    df["open"] = df["Open"].map(_money)
    df["close"] = df["Close"].map(_money)
    df["chg"] = df["Change"].str.rstrip("%").astype(float)
    df["vol"] = df["Volume"].map(_volume)
    return df


def donations() -> pd.DataFrame:
    df = pd.read_json(REAL / "r10_charity_donations.jsonl", lines=True, dtype={"amount": str, "date": str})
    df["amt"] = df["amount"].map(_money)
    df["when"] = pd.to_datetime(df["date"], format="%Y-%m-%d")
    return df


def _fx_pair(pair: str) -> pd.DataFrame:
    return fx().query("Pair == @pair").sort_values("day")


def _fx_on(pair: str, date: str) -> pd.Series:
    df = fx()
    return df[(df["Pair"] == pair) & (df["Date"] == date)].iloc[0]


def _meter_at(ts: str) -> pd.Series:
    df = meter()
    return df[df["Timestamp"] == ts].iloc[0]


def _campaign_net(name: str) -> float:
    df = donations()
    return float(df.loc[df["campaign"] == name, "amt"].sum())


def _after_id(donation_id: str) -> str:
    df = donations().reset_index(drop=True)
    pos = df.index[df["id"] == donation_id][0]
    return str(df.loc[pos + 1, "donor"])


def _after_note(note: str) -> str:
    df = meter().sort_values("when").reset_index(drop=True)
    pos = df.index[df["Note"] == note][0]
    return df.loc[pos + 1, "Reading (kWh)"]


def _more_volume(date: str, a: str, b: str) -> str:
    return a if _fx_on(a, date)["vol"] > _fx_on(b, date)["vol"] else b


def _more_net(a: str, b: str) -> str:
    return a if _campaign_net(a) > _campaign_net(b) else b


ANSWERS: dict[str, Callable[[], object]] = {
    # smart meter
    "What did the 2024-01-29 16:00 reading cost?": lambda: _meter_at("2024-01-29 16:00")["Cost"],
    "how many readings are missing": lambda: int(meter()["kwh"].isna().sum()),
    "How many rows are on the off-peak tariff?": lambda: int((meter()["tariff"] == "off-peak").sum()),
    "Which timestamp had the highest reading?": lambda: meter().loc[meter()["kwh"].idxmax(), "Timestamp"],
    "What's the total cost of all the peak-tariff readings?": lambda: round(
        meter().query("tariff == 'peak'")["gbp"].sum(), 2
    ),
    "average off-peak reading in kWh, ignoring the blank ones": lambda: round(
        meter().query("tariff == 'off-peak'")["kwh"].mean(), 2
    ),
    "How many kWh did we use in February 2024 according to the meter log?": lambda: round(
        meter().pipe(lambda d: d[(d["when"].dt.year == 2024) & (d["when"].dt.month == 2)])["kwh"].sum(), 2
    ),
    "what was the reading straight after the one noted heating on": lambda: _after_note("heating on"),
    "Which timestamps had a cost above £12?": lambda: meter().query("gbp > 12")["Timestamp"].tolist(),
    "How much more did the 2024-02-01 16:00 reading cost than the 2024-01-31 16:00 one?": lambda: round(
        _meter_at("2024-02-01 16:00")["gbp"] - _meter_at("2024-01-31 16:00")["gbp"], 2
    ),
    # fx / crypto
    "What was the closing price of BTC/USD on Mar 4, 2024?": lambda: _fx_on("BTC/USD", "Mar 4, 2024")[
        "Close"
    ],
    "On which date did BTC/USD have its largest percentage fall?": lambda: (
        _fx_pair("BTC/USD").sort_values("chg").iloc[0]["Date"]
    ),
    "how many quotes show a negative change": lambda: int((fx()["chg"] < 0).sum()),
    "How many quotes had a volume of more than 30bn?": lambda: int((fx()["vol"] > 30e9).sum()),
    "average daily change for ETH/USD in percent": lambda: round(_fx_pair("ETH/USD")["chg"].mean(), 2),
    "Which traded more volume on Mar 1, 2024, EUR/USD or GBP/USD?": lambda: _more_volume(
        "Mar 1, 2024", "EUR/USD", "GBP/USD"
    ),
    "On which dates did EUR/USD close above 1.084?": lambda: (
        _fx_pair("EUR/USD").query("close > 1.084")["Date"].tolist()
    ),
    "When did ETH/USD first close above 3,400?": lambda: (
        _fx_pair("ETH/USD").query("close > 3400").iloc[0]["Date"]
    ),
    "How much higher did ETH/USD close on Mar 4, 2024 than on Mar 1, 2024?": lambda: round(
        _fx_on("ETH/USD", "Mar 4, 2024")["close"] - _fx_on("ETH/USD", "Mar 1, 2024")["close"], 2
    ),
    "what was the total BTC/USD volume over the whole period, in billions": lambda: round(
        _fx_pair("BTC/USD")["vol"].sum() / 1e9, 2
    ),
    # donations
    "What campaign was donation D-1008 for?": lambda: donations().set_index("id").loc["D-1008", "campaign"],
    "how many donations were anonymous": lambda: int(donations()["donor"].isna().sum()),
    "How many refunds are in our donations log?": lambda: int((donations()["amt"] < 0).sum()),
    "What is the net total raised by the Spring Fun Run once refunds are taken off?": lambda: round(
        _campaign_net("Spring Fun Run"), 2
    ),
    "What is the average donation from anonymous donors?": lambda: round(
        donations().loc[lambda d: d["donor"].isna(), "amt"].mean(), 2
    ),
    "who gave the single largest donation": lambda: donations().loc[donations()["amt"].idxmax(), "donor"],
    "What was our net total for March 2024, counting refunds as negative?": lambda: round(
        donations().loc[lambda d: d["when"].dt.strftime("%Y-%m") == "2024-03", "amt"].sum(), 2
    ),
    "How many gifts were for 100.00 or more?": lambda: int((donations()["amt"] >= 100).sum()),
    "who made the donation right after D-1013": lambda: _after_id("D-1013"),
    "Which campaign raised more net, Winter Appeal or General?": lambda: _more_net(
        "Winter Appeal", "General"
    ),
}


def _agrees(got: object, gold: str) -> bool:
    if isinstance(got, list):
        return "|".join(str(x) for x in got) == gold
    if isinstance(got, str):
        return got == gold
    text = gold.replace(",", "")
    decimals = len(text.split(".")[1]) if "." in text else 0
    return abs(float(got) - float(text)) <= 0.5 * 10**-decimals + 1e-9


def check() -> int:
    with TSV.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    bad = 0
    for row in rows:
        got = ANSWERS[row["question"]]()
        ok = _agrees(got, row["answer"])
        bad += not ok
        print(
            f"{'OK ' if ok else 'BAD'} [{row['type']}] {row['question']!r}: gold={row['answer']!r} got={got!r}"
        )
    print(f"{len(rows) - bad}/{len(rows)} agree; {len(ANSWERS)} answer functions")
    return 1 if bad or len(rows) != len(ANSWERS) else 0


if __name__ == "__main__":
    sys.exit(check())
