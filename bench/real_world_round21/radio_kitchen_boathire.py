"""Round 21 real-world checks: radio playlist log, kitchen stock count and lake boat hire bookings."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: object) -> float:
    """Parse money such as '€6,400.00', '-$10.00', '+$8.00' or '1,140.80'; blank becomes NaN."""
    text = "" if value is None or (isinstance(value, float) and pd.isna(value)) else str(value).strip()
    if not text:
        return float("nan")
    sign = -1.0 if text.startswith("-") else 1.0
    digits = text.lstrip("+-").replace("€", "").replace("$", "").replace(",", "")
    return sign * float(digits)


def _seconds(duration: str) -> int:
    minutes, secs = str(duration).strip().split(":")
    return int(minutes) * 60 + int(secs)


def _clock_minutes(clock: str) -> int:
    hours, minutes = str(clock).strip().split(":")
    return int(hours) * 60 + int(minutes)


def radio() -> pd.DataFrame:
    with open(DATA / "r21_radio_playlist.json", encoding="utf-8") as handle:
        df = pd.DataFrame(json.load(handle))
    df["played"] = pd.to_datetime(df["Played At"], format="%d/%m/%Y %H:%M")
    df["secs"] = df["Duration"].map(_seconds)
    df["requested"] = df["Listener Request"].str.strip().str.lower().eq("yes")
    df["chart"] = pd.to_numeric(df["Chart Pos"].replace("", None), errors="coerce")
    return df


def kitchen() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r21_kitchen_stock.tsv", sep="\t", dtype=str, keep_default_na=False)
    df["qty"] = df["Qty On Hand"].astype(float)
    df["cost"] = df["Unit Cost"].map(_money)
    df["reorder"] = pd.to_numeric(df["Reorder Level"].replace("", None), errors="coerce")
    df["value"] = df["Stock Value (€)"].map(_money)
    df["cat"] = df["Category"].str.strip().str.lower()
    return df


def boats() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r21_boat_hire.csv", dtype=str, keep_default_na=False)
    df["day"] = pd.to_datetime(df["Date"], format="%B %d, %Y")
    df["price"] = df["Price"].map(_money)
    df["adj"] = df["Adjustment"].map(_money)
    df["hours"] = df["Hours"].astype(float)
    df["start_min"] = df["Start"].map(_clock_minutes)
    return df


def _row_after(df: pd.DataFrame, column: str, value: str, wanted: str) -> str:
    position = df.index[df[column] == value][0]
    return df.loc[position + 1, wanted]


def _first_song_on(day: str) -> str:
    df = radio()
    same_day = df[df["played"].dt.strftime("%Y-%m-%d") == day]
    return same_day.sort_values("played").iloc[0]["Track"]


def _last_booking_in_month(month: int) -> str:
    df = boats()
    return df[df["day"].dt.month == month].sort_values(["day", "start_min"]).iloc[-1]["Customer"]


def _more_plays(first: str, second: str) -> str:
    counts = radio()["Artist"].value_counts()
    return first if counts.get(first, 0) > counts.get(second, 0) else second


def _more_qty(first: str, second: str) -> str:
    qty = kitchen().set_index("Item")["qty"]
    return first if qty[first] > qty[second] else second


def _value_of(item: str) -> float:
    return float(kitchen().set_index("Item").loc[item, "value"])


def _price_of(customer: str) -> float:
    return float(boats().set_index("Customer").loc[customer, "price"])


ANSWERS: dict[str, Callable[[], object]] = {
    # radio playlist log
    "What chart position was listed for Ferris Wheel?": lambda: str(
        radio().set_index("Track").loc["Ferris Wheel", "Chart Pos"]
    ),
    "how many listener requests did we play": lambda: int(radio()["requested"].sum()),
    "Which track in the log runs the longest?": lambda: radio().sort_values("secs").iloc[-1]["Track"],
    "How many plays have no chart position given?": lambda: int(radio()["chart"].isna().sum()),
    "whats the average track duration in seconds": lambda: round(float(radio()["secs"].mean()), 2),
    "What was the first song played on 12/06/2024?": lambda: _first_song_on("2024-06-12"),
    "how many tracks went out on 11 June 2024": lambda: int(
        (radio()["played"].dt.date == pd.Timestamp("2024-06-11").date()).sum()
    ),
    "Which tracks are longer than four and a half minutes?": lambda: (
        radio().loc[radio()["secs"] > 270, "Track"].tolist()
    ),
    "What did we play straight after Winterkind?": lambda: _row_after(
        radio().sort_values("played").reset_index(drop=True), "Track", "Winterkind", "Track"
    ),
    "Who got more airplay in this log, Marla Vance or Sami Rahal?": lambda: _more_plays(
        "Marla Vance", "Sami Rahal"
    ),
    # kitchen stock count
    "What's the unit cost of the lamb rack?": lambda: (
        kitchen().set_index("Item").loc["Lamb rack", "Unit Cost"]
    ),
    "how many items are currently below their reorder level": lambda: int(
        (kitchen()["qty"] < kitchen()["reorder"]).sum()
    ),
    "What is the total value of all our stock?": lambda: round(float(kitchen()["value"].sum()), 2),
    "which item has the highest unit cost": lambda: kitchen().sort_values("cost").iloc[-1]["Item"],
    "What's the average unit cost of our fish items?": lambda: round(
        float(kitchen().loc[kitchen()["cat"] == "fish", "cost"].mean()), 2
    ),
    "How much more is the beef fillet stock worth than the lamb rack stock?": lambda: round(
        _value_of("Beef fillet") - _value_of("Lamb rack"), 2
    ),
    "how many dairy items are on the count sheet": lambda: int((kitchen()["cat"] == "dairy").sum()),
    "How many items don't have a reorder level set?": lambda: int(kitchen()["reorder"].isna().sum()),
    "Do we have more litres of Extra virgin olive oil or of Red wine (cooking)?": lambda: _more_qty(
        "Extra virgin olive oil", "Red wine (cooking)"
    ),
    "Which items have a stock value over 1,000?": lambda: (
        kitchen().loc[kitchen()["value"] > 1000, "Item"].tolist()
    ),
    # boat hire bookings
    "How many bookings had a negative adjustment?": lambda: int((boats()["adj"] < 0).sum()),
    "what do all the adjustments add up to": lambda: round(float(boats()["adj"].sum()), 2),
    "How many hires did we have in July 2024?": lambda: int(
        ((boats()["day"].dt.year == 2024) & (boats()["day"].dt.month == 7)).sum()
    ),
    "Which booking had the highest price before adjustments?": lambda: (
        boats().sort_values("price").iloc[-1]["Booking Ref"]
    ),
    "who had the last booking in june": lambda: _last_booking_in_month(6),
    "What time was Tariq Nasser's hire due to end?": lambda: (
        boats().set_index("Customer").loc["Tariq Nasser", "End"]
    ),
    "How much more did Dev Patel pay than Nora Blake, going by the price column?": lambda: (
        _price_of("Dev Patel") - _price_of("Nora Blake")
    ),
    "average hire length in hours for the pedalos": lambda: round(
        float(boats().loc[boats()["Boat Type"] == "Pedalo", "hours"].mean()), 2
    ),
    "Which bookings started before 10:00 in the morning?": lambda: (
        boats().loc[boats()["start_min"] < 600, "Booking Ref"].tolist()
    ),
    "Who was the customer on the booking right after Ben Carter's?": lambda: _row_after(
        boats().sort_values(["day", "start_min"]).reset_index(drop=True), "Customer", "Ben Carter", "Customer"
    ),
}
