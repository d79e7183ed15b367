"""Round 27 real-world checks: summer camp sign-ups, kiln firing log and broadband speeds."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: object) -> float:
    """Parse '$245.00', '-$25.00', '£14.50' or blank into a float (blank -> 0)."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return 0.0
    text = str(value).strip().replace(",", "")
    if not text:
        return 0.0
    sign = -1.0 if text.startswith("-") else 1.0
    return sign * float(text.lstrip("+-").lstrip("$£"))


def _number(value: object) -> float:
    """Parse '1,240', '+12.4', '67%' or 'n/a' into a float (n/a -> NaN)."""
    text = str(value).strip().replace(",", "").rstrip("%")
    if text.lower() in {"", "n/a", "na", "nan", "none"}:
        return float("nan")
    return float(text)


def camp() -> pd.DataFrame:
    df = pd.read_json(REAL / "r27_summer_camp_signups.json", dtype=False)
    df["age"] = df["Age"].map(lambda v: int(str(v).strip()))
    df["price"] = df["Price"].map(_money)
    df["discount"] = df["Sibling Discount"].map(_money)
    df["allergy"] = df["Allergy Notes"].map(lambda v: "" if v is None or pd.isna(v) else str(v).strip())
    df["registered"] = pd.to_datetime(df["Registered"], format="%b %d, %Y")
    return df


def kiln() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r27_kiln_firing_log.tsv", sep="\t", dtype=str, keep_default_na=False)
    df["date"] = pd.to_datetime(df["Firing Date"], format="%Y-%m-%d")
    df["kiln"] = df["Kiln"].str.strip().str.title()
    df["type"] = df["Firing Type"].str.strip().str.lower()
    df["peak"] = df["Peak Temp (°C)"].map(_number)
    df["loaded"] = df["Pieces Loaded"].map(_number).astype(int)
    df["cracked"] = df["Pieces Cracked"].map(_number).astype(int)
    df["cost"] = df["Cost"].map(_money)
    return df


def broadband() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r27_broadband_speeds.csv", dtype=str, keep_default_na=False)
    df["down"] = df["Median Download (Mbps)"].map(_number)
    df["up"] = df["Median Upload (Mbps)"].map(_number)
    df["change"] = df["Download Change on Last Year (%)"].map(_number)
    df["fibre"] = df["Fibre Share"].map(_number)
    return df


def _camp_week_total(week: str) -> float:
    df = camp()
    return df.loc[df["Camp Week"] == week, "price"].sum()


def _kiln_cost_on(day: str) -> float:
    df = kiln()
    return df.loc[df["Firing Date"] == day, "cost"].iloc[0]


def _bb(country: str, col: str) -> float:
    df = broadband()
    return df.loc[df["Country"] == country, col].iloc[0]


ANSWERS: dict[str, Callable[[], object]] = {
    # summer camp sign-ups
    "What activity is Isla Romero signed up for?": lambda: (
        camp().set_index("Child Name").loc["Isla Romero", "Activity"]
    ),
    "how many kids are in week 4": lambda: int((camp()["Camp Week"].str.lower() == "week 4").sum()),
    "How many sign-ups have something written in the allergy notes?": lambda: int(
        (camp()["allergy"] != "").sum()
    ),
    "who is the oldest camper": lambda: camp().loc[camp()["age"].idxmax(), "Child Name"],
    "How much did we knock off in sibling discounts altogether?": lambda: abs(camp()["discount"].sum()),
    "What's the average age of the kids doing Soccer?": lambda: round(
        camp().loc[camp()["Activity"] == "Soccer", "age"].mean(), 2
    ),
    "Which week has the higher total of listed prices, Week 3 or Week 5?": lambda: max(
        ["Week 3", "Week 5"], key=_camp_week_total
    ),
    "Which children registered in April 2024?": lambda: (
        camp()
        .loc[lambda d: (d["registered"].dt.year == 2024) & (d["registered"].dt.month == 4), "Child Name"]
        .tolist()
    ),
    "how much more is the Robotics camp price than the Drama one": lambda: (
        camp().groupby("Activity")["price"].first()["Robotics"]
        - camp().groupby("Activity")["price"].first()["Drama"]
    ),
    "Who was the last child to register?": lambda: camp().loc[camp()["registered"].idxmax(), "Child Name"],
    # kiln firing log
    "What was the peak temperature on the 2024-06-18 firing?": lambda: (
        kiln().set_index("Firing Date").loc["2024-06-18", "Peak Temp (°C)"]
    ),
    "How many firings did Dev run?": lambda: int((kiln()["Fired By"].str.strip() == "Dev").sum()),
    "how many firings had no cracked pieces at all": lambda: int((kiln()["cracked"] == 0).sum()),
    "Which firing had the most cracked pieces? Just give me the date.": lambda: kiln().loc[
        kiln()["cracked"].idxmax(), "Firing Date"
    ],
    "Total pieces we loaded into the Big Kiln across the whole log?": lambda: int(
        kiln().loc[kiln()["kiln"] == "Big Kiln", "loaded"].sum()
    ),
    "what's the average peak temp for glaze firings in the Test Kiln": lambda: round(
        kiln().loc[(kiln()["kiln"] == "Test Kiln") & (kiln()["type"] == "glaze"), "peak"].mean(), 2
    ),
    "How much more did the 2024-07-09 firing cost than the one on 2024-06-07?": lambda: round(
        _kiln_cost_on("2024-07-09") - _kiln_cost_on("2024-06-07"), 2
    ),
    "what's the date of the firing that came right after the one on 2024-06-21": lambda: (
        kiln()
        .sort_values("date")
        .reset_index(drop=True)
        .pipe(lambda d: d.loc[d.index[d["Firing Date"] == "2024-06-21"][0] + 1, "Firing Date"])
    ),
    "How many pieces cracked in total across our July 2024 firings?": lambda: int(
        kiln().loc[lambda d: (d["date"].dt.year == 2024) & (d["date"].dt.month == 7), "cracked"].sum()
    ),
    "Which firings peaked above 1,250 degrees? dates please": lambda: (
        kiln().loc[lambda d: d["peak"] > 1250, "Firing Date"].tolist()
    ),
    # broadband speeds
    "What's the fibre share in Portugal?": lambda: (
        broadband().set_index("Country").loc["Portugal", "Fibre Share"]
    ),
    "how many european countries are in the list": lambda: int((broadband()["Region"] == "Europe").sum()),
    "How many countries have a median download over 200 Mbps?": lambda: int(
        (broadband()["down"] > 200).sum()
    ),
    "Which country has the slowest median upload?": lambda: broadband().loc[
        broadband()["up"].idxmin(), "Country"
    ],
    "which countries got slower download speeds than last year": lambda: (
        broadband().loc[lambda d: d["change"] < 0, "Country"].tolist()
    ),
    "Which country had the biggest drop on last year?": lambda: broadband().loc[
        broadband()["change"].idxmin(), "Country"
    ],
    "What is the average median upload across the countries that actually report one?": lambda: round(
        broadband()["up"].dropna().mean(), 2
    ),
    "How much faster is Singapore's median download than Australia's, in Mbps?": lambda: round(
        _bb("Singapore", "down") - _bb("Australia", "down"), 1
    ),
    "which has the higher fibre share, Japan or Thailand": lambda: max(
        ["Japan", "Thailand"], key=lambda c: _bb(c, "fibre")
    ),
    "Which countries have a fibre share below 30%?": lambda: (
        broadband().loc[lambda d: d["fibre"] < 30, "Country"].tolist()
    ),
}
