"""Reference answers for round 22 (taxi trips, honey harvests, concert listings), computed with pandas."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: object) -> float:
    """Parse '$23.80' / '£28.50' / blank into a float (blank -> NaN)."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return float("nan")
    text = str(value).strip().replace("$", "").replace("£", "").replace(",", "")
    return float(text) if text else float("nan")


def _int(value: object) -> int:
    """Parse '1,245' / '+150' / '-38' into an int."""
    return int(str(value).strip().replace(",", "").replace("+", ""))


def taxi() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r22_taxi_trips.csv", dtype=str, keep_default_na=False)
    df["pickup_dt"] = pd.to_datetime(df["Pickup"], format="%Y-%m-%d %H:%M")
    df["dropoff_dt"] = pd.to_datetime(df["Drop-off"], format="%Y-%m-%d %H:%M")
    df["km"] = df["Distance"].str.replace("km", "", regex=False).str.strip().astype(float)
    df["fare"] = df["Fare"].map(_money)
    df["tip"] = df["Tip"].map(_money)
    return df


def honey() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r22_honey_harvest.xlsx", dtype={"Harvest Date": str, "Moisture": str})
    df["date"] = pd.to_datetime(df["Harvest Date"], format="%d %b %Y")
    df["moisture"] = df["Moisture"].str.rstrip("%").astype(float)
    df["kg"] = df["Honey (kg)"].astype(float)
    return df


def concerts() -> pd.DataFrame:
    df = pd.read_json(REAL / "r22_concerts.json", dtype=False)
    df["day"] = pd.to_datetime(df["date"], format="%A, %d %B %Y")
    df["sold"] = df["tickets_sold"].map(_int)
    df["price_gbp"] = df["price"].map(_money)
    df["forecast_diff"] = df["vs_forecast"].map(_int)
    return df


def _row(df: pd.DataFrame, col: str, value: str) -> pd.Series:
    hits = df[df[col] == value]
    assert len(hits) == 1, (col, value, len(hits))
    return hits.iloc[0]


def _next_after(df: pd.DataFrame, col: str, value: str) -> pd.Series:
    idx = df.index[df[col] == value]
    assert len(idx) == 1
    return df.loc[idx[0] + 1]


def _either(totals: pd.Series, a: str, b: str) -> str:
    assert totals[a] != totals[b]
    return a if totals[a] > totals[b] else b


def _last_dropoff_on_may4() -> str:
    t = taxi()
    sub = t[t["dropoff_dt"].dt.date == pd.Timestamp("2024-05-04").date()]
    return sub.loc[sub["dropoff_dt"].idxmax(), "Trip ID"]


ANSWERS: dict[str, Callable[[], object]] = {
    # --- taxi trips ---
    "What was the fare for trip T-0424?": lambda: _row(taxi(), "Trip ID", "T-0424")["Fare"],
    "how many trips were paid in cash": lambda: int((taxi()["Payment"] == "Cash").sum()),
    "How many trips in the log have no tip recorded?": lambda: int(taxi()["tip"].isna().sum()),
    "which trip covered the longest distance": lambda: taxi().sort_values("km").iloc[-1]["Trip ID"],
    "What's the total in tips Marek Nowak got across all his trips?": lambda: float(
        taxi().query("Driver == 'Marek Nowak'")["tip"].sum()
    ),
    "Average fare for trips paid through the App?": lambda: round(
        float(taxi().query("Payment == 'App'")["fare"].mean()), 2
    ),
    "who drove the trip right after T-0428 in the log": lambda: _next_after(taxi(), "Trip ID", "T-0428")[
        "Driver"
    ],
    "Of the trips dropped off on 4 May 2024, which one was dropped off last?": _last_dropoff_on_may4,
    "Who brought in more in total fares, Luis Ortega or Dana Whitfield?": lambda: _either(
        taxi().groupby("Driver")["fare"].sum(), "Luis Ortega", "Dana Whitfield"
    ),
    "list all trips longer than 18 km": lambda: taxi().query("km > 18")["Trip ID"].tolist(),
    # --- honey harvest ---
    "What moisture reading did hive FB-02 have?": lambda: _row(honey(), "Hive ID", "FB-02")["Moisture"],
    "how many harvests did Greta Holm record": lambda: int((honey()["Beekeeper"] == "Greta Holm").sum()),
    "How many of our harvests came in above 18.5% moisture?": lambda: int((honey()["moisture"] > 18.5).sum()),
    "which hive gave the least honey in a single harvest": lambda: (
        honey().sort_values("kg").iloc[0]["Hive ID"]
    ),
    "Total kg of honey harvested at the Fernbrook apiary?": lambda: round(
        float(honey().query("Apiary == 'Fernbrook'")["kg"].sum()), 2
    ),
    "average frames extracted per harvest at church meadow": lambda: round(
        float(honey().query("Apiary == 'Church Meadow'")["Frames Extracted"].mean()), 2
    ),
    "Which hives were harvested in July 2024?": lambda: (
        honey().loc[lambda d: (d["date"].dt.year == 2024) & (d["date"].dt.month == 7), "Hive ID"].tolist()
    ),
    "When was the most recent harvest in these records?": lambda: (
        honey().sort_values("date").iloc[-1]["Harvest Date"]
    ),
    "How many kg more honey did HL-03 produce than HL-01?": lambda: round(
        float(_row(honey(), "Hive ID", "HL-03")["kg"] - _row(honey(), "Hive ID", "HL-01")["kg"]), 2
    ),
    "which apiary produced more honey overall, Hollow Lane or Church Meadow": lambda: _either(
        honey().groupby("Apiary")["kg"].sum(), "Hollow Lane", "Church Meadow"
    ),
    # --- concerts ---
    "What time do doors open for Ironwood?": lambda: _row(concerts(), "act", "Ironwood")["doors"],
    "how many jazz gigs do we have on the list": lambda: int(
        (concerts()["genre"].str.lower() == "jazz").sum()
    ),
    "How many events sold more than 1,500 tickets?": lambda: int((concerts()["sold"] > 1500).sum()),
    "Which act has the most expensive ticket price?": lambda: (
        concerts().sort_values("price_gbp").iloc[-1]["act"]
    ),
    "what's the total number of tickets we sold for Main Hall shows": lambda: int(
        concerts().query("room == 'Main Hall'")["sold"].sum()
    ),
    "Average ticket price for the electronic shows?": lambda: round(
        float(concerts().query("genre == 'Electronic'")["price_gbp"].mean()), 2
    ),
    "which act plays right after Clara Moreau Trio": lambda: (
        concerts()
        .sort_values("day")
        .reset_index(drop=True)
        .pipe(_next_after, "act", "Clara Moreau Trio")["act"]
    ),
    "Which acts are playing in August 2024?": lambda: (
        concerts().loc[lambda d: (d["day"].dt.year == 2024) & (d["day"].dt.month == 8), "act"].tolist()
    ),
    "Which shows fell short of their ticket forecast by more than 100 tickets?": lambda: (
        concerts().loc[lambda d: d["forecast_diff"] < -100, "act"].tolist()
    ),
    "How many more tickets did Velvet Harbour sell than Paper Satellites?": lambda: int(
        _row(concerts(), "act", "Velvet Harbour")["sold"]
        - _row(concerts(), "act", "Paper Satellites")["sold"]
    ),
}
