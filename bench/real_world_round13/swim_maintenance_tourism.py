"""Gold-answer checks for round-13 questions on the swim gala, maintenance requests and tourism tables."""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
QUESTIONS = REAL / "questions-round13-w68.tsv"


def swim_seconds(text: object) -> float | None:
    """Turn `1:05.32` or `58.91` into seconds; `DQ`, `DNS`, `NT` and blanks become None."""
    s = str(text).strip() if text is not None else ""
    if not s or s.upper() in {"DQ", "DNS", "NT", "NAN"}:
        return None
    if ":" in s:
        minutes, seconds = s.split(":", 1)
        return int(minutes) * 60 + float(seconds)
    return float(s)


def money(text: object) -> float | None:
    """Turn `$1,250` or `$315.50` into a float; blanks and nulls become None."""
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return None
    s = str(text).strip().replace("$", "").replace(",", "")
    return float(s) if s else None


def count_with_suffix(text: object) -> float | None:
    """Turn `1.2M` or `486K` into a plain number; `..` becomes None."""
    s = str(text).strip()
    if s in {"", "..", "nan"}:
        return None
    scale = {"K": 1e3, "M": 1e6}.get(s[-1].upper(), 1.0)
    return float(s[:-1]) * scale if scale != 1.0 else float(s)


def number_or_none(text: object) -> float | None:
    """Turn `-62.4` into a float; `..` becomes None."""
    s = str(text).strip()
    return None if s in {"", "..", "nan"} else float(s)


def swim() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r13_swim_gala_results.csv", dtype=str, keep_default_na=False)
    df["secs"] = df["Final Time"].map(swim_seconds)
    return df


def maintenance() -> pd.DataFrame:
    df = pd.read_json(REAL / "r13_maintenance_requests.jsonl", lines=True, dtype=False)
    df["cost_num"] = df["cost"].map(money)
    df["opened_dt"] = pd.to_datetime(df["opened"], format="%Y-%m-%d")
    df["closed_dt"] = pd.to_datetime(df["closed"].replace("", None), format="%Y-%m-%d")
    return df


def tourism() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r13_tourism_indicators.csv", dtype=str, keep_default_na=False)
    for year in range(2019, 2024):
        df[f"arr{year}"] = df[f"Arrivals {year}"].map(count_with_suffix)
    df["rec2019"] = df["Receipts 2019 (US$ bn)"].map(number_or_none)
    df["rec2023"] = df["Receipts 2023 (US$ bn)"].map(number_or_none)
    df["chg2020"] = df["Arrivals change 2020 (%)"].map(number_or_none)
    df["chg2023"] = df["Arrivals 2023 vs 2019 (%)"].map(number_or_none)
    return df


def _swim_row(event: str, swimmer: str, age: str | None = None) -> pd.Series:
    df = swim()
    mask = (df["Event"] == event) & (df["Swimmer"] == swimmer)
    if age is not None:
        mask &= df["Age Group"] == age
    rows = df[mask]
    assert len(rows) == 1, (event, swimmer, len(rows))
    return rows.iloc[0]


def _row_after(df: pd.DataFrame, col: str, value: str, step: int) -> pd.Series:
    idx = df.index[df[col] == value]
    assert len(idx) == 1, (col, value)
    return df.loc[idx[0] + step]


def _swim_fastest(event: str, age: str) -> str:
    df = swim()
    d = df[(df["Event"] == event) & (df["Age Group"] == age)].dropna(subset=["secs"])
    return str(d.loc[d["secs"].idxmin(), "Swimmer"])


def _swim_quicker(event: str, a: str, b: str) -> str:
    ta, tb = _swim_row(event, a)["secs"], _swim_row(event, b)["secs"]
    return a if ta < tb else b


def _unit_spend(unit: str) -> float:
    df = maintenance()
    return float(df.loc[df["unit"] == unit, "cost_num"].sum())


def _tour(country: str) -> pd.Series:
    df = tourism()
    return df[df["Country"] == country].iloc[0]


def _has_missing(df: pd.DataFrame) -> pd.Series:
    raw = pd.read_csv(REAL / "r13_tourism_indicators.csv", nrows=0).columns.tolist()
    return (df[raw] == "..").any(axis=1)


