"""Reference answers for round-13 questions on the podcast, garden and chess tables (w66)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA_DIR = Path(__file__).resolve().parents[2] / "examples" / "real"


def _duration_minutes(text: str) -> float:
    """`1:02:45` or `48:10` -> minutes."""
    parts = [int(p) for p in str(text).strip().split(":")]
    seconds = 0
    for part in parts:
        seconds = seconds * 60 + part
    return seconds / 60


def _downloads(text: str) -> float:
    """`12.4K` or `1,050` -> plain number."""
    s = str(text).strip().replace(",", "").upper()
    if s.endswith("K"):
        return float(s[:-1]) * 1000
    return float(s)


def _euros(text: object) -> float:
    """`€92.50` or `€ 55` -> 92.5 / 55.0."""
    return float(re.sub(r"[^0-9.]", "", str(text)))


def _square_metres(text: object) -> float:
    """`12.5 m²` or `40m²` -> 12.5 / 40.0."""
    match = re.search(r"[0-9]+(?:\.[0-9]+)?", str(text))
    return float(match.group(0)) if match else float("nan")


def _signed(text: object) -> int:
    """`+15`, `-8`, `0` -> int."""
    return int(str(text).strip().replace("+", ""))


def podcast() -> pd.DataFrame:
    df = pd.read_csv(DATA_DIR / "r13_podcast_episodes.csv", dtype=str, keep_default_na=False)
    df["minutes"] = df["Duration"].map(_duration_minutes)
    df["dl"] = df["Downloads"].map(_downloads)
    df["released"] = pd.to_datetime(df["Release Date"], format="%Y-%m-%d")
    df["Guest"] = df["Guest"].str.strip()
    return df


def garden() -> pd.DataFrame:
    with open(DATA_DIR / "r13_garden_plots.json", encoding="utf-8") as fh:
        df = pd.DataFrame(json.load(fh))
    df["fee"] = df["yearly_fee"].map(_euros)
    df["sqm"] = df["size"].map(_square_metres)
    df["since"] = pd.to_datetime(df["holder_since"], format="%Y-%m-%d", errors="coerce")
    df["has_phone"] = df["phone"].fillna("").str.strip() != ""
    df["on_waitlist"] = df["waitlist"].str.strip().str.upper() == "Y"
    return df


def chess() -> pd.DataFrame:
    df = pd.read_csv(DATA_DIR / "r13_chess_ratings.tsv", sep="\t", dtype=str, keep_default_na=False)
    df["rating"] = df["Rating"].astype(int)
    df["delta"] = df["Change"].map(_signed)
    df["games"] = df["Games"].astype(int)
    df["Title"] = df["Title"].str.strip()
    return df


def _row(df: pd.DataFrame, col: str, value: str) -> pd.Series:
    hits = df[df[col] == value]
    assert len(hits) == 1, (col, value, len(hits))
    return hits.iloc[0]


def _after(df: pd.DataFrame, col: str, value: str, out: str) -> str:
    idx = df.index[df[col] == value][0]
    pos = df.index.get_loc(idx)
    return df.iloc[pos + 1][out]


ANSWERS: dict[str, Callable[[], object]] = {
    # podcast
    "Who was the guest on Shortwave After Dark?": lambda: _row(podcast(), "Title", "Shortwave After Dark")[
        "Guest"
    ],
    "What is the title of our longest episode?": lambda: podcast().loc[
        podcast()["minutes"].idxmax(), "Title"
    ],
    "How many more downloads did Shortwave After Dark get than Numbers Stations Explained?": lambda: (
        _row(podcast(), "Title", "Shortwave After Dark")["dl"]
        - _row(podcast(), "Title", "Numbers Stations Explained")["dl"]
    ),
    "how many episodes had no guest": lambda: int((podcast()["Guest"] == "").sum()),
    "How many episodes featured Marcus Oyelaran as the guest?": lambda: int(
        (podcast()["Guest"] == "Marcus Oyelaran").sum()
    ),
    "total downloads across all episodes": lambda: podcast()["dl"].sum(),
    "Which episodes did we release in July 2024?": lambda: (
        podcast()
        .loc[lambda d: (d["released"].dt.year == 2024) & (d["released"].dt.month == 7), "Title"]
        .tolist()
    ),
    "list the episodes that run longer than one hour": lambda: (
        podcast().loc[lambda d: d["minutes"] > 60, "Title"].tolist()
    ),
    "What is the average length of the Listener Mailbag episodes, in minutes?": lambda: round(
        podcast().loc[lambda d: d["Title"].str.startswith("Listener Mailbag"), "minutes"].mean(), 2
    ),
    "which episode came right after Numbers Stations Explained": lambda: _after(
        podcast().sort_values("released"), "Title", "Numbers Stations Explained", "Title"
    ),
    # garden
    "Who holds plot B-12?": lambda: _row(garden(), "plot", "B-12")["holder"],
    "how many plot holders are on the waitlist": lambda: int(garden()["on_waitlist"].sum()),
    "How many plots are missing a phone number?": lambda: int((~garden()["has_phone"]).sum()),
    "What's the total yearly fee for all the plots in section C (plot IDs starting with C)?": lambda: (
        garden().loc[lambda d: d["plot"].str.startswith("C"), "fee"].sum()
    ),
    "which plot id has the biggest size": lambda: garden().loc[garden()["sqm"].idxmax(), "plot"],
    "What is the average yearly fee for plots whose holder is on the waitlist?": lambda: round(
        garden().loc[lambda d: d["on_waitlist"], "fee"].mean(), 2
    ),
    "Which holder has had their plot the longest, going by the holder since date?": lambda: garden().loc[
        garden()["since"].idxmin(), "holder"
    ],
    "which plots were taken on by their current holder in 2023": lambda: (
        garden().loc[lambda d: d["since"].dt.year == 2023, "plot"].tolist()
    ),
    "Which plots have a yearly fee above €90?": lambda: (
        garden().loc[lambda d: d["fee"] > 90, "plot"].tolist()
    ),
    "who pays more per year for their plot, Harold Pike or Yusuf Arslan": lambda: (
        garden()
        .loc[lambda d: d["holder"].isin(["Harold Pike", "Yusuf Arslan"])]
        .sort_values("fee", ascending=False)
        .iloc[0]["holder"]
    ),
    # chess
    "What is Yuki Tanaka's rating?": lambda: int(_row(chess(), "Player", "Yuki Tanaka")["rating"]),
    "how many players lost rating points": lambda: int((chess()["delta"] < 0).sum()),
    "Which player had the biggest rating drop?": lambda: chess().loc[chess()["delta"].idxmin(), "Player"],
    "who gained the most rating points": lambda: chess().loc[chess()["delta"].idxmax(), "Player"],
    "How many CMs do we have in the club?": lambda: int((chess()["Title"] == "CM").sum()),
    "how many players have no title": lambda: int((chess()["Title"] == "").sum()),
    "Who is last on our rating list?": lambda: chess().iloc[-1]["Player"],
    "What is the average rating of the titled players?": lambda: round(
        chess().loc[lambda d: d["Title"] != "", "rating"].mean(), 2
    ),
    "How many points higher is Anders Holmqvist rated than Natalia Petrenko?": lambda: int(
        _row(chess(), "Player", "Anders Holmqvist")["rating"]
        - _row(chess(), "Player", "Natalia Petrenko")["rating"]
    ),
    "list everyone rated above 2100": lambda: chess().loc[lambda d: d["rating"] > 2100, "Player"].tolist(),
}
