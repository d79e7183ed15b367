"""Round 18 real-world checks: café loyalty ledger, lab freezer log and film festival schedule."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA_DIR = Path(__file__).resolve().parents[2] / "examples" / "real"

CAFE = "r18_cafe_loyalty_ledger.csv"
FREEZER = "r18_freezer_temp_log.tsv"
FESTIVAL = "r18_festival_schedule.xlsx"


def _num(text: object) -> float | None:
    """Parse '1,235', '-50', '£12.50', '94 min' or 'Free' into a number; blank gives None."""
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return None
    s = str(text).strip()
    if not s:
        return None
    if s.lower() == "free":
        return 0.0
    s = re.sub(r"[£$€,]|\s*mins?$", "", s)
    return float(s)


def cafe() -> pd.DataFrame:
    df = pd.read_csv(DATA_DIR / CAFE, dtype=str, keep_default_na=False)
    df["visit_dt"] = pd.to_datetime(df["Visit"].str.replace("T", " "), format="mixed")
    df["earned"] = df["Pts Earned"].map(_num).fillna(0.0)
    df["redeemed"] = df["Pts Redeemed"].map(_num).fillna(0.0)
    df["balance"] = df["Running Bal"].map(_num)
    return df.sort_values("visit_dt", kind="stable").reset_index(drop=True)


def freezer() -> pd.DataFrame:
    df = pd.read_csv(DATA_DIR / FREEZER, sep="\t", dtype=str, keep_default_na=False)
    df["ts"] = pd.to_datetime(df["Timestamp"], format="%Y-%m-%dT%H:%M")
    df["temp"] = df["Temp °C"].map(_num)
    df["setpoint"] = df["Setpoint °C"].map(_num)
    df["alarm"] = df["Alarm"].str.strip().str.upper() == "Y"
    return df


def festival() -> pd.DataFrame:
    df = pd.read_excel(DATA_DIR / FESTIVAL, dtype=str).fillna("")
    df["day"] = pd.to_datetime(df["Date"], format="%a %d %b %Y")
    df["start_dt"] = df["day"] + pd.to_timedelta(df["Start"] + ":00")
    df["runtime"] = df["Runtime (mins)"].map(_num)
    df["price"] = df["Ticket Price"].map(_num)
    return df


def _cafe_after(member: str, day: str) -> str:
    df = cafe()
    idx = df.index[(df["Member"] == member) & (df["visit_dt"].dt.normalize() == pd.Timestamp(day))][0]
    return str(df.loc[idx + 1, "Member"])


def _freezer_before(fid: str, stamp: str) -> str:
    df = freezer()
    sub = df[df["Freezer ID"] == fid].sort_values("ts").reset_index(drop=True)
    pos = sub.index[sub["Timestamp"] == stamp][0]
    return str(sub.loc[pos - 1, "Temp °C"])


def _freezer_alarms(fid: str) -> int:
    df = freezer()
    return int(df.loc[df["Freezer ID"] == fid, "alarm"].sum())


def _film(title: str) -> pd.Series:
    df = festival()
    return df[df["Title"] == title].iloc[0]


ANSWERS: dict[str, Callable[[], object]] = {
    # café loyalty ledger
    "What was Chloe Ng's running balance after transaction T1013?": lambda: str(
        cafe().set_index("Txn ID").loc["T1013", "Running Bal"]
    ),
    "how many visits did Ana Souza make": lambda: int((cafe()["Member"] == "Ana Souza").sum()),
    "What do all the values in the Pts Redeemed column add up to?": lambda: float(cafe()["redeemed"].sum()),
    "Which transaction earned the most points? Just the txn ID please": lambda: str(
        cafe().loc[cafe()["earned"].idxmax(), "Txn ID"]
    ),
    "How many ledger rows have nothing in the Notes field?": lambda: int(
        (cafe()["Notes"].str.strip() == "").sum()
    ),
    "total points earned by chloe ng across all her visits": lambda: float(
        cafe().loc[cafe()["Member"].str.lower() == "chloe ng", "earned"].sum()
    ),
    "What's the average number of points earned per visit at our Riverside store?": lambda: round(
        float(cafe().loc[cafe()["Store"] == "Riverside", "earned"].mean()), 2
    ),
    "Who was the last member to come in during March 2024?": lambda: str(
        cafe()[cafe()["visit_dt"].dt.strftime("%Y-%m") == "2024-03"]
        .sort_values("visit_dt")
        .iloc[-1]["Member"]
    ),
    "which member visited right after Ellie Brooks on 14 March": lambda: _cafe_after(
        "Ellie Brooks", "2024-03-14"
    ),
    "How many transactions did we record in April 2024?": lambda: int(
        (cafe()["visit_dt"].dt.strftime("%Y-%m") == "2024-04").sum()
    ),
    # freezer temperature log
    "What temperature did FZ-20A read at 2024-05-04T16:00?": lambda: str(
        freezer()
        .loc[
            (freezer()["Freezer ID"] == "FZ-20A") & (freezer()["Timestamp"] == "2024-05-04T16:00"), "Temp °C"
        ]
        .iloc[0]
    ),
    "how many log entries are there for ULT-02": lambda: int((freezer()["Freezer ID"] == "ULT-02").sum()),
    "How many entries have a blank temperature reading?": lambda: int(freezer()["temp"].isna().sum()),
    "What was the warmest temperature logged by any freezer?": lambda: float(freezer()["temp"].max()),
    "average temp for FZ-20B, ignoring the blank readings": lambda: round(
        float(freezer().loc[freezer()["Freezer ID"] == "FZ-20B", "temp"].dropna().mean()), 2
    ),
    "Which ULT-01 readings were colder than -80.2? give me the timestamps": lambda: (
        freezer()
        .loc[(freezer()["Freezer ID"] == "ULT-01") & (freezer()["temp"] < -80.2), "Timestamp"]
        .tolist()
    ),
    "Which freezer had more alarms, FZ-20A or FZ-20B?": lambda: max(
        ["FZ-20A", "FZ-20B"], key=_freezer_alarms
    ),
    "For ULT-02, what was the reading immediately before the one taken at 2024-05-04T08:00?": lambda: (
        _freezer_before("ULT-02", "2024-05-04T08:00")
    ),
    "By how many degrees was FZ-20A above its setpoint at 2024-05-04T16:00?": lambda: round(
        float(
            freezer()
            .loc[(freezer()["Freezer ID"] == "FZ-20A") & (freezer()["Timestamp"] == "2024-05-04T16:00")]
            .eval("temp - setpoint")
            .iloc[0]
        ),
        2,
    ),
    "how many alarms did we get between 4 May and 5 May 2024 inclusive": lambda: int(
        freezer()
        .loc[
            freezer()["ts"].dt.normalize().between(pd.Timestamp("2024-05-04"), pd.Timestamp("2024-05-05")),
            "alarm",
        ]
        .sum()
    ),
    # film festival schedule
    "Which venue is showing Moth Season?": lambda: str(_film("Moth Season")["Venue"]),
    "which film has the longest runtime": lambda: str(
        festival().loc[festival()["runtime"].idxmax(), "Title"]
    ),
    "If I bought one ticket to every Documentary screening, how much would that cost me in total?": lambda: (
        float(festival().loc[festival()["Section"] == "Documentary", "price"].sum())
    ),
    "What's the average runtime in minutes of the screenings at the Regal Cinema?": lambda: round(
        float(festival().loc[festival()["Venue"] == "Regal Cinema", "runtime"].mean()), 2
    ),
    "Which screenings start after 20:00? List the titles.": lambda: (
        festival().loc[festival()["start_dt"].dt.strftime("%H:%M") > "20:00", "Title"].tolist()
    ),
    "what's the earliest screening on Sun 15 Sep 2024": lambda: str(
        festival()[festival()["day"] == pd.Timestamp("2024-09-15")].sort_values("start_dt").iloc[0]["Title"]
    ),
    "Which is more expensive to see, Echo Valley or Moth Season?": lambda: max(
        ["Echo Valley", "Moth Season"], key=lambda t: _film(t)["price"]
    ),
    "How many films in our programme run longer than 2 hours?": lambda: int(
        (festival()["runtime"] > 120).sum()
    ),
    "how many screenings are scheduled from Sat 14 Sep to Sun 15 Sep 2024": lambda: int(
        festival()["day"].between(pd.Timestamp("2024-09-14"), pd.Timestamp("2024-09-15")).sum()
    ),
    "How many minutes longer is Glass Harbour than Small Hours?": lambda: float(
        _film("Glass Harbour")["runtime"] - _film("Small Hours")["runtime"]
    ),
}
