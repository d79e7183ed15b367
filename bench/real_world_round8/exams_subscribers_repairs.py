"""Round eight of the real-world set (exams, subscribers, repairs): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

import json
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"


# ---------- small parsers ----------
def num(s) -> float | None:
    """'72' -> 72.0, '£1,049.00' -> 1049.0, '-£20.00' -> -20.0, '' -> None."""
    s = "" if s is None else str(s).strip()
    if s == "" or s.lower() in ("nan", "none"):
        return None
    neg = s.startswith("-") or (s.startswith("(") and s.endswith(")"))
    s = s.strip("-()").replace("£", "").replace("$", "").replace(",", "").strip()
    v = float(s)
    return -v if neg else v


def dmy(s: str) -> date:
    return datetime.strptime(s.strip(), "%d/%m/%Y").date()


def iso(s: str) -> date:
    return datetime.strptime(s.strip(), "%Y-%m-%d").date()


def blank(s) -> bool:
    return s is None or str(s).strip() in ("", "nan", "None")


# ---------- tables (all text) ----------
def load_exam() -> pd.DataFrame:
    return pd.read_excel(HERE / "exam_scores.xlsx", dtype=str, keep_default_na=False)


def load_subs() -> pd.DataFrame:
    with open(HERE / "subscribers_api.json", encoding="utf-8") as f:
        data = json.load(f)
    rows = [{k: ("" if v is None else str(v)) for k, v in r.items()} for r in data]
    return pd.DataFrame(rows, dtype=str)


def load_tix() -> pd.DataFrame:
    return pd.read_csv(HERE / "repair_tickets.tsv", sep="\t", dtype=str, keep_default_na=False)


EX = load_exam()
SU = load_subs()
TX = load_tix()


def col(df: pd.DataFrame, name: str) -> list:
    return [num(v) for v in df[name]]


def cell(df: pd.DataFrame, key_col: str, key: str, out_col: str) -> str:
    hits = df[df[key_col] == key]
    assert len(hits) == 1, (key, len(hits))
    return hits.iloc[0][out_col]


def argmax_unique(df: pd.DataFrame, val_col: str, out_col: str, sign: int = 1) -> str:
    vals = [(sign * num(v)) if not blank(v) else None for v in df[val_col]]
    best = max(v for v in vals if v is not None)
    idx = [i for i, v in enumerate(vals) if v == best]
    assert len(idx) == 1, f"tie on {val_col}"
    return df.iloc[idx[0]][out_col]


def after(df: pd.DataFrame, key_col: str, key: str, out_col: str) -> str:
    pos = [i for i, v in enumerate(df[key_col]) if v == key]
    assert len(pos) == 1
    return df.iloc[pos[0] + 1][out_col]


def either(df: pd.DataFrame, key_col: str, a: str, b: str, val_col: str) -> str:
    va, vb = num(cell(df, key_col, a, val_col)), num(cell(df, key_col, b, val_col))
    assert va != vb
    return a if va > vb else b


def mean(xs: list) -> float:
    xs = [x for x in xs if x is not None]
    return round(sum(xs) / len(xs), 2)


# ---------- answers ----------
ANSWERS: dict[str, Callable[[], object]] = {
    # exam_scores.xlsx
    "What did Isla Pemberton get in English?": lambda: cell(EX, "Name", "Isla Pemberton", "English"),
    "how many kids are in form 11B": lambda: int((EX["Form"] == "11B").sum()),
    "How many students missed the science paper?": lambda: sum(blank(v) for v in EX["Science"]),
    "who got the top mark in maths": lambda: argmax_unique(EX, "Maths", "Name"),
    "average english score for 11C": lambda: mean(col(EX[EX["Form"] == "11C"], "English")),
    "How many more marks overall did Priya Nandakumar get than Daniel Okafor?": lambda: (
        num(cell(EX, "Name", "Priya Nandakumar", "Total")) - num(cell(EX, "Name", "Daniel Okafor", "Total"))
    ),
    "Who did better in science, Finlay Brooks or Rosie Calloway?": lambda: either(
        EX, "Name", "Finlay Brooks", "Rosie Calloway", "Science"
    ),
    "which pupils scored under 50 in maths?": lambda: [
        n for n, m in zip(EX["Name"], EX["Maths"], strict=False) if not blank(m) and num(m) < 50
    ],
    "who's listed right after Quinn Maddox": lambda: after(EX, "Name", "Quinn Maddox", "Name"),
    "Which 11C pupil is last on the sheet?": lambda: EX[EX["Form"] == "11C"].iloc[-1]["Name"],
    # subscribers_api.json
    "How many subscribers are on the Team plan?": lambda: int((SU["tier"] == "Team").sum()),
    "total monthly revenue from pro subscribers": lambda: sum(col(SU[SU["tier"] == "Pro"], "monthly_price")),
    "how many people signed up in 2024": lambda: sum(iso(d).year == 2024 for d in SU["signed_up"]),
    "Which subscriber opened the most emails in the last 30 days?": lambda: argmax_unique(
        SU, "opens_last_30d", "name"
    ),
    "how many subscribers have no country on file": lambda: sum(blank(v) for v in SU["country"]),
    "What's the average number of opens last month for people on the free tier?": lambda: mean(
        col(SU[SU["tier"] == "Free"], "opens_last_30d")
    ),
    "When did Leila Haddad sign up?": lambda: cell(SU, "name", "Leila Haddad", "signed_up"),
    "who was the first person to join on the Team tier?": lambda: min(
        (iso(d), n) for n, d, t in zip(SU["name"], SU["signed_up"], SU["tier"], strict=False) if t == "Team"
    )[1],
    "Which Team customers pay less than 40 a month?": lambda: [
        n
        for n, p, t in zip(SU["name"], SU["monthly_price"], SU["tier"], strict=False)
        if t == "Team" and num(p) < 40
    ],
    "who opened more newsletters in the past 30 days, Owen Gallagher or Tara Quinlan": lambda: either(
        SU, "name", "Owen Gallagher", "Tara Quinlan", "opens_last_30d"
    ),
    # repair_tickets.tsv
    "Which ticket had the biggest refund?": lambda: argmax_unique(TX, "Refund", "Ticket #", sign=-1),
    "total quoted for cracked screens in march": lambda: sum(
        num(q)
        for q, f, r in zip(TX["Quote"], TX["Fault"], TX["Received"], strict=False)
        if f == "Cracked screen" and dmy(r).month == 3 and dmy(r).year == 2024
    ),
    "How many tickets came in during February?": lambda: sum(dmy(r).month == 2 for r in TX["Received"]),
    "how many jobs were in the shop for more than a week": lambda: sum(
        1 for d in TX["Days In Shop"] if not blank(d) and num(d) > 7
    ),
    "What was the quote on ticket T-3119?": lambda: cell(TX, "Ticket #", "T-3119", "Quote"),
    "average days in shop for battery replacements": lambda: mean(
        col(TX[TX["Fault"] == "Battery replacement"], "Days In Shop")
    ),
    "How many water damage jobs did we have?": lambda: int((TX["Fault"] == "Water damage").sum()),
    "what device came in right after the Huawei P30?": lambda: after(TX, "Device", "Huawei P30", "Device"),
    "When did the first Face ID repair come in?": lambda: min(
        (dmy(r), r) for r, f in zip(TX["Received"], TX["Fault"], strict=False) if f == "Face ID fault"
    )[1],
    "how many more days was T-3116 in the shop than T-3109": lambda: (
        num(cell(TX, "Ticket #", "T-3116", "Days In Shop"))
        - num(cell(TX, "Ticket #", "T-3109", "Days In Shop"))
    ),
}
