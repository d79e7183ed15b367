"""Round 24 (w109) answers for the garage job cards, rowing erg tests and auction lots tables."""

from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: object) -> float:
    """Parse '£1,204.50', '-£25.00', '£4,600' into a float; blank/None gives NaN."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return float("nan")
    text = str(value).strip().replace("£", "").replace(",", "")
    return float(text) if text else float("nan")


def _mmss(value: object) -> float:
    """Parse an erg time like '6:42.3' into seconds; blank gives NaN."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return float("nan")
    minutes, seconds = str(value).strip().split(":")
    return int(minutes) * 60 + float(seconds)


def _low_estimate(value: str) -> float:
    return _money(value.split("-")[0])


@cache
def garage() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r24_garage_job_cards.csv", dtype=str, keep_default_na=False)
    df["booked"] = pd.to_datetime(df["Booked In"], format="%d/%m/%Y")
    df["collected"] = pd.to_datetime(df["Collected"].replace("", None), format="%d/%m/%Y")
    df["hrs"] = df["Labour Hrs"].astype(float)
    for col in ["Labour", "Parts", "Discount", "VAT", "Total"]:
        df[col.lower() + "_n"] = df[col].map(_money)
    return df


@cache
def rowing() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r24_rowing_erg_tests.xlsx")
    df["secs"] = df["2k Time"].map(_mmss)
    df["date"] = pd.to_datetime(df["Test Date"], format="%d %b %Y")
    return df


@cache
def auction() -> pd.DataFrame:
    df = pd.read_json(REAL / "r24_auction_sold_lots.json", dtype=False)
    df["hammer"] = df["hammer_price"].map(_money)
    df["low"] = df["estimate"].map(_low_estimate)
    df["sold"] = pd.to_datetime(df["sold_date"], format="%Y-%m-%d")
    return df


def _g_most_recent() -> str:
    g = garage()
    return g.loc[g["booked"].idxmax(), "Reg"]


def _row_after(df: pd.DataFrame, col: str, name: str, out: str) -> str:
    pos = df.index[df[col] == name][0]
    return df.loc[pos + 1, out]


def _secs(name: str) -> float:
    r = rowing()
    return float(r.loc[r["Rower"] == name, "secs"].iloc[0])


def _watts_either(a: str, b: str) -> str:
    r = rowing().set_index("Rower")
    return a if r.loc[a, "Avg Watts"] > r.loc[b, "Avg Watts"] else b


ANSWERS: dict[str, Callable[[], object]] = {
    # garage job cards
    "what did the Land Rover Discovery 3 job come to in total": lambda: (
        garage().query("Make == 'Land Rover' and Model == 'Discovery 3'")["Total"].iloc[0]
    ),
    "How many job cards did Priya work on?": lambda: int((garage()["Technician"] == "Priya").sum()),
    "How many cars are still waiting to be collected, i.e. have no collection date?": lambda: int(
        garage()["collected"].isna().sum()
    ),
    "Which job took the most labour hours?": lambda: garage().loc[garage()["hrs"].idxmax(), "Job No"],
    "total parts cost across all of Dave's jobs": lambda: round(
        float(garage().loc[garage()["Technician"] == "Dave", "parts_n"].sum()), 2
    ),
    "What's the average number of labour hours per job card?": lambda: round(
        float(garage()["hrs"].mean()), 2
    ),
    "Which job numbers had money knocked off with a negative discount?": lambda: (
        garage().loc[garage()["discount_n"] < 0, "Job No"].tolist()
    ),
    "how many cars did we book in during December 2024": lambda: int(
        ((garage()["booked"].dt.year == 2024) & (garage()["booked"].dt.month == 12)).sum()
    ),
    "How much more was spent on parts for JC-5514 than for JC-5512?": lambda: round(
        float(
            garage().set_index("Job No").loc["JC-5514", "parts_n"]
            - garage().set_index("Job No").loc["JC-5512", "parts_n"]
        ),
        2,
    ),
    "Which registration was the most recent one booked in?": _g_most_recent,
    # rowing erg tests
    "What was Hannah Okafor's 2k time?": lambda: rowing().set_index("Rower").loc["Hannah Okafor", "2k Time"],
    "who has the fastest 2k in the club": lambda: rowing().loc[rowing()["secs"].idxmin(), "Rower"],
    "How many rowers are in our Masters squad?": lambda: int((rowing()["Squad"] == "Masters").sum()),
    "Who averaged more watts on their test, Kieran Shah or Finn Oduya?": lambda: _watts_either(
        "Kieran Shah", "Finn Oduya"
    ),
    "What is the average weight in kg of the Senior Men squad?": lambda: round(
        float(rowing().loc[rowing()["Squad"] == "Senior Men", "Weight (kg)"].mean()), 2
    ),
    "which rowers broke 6:30 for the 2k": lambda: (
        rowing().loc[rowing()["secs"] < 6 * 60 + 30, "Rower"].tolist()
    ),
    "How many rowers averaged more than 350 watts?": lambda: int((rowing()["Avg Watts"] > 350).sum()),
    "Who did their erg test in March 2024?": lambda: (
        rowing().loc[(rowing()["date"].dt.year == 2024) & (rowing()["date"].dt.month == 3), "Rower"].tolist()
    ),
    "which rower is listed straight after Megan Doyle": lambda: _row_after(
        rowing(), "Rower", "Megan Doyle", "Rower"
    ),
    "How many seconds quicker over 2k was Sophie Turnbull than Grace Lindqvist?": lambda: round(
        _secs("Grace Lindqvist") - _secs("Sophie Turnbull"), 1
    ),
    # auction lots
    "What was the estimate on lot 112?": lambda: auction().set_index("lot").loc[112, "estimate"],
    "how many lots were in the Ceramics category": lambda: int((auction()["category"] == "Ceramics").sum()),
    "How many lots went unsold (no hammer price)?": lambda: int(auction()["hammer"].isna().sum()),
    "Which lot number fetched the highest hammer price?": lambda: int(
        auction().loc[auction()["hammer"].idxmax(), "lot"]
    ),
    "What was the combined hammer price of all the Jewellery lots we sold?": lambda: float(
        auction().loc[auction()["category"] == "Jewellery", "hammer"].sum()
    ),
    "average hammer price for the ceramics that actually sold": lambda: round(
        float(auction().loc[auction()["category"] == "Ceramics", "hammer"].dropna().mean()), 2
    ),
    "Which lots hammered below the low end of their estimate?": lambda: [
        str(x) for x in auction().loc[auction()["hammer"] < auction()["low"], "lot"]
    ],
    "How many lots sold in October 2024?": lambda: int(
        ((auction()["sold"].dt.year == 2024) & (auction()["sold"].dt.month == 10)).sum()
    ),
    "what's the first lot number in the list that failed to sell": lambda: int(
        auction().loc[auction()["hammer"].isna(), "lot"].iloc[0]
    ),
    "What's the title of the lot that comes right after the Omega Seamaster wristwatch?": lambda: _row_after(
        auction(), "title", "Omega Seamaster wristwatch, c.1968", "title"
    ),
}
