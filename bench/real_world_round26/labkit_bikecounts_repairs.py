"""Round 26 (w119) checks: lab equipment bookings, city bike counters and a landlord's repairs log."""

from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _num(value: object) -> float | None:
    """Parse '1,234', '£245.00', '480.00', 4.5 or 'n/a'/blank into a float (None when missing)."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return None
    text = str(value).strip().replace(",", "").replace("£", "").replace("$", "").replace("%", "")
    if text.lower() in {"", "n/a", "na", "nan", "none"}:
        return None
    return float(text)


def bookings() -> pd.DataFrame:
    df = pd.read_json(REAL / "r26_lab_bookings.jsonl", lines=True, dtype=False)
    df["hours_n"] = df["hours"].map(_num)
    df["charge_n"] = df["charge"].map(_num)
    df["start_dt"] = pd.to_datetime(df["start"], format="%Y-%m-%d %H:%M")
    return df


MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun"]


def counters() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r26_bike_counters.csv", dtype=str, keep_default_na=False)
    for m in MONTHS:
        df[f"{m}_n"] = df[f"{m} 2024 (bikes)"].map(_num)
    df["total_n"] = df["H1 2024 total (bikes)"].map(_num)
    df["change_n"] = df["Change vs H1 2023 (%)"].map(_num)
    return df


def repairs() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r26_rental_repairs.xlsx", header=1, dtype=str)
    for col in ["Property", "Contractor", "Priority", "Charged to tenant?"]:
        df[col] = df[col].str.strip()
    df["cost_n"] = df["Cost"].map(_num)
    df["reported_dt"] = pd.to_datetime(df["Reported"], format="%d %b %Y")
    df["fixed_dt"] = pd.to_datetime(df["Fixed"], format="%d %b %Y")
    return df


def _row(df: pd.DataFrame, col: str, value: str) -> pd.Series:
    hit = df[df[col] == value]
    assert len(hit) == 1, (col, value, len(hit))
    return hit.iloc[0]


def _lab_total(name: str) -> float:
    b = bookings()
    return float(b.loc[b["researcher"] == name, "charge_n"].sum())


def _lab_after(booking_id: str) -> str:
    b = bookings()
    pos = b.index[b["booking_id"] == booking_id][0]
    return str(b.loc[pos + 1, "instrument"])


def _lab_last_nov() -> str:
    b = bookings()
    nov = b[(b["start_dt"].dt.year == 2024) & (b["start_dt"].dt.month == 11)]
    return str(nov.sort_values("start_dt").iloc[-1]["researcher"])


def _either(a: tuple[str, float], b: tuple[str, float]) -> str:
    assert a[1] != b[1]
    return a[0] if a[1] > b[1] else b[0]


def _bike(site: str, month: str) -> float:
    return float(_row(counters(), "Counter site", site)[f"{month}_n"])


def _bike_any_na() -> int:
    c = counters()
    return int(c[[f"{m}_n" for m in MONTHS]].isna().any(axis=1).sum())


def _bike_biggest_drop() -> str:
    c = counters()
    neg = c[c["change_n"] < 0]
    return str(neg.loc[neg["change_n"].idxmin(), "Counter site"])


def _rep_cost(job: str) -> float:
    return float(_row(repairs(), "Job No.", job)["cost_n"])


def _rep_first_at(prop: str) -> str:
    r = repairs()
    return str(r[r["Property"] == prop].sort_values("reported_dt").iloc[0]["Job No."])


ANSWERS: dict[str, Callable[[], object]] = {
    # --- r26_lab_bookings.jsonl ---
    "What instrument was booked under BK-1013?": lambda: str(
        _row(bookings(), "booking_id", "BK-1013")["instrument"]
    ),
    "how many bookings were for the Cryo-EM": lambda: int((bookings()["instrument"] == "Cryo-EM").sum()),
    "How many bookings were for longer than 4 hours?": lambda: int((bookings()["hours_n"] > 4).sum()),
    "Which booking had the highest charge?": lambda: str(
        bookings().loc[bookings()["charge_n"].idxmax(), "booking_id"]
    ),
    "what's the total charged for the Mass Spectrometer across all its bookings": lambda: float(
        bookings().loc[bookings()["instrument"] == "Mass Spectrometer", "charge_n"].sum()
    ),
    "Average hours booked per booking on the Confocal Microscope?": lambda: round(
        float(bookings().loc[bookings()["instrument"] == "Confocal Microscope", "hours_n"].mean()), 2
    ),
    "which bookings started in December 2024": lambda: (
        bookings()
        .loc[(bookings()["start_dt"].dt.year == 2024) & (bookings()["start_dt"].dt.month == 12), "booking_id"]
        .tolist()
    ),
    "Which researcher has the last booking that starts in November 2024?": _lab_last_nov,
    "what instrument is in the booking right after BK-1009 in our log": lambda: _lab_after("BK-1009"),
    "Who was charged more in total across their bookings, Chen Wei or Liam Fischer?": lambda: _either(
        ("Chen Wei", _lab_total("Chen Wei")), ("Liam Fischer", _lab_total("Liam Fischer"))
    ),
    # --- r26_bike_counters.csv ---
    "What was the May 2024 count at Canal Towpath East?": lambda: str(
        _row(counters(), "Counter site", "Canal Towpath East")["May 2024 (bikes)"]
    ),
    "which counter site had the most bikes in june 2024": lambda: str(
        counters().loc[counters()["Jun_n"].idxmax(), "Counter site"]
    ),
    "How many counters have at least one month marked n/a?": _bike_any_na,
    "how many of our counters were down on H1 2023": lambda: int((counters()["change_n"] < 0).sum()),
    "Which site had the biggest drop compared with H1 2023?": _bike_biggest_drop,
    "Total bikes counted across all sites in March 2024, leaving out counters that were broken that month?": lambda: (
        float(counters()["Mar_n"].sum())
    ),
    "average H1 2024 total for the Westbury ward counters": lambda: round(
        float(counters().loc[counters()["Ward"] == "Westbury", "total_n"].mean()), 2
    ),
    "How many more bikes did Harbour Bridge count than Riverside Path North in January 2024?": lambda: (
        _bike("Harbour Bridge", "Jan") - _bike("Riverside Path North", "Jan")
    ),
    "Which was busier in April 2024, Docklands Cycleway or University Avenue?": lambda: _either(
        ("Docklands Cycleway", _bike("Docklands Cycleway", "Apr")),
        ("University Avenue", _bike("University Avenue", "Apr")),
    ),
    "list the counters with fewer than 8,000 bikes in June 2024": lambda: (
        counters().loc[counters()["Jun_n"] < 8000, "Counter site"].tolist()
    ),
    # --- r26_rental_repairs.xlsx ---
    "Which contractor did job J-111?": lambda: str(_row(repairs(), "Job No.", "J-111")["Contractor"]),
    "how many jobs went to Dave Hughes Plumbing": lambda: int(
        (repairs()["Contractor"] == "Dave Hughes Plumbing").sum()
    ),
    "How many repairs are still open, i.e. with no fixed date yet?": lambda: int(
        repairs()["fixed_dt"].isna().sum()
    ),
    "What was our most expensive repair job? Just the job number please.": lambda: str(
        repairs().loc[repairs()["cost_n"].idxmax(), "Job No."]
    ),
    "how much have we spent on repairs at 14 Elm Road in total": lambda: float(
        repairs().loc[repairs()["Property"] == "14 Elm Road", "cost_n"].sum()
    ),
    "What is the average cost of the urgent jobs?": lambda: round(
        float(repairs().loc[repairs()["Priority"].str.lower() == "urgent", "cost_n"].mean()), 2
    ),
    "how much more did J-115 cost than J-110": lambda: _rep_cost("J-115") - _rep_cost("J-110"),
    "Which jobs were reported in March 2024?": lambda: (
        repairs()
        .loc[(repairs()["reported_dt"].dt.year == 2024) & (repairs()["reported_dt"].dt.month == 3), "Job No."]
        .tolist()
    ),
    "first job reported at 6 Orchard Close?": lambda: _rep_first_at("6 Orchard Close"),
    "Which jobs charged to the tenant cost more than £100?": lambda: (
        repairs()
        .loc[(repairs()["Charged to tenant?"] == "Yes") & (repairs()["cost_n"] > 100), "Job No."]
        .tolist()
    ),
}
