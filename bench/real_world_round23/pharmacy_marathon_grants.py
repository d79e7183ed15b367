"""Round 23 real-world checks: pharmacy dispensing log, marathon splits and charity grant awards."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: object) -> float | None:
    """Parse '$12.50' / '£12,500' / '' / None into a float (None when blank)."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return None
    text = str(value).strip().replace("$", "").replace("£", "").replace(",", "")
    if not text:
        return None
    return float(text)


def _us_date(value: object) -> pd.Timestamp | None:
    """Parse a month-first date such as 07/02/2024."""
    if value is None or (isinstance(value, float) and pd.isna(value)) or not str(value).strip():
        return None
    return pd.Timestamp(datetime.strptime(str(value).strip(), "%m/%d/%Y"))


def _long_date(value: object) -> pd.Timestamp | None:
    """Parse a date written like '14 March 2024' (blank or None gives None)."""
    if value is None or (isinstance(value, float) and pd.isna(value)) or not str(value).strip():
        return None
    return pd.Timestamp(datetime.strptime(str(value).strip(), "%d %B %Y"))


def _seconds(value: object) -> int | None:
    """Parse 'mm:ss' or 'h:mm:ss' into seconds; blanks and 'DNF' give None."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return None
    parts = str(value).strip().split(":")
    if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts):
        return None
    total = 0
    for part in parts:
        total = total * 60 + int(part)
    return total


def pharmacy() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r23_pharmacy_dispensing.csv", dtype=str, keep_default_na=False)
    df["copay_num"] = df["Copay"].map(_money)
    df["qty_num"] = df["Qty"].astype(int)
    df["dispensed_dt"] = df["Date Dispensed"].map(_us_date)
    df["pickup_dt"] = df["Pickup Date"].map(_us_date)
    return df


def marathon() -> pd.DataFrame:
    df = pd.read_excel(DATA / "r23_city_marathon_splits.xlsx", dtype=object)
    for col in ["5K", "10K", "Half", "30K", "Finish"]:
        df[col + "_s"] = df[col].map(_seconds)
    df["diff_s"] = pd.to_numeric(df["2nd Half +/- (s)"], errors="coerce")
    return df


def grants() -> pd.DataFrame:
    df = pd.read_json(DATA / "r23_charity_grants.json", dtype=False)
    df["requested_num"] = df["Amount Requested"].map(_money)
    df["awarded_num"] = df["Amount Awarded"].map(_money)
    df["decided_dt"] = df["Decision Date"].map(_long_date)
    return df


def _cell(df: pd.DataFrame, key_col: str, key: str, col: str) -> str:
    return str(df.loc[df[key_col] == key, col].iloc[0])


def _after(df: pd.DataFrame, key_col: str, key: str, col: str) -> str:
    pos = df.index[df[key_col] == key][0]
    return str(df.loc[pos + 1, col])


def _ph_either() -> str:
    df = pharmacy()
    a, b = "Azithromycin 250 mg", "Omeprazole 20 mg"
    ca = df.loc[df["Drug"] == a, "copay_num"].iloc[0]
    cb = df.loc[df["Drug"] == b, "copay_num"].iloc[0]
    return a if ca > cb else b


def _ph_latest_for(patient: str) -> str:
    df = pharmacy()
    rows = df[df["Patient"] == patient]
    return str(rows.loc[rows["dispensed_dt"].idxmax(), "Drug"])


def _mar_either() -> str:
    df = marathon()
    a, b = "Laura Gómez", "James Whitfield"
    ta = df.loc[df["Runner"] == a, "10K_s"].iloc[0]
    tb = df.loc[df["Runner"] == b, "10K_s"].iloc[0]
    return a if ta < tb else b


def _mar_gap(faster: str, slower: str) -> int:
    df = marathon()
    fin = df.set_index("Runner")["Finish_s"]
    return int(fin[slower] - fin[faster])


def _gr_full_award() -> int:
    df = grants()
    approved = df[df["Status"] == "Approved"]
    return int((approved["awarded_num"] == approved["requested_num"]).sum())


def _gr_shortfall(org: str) -> float:
    df = grants()
    row = df[df["Organisation"] == org].iloc[0]
    return float(row["requested_num"] - row["awarded_num"])


ANSWERS: dict[str, Callable[[], object]] = {
    # --- pharmacy dispensing log ---
    "What was the copay on RX-88236?": lambda: _cell(pharmacy(), "Rx #", "RX-88236", "Copay"),
    "how many prescriptions were billed to Cigna": lambda: int((pharmacy()["Insurer"] == "Cigna").sum()),
    "How many prescriptions in our log haven't been picked up yet?": lambda: int(
        (pharmacy()["Pickup Date"].str.strip() == "").sum()
    ),
    "Which drug had the highest copay?": lambda: str(
        pharmacy().pipe(lambda d: d.loc[d["copay_num"].idxmax(), "Drug"])
    ),
    "total copays for aetna prescriptions": lambda: float(
        pharmacy().pipe(lambda d: d.loc[d["Insurer"].str.lower() == "aetna", "copay_num"].sum())
    ),
    "What is the average quantity dispensed on Medicare Part D prescriptions?": lambda: round(
        float(pharmacy().pipe(lambda d: d.loc[d["Insurer"] == "Medicare Part D", "qty_num"].mean())), 2
    ),
    "Which Rx numbers were dispensed in August 2024?": lambda: (
        pharmacy()
        .pipe(lambda d: d[(d["dispensed_dt"].dt.year == 2024) & (d["dispensed_dt"].dt.month == 8)])["Rx #"]
        .tolist()
    ),
    "what rx number comes right after RX-88234 in the log": lambda: _after(
        pharmacy(), "Rx #", "RX-88234", "Rx #"
    ),
    "Which fill had the bigger copay, the Azithromycin 250 mg or the Omeprazole 20 mg?": _ph_either,
    "We dispensed to Maria Alvarez more than once - what drug did she get most recently?": lambda: (
        _ph_latest_for("Alvarez, Maria")
    ),
    # --- city marathon splits ---
    "What was Ingrid Berg's 30K split?": lambda: _cell(marathon(), "Runner", "Ingrid Berg", "30K"),
    "how many runners are in the F35 category": lambda: int((marathon()["Category"] == "F35").sum()),
    "How many finishers broke 3 hours?": lambda: int((marathon()["Finish_s"] < 3 * 3600).sum()),
    "who had the fastest half marathon split": lambda: str(
        marathon().pipe(lambda d: d.loc[d["Half_s"].idxmin(), "Runner"])
    ),
    "How many runners ran a negative split, i.e. their second half was faster than their first?": lambda: int(
        marathon().pipe(lambda d: ((d["Finish_s"] - d["Half_s"]) < d["Half_s"]).sum())
    ),
    "What's the average of the 2nd Half +/- (s) column?": lambda: round(
        float(marathon()["diff_s"].mean()), 2
    ),
    "By how many seconds did Aiko Tanaka finish ahead of Lucas Martin?": lambda: _mar_gap(
        "Aiko Tanaka", "Lucas Martin"
    ),
    "Who is listed right after Peter Schmidt in the results sheet?": lambda: _after(
        marathon(), "Runner", "Peter Schmidt", "Runner"
    ),
    "who got to 10K quicker, Laura Gómez or James Whitfield": _mar_either,
    "Which runners went through 30K in under 2 hours?": lambda: (
        marathon().pipe(lambda d: d[d["30K_s"] < 2 * 3600])["Runner"].tolist()
    ),
    # --- charity grant awards ---
    "How much was Harbour Arts Collective awarded?": lambda: _cell(
        grants(), "Organisation", "Harbour Arts Collective", "Amount Awarded"
    ),
    "how many applications are still pending": lambda: int((grants()["Status"] == "Pending").sum()),
    "How many grants were awarded the full amount that was requested?": _gr_full_award,
    "What's the total we've awarded to organisations in the London region?": lambda: float(
        grants().pipe(lambda d: d.loc[d["Region"] == "London", "awarded_num"].sum())
    ),
    "Which organisation requested the most money?": lambda: str(
        grants().pipe(lambda d: d.loc[d["requested_num"].idxmax(), "Organisation"])
    ),
    "How much less did Fenland Rural Transport get than they asked for?": lambda: _gr_shortfall(
        "Fenland Rural Transport"
    ),
    "which grants had a decision in April 2024": lambda: (
        grants()
        .pipe(lambda d: d[(d["decided_dt"] >= "2024-04-01") & (d["decided_dt"] < "2024-05-01")])["Grant ID"]
        .tolist()
    ),
    "What is the average amount awarded across our approved grants?": lambda: round(
        float(grants().pipe(lambda d: d.loc[d["Status"] == "Approved", "awarded_num"].mean())), 2
    ),
    "Which organisations asked for more than £20,000?": lambda: (
        grants().pipe(lambda d: d[d["requested_num"] > 20000])["Organisation"].tolist()
    ),
    "Which organisation received the most recent decision?": lambda: str(
        grants().pipe(lambda d: d.loc[d["decided_dt"].idxmax(), "Organisation"])
    ),
}
