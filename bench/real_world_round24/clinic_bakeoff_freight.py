"""Round 24 (w111) answers: physio session log, village bake-off scoresheet, freight container shipments."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: object) -> float:
    if value is None or (isinstance(value, float) and pd.isna(value)) or str(value).strip() == "":
        return float("nan")
    return float(re.sub(r"[^0-9.\-]", "", str(value)))


def _minutes(text: object) -> int:
    s = str(text).lower().replace(" ", "")
    hours = re.search(r"(\d+)h", s)
    mins = re.search(r"(\d+)min", s)
    return (int(hours.group(1)) * 60 if hours else 0) + (int(mins.group(1)) if mins else 0)


def physio() -> pd.DataFrame:
    df = pd.read_json(REAL / "r24_physio_sessions.jsonl", lines=True, dtype=False)
    df["fee_num"] = df["fee"].map(_money)
    df["date_dt"] = pd.to_datetime(df["date"], format="%Y-%m-%d")
    df["minutes"] = df["duration"].map(_minutes)
    df["before"] = pd.to_numeric(df["pain_before"], errors="coerce")
    df["after"] = pd.to_numeric(df["pain_after"], errors="coerce")
    return df


def bakeoff() -> pd.DataFrame:
    raw = pd.read_excel(REAL / "r24_village_bakeoff.xlsx", header=None, dtype=object)
    header_row = raw.index[raw.iloc[:, 0].astype(str).str.strip() == "Entry No"][0]
    df = raw.iloc[header_row + 1 :].copy()
    df.columns = [str(c).strip() for c in raw.iloc[header_row]]
    df = df[df["Entry No"].astype(str).str.fullmatch(r"E\d+")].reset_index(drop=True)
    for col in ["Judge A", "Judge B", "Judge C", "Total"]:
        df[col] = pd.to_numeric(df[col].astype(str).str.strip(), errors="coerce")
    df["Rank"] = df["Rank"].map(lambda v: str(int(v)) if isinstance(v, (int, float)) else str(v).strip())
    return df


def freight() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r24_freight_containers.csv", dtype=str, keep_default_na=False)
    for col in ["ETD", "ETA", "Actual Arrival"]:
        df[col + "_dt"] = pd.to_datetime(df[col].replace("", None), format="%b %d, %Y")
    df["delay"] = pd.to_numeric(df["Delay (days)"], errors="coerce")
    df["cost"] = df["Freight Cost"].map(_money)
    df["weight"] = pd.to_numeric(df["Gross Weight (t)"], errors="coerce")
    return df


def _row(df: pd.DataFrame, col: str, value: str) -> pd.Series:
    return df[df[col] == value].iloc[0]


def _next_after(df: pd.DataFrame, col: str, value: str, out: str) -> str:
    pos = df.index[df[col] == value][0]
    return str(df.loc[pos + 1, out])


def _fees_by(therapist: str) -> float:
    df = physio()
    return float(df.loc[df["therapist"] == therapist, "fee_num"].sum())


def _weight_by(carrier: str) -> float:
    df = freight()
    return float(df.loc[df["Carrier"] == carrier, "weight"].sum())


def _total_of(name: str) -> float:
    return float(_row(bakeoff(), "Entrant", name)["Total"])


ANSWERS: dict[str, Callable[[], object]] = {
    # --- physio session log (JSONL)
    "What was the fee for session PT-1007?": lambda: str(_row(physio(), "session_id", "PT-1007")["fee"]),
    "how many minutes of therapy did Liam Walsh have altogether": lambda: int(
        physio().query("patient == 'Liam Walsh' and status == 'completed'")["minutes"].sum()
    ),
    "How many sessions had a pain score after treatment of 3 or lower?": lambda: int(
        (physio()["after"] <= 3).sum()
    ),
    "which session showed the biggest drop in pain score from before to after": lambda: str(
        physio()
        .assign(drop=lambda d: d["before"] - d["after"])
        .sort_values("drop", ascending=False)
        .iloc[0]["session_id"]
    ),
    "What's the total of the fees we charged in June 2024?": lambda: float(
        physio().loc[lambda d: (d["date_dt"].dt.year == 2024) & (d["date_dt"].dt.month == 6), "fee_num"].sum()
    ),
    "average pain score before treatment for Dr. Kim's completed sessions": lambda: round(
        float(physio().query("therapist == 'Dr. Kim' and status == 'completed'")["before"].mean()), 2
    ),
    "Which patient had the session right after PT-1012 in the log?": lambda: _next_after(
        physio(), "session_id", "PT-1012", "patient"
    ),
    "who was sam patel's most recent patient": lambda: str(
        physio()
        .query("therapist == 'Sam Patel' and status == 'completed'")
        .sort_values(["date_dt", "start"])
        .iloc[-1]["patient"]
    ),
    "Which sessions were scheduled between June 10 and June 14, 2024?": lambda: (
        physio().loc[lambda d: d["date_dt"].between("2024-06-10", "2024-06-14"), "session_id"].tolist()
    ),
    "Which therapist brought in more in fees, Dr. Kim or Lena Fischer?": lambda: max(
        ["Dr. Kim", "Lena Fischer"], key=_fees_by
    ),
    # --- village bake-off scoresheet (XLSX)
    "What rank did Alice Wren get?": lambda: str(_row(bakeoff(), "Entrant", "Alice Wren")["Rank"]),
    "how many entries were there in the Scones category": lambda: int(
        (bakeoff()["Category"] == "Scones").sum()
    ),
    "How many entrants got a 9 or higher from Judge B?": lambda: int((bakeoff()["Judge B"] >= 9).sum()),
    "Who won the Sourdough Loaf category?": lambda: str(
        bakeoff()
        .query("Category == 'Sourdough Loaf'")
        .sort_values("Total", ascending=False)
        .iloc[0]["Entrant"]
    ),
    "What's the average Judge A score for the Lemon Drizzle cakes, leaving out the disqualified one?": lambda: (
        round(float(bakeoff().query("Category == 'Lemon Drizzle' and Rank != 'DQ'")["Judge A"].mean()), 2)
    ),
    "how many more points did Colin Rees score in total than Harold Finch": lambda: (
        _total_of("Colin Rees") - _total_of("Harold Finch")
    ),
    "Sue Baxter or Mabel Stone - who had the higher total?": lambda: max(
        ["Sue Baxter", "Mabel Stone"], key=_total_of
    ),
    "Which entrants finished with a total above 25?": lambda: (
        bakeoff().loc[lambda d: d["Total"] > 25, "Entrant"].tolist()
    ),
    "who is listed right after Kofi Mensah on the scoresheet": lambda: _next_after(
        bakeoff(), "Entrant", "Kofi Mensah", "Entrant"
    ),
    "How many entrants tied for 10th place?": lambda: int((bakeoff()["Rank"] == "10=").sum()),
    # --- freight container shipments (CSV)
    "What's the ETA for container HLXU2233445?": lambda: str(
        _row(freight(), "Container No", "HLXU2233445")["ETA"]
    ),
    "how many of our containers are still at sea with no actual arrival yet": lambda: int(
        freight()["Actual Arrival_dt"].isna().sum()
    ),
    "Which containers arrived ahead of their ETA?": lambda: (
        freight().loc[lambda d: d["delay"] < 0, "Container No"].tolist()
    ),
    "Which container had the longest delay?": lambda: str(
        freight().sort_values("delay", ascending=False).iloc[0]["Container No"]
    ),
    "What is our total freight spend on Maersk containers?": lambda: round(
        float(freight().loc[lambda d: d["Carrier"] == "Maersk", "cost"].sum()), 2
    ),
    "average gross weight in tonnes for shipments leaving Hamburg": lambda: round(
        float(freight().loc[lambda d: d["Origin Port"] == "Hamburg", "weight"].mean()), 2
    ),
    "How much more did CMAU3344556 cost to ship than MSCU1234567?": lambda: round(
        float(
            _row(freight(), "Container No", "CMAU3344556")["cost"]
            - _row(freight(), "Container No", "MSCU1234567")["cost"]
        ),
        2,
    ),
    "Which containers departed in March 2024?": lambda: (
        freight()
        .loc[lambda d: (d["ETD_dt"].dt.year == 2024) & (d["ETD_dt"].dt.month == 3), "Container No"]
        .tolist()
    ),
    "which container is due to arrive last, going by ETA": lambda: str(
        freight().sort_values("ETA_dt").iloc[-1]["Container No"]
    ),
    "Which carrier moved more total weight across its containers, MSC or CMA CGM?": lambda: max(
        ["MSC", "CMA CGM"], key=_weight_by
    ),
}
