"""Round 24 real-world checks: student room allocations, women's league stats and an annual energy mix."""

from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(text: object) -> float | None:
    """Parse '£165.50' or '-£331.00'; blank means no value."""
    if pd.isna(text) or str(text).strip() == "":
        return None
    s = str(text).strip().replace(",", "")
    sign = -1.0 if s.startswith("-") else 1.0
    return sign * float(s.lstrip("-+").lstrip("£"))


def _signed(text: object) -> float | None:
    """Parse '+6', '-3', '0' or 'n/a'."""
    s = str(text).strip()
    if s.lower() in ("n/a", "", "nan"):
        return None
    return float(s)


def _num(text: object) -> float | None:
    """Parse '1,530' or '36.2'; 'n/a' is missing."""
    s = str(text).strip().replace(",", "")
    if s.lower() in ("n/a", "", "nan"):
        return None
    return float(s)


def rooms() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r24_room_allocations.tsv", sep="\t", dtype=str, keep_default_na=False)
    df["rent"] = df["Weekly rent"].map(_money)
    df["deposit"] = df["Deposit"].map(_money)
    df["balance"] = df["Balance"].map(_money)
    df["start"] = pd.to_datetime(df["Contract start"], format="%Y-%m-%d")
    df["end"] = pd.to_datetime(df["Contract end"], format="%Y-%m-%d")
    return df


def players() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r24_womens_league_stats.csv", dtype=str, keep_default_na=False)
    for col in ("Apps", "Goals", "Assists", "Minutes", "Yellow cards"):
        df[col.lower()] = df[col].map(_num)
    df["pm"] = df["+/-"].map(_signed)
    return df


def energy() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r24_energy_mix.csv", dtype=str, keep_default_na=False)
    df["year"] = df["Year"].astype(int)
    short = {
        "Coal generation (TWh)": "coal",
        "Natural gas generation (TWh)": "gas",
        "Nuclear generation (TWh)": "nuclear",
        "Wind generation (TWh)": "wind",
        "Solar generation (TWh)": "solar",
        "Bioenergy generation (TWh)": "bio",
        "Total generation (TWh)": "total",
        "Share of renewables (%)": "share",
    }
    for col, name in short.items():
        df[name] = df[col].map(_num)
    df["yoy"] = df["Year-on-year change in total generation (%)"].map(_signed)
    return df


def _row(df: pd.DataFrame, col: str, value: object) -> pd.Series:
    hit = df[df[col] == value]
    assert len(hit) == 1, (col, value, len(hit))
    return hit.iloc[0]


def _r(df: pd.DataFrame, col: str, value: object, field: str) -> object:
    return _row(df, col, value)[field]


ANSWERS: dict[str, Callable[[], object]] = {
    # room allocations
    "What is the weekly rent for room C2.12?": lambda: _r(rooms(), "Room", "C2.12", "Weekly rent"),
    "how many students have we placed in Darwin Court": lambda: int(
        (rooms()["Hall"] == "Darwin Court").sum()
    ),
    "How many of our residents had their deposit waived, i.e. the deposit cell is left blank?": lambda: int(
        rooms()["deposit"].isna().sum()
    ),
    "which student owes us the most money": lambda: rooms().sort_values("balance").iloc[0]["Student"],
    "What do all the negative balances add up to?": lambda: float(
        rooms().loc[lambda d: d["balance"] < 0, "balance"].sum()
    ),
    "average weekly rent in Elmfield": lambda: round(
        float(rooms().loc[lambda d: d["Hall"] == "Elmfield", "rent"].mean()), 2
    ),
    "Which students have a contract starting in January 2025?": lambda: (
        rooms().loc[lambda d: (d["start"].dt.year == 2025) & (d["start"].dt.month == 1), "Student"].tolist()
    ),
    "Which room has the highest weekly rent?": lambda: (
        rooms().loc[lambda d: d["rent"] == d["rent"].max(), "Room"].item()
    ),
    "Whose contract finishes earliest?": lambda: (
        rooms().loc[lambda d: d["end"] == d["end"].min(), "Student"].item()
    ),
    "I need a list of every student paying more than £180 per week": lambda: (
        rooms().loc[lambda d: d["rent"] > 180, "Student"].tolist()
    ),
    # women's league
    "Who is the league's top scorer?": lambda: (
        players().loc[lambda d: d["goals"] == d["goals"].max(), "Player"].item()
    ),
    "how many minutes has Chloe Baptiste played": lambda: _r(
        players(), "Player", "Chloe Baptiste", "Minutes"
    ),
    "How many forwards are listed?": lambda: int((players()["Pos"] == "FW").sum()),
    "How many players have picked up 3 or more yellow cards this season?": lambda: int(
        (players()["yellow cards"] >= 3).sum()
    ),
    "how many players have a negative plus/minus": lambda: int((players()["pm"] < 0).sum()),
    "Who has more assists, Lucy Tran or Beatriz Souza?": lambda: (
        players()
        .loc[lambda d: d["Player"].isin(["Lucy Tran", "Beatriz Souza"])]
        .sort_values("assists", ascending=False)
        .iloc[0]["Player"]
    ),
    "How many more goals has Sara Lindgren scored than Chloe Baptiste?": lambda: int(
        _r(players(), "Player", "Sara Lindgren", "goals") - _r(players(), "Player", "Chloe Baptiste", "goals")
    ),
    "our club is Harbour City WFC - how many goals have our players scored in total?": lambda: int(
        players().loc[lambda d: d["Club"] == "Harbour City WFC", "goals"].sum()
    ),
    "average minutes played by midfielders": lambda: round(
        float(players().loc[lambda d: d["Pos"] == "MF", "minutes"].mean()), 2
    ),
    "Which player comes right after Fern Ashby in the list?": lambda: players()["Player"].iloc[
        players().index[players()["Player"] == "Fern Ashby"][0] + 1
    ],
    # energy mix
    "What was wind generation in 2017?": lambda: _r(energy(), "year", 2017, "Wind generation (TWh)"),
    "which year had the highest natural gas generation": lambda: (
        energy().loc[lambda d: d["gas"] == d["gas"].max(), "Year"].item()
    ),
    "What is the first year that has a solar generation figure?": lambda: int(
        energy().loc[lambda d: d["solar"].notna(), "year"].min()
    ),
    "How many years show n/a for bioenergy generation?": lambda: int(
        (energy()["Bioenergy generation (TWh)"].str.strip().str.lower() == "n/a").sum()
    ),
    "In which years did total generation increase on the previous year?": lambda: (
        energy().loc[lambda d: d["yoy"] > 0, "Year"].tolist()
    ),
    "How much more wind power did we generate in 2023 than in 2013?": lambda: round(
        float(_r(energy(), "year", 2023, "wind") - _r(energy(), "year", 2013, "wind")), 1
    ),
    "What was the average share of renewables from 2019 to 2023 inclusive?": lambda: round(
        float(energy().loc[lambda d: d["year"].between(2019, 2023), "share"].mean()), 2
    ),
    "years where coal generation was below 10 TWh": lambda: (
        energy().loc[lambda d: d["coal"] < 10, "Year"].tolist()
    ),
    "Which year had the higher solar output, 2019 or 2021?": lambda: (
        energy()
        .loc[lambda d: d["year"].isin([2019, 2021])]
        .sort_values("solar", ascending=False)
        .iloc[0]["Year"]
    ),
    "What is the total solar generation summed over all the years in the table, ignoring n/a?": lambda: round(
        float(energy()["solar"].sum(skipna=True)), 1
    ),
}
