"""Gold answers for round-14 questions on baggage claims, a rent ledger and a marathon training log."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
BAGGAGE = "r14_lost_baggage_claims.xlsx"
RENT = "r14_student_house_rent.csv"
TRAINING = "r14_marathon_training_log.tsv"


def _money(text: object) -> float:
    """Parse 'GBP 1,080.00', '£45.00', '-£45.00', '(£45.00)' or '450' into a float."""
    s = str(text).strip()
    negative = s.startswith("-") or (s.startswith("(") and s.endswith(")"))
    digits = re.sub(r"[^0-9.]", "", s)
    value = float(digits)
    return -value if negative else value


def _km(text: object) -> float:
    """Parse '12.5 km' into 12.5; blank gives NaN."""
    if pd.isna(text) or not str(text).strip():
        return float("nan")
    return float(str(text).lower().replace("km", "").strip())


def _pace_seconds(text: object) -> float:
    """Parse '5:32/km' into seconds per km; blank gives NaN."""
    if pd.isna(text) or not str(text).strip():
        return float("nan")
    minutes, seconds = str(text).split("/")[0].split(":")
    return int(minutes) * 60 + int(seconds)


@cache
def baggage() -> pd.DataFrame:
    df = pd.read_excel(REAL / BAGGAGE, dtype=str)
    df = df.apply(lambda col: col.str.strip())
    df["currency"] = df["Amount Claimed"].str.split().str[0]
    df["amount"] = df["Amount Claimed"].map(_money)
    df["claimed"] = pd.to_datetime(df["Date Claimed"])
    df["settled"] = pd.to_datetime(df["Date Settled"])
    return df


@cache
def rent() -> pd.DataFrame:
    df = pd.read_csv(REAL / RENT, dtype=str, keep_default_na=False)
    df["due"] = df["Rent Due"].map(_money)
    df["paid"] = df["Paid"].map(_money)
    df["balance"] = df["Balance"].map(_money)
    df["month"] = pd.to_datetime(df["Month"], format="%b %Y")
    return df


@cache
def training() -> pd.DataFrame:
    df = pd.read_csv(REAL / TRAINING, sep="\t", dtype=str, keep_default_na=False)
    df["date"] = pd.to_datetime(df["Date"], format="%Y-%m-%d")
    df["planned"] = df["Planned"].map(_km)
    df["actual"] = df["Actual"].map(_km)
    df["pace_s"] = df["Pace"].map(_pace_seconds)
    df["hr"] = pd.to_numeric(df["Avg HR"].replace("", None))
    return df


def _claim_after(claim_id: str) -> str:
    df = baggage().reset_index(drop=True)
    pos = df.index[df["Claim ID"] == claim_id][0]
    return df.loc[pos + 1, "Claim ID"]


def _more_claims(a: str, b: str) -> str:
    counts = baggage()["Flight No."].value_counts()
    return a if counts.get(a, 0) > counts.get(b, 0) else b


def _paid_more(a: str, b: str) -> str:
    totals = rent().groupby("Tenant")["paid"].sum()
    return a if totals[a] > totals[b] else b


def _session_after(day: str) -> str:
    df = training().sort_values("date").reset_index(drop=True)
    pos = df.index[df["Date"] == day][0]
    return df.loc[pos + 1, "Session"]


def _b() -> pd.DataFrame:
    return baggage()


def _r() -> pd.DataFrame:
    return rent()


def _t() -> pd.DataFrame:
    return training()


def _runs() -> pd.DataFrame:
    return training()[training()["Session"] != "rest"]


ANSWERS: dict[str, Callable[[], object]] = {
    # lost baggage claims (xlsx)
    "What flight was claim LB-00417 on?": lambda: (
        _b().loc[_b()["Claim ID"] == "LB-00417", "Flight No."].iloc[0]
    ),
    "How many claims are still Open?": lambda: int((_b()["Status"] == "Open").sum()),
    "how many claims have a blank settled date": lambda: int(_b()["settled"].isna().sum()),
    "What is the total amount claimed in GBP across all claims?": lambda: float(
        _b().loc[_b()["currency"] == "GBP", "amount"].sum()
    ),
    "Which claim has the biggest amount claimed in euros?": lambda: (
        _b().loc[_b()["currency"] == "EUR"].sort_values("amount")["Claim ID"].iloc[-1]
    ),
    "what's the average EUR claim amount for our settled claims": lambda: round(
        float(_b().loc[(_b()["currency"] == "EUR") & (_b()["Status"] == "Settled"), "amount"].mean()), 2
    ),
    "Which claim was the last one to be settled?": lambda: (
        _b().dropna(subset=["settled"]).sort_values("settled")["Claim ID"].iloc[-1]
    ),
    "Which claims were filed in February 2024?": lambda: (
        _b().loc[(_b()["claimed"].dt.year == 2024) & (_b()["claimed"].dt.month == 2), "Claim ID"].tolist()
    ),
    "which claim comes right after LB-00422 in the list": lambda: _claim_after("LB-00422"),
    "Which flight had more baggage claims, BA 2490 or FR 1402?": lambda: _more_claims("BA 2490", "FR 1402"),
    # student house rent ledger (csv)
    "How much did Farah pay in Oct 2024?": lambda: (
        _r().loc[(_r()["Tenant"] == "Farah") & (_r()["Month"] == "Oct 2024"), "Paid"].iloc[0]
    ),
    "How many ledger rows show a negative balance?": lambda: int((_r()["balance"] < 0).sum()),
    "Who owed the most in arrears in a single month?": lambda: _r().sort_values("balance")["Tenant"].iloc[0],
    "what's the total rent we paid in nov 2024": lambda: float(
        _r().loc[_r()["Month"] == "Nov 2024", "paid"].sum()
    ),
    "average amount Josh paid per month": lambda: round(
        float(_r().loc[_r()["Tenant"] == "Josh", "paid"].mean()), 2
    ),
    "How much more rent is due for Ellie's room than for Kit's?": lambda: float(
        _r().loc[_r()["Tenant"] == "Ellie", "due"].iloc[0] - _r().loc[_r()["Tenant"] == "Kit", "due"].iloc[0]
    ),
    "how many rows have a balance of £0.00": lambda: int((_r()["balance"] == 0).sum()),
    "How many payments were more than £500?": lambda: int((_r()["paid"] > 500).sum()),
    "Which tenants paid more than £500 in Jan 2025?": lambda: (
        _r().loc[(_r()["Month"] == "Jan 2025") & (_r()["paid"] > 500), "Tenant"].tolist()
    ),
    "Over the whole ledger, who paid more in total, Farah or Ellie?": lambda: _paid_more("Farah", "Ellie"),
    # marathon training log (tsv)
    "What was my average heart rate on 2024-02-14?": lambda: int(
        _t().loc[_t()["Date"] == "2024-02-14", "hr"].iloc[0]
    ),
    "how many rest days are in the log": lambda: int((_t()["Session"] == "rest").sum()),
    "What total distance did I actually run in the week starting 2024-02-12?": lambda: round(
        float(_t().loc[_t()["date"].between("2024-02-12", "2024-02-18"), "actual"].sum()), 2
    ),
    "On which date did I run my fastest pace?": lambda: _runs().sort_values("pace_s")["Date"].iloc[0],
    "what was the average heart rate on easy runs": lambda: round(
        float(_t().loc[_t()["Session"] == "easy", "hr"].mean()), 2
    ),
    "How much further was the actual long run on 2024-02-25 than the one on 2024-02-11, in km?": lambda: (
        round(
            float(_t().loc[_t()["Date"] == "2024-02-25", "actual"].iloc[0])
            - float(_t().loc[_t()["Date"] == "2024-02-11", "actual"].iloc[0]),
            2,
        )
    ),
    "How many runs came in short of the planned distance?": lambda: int(
        (_runs()["actual"] < _runs()["planned"]).sum()
    ),
    "Which dates had an average heart rate above 160?": lambda: _t().loc[_t()["hr"] > 160, "Date"].tolist(),
    "what session did I do the day after 2024-02-18": lambda: _session_after("2024-02-18"),
    "What actual distance did I log on my first long run?": lambda: (
        _t().loc[_t()["Session"] == "long"].sort_values("date")["Actual"].iloc[0]
    ),
}


def _agrees(gold: str, value: object) -> bool:
    if isinstance(value, list):
        parts = gold.split("|")
        return len(parts) == len(value) and all(_agrees(g, v) for g, v in zip(parts, value, strict=True))
    if isinstance(value, str):
        return value == gold
    decimals = len(gold.split(".")[1]) if "." in gold else 0
    return abs(float(value) - float(gold)) <= 0.5 * 10**-decimals + 1e-9


def check() -> int:
    """Compare every TSV gold answer with the pandas recomputation; return the number of mismatches."""
    lines = (REAL / "questions-round14-w71.tsv").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "table\tquestion\tanswer\ttype"
    bad = 0
    for line in lines[1:]:
        _table, question, gold, kind = line.split("\t")
        value = ANSWERS[question]()
        ok = _agrees(gold, value)
        bad += not ok
        print(f"{'OK ' if ok else 'BAD'} [{kind}] {question!r}: gold={gold!r} computed={value!r}")
    print(f"{len(lines) - 1 - bad}/{len(lines) - 1} agree; {len(ANSWERS)} answers defined")
    return bad


if __name__ == "__main__":
    raise SystemExit(check())
