"""Reference answers for round 17: course enrolments, gym class attendance and election turnout tables."""

from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"


def _num(value: object) -> float | None:
    """Parse '1,234', '62.4%', '+1.8 pp', '~54%' into a float; blanks and 'n/a' give None."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return None
    text = str(value).strip().replace(",", "").replace("%", "").replace("pp", "").replace("~", "").strip()
    if text == "" or text.lower() in {"n/a", "na", "cancelled"}:
        return None
    return float(text)


def courses() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r17_course_enrolments.csv", dtype=str, keep_default_na=False)
    df.columns = [c.strip() for c in df.columns]
    df["cap"] = df["Capacity"].map(_num)
    df["enr"] = df["Enrolled"].map(_num)
    df["start"] = pd.to_datetime(df["Start Date"], format="%b %d, %Y")
    return df


def gym() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r17_gym_class_log.tsv", sep="\t", dtype=str, keep_default_na=False)
    df["cancelled"] = df["Attended"].str.strip().str.lower() == "cancelled"
    df["att"] = df["Attended"].map(_num)
    return df


def turnout() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r17_election_turnout.csv", dtype=str, keep_default_na=False)
    df = df.rename(
        columns={
            "Registered voters (electoral roll, Jan 2024)": "registered",
            "Turnout 2024 (% of registered)": "t2024",
            "Turnout 2019 (% of registered)": "t2019",
            "Change in turnout vs 2019 (percentage points)": "change",
            "Postal ballots (% of ballots cast)": "postal",
            "Rejected ballots": "rejected",
            "Polling stations": "stations",
            "Leading party vote share (%)": "lead_share",
            "Youth turnout, 18-24 (survey estimate)": "youth",
        }
    )
    for col in [
        "registered",
        "t2024",
        "t2019",
        "change",
        "postal",
        "rejected",
        "stations",
        "lead_share",
        "youth",
    ]:
        df[col + "_n"] = df[col].map(_num)
    return df


def regions() -> pd.DataFrame:
    df = turnout()
    return df[df["Region"] != "National"]


def _course(code: str) -> pd.Series:
    df = courses()
    return df[df["Course Code"] == code].iloc[0]


def _next_course(code: str) -> str:
    df = courses().reset_index(drop=True)
    idx = df.index[df["Course Code"] == code][0]
    return df.loc[idx + 1, "Course Code"]


def _gym_row(week: str, slot: str) -> pd.Series:
    df = gym()
    return df[(df["Week Of"] == week) & (df["Slot"] == slot)].iloc[0]


def _gym_next(week: str, slot: str) -> str:
    df = gym().reset_index(drop=True)
    idx = df.index[(df["Week Of"] == week) & (df["Slot"] == slot)][0]
    return df.loc[idx + 1, "Class"]


def _class_total(name: str) -> float:
    df = gym()
    return df.loc[df["Class"] == name, "att"].sum()


def _region(name: str) -> pd.Series:
    df = turnout()
    return df[df["Region"] == name].iloc[0]


def _seats_left(code: str) -> float:
    row = _course(code)
    return row["cap"] - row["enr"]


ANSWERS: dict[str, Callable[[], object]] = {
    # course enrolments
    "Who teaches CS-305?": lambda: _course("CS-305")["Instructor"],
    "how many courses are on waitlist status": lambda: int(
        (courses()["Status"].str.strip() == "Waitlist").sum()
    ),
    "How many courses have a capacity of more than 100 students?": lambda: int(
        (courses()["cap"] > 100).sum()
    ),
    "which course code has the biggest capacity": lambda: courses().loc[
        courses()["cap"].idxmax(), "Course Code"
    ],
    "What's the total capacity across our Mathematics department courses?": lambda: float(
        courses().loc[courses()["Dept"] == "Mathematics", "cap"].sum()
    ),
    "How many more students are enrolled in CS-101 than in CS-201?": lambda: float(
        _course("CS-101")["enr"] - _course("CS-201")["enr"]
    ),
    "average capacity of the courses that are still Open": lambda: round(
        float(courses().loc[courses()["Status"] == "Open", "cap"].mean()), 2
    ),
    "Which courses start in January 2025? Give the course codes.": lambda: (
        courses()
        .loc[lambda d: (d["start"].dt.year == 2025) & (d["start"].dt.month == 1), "Course Code"]
        .tolist()
    ),
    "what course is listed right after PHYS-220": lambda: _next_course("PHYS-220"),
    "Which has more seats left (capacity minus enrolled), CHEM-240 or PSY-260?": lambda: (
        "CHEM-240" if _seats_left("CHEM-240") > _seats_left("PSY-260") else "PSY-260"
    ),
    # gym class log
    "How many people attended the Sat 09:00 class in the week of 2024-03-04?": lambda: _gym_row(
        "2024-03-04", "Sat 09:00"
    )["Attended"],
    "how many classes got cancelled": lambda: int(gym()["cancelled"].sum()),
    "Among the classes that actually ran, how many had fewer than 10 attendees?": lambda: int(
        (gym().loc[~gym()["cancelled"], "att"] < 10).sum()
    ),
    "Of the classes that ran, which class had the single lowest turnout?": lambda: gym().loc[
        gym()["att"].idxmin(), "Class"
    ],
    "total attendance across all of Marcus Reid's classes": lambda: float(
        gym().loc[gym()["Instructor"] == "Marcus Reid", "att"].sum()
    ),
    "What was our average attendance at Spin classes (only counting ones that ran)?": lambda: round(
        float(gym().loc[(gym()["Class"] == "Spin") & ~gym()["cancelled"], "att"].mean()), 2
    ),
    "How many more people came to Zumba in the week of 2024-03-11 than in the week of 2024-03-04?": lambda: (
        float(
            gym().query("Class == 'Zumba' and `Week Of` == '2024-03-11'")["att"].iloc[0]
            - gym().query("Class == 'Zumba' and `Week Of` == '2024-03-04'")["att"].iloc[0]
        )
    ),
    "which class comes right after the Mon 18:00 HIIT session in the week of 2024-03-11": lambda: _gym_next(
        "2024-03-11", "Mon 18:00"
    ),
    "What is the last class in the log that was cancelled?": lambda: (
        gym().loc[gym()["cancelled"], "Class"].iloc[-1]
    ),
    "Which drew more people in total over both weeks, Pilates or Yoga Flow?": lambda: (
        "Pilates" if _class_total("Pilates") > _class_total("Yoga Flow") else "Yoga Flow"
    ),
    # election turnout
    "What was Lakeland's turnout in 2024?": lambda: _region("Lakeland")["t2024"],
    "Leaving out the National row, which regions had lower turnout in 2024 than in 2019?": lambda: (
        regions().loc[lambda d: d["t2024_n"] < d["t2019_n"], "Region"].tolist()
    ),
    "which region had the biggest drop in turnout since 2019": lambda: regions().loc[
        regions()["change_n"].idxmin(), "Region"
    ],
    "List the regions (not the national row) whose 2024 turnout was above 65%.": lambda: (
        regions().loc[lambda d: d["t2024_n"] > 65, "Region"].tolist()
    ),
    "Which region has the fewest polling stations?": lambda: regions().loc[
        regions()["stations_n"].idxmin(), "Region"
    ],
    "how many rejected ballots were there across all the regions combined, not counting the national row": lambda: (
        float(regions()["rejected_n"].sum())
    ),
    "What is the average postal ballot share across the individual regions, excluding the national figure?": lambda: (
        round(float(regions()["postal_n"].mean()), 2)
    ),
    "Not counting the national row, in how many regions did the leading party get less than 40% of the vote?": lambda: (
        int((regions()["lead_share_n"] < 40).sum())
    ),
    "How many more registered voters does Capital District have than Harbour City?": lambda: float(
        _region("Capital District")["registered_n"] - _region("Harbour City")["registered_n"]
    ),
    "Which had higher estimated youth turnout, Midlands or Harbour City?": lambda: (
        "Midlands" if _region("Midlands")["youth_n"] > _region("Harbour City")["youth_n"] else "Harbour City"
    ),
}
