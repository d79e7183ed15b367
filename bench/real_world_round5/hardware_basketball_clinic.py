"""Round five of the real-world set (hardware, basketball, clinic): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"


def load(name: str) -> pd.DataFrame:
    return pd.read_csv(HERE / name, dtype=str, keep_default_na=False)


def num(s: str) -> float | None:
    s = s.strip().replace("$", "").replace(",", "")
    if s == "":
        return None
    neg = s.startswith("(") and s.endswith(")")
    s = s.strip("()").replace("\u2212", "-")
    v = float(s)
    return -v if neg else v


def us_date(s: str) -> datetime:
    return datetime.strptime(s, "%m/%d/%Y")


def iso_date(s: str) -> datetime:
    return datetime.strptime(s, "%Y-%m-%d")


def dmy_date(s: str) -> datetime:
    return datetime.strptime(s, "%d/%m/%Y")


HW = load("hardware_store_sales.csv")
HW["_total"] = HW["Line Total"].map(num)
HW["_price"] = HW["Unit Price"].map(num)
HW["_qty"] = HW["Qty"].map(num)
HW["_date"] = HW["Date"].map(us_date)

BB = load("basketball_results_2024.csv")
BB["_att"] = BB["Attendance"].map(num)
BB["_date"] = BB["Date"].map(iso_date)

CS = load("clinic_staff.csv")
CS["_rate"] = CS["Hourly Rate"].map(num)
CS["_hours"] = CS["Hours/Week"].map(num)
CS["_start"] = CS["Start Date"].map(dmy_date)


def one(df: pd.DataFrame, col: str) -> str:
    assert len(df) == 1, f"expected one row, got {len(df)}"
    return df[col].iloc[0]


def unique_extreme(df: pd.DataFrame, key: str, col: str, largest: bool) -> str:
    d = df[df[key].notna()]
    best = d[key].max() if largest else d[key].min()
    return one(d[d[key] == best], col)


def next_row(df: pd.DataFrame, mask: pd.Series, col: str) -> str:
    idx = df.index[mask]
    assert len(idx) == 1
    pos = df.index.get_loc(idx[0])
    return df[col].iloc[pos + 1]


def either(df: pd.DataFrame, key: str, col: str, a: pd.Series, b: pd.Series) -> str:
    ra, rb = df[a], df[b]
    va, vb = ra[key].iloc[0], rb[key].iloc[0]
    assert len(ra) == 1 and len(rb) == 1 and va != vb
    return ra[col].iloc[0] if va > vb else rb[col].iloc[0]


def hw_q(receipt: str) -> pd.Series:
    return HW["Receipt No"] == receipt


BB_HOME = BB["Venue"] == "H"

ANSWERS: dict[str, Callable[[], object]] = {
    # hardware_store_sales.csv
    "What was the line total on receipt R-20435?": lambda: one(HW[hw_q("R-20435")], "Line Total"),
    "how many sales were paid with a gift card": lambda: int((HW["Payment"] == "Gift card").sum()),
    "Which receipt had the biggest total?": lambda: unique_extreme(HW, "_total", "Receipt No", True),
    "total number of work gloves sold": lambda: HW.loc[HW["Product"] == "Work Gloves", "_qty"].sum(),
    "How much did the Riverside branch take in during March?": lambda: round(
        HW.loc[
            (HW["Store"] == "Riverside") & (HW["_date"].dt.month == 3) & (HW["_date"].dt.year == 2024),
            "_total",
        ].sum(),
        2,
    ),
    "What's the average line amount at the Eastgate store?": lambda: round(
        HW.loc[HW["Store"] == "Eastgate", "_total"].mean(), 2
    ),
    "what product was on the receipt right after R-20417": lambda: next_row(HW, hw_q("R-20417"), "Product"),
    "When did the Eastgate store make its first sale?": lambda: unique_extreme(
        HW[HW["Store"] == "Eastgate"], "_date", "Date", False
    ),
    "Which receipt was bigger, R-20413 or R-20435?": lambda: either(
        HW, "_total", "Receipt No", hw_q("R-20413"), hw_q("R-20435")
    ),
    "which products cost more than $100 each": lambda: sorted(set(HW.loc[HW["_price"] > 100, "Product"])),
    # basketball_results_2024.csv
    "What was the score against the Coral Bay Sharks on 2024-02-21?": lambda: one(
        BB[(BB["Opponent"] == "Coral Bay Sharks") & (BB["Date"] == "2024-02-21")], "Score"
    ),
    "how many games was Marcus Bell our leading scorer": lambda: int(
        (BB["Top Scorer"] == "Marcus Bell").sum()
    ),
    "How many games had a crowd of more than 5,000?": lambda: int((BB["_att"] > 5000).sum()),
    "Who were we playing when the crowd was smallest?": lambda: unique_extreme(BB, "_att", "Opponent", False),
    "who did we play right after the Lakeside Rams home game": lambda: next_row(
        BB, (BB["Opponent"] == "Lakeside Rams") & BB_HOME, "Opponent"
    ),
    "When was our last road game?": lambda: unique_extreme(BB[BB["Venue"] == "A"], "_date", "Date", True),
    "average attendance at home games": lambda: round(BB.loc[BB_HOME, "_att"].mean(), 2),
    "How many more fans came to the Ironbridge Titans home game than to the Jan 6 game?": lambda: (
        one(BB[(BB["Opponent"] == "Ironbridge Titans") & BB_HOME], "_att")
        - one(BB[BB["Date"] == "2024-01-06"], "_att")
    ),
    "how many wins did we get in february": lambda: int(
        ((BB["_date"].dt.month == 2) & (BB["Result"] == "W")).sum()
    ),
    "Which home game drew the bigger crowd, Westmoor Wolves or Redcliff Comets?": lambda: either(
        BB,
        "_att",
        "Opponent",
        (BB["Opponent"] == "Westmoor Wolves") & BB_HOME,
        (BB["Opponent"] == "Redcliff Comets") & BB_HOME,
    ),
    # clinic_staff.csv
    "how many staff don't have a phone number on file": lambda: int((CS["Phone"].str.strip() == "").sum()),
    "What's Priya Raman's hourly rate?": lambda: one(CS[CS["Name"] == "Priya Raman"], "Hourly Rate"),
    "Which employee works the fewest hours per week?": lambda: unique_extreme(CS, "_hours", "Name", False),
    "who gets paid more than $90 an hour": lambda: list(CS.loc[CS["_rate"] > 90, "Name"]),
    "total weekly hours in pediatrics": lambda: CS.loc[CS["Department"] == "Pediatrics", "_hours"].sum(),
    "What is the average pay rate for registered nurses?": lambda: round(
        CS.loc[CS["Role"] == "Registered Nurse", "_rate"].mean(), 2
    ),
    "How many people work in Radiology?": lambda: int((CS["Department"] == "Radiology").sum()),
    "who joined the clinic in 2021": lambda: list(CS.loc[CS["_start"].dt.year == 2021, "Name"]),
    "How much more per hour does Fatima El-Sayed earn than Jasper Quinn?": lambda: round(
        one(CS[CS["Name"] == "Fatima El-Sayed"], "_rate") - one(CS[CS["Name"] == "Jasper Quinn"], "_rate"), 2
    ),
    "Who was the first person hired?": lambda: unique_extreme(CS, "_start", "Name", False),
}
