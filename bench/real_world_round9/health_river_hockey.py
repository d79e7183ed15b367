"""Hand-written gold checks for the round-9 health indicator, river gauge and hockey season tables."""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from datetime import datetime
from functools import lru_cache
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
QUESTIONS = REAL / "questions-round9-w50.tsv"

HEALTH_FILE = "r9_country_health_indicators.csv"
RIVER_FILE = "r9_river_gauge_log.csv"
HOCKEY_FILE = "r9_hockey_season_results.csv"


def _num(value: object) -> float | None:
    """Parse a number written like `12,480`, `-4.0` or blank; None when blank."""
    if value is None:
        return None
    text = str(value).strip().replace(",", "")
    if text == "" or text.lower() == "nan":
        return None
    return float(text)


def _raw(name: str) -> pd.DataFrame:
    return pd.read_csv(REAL / name, dtype=str, keep_default_na=False, encoding="utf-8")


def _col(df: pd.DataFrame, start: str) -> str:
    """The one column whose header starts with `start` (long World-Bank-style headers)."""
    hits = [c for c in df.columns if c.startswith(start)]
    if len(hits) != 1:
        raise KeyError(f"{start!r} matched {hits}")
    return hits[0]


@lru_cache(maxsize=1)
def health() -> pd.DataFrame:
    raw = _raw(HEALTH_FILE)
    out = pd.DataFrame({"country": raw["Country Name"].str.strip()})
    names = {
        "life": "Life expectancy at birth",
        "beds": "Hospital beds",
        "physicians": "Physicians",
        "health_exp": "Current health expenditure",
        "infant": "Mortality rate, infant",
        "measles": "Immunization, measles",
        "population": "Population, total",
        "undernourished": "Prevalence of undernourishment",
    }
    for key, start in names.items():
        out[key] = raw[_col(raw, start)].map(_num).astype("float64")
    return out


@lru_cache(maxsize=1)
def river() -> pd.DataFrame:
    raw = _raw(RIVER_FILE)
    return pd.DataFrame(
        {
            "date_text": raw["Date"].str.strip(),
            "date": raw["Date"].map(lambda s: datetime.strptime(s.strip(), "%B %d, %Y")),
            "level": raw["Gauge level (m)"].map(_num).astype("float64"),
            "rain": raw["Rainfall (mm)"].map(_num).astype("float64"),
            "temp": raw["Air temp (°C)"].map(_num).astype("float64"),
            "notes": raw["Notes"].str.strip(),
        }
    )


_SCORE = re.compile(r"^\s*(\d+)\s*[–-]\s*(\d+)\s*(OT|SO)?\s*$")


@lru_cache(maxsize=1)
def hockey() -> pd.DataFrame:
    raw = _raw(HOCKEY_FILE)
    parts = raw["Score (GF–GA)"].map(lambda s: _SCORE.match(s).groups())
    return pd.DataFrame(
        {
            "date_text": raw["Date"].str.strip(),
            "date": raw["Date"].map(lambda s: datetime.strptime(s.strip(), "%b %d, %Y")),
            "opponent": raw["Opponent"].str.strip(),
            "venue": raw["Home/Away"].str.strip().str.lower(),
            "score_text": raw["Score (GF–GA)"].str.strip(),
            "gf": parts.map(lambda p: int(p[0])),
            "ga": parts.map(lambda p: int(p[1])),
            "result": raw["Result"].str.strip(),
            "attendance": raw["Attendance"].map(_num).astype("float64"),
        }
    )


def _h_row(country: str) -> pd.Series:
    df = health()
    return df[df["country"] == country].iloc[0]


def _r_on(date_text: str) -> pd.Series:
    df = river()
    return df[df["date_text"] == date_text].iloc[0]


def _river_day_before(date_text: str) -> float:
    df = river().sort_values("date").reset_index(drop=True)
    idx = df.index[df["date_text"] == date_text][0]
    return float(df.loc[idx - 1, "level"])


def _hockey_next_after(date_text: str, opponent: str) -> str:
    df = hockey().sort_values("date").reset_index(drop=True)
    idx = df.index[(df["date_text"] == date_text) & (df["opponent"] == opponent)][0]
    return str(df.loc[idx + 1, "opponent"])


def _hockey_game(date_text: str, opponent: str) -> pd.Series:
    df = hockey()
    return df[(df["date_text"] == date_text) & (df["opponent"] == opponent)].iloc[0]


def _either_or_crowd() -> str:
    a = _hockey_game("Jan 6, 2024", "Eastport Mariners")
    b = _hockey_game("Jan 20, 2024", "Northgate Wolves")
    return str(a["opponent"] if a["attendance"] > b["attendance"] else b["opponent"])


def _home() -> pd.DataFrame:
    df = hockey()
    return df[df["venue"] == "home"]


