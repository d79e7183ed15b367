"""Hand-checked answers for round-10 questions on invoices, football results and a teacher list."""

from __future__ import annotations

import csv
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
QUESTIONS = REAL / "questions-round10-w53.tsv"


def _money(text: object) -> float:
    """Parse `$2,310.00` or `-$150.00` into a float."""
    s = str(text).strip()
    neg = s.startswith("-")
    s = s.lstrip("-").replace("$", "").replace(",", "")
    value = float(s)
    return -value if neg else value


def _count(text: object) -> float:
    """Parse `3,215` into a float; blank gives NaN."""
    if pd.isna(text) or str(text).strip() == "":
        return float("nan")
    return float(str(text).replace(",", ""))


@lru_cache(maxsize=1)
def invoices() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r10_plumbing_invoices.csv", dtype=str, keep_default_na=False)
    df["amount_num"] = df["Amount"].map(_money)
    df["date"] = pd.to_datetime(df["Invoice Date"], format="%m/%d/%Y")
    return df


@lru_cache(maxsize=1)
def football() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r10_womens_football_results.csv", dtype=str, keep_default_na=False)
    df["date"] = pd.to_datetime(df["Date"], format="%d %b %Y")
    df["crowd"] = df["Attendance"].map(_count)
    goals = df["Score"].str.split("\u2013", expand=True)
    df["gf"] = goals[0].astype(int)
    df["ga"] = goals[1].astype(int)
    return df


@lru_cache(maxsize=1)
def teachers() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r10_teachers.xlsx", dtype={"Start Date": str})
    df["start"] = pd.to_datetime(df["Start Date"], format="%b %d, %Y")
    df["FTE"] = df["FTE"].astype(float)
    return df


def _inv_row(number: str) -> pd.Series:
    df = invoices()
    return df[df["Invoice No"] == number].iloc[0]


def _job_total(job: str) -> float:
    df = invoices()
    return float(df.loc[df["Job Type"] == job, "amount_num"].sum())


def _home_crowd(opponent: str) -> float:
    df = football()
    return df[(df["Opponent"] == opponent) & (df["Home/Away"] == "Home")]["crowd"].iloc[0]


def _next_after_home(opponent: str) -> str:
    df = football().sort_values("date").reset_index(drop=True)
    idx = df.index[(df["Opponent"] == opponent) & (df["Home/Away"] == "Home")][0]
    return df.loc[idx + 1, "Opponent"]


def _dept_fte(dept: str) -> float:
    df = teachers()
    return float(df.loc[df["Department"] == dept, "FTE"].sum())


def _bigger(a: str, b: str, values: Callable[[str], float]) -> str:
    return a if values(a) > values(b) else b


