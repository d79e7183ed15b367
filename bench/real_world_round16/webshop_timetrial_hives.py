"""Round 16 real-world checks: web shop orders, club 10-mile time trial, beekeeper hive inspections."""

from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(text: str) -> tuple[str, float]:
    currency, value = str(text).strip().split()
    return currency, float(value.replace(",", ""))


def _orders() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r16_webshop_orders.csv", dtype=str, keep_default_na=False)
    parsed = df["amount"].map(_money)
    df["currency"] = parsed.map(lambda p: p[0])
    df["value"] = parsed.map(lambda p: p[1])
    df["when"] = pd.to_datetime(df["placed_at"], format="%Y-%m-%dT%H:%M:%SZ")
    df["n_items"] = df["items"].astype(int)
    return df


def _seconds(text: str) -> float | None:
    text = str(text).strip()
    if text in {"DNF", "DNS", ""}:
        return None
    hours, minutes, seconds = text.split(":")
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds)


def _tt() -> pd.DataFrame:
    # Row 1 holds the event date; the real header is on row 2.
    df = pd.read_excel(DATA / "r16_club_10mile_tt.xlsx", header=1, dtype={"Time": str})
    df["secs"] = df["Time"].map(_seconds)
    return df


def _kg(text: str) -> float:
    text = str(text).strip()
    if text in {"-", "", "nan"}:
        return 0.0
    return float(text.removesuffix("kg").strip())


def _hives() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r16_hive_inspections.tsv", sep="\t", dtype=str, keep_default_na=False)
    df["day"] = pd.to_datetime(df["Date"], format="%d %b %Y")
    df["honey"] = df["Honey taken"].map(_kg)
    df["varroa"] = df["Varroa drop"].astype(int)
    df["brood"] = df["Brood frames"].astype(int)
    return df


def _after(df: pd.DataFrame, col: str, value: str, out: str) -> str:
    pos = df.index[df[col] == value][0]
    return df.loc[pos + 1, out]


def _honey_of(hive: str) -> float:
    h = _hives()
    return float(h.loc[h["Hive"] == hive, "honey"].sum())


def _time_of(rider: str) -> float:
    t = _tt()
    return float(t.loc[t["Rider"] == rider, "secs"].iloc[0])


ANSWERS: dict[str, Callable[[], object]] = {
    # Web shop orders (CSV)
    "What country is order 1014 from?": lambda: _orders().set_index("order_id").loc["1014", "country"],
    "how many orders have status partial refund": lambda: int(
        (_orders()["status"] == "partial refund").sum()
    ),
    "How many of our orders were placed with no coupon code?": lambda: int(
        (_orders()["coupon"].str.strip() == "").sum()
    ),
    "which order ids have a negative amount": lambda: (
        _orders().loc[lambda d: d["value"] < 0, "order_id"].tolist()
    ),
    "What do the USD amounts add up to, with refunds netted off?": lambda: round(
        _orders().loc[lambda d: d["currency"] == "USD", "value"].sum(), 2
    ),
    "Who placed our biggest EUR order?": lambda: (
        _orders()
        .loc[lambda d: d["currency"] == "EUR"]
        .sort_values("value", ascending=False)
        .iloc[0]["customer"]
    ),
    "List the order ids placed in April 2024.": lambda: (
        _orders().loc[lambda d: (d["when"].dt.year == 2024) & (d["when"].dt.month == 4), "order_id"].tolist()
    ),
    "average items per order across all rows": lambda: round(_orders()["n_items"].mean(), 2),
    "Whose order comes straight after Hiro Tanaka's in the export?": lambda: _after(
        _orders(), "customer", "Hiro Tanaka", "customer"
    ),
    "When was the most recent order placed?": lambda: _orders().sort_values("when").iloc[-1]["placed_at"],
    # Club 10-mile time trial (XLSX)
    "What time did Fiona Reid do?": lambda: _tt().set_index("Rider").loc["Fiona Reid", "Time"],
    "how many riders are in the V40 category": lambda: int((_tt()["Category"] == "V40").sum()),
    "Who set the fastest time?": lambda: _tt().dropna(subset=["secs"]).sort_values("secs").iloc[0]["Rider"],
    "Which riders got round in under 23 minutes?": lambda: (
        _tt().loc[lambda d: d["secs"] < 23 * 60, "Rider"].tolist()
    ),
    "how many riders actually recorded a finishing time (not DNF or DNS)": lambda: int(
        _tt()["secs"].notna().sum()
    ),
    "Who was quicker on the day, Owen Price or Sam Ortiz?": lambda: min(
        ["Owen Price", "Sam Ortiz"], key=_time_of
    ),
    "By how many seconds did Mike Dunn beat Priya Shah?": lambda: round(
        _time_of("Priya Shah") - _time_of("Mike Dunn"), 1
    ),
    "What's the average time of our V50 riders in seconds? Only count those who finished.": lambda: round(
        _tt().loc[lambda d: d["Category"] == "V50", "secs"].dropna().mean(), 2
    ),
    "which rider is listed right after Gary Old": lambda: _after(_tt(), "Rider", "Gary Old", "Rider"),
    "Who is the last rider on the start sheet?": lambda: _tt()["Rider"].iloc[-1],
    # Hive inspections (TSV)
    "How many brood frames did Clover have on 2 May 2024?": lambda: int(
        _hives().loc[lambda d: (d["Hive"] == "Clover") & (d["Date"] == "2 May 2024"), "brood"].iloc[0]
    ),
    "in how many inspections was the queen not seen": lambda: int((_hives()["Queen seen"] == "no").sum()),
    "How many inspection rows have blank notes?": lambda: int((_hives()["Notes"].str.strip() == "").sum()),
    "How much honey have we taken from Heather in total, in kg?": lambda: _honey_of("Heather"),
    "which hive had the single highest varroa drop": lambda: (
        _hives().sort_values("varroa", ascending=False).iloc[0]["Hive"]
    ),
    "Which hives had honey taken during May 2024?": lambda: (
        _hives()
        .loc[lambda d: (d["day"].dt.year == 2024) & (d["day"].dt.month == 5) & (d["honey"] > 0), "Hive"]
        .drop_duplicates()
        .tolist()
    ),
    "Which hive gave more honey overall, Bluebell or Clover?": lambda: max(
        ["Bluebell", "Clover"], key=_honey_of
    ),
    "how much more honey came off Heather than Bluebell altogether": lambda: round(
        _honey_of("Heather") - _honey_of("Bluebell"), 1
    ),
    "What was Clover's average varroa drop across its inspections?": lambda: round(
        _hives().loc[lambda d: d["Hive"] == "Clover", "varroa"].mean(), 2
    ),
    "On which dates did Bluebell have a varroa drop above 10?": lambda: (
        _hives().loc[lambda d: (d["Hive"] == "Bluebell") & (d["varroa"] > 10), "Date"].tolist()
    ),
}
