"""Round 28 hand-written gold checks: tattoo appointments, vineyard harvest, coffee production."""

from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: object) -> float:
    """Parse '£1,050.00' / '€980.00' into a float; blank gives NaN."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return float("nan")
    text = str(value).strip().replace("£", "").replace("€", "").replace(",", "")
    return float(text) if text else float("nan")


def _number(value: object) -> float:
    """Parse '66,300', '+5.4', '61.2%' or blank into a float (NaN when blank)."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return float("nan")
    text = str(value).strip().replace(",", "").replace("%", "").replace("+", "")
    return float(text) if text else float("nan")


@cache
def tattoo() -> pd.DataFrame:
    df = pd.read_csv(
        REAL / "r28_tattoo_appointments.csv", encoding="utf-8-sig", dtype=str, keep_default_na=False
    )
    df["date"] = pd.to_datetime(df["Date"], format="%d/%m/%Y")
    df["hours"] = df["Session Hours"].astype(float)
    df["deposit"] = df["Deposit"].map(_money)
    df["balance"] = df["Balance Paid"].map(_money)
    return df


@cache
def vineyard() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r28_vineyard_harvest.xlsx", header=1)
    df["date"] = pd.to_datetime(df["Pick Date"].str.replace(".", "", regex=False), format="%b %d, %Y")
    df["tonnes"] = pd.to_numeric(df["Tonnes Picked"])
    df["brix"] = pd.to_numeric(df["Sugar (Brix)"])
    df["price"] = df["Price per Tonne"].map(_money)
    return df


@cache
def coffee() -> pd.DataFrame:
    df = pd.read_json(REAL / "r28_coffee_production.json", dtype=False)
    df["production"] = df["production_000_bags"].map(_number)
    df["change"] = df["change_yoy_pct"].map(_number)
    df["export"] = df["export_share"].map(_number)
    return df


def _one(df: pd.DataFrame, mask: pd.Series, column: str) -> object:
    hits = df.loc[mask, column]
    assert len(hits) == 1, (column, len(hits))
    return hits.iloc[0]


def _t_before(client: str) -> str:
    df = tattoo()
    idx = df.index[df["Client"] == client]
    assert len(idx) == 1
    return df.loc[idx[0] - 1, "Client"]


def _t_owen_diff() -> float:
    df = tattoo()
    owen = df[df["Client"] == "Owen"]
    june = _one(owen, owen["date"].dt.month == 6, "balance")
    feb = _one(owen, owen["date"].dt.month == 2, "balance")
    return june - feb


def _v_either(a: str, b: str) -> str:
    df = vineyard()
    va = _one(df, df["Block"] == a, "brix")
    vb = _one(df, df["Block"] == b, "brix")
    assert va != vb
    return a if va > vb else b


def _c_either(a: str, b: str) -> str:
    df = coffee()
    va = _one(df, df["country"] == a, "production")
    vb = _one(df, df["country"] == b, "production")
    assert va != vb
    return a if va > vb else b


ANSWERS: dict[str, Callable[[], object]] = {
    # tattoo appointments
    "What style did Chloe get?": lambda: _one(tattoo(), tattoo()["Client"] == "Chloe", "Style"),
    "how many appointments did Dex have": lambda: int((tattoo()["Artist"] == "Dex").sum()),
    "How many sessions ran longer than 3 hours?": lambda: int((tattoo()["hours"] > 3).sum()),
    "Which client paid the smallest balance?": lambda: tattoo().loc[tattoo()["balance"].idxmin(), "Client"],
    "What's the total of all the deposits we took?": lambda: float(tattoo()["deposit"].sum()),
    "what's the average session length in hours for blackwork tattoos": lambda: round(
        float(tattoo().loc[tattoo()["Style"] == "Blackwork", "hours"].mean()), 2
    ),
    "Which clients came in during April 2024?": lambda: (
        tattoo()
        .loc[(tattoo()["date"].dt.year == 2024) & (tattoo()["date"].dt.month == 4)]
        .sort_values("date")["Client"]
        .tolist()
    ),
    "who was booked in right before Isla": lambda: _t_before("Isla"),
    "How much more did Owen pay in balance at his June session than at his February one?": _t_owen_diff,
    "who was Kai's most recent client": lambda: (
        tattoo().loc[tattoo()["Artist"] == "Kai"].sort_values("date").iloc[-1]["Client"]
    ),
    # vineyard harvest
    "What was the Brix reading for Block 5 Upper?": lambda: float(
        _one(vineyard(), vineyard()["Block"] == "Block 5 Upper", "brix")
    ),
    "how many blocks are planted with merlot": lambda: int(
        (vineyard()["Variety"].str.lower() == "merlot").sum()
    ),
    "How many blocks came in at 24 Brix or higher?": lambda: int((vineyard()["brix"] >= 24).sum()),
    "Which block gave us the most tonnes?": lambda: vineyard().loc[vineyard()["tonnes"].idxmax(), "Block"],
    "total tonnes picked across all blocks": lambda: round(float(vineyard()["tonnes"].sum()), 2),
    "What was the average sugar level in Brix across our Chardonnay blocks?": lambda: round(
        float(vineyard().loc[vineyard()["Variety"] == "Chardonnay", "brix"].mean()), 2
    ),
    "Which block was picked first this season?": lambda: vineyard().loc[vineyard()["date"].idxmin(), "Block"],
    "which blocks were picked after October 1, 2024": lambda: (
        vineyard().loc[vineyard()["date"] > pd.Timestamp(2024, 10, 1)].sort_values("date")["Block"].tolist()
    ),
    "Which had higher sugar, Block 7 North or Block 8?": lambda: _v_either("Block 7 North", "Block 8"),
    "How many more tonnes did Block 1 North yield than Block 1 South?": lambda: round(
        float(
            _one(vineyard(), vineyard()["Block"] == "Block 1 North", "tonnes")
            - _one(vineyard(), vineyard()["Block"] == "Block 1 South", "tonnes")
        ),
        2,
    ),
    # coffee production
    "What is Peru's export share?": lambda: _one(coffee(), coffee()["country"] == "Peru", "export_share"),
    "How many countries saw production fall compared with the previous year?": lambda: int(
        (coffee()["change"] < 0).sum()
    ),
    "which country had the steepest drop in production": lambda: coffee().loc[
        coffee()["change"].idxmin(), "country"
    ],
    "What's the combined production of the African countries, in thousand bags?": lambda: float(
        coffee().loc[coffee()["region"] == "Africa", "production"].sum()
    ),
    "average export share for central american producers": lambda: round(
        float(coffee().loc[coffee()["region"] == "Central America", "export"].mean()), 2
    ),
    "Which countries exported less than half of their production?": lambda: (
        coffee().loc[coffee()["export"] < 50, "country"].tolist()
    ),
    "how many of the countries listed mainly grow robusta": lambda: int(
        (coffee()["main_type"].str.lower() == "robusta").sum()
    ),
    "Which produced more coffee, Uganda or India?": lambda: _c_either("Uganda", "India"),
    "How much more did Vietnam produce than Colombia?": lambda: float(
        _one(coffee(), coffee()["country"] == "Vietnam", "production")
        - _one(coffee(), coffee()["country"] == "Colombia", "production")
    ),
    "How many countries produced more than 5,000 thousand bags?": lambda: int(
        (coffee()["production"] > 5000).sum()
    ),
}
