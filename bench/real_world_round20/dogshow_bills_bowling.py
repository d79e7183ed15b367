"""Round 20 (w94) answers: dog show results, electricity bill history and bowling league scores."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"


def _age_months(text: str) -> int:
    """Parse ages such as '2y 3m', '5y' or '11m' into months."""
    years = re.search(r"(\d+)\s*y", text)
    months = re.search(r"(\d+)\s*m", text)
    return (int(years.group(1)) * 12 if years else 0) + (int(months.group(1)) if months else 0)


def _money(text: str) -> float:
    """Parse '£1,234.50' or '-£49.41' into a float."""
    clean = text.strip()
    sign = -1.0 if clean.startswith("-") else 1.0
    return sign * float(clean.lstrip("-").replace("£", "").replace(",", ""))


@cache
def dogs() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r20_dog_show_results.csv", dtype=str, keep_default_na=False)
    df["pts"] = pd.to_numeric(df["Pts"], errors="coerce")
    df["age_m"] = df["Age"].map(_age_months)
    return df


@cache
def bills() -> pd.DataFrame:
    df = pd.DataFrame(json.loads((DATA / "r20_electricity_bills.json").read_text(encoding="utf-8")))
    df["month"] = pd.to_datetime(df["Billing Month"], format="%b %Y")
    df["kwh"] = df["Usage (kWh)"].str.replace(",", "").astype(int)
    df["cost"] = df["Total Cost"].map(_money)
    df["balance"] = df["Balance"].map(_money)
    return df


@cache
def bowling() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r20_bowling_league.tsv", sep="\t", dtype=str, keep_default_na=False)
    df["date"] = pd.to_datetime(df["Date"], format="%d %b %Y")
    for col in ["Gm 1", "Gm 2", "Gm 3", "Scratch", "Hdcp", "Hdcp Series"]:
        df[col.lower()] = pd.to_numeric(df[col].replace("", None), errors="coerce")
    return df


def _games(df: pd.DataFrame) -> pd.DataFrame:
    """Long format: one row per game actually bowled."""
    long = df.melt(
        id_vars=["Bowler", "Team", "Date", "date"], value_vars=["gm 1", "gm 2", "gm 3"], value_name="pins"
    )
    return long.dropna(subset=["pins"])


def _dog_points(exhibitor: str) -> float:
    return float(dogs().loc[dogs()["Exhibitor"] == exhibitor, "pts"].sum())


def _team_total(team: str, date: str, col: str) -> float:
    b = bowling()
    return float(b.loc[(b["Team"] == team) & (b["Date"] == date), col].sum())


def _next_after(df: pd.DataFrame, col: str, value: str, out: str, step: int) -> str:
    idx = df.index[df[col] == value][0]
    return df.iloc[df.index.get_loc(idx) + step][out]


def _scratch(bowler: str, date: str) -> float:
    b = bowling()
    return float(b.loc[(b["Bowler"] == bowler) & (b["Date"] == date), "scratch"].iloc[0])


ANSWERS: dict[str, Callable[[], object]] = {
    # dog show
    "Who is the exhibitor of Moorend Flint?": lambda: (
        dogs().loc[dogs()["Dog"] == "Moorend Flint", "Exhibitor"].iloc[0]
    ),
    "how many dogs were placed Reserve": lambda: int((dogs()["Placing"] == "Reserve").sum()),
    "How many points did Helen Ng win in total across all her dogs?": lambda: _dog_points("Helen Ng"),
    "Which dog is the oldest in the results?": lambda: dogs().loc[dogs()["age_m"].idxmax(), "Dog"],
    "how many entries are for dogs under a year old": lambda: int((dogs()["age_m"] < 12).sum()),
    "What is the average age, in months, of the dogs entered in the Veteran class?": lambda: round(
        float(dogs().loc[dogs()["Class"] == "Veteran", "age_m"].mean()), 2
    ),
    "Which exhibitor earned more points overall, Ann Whitlow or G. McAllister?": lambda: max(
        ["Ann Whitlow", "G. McAllister"], key=_dog_points
    ),
    "which dog comes straight after Fellside Cap in the catalogue": lambda: _next_after(
        dogs().assign(cat=dogs()["Cat No"].astype(int)).sort_values("cat"), "Dog", "Fellside Cap", "Dog", 1
    ),
    "List the dogs that are older than 8 years.": lambda: dogs().loc[dogs()["age_m"] > 96, "Dog"].tolist(),
    "How many more points did Tom Pryce get than R. Singh?": lambda: (
        _dog_points("Tom Pryce") - _dog_points("R. Singh")
    ),
    # electricity bills
    "What was our total cost for Mar 2024?": lambda: (
        bills().loc[bills()["Billing Month"] == "Mar 2024", "Total Cost"].iloc[0]
    ),
    "which month did we use the most electricity": lambda: bills().loc[
        bills()["kwh"].idxmax(), "Billing Month"
    ],
    "How many kWh did we use in 2023 altogether?": lambda: int(
        bills().loc[bills()["month"].dt.year == 2023, "kwh"].sum()
    ),
    "what was our average monthly bill in 2024": lambda: round(
        float(bills().loc[bills()["month"].dt.year == 2024, "cost"].mean()), 2
    ),
    "How many bills came to more than £300?": lambda: int((bills()["cost"] > 300).sum()),
    "What was the first billing month where our usage dropped below 500 kWh?": lambda: (
        bills().sort_values("month").loc[lambda d: d["kwh"] < 500, "Billing Month"].iloc[0]
    ),
    "in how many billing months was the balance below zero": lambda: int((bills()["balance"] < 0).sum()),
    "How much more was the Jan 2023 bill than the Jan 2024 bill?": lambda: round(
        float(
            bills().loc[bills()["Billing Month"] == "Jan 2023", "cost"].iloc[0]
            - bills().loc[bills()["Billing Month"] == "Jan 2024", "cost"].iloc[0]
        ),
        2,
    ),
    "We want to know what we spent on electricity over the winter - what was the total cost of the bills from "
    "Oct 2023 through Mar 2024 inclusive?": lambda: round(
        float(bills().loc[bills()["month"].between("2023-10-01", "2024-03-01"), "cost"].sum()), 2
    ),
    "usage in the month before the estimated reading?": lambda: _next_after(
        bills().sort_values("month"), "Reading", "Estimated", "Usage (kWh)", -1
    ),
    # bowling league
    "how many games did Sue Ellery bowl under 130": lambda: int(
        (_games(bowling()).query("Bowler == 'Sue Ellery'")["pins"] < 130).sum()
    ),
    "Who rolled the highest single game of the season?": lambda: (
        _games(bowling()).sort_values("pins", ascending=False).iloc[0]["Bowler"]
    ),
    "How many times was a bowler absent?": lambda: int(
        (bowling()["Notes"].str.strip().str.lower() == "absent").sum()
    ),
    "What is Priya Nair's average per game bowled, leaving out the nights she missed?": lambda: round(
        float(_games(bowling()).query("Bowler == 'Priya Nair'")["pins"].mean()), 2
    ),
    "we're Gutter Gang - what was our combined scratch series on 19 Feb 2024": lambda: _team_total(
        "Gutter Gang", "19 Feb 2024", "scratch"
    ),
    "Which team had the bigger total handicap series on 26 Feb 2024, Pin Pals or Gutter Gang?": lambda: max(
        ["Pin Pals", "Gutter Gang"], key=lambda t: _team_total(t, "26 Feb 2024", "hdcp series")
    ),
    "How many games of 200 or more did Marcus Webb bowl in February 2024?": lambda: int(
        _games(bowling())
        .query("Bowler == 'Marcus Webb'")
        .loc[lambda d: (d["date"].dt.year == 2024) & (d["date"].dt.month == 2) & (d["pins"] >= 200)]
        .shape[0]
    ),
    "By how many pins did Ben Okafor's scratch series beat Dave Kowalski's on 5 Feb 2024?": lambda: (
        _scratch("Ben Okafor", "5 Feb 2024") - _scratch("Dave Kowalski", "5 Feb 2024")
    ),
    "On what date did Tony Reyes first bowl a game over 180?": lambda: (
        _games(bowling()).query("Bowler == 'Tony Reyes' and pins > 180").sort_values("date").iloc[0]["Date"]
    ),
    "which bowlers have a handicap below 20": lambda: (
        bowling().loc[bowling()["hdcp"] < 20, "Bowler"].drop_duplicates().tolist()
    ),
}
