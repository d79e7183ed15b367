"""Round 15 real-world checks: allotment weigh-in, five-a-side league table and blood clinic session log."""

from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"


def _comma_decimal(value: str) -> float:
    return float(str(value).strip().replace(",", "."))


def weighin() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r15_allotment_weighin.csv", sep=";", dtype=str, encoding="utf-8")
    df = df.apply(lambda col: col.str.strip())
    df["kg"] = df["Weight (kg)"].map(_comma_decimal)
    df["date"] = pd.to_datetime(df["Weigh-in Date"], format="%d.%m.%Y")
    return df


def league() -> pd.DataFrame:
    raw = pd.read_excel(DATA / "r15_fives_league.xlsx", header=None, dtype=str)
    header_row = raw.index[raw[0].astype(str).str.strip() == "Pos"][0]
    df = raw.iloc[header_row + 1 :].copy()
    df.columns = [str(c).strip() for c in raw.iloc[header_row]]
    df = df[pd.to_numeric(df["Pos"], errors="coerce").notna()].reset_index(drop=True)
    df["name"] = df["Team"].str.replace("*", "", regex=False).str.strip()
    for col in ["Pos", "P", "W", "D", "L", "GF", "GA", "Pts"]:
        df[col] = df[col].astype(float).astype(int)
    df["gd"] = df["GD"].str.replace("+", "", regex=False).astype(int)
    return df


def clinic() -> pd.DataFrame:
    df = pd.read_csv(
        DATA / "r15_blood_clinic_sessions.csv", encoding="utf-8-sig", dtype=str, keep_default_na=False
    )
    for col in ["Donors Booked", "Donors Attended", "Units Collected", "deferred"]:
        df[col] = df[col].astype(int)
    df["date"] = pd.to_datetime(df["Session Date"], format="%Y-%m-%d")
    return df


def _w_q(member: str, veg: str, date: str | None = None) -> pd.DataFrame:
    df = weighin()
    sel = df[(df["Member"] == member) & (df["Vegetable"] == veg)]
    if date is not None:
        sel = sel[sel["Weigh-in Date"] == date]
    return sel


def _team(name: str) -> pd.Series:
    df = league()
    return df[df["name"] == name].iloc[0]


def _next_team(name: str) -> str:
    df = league().sort_values("Pos").reset_index(drop=True)
    idx = df.index[df["name"] == name][0]
    return df.loc[idx + 1, "name"]


def _next_venue(date: str) -> str:
    df = clinic().sort_values("date").reset_index(drop=True)
    idx = df.index[df["Session Date"] == date][0]
    return df.loc[idx + 1, "Venue"]


ANSWERS: dict[str, Callable[[], object]] = {
    # allotment weigh-in
    "what plot is Priya Nair on": lambda: weighin().query("Member == 'Priya Nair'")["Plot"].unique()[0],
    "How many entries were there in the Marrow class?": lambda: int(
        (weighin()["Vegetable"] == "Marrow").sum()
    ),
    "How many entries weighed under 1 kg?": lambda: int((weighin()["kg"] < 1).sum()),
    "Who entered the lightest onion?": lambda: (
        weighin().query("Vegetable == 'Onion'").sort_values("kg").iloc[0]["Member"]
    ),
    "What's the combined weight of all the pumpkins, in kg?": lambda: round(
        weighin().query("Vegetable == 'Pumpkin'")["kg"].sum(), 2
    ),
    "What was the average marrow weight across our weigh-ins?": lambda: round(
        weighin().query("Vegetable == 'Marrow'")["kg"].mean(), 2
    ),
    "How much heavier was Derek Holloway's marrow than Tom Whitfield's marrow?": lambda: round(
        _w_q("Derek Holloway", "Marrow")["kg"].iloc[0] - _w_q("Tom Whitfield", "Marrow")["kg"].iloc[0], 2
    ),
    "how many entries were weighed in september 2024": lambda: int(
        ((weighin()["date"].dt.year == 2024) & (weighin()["date"].dt.month == 9)).sum()
    ),
    "Who's the last entry on the weigh-in sheet?": lambda: weighin().iloc[-1]["Member"],
    "Who had the heavier onion at the 17.08.2024 weigh-in, Derek Holloway or Siân Parry?": lambda: max(
        ["Derek Holloway", "Siân Parry"], key=lambda m: _w_q(m, "Onion", "17.08.2024")["kg"].iloc[0]
    ),
    # five-a-side league
    "What's Bayern Bru's form?": lambda: _team("Bayern Bru")["Form"],
    "Which team has conceded the fewest goals?": lambda: league().sort_values("GA").iloc[0]["name"],
    "how many teams have a negative goal difference": lambda: int((league()["gd"] < 0).sum()),
    "Which teams are on a goal difference of -10 or worse?": lambda: (
        league().query("gd <= -10")["name"].tolist()
    ),
    "Which teams have more than 15 points?": lambda: league().query("Pts > 15")["name"].tolist(),
    "who is directly below Real Ale Madrid in the table": lambda: _next_team("Real Ale Madrid"),
    "How many teams in our league haven't drawn a single game this season?": lambda: int(
        (league()["D"] == 0).sum()
    ),
    "how many points are Athletico Mince ahead of Borussia Teeth": lambda: int(
        _team("Athletico Mince")["Pts"] - _team("Borussia Teeth")["Pts"]
    ),
    "What's the total number of goals scored across the whole division?": lambda: int(league()["GF"].sum()),
    "Who has conceded more, Hoof Hearted or Dynamo Kyiv-ish?": lambda: max(
        ["Hoof Hearted", "Dynamo Kyiv-ish"], key=lambda t: _team(t)["GA"]
    ),
    # blood donation clinic
    "What was the comment for the 2024-04-19 session?": lambda: (
        clinic().query("`Session Date` == '2024-04-19'")["Comments"].iloc[0]
    ),
    "how many sessions did we run at Riverside Leisure Centre": lambda: int(
        (clinic()["Venue"] == "Riverside Leisure Centre").sum()
    ),
    "How many sessions have no comment recorded?": lambda: int(
        (clinic()["Comments"].str.strip() == "").sum()
    ),
    "On what date did we collect the most units?": lambda: (
        clinic().sort_values("Units Collected", ascending=False).iloc[0]["Session Date"]
    ),
    "What was the average number of donors attending per session?": lambda: round(
        clinic()["Donors Attended"].mean(), 2
    ),
    "Total units collected in May 2024?": lambda: int(
        clinic().loc[clinic()["date"].dt.to_period("M") == pd.Period("2024-05"), "Units Collected"].sum()
    ),
    "list the session dates in april 2024": lambda: (
        clinic().loc[lambda d: d["date"].between("2024-04-01", "2024-04-30"), "Session Date"].tolist()
    ),
    "Which sessions collected fewer than 30 units? Give the dates.": lambda: (
        clinic().query("`Units Collected` < 30")["Session Date"].tolist()
    ),
    "When was our last session at Oakfield Community Centre?": lambda: (
        clinic().query("Venue == 'Oakfield Community Centre'").sort_values("date").iloc[-1]["Session Date"]
    ),
    "Which venue hosted the session right after the Town Hall one on 2024-06-07?": lambda: _next_venue(
        "2024-06-07"
    ),
}
