"""Reference answers for round-15 questions on the airline, school fundraiser and energy tables."""

from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd

DATA_DIR = Path(__file__).resolve().parents[2] / "examples" / "real"

AIRLINE = "r15_airline_ontime.csv"
SCHOOL = "r15_school_fundraising.csv"
ENERGY = "r15_energy_indicators.csv"

ENERGY_COLS = {
    "pop": "Population (thousands, 2022)",
    "gdp": "GDP per capita (current US$, 2022)",
    "tes": "Total energy supply (PJ, 2022)",
    "renew": "Electricity from renewables (% of total, 2022)",
    "co2": "CO2 emissions per capita (t)",
    "access": "Access to electricity (% of population)",
    "imports": "Net energy imports (% of energy use)",
}


def _raw(name: str) -> pd.DataFrame:
    return pd.read_csv(DATA_DIR / name, dtype=str, keep_default_na=False)


def _money(value: str) -> float:
    text = value.strip().replace("$", "").replace(",", "")
    return float(text) if text else float("nan")


def _number(value: str) -> float:
    text = value.strip().replace(",", "")
    return float("nan") if text in ("", "..") else float(text)


def _school_date(value: str) -> pd.Timestamp:
    return pd.to_datetime(value.strip().replace("Sept ", "Sep "), format="%b %d, %Y")


@cache
def airline() -> pd.DataFrame:
    df = _raw(AIRLINE)
    df["month_dt"] = pd.to_datetime(df["Month"], format="%b-%y")
    df["flights"] = df["Flights Operated"].astype(int)
    df["ontime"] = df["On-time %"].str.rstrip("%").astype(float)
    df["delay"] = df["Avg Arrival Delay (min)"].astype(int)
    df["cancel"] = df["Cancellations"].astype(int)
    return df


@cache
def school() -> pd.DataFrame:
    df = _raw(SCHOOL)
    df["amount"] = df["Amount Raised"].map(_money)
    df["date"] = df["Date"].map(_school_date)
    return df


@cache
def energy() -> pd.DataFrame:
    df = _raw(ENERGY)
    for key, col in ENERGY_COLS.items():
        df[key] = df[col].map(_number)
    return df


def countries() -> pd.DataFrame:
    df = energy()
    return df[df["Country Name"] != "World"]


def _air(month: str, route: str) -> pd.Series:
    df = airline()
    return df[(df["Month"] == month) & (df["Route"] == route)].iloc[0]


def _fund(cls: str, event: str) -> pd.Series:
    df = school()
    return df[(df["Class"] == cls) & (df["Event"] == event)].iloc[0]


def _country(name: str) -> pd.Series:
    df = energy()
    return df[df["Country Name"] == name].iloc[0]


def _more(a: pd.Series, b: pd.Series, col: str, label: str) -> str:
    return a[label] if a[col] > b[col] else b[label]


def _most_recent_date() -> str:
    df = school()
    return df.loc[df["date"].idxmax(), "Date"]


def _after(name: str) -> str:
    names = energy()["Country Name"].tolist()
    return names[names.index(name) + 1]


