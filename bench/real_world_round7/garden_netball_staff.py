"""Round seven of the real-world set (garden, netball, staff): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"


def load(name):
    return pd.read_csv(HERE / name, dtype=str, keep_default_na=False)


def money(s):
    return float(s.replace("$", "").replace(",", ""))


def num(s):
    return float(s.replace(",", ""))


def us_date(s):
    return datetime.strptime(s, "%m/%d/%Y")


def match_date(s):
    return datetime.strptime(s, "%a %d %b %Y")


def month_year(s):
    return datetime.strptime(s, "%b %Y")


def own_score(s):
    return int(s.split("\u2013")[0])


G = load("garden_centre_sales.csv")
N = load("netball_results.csv")
S = load("practice_staff.csv")


def g_row(invoice):
    return G[G["Invoice No"] == invoice].iloc[0]


def g_units(word):
    rows = G[G["Product"].str.lower().str.contains(word)]
    return rows["Qty"].astype(int).sum()


def g_bigger(a, b):
    ua, ub = g_units(a), g_units(b)
    name = a if ua > ub else b
    return G[G["Product"].str.lower().str.contains(name)]["Product"].iloc[0]


def g_biggest():
    totals = G["Total (USD)"].map(money)
    assert (totals == totals.max()).sum() == 1
    return G.loc[totals.idxmax(), "Invoice No"]


def g_next_customer(invoice):
    i = G.index[G["Invoice No"] == invoice][0]
    return G.loc[i + 1, "Customer"]


def g_last_purchase(customer):
    rows = G[G["Customer"] == customer]
    dates = rows["Date"].map(us_date)
    return rows.loc[dates.idxmax(), "Date"]


def n_home_crowds():
    return N[(N["Home/Away"] == "Home") & (N["Crowd"] != "")]["Crowd"].map(num)


def n_biggest_crowd():
    rows = N[N["Crowd"] != ""]
    crowds = rows["Crowd"].map(num)
    assert (crowds == crowds.max()).sum() == 1
    return rows.loc[crowds.idxmax(), "Opponent"]


def n_game(opponent, venue):
    return N[(N["Opponent"] == opponent) & (N["Home/Away"] == venue)].iloc[0]


def n_next_opponent(opponent, venue):
    order = N.assign(d=N["Date"].map(match_date)).sort_values("d").reset_index(drop=True)
    i = order.index[(order["Opponent"] == opponent) & (order["Home/Away"] == venue)][0]
    return order.loc[i + 1, "Opponent"]


def n_first(result):
    rows = N[N["Result"] == result]
    return rows.loc[rows["Date"].map(match_date).idxmin(), "Date"]


def n_pom_more(a, b):
    counts = N["Player of the Match"].value_counts()
    assert counts.get(a, 0) != counts.get(b, 0)
    return a if counts.get(a, 0) > counts.get(b, 0) else b


def s_hours():
    return S["Hours per Week"].map(num)


def s_fewest_hours():
    h = s_hours()
    assert (h == h.min()).sum() == 1
    return S.loc[h.idxmin(), "Name"]


def s_newest():
    d = S["Start Date"].map(month_year)
    assert (d == d.max()).sum() == 1
    return S.loc[d.idxmax(), "Name"]


def s_longer(a, b):
    da = month_year(S[S["Name"] == a]["Start Date"].iloc[0])
    db = month_year(S[S["Name"] == b]["Start Date"].iloc[0])
    assert da != db
    return a if da < db else b


ANSWERS: dict[str, Callable[[], object]] = {
    # garden_centre_sales.csv
    "What was the total on invoice GC-2214?": lambda: g_row("GC-2214")["Total (USD)"],
    "how many sales were put on account": lambda: int((G["Payment"] == "Account").sum()),
    "How many sales have no customer name recorded?": lambda: int((G["Customer"].str.strip() == "").sum()),
    "total bags of compost sold": lambda: int(g_units("compost")),
    "Which invoice was our biggest sale by value?": g_biggest,
    "how many invoices were raised in May 2024?": lambda: int(
        G["Date"].map(us_date).map(lambda d: (d.year, d.month) == (2024, 5)).sum()
    ),
    "What's the average invoice total for sales paid in cash?": lambda: round(
        G[G["Payment"] == "Cash"]["Total (USD)"].map(money).mean(), 2
    ),
    "who was the customer on the invoice straight after GC-2230": lambda: g_next_customer("GC-2230"),
    "Which sold more units overall, the lavender or the tomato seedlings?": lambda: g_bigger(
        "lavender", "tomato"
    ),
    "When did Tom Ferreira last buy something from us?": lambda: g_last_purchase("Tom Ferreira"),
    # netball_results.csv
    "What was the score in the away game at Riverside Rockets?": lambda: n_game("Riverside Rockets", "Away")[
        "Score"
    ],
    "how many games did we lose this season": lambda: int((N["Result"] == "Lost").sum()),
    "How many matches have no attendance figure?": lambda: int((N["Crowd"].str.strip() == "").sum()),
    "Which opponent did we play in front of our biggest crowd?": n_biggest_crowd,
    "average home crowd": lambda: round(n_home_crowds().mean(), 2),
    "Who did we play next after the home match against Lakeview Lynx?": lambda: n_next_opponent(
        "Lakeview Lynx", "Home"
    ),
    "when was our first draw": lambda: n_first("Drew"),
    "How many more spectators came to the Pinecrest Panthers home game than the Kingsmere Kestrels home game?": lambda: (
        num(n_game("Pinecrest Panthers", "Home")["Crowd"])
        - num(n_game("Kingsmere Kestrels", "Home")["Crowd"])
    ),
    "who was named player of the match more often, Kiri Tane or Aisha Bennett?": lambda: n_pom_more(
        "Kiri Tane", "Aisha Bennett"
    ),
    "On which dates did we score more than 53 goals?": lambda: list(
        N[N["Score"].map(own_score) > 53]["Date"]
    ),
    # practice_staff.csv
    "What's Tariq Aziz's extension?": lambda: S[S["Name"] == "Tariq Aziz"]["Phone Ext"].iloc[0],
    "how many hygienists are there": lambda: int((S["Role"] == "Hygienist").sum()),
    "How many staff don't have a phone extension?": lambda: int((S["Phone Ext"].str.strip() == "").sum()),
    "who works the fewest hours a week": s_fewest_hours,
    "total weekly hours for everyone based at Millfield": lambda: s_hours()[
        S["Location"] == "Millfield"
    ].sum(),
    "What is the average weekly hours for the Eastgate team?": lambda: round(
        s_hours()[S["Location"] == "Eastgate"].mean(), 2
    ),
    "Which staff members are contracted for more than 38 hours a week?": lambda: list(
        S[s_hours() > 38]["Name"]
    ),
    "who joined us in 2022?": lambda: list(
        S[S["Start Date"].map(month_year).map(lambda d: d.year == 2022)]["Name"]
    ),
    "Who is our most recent hire?": s_newest,
    "Who has been with the practice longer, Bethany Cole or Peter Lang?": lambda: s_longer(
        "Bethany Cole", "Peter Lang"
    ),
}
