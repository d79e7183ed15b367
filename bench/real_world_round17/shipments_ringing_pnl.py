"""Round 17 gold answers for outbound shipments, a bird ringing log and a quarterly P&L."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
QUARTERS = ["Q1 2023", "Q2 2023", "Q3 2023", "Q4 2023", "Q1 2024", "Q2 2024", "Q3 2024", "Q4 2024"]


def _weight_kg(text: str) -> float:
    value, unit = str(text).strip().split()
    number = float(value.replace(",", ""))
    return number * 1000 if unit.lower() == "t" else number


def _money(text: str) -> float:
    s = str(text).strip().replace(",", "")
    if s in ("-", "", "nan"):
        return 0.0
    if s.startswith("(") and s.endswith(")"):
        return -float(s[1:-1])
    return float(s)


def shipments() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r17_outbound_shipments.xlsx", header=1, dtype=str)
    df["kg"] = df["Weight"].map(_weight_kg)
    df["date"] = pd.to_datetime(df["Ship Date"], format="%Y-%m-%d")
    df["pallets"] = df["Pallets"].astype(int)
    return df


def ringing() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r17_ringing_log.csv", dtype=str, keep_default_na=False)
    df["wing_mm"] = df["Wing"].str.replace("mm", "").str.strip().astype(float)
    df["grams"] = pd.to_numeric(df["Weight (g)"].replace("", None), errors="coerce")
    df["date"] = pd.to_datetime(df["Date"], format="%d %b %Y")
    return df


def pnl_raw() -> pd.DataFrame:
    return pd.read_csv(REAL / "r17_quarterly_pnl.csv", dtype=str).set_index("Line item (GBP)")


def pnl() -> pd.DataFrame:
    return pnl_raw()[QUARTERS].map(_money)


def _ship_after(sid: str) -> str:
    df = shipments().sort_values("date").reset_index(drop=True)
    pos = df.index[df["Shipment ID"] == sid][0]
    return df.loc[pos + 1, "Shipment ID"]


def _pallet_winner(a: str, b: str) -> str:
    totals = shipments().groupby("Customer")["pallets"].sum()
    return a if totals[a] > totals[b] else b


def _more_species(a: str, b: str) -> str:
    counts = ringing()["Species"].value_counts()
    return a if counts[a] > counts[b] else b


def _ring_weight(ring: str) -> float:
    df = ringing()
    return float(df.loc[df["Ring No"] == ring, "grams"].iloc[0])


def _all_negative_lines() -> int:
    df = pnl().drop(index="Total")
    return int((df < 0).all(axis=1).sum())


def _quarter_after(q: str) -> str:
    return pnl_raw().loc["Total", QUARTERS[QUARTERS.index(q) + 1]]


ANSWERS: dict[str, Callable[[], object]] = {
    # outbound shipments
    "Which carrier handled shipment SH-24079?": lambda: (
        shipments().set_index("Shipment ID").loc["SH-24079", "Carrier"]
    ),
    "how many shipments have no carrier filled in": lambda: int(shipments()["Carrier"].isna().sum()),
    "Which shipment was the heaviest?": lambda: shipments().loc[shipments()["kg"].idxmax(), "Shipment ID"],
    "What is the total weight in kg of everything we shipped to Brightmart Foods?": lambda: float(
        shipments().query("Customer == 'Brightmart Foods'")["kg"].sum()
    ),
    "list the shipment ids that left in august 2024": lambda: (
        shipments()
        .loc[lambda d: (d["date"].dt.year == 2024) & (d["date"].dt.month == 8), "Shipment ID"]
        .tolist()
    ),
    "How many shipments went to Leeds?": lambda: int((shipments()["Destination"] == "Leeds").sum()),
    "Who got more pallets in total from us, Pellworth Ltd or Okafor Textiles?": lambda: _pallet_winner(
        "Pellworth Ltd", "Okafor Textiles"
    ),
    "which shipment went out right after SH-24076": lambda: _ship_after("SH-24076"),
    "On average, how many pallets were on a DHL Freight shipment?": lambda: round(
        float(shipments().query("Carrier == 'DHL Freight'")["pallets"].mean()), 2
    ),
    "Which shipments weighed more than 3 tonnes? I need the shipment IDs for the heavy-load report.": lambda: (
        shipments().loc[lambda d: d["kg"] > 3000, "Shipment ID"].tolist()
    ),
    # bird ringing log
    "What species was ring ZX4833?": lambda: ringing().set_index("Ring No").loc["ZX4833", "Species"],
    "how many juveniles did we ring": lambda: int((ringing()["Age"] == "juv").sum()),
    "How many birds in the log have no weight recorded?": lambda: int(ringing()["grams"].isna().sum()),
    "ring number of the bird with the shortest wing": lambda: ringing().loc[
        ringing()["wing_mm"].idxmin(), "Ring No"
    ],
    "What's the average wing length of our Blackcaps, in mm?": lambda: round(
        float(ringing().query("Species == 'Blackcap'")["wing_mm"].mean()), 2
    ),
    "Which rings went on birds with a wing longer than 75 mm?": lambda: (
        ringing().loc[lambda d: d["wing_mm"] > 75, "Ring No"].tolist()
    ),
    "How many birds were ringed in June 2024?": lambda: int(
        ((ringing()["date"].dt.year == 2024) & (ringing()["date"].dt.month == 6)).sum()
    ),
    "what was the first ring we put on a Reed Warbler": lambda: (
        ringing().query("Species == 'Reed Warbler'").sort_values("date", kind="stable")["Ring No"].iloc[0]
    ),
    "Did we catch more Reed Warblers or Sedge Warblers?": lambda: _more_species(
        "Reed Warbler", "Sedge Warbler"
    ),
    "How much heavier was Song Thrush ZX4832 than Song Thrush ZX4844, in grams?": lambda: round(
        _ring_weight("ZX4832") - _ring_weight("ZX4844"), 2
    ),
    # quarterly profit and loss
    "What was Marketing in Q2 2024?": lambda: pnl_raw().loc["Marketing", "Q2 2024"],
    "which quarter had the highest product sales": lambda: pnl().loc["Product sales"].idxmax(),
    "What is the sum of Service revenue from Q3 2023 through Q2 2024?": lambda: float(
        pnl().loc["Service revenue", "Q3 2023":"Q2 2024"].sum()
    ),
    "What was our average quarterly Total across the eight quarters?": lambda: round(
        float(pnl().loc["Total"].mean()), 2
    ),
    "How much more product sales did we make in Q4 2024 than in Q4 2023?": lambda: float(
        pnl().loc["Product sales", "Q4 2024"] - pnl().loc["Product sales", "Q4 2023"]
    ),
    "Which quarters ended with a negative Total?": lambda: [
        q for q, v in pnl().loc["Total"].items() if v < 0
    ],
    "quarters where Total was above 13,000": lambda: [q for q, v in pnl().loc["Total"].items() if v > 13000],
    "Was Service revenue higher in Q2 2023 or Q4 2023?": lambda: max(
        ["Q2 2023", "Q4 2023"], key=lambda q: pnl().loc["Service revenue", q]
    ),
    "What was the Total in the quarter right after Q3 2023?": lambda: _quarter_after("Q3 2023"),
    "How many line items (not counting Total) are negative in every one of the eight quarters?": _all_negative_lines,
}
