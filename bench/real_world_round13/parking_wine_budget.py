"""Round 13 real-world answers: parking ticket log, wine stock list and town budget (w67)."""

from __future__ import annotations

import csv
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
QUESTIONS = REAL / "questions-round13-w67.tsv"


# --- parsing helpers -------------------------------------------------------------


def money(text: object) -> float:
    """Parse '$45.00', 'CHF 24.90', '1,250,000' or '(120,000)' into a float."""
    s = str(text).strip().replace("CHF", "").replace("$", "").replace(",", "")
    s = s.strip()
    negative = s.startswith("(") and s.endswith(")")
    s = s.strip("()")
    value = float(s) if s else 0.0
    return -value if negative else value


def percent(text: object) -> float:
    """Parse '-3.5%' into -3.5."""
    return float(str(text).strip().rstrip("%"))


@cache
def parking() -> pd.DataFrame:
    path = REAL / "r13_parking_tickets.csv"
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    df["issued_at"] = pd.to_datetime(df["Issued"], format="%Y-%m-%dT%H:%M")
    df["fine"] = df["Fine"].map(money)
    return df


@cache
def wine() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r13_wine_stock.xlsx", dtype=object)
    df["price"] = df["Price"].map(money)
    df["bottles"] = df["Bottles in Stock"].astype(int)
    df["year"] = pd.to_numeric(df["Vintage"], errors="coerce")  # 'NV' -> NaN
    return df


@cache
def budget() -> pd.DataFrame:
    path = REAL / "r13_town_budget.csv"
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    df["y2023"] = df["2023 Actual"].map(money)
    df["y2024"] = df["2024 Budget"].map(money)
    df["change"] = df["Change"].map(money)
    df["pct"] = df["% Change"].map(percent)
    return df


def cell(df: pd.DataFrame, key: str, value: str, column: str) -> str:
    """The cell of `column` in the single row where `key` equals `value`."""
    rows = df[df[key] == value]
    assert len(rows) == 1, (key, value, len(rows))
    return str(rows.iloc[0][column])


def next_after(df: pd.DataFrame, key: str, value: str) -> str:
    """The `key` of the row listed right after the row where `key` is `value`."""
    idx = df.index[df[key] == value][0]
    return str(df.loc[idx + 1, key])


def either(a: str, va: float, b: str, vb: float) -> str:
    assert va != vb
    return a if va > vb else b


# --- parking tickets ---------------------------------------------------------------


def p_street_of_ticket() -> str:
    return cell(parking(), "Ticket No", "PT-24008", "Street")


def p_main_st() -> int:
    return int((parking()["Street"] == "Main St").sum())


def p_no_status() -> int:
    return int((parking()["Status"].str.strip() == "").sum())


def p_top_violation() -> str:
    p = parking()
    return str(p.loc[p["fine"].idxmax(), "Violation"])


def p_appealed_total() -> float:
    p = parking()
    return float(p.loc[p["Status"] == "Appealed", "fine"].sum())


def p_oak_avg() -> float:
    p = parking()
    return round(float(p.loc[p["Street"].str.lower() == "oak ave", "fine"].mean()), 2)


def p_june() -> int:
    t = parking()["issued_at"]
    return int(((t.dt.year == 2024) & (t.dt.month == 6)).sum())


def p_after() -> str:
    return next_after(parking(), "Ticket No", "PT-24011")


def p_latest_plate() -> str:
    p = parking()
    return str(p.loc[p["issued_at"].idxmax(), "Plate"])


def p_elm_or_harbor() -> str:
    totals = parking().groupby("Street")["fine"].sum()
    return either("Elm St", totals["Elm St"], "Harbor Rd", totals["Harbor Rd"])


# --- wine stock ------------------------------------------------------------------


def w_cornalin_price() -> str:
    return cell(wine(), "Wine", "Cornalin", "Price")


def w_swiss() -> int:
    return int((wine()["Country"] == "Switzerland").sum())


def w_out_of_stock() -> int:
    return int((wine()["bottles"] == 0).sum())


def w_priciest() -> str:
    w = wine()
    return str(w.loc[w["price"].idxmax(), "Wine"])


def w_before_2019() -> list[str]:
    w = wine()
    return w.loc[w["year"] < 2019, "Wine"].tolist()


def w_italian_bottles() -> int:
    w = wine()
    return int(w.loc[w["Country"] == "Italy", "bottles"].sum())


def w_french_avg() -> float:
    w = wine()
    return round(float(w.loc[w["Country"] == "France", "price"].mean()), 2)


def w_barolo_vs_rioja() -> float:
    barolo = money(cell(wine(), "Wine", "Barolo", "Price"))
    rioja = money(cell(wine(), "Wine", "Rioja Reserva", "Price"))
    return round(barolo - rioja, 2)


def w_prosecco_or_chasselas() -> str:
    bottles = wine().set_index("Wine")["bottles"]
    a, b = "Prosecco Superiore", "Chasselas Grand Cru"
    return either(a, bottles[a], b, bottles[b])


def w_after_sancerre() -> str:
    return next_after(wine(), "Wine", "Sancerre")


