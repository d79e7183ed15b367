"""Reference answers for round-25 tables: car-share trips, yoga attendance, mountain rescue call-outs."""

from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: object) -> float:
    """Parse '£23.60', '-£24.20', '$1,140.00' into a float; blank gives NaN."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return float("nan")
    text = str(value).strip()
    if not text:
        return float("nan")
    negative = text.startswith("-") or text.startswith("(")
    digits = text.replace("£", "").replace("$", "").replace(",", "").strip("-() ")
    number = float(digits)
    return -number if negative else number


def _hmm(value: str) -> int:
    """Parse an h:mm duration into minutes."""
    hours, minutes = str(value).split(":")
    return int(hours) * 60 + int(minutes)


def carshare() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r25_carshare_trips.csv", dtype=str, keep_default_na=False)
    df["start_dt"] = pd.to_datetime(df["Start"], format="%Y-%m-%d %H:%M")
    df["minutes"] = df["Duration"].map(_hmm)
    df["miles_num"] = df["Miles"].astype(float)
    df["charge_num"] = df["Charge"].map(_money)
    df["damage_num"] = df["Damage Fee"].map(_money)
    return df


def yoga() -> pd.DataFrame:
    df = pd.read_excel(DATA / "r25_yoga_attendance.xlsx", dtype={"Date": str, "Revenue": str})
    df["date_dt"] = pd.to_datetime(df["Date"], format="%m/%d/%Y")
    df["revenue_num"] = df["Revenue"].map(_money)
    return df


def rescue() -> pd.DataFrame:
    df = pd.read_json(
        DATA / "r25_rescue_callouts.json", dtype={"grid_ref": str, "date": str}, convert_dates=False
    )
    df["date_dt"] = pd.to_datetime(df["date"], format="%d %B %Y")
    df["altitude_m"] = pd.to_numeric(df["altitude_m"], errors="coerce")
    return df


def _cell(df: pd.DataFrame, mask: pd.Series, column: str) -> object:
    hits = df.loc[mask, column]
    assert len(hits) == 1, hits
    return hits.iloc[0]


def _car_gareth_diff() -> float:
    c = carshare()
    g = c[c["Member"] == "Gareth Lloyd"]
    skoda = _cell(g, g["Car"] == "Skoda Octavia", "charge_num")
    polo = _cell(g, g["Car"] == "VW Polo", "charge_num")
    return round(skoda - polo, 2)


def _car_priya_vs_mei() -> str:
    c = carshare()
    totals = c[c["Member"].isin(["Priya Shah", "Mei Lin"])].groupby("Member")["miles_num"].sum()
    return str(totals.idxmax())


def _yoga_vinyasa_diff() -> float:
    y = yoga()
    v = y[y["Class"] == "Vinyasa Flow"]
    return _cell(v, v["Date"] == "03/25/2024", "revenue_num") - _cell(
        v, v["Date"] == "03/18/2024", "revenue_num"
    )


def _yoga_noshow_either() -> str:
    y = yoga()
    totals = y[y["Class"].isin(["Hatha Basics", "Restorative"])].groupby("Class")["No-shows"].sum()
    return str(totals.idxmax())


def _yoga_before_workshop() -> str:
    y = yoga().reset_index(drop=True)
    idx = y.index[y["Class"].str.contains("Inversions")][0]
    return str(y.loc[idx - 1, "Teacher"])


def _rescue_before_haystacks() -> str:
    r = rescue().reset_index(drop=True)
    idx = r.index[r["location"] == "Haystacks"][0]
    return str(r.loc[idx - 1, "location"])


def _rescue_pillar_vs_swirral() -> str:
    r = rescue()
    pillar = _cell(r, r["location"] == "Pillar", "hours")
    swirral = _cell(r, r["location"].str.contains("Swirral"), "hours")
    return "Pillar" if pillar > swirral else "Helvellyn (Swirral Edge)"


ANSWERS: dict[str, Callable[[], object]] = {
    # car-share trip log
    "What was the charge for trip T-1010?": lambda: _cell(
        carshare(), carshare()["Trip ID"] == "T-1010", "Charge"
    ),
    "how many trips did tom becker take": lambda: int(
        (carshare()["Member"].str.lower() == "tom becker").sum()
    ),
    "How many trips ended up with a damage fee added?": lambda: int(carshare()["damage_num"].notna().sum()),
    "Which trip covered the most miles?": lambda: carshare().sort_values("miles_num").iloc[-1]["Trip ID"],
    "what do the damage fees add up to in total": lambda: float(carshare()["damage_num"].sum()),
    "Which trip ID has a charge below zero on our log?": lambda: _cell(
        carshare(), carshare()["charge_num"] < 0, "Trip ID"
    ),
    "average miles per trip in the Renault Zoe": lambda: round(
        carshare().loc[carshare()["Car"] == "Renault Zoe", "miles_num"].mean(), 2
    ),
    "How many trips began in June 2024?": lambda: int(
        ((carshare()["start_dt"].dt.year == 2024) & (carshare()["start_dt"].dt.month == 6)).sum()
    ),
    "How much more was Gareth Lloyd charged for his Skoda Octavia trip than for his VW Polo trip?": _car_gareth_diff,
    "Who drove more miles in total, Priya Shah or Mei Lin?": _car_priya_vs_mei,
    # yoga studio attendance
    "How many people attended the Power Yoga class on 03/14/2024?": lambda: int(
        _cell(yoga(), (yoga()["Class"] == "Power Yoga") & (yoga()["Date"] == "03/14/2024"), "Attended")
    ),
    "which date had the most no-shows": lambda: yoga().sort_values("No-shows").iloc[-1]["Date"],
    "What was our total revenue from Yin Yoga classes in March 2024?": lambda: float(
        yoga()
        .loc[
            (yoga()["Class"] == "Yin Yoga") & (yoga()["date_dt"].dt.strftime("%Y-%m") == "2024-03"),
            "revenue_num",
        ]
        .sum()
    ),
    "average attendance at Marcus Bell's classes?": lambda: round(
        yoga().loc[yoga()["Teacher"] == "Marcus Bell", "Attended"].mean(), 2
    ),
    "How many classes have the waitlist column left blank?": lambda: int(yoga()["Waitlist"].isna().sum()),
    "On which dates did attendance go above 20 people?": lambda: (
        yoga().loc[yoga()["Attended"] > 20, "Date"].tolist()
    ),
    "How much more revenue did Vinyasa Flow bring in on 03/25/2024 than on 03/18/2024?": _yoga_vinyasa_diff,
    "Which had more no-shows overall, Hatha Basics or Restorative?": _yoga_noshow_either,
    "who taught the class listed just before the inversions workshop": _yoga_before_workshop,
    "How many classes did we run in April 2024?": lambda: int(
        (yoga()["date_dt"].dt.strftime("%Y-%m") == "2024-04").sum()
    ),
    # mountain rescue call-outs
    "What was the grid reference for incident MR24-010?": lambda: _cell(
        rescue(), rescue()["incident_no"] == "MR24-010", "grid_ref"
    ),
    "how many callouts ended in a fatality": lambda: int((rescue()["casualty_outcome"] == "Fatality").sum()),
    "Which incident was at the highest altitude?": lambda: rescue().loc[
        rescue()["altitude_m"].idxmax(), "incident_no"
    ],
    "If we add up the hours of every call-out, what's the total?": lambda: float(rescue()["hours"].sum()),
    "On average, how many team members were deployed per call-out?": lambda: round(
        float(rescue()["team_deployed"].mean()), 2
    ),
    "How many call-outs were above 800 metres?": lambda: int((rescue()["altitude_m"] > 800).sum()),
    "which incidents happened in february 2024": lambda: (
        rescue().loc[rescue()["date_dt"].dt.strftime("%Y-%m") == "2024-02", "incident_no"].tolist()
    ),
    "What was the location of the call-out listed immediately before the Haystacks one?": _rescue_before_haystacks,
    "When was our most recent call-out?": lambda: rescue().sort_values("date_dt").iloc[-1]["date"],
    "Which needed more hours, the Pillar call-out or the Helvellyn Swirral Edge one?": _rescue_pillar_vs_swirral,
}
