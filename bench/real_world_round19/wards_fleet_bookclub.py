"""Round 19 gold answers: ward occupancy (CSV), vehicle fleet (XLSX) and book club reading list (TSV)."""

from __future__ import annotations

import csv
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
WARDS_FILE = "r19_ward_occupancy.csv"
FLEET_FILE = "r19_vehicle_fleet.xlsx"
BOOKS_FILE = "r19_book_club_reading_list.tsv"
QUESTIONS_FILE = "questions-round19-w91.tsv"


def _number(text: object) -> float | None:
    """Parse '1,234 mi', '£345.00', '92.5%', '+3' or '-2' to a float; blank or 'n/a' gives None."""
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return None
    s = str(text).strip()
    for junk in ("£", "$", "%", ",", "mi", "/5"):
        s = s.replace(junk, "")
    s = s.strip()
    if s == "" or s.lower() in {"n/a", "na", "nan"}:
        return None
    return float(s)


def _clean_str(series: pd.Series) -> pd.Series:
    return series.fillna("").astype(str).str.strip()


def wards() -> pd.DataFrame:
    df = pd.read_csv(REAL / WARDS_FILE, dtype=str, keep_default_na=False)
    df["Ward"] = _clean_str(df["Ward"])
    df["date"] = pd.to_datetime(df["Report Date"], format="%d-%b-%Y")
    for col in ("Beds Available", "Beds Occupied", "Admissions", "Discharges", "Change vs Prev Day"):
        df[col + "_n"] = df[col].map(_number)
    df["occ_n"] = df["Occupancy %"].map(_number)
    return df


def fleet() -> pd.DataFrame:
    df = pd.read_excel(REAL / FLEET_FILE, dtype=str, keep_default_na=False)
    for col in df.columns:
        df[col] = _clean_str(df[col])
    df["miles"] = df["Mileage"].map(_number)
    df["lease"] = df["Lease Cost / Month"].map(_number)
    df["co2"] = df["CO2 (g/km)"].map(_number)
    df["mot"] = pd.to_datetime(df["MOT Due"], format="%d/%m/%Y")
    return df


def books() -> pd.DataFrame:
    df = pd.read_csv(REAL / BOOKS_FILE, sep="\t", dtype=str, keep_default_na=False, quoting=csv.QUOTE_NONE)
    for col in ("Title", "Author", "Genre", "Picked By", "Month Read"):
        df[col] = _clean_str(df[col])
    df["month"] = pd.to_datetime(df["Month Read"], format="%b %Y")
    df["pages"] = df["Pages"].map(_number)
    df["rating"] = df["Rating (/5)"].map(_number)
    return df


def _ward_row(ward: str, date: str) -> pd.Series:
    df = wards()
    hit = df[(df["Ward"] == ward) & (df["date"] == datetime.strptime(date, "%d-%b-%Y"))]
    assert len(hit) == 1
    return hit.iloc[0]


def _ward_day_after(ward: str, date: str) -> str:
    df = wards()
    df = df[df["Ward"] == ward].sort_values("date")
    later = df[df["date"] > datetime.strptime(date, "%d-%b-%Y")]
    return later.iloc[0]["Occupancy %"]


def _either_discharges(date: str, a: str, b: str) -> str:
    da = _ward_row(a, date)["Discharges_n"]
    db = _ward_row(b, date)["Discharges_n"]
    return a if da > db else b


def _fleet_row(**match: str) -> pd.Series:
    df = fleet()
    mask = pd.Series(True, index=df.index)
    for col, val in match.items():
        mask &= df[col] == val
    hit = df[mask]
    assert len(hit) == 1
    return hit.iloc[0]


def _lower_mileage(a: str, b: str) -> str:
    ma = _fleet_row(Registration=a)["miles"]
    mb = _fleet_row(Registration=b)["miles"]
    return a if ma < mb else b


def _book_month_after(title: str) -> str:
    df = books().sort_values("month")
    month = df.loc[df["Title"] == title, "month"].iloc[0]
    return df[df["month"] > month].iloc[0]["Title"]


