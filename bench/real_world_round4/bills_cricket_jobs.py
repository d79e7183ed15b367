"""Round four of the real-world set (bills, cricket, jobs): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"


def load(name):
    return pd.read_csv(HERE / name, dtype=str, keep_default_na=False)


def num(s):
    s = s.strip().replace("$", "").replace("£", "").replace(",", "").replace("*", "")
    return float(s) if s else None


def iso(s):
    return datetime.strptime(s, "%Y-%m-%d")


def dmy(s):
    return datetime.strptime(s, "%d %b %Y")


U = load("utility_bills_2023.csv")
C = load("cricket_batting.csv")
J = load("job_applications.csv")


def urow(month, typ):
    r = U[(U["Month"] == month) & (U["Type"] == typ)]
    assert len(r) == 1
    return r.iloc[0]


def crow(player):
    r = C[C["Player"] == player]
    assert len(r) == 1
    return r.iloc[0]


def jrow(company):
    r = J[J["Company"] == company]
    assert len(r) == 1
    return r.iloc[0]


def argmax_unique(df, col, key, conv=num):
    vals = df[col].map(conv)
    best = vals.max()
    hits = df[vals == best]
    assert len(hits) == 1, "tie"
    return hits.iloc[0][key]


def u_elec_over_140():
    e = U[U["Type"] == "Electric"]
    return int((e["Amount Due"].map(num) > 140).sum())


def u_due_jun_aug():
    d = U["Due Date"].map(iso)
    return int(((d >= datetime(2023, 6, 1)) & (d <= datetime(2023, 8, 31))).sum())


def u_first_orbitnet():
    o = U[U["Provider"] == "Orbitnet"]
    return min(o["Due Date"], key=iso)


def u_water_mar_sep():
    a = num(urow("Mar 2023", "Water")["Usage"])
    b = num(urow("Sep 2023", "Water")["Usage"])
    assert a != b
    return "Mar 2023" if a > b else "Sep 2023"


def c_never_out():
    return int((C["Avg"].str.strip() == "").sum())


def c_either(a, b):
    x, y = num(crow(a)["Avg"]), num(crow(b)["Avg"])
    assert x != y
    return a if x > y else b


def c_next(player):
    i = C.index[C["Player"] == player][0]
    return C.iloc[i + 1]["Player"]


def c_avg_sr():
    q = C[C["Inn"].map(num) >= 10]
    return round(q["SR"].map(num).mean(), 2)


def j_no_salary():
    return int((J["Salary"].str.strip() == "").sum())


def j_best_paid():
    s = J[J["Salary"] != ""]
    return argmax_unique(s, "Salary", "Company")


def j_march():
    d = J["Date Applied"].map(dmy)
    return int(((d.dt.year == 2024) & (d.dt.month == 3)).sum())


def j_latest():
    d = J["Date Applied"].map(dmy)
    assert (d == d.max()).sum() == 1
    return J[d == d.max()].iloc[0]["Company"]


def j_avg_interview():
    s = J[(J["Status"] == "Interview") & (J["Salary"] != "")]
    return round(s["Salary"].map(num).mean(), 2)


def j_next(company):
    j = J.assign(_d=J["Date Applied"].map(dmy)).sort_values("_d").reset_index(drop=True)
    i = j.index[j["Company"] == company][0]
    assert j.loc[i + 1, "_d"] != j.loc[i, "_d"]
    return j.loc[i + 1, "Company"]


def j_over_50k():
    s = J[J["Salary"] != ""]
    return list(s[s["Salary"].map(num) > 50000]["Company"])


def j_either(a, b):
    x, y = num(jrow(a)["Salary"]), num(jrow(b)["Salary"])
    assert x != y
    return a if x > y else b


ANSWERS: dict[str, Callable[[], object]] = {
    # utility_bills_2023.csv
    "What was the amount due on the June 2023 gas bill?": lambda: urow("Jun 2023", "Gas")["Amount Due"],
    "how many electric bills came to more than $140": u_elec_over_140,
    "Which month did we use the most electricity?": lambda: argmax_unique(
        U[U["Type"] == "Electric"], "Usage", "Month"
    ),
    "total gas charges for the whole year": lambda: round(
        U[U["Type"] == "Gas"]["Amount Due"].map(num).sum(), 2
    ),
    "What did internet cost us on average per month in 2023?": lambda: round(
        U[U["Type"] == "Internet"]["Amount Due"].map(num).mean(), 2
    ),
    "How much more was the July electric bill than the June one?": lambda: round(
        num(urow("Jul 2023", "Electric")["Amount Due"]) - num(urow("Jun 2023", "Electric")["Amount Due"]), 2
    ),
    "how many bills had a due date between June 1 and August 31, 2023": u_due_jun_aug,
    "How many bills are still marked as not paid?": lambda: int((U["Paid"] == "No").sum()),
    "when was the first Orbitnet bill due": u_first_orbitnet,
    "which water bill showed more gallons used, March or September?": u_water_mar_sep,
    # cricket_batting.csv
    "What's Tom Hadley's top score this season?": lambda: crow("Tom Hadley")["HS"],
    "who was our leading run scorer": lambda: argmax_unique(C, "Runs", "Player"),
    "How many players were never dismissed all season?": c_never_out,
    "which batsmen averaged over 40": lambda: list(C[C["Avg"].map(lambda s: (num(s) or 0) > 40)]["Player"]),
    "total number of half-centuries scored by the club": lambda: int(C["50s"].map(num).sum()),
    "How many players turned out for 16 matches?": lambda: int((C["M"] == "16").sum()),
    "average strike rate of players with 10 or more innings": c_avg_sr,
    "Who has the better batting average, Dan Whitcombe or Sam Okafor?": lambda: c_either(
        "Dan Whitcombe", "Sam Okafor"
    ),
    "how many more runs did Raj Patel get than Marcus Fenwick": lambda: (
        num(crow("Raj Patel")["Runs"]) - num(crow("Marcus Fenwick")["Runs"])
    ),
    "Who is listed straight after Liam Greaves in the batting table?": lambda: c_next("Liam Greaves"),
    # job_applications.csv
    "how many applications came through linkedin": lambda: int((J["Source"] == "LinkedIn").sum()),
    "How many of the jobs I applied for didn't list a salary?": j_no_salary,
    "Which company has the best-paying job on my list?": j_best_paid,
    "how many applications did I send in March 2024?": j_march,
    "what was the most recent company I applied to": j_latest,
    "Where am I at with Quillon Software?": lambda: jrow("Quillon Software")["Status"],
    "average salary of the jobs where I got an interview": j_avg_interview,
    "Which company did I apply to right after Kestrel Bank?": lambda: j_next("Kestrel Bank"),
    "which companies are offering more than £50k": j_over_50k,
    "Which paid more, the Lumora Retail job or the Corvid Health one?": lambda: j_either(
        "Lumora Retail", "Corvid Health"
    ),
}
