"""Round six of the real-world set (bakery, rugby, volunteers): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"


def load(name):
    return pd.read_csv(HERE / name, dtype=str, keep_default_na=False)


def num(s):
    s = str(s).strip().replace(",", "").replace("£", "").replace("$", "")
    if s == "":
        return None
    neg = s.startswith("(") and s.endswith(")")
    s = s.strip("()")
    v = float(s)
    return -v if neg else v


def uk_date(s):
    return datetime.strptime(s.strip(), "%d/%m/%Y")


def match_date(s):
    return datetime.strptime(s.strip(), "%a %d %b %Y")


def month_year(s):
    return datetime.strptime(s.strip(), "%b %Y")


B = load("bakery_orders.csv")
R = load("rugby_fixtures.csv")
V = load("volunteer_roster.csv")


def row_after(df, col, value, out):
    idx = df.index[df[col] == value][0]
    return df.loc[idx + 1, out]


def argmax(df, numcol, out):
    vals = df[numcol].map(num)
    return df.loc[vals.idxmax(), out]


def argmin_date(df, datecol, parser, out):
    d = df[datecol].map(parser)
    return df.loc[d.idxmin(), out]


def total_of(df, key_col, key, numcol):
    return num(df.loc[df[key_col] == key, numcol].iloc[0])


def bigger_of(df, key_col, a, b, numcol):
    return a if total_of(df, key_col, a, numcol) > total_of(df, key_col, b, numcol) else b


ANSWERS: dict[str, Callable[[], object]] = {
    # bakery_orders.csv
    "what was the total on order B-1067?": lambda: B.loc[B["Order No"] == "B-1067", "Total"].iloc[0],
    "how many pickup orders were there": lambda: int((B["Fulfilment"] == "Pickup").sum()),
    "Which order had the biggest total?": lambda: argmax(B, "Total", "Order No"),
    "how many croissants were ordered altogether": lambda: (
        B.loc[B["Item"] == "Croissant", "Qty"].map(num).sum()
    ),
    "What is the average order value for deliveries?": lambda: round(
        B.loc[B["Fulfilment"] == "Delivery", "Total"].map(num).mean(), 2
    ),
    "number of orders placed in april 2024": lambda: int(
        B["Order Date"].map(uk_date).map(lambda d: (d.year, d.month) == (2024, 4)).sum()
    ),
    "Who placed the order that came in right after B-1060?": lambda: row_after(
        B, "Order No", "B-1060", "Customer"
    ),
    "which was the larger order, B-1053 or B-1065?": lambda: bigger_of(
        B, "Order No", "B-1053", "B-1065", "Total"
    ),
    "Which items are priced at more than £15 each?": lambda: sorted(
        set(B.loc[B["Unit Price"].map(num) > 15, "Item"])
    ),
    "when did the most recent celebration cake order come in": lambda: (
        lambda s: s.loc[s.map(uk_date).idxmax()]
    )(B.loc[B["Item"] == "Celebration Cake", "Order Date"]),
    # rugby_fixtures.csv
    "What was the score in the home game against Kestrel Bay?": lambda: R.loc[
        (R["Opponent"] == "Kestrel Bay") & (R["Venue"] == "Home"), "Score"
    ].iloc[0],
    "how many games did we win this season": lambda: int((R["Result"] == "W").sum()),
    "How many matches have no crowd figure recorded?": lambda: int((R["Attendance"].str.strip() == "").sum()),
    "which opponent did we play in front of the biggest crowd?": lambda: (
        lambda a: R.loc[a.idxmax(), "Opponent"]
    )(R["Attendance"].map(num).astype(float)),
    "total tries we scored on the road": lambda: R.loc[R["Venue"] == "Away", "Tries Scored"].map(num).sum(),
    "What's our average attendance at home games?": lambda: round(
        R.loc[R["Venue"] == "Home", "Attendance"].map(num).mean(), 2
    ),
    "how many more people watched the Kestrel Bay home match than the Tollerton RFC home match": lambda: (
        num(R.loc[(R["Opponent"] == "Kestrel Bay") & (R["Venue"] == "Home"), "Attendance"].iloc[0])
        - num(R.loc[(R["Opponent"] == "Tollerton RFC") & (R["Venue"] == "Home"), "Attendance"].iloc[0])
    ),
    "Who did we play next after the away trip to Oakhurst Harlequins?": lambda: R.loc[
        R.index[(R["Opponent"] == "Oakhurst Harlequins") & (R["Venue"] == "Away")][0] + 1, "Opponent"
    ],
    "how many fixtures were in december 2024?": lambda: int(
        R["Date"].map(match_date).map(lambda d: (d.year, d.month) == (2024, 12)).sum()
    ),
    "When was our first defeat of the season?": lambda: argmin_date(
        R[R["Result"] == "L"], "Date", match_date, "Date"
    ),
    # volunteer_roster.csv
    "What shift is Maeve Dunleavy on?": lambda: V.loc[V["Name"] == "Maeve Dunleavy", "Shift"].iloc[0],
    "how many volunteers are in the warehouse team": lambda: int((V["Team"] == "Warehouse").sum()),
    "How many volunteers don't have an email address on file?": lambda: int(
        (V["Email"].str.strip() == "").sum()
    ),
    "who logged the most hours this month": lambda: argmax(V, "Hours This Month", "Name"),
    "Which volunteers put in fewer than 4 hours this month?": lambda: list(
        V.loc[V["Hours This Month"].map(num) < 4, "Name"]
    ),
    "total hours done by evening shift volunteers": lambda: (
        V.loc[V["Shift"] == "Evening", "Hours This Month"].map(num).sum()
    ),
    "average monthly hours for people in the kitchen team?": lambda: round(
        V.loc[V["Team"] == "Kitchen", "Hours This Month"].map(num).mean(), 2
    ),
    "Who has been volunteering with us the longest?": lambda: argmin_date(V, "Joined", month_year, "Name"),
    "how many people signed up during 2022": lambda: int(
        V["Joined"].map(month_year).map(lambda d: d.year == 2022).sum()
    ),
    "who did more hours this month, Bashir Qureshi or Ewan Gallacher?": lambda: bigger_of(
        V, "Name", "Bashir Qureshi", "Ewan Gallacher", "Hours This Month"
    ),
}
