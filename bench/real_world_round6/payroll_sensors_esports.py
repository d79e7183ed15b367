"""Round six of the real-world set (payroll, sensors, esports): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"


def money(s: str) -> float | None:
    """'$5,230.00', '(120.00)', '1046.5', '$1.2M', '$350K' -> float; blank -> None."""
    s = str(s).strip()
    if s in ("", "None", "nan"):
        return None
    neg = s.startswith("(") and s.endswith(")")
    s = s.strip("()").replace("$", "").replace(",", "")
    mult = 1
    if s[-1] in "MK":
        mult = 1_000_000 if s[-1] == "M" else 1_000
        s = s[:-1]
    v = float(s) * mult
    return -v if neg else v


def num(s: str) -> float | None:
    s = str(s).strip().rstrip("%")
    return None if s in ("", "None", "nan") else float(s)


def fmt_money(v: float) -> str:
    return f"${v:,.2f}"


# ---- tables (everything read as text) ----
pay = pd.read_excel(HERE / "payroll_march.xlsx", dtype=str, keep_default_na=False)
pay["gross"] = pay["Gross Pay (USD)"].map(money)
pay["tax"] = pay["Tax Withheld"].map(money)
pay["ded"] = pay["Deductions"].map(money)
pay["net"] = pay["Net Pay"].map(money)
pay["date"] = pd.to_datetime(pay["Pay Date"])

with open(HERE / "sensor_readings.jsonl") as f:
    sen = pd.DataFrame([json.loads(line) for line in f if line.strip()])
sen = sen.map(lambda v: "" if v is None else str(v))
sen["temp"] = sen["temp_c"].map(num)
sen["hum"] = sen["humidity"].map(num)
sen["batt"] = sen["battery"].map(num)
sen["ts"] = pd.to_datetime(sen["timestamp"])

esp = pd.read_csv(HERE / "esports_tournament.csv", dtype=str, keep_default_na=False)
esp["wins"] = esp["Wins"].map(num)
esp["played"] = esp["Matches Played"].map(num)
esp["kd"] = esp["K/D"].map(num)
esp["prize"] = esp["Prize Money"].map(money)


def prow(name):
    return pay[pay["Employee"] == name].iloc[0]


def srow(dev, ts):
    return sen[(sen["device"] == dev) & (sen["timestamp"] == ts)].iloc[0]


def erow(team):
    return esp[esp["Team"] == team].iloc[0]


def next_after(df, col, value):
    i = df.index[df[col] == value][0]
    return df.loc[df.index[df.index.get_loc(i) + 1]]


g1 = sen[sen["device"] == "greenhouse-1"].reset_index(drop=True)
g2 = sen[sen["device"] == "greenhouse-2"]

ANSWERS: dict[str, Callable[[], object]] = {
    # payroll_march.xlsx
    "What was Priya Nandakumar's net pay for March?": lambda: fmt_money(prow("Priya Nandakumar")["net"]),
    "how many people work in operations": lambda: int((pay["Department"] == "Operations").sum()),
    "How many employees had no deductions taken this month?": lambda: int(
        (pay["Deductions"].str.strip() == "").sum()
    ),
    "who had the biggest gross pay in march": lambda: pay.loc[pay["gross"].idxmax(), "Employee"],
    "total tax withheld for the sales team": lambda: pay.loc[pay["Department"] == "Sales", "tax"].sum(),
    "What's the average gross salary in Finance?": lambda: round(
        pay.loc[pay["Department"] == "Finance", "gross"].mean(), 2
    ),
    "how many employees were paid after march 15th": lambda: int((pay["date"] > "2024-03-15").sum()),
    "Who took home more, Lucia Benedetti or Corbin Ashdown?": lambda: max(
        ["Lucia Benedetti", "Corbin Ashdown"], key=lambda n: prow(n)["net"]
    ),
    "which employees grossed more than $8,000": lambda: list(pay.loc[pay["gross"] > 8000, "Employee"]),
    "How much more was Keiko Halvorsen paid gross than Tobias Wren?": lambda: (
        prow("Keiko Halvorsen")["gross"] - prow("Tobias Wren")["gross"]
    ),
    # sensor_readings.jsonl
    "What temperature did greenhouse-2 read at 2024-03-05T08:00:00Z?": lambda: srow(
        "greenhouse-2", "2024-03-05T08:00:00Z"
    )["temp_c"],
    "how many readings were below freezing": lambda: int((sen["temp"] < 0).sum()),
    "average humidity for greenhouse-1": lambda: round(
        sen.loc[sen["device"] == "greenhouse-1", "hum"].dropna().mean(), 2
    ),
    "When was the highest humidity recorded?": lambda: sen.loc[sen["hum"].idxmax(), "timestamp"],
    "what was greenhouse-2's battery level at its most recent reading": lambda: g2.loc[
        g2["ts"].idxmax(), "battery"
    ],
    "What temperature did greenhouse-1 log in its next reading after 2024-03-04T12:00:00Z?": lambda: (
        next_after(g1, "timestamp", "2024-03-04T12:00:00Z")["temp_c"]
    ),
    "how many readings on march 5 were warmer than 20 degrees": lambda: int(
        ((sen["ts"].dt.strftime("%Y-%m-%d") == "2024-03-05") & (sen["temp"] > 20)).sum()
    ),
    "How many readings are missing a humidity value?": lambda: int(sen["hum"].isna().sum()),
    "How much warmer was greenhouse-1 than greenhouse-3 at noon on March 4?": lambda: (
        srow("greenhouse-1", "2024-03-04T12:00:00Z")["temp"]
        - srow("greenhouse-3", "2024-03-04T12:00:00Z")["temp"]
    ),
    "at what times did greenhouse-2 go above 24 °C": lambda: list(g2.loc[g2["temp"] > 24, "timestamp"]),
    # esports_tournament.csv
    "what's Iron Lotus's K/D?": lambda: erow("Iron Lotus")["K/D"],
    "How many teams are from the EU region?": lambda: int((esp["Region"] == "EU").sum()),
    "which team has the worst kill/death ratio": lambda: esp.loc[esp["kd"].idxmin(), "Team"],
    "total wins for NA teams": lambda: esp.loc[esp["Region"] == "NA", "wins"].sum(),
    "What's the average number of matches played by APAC teams?": lambda: round(
        esp.loc[esp["Region"] == "APAC", "played"].mean(), 2
    ),
    "which teams have a k/d under 0.85": lambda: list(esp.loc[esp["kd"] < 0.85, "Team"]),
    "Who won more matches, Sandstorm Relay or Blue Harbor?": lambda: max(
        ["Sandstorm Relay", "Blue Harbor"], key=lambda t: erow(t)["wins"]
    ),
    "how many teams went home with no prize money": lambda: int(esp["prize"].isna().sum()),
    "Which team is listed right after Copperline?": lambda: next_after(esp, "Team", "Copperline")["Team"],
    "how much more prize money did Nightjar Syndicate win than Jade Serpents": lambda: (
        erow("Nightjar Syndicate")["prize"] - erow("Jade Serpents")["prize"]
    ),
}
