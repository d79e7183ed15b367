"""Round 14 (w69): pandas answers for the dog-walk, bike-repair and pool-attendance tables."""

import re
from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _clock_minutes(text: str) -> int:
    """Minutes after midnight for '7:30am', '5:45pm' or '13:15'."""
    m = re.fullmatch(r"\s*(\d{1,2}):(\d{2})\s*([ap]m)?\s*", text.lower())
    if m is None:
        raise ValueError(f"bad time: {text!r}")
    hour, minute, half = int(m.group(1)), int(m.group(2)), m.group(3)
    if half == "pm" and hour != 12:
        hour += 12
    if half == "am" and hour == 12:
        hour = 0
    return hour * 60 + minute


def _duration_minutes(text: str) -> float:
    """Minutes for '45 min', '1 hr', '1.5 hr'."""
    m = re.fullmatch(r"\s*([\d.]+)\s*(min|hr)s?\s*", text.lower())
    if m is None:
        raise ValueError(f"bad duration: {text!r}")
    value = float(m.group(1))
    return value * 60 if m.group(2) == "hr" else value


def _dollars(text: str) -> float:
    return float(text.replace("$", "").replace(",", "").strip())


def _euros_comma(text: str) -> float:
    """'€1.234,90' or '€34,90' -> float (comma is the decimal mark for the whole column)."""
    return float(text.replace("€", "").replace(".", "").replace(",", ".").strip())


def dogs() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r14_dog_walks.csv", dtype=str, keep_default_na=False)
    df["start_min"] = df["Start"].map(_clock_minutes)
    df["minutes"] = df["Duration"].map(_duration_minutes)
    df["price"] = df["Price"].map(_dollars)
    return df


def bikes() -> pd.DataFrame:
    df = pd.read_json(REAL / "r14_bike_repairs.jsonl", lines=True, dtype={"parts_cost": str})
    df["parts"] = df["parts_cost"].map(_euros_comma)
    df["received_dt"] = pd.to_datetime(df["received"], format="%Y-%m-%d")
    df["done_dt"] = pd.to_datetime(df["done"], format="%Y-%m-%d")
    return df


def pool() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r14_pool_attendance.xlsx", engine="openpyxl")
    df["Date"] = pd.to_datetime(df["Date"])
    df["water"] = df["Water temp"].str.replace("°C", "", regex=False).astype(float)
    df["is_closed"] = df["Closed"].fillna("").astype(str).str.strip().str.lower().eq("yes")
    return df


def _ymd(value: pd.Timestamp) -> str:
    return value.strftime("%Y-%m-%d")


def _dog_row_after(dog: str, day: str) -> str:
    df = dogs()
    idx = df.index[(df["Dog"] == dog) & (df["Day"] == day)]
    return str(df.loc[idx[0] + 1, "Dog"])


def _owner_total(owner: str) -> float:
    df = dogs()
    return float(df.loc[df["Owner"] == owner, "price"].sum())


def _pool_day_after(remark: str) -> str:
    df = pool()
    pos = df.index[df["Remarks"].fillna("").str.contains(remark)][0]
    return str(df.loc[pos + 1, "Water temp"])


def _weekday_adults(day: str) -> float:
    df = pool()
    return float(df.loc[df["Weekday"] == day, "Adults"].sum())


