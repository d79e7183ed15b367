"""Round 20 real-world checks: car park occupancy log, bike shop service bookings, ward recycling tonnages."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
CARPARK = "r20_carpark_occupancy.csv"
BIKESHOP = "r20_bikeshop_service.tsv"
RECYCLING = "r20_recycling_tonnages.xlsx"


def _pct(text: object) -> float:
    """'87.5%' / '+3.2%' / '-1.5%' -> float percent; blank -> NaN."""
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return float("nan")
    s = str(text).strip().replace("%", "").replace("+", "")
    return float(s) if s else float("nan")


def _euro(text: object) -> float:
    """German money like '1.249,00 €' -> 1249.0."""
    s = str(text).replace("€", "").replace("\u00a0", "").strip()
    return float(s.replace(".", "").replace(",", "."))


@cache
def carpark() -> pd.DataFrame:
    df = pd.read_csv(REAL / CARPARK, dtype=str, keep_default_na=False)
    df["time"] = pd.to_datetime(df["Reading time"], format="%Y-%m-%dT%H:%M")
    df["free"] = pd.to_numeric(df["Spaces free"].replace("", None))
    df["occ"] = df["Occupancy"].map(lambda s: _pct(s) if s else float("nan"))
    return df


@cache
def bikeshop() -> pd.DataFrame:
    df = pd.read_csv(REAL / BIKESHOP, sep="\t", dtype=str, keep_default_na=False, encoding="utf-8")
    df["booked"] = pd.to_datetime(df["Booking date"], format="%d.%m.%Y")
    df["pickup"] = pd.to_datetime(df["Pickup date"].replace("", None), format="%d.%m.%Y")
    df["price"] = df["Price (incl. VAT)"].map(_euro)
    return df


@cache
def recycling() -> pd.DataFrame:
    df = pd.read_excel(REAL / RECYCLING, header=1)
    df = df[df["Ward code"].notna()].copy()  # drop the borough total line
    df["change"] = df["Change on last year"].map(_pct)
    df["contam"] = df["Contamination rate"].map(_pct)
    return df.reset_index(drop=True)


def _cp_at(stamp: str) -> pd.DataFrame:
    df = carpark()
    return df[df["time"] == pd.Timestamp(stamp)]


def _cp_cell(stamp: str, level: str, col: str) -> object:
    df = _cp_at(stamp)
    return df.loc[df["Level"] == level, col].iloc[0]


def _cp_next_b1() -> str:
    b1 = carpark()[carpark()["Level"] == "B1"].sort_values("time")
    later = b1[b1["time"] > pd.Timestamp("2024-05-04T10:00")]
    return later["Occupancy"].iloc[0]


def _bike_done_total(mechanic: str) -> float:
    df = bikeshop()
    return df.loc[(df["Status"] == "Done") & (df["Mechanic"] == mechanic), "price"].sum()


def _ward(name: str, col: str) -> object:
    df = recycling()
    return df.loc[df["Ward"] == name, col].iloc[0]


ANSWERS: dict[str, Callable[[], object]] = {
    # car park
    "What was the occupancy on L2 at 2024-05-04T10:00?": lambda: _cp_cell(
        "2024-05-04T10:00", "L2", "Occupancy"
    ),
    "how many readings are blank because a sensor was offline": lambda: int(carpark()["free"].isna().sum()),
    "At what reading time did any single level have the most free spaces?": lambda: carpark().loc[
        carpark()["free"].idxmax(), "Reading time"
    ],
    "What was the average occupancy of L1, leaving out the reading where its sensor was offline?": lambda: (
        round(carpark().loc[carpark()["Level"] == "L1", "occ"].dropna().mean(), 2)
    ),
    "total free spaces across all levels at 2024-05-06T12:00": lambda: int(
        _cp_at("2024-05-06T12:00")["free"].sum()
    ),
    "How many free spaces were recorded in total across all readings on 3 May 2024?": lambda: int(
        carpark().loc[carpark()["time"].dt.date == pd.Timestamp("2024-05-03").date(), "free"].sum()
    ),
    "Which levels were more than 90% full at 2024-05-04T10:00?": lambda: (
        _cp_at("2024-05-04T10:00").query("occ > 90")["Level"].tolist()
    ),
    "how many more spaces were free on L2 than on L1 at 2024-05-06T08:15": lambda: int(
        _cp_cell("2024-05-06T08:15", "L2", "free") - _cp_cell("2024-05-06T08:15", "L1", "free")
    ),
    "For level B1, what was the occupancy in the reading that came straight after the 2024-05-04T10:00 one?": (
        _cp_next_b1
    ),
    "At 2024-05-06T12:00 which level was busier, L1 or B1?": lambda: (
        _cp_at("2024-05-06T12:00").query("Level in ['L1', 'B1']").sort_values("occ")["Level"].iloc[-1]
    ),
    # bike shop
    "What was the price of booking B-2407?": lambda: (
        bikeshop().set_index("Booking no").loc["B-2407", "Price (incl. VAT)"]
    ),
    "how many of our bookings are still open": lambda: int((bikeshop()["Status"] == "Open").sum()),
    "How many bookings have no pickup date filled in?": lambda: int(bikeshop()["pickup"].isna().sum()),
    "What is the total we charged for all bookings marked Done?": lambda: round(
        bikeshop().loc[bikeshop()["Status"] == "Done", "price"].sum(), 2
    ),
    "average price of a Basic service": lambda: round(
        bikeshop().loc[bikeshop()["Service"] == "Basic service", "price"].mean(), 2
    ),
    "Which customer had the most expensive booking?": lambda: bikeshop().loc[
        bikeshop()["price"].idxmax(), "Customer"
    ],
    "How many service bookings did we take in April 2024?": lambda: int(
        ((bikeshop()["booked"].dt.year == 2024) & (bikeshop()["booked"].dt.month == 4)).sum()
    ),
    "which bookings cost more than 130 €": lambda: (
        bikeshop().loc[bikeshop()["price"] > 130, "Booking no"].tolist()
    ),
    "On what date was the most recent booking made?": lambda: bikeshop().loc[
        bikeshop()["booked"].idxmax(), "Booking date"
    ],
    "Counting only Done jobs, whose bookings add up to more money, Lukas or Mara?": lambda: max(
        ["Lukas", "Mara"], key=_bike_done_total
    ),
    # recycling
    "Which wards recycled less than the year before?": lambda: (
        recycling().loc[recycling()["change"] < 0, "Ward"].tolist()
    ),
    "which ward had the biggest drop on last year": lambda: recycling().loc[
        recycling()["change"].idxmin(), "Ward"
    ],
    "What is the contamination rate for Harbour?": lambda: _ward("Harbour", "Contamination rate"),
    "Which ward had the highest total recycled tonnage?": lambda: recycling().loc[
        recycling()["Total recycled (t)"].idxmax(), "Ward"
    ],
    "How many wards have a contamination rate above 8%?": lambda: int((recycling()["contam"] > 8).sum()),
    "total food waste tonnes for all wards combined": lambda: round(recycling()["Food waste (t)"].sum(), 1),
    "What's the average garden waste tonnage per ward, ignoring the ward with no garden figure?": lambda: (
        round(recycling()["Garden waste (t)"].dropna().mean(), 2)
    ),
    "How many more tonnes of dry recycling did Northfields collect than Castle?": lambda: round(
        _ward("Northfields", "Dry recycling (t)") - _ward("Castle", "Dry recycling (t)"), 1
    ),
    "Which ward has the lower contamination rate, Greenhill or Dene Park?": lambda: min(
        ["Greenhill", "Dene Park"], key=lambda w: _ward(w, "contam")
    ),
    "which wards recycled over 1,200 tonnes in total": lambda: (
        recycling().loc[recycling()["Total recycled (t)"] > 1200, "Ward"].tolist()
    ),
}
