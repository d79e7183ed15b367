"""Reference answers for round 22 (w103): print shop jobs, internal migration, e-bike stations."""

from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _num(value: object) -> float:
    """Parse numbers written like 2,500 / +1,202 / -1,204 / €1,265.00 / 76% / 170gsm; blank -> NaN."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return float("nan")
    text = str(value).strip()
    for junk in ("€", ",", "%", "gsm", "+"):
        text = text.replace(junk, "")
    return float(text) if text else float("nan")


@cache
def jobs() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r22_printshop_jobs.xlsx", sheet_name="Jobs", dtype=object)
    df["qty_n"] = df["Qty"].map(_num)
    df["gsm_n"] = df["Paper"].map(_num)
    df["quoted_n"] = df["Quoted"].map(_num)
    df["final_n"] = df["Final price"].map(_num)
    df["due_d"] = pd.to_datetime(df["Due"], format="%Y-%m-%d")
    df["delivered_d"] = pd.to_datetime(df["Delivered"], format="%Y-%m-%d", errors="coerce")
    return df


@cache
def migration() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r22_internal_migration.csv", dtype=str)
    for col in df.columns[3:]:
        df[col + " #"] = df[col].map(_num)
    return df


@cache
def stations() -> pd.DataFrame:
    df = pd.read_json(REAL / "r22_ebike_stations.jsonl", lines=True, dtype=False)
    df["bikes_n"] = df["bikes_available"].map(_num)
    df["battery_n"] = df["battery_avg"].map(_num)
    df["trips_n"] = df["trips_this_week"].map(_num)
    df["serviced_d"] = pd.to_datetime(df["last_serviced"], format="%b %d, %Y")
    return df


def _job(job_no: str) -> pd.Series:
    return jobs().set_index("Job No.").loc[job_no]


def _region(name: str) -> pd.Series:
    return migration().set_index("Region").loc[name]


def _station(name: str) -> pd.Series:
    return stations().set_index("station").loc[name]


def _after(df: pd.DataFrame, key: str, value: str, col: str, step: int) -> str:
    pos = df.index[df[key] == value][0]
    return str(df.loc[pos + step, col])


def _late_jobs() -> list[str]:
    j = jobs()
    return j.loc[j["delivered_d"] > j["due_d"], "Job No."].tolist()


def _neg_then_pos() -> list[str]:
    m = migration()
    mask = (m["Net migration 2022 (persons) #"] < 0) & (m["Net migration 2023 (persons) #"] > 0)
    return m.loc[mask, "Region"].tolist()


def _june_service() -> list[str]:
    s = stations()
    mask = (s["serviced_d"].dt.year == 2024) & (s["serviced_d"].dt.month == 6)
    return s.loc[mask, "station"].tolist()


ANSWERS: dict[str, Callable[[], object]] = {
    # print shop job sheet (xlsx)
    "What was the final price of job PS-2410?": lambda: str(_job("PS-2410")["Final price"]),
    "how many poster jobs do we have": lambda: int((jobs()["Product"] == "Posters").sum()),
    "How many of our jobs are still open, i.e. have no delivered date yet?": lambda: int(
        jobs()["delivered_d"].isna().sum()
    ),
    "Which customer ordered the largest quantity in a single job?": lambda: str(
        jobs().loc[jobs()["qty_n"].idxmax(), "Customer"]
    ),
    "total quoted value of all the flyer jobs": lambda: float(
        jobs().loc[jobs()["Product"] == "Flyers", "quoted_n"].sum()
    ),
    "What's the average paper weight in gsm across the business card jobs?": lambda: round(
        float(jobs().loc[jobs()["Product"] == "Business cards", "gsm_n"].mean()), 2
    ),
    "By how much did the final price of PS-2410 exceed its quote?": lambda: float(
        _job("PS-2410")["final_n"] - _job("PS-2410")["quoted_n"]
    ),
    "which jobs were delivered after their due date": _late_jobs,
    "Which customer is on the job listed right after PS-2408?": lambda: _after(
        jobs(), "Job No.", "PS-2408", "Customer", 1
    ),
    "Which job ended up with the higher final price, PS-2404 or PS-2415?": lambda: max(
        ["PS-2404", "PS-2415"], key=lambda j: _job(j)["final_n"]
    ),
    # internal migration (csv)
    "What was the net migration rate per 1,000 for Coastal Bay in 2023?": lambda: float(
        _region("Coastal Bay")["Net migration rate per 1,000 (2023) #"]
    ),
    "how many regions had negative net migration in 2023": lambda: int(
        (migration()["Net migration 2023 (persons) #"] < 0).sum()
    ),
    "Which region had the lowest net migration in 2022?": lambda: str(
        migration().loc[migration()["Net migration 2022 (persons) #"].idxmin(), "Region"]
    ),
    "What was the total in-migration summed over all regions in 2023?": lambda: int(
        migration()["In-migration 2023 (persons) #"].sum()
    ),
    "average population of the rural regions": lambda: round(
        float(migration().loc[migration()["Region type"] == "Rural", "Population 1 Jan 2023 #"].mean()), 2
    ),
    "How much higher was Capital District's net migration in 2023 than in 2022?": lambda: int(
        _region("Capital District")["Net migration 2023 (persons) #"]
        - _region("Capital District")["Net migration 2022 (persons) #"]
    ),
    "Which had more out-migration in 2023, Northern Lakes or River Valley?": lambda: max(
        ["Northern Lakes", "River Valley"], key=lambda r: _region(r)["Out-migration 2023 (persons) #"]
    ),
    "Which regions had a net migration rate below -5 per 1,000 in 2023?": lambda: (
        migration().loc[migration()["Net migration rate per 1,000 (2023) #"] < -5, "Region"].tolist()
    ),
    "how many regions recorded more than 10,000 in-migrants in 2022": lambda: int(
        (migration()["In-migration 2022 (persons) #"] > 10_000).sum()
    ),
    "We need the regions whose net migration was negative in 2022 but positive in 2023 - which are they?": (
        _neg_then_pos
    ),
    # e-bike stations (jsonl)
    "What's the average battery level at Harbour Ferry Terminal?": lambda: str(
        _station("Harbour Ferry Terminal")["battery_avg"]
    ),
    "how many stations are in the Centre district": lambda: int((stations()["district"] == "Centre").sum()),
    "How many stations have fewer than 8 bikes available right now?": lambda: int(
        (stations()["bikes_n"] < 8).sum()
    ),
    "Which station started the most trips this week?": lambda: str(
        stations().loc[stations()["trips_n"].idxmax(), "station"]
    ),
    "total docks in harbour district": lambda: int(
        stations().loc[stations()["district"] == "Harbour", "docks"].sum()
    ),
    "what is the mean battery level of our Northside stations": lambda: round(
        float(stations().loc[stations()["district"] == "Northside", "battery_n"].mean()), 2
    ),
    "Which station was serviced most recently?": lambda: str(
        stations().loc[stations()["serviced_d"].idxmax(), "station"]
    ),
    "Which stations had their last service in June 2024?": _june_service,
    "station listed just before Stadium South?": lambda: _after(
        stations(), "station", "Stadium South", "station", -1
    ),
    "How many more trips did Town Hall Square start this week than Market Hall?": lambda: int(
        _station("Town Hall Square")["trips_n"] - _station("Market Hall")["trips_n"]
    ),
}
