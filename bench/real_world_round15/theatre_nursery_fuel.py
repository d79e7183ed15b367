"""Round 15 gold checks: theatre ticket sales (CSV), plant nursery stock (JSON), car fuel log (XLSX)."""

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(text: object) -> float:
    """Parse '£1,204.00' or '€1.689' into a float."""
    return float(str(text).replace("£", "").replace("€", "").replace(",", "").strip())


def theatre() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r15_theatre_ticket_sales.csv", dtype=str, keep_default_na=False)
    df["date"] = df["Performance Date"].map(lambda s: datetime.strptime(s, "%a %d %b %Y"))
    df["sold"] = df["Seats Sold"].astype(int)
    df["takings"] = df["Takings"].map(_money)
    return df


def nursery() -> pd.DataFrame:
    df = pd.read_json(REAL / "r15_plant_nursery_stock.json", dtype={"price": str})
    df["price_num"] = df["price"].astype(float)
    df["is_hardy"] = df["hardy"].str.strip().str.lower() == "yes"
    return df


def fuel() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r15_car_fuel_log.xlsx", header=1, dtype={"Odometer (km)": str})
    df["date"] = pd.to_datetime(df["Date"])
    df["odo"] = df["Odometer (km)"].str.replace(",", "").astype(int)
    df["ppl"] = df["Price per litre"].map(_money)
    return df


def _row(df: pd.DataFrame, mask: pd.Series) -> pd.Series:
    hits = df[mask]
    assert len(hits) == 1, len(hits)
    return hits.iloc[0]


def _next_after(df: pd.DataFrame, mask: pd.Series) -> pd.Series:
    pos = df.index.get_loc(_row(df, mask).name)
    return df.iloc[pos + 1]


def _show_total(name: str) -> float:
    t = theatre()
    return t.loc[t["Show"] == name, "takings"].sum()


def _either(a: tuple[str, float], b: tuple[str, float]) -> str:
    assert a[1] != b[1]
    return a[0] if a[1] > b[1] else b[0]


def _stock(name: str) -> float:
    n = nursery()
    return _row(n, n["plant"] == name)["stock"]


def _price(name: str) -> float:
    n = nursery()
    return _row(n, n["plant"] == name)["price_num"]


