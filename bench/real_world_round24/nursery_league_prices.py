"""Round 24 (w112) answers for the nursery register, darts league and price tracker tables."""

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _pounds(text: object) -> float | None:
    if pd.isna(text) or not str(text).strip():
        return None
    return float(str(text).replace("£", "").replace(",", "").strip())


def _euro(text: object) -> float | None:
    """Parse '2,49 €', '-0,20 €' or '+5,3 %' into a float."""
    if pd.isna(text) or not str(text).strip():
        return None
    cleaned = str(text).replace("€", "").replace("%", "").replace("\u00a0", "").strip()
    return float(cleaned.replace(".", "").replace(",", "."))


def nursery() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r24_nursery_attendance.csv", dtype=str, keep_default_na=False)
    df["hours_n"] = pd.to_numeric(df["Hours"].str.strip().replace("", None))
    df["funded_n"] = pd.to_numeric(df["Funded Hours"].str.strip().replace("", None))
    df["fee_n"] = df["Fee Due"].map(_pounds)
    df["date_d"] = df["Date"].map(lambda s: datetime.strptime(s.strip(), "%a %d %b %Y"))
    df["late"] = df["Late Pickup"].str.strip().str.lower().isin(["y", "yes"])
    return df


def darts() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r24_darts_league.tsv", sep="\t", dtype=str, keep_default_na=False)
    for col in ["Pos", "P", "W", "L", "LF", "LA", "180s", "Pts"]:
        df[col + "_n"] = df[col].astype(int)
    df["diff_n"] = df["Legs +/-"].map(lambda s: int(s.replace("+", "")))
    df["hico_n"] = pd.to_numeric(df["HiCO"].where(df["HiCO"].str.strip() != "-"))
    return df


def prices() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r24_price_tracker.csv", sep=";", dtype=str, keep_default_na=False)
    df["price_n"] = df["Price"].map(_euro)
    df["unit_n"] = df["Price per kg/l"].map(_euro)
    df["chg_n"] = df["Change vs last month"].map(_euro)
    df["pct_n"] = df["Change %"].map(_euro)
    df["date_d"] = pd.to_datetime(df["Checked"], format="%d.%m.%Y")
    return df


def _nursery_after_absent() -> str:
    df = nursery()
    idx = df.index[df["Notes"].str.contains("absent", case=False)][0]
    return df.loc[idx + 1, "Child"]


def _darts_below(team: str) -> str:
    df = darts().sort_values("Pos_n").reset_index(drop=True)
    idx = df.index[df["Team"] == team][0]
    return df.loc[idx + 1, "Team"]


def _price_of(product: str, shop: str) -> pd.Series:
    df = prices()
    return df[(df["Product"] == product) & (df["Shop"] == shop)].iloc[0]


ANSWERS: dict[str, Callable[[], object]] = {
    # nursery register
    "What was Leo Okafor's fee due on Mon 11 Mar 2024?": lambda: (
        nursery().query("Child == 'Leo Okafor' and Date == 'Mon 11 Mar 2024'")["Fee Due"].iloc[0]
    ),
    "how many sessions were in the Babies room": lambda: int((nursery()["Room"] == "Babies").sum()),
    "How many times did a parent pick their child up late?": lambda: int(nursery()["late"].sum()),
    "How many sessions had nothing to pay because funded hours covered the whole fee?": lambda: int(
        (nursery()["fee_n"] == 0).sum()
    ),
    "What do we charge Oliver Brennan in total across all his sessions?": lambda: round(
        nursery().query("Child == 'Oliver Brennan'")["fee_n"].sum(), 2
    ),
    "average hours per session in the Babies room, not counting the absence": lambda: round(
        nursery().query("Room == 'Babies'")["hours_n"].dropna().mean(), 2
    ),
    "Which child had the highest single fee due on the register?": lambda: (
        nursery().sort_values("fee_n", ascending=False)["Child"].iloc[0]
    ),
    "How many sessions are on the register from Thu 7 Mar 2024 to Mon 11 Mar 2024 inclusive?": lambda: int(
        nursery()["date_d"].between(datetime(2024, 3, 7), datetime(2024, 3, 11)).sum()
    ),
    "date of freya lewis's last entry": lambda: (
        nursery().query("Child == 'Freya Lewis'").sort_values("date_d")["Date"].iloc[-1]
    ),
    "Which child is listed immediately after the absent child in our register?": _nursery_after_absent,
    # darts league
    "What was the highest checkout for the Fox & Hounds?": lambda: (
        darts().query("Team == 'Fox & Hounds'")["HiCO"].iloc[0]
    ),
    "which team hit the most 180s": lambda: darts().sort_values("180s_n", ascending=False)["Team"].iloc[0],
    "How many teams have a negative leg difference?": lambda: int((darts()["diff_n"] < 0).sum()),
    "Which team has the worst leg difference in the league?": lambda: (
        darts().sort_values("diff_n")["Team"].iloc[0]
    ),
    "total 180s thrown across the whole league": lambda: int(darts()["180s_n"].sum()),
    "How many more legs did The Plough win than Black Horse?": lambda: int(
        darts().set_index("Team").loc["The Plough", "LF_n"]
        - darts().set_index("Team").loc["Black Horse", "LF_n"]
    ),
    "Which had more 180s, White Hart or Black Horse?": lambda: (
        darts()
        .query("Team in ['White Hart', 'Black Horse']")
        .sort_values("180s_n", ascending=False)["Team"]
        .iloc[0]
    ),
    "Which teams have won more than 80 legs?": lambda: darts().query("LF_n > 80")["Team"].tolist(),
    "We're Crown & Anchor - which team sits directly below us in the table?": lambda: _darts_below(
        "Crown & Anchor"
    ),
    "What is the average highest checkout over the teams that have one recorded?": lambda: round(
        darts()["hico_n"].dropna().mean(), 2
    ),
    # price tracker
    "What does Carrefour charge for olive oil?": lambda: _price_of("Olive oil", "Carrefour")["Price"],
    "Which shop had the largest percentage price increase on any item compared with last month?": lambda: (
        prices().sort_values("pct_n", ascending=False)["Shop"].iloc[0]
    ),
    "how many items got cheaper than last month": lambda: int((prices()["chg_n"] < 0).sum()),
    "How many items were out of stock when we checked?": lambda: int(prices()["price_n"].isna().sum()),
    "average price of whole milk across the shops": lambda: round(
        prices().query("Product == 'Whole milk'")["price_n"].mean(), 2
    ),
    "At which shops is olive oil under 9 € per litre?": lambda: (
        prices().query("Product == 'Olive oil' and unit_n < 9")["Shop"].tolist()
    ),
    "How much more does Gouda cost at Spar than at Lidl?": lambda: round(
        _price_of("Gouda", "Spar")["price_n"] - _price_of("Gouda", "Lidl")["price_n"], 2
    ),
    "Orange juice per litre: which is cheaper, Aldi or Spar?": lambda: (
        prices()
        .query("Product == 'Orange juice' and Shop in ['Aldi', 'Spar']")
        .sort_values("unit_n")["Shop"]
        .iloc[0]
    ),
    "How many prices were checked in February 2024?": lambda: int(
        ((prices()["date_d"].dt.year == 2024) & (prices()["date_d"].dt.month == 2)).sum()
    ),
    "what's the total of all the Aldi prices on our list": lambda: round(
        prices().query("Shop == 'Aldi'")["price_n"].sum(), 2
    ),
}
