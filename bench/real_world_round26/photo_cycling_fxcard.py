"""Round 26 (w118) answers: wedding photo bookings, club road race results, travel card FX transactions."""

from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: object) -> float:
    """Parse '£2,150.00', '-£150.00', '£15' into a float; blank/None gives NaN."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return float("nan")
    text = str(value).strip().replace(",", "").replace("£", "")
    return float(text) if text else float("nan")


def _hms(value: object) -> float:
    """Parse 'H:MM:SS' (or 'M:SS') into seconds; blank gives NaN."""
    if value is None or (isinstance(value, float) and pd.isna(value)) or not str(value).strip():
        return float("nan")
    seconds = 0
    for part in str(value).strip().split(":"):
        seconds = seconds * 60 + int(part)
    return float(seconds)


def weddings() -> pd.DataFrame:
    df = pd.read_json(REAL / "r26_wedding_bookings.json", dtype=False)
    df["date"] = pd.to_datetime(df["shoot_date"], format="%B %d, %Y")
    df["hours"] = pd.to_numeric(df["hours_covered"], errors="coerce")
    for col in ("quote", "deposit_paid", "balance_due"):
        df[col + "_n"] = df[col].map(_money)
    return df


def race() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r26_club_road_race.csv", dtype=str, keep_default_na=False)
    df = df.apply(lambda s: s.str.strip())
    df["pos_n"] = pd.to_numeric(df["Pos"], errors="coerce")
    df["secs"] = df["Time"].map(_hms)
    df["points_n"] = pd.to_numeric(df["Points"], errors="coerce")
    df["primes_n"] = df["Primes"].map(_money)
    return df


def fxcard() -> pd.DataFrame:
    df = pd.read_parquet(REAL / "r26_travel_card_fx.parquet")
    df["when"] = pd.to_datetime(df["Txn Date/Time"], format="%Y-%m-%dT%H:%M")
    df["gbp"] = df["Amount (GBP)"].astype(float)
    df["local"] = df["Local Amount"].str.split(" ", n=1).str[1].str.replace(",", "").astype(float)
    return df.sort_values("when", kind="stable").reset_index(drop=True)


def _w_row(col: str, value: str) -> pd.Series:
    df = weddings()
    return df[df[col] == value].iloc[0]


def _r_row(rider: str) -> pd.Series:
    df = race()
    return df[df["Rider"].str.lower() == rider.lower()].iloc[0]


def _w_after(couple: str) -> str:
    df = weddings()
    idx = df.index[df["couple"] == couple][0]
    return df.loc[idx + 1, "shoot_date"]


def _r_after(rider: str) -> str:
    df = race()
    pos = _r_row(rider)["pos_n"]
    return df[df["pos_n"] == pos + 1].iloc[0]["Rider"]


def _finishers() -> pd.DataFrame:
    df = race()
    return df[df["pos_n"].notna()].sort_values("pos_n")


ANSWERS: dict[str, Callable[[], object]] = {
    # wedding bookings (JSON)
    "What venue is booking WB-2508 at?": lambda: _w_row("booking_id", "WB-2508")["venue"],
    "how many of our bookings are at Hawkstone Hall": lambda: int(
        (weddings()["venue"].str.strip() == "Hawkstone Hall").sum()
    ),
    "What is the total of all the quotes across every booking?": lambda: float(weddings()["quote_n"].sum()),
    "which bookings are in credit, i.e. the balance due is negative? give the booking ids": lambda: (
        weddings().query("balance_due_n < 0")["booking_id"].tolist()
    ),
    "Which couples have their shoot in June 2025?": lambda: (
        weddings()
        .loc[lambda d: (d["date"].dt.year == 2025) & (d["date"].dt.month == 6)]
        .sort_values("date")["couple"]
        .tolist()
    ),
    "Which couple has the highest quote?": lambda: (
        weddings().sort_values("quote_n", ascending=False).iloc[0]["couple"]
    ),
    "what's the average number of hours covered, counting only bookings where the hours are filled in": lambda: (
        round(float(weddings()["hours"].dropna().mean()), 2)
    ),
    "How many bookings have no deposit paid recorded at all?": lambda: int(
        weddings()["deposit_paid_n"].isna().sum()
    ),
    "We've got Megan Doyle & Chris Lam in the list - what's the shoot date of the booking that comes right after theirs?": (
        lambda: _w_after("Megan Doyle & Chris Lam")
    ),
    "Who was quoted more, Priya Nair & Daniel Okafor or Sofia Rossi & James Pike?": lambda: max(
        ["Priya Nair & Daniel Okafor", "Sofia Rossi & James Pike"],
        key=lambda c: _w_row("couple", c)["quote_n"],
    ),
    # club road race (CSV)
    "What was Callum Price's finish time?": lambda: _r_row("Callum Price")["Time"],
    "how many riders DNF'd": lambda: int((race()["Pos"].str.upper() == "DNF").sum()),
    "How many finishers came in more than 5 minutes behind the winner?": lambda: int(
        ((_finishers()["secs"] - _finishers()["secs"].min()) > 300).sum()
    ),
    "total prime money paid out in the race": lambda: float(race()["primes_n"].sum()),
    "Which club scored the most points in total?": lambda: race().groupby("Club")["points_n"].sum().idxmax(),
    "By how many seconds was Jonny Hale slower than Callum Price?": lambda: float(
        _r_row("Jonny Hale")["secs"] - _r_row("Callum Price")["secs"]
    ),
    "who finished directly behind declan moss": lambda: _r_after("declan moss"),
    "Who was the last rider to be classified as a finisher?": lambda: _finishers().iloc[-1]["Rider"],
    "Who scored more points, Owen Lloyd or Luke Barton?": lambda: max(
        ["Owen Lloyd", "Luke Barton"], key=lambda r: _r_row(r)["points_n"]
    ),
    "Which riders finished in a time under 2 hours 42 minutes? list them in finishing order": lambda: (
        _finishers().loc[lambda d: d["secs"] < _hms("2:42:00"), "Rider"].tolist()
    ),
    # travel card FX (Parquet)
    "What was the GBP amount of the JR East transaction?": lambda: float(
        fxcard().loc[lambda d: d["Merchant"] == "JR East", "gbp"].iloc[0]
    ),
    "how many transactions were made in Japan": lambda: int((fxcard()["Country"] == "Japan").sum()),
    "How many of the transactions are refunds, shown as negative amounts?": lambda: int(
        (fxcard()["gbp"] < 0).sum()
    ),
    "What did we pay in non-sterling fees altogether?": lambda: round(
        float(fxcard()["Non-Sterling Fee"].sum()), 2
    ),
    "Which merchant had the single biggest purchase in GBP?": lambda: (
        fxcard().sort_values("gbp").iloc[-1]["Merchant"]
    ),
    "Which merchants did we pay between June 21 and June 23, 2024 inclusive? in date order please": lambda: (
        fxcard()
        .loc[lambda d: (d["when"] >= "2024-06-21") & (d["when"] < "2024-06-24") & (d["gbp"] > 0), "Merchant"]
        .tolist()
    ),
    "what was the earliest transaction in the United States? merchant name": lambda: (
        fxcard().loc[lambda d: d["Country"] == "United States"].sort_values("when").iloc[0]["Merchant"]
    ),
    "Average GBP amount of our card transactions in Spain?": lambda: round(
        float(fxcard().loc[lambda d: d["Country"] == "Spain", "gbp"].mean()), 2
    ),
    "How much more in GBP was the Yodobashi Camera purchase than the Gion Karyo one?": lambda: round(
        float(
            fxcard().loc[lambda d: (d["Merchant"] == "Yodobashi Camera") & (d["gbp"] > 0), "gbp"].iloc[0]
            - fxcard().loc[lambda d: d["Merchant"] == "Gion Karyo", "gbp"].iloc[0]
        ),
        2,
    ),
    "how many transactions were over £50": lambda: int((fxcard()["gbp"] > 50).sum()),
}
