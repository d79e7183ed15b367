"""Round 21 real-world checks: hotel season rates, bug tracker export, driving lesson log."""

import re
from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"
TS_FORMAT = "%Y-%m-%dT%H:%M:%S"


def _euro(text: object) -> float | None:
    """Parse European money like '1.150,00 €'; 'n/a' becomes None."""
    s = str(text).strip()
    if s.lower() in {"n/a", "", "nan"}:
        return None
    s = s.replace("€", "").replace(" ", "").replace(".", "").replace(",", ".")
    return float(s)


def _percent(text: object) -> float:
    """Parse '78,5 %' or '-1,8 %' into a float."""
    return float(str(text).replace("%", "").replace(" ", "").replace(",", "."))


def _minutes(text: object) -> int:
    """Parse '1h 30m', '2h' or '90 min' into minutes."""
    s = str(text).strip().lower()
    m = re.fullmatch(r"(\d+)\s*min", s)
    if m:
        return int(m.group(1))
    m = re.fullmatch(r"(\d+)h(?:\s*(\d+)m)?", s)
    if not m:
        raise ValueError(f"unknown duration {text!r}")
    return int(m.group(1)) * 60 + int(m.group(2) or 0)


def _pounds(text: object) -> float:
    """Parse '£42.50' into a float."""
    return float(str(text).replace("£", "").replace(",", "").strip())


def hotels() -> pd.DataFrame:
    path = DATA / "r21_hotel_rates.csv"
    df = pd.read_csv(path, sep=";", encoding="utf-8-sig", dtype=str)
    for col in ["Low Season", "Mid Season", "High Season"]:
        df[col + " num"] = df[col].map(_euro)
    df["occ"] = df["Occupancy"].map(_percent)
    df["change"] = df["Change vs LY"].map(_percent)
    return df


def bugs() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r21_bug_tracker.csv", dtype=str)
    df["opened"] = pd.to_datetime(df["Opened"], format=TS_FORMAT)
    df["closed"] = pd.to_datetime(df["Closed"], format=TS_FORMAT)
    df["points"] = pd.to_numeric(df["Story Points"])
    return df


def lessons() -> pd.DataFrame:
    df = pd.read_excel(DATA / "r21_driving_lessons.xlsx", dtype=str)
    df["date"] = pd.to_datetime(df["Lesson Date"], format="%a %d %b %Y")
    df["mins"] = df["Duration"].map(_minutes)
    df["fee"] = df["Fee"].map(_pounds)
    return df


# ---- hotel rates ----------------------------------------------------------


def _room(hotel: str, room: str) -> pd.Series:
    h = hotels()
    hit = h[(h["Hotel"] == hotel) & (h["Room Type"] == room)]
    assert len(hit) == 1
    return hit.iloc[0]


def _top_occupancy_hotel() -> str:
    h = hotels()
    return h.loc[h["occ"].idxmax(), "Hotel"]


def _std_double_low_avg() -> float:
    h = hotels()
    return round(h.loc[h["Room Type"] == "Standard Double", "Low Season num"].mean(), 2)


def _penthouse_spread() -> float:
    row = _room("Sol y Mar", "Penthouse Suite")
    return row["High Season num"] - row["Low Season num"]


def _aurora_mid_sum() -> float:
    h = hotels()
    return h.loc[h["Hotel"] == "Hotel Aurora", "Mid Season num"].sum()


def _junior_suite_either() -> str:
    a = _room("Hotel Aurora", "Junior Suite")["occ"]
    b = _room("Hôtel Lumière", "Junior Suite")["occ"]
    assert a != b
    return "Hotel Aurora" if a > b else "Hôtel Lumière"


def _cheap_low_cities() -> list[str]:
    h = hotels()
    return list(dict.fromkeys(h.loc[h["Low Season num"] < 80, "City"]))


def _room_after_studio() -> str:
    h = hotels()
    idx = h.index[(h["Hotel"] == "Kanal Haus") & (h["Room Type"] == "Studio")][0]
    return h.loc[idx + 1, "Room Type"]


# ---- bug tracker ----------------------------------------------------------


def _longest_fix() -> str:
    b = bugs().dropna(subset=["closed"])
    return b.loc[(b["closed"] - b["opened"]).idxmax(), "ID"]


def _points_for(assignee: str) -> float:
    b = bugs()
    return b.loc[b["Assignee"] == assignee, "points"].sum()


def _major_points_avg() -> float:
    b = bugs()
    return round(b.loc[b["Severity"] == "Major", "points"].mean(), 2)


def _opened_mid_june() -> list[str]:
    b = bugs().sort_values("opened")
    start, end = pd.Timestamp("2024-06-10"), pd.Timestamp("2024-06-21")
    return list(b.loc[(b["opened"] >= start) & (b["opened"] < end), "ID"])


def _last_june_bug() -> str:
    b = bugs().sort_values("opened")
    june = b[(b["opened"].dt.year == 2024) & (b["opened"].dt.month == 6)]
    return june.iloc[-1]["ID"]


def _title_after(bug_id: str) -> str:
    b = bugs().sort_values("opened").reset_index(drop=True)
    idx = b.index[b["ID"] == bug_id][0]
    return b.loc[idx + 1, "Title"]


def _more_points(a: str, c: str) -> str:
    pa, pc = _points_for(a), _points_for(c)
    assert pa != pc
    return a if pa > pc else c


