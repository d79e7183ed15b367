"""Round two of the real-world set (orders, roster, gym): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"

orders = pd.read_csv(HERE / "online_orders_q2.csv", dtype=str, keep_default_na=False)
roster = pd.read_csv(HERE / "team_roster.csv", dtype=str, keep_default_na=False)
gym = pd.read_excel(HERE / "gym_classes.xlsx", dtype=str).fillna("")


def money(s: str) -> float:
    s = s.strip().replace("$", "").replace(",", "")
    neg = s.startswith("(") and s.endswith(")")
    s = s.strip("()")
    v = float(s)
    return -v if neg else v


def num(s: str) -> float:
    return float(s.strip().replace(",", ""))


def mdy(s: str) -> datetime:
    return datetime.strptime(s.strip(), "%m/%d/%Y")


def long_date(s: str) -> datetime:
    return datetime.strptime(s.strip(), "%b %d, %Y")


def clock(s: str) -> datetime:
    return datetime.strptime(s.strip(), "%I:%M %p")


def row(df: pd.DataFrame, col: str, val: str) -> pd.Series:
    m = df[df[col] == val]
    assert len(m) == 1, (col, val, len(m))
    return m.iloc[0]


def unique_extreme(df: pd.DataFrame, key, want_max: bool) -> pd.Series:
    vals = df.apply(key, axis=1)
    best = vals.max() if want_max else vals.min()
    hits = df[vals == best]
    assert len(hits) == 1, "tie"
    return hits.iloc[0]


# --- orders helpers
o_sub = orders["Subtotal (USD)"].map(money)
o_date = orders["Order Date"].map(mdy)


def order_after(order_no: str) -> pd.Series:
    i = orders.index[orders["Order #"] == order_no][0]
    return orders.loc[i + 1]


def bigger_order(a: str, b: str) -> str:
    va, vb = (
        money(row(orders, "Order #", a)["Subtotal (USD)"]),
        money(row(orders, "Order #", b)["Subtotal (USD)"]),
    )
    assert va != vb
    return a if va > vb else b


# --- roster helpers
r_start = roster["Start Date"].map(long_date)


def hired_next_after(name: str) -> str:
    d = long_date(row(roster, "Name", name)["Start Date"])
    later = roster[r_start > d]
    return unique_extreme(later, lambda r: long_date(r["Start Date"]), want_max=False)["Name"]


def started_earlier(a: str, b: str) -> str:
    da, db = long_date(row(roster, "Name", a)["Start Date"]), long_date(row(roster, "Name", b)["Start Date"])
    assert da != db
    return a if da < db else b


# --- gym helpers
def gym_row(cls: str, day: str) -> pd.Series:
    m = gym[(gym["Class"] == cls) & (gym["Day"] == day)]
    assert len(m) == 1
    return m.iloc[0]


def class_after(cls: str, day: str) -> str:
    day_rows = gym[gym["Day"] == day].copy()
    day_rows["t"] = day_rows["Start Time"].map(clock)
    day_rows = day_rows.sort_values("t").reset_index(drop=True)
    i = day_rows.index[day_rows["Class"] == cls][0]
    return day_rows.loc[i + 1, "Class"]


def last_class(day: str) -> str:
    return unique_extreme(gym[gym["Day"] == day], lambda r: clock(r["Start Time"]), want_max=True)["Class"]


ANSWERS: dict[str, Callable[[], object]] = {
    # online_orders_q2.csv
    "What was the subtotal on order 10247?": lambda: row(orders, "Order #", "10247")["Subtotal (USD)"],
    "how many orders got refunded": lambda: int((orders["Status"] == "Refunded").sum()),
    "How many orders had more than 3 items in them?": lambda: int((orders["Items"].map(num) > 3).sum()),
    "which customer placed the biggest order": lambda: unique_extreme(
        orders, lambda r: money(r["Subtotal (USD)"]), want_max=True
    )["Customer Name"],
    "total sales to texas customers": lambda: round(o_sub[orders["Ship State"] == "TX"].sum(), 2),
    "What's the average order subtotal for California?": lambda: round(
        o_sub[orders["Ship State"] == "CA"].mean(), 2
    ),
    "how many orders were placed in May?": lambda: int(
        ((o_date.dt.month == 5) & (o_date.dt.year == 2024)).sum()
    ),
    "Who placed the order right after order 10244?": lambda: order_after("10244")["Customer Name"],
    "when did the first pending order come in": lambda: unique_extreme(
        orders[orders["Status"] == "Pending"], lambda r: mdy(r["Order Date"]), want_max=False
    )["Order Date"],
    "which was bigger, order 10232 or 10257?": lambda: bigger_order("10232", "10257"),
    # team_roster.csv
    "What's Farrukh Aliyev's extension?": lambda: row(roster, "Name", "Farrukh Aliyev")["Ext."],
    "who does kwame asante report to": lambda: row(roster, "Name", "Kwame Asante")["Manager"],
    "How many people are in the sales department?": lambda: int((roster["Department"] == "Sales").sum()),
    "how many direct reports does Colm Fitzgerald have": lambda: int(
        (roster["Manager"] == "Colm Fitzgerald").sum()
    ),
    "How many employees don't have a phone extension?": lambda: int((roster["Ext."].str.strip() == "").sum()),
    "who has been with the company the longest?": lambda: unique_extreme(
        roster, lambda r: long_date(r["Start Date"]), want_max=False
    )["Name"],
    "Which staff members started after January 1, 2024?": lambda: list(
        roster[r_start > datetime(2024, 1, 1)]["Name"]
    ),
    "how many people were hired in 2023": lambda: int((r_start.dt.year == 2023).sum()),
    "Who was hired next after Petra Lindqvist?": lambda: hired_next_after("Petra Lindqvist"),
    "who started earlier, Amara Nwosu or Meredith Saltonstall?": lambda: started_earlier(
        "Amara Nwosu", "Meredith Saltonstall"
    ),
    # gym_classes.xlsx
    "what time does yin yoga start": lambda: row(gym, "Class", "Yin Yoga")["Start Time"],
    "How many classes does Jonah Pike teach a week?": lambda: int((gym["Instructor"] == "Jonah Pike").sum()),
    "how many classes run longer than an hour": lambda: int((gym["Duration (min)"].map(num) > 60).sum()),
    "Which class has the fewest people signed up?": lambda: unique_extreme(
        gym, lambda r: num(r["Booked"]), want_max=False
    )["Class"],
    "total bookings for saturday classes": lambda: gym[gym["Day"] == "Saturday"]["Booked"].map(num).sum(),
    "What's the average length of Carla Mendez's classes in minutes?": lambda: round(
        gym[gym["Instructor"] == "Carla Mendez"]["Duration (min)"].map(num).mean(), 2
    ),
    "How many more people are booked into Saturday's Zumba than Wednesday's?": lambda: (
        num(gym_row("Zumba", "Saturday")["Booked"]) - num(gym_row("Zumba", "Wednesday")["Booked"])
    ),
    "what class comes after aqua aerobics on tuesday": lambda: class_after("Aqua Aerobics", "Tuesday"),
    "What's the last class on Wednesday?": lambda: last_class("Wednesday"),
    "how many classes start after 6 pm": lambda: int((gym["Start Time"].map(clock) > clock("6:00 PM")).sum()),
}
