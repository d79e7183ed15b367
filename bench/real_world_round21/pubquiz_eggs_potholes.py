"""Round 21 real-world checks: pub quiz league (TSV), egg collection log (JSONL), pothole repairs (XLSX)."""

import csv
import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"
QUESTIONS = DATA / "questions-round21-w97.tsv"

QUIZ = "r21_pub_quiz_league.tsv"
EGGS = "r21_egg_collection.jsonl"
POTHOLES = "r21_pothole_repairs.xlsx"


def _num(value: object) -> float | None:
    """Parse a number written as text or number; blank, None and non-numeric text give None."""
    if value is None:
        return None
    if isinstance(value, int | float):
        return None if pd.isna(value) else float(value)
    text = str(value).strip().replace("£", "").replace(",", "").replace("kg", "").strip()
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        return None


def _move(value: str) -> int:
    """Position movement: '+2' up two, '-1' down one, '=' unchanged."""
    text = str(value).strip()
    return 0 if text == "=" else int(text)


def _day_first(value: object) -> pd.Timestamp | None:
    if value is None or (isinstance(value, float) and pd.isna(value)) or not str(value).strip():
        return None
    return pd.to_datetime(str(value).strip(), format="%d/%m/%Y")


def quiz() -> pd.DataFrame:
    df = pd.read_csv(
        DATA / QUIZ, sep="\t", dtype=str, keep_default_na=False, quoting=csv.QUOTE_NONE, encoding="utf-8"
    )
    for col in ["Pos", "Played", "R1", "R2", "R3", "R4", "R5", "R6", "Total"]:
        df[col + "_n"] = df[col].map(_num)
    df["move_n"] = df["Move"].map(_move)
    return df


def eggs() -> pd.DataFrame:
    with open(DATA / EGGS, encoding="utf-8") as fh:
        records = [json.loads(line) for line in fh if line.strip()]
    df = pd.DataFrame(records)
    df["eggs_n"] = df["eggs_collected"].map(_num)
    df["broken_n"] = df["broken_eggs"].map(_num)
    df["feed_n"] = df["feed_kg"].map(_num)
    df["date_d"] = pd.to_datetime(df["date"], format="%Y-%m-%d")
    return df


def potholes() -> pd.DataFrame:
    df = pd.read_excel(DATA / POTHOLES, dtype=object)
    df["reported_d"] = pd.to_datetime(df["Reported"].map(_day_first))
    df["repaired_d"] = pd.to_datetime(df["Repaired"].map(_day_first))
    df["cost_n"] = df["Repair Cost"].map(_num)
    df["depth_n"] = df["Depth (cm)"].map(_num)
    return df


def _team(name: str) -> pd.Series:
    df = quiz()
    return df[df["Team"] == name].iloc[0]


def _q_below(name: str) -> str:
    df = quiz().sort_values("Pos_n").reset_index(drop=True)
    idx = df.index[df["Team"] == name][0]
    return df.loc[idx + 1, "Team"]


def _q_either(a: str, b: str, col: str) -> str:
    return a if _team(a)[col] > _team(b)[col] else b


def _egg_cell(house: str, date: str, col: str) -> float | None:
    """A numeric cell of one henhouse on one date (pandas turns the JSON integers to floats because of nulls)."""
    df = eggs()
    return _num(df[(df["henhouse"] == house) & (df["date"] == date)].iloc[0][col])


def _egg_feed_diff(a: str, b: str, date: str) -> float:
    df = eggs()
    day = df[df["date"] == date].set_index("henhouse")["feed_n"]
    return round(day[a] - day[b], 4)


def _egg_best_day(house: str) -> str:
    df = eggs()
    sub = df[df["henhouse"] == house]
    return sub.loc[sub["eggs_n"].idxmax(), "date"]


def _egg_first_zero_broken(house: str) -> str:
    df = eggs()
    sub = df[(df["henhouse"] == house) & (df["broken_n"] == 0)].sort_values("date_d")
    return sub.iloc[0]["date"]


def _egg_either(a: str, b: str) -> str:
    totals = eggs().groupby("collected_by")["eggs_n"].sum()
    return a if totals[a] > totals[b] else b


def _ph_row(ref: str) -> pd.Series:
    df = potholes()
    return df[df["Ref"] == ref].iloc[0]


def _ph_days(ref: str) -> int:
    row = _ph_row(ref)
    return int((row["repaired_d"] - row["reported_d"]).days)


def _ph_first_repaired() -> str:
    df = potholes().dropna(subset=["repaired_d"])
    return df.loc[df["repaired_d"].idxmin(), "Ref"]


def _ph_month_count(year: int, month: int) -> int:
    df = potholes()
    dates = pd.to_datetime(df["reported_d"])
    return int(((dates.dt.year == year) & (dates.dt.month == month)).sum())


