"""Round 22 (w104) reference answers: choir festival scores, fleet fuel log, school bake sale takings."""

from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"

CHOIR = "r22_choir_festival_scores.csv"
FUEL = "r22_fleet_fuel_log.tsv"
BAKE = "r22_school_bake_sale.xlsx"


def money(value: object) -> float | None:
    """Parse '£68.20', '-£12.21', '50p', '£1' into pounds; blank gives None."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return None
    text = str(value).strip().replace(",", "")
    if not text:
        return None
    sign = -1.0 if text.startswith("-") else 1.0
    text = text.lstrip("-").strip()
    if text.endswith("p"):
        return sign * float(text[:-1]) / 100
    return sign * float(text.lstrip("£"))


def miles(value: object) -> float | None:
    """Parse '84,215 mi' into a number; blank gives None."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return None
    text = str(value).replace(",", "").replace("mi", "").strip()
    return float(text) if text else None


@cache
def choir() -> pd.DataFrame:
    df = pd.read_csv(DATA / CHOIR, dtype=str, keep_default_na=False)
    for col in ["Singers", "Judge A", "Judge B", "Judge C", "Total"]:
        df[col + "_n"] = pd.to_numeric(df[col].str.strip(), errors="coerce")
    df["competed"] = df["Rank"].str.strip() != "WD"
    return df


@cache
def fuel() -> pd.DataFrame:
    df = pd.read_csv(DATA / FUEL, sep="\t", dtype=str, keep_default_na=False)
    df["date"] = pd.to_datetime(df["Date"].str.strip(), format="%a %d %b %Y")
    df["litres"] = pd.to_numeric(df["Litres"])
    df["ppl"] = pd.to_numeric(df["Price/L"])
    df["cost"] = df["Cost"].map(money)
    df["odo"] = df["Odometer"].map(miles)
    return df


@cache
def bake() -> pd.DataFrame:
    raw = pd.read_excel(DATA / BAKE, header=None, dtype=object)
    header_row = raw.index[raw[0].astype(str).str.strip() == "Stall"][0]
    df = raw.iloc[header_row + 1 :].copy()
    df.columns = [str(c).strip() for c in raw.iloc[header_row]]
    df = df[df["Item"].notna()].reset_index(drop=True)
    df["price"] = df["Price"].map(money)
    df["takings"] = df["Takings"].map(money)
    for col in ["Qty Made", "Qty Sold", "Left Over"]:
        df[col] = pd.to_numeric(df[col])
    return df


def cell(df: pd.DataFrame, key_col: str, key: str, col: str) -> object:
    return df.loc[df[key_col] == key, col].iloc[0]


def choir_after(name: str) -> str:
    df = choir()
    pos = df.index[df["Choir"] == name][0]
    return df.loc[pos + 1, "Choir"]


def bake_before(item: str) -> str:
    df = bake()
    pos = df.index[df["Item"] == item][0]
    return df.loc[pos - 1, "Item"]


def last_june_vehicle() -> str:
    df = fuel()
    june = df[(df["date"].dt.year == 2024) & (df["date"].dt.month == 6)]
    return june.sort_values("date", kind="stable").iloc[-1]["Vehicle Reg"]


def wu70_miles() -> float:
    df = fuel()
    sub = df[(df["Vehicle Reg"] == "WU70 HMD") & df["odo"].notna()].sort_values("date")
    return sub["odo"].iloc[-1] - sub["odo"].iloc[0]


def more_litres(a: str, b: str) -> str:
    totals = fuel().groupby("Driver")["litres"].sum()
    return a if totals[a] > totals[b] else b


def fuel_between(start: str, end: str) -> int:
    df = fuel()
    return int(df["date"].between(pd.Timestamp(start), pd.Timestamp(end)).sum())


