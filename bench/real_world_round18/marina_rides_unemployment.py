"""Round 18 gold-answer checks: marina berth fees, cycling club ride log, regional unemployment."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
QUESTIONS = REAL / "questions-round18-w86.tsv"

MARINA = "r18_marina_berth_fees.csv"
RIDES = "r18_cycling_club_rides.json"
UNEMP = "r18_regional_unemployment.csv"


def parse_money(text: object) -> float:
    """Parse "$3,450.00", "(125.00)" (accounting negative) and " - " (zero) into a float."""
    s = str(text).strip()
    if s in ("", "-", "nan"):
        return 0.0
    negative = s.startswith("(") and s.endswith(")")
    s = s.strip("()").replace("$", "").replace(",", "").strip()
    value = float(s)
    return -value if negative else value


def parse_hms(text: str) -> int:
    """Moving time "2:14:37" -> seconds."""
    h, m, s = (int(p) for p in text.split(":"))
    return h * 3600 + m * 60 + s


def parse_stat(text: object) -> float | None:
    """Statistics-office number: ".." means missing, thousands separators allowed."""
    s = str(text).strip()
    if s in ("..", "", "nan"):
        return None
    return float(s.replace(",", ""))


@lru_cache(maxsize=1)
def marina() -> pd.DataFrame:
    df = pd.read_csv(REAL / MARINA, dtype=str, keep_default_na=False)
    df["fee"] = df["Annual Fee"].map(parse_money)
    df["adj"] = df["Adjustment"].map(parse_money)
    df["length"] = df["Length (m)"].astype(float)
    df["paid"] = pd.to_datetime(df["Paid Date"].where(df["Paid Date"].str.strip() != ""), format="%m/%d/%Y")
    return df


@lru_cache(maxsize=1)
def rides() -> pd.DataFrame:
    with open(REAL / RIDES, encoding="utf-8") as f:
        df = pd.DataFrame(json.load(f))
    df["date"] = pd.to_datetime(df["Date"], format="%a %d %b %Y")
    df["km"] = df["Distance (km)"].map(lambda v: float(str(v)))
    df["elev"] = pd.to_numeric(df["Elevation gain (m)"])
    df["secs"] = df["Moving time"].map(parse_hms)
    df["speed"] = df["Avg speed"].map(lambda s: float(re.sub(r"[^0-9.]", "", s)))
    return df


YEAR_COL = "Unemployment rate, 15-74 years, {year} (%)"
POP_COL = "Population, 1 January 2023 (persons)"
YOUTH_COL = "Youth unemployment rate, 15-24 years, 2023 (%)"
CHANGE_COL = "Change in unemployment rate, 2018-2023 (percentage points)"


@lru_cache(maxsize=1)
def unemp() -> pd.DataFrame:
    df = pd.read_csv(REAL / UNEMP, dtype=str, keep_default_na=False)
    # drop footnote lines (source / legend) that have no region code
    df = df[df["Region code"].str.match(r"^R\d+$")].reset_index(drop=True)
    for col in df.columns[2:]:
        df[col] = df[col].map(parse_stat)
    return df


def _m() -> pd.DataFrame:
    return marina()


def _r() -> pd.DataFrame:
    return rides()


def _u() -> pd.DataFrame:
    return unemp()


def _row(df: pd.DataFrame, col: str, value: str) -> pd.Series:
    hit = df[df[col] == value]
    assert len(hit) == 1, (col, value, len(hit))
    return hit.iloc[0]


def _rider_total(rider: str, col: str) -> float:
    return float(_r().loc[_r()["Rider"] == rider, col].sum())


def _unique_in_order(values: pd.Series) -> list[str]:
    return list(dict.fromkeys(values.tolist()))


ANSWERS: dict[str, Callable[[], object]] = {
    # --- marina berth fee register ---
    "What is the annual fee for Northern Star?": lambda: _row(_m(), "Boat Name", "Northern Star")[
        "Annual Fee"
    ],
    "how many boats are on fixed berths": lambda: int((_m()["Berth Type"] == "Fixed").sum()),
    "How many boats in the register have no paid date yet?": lambda: int(_m()["paid"].isna().sum()),
    "which boat is the longest one we have in the marina": lambda: _m().loc[
        _m()["length"].idxmax(), "Boat Name"
    ],
    "What do all the adjustments add up to if credits count as negative?": lambda: round(
        float(_m()["adj"].sum()), 2
    ),
    "total annual fees for the C pier berths (C-01 to C-04)": lambda: float(
        _m().loc[_m()["Berth"].str.startswith("C-"), "fee"].sum()
    ),
    "What's the average boat length in metres?": lambda: round(float(_m()["length"].mean()), 2),
    "Which boats paid in February 2024?": lambda: (
        _m().loc[(_m()["paid"].dt.year == 2024) & (_m()["paid"].dt.month == 2), "Boat Name"].tolist()
    ),
    "Which owner was the first to pay their berth fee?": lambda: _m().loc[_m()["paid"].idxmin(), "Owner"],
    "How much more does Marlin II pay in annual fees than Kittiwake?": lambda: float(
        _row(_m(), "Boat Name", "Marlin II")["fee"] - _row(_m(), "Boat Name", "Kittiwake")["fee"]
    ),
    # --- cycling club ride log ---
    "What was Priya Shah's moving time on the Ridge Climb?": lambda: (
        _r().loc[(_r()["Rider"] == "Priya Shah") & (_r()["Route"] == "Ridge Climb"), "Moving time"].item()
    ),
    "how many rides did Marco Bellini log": lambda: int((_r()["Rider"] == "Marco Bellini").sum()),
    "Who had the highest average speed of any ride in our log?": lambda: _r().loc[
        _r()["speed"].idxmax(), "Rider"
    ],
    "What is the total distance Anna Kovacs has ridden, in km?": lambda: round(
        _rider_total("Anna Kovacs", "km"), 1
    ),
    "average elevation gain on the ridge climb rides": lambda: float(
        _r().loc[_r()["Route"] == "Ridge Climb", "elev"].mean()
    ),
    "Who climbed more in total, Tom Reyes or Jonas Berg?": lambda: max(
        ["Tom Reyes", "Jonas Berg"], key=lambda name: _rider_total(name, "elev")
    ),
    "How many rides had a moving time of more than 3 hours?": lambda: int((_r()["secs"] > 3 * 3600).sum()),
    "In the log, whose ride comes right after Jonas Berg's Hill Repeats ride?": lambda: _r().loc[
        _r().index[(_r()["Rider"] == "Jonas Berg") & (_r()["Route"] == "Hill Repeats")].item() + 1, "Rider"
    ],
    "how many rides did we log in april 2024": lambda: int(
        ((_r()["date"] >= "2024-04-01") & (_r()["date"] <= "2024-04-30")).sum()
    ),
    "Which routes had rides with more than 800 m of elevation gain?": lambda: _unique_in_order(
        _r().loc[_r()["elev"] > 800, "Route"]
    ),
    # --- regional unemployment (wide) ---
    "What was the unemployment rate in Lowmarsh in 2021?": lambda: _row(_u(), "Region", "Lowmarsh")[
        YEAR_COL.format(year=2021)
    ],
    "Which region had the lowest unemployment rate in 2023?": lambda: _u().loc[
        _u()[YEAR_COL.format(year=2023)].astype(float).idxmin(), "Region"
    ],
    "how many regions had unemployment above 8% in 2020": lambda: int(
        (_u()[YEAR_COL.format(year=2020)].astype(float) > 8).sum()
    ),
    "In how many regions is the 2018-2023 change negative?": lambda: int(
        (_u()[CHANGE_COL].astype(float) < 0).sum()
    ),
    "What is the combined population of Northmoor, Kingsmere and Thornbury?": lambda: int(
        _u().loc[_u()["Region"].isin(["Northmoor", "Kingsmere", "Thornbury"]), POP_COL].sum()
    ),
    "Eastvale's average unemployment rate over 2018 to 2023?": lambda: round(
        float(
            pd.Series(
                [_row(_u(), "Region", "Eastvale")[YEAR_COL.format(year=y)] for y in range(2018, 2024)]
            ).mean()
        ),
        2,
    ),
    "How many percentage points higher was the youth unemployment rate in Greystone Coast than in Westhaven in 2023?": (
        lambda: round(
            _row(_u(), "Region", "Greystone Coast")[YOUTH_COL] - _row(_u(), "Region", "Westhaven")[YOUTH_COL],
            1,
        )
    ),
    "which had more people, Eastvale or Riverton": lambda: max(
        ["Eastvale", "Riverton"], key=lambda name: _row(_u(), "Region", name)[POP_COL]
    ),
    "Which regions had an unemployment rate above 7% in 2023?": lambda: (
        _u().loc[_u()[YEAR_COL.format(year=2023)].astype(float) > 7, "Region"].tolist()
    ),
    "What is the last region listed in the table?": lambda: _u()["Region"].iloc[-1],
}


def _agrees(gold: str, value: object) -> bool:
    """A number agrees within half a unit of the gold's last written decimal; a string must match exactly."""
    if isinstance(value, list):
        parts = gold.split("|")
        return len(parts) == len(value) and all(_agrees(g, v) for g, v in zip(parts, value, strict=True))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            g = float(gold)
        except ValueError:
            return False
        decimals = len(gold.split(".")[1]) if "." in gold else 0
        return abs(float(value) - g) <= 0.5 * 10**-decimals + 1e-9
    return str(value) == gold


def check() -> int:
    with open(QUESTIONS, encoding="utf-8", newline="") as f:
        lines = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    ok = 0
    for line in lines:
        value = ANSWERS[line["question"]]()
        good = _agrees(line["answer"], value)
        ok += good
        print(
            f"{'OK ' if good else 'BAD'} [{line['type']}] {line['table']}: gold={line['answer']!r} got={value!r}"
        )
    print(f"{ok}/{len(lines)} agree; {len(ANSWERS)} answers defined")
    return 0 if ok == len(lines) == len(ANSWERS) else 1


if __name__ == "__main__":
    raise SystemExit(check())
