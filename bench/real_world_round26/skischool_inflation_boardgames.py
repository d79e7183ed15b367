"""Hand-checked answers for round 26: ski school bookings, CPI inflation by country, board game cafe sessions."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
SKI = "r26_ski_school_bookings.tsv"
CPI = "r26_cpi_inflation_by_country.csv"
BG = "r26_boardgame_cafe_sessions.json"


def _money(value: object) -> float:
    """Parse 'CHF -180.00', '€6.50', 22.5, None or '' into a float (blank counts as 0)."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return 0.0
    if isinstance(value, int | float):
        return float(value)
    text = re.sub(r"[^0-9.\-]", "", str(value))
    return float(text) if text not in ("", "-", ".") else 0.0


def _minutes(duration: str) -> float:
    """Parse '2h', '2 h', '90 min', '90min', '1h30' into minutes."""
    text = str(duration).strip().lower().replace(" ", "")
    if not text or text == "nan":
        return float("nan")
    m = re.fullmatch(r"(\d+(?:\.\d+)?)h(\d+)?", text)
    if m:
        return float(m.group(1)) * 60 + (int(m.group(2)) if m.group(2) else 0)
    m = re.fullmatch(r"(\d+)min", text)
    if m:
        return float(m.group(1))
    raise ValueError(f"unparsed duration {duration!r}")


def _clock(hhmm: str) -> int:
    hours, mins = str(hhmm).split(":")
    return int(hours) * 60 + int(mins)


@lru_cache(maxsize=1)
def ski() -> pd.DataFrame:
    df = pd.read_csv(REAL / SKI, sep="\t", dtype=str, keep_default_na=False)
    df["date"] = pd.to_datetime(df["Date"], format="%d/%m/%Y")
    df["chf"] = df["Price"].map(_money)
    df["minutes"] = df["Duration"].map(_minutes)
    df["pupils"] = pd.to_numeric(df["Pupils"])
    df["start_min"] = df["Start"].map(lambda s: _clock(s) if s else None)
    df["level"] = df["Level"].str.strip().str.lower()
    df["lesson"] = df["chf"] > 0
    return df


@lru_cache(maxsize=1)
def cpi() -> pd.DataFrame:
    df = pd.read_csv(REAL / CPI)
    df = df.rename(columns=lambda c: int(m.group(1)) if (m := re.search(r"\((\d{4})\)", c)) else c)
    return df


@lru_cache(maxsize=1)
def bg() -> pd.DataFrame:
    df = pd.DataFrame(json.loads((REAL / BG).read_text(encoding="utf-8")))
    df["party"] = pd.to_numeric(df["party_size"])
    df["cover"] = df["cover_per_head"].map(_money)
    df["food"] = df["food_drink_total"].map(_money)
    df["tips"] = df["tip"].map(_money)
    df["cin"] = df["check_in"].map(_clock)
    out = df["check_out"].map(_clock)
    df["stay"] = (out - df["cin"]) % (24 * 60)
    df["day"] = pd.to_datetime(df["date"])
    return df


def _ski_lessons() -> pd.DataFrame:
    return ski()[ski()["lesson"]]


def _fees(name: str) -> float:
    df = ski()
    return df.loc[df["Instructor"] == name, "chf"].sum()


def _cpi_val(country: str, year: int) -> float:
    df = cpi()
    return df.loc[df["Country Name"] == country, year].iloc[0]


def _saturday() -> pd.DataFrame:
    df = bg()
    return df[df["day"] == pd.Timestamp("2025-03-08")].sort_values("cin")


def _next_after(df: pd.DataFrame, name: str) -> str:
    names = df["group_name"].tolist()
    return names[names.index(name) + 1]


def _goblins_food(day: str) -> float:
    df = bg()
    return df.loc[(df["group_name"] == "Dice Goblins") & (df["date"] == day), "food"].iloc[0]


