"""Round four of the real-world set (car, pipeline, earthquakes): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"


def path(name):
    return HERE / name


def money(s):
    s = str(s).strip().replace("$", "").replace(",", "")
    return float(s) if s else None


def miles(s):
    s = str(s).replace("mi", "").replace(",", "").strip()
    return int(s) if s else None


def num(s):
    s = str(s).strip().replace(",", "")
    return float(s) if s else None


def pct(s):
    s = str(s).strip().replace("%", "")
    return float(s) if s else None


def day(s):
    return datetime.strptime(str(s)[:10], "%Y-%m-%d")


def utc(s):
    return datetime.strptime(s.replace(" UTC", ""), "%Y-%m-%d %H:%M")


car = pd.read_csv(path("car_service_history.csv"), dtype=str, keep_default_na=False)
sales = pd.read_excel(path("sales_pipeline.xlsx"), dtype=str, keep_default_na=False)
eq = pd.read_csv(path("earthquakes_log.csv"), dtype=str, keep_default_na=False)

car["cost"] = car["Cost"].map(money)
car["miles"] = car["Odometer"].map(miles)
car["day"] = car["Date"].map(day)
sales["amount"] = sales["Amount (USD)"].map(num)
sales["close"] = sales["Expected Close Date"].map(day)
sales["prob"] = sales["Probability"].map(pct)
eq["mag"] = eq["Magnitude"].map(num)
eq["depth"] = eq["Depth (km)"].map(num)
eq["felt"] = eq["Felt Reports"].map(num)
eq["t"] = eq["Origin Time"].map(utc)


def row(df, col, value):
    rows = df[df[col] == value]
    assert len(rows) == 1, (col, value, len(rows))
    return rows.iloc[0]


def argmax(df, col):
    top = df[col].max()
    rows = df[df[col] == top]
    assert len(rows) == 1, ("tie", col)
    return rows.iloc[0]


def after(df, col, value, by):
    d = df.sort_values(by).reset_index(drop=True)
    i = d.index[d[col] == value][0]
    return d.iloc[i + 1]


def bigger(df, key, col, a, b):
    va, vb = row(df, key, a)[col], row(df, key, b)[col]
    assert va != vb
    return a if va > vb else b


brakes = car[car["Service"] == "Brakes"].sort_values("day")
oil = car["Service"] == "Oil change"
NVC = eq[eq["Region"] == "North Varren Coast"]

ANSWERS: dict[str, Callable[[], object]] = {
    # car_service_history.csv
    "How much did the wheel alignment cost?": lambda: row(car, "Service", "Alignment")["Cost"],
    "how many oil changes has the car had": lambda: int(oil.sum()),
    "total spent at Brightwater Auto Care": lambda: car[car["Garage"] == "Brightwater Auto Care"][
        "cost"
    ].sum(),
    "What was the single most expensive job done on the car?": lambda: argmax(car, "cost")["Service"],
    "when were the brakes last done": lambda: brakes.iloc[-1]["Date"],
    "What was the mileage at the visit right after the battery was replaced?": lambda: after(
        car, "Service", "Battery", "day"
    )["Odometer"],
    "how much did I spend on the car in 2023?": lambda: car[car["day"].map(lambda d: d.year == 2023)][
        "cost"
    ].sum(),
    "How many service visits have nothing written in the notes?": lambda: int(
        (car["Notes"].str.strip() == "").sum()
    ),
    "which cost more, the 30k service or the coolant flush": lambda: bigger(
        car, "Service", "cost", "30k service", "Coolant flush"
    ),
    "How many miles did I drive between the two brake jobs?": lambda: (
        brakes.iloc[1]["miles"] - brakes.iloc[0]["miles"] if len(brakes) == 2 else None
    ),
    # sales_pipeline.xlsx
    "Who owns the Ellery Insurance deal?": lambda: row(sales, "Account", "Ellery Insurance")["Deal Owner"],
    "What's the total amount of all Closed Won deals?": lambda: sales[sales["Stage"] == "Closed Won"][
        "amount"
    ].sum(),
    "biggest deal in the pipeline": lambda: argmax(sales, "amount")["Deal Name"],
    "Which deals are worth more than $100,000?": lambda: list(sales[sales["amount"] > 100000]["Deal Name"]),
    "average deal size for Priya": lambda: round(
        sales[sales["Deal Owner"].str.startswith("Priya")]["amount"].dropna().mean(), 2
    ),
    "how many deals are expected to close between April 1 and June 30, 2025?": lambda: int(
        sales["close"].between(datetime(2025, 4, 1), datetime(2025, 6, 30)).sum()
    ),
    "How many deals have a win probability of 50% or higher?": lambda: int((sales["prob"] >= 50).sum()),
    "Which is worth more, the Kestrel crew rostering deal or the Ellery claims workflow deal?": lambda: (
        bigger(
            sales,
            "Deal Name",
            "amount",
            "Kestrel Aviation - Crew Rostering",
            "Ellery Insurance - Claims Workflow",
        )
    ),
    "which deal is expected to close last": lambda: argmax(sales, "close")["Deal Name"],
    "How much bigger is the Tamsin ERP upgrade than the Lumen fraud module deal?": lambda: (
        row(sales, "Deal Name", "Tamsin Foods - ERP Upgrade")["amount"]
        - row(sales, "Deal Name", "Lumen CU - Fraud Module")["amount"]
    ),
    # earthquakes_log.csv
    "what was the magnitude of EQ-24-0311?": lambda: row(eq, "Event ID", "EQ-24-0311")["Magnitude"],
    "How many quakes were recorded in the Marrow Fault Zone?": lambda: int(
        (eq["Region"] == "Marrow Fault Zone").sum()
    ),
    "how many events have no felt reports": lambda: int((eq["Felt Reports"].str.strip() == "").sum()),
    "Which event was the deepest?": lambda: argmax(eq, "depth")["Event ID"],
    "list the earthquakes of magnitude 4.5 or more": lambda: list(eq[eq["mag"] >= 4.5]["Event ID"]),
    "average depth of the North Varren Coast quakes": lambda: round(NVC["depth"].mean(), 2),
    "Which town was nearest to the event that came just after EQ-24-0305?": lambda: after(
        eq, "Event ID", "EQ-24-0305", "t"
    )["Nearest Town"],
    "how many earthquakes happened in april 2024": lambda: int(
        eq["t"].map(lambda t: (t.year, t.month) == (2024, 4)).sum()
    ),
    "What's the total number of felt reports for the Ostel Ridge events?": lambda: eq[
        eq["Region"] == "Ostel Ridge"
    ]["felt"].sum(),
    "When was the most recent quake near Caddick?": lambda: (
        eq[eq["Nearest Town"] == "Caddick"].sort_values("t").iloc[-1]["Origin Time"]
    ),
}
