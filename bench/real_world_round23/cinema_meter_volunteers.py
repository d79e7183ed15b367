"""Pandas reference answers for the round-23 cinema, water-meter and volunteer-rota questions."""

from __future__ import annotations

import csv
import re
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
QUESTIONS = REAL / "questions-round23-w106.tsv"


def _money_gbp(text: str) -> float:
    return float(text.replace("£", "").replace(",", "").strip())


def _euro_number(text: str) -> float:
    """Parse a European number such as '1.234,567 m³ (E)' or '6,93 €'."""
    cleaned = re.sub(r"[^0-9,.\-]", "", text)
    return float(cleaned.replace(".", "").replace(",", "."))


def _change(text: str) -> float:
    text = text.strip()
    if not re.fullmatch(r"[+-]\d+(\.\d+)?%", text):
        return float("nan")
    return float(text.rstrip("%"))


@cache
def cinema() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r23_cinema_box_office.tsv", sep="\t", dtype=str, keep_default_na=False)
    df["week"] = pd.to_datetime(df["Week Commencing"], format="%Y-%m-%d")
    df["screenings"] = df["Screenings"].astype(int)
    df["admissions"] = df["Admissions"].str.replace(",", "", regex=False).astype(int)
    df["gross"] = df["Gross Takings"].map(_money_gbp)
    df["change"] = df["vs Last Week"].map(_change)
    return df


@cache
def water() -> pd.DataFrame:
    df = pd.read_csv(
        REAL / "r23_water_meter.csv", sep=";", dtype=str, keep_default_na=False, encoding="utf-8-sig"
    )
    cons_col = [c for c in df.columns if c.startswith("Consumption")][0]
    df["date"] = pd.to_datetime(df["Reading date"], format="%d.%m.%Y")
    df["reading"] = df["Meter reading"].map(_euro_number)
    df["estimated"] = df["Meter reading"].str.contains("(E)", regex=False)
    df["consumption"] = df[cons_col].map(lambda s: _euro_number(s) if s.strip() else float("nan"))
    df["cost"] = df["Cost"].map(lambda s: _euro_number(s) if s.strip() else float("nan"))
    return df


@cache
def rota() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r23_volunteer_rota.xlsx", header=1, dtype={"Start": str, "End": str})
    df["date"] = pd.to_datetime(df["Shift Date"] + " 2024", format="%a %d %b %Y")
    df["start"] = pd.to_datetime(df["Start"], format="%H:%M").dt.time
    df["hours"] = pd.to_numeric(df["Hours"], errors="coerce")
    return df


def _cin(cinema_name: str, film: str, week: str) -> pd.Series:
    df = cinema()
    rows = df[(df["Cinema"] == cinema_name) & (df["Film"] == film) & (df["week"] == pd.Timestamp(week))]
    assert len(rows) == 1
    return rows.iloc[0]


def _water_row(date: str) -> pd.Series:
    df = water()
    rows = df[df["date"] == pd.to_datetime(date, format="%d.%m.%Y")]
    assert len(rows) == 1
    return rows.iloc[0]


def _next_water_row(date: str) -> pd.Series:
    df = water().sort_values("date").reset_index(drop=True)
    idx = df.index[df["date"] == pd.to_datetime(date, format="%d.%m.%Y")][0]
    return df.iloc[idx + 1]


def _rota_after(volunteer: str, shift_date: str) -> str:
    df = rota().reset_index(drop=True)
    idx = df.index[(df["Volunteer"] == volunteer) & (df["Shift Date"] == shift_date)]
    assert len(idx) == 1
    return df.iloc[idx[0] + 1]["Volunteer"]


def _team_hours(leader: str) -> float:
    df = rota()
    return df.loc[df["Team Leader"] == leader, "hours"].sum()


def _either(a: tuple[str, float], b: tuple[str, float]) -> str:
    assert a[1] != b[1]
    return a[0] if a[1] > b[1] else b[0]


