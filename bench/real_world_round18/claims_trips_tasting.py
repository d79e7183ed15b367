"""Reference answers for round 18 (w87): insurance claims, school trip payments and wine tasting scores."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"

CLAIMS_FILE = "r18_insurance_claims.xlsx"
TRIPS_FILE = "r18_school_trip_payments.csv"
WINE_FILE = "r18_wine_tasting_scores.tsv"


def _gbp(value: object) -> float:
    """Parse '£12,480.00' (or blank) into a float; blank becomes NaN."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return float("nan")
    text = str(value).strip().replace("£", "").replace(",", "").strip()
    return float(text) if text else float("nan")


def _euro(value: object) -> float:
    """Parse '€ 12.90' / '€58.00' into a float."""
    text = re.sub(r"[€\s]", "", str(value))
    return float(text)


def _decimal_comma(value: object) -> float:
    """Parse European '245,00' into a float."""
    return float(str(value).strip().replace(".", "").replace(",", "."))


@cache
def claims() -> pd.DataFrame:
    df = pd.read_excel(REAL / CLAIMS_FILE, dtype=str)
    df["claimed"] = df["Claimed (GBP)"].map(_gbp)
    df["settled"] = df["Settled (GBP)"].map(_gbp)
    df["reported"] = pd.to_datetime(df["Date Reported"], format="%d/%m/%Y")
    df["settled_on"] = pd.to_datetime(df["Settlement Date"], format="%d/%m/%Y", errors="coerce")
    return df


@cache
def trips() -> pd.DataFrame:
    df = pd.read_csv(REAL / TRIPS_FILE, sep=";", dtype=str, keep_default_na=False)
    df["due"] = df["Amount Due"].map(_decimal_comma)
    df["paid"] = df["Amount Paid"].map(_decimal_comma)
    df["status"] = df["Status"].str.strip().str.lower()
    df["paid_on"] = pd.to_datetime(df["Paid On"].replace("", None), format="%d.%m.%Y")
    return df


@cache
def wine() -> pd.DataFrame:
    df = pd.read_csv(REAL / WINE_FILE, sep="\t", dtype=str, keep_default_na=False)
    df["j1"] = pd.to_numeric(df["Judge 1 (H. Müller)"].replace("", None))
    df["j2"] = pd.to_numeric(df["Judge 2 (T. Okoye)"].replace("", None))
    df["diff"] = pd.to_numeric(df["Diff (J2-J1)"].replace("", None))
    df["price"] = df["Price"].map(_euro)
    df["vintage"] = pd.to_numeric(df["Vintage"], errors="coerce")  # 'NV' -> NaN
    return df


def _c_row(claim_no: str) -> pd.Series:
    df = claims()
    return df[df["Claim No"] == claim_no].iloc[0]


def _t_row(pupil: str) -> pd.Series:
    df = trips()
    return df[df["Pupil"] == pupil].iloc[0]


def _w_row(wine_name: str) -> pd.Series:
    df = wine()
    return df[df["Wine"] == wine_name].iloc[0]


def _claims_reported_in(year: int, month: int) -> list[str]:
    df = claims()
    mask = (df["reported"].dt.year == year) & (df["reported"].dt.month == month)
    return df.loc[mask, "Claim No"].tolist()


def _class_paid(cls: str) -> float:
    df = trips()
    return float(df.loc[df["Class"] == cls, "paid"].sum())


def _row_after(pupil: str) -> str:
    df = trips().reset_index(drop=True)
    idx = df.index[df["Pupil"] == pupil][0]
    return str(df.loc[idx + 1, "Pupil"])


def _pupils_paid_between(start: str, end: str) -> list[str]:
    df = trips()
    mask = df["paid_on"].between(pd.Timestamp(start), pd.Timestamp(end))
    return df.loc[mask, "Pupil"].tolist()


def _better_j2(a: str, b: str) -> str:
    return a if _w_row(a)["j2"] > _w_row(b)["j2"] else b


