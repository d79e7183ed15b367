"""Round 23 real-world checks: cottage bookings (xlsx), reading scheme progress (tsv), office air quality (csv)."""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
QUESTIONS = REAL / "questions-round23-w108.tsv"


def _money(value: object) -> float | None:
    """Parse '£1,015.00' style text into a float; blanks become None."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return None
    text = str(value).strip().replace("£", "").replace(",", "")
    return float(text) if text else None


def _reading_age_months(value: object) -> int | None:
    """Parse '8y 4m' into total months; blanks become None."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return None
    match = re.fullmatch(r"\s*(\d+)y\s*(\d+)m\s*", str(value))
    if not match:
        return None
    return int(match.group(1)) * 12 + int(match.group(2))


def _pm25(value: str) -> float | None:
    """PM2.5 as a number; '<1' (below detection) kept as 0.5 for ordering only."""
    text = str(value).strip()
    if not text:
        return None
    if text.startswith("<"):
        return 0.5
    return float(text)


@cache
def cottage() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r23_cottage_bookings.xlsx", dtype=str)
    df["arrival_dt"] = pd.to_datetime(df["Arrival"], format="%Y-%m-%d")
    df["departure_dt"] = pd.to_datetime(df["Departure"], format="%Y-%m-%d")
    df["nights_n"] = df["Nights"].astype(int)
    df["guests_n"] = df["Guests"].astype(int)
    df["total_gbp"] = df["Total Price"].map(_money)
    df["deposit_gbp"] = df["Deposit Paid"].map(_money)
    return df


@cache
def reading() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r23_reading_scheme_progress.tsv", sep="\t", dtype=str, keep_default_na=False)
    df["books"] = df["Books Read (Autumn)"].astype(int)
    df["age_months"] = df["Reading Age"].map(_reading_age_months)
    df["assessed_dt"] = pd.to_datetime(df["Last Assessed"].replace("", None), format="%d %b %Y")
    return df


@cache
def air() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r23_office_air_quality.csv", dtype=str, keep_default_na=False)
    df["ts"] = pd.to_datetime(df["timestamp"], utc=True)
    df["co2"] = df["co2_ppm"].astype(int)
    df["temp"] = df["temp_f"].astype(float)
    df["humidity"] = pd.to_numeric(df["humidity_pct"].replace("", None))
    df["pm"] = df["pm2_5"].map(_pm25)
    df["occ"] = df["occupancy"].astype(int)
    df["delta"] = df["temp_vs_setpoint_f"].astype(float)
    return df


def _cottage_source_totals() -> str:
    totals = cottage().groupby("Source")["total_gbp"].sum()
    return "Direct" if totals["Direct"] > totals["Booking.com"] else "Booking.com"


def _cottage_after(guest: str) -> str:
    df = cottage().sort_values("arrival_dt").reset_index(drop=True)
    idx = df.index[df["Guest Name"] == guest][0]
    return df.loc[idx + 1, "Guest Name"]


def _reading_band_count(band: str) -> int:
    return int((reading()["Book Band"].str.strip().str.lower() == band.lower()).sum())


def _air_at(room: str, stamp: str) -> pd.Series:
    df = air()
    return df[(df["room"] == room) & (df["ts"] == pd.Timestamp(stamp))].iloc[0]


def _air_next(room: str, stamp: str) -> str:
    df = air()
    sub = df[df["room"] == room].sort_values("ts")
    later = sub[sub["ts"] > pd.Timestamp(stamp)]
    return later.iloc[0]["co2_ppm"]


def _air_warmer(a: str, b: str) -> str:
    means = air().groupby("room")["temp"].mean()
    return a if means[a] > means[b] else b


