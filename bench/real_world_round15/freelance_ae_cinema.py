"""Reference answers for round-15 tables: freelance time log, ED weekly figures, cinema programme."""

import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"


def _minutes(text: object) -> float:
    """Parse durations such as '2h 15m', '45m', '3h', '2h 05m' or '95 min' into minutes."""
    s = str(text).strip().lower()
    hours = re.search(r"(\d+(?:\.\d+)?)\s*h", s)
    mins = re.search(r"(\d+)\s*m", s)
    return (float(hours.group(1)) * 60 if hours else 0.0) + (float(mins.group(1)) if mins else 0.0)


def _number(text: object) -> float:
    """Parse '4,812', '76.4%', '+0.8', '$85/h' into a float; blanks become NaN."""
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return float("nan")
    s = re.sub(r"[,$%+\s]|/h$", "", str(text))
    return float(s) if s else float("nan")


@cache
def time_log() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r15_freelance_time_log.csv", dtype=str, keep_default_na=False)
    df["date"] = pd.to_datetime(df["Date"], format="%d/%m/%Y")
    df["minutes"] = df["Duration"].map(_minutes)
    df["rate"] = df["Rate"].map(_number)
    df["billable"] = df["Billable"].str.strip().str.upper().eq("Y")
    return df


@cache
def ed_weekly() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r15_ed_weekly.tsv", sep="\t", dtype=str, keep_default_na=False)
    df["week"] = pd.to_datetime(df["Week starting"], format="%Y-%m-%d")
    df["attend"] = df["Attendances"].map(_number)
    df["share"] = df["Seen within 4h"].map(_number)
    df["change"] = df["Change vs prev wk (pp)"].map(_number)
    df["handover"] = df["Avg ambulance handover (mins)"].map(_number)
    return df


