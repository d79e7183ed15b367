"""Reference answers for round-16 tables: meter readings, brigade call-outs, education indicators."""

import re
from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"

ELEC = "Electricity (kWh)"
USED = "Used since last (kWh)"
GAS = "Gas (m³)"
WATER = "Water (m³)"

GDP = "Expenditure on educational institutions as % of GDP (2020)"
PER_STUDENT = "Annual expenditure per student, primary (USD PPP, 2020)"
RATIO = "Ratio of students to teaching staff, lower secondary (2021)"
COMPLETION = "Upper secondary completion rate within theoretical duration + 2 years (%, 2021)"
CHANGE = "Change in tertiary attainment of 25-34 year-olds, 2015-2022 (percentage points)"
SALARY = "Teachers' statutory salary after 15 years, lower secondary (USD PPP, 2022)"
PISA = "Mean PISA 2022 mathematics score"
LEAVERS = "Early leavers from education and training (% of 18-24 year-olds, 2022)"


def euro_number(text: str) -> float | None:
    """Parse a European number such as '12.345,6'; blank gives None."""
    text = str(text).strip()
    if not text:
        return None
    return float(text.replace(".", "").replace(",", "."))


def meters() -> pd.DataFrame:
    raw = pd.read_csv(DATA / "r16_meter_readings.csv", sep=";", dtype=str, keep_default_na=False)
    df = raw.copy()
    for col in (ELEC, USED, GAS, WATER):
        df[col + " #"] = raw[col].map(euro_number).astype(float)
    df["when"] = pd.to_datetime(raw["Date"], format="%d.%m.%Y")
    return df


def brigade() -> pd.DataFrame:
    df = pd.read_json(DATA / "r16_brigade_callouts.jsonl", lines=True, dtype=False)
    df["alarm"] = df["alarm"].astype(str)
    df["when"] = pd.to_datetime(df["alarm"], format="%Y-%m-%dT%H:%M")
    df["minutes"] = pd.to_numeric(
        df["response_min"].astype(str).str.strip().replace("n/a", ""), errors="coerce"
    )
    return df


def indicator(text: str) -> float | None:
    """Parse an indicator cell: '..' is missing, a footnote mark like '(e)' is dropped."""
    text = re.sub(r"\([a-z]\)", "", str(text)).strip()
    if text in ("..", ""):
        return None
    return float(text)


def education() -> pd.DataFrame:
    return pd.read_csv(DATA / "r16_education_indicators.csv", dtype=str, keep_default_na=False)


def edu_num(col: str, countries_only: bool = True) -> pd.Series:
    df = education()
    if countries_only:
        df = df[df["Country"] != "OECD average"]
    return df.set_index("Country")[col].map(indicator).astype(float)


def oecd(col: str) -> float:
    return edu_num(col, countries_only=False)["OECD average"]


def _meter_cell(date: str, col: str) -> str:
    df = meters()
    return df.loc[df["Date"] == date, col].iloc[0]


def _meter_value(date: str, col: str) -> float:
    df = meters()
    return float(df.loc[df["Date"] == date, col + " #"].iloc[0])


def _next_date(date: str) -> str:
    df = meters().sort_values("when").reset_index(drop=True)
    pos = df.index[df["Date"] == date][0]
    return df.loc[pos + 1, "Date"]


def _call_after(location: str) -> str:
    df = brigade().sort_values("when").reset_index(drop=True)
    pos = df.index[df["location"] == location][0]
    return df.loc[pos + 1, "call_id"]


