"""Hand-checked answers for round-11 real-world tables: trade indicators, ski snow report, cricket batting."""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA_DIR = Path(__file__).resolve().parents[2] / "examples" / "real"
TSV_PATH = DATA_DIR / "questions-round11-w58.tsv"

TRADE_FILE = "r11_trade_indicators.csv"
SNOW_FILE = "r11_ski_snow_report.csv"
CRICKET_FILE = "r11_cricket_batting.csv"

CAB_USD = "Current account balance (BoP, current US$)"
CAB_PCT = "Current account balance (% of GDP)"
EXPORTS = "Exports of goods and services (% of GDP)"
IMPORTS = "Imports of goods and services (% of GDP)"
TRADE = "Trade (% of GDP)"
TARIFF = "Tariff rate, applied, weighted mean, all products (%)"
GDP = "GDP (current US$)"


def _number(text: object) -> float | None:
    """Parse a cell like '1,204', '-8.94', '87*' or '' into a float (None when blank)."""
    s = str(text).strip().replace(",", "").rstrip("*")
    if s in ("", "nan", ".."):
        return None
    return float(s)


def _raw(name: str) -> pd.DataFrame:
    """Read a table with every cell kept as the exact text the file writes."""
    return pd.read_csv(DATA_DIR / name, dtype=str, keep_default_na=False, encoding="utf-8-sig")


def trade() -> pd.DataFrame:
    df = _raw(TRADE_FILE)
    for col in (EXPORTS, IMPORTS, TRADE, CAB_USD, CAB_PCT, TARIFF, GDP):
        df[col + " #"] = df[col].map(_number)
    return df


def snow() -> pd.DataFrame:
    df = _raw(SNOW_FILE)
    df["date #"] = pd.to_datetime(df["Date"], format="%B %d, %Y")
    df["new #"] = df["New Snow (cm)"].map(_number)
    df["base #"] = df["Base Depth (cm)"].map(_number)
    df["temp #"] = df["Summit Temp (°C)"].map(_number)
    lifts = df["Lifts Open"].str.split("/", expand=True)
    df["lifts open #"] = lifts[0].astype(int)
    df["lifts total #"] = lifts[1].astype(int)
    return df


def cricket() -> pd.DataFrame:
    df = _raw(CRICKET_FILE)
    df["runs #"] = df["Runs"].map(_number)
    df["ave #"] = df["Ave"].map(_number)
    df["sr #"] = df["SR"].map(_number)
    df["hs not out"] = df["HS"].str.endswith("*")
    df["fifties #"] = df["50"].map(_number)
    return df


def _cell(df: pd.DataFrame, key_col: str, key: str, col: str) -> str:
    hits = df.loc[df[key_col] == key, col]
    if len(hits) != 1:
        raise ValueError(f"{key!r} matches {len(hits)} rows in {key_col!r}")
    return str(hits.iloc[0])


def _row_value(df: pd.DataFrame, key_col: str, key: str, col: str) -> float:
    hits = df.loc[df[key_col] == key, col]
    if len(hits) != 1:
        raise ValueError(f"{key!r} matches {len(hits)} rows in {key_col!r}")
    return float(hits.iloc[0])


def _argmax(df: pd.DataFrame, col: str, label: str) -> str:
    return str(df.loc[df[col].idxmax(), label])


def _argmin(df: pd.DataFrame, col: str, label: str) -> str:
    return str(df.loc[df[col].idxmin(), label])


def _either(df: pd.DataFrame, key_col: str, a: str, b: str, col: str) -> str:
    va, vb = _row_value(df, key_col, a, col), _row_value(df, key_col, b, col)
    if va == vb:
        raise ValueError("tie")
    return a if va > vb else b


def _previous(df: pd.DataFrame, key_col: str, key: str, col: str) -> str:
    pos = df.index[df[key_col] == key]
    if len(pos) != 1 or pos[0] == 0:
        raise ValueError(f"no single previous row for {key!r}")
    return str(df.iloc[df.index.get_loc(pos[0]) - 1][col])


def _snow_month(year: int, month: int) -> pd.DataFrame:
    df = snow()
    return df[(df["date #"].dt.year == year) & (df["date #"].dt.month == month)]