@cache
def cinema() -> pd.DataFrame:
    with open(DATA / "r15_cinema_programme.jsonl", encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    df = pd.DataFrame(records)
    df["minutes"] = df["runtime"].map(_minutes)
    df["score"] = df["critics_score"].map(_number)
    df["released"] = pd.to_datetime(df["release_date"], format="%Y-%m-%d")
    df["screens_n"] = df["screens"].map(_number)
    return df


def _t1_client(name: str) -> pd.DataFrame:
    df = time_log()
    return df[df["Client"] == name]


def _t1_either_or() -> str:
    df = time_log()
    billable = df[df["billable"]].groupby("Client")["minutes"].sum()
    return (
        "Northwind Studio" if billable["Northwind Studio"] > billable["Hartley & Sons"] else "Hartley & Sons"
    )


def _t1_diff() -> float:
    df = time_log()
    billable = df[df["billable"]].groupby("Client")["minutes"].sum()
    return billable["Greenway Trust"] - billable["Bloom Café"]


def _t2_row(week: str) -> pd.Series:
    df = ed_weekly()
    return df[df["week"] == pd.Timestamp(week)].iloc[0]


def _t2_next_handover(week: str) -> float:
    df = ed_weekly().sort_values("week").reset_index(drop=True)
    idx = df.index[df["week"] == pd.Timestamp(week)][0]
    return df.loc[idx + 1, "handover"]


def _t3_row(title: str) -> pd.Series:
    df = cinema()
    return df[df["title"] == title].iloc[0]


ANSWERS: dict[str, Callable[[], object]] = {
    # r15_freelance_time_log.csv
    "What was the duration of the Infographics task?": lambda: (
        time_log().set_index("Task").loc["Infographics", "Duration"]
    ),
    "how many entries are for Bloom Café": lambda: int((time_log()["Client"] == "Bloom Café").sum()),
    "How many sessions lasted 3 hours or more?": lambda: int((time_log()["minutes"] >= 180).sum()),
    "which task took the longest": lambda: time_log().loc[time_log()["minutes"].idxmax(), "Task"],
    "How many hours did we log for Greenway Trust in total?": lambda: (
        _t1_client("Greenway Trust")["minutes"].sum() / 60
    ),
    "what's the average length of a Hartley & Sons session in minutes": lambda: _t1_client("Hartley & Sons")[
        "minutes"
    ].mean(),
    "Which tasks were logged from 1 April to 8 April 2024 inclusive?": lambda: (
        time_log()
        .loc[time_log()["date"].between(pd.Timestamp("2024-04-01"), pd.Timestamp("2024-04-08")), "Task"]
        .tolist()
    ),
    "What was the most recent task for Hartley & Sons?": lambda: (
        _t1_client("Hartley & Sons").sort_values("date").iloc[-1]["Task"]
    ),
    "Which client did I bill more hours to, Northwind Studio or Hartley & Sons?": _t1_either_or,
    "How many more billable minutes went to Greenway Trust than to Bloom Café?": _t1_diff,
    # r15_ed_weekly.tsv
    "What share of patients were seen within 4 hours in the week starting 2024-02-12?": lambda: _t2_row(
        "2024-02-12"
    )["Seen within 4h"],
    "how many weeks did the 4-hour performance fall compared with the week before": lambda: int(
        (ed_weekly()["change"] < 0).sum()
    ),
    "Which week had the most attendances?": lambda: ed_weekly().loc[
        ed_weekly()["attend"].idxmax(), "Week starting"
    ],
    "How many weeks have no ambulance handover figure?": lambda: int(ed_weekly()["handover"].isna().sum()),
    "What was our average ambulance handover delay, counting only weeks that have a figure?": lambda: (
        ed_weekly()["handover"].mean()
    ),
    "total attendances across the weeks starting in March 2024": lambda: (
        ed_weekly()
        .loc[(ed_weekly()["week"].dt.year == 2024) & (ed_weekly()["week"].dt.month == 3), "attend"]
        .sum()
    ),
    "Which weeks had 77% or more of patients seen within 4 hours?": lambda: (
        ed_weekly().loc[ed_weekly()["share"] >= 77, "Week starting"].tolist()
    ),
    "What was the average ambulance handover time in the week after the one starting 2024-03-18?": lambda: (
        _t2_next_handover("2024-03-18")
    ),
    "How many more attendances did we have in the week of 2024-01-01 than in the week of 2024-04-15?": lambda: (
        _t2_row("2024-01-01")["attend"] - _t2_row("2024-04-15")["attend"]
    ),
    "Which week saw the biggest drop in the 4-hour share compared with the previous week?": lambda: (
        ed_weekly().loc[ed_weekly()["change"].idxmin(), "Week starting"]
    ),
    # r15_cinema_programme.jsonl
    "What certificate is Static Bloom?": lambda: str(_t3_row("Static Bloom")["certificate"]),
    "how many films are rated 12A": lambda: int((cinema()["certificate"] == "12A").sum()),
    "Which film has the highest critics' score?": lambda: cinema().loc[cinema()["score"].idxmax(), "title"],
    "How many films in our programme don't have a critics score yet?": lambda: int(
        cinema()["score"].isna().sum()
    ),
    "average critics score of the PG films": lambda: (
        cinema().loc[cinema()["certificate"] == "PG", "score"].mean()
    ),
    "Which films run longer than two hours?": lambda: (
        cinema().loc[cinema()["minutes"] > 120, "title"].tolist()
    ),
    "Which film in the programme was released first?": lambda: cinema().loc[
        cinema()["released"].idxmin(), "title"
    ],
    "Which is longer, Paper Lanterns or Northern Lights Over Tove?": lambda: (
        "Paper Lanterns"
        if _t3_row("Paper Lanterns")["minutes"] > _t3_row("Northern Lights Over Tove")["minutes"]
        else "Northern Lights Over Tove"
    ),
    "How many screens are we using in total across all the films?": lambda: cinema()["screens_n"].sum(),
    "Which films were released between 2024-03-01 and 2024-03-15 inclusive?": lambda: (
        cinema()
        .loc[cinema()["released"].between(pd.Timestamp("2024-03-01"), pd.Timestamp("2024-03-15")), "title"]
        .tolist()
    ),
}
