"""Gold answers for round-25 real-world tables: orchard harvest, parking meters, app cohorts."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"

ORCHARD = "r25_orchard_harvest.tsv"
PARKING = "r25_parking_meter_revenue.csv"
COHORTS = "r25_app_cohorts.jsonl"


def _plain_number(text: object) -> float:
    """Parse '16.80', '+1.4', '-3.2', '6.5%' (dot decimals); blank -> NaN."""
    s = str(text).strip().replace("%", "").replace("+", "")
    return float(s) if s else float("nan")


def _euro_number(text: object) -> float:
    """Parse European-style numbers such as '12.480,50', '-3.020,00', '3,20'."""
    s = str(text).strip().replace("+", "").replace(".", "").replace(",", ".")
    return float(s) if s else float("nan")


def _money_k(text: object) -> float:
    """Parse '$18.4k' style revenue into dollars."""
    s = str(text).strip().replace("$", "").replace(",", "")
    mult = 1.0
    if s[-1:].lower() == "k":
        mult, s = 1_000.0, s[:-1]
    elif s[-1:].lower() == "m":
        mult, s = 1_000_000.0, s[:-1]
    return float(s) * mult


def _count(text: object) -> int:
    return int(str(text).replace(",", "").strip())


def orchard() -> pd.DataFrame:
    df = pd.read_csv(REAL / ORCHARD, sep="\t", dtype=str, keep_default_na=False)
    df["bins_n"] = df["Bins"].map(_count)
    df["tonnes_n"] = df["Tonnes"].map(_plain_number)
    df["brix_n"] = df["Brix (°Bx)"].map(_plain_number)
    df["gradeout_n"] = df["Grade-out"].map(_plain_number)
    df["change_n"] = df["vs 2023 (t)"].map(_plain_number)
    df["date"] = pd.to_datetime(df["Pick date"], format="%d %b %Y")
    return df


def parking() -> pd.DataFrame:
    df = pd.read_csv(REAL / PARKING, dtype=str, keep_default_na=False)
    for col in df.columns[2:]:
        df[col + " #"] = df[col].map(_euro_number)
    return df


def cohorts() -> pd.DataFrame:
    lines = (REAL / COHORTS).read_text(encoding="utf-8").splitlines()
    df = pd.DataFrame([json.loads(line) for line in lines if line.strip()])
    df["signups_n"] = df["signups"].map(_count)
    df["d7_n"] = df["d7_retention"].map(_plain_number)
    df["d30_n"] = df["d30_retention"].map(lambda v: float("nan") if v is None else _plain_number(v))
    df["revenue_n"] = df["revenue"].map(_money_k)
    df["month"] = pd.to_datetime(df["cohort"], format="%Y-%m")
    return df


def _row(df: pd.DataFrame, **match: str) -> pd.Series:
    mask = pd.Series(True, index=df.index)
    for col, val in match.items():
        mask &= df[col] == val
    hit = df[mask]
    assert len(hit) == 1, match
    return hit.iloc[0]


def _orchard_row(block: str, variety: str) -> pd.Series:
    o = orchard()
    return o[(o["Block"] == block) & (o["Variety"] == variety)].iloc[0]


def _next_after(df: pd.DataFrame, col: str, value: str) -> pd.Series:
    pos = df.index[df[col] == value][0]
    return df.loc[pos + 1]


ANSWERS: dict[str, Callable[[], object]] = {
    # orchard harvest (TSV)
    "What was the Brix reading for Pink Lady in block D2?": lambda: _orchard_row("D2", "Pink Lady")[
        "Brix (°Bx)"
    ],
    "how many honeycrisp picks did we record": lambda: int(
        (orchard()["Variety"].str.lower() == "honeycrisp").sum()
    ),
    "How many picks had a grade-out above 9%?": lambda: int((orchard()["gradeout_n"] > 9).sum()),
    "which block had the single biggest pick by tonnes": lambda: orchard().loc[
        orchard()["tonnes_n"].idxmax(), "Block"
    ],
    "What's the total number of bins we picked across all blocks?": lambda: int(orchard()["bins_n"].sum()),
    "average brix where a reading was taken": lambda: round(float(orchard()["brix_n"].mean()), 2),
    "How many picks were down on last year by more than 2 tonnes?": lambda: int(
        (orchard()["change_n"] < -2).sum()
    ),
    "how many picks happened in September 2024": lambda: int(
        ((orchard()["date"].dt.year == 2024) & (orchard()["date"].dt.month == 9)).sum()
    ),
    "Which block was picked last in the season?": lambda: orchard().loc[orchard()["date"].idxmax(), "Block"],
    "How many more tonnes did the Fuji in B1 bring in than the Fuji in C2?": lambda: round(
        float(_orchard_row("B1", "Fuji")["tonnes_n"] - _orchard_row("C2", "Fuji")["tonnes_n"]), 2
    ),
    # parking meter revenue (CSV, European decimals)
    "What was the Q3 2024 revenue for the Harbour Front zone?": lambda: _row(parking(), Zone="Harbour Front")[
        "Revenue Q3 2024 (€)"
    ],
    "which zones had Q2 occupancy below 40%": lambda: (
        parking().loc[parking()["Occupancy Q2 (%) #"] < 40, "Zone"].tolist()
    ),
    "total Q4 2024 revenue across all zones": lambda: round(
        float(parking()["Revenue Q4 2024 (€) #"].sum()), 2
    ),
    "What's the average Q3 occupancy across the zones in the Centre district, as a percentage?": lambda: (
        round(float(parking().loc[parking()["District"] == "Centre", "Occupancy Q3 (%) #"].mean()), 2)
    ),
    "how much more did Shopping Mile take in Q4 than in Q1": lambda: round(
        float(
            _row(parking(), Zone="Shopping Mile")["Revenue Q4 2024 (€) #"]
            - _row(parking(), Zone="Shopping Mile")["Revenue Q1 2024 (€) #"]
        ),
        2,
    ),
    "Which zone is listed right after Cathedral?": lambda: _next_after(parking(), "Zone", "Cathedral")[
        "Zone"
    ],
    "Which had the higher Q1 occupancy, Riverside or Stadium?": lambda: max(
        ["Riverside", "Stadium"], key=lambda z: _row(parking(), Zone=z)["Occupancy Q1 (%) #"]
    ),
    "which zone has the most meters": lambda: parking().loc[parking()["Meters #"].idxmax(), "Zone"],
    "Which of our zones saw the biggest fall in revenue compared with 2023?": lambda: parking().loc[
        parking()["Change vs 2023 (€) #"].idxmin(), "Zone"
    ],
    "In how many zones is the hourly tariff 2.50 euros or more?": lambda: int(
        (parking()["Tariff per hour (€) #"] >= 2.5).sum()
    ),
    # app cohorts (JSONL)
    "What was the day-30 retention for the 2024-03 cohort?": lambda: _row(cohorts(), cohort="2024-03")[
        "d30_retention"
    ],
    "how many cohorts had Spanish as the top language": lambda: int(
        (cohorts()["top_language"] == "Spanish").sum()
    ),
    "Which cohorts had a day-7 retention above 42%?": lambda: (
        cohorts().loc[cohorts()["d7_n"] > 42, "cohort"].tolist()
    ),
    "How many paid conversions did the cohort just after 2024-08 have?": lambda: int(
        _next_after(cohorts().sort_values("month").reset_index(drop=True), "cohort", "2024-08")[
            "paid_conversions"
        ]
    ),
    "Which brought in more revenue, the 2023-09 cohort or the 2024-09 cohort?": lambda: max(
        ["2023-09", "2024-09"], key=lambda c: _row(cohorts(), cohort=c)["revenue_n"]
    ),
    "latest cohort that has a day-30 retention figure": lambda: (
        cohorts().dropna(subset=["d30_n"]).sort_values("month").iloc[-1]["cohort"]
    ),
    "What were our total sign-ups for the cohorts that started in 2023?": lambda: int(
        cohorts().loc[cohorts()["month"].dt.year == 2023, "signups_n"].sum()
    ),
    "how many cohorts ended up with negative net users": lambda: int((cohorts()["net_users"] < 0).sum()),
    "What's the average day-7 retention across all cohorts, in percent?": lambda: round(
        float(cohorts()["d7_n"].mean()), 2
    ),
    "Which cohort had the fewest paid conversions?": lambda: cohorts().loc[
        cohorts()["paid_conversions"].idxmin(), "cohort"
    ],
}
