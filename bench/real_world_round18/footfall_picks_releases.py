"""Round 18 real-world checks: store footfall (CSV), warehouse picks (JSONL), app releases (XLSX)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"


def _num(text: object) -> float:
    """Parse '12,480', '+2.1%', '£23.40', 7.5 or '8.0' into a float; blanks become NaN."""
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return float("nan")
    s = str(text).strip().replace(",", "").replace("£", "").replace("%", "").replace("+", "")
    return float(s) if s else float("nan")


def _suffixed(text: object) -> float:
    """Parse download counts written as '1.2k', '3.4M' or '640'."""
    s = str(text).strip()
    mult = {"k": 1_000, "K": 1_000, "M": 1_000_000}
    if s[-1] in mult:
        return float(s[:-1]) * mult[s[-1]]
    return float(s.replace(",", ""))


def footfall() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r18_store_footfall.csv", dtype=str, keep_default_na=False)
    df["week"] = pd.to_datetime(df["Week Commencing"], format="%d %b %Y")
    df["visitors"] = df["Visitors"].map(_num)
    df["wow"] = df["WoW Change"].map(_num)
    df["conv"] = df["Conversion Rate"].map(_num)
    return df


def picks() -> pd.DataFrame:
    with open(DATA / "r18_warehouse_picks.jsonl", encoding="utf-8") as fh:
        recs = [json.loads(line) for line in fh if line.strip()]
    df = pd.DataFrame(recs)
    df["date"] = pd.to_datetime(df["Shift Date"], format="%d/%m/%Y")
    df["lines"] = df["Lines Picked"].map(_num)
    df["hours"] = df["Hours Worked"].map(_num)
    df["errors"] = df["Errors"].map(_num)
    df["error_blank"] = df["Errors"].map(lambda v: v is None or str(v).strip() == "")
    return df


def releases() -> pd.DataFrame:
    df = pd.read_excel(DATA / "r18_app_releases.xlsx", dtype={"Version": str})
    df["date"] = pd.to_datetime(df["Release Date"])
    df["downloads"] = df["Downloads (30d)"].map(_suffixed)
    df["crash"] = df["Crash Rate"].map(_num)
    df["rating"] = df["Rating (/5)"].astype(float)
    return df


def _ff(store: str, week: str) -> pd.Series:
    df = footfall()
    return df[(df["Store"] == store) & (df["Week Commencing"] == week)].iloc[0]


def _rel(version: str, platform: str) -> pd.Series:
    df = releases()
    return df[(df["Version"] == version) & (df["Platform"] == platform)].iloc[0]


def _either_conv() -> str:
    a, b = _ff("York Coney Street", "10 Jun 2024"), _ff("Harrogate", "10 Jun 2024")
    return a["Store"] if a["conv"] > b["conv"] else b["Store"]


def _either_picks() -> str:
    tot = picks().groupby("Picker")["lines"].sum()
    return "Tom Reilly" if tot["Tom Reilly"] > tot["Marek Nowak"] else "Marek Nowak"


def _next_after_priya() -> str:
    df = picks().reset_index(drop=True)
    i = df.index[
        (df["Picker"] == "Priya Shah") & (df["Shift"] == "Late") & (df["Shift Date"] == "29/08/2024")
    ][0]
    return df.loc[i + 1, "Picker"]


def _ios_before_221() -> str:
    ios = releases().query("Platform == 'iOS'").sort_values("date")
    ref = ios.loc[ios["Version"] == "2.2.1", "date"].iloc[0]
    return ios[ios["date"] < ref].iloc[-1]["Version"]


ANSWERS: dict[str, Callable[[], object]] = {
    # r18_store_footfall.csv
    "What was the conversion rate at Harrogate in the week commencing 24 Jun 2024?": lambda: _ff(
        "Harrogate", "24 Jun 2024"
    )["Conversion Rate"],
    "which store had the highest footfall in any single week": lambda: footfall().loc[
        footfall()["visitors"].idxmax(), "Store"
    ],
    "What were our total visitors across all four stores for the week commencing 17 Jun 2024?": lambda: int(
        footfall().query("`Week Commencing` == '17 Jun 2024'")["visitors"].sum()
    ),
    "average weekly visitors at york coney street": lambda: round(
        footfall().query("Store == 'York Coney Street'")["visitors"].mean(), 2
    ),
    "In how many weeks did Meadowhall's footfall fall compared with the week before?": lambda: int(
        (footfall().query("Store == 'Meadowhall'")["wow"] < 0).sum()
    ),
    "Which store had the biggest week-on-week drop in footfall?": lambda: footfall().loc[
        footfall()["wow"].idxmin(), "Store"
    ],
    "how many more visitors did Leeds Briggate get than Harrogate in the week of 1 Jul 2024": lambda: int(
        _ff("Leeds Briggate", "1 Jul 2024")["visitors"] - _ff("Harrogate", "1 Jul 2024")["visitors"]
    ),
    "Which converted better in the week commencing 10 Jun 2024, York Coney Street or Harrogate?": _either_conv,
    "List the weeks when Leeds Briggate had more than 14,500 visitors.": lambda: (
        footfall()
        .query("Store == 'Leeds Briggate' and visitors > 14500")
        .sort_values("week")["Week Commencing"]
        .tolist()
    ),
    "how many store-weeks had a conversion rate under 15%": lambda: int((footfall()["conv"] < 15).sum()),
    # r18_warehouse_picks.jsonl
    "How many hours did Lucy Evans work on the Early shift on 30/08/2024?": lambda: float(
        picks()
        .query("Picker == 'Lucy Evans' and Shift == 'Early' and `Shift Date` == '30/08/2024'")["hours"]
        .iloc[0]
    ),
    "total lines picked on night shifts": lambda: int(picks().query("Shift == 'Night'")["lines"].sum()),
    "How many shift records have the errors field left blank?": lambda: int(picks()["error_blank"].sum()),
    "What's Dan Cooper's average number of lines picked per shift?": lambda: round(
        picks().query("Picker == 'Dan Cooper'")["lines"].mean(), 2
    ),
    "Which picker achieved the highest pick rate (lines picked per hour worked) on a single shift?": lambda: (
        picks().assign(rate=lambda d: d["lines"] / d["hours"]).sort_values("rate").iloc[-1]["Picker"]
    ),
    "how many shifts did Aisha Khan work": lambda: int((picks()["Picker"] == "Aisha Khan").sum()),
    "How many lines did we pick in total in September 2024?": lambda: int(
        picks().loc[lambda d: (d["date"].dt.year == 2024) & (d["date"].dt.month == 9), "lines"].sum()
    ),
    "Who is the picker on the record that comes straight after Priya Shah's Late shift on 29/08/2024?": (
        _next_after_priya
    ),
    "number of shifts with more than 3 errors": lambda: int((picks()["errors"] > 3).sum()),
    "Who picked more lines in total across the report, Tom Reilly or Marek Nowak?": _either_picks,
    # r18_app_releases.xlsx
    "What was the crash rate for version 2.2.0 on Android?": lambda: _rel("2.2.0", "Android")["Crash Rate"],
    "which version had the worst crash rate": lambda: releases().loc[releases()["crash"].idxmax(), "Version"],
    "How many downloads did version 2.0.0 get across both platforms combined?": lambda: round(
        releases().query("Version == '2.0.0'")["downloads"].sum()
    ),
    "average rating of our iOS releases": lambda: round(
        releases().query("Platform == 'iOS'")["rating"].mean(), 2
    ),
    "Which version was released most recently?": lambda: releases().sort_values("date").iloc[-1]["Version"],
    "Which Android releases had a crash rate above 1%?": lambda: (
        releases().query("Platform == 'Android' and crash > 1").sort_values("date")["Version"].tolist()
    ),
    "how many releases did we ship in Q2 2024 (April to June)": lambda: int(
        releases()["date"].between(pd.Timestamp("2024-04-01"), pd.Timestamp("2024-06-30")).sum()
    ),
    "How many more downloads did 2.3.0 get on iOS than on Android?": lambda: round(
        _rel("2.3.0", "iOS")["downloads"] - _rel("2.3.0", "Android")["downloads"]
    ),
    "On iOS, which version was released just before 2.2.1?": _ios_before_221,
    "How many releases passed 1 million downloads?": lambda: int((releases()["downloads"] > 1_000_000).sum()),
}
