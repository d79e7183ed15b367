"""Round 16 real-world checks: library loans (CSV), restaurant covers (XLSX) and hiking walks (JSON)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: object) -> float:
    """Parse '£1,234.50', '+£310.40' or '-£157.50' into a float."""
    text = str(value).strip().replace("£", "").replace(",", "")
    return float(text)


def _minutes(value: str) -> int:
    """Parse a duration like '4h30' into minutes."""
    hours, _, mins = value.partition("h")
    return int(hours) * 60 + (int(mins) if mins else 0)


@cache
def library() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r16_library_loans.csv", dtype=str, keep_default_na=False)
    df["fine_gbp"] = df["Fine"].map(_money)
    df["due_dt"] = pd.to_datetime(df["Due Date"], format="%Y-%m-%d")
    df["returned_dt"] = pd.to_datetime(df["Returned"].replace("", None), format="%Y-%m-%d")
    return df


@cache
def restaurant() -> pd.DataFrame:
    df = pd.read_excel(DATA / "r16_restaurant_covers.xlsx", header=1, dtype=object)
    df["Date"] = df["Date"].astype(str)
    df["day"] = pd.to_datetime(df["Date"], format="%a %d/%m/%y")
    df["closed"] = df["Takings"].astype(str).str.upper().eq("CLOSED")
    open_mask = ~df["closed"]
    df["takings_gbp"] = (
        df["Takings"].where(open_mask).map(lambda v: _money(v) if isinstance(v, str) else None)
    )
    df["vs_gbp"] = df["vs Target"].where(open_mask).map(lambda v: _money(v) if isinstance(v, str) else None)
    for col in ["Lunch Covers", "Dinner Covers", "Total Covers"]:
        df[col + " n"] = pd.to_numeric(df[col], errors="coerce")
    return df


@cache
def hiking() -> pd.DataFrame:
    df = pd.read_json(DATA / "r16_hiking_walks.json", dtype={"date": str})
    df["miles"] = df["distance"].str.replace("mi", "", regex=False).str.strip().astype(float)
    df["ascent_m"] = df["ascent"].str.replace("m", "", regex=False).str.strip().astype(int)
    df["mins"] = df["duration"].map(_minutes)
    df["when"] = pd.to_datetime(df["date"], format="%Y-%m-%d")
    return df


def _lib_row(title: str) -> pd.Series:
    df = library()
    return df[df["Title"] == title].iloc[0]


def _lib_next_title(title: str) -> str:
    df = library().reset_index(drop=True)
    idx = df.index[df["Title"] == title][0]
    return df.loc[idx + 1, "Title"]


def _lib_fines_more(a: str, b: str) -> str:
    totals = library().groupby("Borrower ID")["fine_gbp"].sum()
    return a if totals[a] > totals[b] else b


def _rest_row(date: str) -> pd.Series:
    df = restaurant()
    return df[df["Date"] == date].iloc[0]


def _rest_next_open(date: str) -> str:
    df = restaurant().reset_index(drop=True)
    idx = df.index[df["Date"] == date][0]
    after = df.loc[idx + 1 :]
    return after[~after["closed"]].iloc[0]["Takings"]


def _walk(name: str) -> pd.Series:
    df = hiking()
    return df[df["walk"] == name].iloc[0]


def _longer(a: str, b: str) -> str:
    return a if _walk(a)["mins"] > _walk(b)["mins"] else b


def _sunday_lunch() -> float:
    df = restaurant()
    sundays = df[(df["day"].dt.dayofweek == 6) & ~df["closed"]]
    return round(float(sundays["Lunch Covers n"].mean()), 2)


ANSWERS: dict[str, Callable[[], object]] = {
    # library loans
    "What is the due date for Hamnet?": lambda: _lib_row("Hamnet")["Due Date"],
    "how many loans came from the Riverside branch": lambda: int((library()["Branch"] == "Riverside").sum()),
    "How many books are still out, i.e. have no Returned date?": lambda: int(
        library()["returned_dt"].isna().sum()
    ),
    "What's the total of all the fines in this export?": lambda: round(float(library()["fine_gbp"].sum()), 2),
    "average fine on loans issued at the Central branch": lambda: round(
        float(library().loc[library()["Branch"] == "Central", "fine_gbp"].mean()), 2
    ),
    "Which borrower ID has the most loans?": lambda: library()["Borrower ID"].value_counts().idxmax(),
    "Which titles were due back in March 2024?": lambda: (
        library()
        .loc[(library()["due_dt"].dt.year == 2024) & (library()["due_dt"].dt.month == 3), "Title"]
        .tolist()
    ),
    "which title is listed immediately after Normal People": lambda: _lib_next_title("Normal People"),
    "Between borrowers B-0042 and B-0008, which one has racked up more in fines overall?": lambda: (
        _lib_fines_more("B-0042", "B-0008")
    ),
    "List the loan IDs of books returned after 2024-02-20": lambda: (
        library().loc[library()["returned_dt"] > pd.Timestamp("2024-02-20"), "Loan ID"].tolist()
    ),
    # restaurant covers
    "What were the takings on Thu 29/02/24?": lambda: _rest_row("Thu 29/02/24")["Takings"],
    "how many days were we closed": lambda: int(restaurant()["closed"].sum()),
    "On how many days did we do more than 50 dinner covers?": lambda: int(
        (restaurant()["Dinner Covers n"] > 50).sum()
    ),
    "Which date had our highest takings?": lambda: restaurant().loc[
        restaurant()["takings_gbp"].idxmax(), "Date"
    ],
    "how many open days did we come in under target": lambda: int((restaurant()["vs_gbp"] < 0).sum()),
    "Which day fell furthest short of the target?": lambda: restaurant().loc[
        restaurant()["vs_gbp"].idxmin(), "Date"
    ],
    "What did we take in total in February?": lambda: round(
        float(restaurant().loc[restaurant()["day"].dt.month == 2, "takings_gbp"].sum()), 2
    ),
    "average lunch covers on a Sunday": _sunday_lunch,
    "How many more total covers did we do on Sat 09/03/24 than on Sat 02/03/24?": lambda: int(
        _rest_row("Sat 09/03/24")["Total Covers n"] - _rest_row("Sat 02/03/24")["Total Covers n"]
    ),
    "After being closed on Tue 05/03/24, what were the takings on the next day we opened?": lambda: (
        _rest_next_open("Tue 05/03/24")
    ),
    # hiking walks
    "What was the ascent on the Bleaklow Plateau walk?": lambda: _walk("Bleaklow Plateau")["ascent"],
    "how many hard walks have we done": lambda: int((hiking()["grade"] == "hard").sum()),
    "Which walk had the biggest ascent?": lambda: hiking().loc[hiking()["ascent_m"].idxmax(), "walk"],
    "total distance in miles across all our walks": lambda: round(float(hiking()["miles"].sum()), 1),
    "What's the average number of walkers on the easy-grade walks?": lambda: round(
        float(hiking().loc[hiking()["grade"] == "easy", "walkers"].mean()), 2
    ),
    "what was the most recent walk Helen Marsh led": lambda: (
        hiking().loc[hiking()["leader"] == "Helen Marsh"].sort_values("when").iloc[-1]["walk"]
    ),
    "Which took longer, the Kinder Scout Circuit or Kinder Downfall via Hayfield?": lambda: _longer(
        "Kinder Scout Circuit", "Kinder Downfall via Hayfield"
    ),
    "Which walks happened in May 2024?": lambda: (
        hiking().loc[(hiking()["when"].dt.year == 2024) & (hiking()["when"].dt.month == 5), "walk"].tolist()
    ),
    "Which walks took more than 6 hours?": lambda: hiking().loc[hiking()["mins"] > 360, "walk"].tolist(),
    "How many minutes longer did Bleaklow Plateau take than the Monsal Trail Ramble?": lambda: int(
        _walk("Bleaklow Plateau")["mins"] - _walk("Monsal Trail Ramble")["mins"]
    ),
}
