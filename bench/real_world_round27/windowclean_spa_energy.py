"""Round 27 (w121) answers: window-cleaning round, hotel spa bookings, household energy by country."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: object) -> float | None:
    """Parse '£18.00', '€65.00', '-€10.00' into a float; blank -> None."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return None
    text = str(value).strip()
    if not text:
        return None
    negative = text.startswith("-")
    digits = text.lstrip("-").lstrip("£€$").replace(",", "")
    amount = float(digits)
    return -amount if negative else amount


def _number(value: object) -> float | None:
    """Parse '5,432', '34.5%', '-2.1'; blank -> None."""
    if value is None:
        return None
    text = str(value).strip().rstrip("%").replace(",", "")
    return float(text) if text else None


@cache
def window() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r27_window_round.csv", dtype=str, keep_default_na=False)
    df["date"] = pd.to_datetime(df["Visit Date"], format="%d/%m/%Y")
    df["price"] = df["Price"].map(_money)
    df["tip"] = df["Tip"].map(_money)
    return df


@cache
def spa() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r27_spa_bookings.xlsx", dtype=str)
    df["date"] = pd.to_datetime(df["Date"].str.replace(".", "", regex=False), format="%b %d, %Y")
    df["mins"] = df["Duration (mins)"].astype(int)
    df["price"] = df["Price"].map(_money)
    df["voucher"] = df["Voucher"].map(_money)
    return df


@cache
def energy() -> pd.DataFrame:
    records = json.loads((REAL / "r27_household_energy.json").read_text(encoding="utf-8"))
    df = pd.DataFrame(records)
    df["kwh"] = df["Household kWh per person"].map(_number)
    df["renew"] = df["Renewables share"].map(_number)
    df["change"] = df["Change since 2019 (%)"].map(_number)
    return df


def _w_row(col: str, value: str) -> pd.Series:
    df = window()
    return df[df[col] == value].iloc[0]


def _previous(df: pd.DataFrame, col: str, value: str, out: str) -> str:
    idx = df.index[df[col] == value][0]
    return str(df.loc[df.index[df.index.get_loc(idx) - 1], out])


def _s_guest(guest: str) -> pd.Series:
    df = spa()
    return df[df["Guest"] == guest].iloc[0]


def _e_row(country: str) -> pd.Series:
    df = energy()
    return df[df["Country"] == country].iloc[0]


def _either(df: pd.DataFrame, key: str, val: str, a: str, b: str) -> str:
    va = df.loc[df[key] == a, val].sum()
    vb = df.loc[df[key] == b, val].sum()
    return a if va > vb else b


ANSWERS: dict[str, Callable[[], object]] = {
    # window cleaning round (CSV)
    "What price do we charge at 88 High Street?": lambda: str(_w_row("Address", "88 High Street")["Price"]),
    "how many visits are marked as not paid": lambda: int(
        (window()["Paid"].str.strip().str.upper() == "N").sum()
    ),
    "How many jobs on the round are priced under £20?": lambda: int((window()["price"] < 20).sum()),
    "how much money is still owed to us from the visits marked unpaid": lambda: float(
        window().loc[window()["Paid"] == "N", "price"].sum()
    ),
    "What's the average tip, counting only the visits where a tip was actually given?": lambda: round(
        float(window()["tip"].dropna().mean()), 2
    ),
    "which customer is our most expensive job": lambda: str(
        window().loc[window()["price"].idxmax(), "Customer"]
    ),
    "Which customers did we visit in October 2024?": lambda: (
        window()
        .loc[(window()["date"].dt.year == 2024) & (window()["date"].dt.month == 10), "Customer"]
        .tolist()
    ),
    "what address did we do just before Mrs Ingram": lambda: _previous(
        window(), "Customer", "Mrs Ingram", "Address"
    ),
    "Who left the bigger tip, The Dunmores or P. Sharma?": lambda: _either(
        window(), "Customer", "tip", "The Dunmores", "P. Sharma"
    ),
    "how much more does Dr Lowe pay than Mr Hughes": lambda: float(
        _w_row("Customer", "Dr Lowe")["price"] - _w_row("Customer", "Mr Hughes")["price"]
    ),
    # hotel spa bookings (XLSX)
    "Which treatment did Mr O. Mensah book?": lambda: str(_s_guest("Mr O. Mensah")["Treatment"]),
    "how many bookings did Aoife have": lambda: int((spa()["Therapist"] == "Aoife").sum()),
    "Total minutes booked with Chiara?": lambda: int(spa().loc[spa()["Therapist"] == "Chiara", "mins"].sum()),
    "which guest got the biggest voucher discount": lambda: str(
        spa().loc[spa()["voucher"].idxmin(), "Guest"]
    ),
    "What is the average duration in minutes of our massage bookings (any treatment with Massage in the name)?": (
        lambda: round(float(spa().loc[spa()["Treatment"].str.contains("Massage"), "mins"].mean()), 2)
    ),
    "list the booking refs from February 2024": lambda: (
        spa().loc[(spa()["date"].dt.year == 2024) & (spa()["date"].dt.month == 2), "Booking Ref"].tolist()
    ),
    "Most expensive treatment booked?": lambda: str(spa().loc[spa()["price"].idxmax(), "Treatment"]),
    "who was the last guest we had in March": lambda: str(
        spa().loc[spa()["date"].dt.month == 3].sort_values("date", kind="stable").iloc[-1]["Guest"]
    ),
    "Which guests booked a treatment priced at more than €90.00?": lambda: (
        spa().loc[spa()["price"] > 90, "Guest"].tolist()
    ),
    "Who had more minutes booked in total, Sofia or Marek?": lambda: _either(
        spa(), "Therapist", "mins", "Sofia", "Marek"
    ),
    # household energy by country (JSON)
    "what is Ireland's renewables share": lambda: str(_e_row("Ireland")["Renewables share"]),
    "How many countries are listed under Southern Europe?": lambda: int(
        (energy()["Region"] == "Southern Europe").sum()
    ),
    "Which country cut its household energy use the most since 2019?": lambda: str(
        energy().loc[energy()["change"].idxmin(), "Country"]
    ),
    "which country uses the least household electricity per person": lambda: str(
        energy().loc[energy()["kwh"].idxmin(), "Country"]
    ),
    "What is the average renewables share for the Northern Europe countries?": lambda: round(
        float(energy().loc[energy()["Region"] == "Northern Europe", "renew"].mean()), 2
    ),
    "how many countries get more than 50% from renewables": lambda: int((energy()["renew"] > 50).sum()),
    "Which countries use more than 2,000 kWh per person at home?": lambda: (
        energy().loc[energy()["kwh"] > 2000, "Country"].tolist()
    ),
    "add up the household kWh per person for all the Southern Europe countries": lambda: float(
        energy().loc[energy()["Region"] == "Southern Europe", "kwh"].sum()
    ),
    "How many more kWh per person does Norway use than Sweden?": lambda: float(
        _e_row("Norway")["kwh"] - _e_row("Sweden")["kwh"]
    ),
    "who has the higher renewables share, Spain or Germany": lambda: _either(
        energy(), "Country", "renew", "Spain", "Germany"
    ),
}
