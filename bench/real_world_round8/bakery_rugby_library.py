"""Round eight of the real-world set (bakery, rugby, library): each answer recomputed with pandas by the
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


bk = load("bakery_web_orders.csv")
rg = load("rugby_club_fixtures.csv")
lib = load("library_staff.csv")

bk_total = bk["Order Total (USD)"].map(money)
bk_qty = bk["Qty"].map(int)
bk_date = bk["Order Date"].map(us_date)
rg_date = rg["Date"].map(match_date)
rg_home = rg[rg["Venue"] == "Home"]
lib_fte = lib["FTE"].map(float)
lib_start = lib["Start Date"].map(month_year)


def bk_row(order):
    return bk[bk["Order No"] == order].iloc[0]


def rg_game(opp, venue):
    g = rg[(rg["Opponent"] == opp) & (rg["Venue"] == venue)]
    assert len(g) == 1
    return g.iloc[0]


def unique_max(series):
    top = series.max()
    assert (series == top).sum() == 1, "tie"
    return series.idxmax()


def unique_min(series):
    low = series.min()
    assert (series == low).sum() == 1, "tie"
    return series.idxmin()


def next_after(df, col, value):
    i = df.index[df[col] == value][0]
    return df.loc[i + 1]


def avg(values):
    return round(sum(values) / len(values), 2)


def bk_either(a, b):
    ta, tb = money(bk_row(a)["Order Total (USD)"]), money(bk_row(b)["Order Total (USD)"])
    assert ta != tb
    return a if ta > tb else b


def july_first_delivery():
    d = bk[(bk["Pickup / Delivery"] == "Delivery") & (bk_date.dt.month == 7) & (bk_date.dt.year == 2024)]
    return d.loc[bk_date[d.index].idxmin(), "Order Date"]


def first_away_win():
    w = rg[(rg["Venue"] == "Away") & (rg["Result"] == "W")]
    return w.loc[rg_date[w.index].idxmin(), "Date"]


def lib_earlier(a, b):
    sa = lib_start[lib["Name"] == a].iloc[0]
    sb = lib_start[lib["Name"] == b].iloc[0]
    assert sa != sb
    return a if sa < sb else b


assistants = lib["Job Title"] == "Library Assistant"

ANSWERS: dict[str, Callable[[], object]] = {
    # bakery_web_orders.csv
    "what was the total on order BK-5128?": lambda: bk_row("BK-5128")["Order Total (USD)"],
    "How many orders went out for delivery?": lambda: int((bk["Pickup / Delivery"] == "Delivery").sum()),
    "how many orders were for 100 or more items": lambda: int((bk_qty >= 100).sum()),
    "Which customer placed the single biggest order by value?": lambda: bk.loc[
        unique_max(bk_total), "Customer"
    ],
    "total number of sourdough loaves ordered": lambda: int(bk_qty[bk["Item"] == "Sourdough Loaf"].sum()),
    "What's the average order total for orders that were picked up?": lambda: avg(
        bk_total[bk["Pickup / Delivery"] == "Pickup"].tolist()
    ),
    "how many orders did we get in June 2024": lambda: int(
        ((bk_date.dt.month == 6) & (bk_date.dt.year == 2024)).sum()
    ),
    "What item was on the order that came in right after BK-5120?": lambda: next_after(
        bk, "Order No", "BK-5120"
    )["Item"],
    "Which order was worth more, BK-5124 or BK-5107?": lambda: bk_either("BK-5124", "BK-5107"),
    "when was the first delivery order in July?": july_first_delivery,
    # rugby_club_fixtures.csv
    "What was the score in the away game at Stourleigh Rams?": lambda: rg_game("Stourleigh Rams", "Away")[
        "Score"
    ],
    "how many games did we lose this season": lambda: int((rg["Result"] == "L").sum()),
    "How many matches have no attendance recorded?": lambda: int((rg["Attendance"].str.strip() == "").sum()),
    "which opponent did we play in front of the biggest crowd": lambda: rg.loc[
        unique_max(rg["Attendance"].map(lambda s: num(s) if s else -1)), "Opponent"
    ],
    "What was our average crowd for home matches?": lambda: avg([num(s) for s in rg_home["Attendance"] if s]),
    "how many more fans turned up for the Dunmore Rovers home game than the Calder Bridge home game?": lambda: (
        num(rg_game("Dunmore Rovers", "Home")["Attendance"])
        - num(rg_game("Calder Bridge", "Home")["Attendance"])
    ),
    "who did we play next after the away trip to Oldmere Foxes?": lambda: rg.loc[
        rg_game("Oldmere Foxes", "Away").name + 1, "Opponent"
    ],
    "When did we get our first win on the road?": first_away_win,
    "number of matches played in 2025": lambda: int((rg_date.dt.year == 2025).sum()),
    "Which home games drew fewer than 4,000 spectators?": lambda: [
        r["Opponent"] for _, r in rg_home.iterrows() if r["Attendance"] and num(r["Attendance"]) < 4000
    ],
    # library_staff.csv
    "What's Connor Aldridge's desk phone number?": lambda: lib[lib["Name"] == "Connor Aldridge"].iloc[0][
        "Desk Phone"
    ],
    "how many people work at central": lambda: int((lib["Branch"] == "Central").sum()),
    "How many staff don't have a phone number listed?": lambda: int(
        (lib["Desk Phone"].str.strip() == "").sum()
    ),
    "total FTE at the Riverside branch": lambda: round(lib_fte[lib["Branch"] == "Riverside"].sum(), 2),
    "What is the average FTE of the library assistants?": lambda: avg(lib_fte[assistants].tolist()),
    "which library assistant works the most hours": lambda: lib.loc[unique_max(lib_fte[assistants]), "Name"],
    "Who is on less than half-time (under 0.5 FTE)?": lambda: lib.loc[lib_fte < 0.5, "Name"].tolist(),
    "how many people started in 2021?": lambda: int((lib_start.map(lambda d: d.year) == 2021).sum()),
    "Who has been with the library the longest?": lambda: lib.loc[unique_min(lib_start), "Name"],
    "who joined first, Jorge Ibarra or Sunniva Karlsen": lambda: lib_earlier(
        "Jorge Ibarra", "Sunniva Karlsen"
    ),
}