ANSWERS: dict[str, Callable[[], object]] = {
    # --- r16_meter_readings.csv
    "What was the electricity reading on 05.03.2024?": lambda: _meter_cell("05.03.2024", ELEC),
    "how many times was the gas meter not read": lambda: int(meters()[GAS + " #"].isna().sum()),
    "On which date does the meter log show the lowest electricity used since the last reading?": lambda: (
        meters().loc[meters()[USED + " #"].idxmin(), "Date"]
    ),
    "total kWh used in 2024 according to the used since last column": lambda: float(
        meters().query("when.dt.year == 2024")[USED + " #"].sum()
    ),
    "What's our average electricity used since last reading, counting only rows that have a figure?": lambda: (
        float(meters()[USED + " #"].dropna().mean())
    ),
    "How much did the water meter go up between 05.01.2024 and 05.08.2024?": lambda: (
        _meter_value("05.08.2024", WATER) - _meter_value("05.01.2024", WATER)
    ),
    "which reading date comes right after 05.07.2023": lambda: _next_date("05.07.2023"),
    "How many rows in the meter log are dated between 01.03.2024 and 30.06.2024?": lambda: int(
        meters()["when"].between(pd.Timestamp("2024-03-01"), pd.Timestamp("2024-06-30")).sum()
    ),
    "how many of the readings did Tom take": lambda: int((meters()["Read by"] == "Tom").sum()),
    "Which period used more electricity, the one ending 05.01.2024 or the one ending 05.02.2024?": lambda: (
        max(["05.01.2024", "05.02.2024"], key=lambda d: _meter_value(d, USED))
    ),
    # --- r16_brigade_callouts.jsonl
    "How many traffic accidents did we turn out to?": lambda: int(
        (brigade()["type"] == "Traffic accident").sum()
    ),
    "how many call-outs have no response time recorded": lambda: int(brigade()["minutes"].isna().sum()),
    "Which call had the longest response time? Give the call ID.": lambda: brigade().loc[
        brigade()["minutes"].idxmax(), "call_id"
    ],
    "What was our average response time in minutes, leaving out calls where it was n/a?": lambda: round(
        float(brigade()["minutes"].dropna().mean()), 2
    ),
    "how many alarms came in during may 2024": lambda: int(
        ((brigade()["when"].dt.year == 2024) & (brigade()["when"].dt.month == 5)).sum()
    ),
    "What type of incident was the very first call-out of the year?": lambda: (
        brigade().sort_values("when").iloc[0]["type"]
    ),
    "What is the call ID of the call-out that came right after the structure fire at Hof Maier?": lambda: (
        _call_after("Hof Maier, Oberdorf 2")
    ),
    "calls with a response time over 11 minutes?": lambda: (
        brigade().loc[brigade()["minutes"] > 11, "call_id"].tolist()
    ),
    "total crew members sent out to grass fires": lambda: int(
        brigade().loc[brigade()["type"] == "Grass fire", "crew"].sum()
    ),
    "Where was the call at 2024-03-15T02:14?": lambda: (
        brigade().loc[brigade()["alarm"] == "2024-03-15T02:14", "location"].iloc[0]
    ),
    # --- r16_education_indicators.csv
    "What is Finland's mean PISA 2022 mathematics score?": lambda: (
        education().set_index("Country").loc["Finland", PISA]
    ),
    "which country spends the most per primary student": lambda: edu_num(PER_STUDENT).idxmax(),
    (
        "In which countries did the share of 25-34 year-olds with tertiary education fall between 2015 and 2022?"
    ): lambda: edu_num(CHANGE)[lambda s: s < 0].index.tolist(),
    (
        "How many countries, not counting the OECD average row, have no figure for early leavers "
        "from education and training?"
    ): lambda: int(edu_num(LEAVERS).isna().sum()),
    "countries spending more than 6% of GDP on educational institutions": lambda: edu_num(GDP)[
        lambda s: s > 6
    ].index.tolist(),
    (
        "What is the average lower secondary student-teacher ratio across the countries listed, "
        "excluding the OECD average and missing values?"
    ): lambda: round(float(edu_num(RATIO).dropna().mean()), 2),
    "How much higher is Germany's teacher salary after 15 years than the OECD average?": lambda: (
        edu_num(SALARY)["Germany"] - oecd(SALARY)
    ),
    "Who has the higher upper secondary completion rate, Korea or Ireland?": lambda: max(
        ["Korea", "Ireland"], key=lambda c: edu_num(COMPLETION)[c]
    ),
    "how many countries score above the OECD average in PISA maths": lambda: int(
        (edu_num(PISA) > oecd(PISA)).sum()
    ),
    "How many countries have a mean PISA maths score of exactly 489?": lambda: int(
        (edu_num(PISA) == 489).sum()
    ),
}
