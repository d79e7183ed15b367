"""Round 28 real-world answers: hand car wash sales, sports club bar stock take, railway station usage."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA_DIR = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: object) -> float:
    """Parse '$12.50', '-$2.00', '£0.85', '$15' into a float; blank or missing becomes NaN."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return float("nan")
    text = str(value).strip()
    if not text:
        return float("nan")
    sign = -1.0 if text.startswith("-") else 1.0
    digits = text.lstrip("+-").replace("$", "").replace("£", "").replace(",", "")
    return sign * float(digits)


def _count(value: object) -> float:
    """Parse '1,204', '+2', '-3', '0'; blank, 'n/a' or missing becomes NaN."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return float("nan")
    text = str(value).strip()
    if not text or text.lower() == "n/a":
        return float("nan")
    return float(text.replace(",", ""))


def _percent(value: object) -> float:
    text = str(value).strip()
    if not text or text.lower() == "n/a":
        return float("nan")
    return float(text.replace("%", ""))


def carwash() -> pd.DataFrame:
    with open(DATA_DIR / "r28_carwash_sales.jsonl", encoding="utf-8") as fh:
        records = [json.loads(line) for line in fh if line.strip()]
    df = pd.DataFrame(records)
    df["when"] = pd.to_datetime(df["time"], format="%Y-%m-%dT%H:%M")
    df["price_num"] = df["price"].map(_money)
    df["discount_num"] = df["loyalty_discount"].map(_money)
    df["voided"] = df["note"].fillna("").str.upper().str.startswith("VOID")
    return df


def bar() -> pd.DataFrame:
    df = pd.read_csv(DATA_DIR / "r28_clubhouse_bar_stocktake.csv", dtype=str, keep_default_na=False)
    df["opening"] = df["Opening Units"].map(_count)
    df["delivered"] = df["Delivered"].map(_count)
    df["closing"] = df["Closing Units"].map(_count)
    df["cost"] = df["Cost per Unit"].map(_money)
    df["variance"] = df["Variance (units)"].map(_count)
    df["last_delivery"] = pd.to_datetime(df["Last Delivery"].replace("", None), format="%d/%m/%Y")
    return df


def rail() -> pd.DataFrame:
    df = pd.read_csv(DATA_DIR / "r28_station_usage.tsv", sep="\t", dtype=str, keep_default_na=False)
    df["ee_2324"] = df["Entries & Exits 2023-24"].map(_count)
    df["ee_2223"] = df["Entries & Exits 2022-23"].map(_count)
    df["change"] = df["Change on last year"].map(_percent)
    df["interchanges"] = df["Interchanges"].map(_count)
    df["platforms"] = df["Platforms"].map(_count)
    return df


def _cw_row(ticket: int) -> pd.Series:
    df = carwash()
    return df[df["ticket"] == ticket].iloc[0]


def _cw_next_wash(ticket: int) -> str:
    df = carwash().sort_values("when").reset_index(drop=True)
    idx = df.index[df["ticket"] == ticket][0]
    return str(df.loc[idx + 1, "wash_type"])


def _cw_staff_total(name: str) -> float:
    df = carwash()
    return float(df.loc[df["staff"] == name, "price_num"].sum())


def _cw_last_on(day: str) -> str:
    df = carwash()
    sub = df[df["when"].dt.strftime("%Y-%m-%d") == day]
    return str(sub.sort_values("when").iloc[-1]["staff"])


def _bar_next(item: str) -> str:
    df = bar()
    idx = df.index[df["Item"] == item][0]
    return str(df.loc[idx + 1, "Item"])


def _bar_item(item: str) -> pd.Series:
    df = bar()
    return df[df["Item"] == item].iloc[0]


def _rail_row(station: str) -> pd.Series:
    df = rail()
    return df[df["Station"] == station].iloc[0]


def _cw_exterior_avg() -> float:
    df = carwash()
    sub = df[(df["wash_type"] == "Exterior") & ~df["voided"] & df["price_num"].notna()]
    return round(float(sub["price_num"].mean()), 2)


ANSWERS: dict[str, Callable[[], object]] = {
    # car wash
    "What vehicle type was ticket 1011?": lambda: str(_cw_row(1011)["vehicle"]),
    "how many full valets did we do": lambda: int((carwash()["wash_type"] == "Full Valet").sum()),
    "How many sales had a loyalty discount taken off?": lambda: int((carwash()["discount_num"] < 0).sum()),
    "Which ticket had the highest price?": lambda: str(
        carwash().loc[carwash()["price_num"].idxmax(), "ticket"]
    ),
    "what was the total of the listed prices on 7 July 2024 before any discounts": lambda: float(
        carwash().loc[lambda d: d["when"].dt.date == pd.Timestamp("2024-07-07").date(), "price_num"].sum()
    ),
    "Leaving out the voided sale, what was the average price of an exterior wash?": _cw_exterior_avg,
    "add up the loyalty discount column - what's the total?": lambda: float(carwash()["discount_num"].sum()),
    "Which staff member did the last wash of the day on 6 July 2024?": lambda: _cw_last_on("2024-07-06"),
    "what wash type was sold in the sale right after ticket 1006": lambda: _cw_next_wash(1006),
    "Who brought in more in listed prices before discounts, Kyle or Tomasz?": lambda: (
        "Kyle" if _cw_staff_total("Kyle") > _cw_staff_total("Tomasz") else "Tomasz"
    ),
    # bar stock take
    "closing units for Gordon's Gin (25ml)?": lambda: str(_bar_item("Gordon's Gin (25ml)")["Closing Units"]),
    "How many items do we have in the Spirits category?": lambda: int((bar()["Category"] == "Spirits").sum()),
    "how many items had nothing delivered this month": lambda: int(
        (bar()["delivered"].isna() | (bar()["delivered"] == 0)).sum()
    ),
    "Which item had the worst stock loss, i.e. the most negative variance in units?": lambda: str(
        bar().loc[bar()["variance"].idxmin(), "Item"]
    ),
    "What is the total number of opening units across our Spirits lines?": lambda: float(
        bar().loc[bar()["Category"] == "Spirits", "opening"].sum()
    ),
    "average cost per unit of the draught lines": lambda: round(
        float(bar().loc[bar()["Category"] == "Draught", "cost"].mean()), 2
    ),
    "Which items cost more than £1.00 per unit?": lambda: bar().loc[bar()["cost"] > 1.00, "Item"].tolist(),
    "which items had their last delivery on or after 20 June 2024": lambda: (
        bar().loc[bar()["last_delivery"] >= pd.Timestamp("2024-06-20"), "Item"].tolist()
    ),
    "By how many units was the Carling (pint) closing count higher than its opening count?": lambda: float(
        _bar_item("Carling (pint)")["closing"] - _bar_item("Carling (pint)")["opening"]
    ),
    "What item comes right after Corona 330ml in the stock list?": lambda: _bar_next("Corona 330ml"),
    # railway stations
    "which region is Glenross in": lambda: str(_rail_row("Glenross")["Region"]),
    "How many stations are in the South East region?": lambda: int((rail()["Region"] == "South East").sum()),
    "Which station had the most entries and exits in 2023-24?": lambda: str(
        rail().loc[rail()["ee_2324"].idxmax(), "Station"]
    ),
    "how many stations saw usage fall compared with the year before (a negative change)?": lambda: int(
        (rail()["change"] < 0).sum()
    ),
    "How many stations recorded zero interchange passengers?": lambda: int(
        (rail()["interchanges"] == 0).sum()
    ),
    "total interchanges for the stations in Scotland": lambda: float(
        rail().loc[rail()["Region"] == "Scotland", "interchanges"].sum()
    ),
    "What's the average number of platforms per station across the whole list?": lambda: round(
        float(rail()["platforms"].mean()), 2
    ),
    "How many more entries and exits did Lowther Street have than Kingsmere in 2023-24?": lambda: float(
        _rail_row("Lowther Street")["ee_2324"] - _rail_row("Kingsmere")["ee_2324"]
    ),
    "Which grew more on last year, Oakenshaw or Glenross?": lambda: (
        "Oakenshaw" if _rail_row("Oakenshaw")["change"] > _rail_row("Glenross")["change"] else "Glenross"
    ),
    "list the stations with more than 5,000,000 entries and exits in 2023-24": lambda: (
        rail().loc[rail()["ee_2324"] > 5_000_000, "Station"].tolist()
    ),
}
