"""Round seven of the real-world set (portfolio, lager, coaches): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"

pf = pd.read_csv(HERE / "portfolio_moves.csv", dtype=str, keep_default_na=False)
lg = pd.read_csv(HERE / "lager_bestand.csv", sep=";", dtype=str, keep_default_na=False, encoding="utf-8")
ct = pd.read_csv(HERE / "coach_timetable.csv", dtype=str, keep_default_na=False, encoding="utf-8")


def money(s: str) -> float:
    """'$1,204.50' / '€19.90' / '-3.41' -> float"""
    return float(s.replace("$", "").replace("€", "").replace(",", "").strip())


def pct(s: str) -> float:
    return float(s.replace("%", "").strip())


def suffixed(s: str) -> float:
    """'12.4M', '850K', '$1.2T', '$850B' -> float (blank -> NaN)"""
    s = s.replace("$", "").strip()
    if not s:
        return float("nan")
    mult = {"K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}
    if s[-1] in mult:
        return float(s[:-1]) * mult[s[-1]]
    return float(s)


def de_num(s: str) -> float:
    """German number '1.249,90' -> 1249.9"""
    return float(s.replace(".", "").replace(",", "."))


def de_date(s: str):
    return datetime.strptime(s, "%d.%m.%Y") if s else None


def iso(s: str) -> datetime:
    return datetime.strptime(s, "%Y-%m-%dT%H:%M")


def seats(s: str) -> float:
    return float(s) if s.strip() else float("nan")


def cell(df, key_col, key, col):
    return df.loc[df[key_col] == key, col].iloc[0]


def after(df, key_col, key, col):
    i = df.index[df[key_col] == key][0]
    return df.loc[i + 1, col]


def argmax(df, values, col):
    return df.loc[values.idxmax(), col]


def argmin(df, values, col):
    return df.loc[values.idxmin(), col]


pf_pct = pf["Change %"].map(pct)
pf_chg = pf["Change"].map(money)
pf_vol = pf["Volume"].map(suffixed)
pf_cap = pf["Market Cap"].map(suffixed)
pf_price = pf["Last Price"].map(money)

lg_qty = lg["Bestand"].map(de_num)
lg_price = lg["Einzelpreis"].map(de_num)
lg_value = lg["Wert"].map(de_num)
lg_date = lg["Letzte Inventur"].map(de_date)

ct_dep = ct["Departs"].map(iso)
ct_fare = ct["Fare"].map(money)
ct_seats = ct["Seats Left"].map(seats)


def oldest_stocktake():
    dated = lg_date.dropna()
    return lg.loc[dated.sort_values().index[0], "Letzte Inventur"]


ANSWERS: dict[str, Callable[[], object]] = {
    # portfolio_moves.csv
    "What's Kelvin Medical trading at right now?": lambda: cell(
        pf, "Company", "Kelvin Medical", "Last Price"
    ),
    "which company dropped the most in percentage terms today?": lambda: argmin(pf, pf_pct, "Company"),
    "how many tech stocks are on my watchlist": lambda: int((pf["Sector"] == "Technology").sum()),
    "How many stocks gained more than 2% today?": lambda: int((pf_pct > 2).sum()),
    "Which companies have a market cap over a trillion dollars?": lambda: list(
        pf.loc[pf_cap > 1e12, "Company"]
    ),
    "average % change for the healthcare names": lambda: round(
        pf_pct[pf["Sector"] == "Healthcare"].mean(), 2
    ),
    "Which traded more shares today, Meridian Bancorp or Corsan Pharma?": lambda: argmax(
        pf[pf["Company"].isin(["Meridian Bancorp", "Corsan Pharma"])],
        pf_vol[pf["Company"].isin(["Meridian Bancorp", "Corsan Pharma"])],
        "Company",
    ),
    "what ticker had the highest volume today": lambda: argmax(pf, pf_vol, "Ticker"),
    "How much more does one Pixelora share cost than one Nimbus Cloud share?": lambda: round(
        money(cell(pf, "Company", "Pixelora Inc.", "Last Price"))
        - money(cell(pf, "Company", "Nimbus Cloud", "Last Price")),
        2,
    ),
    "combined dollar change of the energy stocks": lambda: round(pf_chg[pf["Sector"] == "Energy"].sum(), 2),
    # lager_bestand.csv
    "What is the unit price of the Kreuzlinienlaser?": lambda: cell(
        lg, "Bezeichnung", "Kreuzlinienlaser", "Einzelpreis"
    ),
    "how many articles are stored in Köln": lambda: int((lg["Lager"] == "Köln").sum()),
    "How many articles have no last inventory date?": lambda: int(
        (lg["Letzte Inventur"].str.strip() == "").sum()
    ),
    "which items had their last stocktake in april 2024": lambda: list(
        lg.loc[lg_date.map(lambda d: d is not None and d.year == 2024 and d.month == 4), "Bezeichnung"]
    ),
    "Which article has the highest total stock value?": lambda: argmax(lg, lg_value, "Bezeichnung"),
    "total value of everything in the Hamburg warehouse": lambda: round(
        lg_value[lg["Lager"] == "Hamburg"].sum(), 2
    ),
    "When was the oldest stocktake done?": oldest_stocktake,
    "which articles have fewer than 5 units on hand?": lambda: list(lg.loc[lg_qty < 5, "Bezeichnung"]),
    "average unit price of the items in München": lambda: round(lg_price[lg["Lager"] == "München"].mean(), 2),
    "What article comes right after A-10045 in the list?": lambda: after(
        lg, "Artikelnr", "A-10045", "Bezeichnung"
    ),
    # coach_timetable.csv
    "When does NL 508 get into Prague?": lambda: cell(ct, "Service", "NL 508", "Arrives"),
    "how many services does Alpenbus run": lambda: int((ct["Operator"] == "Alpenbus").sum()),
    "How many coaches have fewer than 5 seats left?": lambda: int((ct_seats < 5).sum()),
    "what time does the last coach out of Paris leave?": lambda: argmax(
        ct[ct["From"] == "Paris"], ct_dep[ct["From"] == "Paris"], "Departs"
    ),
    "which services leave on 11 June before 9 am": lambda: list(
        ct.loc[ct_dep.map(lambda d: d.date().isoformat() == "2024-06-11" and d.hour < 9), "Service"]
    ),
    "Which service has the most free seats?": lambda: argmax(ct, ct_seats, "Service"),
    "average ticket price with Blueway Coaches": lambda: round(
        ct_fare[ct["Operator"] == "Blueway Coaches"].mean(), 2
    ),
    "Which has more seats available, NL 503 or BW 81?": lambda: argmax(
        ct[ct["Service"].isin(["NL 503", "BW 81"])],
        ct_seats[ct["Service"].isin(["NL 503", "BW 81"])],
        "Service",
    ),
    "what service comes right after NL 508 in the timetable?": lambda: after(
        ct, "Service", "NL 508", "Service"
    ),
    "How much more does TV 350 cost than TV 330?": lambda: round(
        money(cell(ct, "Service", "TV 350", "Fare")) - money(cell(ct, "Service", "TV 330", "Fare")), 2
    ),
}
