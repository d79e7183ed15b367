"""Round five of the real-world set (weather, education, rates): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"


def load(name):
    return pd.read_csv(HERE / name, dtype=str, keep_default_na=False)


def num(s):
    """'1,234.5' / '-2.1' / '+0.12%' / '$5' -> float; blank -> None."""
    s = str(s).strip()
    if s == "":
        return None
    return float(re.sub(r"[,$%+\s]", "", s))


def wdate(s):
    return datetime.strptime(s, "%B %d, %Y")


def idate(s):
    return datetime.strptime(s, "%Y-%m-%d")


W = load("weather_daily_oct_2024.csv")
E = load("education_indicators_2020.csv")
X = load("exchange_rates_march.csv")

W["_d"] = W["Date"].map(wdate)
W["_max"] = W["Max Temp (°C)"].map(num)
W["_min"] = W["Min Temp (°C)"].map(num)
W["_rain"] = W["Rainfall (mm)"].map(num)
W["_wind"] = W["Wind (km/h)"].map(num)

PRIM = "School enrollment, primary (% gross)"
SEC = "School enrollment, secondary (% gross)"
LIT = "Literacy rate, adult total (% of people ages 15 and above)"
EXP = "Government expenditure on education, total (% of GDP)"
PTR = "Pupil-teacher ratio, primary"
for c in [PRIM, SEC, LIT, EXP, PTR]:
    E["_" + c] = E[c].map(num)

X["_d"] = X["Date"].map(idate)
for c in ["EUR", "GBP", "JPY", "CHF", "CAD", "EUR change"]:
    X["_" + c] = X[c].map(num)


def wrow(day):
    return W[W["_d"] == datetime(2024, 10, day)].iloc[0]


def xrow(day):
    return X[X["_d"] == datetime(2024, 3, day)].iloc[0]


def erow(name):
    return E[E["Country Name"] == name].iloc[0]


def arg(df, col, fn="max", label="Date"):
    d = df[df[col].notna()]
    v = d[col].max() if fn == "max" else d[col].min()
    hits = d[d[col] == v]
    assert len(hits) == 1, f"tie on {col}"
    return hits.iloc[0][label]


def next_row(df, key_col, key, offset):
    i = df.index[df[key_col] == key][0]
    pos = list(df.index).index(i) + offset
    return df.iloc[pos]


ANSWERS: dict[str, Callable[[], object]] = {
    # weather
    "What was the high temperature on October 9?": lambda: wrow(9)["Max Temp (°C)"],
    "which day got the most rain": lambda: arg(W, "_rain", "max"),
    "What was the coldest night of the month?": lambda: arg(W, "_min", "min"),
    "how many days have no rainfall reading": lambda: int(W["_rain"].isna().sum()),
    "how many foggy days were there in october": lambda: int((W["Conditions"] == "Fog").sum()),
    "total rainfall for the month in mm": lambda: W["_rain"].sum(),
    "What was the average wind speed on sunny days?": lambda: round(
        W[W["Conditions"] == "Sunny"]["_wind"].mean(), 2
    ),
    "How much higher was the maximum temperature on October 7 than on October 16?": lambda: round(
        wrow(7)["_max"] - wrow(16)["_max"], 2
    ),
    "how many days from oct 1 to oct 10 hit a high of 15 degrees or more": lambda: int(
        ((W["_d"] >= datetime(2024, 10, 1)) & (W["_d"] <= datetime(2024, 10, 10)) & (W["_max"] >= 15)).sum()
    ),
    "What conditions were logged the day after October 16?": lambda: next_row(
        W, "_d", datetime(2024, 10, 16), 1
    )["Conditions"],
    # education
    "What's the primary pupil-teacher ratio for Valmora?": lambda: erow("Valmora")[PTR],
    "Which country spends the biggest share of its GDP on education?": lambda: arg(
        E, "_" + EXP, "max", "Country Name"
    ),
    "country with the lowest adult literacy": lambda: arg(E, "_" + LIT, "min", "Country Name"),
    "how many countries have no literacy rate data": lambda: int(E["_" + LIT].isna().sum()),
    "How many countries have secondary school enrollment below 50%?": lambda: int((E["_" + SEC] < 50).sum()),
    "which countries have more than 40 pupils per teacher in primary school": lambda: list(
        E[E["_" + PTR] > 40]["Country Name"]
    ),
    "What is the average education spending as a percent of GDP, for countries that report it?": lambda: (
        round(E["_" + EXP].mean(), 2)
    ),
    "Which has higher secondary enrollment, Brevania or Ostravia?": lambda: max(
        ["Brevania", "Ostravia"], key=lambda n: erow(n)["_" + SEC]
    ),
    "how much higher is the literacy rate in Gorvia than in Brevania": lambda: round(
        erow("Gorvia")["_" + LIT] - erow("Brevania")["_" + LIT], 2
    ),
    "which country is listed right after Morvane": lambda: next_row(E, "Country Name", "Morvane", 1)[
        "Country Name"
    ],
    # exchange rates
    "What was the yen rate on March 14?": lambda: xrow(14)["JPY"],
    "When did the Swiss franc rate first go above 0.90?": lambda: (
        X[X["_CHF"] > 0.90].sort_values("_d").iloc[0]["Date"]
    ),
    "which day had the biggest drop in the EUR change column": lambda: arg(X, "_EUR change", "min"),
    "how many days had a negative EUR change": lambda: int((X["_EUR change"] < 0).sum()),
    "average JPY rate in march": lambda: round(X[X["_d"].map(lambda d: d.month == 3)]["_JPY"].mean(), 2),
    "On which day was the Canadian dollar rate highest?": lambda: arg(X, "_CAD", "max"),
    "lowest yen rate during the week of March 11-15": lambda: X.loc[
        X[(X["_d"] >= datetime(2024, 3, 11)) & (X["_d"] <= datetime(2024, 3, 15))]["_JPY"].idxmin(), "JPY"
    ],
    "How much higher was JPY on March 28 than on March 1?": lambda: round(
        xrow(28)["_JPY"] - xrow(1)["_JPY"], 2
    ),
    "what was the EUR rate on the trading day before March 20": lambda: next_row(X, "Date", "2024-03-20", -1)[
        "EUR"
    ],
    "Which day had the higher pound rate, March 7 or March 20?": lambda: max(
        [xrow(7), xrow(20)], key=lambda r: r["_GBP"]
    )["Date"],
}