ANSWERS: dict[str, Callable[[], object]] = {
    # wards
    "What was the occupancy on Respiratory on 03-Mar-2024?": lambda: _ward_row("Respiratory", "03-Mar-2024")[
        "Occupancy %"
    ],
    "how many rows have no discharge count filled in": lambda: int(wards()["Discharges_n"].isna().sum()),
    "On which date did Maternity have its lowest occupancy?": lambda: (
        wards().query("Ward == 'Maternity'").sort_values("occ_n").iloc[0]["Report Date"]
    ),
    "What were the total admissions across all our wards on 04-Mar-2024?": lambda: int(
        wards().query("`Report Date` == '04-Mar-2024'")["Admissions_n"].sum()
    ),
    "average ICU occupancy % over the five days": lambda: round(
        float((wards().query("Ward == 'ICU'").eval("`Beds Occupied_n` / `Beds Available_n`") * 100).mean()), 2
    ),
    "On how many ward-days did the number of occupied beds drop compared with the day before?": lambda: int(
        (wards()["Change vs Prev Day_n"] < 0).sum()
    ),
    "on which dates was ICU at or above 95% occupancy": lambda: (
        wards().query("Ward == 'ICU' and occ_n >= 95")["Report Date"].tolist()
    ),
    "How many more beds were occupied in Cardiology than in Respiratory on 05-Mar-2024?": lambda: int(
        _ward_row("Cardiology", "05-Mar-2024")["Beds Occupied_n"]
        - _ward_row("Respiratory", "05-Mar-2024")["Beds Occupied_n"]
    ),
    "which ward discharged more patients on 01-Mar-2024, cardiology or respiratory": lambda: (
        _either_discharges("01-Mar-2024", "Cardiology", "Respiratory")
    ),
    "What was Maternity's occupancy on the day after 02-Mar-2024?": lambda: _ward_day_after(
        "Maternity", "02-Mar-2024"
    ),
    # fleet
    "What's the mileage on YH69 TCK?": lambda: _fleet_row(Registration="YH69 TCK")["Mileage"],
    "how many pool cars do we have with no assigned driver": lambda: int(
        (fleet()["Assigned Driver"] == "").sum()
    ),
    "Which vehicle has the highest mileage?": lambda: fleet().sort_values("miles").iloc[-1]["Registration"],
    "What is the total monthly lease cost for the vehicles based at our Glasgow depot?": lambda: round(
        float(fleet().query("Depot == 'Glasgow'")["lease"].sum()), 2
    ),
    "average co2 in g/km across the diesel vehicles": lambda: round(
        float(fleet().query("`Fuel Type` == 'Diesel'")["co2"].mean()), 2
    ),
    "Which vehicles have their MOT due in June 2024?": lambda: (
        fleet().query("mot.dt.year == 2024 and mot.dt.month == 6")["Registration"].tolist()
    ),
    "Which vehicle has the earliest MOT due date?": lambda: (
        fleet().sort_values("mot").iloc[0]["Registration"]
    ),
    "list the vehicles with more than 100,000 miles on the clock": lambda: (
        fleet().query("miles > 100000")["Registration"].tolist()
    ),
    "How many more miles has the Mercedes Sprinter done than the Vauxhall Vivaro?": lambda: int(
        _fleet_row(Make="Mercedes-Benz", Model="Sprinter")["miles"]
        - _fleet_row(Make="Vauxhall", Model="Vivaro")["miles"]
    ),
    "Which has the lower mileage, YH69 TCK or NX18 CAU?": lambda: _lower_mileage("YH69 TCK", "NX18 CAU"),
    # books
    "who wrote Orbit of Small Things": lambda: (
        books().query("Title == 'Orbit of Small Things'")["Author"].iloc[0]
    ),
    "How many historical fiction books are on our list?": lambda: int(
        (books()["Genre"].str.lower() == "historical fiction").sum()
    ),
    "how many books haven't been rated yet": lambda: int(books()["rating"].isna().sum()),
    "Which book got our highest rating?": lambda: (
        books().sort_values("rating", ascending=False).iloc[0]["Title"]
    ),
    "What's the average rating of the rated books that Janet picked?": lambda: round(
        float(books().query("`Picked By` == 'Janet'")["rating"].dropna().mean()), 2
    ),
    "total pages we read in 2023": lambda: int(books().query("month.dt.year == 2023")["pages"].sum()),
    "Which books did we read in the first quarter of 2024, January to March?": lambda: (
        books().query("'2024-01-01' <= month <= '2024-03-31'")["Title"].tolist()
    ),
    "What was the very first book the club read?": lambda: books().sort_values("month").iloc[0]["Title"],
    "Which book did we read the month after Small Hours?": lambda: _book_month_after("Small Hours"),
    "Which books did we rate below 3?": lambda: books().query("rating < 3")["Title"].tolist(),
}


def _agrees(computed: object, gold: str) -> bool:
    if isinstance(computed, list):
        return "|".join(str(x) for x in computed) == gold
    if isinstance(computed, (int, float)) and not isinstance(computed, bool):
        decimals = len(gold.split(".")[1]) if "." in gold else 0
        return abs(float(computed) - float(gold.replace(",", ""))) <= 0.5 * 10**-decimals + 1e-9
    return str(computed) == gold


def check() -> int:
    qs = pd.read_csv(
        REAL / QUESTIONS_FILE, sep="\t", dtype=str, keep_default_na=False, quoting=csv.QUOTE_NONE
    )
    bad = 0
    for _, row in qs.iterrows():
        got = ANSWERS[row["question"]]()
        ok = _agrees(got, row["answer"])
        bad += not ok
        print(
            f"{'OK ' if ok else 'BAD'} [{row['type']}] {row['table']}: {row['question']!r} gold={row['answer']!r} got={got!r}"
        )
    assert set(qs["question"]) == set(ANSWERS), "question texts differ between TSV and ANSWERS"
    print(
        f"{len(qs) - bad}/{len(qs)} agree; {qs['type'].nunique()} types: {qs['type'].value_counts().to_dict()}"
    )
    return bad


if __name__ == "__main__":
    raise SystemExit(check())
