"""Independent pandas answers for round 22 (greenhouse sensors, credit union loans, table tennis tournament)."""

from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"

GREENHOUSE = "r22_greenhouse_sensors.tsv"
LOANS = "r22_credit_union_loans.csv"
TOURNAMENT = "r22_tt_tournament.csv"


def _euro(text: object) -> float:
    """Parse a European number such as '-1.310,75' or '4,25 %'."""
    if pd.isna(text):
        return float("nan")
    s = str(text).replace("%", "").replace("\u00a0", "").strip()
    s = s.replace(".", "").replace(",", ".")
    return float(s)


def _seconds(text: object) -> float:
    """Parse an hh:mm:ss duration into seconds; blank gives NaN."""
    if pd.isna(text) or not str(text).strip():
        return float("nan")
    h, m, s = (int(p) for p in str(text).strip().split(":"))
    return float(h * 3600 + m * 60 + s)


def greenhouse() -> pd.DataFrame:
    df = pd.read_csv(REAL / GREENHOUSE, sep="\t", dtype=str, keep_default_na=False)
    df["ts"] = pd.to_datetime(df["Timestamp"], format="%d/%m/%Y %H:%M")
    for col, new in [("Temp (°C)", "temp"), ("Humidity (%)", "hum"), ("CO2 (ppm)", "co2")]:
        df[new] = pd.to_numeric(df[col].str.strip().replace("", None), errors="coerce")
    return df


def loans() -> pd.DataFrame:
    df = pd.read_csv(REAL / LOANS, sep=";", dtype=str, keep_default_na=False)
    df["amount"] = df["Amount (EUR)"].map(_euro)
    df["rate"] = df["Interest Rate"].map(_euro)
    df["arrears"] = df["Arrears (EUR)"].map(_euro)
    df["start"] = pd.to_datetime(df["Start Date"], format="%d.%m.%Y")
    df["term"] = df["Term (months)"].astype(int)
    return df


def tournament() -> pd.DataFrame:
    df = pd.read_csv(REAL / TOURNAMENT, dtype=str, keep_default_na=False)
    df["secs"] = df["Duration"].map(_seconds)
    df["p1"] = pd.to_numeric(df["Points 1"].replace("", None), errors="coerce")
    df["p2"] = pd.to_numeric(df["Points 2"].replace("", None), errors="coerce")
    return df


def _g_row(df: pd.DataFrame, ts: str, zone: str) -> pd.Series:
    hit = df[(df["Timestamp"] == ts) & (df["Zone"] == zone)]
    assert len(hit) == 1
    return hit.iloc[0]


def _loan(df: pd.DataFrame, number: str) -> pd.Series:
    hit = df[df["Loan No"] == number]
    assert len(hit) == 1
    return hit.iloc[0]


def _match(df: pd.DataFrame, mid: str) -> pd.Series:
    hit = df[df["Match"] == mid]
    assert len(hit) == 1
    return hit.iloc[0]


def _next_row(df: pd.DataFrame, col: str, value: str) -> pd.Series:
    pos = df.index[df[col] == value][0]
    return df.loc[pos + 1]


def _points_total(df: pd.DataFrame, player: str) -> float:
    as_p1 = df.loc[df["Player 1"] == player, "p1"].sum()
    as_p2 = df.loc[df["Player 2"] == player, "p2"].sum()
    return float(as_p1 + as_p2)


def _five_gamers(df: pd.DataFrame) -> int:
    games = df["Games"].str.strip()
    played = games[games != ""].str.split("-", expand=True).astype(int)
    return int((played.sum(axis=1) == 5).sum())


