"""Round-10 real-world checks (writer w54): labour indicators, orchard weather log, basketball player stats."""

from __future__ import annotations

import csv
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
QUESTIONS = REAL / "questions-round10-w54.tsv"

UNEMP = "Unemployment, total (% of total labor force)"
YOUTH = "Unemployment, youth total (% of total labor force ages 15-24)"
FEMALE = "Labor force participation rate, female (% of female population ages 15+)"
GROWTH = "GDP growth (annual %)"
INFL = "Inflation, consumer prices (annual %)"
LABOR = "Labor force, total"
NUMERIC_LABOUR = [
    "Population, total",
    LABOR,
    UNEMP,
    YOUTH,
    FEMALE,
    GROWTH,
    "GDP per capita (current US$)",
    INFL,
    "Employment in agriculture (% of total employment)",
]


def _num(text: str) -> float:
    """Parse a plain number cell; blanks and World Bank '..' become NaN."""
    text = str(text).strip()
    if text in {"", "..", "n/a", "N/A", "-"}:
        return float("nan")
    return float(text.replace(",", ""))


def _pct(text: str) -> float:
    """Parse a percentage cell like '45.5%' into 45.5; blank becomes NaN."""
    text = str(text).strip()
    return _num(text[:-1] if text.endswith("%") else text)


@cache
def labour() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r10_labour_indicators.csv", dtype=str, keep_default_na=False, encoding="utf-8")
    for col in NUMERIC_LABOUR:
        df[col] = df[col].map(_num)
    return df


@cache
def orchard() -> pd.DataFrame:
    df = pd.read_csv(
        REAL / "r10_orchard_weather.tsv", sep="\t", dtype=str, keep_default_na=False, encoding="utf-8"
    )
    df["day"] = pd.to_datetime(df["Date"], format="%Y-%m-%d")
    df["tmin"] = df["Min Temp (°C)"].map(_num)
    df["tmax"] = df["Max Temp (°C)"].map(_num)
    df["rain"] = df["Rainfall (mm)"].map(_num)
    df["wind"] = df["Wind (km/h)"].map(_num)
    df["frost"] = df["Frost"].str.strip().str.lower().eq("yes")
    return df


@cache
def players() -> pd.DataFrame:
    df = pd.read_csv(
        REAL / "r10_basketball_player_stats.csv", dtype=str, keep_default_na=False, encoding="utf-8"
    )
    for col in ["GP", "MIN", "PTS", "REB", "AST"]:
        df[col + "_n"] = df[col].map(_num)
    df["fg"] = df["FG%"].map(_pct)
    df["three"] = df["3P%"].map(_pct)
    return df


def _country(name: str) -> pd.Series:
    df = labour()
    return df[df["Country Name"] == name].iloc[0]


def _day(date: str) -> pd.Series:
    df = orchard()
    return df[df["Date"] == date].iloc[0]


def _player(name: str) -> pd.Series:
    df = players()
    return df[df["Player"] == name].iloc[0]


def _either(a: str, b: str, value: Callable[[str], float]) -> str:
    return a if value(a) > value(b) else b


def _day_after(date: str) -> pd.Series:
    df = orchard().sort_values("day").reset_index(drop=True)
    pos = df.index[df["Date"] == date][0]
    return df.iloc[pos + 1]


def _row_after(name: str) -> str:
    df = players().reset_index(drop=True)
    pos = df.index[df["Player"] == name][0]
    return df.iloc[pos + 1]["Player"]