ANSWERS: dict[str, Callable[[], object]] = {
    # --- r11_trade_indicators.csv ---
    "What was the current account balance (% of GDP) for Chile in 2022?": lambda: _cell(
        trade(), "Country Name", "Chile", CAB_PCT
    ),
    "how many countries ran a current account deficit": lambda: int((trade()[CAB_USD + " #"] < 0).sum()),
    "Which country has the highest Trade (% of GDP)?": lambda: _argmax(trade(), TRADE + " #", "Country Name"),
    "How many countries have no tariff rate reported?": lambda: int(trade()[TARIFF + " #"].isna().sum()),
    "list the countries where exports of goods and services are above 60% of GDP": lambda: (
        trade().loc[lambda d: d[EXPORTS + " #"] > 60, "Country Name"].tolist()
    ),
    "Which had the larger current account surplus in US dollars, Germany or Norway?": lambda: _either(
        trade(), "Country Name", "Germany", "Norway", CAB_USD + " #"
    ),
    "What is the average applied weighted mean tariff rate, counting only the countries that have one?": lambda: (
        round(float(trade()[TARIFF + " #"].dropna().mean()), 2)
    ),
    "By how many percentage points of GDP did Mexico's imports exceed its exports?": lambda: round(
        _row_value(trade(), "Country Name", "Mexico", IMPORTS + " #")
        - _row_value(trade(), "Country Name", "Mexico", EXPORTS + " #"),
        2,
    ),
    "Which country had the biggest current account deficit in current US$?": lambda: _argmin(
        trade().loc[lambda d: d[CAB_USD + " #"] < 0], CAB_USD + " #", "Country Name"
    ),
    "what's the combined GDP (current US$) of France, Germany and the United Kingdom": lambda: int(
        trade()
        .loc[lambda d: d["Country Name"].isin(["France", "Germany", "United Kingdom"]), GDP + " #"]
        .sum()
    ),
    # --- r11_ski_snow_report.csv ---
    "What was the base depth on January 12, 2024?": lambda: int(
        _row_value(snow(), "Date", "January 12, 2024", "base #")
    ),
    "how much new snow did we get in December": lambda: int(_snow_month(2023, 12)["new #"].sum()),
    "On which days in January 2024 was the summit temperature above freezing?": lambda: (
        _snow_month(2024, 1).loc[lambda d: d["temp #"] > 0, "Date"].tolist()
    ),
    "Which day had the most new snow?": lambda: _argmax(snow(), "new #", "Date"),
    "coldest day at the summit?": lambda: _argmin(snow(), "temp #", "Date"),
    "How many days had at least 20 cm of new snow?": lambda: int((snow()["new #"] >= 20).sum()),
    "on how many days was the surface reported as Powder": lambda: int((snow()["Surface"] == "Powder").sum()),
    "What was the Lifts Open figure on the day before January 10, 2024?": lambda: _previous(
        snow(), "Date", "January 10, 2024", "Lifts Open"
    ),
    "When were all 18 lifts open for the first time?": lambda: str(
        snow()
        .sort_values("date #")
        .loc[lambda d: (d["lifts open #"] == 18) & (d["lifts total #"] == 18), "Date"]
        .iloc[0]
    ),
    "What was our average summit temperature over the whole 50 days?": lambda: round(
        float(snow()["temp #"].mean()), 2
    ),
    # --- r11_cricket_batting.csv ---
    "what's S. Okafor's highest score": lambda: _cell(cricket(), "Player", "S. Okafor", "HS"),
    "Who has scored the most runs for us?": lambda: _argmax(cricket(), "runs #", "Player"),
    "How many players have more than 1,000 runs?": lambda: int((cricket()["runs #"] > 1000).sum()),
    "How many of our batters made their highest score not out?": lambda: int(cricket()["hs not out"].sum()),
    "total runs scored by the whole squad": lambda: int(cricket()["runs #"].sum()),
    "What is the average strike rate across all 17 players?": lambda: round(
        float(cricket()["sr #"].mean()), 2
    ),
    "Who has the better batting average, J. Whitmore or P. Van der Berg?": lambda: _either(
        cricket(), "Player", "J. Whitmore", "P. Van der Berg", "ave #"
    ),
    "How many more runs has R. Patel scored than J. Whitmore?": lambda: int(
        _row_value(cricket(), "Player", "R. Patel", "runs #")
        - _row_value(cricket(), "Player", "J. Whitmore", "runs #")
    ),
    "which players are averaging below 20": lambda: (
        cricket().loc[lambda d: d["ave #"] < 20, "Player"].tolist()
    ),
    "How many batters have yet to score a fifty?": lambda: int((cricket()["fifties #"] == 0).sum()),
}


def _agrees(computed: object, gold: str) -> bool:
    """A number agrees within half a unit of the gold's last written decimal; text must match exactly."""
    if isinstance(computed, list):
        parts = gold.split("|")
        return len(parts) == len(computed) and all(
            _agrees(c, g) for c, g in zip(computed, parts, strict=True)
        )
    if isinstance(computed, (int, float)) and not isinstance(computed, bool):
        try:
            value = float(gold.replace(",", ""))
        except ValueError:
            return False
        decimals = len(gold.split(".")[1]) if "." in gold else 0
        return abs(float(computed) - value) <= 0.5 * 10**-decimals + 1e-9
    return str(computed) == gold


def self_check() -> int:
    """Compare every TSV gold answer with the computed one; return the number of disagreements."""
    with TSV_PATH.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    bad = 0
    by_type: dict[str, int] = {}
    for row in rows:
        computed = ANSWERS[row["question"]]()
        ok = _agrees(computed, row["answer"])
        bad += not ok
        by_type[row["type"]] = by_type.get(row["type"], 0) + 1
        print(f"{'OK ' if ok else 'BAD'} {row['table']:28} {row['answer']!r:>40} <- {computed!r}")
    missing = set(ANSWERS) - {r["question"] for r in rows}
    print(f"{len(rows) - bad}/{len(rows)} agree; unused ANSWERS keys: {len(missing)}; types: {by_type}")
    return bad + len(missing)


if __name__ == "__main__":
    raise SystemExit(self_check())
