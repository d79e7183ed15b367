"""Reference answers for round-21 real-world questions: street trees, solar quotes and tide table."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: object) -> float:
    """Parse a price such as '£9,480.00' or '£7,950' into a float."""
    return float(re.sub(r"[£,\s]", "", str(value)))


def _num_or_nan(value: object) -> float:
    """Parse a number that may be written with commas or as free text ('none', 'not given')."""
    text = str(value).replace(",", "").strip()
    try:
        return float(text)
    except ValueError:
        return float("nan")


def _metres(value: object) -> float:
    """Parse a height such as '-0.3 m' into a float; blanks become NaN."""
    if pd.isna(value) or not str(value).strip():
        return float("nan")
    return float(str(value).replace("m", "").strip())


def _year(value: object) -> float:
    """Parse a planting year such as '1962' or 'c.1930'; 'unknown' becomes NaN."""
    match = re.search(r"(\d{4})", str(value))
    return float(match.group(1)) if match else float("nan")


def trees() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r21_street_trees.csv", dtype=str, keep_default_na=False)
    df["height"] = pd.to_numeric(df["Height (m)"].replace("", None), errors="coerce")
    df["girth"] = pd.to_numeric(df["Girth (cm)"].replace("", None), errors="coerce")
    df["year"] = df["Year planted"].map(_year)
    return df


def solar() -> pd.DataFrame:
    df = pd.read_excel(DATA / "r21_solar_quotes.xlsx", dtype=object)
    df["price"] = df["Total price inc. VAT"].map(_money)
    df["battery"] = df["Battery storage (kWh)"].map(_num_or_nan)
    df["payback"] = df["Estimated payback (years)"].map(_num_or_nan)
    df["date"] = pd.to_datetime(df["Quote date"], format="%d/%m/%Y")
    df["size"] = df["System size (kWp)"].astype(float)
    df["panel_warranty"] = df["Panel warranty (years)"].astype(int)
    return df


def tides() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r21_harbour_tides.csv", dtype=str, keep_default_na=False)
    df["date"] = df["Date"].map(lambda s: datetime.strptime(s, "%a %d %b %Y"))
    for col in ["HW1 height", "LW1 height", "HW2 height", "LW2 height"]:
        df[col + " m"] = df[col].map(_metres)
    df["coef"] = df["Coefficient"].astype(int)
    return df


def _tree_ids(mask: pd.Series) -> list[str]:
    return trees().loc[mask, "Tree ID"].tolist()


def _tides_row(date_text: str) -> pd.Series:
    t = tides()
    return t.loc[t["Date"] == date_text].iloc[0]


def _lowest_low_water() -> str:
    t = tides()
    cells = pd.concat([t["LW1 height"], t["LW2 height"]])
    values = cells.map(_metres)
    return cells.iloc[int(values.to_numpy().argmin())]


def _next_after_brightside() -> str:
    s = solar().sort_values("date", kind="stable").reset_index(drop=True)
    idx = s.index[s["Installer"] == "Brightside Electrical"][0]
    return s.loc[idx + 1, "Installer"]


def _coef_day_before(date_text: str) -> int:
    t = tides().sort_values("date").reset_index(drop=True)
    idx = t.index[t["Date"] == date_text][0]
    return int(t.loc[idx - 1, "coef"])


ANSWERS: dict[str, Callable[[], object]] = {
    # --- street trees ---
    "what's the latin name of tree ST-0122": lambda: (
        trees().set_index("Tree ID").loc["ST-0122", "Latin name"]
    ),
    "How many trees are recorded as Dead?": lambda: int((trees()["Condition"] == "Dead").sum()),
    "How many trees in the survey don't have a height recorded?": lambda: int(trees()["height"].isna().sum()),
    "Which tree has the biggest trunk girth? Just the tree ID please.": lambda: (
        trees().sort_values("girth", ascending=False).iloc[0]["Tree ID"]
    ),
    "average height of our silver birches in metres": lambda: round(
        trees().loc[lambda d: d["Common name"] == "Silver Birch", "height"].mean(), 2
    ),
    "Which trees on High Street are taller than 18 m?": lambda: _tree_ids(
        (trees()["Street"] == "High Street") & (trees()["height"] > 18)
    ),
    "What is the combined trunk girth in cm of all the trees on Park Avenue, ignoring any that weren't measured?": (
        lambda: float(trees().loc[lambda d: d["Street"] == "Park Avenue", "girth"].sum())
    ),
    "which tree was planted the earliest": lambda: trees().sort_values("year").iloc[0]["Tree ID"],
    "List the tree IDs of every tree planted between 2010 and 2015 inclusive.": lambda: _tree_ids(
        trees()["year"].between(2010, 2015)
    ),
    "How much taller is our tallest English Oak than the tallest Horse Chestnut, in metres?": lambda: round(
        trees().groupby("Common name")["height"].max()["English Oak"]
        - trees().groupby("Common name")["height"].max()["Horse Chestnut"],
        2,
    ),
    # --- solar quotes ---
    "What panel brand did Kernow Solar quote?": lambda: (
        solar().set_index("Installer").loc["Kernow Solar", "Panel brand"]
    ),
    "which installer gave us the cheapest quote": lambda: solar().sort_values("price").iloc[0]["Installer"],
    "What's the average total price inc. VAT across all 13 quotes?": lambda: round(
        solar()["price"].mean(), 2
    ),
    "How many of the quotes include battery storage?": lambda: int((solar()["battery"] > 0).sum()),
    "Who offers the longer panel warranty, Coastline Energy or Halo Home Power?": lambda: (
        solar()
        .loc[lambda d: d["Installer"].isin(["Coastline Energy", "Halo Home Power"])]
        .sort_values("panel_warranty", ascending=False)
        .iloc[0]["Installer"]
    ),
    "How much more expensive is the Apex Renewables quote than The Solar Co-op's?": lambda: (
        solar().set_index("Installer").loc["Apex Renewables", "price"]
        - solar().set_index("Installer").loc["The Solar Co-op", "price"]
    ),
    "Which installers estimate the system will pay for itself in under 10 years?": lambda: (
        solar().loc[lambda d: d["payback"] < 10, "Installer"].tolist()
    ),
    "Which installer's quote came in next after Brightside Electrical's?": _next_after_brightside,
    "what's the combined system size in kWp of the quotes using Longi panels": lambda: round(
        solar().loc[lambda d: d["Panel brand"] == "Longi", "size"].sum(), 2
    ),
    "Which installers quoted us in April 2024?": lambda: (
        solar().loc[lambda d: (d["date"].dt.year == 2024) & (d["date"].dt.month == 4), "Installer"].tolist()
    ),
    # --- harbour tides ---
    "What time is the first high water on Tue 9 Jul 2024?": lambda: _tides_row("Tue 9 Jul 2024")["HW1 time"],
    "How many days have at least one low water below zero?": lambda: int(
        ((tides()["LW1 height m"] < 0) | (tides()["LW2 height m"] < 0)).sum()
    ),
    "what is the lowest low water height in the table": _lowest_low_water,
    "Which day has the highest tidal coefficient?": lambda: (
        tides().sort_values("coef", ascending=False).iloc[0]["Date"]
    ),
    "What's the first day in the list where the coefficient drops below 50?": lambda: (
        tides().loc[lambda d: d["coef"] < 50, "Date"].iloc[0]
    ),
    "Which had the higher first high water, Thu 11 Jul 2024 or Thu 18 Jul 2024?": lambda: (
        tides()
        .loc[lambda d: d["Date"].isin(["Thu 11 Jul 2024", "Thu 18 Jul 2024"])]
        .sort_values("HW1 height m", ascending=False)
        .iloc[0]["Date"]
    ),
    "avg coefficient over all the days listed": lambda: round(tides()["coef"].mean(), 2),
    "On how many days does the table show only one high water?": lambda: int(
        (tides()[["HW1 time", "HW2 time"]] != "").sum(axis=1).eq(1).sum()
    ),
    "What was the coefficient on the day before Sun 14 Jul 2024?": lambda: _coef_day_before(
        "Sun 14 Jul 2024"
    ),
    (
        "We're planning to dry out on the beach on Mon 8 Jul 2024 - what's the range between that day's "
        "first high water and first low water in metres?"
    ): lambda: round(
        _tides_row("Mon 8 Jul 2024")["HW1 height m"] - _tides_row("Mon 8 Jul 2024")["LW1 height m"], 2
    ),
}
