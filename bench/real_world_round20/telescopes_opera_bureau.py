"""Independent pandas answers for round-20 tables: telescope loans, opera season, exchange bureau rates."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
TSV = REAL / "questions-round20-w96.tsv"


def _money(text: object) -> float:
    return float(str(text).replace("£", "").replace(",", "").strip())


def _minutes(text: object) -> int:
    m = re.fullmatch(r"\s*(\d+)h\s*(?:(\d+)m)?\s*", str(text))
    if m is None:
        raise ValueError(f"bad running time: {text!r}")
    return int(m.group(1)) * 60 + int(m.group(2) or 0)


def _percent(text: object) -> float:
    return float(str(text).replace("%", "").strip())


def loans() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r20_telescope_loans.xlsx", sheet_name="Loans", dtype=str)
    df = df.apply(lambda s: s.str.strip())
    df["loaned_dt"] = pd.to_datetime(df["Loaned"], format="%B %d, %Y")
    df["returned_dt"] = pd.to_datetime(df["Returned"], format="%B %d, %Y")
    df["nights"] = df["Nights Used"].astype(float).astype(int)
    df["aperture_mm"] = df["Aperture"].str.extract(r"(\d+)")[0].astype(int)
    return df


def opera() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r20_opera_season.csv", dtype=str, encoding="utf-8")
    df["date"] = pd.to_datetime(df["Performance Date"], format="%a %d %b %Y")
    df["minutes"] = df["Running Time"].map(_minutes)
    df["cheap"] = df["Cheapest Seat"].map(_money)
    df["dear"] = df["Dearest Seat"].map(_money)
    df["sold"] = pd.to_numeric(df["Seats Sold"].str.replace(",", ""), errors="coerce")
    return df


def rates() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r20_exchange_rates.csv", dtype=str)
    df["date"] = pd.to_datetime(df["Date"], format="%Y-%m-%d")
    df["buy"] = df["We Buy"].astype(float)
    df["sell"] = df["We Sell"].astype(float)
    df["commission"] = df["Commission"].map(_percent)
    df["change"] = df["Change on Day"].astype(float)
    return df


def _loan_after(member: str, scope: str) -> str:
    df = loans().sort_values("loaned_dt").reset_index(drop=True)
    idx = df.index[(df["Member"] == member) & (df["Telescope"] == scope)]
    assert len(idx) == 1
    return df.loc[idx[0] + 1, "Member"]


def _work_after(work: str) -> str:
    df = opera().sort_values("date").reset_index(drop=True)
    idx = df.index[df["Work"] == work]
    assert len(idx) == 1
    return df.loc[idx[0] + 1, "Work"]


def _nights_either(a: str, b: str) -> str:
    totals = loans().groupby("Telescope")["nights"].sum()
    return a if totals[a] > totals[b] else b


def _sold_either(a: str, b: str) -> str:
    totals = opera().groupby("Work")["sold"].sum()
    return a if totals[a] > totals[b] else b


def _commission_either(a: str, b: str) -> str:
    com = rates().groupby("Currency")["commission"].max()
    assert rates().groupby("Currency")["commission"].nunique()[[a, b]].eq(1).all()
    return a if com[a] > com[b] else b


def _where(df: pd.DataFrame, conds: dict[str, str]) -> pd.DataFrame:
    mask = pd.Series(True, index=df.index)
    for col, val in conds.items():
        target = pd.Timestamp(val) if pd.api.types.is_datetime64_any_dtype(df[col]) else val
        mask &= df[col] == target
    return df[mask]


def _one(df: pd.DataFrame, col: str) -> str:
    assert len(df) == 1, df
    return df[col].iloc[0]


ANSWERS: dict[str, Callable[[], object]] = {
    # telescope loans (xlsx)
    "Which telescope did Marcus Lee borrow on March 28, 2024?": lambda: _one(
        _where(loans(), {"Member": "Marcus Lee", "loaned_dt": "2024-03-28"}), "Telescope"
    ),
    "how many loans were of the Orion SkyQuest XT8": lambda: int(
        (loans()["Telescope"] == "Orion SkyQuest XT8").sum()
    ),
    "How many of our loans still have no return date?": lambda: int(loans()["Returned"].isna().sum()),
    "Which member used a telescope for the most nights on a single loan?": lambda: (
        loans().sort_values("nights", ascending=False)["Member"].iloc[0]
    ),
    "total nights used across all loans": lambda: int(loans()["nights"].sum()),
    "What is the average number of nights used per loan for Priya Raman?": lambda: round(
        loans().loc[lambda d: d["Member"] == "Priya Raman", "nights"].mean(), 2
    ),
    "which loans started in February 2024? give the loan IDs": lambda: (
        loans()
        .loc[lambda d: (d["loaned_dt"].dt.year == 2024) & (d["loaned_dt"].dt.month == 2), "Loan ID"]
        .tolist()
    ),
    "Who borrowed a telescope in the loan right after Ana Costa's Meade ETX-90 loan?": lambda: _loan_after(
        "Ana Costa", "Meade ETX-90"
    ),
    "Who was the last member to take out a loan?": lambda: (
        loans().sort_values("loaned_dt")["Member"].iloc[-1]
    ),
    "Did we log more nights in total on the Celestron NexStar 8SE or the Orion SkyQuest XT8?": lambda: (
        _nights_either("Celestron NexStar 8SE", "Orion SkyQuest XT8")
    ),
    # opera season (csv)
    "What was the dearest seat for Tosca?": lambda: _one(_where(opera(), {"Work": "Tosca"}), "Dearest Seat"),
    "how many performances of works by Puccini are in the season": lambda: int(
        opera()["Composer"].str.contains("Puccini").sum()
    ),
    "How many performances have a running time of more than 3 hours?": lambda: int(
        (opera()["minutes"] > 180).sum()
    ),
    "Which work sold the fewest seats at a single performance?": lambda: (
        opera().dropna(subset=["sold"]).sort_values("sold")["Work"].iloc[0]
    ),
    "total seats sold across the Carmen performances": lambda: int(
        opera().loc[lambda d: d["Work"] == "Carmen", "sold"].sum()
    ),
    "What's the average cheapest seat price across the whole season, in pounds?": lambda: round(
        opera()["cheap"].mean(), 2
    ),
    "For the Tristan und Isolde performance on Sat 8 Feb 2025, how much more is the dearest seat than the cheapest?": (
        lambda: (lambda r: r["dear"].iloc[0] - r["cheap"].iloc[0])(
            _where(opera(), {"Work": "Tristan und Isolde", "date": "2025-02-08"})
        )
    ),
    "which dates in November 2024 have a performance": lambda: (
        opera()
        .loc[lambda d: (d["date"] >= "2024-11-01") & (d["date"] <= "2024-11-30"), "Performance Date"]
        .tolist()
    ),
    "Which sold more seats in total across its performances, La Bohème or Don Giovanni?": lambda: (
        _sold_either("La Bohème", "Don Giovanni")
    ),
    "what work is on right after Peter Grimes": lambda: _work_after("Peter Grimes"),
    # exchange bureau (csv)
    "What was the sell rate for the Swiss Franc on 2024-06-04?": lambda: _one(
        _where(rates(), {"Currency": "Swiss Franc", "date": "2024-06-04"}), "We Sell"
    ),
    "how many rows show a negative change on the day": lambda: int((rates()["change"] < 0).sum()),
    "On 2024-06-05, which currency had the lowest change on the day?": lambda: (
        _where(rates(), {"date": "2024-06-05"}).sort_values("change")["Currency"].iloc[0]
    ),
    "What is the average JPY buy rate over the four days?": lambda: round(
        rates().loc[lambda d: d["ISO Code"] == "JPY", "buy"].mean(), 2
    ),
    "Add up the Australian Dollar's change on the day across all dates - what's the total?": lambda: round(
        rates().loc[lambda d: d["Currency"] == "Australian Dollar", "change"].sum(), 4
    ),
    "How much higher was the euro buy rate than its sell rate on 2024-06-03?": lambda: (
        lambda r: round(r["buy"].iloc[0] - r["sell"].iloc[0], 4)
    )(_where(rates(), {"ISO Code": "EUR", "date": "2024-06-03"})),
    "what was the last sell rate listed for AUD": lambda: (
        rates().loc[lambda d: d["ISO Code"] == "AUD"].sort_values("date")["We Sell"].iloc[-1]
    ),
    "Which charges the higher commission, the Swiss Franc or the Australian Dollar?": lambda: (
        _commission_either("Swiss Franc", "Australian Dollar")
    ),
    "How many rows have a commission below 2%?": lambda: int((rates()["commission"] < 2).sum()),
    "On which dates was our US Dollar sell rate above 1.2190?": lambda: (
        rates().loc[lambda d: (d["ISO Code"] == "USD") & (d["sell"] > 1.2190), "Date"].tolist()
    ),
}


def _agrees(got: object, gold: str) -> bool:
    if isinstance(got, list):
        parts = gold.split("|")
        return len(parts) == len(got) and all(_agrees(g, p) for g, p in zip(got, parts, strict=True))
    if isinstance(got, (int, float)) and not isinstance(got, bool):
        decimals = len(gold.split(".")[1]) if "." in gold else 0
        return abs(float(got) - float(gold)) <= 0.5 * 10**-decimals + 1e-9
    return str(got) == gold


def check() -> int:
    gold = pd.read_csv(TSV, sep="\t", dtype=str, keep_default_na=False, encoding="utf-8")
    assert list(gold.columns) == ["table", "question", "answer", "type"]
    assert set(gold["question"]) == set(ANSWERS), set(gold["question"]) ^ set(ANSWERS)
    bad = 0
    for row in gold.itertuples(index=False):
        got = ANSWERS[row.question]()
        ok = _agrees(got, row.answer)
        bad += not ok
        print(f"{'OK ' if ok else 'BAD'} [{row.type}] {row.table}: gold={row.answer!r} got={got!r}")
    print(f"{len(gold) - bad}/{len(gold)} agree")
    print(gold["type"].value_counts().to_string())
    return bad


if __name__ == "__main__":
    raise SystemExit(check())
