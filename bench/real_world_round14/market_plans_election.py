"""Round 14 real-world checks: farmers' market vendors, phone plans, regional election results."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"

MONTHS = {
    m: i
    for i, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], start=1
    )
}


def money(text: str) -> float:
    """'$38 / week', '€8.99 /mo', '$45.00' -> float."""
    match = re.search(r"\d+(?:\.\d+)?", str(text).replace(",", ""))
    if match is None:
        raise ValueError(f"no amount in {text!r}")
    return float(match.group())


def long_date(text: str) -> date:
    """'March 3, 2021', 'Sep 9, 2020', 'Aug 14 2017' -> date."""
    match = re.fullmatch(r"\s*([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})\s*", str(text))
    if match is None:
        raise ValueError(f"unparsed date {text!r}")
    return date(int(match.group(3)), MONTHS[match.group(1)[:3].lower()], int(match.group(2)))


def data_mb(text: str) -> float:
    """'10 GB', '1.5GB', '500 MB' -> megabytes; 'Unlimited' -> inf."""
    value = str(text).strip().lower()
    if value == "unlimited":
        return float("inf")
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(gb|mb)", value)
    if match is None:
        raise ValueError(f"unparsed data allowance {text!r}")
    return float(match.group(1)) * (1000 if match.group(2) == "gb" else 1)


def signed(text: object) -> float:
    """'+2.1' / '-3.4' -> float; blank or 'new' -> NaN."""
    value = str(text).strip() if pd.notna(text) else ""
    return float(value) if re.fullmatch(r"[+-]?\d+(?:\.\d+)?", value) else float("nan")


def vendors() -> pd.DataFrame:
    records = json.loads((DATA / "r14_market_vendors.json").read_text(encoding="utf-8"))
    df = pd.DataFrame(records)
    df["fee"] = df["weekly_fee"].map(money)
    df["joined_on"] = df["joined"].map(long_date)
    df["cat"] = df["category"].str.strip().str.lower()
    df["days"] = df["market_days"].str.lower().str.replace(" ", "")
    return df


def plans() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r14_phone_plans.csv", dtype=str, keep_default_na=False, encoding="utf-8")
    df["price"] = df["Price"].map(money)
    df["mb"] = df["Data"].map(data_mb)
    df["has_5g"] = df["5G"].str.strip().str.lower() == "yes"
    df["no_contract"] = df["Contract"].str.strip().str.lower() == "none"
    return df


def election() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r14_election_results.csv", dtype=str, keep_default_na=False)
    df["party"] = df["Party"].str.strip()
    df["votes"] = df["Votes"].str.replace(",", "").astype(int)
    df["share"] = df["Vote Share"].str.rstrip("%").astype(float)
    df["change"] = df["Change"].map(signed)
    df["elected"] = df["Elected"].str.strip() == "*"
    return df


def _row(df: pd.DataFrame, column: str, value: str) -> pd.Series:
    hits = df[df[column] == value]
    if len(hits) != 1:
        raise LookupError(f"{column}={value!r} matched {len(hits)} rows")
    return hits.iloc[0]


def _either(df: pd.DataFrame, key: str, metric: str, names: tuple[str, str], larger: bool) -> str:
    a, b = (_row(df, key, n)[metric] for n in names)
    return names[0] if (a > b) == larger else names[1]


def _next_after(df: pd.DataFrame, column: str, value: str) -> str:
    pos = df.index[df[column] == value][0]
    return str(df.loc[pos + 1, column])


def _civic_average() -> float:
    e = election()
    return float(e.loc[e["party"] == "Civic Party", "share"].mean())


ANSWERS: dict[str, Callable[[], object]] = {
    # farmers' market vendors (JSON)
    "What is the weekly fee for stall B07?": lambda: str(_row(vendors(), "stall", "B07")["weekly_fee"]),
    "how many vendors sell vegetables": lambda: int((vendors()["cat"] == "vegetables").sum()),
    "How many of our vendors are organic?": lambda: int((vendors()["organic"] == True).sum()),  # noqa: E712
    "Which vendor pays the highest weekly fee?": lambda: str(vendors().sort_values("fee").iloc[-1]["vendor"]),
    "who's been with the market the longest": lambda: str(
        vendors().sort_values("joined_on").iloc[0]["vendor"]
    ),
    "Which vendors joined in 2021?": lambda: [
        str(v) for v, d in zip(vendors()["vendor"], vendors()["joined_on"], strict=True) if d.year == 2021
    ],
    "What's the total weekly fee we collect from the vendors that come on both Saturday and Sunday?": lambda: (
        float(vendors().query("days == 'sat&sun'")["fee"].sum())
    ),
    "average weekly fee for baked goods stalls": lambda: float(
        vendors().query("cat == 'baked goods'")["fee"].mean()
    ),
    "What vendor is listed right after Maple Ridge Syrup?": lambda: _next_after(
        vendors(), "vendor", "Maple Ridge Syrup"
    ),
    "Who pays more each week, Miller Orchards or Twin Oaks Orchard?": lambda: _either(
        vendors(), "vendor", "fee", ("Miller Orchards", "Twin Oaks Orchard"), larger=True
    ),
    # mobile phone plans (CSV)
    "whats the contract length on the Orange Go Max plan": lambda: str(
        plans().query("Provider == 'Orange' and Plan == 'Go Max'").iloc[0]["Contract"]
    ),
    "How many plans come with unlimited data?": lambda: int((plans()["mb"] == float("inf")).sum()),
    "How many of the plans have no contract at all?": lambda: int(plans()["no_contract"].sum()),
    "What's the cheapest plan per month?": lambda: str(plans().sort_values("price").iloc[0]["Plan"]),
    "Which plans cost less than €8 a month?": lambda: plans().query("price < 8")["Plan"].tolist(),
    "What is the average monthly price of the plans that support 5G?": lambda: float(
        plans().loc[plans()["has_5g"], "price"].mean()
    ),
    "How much more per month does KPN's Unlimited Max cost than Vodafone's Red Unlimited?": lambda: float(
        _row(plans(), "Plan", "Unlimited Max")["price"] - _row(plans(), "Plan", "Red Unlimited")["price"]
    ),
    "which is cheaper, Smart L or Data 8": lambda: _either(
        plans(), "Plan", "price", ("Smart L", "Data 8"), larger=False
    ),
    "We're looking at Tele2, what would all three of their plans cost per month added together?": lambda: (
        float(plans().query("Provider == 'Tele2'")["price"].sum())
    ),
    "how many plans give you less than 1 GB of data": lambda: int((plans()["mb"] < 1000).sum()),
    # regional election results (CSV)
    "How many votes did Priya Nair get?": lambda: str(_row(election(), "Candidate", "Priya Nair")["Votes"]),
    "how many seats did the Civic Party win": lambda: int(
        (election()["elected"] & (election()["party"] == "Civic Party")).sum()
    ),
    "How many candidates got under 5% of the vote?": lambda: int((election()["share"] < 5).sum()),
    "Which candidates lost more than 3 points of vote share compared with the last election?": lambda: (
        election().query("change < -3")["Candidate"].tolist()
    ),
    "who had the biggest drop in vote share since last time": lambda: str(
        election().sort_values("change").iloc[0]["Candidate"]
    ),
    "Who got the most votes of any candidate?": lambda: str(
        election().sort_values("votes").iloc[-1]["Candidate"]
    ),
    "Total votes cast in Kingsford?": lambda: int(
        election().query("Constituency == 'Kingsford'")["votes"].sum()
    ),
    "By how many votes did Martin Cole beat Ava Lindqvist in Hollowbrook?": lambda: int(
        _row(election(), "Candidate", "Martin Cole")["votes"]
        - _row(election(), "Candidate", "Ava Lindqvist")["votes"]
    ),
    "Who got the bigger vote share, Rachel Byrne or Helen Marsh?": lambda: _either(
        election(), "Candidate", "share", ("Rachel Byrne", "Helen Marsh"), larger=True
    ),
    "What was the average vote share of our Civic Party candidates?": _civic_average,
}
