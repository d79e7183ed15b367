"""Pandas reference answers for round-17 tables: repair requests (JSON), darts averages (CSV), FX rates (TSV)."""

from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: object) -> float | None:
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return None
    text = str(value).replace("£", "").replace(",", "").strip()
    return float(text) if text else None


def _dash_number(value: object) -> float | None:
    text = str(value).strip().rstrip("%")
    return None if text in {"", "-", "n/a"} else float(text)


def repairs() -> pd.DataFrame:
    df = pd.read_json(REAL / "r17_repair_requests.json", dtype=False)
    df["cost_num"] = df["cost"].map(_money)
    df["opened_dt"] = pd.to_datetime(df["opened"], format="%Y-%m-%d %H:%M")
    df["closed_dt"] = pd.to_datetime(df["closed"], format="%Y-%m-%d %H:%M")
    return df


def darts() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r17_darts_league_averages.csv", dtype=str, keep_default_na=False)
    for col in ["3-Dart Avg", "180s", "Legs Won", "Checkout %"]:
        df[col + " num"] = df[col].map(_dash_number)
    return df


def fx() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r17_fx_rates.tsv", sep="\t", dtype=str, keep_default_na=False)
    df["rate_num"] = df["Rate"].astype(float)
    df["change_num"] = df["Daily Change"].map(_dash_number)
    df["updated_dt"] = pd.to_datetime(df["Updated"], format="%d/%m/%Y %H:%M")
    return df


def _row(df: pd.DataFrame, col: str, value: str) -> pd.Series:
    match = df[df[col] == value]
    assert len(match) == 1, (col, value)
    return match.iloc[0]


def _duration(request_id: str) -> pd.Timedelta:
    row = _row(repairs(), "request_id", request_id)
    return row["closed_dt"] - row["opened_dt"]


ANSWERS: dict[str, Callable[[], object]] = {
    # repair requests
    "When was RR-2409 closed?": lambda: _row(repairs(), "request_id", "RR-2409")["closed"],
    "how many high priority repairs have we had": lambda: int((repairs()["priority"] == "High").sum()),
    "How many of our repair requests are still open, with no closed date yet?": lambda: int(
        repairs()["closed"].isna().sum()
    ),
    "Which repair request was the most expensive?": lambda: repairs().loc[
        repairs()["cost_num"].idxmax(), "request_id"
    ],
    "total cost of plumbing jobs": lambda: float(
        repairs().loc[repairs()["category"] == "Plumbing", "cost_num"].dropna().sum()
    ),
    "Which requests were opened in March 2024?": lambda: (
        repairs()
        .loc[lambda d: (d["opened_dt"].dt.year == 2024) & (d["opened_dt"].dt.month == 3), "request_id"]
        .tolist()
    ),
    "which request was closed most recently": lambda: repairs().loc[
        repairs()["closed_dt"].idxmax(), "request_id"
    ],
    "What's the average cost of the heating repairs?": lambda: float(
        repairs().loc[repairs()["category"] == "Heating", "cost_num"].dropna().mean()
    ),
    "Which took longer to get closed, RR-2403 or RR-2404?": lambda: (
        "RR-2403" if _duration("RR-2403") > _duration("RR-2404") else "RR-2404"
    ),
    "How much more did the damp and mould job at 22 Elm Row cost than the front door lock repair at Flat 1, "
    "Cedar House?": lambda: float(
        _row(repairs()[repairs()["category"] == "Damp & Mould"], "property", "22 Elm Row")["cost_num"]
        - _row(repairs()[repairs()["category"] == "Doors & Windows"], "property", "Flat 1, Cedar House")[
            "cost_num"
        ]
    ),
    # darts league
    "who has the best 3 dart average": lambda: darts().loc[darts()["3-Dart Avg num"].idxmax(), "Player"],
    "What is Tony Walsh's checkout percentage?": lambda: _row(darts(), "Player", "Tony Walsh")["Checkout %"],
    "How many players have thrown 10 or more 180s this season?": lambda: int(
        (darts()["180s num"] >= 10).sum()
    ),
    "how many 180s have The Plough players hit between them": lambda: float(
        darts().loc[darts()["Team"] == "The Plough", "180s num"].sum()
    ),
    "What's the mean 3-dart average of our Red Lion A players?": lambda: float(
        darts().loc[darts()["Team"] == "Red Lion A", "3-Dart Avg num"].dropna().mean()
    ),
    "Which players who played had a 3-dart average under 65?": lambda: (
        darts().loc[darts()["3-Dart Avg num"] < 65, "Player"].tolist()
    ),
    "how many players does Crown & Anchor have in the league table": lambda: int(
        (darts()["Team"] == "Crown & Anchor").sum()
    ),
    "How many more legs did Ryan Pugh win than Tony Walsh?": lambda: float(
        _row(darts(), "Player", "Ryan Pugh")["Legs Won num"]
        - _row(darts(), "Player", "Tony Walsh")["Legs Won num"]
    ),
    "Gary Holt or Mark Ellis - who has hit more 180s?": lambda: (
        darts().set_index("Player").loc[["Gary Holt", "Mark Ellis"], "180s num"].idxmax()
    ),
    "Who is listed just before Jamie Cole?": lambda: darts()["Player"].iloc[
        darts().index[darts()["Player"] == "Jamie Cole"][0] - 1
    ],
    # fx rates
    "GBP/USD rate": lambda: _row(fx(), "Pair", "GBP/USD")["Rate"],
    "How many currency pairs had a negative daily change?": lambda: int((fx()["change_num"] < 0).sum()),
    "which pair dropped the most today": lambda: fx().loc[fx()["change_num"].idxmin(), "Pair"],
    "Which pair had the biggest gain on the day?": lambda: fx().loc[fx()["change_num"].idxmax(), "Pair"],
    "How many of the pairs we track have EUR as the base currency?": lambda: int(
        (fx()["Pair"].str.split("/").str[0] == "EUR").sum()
    ),
    "Which pairs are trading at a rate above 100?": lambda: fx().loc[fx()["rate_num"] > 100, "Pair"].tolist(),
    "How much higher is the EUR/JPY rate than the USD/JPY rate?": lambda: float(
        _row(fx(), "Pair", "EUR/JPY")["rate_num"] - _row(fx(), "Pair", "USD/JPY")["rate_num"]
    ),
    "what's the average rate across the three JPY pairs": lambda: float(
        fx().loc[fx()["Pair"].str.contains("JPY"), "rate_num"].mean()
    ),
    "Which did better today, USD/CHF or EUR/CHF?": lambda: (
        fx().set_index("Pair").loc[["USD/CHF", "EUR/CHF"], "change_num"].idxmax()
    ),
    "Which rates were last updated on 13 June 2024?": lambda: (
        fx().loc[fx()["updated_dt"].dt.normalize() == pd.Timestamp("2024-06-13"), "Pair"].tolist()
    ),
}
