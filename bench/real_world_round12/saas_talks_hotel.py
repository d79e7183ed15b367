"""Reference answers (pandas) for round-12 questions on the SaaS, conference-talk and hotel tables."""

from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(text: object) -> float:
    """Parse '$1.2k', '$480', ' $1,050 ' into dollars."""
    s = str(text).strip().replace("$", "").replace(",", "").lower()
    mult = 1.0
    if s.endswith("k"):
        mult, s = 1000.0, s[:-1]
    return float(s) * mult


def _minutes(hhmm: str) -> int:
    """'9:00' or '14:30' -> minutes after midnight."""
    h, m = str(hhmm).strip().split(":")
    return int(h) * 60 + int(m)


def saas() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r12_saas_subscriptions.csv", dtype=str, keep_default_na=False)
    df["mrr_usd"] = df["MRR"].map(_money)
    df["start"] = pd.to_datetime(df["Start Date"], format="%Y-%m-%d")
    df["churned"] = df["Churn Date"].str.strip() != ""
    df["seats"] = df["Seats"].astype(int)
    return df


def talks() -> pd.DataFrame:
    df = pd.read_json(REAL / "r12_conference_talks.json", orient="records", dtype=False)
    df["start_min"] = df["Start"].map(_minutes)
    df["end_min"] = df["End"].map(_minutes)
    df["length"] = df["end_min"] - df["start_min"]
    df["speakers"] = df["Speaker"].str.split(" & ")
    return df


def hotel() -> pd.DataFrame:
    df = pd.read_parquet(REAL / "r12_hotel_occupancy.parquet")
    df["checkin"] = pd.to_datetime(df["Check-in"], format="%Y-%m-%d")
    return df


def _one(series: pd.Series) -> str:
    assert len(series) == 1, f"expected one row, got {len(series)}"
    return str(series.iloc[0])


def _argmax_unique(df: pd.DataFrame, col: str, out: str, largest: bool = True) -> str:
    best = df[col].max() if largest else df[col].min()
    return _one(df.loc[df[col] == best, out])


def _saas_value(name: str, col: str) -> float:
    d = saas()
    return float(d.loc[d["Customer"] == name, col].iloc[0])


def _room_a_after(title: str) -> str:
    t = talks()
    t["day_n"] = t["Day"].map({"Thursday": 0, "Friday": 1})
    a = t[t["Room"] == "Room A"].sort_values(["day_n", "start_min"], kind="stable").reset_index(drop=True)
    i = a.index[a["Title"] == title][0]
    return str(a.loc[i + 1, "Title"])


def _talk_count(person: str) -> int:
    return int(talks()["speakers"].map(lambda s: person in s).sum())


def _room101_before(surname: str) -> str:
    h = hotel()
    r = h[h["Room"] == "101"].sort_values("checkin").reset_index(drop=True)
    i = r.index[r["Guest"].str.startswith(surname + ",")][0]
    return str(r.loc[i - 1, "Guest"])


