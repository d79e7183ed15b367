"""Round 17 (w81) independent pandas answers for the vet invoices, sports day and podcast tables."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: object) -> float:
    text = str(value).strip().replace("£", "").replace(",", "")
    return float(text)


def _seconds(value: object) -> float:
    text = str(value).strip()
    if not text.endswith("s"):
        return float("nan")
    return float(text[:-1])


def _duration(value: object) -> int:
    parts = [int(p) for p in str(value).split(":")]
    total = 0
    for part in parts:
        total = total * 60 + part
    return total


def _downloads(value: object) -> float:
    text = str(value).strip().lower().replace(",", "")
    if text.endswith("k"):
        return float(text[:-1]) * 1000
    return float(text)


def vet() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r17_vet_invoices.csv", dtype=str, keep_default_na=False)
    for col in ("Net", "VAT", "Gross"):
        df[col + "_num"] = df[col].map(_money)
    df["Date_dt"] = pd.to_datetime(df["Date"], format="%d/%m/%Y")
    return df


def sports() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r17_sports_day.tsv", sep="\t", dtype=str, keep_default_na=False)
    df["secs"] = df["Time"].map(_seconds)
    df["place_num"] = pd.to_numeric(df["Place"].str.extract(r"(\d+)")[0], errors="coerce")
    return df


def podcast() -> pd.DataFrame:
    df = pd.read_json(REAL / "r17_podcast_downloads.jsonl", lines=True, dtype={"downloads": str})
    df["dl"] = df["downloads"].map(_downloads)
    df["secs"] = df["duration"].map(_duration)
    df["released_dt"] = pd.to_datetime(df["released"].astype(str))
    df["guest"] = df["guest"].fillna("").astype(str).str.strip()
    return df


def _vet_row(df: pd.DataFrame, invoice: str) -> pd.Series:
    return df[df["Invoice No"] == invoice].iloc[0]


def _vet_after(invoice: str) -> str:
    df = vet().reset_index(drop=True)
    idx = df.index[df["Invoice No"] == invoice][0]
    return df.loc[idx + 1, "Invoice No"]


def _vet_gross_by_pet(pet: str) -> float:
    df = vet()
    return df.loc[df["Pet"] == pet, "Gross_num"].sum()


def _vet_diff() -> float:
    df = vet()
    a = df[(df["Client"] == "Fraser, Ellen") & (df["Treatment"] == "Spay surgery")]["Gross_num"].iloc[0]
    b = df[(df["Client"] == "Patel, Priya") & (df["Treatment"] == "Blood test")]["Gross_num"].iloc[0]
    return round(a - b, 2)


def _vet_march() -> list[str]:
    df = vet()
    mask = (df["Date_dt"].dt.year == 2024) & (df["Date_dt"].dt.month == 3)
    return df.loc[mask, "Invoice No"].tolist()


def _sp_time(pupil: str) -> float:
    df = sports()
    return df.loc[df["Pupil"] == pupil, "secs"].iloc[0]


def _sp_behind(pupil: str) -> str:
    df = sports()
    me = df[df["Pupil"] == pupil].iloc[0]
    race = df[(df["Event"] == me["Event"]) & (df["Year Group"] == me["Year Group"])]
    return race.loc[race["place_num"] == me["place_num"] + 1, "Pupil"].iloc[0]


def _sp_avg_sprint_winners() -> float:
    df = sports()
    winners = df[df["Event"].str.contains("Sprint") & (df["place_num"] == 1)]
    return round(winners["secs"].mean(), 2)


def _sp_faster(a: str, b: str) -> str:
    return a if _sp_time(a) < _sp_time(b) else b


def _pod_before(title: str) -> str:
    df = podcast().sort_values("released_dt").reset_index(drop=True)
    idx = df.index[df["title"] == title][0]
    return df.loc[idx - 1, "title"]


def _pod_more(a: str, b: str) -> str:
    df = podcast().set_index("title")
    return a if df.loc[a, "dl"] > df.loc[b, "dl"] else b


ANSWERS: dict[str, Callable[[], object]] = {
    # vet invoices
    "What was the gross amount on INV-1012?": lambda: _vet_row(vet(), "INV-1012")["Gross"],
    "how many invoices are still marked Unpaid": lambda: int((vet()["Status"].str.strip() == "Unpaid").sum()),
    "What do our credit notes add up to in gross terms?": lambda: round(
        vet().loc[lambda d: d["Invoice No"].str.startswith("CN-"), "Gross_num"].sum(), 2
    ),
    "What's the total VAT we charged across every invoice and credit note?": lambda: round(
        vet()["VAT_num"].sum(), 2
    ),
    "Which client was billed for the single most expensive treatment by net amount?": lambda: (
        vet().sort_values("Net_num", ascending=False).iloc[0]["Client"]
    ),
    "list the invoice numbers dated in March 2024": _vet_march,
    "Which invoice number comes straight after CN-0022 in the list?": lambda: _vet_after("CN-0022"),
    "How much more was the gross on Ellen Fraser's spay surgery than on Priya Patel's blood test?": _vet_diff,
    "how many rows have a net amount over £100": lambda: int((vet()["Net_num"] > 100).sum()),
    "Which pet cost its owner more in total gross across all visits, Biscuit or Milo?": lambda: (
        "Biscuit" if _vet_gross_by_pet("Biscuit") > _vet_gross_by_pet("Milo") else "Milo"
    ),
    # sports day
    "What time did Zara Hussain run?": lambda: (
        sports().loc[lambda d: d["Pupil"] == "Zara Hussain", "Time"].iloc[0]
    ),
    "how many 1st places did Oak house get": lambda: int(
        ((sports()["House"] == "Oak") & (sports()["Place"] == "1st")).sum()
    ),
    "In the Y3 60m sprint, how many children finished in under 12.5 seconds?": lambda: int(
        sports()
        .loc[lambda d: (d["Event"] == "60m Sprint") & (d["Year Group"] == "Y3")]
        .loc[lambda d: d["secs"] < 12.5]
        .shape[0]
    ),
    "Who had the fastest time in the 80m sprint across all year groups?": lambda: (
        sports().loc[lambda d: d["Event"] == "80m Sprint"].sort_values("secs").iloc[0]["Pupil"]
    ),
    "What was the average winning time across all four sprint races (60m and 80m), in seconds?": (
        _sp_avg_sprint_winners
    ),
    "how many seconds faster was Isla Morgan than Freya Walsh": lambda: round(
        _sp_time("Freya Walsh") - _sp_time("Isla Morgan"), 2
    ),
    "Who was quicker, Leo Martin or Finn O'Neill?": lambda: _sp_faster("Leo Martin", "Finn O'Neill"),
    "Which Willow pupil is listed first in our results sheet?": lambda: (
        sports().loc[lambda d: d["House"] == "Willow", "Pupil"].iloc[0]
    ),
    "which Y6 runners did the 80m in under 13 seconds": lambda: (
        sports()
        .loc[lambda d: (d["Event"] == "80m Sprint") & (d["Year Group"] == "Y6") & (d["secs"] < 13)]["Pupil"]
        .tolist()
    ),
    "Who finished in the place immediately behind Maya Shah in her race?": lambda: _sp_behind("Maya Shah"),
    # podcast
    "How long is the Cheese Caves episode?": lambda: (
        podcast().loc[lambda d: d["title"] == "Cheese Caves", "duration"].iloc[0]
    ),
    "which episode has the most downloads": lambda: (
        podcast().sort_values("dl", ascending=False).iloc[0]["title"]
    ),
    "How many downloads have we had in total across all our episodes?": lambda: int(
        round(podcast()["dl"].sum())
    ),
    "Which episodes were released in March 2024?": lambda: (
        podcast()
        .loc[lambda d: (d["released_dt"].dt.year == 2024) & (d["released_dt"].dt.month == 3), "title"]
        .tolist()
    ),
    "how many episodes run longer than an hour": lambda: int((podcast()["secs"] > 3600).sum()),
    "What's the average number of downloads for episodes with no guest?": lambda: round(
        podcast().loc[lambda d: d["guest"] == "", "dl"].mean(), 2
    ),
    "What episode came out right before Wild Foraging?": lambda: _pod_before("Wild Foraging"),
    "On what date did we release our first episode that had a guest?": lambda: (
        podcast()
        .loc[lambda d: d["guest"] != ""]
        .sort_values("released_dt")
        .iloc[0]["released_dt"]
        .strftime("%Y-%m-%d")
    ),
    "Which did better on downloads, Sourdough Science or Street Food of Bangkok?": lambda: _pod_more(
        "Sourdough Science", "Street Food of Bangkok"
    ),
    "Which episodes got fewer than 1,000 downloads?": lambda: (
        podcast().loc[lambda d: d["dl"] < 1000, "title"].tolist()
    ),
}
