"""Independent pandas answers for round 26 (food truck sales, youth football registrations, A&E waits)."""

from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def money(value: object) -> float:
    """Parse '$1,204.50', '-$15.00', '£85.00' or '-£10.00'; blank gives NaN."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return float("nan")
    text = str(value).strip()
    if not text or text.lower() == "nan":
        return float("nan")
    sign = -1.0 if text.startswith("-") else 1.0
    digits = text.lstrip("+-").replace("$", "").replace("£", "").replace(",", "")
    return sign * float(digits)


def number(value: object) -> float:
    """Parse '12,345', '71.2%', '+2.3', '-3.4'; 'n/a' or blank gives NaN."""
    text = str(value).strip()
    if not text or text.lower() in {"n/a", "nan"}:
        return float("nan")
    return float(text.replace(",", "").replace("%", "").replace("+", ""))


def truck() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r26_foodtruck_daily_sales.csv", dtype=str, keep_default_na=False)
    df["date"] = pd.to_datetime(df["Date"], format="%Y-%m-%d")
    df["covers"] = df["Covers"].map(number)
    df["takings"] = df["Takings"].map(money)
    df["card"] = df["Card Share"].map(number)
    df["refunds"] = df["Refunds"].map(money)
    return df


def youth() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r26_youth_fc_registrations.xlsx", dtype=str)
    df["dob"] = pd.to_datetime(df["DOB"], format="%d/%m/%Y")
    df["registered"] = pd.to_datetime(df["Registered On"], format="%d/%m/%Y")
    df["fee"] = df["Fee Paid"].map(money)
    return df


def ae() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r26_ae_waiting_times.tsv", sep="\t", dtype=str, keep_default_na=False)
    df["month"] = pd.to_datetime(df["Month"], format="%b-%y")
    df["attend"] = df["Attendances"].map(number)
    df["within4"] = df["Seen within 4 hrs"].map(number)
    df["change"] = df["Change vs last year (pts)"].map(number)
    df["waits12"] = df["12-hour waits"].map(number)
    return df


def _truck_on(day: str) -> pd.Series:
    df = truck()
    return df[df["Date"] == day].iloc[0]


def _truck_after_closed() -> str:
    df = truck().sort_values("date").reset_index(drop=True)
    closed = df.index[df["Notes"].str.contains("generator", case=False)][0]
    return df.loc[closed + 1, "Pitch"]


def _youth_after(name: str) -> str:
    df = youth()
    pos = df.index[df["Player"] == name][0]
    return df.loc[pos + 1, "Player"]


def _ae_row(month: str, trust: str) -> pd.Series:
    df = ae()
    return df[(df["Month"] == month) & (df["Trust"] == trust)].iloc[0]


NG = "Northgate Hospitals NHS Trust"
SV = "Severn Vale University Hospitals"
KM = "Kingsmere & District NHS FT"


def _either(month: str, col: str, a: str, b: str) -> str:
    return a if _ae_row(month, a)[col] > _ae_row(month, b)[col] else b


ANSWERS: dict[str, Callable[[], object]] = {
    # food truck
    "What were the takings on 2024-09-13?": lambda: _truck_on("2024-09-13")["Takings"],
    "how many days were we parked at Tech Park": lambda: int((truck()["Pitch"] == "Tech Park").sum()),
    "Which day did we serve the most covers?": lambda: truck().loc[truck()["covers"].idxmax(), "Date"],
    "what do our refunds add up to over the whole log": lambda: round(float(truck()["refunds"].sum()), 2),
    "On how many days was the card share above 70%?": lambda: int((truck()["card"] > 70).sum()),
    "What's the average number of covers on days when the weather was Sunny?": lambda: round(
        float(truck().loc[truck()["Weather"] == "Sunny", "covers"].mean()), 2
    ),
    "Which day took more money, 2024-09-05 or 2024-09-17?": lambda: (
        "2024-09-05"
        if _truck_on("2024-09-05")["takings"] > _truck_on("2024-09-17")["takings"]
        else "2024-09-17"
    ),
    "we had to close one day because of the generator - where was the truck parked the day after that?": (
        _truck_after_closed
    ),
    "How much more did we take on 2024-09-07 than on 2024-09-08?": lambda: round(
        float(_truck_on("2024-09-07")["takings"] - _truck_on("2024-09-08")["takings"]), 2
    ),
    "last date where the weather is logged as Rain": lambda: (
        truck().loc[truck()["Weather"] == "Rain"].sort_values("date").iloc[-1]["Date"]
    ),
    # youth football club
    "What kit size does Zara Ahmed need?": lambda: youth().set_index("Player").loc["Zara Ahmed", "Kit Size"],
    "how many players are in the U13 age group": lambda: int((youth()["Age Group"] == "U13").sum()),
    "How many of our registered players have nothing written in the medical notes column?": lambda: int(
        youth()["Medical Notes"].fillna("").str.strip().eq("").sum()
    ),
    "what's the total of fees paid across all registrations": lambda: round(float(youth()["fee"].sum()), 2),
    "Who is the oldest player registered with the club?": lambda: youth().loc[
        youth()["dob"].idxmin(), "Player"
    ],
    "Which players registered in September 2024?": lambda: (
        youth()
        .loc[lambda d: (d["registered"].dt.year == 2024) & (d["registered"].dt.month == 9), "Player"]
        .tolist()
    ),
    "who is listed right after Jacob Hughes": lambda: _youth_after("Jacob Hughes"),
    "What is the average fee paid by U15 players?": lambda: round(
        float(youth().loc[youth()["Age Group"] == "U15", "fee"].mean()), 2
    ),
    "Which players were born before 1 January 2010?": lambda: (
        youth().loc[lambda d: d["dob"] < pd.Timestamp("2010-01-01"), "Player"].tolist()
    ),
    "Who has paid more so far, Harvey Singh or Max Fischer?": lambda: (
        youth().set_index("Player").loc[["Harvey Singh", "Max Fischer"], "fee"].idxmax()
    ),
    # A&E waiting times
    "What share of patients did Severn Vale University Hospitals see within 4 hours in Apr-24?": lambda: (
        _ae_row("Apr-24", SV)["Seen within 4 hrs"]
    ),
    "how many rows are there for Northgate Hospitals NHS Trust": lambda: int((ae()["Trust"] == NG).sum()),
    "In how many trust-months was the share seen within 4 hours at least 75%?": lambda: int(
        (ae()["within4"] >= 75).sum()
    ),
    "In which month did Severn Vale University Hospitals have its biggest fall compared with last year?": lambda: (
        ae().loc[lambda d: (d["Trust"] == SV) & (d["change"] < 0)].sort_values("change").iloc[0]["Month"]
    ),
    "which month did Kingsmere & District NHS FT have the fewest 12-hour waits": lambda: (
        ae()
        .loc[lambda d: d["Trust"] == KM]
        .dropna(subset=["waits12"])
        .sort_values("waits12")
        .iloc[0]["Month"]
    ),
    "What were Northgate Hospitals NHS Trust's total attendances over all the months shown?": lambda: int(
        ae().loc[ae()["Trust"] == NG, "attend"].sum()
    ),
    "Across the months it reported, what was Kingsmere & District NHS FT's average share seen within 4 hours?": (
        lambda: round(float(ae().loc[ae()["Trust"] == KM, "within4"].dropna().mean()), 2)
    ),
    "How many more attendances did Northgate Hospitals NHS Trust have than Severn Vale University Hospitals in "
    "Jul-24?": lambda: int(_ae_row("Jul-24", NG)["attend"] - _ae_row("Jul-24", SV)["attend"]),
    "Which had more 12-hour waits in May-24, Northgate Hospitals NHS Trust or Severn Vale University Hospitals?": (
        lambda: _either("May-24", "waits12", NG, SV)
    ),
    "total 12-hour waits at Severn Vale University Hospitals from Apr-24 to Jun-24 inclusive": lambda: int(
        ae()
        .loc[
            lambda d: (
                (d["Trust"] == SV)
                & (d["month"] >= pd.Timestamp("2024-04-01"))
                & (d["month"] <= pd.Timestamp("2024-06-30"))
            ),
            "waits12",
        ]
        .sum()
    ),
}