ANSWERS: dict[str, Callable[[], object]] = {
    # airline
    "What was the on-time percentage for SOU-JER in Mar-24?": lambda: _air("Mar-24", "SOU-JER")["On-time %"],
    "which route had the longest average arrival delay in any single month": lambda: airline().loc[
        airline()["delay"].idxmax(), "Route"
    ],
    "How many route-months arrived early on average, i.e. with a negative average arrival delay?": lambda: (
        int((airline()["delay"] < 0).sum())
    ),
    "In which month did SOU-JER have its most negative average arrival delay": lambda: (
        airline()[airline()["Route"] == "SOU-JER"].sort_values("delay").iloc[0]["Month"]
    ),
    "total cancellations across all routes and months": lambda: int(airline()["cancel"].sum()),
    "What was our average on-time % for BRS-EDI over the four months?": lambda: round(
        airline().loc[airline()["Route"] == "BRS-EDI", "ontime"].mean(), 2
    ),
    "How many more flights did we operate on BRS-EDI than on NQY-LGW in Apr-24?": lambda: int(
        _air("Apr-24", "BRS-EDI")["flights"] - _air("Apr-24", "NQY-LGW")["flights"]
    ),
    "Which had more cancellations in Feb-24, EXT-MAN or BRS-EDI?": lambda: _more(
        _air("Feb-24", "EXT-MAN"), _air("Feb-24", "BRS-EDI"), "cancel", "Route"
    ),
    "how many rows have an on-time rate below 85%": lambda: int((airline()["ontime"] < 85).sum()),
    "Which routes had at least one cancellation in Jan-24?": lambda: (
        airline()
        .loc[(airline()["month_dt"] == pd.Timestamp(2024, 1, 1)) & (airline()["cancel"] > 0), "Route"]
        .tolist()
    ),
    # school fundraising
    "How much did Year 4 Willow raise at the sponsored walk?": lambda: _fund(
        "Year 4 Willow", "Sponsored Walk"
    )["Amount Raised"],
    "how many bake sale entries are there": lambda: int((school()["Event"].str.lower() == "bake sale").sum()),
    "How many class totals for a single event came to more than $1,000?": lambda: int(
        (school()["amount"] > 1000).sum()
    ),
    "What's the total raised by Year 3 Oak across all of its events?": lambda: round(
        school().loc[school()["Class"] == "Year 3 Oak", "amount"].sum(), 2
    ),
    "average raffle amount per class": lambda: round(
        school().loc[school()["Event"] == "Raffle", "amount"].mean(), 2
    ),
    "Which class had the smallest raffle total?": lambda: (
        school().loc[school()["Event"] == "Raffle"].sort_values("amount").iloc[0]["Class"]
    ),
    "Who raised more at the raffle, Year 5 Maple or Year 3 Oak?": lambda: _more(
        _fund("Year 5 Maple", "Raffle"), _fund("Year 3 Oak", "Raffle"), "amount", "Class"
    ),
    "How much more did Year 6 Cedar raise than Year 1 Ash on the sponsored walk?": lambda: round(
        _fund("Year 6 Cedar", "Sponsored Walk")["amount"] - _fund("Year 1 Ash", "Sponsored Walk")["amount"], 2
    ),
    "Which classes held a fundraiser in February 2025?": lambda: (
        school()
        .loc[(school()["date"].dt.year == 2025) & (school()["date"].dt.month == 2), "Class"]
        .drop_duplicates()
        .tolist()
    ),
    "what date was our most recent fundraiser": _most_recent_date,
    # energy indicators
    "What share of Kenya's electricity came from renewables in 2022?": lambda: _country("Kenya")[
        ENERGY_COLS["renew"]
    ],
    "Which country has the highest CO2 emissions per capita?": lambda: (
        countries().sort_values("co2").iloc[-1]["Country Name"]
    ),
    "how many countries get more than half of their electricity from renewables": lambda: int(
        (countries()["renew"] > 50).sum()
    ),
    "Which countries are net energy exporters, meaning their net energy imports figure is negative?": lambda: (
        countries().loc[countries()["imports"] < 0, "Country Name"].tolist()
    ),
    "What is the average CO2 emissions per capita across the countries, not counting the World row?": lambda: (
        round(countries()["co2"].mean(), 2)
    ),
    "combined population in thousands of the African countries": lambda: int(
        countries().loc[countries()["Region"] == "Africa", "pop"].sum()
    ),
    "How much higher is GDP per capita in Norway than in Germany?": lambda: int(
        _country("Norway")["gdp"] - _country("Germany")["gdp"]
    ),
    "Which has a larger total energy supply, Japan or Saudi Arabia?": lambda: _more(
        _country("Japan"), _country("Saudi Arabia"), "tes", "Country Name"
    ),
    "Which countries have access to electricity below 90% of the population?": lambda: (
        countries().loc[countries()["access"] < 90, "Country Name"].tolist()
    ),
    "Which country comes right after Brazil in the list?": lambda: _after("Brazil"),
}