ANSWERS: dict[str, Callable[[], object]] = {
    # r10_labour_indicators.csv
    "What is Spain's total unemployment rate?": lambda: _country("Spain")[UNEMP],
    "which country had the highest youth unemployment": lambda: labour().loc[
        labour()[YOUTH].idxmax(), "Country Name"
    ],
    "Which countries had negative GDP growth in 2023?": lambda: (
        labour().loc[(labour()["Time"] == "2023") & (labour()[GROWTH] < 0), "Country Name"].tolist()
    ),
    "how many countries are missing a youth unemployment figure": lambda: int(labour()[YOUTH].isna().sum()),
    "What is the average GDP growth across all the countries in the table?": lambda: round(
        labour()[GROWTH].mean(), 2
    ),
    "How much higher is South Africa's total unemployment rate than Germany's?": lambda: round(
        _country("South Africa")[UNEMP] - _country("Germany")[UNEMP], 2
    ),
    "Which had higher inflation, Egypt or Ghana?": lambda: (
        "Egypt" if _country("Egypt, Arab Rep.")[INFL] > _country("Ghana")[INFL] else "Ghana"
    ),
    "Which countries have a female labor force participation rate below 40%?": lambda: (
        labour().loc[labour()[FEMALE] < 40, "Country Name"].tolist()
    ),
    "what is the combined labor force of Finland, Sweden and Estonia": lambda: int(
        labour().loc[labour()["Country Name"].isin(["Finland", "Sweden", "Estonia"]), LABOR].sum()
    ),
    "How many countries had consumer price inflation above 10 percent?": lambda: int(
        (labour()[INFL] > 10).sum()
    ),
    # r10_orchard_weather.tsv
    "how many frost days did we have": lambda: int(orchard()["frost"].sum()),
    "On which date did we record the coldest minimum temperature?": lambda: orchard().loc[
        orchard()["tmin"].idxmin(), "Date"
    ],
    "How many days did the minimum temperature fall below -2 °C?": lambda: int(
        (orchard()["tmin"] < -2).sum()
    ),
    "What was our total rainfall for April?": lambda: round(
        orchard().loc[(orchard()["day"].dt.year == 2024) & (orchard()["day"].dt.month == 4), "rain"].sum(), 2
    ),
    "list the frost days between April 15 and April 30": lambda: (
        orchard()
        .loc[
            orchard()["frost"]
            & orchard()["day"].between(pd.Timestamp("2024-04-15"), pd.Timestamp("2024-04-30")),
            "Date",
        ]
        .tolist()
    ),
    "What was the average maximum temperature over the whole 45 days?": lambda: round(
        orchard()["tmax"].mean(), 2
    ),
    "what was the max temp the day after 2024-04-21": lambda: _day_after("2024-04-21")["Max Temp (°C)"],
    "When was the last frost of the spring?": lambda: (
        orchard().loc[orchard()["frost"]].sort_values("day").iloc[-1]["Date"]
    ),
    "Which day was windier, 2024-04-18 or 2024-05-09?": lambda: _either(
        "2024-04-18", "2024-05-09", lambda d: _day(d)["wind"]
    ),
    "On which days did rainfall go over 10 mm?": lambda: (
        orchard().loc[orchard()["rain"] > 10, "Date"].tolist()
    ),
    # r10_basketball_player_stats.csv
    "What is Viktor Petrov's field goal percentage?": lambda: _player("Viktor Petrov")["FG%"],
    "who is our leading scorer": lambda: players().loc[players()["PTS_n"].idxmax(), "Player"],
    "How many players are listed at position G?": lambda: int((players()["Pos"].str.strip() == "G").sum()),
    "how many players shoot 45% or better from the field": lambda: int((players()["fg"] >= 45).sum()),
    "What's the average minutes per game across the whole roster?": lambda: round(
        players()["MIN_n"].mean(), 2
    ),
    "How many more points per game does Jalen Brooks score than Marcus Hill?": lambda: round(
        _player("Jalen Brooks")["PTS_n"] - _player("Marcus Hill")["PTS_n"], 2
    ),
    "Who averages more assists, Chris Nguyen or Tyrese Walker Jr.?": lambda: _either(
        "Chris Nguyen", "Tyrese Walker Jr.", lambda p: _player(p)["AST_n"]
    ),
    "what is the combined points per game of the players listed at F": lambda: round(
        players().loc[players()["Pos"].str.strip() == "F", "PTS_n"].sum(), 2
    ),
    "Who is listed right after Kofi Mensah?": lambda: _row_after("Kofi Mensah"),
    "Which of our players average more than 30 minutes a game?": lambda: (
        players().loc[players()["MIN_n"] > 30, "Player"].tolist()
    ),
}


def _agrees(computed: object, gold: str) -> bool:
    """A number agrees within half a unit of the gold's last decimal; a string must match exactly."""
    if isinstance(computed, list):
        parts = gold.split("|")
        return len(parts) == len(computed) and all(
            _agrees(c, g) for c, g in zip(computed, parts, strict=True)
        )
    if isinstance(computed, (int, float)) and not isinstance(computed, bool):
        try:
            value = float(gold)
        except ValueError:
            return False
        decimals = len(gold.split(".")[1]) if "." in gold else 0
        return abs(float(computed) - value) <= 0.5 * 10**-decimals + 1e-9
    return str(computed) == gold


def main() -> int:
    with QUESTIONS.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    failures = 0
    by_type: dict[str, int] = {}
    for row in rows:
        computed = ANSWERS[row["question"]]()
        ok = _agrees(computed, row["answer"])
        failures += not ok
        by_type[row["type"]] = by_type.get(row["type"], 0) + 1
        print(
            f"{'OK ' if ok else 'BAD'} {row['table']:<34} {row['question']!r}: gold={row['answer']!r} got={computed!r}"
        )
    missing = set(ANSWERS) - {r["question"] for r in rows}
    print(
        f"\n{len(rows) - failures}/{len(rows)} agree; {len(ANSWERS)} answer functions; unused: {sorted(missing)}"
    )
    print("types:", dict(sorted(by_type.items())))
    return 1 if failures or missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
