"""Round seven of the real-world set (weather, health, travel): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"


def load(name: str) -> pd.DataFrame:
    return pd.read_csv(HERE / name, dtype=str, keep_default_na=False)


def num(s: str) -> float | None:
    """'1,234.5' -> 1234.5; '' -> None."""
    s = s.strip().replace(",", "")
    return float(s) if s else None


def money(s: str) -> float:
    """'$1,074.50' -> 1074.5; '(45.00)' -> -45.0."""
    s = s.strip()
    neg = s.startswith("(") and s.endswith(")")
    v = float(s.strip("()").replace("$", "").replace(",", ""))
    return -v if neg else v


def long_date(s: str) -> date:
    """'April 3, 2024' -> date."""
    return datetime.strptime(s.strip(), "%B %d, %Y").date()


def iso_date(s: str) -> date:
    return datetime.strptime(s.strip(), "%Y-%m-%d").date()


W = load("harbour_weather.csv")
W["d"] = W["Date"].map(long_date)
W["hi"] = W["High (°C)"].map(num)
W["lo"] = W["Low (°C)"].map(num)
W["rain"] = W["Rain (mm)"].map(num)
W["wind"] = W["Wind (km/h)"].map(num)
W["gust"] = W["Gusts (km/h)"].map(num)

H = load("health_indicators_2022.csv")
LIFE = "Life expectancy at birth, total (years)"
DOCS = "Physicians (per 1,000 people)"
SPEND = "Current health expenditure (% of GDP)"
BEDS = "Hospital beds (per 1,000 people)"
MEASLES = "Immunization, measles (% of children ages 12-23 months)"

T = load("travel_expenses_q1.csv")
T["amt"] = T["Amount"].map(money)
T["d"] = T["Date"].map(iso_date)


def w_row(d: date) -> pd.Series:
    return W[W["d"] == d].iloc[0]


def h_val(country: str, col: str) -> float | None:
    return num(H.loc[H["Country Name"] == country, col].iloc[0])


def h_numeric(col: str) -> pd.Series:
    v = H[col].map(num)
    return v[v.notna()]


def after(df: pd.DataFrame, mask, col: str) -> str:
    i = df.index[mask][0]
    return df.loc[i + 1, col]


ANSWERS: dict[str, Callable[[], object]] = {
    # harbour_weather.csv
    "how much rain fell on march 13": lambda: w_row(date(2024, 3, 13))["Rain (mm)"],
    "How many days had an overnight low below freezing?": lambda: int((W["lo"] < 0).sum()),
    "Which night was the coldest?": lambda: W.loc[W["lo"].idxmin(), "Date"],
    "what day had the strongest gusts": lambda: W.loc[W["gust"].idxmax(), "Date"],
    "total rainfall in april": lambda: W.loc[W["d"].map(lambda d: d.month == 4), "rain"].sum(),
    "What was the average wind speed on foggy days?": lambda: round(
        W.loc[W["Conditions"] == "Fog", "wind"].mean(), 2
    ),
    "How much warmer was the daytime high on April 11 than on April 10?": lambda: (
        w_row(date(2024, 4, 11))["hi"] - w_row(date(2024, 4, 10))["hi"]
    ),
    "what were conditions like the day after March 19": lambda: after(
        W, W["d"] == date(2024, 3, 19), "Conditions"
    ),
    "Which was windier, March 21 or April 7?": lambda: max(
        [w_row(date(2024, 3, 21)), w_row(date(2024, 4, 7))], key=lambda r: r["wind"]
    )["Date"],
    "number of overcast days": lambda: int((W["Conditions"] == "Overcast").sum()),
    # health_indicators_2022.csv
    "What's the life expectancy in Pellara?": lambda: H.loc[H["Country Name"] == "Pellara", LIFE].iloc[0],
    "Which country has the most hospital beds per 1,000 people?": lambda: H.loc[
        h_numeric(BEDS).idxmax(), "Country Name"
    ],
    "lowest measles vaccination rate - which country": lambda: H.loc[
        h_numeric(MEASLES).idxmin(), "Country Name"
    ],
    "how many countries are missing a measles immunization figure": lambda: int(
        (H[MEASLES].str.strip() == "").sum()
    ),
    "Which countries spend more than 11% of GDP on health?": lambda: list(
        H.loc[h_numeric(SPEND)[lambda v: v > 11].index, "Country Name"]
    ),
    "average life expectancy across all the countries": lambda: round(h_numeric(LIFE).mean(), 2),
    "How many countries have fewer than 1 doctor per 1,000 people?": lambda: int((h_numeric(DOCS) < 1).sum()),
    "Which has the higher health spending share, Belmark or Umbrel?": lambda: max(
        ["Belmark", "Umbrel"], key=lambda c: h_val(c, SPEND)
    ),
    "how many more years do people live in Lunmark than in Galtria": lambda: (
        h_val("Lunmark", LIFE) - h_val("Galtria", LIFE)
    ),
    "Which country comes right after Morvale in the list?": lambda: after(
        H, H["Country Name"] == "Morvale", "Country Name"
    ),
    # travel_expenses_q1.csv
    "How much was claim EXP-24012?": lambda: T.loc[T["Claim ID"] == "EXP-24012", "Amount"].iloc[0],
    "What's the total of all Priya Raman's claims, refunds included?": lambda: T.loc[
        T["Employee"] == "Priya Raman", "amt"
    ].sum(),
    "how many claims are still pending approval": lambda: int((T["Approved"] == "Pending").sum()),
    "Which claims were refunds?": lambda: list(T.loc[T["amt"] < 0, "Claim ID"]),
    "which merchant had the single biggest expense": lambda: T.loc[T["amt"].idxmax(), "Merchant"],
    "How many expenses were filed in February?": lambda: int(
        T["d"].map(lambda d: d.year == 2024 and d.month == 2).sum()
    ),
    "when did Elena Sokolova submit her first claim": lambda: T.loc[
        T.loc[T["Employee"] == "Elena Sokolova", "d"].idxmin(), "Date"
    ],
    "What is the average cost of a meal claim?": lambda: round(
        T.loc[T["Category"] == "Meals", "amt"].mean(), 2
    ),
    "Which hotel claims were over $700?": lambda: list(
        T.loc[(T["Category"] == "Hotel") & (T["amt"] > 700), "Claim ID"]
    ),
    "how many expenses came to more than $500": lambda: int((T["amt"] > 500).sum()),
}
