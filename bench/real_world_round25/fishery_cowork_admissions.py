"""Round 25 real-world checks: fishery landings, coworking invoices, county school admissions."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"

FISH = "r25_fishery_landings.csv"
COWORK = "r25_cowork_invoices.tsv"
SCHOOLS = "r25_county_school_admissions.csv"


def _money(text: object) -> float:
    """Parse '£1.2M', '£845k', '-€1,150.00' into a float."""
    s = str(text).strip().replace(",", "").replace("£", "").replace("€", "")
    sign = -1.0 if s.startswith("-") else 1.0
    s = s.lstrip("+-")
    mult = 1.0
    if s[-1:] in ("k", "K"):
        mult, s = 1e3, s[:-1]
    elif s[-1:] in ("m", "M"):
        mult, s = 1e6, s[:-1]
    return sign * float(s) * mult


def _pct(text: object) -> float:
    s = str(text).strip()
    if s == "" or s.lower() in ("nan", "n/a"):
        return float("nan")
    return float(s.rstrip("%").replace("+", ""))


def _fish_date(text: str) -> pd.Timestamp:
    return pd.to_datetime(re.sub(r"\.", "", text.strip()), format="%b %d, %Y")


def _num(text: object) -> float:
    s = str(text).strip().replace(",", "").replace("+", "")
    if s.lower() in ("", "nan", "n/a"):
        return float("nan")
    return float(s)


def fish() -> pd.DataFrame:
    df = pd.read_csv(DATA / FISH, dtype=str, keep_default_na=False)
    df["date"] = df["Landing date"].map(_fish_date)
    df["tonnes"] = df["Weight (t)"].map(_num)
    df["value"] = df["Value"].map(_money)
    df["price"] = df["Price/kg"].map(_money)
    df["chg"] = df["Chg vs prev landing"].map(_pct)
    return df


def cowork() -> pd.DataFrame:
    df = pd.read_csv(DATA / COWORK, sep="\t", dtype=str, keep_default_na=False)
    df["issued"] = pd.to_datetime(df["Issue date"], format="%d-%b-%Y")
    df["paid"] = pd.to_datetime(df["Paid on"].replace("", None), format="%d-%b-%Y")
    df["net"] = df["Net amount"].map(_money)
    df["total"] = df["Total"].map(_money)
    df["is_credit"] = df["net"] < 0
    return df


def schools() -> pd.DataFrame:
    df = pd.read_csv(DATA / SCHOOLS, dtype=str, keep_default_na=False)
    df["pan"] = df["Published Admission Number (PAN)"].map(_num)
    df["first"] = df["Applications 2024 (1st pref)"].map(_num)
    df["allp"] = df["Applications 2024 (all prefs)"].map(_num)
    df["offer_pct"] = df["Offers made (% of PAN)"].map(_pct)
    df["wait"] = df["Waiting list (at 1 Mar)"].map(_num)
    df["chg"] = df["Change in 1st prefs vs 2023"].map(_num)
    return df


def _fish_lookup() -> str:
    f = fish()
    row = f[
        (f["Port"] == "Kilkeel") & (f["Species"] == "Nephrops") & (f["date"] == pd.Timestamp(2024, 7, 10))
    ]
    return row["Price/kg"].iloc[0]


def _herring_diff() -> float:
    f = fish()
    h = f[(f["Port"] == "Lerwick") & (f["Species"] == "Herring")].set_index("date")["tonnes"]
    return round(h[pd.Timestamp(2024, 7, 17)] - h[pd.Timestamp(2024, 3, 12)], 2)


def _port_either() -> str:
    f = fish()
    tot = f.groupby("Port")["value"].sum()
    return "Newlyn" if tot["Newlyn"] > tot["Brixham"] else "Brixham"


def _aug_net() -> float:
    c = cowork()
    aug = c[(c["issued"].dt.year == 2024) & (c["issued"].dt.month == 8)]
    return round(aug["net"].sum(), 2)


def _cw_next() -> str:
    c = cowork()
    idx = c.index[c["Invoice No"] == "CN-2024-0012"][0]
    return c.loc[idx + 1, "Invoice No"]


def _cw_slowest() -> str:
    c = cowork()
    days = (c["paid"] - c["issued"]).dt.days
    return c.loc[days.idxmax(), "Member"]


def _cw_last_aug() -> str:
    c = cowork()
    aug = c[(c["paid"].dt.year == 2024) & (c["paid"].dt.month == 8)]
    return aug.loc[aug["paid"].idxmax(), "Member"]


def _sch_either() -> str:
    s = schools().set_index("School")["first"]
    a, b = "Castlegate High School", "Meadowbank Academy"
    return a if s[a] > s[b] else b


def _sch_diff() -> float:
    s = schools().set_index("School")["allp"]
    return s["Northcliffe Grammar School"] - s["Elmwood Grammar School"]


ANSWERS: dict[str, Callable[[], object]] = {
    # fishery landings
    "What was the price per kg for the Kilkeel nephrops landing on Jul. 10, 2024?": _fish_lookup,
    "how many landings came into Peterhead": lambda: int((fish()["Port"] == "Peterhead").sum()),
    "Which port recorded the single heaviest landing by weight?": lambda: fish().loc[
        fish()["tonnes"].idxmax(), "Port"
    ],
    "What's the total tonnage of mackerel landed across all ports?": lambda: round(
        fish().query("Species == 'Mackerel'")["tonnes"].sum(), 2
    ),
    "average price per kg for haddock": lambda: round(
        fish().query("Species == 'Haddock'")["price"].mean(), 2
    ),
    "how many landings were down on the previous landing": lambda: int((fish()["chg"] < 0).sum()),
    "Which species did we land in April 2024?": lambda: (
        fish().loc[lambda d: (d["date"].dt.year == 2024) & (d["date"].dt.month == 4), "Species"].tolist()
    ),
    "How many tonnes heavier was the Lerwick herring landing on Jul. 17, 2024 than the Lerwick herring landing on "
    "Mar. 12, 2024?": _herring_diff,
    "Which port's landings were worth more in total, Newlyn or Brixham?": _port_either,
    "list the landing dates where the catch was valued above £500k": lambda: (
        fish().loc[lambda d: d["value"] > 500_000, "Landing date"].tolist()
    ),
    # coworking invoices
    "What's the total on invoice INV-2024-0806?": lambda: (
        cowork().set_index("Invoice No").loc["INV-2024-0806", "Total"]
    ),
    "how many entries are on the Fixed desk plan, credit notes included": lambda: int(
        (cowork()["Plan"] == "Fixed desk").sum()
    ),
    "How many of our invoices have no paid date yet?": lambda: int(
        (cowork()["paid"].isna() & ~cowork()["is_credit"]).sum()
    ),
    "what do all the negative totals add up to": lambda: round(
        cowork().loc[lambda d: d["total"] < 0, "total"].sum(), 2
    ),
    "What was our total net amount invoiced in August 2024, after deducting the credit note issued that month?": (
        _aug_net
    ),
    "Average total including VAT for an Office plan invoice, not counting credit notes?": lambda: round(
        cowork().loc[lambda d: (d["Plan"] == "Office") & ~d["is_credit"], "total"].mean(), 2
    ),
    "Which member took the most days between an invoice being issued and it being paid?": _cw_slowest,
    "which document number comes right after CN-2024-0012 in the list": _cw_next,
    "Which invoices issued in September 2024 are still unpaid?": lambda: (
        cowork()
        .loc[
            lambda d: (
                (d["issued"].dt.year == 2024)
                & (d["issued"].dt.month == 9)
                & d["paid"].isna()
                & ~d["is_credit"]
            ),
            "Invoice No",
        ]
        .tolist()
    ),
    "Who was the last member to pay in August 2024 (latest paid date that month)?": _cw_last_aug,
    # school admissions
    "What is the published admission number for Glenridge Academy?": lambda: (
        schools().set_index("School").loc["Glenridge Academy", "Published Admission Number (PAN)"]
    ),
    "How many schools made offers below 90% of their PAN?": lambda: int((schools()["offer_pct"] < 90).sum()),
    "which school has the longest waiting list": lambda: schools().loc[schools()["wait"].idxmax(), "School"],
    "Which schools received more than 300 first-preference applications in 2024?": lambda: (
        schools().loc[lambda d: d["first"] > 300, "School"].tolist()
    ),
    "how many schools saw their 1st preferences drop compared with 2023": lambda: int(
        (schools()["chg"] < 0).sum()
    ),
    "How many more applications (all preferences) did Northcliffe Grammar School get than Elmwood Grammar School?": (
        _sch_diff
    ),
    "Which school had more first preference applications in 2024: Castlegate High School or Meadowbank Academy?": (
        _sch_either
    ),
    "What's the combined PAN of all the schools whose type is Academy?": lambda: int(
        schools().loc[lambda d: d["Type"] == "Academy", "pan"].sum()
    ),
    "what's the average waiting list for schools in our North district": lambda: round(
        schools().loc[lambda d: d["District"] == "North", "wait"].mean(), 2
    ),
    "How many schools are there in the Central district?": lambda: int(
        (schools()["District"] == "Central").sum()
    ),
}
