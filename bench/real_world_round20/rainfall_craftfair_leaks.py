"""Pandas reference answers for round-20 tables: regional rainfall anomalies, craft fair stalls, water leak reports."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"

RAIN = "r20_regional_rainfall_anomalies.csv"
STALLS = "r20_craft_fair_stalls.jsonl"
LEAKS = "r20_water_leak_reports.csv"


def _num(value: object) -> float | None:
    """Parse '1,512', '+6.5', '-9.3' or '..' (missing) into a float or None."""
    text = str(value).strip()
    if text in ("", "..", "nan"):
        return None
    return float(text.replace(",", "").replace("+", ""))


def rain() -> pd.DataFrame:
    df = pd.read_csv(DATA / RAIN, dtype=str, keep_default_na=False)
    for year in (2021, 2022, 2023):
        df[f"rain{year}"] = df[f"Rainfall {year} (mm)"].map(_num)
        df[f"anom{year}"] = df[f"Anomaly {year} (% of 1991-2020 mean)"].map(_num)
    df["stations"] = df["Number of Reporting Stations"].astype(int)
    return df


def _paid(value: object) -> bool:
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in ("yes", "y", "true", "1")


def stalls() -> pd.DataFrame:
    with open(DATA / STALLS, encoding="utf-8") as fh:
        records = [json.loads(line) for line in fh if line.strip()]
    df = pd.DataFrame(records)
    df["fee_num"] = (
        df["Fee"].str.replace("$", "", regex=False).str.replace(",", "", regex=False).astype(float)
    )
    df["paid_bool"] = df["Paid?"].map(_paid)
    df["booked_dt"] = pd.to_datetime(df["Booked"], format="%Y-%m-%d")
    return df


def _litres(value: str) -> float:
    text = str(value).strip().lower().replace(",", "")
    if text.endswith("k"):
        return float(text[:-1]) * 1000
    return float(text)


def leaks() -> pd.DataFrame:
    df = pd.read_csv(DATA / LEAKS, dtype=str, keep_default_na=False)
    df["loss"] = df["Est. Loss (L/hr)"].map(_litres)
    df["reported_dt"] = pd.to_datetime(df["Reported"], format="%d/%m/%Y %H:%M")
    df["resolved_dt"] = pd.to_datetime(df["Resolved"].replace("", None), format="%d/%m/%Y %H:%M")
    return df


def _row(df: pd.DataFrame, col: str, key: str) -> pd.Series:
    match = df[df[col] == key]
    assert len(match) == 1, (col, key, len(match))
    return match.iloc[0]


def _rain_avg_2023() -> float:
    return round(float(rain()["rain2023"].dropna().mean()), 2)


def _rain_bigger_2022(a: str, b: str) -> str:
    df = rain()
    return a if _row(df, "Region", a)["anom2022"] > _row(df, "Region", b)["anom2022"] else b


def _rain_after(name: str) -> str:
    df = rain().reset_index(drop=True)
    idx = df.index[df["Region"] == name][0]
    return df.loc[idx + 1, "Region"]


def _rain_missing_any() -> int:
    df = rain()
    return int(df[["rain2021", "rain2022", "rain2023"]].isna().any(axis=1).sum())


def _booked_earlier(a: str, b: str) -> str:
    df = stalls()
    return a if _row(df, "Trader", a)["booked_dt"] < _row(df, "Trader", b)["booked_dt"] else b


def _april_stalls() -> list[str]:
    df = stalls()
    mask = (df["booked_dt"].dt.year == 2024) & (df["booked_dt"].dt.month == 4)
    return df.loc[mask, "Stall"].tolist()


def _fee_diff(a: str, b: str) -> float:
    df = stalls()
    return float(_row(df, "Trader", a)["fee_num"] - _row(df, "Trader", b)["fee_num"])


def _leaks_between(start: str, end: str) -> list[str]:
    df = leaks()
    lo = pd.Timestamp(start)
    hi = pd.Timestamp(end) + pd.Timedelta(days=1)
    mask = (df["reported_dt"] >= lo) & (df["reported_dt"] < hi)
    return df.loc[mask, "Report ID"].tolist()


def _longer_fix(a: str, b: str) -> str:
    df = leaks()
    ra, rb = _row(df, "Report ID", a), _row(df, "Report ID", b)
    da = ra["resolved_dt"] - ra["reported_dt"]
    db = rb["resolved_dt"] - rb["reported_dt"]
    return a if da > db else b


def _loss_diff(a: str, b: str) -> float:
    df = leaks()
    return float(_row(df, "Report ID", a)["loss"] - _row(df, "Report ID", b)["loss"])


ANSWERS: dict[str, Callable[[], object]] = {
    # regional rainfall anomalies
    "What was the 2023 rainfall anomaly for Eastern Shore?": lambda: _row(rain(), "Region", "Eastern Shore")[
        "Anomaly 2023 (% of 1991-2020 mean)"
    ],
    "how many regions were below their long-term mean in 2022 (negative anomaly)": lambda: int(
        (rain()["anom2022"] < 0).sum()
    ),
    "Which region had the highest rainfall anomaly in 2021?": lambda: rain().loc[
        rain()["anom2021"].idxmax(), "Region"
    ],
    "What's the total number of reporting stations across all regions": lambda: int(rain()["stations"].sum()),
    "What was the average 2023 rainfall in mm across the regions that have a 2023 figure?": _rain_avg_2023,
    "how much more rain did Lakes District get in 2023 than in 2022, in mm": lambda: float(
        _row(rain(), "Region", "Lakes District")["rain2023"]
        - _row(rain(), "Region", "Lakes District")["rain2022"]
    ),
    "Which had the bigger 2022 anomaly, Far North or Northern Moors?": lambda: _rain_bigger_2022(
        "Far North", "Northern Moors"
    ),
    "Which regions recorded more than 1,700 mm of rainfall in 2023?": lambda: (
        rain().loc[rain()["rain2023"] > 1700, "Region"].tolist()
    ),
    "How many regions are missing the rainfall figure for at least one of the three years?": _rain_missing_any,
    "which region comes right after Metropolitan in the table": lambda: _rain_after("Metropolitan"),
    # craft fair stalls
    "What craft does Old Mill Leather sell?": lambda: _row(stalls(), "Trader", "Old Mill Leather")["Craft"],
    "how many textiles stalls do we have": lambda: int((stalls()["Craft"] == "Textiles").sum()),
    "How many traders haven't paid their stall fee yet?": lambda: int((~stalls()["paid_bool"]).sum()),
    "What is the total in fees we still need to collect from traders who have not paid?": lambda: float(
        stalls().loc[~stalls()["paid_bool"], "fee_num"].sum()
    ),
    "average stall fee": lambda: round(float(stalls()["fee_num"].mean()), 2),
    "Who was the last trader to book a stall?": lambda: stalls().loc[
        stalls()["booked_dt"].idxmax(), "Trader"
    ],
    "Which stalls were booked in April 2024?": _april_stalls,
    "which trader pays the highest fee": lambda: stalls().loc[stalls()["fee_num"].idxmax(), "Trader"],
    "How much more does The Copper Kettle pay for its stall than Fernleaf Soaps?": lambda: _fee_diff(
        "The Copper Kettle", "Fernleaf Soaps"
    ),
    "Which booked earlier, Kiln Street Pottery or Silverfin Jewellery?": lambda: _booked_earlier(
        "Kiln Street Pottery", "Silverfin Jewellery"
    ),
    # water leak reports
    "How many leak reports were on Harbour Rd?": lambda: int((leaks()["Street"] == "Harbour Rd").sum()),
    "how many leaks are still open with no resolved time": lambda: int(leaks()["resolved_dt"].isna().sum()),
    "Which street had the single biggest estimated loss?": lambda: leaks().loc[
        leaks()["loss"].idxmax(), "Street"
    ],
    "What is the combined estimated loss in litres per hour of all the leaks that are still open?": lambda: (
        float(leaks().loc[leaks()["resolved_dt"].isna(), "loss"].sum())
    ),
    "What's the average estimated loss for our P1 - Urgent reports, in L/hr?": lambda: round(
        float(leaks().loc[leaks()["Priority"] == "P1 - Urgent", "loss"].mean()), 2
    ),
    "which reports came in between 1 and 15 June 2024": lambda: _leaks_between("2024-06-01", "2024-06-15"),
    "What is the report ID of the most recently reported leak?": lambda: leaks().loc[
        leaks()["reported_dt"].idxmax(), "Report ID"
    ],
    "Which reports had an estimated loss above 2,000 litres per hour?": lambda: (
        leaks().loc[leaks()["loss"] > 2000, "Report ID"].tolist()
    ),
    "Which took longer to resolve, WL-24-0102 or WL-24-0106?": lambda: _longer_fix(
        "WL-24-0102", "WL-24-0106"
    ),
    "how many litres per hour bigger was the loss on WL-24-0107 than on WL-24-0101": lambda: _loss_diff(
        "WL-24-0107", "WL-24-0101"
    ),
}
