"""Hand-checked answers for round-25 taproom kegs, tennis bookings and planning applications."""

from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: object) -> float:
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return 0.0
    text = str(value).strip().replace("£", "").replace(",", "")
    return float(text) if text else 0.0


def kegs() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r25_taproom_kegs.csv", dtype=str, keep_default_na=False)
    df["abv_num"] = df["ABV"].str.rstrip("%").astype(float)
    df["tapped_dt"] = pd.to_datetime(df["Tapped"].replace("", None), format="%d/%m/%Y")
    df["pints"] = df["Pints Poured"].astype(int)
    df["waste"] = df["Wastage (L)"].astype(float)
    df["adj"] = df["Stock Adj"].str.replace("+", "", regex=False).astype(int)
    return df


def tennis() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r25_tennis_bookings.xlsx", dtype=str)
    df["date_dt"] = pd.to_datetime(df["Date"], format="%a %d %b %Y")
    df["start_dt"] = pd.to_datetime(df["Start"], format="%H:%M")
    df["end_dt"] = pd.to_datetime(df["End"], format="%H:%M")
    df["fee"] = df["Court Fee"].map(_money)
    df["flood"] = df["Floodlight Surcharge"].map(_money)
    df["total"] = df["Total"].map(_money)
    return df


def planning() -> pd.DataFrame:
    df = pd.read_json(REAL / "r25_planning_applications.json", dtype=False)
    df["received_dt"] = pd.to_datetime(df["received"], format="%Y-%m-%d")
    df["decided_dt"] = pd.to_datetime(df["decision_date"], format="%Y-%m-%d")
    return df


def _either(df: pd.DataFrame, key: str, a: str, b: str, val: str) -> str:
    sa = df.loc[df[key] == a, val].sum()
    sb = df.loc[df[key] == b, val].sum()
    return a if sa > sb else b


def _tapped_nov() -> int:
    k = kegs()
    return int(((k["tapped_dt"].dt.year == 2024) & (k["tapped_dt"].dt.month == 11)).sum())


def _prev_booking(ref: str) -> str:
    t = tennis()
    idx = t.index[t["Booking Ref"] == ref][0]
    return t.loc[idx - 1, "Booking Ref"]


def _longest() -> str:
    t = tennis()
    return t.loc[(t["end_dt"] - t["start_dt"]).idxmax(), "Booking Ref"]


def _tennis_range() -> int:
    t = tennis()
    return int(t["date_dt"].between(pd.Timestamp("2024-10-19"), pd.Timestamp("2024-10-26")).sum())


def _ward_more(a: str, b: str) -> str:
    counts = planning()["ward"].value_counts()
    return a if counts.get(a, 0) > counts.get(b, 0) else b


def _objection_diff() -> int:
    p = planning()
    depot = p.loc[p["site_address"].str.startswith("Former Bus Depot"), "objections"].iloc[0]
    crown = p.loc[p["site_address"].str.startswith("The Crown Inn"), "objections"].iloc[0]
    return int(depot - crown)


def _decided_oct() -> list[str]:
    p = planning()
    mask = (p["decided_dt"].dt.year == 2024) & (p["decided_dt"].dt.month == 10)
    return p.loc[mask, "reference"].tolist()


ANSWERS: dict[str, Callable[[], object]] = {
    # taproom kegs
    "What ABV is the Tidewater DIPA?": lambda: kegs().set_index("Beer").loc["Tidewater DIPA", "ABV"],
    "how many kegs of Dune Lager are on the list": lambda: int((kegs()["Beer"] == "Dune Lager").sum()),
    "How many of our kegs are still sealed, i.e. have no tapped date?": lambda: int(
        kegs()["tapped_dt"].isna().sum()
    ),
    "Which beer had the highest wastage from a single keg?": lambda: (
        kegs().sort_values("waste").iloc[-1]["Beer"]
    ),
    "list the keg IDs where the stock adjustment was negative": lambda: (
        kegs().query("adj < 0")["Keg ID"].tolist()
    ),
    "How many kegs were tapped during November 2024?": _tapped_nov,
    "Which keg ID was the first to be tapped?": lambda: kegs().sort_values("tapped_dt").iloc[0]["Keg ID"],
    "on average how many pints did each tapped keg pour": lambda: round(
        kegs().dropna(subset=["tapped_dt"])["pints"].mean(), 2
    ),
    "Did K-105 or K-110 pour more pints?": lambda: _either(kegs(), "Keg ID", "K-105", "K-110", "pints"),
    "Which keg IDs have an ABV above 6%?": lambda: kegs().query("abv_num > 6")["Keg ID"].tolist(),
    # tennis bookings
    "What court was booking BK-2052 on?": lambda: tennis().set_index("Booking Ref").loc["BK-2052", "Court"],
    "how many bookings were there for Court 1": lambda: int((tennis()["Court"] == "Court 1").sum()),
    "What do our floodlight surcharges add up to in total?": lambda: round(tennis()["flood"].sum(), 2),
    "If we add up the Total column including the refund, what's the net figure?": lambda: round(
        tennis()["total"].sum(), 2
    ),
    "What is the average court fee for bookings marked Played?": lambda: round(
        tennis().query("Status == 'Played'")["fee"].mean(), 2
    ),
    "Which booking ref was the longest session on court?": _longest,
    "what booking ref comes just before BK-2050 in the list": lambda: _prev_booking("BK-2050"),
    "How many bookings fall between Sat 19 Oct 2024 and Sat 26 Oct 2024, both days included?": _tennis_range,
    "Who paid more in total, Priya Shah or Tom Whitfield?": lambda: _either(
        tennis(), "Member", "Priya Shah", "Tom Whitfield", "total"
    ),
    "list the bookings that start at 19:00 or later": lambda: (
        tennis().loc[lambda t: t["start_dt"].dt.hour >= 19, "Booking Ref"].tolist()
    ),
    # planning applications
    "What was the decision on application 24/02279/HOU?": lambda: (
        planning().set_index("reference").loc["24/02279/HOU", "decision"]
    ),
    "how many householder applications have we had": lambda: int(
        (planning()["application_type"] == "Householder").sum()
    ),
    "How many applications drew more than 10 objections?": lambda: int((planning()["objections"] > 10).sum()),
    "which application reference got the most objections": lambda: (
        planning().sort_values("objections").iloc[-1]["reference"]
    ),
    "How many more objections did the Former Bus Depot application get than The Crown Inn one?": _objection_diff,
    "What's the average number of days to decide, counting only applications that have a decision?": lambda: (
        round(planning().dropna(subset=["decision"])["days_to_decide"].astype(float).mean(), 2)
    ),
    "Which applications were decided in October 2024?": _decided_oct,
    "which application was the first to get a decision": lambda: (
        planning().sort_values("decided_dt").iloc[0]["reference"]
    ),
    "Did Riverside or Southfield ward have more applications?": lambda: _ward_more("Riverside", "Southfield"),
    "List the decided applications that took more than 80 days.": lambda: (
        planning().loc[lambda p: p["days_to_decide"].astype(float) > 80, "reference"].tolist()
    ),
}