ANSWERS: dict[str, Callable[[], object]] = {
    # --- dog walks (CSV) ---
    "What time does Rufus start on Thursday?": lambda: (
        dogs().query("Dog == 'Rufus' and Day == 'Thu'")["Start"].iloc[0]
    ),
    "how many bookings does Biscuit have this week": lambda: int((dogs()["Dog"] == "Biscuit").sum()),
    "How many bookings have nothing in the Notes column?": lambda: int(
        (dogs()["Notes"].str.strip() == "").sum()
    ),
    "Which dog has the single longest walk booked?": lambda: dogs().loc[dogs()["minutes"].idxmax(), "Dog"],
    "what's our total takings for the week": lambda: float(dogs()["price"].sum()),
    "What is the average walk length in minutes across all bookings?": lambda: round(
        dogs()["minutes"].mean(), 2
    ),
    "which dog gets the last walk on friday": lambda: (
        dogs().query("Day == 'Fri'").sort_values("start_min")["Dog"].iloc[-1]
    ),
    "Which dog is booked right after Mochi's Tuesday walk?": lambda: _dog_row_after("Mochi", "Tue"),
    "Which owner paid us more in total this week, Okafor or Brennan?": lambda: (
        "Okafor" if _owner_total("Okafor") > _owner_total("Brennan") else "Brennan"
    ),
    "List the booking numbers that cost more than $25": lambda: (
        dogs().loc[dogs()["price"] > 25, "Booking"].tolist()
    ),
    # --- bike repairs (JSONL) ---
    "What is the status of job R-2291?": lambda: bikes().set_index("job").loc["R-2291", "status"],
    "how many jobs are waiting parts": lambda: int((bikes()["status"] == "waiting parts").sum()),
    "How many repair jobs took 2 or more labour hours?": lambda: int((bikes()["labour_hours"] >= 2).sum()),
    "Which job had the most expensive parts?": lambda: bikes().loc[bikes()["parts"].idxmax(), "job"],
    "total parts cost across all jobs?": lambda: round(float(bikes()["parts"].sum()), 2),
    "What's the average number of labour hours we spend on a Trek?": lambda: round(
        bikes().loc[bikes()["brand"] == "Trek", "labour_hours"].mean(), 2
    ),
    "Which jobs did we receive in April 2024?": lambda: (
        bikes().loc[bikes()["received_dt"].dt.to_period("M") == pd.Period("2024-04", "M"), "job"].tolist()
    ),
    "How much more were the parts on R-2286 than on R-2293?": lambda: round(
        float(
            bikes().set_index("job").loc["R-2286", "parts"] - bikes().set_index("job").loc["R-2293", "parts"]
        ),
        2,
    ),
    "what brand is the job listed right after R-2295": lambda: bikes()["brand"].iloc[
        int(bikes().index[bikes()["job"] == "R-2295"][0]) + 1
    ],
    "Which job was finished most recently according to the done dates?": lambda: bikes().loc[
        bikes()["done_dt"].idxmax(), "job"
    ],
    # --- pool attendance (XLSX) ---
    "How many children came on 12 July 2024?": lambda: int(
        pool().loc[pool()["Date"] == pd.Timestamp("2024-07-12"), "Children"].iloc[0]
    ),
    "how many days was the pool closed": lambda: int(pool()["is_closed"].sum()),
    "On how many open days was the water colder than 26.5°C?": lambda: int(
        ((~pool()["is_closed"]) & (pool()["water"] < 26.5)).sum()
    ),
    "Which date had the most adults?": lambda: _ymd(pool().loc[pool()["Adults"].idxmax(), "Date"]),
    "total number of children over the whole period": lambda: int(pool()["Children"].sum()),
    "What was the average number of adults per day, counting only days the pool was open?": lambda: round(
        float(pool().loc[~pool()["is_closed"], "Adults"].mean()), 2
    ),
    "In July, on how many days did we get more than 200 children?": lambda: int(
        ((pool()["Date"].dt.month == 7) & (pool()["Children"] > 200)).sum()
    ),
    "On how many days were we down compared to 2023?": lambda: int((pool()["vs 2023"] < 0).sum()),
    "Which weekday brought in more adults in total, Saturday or Sunday?": lambda: (
        "Saturday" if _weekday_adults("Saturday") > _weekday_adults("Sunday") else "Sunday"
    ),
    "what was the water temperature the day after the thunderstorm closure": lambda: _pool_day_after(
        "thunderstorm"
    ),
}
