"""Round 16 reference answers: letting agency rent roll, share prices (long format) and school exam results."""

from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA_DIR = Path(__file__).resolve().parents[2] / "examples" / "real"

RENT_FILE = "r16_rent_roll.csv"
SHARES_FILE = "r16_share_prices.tsv"
EXAMS_FILE = "r16_exam_results.csv"


def _money(text: object) -> float | None:
    """Parse '£1,150.00' or '-£120.00' to a float; blank gives None."""
    if pd.isna(text) or str(text).strip() == "":
        return None
    s = str(text).strip()
    sign = -1.0 if s.startswith("-") else 1.0
    s = s.lstrip("-+").replace("£", "").replace(",", "").strip()
    return sign * float(s)


def _monthly_rent(text: str) -> float:
    """Parse '£1,150 pcm' or '£265 pw' to a monthly figure (weekly x 52 / 12)."""
    s = str(text).strip().lower()
    if s.endswith("pcm"):
        return _money(s[: -len("pcm")])
    if s.endswith("pw"):
        return _money(s[: -len("pw")]) * 52 / 12
    raise ValueError(f"unknown rent period: {text!r}")


def _volume(text: str) -> float:
    """Parse '1.2M' or '850k' to a number of shares."""
    s = str(text).strip().upper()
    mult = {"K": 1_000, "M": 1_000_000}
    if s[-1] in mult:
        return float(s[:-1]) * mult[s[-1]]
    return float(s)


def _pct(text: object) -> float | None:
    """Parse '+0.80%', '-1.25%' or '67%' to a float; 'ABS' or blank gives None."""
    if pd.isna(text):
        return None
    s = str(text).strip()
    if not s.endswith("%"):
        return None
    return float(s[:-1])


def rent() -> pd.DataFrame:
    df = pd.read_csv(DATA_DIR / RENT_FILE, dtype=str, keep_default_na=False)
    df["rent_pcm"] = df["Rent"].map(_monthly_rent)
    df["move_in"] = pd.to_datetime(df["Move-in"].replace("", None), format="%d/%m/%Y")
    df["balance"] = df["Balance"].map(_money)
    df["is_void"] = df["Tenant"].str.strip().str.upper() == "VOID"
    return df


def shares() -> pd.DataFrame:
    df = pd.read_csv(DATA_DIR / SHARES_FILE, sep="\t", dtype=str, keep_default_na=False)
    df["close"] = df["Close"].astype(float)
    df["change"] = df["Change"].map(_pct)
    df["volume"] = df["Volume"].map(_volume)
    df["date"] = pd.to_datetime(df["Date"], format="%Y-%m-%d")
    return df


def exams() -> pd.DataFrame:
    """Exam results reshaped long: one row per pupil and subject, keeping list order."""
    df = pd.read_csv(DATA_DIR / EXAMS_FILE, dtype=str, keep_default_na=False)
    df["order"] = range(len(df))
    parts = []
    for k in (1, 2):
        part = df[["order", "Candidate No", "Surname", "Forename", "Tutor Group"]].copy()
        part["subject"] = df[f"Subject {k}"]
        part["mark_raw"] = df[f"Mark {k}"]
        part["grade"] = df[f"Grade {k}"]
        parts.append(part)
    long = pd.concat(parts, ignore_index=True).sort_values("order", kind="stable")
    long["mark"] = long["mark_raw"].map(_pct)
    long["absent"] = long["mark_raw"].str.strip().str.upper() == "ABS"
    long["name"] = long["Forename"] + " " + long["Surname"]
    return long.reset_index(drop=True)


def exams_wide() -> pd.DataFrame:
    return pd.read_csv(DATA_DIR / EXAMS_FILE, dtype=str, keep_default_na=False)


def _let() -> pd.DataFrame:
    df = rent()
    return df[~df["is_void"]]


def _row_after(df: pd.DataFrame, col: str, value: str, out: str) -> str:
    idx = df.index[df[col] == value][0]
    pos = df.index.get_loc(idx)
    return df.iloc[pos + 1][out]


def _ticker(t: str) -> pd.DataFrame:
    df = shares()
    return df[df["Ticker"] == t].sort_values("date").reset_index(drop=True)


def _close_on(t: str, day: str) -> float:
    df = _ticker(t)
    return float(df.loc[df["Date"] == day, "close"].iloc[0])


def _change_on(t: str, day: str) -> float:
    df = _ticker(t)
    return float(df.loc[df["Date"] == day, "change"].iloc[0])


def _mark(name: str, subject: str) -> float:
    df = exams()
    return float(df.loc[(df["name"] == name) & (df["subject"] == subject), "mark"].iloc[0])


def _taller(a: str, b: str, value: Callable[[str], float]) -> str:
    return a if value(a) > value(b) else b