ANSWERS: dict[str, Callable[[], object]] = {
    # plumbing invoices
    "What was the amount on invoice INV-1047?": lambda: _inv_row("INV-1047")["Amount"],
    "how many invoices are still unpaid": lambda: int((invoices()["Paid"] == "N").sum()),
    "What is the total we billed Greenleaf Apartments, including any credit notes?": lambda: float(
        invoices().loc[invoices()["Customer"] == "Greenleaf Apartments", "amount_num"].sum()
    ),
    "which invoice numbers have a negative amount": lambda: (
        invoices().loc[invoices()["amount_num"] < 0, "Invoice No"].tolist()
    ),
    "Which customer had our single biggest invoice?": lambda: invoices().loc[
        invoices()["amount_num"].idxmax(), "Customer"
    ],
    "list the invoices dated in March 2024": lambda: (
        invoices()
        .loc[(invoices()["date"].dt.year == 2024) & (invoices()["date"].dt.month == 3), "Invoice No"]
        .tolist()
    ),
    "What's the average amount for a boiler service job?": lambda: round(
        float(invoices().loc[invoices()["Job Type"] == "Boiler service", "amount_num"].mean()), 2
    ),
    "Did we bill more in total for leak repair or for drain unblocking jobs?": lambda: _bigger(
        "Leak repair", "Drain unblocking", _job_total
    ),
    "How much more was the S. Delgado bathroom refit invoice than the Greenleaf Apartments "
    "pipe replacement invoice?": lambda: float(
        invoices().query("Customer == 'S. Delgado' and `Job Type` == 'Bathroom refit'")["amount_num"].iloc[0]
        - invoices()
        .query("Customer == 'Greenleaf Apartments' and `Job Type` == 'Pipe replacement'")["amount_num"]
        .iloc[0]
    ),
    "number of invoices over $1,000": lambda: int((invoices()["amount_num"] > 1000).sum()),
    # women's football results
    "what was the score when we hosted Kingsbridge Women": lambda: (
        football().query("Opponent == 'Kingsbridge Women' and `Home/Away` == 'Home'")["Score"].iloc[0]
    ),
    "Which opponent drew our biggest crowd of the season?": lambda: football().loc[
        football()["crowd"].idxmax(), "Opponent"
    ],
    "How many of our matches have no attendance recorded?": lambda: int(football()["crowd"].isna().sum()),
    "how many FA Cup games did we play": lambda: int((football()["Competition"] == "FA Cup").sum()),
    "What was our average home attendance?": lambda: round(
        float(football().loc[football()["Home/Away"] == "Home", "crowd"].mean()), 2
    ),
    "Who did we play in our last away game of the season?": lambda: (
        football().query("`Home/Away` == 'Away'").sort_values("date")["Opponent"].iloc[-1]
    ),
    "who did we play next after the home game against Saltmarsh FC": lambda: _next_after_home("Saltmarsh FC"),
    "Which opponents did we play in front of a crowd of more than 2,500?": lambda: (
        football().loc[football()["crowd"] > 2500, "Opponent"].tolist()
    ),
    "How many more fans came to the Harbour City Women home game than to the Millbrook Ladies home game?": lambda: (
        int(_home_crowd("Harbour City Women") - _home_crowd("Millbrook Ladies"))
    ),
    "total goals we scored in the League Cup": lambda: int(
        football().loc[football()["Competition"] == "League Cup", "gf"].sum()
    ),
    # teacher list
    "What room is Gareth Pryce in?": lambda: (
        teachers().loc[teachers()["Name"] == "Gareth Pryce", "Room"].iloc[0]
    ),
    "how many teachers are in the Science department": lambda: int(
        (teachers()["Department"] == "Science").sum()
    ),
    "How many staff don't have a room number?": lambda: int(teachers()["Room"].isna().sum()),
    "Which teacher has the smallest FTE?": lambda: teachers().loc[teachers()["FTE"].idxmin(), "Name"],
    "who has been at our school the longest": lambda: teachers().loc[teachers()["start"].idxmin(), "Name"],
    "Which teachers started before 2010?": lambda: (
        teachers().loc[teachers()["start"] < pd.Timestamp("2010-01-01"), "Name"].tolist()
    ),
    "average FTE across all staff": lambda: round(float(teachers()["FTE"].mean()), 2),
    "What is the total FTE in the Mathematics department?": lambda: round(_dept_fte("Mathematics"), 2),
    "Which department has more FTE in total, Languages or Humanities?": lambda: _bigger(
        "Languages", "Humanities", _dept_fte
    ),
    "which teachers started in 2019": lambda: (
        teachers().loc[teachers()["start"].dt.year == 2019, "Name"].tolist()
    ),
}


def _agrees(computed: object, gold: str) -> bool:
    if isinstance(computed, list):
        return "|".join(str(x) for x in computed) == gold
    if isinstance(computed, (int, float)) and not isinstance(computed, bool):
        decimals = len(gold.split(".")[1]) if "." in gold else 0
        return abs(float(computed) - float(gold)) <= 0.5 * 10**-decimals + 1e-9
    return str(computed) == gold


def check() -> tuple[int, int]:
    """Compare every TSV gold answer with the pandas computation; return (agreed, total)."""
    with QUESTIONS.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    agreed = 0
    for row in rows:
        computed = ANSWERS[row["question"]]()
        ok = _agrees(computed, row["answer"])
        agreed += ok
        print(
            f"{'OK ' if ok else 'BAD'} [{row['type']}] {row['question']!r}: gold={row['answer']!r} got={computed!r}"
        )
    print(f"{agreed}/{len(rows)} agree; {len(ANSWERS)} questions in ANSWERS")
    return agreed, len(rows)


if __name__ == "__main__":
    check()