ANSWERS: dict[str, Callable[[], object]] = {
    # --- insurance claims (xlsx) ---
    "Who is the policy holder on claim CLM-24017?": lambda: str(_c_row("CLM-24017")["Policy Holder"]),
    "how many claims have the status Open": lambda: int((claims()["Status"].str.strip() == "Open").sum()),
    "How many of our claims don't have a settlement date yet?": lambda: int(
        claims()["settled_on"].isna().sum()
    ),
    "Which policy holder put in the biggest claim?": lambda: str(
        claims().loc[claims()["claimed"].idxmax(), "Policy Holder"]
    ),
    "What is the total of all the settled amounts we have paid out so far?": lambda: round(
        float(claims()["settled"].sum()), 2
    ),
    "average claimed amount for Motor - Collision claims": lambda: round(
        float(claims().loc[claims()["Claim Type"] == "Motor - Collision", "claimed"].mean()), 2
    ),
    "On CLM-24016, how much less was settled than was claimed?": lambda: round(
        float(_c_row("CLM-24016")["claimed"] - _c_row("CLM-24016")["settled"]), 2
    ),
    "Which claims were reported in March 2024?": lambda: _claims_reported_in(2024, 3),
    "which claim was settled last": lambda: str(claims().loc[claims()["settled_on"].idxmax(), "Claim No"]),
    "List every claim where the amount claimed was over £9,000.": lambda: (
        claims().loc[claims()["claimed"] > 9000, "Claim No"].tolist()
    ),
    # --- school trip payments (semicolon csv) ---
    "How much has Matteo Bianchi paid so far?": lambda: str(_t_row("Matteo Bianchi")["Amount Paid"]),
    "how many pupils are signed up for the alpine camp": lambda: int(
        (trips()["Trip"] == "Alpine Camp").sum()
    ),
    "How many pupils have paid nothing at all?": lambda: int((trips()["paid"] == 0).sum()),
    "What's the total amount still outstanding across all trips, i.e. amount due minus amount paid?": lambda: (
        round(float((trips()["due"] - trips()["paid"]).sum()), 2)
    ),
    "what is the average amount paid per pupil for the Alpine Camp": lambda: round(
        float(trips().loc[trips()["Trip"] == "Alpine Camp", "paid"].mean()), 2
    ),
    "Which pupil owes us the most money?": lambda: str(
        trips().loc[(trips()["due"] - trips()["paid"]).idxmax(), "Pupil"]
    ),
    "Who made the most recent payment?": lambda: str(trips().loc[trips()["paid_on"].idxmax(), "Pupil"]),
    "Which class has paid more in total, 5A or 5B?": lambda: (
        "5A" if _class_paid("5A") > _class_paid("5B") else "5B"
    ),
    "who is listed right after Ben Hoffmann": lambda: _row_after("Ben Hoffmann"),
    "Which pupils paid between 16 and 20 September 2024, both days included?": lambda: _pupils_paid_between(
        "2024-09-16", "2024-09-20"
    ),
    # --- wine tasting scores (tsv) ---
    "how much was the rioja gran reserva": lambda: str(_w_row("Rioja Gran Reserva 904")["Price"]),
    "How many French wines were in our tasting?": lambda: int((wine()["Country"] == "France").sum()),
    "How many wines are missing a score from Okoye?": lambda: int(wine()["j2"].isna().sum()),
    "Which wine did Müller score the lowest?": lambda: str(wine().loc[wine()["j1"].idxmin(), "Wine"]),
    "What's Okoye's average score, leaving out the wines Okoye didn't score?": lambda: round(
        float(wine()["j2"].mean()), 2
    ),
    "which wines cost more than €50": lambda: wine().loc[wine()["price"] > 50, "Wine"].tolist(),
    "How much more does the Châteauneuf-du-Pape cost than the Barolo Cannubi?": lambda: round(
        float(_w_row("Châteauneuf-du-Pape")["price"] - _w_row("Barolo Cannubi")["price"]), 2
    ),
    "Which got the better score from Okoye: the Grüner Veltliner Smaragd or the Felton Road Pinot Noir?": lambda: (
        _better_j2("Grüner Veltliner Smaragd", "Pinot Noir")
    ),
    "How many wines have a negative score difference?": lambda: int((wine()["diff"] < 0).sum()),
    "Which wines are from the 2016 to 2018 vintages?": lambda: (
        wine().loc[wine()["vintage"].between(2016, 2018), "Wine"].tolist()
    ),
}
