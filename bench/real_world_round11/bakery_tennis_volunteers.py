"""Independent pandas answers for the round-11 bakery, tennis ladder and volunteer tables (writer w57)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def money(text: object) -> float:
    """Parse '$1,040.00' or '-$65.00' into a float."""
    s = str(text).strip().replace(",", "").replace("$", "")
    return float(s)


def bakery() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r11_bakery_wholesale_orders.csv", dtype=str, keep_default_na=False)
    df["total"] = df["Line Total"].map(money)
    df["price"] = df["Unit Price"].map(money)
    df["qty"] = df["Qty"].astype(int)
    df["date"] = pd.to_datetime(df["Order Date"], format="%m/%d/%Y")
    return df


def tennis() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r11_tennis_ladder_results.csv", dtype=str, keep_default_na=False)
    df["date"] = pd.to_datetime(df["Date"], format="%d %b %Y")
    df["sets"] = df["Score"].map(lambda s: len(s.split()) if s.strip() else 0)
    return df


def volunteers() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r11_charity_volunteers.xlsx", dtype={"Phone": str})
    df["joined"] = pd.to_datetime(df["Joined"], format="%b %d, %Y")
    df["hours"] = df["Hours This Quarter"].astype(float)
    df["dbs"] = df["DBS Checked"].fillna("").astype(str).str.strip()
    df["phone"] = df["Phone"].fillna("").astype(str).str.strip()
    return df


def wins(player: str) -> int:
    return int((tennis()["Winner"] == player).sum())


def cust_qty(customer: str, product: str) -> int:
    b = bakery()
    return int(b.loc[(b["Customer"] == customer) & (b["Product"] == product), "qty"].sum())


def team_hours(team: str) -> pd.Series:
    v = volunteers()
    return v.loc[v["Team"] == team, "hours"]


def hours_of(name: str) -> float:
    v = volunteers()
    return float(v.loc[v["Name"] == name, "hours"].iloc[0])


def row_after(df: pd.DataFrame, mask: pd.Series, col: str) -> str:
    idx = df.index[mask][0]
    return str(df.loc[df.index[df.index.get_loc(idx) + 1], col])


ANSWERS: dict[str, Callable[[], object]] = {
    # bakery wholesale orders
    "What was the line total for order 1014?": lambda: (
        bakery().set_index("Order ID").loc["1014", "Line Total"]
    ),
    "how many orders did Bean There Café place": lambda: int(
        (bakery()["Customer"] == "Bean There Café").sum()
    ),
    "Which customer placed the single largest order by line total?": lambda: (
        bakery().sort_values("total", ascending=False).iloc[0]["Customer"]
    ),
    "What do all of Café Marigold's line totals add up to?": lambda: round(
        bakery().query("Customer == 'Café Marigold'")["total"].sum(), 2
    ),
    "which order IDs were placed in June 2024": lambda: (
        bakery().loc[lambda d: (d["date"].dt.year == 2024) & (d["date"].dt.month == 6), "Order ID"].tolist()
    ),
    "Which customer has an order with a negative line total?": lambda: (
        bakery().loc[lambda d: d["total"] < 0, "Customer"].iloc[0]
    ),
    "How many orders had a quantity of 100 or more?": lambda: int((bakery()["qty"] >= 100).sum()),
    "What is the average line total for Harbour Street Espresso?": lambda: round(
        bakery().query("Customer == 'Harbour Street Espresso'")["total"].mean(), 2
    ),
    "what product was on our most recent order": lambda: (
        bakery().sort_values("date", kind="stable").iloc[-1]["Product"]
    ),
    "Who took more croissants in total, Bean There Café or Little Fox Coffee?": lambda: max(
        ["Bean There Café", "Little Fox Coffee"], key=lambda c: cust_qty(c, "Croissant")
    ),
    # tennis ladder results
    "how many more matches did Marco Ruiz win than Dev Patel": lambda: wins("Marco Ruiz") - wins("Dev Patel"),
    "How many matches needed three sets?": lambda: int((tennis()["sets"] == 3).sum()),
    "Which court was the Marco Ruiz v Dev Patel match played on?": lambda: (
        tennis()
        .loc[lambda d: (d["Player A"] == "Marco Ruiz") & (d["Player B"] == "Dev Patel"), "Court"]
        .iloc[0]
    ),
    "Who won the match listed right after Lena Fischer v Priya Nair?": lambda: row_after(
        tennis(), (tennis()["Player A"] == "Lena Fischer") & (tennis()["Player B"] == "Priya Nair"), "Winner"
    ),
    "who won the final match listed in our ladder results": lambda: tennis().iloc[-1]["Winner"],
    "How many ladder matches were played in May 2024?": lambda: int(
        tennis()["date"].between("2024-05-01", "2024-05-31").sum()
    ),
    "Who won more matches, Marco Ruiz or Jess Wright?": lambda: max(["Marco Ruiz", "Jess Wright"], key=wins),
    "Which player won the most matches?": lambda: tennis()["Winner"].value_counts().idxmax(),
    "Who won the matches played after 25 May 2024? List the winners in order.": lambda: (
        tennis().loc[lambda d: d["date"] > pd.Timestamp("2024-05-25"), "Winner"].tolist()
    ),
    "court 3 - how many matches": lambda: int((tennis()["Court"] == "Court 3").sum()),
    # charity volunteers
    "What team is Amira Haddad on?": lambda: volunteers().set_index("Name").loc["Amira Haddad", "Team"],
    "how many volunteers are in the Food Bank team": lambda: int((volunteers()["Team"] == "Food Bank").sum()),
    "How many of our volunteers have no phone number on file?": lambda: int(
        (volunteers()["phone"] == "").sum()
    ),
    "Who logged the most hours this quarter?": lambda: volunteers().sort_values("hours").iloc[-1]["Name"],
    "What is the total number of hours our Charity Shop volunteers put in this quarter?": lambda: float(
        team_hours("Charity Shop").sum()
    ),
    "average hours per volunteer on the Drivers team": lambda: round(float(team_hours("Drivers").mean()), 2),
    "Who is our longest-serving volunteer, going by the joined date?": lambda: (
        volunteers().sort_values("joined").iloc[0]["Name"]
    ),
    "which volunteers joined after Jan 1, 2024": lambda: (
        volunteers().loc[lambda d: d["joined"] > pd.Timestamp("2024-01-01"), "Name"].tolist()
    ),
    "who's listed right after Wei Zhang in the volunteer sheet": lambda: row_after(
        volunteers(), volunteers()["Name"] == "Wei Zhang", "Name"
    ),
    "How many more hours did Lucy Marsh do than Jake Thornton?": lambda: (
        hours_of("Lucy Marsh") - hours_of("Jake Thornton")
    ),
}
