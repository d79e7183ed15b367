"""Round 9 (w49) gold computations for the farm shop, cycling results and dental staff tables."""

from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
FARM = "r9_farm_shop_sales.csv"
CYCLING = "r9_cycling_results.csv"
DENTAL = "r9_dental_staff.csv"


def _money(text: str) -> float:
    """Parse '$1,234.50' or '-$12.00' into a float."""
    s = str(text).strip()
    sign = -1.0 if s.startswith("-") else 1.0
    return sign * float(s.lstrip("-").replace("$", "").replace(",", ""))


def _seconds(text: object) -> float | None:
    """Parse 'H:MM:SS' into seconds; blank gives None."""
    if not isinstance(text, str) or not text.strip():
        return None
    h, m, s = (int(p) for p in text.strip().split(":"))
    return float(h * 3600 + m * 60 + s)


@cache
def farm() -> pd.DataFrame:
    df = pd.read_csv(REAL / FARM, dtype=str, keep_default_na=False)
    df["total_num"] = df["Total"].map(_money)
    df["qty_num"] = df["Qty"].astype(int)
    df["date"] = pd.to_datetime(df["Order Date"], format="%m/%d/%Y")
    return df


@cache
def cycling() -> pd.DataFrame:
    df = pd.read_csv(REAL / CYCLING, dtype=str, keep_default_na=False)
    df["secs"] = df["Finish Time"].map(_seconds)
    df["points_num"] = pd.to_numeric(df["Points"].replace("", None), errors="coerce")
    df["finished"] = df["Status"].eq("FIN") & df["secs"].notna()
    return df


@cache
def dental() -> pd.DataFrame:
    df = pd.read_csv(REAL / DENTAL, dtype=str, keep_default_na=False)
    df["start"] = pd.to_datetime(df["Start Date"], format="%b %d, %Y")
    df["hours"] = df["Weekly Hours"].astype(float)
    df["ext_num"] = pd.to_numeric(df["Extension"].replace("", None), errors="coerce")
    return df


def _cell(df: pd.DataFrame, key_col: str, key: str, col: str) -> str:
    return str(df.loc[df[key_col] == key, col].iloc[0])


def _after(df: pd.DataFrame, key_col: str, key: str, col: str) -> str:
    pos = df.index[df[key_col] == key][0]
    return str(df.loc[pos + 1, col])


def _num(x: float) -> float | int:
    x = float(x)
    return int(x) if x.is_integer() else round(x, 2)


def _farm_cat_total(cat: str) -> float:
    f = farm()
    return float(f.loc[f["Category"] == cat, "total_num"].sum())


def _club_points(club: str) -> float:
    c = cycling()
    return float(c.loc[c["Club"] == club, "points_num"].sum())


def _rider_secs(name: str) -> float:
    c = cycling()
    return float(c.loc[c["Rider"] == name, "secs"].iloc[0])


def _hours(name: str) -> float:
    d = dental()
    return float(d.loc[d["Name"] == name, "hours"].iloc[0])


