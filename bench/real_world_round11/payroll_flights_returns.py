"""Reference answers for round-11 questions on the payroll, flight arrivals and shop returns tables."""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL_DIR = Path(__file__).resolve().parents[2] / "examples" / "real"
PAYROLL_FILE = "r11_payroll_june_2024.csv"
FLIGHTS_FILE = "r11_flight_arrivals.csv"
RETURNS_FILE = "r11_shop_returns.jsonl"
QUESTIONS_FILE = "questions-round11-w60.tsv"


def parse_money(text: object) -> float | None:
    """'£3,250.00' -> 3250.0, '(120.00)' -> -120.0, blank -> None."""
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return None
    s = str(text).strip()
    if not s:
        return None
    negative = s.startswith("(") and s.endswith(")")
    s = s.strip("()").replace("£", "").replace(",", "").strip()
    value = float(s)
    return -value if negative else value


def parse_delay(text: object) -> int | None:
    """'+17 min' -> 17, '-5 min' -> -5, '0 min' -> 0, blank -> None."""
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return None
    match = re.fullmatch(r"\s*([+-]?\d+)\s*min\s*", str(text))
    if match is None:
        raise ValueError(f"bad delay: {text!r}")
    return int(match.group(1))


def clock_minutes(text: object) -> int | None:
    """'14:35' -> 875 minutes after midnight, blank -> None."""
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return None
    hours, minutes = str(text).split(":")
    return int(hours) * 60 + int(minutes)


def payroll() -> pd.DataFrame:
    df = pd.read_csv(REAL_DIR / PAYROLL_FILE, dtype=str, keep_default_na=False)
    for col in ["Gross Pay", "Overtime", "Income Tax", "Deductions", "Net Pay"]:
        df[col + " num"] = df[col].map(parse_money)
    return df


def flights() -> pd.DataFrame:
    df = pd.read_csv(REAL_DIR / FLIGHTS_FILE, dtype=str, keep_default_na=False)
    df["delay_min"] = df["Delay"].map(lambda s: parse_delay(s) if s else None)
    df["sched_min"] = df["Scheduled"].map(clock_minutes)
    df["actual_min"] = df["Actual"].map(lambda s: clock_minutes(s) if s else None)
    return df


def returns() -> pd.DataFrame:
    df = pd.read_json(REAL_DIR / RETURNS_FILE, lines=True, dtype={"refund_amount": str})
    df["refund"] = df["refund_amount"].map(lambda s: float(str(s)))
    df["order_dt"] = pd.to_datetime(df["order_date"], format="%Y-%m-%d")
    df["return_dt"] = pd.to_datetime(df["return_date"], format="%Y-%m-%d")
    return df


def _cell(df: pd.DataFrame, key_col: str, key: str, col: str) -> str:
    rows = df.loc[df[key_col] == key, col]
    assert len(rows) == 1, (key, len(rows))
    return str(rows.iloc[0])


def _row_after(df: pd.DataFrame, mask: pd.Series, col: str) -> str:
    positions = [i for i, flag in enumerate(mask.tolist()) if flag]
    assert len(positions) == 1
    return str(df.iloc[positions[0] + 1][col])


def _pick(df: pd.DataFrame, col: str, how: str, name_col: str) -> str:
    target = df[col].max() if how == "max" else df[col].min()
    hits = df.loc[df[col] == target, name_col]
    assert len(hits) == 1, hits.tolist()
    return str(hits.iloc[0])


def _either(values: dict[str, float]) -> str:
    (a, va), (b, vb) = values.items()
    assert va != vb
    return a if va > vb else b


def _net(name: str) -> float:
    p = payroll()
    return float(p.loc[p["Employee"] == name, "Net Pay num"].iloc[0])


def _tax(name: str) -> float:
    p = payroll()
    return float(p.loc[p["Employee"] == name, "Income Tax num"].iloc[0])


def _flight_delay(flight: str) -> float:
    f = flights()
    return float(f.loc[f["Flight"] == flight, "delay_min"].iloc[0])


def _product_refund(product: str) -> float:
    r = returns()
    return float(r.loc[r["product"] == product, "refund"].sum())


