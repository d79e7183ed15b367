"""Reference answers for round-9 writer w52 tables: gym timetable, stock portfolio, IT support tickets."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
GYM = "r9_gym_timetable.xlsx"
PORTFOLIO = "r9_stock_portfolio.tsv"
TICKETS = "r9_it_tickets.jsonl"
QUESTIONS = "questions-round9-w52.tsv"

_SUFFIX = {"K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}


def _minutes(value: object) -> float:
    """Parse a duration like 45, 60.0 or '60 min' into minutes."""
    match = re.search(r"\d+(\.\d+)?", str(value))
    return float(match.group()) if match else float("nan")


def _clock(value: object) -> int:
    """Parse '6:30 PM' (possibly padded) into minutes after midnight."""
    parsed = datetime.strptime(str(value).strip().upper(), "%I:%M %p")
    return parsed.hour * 60 + parsed.minute


def _money(value: object) -> float:
    return float(str(value).replace("$", "").replace(",", "").strip())


def _percent(value: object) -> float:
    return float(str(value).replace("%", "").replace("+", "").strip())


def _scaled(value: object) -> float:
    """Parse '2.5M', '850K', '1.2B', '2.95T'; anything unparseable is NaN."""
    text = str(value).strip().upper()
    match = re.fullmatch(r"([\d.,]+)\s*([KMBT]?)", text)
    if not match:
        return float("nan")
    return float(match.group(1).replace(",", "")) * _SUFFIX.get(match.group(2), 1.0)


def gym() -> pd.DataFrame:
    df = pd.read_excel(REAL / GYM, dtype=object)
    df["Class"] = df["Class"].astype(str).str.strip()
    df["Instructor"] = df["Instructor"].astype(str).str.strip()
    df["Day"] = df["Day"].astype(str).str.strip()
    df["start_min"] = df["Start Time"].map(_clock)
    df["duration"] = df["Duration (min)"].map(_minutes)
    df["capacity"] = pd.to_numeric(df["Capacity"].astype(str).str.strip(), errors="coerce")
    df["booked"] = pd.to_numeric(df["Booked"], errors="coerce")
    return df


def portfolio() -> pd.DataFrame:
    df = pd.read_csv(REAL / PORTFOLIO, sep="\t", dtype=str, keep_default_na=False)
    df["shares"] = df["Shares"].str.replace(",", "").astype(float)
    df["price"] = df["Price"].map(_money)
    df["change"] = df["Day Chg"].map(_percent)
    df["volume"] = df["Volume"].map(_scaled)
    df["cap"] = df["Mkt Cap"].map(_scaled)
    return df


def tickets() -> pd.DataFrame:
    df = pd.read_json(REAL / TICKETS, lines=True, dtype=False)
    if "closed_at" not in df:
        df["closed_at"] = None
    df["opened"] = pd.to_datetime(df["opened_at"], format="ISO8601")
    df["closed"] = pd.to_datetime(df["closed_at"], format="ISO8601")
    df["prio"] = df["priority"].astype(str).str.strip().str.lower()
    df["who"] = df["assignee"].fillna("").astype(str).str.strip()
    df["hours"] = pd.to_numeric(df["time_spent_hrs"], errors="coerce")
    return df


def _row(df: pd.DataFrame, column: str, value: str) -> pd.Series:
    hits = df[df[column] == value]
    assert len(hits) == 1, (column, value, len(hits))
    return hits.iloc[0]


def _gym_earliest(day: str) -> str:
    g = gym()
    return g[g["Day"] == day].sort_values("start_min").iloc[0]["Class"]


def _gym_after(name: str) -> str:
    g = gym().reset_index(drop=True)
    idx = g.index[g["Class"] == name]
    assert len(idx) == 1
    return g.loc[idx[0] + 1, "Class"]


def _bookings(who: str) -> float:
    g = gym()
    return g.loc[g["Instructor"] == who, "booked"].sum()


def _ticket_before(ticket_id: str) -> str:
    t = tickets().sort_values("opened").reset_index(drop=True)
    idx = t.index[t["id"] == ticket_id][0]
    return t.loc[idx - 1, "id"]


def _longest_to_close() -> str:
    t = tickets().dropna(subset=["closed"])
    return t.loc[(t["closed"] - t["opened"]).idxmax(), "id"]


def _first_critical_closed() -> str:
    t = tickets()
    row = t[t["prio"] == "critical"].sort_values("opened").iloc[0]
    return row["closed_at"]


ANSWERS: dict[str, Callable[[], object]] = {
    # gym timetable
    "What time does Kettlebell Circuit start?": lambda: _row(gym(), "Class", "Kettlebell Circuit")[
        "Start Time"
    ].strip(),
    "how many classes does Priya Nair teach": lambda: int((gym()["Instructor"] == "Priya Nair").sum()),
    "How many classes are fully booked?": lambda: int((gym()["booked"] >= gym()["capacity"]).sum()),
    "Which class has the longest duration?": lambda: gym().loc[gym()["duration"].idxmax(), "Class"],
    "total number of people booked across all saturday classes": lambda: int(
        gym().loc[gym()["Day"].str.lower() == "saturday", "booked"].sum()
    ),
    "What's the average capacity of our classes?": lambda: round(float(gym()["capacity"].mean()), 2),
    "How many more spots does Zumba have than Barre?": lambda: int(
        _row(gym(), "Class", "Zumba")["capacity"] - _row(gym(), "Class", "Barre")["capacity"]
    ),
    "which class comes right after Aqua Aerobics on the timetable": lambda: _gym_after("Aqua Aerobics"),
    "What is the earliest class on Saturday?": lambda: _gym_earliest("Saturday"),
    "Who has more bookings in total across their classes, Maya Chen or Marcus Bell?": lambda: max(
        ["Maya Chen", "Marcus Bell"], key=_bookings
    ),
    # stock portfolio
    "what's the price of Costco": lambda: (
        portfolio().loc[portfolio()["Company"].str.contains("Costco"), "Price"].item()
    ),
    "How many of my stocks were down today?": lambda: int((portfolio()["change"] < 0).sum()),
    "which ticker had the biggest drop today": lambda: portfolio().loc[
        portfolio()["change"].idxmin(), "Ticker"
    ],
    "Which ticker has the highest trading volume?": lambda: portfolio().loc[
        portfolio()["volume"].idxmax(), "Ticker"
    ],
    "Which companies have a market cap above 1 trillion?": lambda: (
        portfolio().loc[portfolio()["cap"] > 1e12, "Company"].tolist()
    ),
    "What is the total market value of our portfolio (shares times price, summed over every holding)?": lambda: (
        round(float((portfolio()["shares"] * portfolio()["price"]).sum()), 2)
    ),
    "average share price across our holdings": lambda: round(float(portfolio()["price"].mean()), 2),
    "How many more shares of Ford do we have than SoFi?": lambda: int(
        _row(portfolio(), "Ticker", "F")["shares"] - _row(portfolio(), "Ticker", "SOFI")["shares"]
    ),
    "how many holdings trade under 1M shares a day": lambda: int((portfolio()["volume"] < 1e6).sum()),
    "Which is bigger by market cap, TSLA or JNJ?": lambda: max(
        ["TSLA", "JNJ"], key=lambda tk: _row(portfolio(), "Ticker", tk)["cap"]
    ),
    # IT tickets
    "Who is assigned to INC-1012?": lambda: _row(tickets(), "id", "INC-1012")["assignee"],
    "how many high priority tickets do we have": lambda: int((tickets()["prio"] == "high").sum()),
    "How many tickets are still open (no closed time)?": lambda: int(tickets()["closed"].isna().sum()),
    "Which tickets were opened in March 2024?": lambda: (
        tickets()
        .loc[tickets()["opened"].dt.to_period("M") == pd.Period("2024-03", "M")]
        .sort_values("opened")["id"]
        .tolist()
    ),
    "When was the first Critical ticket closed?": _first_critical_closed,
    "total hours spent on Network tickets": lambda: round(
        float(tickets().loc[tickets()["category"] == "Network", "hours"].sum()), 2
    ),
    "What's the average time spent per ticket for Kim Osei?": lambda: round(
        float(tickets().loc[tickets()["who"] == "Kim Osei", "hours"].mean()), 2
    ),
    "Which ticket took the longest to close?": _longest_to_close,
    "what ticket was opened right before INC-1016": lambda: _ticket_before("INC-1016"),
    "Which tickets had more than 5 hours spent on them?": lambda: (
        tickets().loc[tickets()["hours"] > 5, "id"].tolist()
    ),
}


def _agrees(computed: object, gold: str) -> bool:
    if isinstance(computed, list):
        return "|".join(str(x) for x in computed) == gold
    if isinstance(computed, str):
        return computed == gold
    decimals = len(gold.split(".")[1]) if "." in gold else 0
    return abs(float(computed) - float(gold)) <= 0.5 * 10**-decimals


def check() -> int:
    rows = pd.read_csv(REAL / QUESTIONS, sep="\t", dtype=str, keep_default_na=False)
    bad = 0
    for rec in rows.itertuples(index=False):
        computed = ANSWERS[rec.question]()
        ok = _agrees(computed, rec.answer)
        bad += not ok
        print(
            f"{'OK ' if ok else 'BAD'} [{rec.type}] {rec.question!r}: gold={rec.answer!r} computed={computed!r}"
        )
    missing = set(ANSWERS) ^ set(rows["question"])
    print(f"{len(rows) - bad}/{len(rows)} agree; unmatched question keys: {sorted(missing)}")
    print(rows["type"].value_counts().to_string())
    return bad + len(missing)


if __name__ == "__main__":
    raise SystemExit(check())
