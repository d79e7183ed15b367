"""Round 27 (w122) reference answers: escape-room game log, sports-hall court hire, house price index."""

from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: object) -> float:
    """Parse '$1,234.50', '-£21.00', '£285,400'; blanks and 'n/a' become NaN."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return float("nan")
    text = str(value).strip()
    if text == "" or text.lower() == "n/a":
        return float("nan")
    negative = text.startswith("-")
    digits = text.lstrip("-").replace("$", "").replace("£", "").replace(",", "")
    number = float(digits)
    return -number if negative else number


def _pct(value: object) -> float:
    text = str(value).strip()
    if text == "" or text.lower() in {"n/a", "nan"}:
        return float("nan")
    return float(text.replace("%", "").replace("+", ""))


def escape() -> pd.DataFrame:
    df = pd.read_json(DATA / "r27_escape_room_games.jsonl", lines=True, dtype=False)
    df["start_dt"] = pd.to_datetime(df["start"], format="%Y-%m-%dT%H:%M")
    df["team"] = pd.to_numeric(df["team_size"])
    df["mins"] = pd.to_numeric(df["minutes"])
    df["escaped_flag"] = df["escaped"].fillna("").astype(str).str.strip().str.lower() == "yes"
    df["revenue_num"] = df["revenue"].map(_money)
    return df


def courts() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r27_court_hire.csv", dtype=str, keep_default_na=False, encoding="utf-8")
    df["club_key"] = df["Club"].str.strip().str.lower()
    df["date_dt"] = pd.to_datetime(df["Date"], format="%d %b %Y")
    df["hours_num"] = pd.to_numeric(df["Hours"].replace("", None))
    df["total_num"] = df["Total"].map(_money)
    return df


def prices() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r27_house_price_index.tsv", sep="\t", dtype=str, keep_default_na=False)
    df["month_dt"] = pd.to_datetime(df["Month"], format="%b %Y")
    df["price_num"] = df["Average price"].map(_money)
    df["annual_num"] = df["Annual change (%)"].map(_pct)
    return df


def _club(df: pd.DataFrame, name: str) -> pd.DataFrame:
    return df[df["club_key"] == name.lower()]


def _row(df: pd.DataFrame, region: str, month: str) -> pd.Series:
    return df[(df["Region"] == region) & (df["Month"] == month)].iloc[0]


def _next_room_after(game_id: str) -> str:
    df = escape().reset_index(drop=True)
    idx = df.index[df["game_id"] == game_id][0]
    return df.loc[idx + 1, "room"]


def _room_revenue_winner(a: str, b: str) -> str:
    df = escape()
    totals = df.groupby("room")["revenue_num"].sum()
    return a if totals[a] > totals[b] else b


def _biggest_refund_club() -> str:
    df = courts()
    refunds = df[df["total_num"] < 0]
    return refunds.loc[refunds["total_num"].idxmin(), "Club"].strip()


def _net_diff(a: str, b: str) -> float:
    df = courts()
    return _club(df, a)["total_num"].sum() - _club(df, b)["total_num"].sum()


def _previous_month_price(region: str, month: str) -> str:
    df = prices()
    target = pd.to_datetime(month, format="%b %Y")
    sub = df[(df["Region"] == region) & (df["month_dt"] < target)].sort_values("month_dt")
    return sub.iloc[-1]["Average price"]


def _higher_annual(month: str, a: str, b: str) -> str:
    df = prices()
    return a if _row(df, a, month)["annual_num"] > _row(df, b, month)["annual_num"] else b


ANSWERS: dict[str, Callable[[], object]] = {
    # escape room
    "What was the revenue for game G108?": lambda: escape().set_index("game_id").loc["G108", "revenue"],
    "how many games are logged for the Haunted Manor room": lambda: int(
        (escape()["room"] == "Haunted Manor").sum()
    ),
    "How many teams got out in under 50 minutes?": lambda: int(
        (escape().pipe(lambda d: d["escaped_flag"] & (d["mins"] < 50))).sum()
    ),
    "which game had the quickest successful escape, I need the game id": lambda: (
        escape().pipe(lambda d: d[d["escaped_flag"]]).sort_values("mins").iloc[0]["game_id"]
    ),
    "What was our total revenue across all games in the log?": lambda: float(escape()["revenue_num"].sum()),
    "average team size for The Pharaoh's Tomb": lambda: float(
        escape().pipe(lambda d: d[d["room"] == "The Pharaoh's Tomb"])["team"].mean()
    ),
    "Which game IDs were scheduled on 3 May 2024?": lambda: (
        escape()
        .pipe(lambda d: d[d["start_dt"].dt.date == pd.Timestamp("2024-05-03").date()])
        .sort_values("start_dt")["game_id"]
        .tolist()
    ),
    "In the log, which room was played in the game that comes right after G109?": lambda: _next_room_after(
        "G109"
    ),
    "Which room brought in more money, Prison Break or Haunted Manor?": lambda: _room_revenue_winner(
        "Prison Break", "Haunted Manor"
    ),
    "game id of the last game in the log where the team escaped": lambda: (
        escape().pipe(lambda d: d[d["escaped_flag"]]).iloc[-1]["game_id"]
    ),
    # court hire
    "What was the total for booking CH-2414?": lambda: (
        courts().set_index("Booking Ref").loc["CH-2414", "Total"]
    ),
    "how many times was Court 2 hired": lambda: int((courts()["Court"].str.strip() == "Court 2").sum()),
    "Which club got the biggest refund?": _biggest_refund_club,
    "What did Eastfield Netball spend with us in total across all their bookings?": lambda: float(
        _club(courts(), "Eastfield Netball")["total_num"].sum()
    ),
    "average hours per booking for Kingsway Futsal, not counting refund lines": lambda: float(
        _club(courts(), "Kingsway Futsal").pipe(lambda d: d[d["total_num"] > 0])["hours_num"].mean()
    ),
    "Which booking ref had the highest total?": lambda: (
        courts().sort_values("total_num", ascending=False).iloc[0]["Booking Ref"]
    ),
    "Which bookings were for more than 2.5 hours?": lambda: (
        courts().pipe(lambda d: d[d["hours_num"] > 2.5])["Booking Ref"].tolist()
    ),
    "list the booking refs dated in October 2024": lambda: (
        courts()
        .pipe(lambda d: d[(d["date_dt"].dt.year == 2024) & (d["date_dt"].dt.month == 10)])["Booking Ref"]
        .tolist()
    ),
    "After refunds, how much more did Kingsway Futsal pay us than Northgate Volleyball?": lambda: float(
        _net_diff("Kingsway Futsal", "Northgate Volleyball")
    ),
    "when was Northgate Volleyball's first booking": lambda: (
        _club(courts(), "Northgate Volleyball").sort_values("date_dt").iloc[0]["Date"]
    ),
    # house prices
    "What was the average price in the North West in Feb 2024?": lambda: _row(
        prices(), "North West", "Feb 2024"
    )["Average price"],
    "how many rows show a monthly change of +1.2%": lambda: int(
        (prices()["Monthly change"].str.strip() == "+1.2%").sum()
    ),
    "How many region-months had an average price above £300,000?": lambda: int(
        (prices()["price_num"] > 300_000).sum()
    ),
    "Which regions had a negative annual change in Mar 2024?": lambda: (
        prices().pipe(lambda d: d[(d["Month"] == "Mar 2024") & (d["annual_num"] < 0)])["Region"].tolist()
    ),
    "which region posted the highest annual change figure anywhere in the table": lambda: prices().loc[
        prices()["annual_num"].idxmax(), "Region"
    ],
    "What was the mean annual change across the regions for Feb 2024?": lambda: round(
        float(prices().pipe(lambda d: d[d["Month"] == "Feb 2024"])["annual_num"].mean()), 2
    ),
    "How much higher was London's average price than the South West's in Jan 2024?": lambda: float(
        _row(prices(), "London", "Jan 2024")["price_num"]
        - _row(prices(), "South West", "Jan 2024")["price_num"]
    ),
    "london average price in the month before Mar 2024": lambda: _previous_month_price("London", "Mar 2024"),
    "Which region had the higher annual change in Feb 2024, North East or North West?": lambda: (
        _higher_annual("Feb 2024", "North East", "North West")
    ),
    "Which regions had an average price below £250,000 in Mar 2024?": lambda: (
        prices().pipe(lambda d: d[(d["Month"] == "Mar 2024") & (d["price_num"] < 250_000)])["Region"].tolist()
    ),
}