ANSWERS: dict[str, Callable[[], object]] = {
    # choir festival
    "What score did Judge B give Voices of Oakhollow?": lambda: cell(
        choir(), "Choir", "Voices of Oakhollow", "Judge B"
    ),
    "how many choirs entered the Male Voice category": lambda: int(
        (choir()["Category"] == "Male Voice").sum()
    ),
    "Which choir brought the most singers?": lambda: choir().loc[choir()["Singers_n"].idxmax(), "Choir"],
    "How many choirs ended up with a total score above 260?": lambda: int((choir()["Total_n"] > 260).sum()),
    "what was the average judge C mark across the youth choirs": lambda: round(
        choir().loc[choir()["Category"] == "Youth", "Judge C_n"].mean(), 2
    ),
    "Which did better overall, Fenwick Singers or Greystone Youth Chorus?": lambda: (
        choir().set_index("Choir").loc[["Fenwick Singers", "Greystone Youth Chorus"], "Total_n"].idxmax()
    ),
    "By how many points did Kelmsford Chorale's total beat Oakhollow Community Singers?": lambda: (
        cell(choir(), "Choir", "Kelmsford Chorale", "Total_n")
        - cell(choir(), "Choir", "Oakhollow Community Singers", "Total_n")
    ),
    "which choirs got under 85 from Judge A": lambda: (
        choir().loc[choir()["Judge A_n"] < 85, "Choir"].tolist()
    ),
    "Not counting the choir that withdrew, how many singers performed at our festival altogether?": lambda: (
        int(choir().loc[choir()["competed"], "Singers_n"].sum())
    ),
    "Which choir comes straight after Fenwick Singers on the results sheet?": lambda: choir_after(
        "Fenwick Singers"
    ),
    # fleet fuel log
    "odometer reading for YR21 TOP on Mon 17 Jun 2024?": lambda: (
        fuel()
        .loc[(fuel()["Vehicle Reg"] == "YR21 TOP") & (fuel()["Date"] == "Mon 17 Jun 2024"), "Odometer"]
        .iloc[0]
    ),
    "How many times did Tom Birch fill up?": lambda: int((fuel()["Driver"] == "Tom Birch").sum()),
    "What have we spent on fuel for KX19 ABC in total, counting the refund?": lambda: round(
        fuel().loc[fuel()["Vehicle Reg"] == "KX19 ABC", "cost"].sum(), 2
    ),
    "average cost per fill-up for BV17 XLE": lambda: round(
        fuel().loc[fuel()["Vehicle Reg"] == "BV17 XLE", "cost"].mean(), 2
    ),
    "On which date did we pay the highest price per litre?": lambda: fuel().loc[
        fuel()["ppl"].idxmax(), "Date"
    ],
    "which driver's entry has a negative cost": lambda: fuel().loc[fuel()["cost"] < 0, "Driver"].iloc[0],
    "How many fill-ups were logged from 19 June to 2 July 2024 inclusive?": lambda: fuel_between(
        "2024-06-19", "2024-07-02"
    ),
    "Going by the actual dates, which vehicle had the last fill-up in June 2024?": last_june_vehicle,
    "How many miles did WU70 HMD cover between its first and last fill-ups in the log?": wu70_miles,
    "who put more litres in overall, Gareth Lloyd or Priya Patel": lambda: more_litres(
        "Gareth Lloyd", "Priya Patel"
    ),
    # school bake sale
    "What price were the red velvet cupcakes?": lambda: cell(bake(), "Item", "Red velvet cupcakes", "Price"),
    "how many different items did Cupcake Corner have": lambda: int(
        bake().loc[bake()["Stall"] == "Cupcake Corner", "Item"].nunique()
    ),
    "How many items still haven't had their takings counted?": lambda: int(bake()["takings"].isna().sum()),
    "What are our total takings so far from the items that have been counted?": lambda: round(
        bake()["takings"].sum(), 2
    ),
    "Which item had the most left over at the end?": lambda: bake().loc[bake()["Left Over"].idxmax(), "Item"],
    "which items were priced at more than £1": lambda: bake().loc[bake()["price"] > 1, "Item"].tolist(),
    "On Cake Table B, what was the average number sold per item?": lambda: round(
        bake().loc[bake()["Stall"] == "Cake Table B", "Qty Sold"].mean(), 2
    ),
    "Which sold more, the gingerbread men or the rice krispie cakes?": lambda: (
        bake()
        .set_index("Item")
        .loc[["Gingerbread men", "Rice krispie cakes"], "Qty Sold"]
        .astype(float)
        .idxmax()
    ),
    "what item is listed just before the cheese scones": lambda: bake_before("Cheese scones"),
    "How many more vanilla cupcakes were made than red velvet ones?": lambda: int(
        cell(bake(), "Item", "Vanilla cupcakes", "Qty Made")
        - cell(bake(), "Item", "Red velvet cupcakes", "Qty Made")
    ),
}
