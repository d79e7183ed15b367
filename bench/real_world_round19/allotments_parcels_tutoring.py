"""Round 19 real-world checks: allotment register, parcel manifest and tutor session log."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: object) -> float:
    text = str(value).replace("£", "").replace(",", "").strip()
    return float(text) if text and text.lower() != "nan" else float("nan")


def _weight_kg(value: str) -> float:
    match = re.fullmatch(r"\s*([\d.,]+)\s*(kg|g)\s*", str(value), flags=re.IGNORECASE)
    if match is None:
        raise ValueError(f"unreadable weight: {value!r}")
    number = float(match.group(1).replace(",", ""))
    return number if match.group(2).lower() == "kg" else number / 1000


def _minutes(value: str) -> int:
    text = str(value).strip().lower()
    hours = re.search(r"(\d+)\s*h", text)
    mins = re.search(r"(\d+)\s*m", text)
    if hours is None and mins is None:
        raise ValueError(f"unreadable duration: {value!r}")
    return (int(hours.group(1)) * 60 if hours else 0) + (int(mins.group(1)) if mins else 0)


def allotments() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r19_allotment_register.csv", dtype=str, keep_default_na=False)
    df["holder"] = df["Plot Holder"].str.strip()
    df["status"] = df["Status"].str.strip().str.lower()
    df["size"] = pd.to_numeric(df["Size (m²)"].replace("", None))
    df["fee"] = df["Annual Fee"].map(lambda v: _money(v) if v else float("nan"))
    df["joined"] = pd.to_datetime(df["Date Joined"].replace("", None), format="%d/%m/%Y")
    return df


def parcels() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r19_parcel_manifest.tsv", sep="\t", dtype=str, keep_default_na=False)
    df["kg"] = df["Weight"].map(_weight_kg)
    df["status"] = df["Status"].str.strip().str.lower()
    df["when"] = pd.to_datetime(df["Delivered At"].replace("", None), format="%Y-%m-%dT%H:%M")
    return df


def tutoring() -> pd.DataFrame:
    df = pd.read_excel(DATA / "r19_tutor_sessions.xlsx", dtype=str)
    df["date"] = pd.to_datetime(df["Date"].str.strip(), format="%d %b %Y")
    df["mins"] = df["Duration"].map(_minutes)
    df["rate"] = df["Rate"].map(_money)
    df["paid"] = df["Paid"].str.strip().str.upper() == "Y"
    return df


def _plot(df: pd.DataFrame, plot: str) -> pd.Series:
    rows = df[df["Plot No"] == plot]
    assert len(rows) == 1
    return rows.iloc[0]


def _one(series: pd.Series) -> object:
    assert len(series) == 1, series
    return series.iloc[0]


def _unique_max(df: pd.DataFrame, col: str, out: str, largest: bool = True) -> str:
    target = df[col].max() if largest else df[col].min()
    return _one(df.loc[df[col] == target, out])


def _a_sum_let_fees() -> float:
    a = allotments()
    return round(float(a.loc[a["status"] == "let", "fee"].sum()), 2)


def _p_next(tracking: str) -> str:
    p = parcels()
    idx = p.index[p["Tracking No"] == tracking]
    assert len(idx) == 1
    return p.loc[idx[0] + 1, "Tracking No"]


def _t_student_mins(name: str) -> int:
    t = tutoring()
    return int(t.loc[t["Student"] == name, "mins"].sum())


def _t_previous(student: str, day: str) -> str:
    t = tutoring()
    idx = t.index[(t["Student"] == student) & (t["date"] == pd.Timestamp(day))]
    assert len(idx) == 1 and idx[0] > 0
    return t.loc[idx[0] - 1, "Student"]


def _t_unpaid_total() -> float:
    t = tutoring()
    unpaid = t[~t["paid"]]
    return round(float((unpaid["mins"] / 60 * unpaid["rate"]).sum()), 2)


ANSWERS: dict[str, Callable[[], object]] = {
    # allotment register
    "What's the annual fee on plot 12?": lambda: _plot(allotments(), "12")["Annual Fee"],
    "how many plots are vacant": lambda: int((allotments()["status"] == "vacant").sum()),
    "How many of our let plots are larger than 150 m²?": lambda: int(
        ((allotments()["status"] == "let") & (allotments()["size"] > 150)).sum()
    ),
    "Who has the biggest plot in the society?": lambda: _unique_max(allotments(), "size", "holder"),
    "who has been on the waiting list the longest": lambda: _unique_max(
        allotments()[allotments()["status"] == "waiting list"], "joined", "holder", largest=False
    ),
    "What do we collect in total annual fees from the plots that are currently let?": _a_sum_let_fees,
    "average plot size in m2 across all plots, vacant ones included": lambda: round(
        float(allotments().loc[allotments()["Plot No"] != "", "size"].mean()), 2
    ),
    "Which plot holders joined in 2019?": lambda: (
        allotments().loc[lambda d: (d["joined"].dt.year == 2019) & (d["Plot No"] != ""), "holder"].tolist()
    ),
    "Which plot is bigger, 5 or 9?": lambda: (
        "5" if _plot(allotments(), "5")["size"] > _plot(allotments(), "9")["size"] else "9"
    ),
    "How much more does plot 7 pay each year than plot 4?": lambda: round(
        float(_plot(allotments(), "7")["fee"] - _plot(allotments(), "4")["fee"]), 2
    ),
    # parcel manifest
    "what postcode is SG118404018GB going to": lambda: _one(
        parcels().loc[parcels()["Tracking No"] == "SG118404018GB", "Postcode"]
    ),
    "How many parcels were returned?": lambda: int((parcels()["status"] == "returned").sum()),
    "How many parcels on the manifest have no delivery time recorded?": lambda: int(
        parcels()["when"].isna().sum()
    ),
    "Which parcel is the heaviest? Give me the tracking number.": lambda: _unique_max(
        parcels(), "kg", "Tracking No"
    ),
    "list the tracking numbers of all parcels weighing under 500 g": lambda: (
        parcels().loc[lambda d: d["kg"] < 0.5, "Tracking No"].tolist()
    ),
    "Which parcel was delivered last?": lambda: _unique_max(parcels(), "when", "Tracking No"),
    "what's the tracking number of the parcel listed right after TX502322417GB": lambda: _p_next(
        "TX502322417GB"
    ),
    "What is the total weight in kg of everything we actually delivered?": lambda: round(
        float(parcels().loc[parcels()["status"] == "delivered", "kg"].sum()), 3
    ),
    "how many parcels got delivered on 12 June 2024": lambda: int(
        (parcels()["when"].dt.normalize() == pd.Timestamp("2024-06-12")).sum()
    ),
    "Average weight of the returned parcels in kg?": lambda: round(
        float(parcels().loc[parcels()["status"] == "returned", "kg"].mean()), 2
    ),
    # tutor session log
    "What subject did Arjun Mehta have on 12 Jun 2024?": lambda: _one(
        tutoring().loc[
            (tutoring()["Student"] == "Arjun Mehta") & (tutoring()["date"] == pd.Timestamp("2024-06-12")),
            "Subject",
        ]
    ),
    "how many chemistry sessions have i done": lambda: int(
        (tutoring()["Subject"].str.lower() == "chemistry").sum()
    ),
    "How many sessions are still unpaid?": lambda: int((~tutoring()["paid"]).sum()),
    "Which student had the longest single session?": lambda: _unique_max(tutoring(), "mins", "Student"),
    "what do my unpaid sessions add up to in pounds, going by duration times hourly rate": _t_unpaid_total,
    "What's the average hourly rate across all sessions?": lambda: round(float(tutoring()["rate"].mean()), 2),
    "How many more minutes of tutoring in total has Jacob Osei had than Arjun Mehta?": lambda: (
        _t_student_mins("Jacob Osei") - _t_student_mins("Arjun Mehta")
    ),
    "Who has had more tutoring time with me overall, Ella Morris or Ruby Thornton?": lambda: (
        "Ella Morris"
        if _t_student_mins("Ella Morris") > _t_student_mins("Ruby Thornton")
        else "Ruby Thornton"
    ),
    "how many sessions did we have in July 2024": lambda: int(
        ((tutoring()["date"].dt.year == 2024) & (tutoring()["date"].dt.month == 7)).sum()
    ),
    "Who was the session right before Ella Morris's on 19 Jun 2024 with?": lambda: _t_previous(
        "Ella Morris", "2024-06-19"
    ),
}


def _agrees(computed: object, gold: str) -> bool:
    if isinstance(computed, list):
        return "|".join(str(x) for x in computed) == gold
    if isinstance(computed, str):
        return computed == gold
    decimals = len(gold.split(".")[1]) if "." in gold else 0
    return abs(float(computed) - float(gold)) <= 0.5 * 10**-decimals + 1e-9


def main() -> None:
    questions = pd.read_csv(
        DATA / "questions-round19-w89.tsv", sep="\t", dtype=str, keep_default_na=False, quoting=3
    )
    ok = 0
    for row in questions.itertuples(index=False):
        computed = ANSWERS[row.question]()
        good = _agrees(computed, row.answer)
        ok += good
        print(f"{'OK ' if good else 'BAD'} [{row.type}] {row.table}: {computed!r} vs {row.answer!r}")
    assert set(ANSWERS) == set(questions["question"]), "question texts differ"
    print(f"{ok}/{len(questions)} agree")
    print(questions["type"].value_counts().to_string())


if __name__ == "__main__":
    main()