ANSWERS: dict[str, Callable[[], object]] = {
    # --- rent roll ---
    "What is the rent for 9 Mill Lane?": lambda: rent().set_index("Property").loc["9 Mill Lane", "Rent"],
    "how many units are void": lambda: int(rent()["is_void"].sum()),
    "Which tenant owes us the most in arrears?": lambda: rent().loc[rent()["balance"].idxmin(), "Tenant"],
    "Which tenant pays the least rent per month once weekly rents are converted at 52 weeks over 12 months?": (
        lambda: _let().loc[_let()["rent_pcm"].idxmin(), "Tenant"]
    ),
    "What is our total monthly rent across let units only (not voids), converting pw rents at 52 weeks / 12 months?": (
        lambda: round(float(_let()["rent_pcm"].sum()), 2)
    ),
    "which tenants moved in during 2023": lambda: (
        rent().loc[rent()["move_in"].dt.year == 2023, "Tenant"].tolist()
    ),
    "Who is our longest-standing tenant?": lambda: _let().sort_values("move_in").iloc[0]["Tenant"],
    "How many units have a rent of more than £1,200 a month (weekly rents times 52 divided by 12)?": (
        lambda: int((rent()["rent_pcm"] > 1200).sum())
    ),
    "what property comes right after 22 Station Rd Flat C on the rent roll": (
        lambda: _row_after(rent(), "Property", "22 Station Rd Flat C", "Property")
    ),
    "Who pays more rent per month, Tom Gallagher or Grace Adeyemi?": lambda: _taller(
        "Tom Gallagher",
        "Grace Adeyemi",
        lambda t: float(rent().set_index("Tenant").loc[t, "rent_pcm"]),
    ),
    # --- share prices ---
    "What did GDSP close at on 2024-03-08?": lambda: (
        _ticker("GDSP").set_index("Date").loc["2024-03-08", "Close"]
    ),
    "which day had the highest trading volume for TRVN": (
        lambda: _ticker("TRVN").loc[_ticker("TRVN")["volume"].idxmax(), "Date"]
    ),
    "What was the average closing price of HLMX over the whole period?": (
        lambda: round(float(_ticker("HLMX")["close"].mean()), 2)
    ),
    "on how many days did TRVN close down": lambda: int((_ticker("TRVN")["change"] < 0).sum()),
    "How much higher was GDSP's close on 2024-03-15 than on 2024-03-04?": (
        lambda: round(_close_on("GDSP", "2024-03-15") - _close_on("GDSP", "2024-03-04"), 2)
    ),
    "total number of HLMX shares traded across the two weeks": lambda: int(
        round(_ticker("HLMX")["volume"].sum())
    ),
    "Which rose more on 2024-03-14, TRVN or HLMX?": lambda: _taller(
        "TRVN", "HLMX", lambda t: _change_on(t, "2024-03-14")
    ),
    "How many rows in our price file have a volume below 1 million?": (
        lambda: int((shares()["volume"] < 1_000_000).sum())
    ),
    "What was TRVN's closing price on the trading day after 2024-03-08?": (
        lambda: _row_after(_ticker("TRVN"), "Date", "2024-03-08", "Close")
    ),
    "on which dates did GDSP close above 615": (
        lambda: _ticker("GDSP").loc[_ticker("GDSP")["close"] > 615, "Date"].tolist()
    ),
    # --- exam results ---
    "What grade did Zara Hussain get in Chemistry?": lambda: (
        exams().query("name == 'Zara Hussain' and subject == 'Chemistry'")["grade"].iloc[0]
    ),
    "how many A* grades were awarded in total across both subjects": lambda: int(
        (exams()["grade"] == "A*").sum()
    ),
    "How many pupils were absent for at least one of their exams?": (
        lambda: int(exams().loc[exams()["absent"], "Candidate No"].nunique())
    ),
    "Which candidate number got the top mark in Maths?": lambda: (
        exams().query("subject == 'Maths'").sort_values("mark", ascending=False).iloc[0]["Candidate No"]
    ),
    "What was the average History mark, leaving out anyone who was absent?": (
        lambda: round(float(exams().query("subject == 'History'")["mark"].dropna().mean()), 2)
    ),
    "candidate numbers of pupils who scored under 40% in Maths": lambda: (
        exams().query("subject == 'Maths' and mark < 40").sort_values("order")["Candidate No"].tolist()
    ),
    "How many more percentage points did Olivia Bennett get in History than in English Lit?": (
        lambda: _mark("Olivia Bennett", "History") - _mark("Olivia Bennett", "English Lit")
    ),
    "Who did better in Physics, Yusuf Ahmed or Owen Taylor?": lambda: _taller(
        "Yusuf Ahmed", "Owen Taylor", lambda n: _mark(n, "Physics")
    ),
    "what is the candidate no of the pupil listed straight after Daria Ivanova": lambda: _row_after(
        exams_wide().assign(name=lambda d: d["Forename"] + " " + d["Surname"]),
        "name",
        "Daria Ivanova",
        "Candidate No",
    ),
    "We need the surname of the last 13A pupil on our results list - what is it?": (
        lambda: exams_wide().query("`Tutor Group` == '13A'").iloc[-1]["Surname"]
    ),
}