ANSWERS: dict[str, Callable[[], object]] = {
    # cottage bookings
    "What is the departure date for booking HC-2409?": lambda: (
        cottage().loc[cottage()["Booking Ref"] == "HC-2409", "Departure"].iloc[0]
    ),
    "how many bookings came through airbnb": lambda: int((cottage()["Source"].str.lower() == "airbnb").sum()),
    "How many of our bookings still have no deposit paid?": lambda: int(
        cottage()["deposit_gbp"].isna().sum()
    ),
    "Which guest booked the most nights?": lambda: cottage().loc[
        cottage()["nights_n"].idxmax(), "Guest Name"
    ],
    "total deposits received so far": lambda: float(cottage()["deposit_gbp"].sum()),
    "What's the average number of guests per booking?": lambda: round(float(cottage()["guests_n"].mean()), 2),
    "Who is staying at the cottage right after Claire Dubois?": lambda: _cottage_after("Claire Dubois"),
    "Which bookings arrive in August 2024? Give the booking refs.": lambda: (
        cottage()
        .loc[
            (cottage()["arrival_dt"].dt.year == 2024) & (cottage()["arrival_dt"].dt.month == 8), "Booking Ref"
        ]
        .tolist()
    ),
    "Which source earned us more in total booking value, Direct or Booking.com?": _cottage_source_totals,
    "who is the last guest to arrive in the calendar": lambda: cottage().loc[
        cottage()["arrival_dt"].idxmax(), "Guest Name"
    ],
    # reading scheme
    "What book band is Nwosu, Chidi on?": lambda: (
        reading().loc[reading()["Pupil"] == "Nwosu, Chidi", "Book Band"].iloc[0]
    ),
    "how many pupils are on gold band": lambda: _reading_band_count("Gold"),
    "How many pupils have no assessment date recorded this term?": lambda: int(
        reading()["assessed_dt"].isna().sum()
    ),
    "Which pupil has read the most books this term?": lambda: reading().loc[
        reading()["books"].idxmax(), "Pupil"
    ],
    "average books read in 3B": lambda: round(
        float(reading().loc[reading()["Class"] == "3B", "books"].mean()), 2
    ),
    "Which pupils have a reading age below 8 years? List them all.": lambda: (
        reading().loc[reading()["age_months"] < 8 * 12, "Pupil"].tolist()
    ),
    "How many more books has Patel, Aarav read than Morgan, Theo?": lambda: int(
        reading().set_index("Pupil").loc["Patel, Aarav", "books"]
        - reading().set_index("Pupil").loc["Morgan, Theo", "books"]
    ),
    "Which pupils were last assessed in November 2024?": lambda: (
        reading()
        .loc[(reading()["assessed_dt"].dt.year == 2024) & (reading()["assessed_dt"].dt.month == 11), "Pupil"]
        .tolist()
    ),
    "What's the total number of books our 4B class has read this term?": lambda: int(
        reading().loc[reading()["Class"] == "4B", "books"].sum()
    ),
    "who was assessed first this term": lambda: reading().loc[reading()["assessed_dt"].idxmin(), "Pupil"],
    # office air quality
    "What was the CO2 reading in the Boardroom at 2024-11-04T11:00:00Z?": lambda: _air_at(
        "Boardroom", "2024-11-04T11:00:00Z"
    )["co2_ppm"],
    "How many readings had CO2 above 1000 ppm?": lambda: int((air()["co2"] > 1000).sum()),
    "which room recorded the highest pm2.5 reading": lambda: air().loc[air()["pm"].idxmax(), "room"],
    "How many PM2.5 readings were below detection (<1)?": lambda: int(
        (air()["pm2_5"].str.strip() == "<1").sum()
    ),
    "What's the average occupancy in Open Plan East across all the readings we have?": lambda: round(
        float(air().loc[air()["room"] == "Open Plan East", "occ"].mean()), 2
    ),
    "In how many readings was the room colder than its setpoint, i.e. a negative temp_vs_setpoint_f?": lambda: (
        int((air()["delta"] < 0).sum())
    ),
    "How much higher was CO2 in the Kitchen than in the Boardroom at 2024-11-05T12:00:00Z?": lambda: int(
        _air_at("Kitchen", "2024-11-05T12:00:00Z")["co2"]
        - _air_at("Boardroom", "2024-11-05T12:00:00Z")["co2"]
    ),
    "on average which room ran warmer, Boardroom or Meeting Rm 2": lambda: _air_warmer(
        "Boardroom", "Meeting Rm 2"
    ),
    "At which timestamps did the Boardroom go over 1000 ppm CO2?": lambda: (
        air().loc[(air()["room"] == "Boardroom") & (air()["co2"] > 1000), "timestamp"].tolist()
    ),
    "What was the next Meeting Rm 2 CO2 reading after the one at 2024-11-05T10:00:00Z?": lambda: _air_next(
        "Meeting Rm 2", "2024-11-05T10:00:00Z"
    ),
}


def _agrees(computed: object, gold: str) -> bool:
    """Numbers agree within half a unit of the gold's last decimal; strings and lists must match exactly."""
    if isinstance(computed, list):
        parts = gold.split("|")
        return len(parts) == len(computed) and all(
            _agrees(c, g) for c, g in zip(computed, parts, strict=True)
        )
    if isinstance(computed, str):
        return computed == gold
    decimals = len(gold.split(".")[1]) if "." in gold else 0
    try:
        return abs(float(computed) - float(gold)) <= 0.5 * 10 ** (-decimals) + 1e-9
    except ValueError:
        return False


def check() -> list[tuple[str, str, object, bool]]:
    results = []
    with QUESTIONS.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
            computed = ANSWERS[row["question"]]()
            results.append((row["type"], row["question"], computed, _agrees(computed, row["answer"])))
    return results


if __name__ == "__main__":
    rows = check()
    for kind, question, computed, ok in rows:
        print(f"{'OK ' if ok else 'BAD'} [{kind}] {question} -> {computed}")
    print(f"{sum(ok for *_, ok in rows)}/{len(rows)} agree; {len(ANSWERS)} answers defined")
