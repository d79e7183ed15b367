"""Round three of the real-world set (portfolio, grades, flights): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

from collections.abc import Callable
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"


def load(name):
    return pd.read_csv(HERE / name, dtype=str, keep_default_na=False)


def num(s):
    """Parse '$1,234.50', '(1,234.50)', '-8.2%', '88.5' -> float; blank -> None."""
    s = s.strip()
    if s == "":
        return None
    neg = s.startswith("(") and s.endswith(")")
    s = s.strip("()").replace("$", "").replace(",", "").replace("%", "")
    v = float(s)
    return -v if neg else v


def minutes(hhmm):
    h, m = hhmm.split(":")
    return int(h) * 60 + int(m)


def col(df, name):
    return [num(x) for x in df[name]]


def row(df, key_col, key):
    return df[df[key_col] == key].iloc[0]


def argbest(df, name, label, pick=max):
    vals = [(v, i) for i, v in enumerate(col(df, name)) if v is not None]
    best = pick(v for v, _ in vals)
    hits = [i for v, i in vals if v == best]
    assert len(hits) == 1, f"tie on {name}"
    return df[label].iloc[hits[0]]


def mean(xs):
    xs = [x for x in xs if x is not None]
    return round(sum(xs) / len(xs), 2)


def after(df, key_col, key):
    i = df.index[df[key_col] == key][0]
    return df[key_col].iloc[i + 1]


S = load("stock_portfolio.csv")
G = load("student_grades.csv")
F = load("flight_log.csv")


def either(df, key_col, a, b, name):
    va = num(row(df, key_col, a)[name])
    vb = num(row(df, key_col, b)[name])
    assert va != vb
    return a if va > vb else b


ANSWERS: dict[str, Callable[[], object]] = {
    # stock_portfolio.csv
    "What's my average cost on Cedarix Networks?": lambda: row(S, "Company", "Cedarix Networks")["Avg Cost"],
    "which ticker is my biggest position by market value": lambda: argbest(S, "Market Value", "Ticker"),
    "Which company in my portfolio has lost me the most money so far?": lambda: argbest(
        S, "Gain/Loss ($)", "Company", min
    ),
    "how many positions have more than 150 shares": lambda: sum(1 for v in col(S, "Shares") if v > 150),
    "What is the total market value of the whole portfolio?": lambda: sum(col(S, "Market Value")),
    "average return % across all holdings": lambda: mean(col(S, "Gain/Loss %")),
    "How much more is my ZNTH position worth than my NRTH position?": lambda: (
        num(row(S, "Ticker", "ZNTH")["Market Value"]) - num(row(S, "Ticker", "NRTH")["Market Value"])
    ),
    "which tickers are trading above $100 a share right now?": lambda: [
        t for t, p in zip(S["Ticker"], col(S, "Current Price"), strict=False) if p > 100
    ],
    "Which did better in percentage terms, Goldfinch Mining or Quantix Software?": lambda: either(
        S, "Company", "Goldfinch Mining", "Quantix Software", "Gain/Loss %"
    ),
    "of the stocks that are down, which company is down the least in dollars": lambda: argbest(
        S[[num(x) < 0 for x in S["Gain/Loss ($)"]]].reset_index(drop=True), "Gain/Loss ($)", "Company", max
    ),
    # student_grades.csv
    "What did Hiro Tanabe get on the final?": lambda: row(G, "Student", "Hiro Tanabe")["Final Exam"],
    "how many kids got an A-": lambda: int((G["Letter Grade"] == "A-").sum()),
    "How many students are missing either a midterm or a final score?": lambda: int(
        ((G["Midterm"] == "") | (G["Final Exam"] == "")).sum()
    ),
    "who scored highest on the midterm": lambda: argbest(G, "Midterm", "Student"),
    "What's the class average on the final exam, not counting the excused ones?": lambda: mean(
        col(G, "Final Exam")
    ),
    "which students have more than 6 absences?": lambda: [
        s for s, a in zip(G["Student"], col(G, "Absences"), strict=False) if a > 6
    ],
    "first student on the list with a C- grade": lambda: G[G["Letter Grade"] == "C-"]["Student"].iloc[0],
    "Who comes right after Olivia Brannock in the gradebook?": lambda: after(G, "Student", "Olivia Brannock"),
    "how many points higher is Chloe Whitfield's homework average than Ben Castellano's": lambda: (
        num(row(G, "Student", "Chloe Whitfield")["Homework Avg"])
        - num(row(G, "Student", "Ben Castellano")["Homework Avg"])
    ),
    "Who did better on the midterm, Nikhil Varma or Isabel Duarte?": lambda: either(
        G, "Student", "Nikhil Varma", "Isabel Duarte", "Midterm"
    ),
    # flight_log.csv
    "what gate is SK 471 leaving from": lambda: row(F, "Flight", "SK 471")["Gate"],
    "How many flights were cancelled today?": lambda: int((F["Status"] == "Cancelled").sum()),
    "Which flight had the longest delay?": lambda: argbest(F, "Delay (min)", "Flight"),
    "which flight left furthest ahead of schedule": lambda: argbest(F, "Delay (min)", "Flight", min),
    "how many departures went from a B gate?": lambda: sum(1 for g in F["Gate"] if g.startswith("B")),
    "How many flights were scheduled to leave between noon and 2 pm?": lambda: sum(
        1 for t in F["Scheduled"] if minutes("12:00") <= minutes(t) <= minutes("14:00")
    ),
    "average delay in minutes for the flights marked delayed": lambda: mean(
        col(F[F["Status"] == "Delayed"], "Delay (min)")
    ),
    "What flight was scheduled right after NV 704?": lambda: (
        F.iloc[sorted(range(len(F)), key=lambda i: minutes(F["Scheduled"][i]))]
        .reset_index(drop=True)
        .pipe(after, "Flight", "NV 704")
    ),
    "which flight is the last departure of the day to Port Calder": lambda: max(
        (
            (minutes(t), f)
            for f, t, d in zip(F["Flight"], F["Scheduled"], F["Destination"], strict=False)
            if d == "Port Calder"
        )
    )[1],
    "Which was held up longer, QL 81 or SK 452?": lambda: either(
        F, "Flight", "QL 81", "SK 452", "Delay (min)"
    ),
}