ANSWERS: dict[str, Callable[[], object]] = {
    # ski school bookings
    "Who was the instructor for lesson SK-2514?": lambda: (
        ski().set_index("Lesson Ref").loc["SK-2514", "Instructor"]
    ),
    "how many kids lessons did we run": lambda: int((_ski_lessons()["level"] == "kids").sum()),
    "How many lessons were booked in February 2025?": lambda: int(
        ((_ski_lessons()["date"].dt.year == 2025) & (_ski_lessons()["date"].dt.month == 2)).sum()
    ),
    "which lesson ran the longest": lambda: ski().loc[ski()["minutes"].idxmax(), "Lesson Ref"],
    "What did our kids lessons bring in altogether, in CHF?": lambda: (
        ski().loc[ski()["level"] == "kids", "chf"].sum()
    ),
    "average number of pupils per group lesson": lambda: round(
        _ski_lessons().loc[_ski_lessons()["Group/Private"] == "Group", "pupils"].mean(), 2
    ),
    "What did Jonas Keller's bookings come to in total once the refund is taken off?": lambda: _fees(
        "Jonas Keller"
    ),
    "Which lesson was the last one of the season by date?": lambda: (
        _ski_lessons().sort_values(["date", "start_min"]).iloc[-1]["Lesson Ref"]
    ),
    "which lessons started before 9:00": lambda: (
        ski().loc[ski()["start_min"].notna() & (ski()["start_min"] < 9 * 60), "Lesson Ref"].tolist()
    ),
    "Who brought in more money in lesson fees, Sophie Favre or Marco Bianchi?": lambda: max(
        ["Sophie Favre", "Marco Bianchi"], key=_fees
    ),
    # CPI inflation by country
    "What was Norway's CPI inflation in 2022?": lambda: _cpi_val("Norway", 2022),
    "which country had the highest inflation in 2021": lambda: cpi().loc[
        cpi()[2021].idxmax(), "Country Name"
    ],
    "Which countries had deflation (negative CPI inflation) in 2020?": lambda: (
        cpi().loc[cpi()[2020] < 0, "Country Name"].tolist()
    ),
    "How many countries had annual inflation above 5% in 2023?": lambda: int((cpi()[2023] > 5).sum()),
    "average 2022 inflation across the Americas countries": lambda: round(
        cpi().loc[cpi()["Region"] == "Americas", 2022].mean(), 2
    ),
    "By how many percentage points did Nigeria's 2024 inflation exceed Kenya's?": lambda: round(
        _cpi_val("Nigeria", 2024) - _cpi_val("Kenya", 2024), 2
    ),
    "which countries were below 2% inflation in 2024": lambda: (
        cpi().loc[cpi()[2024] < 2, "Country Name"].tolist()
    ),
    "Was inflation higher in Japan or in China in 2021?": lambda: max(
        ["Japan", "China"], key=lambda c: _cpi_val(c, 2021)
    ),
    "What country is listed just before Canada?": lambda: cpi()["Country Name"].tolist()[
        cpi()["Country Name"].tolist().index("Canada") - 1
    ],
    "how many countries are in the Middle East region": lambda: int((cpi()["Region"] == "Middle East").sum()),
    # board game cafe sessions
    "Which table was the Night Owls group sitting at?": lambda: int(
        bg().loc[bg()["group_name"] == "Night Owls", "table_no"].iloc[0]
    ),
    "which group stayed the longest from check-in to check-out": lambda: bg().loc[
        bg()["stay"].idxmax(), "group_name"
    ],
    "What did we take in tips over the whole weekend?": lambda: round(bg()["tips"].sum(), 2),
    "How many sessions did the Dice Goblins have?": lambda: int((bg()["group_name"] == "Dice Goblins").sum()),
    "how many groups had more than 5 people": lambda: int((bg()["party"] > 5).sum()),
    "What is the average party size across all sessions?": lambda: round(bg()["party"].mean(), 2),
    "Which groups spent over €80 on food and drink?": lambda: (
        bg().loc[bg()["food"] > 80, "group_name"].tolist()
    ),
    "which group was first to check in on 8 March": lambda: _saturday().iloc[0]["group_name"],
    "How much more did the Dice Goblins spend on food and drink on Friday 7 March than on Saturday 8 March?": lambda: (
        round(_goblins_food("2025-03-07") - _goblins_food("2025-03-08"), 2)
    ),
    "On 8 March, which group checked in right after the Quiet Couple?": lambda: _next_after(
        _saturday(), "Quiet Couple"
    ),
}