ANSWERS: dict[str, Callable[[], object]] = {
    # greenhouse
    "What was the humidity in Zone B at 02/03/2024 06:00?": lambda: _g_row(
        greenhouse(), "02/03/2024 06:00", "Zone B"
    )["Humidity (%)"],
    "how many temperature readings were below zero": lambda: int((greenhouse()["temp"] < 0).sum()),
    "At what timestamp was the highest CO2 level recorded?": lambda: greenhouse().loc[
        greenhouse()["co2"].idxmax(), "Timestamp"
    ],
    "What's the average 14:00 temperature in Zone A across all days?": lambda: round(
        greenhouse()
        .query("Zone == 'Zone A'")
        .loc[lambda d: d["ts"].dt.strftime("%H:%M") == "14:00", "temp"]
        .mean(),
        2,
    ),
    "How many readings are missing a CO2 value?": lambda: int(greenhouse()["co2"].isna().sum()),
    "how many readings did our sensors log in March 2024": lambda: int(
        ((greenhouse()["ts"].dt.year == 2024) & (greenhouse()["ts"].dt.month == 3)).sum()
    ),
    "On the morning of 29/02/2024 at 06:00, which was colder: Zone A or the Cold Frame?": lambda: min(
        ["Zone A", "Cold Frame"], key=lambda z: _g_row(greenhouse(), "29/02/2024 06:00", z)["temp"]
    ),
    "How much warmer was Zone B than the Cold Frame at 03/03/2024 14:00, in degrees?": lambda: round(
        _g_row(greenhouse(), "03/03/2024 14:00", "Zone B")["temp"]
        - _g_row(greenhouse(), "03/03/2024 14:00", "Cold Frame")["temp"],
        2,
    ),
    "what was the last temperature reading logged for the cold frame": lambda: (
        greenhouse()
        .query("Zone == 'Cold Frame'")
        .dropna(subset=["temp"])
        .sort_values("ts", kind="stable")
        .iloc[-1]["Temp (°C)"]
    ),
    "We want the mean of the Cold Frame's 06:00 temperatures over the whole log - what is it?": lambda: round(
        greenhouse().query("Zone == 'Cold Frame'").loc[lambda d: d["ts"].dt.hour == 6, "temp"].mean(),
        2,
    ),
    # loans
    "What's the interest rate on loan LN-2023-014?": lambda: _loan(loans(), "LN-2023-014")["Interest Rate"],
    "how many car loans do we have on the books": lambda: int((loans()["Loan Type"] == "Car").sum()),
    "What is the total amount lent across all Mortgage Top-Up loans?": lambda: round(
        float(loans().loc[loans()["Loan Type"] == "Mortgage Top-Up", "amount"].sum()), 2
    ),
    "how many of our loans show a negative arrears figure": lambda: int((loans()["arrears"] < 0).sum()),
    "Which member is paying the highest interest rate?": lambda: loans().loc[
        loans()["rate"].idxmax(), "Member"
    ],
    "How many loans were started in Q2 2023 (April to June)?": lambda: int(
        loans()["start"].between(pd.Timestamp("2023-04-01"), pd.Timestamp("2023-06-30")).sum()
    ),
    "average term in months for personal loans": lambda: round(
        float(loans().loc[loans()["Loan Type"] == "Personal", "term"].mean()), 2
    ),
    "Who holds the loan listed directly after LN-2023-012?": lambda: _next_row(
        loans(), "Loan No", "LN-2023-012"
    )["Member"],
    "By how many euros does loan LN-2023-012 exceed LN-2023-008 in amount?": lambda: round(
        _loan(loans(), "LN-2023-012")["amount"] - _loan(loans(), "LN-2023-008")["amount"], 2
    ),
    "Which loan numbers have an amount above 20.000,00 EUR?": lambda: (
        loans().loc[loans()["amount"] > 20000, "Loan No"].tolist()
    ),
    # tournament
    "What was the games score in match M10?": lambda: _match(tournament(), "M10")["Games"],
    "how many matches were walkovers": lambda: int((tournament()["W/O"].str.strip() == "W/O").sum()),
    "Which match lasted the longest?": lambda: tournament().loc[tournament()["secs"].idxmax(), "Match"],
    "who won the last match listed in the tournament": lambda: tournament().iloc[-1]["Winner"],
    "Which quarter-final took longer, M09 or M11?": lambda: max(
        ["M09", "M11"], key=lambda m: _match(tournament(), m)["secs"]
    ),
    "How many matches went the full five games (3-2 or 2-3)?": lambda: _five_gamers(tournament()),
    "For the Round of 16 matches that were actually played (not walkovers), what was the average duration in minutes?": (
        lambda: round(
            float(
                tournament()
                .loc[lambda d: (d["Round"] == "Round of 16") & (d["W/O"].str.strip() != "W/O"), "secs"]
                .mean()
            )
            / 60,
            2,
        )
    ),
    "Which matches lasted more than 45 minutes?": lambda: (
        tournament().loc[tournament()["secs"] > 45 * 60, "Match"].tolist()
    ),
    "total points scored by Daniel Okafor across all his matches?": lambda: _points_total(
        tournament(), "Daniel Okafor"
    ),
    "In the match listed right after M06, who was Player 2?": lambda: _next_row(tournament(), "Match", "M06")[
        "Player 2"
    ],
}


def _agrees(gold: str, got: object) -> bool:
    if isinstance(got, list):
        return gold.split("|") == [str(x) for x in got]
    if isinstance(got, str):
        return gold == got
    decimals = len(gold.split(".")[1]) if "." in gold else 0
    return abs(float(gold) - float(got)) <= 0.5 * 10**-decimals + 1e-9


def check() -> int:
    qfile = REAL / "questions-round22-w102.tsv"
    qs = pd.read_csv(qfile, sep="\t", dtype=str, keep_default_na=False)
    bad = 0
    for row in qs.itertuples(index=False):
        got = ANSWERS[row.question]()
        ok = _agrees(row.answer, got)
        bad += not ok
        print(f"{'OK ' if ok else 'BAD'} [{row.type}] {row.table}: gold={row.answer!r} got={got!r}")
    print(f"{len(qs) - bad}/{len(qs)} agree; {len(ANSWERS)} answer functions")
    return bad


if __name__ == "__main__":
    raise SystemExit(check())