ANSWERS: dict[str, Callable[[], object]] = {
    # swim gala
    "What time did Grace Adeyemi swim in the 100m Backstroke?": lambda: str(
        _swim_row("100m Backstroke", "Grace Adeyemi")["Final Time"]
    ),
    "How many race entries did Riverside Dolphins have in total?": lambda: int(
        (swim()["Club"] == "Riverside Dolphins").sum()
    ),
    "how many swims have no valid time because of a DQ or DNS": lambda: int(
        swim()["Final Time"].isin(["DQ", "DNS"]).sum()
    ),
    "Who won the 100m Backstroke in the 11-12 age group?": lambda: _swim_fastest("100m Backstroke", "11-12"),
    "Which swimmers broke one minute in the 100m Freestyle?": lambda: (
        swim().query("Event == '100m Freestyle' and secs < 60")["Swimmer"].tolist()
    ),
    "What was the average final time in seconds for the 50m Butterfly, leaving out the DQ?": lambda: round(
        float(swim().query("Event == '50m Butterfly'")["secs"].dropna().mean()), 2
    ),
    "how much faster was samuel ortiz than noah fischer in the 13-14 100m backstroke, in seconds": lambda: (
        round(
            float(_swim_row("100m Backstroke", "Noah Fischer", "13-14")["secs"])
            - float(_swim_row("100m Backstroke", "Samuel Ortiz", "13-14")["secs"]),
            2,
        )
    ),
    "Who was quicker in the 100m Breaststroke, Isla Murray or Hannah Vogel?": lambda: _swim_quicker(
        "100m Breaststroke", "Isla Murray", "Hannah Vogel"
    ),
    "which swimmer is listed straight after Oscar Lindqvist": lambda: str(
        _row_after(swim(), "Swimmer", "Oscar Lindqvist", 1)["Swimmer"]
    ),
    "Who is the last swimmer on our results sheet?": lambda: str(swim().iloc[-1]["Swimmer"]),
    # maintenance requests
    "What was the contractor cost for request MR-1010?": lambda: str(
        maintenance().set_index("request_id").loc["MR-1010", "cost"]
    ),
    "How many Urgent requests have we logged?": lambda: int((maintenance()["priority"] == "Urgent").sum()),
    "how many requests are still open with no closed date": lambda: int(
        maintenance()["closed_dt"].isna().sum()
    ),
    "What's the total contractor cost for all our plumbing requests?": lambda: float(
        maintenance().query("category == 'Plumbing'")["cost_num"].sum()
    ),
    "average cost of the HVAC jobs that have a cost": lambda: round(
        float(maintenance().query("category == 'HVAC'")["cost_num"].dropna().mean()), 2
    ),
    "Which request had the highest contractor cost?": lambda: str(
        maintenance().sort_values("cost_num", ascending=False).iloc[0]["request_id"]
    ),
    "Which requests were opened in March 2024?": lambda: (
        maintenance().loc[
            lambda d: d["opened_dt"].dt.to_period("M") == pd.Period("2024-03", "M"), "request_id"
        ]
    ).tolist(),
    "which unit put in the most recent request": lambda: str(
        maintenance().sort_values("opened_dt").iloc[-1]["unit"]
    ),
    "List the High priority requests that were opened after April 1, 2024.": lambda: (
        maintenance()
        .loc[
            lambda d: (d["priority"] == "High") & (d["opened_dt"] > pd.Timestamp("2024-04-01")), "request_id"
        ]
        .tolist()
    ),
    "Which unit has cost us more in contractor fees, 4B or 2A?": lambda: (
        "4B" if _unit_spend("4B") > _unit_spend("2A") else "2A"
    ),
    # tourism indicators
    "What were Iceland's international arrivals in 2020?": lambda: str(_tour("Iceland")["Arrivals 2020"]),
    "which country had the steepest fall in arrivals in 2020": lambda: str(
        tourism().sort_values("chg2020").iloc[0]["Country"]
    ),
    "How many countries still had fewer arrivals in 2023 than in 2019, i.e. a negative 2023 vs 2019 figure?": (
        lambda: int((tourism()["chg2023"] < 0).sum())
    ),
    "What were total tourism receipts in 2019 across all the countries listed, in US$ bn?": lambda: round(
        float(tourism()["rec2019"].sum()), 2
    ),
    "How much more did Portugal take in tourism receipts than Greece in 2023, in US$ billions?": lambda: (
        round(float(_tour("Portugal")["rec2023"]) - float(_tour("Greece")["rec2023"]), 2)
    ),
    "Which country had the most international arrivals in 2023?": lambda: str(
        tourism().sort_values("arr2023", ascending=False).iloc[0]["Country"]
    ),
    "which countries topped 20M arrivals in 2022": lambda: (
        tourism().query("arr2022 > 20e6")["Country"].tolist()
    ),
    "What's the average 2023 receipts figure, skipping the missing value?": lambda: round(
        float(tourism()["rec2023"].dropna().mean()), 2
    ),
    "how many countries have at least one figure missing (shown as ..)": lambda: int(
        _has_missing(tourism()).sum()
    ),
    "Which country is listed right before Thailand?": lambda: str(
        _row_after(tourism(), "Country", "Thailand", -1)["Country"]
    ),
}


def agrees(computed: object, gold: str) -> bool:
    """A list matches item by item; a number within half a unit of the gold's last decimal; a str exactly."""
    if isinstance(computed, list):
        parts = gold.split("|")
        return len(parts) == len(computed) and all(agrees(c, g) for c, g in zip(computed, parts, strict=True))
    if isinstance(computed, bool) or not isinstance(computed, int | float):
        return str(computed) == gold
    try:
        gold_num = float(gold)
    except ValueError:
        return False
    decimals = len(gold.split(".", 1)[1]) if "." in gold else 0
    return abs(float(computed) - gold_num) <= 0.5 * 10**-decimals + 1e-9


def check() -> int:
    with QUESTIONS.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    failures = 0
    for row in rows:
        fn = ANSWERS.get(row["question"])
        computed = fn() if fn else "<no lambda>"
        ok = agrees(computed, row["answer"])
        failures += not ok
        print(
            f"{'OK ' if ok else 'BAD'} [{row['type']}] {row['question']!r}: gold={row['answer']!r} got={computed!r}"
        )
    types = pd.Series([r["type"] for r in rows]).value_counts()
    print(f"\n{len(rows) - failures}/{len(rows)} agree; {len(ANSWERS)} lambdas; {types.size} types")
    print(types.to_string())
    return failures


if __name__ == "__main__":
    raise SystemExit(1 if check() else 0)
