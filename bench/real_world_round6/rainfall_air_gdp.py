"""Round six of the real-world set (rainfall, air, gdp): each answer recomputed with pandas by the question's
writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

from collections.abc import Callable
from datetime import date
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"


def load(name: str) -> pd.DataFrame:
    return pd.read_csv(HERE / name, dtype=str, keep_default_na=False)


def num(s: str):
    """Parse '1,045', '$45,123', '-3.2', '+5', '' -> float or None."""
    s = s.strip().replace("$", "").replace(",", "").replace("+", "")
    if s == "":
        return None
    return float(s)


def day(s: str) -> date:
    return date.fromisoformat(s.strip())


RAIN = load("rainfall_stations.csv")
AIR = load("city_air_quality.csv")
GDP = load("gdp_per_capita.csv")


def rain(station: str, col: str):
    return num(RAIN.loc[RAIN["Station"] == station, col].iloc[0])


def air_row(d: str) -> pd.Series:
    return AIR.loc[AIR["Date"] == d].iloc[0]


def gdp(country: str, col: str):
    return num(GDP.loc[GDP["Country Name"] == country, col].iloc[0])


def argbest(df: pd.DataFrame, key: str, col: str, largest: bool) -> str:
    vals = [(num(v), k) for k, v in zip(df[key], df[col], strict=False) if num(v) is not None]
    best = max(v for v, _ in vals) if largest else min(v for v, _ in vals)
    hits = [k for v, k in vals if v == best]
    assert len(hits) == 1, f"tie for {col}: {hits}"
    return hits[0]


def previous_of(df: pd.DataFrame, key: str, value: str) -> pd.Series:
    i = df.index[df[key] == value][0]
    return df.iloc[i - 1]


def next_of(df: pd.DataFrame, key: str, value: str) -> pd.Series:
    i = df.index[df[key] == value][0]
    return df.iloc[i + 1]


def nums(series) -> list:
    return [num(v) for v in series if num(v) is not None]


def in_range(d: str, start: str, end: str) -> bool:
    return day(start) <= day(d) <= day(end)


ANSWERS: dict[str, Callable[[], object]] = {
    # rainfall_stations.csv
    "What was the April rainfall at Kestrel Hill?": lambda: RAIN.loc[
        RAIN["Station"] == "Kestrel Hill", "Apr"
    ].iloc[0],
    "how many stations are in the Highlands region": lambda: int((RAIN["Region"] == "Highlands").sum()),
    "How many stations recorded more than 150 mm of rain in January?": lambda: sum(
        1 for v in RAIN["Jan"] if num(v) is not None and num(v) > 150
    ),
    "Which station was the driest in June?": lambda: argbest(RAIN, "Station", "Jun", largest=False),
    "which stations had a first-half-year total below 250 mm": lambda: [
        s for s, v in zip(RAIN["Station"], RAIN["H1 Total"], strict=False) if num(v) < 250
    ],
    "total march rainfall across the coastal stations": lambda: sum(
        nums(RAIN.loc[RAIN["Region"] == "Coastal", "Mar"])
    ),
    "What was the average February rainfall for stations in the North region?": lambda: round(
        sum(nums(RAIN.loc[RAIN["Region"] == "North", "Feb"]))
        / len(nums(RAIN.loc[RAIN["Region"] == "North", "Feb"])),
        2,
    ),
    "How much more rain fell at Harlow Bay than at Saltings in January?": lambda: (
        rain("Harlow Bay", "Jan") - rain("Saltings", "Jan")
    ),
    "which got more rain in May, Dunhill Farm or Millbrook?": lambda: (
        "Dunhill Farm" if rain("Dunhill Farm", "May") > rain("Millbrook", "May") else "Millbrook"
    ),
    "Which station is listed just before Glenvar Summit?": lambda: previous_of(
        RAIN, "Station", "Glenvar Summit"
    )["Station"],
    # city_air_quality.csv
    "What was the AQI on July 12?": lambda: air_row("2024-07-12")["AQI"],
    "how many days were rated good": lambda: int((AIR["Category"] == "Good").sum()),
    "On how many days was PM10 above 50?": lambda: sum(1 for v in AIR["PM10"] if num(v) > 50),
    "Which day had the highest fine particle (PM2.5) reading?": lambda: argbest(
        AIR, "Date", "PM2.5", largest=True
    ),
    "which day saw the biggest drop in AQI from the day before": lambda: argbest(
        AIR, "Date", "Change vs prev day", largest=False
    ),
    "How many days between July 10 and July 20 had an AQI over 100?": lambda: sum(
        1
        for d, a in zip(AIR["Date"], AIR["AQI"], strict=False)
        if in_range(d, "2024-07-10", "2024-07-20") and num(a) > 100
    ),
    "when was the first day rated unhealthy for sensitive groups": lambda: min(
        AIR.loc[AIR["Category"] == "Unhealthy for Sensitive Groups", "Date"], key=day
    ),
    "How much higher was PM2.5 on July 20 than on July 19?": lambda: (
        num(air_row("2024-07-20")["PM2.5"]) - num(air_row("2024-07-19")["PM2.5"])
    ),
    "average aqi for the month": lambda: round(sum(nums(AIR["AQI"])) / len(nums(AIR["AQI"])), 2),
    "What was the air quality category on the day after July 20?": lambda: next_of(AIR, "Date", "2024-07-20")[
        "Category"
    ],
    # gdp_per_capita.csv
    "What was Pavonia's GDP per capita in 2020?": lambda: GDP.loc[
        GDP["Country Name"] == "Pavonia", "2020"
    ].iloc[0],
    "Which country had the highest GDP per head in 2022?": lambda: argbest(
        GDP, "Country Name", "2022", largest=True
    ),
    "which country had the worst growth rate in 2022": lambda: argbest(
        GDP, "Country Name", "Growth 2022 (%)", largest=False
    ),
    "How many countries had negative growth in 2022?": lambda: sum(
        1 for v in GDP["Growth 2022 (%)"] if num(v) is not None and num(v) < 0
    ),
    "countries with gdp per capita under $2,000 in 2021": lambda: [
        c
        for c, v in zip(GDP["Country Name"], GDP["2021"], strict=False)
        if num(v) is not None and num(v) < 2000
    ],
    "What was the average 2019 GDP per capita across the countries that have a 2019 figure?": lambda: round(
        sum(nums(GDP["2019"])) / len(nums(GDP["2019"])), 2
    ),
    "How much higher was Quenland's GDP per capita than Rundell's in 2022?": lambda: (
        gdp("Quenland", "2022") - gdp("Rundell", "2022")
    ),
    "Which was richer per person in 2018, Jorvik Isles or Quenland?": lambda: (
        "Jorvik Isles" if gdp("Jorvik Isles", "2018") > gdp("Quenland", "2018") else "Quenland"
    ),
    "how many countries are missing a 2018 value": lambda: int((GDP["2018"].str.strip() == "").sum()),
    "Which countries shrank by more than 3% in 2022?": lambda: [
        c
        for c, v in zip(GDP["Country Name"], GDP["Growth 2022 (%)"], strict=False)
        if num(v) is not None and num(v) < -3
    ],
}
