"""Round 19 real-world checks: medal table by Games, designer invoices, artist streaming stats."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"

MEDALS = "r19_medal_table_by_games.csv"
INVOICES = "r19_designer_invoices.csv"
STREAMS = "r19_artist_streaming_stats.xlsx"


def _money(text: str) -> float:
    """Parse 'USD 1,200.00' or 'EUR (150.00)' into a signed float."""
    body = re.sub(r"^[A-Z]{3}\s*", "", str(text).strip())
    negative = body.startswith("(") and body.endswith(")")
    value = float(body.strip("()").replace(",", ""))
    return -value if negative else value


def _count_text(text: object) -> float:
    """Parse '2.3M', '845k', '958K' into a number."""
    raw = str(text).strip().lower()
    scale = {"k": 1_000, "m": 1_000_000}.get(raw[-1:], 1)
    digits = raw[:-1] if scale != 1 else raw
    return round(float(digits.replace(",", "")) * scale)


def _seconds(text: str) -> int:
    minutes, seconds = str(text).strip().split(":")
    return int(minutes) * 60 + int(seconds)


@cache
def medals() -> pd.DataFrame:
    df = pd.read_csv(REAL / MEDALS, dtype={"Country": str, "Notes": str})
    df["Country"] = df["Country"].str.strip()
    return df


@cache
def invoices() -> pd.DataFrame:
    df = pd.read_csv(REAL / INVOICES, dtype=str, keep_default_na=False)
    df["amount_value"] = df["Amount"].map(_money)
    df["currency"] = df["Amount"].str.extract(r"^([A-Z]{3})", expand=False)
    for col in ("Issue Date", "Due Date", "Paid Date"):
        df[col + " dt"] = pd.to_datetime(df[col].replace("", None), format="%Y-%m-%d")
    df["is_credit"] = df["amount_value"] < 0
    return df


@cache
def streams() -> pd.DataFrame:
    df = pd.read_excel(REAL / STREAMS, header=1, dtype={"Duration": str, "Streams": str})
    df["streams_value"] = df["Streams"].map(_count_text)
    df["seconds"] = df["Duration"].map(_seconds)
    df["released"] = pd.to_datetime(df["Release Date"], format="%b %d, %Y")
    return df


def _medal(country: str, col: str) -> float:
    return medals().loc[medals()["Country"] == country, col].iloc[0]


def _countries_after(country: str) -> str:
    names = medals()["Country"].tolist()
    return names[names.index(country) + 1]


def _either(df: pd.DataFrame, key: str, a: str, b: str, col: str) -> str:
    va = df.loc[df[key] == a, col].iloc[0]
    vb = df.loc[df[key] == b, col].iloc[0]
    return a if va > vb else b


def _stream(track: str, col: str) -> object:
    return streams().loc[streams()["Track"] == track, col].iloc[0]


ANSWERS: dict[str, Callable[[], object]] = {
    # medal table
    "How many silver medals did Croatia win in 2016?": lambda: int(_medal("Croatia", "Silver 2016")),
    "which country won the most golds in 2020": lambda: medals().loc[
        medals()["Gold 2020"].idxmax(), "Country"
    ],
    "How many countries have no 2012 results at all (blank cells because they didn't compete)?": lambda: int(
        medals()[["Gold 2012", "Silver 2012", "Bronze 2012"]].isna().all(axis=1).sum()
    ),
    "total gold medals handed out across all countries listed for 2016": lambda: int(
        medals()["Gold 2016"].sum()
    ),
    "What is the average Total medal count per country?": lambda: round(float(medals()["Total"].mean()), 2),
    "Which won more bronze medals in 2020, Ireland or Morocco?": lambda: _either(
        medals(), "Country", "Ireland", "Morocco", "Bronze 2020"
    ),
    "how many more medals overall does Jamaica have than Kenya": lambda: int(
        _medal("Jamaica", "Total") - _medal("Kenya", "Total")
    ),
    "Which countries have a Total above 30?": lambda: (
        medals().loc[medals()["Total"] > 30, "Country"].tolist()
    ),
    "In the medal table, which country is listed directly after Vietnam?": lambda: _countries_after(
        "Vietnam"
    ),
    "How many countries won exactly one gold medal in 2016?": lambda: int((medals()["Gold 2016"] == 1).sum()),
    # invoices
    "what was the due date on INV-0107": lambda: (
        invoices().set_index("Invoice #").loc["INV-0107", "Due Date"]
    ),
    "How many invoices did we send to Qiro Labs?": lambda: int(
        ((invoices()["Client"] == "Qiro Labs") & ~invoices()["is_credit"]).sum()
    ),
    "How many invoices are still unpaid (no paid date yet)?": lambda: int(
        invoices()["Paid Date dt"].isna().sum()
    ),
    "Which document number has the most negative amount in the tracker?": lambda: invoices().loc[
        invoices()["amount_value"].idxmin(), "Invoice #"
    ],
    "What's our net total billed in USD, with the credit notes taken off?": lambda: round(
        float(invoices().loc[invoices()["currency"] == "USD", "amount_value"].sum()), 2
    ),
    "average amount of the EUR invoices, not counting credit notes": lambda: round(
        float(
            invoices()
            .loc[(invoices()["currency"] == "EUR") & ~invoices()["is_credit"], "amount_value"]
            .mean()
        ),
        2,
    ),
    "Which invoice number was the biggest one we billed in USD?": lambda: invoices().loc[
        invoices().loc[invoices()["currency"] == "USD", "amount_value"].idxmax(), "Invoice #"
    ],
    "Which invoices were paid after their due date?": lambda: (
        invoices().loc[invoices()["Paid Date dt"] > invoices()["Due Date dt"], "Invoice #"].tolist()
    ),
    "list the invoice numbers issued in June 2023": lambda: (
        invoices()
        .loc[invoices()["Issue Date dt"].dt.to_period("M") == pd.Period("2023-06", "M"), "Invoice #"]
        .tolist()
    ),
    "What is the invoice number of the most recently issued invoice?": lambda: invoices().loc[
        invoices()["Issue Date dt"].idxmax(), "Invoice #"
    ],
    # streaming stats
    "What's the duration of Pinewire?": lambda: str(_stream("Pinewire", "Duration")),
    "what is our longest track": lambda: streams().loc[streams()["seconds"].idxmax(), "Track"],
    "How many streams do the Low Tide album tracks have in total?": lambda: int(
        streams().loc[streams()["Album"] == "Low Tide", "streams_value"].sum()
    ),
    "how many tracks are missing a playlist adds number": lambda: int(
        streams()["Playlist Adds"].isna().sum()
    ),
    "What is the average number of saves per track on the Northbound album?": lambda: round(
        float(streams().loc[streams()["Album"] == "Northbound", "Saves"].mean()), 2
    ),
    "Which has more streams, Kites or Afterglow?": lambda: _either(
        streams(), "Track", "Kites", "Afterglow", "streams_value"
    ),
    "How many more streams does Salt Glass have than Harbour Lights?": lambda: int(
        _stream("Salt Glass", "streams_value") - _stream("Harbour Lights", "streams_value")
    ),
    "Which tracks run longer than 4:30?": lambda: (
        streams().loc[streams()["seconds"] > _seconds("4:30"), "Track"].tolist()
    ),
    "which tracks were released in 2023": lambda: (
        streams().loc[streams()["released"].dt.year == 2023, "Track"].tolist()
    ),
    "How many tracks are on the Paper Lanterns album?": lambda: int(
        (streams()["Album"] == "Paper Lanterns").sum()
    ),
}


def _agrees(computed: object, gold: str) -> bool:
    if isinstance(computed, list):
        return "|".join(str(x) for x in computed) == gold
    if isinstance(computed, str):
        return computed == gold
    decimals = len(gold.split(".")[1]) if "." in gold else 0
    return abs(float(computed) - float(gold)) <= 0.5 * 10**-decimals


if __name__ == "__main__":
    tsv = pd.read_csv(REAL / "questions-round19-w92.tsv", sep="\t", dtype=str, keep_default_na=False)
    ok = 0
    for row in tsv.itertuples(index=False):
        value = ANSWERS[row.question]()
        good = _agrees(value, row.answer)
        ok += good
        print(f"{'OK ' if good else 'BAD'} [{row.type}] {row.table}: {value!r} vs {row.answer!r}")
    print(
        f"{ok}/{len(tsv)} agree; {len(ANSWERS)} answers defined; types: {tsv['type'].value_counts().to_dict()}"
    )