ANSWERS: dict[str, Callable[[], object]] = {
    # farm shop sales
    "What was the total for order FS-1012?": lambda: _cell(farm(), "Order ID", "FS-1012", "Total"),
    "how many orders had a quantity of 20 or more": lambda: int((farm()["qty_num"] >= 20).sum()),
    "What's the combined total of all Greenleaf Cafe orders?": lambda: _num(
        farm().loc[farm()["Customer"] == "Greenleaf Cafe", "total_num"].sum()
    ),
    "Which order ID had the largest total?": lambda: str(
        farm().loc[farm()["total_num"].idxmax(), "Order ID"]
    ),
    "which orders have a negative total (refunds)": lambda: (
        farm().loc[farm()["total_num"] < 0, "Order ID"].tolist()
    ),
    "List the order IDs placed from April 1 to April 10, 2024, inclusive.": lambda: (
        farm()
        .loc[farm()["date"].between(pd.Timestamp("2024-04-01"), pd.Timestamp("2024-04-10")), "Order ID"]
        .tolist()
    ),
    "average qty per order in the Dairy & Eggs category": lambda: _num(
        farm().loc[farm()["Category"] == "Dairy & Eggs", "qty_num"].mean()
    ),
    "Did we bring in more money in total from Meat or from Bakery?": lambda: max(
        ["Meat", "Bakery"], key=_farm_cat_total
    ),
    "who was the customer on the order right after FS-1007": lambda: _after(
        farm(), "Order ID", "FS-1007", "Customer"
    ),
    "When did Tom Becker place his last order?": lambda: str(
        farm().loc[farm()["Customer"] == "Tom Becker"].sort_values("date").iloc[-1]["Order Date"]
    ),
    # cycling results
    "What was Elena Kowalski's finish time?": lambda: _cell(
        cycling(), "Rider", "Elena Kowalski", "Finish Time"
    ),
    "how many Harbour CC riders are listed": lambda: int((cycling()["Club"] == "Harbour CC").sum()),
    "How many riders finished in under 1:05:00?": lambda: int(
        (cycling()["secs"] < _seconds("1:05:00")).sum()
    ),
    "Who had the fastest finish time among riders in a W age category?": lambda: str(
        cycling()
        .loc[cycling()["Age Category"].str.startswith("W") & cycling()["finished"]]
        .sort_values("secs")
        .iloc[0]["Rider"]
    ),
    "how many seconds slower than Luca Ferretti was Dave Holloway": lambda: _num(
        _rider_secs("Dave Holloway") - _rider_secs("Luca Ferretti")
    ),
    "Total points scored by Team Granite riders?": lambda: _num(_club_points("Team Granite")),
    "what's the average points of the Velo Club North riders who finished": lambda: _num(
        cycling().loc[(cycling()["Club"] == "Velo Club North") & cycling()["finished"], "points_num"].mean()
    ),
    "Which club scored more points in total, Harbour CC or Riverside Wheelers?": lambda: max(
        ["Harbour CC", "Riverside Wheelers"], key=_club_points
    ),
    "who finished directly behind Chloe Martin": lambda: str(
        cycling()
        .loc[cycling()["Place"] == str(int(_cell(cycling(), "Rider", "Chloe Martin", "Place")) + 1), "Rider"]
        .iloc[0]
    ),
    "Which riders had a finish time slower than 1:09:00?": lambda: (
        cycling().loc[cycling()["secs"] > _seconds("1:09:00"), "Rider"].tolist()
    ),
    # dental staff
    "what's Lisa Tran's extension": lambda: _cell(dental(), "Name", "Lisa Tran", "Extension"),
    "How many staff members don't have an email address on file?": lambda: int(
        (dental()["Email"].str.strip() == "").sum()
    ),
    "how many dental assistants do we have": lambda: int((dental()["Role"] == "Dental Assistant").sum()),
    "Who has been with the practice the longest?": lambda: str(
        dental().loc[dental()["start"].idxmin(), "Name"]
    ),
    "which staff started in 2021": lambda: dental().loc[dental()["start"].dt.year == 2021, "Name"].tolist(),
    "total weekly hours for all our dental hygienists": lambda: _num(
        dental().loc[dental()["Role"] == "Dental Hygienist", "hours"].sum()
    ),
    "What is the average weekly hours across all staff?": lambda: _num(dental()["hours"].mean()),
    "Who works fewer than 20 hours a week?": lambda: dental().loc[dental()["hours"] < 20, "Name"].tolist(),
    "How many more weekly hours does Dr. Helen Park work than Dr. Omar Haddad?": lambda: _num(
        _hours("Dr. Helen Park") - _hours("Dr. Omar Haddad")
    ),
    "which staff member has the lowest extension number": lambda: str(
        dental().loc[dental()["ext_num"].idxmin(), "Name"]
    ),
}
