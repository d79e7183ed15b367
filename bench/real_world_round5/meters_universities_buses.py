"""Round five of the real-world set (meters, universities, buses): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

import re
from collections.abc import Callable
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"

meter = pd.read_csv(HERE / "meter_readings.tsv", sep="\t", dtype=str, keep_default_na=False)
uni = pd.read_csv(HERE / "university_rankings.csv", dtype=str, keep_default_na=False)
bus = pd.read_parquet(HERE / "bus_ridership.parquet")


def num(s):
    """Parse '45,210 kWh', '£12.40', '38%', '-4.2' -> float; blank -> None."""
    if s is None:
        return None
    s = str(s).strip()
    if s == "" or s.lower() in ("nan", "<na>", "none"):
        return None
    s = re.sub(r"[£$,%\s]|kWh", "", s)
    return float(s)


def date(s):
    return pd.to_datetime(s, format="%Y-%m-%d")


meter["_cons"] = meter["Consumption (kWh)"].map(num)
meter["_cost"] = meter["Cost"].map(num)
meter["_date"] = meter["Reading Date"].map(date)

for c in ["Overall Score", "Teaching", "Research", "Students", "Intl Students", "Founded"]:
    uni["_" + c] = uni[c].map(num)


def row(df, col, val):
    r = df[df[col] == val]
    assert len(r) == 1, (col, val, len(r))
    return r.iloc[0]


def argmax_unique(df, col, out, smallest=False):
    d = df.dropna(subset=[col])
    best = d[col].min() if smallest else d[col].max()
    hits = d[d[col] == best]
    assert len(hits) == 1, f"tie on {col}"
    return str(hits.iloc[0][out])


def next_in(df, col, val, step=1):
    idx = list(df[col]).index(val)
    return df.iloc[idx + step]


def m_cost_max_date():
    return argmax_unique(meter, "_cost", "Reading Date")


def m_next_8802():
    d = meter[meter["Meter ID"] == "EM-8802"].reset_index(drop=True)
    return next_in(d, "Reading Date", "2024-05-03")["Reading"]


def m_diff_3156():
    d = meter[meter["Meter ID"] == "EM-3156"]
    a = d[d["Reading Date"] == "2024-04-05"]["_cons"].iloc[0]
    b = d[d["Reading Date"] == "2024-03-01"]["_cons"].iloc[0]
    return a - b


def m_last_est_4471():
    d = meter[(meter["Meter ID"] == "EM-4471") & (meter["Estimated"] == "Y")]
    return d.sort_values("_date").iloc[-1]["Reading Date"]


def m_q3_cost():
    d = meter[(meter["_date"] >= "2024-07-01") & (meter["_date"] <= "2024-09-30")]
    return round(d["_cost"].sum(), 2)


def u_either():
    a = row(uni, "Institution", "Kingsbridge University")
    b = row(uni, "Institution", "Université de Valcombe")
    assert a["_Teaching"] != b["_Teaching"]
    return a["Institution"] if a["_Teaching"] > b["_Teaching"] else b["Institution"]


def u_diff():
    return (
        row(uni, "Institution", "Hartwell State University")["_Students"]
        - row(uni, "Institution", "Carrington Polytechnic University")["_Students"]
    )


def b_row(route):
    return row(bus, "Route", route)


def b_either():
    a = row(bus, "Route Name", "Ashby Park & Ride")
    b = row(bus, "Route Name", "Millbrook Crosstown")
    return a["Route Name"] if a["Weekend Riders"] > b["Weekend Riders"] else b["Route Name"]


ANSWERS: dict[str, Callable[[], object]] = {
    # meter_readings.tsv
    "What was the cost for meter EM-8802 on 2024-07-05?": lambda: meter[
        (meter["Meter ID"] == "EM-8802") & (meter["Reading Date"] == "2024-07-05")
    ]["Cost"].iloc[0],
    "how many of the readings were estimated": lambda: int((meter["Estimated"] == "Y").sum()),
    "How many readings show more than 900 kWh used since the previous reading?": lambda: int(
        (meter["_cons"].dropna() > 900).sum()
    ),
    "On which date was the single most expensive reading?": m_cost_max_date,
    "total kwh used by meter EM-4471 across all its readings": lambda: meter[meter["Meter ID"] == "EM-4471"][
        "_cons"
    ].sum(),
    "What's the average cost of the off-peak readings?": lambda: round(
        meter[meter["Tariff"] == "Off-peak"]["_cost"].dropna().mean(), 2
    ),
    "how much more electricity did EM-3156 use in its 2024-04-05 reading than in its 2024-03-01 one": m_diff_3156,
    "What did meter EM-8802 read at the reading after the one on 2024-05-03?": m_next_8802,
    "when was the last estimated reading for EM-4471?": m_last_est_4471,
    "How much did we spend on electricity across all meters from July to September 2024?": m_q3_cost,
    # university_rankings.csv
    "What is Lakehurst University's research score?": lambda: row(uni, "Institution", "Lakehurst University")[
        "Research"
    ],
    "how many universities in the list are in the United States": lambda: int(
        (uni["Country"] == "United States").sum()
    ),
    "How many institutions have more than 40,000 students enrolled?": lambda: int(
        (uni["_Students"] > 40000).sum()
    ),
    "Which university has the highest share of international students?": lambda: argmax_unique(
        uni, "_Intl Students", "Institution"
    ),
    "oldest university in the ranking": lambda: argmax_unique(uni, "_Founded", "Institution", smallest=True),
    "Which universities were founded after 1950?": lambda: list(uni[uni["_Founded"] > 1950]["Institution"]),
    "which has the better teaching score, Kingsbridge University or Université de Valcombe?": u_either,
    "What's the average overall score of the UK universities?": lambda: round(
        uni[uni["Country"] == "United Kingdom"]["_Overall Score"].mean(), 2
    ),
    "Which university is ranked directly below Saint Aldric College?": lambda: next_in(
        uni, "Institution", "Saint Aldric College"
    )["Institution"],
    "how many more students does Hartwell State University have than Carrington Polytechnic University": u_diff,
    # bus_ridership.parquet
    "What's the on-time rate for route 12A?": lambda: b_row("12A")["On-Time Rate (%)"],
    "Which route number saw the biggest drop in ridership compared with last year?": lambda: argmax_unique(
        bus, "Change vs Last Year (%)", "Route", smallest=True
    ),
    "how many routes are carrying fewer passengers than last year": lambda: int(
        (bus["Change vs Last Year (%)"] < 0).sum()
    ),
    "Total weekday riders on Redline Buses routes?": lambda: int(
        bus[bus["Operator"] == "Redline Buses"]["Weekday Riders"].sum()
    ),
    "average punctuality for greenway coaches routes": lambda: round(
        bus[bus["Operator"] == "Greenway Coaches"]["On-Time Rate (%)"].dropna().mean(), 2
    ),
    "Which route has the worst on-time performance?": lambda: argmax_unique(
        bus, "On-Time Rate (%)", "Route", smallest=True
    ),
    "which routes have more than 13,000 riders on a weekday? give me the route names": lambda: list(
        bus[bus["Weekday Riders"] > 13000]["Route Name"]
    ),
    "Which is busier at weekends, Ashby Park & Ride or Millbrook Crosstown?": b_either,
    "How many routes run on time at least 90% of the time?": lambda: int(
        (bus["On-Time Rate (%)"].dropna() >= 90).sum()
    ),
    "how many more weekday passengers does route 9 carry than route 7": lambda: int(
        b_row("9")["Weekday Riders"] - b_row("7")["Weekday Riders"]
    ),
}
