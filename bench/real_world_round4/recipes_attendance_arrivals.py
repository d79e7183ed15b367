"""Round four of the real-world set (recipes, attendance, arrivals): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

import json
import re
from collections.abc import Callable
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"


def load_recipes() -> pd.DataFrame:
    records = json.loads((HERE / "recipes.json").read_text(encoding="utf-8"))
    df = pd.DataFrame(records)
    # every column as text; JSON null (None or NaN) becomes ""
    return df.apply(lambda col: col.map(lambda v: "" if v is None or v != v else str(v)))


def load_csv(name: str, sep: str = ",") -> pd.DataFrame:
    return pd.read_csv(HERE / name, sep=sep, dtype=str, keep_default_na=False)


def num(s: str) -> float:
    """'1.234,5 %' style (German) is handled by de_num; this handles '+28', '-6', '1,234.5', '38 g'."""
    s = re.sub(r"[^0-9.\-+]", "", s.replace(",", ""))
    return float(s)


def de_num(s: str) -> float:
    """German number: '94,5 %' -> 94.5, '1.234,5' -> 1234.5."""
    s = s.replace("%", "").strip().replace(".", "").replace(",", ".")
    return float(s)


def minutes(s: str) -> int:
    """'1 hr 10 min' -> 70, '25 min' -> 25, '2 hr' -> 120."""
    h = re.search(r"(\d+)\s*hr", s)
    m = re.search(r"(\d+)\s*min", s)
    return (int(h.group(1)) * 60 if h else 0) + (int(m.group(1)) if m else 0)


def de_date(s: str) -> pd.Timestamp:
    return pd.to_datetime(s, format="%d.%m.%Y")


def hhmm(s: str) -> int:
    h, m = s.split(":")
    return int(h) * 60 + int(m)


R = load_recipes()
S = load_csv("school_attendance.csv", sep=";")
A = load_csv("airport_arrivals.csv")

R_CAL = R["Calories per Serving (kcal)"].map(num)
R_PROT = R["Protein"].map(lambda s: num(s) if s else float("nan"))
R_MIN = R["Prep Time"].map(minutes)
S_ABS = S["Abwesend"].map(num)
S_RATE = S["Anwesenheitsquote"].map(de_num)
S_DATE = S["Datum"].map(de_date)
A_DELAY = A["Delay (min)"].map(lambda s: num(s) if s else float("nan"))
A_SCHED = A["Scheduled"].map(hhmm)


def unique_idx(series: pd.Series, largest: bool = True) -> int:
    """Index of the single max/min; fails on ties."""
    target = series.max() if largest else series.min()
    hits = series[series == target]
    assert len(hits) == 1, f"tie: {list(hits.index)}"
    return hits.index[0]


def r_value(name: str, col: str) -> str:
    return R.loc[R["Recipe"] == name, col].iloc[0]


def s_row(cls: str, date: str) -> pd.Series:
    row = S[(S["Klasse"] == cls) & (S["Datum"] == date)]
    assert len(row) == 1
    return row.iloc[0]


def a_row(flight: str) -> pd.Series:
    row = A[A["Flight"] == flight]
    assert len(row) == 1
    return row.iloc[0]


def school_next(cls: str, date: str) -> pd.Series:
    rows = S[S["Klasse"] == cls].assign(_d=S_DATE).sort_values("_d")
    later = rows[rows["_d"] > de_date(date)]
    return later.iloc[0]


def airport_after(from_city: str) -> str:
    order = A.assign(_t=A_SCHED).sort_values("_t").reset_index(drop=True)
    i = order.index[order["From"] == from_city]
    assert len(i) == 1
    return order.loc[i[0] + 1, "Flight"]


def either(a: float, b: float, name_a: str, name_b: str) -> str:
    assert a != b
    return name_a if a > b else name_b


ANSWERS: dict[str, Callable[[], object]] = {
    # recipes.json
    "How long does the mushroom risotto take to prep?": lambda: r_value("Mushroom Risotto", "Prep Time"),
    "how many thai recipes do i have": lambda: int((R["Cuisine"] == "Thai").sum()),
    "How many recipes are over 500 calories a serving?": lambda: int((R_CAL > 500).sum()),
    "which recipe has the most protein": lambda: R.loc[unique_idx(R_PROT.dropna()), "Recipe"],
    "average calories per serving for the vegetarian dishes": lambda: round(
        R_CAL[R["Vegetarian"] == "True"].mean(), 2
    ),
    "Which recipes take longer than an hour and a half to make?": lambda: list(R.loc[R_MIN > 90, "Recipe"]),
    "Kung Pao Chicken or Beef Bulgogi Bowls - which one has more protein?": lambda: either(
        num(r_value("Kung Pao Chicken", "Protein")),
        num(r_value("Beef Bulgogi Bowls", "Protein")),
        "Kung Pao Chicken",
        "Beef Bulgogi Bowls",
    ),
    "total number of servings across all the italian recipes": lambda: (
        R.loc[R["Cuisine"] == "Italian", "Servings"].map(num).sum()
    ),
    "How many more calories per serving does the fish and chips have than the shakshuka?": lambda: (
        num(r_value("Fish and Chips", "Calories per Serving (kcal)"))
        - num(r_value("Shakshuka", "Calories per Serving (kcal)"))
    ),
    "what's the quickest recipe to make?": lambda: R.loc[unique_idx(R_MIN, largest=False), "Recipe"],
    # school_attendance.csv
    "What was 7b's attendance rate on 18.03.2024?": lambda: s_row("7b", "18.03.2024")["Anwesenheitsquote"],
    "how many class records were marked Grippewelle": lambda: int((S["Bemerkung"] == "Grippewelle").sum()),
    "How many times did a class's attendance drop below 90 %?": lambda: int((S_RATE < 90).sum()),
    "On which date did 5a have its worst attendance?": lambda: S.loc[
        unique_idx(S_RATE[S["Klasse"] == "5a"], largest=False), "Datum"
    ],
    "average number of pupils absent in 6b": lambda: round(S_ABS[S["Klasse"] == "6b"].mean(), 2),
    "total absences across all classes on 11 March 2024": lambda: S_ABS[
        S_DATE == pd.Timestamp(2024, 3, 11)
    ].sum(),
    "How many records from April show an attendance rate above 95 %?": lambda: int(
        ((S_DATE.dt.month == 4) & (S_DATE.dt.year == 2024) & (S_RATE > 95)).sum()
    ),
    "How many more pupils were missing from 8a on 04.03.2024 than on 15.04.2024?": lambda: (
        num(s_row("8a", "04.03.2024")["Abwesend"]) - num(s_row("8a", "15.04.2024")["Abwesend"])
    ),
    "when was the last time Frau Hartmann's class had nobody absent": lambda: S.loc[
        S_DATE[(S["Klasse"] == "7b") & (S_ABS == 0)].idxmax(), "Datum"
    ],
    "How many pupils were absent in 10a on the date after 18.03.2024?": lambda: school_next(
        "10a", "18.03.2024"
    )["Abwesend"],
    # airport_arrivals.csv
    "what belt is the baggage for NL 204 on": lambda: a_row("NL 204")["Baggage Belt"],
    "How many flights were cancelled today?": lambda: int((A["Status"] == "Cancelled").sum()),
    "how many arrivals were more than 30 minutes late": lambda: int((A_DELAY > 30).sum()),
    "Which flight came in the furthest ahead of schedule?": lambda: A.loc[
        unique_idx(A_DELAY.dropna(), largest=False), "Flight"
    ],
    "what flight is due in right after the one from Lisbon?": lambda: airport_after("Lisbon"),
    "When is the last flight from Vienna scheduled to land?": lambda: A.loc[
        A_SCHED[A["From"] == "Vienna"].idxmax(), "Scheduled"
    ],
    "how many flights were scheduled to arrive between 12:00 and 15:00": lambda: int(
        ((A_SCHED >= hhmm("12:00")) & (A_SCHED <= hhmm("15:00"))).sum()
    ),
    "Which was more delayed, SE 424 or SE 430?": lambda: either(
        num(a_row("SE 424")["Delay (min)"]), num(a_row("SE 430")["Delay (min)"]), "SE 424", "SE 430"
    ),
    "Which flights were delayed by over 45 minutes?": lambda: list(A.loc[A_DELAY > 45, "Flight"]),
    "average delay of Alpina Air flights in minutes": lambda: round(
        A_DELAY[A["Airline"] == "Alpina Air"].mean(), 2
    ),
}
