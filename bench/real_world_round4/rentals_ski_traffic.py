"""Round four of the real-world set (rentals, ski, traffic): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"


# ---------- small parsers ----------


def num(s: str) -> float:
    """'1,250.00' -> 1250.0, '(150.00)' -> -150.0, '$1,204.50' -> 1204.5, 'CHF 1,050' -> 1050."""
    s = str(s).strip()
    neg = s.startswith("(") and s.endswith(")")
    s = s.strip("()")
    for junk in ("CHF", "NOK", "C$", "$", "€", ",", "%", " "):
        s = s.replace(junk, "")
    v = float(s)
    return -v if neg else v


def us_date(s: str) -> datetime:
    return datetime.strptime(s, "%m/%d/%Y")


def iso_date(s: str) -> datetime:
    return datetime.strptime(s, "%Y-%m-%d")


def day_date(s: str) -> datetime:
    """'Mon 2024-04-01' -> datetime."""
    return datetime.strptime(s.split()[1], "%Y-%m-%d")


def mmss(s: str) -> int:
    m, sec = s.split(":")
    return int(m) * 60 + int(sec)


# ---------- tables ----------

rent = pd.read_csv(HERE / "rental_expenses.csv", dtype=str, keep_default_na=False)
rent["amt"] = rent["Amount (USD)"].map(num)
rent["dt"] = rent["Date"].map(us_date)

with open(HERE / "ski_resorts.json", encoding="utf-8") as f:
    ski = pd.DataFrame(json.load(f)).fillna("").astype(str)
ski["elev"] = ski["top_elevation_m"].map(num)
ski["runs_n"] = ski["runs"].map(num)
ski["lifts_n"] = ski["lifts"].map(num)
ski["open"] = ski["Opening Date"].map(iso_date)

web = pd.read_csv(HERE / "website_traffic.csv", dtype=str, keep_default_na=False)
web["dt"] = web["Date"].map(day_date)
web["sess"] = web["Sessions"].map(num)
web["bounce"] = web["Bounce Rate"].map(num)
web["dur"] = web["Avg. Session Duration"].map(mmss)
web["conv"] = web["Conversions"].map(lambda s: num(s) if s else None)
web["rev"] = web["Revenue"].map(lambda s: num(s) if s else None)


def web_row(month: int, day: int) -> pd.Series:
    return web[(web["dt"].dt.month == month) & (web["dt"].dt.day == day)].iloc[0]


def ski_row(name: str) -> pd.Series:
    return ski[ski["resort"] == name].iloc[0]


def rent_next_after(memo: str) -> pd.Series:
    i = rent.index[rent["Memo"] == memo][0]
    return rent.loc[i + 1]


# ---------- answers ----------

ANSWERS: dict[str, Callable[[], object]] = {
    # rental_expenses.csv
    "What was the memo on the Brightwire Electric charge for 48 Birchwood Ave?": lambda: rent[
        (rent["Vendor"] == "Brightwire Electric") & (rent["Property"] == "48 Birchwood Ave")
    ]["Memo"].iloc[0],
    "total spent on repairs at 7 Harbor Ln": lambda: rent[
        (rent["Category"] == "Repairs") & (rent["Property"] == "7 Harbor Ln")
    ]["amt"].sum(),
    "How many pest control visits are in the ledger?": lambda: int(
        (rent["Category"] == "Pest control").sum()
    ),
    "which vendor gave me the biggest refund": lambda: rent.loc[rent["amt"].idxmin(), "Vendor"],
    "how many entries have no memo": lambda: int((rent["Memo"].str.strip() == "").sum()),
    "Which property had the single most expensive repair bill?": lambda: rent.loc[
        rent[rent["Category"] == "Repairs"]["amt"].idxmax(), "Property"
    ],
    "how much did I spend in June 2024 across all three properties": lambda: rent[
        (rent["dt"].dt.year == 2024) & (rent["dt"].dt.month == 6)
    ]["amt"].sum(),
    "Who did I pay right after the water heater replacement?": lambda: rent_next_after(
        "Water heater replacement"
    )["Vendor"],
    "Which cost more in insurance overall, 12 Elm St or 48 Birchwood Ave?": lambda: (
        rent[(rent["Category"] == "Insurance") & rent["Property"].isin(["12 Elm St", "48 Birchwood Ave"])]
        .groupby("Property")["amt"]
        .sum()
        .idxmax()
    ),
    "which vendors got more than $1,000 in a single payment": lambda: sorted(
        set(rent[rent["amt"] > 1000]["Vendor"])
    ),
    # ski_resorts.json
    "What's the summit elevation at Kettle Peak?": lambda: ski_row("Kettle Peak")["top_elevation_m"],
    "which resort has the most runs": lambda: ski.loc[ski["runs_n"].idxmax(), "resort"],
    "How many of these resorts are in Austria?": lambda: int((ski["country"] == "Austria").sum()),
    "average number of lifts at the swiss resorts": lambda: round(
        ski[ski["country"] == "Switzerland"]["lifts_n"].mean(), 2
    ),
    "Which resort opens earliest this season?": lambda: ski.loc[ski["open"].idxmin(), "resort"],
    "how many more runs does Vallon des Neiges have than Val Serena": lambda: (
        ski_row("Vallon des Neiges")["runs_n"] - ski_row("Val Serena")["runs_n"]
    ),
    "Which resorts go higher than 3,000 meters at the top?": lambda: list(ski[ski["elev"] > 3000]["resort"]),
    "how many resorts open in november 2024": lambda: int(
        ((ski["open"].dt.year == 2024) & (ski["open"].dt.month == 11)).sum()
    ),
    "How many resorts have fewer than 12 lifts?": lambda: int((ski["lifts_n"] < 12).sum()),
    "Which season pass is cheaper, Steinbergalm or Val Serena?": lambda: min(
        ["Steinbergalm", "Val Serena"], key=lambda r: num(ski_row(r)["Season Pass Price"])
    ),
    # website_traffic.csv
    "What was the bounce rate on April 12?": lambda: web_row(4, 12)["Bounce Rate"],
    "which day had the most sessions": lambda: web.loc[web["sess"].idxmax(), "Date"],
    "total revenue for all the mondays in april": lambda: web[
        (web["dt"].dt.day_of_week == 0) & (web["dt"].dt.month == 4)
    ]["rev"].sum(),
    "What was the average bounce rate over the month?": lambda: round(web["bounce"].mean(), 2),
    "how many users did we have the day after the 15th": lambda: web.loc[
        web.index[web["dt"].dt.day == 15][0] + 1, "Users"
    ],
    "How many more sessions did we get on Apr 11 than on Apr 10?": lambda: (
        web_row(4, 11)["sess"] - web_row(4, 10)["sess"]
    ),
    "on how many days was the bounce rate above 45%": lambda: int((web["bounce"] > 45).sum()),
    "total visits for April 8 through April 14": lambda: web[
        (web["dt"] >= datetime(2024, 4, 8)) & (web["dt"] <= datetime(2024, 4, 14))
    ]["sess"].sum(),
    "Which days had an average session time longer than 3:35?": lambda: list(
        web[web["dur"] > mmss("3:35")]["Date"]
    ),
    "what was the first day conversions went over 130": lambda: (
        web[web["conv"].fillna(0) > 130].sort_values("dt")["Date"].iloc[0]
    ),
}