ANSWERS: dict[str, Callable[[], object]] = {
    # theatre
    "What were the takings for the Fri 13 Dec 2024 performance?": lambda: _row(
        theatre(), theatre()["Performance Date"] == "Fri 13 Dec 2024"
    )["Takings"],
    "how many Oliver! performances are listed": lambda: int((theatre()["Show"] == "Oliver!").sum()),
    "How many performances are marked SOLD OUT in the notes?": lambda: int(
        (theatre()["Notes"].str.strip().str.upper() == "SOLD OUT").sum()
    ),
    "Leaving out cancelled shows, which performance sold the fewest seats? Give its date.": lambda: (
        theatre()
        .loc[lambda d: d["Notes"].str.lower() != "cancelled"]
        .sort_values("sold")
        .iloc[0]["Performance Date"]
    ),
    "What did we take in total across all the Blithe Spirit performances?": lambda: _show_total(
        "Blithe Spirit"
    ),
    "average seats sold per performance for Abigail's Party": lambda: round(
        theatre().loc[lambda d: d["Show"] == "Abigail's Party", "sold"].mean(), 2
    ),
    "How much more did the 7:00 PM show on Sat 6 Jul 2024 take than the 2:00 PM matinee that day?": lambda: (
        _row(
            theatre(), (theatre()["Performance Date"] == "Sat 6 Jul 2024") & (theatre()["Time"] == "7:00 PM")
        )["takings"]
        - _row(
            theatre(), (theatre()["Performance Date"] == "Sat 6 Jul 2024") & (theatre()["Time"] == "2:00 PM")
        )["takings"]
    ),
    "what is the date of the performance listed right after Sun 7 Jul 2024": lambda: _next_after(
        theatre(), theatre()["Performance Date"] == "Sun 7 Jul 2024"
    )["Performance Date"],
    "How many performances are listed for December 2024?": lambda: int(
        theatre().loc[lambda d: (d["date"].dt.year == 2024) & (d["date"].dt.month == 12)].shape[0]
    ),
    "Which show brought in more money overall, Cinderella or Oliver!?": lambda: _either(
        ("Cinderella", _show_total("Cinderella")), ("Oliver!", _show_total("Oliver!"))
    ),
    # nursery
    "What's the price of Hosta 'Halcyon'?": lambda: _row(nursery(), nursery()["plant"] == "Hosta 'Halcyon'")[
        "price"
    ],
    "how many plants on the list are marked hardy": lambda: int(nursery()["is_hardy"].sum()),
    "How many plants have no stock count recorded?": lambda: int(nursery()["stock"].isna().sum()),
    "Of the plants in 2L pots, which one do we have the most of in stock?": lambda: (
        nursery().loc[lambda d: d["pot_size"] == "2L"].sort_values("stock", ascending=False).iloc[0]["plant"]
    ),
    "What is the average price of our 9cm pots?": lambda: round(
        nursery().loc[lambda d: d["pot_size"] == "9cm", "price_num"].mean(), 2
    ),
    "total number of plants in stock across the whole list, ignoring the blank counts": lambda: int(
        nursery()["stock"].sum()
    ),
    "Which plants cost more than 15.00? list them all": lambda: (
        nursery().loc[lambda d: d["price_num"] > 15, "plant"].tolist()
    ),
    "Which has more in stock, Thymus 'Silver Posie' or Heuchera 'Palace Purple'?": lambda: _either(
        ("Thymus 'Silver Posie'", _stock("Thymus 'Silver Posie'")),
        ("Heuchera 'Palace Purple'", _stock("Heuchera 'Palace Purple'")),
    ),
    "What's the first plant listed from Southcoast Plants?": lambda: (
        nursery().loc[lambda d: d["supplier"] == "Southcoast Plants"].iloc[0]["plant"]
    ),
    "how much dearer is Hebe 'Great Orme' than Rosmarinus officinalis": lambda: round(
        _price("Hebe 'Great Orme'") - _price("Rosmarinus officinalis"), 2
    ),
    # fuel
    "What did the odometer read when we filled up on 19 April 2024?": lambda: _row(
        fuel(), fuel()["date"] == pd.Timestamp(2024, 4, 19)
    )["Odometer (km)"],
    "how many times did we fill up at Circle K Naas Rd": lambda: int(
        (fuel()["Station"] == "Circle K Naas Rd").sum()
    ),
    "How many fill-ups were more than 45 litres?": lambda: int((fuel()["Litres"] > 45).sum()),
    "At which station did we pay the highest price per litre?": lambda: (
        fuel().sort_values("ppl", ascending=False).iloc[0]["Station"]
    ),
    "How many litres of fuel did we buy altogether over the whole log?": lambda: round(
        fuel()["Litres"].sum(), 2
    ),
    "what's our average number of litres per fill-up": lambda: round(fuel()["Litres"].mean(), 2),
    "How many kilometres did the car cover between the first fill-up on 6 January 2024 and the last one on "
    "17 October 2024?": lambda: int(
        _row(fuel(), fuel()["date"] == pd.Timestamp(2024, 10, 17))["odo"]
        - _row(fuel(), fuel()["date"] == pd.Timestamp(2024, 1, 6))["odo"]
    ),
    "How many litres went in at the fill-up right after the one on 14 July 2024?": lambda: _next_after(
        fuel(), fuel()["date"] == pd.Timestamp(2024, 7, 14)
    )["Litres"],
    "how much did we spend on fuel in August 2024": lambda: round(
        fuel().loc[lambda d: (d["date"].dt.year == 2024) & (d["date"].dt.month == 8), "Total cost"].sum(), 2
    ),
    "What was the odometer reading at our first fill-up at Texaco Newbridge?": lambda: (
        fuel().loc[lambda d: d["Station"] == "Texaco Newbridge"].sort_values("date").iloc[0]["Odometer (km)"]
    ),
}
