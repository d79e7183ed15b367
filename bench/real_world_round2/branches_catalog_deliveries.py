"""Round two of the real-world set (branches, catalog, deliveries): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

import json
import os
from collections.abc import Callable
from datetime import datetime

import pandas as pd

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "real")


def path(name):
    return os.path.join(HERE, name)


# ---- loading (everything as text) ----
branch = pd.read_csv(path("branch_sales_eu.csv"), sep=";", dtype=str, keep_default_na=False)
with open(path("product_catalog.json"), encoding="utf-8") as f:
    products = pd.DataFrame(
        [{k: ("" if v is None else str(v)) for k, v in rec.items()} for rec in json.load(f)]
    )
delivery = pd.read_csv(path("delivery_log.csv"), dtype=str, keep_default_na=False)


# ---- small parsers ----
def eu_num(s):
    """'48.215,70' -> 48215.7 ; '1.204' -> 1204 ; '' -> None"""
    s = s.strip()
    if not s:
        return None
    return float(s.replace(".", "").replace(",", "."))


def eu_date(s):
    s = s.strip()
    return datetime.strptime(s, "%d.%m.%Y") if s else None


def money(s):
    s = s.strip()
    return float(s.replace("$", "").replace(",", "")) if s else None


def num(s):
    s = s.strip()
    return float(s) if s else None


def kcount(s):
    """'1.2k' -> 1200 ; '312' -> 312"""
    s = s.strip().lower()
    if not s:
        return None
    if s.endswith("k"):
        return float(s[:-1]) * 1000
    return float(s)


def dt(s):
    return datetime.strptime(s.strip(), "%Y-%m-%d %H:%M")


# ---- derived numeric columns (kept separate from the text) ----
branch["_rev"] = branch["Revenue (EUR)"].map(eu_num)
branch["_cust"] = branch["Customers"].map(eu_num)
branch["_audit"] = branch["Last Audit Date"].map(eu_date)

products["_price"] = products["price"].map(money)
products["_rating"] = products["rating"].map(num)
products["_reviews"] = products["reviews"].map(kcount)

delivery["_dt"] = delivery["Date Time"].map(dt)
delivery["_pk"] = delivery["Packages"].map(num)
delivery["_km"] = delivery["Distance (km)"].map(num)
delivery["_delay"] = delivery["Delay (min)"].map(num)


def one(df, col):
    """The single value of col in df; fails if not exactly one row."""
    assert len(df) == 1, f"expected 1 row, got {len(df)}"
    return df[col].iloc[0]


def argmax_unique(df, numcol, col):
    d = df.dropna(subset=[numcol])
    top = d[numcol].max()
    return one(d[d[numcol] == top], col)


def argmin_unique(df, numcol, col):
    d = df.dropna(subset=[numcol])
    low = d[numcol].min()
    return one(d[d[numcol] == low], col)


def row_after(df, col, value, out):
    idx = df.index[df[col] == value]
    assert len(idx) == 1
    return df[out].iloc[df.index.get_loc(idx[0]) + 1]


B, P, D = branch, products, delivery


def b_row(br, month):
    return B[(B["Branch"] == br) & (B["Month"] == month)]


def p_row(name):
    return P[P["name"] == name]


ANSWERS: dict[str, Callable[[], object]] = {
    # branch_sales_eu.csv
    "What was the revenue for Altmarkt in March 2024?": lambda: one(
        b_row("Altmarkt", "Mar 2024"), "Revenue (EUR)"
    ),
    "which branch had the most customers in a single month?": lambda: argmax_unique(B, "_cust", "Branch"),
    "total revenue nordhafen all months": lambda: B[B["Branch"] == "Nordhafen"]["_rev"].sum(),
    "What's the average monthly customer count for the Leipzig branch?": lambda: round(
        B[B["City"] == "Leipzig"]["_cust"].mean(), 2
    ),
    "how many branch-months brought in more than 50.000 euros": lambda: int((B["_rev"] > 50000).sum()),
    "Which branches had an audit in February 2024?": lambda: sorted(
        set(B[B["_audit"].map(lambda d: d is not None and d.year == 2024 and d.month == 2)]["Branch"])
    ),
    "How much more did Isartor earn than Altmarkt in January 2024?": lambda: (
        one(b_row("Isartor", "Jan 2024"), "_rev") - one(b_row("Altmarkt", "Jan 2024"), "_rev")
    ),
    "who had more customers in feb, Nordhafen or Rheinufer?": lambda: argmax_unique(
        B[(B["Month"] == "Feb 2024") & B["Branch"].isin(["Nordhafen", "Rheinufer"])], "_cust", "Branch"
    ),
    "When was the most recent audit at any branch?": lambda: max(B["_audit"].dropna()).strftime("%d.%m.%Y"),
    "Which branches made over 50k in sales in March 2024?": lambda: list(
        B[(B["Month"] == "Mar 2024") & (B["_rev"] > 50000)]["Branch"]
    ),
    # product_catalog.json
    "how much does the Hearth Smart Thermostat cost": lambda: one(p_row("Hearth Smart Thermostat"), "price"),
    "How many Kestrel products do we list?": lambda: int((P["brand"] == "Kestrel").sum()),
    "Which product has the most customer reviews?": lambda: argmax_unique(P, "_reviews", "name"),
    "how many items are rated 4.5 stars or better": lambda: int((P["_rating"] >= 4.5).sum()),
    "Which kitchen products are priced above $50?": lambda: list(
        P[(P["category"] == "Kitchen") & (P["_price"] > 50)]["name"]
    ),
    "average price of the outdoor gear": lambda: round(P[P["category"] == "Outdoor"]["_price"].mean(), 2),
    "What is the combined number of reviews across all Aurora Home products?": lambda: P[
        P["brand"] == "Aurora Home"
    ]["_reviews"].sum(),
    "Which has the better rating, the Sentry Video Doorbell or the USB-C Hub 7-in-1?": lambda: argmax_unique(
        P[P["name"].isin(["Sentry Video Doorbell", "USB-C Hub 7-in-1"])], "_rating", "name"
    ),
    "how much pricier is the Drift Ultralight Tent than the Trailhead 30L Backpack": lambda: (
        one(p_row("Drift Ultralight Tent"), "_price") - one(p_row("Trailhead 30L Backpack"), "_price")
    ),
    "What item comes right after the Glow Headlamp in the catalog?": lambda: row_after(
        P, "name", "Glow Headlamp", "name"
    ),
    # delivery_log.csv
    "Which delivery arrived furthest ahead of schedule?": lambda: argmin_unique(D, "_delay", "Delivery ID"),
    "how many deliveries were early": lambda: int((D["_delay"] < 0).sum()),
    "total parcels Lucia Ferro delivered": lambda: D[D["Driver"] == "Lucia Ferro"]["_pk"].sum(),
    "What was Jonas Brandt's average delay in minutes?": lambda: round(
        D[D["Driver"] == "Jonas Brandt"]["_delay"].dropna().mean(), 2
    ),
    "How many deliveries were made on March 14?": lambda: int(
        D["_dt"].map(lambda d: d.date().isoformat() == "2024-03-14").sum()
    ),
    "where did the last drop-off on march 13 go": lambda: argmax_unique(
        D[D["_dt"].map(lambda d: d.date().isoformat() == "2024-03-13")], "_dt", "Destination"
    ),
    "Who drove the delivery right after D-2409?": lambda: row_after(
        D.sort_values("_dt").reset_index(drop=True), "Delivery ID", "D-2409", "Driver"
    ),
    "How many km was delivery D-2422?": lambda: one(D[D["Delivery ID"] == "D-2422"], "Distance (km)"),
    "which delivery was the longest trip": lambda: argmax_unique(D, "_km", "Delivery ID"),
    "How many drops went to Carrow?": lambda: int((D["Destination"] == "Carrow").sum()),
}