ANSWERS: dict[str, Callable[[], object]] = {
    # payroll
    "What is Chloe Davies's net pay?": lambda: _cell(payroll(), "Employee", "Chloe Davies", "Net Pay"),
    "how many people work in Warehouse": lambda: int((payroll()["Department"] == "Warehouse").sum()),
    "How many employees have a blank overtime cell on this month's payroll?": lambda: int(
        (payroll()["Overtime"].str.strip() == "").sum()
    ),
    "Who had the highest gross pay in June?": lambda: _pick(payroll(), "Gross Pay num", "max", "Employee"),
    "what's our total net pay for the Sales department": lambda: float(
        payroll().query("Department == 'Sales'")["Net Pay num"].sum()
    ),
    "What is the average gross pay in Finance?": lambda: round(
        float(payroll().query("Department == 'Finance'")["Gross Pay num"].mean()), 2
    ),
    "How much more income tax did Jack Lewis pay than Farid Hassan?": lambda: (
        _tax("Jack Lewis") - _tax("Farid Hassan")
    ),
    "Who took home more, Ben Carter or Katie Moore?": lambda: _either(
        {"Ben Carter": _net("Ben Carter"), "Katie Moore": _net("Katie Moore")}
    ),
    # deductions are negative: the biggest deduction is the most negative value
    "which employee has the biggest deduction": lambda: _pick(payroll(), "Deductions num", "min", "Employee"),
    "Who is listed right after Grace Hughes?": lambda: _row_after(
        payroll(), payroll()["Employee"] == "Grace Hughes", "Employee"
    ),
    # flights
    "What time did TP1352 actually land?": lambda: _cell(flights(), "Flight", "TP1352", "Actual"),
    "how many flights came in from Dublin": lambda: int((flights()["From"] == "Dublin").sum()),
    "How many flights arrived 30 minutes or more behind schedule?": lambda: int(
        (flights()["delay_min"] >= 30).sum()
    ),
    "Which flight had the longest delay?": lambda: _pick(flights(), "delay_min", "max", "Flight"),
    # early arrivals have negative delays: furthest ahead is the most negative
    "which flight got in furthest ahead of its scheduled time": lambda: _pick(
        flights(), "delay_min", "min", "Flight"
    ),
    "What was the average delay in minutes over all flights that have an actual arrival time?": lambda: round(
        float(flights().loc[flights()["Actual"] != "", "delay_min"].mean()), 2
    ),
    "Which flights were scheduled to arrive after 17:00?": lambda: (
        flights().loc[flights()["sched_min"] > 17 * 60, "Flight"].tolist()
    ),
    "which flight is scheduled right after the Madrid one": lambda: _row_after(
        flights().sort_values("sched_min", kind="stable").reset_index(drop=True),
        flights().sort_values("sched_min", kind="stable").reset_index(drop=True)["From"] == "Madrid",
        "Flight",
    ),
    "Which had the longer delay, AZ202 or OS455?": lambda: _either(
        {"AZ202": _flight_delay("AZ202"), "OS455": _flight_delay("OS455")}
    ),
    "What was the last flight to actually touch down today?": lambda: _pick(
        flights().dropna(subset=["actual_min"]), "actual_min", "max", "Flight"
    ),
    # returns
    "What was the refund amount on return R-2012?": lambda: _cell(
        returns(), "return_id", "R-2012", "refund_amount"
    ),
    "how many returns are still pending": lambda: int((returns()["status"] == "Pending").sum()),
    "How many returns in our log have no reason recorded?": lambda: int(returns()["reason"].isna().sum()),
    "Which return had the biggest refund amount?": lambda: _pick(returns(), "refund", "max", "return_id"),
    "what is the total refund amount across all returns with status Refunded": lambda: round(
        float(returns().query("status == 'Refunded'")["refund"].sum()), 2
    ),
    "What's the average refund amount on pending returns?": lambda: round(
        float(returns().query("status == 'Pending'")["refund"].mean()), 2
    ),
    "List the return IDs whose return date falls in February 2024": lambda: (
        returns()
        .loc[(returns()["return_dt"].dt.year == 2024) & (returns()["return_dt"].dt.month == 2), "return_id"]
        .tolist()
    ),
    "Which returns had a refund amount above 60?": lambda: (
        returns().loc[returns()["refund"] > 60, "return_id"].tolist()
    ),
    "Which return has the most recent return date?": lambda: _pick(
        returns(), "return_dt", "max", "return_id"
    ),
    "We've had Coffee Grinder and Hiking Backpack returns - which product has the bigger total refund amount?": lambda: (
        _either(
            {
                "Coffee Grinder": _product_refund("Coffee Grinder"),
                "Hiking Backpack": _product_refund("Hiking Backpack"),
            }
        )
    ),
}


def agrees(computed: object, gold: str) -> bool:
    """Number: within half a unit of the gold's last decimal; string: exact; list: '|'-joined, same order."""
    if isinstance(computed, list):
        return "|".join(str(v) for v in computed) == gold
    if isinstance(computed, (int, float)) and not isinstance(computed, bool):
        decimals = len(gold.split(".")[1]) if "." in gold else 0
        return abs(float(computed) - float(gold)) <= 0.5 * 10**-decimals + 1e-9
    return str(computed) == gold


def _check() -> None:
    with open(REAL_DIR / QUESTIONS_FILE, encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    assert rows[0] == ["table", "question", "answer", "type"], rows[0]
    body = rows[1:]
    assert len({r[1] for r in body}) == len(body), "duplicate questions"
    assert set(ANSWERS) == {r[1] for r in body}, "ANSWERS keys differ from TSV questions"
    ok = 0
    for table, question, gold, qtype in body:
        computed = ANSWERS[question]()
        good = agrees(computed, gold)
        ok += good
        print(f"{'OK ' if good else 'BAD'} {qtype:18} {table:28} gold={gold!r} computed={computed!r}")
    types = pd.Series([r[3] for r in body]).value_counts()
    print(f"\n{ok}/{len(body)} agree; {types.size} types: {types.to_dict()}")


if __name__ == "__main__":
    _check()
