"""Round three of the real-world set (weather, sales, cafe): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

import json
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"

W = pd.read_csv(HERE / "city_temperatures_jul.csv", dtype=str, keep_default_na=False)
S = pd.read_excel(HERE / "regional_sales_q3.xlsx", dtype=str, keep_default_na=False)
with open(HERE / "cafe_menu.json", encoding="utf-8") as fh:
    C = pd.DataFrame(json.load(fh))
C = C.map(lambda v: "" if v is None else str(v))


def num(s):
    """Parse '1,234.5', '€3.20', '68%', '14 km/h', '-3' -> float; blank -> None."""
    s = str(s).strip()
    if s == "" or s.lower() == "nan":
        return None
    neg = s.startswith("-") or (s.startswith("(") and s.endswith(")"))
    m = re.search(r"\d[\d,]*(?:\.\d+)?|\.\d+", s)
    v = float(m.group(0).replace(",", ""))
    return -v if neg else v


def date(s):
    return datetime.strptime(s.strip(), "%B %d, %Y")


def col(df, name):
    return df[name].map(num)


def only_max(df, name, key_col, smallest=False):
    vals = col(df, name)
    best = vals.min() if smallest else vals.max()
    hits = df[vals == best]
    assert len(hits) == 1, f"tie on {name}: {list(hits[key_col])}"
    return hits.iloc[0][key_col]


def row(df, **match):
    sel = df
    for k, v in match.items():
        sel = sel[sel[k.replace("_", " ")] == v]
    assert len(sel) == 1, match
    return sel.iloc[0]


def wrow(day):
    return W[W["Date"] == f"July {day}, 2024"].iloc[0]


def srow(rep, month):
    return S[(S["Sales Rep"] == rep) & (S["Month"] == month)].iloc[0]


def crow(item):
    return C[C["item"] == item].iloc[0]


def pick(a, b, value):
    va, vb = value(a), value(b)
    assert va != vb, "either_or tie"
    return a if va > vb else b


def w_after_wettest():
    idx = W.index[W["Rain (mm)"] == W["Rain (mm)"].iloc[col(W, "Rain (mm)").idxmax()]]
    assert len(idx) == 1
    return W.iloc[idx[0] + 1]["Conditions"]


def w_range_hot():
    d = W["Date"].map(date)
    m = (d >= datetime(2024, 7, 10)) & (d <= datetime(2024, 7, 20)) & (col(W, "High (°C)") > 30)
    return int(m.sum())


def s_first_over(rep, limit):
    order = {"July": 7, "August": 8, "September": 9}
    sub = S[S["Sales Rep"] == rep].copy()
    sub["m"] = sub["Month"].map(order)
    sub = sub[col(sub, "Units Sold") > limit].sort_values("m")
    return sub.iloc[0]["Month"]


def c_after(item):
    i = C.index[C["item"] == item][0]
    return C.iloc[i + 1]["item"]


ANSWERS: dict[str, Callable[[], object]] = {
    # city_temperatures_jul.csv
    "what was the humidity on July 9?": lambda: wrow(9)["Humidity"],
    "Which day was the hottest this month?": lambda: only_max(W, "High (°C)", "Date"),
    "how many days had no rain at all": lambda: int((col(W, "Rain (mm)") == 0).sum()),
    "total rainfall for july in mm": lambda: col(W, "Rain (mm)").sum(),
    "What was the average overnight low during the first week (July 1 to July 7)?": lambda: round(
        col(W, "Low (°C)")[W["Date"].map(date) <= datetime(2024, 7, 7)].mean(), 2
    ),
    "How much warmer was the daytime high on July 12 compared to July 6?": lambda: (
        num(wrow(12)["High (°C)"]) - num(wrow(6)["High (°C)"])
    ),
    "how many days between july 10 and july 20 got above 30 degrees": w_range_hot,
    "What were the conditions on the day after the wettest day?": w_after_wettest,
    "was it windier on July 6 or July 24?": lambda: pick(
        "July 6, 2024", "July 24, 2024", lambda d: num(W[W["Date"] == d].iloc[0]["Wind"])
    ),
    "which days had humidity over 80%": lambda: list(
        W[col(W, "Humidity").map(lambda v: v is not None and v > 80)]["Date"]
    ),
    # regional_sales_q3.xlsx
    "How many units did Luis Carvalho sell in August?": lambda: srow("Luis Carvalho", "August")["Units Sold"],
    "total units sold in september": lambda: col(S[S["Month"] == "September"], "Units Sold").sum(),
    "Which rep had the biggest single month of revenue?": lambda: only_max(S, "Revenue ($)", "Sales Rep"),
    "how many monthly entries are there for the North region": lambda: int((S["Region"] == "North").sum()),
    "How many rows don't have a target filled in?": lambda: int((S["Target ($)"].str.strip() == "").sum()),
    "what was Hannah Stroud's average monthly revenue over the quarter": lambda: round(
        col(S[S["Sales Rep"] == "Hannah Stroud"], "Revenue ($)").mean(), 2
    ),
    "How much more revenue did Priya Venkatesh bring in than Luis Carvalho in July?": lambda: (
        num(srow("Priya Venkatesh", "July")["Revenue ($)"])
        - num(srow("Luis Carvalho", "July")["Revenue ($)"])
    ),
    "who moved more units in September, Marcus Oyelaran or Hannah Stroud?": lambda: pick(
        "Marcus Oyelaran", "Hannah Stroud", lambda r: num(srow(r, "September")["Units Sold"])
    ),
    "which reps sold fewer than 250 units in july": lambda: list(
        S[(S["Month"] == "July") & (col(S, "Units Sold") < 250)]["Sales Rep"]
    ),
    "In which month did Grace Okafor first sell more than 200 units?": lambda: s_first_over(
        "Grace Okafor", 200
    ),
    # cafe_menu.json
    "how much is a flat white?": lambda: crow("Flat White")["price"],
    "How many teas are on the menu?": lambda: int((C["category"] == "Tea").sum()),
    "how many items have fewer than 100 calories": lambda: int(
        col(C, "calories").map(lambda v: v is not None and v < 100).sum()
    ),
    "What's the most expensive thing on the menu?": lambda: only_max(C, "price", "item"),
    "average price of the pastries": lambda: round(col(C[C["category"] == "Pastry"], "price").mean(), 2),
    "If I bought one of every cake, what would it cost in total?": lambda: col(
        C[C["category"] == "Cake"], "price"
    ).sum(),
    "which has more calories, the almond croissant or the carrot cake": lambda: pick(
        "Almond Croissant", "Carrot Cake", lambda i: num(crow(i)["calories"])
    ),
    "Which vegan items cost more than €3.50?": lambda: list(
        C[(C["vegan"] == "True") & (col(C, "price") > 3.50)]["item"]
    ),
    "how much more does a matcha latte cost than a chai latte": lambda: (
        num(crow("Matcha Latte")["price"]) - num(crow("Chai Latte")["price"])
    ),
    "What's listed right after the Mocha on the menu?": lambda: c_after("Mocha"),
}
