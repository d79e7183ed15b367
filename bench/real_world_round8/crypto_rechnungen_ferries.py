"""Round eight of the real-world set (crypto, rechnungen, ferries): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"


def read(name, sep=","):
    return pd.read_csv(HERE / name, sep=sep, dtype=str, keep_default_na=False)


def money(s):
    """'$64,210.55' / '€24.50' -> float."""
    return float(s.replace("$", "").replace("€", "").replace(",", ""))


def pct(s):
    return float(s.replace("%", ""))


def abbrev(s):
    """'1.8B' / '$420M' / '$1.3T' -> float in units."""
    s = s.replace("$", "")
    mult = {"K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}
    return float(s[:-1]) * mult[s[-1]]


def de_num(s):
    """German '2.450,00' -> 2450.0."""
    return float(s.replace(".", "").replace(",", "."))


def de_date(s):
    return datetime.strptime(s, "%d.%m.%Y")


def iso(s):
    return datetime.strptime(s, "%Y-%m-%dT%H:%M")


cr = read("crypto_watchlist.csv")
re_ = read("rechnungen_2024.csv", sep=";")
fe = read("ferry_departures.csv")


def row(df, col, val):
    r = df[df[col] == val]
    assert len(r) == 1, (col, val, len(r))
    return r.iloc[0]


def argbest(df, key, largest=True):
    vals = df.apply(key, axis=1)
    best = vals.max() if largest else vals.min()
    hits = df[vals == best]
    assert len(hits) == 1, "tie"
    return hits.iloc[0]


def next_row(df, col, val):
    i = df.index[df[col] == val][0]
    return df.loc[i + 1]


cr_price = cr["Price (USD)"].map(money)
cr_pct = cr["24h %"].map(pct)
re_net = re_["Netto"].map(de_num)
re_date = re_["Datum"].map(de_date)
fe_cars = fe["Cars Booked"].map(lambda s: int(s) if s else None)
fe_dep = fe["Departs"].map(iso)
fe_from = fe["Route"].map(lambda s: s.split(" - ")[0])
fe_to = fe["Route"].map(lambda s: s.split(" - ")[1])

ANSWERS: dict[str, Callable[[], object]] = {
    # crypto_watchlist.csv
    "What's Orbitex's market cap?": lambda: row(cr, "Name", "Orbitex")["Market Cap"],
    "symbol of the coin with the steepest % drop over 24h": lambda: argbest(
        cr, lambda r: pct(r["24h %"]), largest=False
    )["Symbol"],
    "how many coins are trading below $1": lambda: int((cr_price < 1).sum()),
    "Which coins have a market cap over $50 billion?": lambda: list(
        cr[cr["Market Cap"].map(lambda s: bool(s) and abbrev(s) > 50e9)]["Name"]
    ),
    "combined 24h volume of the coins priced above $100, in billions": lambda: (
        cr[cr_price > 100]["Volume (24h)"].map(abbrev).sum() / 1e9
    ),
    "average 24h percent move across the whole watchlist": lambda: round(cr_pct.mean(), 2),
    "Which had more trading volume today, Lumaswap or Vectra?": lambda: max(
        ["Lumaswap", "Vectra"], key=lambda n: abbrev(row(cr, "Name", n)["Volume (24h)"])
    ),
    "How much larger is Trevium's market cap than Oxium's, in billions?": lambda: (
        (abbrev(row(cr, "Name", "Trevium")["Market Cap"]) - abbrev(row(cr, "Name", "Oxium")["Market Cap"]))
        / 1e9
    ),
    "what coin comes right after Dogleaf on the list": lambda: next_row(cr, "Name", "Dogleaf")["Name"],
    "Which coin gained the most in percentage terms today?": lambda: argbest(cr, lambda r: pct(r["24h %"]))[
        "Name"
    ],
    # rechnungen_2024.csv
    "What was the gross amount on invoice RE-2024-014?": lambda: row(re_, "Rechnungsnr", "RE-2024-014")[
        "Brutto"
    ],
    "how many invoices went to Autohaus Kessler": lambda: int((re_["Kunde"] == "Autohaus Kessler").sum()),
    "How many invoices haven't been paid yet?": lambda: int((re_["Bezahlt am"].str.strip() == "").sum()),
    "total net billed to Café Morgenrot this year": lambda: re_net[re_["Kunde"] == "Café Morgenrot"].sum(),
    "how many invoices did we write in March?": lambda: int((re_date.map(lambda d: d.month) == 3).sum()),
    "Which customer got the single biggest invoice, gross?": lambda: argbest(
        re_, lambda r: de_num(r["Brutto"])
    )["Kunde"],
    "when did we first invoice Praxis Dr. Weller?": lambda: (
        re_[re_["Kunde"] == "Praxis Dr. Weller"].assign(d=re_date).sort_values("d").iloc[0]["Datum"]
    ),
    "average net amount per invoice for Elektro Brandt": lambda: round(
        re_net[re_["Kunde"] == "Elektro Brandt"].mean(), 2
    ),
    "which invoices were over 5.000 euros before VAT?": lambda: list(re_[re_net > 5000]["Rechnungsnr"]),
    "Who was the invoice after RE-2024-019 made out to?": lambda: next_row(re_, "Rechnungsnr", "RE-2024-019")[
        "Kunde"
    ],
    # ferry_departures.csv
    "What time does AL214 arrive?": lambda: row(fe, "Sailing", "AL214")["Arrives"],
    "how many sailings is MV Corrie doing": lambda: int((fe["Vessel"] == "MV Corrie").sum()),
    "How many departures have over 60 cars booked?": lambda: int(
        sum(1 for c in fe_cars if c is not None and c > 60)
    ),
    "how many sailings leave Port Aldmere on July 3rd?": lambda: int(
        ((fe_from == "Port Aldmere") & (fe_dep.map(lambda d: d.date().isoformat()) == "2024-07-03")).sum()
    ),
    "Which sailing has the most cars on it?": lambda: argbest(
        fe[fe["Cars Booked"] != ""], lambda r: int(r["Cars Booked"])
    )["Sailing"],
    "when's the last departure from Tarrow Bay on 4 July": lambda: (
        fe[(fe_from == "Tarrow Bay") & (fe_dep.map(lambda d: d.date().isoformat()) == "2024-07-04")]
        .assign(d=fe_dep)
        .sort_values("d")
        .iloc[-1]["Departs"]
    ),
    "Which has more cars booked, AL205 or AL215?": lambda: max(
        ["AL205", "AL215"], key=lambda s: int(row(fe, "Sailing", s)["Cars Booked"])
    ),
    "how many more cars are on AL209 than AL229": lambda: (
        int(row(fe, "Sailing", "AL209")["Cars Booked"]) - int(row(fe, "Sailing", "AL229")["Cars Booked"])
    ),
    "total cars booked across all Saltmarsh Star crossings": lambda: int(
        sum(c for c, v in zip(fe_cars, fe["Vessel"], strict=False) if v == "MV Saltmarsh Star")
    ),
    "What's the average adult fare from Port Aldmere to Tarrow Bay?": lambda: round(
        fe[(fe_from == "Port Aldmere") & (fe_to == "Tarrow Bay")]["Adult Fare"].map(money).mean(), 2
    ),
}