ANSWERS: dict[str, Callable[[], object]] = {
    # --- r12_saas_subscriptions.csv ---
    "What plan is Kestrel Logistics on?": lambda: _one(
        saas().query("Customer == 'Kestrel Logistics'")["Plan"]
    ),
    "how many customers are on the Starter plan": lambda: int((saas()["Plan"] == "Starter").sum()),
    "How many of our active customers (no churn date) have more than 20 seats?": lambda: int(
        ((~saas()["churned"]) & (saas()["seats"] > 20)).sum()
    ),
    "Which customer has the highest MRR?": lambda: _argmax_unique(saas(), "mrr_usd", "Customer"),
    "what's our total MRR from customers who haven't churned": lambda: float(
        saas().loc[lambda d: ~d["churned"], "mrr_usd"].sum()
    ),
    "Average seats per Enterprise customer?": lambda: round(
        float(saas().loc[lambda d: d["Plan"] == "Enterprise", "seats"].mean()), 2
    ),
    "How much more MRR does Corbel Legal bring in than Fathom Analytics?": lambda: (
        _saas_value("Corbel Legal", "mrr_usd") - _saas_value("Fathom Analytics", "mrr_usd")
    ),
    "Which customers started between January and March 2024?": lambda: (
        saas().loc[lambda d: d["start"].between("2024-01-01", "2024-03-31"), "Customer"].tolist()
    ),
    "who was our earliest customer by start date": lambda: _argmax_unique(
        saas(), "start", "Customer", largest=False
    ),
    "Which has more seats, Harbor & Pine or Northgate Realty?": lambda: (
        "Harbor & Pine"
        if _saas_value("Harbor & Pine", "seats") > _saas_value("Northgate Realty", "seats")
        else "Northgate Realty"
    ),
    # --- r12_conference_talks.json ---
    "What room is Vector Search Demystified in?": lambda: _one(
        talks().loc[lambda d: d["Title"] == "Vector Search Demystified", "Room"]
    ),
    "how many talks are in the UX track": lambda: int((talks()["Track"] == "UX").sum()),
    "How many talks have two speakers?": lambda: int((talks()["speakers"].map(len) == 2).sum()),
    "Which talk runs the longest?": lambda: _argmax_unique(talks(), "length", "Title"),
    "In Room A, what talk follows Feature Flags at Scale?": lambda: _room_a_after("Feature Flags at Scale"),
    "what is the last talk on friday": lambda: _argmax_unique(
        talks().loc[lambda d: d["Day"] == "Friday"], "start_min", "Title"
    ),
    "average length of a Data Engineering talk in minutes": lambda: round(
        float(talks().loc[lambda d: d["Track"] == "Data Engineering", "length"].mean()), 2
    ),
    "How many minutes of DevOps talks are there in total?": lambda: int(
        talks().loc[lambda d: d["Track"] == "DevOps", "length"].sum()
    ),
    "Which talks start after 13:00 on Thursday?": lambda: (
        talks()
        .loc[lambda d: (d["Day"] == "Thursday") & (d["start_min"] > _minutes("13:00")), "Title"]
        .tolist()
    ),
    "Counting co-presented sessions, who is speaking in more talks, Hana Sato or Amara Okafor?": lambda: (
        "Hana Sato" if _talk_count("Hana Sato") > _talk_count("Amara Okafor") else "Amara Okafor"
    ),
    # --- r12_hotel_occupancy.parquet ---
    "What room was Kowalski in?": lambda: _one(
        hotel().loc[lambda d: d["Guest"].str.startswith("Kowalski,"), "Room"]
    ),
    "Which bookings had a nightly rate above $120 for a Standard room (Queen or Twin)?": lambda: (
        hotel()
        .loc[lambda d: d["Room Type"].str.startswith("Standard") & (d["Nightly Rate"] > 120), "Booking ID"]
        .tolist()
    ),
    "how many stays have no guest rating": lambda: int(hotel()["Guest Rating"].isna().sum()),
    "Which booking got the biggest discount?": lambda: _argmax_unique(
        hotel().loc[lambda d: d["Adjustment"] < 0], "Adjustment", "Booking ID", largest=False
    ),
    "Which guest gave us the highest rating?": lambda: _argmax_unique(hotel(), "Guest Rating", "Guest"),
    "average guest rating ignoring the blanks": lambda: round(
        float(hotel()["Guest Rating"].dropna().mean()), 2
    ),
    "What was the total room revenue (nights times nightly rate) for Suite stays, before adjustments?": lambda: (
        float(hotel().loc[lambda d: d["Room Type"] == "Suite"].eval("Nights * `Nightly Rate`").sum())
    ),
    "How much higher was the nightly rate for BK-1015 than for BK-1007?": lambda: float(
        hotel().set_index("Booking ID").loc["BK-1015", "Nightly Rate"]
        - hotel().set_index("Booking ID").loc["BK-1007", "Nightly Rate"]
    ),
    "Which bookings checked in during April 2024?": lambda: (
        hotel()
        .loc[lambda d: (d["checkin"].dt.year == 2024) & (d["checkin"].dt.month == 4), "Booking ID"]
        .tolist()
    ),
    "Who stayed in room 101 right before Dubois?": lambda: _room101_before("Dubois"),
}
