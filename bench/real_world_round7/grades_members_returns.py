"""Round seven of the real-world set (grades, members, returns): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"


def num(s):
    """Parse '1,234.5', '-£34.99', '29.99' etc. Blank -> None."""
    s = str(s).strip().replace(",", "").replace("£", "").replace("$", "")
    if s in ("", "nan", "None"):
        return None
    return float(s)


def dmy(s):
    return datetime.strptime(s.strip(), "%d/%m/%Y").date()


def iso(s):
    return datetime.strptime(s.strip(), "%Y-%m-%d").date()


grades = pd.read_excel(HERE / "course_grades.xlsx", dtype=str, keep_default_na=False)
members = pd.DataFrame(json.loads((HERE / "members_api.json").read_text(encoding="utf-8"))).astype(str)
returns = pd.read_csv(HERE / "warehouse_returns.tsv", sep="\t", dtype=str, keep_default_na=False)


def cell(df, key_col, key, col):
    return df.loc[df[key_col] == key, col].iloc[0]


def nums(series):
    return series.map(num)


def argbest(df, col, parse=num, most=True):
    vals = df[col].map(parse)
    vals = vals[vals.notna()]
    best = vals.max() if most else vals.min()
    hits = vals[vals == best]
    assert len(hits) == 1, f"tie on {col}"
    return hits.index[0]


def after(df, key_col, key, out_col, step=1):
    i = df.index[df[key_col] == key][0]
    return df.loc[i + step, out_col]


def avg(values):
    values = [v for v in values if v is not None]
    return round(sum(values) / len(values), 2)


ANSWERS: dict[str, Callable[[], object]] = {
    # ---- course_grades.xlsx
    "What did Soren Tadeo get on the midterm?": lambda: cell(grades, "Name", "Soren Tadeo", "Midterm"),
    "how many students got a B": lambda: int((grades["Letter grade"] == "B").sum()),
    "How many students are still missing a final exam score?": lambda: int(
        (grades["Final"].str.strip() == "").sum()
    ),
    "who has the best quiz average in the class?": lambda: grades.loc[argbest(grades, "Quiz avg"), "Name"],
    "average project mark for the students who got a C": lambda: avg(
        nums(grades.loc[grades["Letter grade"] == "C", "Project"])
    ),
    "Which students scored under 50 on the final?": lambda: list(
        grades.loc[nums(grades["Final"]).map(lambda v: v is not None and v < 50), "Name"]
    ),
    "how many points higher was Ambrose Klett's final than Aria Delgado's": lambda: (
        num(cell(grades, "Name", "Ambrose Klett", "Final"))
        - num(cell(grades, "Name", "Aria Delgado", "Final"))
    ),
    "who comes right after Hollis Ngata in the list?": lambda: after(grades, "Name", "Hollis Ngata", "Name"),
    "Who did better on the project, Camila Rourke or Maren Ashby?": lambda: max(
        ["Camila Rourke", "Maren Ashby"], key=lambda n: num(cell(grades, "Name", n, "Project"))
    ),
    "lowest midterm score - whose was it": lambda: grades.loc[argbest(grades, "Midterm", most=False), "Name"],
    # ---- members_api.json
    "what plan is Kofi Mensah on": lambda: cell(members, "name", "Kofi Mensah", "plan"),
    "How many of our members are in Millbrook?": lambda: int((members["city"] == "Millbrook").sum()),
    "how many people signed up in 2024?": lambda: int(
        members["joined"].map(lambda s: iso(s).year == 2024).sum()
    ),
    "Who came to the gym the fewest times last month?": lambda: members.loc[
        argbest(members, "visits_last_month", most=False), "name"
    ],
    "average monthly price paid by Plus members": lambda: avg(
        nums(members.loc[members["plan"] == "Plus", "monthly_fee"])
    ),
    "total referrals from members in Port Arden": lambda: sum(
        nums(members.loc[members["city"] == "Port Arden", "referrals"])
    ),
    "Who is our longest-standing member?": lambda: members.loc[
        argbest(members, "joined", parse=iso, most=False), "name"
    ],
    "how many members visited 20 times or more last month": lambda: int(
        (nums(members["visits_last_month"]) >= 20).sum()
    ),
    "Which members pay less than $19 a month?": lambda: list(
        members.loc[nums(members["monthly_fee"]) < 19, "name"]
    ),
    "how many more visits did Mateo Ibarra have than Priya Sethi last month?": lambda: (
        num(cell(members, "name", "Mateo Ibarra", "visits_last_month"))
        - num(cell(members, "name", "Priya Sethi", "visits_last_month"))
    ),
    # ---- warehouse_returns.tsv
    "Which RMA had the largest refund?": lambda: returns.loc[
        argbest(returns, "Refund (GBP)", most=False), "RMA"
    ],
    "total refunded on faulty items": lambda: round(
        sum(
            v
            for v in nums(returns.loc[returns["Return Reason"] == "Faulty", "Refund (GBP)"])
            if v is not None
        ),
        2,
    ),
    "how many returns were because the customer changed their mind?": lambda: int(
        (returns["Return Reason"] == "Changed mind").sum()
    ),
    "How many returns don't have a refund amount filled in?": lambda: int(
        (returns["Refund (GBP)"].str.strip() == "").sum()
    ),
    "number of returns on orders placed in March 2024": lambda: int(
        returns["Order Date"].map(lambda s: (dmy(s).year, dmy(s).month) == (2024, 3)).sum()
    ),
    "What's the average processing time in days for returns that were not put back in stock?": lambda: avg(
        nums(returns.loc[returns["Restocked"] == "N", "Days to Process"])
    ),
    "reason for RMA-24163?": lambda: cell(returns, "RMA", "RMA-24163", "Return Reason"),
    "Which return is for the oldest order?": lambda: returns.loc[
        argbest(returns, "Order Date", parse=dmy, most=False), "RMA"
    ],
    "what product is on the return just before RMA-24190": lambda: after(
        returns, "RMA", "RMA-24190", "Product", step=-1
    ),
    "Which returns took more than 20 days to process?": lambda: list(
        returns.loc[nums(returns["Days to Process"]) > 20, "RMA"]
    ),
}