ANSWERS: dict[str, Callable[[], object]] = {
    # pub quiz league
    "what did Björn Again score in round 4": lambda: _team("Björn Again")["R4"],
    "How many teams have played their joker this season?": lambda: int((quiz()["Joker"] == "Y").sum()),
    "how many teams have played fewer than 6 rounds": lambda: int((quiz()["Played_n"] < 6).sum()),
    "Which team got the highest score in R5?": lambda: (
        quiz().sort_values("R5_n", ascending=False).iloc[0]["Team"]
    ),
    "list the teams that dropped two or more places": lambda: (
        quiz().loc[quiz()["move_n"] <= -2, "Team"].tolist()
    ),
    "What's the average total across the whole league?": lambda: round(quiz()["Total_n"].mean(), 2),
    "How many more points in total did Les Misérables get than Café Crème Quizzers?": lambda: (
        _team("Les Misérables")["Total_n"] - _team("Café Crème Quizzers")["Total_n"]
    ),
    "Which team is directly below Sherlock Homies in the table?": lambda: _q_below("Sherlock Homies"),
    "who scored more in round 3, Agatha Quiztie or Björn Again": lambda: _q_either(
        "Agatha Quiztie", "Björn Again", "R3_n"
    ),
    "We want the combined total points of every team that used its joker - what is it?": lambda: (
        quiz().loc[quiz()["Joker"] == "Y", "Total_n"].sum()
    ),
    # egg collection log
    "How many eggs did Orchard House collect on 2024-03-04?": lambda: _egg_cell(
        "Orchard House", "2024-03-04", "eggs_collected"
    ),
    "how many entries did Tom log": lambda: int((eggs()["collected_by"] == "Tom").sum()),
    "How many log entries have no egg count recorded?": lambda: int(eggs()["eggs_n"].isna().sum()),
    "which day did top coop have its best collection": lambda: _egg_best_day("Top Coop"),
    "What's the total number of eggs we collected across both henhouses over the whole log?": lambda: eggs()[
        "eggs_n"
    ].sum(),
    "average eggs per day for Orchard House, ignoring days nobody recorded": lambda: round(
        eggs().loc[eggs()["henhouse"] == "Orchard House", "eggs_n"].dropna().mean(), 2
    ),
    "How many eggs got broken in February 2024?": lambda: (
        eggs().loc[(eggs()["date_d"].dt.year == 2024) & (eggs()["date_d"].dt.month == 2), "broken_n"].sum()
    ),
    "How much more feed did Orchard House use than Top Coop on 2024-03-08?": lambda: _egg_feed_diff(
        "Orchard House", "Top Coop", "2024-03-08"
    ),
    "When did Orchard House first have a day with no broken eggs?": lambda: _egg_first_zero_broken(
        "Orchard House"
    ),
    "Who collected more eggs overall, Meg or Tom?": lambda: _egg_either("Meg", "Tom"),
    # pothole repairs
    "What was the repair cost for PH-2024-0191?": lambda: _ph_row("PH-2024-0191")["Repair Cost"],
    "how many potholes were reported in Riverside ward": lambda: int(
        (potholes()["Ward"] == "Riverside").sum()
    ),
    "How many of our pothole jobs are still open with no repaired date?": lambda: int(
        potholes()["repaired_d"].isna().sum()
    ),
    "What's the reference of the deepest pothole in the log?": lambda: (
        potholes().sort_values("depth_n", ascending=False).iloc[0]["Ref"]
    ),
    "which potholes were deeper than 10 cm": lambda: (
        potholes().loc[potholes()["depth_n"] > 10, "Ref"].tolist()
    ),
    "What did we spend in total on repairs in the Central ward?": lambda: round(
        potholes().loc[potholes()["Ward"] == "Central", "cost_n"].dropna().sum(), 2
    ),
    "average depth of potholes in Abbey ward": lambda: round(
        potholes().loc[potholes()["Ward"] == "Abbey", "depth_n"].mean(), 2
    ),
    "How many potholes were reported in March 2024?": lambda: _ph_month_count(2024, 3),
    "Which job was the earliest to be repaired?": lambda: _ph_first_repaired(),
    "How many days did it take to repair PH-2024-0113 after it was reported?": lambda: _ph_days(
        "PH-2024-0113"
    ),
}


def _agrees(computed: object, gold: str) -> bool:
    golds = gold.split("|")
    values = computed if isinstance(computed, list) else [computed]
    if len(values) != len(golds):
        return False
    for value, want in zip(values, golds, strict=True):
        if isinstance(value, str):
            if value != want:
                return False
            continue
        decimals = len(want.split(".")[1]) if "." in want else 0
        try:
            if abs(float(value) - float(want)) > 0.5 * 10**-decimals + 1e-9:
                return False
        except ValueError:
            return False
    return True


def check() -> int:
    """Compare every computed answer with the gold in the question file; return the number of mismatches."""
    gold = pd.read_csv(QUESTIONS, sep="\t", dtype=str, keep_default_na=False, quoting=csv.QUOTE_NONE)
    bad = 0
    for _, row in gold.iterrows():
        computed = ANSWERS[row["question"]]()
        ok = _agrees(computed, row["answer"])
        bad += not ok
        print(f"{'OK ' if ok else 'BAD'} [{row['type']}] {row['table']}: {computed!r} vs {row['answer']!r}")
    print(f"{len(gold) - bad}/{len(gold)} agree; {len(ANSWERS)} answer functions")
    return bad


if __name__ == "__main__":
    raise SystemExit(check())