# --- town budget -----------------------------------------------------------------


def b_library() -> str:
    return cell(budget(), "Department", "Library", "2024 Budget")


def b_cuts() -> int:
    return int((budget()["change"] < 0).sum())


def b_biggest_pct_cut() -> str:
    b = budget()
    return str(b.loc[b["pct"].idxmin(), "Department"])


def b_smallest_cut() -> str:
    b = budget()
    cuts = b.loc[b["change"] < 0, "change"]
    return str(b.loc[cuts.idxmax(), "Department"])


def b_largest_increase() -> str:
    b = budget()
    return str(b.loc[(b["y2024"] - b["y2023"]).idxmax(), "Department"])


def b_total_2024() -> float:
    return float(budget()["y2024"].sum())


def b_fire_minus_pw() -> float:
    fire = money(cell(budget(), "Department", "Fire", "2024 Budget"))
    works = money(cell(budget(), "Department", "Public Works", "2024 Budget"))
    return fire - works


def b_avg_pct() -> float:
    return round(float(budget()["pct"].mean()), 2)


def b_no_notes() -> int:
    return int((budget()["Notes"].str.strip() == "").sum())


def b_over_2m_2023() -> list[str]:
    b = budget()
    return b.loc[b["y2023"] > 2_000_000, "Department"].tolist()


Q1 = "Which street had more in total fines written, Elm St or Harbor Rd?"
Q2 = "Do we have more bottles of Prosecco Superiore or Chasselas Grand Cru?"
Q3 = "Of the departments whose budgets were cut, which one lost the least money?"
Q4 = "Which department got the largest dollar increase from 2023 to 2024?"

ANSWERS: dict[str, Callable[[], object]] = {
    "What street was ticket PT-24008 issued on?": lambda: p_street_of_ticket(),
    "how many tickets were written on Main St": lambda: p_main_st(),
    "How many tickets still have no status recorded?": lambda: p_no_status(),
    "Which violation carries the highest fine?": lambda: p_top_violation(),
    "What's the total of the fines on tickets that were appealed?": lambda: p_appealed_total(),
    "average fine for tickets on oak ave": lambda: p_oak_avg(),
    "How many tickets did we issue in June 2024?": lambda: p_june(),
    "Which ticket comes right after PT-24011 in the log?": lambda: p_after(),
    "what plate got the most recent ticket": lambda: p_latest_plate(),
    Q1: lambda: p_elm_or_harbor(),
    "What's the price of the Cornalin?": lambda: w_cornalin_price(),
    "how many of our wines are from Switzerland": lambda: w_swiss(),
    "How many wines are currently out of stock (0 bottles)?": lambda: w_out_of_stock(),
    "Which wine is the most expensive per bottle?": lambda: w_priciest(),
    "Which wines have a vintage earlier than 2019?": lambda: w_before_2019(),
    "total bottles in stock of italian wines": lambda: w_italian_bottles(),
    "What is the average price of our French wines?": lambda: w_french_avg(),
    "How much more does the Barolo cost than the Rioja Reserva?": lambda: w_barolo_vs_rioja(),
    Q2: lambda: w_prosecco_or_chasselas(),
    "which wine is listed right after the Sancerre": lambda: w_after_sancerre(),
    "What was the 2024 budget for the Library?": lambda: b_library(),
    "How many departments had their budget cut for 2024?": lambda: b_cuts(),
    "which department took the biggest percentage cut": lambda: b_biggest_pct_cut(),
    Q3: lambda: b_smallest_cut(),
    Q4: lambda: b_largest_increase(),
    "What is our total 2024 budget across all departments?": lambda: b_total_2024(),
    "how much more is Fire budgeted than Public Works in 2024": lambda: b_fire_minus_pw(),
    "What's the average % change across all the departments?": lambda: b_avg_pct(),
    "How many departments have nothing in the notes column?": lambda: b_no_notes(),
    "Which departments spent more than 2,000,000 in 2023?": lambda: b_over_2m_2023(),
}


# --- self-check --------------------------------------------------------------------


def agrees(gold: str, got: object) -> bool:
    """A list matches '|'-joined gold, a str matches exactly, a number within half a unit."""
    if isinstance(got, list):
        return [str(x) for x in got] == gold.split("|")
    if isinstance(got, str):
        return got == gold
    decimals = len(gold.split(".")[1]) if "." in gold else 0
    return abs(float(got) - float(gold)) <= 0.5 * 10**-decimals


def check() -> int:
    """Compare each gold answer in the TSV with the computed one; return the failures."""
    with QUESTIONS.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    bad = 0
    for row in rows:
        got = ANSWERS[row["question"]]()
        ok = agrees(row["answer"], got)
        bad += not ok
        mark = "OK " if ok else "BAD"
        print(f"{mark} [{row['type']}] {row['question']}")
        print(f"      gold={row['answer']!r} got={got!r}")
    missing = set(ANSWERS) - {r["question"] for r in rows}
    print(f"{len(rows) - bad}/{len(rows)} agree; {len(missing)} answers lack a TSV line")
    return bad + len(missing)


if __name__ == "__main__":
    raise SystemExit(check())
