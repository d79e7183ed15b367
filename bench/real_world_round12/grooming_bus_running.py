"""Pandas reference answers for round-12 questions on the grooming, school-bus and running-log tables."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
DASH = "\u2014"


def _money(text: object) -> float:
    """Turn '£42.50' into 42.5."""
    return float(str(text).replace("£", "").replace(",", "").strip())


def _clock_minutes(text: object) -> int:
    """Turn '9:30am', '2 pm', '11:15 am' or '07:42' into minutes after midnight."""
    s = str(text).strip().lower().replace(" ", "")
    suffix = ""
    if s.endswith(("am", "pm")):
        s, suffix = s[:-2], s[-2:]
    hours, _, mins = s.partition(":")
    h, m = int(hours), int(mins or 0)
    if suffix == "pm" and h != 12:
        h += 12
    if suffix == "am" and h == 12:
        h = 0
    return h * 60 + m


def _seconds(text: object) -> int:
    """Turn '52:10', '1:48:33' or '5:12 /km' into seconds."""
    parts = [int(p) for p in str(text).replace("/km", "").strip().split(":")]
    total = 0
    for p in parts:
        total = total * 60 + p
    return total


def _km(text: object) -> float:
    """Turn '10.2 km' into 10.2."""
    return float(str(text).lower().replace("km", "").strip())


def grooming() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r12_grooming_appointments.csv", dtype=str, keep_default_na=False)
    df["price_num"] = df["Price"].map(_money)
    df["minutes"] = df["Time"].map(_clock_minutes)
    df["day"] = df["Date"].str.split().str[0]
    return df


def bus() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r12_school_bus_route7.tsv", sep="\t", dtype=str, keep_default_na=False)
    df["mins"] = df["Minutes from depot"].astype(int)
    return df


def running() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r12_running_log_2024.xlsx", dtype={"Notes": object})
    df["Date"] = pd.to_datetime(df["Date"])
    df["km"] = df["Distance"].map(_km)
    df["secs"] = df["Time"].map(_seconds)
    df["pace_secs"] = df["Pace"].map(_seconds)
    return df


def _after(df: pd.DataFrame, mask: pd.Series, col: str) -> str:
    pos = df.index.get_loc(df[mask].index[0])
    return df.iloc[pos + 1][col]


def _g_after_alfie() -> str:
    wed = grooming().query("day == 'Wed'").sort_values("minutes").reset_index(drop=True)
    return _after(wed, wed["Dog"] == "Alfie", "Dog")


def _g_de_shed(dog: str) -> float:
    g = grooming()
    return g[(g["Dog"] == dog) & (g["Service"] == "De-shed")]["price_num"].iloc[0]


def _b_time(stop: str, run: str) -> int:
    b = bus()
    return _clock_minutes(b.loc[b["Stop"] == stop, run].iloc[0])


def _b_first_skip(run: str) -> str:
    b = bus()
    return b[b[run] == DASH]["Stop"].iloc[0]


def _b_closer(a: str, b_name: str) -> str:
    b = bus()
    sub = b[b["Stop"].str.startswith(a) | b["Stop"].str.startswith(b_name)]
    return sub.sort_values("mins")["Stop"].iloc[0]


def _b_run1_before(cutoff: str) -> list[str]:
    b = bus()
    served = b[b["Run 1"] != DASH]
    return served[served["Run 1"].map(_clock_minutes) < _clock_minutes(cutoff)]["Stop"].tolist()


def _r_parkrun_gap() -> int:
    r = running()
    pk = r[r["Run type"] == "Parkrun"]
    jan = pk[pk["Date"].dt.month == 1]["secs"].iloc[0]
    mar = pk[pk["Date"].dt.month == 3]["secs"].iloc[0]
    return int(jan - mar)


def _r_in_month(year: int, month: int) -> pd.DataFrame:
    r = running()
    return r[(r["Date"].dt.year == year) & (r["Date"].dt.month == month)]


def _r_more_shoes(a: str, b: str) -> str:
    counts = running()["Shoes"].value_counts()
    return a if counts.get(a, 0) > counts.get(b, 0) else b


def _g_more_groomer(a: str, b: str) -> str:
    counts = grooming()["Groomer"].value_counts()
    return a if counts.get(a, 0) > counts.get(b, 0) else b


ANSWERS: dict[str, Callable[[], object]] = {
    # grooming appointments
    "What time is Bear's appointment?": lambda: grooming().query("Dog == 'Bear'")["Time"].iloc[0],
    "how many no-shows did we have this week": lambda: int((grooming()["Status"] == "No-show").sum()),
    "How many appointments have nothing filled in under Status?": lambda: int(
        (grooming()["Status"].str.strip() == "").sum()
    ),
    "Which dog had the most expensive appointment?": lambda: (
        grooming().sort_values("price_num")["Dog"].iloc[-1]
    ),
    "What's the total price of all the appointments marked Done?": lambda: float(
        grooming().query("Status == 'Done'")["price_num"].sum()
    ),
    "average price of a full groom": lambda: round(
        float(grooming().query("Service == 'Full groom'")["price_num"].mean()), 2
    ),
    "Who had more appointments booked in this week, Kim or Dan?": lambda: _g_more_groomer("Kim", "Dan"),
    "Which dog was booked in right after Alfie on Wednesday?": _g_after_alfie,
    "How much more did Bear's de-shed cost than Alfie's de-shed?": lambda: float(
        _g_de_shed("Bear") - _g_de_shed("Alfie")
    ),
    "what time is our last appointment on friday": lambda: (
        grooming().query("day == 'Fri'").sort_values("minutes")["Time"].iloc[-1]
    ),
    # school bus route 7
    "What time does Run 2 get to Station Approach?": lambda: (
        bus().set_index("Stop").loc["Station Approach", "Run 2"]
    ),
    "how many stops does the wednesday late start bus skip": lambda: int(
        (bus()["Wed late start"] == DASH).sum()
    ),
    "In how many rows is Run 2 shown as \u2014?": lambda: int((bus()["Run 2"] == DASH).sum()),
    "Which stop is the furthest from the depot?": lambda: bus().sort_values("mins")["Stop"].iloc[-1],
    "list the stops where run 1's time is earlier than 07:20": lambda: _b_run1_before("07:20"),
    "Which stop comes after Hillcrest Avenue on the route?": lambda: _after(
        bus(), bus()["Stop"] == "Hillcrest Avenue", "Stop"
    ),
    "Which is the first stop that the Wednesday late start run skips?": lambda: _b_first_skip(
        "Wed late start"
    ),
    "How many minutes later does Run 3 reach Westfield Primary than Run 1 does?": lambda: (
        _b_time("Westfield Primary", "Run 3") - _b_time("Westfield Primary", "Run 1")
    ),
    "what's the average minutes from depot across all the stops": lambda: round(
        float(bus()["mins"].mean()), 2
    ),
    "Our kids can walk to either Kings Road or Green Park North Gate - which of those two is closer to the depot?": (
        lambda: _b_closer("Kings Road", "Green Park North Gate")
    ),
    # running log
    "What was my pace on 11 January 2024?": lambda: (
        running().set_index("Date").loc[pd.Timestamp("2024-01-11"), "Pace"]
    ),
    "How many seconds faster was my March parkrun than my January parkrun?": _r_parkrun_gap,
    "how many runs have no notes": lambda: int(running()["Notes"].isna().sum()),
    "How long did my longest run (by distance) take?": lambda: running().sort_values("km")["Time"].iloc[-1],
    "total distance I ran in February 2024 in km": lambda: round(float(_r_in_month(2024, 2)["km"].sum()), 2),
    "How many runs did I log in January 2024?": lambda: len(_r_in_month(2024, 1)),
    "How many of my runs were in below-freezing temperatures (under 0 \u00b0C)?": lambda: int(
        (running()["Temp (°C)"] < 0).sum()
    ),
    "What did I write in the notes for my coldest run?": lambda: (
        running().sort_values("Temp (°C)")["Notes"].iloc[0]
    ),
    "What's my average heart rate over the runs that have an Avg HR recorded?": lambda: round(
        float(running()["Avg HR"].dropna().mean()), 2
    ),
    "Which shoes did I run in more often, Pegasus or Ghost?": lambda: _r_more_shoes("Pegasus", "Ghost"),
}
