"""Round three of the real-world set (invoices, volunteers, hockey): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"


def load(name: str) -> pd.DataFrame:
    return pd.read_csv(HERE / name, dtype=str, keep_default_na=False)


def money(s: str) -> float:
    return float(s.replace("$", "").replace(",", ""))


def num(s: str) -> float:
    return float(s.replace(",", "").replace("+", ""))


def mdy(s: str) -> datetime:
    return datetime.strptime(s, "%m/%d/%Y")


def long_date(s: str) -> datetime:
    return datetime.strptime(s, "%a, %b %d, %Y")


INV = load("invoices_2024.csv")
VOL = load("volunteer_hours.csv")
HOC = load("hockey_standings.csv")

INV_AMT = INV["Amount (USD)"].map(money)
INV_ISSUE = INV["Issue Date"].map(mdy)
VOL_H = VOL["Hours"].map(num)
VOL_D = VOL["Date"].map(long_date)
HOC_DIFF = HOC["Goal Diff"].map(num)


def unique_best(values: pd.Series, labels: pd.Series, largest: bool = True) -> str:
    best = values.max() if largest else values.min()
    hits = labels[values == best]
    assert len(hits) == 1, f"tie: {list(hits)}"
    return hits.iloc[0]


def row_after(df: pd.DataFrame, key_col: str, key: str, out_col: str, step: int) -> str:
    i = df.index[df[key_col] == key][0]
    return df.loc[i + step, out_col]


def hours_of(name: str) -> float:
    return VOL_H[VOL["Volunteer Name"] == name].sum()


def hoc(team: str, col: str) -> float:
    return num(HOC.loc[HOC["Team"] == team, col].iloc[0])


def latest_paid() -> str:
    paid = INV[INV["Paid Date"] != ""]
    dates = paid["Paid Date"].map(mdy)
    assert (dates == dates.max()).sum() == 1
    return paid.loc[dates.idxmax(), "Paid Date"]


def first_shift(name: str) -> str:
    rows = VOL[VOL["Volunteer Name"] == name]
    return rows.loc[VOL_D[rows.index].idxmin(), "Date"]


ANSWERS: dict[str, Callable[[], object]] = {
    # invoices_2024.csv
    "What's the amount on INV-2024-016?": lambda: INV.loc[
        INV["Invoice #"] == "INV-2024-016", "Amount (USD)"
    ].iloc[0],
    "how many invoices are overdue right now": lambda: int((INV["Status"] == "Overdue").sum()),
    "How many invoices were for more than $5,000?": lambda: int((INV_AMT > 5000).sum()),
    "Which client has the single biggest invoice?": lambda: unique_best(INV_AMT, INV["Client"]),
    "total billed to kestrel analytics": lambda: INV_AMT[INV["Client"] == "Kestrel Analytics"].sum(),
    "What's the average invoice amount for Pinecrest Dental?": lambda: round(
        INV_AMT[INV["Client"] == "Pinecrest Dental"].mean(), 2
    ),
    "how much did we invoice in march": lambda: INV_AMT[
        (INV_ISSUE.dt.year == 2024) & (INV_ISSUE.dt.month == 3)
    ].sum(),
    "When was the most recent payment received?": latest_paid,
    "Which client is on the invoice right after INV-2024-009?": lambda: row_after(
        INV, "Invoice #", "INV-2024-009", "Client", 1
    ),
    "which invoices are under $1,000": lambda: list(INV.loc[INV_AMT < 1000, "Invoice #"]),
    # volunteer_hours.csv
    "How many hours did Dana Whitfield put in altogether?": lambda: hours_of("Dana Whitfield"),
    "who logged the longest single shift": lambda: unique_best(VOL_H, VOL["Volunteer Name"]),
    "how many entries have no role filled in?": lambda: int((VOL["Role"].str.strip() == "").sum()),
    "How many people helped out at the Charity Fun Run?": lambda: int(
        (VOL["Event"] == "Charity Fun Run").sum()
    ),
    "What's the average shift length at the Pantry Shift?": lambda: round(
        VOL_H[VOL["Event"] == "Pantry Shift"].mean(), 2
    ),
    "total volunteer hours in april": lambda: VOL_H[(VOL_D.dt.year == 2024) & (VOL_D.dt.month == 4)].sum(),
    "Who put in more hours overall, Tom Brezak or Grace Nakamura?": lambda: max(
        ["Tom Brezak", "Grace Nakamura"], key=hours_of
    ),
    "When did Evan Holloway first volunteer?": lambda: first_shift("Evan Holloway"),
    "what role did sam okafor have at the fun run": lambda: VOL.loc[
        (VOL["Volunteer Name"] == "Sam Okafor") & (VOL["Event"] == "Charity Fun Run"), "Role"
    ].iloc[0],
    "Which volunteers did more than 4 hours in a single shift?": lambda: list(
        VOL.loc[VOL_H > 4, "Volunteer Name"]
    ),
    # hockey_standings.csv
    "Which team has the worst goal differential?": lambda: unique_best(HOC_DIFF, HOC["Team"], largest=False),
    "how many teams have a negative goal diff": lambda: int((HOC_DIFF < 0).sum()),
    "How many points do the Ashby Hornets have?": lambda: hoc("Ashby Hornets", "PTS"),
    "which team has given up the fewest goals": lambda: unique_best(
        HOC["GA"].map(num), HOC["Team"], largest=False
    ),
    "Who sits right above the Eastmoor Foxes in the standings?": lambda: row_after(
        HOC, "Team", "Eastmoor Foxes", "Team", -1
    ),
    "how many points ahead of Lakeshore are the Ravens": lambda: (
        hoc("Ridgeport Ravens", "PTS") - hoc("Lakeshore Lynx", "PTS")
    ),
    "Who has scored more goals, Northbay or Silverton?": lambda: max(
        ["Northbay Harriers", "Silverton Comets"], key=lambda t: hoc(t, "GF")
    ),
    "How many teams are on a winning streak right now?": lambda: int(HOC["Streak"].str.startswith("W").sum()),
    "average goals scored per team across the league": lambda: round(HOC["GF"].map(num).mean(), 2),
    "Which teams have won more than 22 games?": lambda: list(HOC.loc[HOC["W"].map(num) > 22, "Team"]),
}
