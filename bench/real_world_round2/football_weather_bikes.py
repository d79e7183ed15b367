"""Round two of the real-world set (football, weather, bikes): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"


def num(s: str) -> float:
    """'18,204' -> 18204.0, '$3.50' -> 3.5, '-4' -> -4.0"""
    return float(s.replace(",", "").replace("$", "").strip())


def goals_for(score: str) -> int:
    return int(score.split("–")[0])


def fc_date(s: str) -> datetime:
    return datetime.strptime(s, "%a %d %b %Y")


def wx_date(s: str) -> datetime:
    return datetime.strptime(s, "%B %d, %Y")


fc = pd.read_csv(HERE / "harbor_city_fc_2024.csv", dtype=str, keep_default_na=False)
wx = pd.read_csv(HERE / "weather_station_jan_feb.csv", dtype=str, keep_default_na=False)
bk = pd.read_csv(HERE / "bike_rentals.tsv", sep="\t", dtype=str, keep_default_na=False)

fc["att"] = fc["Attendance"].map(lambda s: num(s) if s else None)
fc["dt"] = fc["Date"].map(fc_date)
wx["dt"] = wx["Date"].map(wx_date)
wx["hi"] = wx["High (°F)"].map(num)
wx["lo"] = wx["Low (°F)"].map(num)
wx["pr"] = wx["Precip (in)"].map(num)
bk["dur"] = bk["Duration (min)"].map(num)
bk["fee"] = bk["Fee (USD)"].map(num)
bk["dt"] = bk["Start Time"].map(datetime.fromisoformat)


def fc_next_after(opp: str) -> str:
    i = fc.index[fc["Opponent"] == opp][0]
    return fc.loc[i + 1, "Opponent"]


def fc_home_att(opp: str) -> float:
    return fc[(fc["Opponent"] == opp) & (fc["Venue"] == "Home")]["att"].iloc[0]


def wx_row(d: str) -> pd.Series:
    return wx[wx["Date"] == d].iloc[0]


def bk_row(rid: str) -> pd.Series:
    return bk[bk["Rental ID"] == rid].iloc[0]


def bk_next_after(rid: str) -> str:
    s = bk.sort_values("dt").reset_index(drop=True)
    i = s.index[s["Rental ID"] == rid][0]
    return s.loc[i + 1, "Rental ID"]


feb = wx[wx["dt"].dt.month == 2]
jan = wx[wx["dt"].dt.month == 1]
away = fc[fc["Venue"] == "Away"]

ANSWERS: dict[str, Callable[[], object]] = {
    # football
    "What was the score in the Holloway Park game?": lambda: fc[fc["Opponent"] == "Holloway Park"][
        "Score"
    ].iloc[0],
    "how many cup matches did harbor city play": lambda: int((fc["Competition"] == "Cup").sum()),
    "How many games drew a crowd of more than 19,000?": lambda: int((fc["att"].fillna(0) > 19000).sum()),
    "On what date did the club get its biggest crowd?": lambda: fc.loc[fc["att"].idxmax(), "Date"],
    "total goals we scored in cup games": lambda: sum(
        goals_for(s) for s in fc[fc["Competition"] == "Cup"]["Score"]
    ),
    "average attendance at away matches": lambda: round(away["att"].dropna().mean(), 2),
    "Who did they play next after the Fenwick Town match?": lambda: fc_next_after("Fenwick Town"),
    "when was the first league loss": lambda: (
        fc[(fc["Competition"] == "League") & (fc["Result"] == "L")].sort_values("dt")["Date"].iloc[0]
    ),
    "Which home game had more fans, Port Wexley or Greyhaven United?": lambda: max(
        ["Port Wexley", "Greyhaven United"], key=fc_home_att
    ),
    "Which away games had over 14,000 people watching?": lambda: list(away[away["att"] > 14000]["Opponent"]),
    # weather
    "What was the low temperature on February 14, 2025?": lambda: wx_row("February 14, 2025")["Low (°F)"],
    "what was the coldest overnight low in the whole log": lambda: wx.loc[wx["lo"].idxmin(), "Low (°F)"],
    "How many days in February had a high above 32 degrees?": lambda: int((feb["hi"] > 32).sum()),
    "total snowfall in january": lambda: round(sum(num(s) for s in jan["Snowfall (in)"] if s), 2),
    "What was the average daily high in February?": lambda: round(feb["hi"].mean(), 2),
    "Which day had the most precipitation?": lambda: wx.loc[wx["pr"].idxmax(), "Date"],
    "how much warmer was the high on jan 20 than on jan 19": lambda: (
        wx_row("January 20, 2025")["hi"] - wx_row("January 19, 2025")["hi"]
    ),
    "how many days were marked sunny": lambda: int((wx["Conditions"] == "Sunny").sum()),
    "How many days have no snowfall amount recorded?": lambda: int((wx["Snowfall (in)"] == "").sum()),
    "When was the last day it snowed?": lambda: (
        wx[wx["Snowfall (in)"] != ""].sort_values("dt")["Date"].iloc[-1]
    ),
    # bike rentals
    "What was the fee for rental R-10418?": lambda: bk_row("R-10418")["Fee (USD)"],
    "how many trips started at Harbor Plaza": lambda: int((bk["Start Station"] == "Harbor Plaza").sum()),
    "How many rentals are missing an end station?": lambda: int((bk["End Station"] == "").sum()),
    "Which rental ran the longest?": lambda: bk.loc[bk["dur"].idxmax(), "Rental ID"],
    "total fees paid by casual riders": lambda: round(bk[bk["Member Type"] == "Casual"]["fee"].sum(), 2),
    "average ride length for members, in minutes": lambda: round(
        bk[bk["Member Type"] == "Member"]["dur"].mean(), 2
    ),
    "Which rentals cost more than $8?": lambda: list(bk[bk["fee"] > 8]["Rental ID"]),
    "what was the next rental after R-10422?": lambda: bk_next_after("R-10422"),
    "how many rides started between 7 and 9 in the morning": lambda: int(
        bk["dt"].map(lambda t: 7 <= t.hour < 9).sum()
    ),
    "Which ride took longer, R-10405 or R-10419?": lambda: max(
        ["R-10405", "R-10419"], key=lambda r: bk_row(r)["dur"]
    ),
}


def same(computed: object, expected: str) -> bool:
    if isinstance(computed, list):
        return set(computed) == set(expected.split("|"))
    if isinstance(computed, str):
        return computed == expected
    try:
        return abs(float(computed) - float(expected)) <= 0.01
    except ValueError:
        return False