ANSWERS: dict[str, Callable[[], object]] = {
    # cinema box office
    "What were the gross takings for Kung Fu Panda 4 at York Coppergate in the week commencing 2024-03-25?": lambda: (
        _cin("York Coppergate", "Kung Fu Panda 4", "2024-03-25")["Gross Takings"]
    ),
    "how many rows have a negative change vs last week": lambda: int((cinema()["change"] < 0).sum()),
    "Which film pulled the biggest single-week admissions at any of our cinemas?": lambda: cinema().loc[
        cinema()["admissions"].idxmax(), "Film"
    ],
    "What were our total admissions at Leeds Headrow across all four weeks?": lambda: int(
        cinema().loc[cinema()["Cinema"] == "Leeds Headrow", "admissions"].sum()
    ),
    "average admissions across all the Kung Fu Panda 4 rows": lambda: round(
        float(cinema().loc[cinema()["Film"] == "Kung Fu Panda 4", "admissions"].mean()), 2
    ),
    "Which cinema had the steepest week-on-week fall for any film?": lambda: cinema().loc[
        cinema()["change"].idxmin(), "Cinema"
    ],
    "How much more did Dune: Part Two take at Leeds Headrow than at York Coppergate in the week commencing "
    "2024-03-04?": lambda: round(
        _cin("Leeds Headrow", "Dune: Part Two", "2024-03-04")["gross"]
        - _cin("York Coppergate", "Dune: Part Two", "2024-03-04")["gross"],
        2,
    ),
    "At Leeds Headrow in the week commencing 2024-03-18, which took more money: Kung Fu Panda 4 or Dune: Part Two?": (
        lambda: _either(
            ("Kung Fu Panda 4", _cin("Leeds Headrow", "Kung Fu Panda 4", "2024-03-18")["gross"]),
            ("Dune: Part Two", _cin("Leeds Headrow", "Dune: Part Two", "2024-03-18")["gross"]),
        )
    ),
    "how many rows had more than 2,500 admissions": lambda: int((cinema()["admissions"] > 2500).sum()),
    "Total screenings across all cinemas for the weeks commencing from 2024-03-18 onwards?": lambda: int(
        cinema().loc[cinema()["week"] >= pd.Timestamp("2024-03-18"), "screenings"].sum()
    ),
    # water meter
    "what did the meter show at the most recent reading": lambda: (
        water().sort_values("date").iloc[-1]["Meter reading"]
    ),
    "Which reading date had the lowest consumption since the previous reading?": lambda: water().loc[
        water()["consumption"].idxmin(), "Reading date"
    ],
    "how much have we paid for water in total across all the readings": lambda: round(
        float(water()["cost"].sum()), 2
    ),
    "What is the average consumption per reading period, in m³?": lambda: round(
        float(water()["consumption"].mean()), 2
    ),
    "Which reading date has an estimated meter reading?": lambda: (
        water().loc[water()["estimated"], "Reading date"].item()
    ),
    "what was the cost on the reading that came right after 08.04.2024": lambda: _next_water_row(
        "08.04.2024"
    )["Cost"],
    "How much water did we use according to the readings taken in May 2024?": lambda: round(
        float(
            water()
            .loc[(water()["date"].dt.year == 2024) & (water()["date"].dt.month == 5), "consumption"]
            .sum()
        ),
        3,
    ),
    "how many readings show consumption above 4 m³": lambda: int((water()["consumption"] > 4).sum()),
    "On which dates did a reading cost more than 10 €?": lambda: (
        water().loc[water()["cost"] > 10, "Reading date"].tolist()
    ),
    "How much more did the period up to 17.06.2024 cost than the period up to 03.06.2024?": lambda: round(
        _water_row("17.06.2024")["cost"] - _water_row("03.06.2024")["cost"], 2
    ),
    # volunteer rota
    "What task was Kwame Asante doing on Wed 10 Apr?": lambda: (
        rota()
        .loc[(rota()["Volunteer"] == "Kwame Asante") & (rota()["Shift Date"] == "Wed 10 Apr"), "Task"]
        .item()
    ),
    "how many shifts did gareth lloyd lead": lambda: int(
        (rota()["Team Leader"].str.lower() == "gareth lloyd").sum()
    ),
    "How many shifts have no hours recorded because the volunteer didn't show up?": lambda: int(
        rota()["hours"].isna().sum()
    ),
    "Total hours Priya Shah has put in?": lambda: float(
        rota().loc[rota()["Volunteer"] == "Priya Shah", "hours"].sum()
    ),
    "Who worked the longest single shift?": lambda: rota().loc[rota()["hours"].idxmax(), "Volunteer"],
    "what's the average number of hours for a pond clearing shift": lambda: round(
        float(rota().loc[rota()["Task"] == "Pond clearing", "hours"].mean()), 2
    ),
    "Which volunteer had the last shift in April?": lambda: (
        rota().loc[rota()["date"].dt.month == 4].sort_values("date").iloc[-1]["Volunteer"]
    ),
    "Who is listed immediately after Margaret Okafor's Sun 14 Apr shift on our rota?": lambda: _rota_after(
        "Margaret Okafor", "Sun 14 Apr"
    ),
    "Which team logged more hours in total, Ruth Calder's or Gareth Lloyd's?": lambda: _either(
        ("Ruth Calder", _team_hours("Ruth Calder")), ("Gareth Lloyd", _team_hours("Gareth Lloyd"))
    ),
    "Which volunteers were due to start before 09:00?": lambda: (
        rota().loc[rota()["start"] < pd.Timestamp("09:00").time(), "Volunteer"].tolist()
    ),
}


def _agrees(computed: object, gold: str) -> bool:
    if isinstance(computed, list):
        parts = gold.split("|")
        return len(parts) == len(computed) and all(
            _agrees(c, g) for c, g in zip(computed, parts, strict=True)
        )
    if isinstance(computed, str):
        return computed == gold
    decimals = len(gold.split(".")[1]) if "." in gold else 0
    return abs(float(computed) - float(gold)) <= 0.5 * 10**-decimals + 1e-9


def check() -> int:
    with QUESTIONS.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    failures = 0
    for row in rows:
        computed = ANSWERS[row["question"]]()
        ok = _agrees(computed, row["answer"])
        failures += not ok
        print(
            f"{'OK ' if ok else 'BAD'} [{row['type']}] {row['table']}: gold={row['answer']!r} computed={computed!r}"
        )
    missing = set(ANSWERS) - {r["question"] for r in rows}
    print(f"{len(rows) - failures}/{len(rows)} agree; {len(missing)} ANSWERS keys not in TSV")
    return 1 if failures or missing else 0


if __name__ == "__main__":
    sys.exit(check())
