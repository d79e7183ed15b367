"""Round 27 real-world checks: phone shop repair jobs, climbing wall route log, reservoir levels."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(s: pd.Series) -> pd.Series:
    return pd.to_numeric(s.astype(str).str.replace("£", "", regex=False).str.replace(",", "", regex=False))


def _count_num(s: pd.Series) -> pd.Series:
    return pd.to_numeric(s.astype(str).str.replace(",", "", regex=False).str.strip())


@lru_cache(maxsize=1)
def repairs() -> pd.DataFrame:
    df = pd.read_excel(DATA / "r27_phone_repairs.xlsx", dtype=str)
    df["fault_n"] = df["Fault"].str.strip().str.lower()
    df["quote_n"] = _money(df["Quote"])
    df["final_n"] = _money(df["Final Cost"])
    df["booked_d"] = pd.to_datetime(df["Booked In"], format="%d/%m/%Y")
    df["collected_d"] = pd.to_datetime(df["Collected"], format="%d/%m/%Y")
    return df


@lru_cache(maxsize=1)
def routes() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r27_climbing_routes.csv", dtype=str)
    df["setter_n"] = df["Setter"].str.strip()
    df["ascents_n"] = _count_num(df["Ascents Logged"])
    df["set_d"] = pd.to_datetime(df["Date Set"], format="%d %b %Y")
    df["removed_d"] = pd.to_datetime(df["Date Removed"], format="%d %b %Y")
    return df


@lru_cache(maxsize=1)
def reservoirs() -> pd.DataFrame:
    df = pd.read_parquet(DATA / "r27_reservoir_levels.parquet")
    df["week_d"] = pd.to_datetime(df["Week Ending"], format="%d/%m/%Y")
    df["cap_n"] = _count_num(df["Capacity (Ml)"])
    df["pct_n"] = pd.to_numeric(df["% Full"].str.rstrip("%"))
    df["chg_n"] = pd.to_numeric(df["Change (pts)"].str.replace("+", "", regex=False))
    return df


def _job(ref: str) -> pd.Series:
    df = repairs()
    return df[df["Job Ref"] == ref].iloc[0]


def _next_booked(ref: str) -> str:
    df = repairs().sort_values("booked_d", kind="stable").reset_index(drop=True)
    i = df.index[df["Job Ref"] == ref][0]
    return df.loc[i + 1, "Job Ref"]


def _ascents(route: str) -> int:
    df = routes()
    return int(df.loc[df["Route"] == route, "ascents_n"].iloc[0])


def _level(name: str, week: str) -> pd.Series:
    df = reservoirs()
    return df[(df["Reservoir"] == name) & (df["week_d"] == pd.to_datetime(week, format="%d/%m/%Y"))].iloc[0]


def _week_after(name: str, pct: float) -> str:
    df = reservoirs()
    r = df[df["Reservoir"] == name].sort_values("week_d").reset_index(drop=True)
    i = r.index[r["pct_n"].round(1) == pct][0]
    return r.loc[i + 1, "% Full"]


def _oct_jobs() -> list[str]:
    df = repairs()
    m = (df["booked_d"].dt.year == 2024) & (df["booked_d"].dt.month == 10)
    return df.loc[m, "Job Ref"].tolist()


def _march_routes() -> list[str]:
    df = routes()
    m = (df["set_d"].dt.year == 2024) & (df["set_d"].dt.month == 3)
    return df.loc[m, "Route"].tolist()


ANSWERS: dict[str, Callable[[], object]] = {
    # phone repairs
    "what was the final cost on job PR-0406": lambda: _job("PR-0406")["Final Cost"],
    "How many cracked screen repairs have we booked in?": lambda: int(
        (repairs()["fault_n"] == "cracked screen").sum()
    ),
    "How many jobs ended up costing more than the original quote?": lambda: int(
        (repairs()["final_n"] > repairs()["quote_n"]).sum()
    ),
    "Which job had the highest quote?": lambda: repairs().loc[repairs()["quote_n"].idxmax(), "Job Ref"],
    "total final cost across all jobs": lambda: round(float(repairs()["final_n"].sum()), 2),
    "What's the average quote for a battery job?": lambda: round(
        float(repairs().loc[repairs()["fault_n"] == "battery", "quote_n"].mean()), 2
    ),
    "Which jobs were booked in during October 2024?": _oct_jobs,
    "which job was booked in right after PR-0409": lambda: _next_booked("PR-0409"),
    "How much more was the final cost of PR-0417 than its quote?": lambda: round(
        float(_job("PR-0417")["final_n"] - _job("PR-0417")["quote_n"]), 2
    ),
    "Of all the jobs that have been picked up, which one was collected last?": lambda: repairs().loc[
        repairs()["collected_d"].idxmax(), "Job Ref"
    ],
    # climbing routes
    "Who set Gaston Villa?": lambda: routes().loc[routes()["Route"] == "Gaston Villa", "Setter"].iloc[0],
    "how many routes are in the cave section": lambda: int(
        (routes()["Wall Section"].str.strip() == "Cave").sum()
    ),
    "How many of our routes are still up on the wall, i.e. have no removal date?": lambda: int(
        routes()["removed_d"].isna().sum()
    ),
    "Which route has the most ascents logged?": lambda: routes().loc[routes()["ascents_n"].idxmax(), "Route"],
    "average ascents for routes set by Jo Hart": lambda: round(
        float(routes().loc[routes()["setter_n"] == "Jo Hart", "ascents_n"].mean()), 2
    ),
    "Which routes have had more than 1,000 ascents logged?": lambda: (
        routes().loc[routes()["ascents_n"] > 1000, "Route"].tolist()
    ),
    "Which got more ascents, Pinch Me or Smear Campaign?": lambda: (
        "Pinch Me" if _ascents("Pinch Me") > _ascents("Smear Campaign") else "Smear Campaign"
    ),
    "which routes were set in March 2024": _march_routes,
    "What was the first route to be taken down?": lambda: routes().loc[
        routes()["removed_d"].idxmin(), "Route"
    ],
    "What's the total number of ascents logged on slab routes?": lambda: int(
        routes().loc[routes()["Wall Section"].str.strip() == "Slab", "ascents_n"].sum()
    ),
    # reservoir levels
    "What was Stanmoor at for the week ending 21/07/2024?": lambda: _level("Stanmoor", "21/07/2024")[
        "% Full"
    ],
    "how many readings were under 60% full": lambda: int((reservoirs()["pct_n"] < 60).sum()),
    "Which reservoir has the biggest capacity?": lambda: reservoirs().loc[
        reservoirs()["cap_n"].idxmax(), "Reservoir"
    ],
    "Which was fuller on the week ending 28/07/2024, Elmridge or Stanmoor?": lambda: (
        "Elmridge"
        if _level("Elmridge", "28/07/2024")["pct_n"] > _level("Stanmoor", "28/07/2024")["pct_n"]
        else "Stanmoor"
    ),
    "average % full at hollow beck for the weeks that have a reading": lambda: round(
        float(reservoirs().loc[reservoirs()["Reservoir"] == "Hollow Beck", "pct_n"].dropna().mean()), 2
    ),
    "On the week ending 04/08/2024, how many points higher was Stanmoor than Elmridge?": lambda: round(
        float(_level("Stanmoor", "04/08/2024")["pct_n"] - _level("Elmridge", "04/08/2024")["pct_n"]), 2
    ),
    "What is the combined capacity of our four reservoirs in megalitres?": lambda: int(
        reservoirs().drop_duplicates("Reservoir")["cap_n"].sum()
    ),
    "What was Cray Water's level in the week after the one where it was at 61.4%?": lambda: _week_after(
        "Cray Water", 61.4
    ),
    "In which week ending did we see the biggest single-week fall at any reservoir?": lambda: (
        reservoirs().loc[reservoirs()["chg_n"].idxmin(), "Week Ending"]
    ),
    "how many weekly readings show a rise on the week": lambda: int((reservoirs()["chg_n"] > 0).sum()),
}