ANSWERS: dict[str, Callable[[], object]] = {
    # --- country health indicators ---
    "What is the number of hospital beds per 1,000 people in Germany?": lambda: float(
        _h_row("Germany")["beds"]
    ),
    "which country has the highest infant mortality rate": lambda: str(
        health().loc[health()["infant"].idxmax(), "country"]
    ),
    "How many countries have no figure for hospital beds?": lambda: int(health()["beds"].isna().sum()),
    "What is the average life expectancy at birth across all the countries in this table?": lambda: round(
        float(health()["life"].mean()), 2
    ),
    "Which countries spend more than 10% of their GDP on health?": lambda: (
        health().loc[health()["health_exp"] > 10, "country"].tolist()
    ),
    "how many more physicians per 1,000 people does Norway have than Poland": lambda: round(
        float(_h_row("Norway")["physicians"] - _h_row("Poland")["physicians"]), 2
    ),
    "Which has the higher measles immunization rate, Brazil or Peru?": lambda: (
        "Brazil" if _h_row("Brazil")["measles"] > _h_row("Peru")["measles"] else "Peru"
    ),
    "How many countries report exactly 97% measles immunization?": lambda: int(
        (health()["measles"] == 97).sum()
    ),
    "I need the combined total population of Norway, Chile and Canada - what does it come to?": lambda: int(
        health().loc[health()["country"].isin(["Norway", "Chile", "Canada"]), "population"].sum()
    ),
    "number of countries where undernourishment is 5% of the population or more": lambda: int(
        (health()["undernourished"] >= 5).sum()
    ),
    # --- river gauge and weather log ---
    "What was the gauge level on March 15, 2024?": lambda: float(_r_on("March 15, 2024")["level"]),
    "Which day had the most rainfall?": lambda: str(river().loc[river()["rain"].idxmax(), "date_text"]),
    "how many days was the air temperature below freezing": lambda: int((river()["temp"] < 0).sum()),
    "coldest day in the log?": lambda: str(river().loc[river()["temp"].idxmin(), "date_text"]),
    "What was the total rainfall in April 2024, in mm?": lambda: round(
        float(river().loc[(river()["date"].dt.year == 2024) & (river()["date"].dt.month == 4), "rain"].sum()),
        1,
    ),
    "On which days was the river level above 3 metres?": lambda: (
        river().loc[river()["level"] > 3, "date_text"].tolist()
    ),
    "What was the gauge level on the day before April 21, 2024?": lambda: _river_day_before("April 21, 2024"),
    "what is the first date when the air temperature reached 10 degrees or more": lambda: str(
        river().sort_values("date").loc[lambda d: d["temp"] >= 10, "date_text"].iloc[0]
    ),
    "By how many metres did the gauge level rise between March 1 and April 29, 2024?": lambda: round(
        float(_r_on("April 29, 2024")["level"] - _r_on("March 1, 2024")["level"]), 2
    ),
    "What was the average air temperature over the month of March?": lambda: round(
        float(river().loc[river()["date"].dt.month == 3, "temp"].mean()), 2
    ),
    # --- hockey season results ---
    "how many games did we win this season": lambda: int((hockey()["result"] == "W").sum()),
    "How many games have no attendance figure recorded?": lambda: int(hockey()["attendance"].isna().sum()),
    "On what date did we have our biggest home crowd?": lambda: str(
        _home().loc[_home()["attendance"].idxmax(), "date_text"]
    ),
    "What was our average attendance for home games?": lambda: round(float(_home()["attendance"].mean()), 2),
    "total goals we scored across all games": lambda: int(hockey()["gf"].sum()),
    "Who was our last opponent of the season?": lambda: str(
        hockey().sort_values("date")["opponent"].iloc[-1]
    ),
    "How many games did we play in December 2023?": lambda: int(
        ((hockey()["date"].dt.year == 2023) & (hockey()["date"].dt.month == 12)).sum()
    ),
    "Who did we play next after the Dec 30, 2023 game against Kingsbury Knights?": lambda: _hockey_next_after(
        "Dec 30, 2023", "Kingsbury Knights"
    ),
    "Which away crowd was bigger, at Eastport Mariners on Jan 6 or at Northgate Wolves on Jan 20?": _either_or_crowd,
    "What was the score in the Dec 23, 2023 game against Granite Falls Rams?": lambda: str(
        _hockey_game("Dec 23, 2023", "Granite Falls Rams")["score_text"]
    ),
}


def _agrees(computed: object, gold: str) -> bool:
    """A number within half a unit of the gold's last written decimal; a string exactly; a list item by item."""
    if isinstance(computed, list):
        parts = gold.split("|")
        return len(parts) == len(computed) and all(
            _agrees(c, g) for c, g in zip(computed, parts, strict=True)
        )
    if isinstance(computed, (int, float)) and not isinstance(computed, bool):
        try:
            gold_num = float(gold)
        except ValueError:
            return False
        decimals = len(gold.split(".")[1]) if "." in gold else 0
        return abs(float(computed) - gold_num) <= 0.5 * 10**-decimals + 1e-9
    return str(computed) == gold


def check() -> int:
    """Compare every TSV gold answer with the pandas computation; return the number of disagreements."""
    with QUESTIONS.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    bad = 0
    for row in rows:
        fn = ANSWERS.get(row["question"])
        if fn is None:
            print(f"MISSING  {row['question']}")
            bad += 1
            continue
        computed = fn()
        ok = _agrees(computed, row["answer"])
        bad += not ok
        print(
            f"{'ok ' if ok else 'BAD'}  [{row['type']}] {row['question']} -> gold={row['answer']!r} got={computed!r}"
        )
    extra = set(ANSWERS) - {r["question"] for r in rows}
    for q in sorted(extra):
        print(f"EXTRA    {q}")
    print(f"{len(rows) - bad}/{len(rows)} agree; {len(extra)} extra")
    return bad + len(extra)


if __name__ == "__main__":
    raise SystemExit(check())