# ---- driving lessons ------------------------------------------------------


def _fee_on(day: str) -> str:
    d = lessons()
    hit = d.loc[d["date"] == pd.Timestamp(day), "Fee"]
    assert len(hit) == 1
    return hit.iloc[0]


def _fees_from(pupil: str) -> float:
    d = lessons()
    return d.loc[d["Pupil"] == pupil, "fee"].sum()


def _more_spent(a: str, c: str) -> str:
    fa, fc = _fees_from(a), _fees_from(c)
    assert fa != fc
    return a if fa > fc else c


def _first_pass() -> str:
    d = lessons()
    return d[d["Test Result"] == "Pass"].sort_values("date").iloc[0]["Pupil"]


def _july_pupils() -> list[str]:
    d = lessons().sort_values("date", kind="stable")
    d = d[(d["date"].dt.year == 2024) & (d["date"].dt.month == 7)]
    return list(dict.fromkeys(d["Pupil"]))


def _top_instructor() -> str:
    c = lessons()["Instructor"].value_counts()
    assert c.iloc[0] > c.iloc[1]
    return c.index[0]


def _cheap_lesson_pupils() -> list[str]:
    d = lessons()
    return list(dict.fromkeys(d.loc[d["fee"] < 30, "Pupil"]))


# ---- question texts (exactly as in questions-round21-w98.tsv) -------------

H1 = "What is the high season rate for the Deluxe Double at Bellavista Palace?"
H2 = "which hotel has the room with the highest occupancy"
H3 = "How many rooms are running above 80 % occupancy?"
H4 = "What's the average low season rate for our Standard Double rooms across all hotels?"
H5 = "How many of our rooms are priced lower than last year according to the change column?"
H6 = "How much more does the Penthouse Suite at Sol y Mar cost in high season than in low season?"
H7 = "add up the mid season rates of all Hotel Aurora rooms"
H8 = "Which has the higher occupancy, the Junior Suite at Hotel Aurora or the Junior Suite at Hôtel Lumière?"
H9 = "Which cities have at least one room with a low season rate below 80 €?"
H10 = "in the rate sheet what room type is listed right after the Kanal Haus Studio"

B1 = "who is BUG-1050 assigned to"
B2 = "How many Critical bugs are in our tracker export?"
B3 = "How many bugs are still open, i.e. have no closed time?"
B4 = "Which bug took the longest from being opened to being closed?"
B5 = "total story points on Marcus Hale's bugs"
B6 = "What is the average number of story points for Major bugs?"
B7 = "Which bugs were opened between 10 June 2024 and 20 June 2024?"
B8 = "what was the last bug opened in June 2024"
B9 = "What's the title of the bug that was opened right after BUG-1055?"
B10 = "Who has more story points assigned in total, Priya Nair or Sven Aalto?"

D1 = "What was the fee for the lesson on Mon 24 Jun 2024?"
D2 = "how many lessons did Raj Patel teach"
D3 = "How many lessons lasted longer than one hour?"
D4 = "How much have we taken in fees from Aisha Khan altogether?"
D5 = "what's the average lesson length in minutes across the whole log"
D6 = "Who was the first pupil to pass their driving test?"
D7 = "Which pupils had lessons in July 2024?"
D8 = "Who has spent more on lessons, Ben Turner or Daniel Price?"
D9 = "Which instructor gave the most lessons?"
D10 = "which pupils had a lesson costing less than £30"

ANSWERS: dict[str, Callable[[], object]] = {
    H1: lambda: _room("Bellavista Palace", "Deluxe Double")["High Season"],
    H2: lambda: _top_occupancy_hotel(),
    H3: lambda: int((hotels()["occ"] > 80).sum()),
    H4: lambda: _std_double_low_avg(),
    H5: lambda: int((hotels()["change"] < 0).sum()),
    H6: lambda: _penthouse_spread(),
    H7: lambda: _aurora_mid_sum(),
    H8: lambda: _junior_suite_either(),
    H9: lambda: _cheap_low_cities(),
    H10: lambda: _room_after_studio(),
    B1: lambda: bugs().set_index("ID").loc["BUG-1050", "Assignee"],
    B2: lambda: int((bugs()["Severity"] == "Critical").sum()),
    B3: lambda: int(bugs()["closed"].isna().sum()),
    B4: lambda: _longest_fix(),
    B5: lambda: _points_for("Marcus Hale"),
    B6: lambda: _major_points_avg(),
    B7: lambda: _opened_mid_june(),
    B8: lambda: _last_june_bug(),
    B9: lambda: _title_after("BUG-1055"),
    B10: lambda: _more_points("Priya Nair", "Sven Aalto"),
    D1: lambda: _fee_on("2024-06-24"),
    D2: lambda: int((lessons()["Instructor"] == "Raj Patel").sum()),
    D3: lambda: int((lessons()["mins"] > 60).sum()),
    D4: lambda: _fees_from("Aisha Khan"),
    D5: lambda: round(lessons()["mins"].mean(), 2),
    D6: lambda: _first_pass(),
    D7: lambda: _july_pupils(),
    D8: lambda: _more_spent("Ben Turner", "Daniel Price"),
    D9: lambda: _top_instructor(),
    D10: lambda: _cheap_lesson_pupils(),
}
