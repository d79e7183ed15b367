"""Reference answers (pandas) for the round-12 regatta, solar log and bookshop tables (w64)."""

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _seconds(text: object) -> float:
    """Parse `h:mm:ss` or `mm:ss` into seconds; blank gives NaN."""
    if pd.isna(text) or str(text).strip() == "":
        return float("nan")
    parts = [int(p) for p in str(text).strip().split(":")]
    if len(parts) == 2:
        parts = [0, *parts]
    hours, minutes, secs = parts
    return hours * 3600 + minutes * 60 + secs


def _number(text: object) -> float:
    """Parse `+10.4`, `-6.7`, `29` or blank into a float."""
    if pd.isna(text) or str(text).strip() == "":
        return float("nan")
    return float(str(text).strip().replace("+", "").replace(",", ""))


def _money(text: object) -> float:
    """Parse `£12.99` or `£26` into a float."""
    return float(str(text).strip().replace("£", "").replace(",", ""))


def regatta() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r12_regatta_results.csv", dtype=str, keep_default_na=False)
    df["elapsed_s"] = df["Elapsed (h:mm:ss)"].map(_seconds)
    df["corrected_s"] = df["Corrected"].map(_seconds)
    df["pts"] = df["Points"].map(_number)
    df["placed"] = df["Place"].str.strip().str.isdigit()
    return df


def solar() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r12_solar_log.csv", dtype=str, keep_default_na=False)
    df["day"] = df["Date"].map(lambda s: datetime.strptime(s.strip(), "%d %b %Y"))
    df["produced"] = df["Produced (kWh)"].map(_number)
    df["consumed"] = df["Consumed (kWh)"].map(_number)
    df["net"] = df["Net (kWh)"].map(_number)
    return df


def books() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r12_bookshop_sales.xlsx", dtype=str, keep_default_na=False)
    df["price"] = df["List Price"].map(_money)
    df["units"] = df["Units Sold"].astype(int)
    df["year"] = df["Pub. Year"].astype(int)
    return df


def _cell(df: pd.DataFrame, mask: pd.Series, col: str) -> str:
    rows = df.loc[mask, col]
    assert len(rows) == 1, rows
    return str(rows.iloc[0])


def _boat_after(name: str) -> str:
    df = regatta()
    pos = df.index[df["Boat"] == name][0]
    return df.loc[pos + 1, "Boat"]


def _weather_after_fault() -> str:
    df = solar().sort_values("day").reset_index(drop=True)
    pos = df.index[df["Notes"].str.contains("meter fault", case=False)][0]
    return df.loc[pos + 1, "Weather"]


def _units(title: str, fmt: str | None = None) -> int:
    df = books()
    mask = df["Title"] == title
    if fmt is not None:
        mask &= df["Format"] == fmt
    return int(df.loc[mask, "units"].sum())


def _produced_on(day: str) -> float:
    df = solar()
    return float(df.loc[df["Date"] == day, "produced"].iloc[0])


ANSWERS: dict[str, Callable[[], object]] = {
    # regatta
    "What was Kittiwake's corrected time?": lambda: _cell(
        regatta(), regatta()["Boat"] == "Kittiwake", "Corrected"
    ),
    "how many boats did not finish": lambda: int((regatta()["Place"] == "DNF").sum()),
    "Which boat had the fastest elapsed time?": lambda: regatta().loc[
        regatta()["elapsed_s"].idxmin(), "Boat"
    ],
    "Among the boats that were given a finishing place, how many had a corrected time under one hour?": lambda: (
        int((regatta()["placed"] & (regatta()["corrected_s"] < 3600)).sum())
    ),
    "what's the average points for the Sigma 33 boats": lambda: round(
        regatta().loc[regatta()["Class"] == "Sigma 33", "pts"].mean(), 2
    ),
    "How many seconds longer was Tern's elapsed time than Kittiwake's?": lambda: (
        regatta().set_index("Boat")["elapsed_s"]["Tern"]
        - regatta().set_index("Boat")["elapsed_s"]["Kittiwake"]
    ),
    "Which boat placed immediately after Belle Île?": lambda: _boat_after("Belle Île"),
    "Which took longer on elapsed time, Mischief or Zeezwaluw?": lambda: (
        regatta().set_index("Boat")["elapsed_s"][["Mischief", "Zeezwaluw"]].idxmax()
    ),
    "total points scored by our J/109 boats": lambda: (
        regatta().loc[regatta()["Class"] == "J/109", "pts"].sum()
    ),
    "Which boats have a corrected time later than 1:01:00?": lambda: (
        regatta().loc[regatta()["corrected_s"] > _seconds("1:01:00"), "Boat"].tolist()
    ),
    # solar
    "On how many days did we import power from the grid, i.e. the net was negative?": lambda: int(
        (solar()["net"] < 0).sum()
    ),
    "which day did the panels produce the most": lambda: solar().loc[solar()["produced"].idxmax(), "Date"],
    "What was the weather on 12 Jun 2024?": lambda: _cell(
        solar(), solar()["Date"] == "12 Jun 2024", "Weather"
    ),
    "How many days did the house consume more than 15 kWh?": lambda: int((solar()["consumed"] > 15).sum()),
    "Which dates in May 2024 were sunny?": lambda: (
        solar()
        .loc[(solar()["day"].dt.strftime("%Y-%m") == "2024-05") & (solar()["Weather"] == "Sunny"), "Date"]
        .tolist()
    ),
    "What's our total solar production for May 2024 in kWh?": lambda: round(
        solar().loc[solar()["day"].dt.strftime("%Y-%m") == "2024-05", "produced"].sum(), 2
    ),
    "average daily consumption in june": lambda: round(
        solar().loc[solar()["day"].dt.month == 6, "consumed"].mean(), 2
    ),
    "How much more did we produce on 13 Jun 2024 than on 3 Jun 2024?": lambda: round(
        _produced_on("13 Jun 2024") - _produced_on("3 Jun 2024"), 2
    ),
    "What was the weather the day after the meter fault?": _weather_after_fault,
    "how many rain days are in the log": lambda: int((solar()["Weather"].str.lower() == "rain").sum()),
    # bookshop
    "What is the ISBN of the paperback edition of A Short History of Tides?": lambda: _cell(
        books(),
        (books()["Title"] == "A Short History of Tides") & (books()["Format"] == "Paperback"),
        "ISBN-13",
    ),
    "how many eBook editions are in our sales list": lambda: int((books()["Format"] == "eBook").sum()),
    "Which title sold the most units?": lambda: books().groupby("Title")["units"].sum().idxmax(),
    "How many editions have a list price above £15?": lambda: int((books()["price"] > 15).sum()),
    "Which titles were published before 2018?": lambda: (
        books().loc[books()["year"] < 2018, "Title"].unique().tolist()
    ),
    "total units sold across all Harbour Press books": lambda: int(
        books().loc[books()["Publisher"] == "Harbour Press", "units"].sum()
    ),
    "What's the average list price of our hardbacks?": lambda: round(
        books().loc[books()["Format"] == "Hardback", "price"].mean(), 2
    ),
    "Which sold more units, Kitchen Garden Year or Stargazing for Beginners?": lambda: max(
        ["Kitchen Garden Year", "Stargazing for Beginners"], key=_units
    ),
    "which title was published earliest": lambda: books().loc[books()["year"].idxmin(), "Title"],
    "I'd like to know how many more units the paperback of The Salt Road sold compared with the hardback "
    "edition of the same book": lambda: (
        _units("The Salt Road", "Paperback") - _units("The Salt Road", "Hardback")
    ),
}
