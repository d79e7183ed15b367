"""Round 19 (w90) gold checks: orchestra roster (JSON), energy tariffs (CSV ;), shop returns (JSONL)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _eu_number(value: object) -> float | None:
    """Parse a European decimal-comma number such as '0,285' or '1.234,50'; blanks give None."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return None
    text = str(value).strip().replace("€", "").strip()
    if not text:
        return None
    return float(text.replace(".", "").replace(",", "."))


def _load_roster() -> pd.DataFrame:
    records = json.loads((REAL / "r19_orchestra_roster.json").read_text(encoding="utf-8"))
    df = pd.DataFrame(records)
    df["name_clean"] = df["name"].str.strip()
    df["instrument_norm"] = df["instrument"].str.strip().str.lower()
    df["section_norm"] = df["section"].str.strip().str.lower()
    df["joined"] = df["year_joined"].astype(str).str.strip().astype(int)
    df["attended"] = df["rehearsals_attended"].str.split("/").str[0].str.strip().astype(int)
    df["has_email"] = df["email"].notna() & (df["email"].astype(str).str.strip() != "")
    return df


def _load_tariffs() -> pd.DataFrame:
    df = pd.read_csv(
        REAL / "r19_energy_tariffs.csv", sep=";", dtype=str, keep_default_na=False, encoding="utf-8-sig"
    )
    df.columns = [c.strip() for c in df.columns]
    df["rate"] = df["Unit rate (€/kWh)"].map(_eu_number)
    df["standing"] = df["Standing charge (€/month)"].map(_eu_number)
    df["months"] = df["Contract (months)"].astype(int)
    df["green"] = df["Green"].str.strip().str.lower() == "yes"
    df["exit_fee"] = df["Exit fee (€)"].map(_eu_number)
    return df


def _load_returns() -> pd.DataFrame:
    lines = (REAL / "r19_shop_returns.jsonl").read_text(encoding="utf-8").splitlines()
    df = pd.DataFrame([json.loads(line) for line in lines if line.strip()])
    df["date"] = pd.to_datetime(df["return_date"].str.slice(0, 10), format="%Y-%m-%d")
    df["reason_norm"] = df["reason"].fillna("").astype(str).str.strip().str.lower()
    df["refund_amt"] = df["refund"].astype(float)
    df["days"] = df["days_to_return"].astype(int)
    return df


ROSTER = _load_roster()
TARIFFS = _load_tariffs()
RETURNS = _load_returns()


def _member(name: str) -> pd.Series:
    return ROSTER[ROSTER["name_clean"] == name].iloc[0]


def _tariff(supplier: str, tariff: str) -> pd.Series:
    rows = TARIFFS[(TARIFFS["Supplier"] == supplier) & (TARIFFS["Tariff"] == tariff)]
    return rows.iloc[0]


def _supplier_standing(supplier: str) -> float:
    return TARIFFS.loc[TARIFFS["Supplier"] == supplier, "standing"].iloc[0]


def _next_member(name: str) -> str:
    pos = ROSTER.index[ROSTER["name_clean"] == name][0]
    return ROSTER.loc[pos + 1, "name_clean"]


def _better_attendance(a: str, b: str) -> str:
    return a if _member(a)["attended"] > _member(b)["attended"] else b


def _lower_standing(a: str, b: str) -> str:
    return a if _supplier_standing(a) < _supplier_standing(b) else b


ANSWERS: dict[str, Callable[[], object]] = {
    # orchestra roster
    "What instrument does Kenji Mori play?": lambda: _member("Kenji Mori")["instrument"],
    "how many violinists do we have": lambda: int((ROSTER["instrument_norm"] == "violin").sum()),
    "How many of our members don't have an email address on file?": lambda: int((~ROSTER["has_email"]).sum()),
    "Who has been with the orchestra the longest?": lambda: ROSTER.loc[
        ROSTER["joined"].idxmin(), "name_clean"
    ],
    "what's the average number of rehearsals attended per member": lambda: round(
        ROSTER["attended"].mean(), 2
    ),
    "Which members made it to fewer than 10 of the 20 rehearsals?": lambda: ROSTER.loc[
        ROSTER["attended"] < 10, "name_clean"
    ].tolist(),
    "Who had the better attendance, Owen Price or Eleanor Shaw?": lambda: _better_attendance(
        "Owen Price", "Eleanor Shaw"
    ),
    "list everyone who joined from 2015 through 2018": lambda: ROSTER.loc[
        ROSTER["joined"].between(2015, 2018), "name_clean"
    ].tolist(),
    "In total, how many rehearsal attendances did our string section clock up this season?": lambda: int(
        ROSTER.loc[ROSTER["section_norm"] == "strings", "attended"].sum()
    ),
    "who comes right after Beatrice Coll in the roster": lambda: _next_member("Beatrice Coll"),
    # energy tariffs
    "What's the exit fee on the NordStrom Energie Basis tariff?": lambda: _tariff(
        "NordStrom Energie", "Basis"
    )["Exit fee (€)"],
    "which tariff has the lowest unit rate": lambda: TARIFFS.loc[TARIFFS["rate"].idxmin(), "Tariff"],
    "How many of the tariffs are green?": lambda: int(TARIFFS["green"].sum()),
    "We're comparing monthly standing charges - what is the average across all the tariffs listed?": lambda: (
        round(TARIFFS["standing"].mean(), 2)
    ),
    "Which tariffs charge more than 0,31 € per kWh?": lambda: TARIFFS.loc[
        TARIFFS["rate"] > 0.31, "Tariff"
    ].tolist(),
    "how many tariffs come with a 12 month contract": lambda: int((TARIFFS["months"] == 12).sum()),
    "How much more per kWh does Voltara's Flex tariff cost than Voltara's Fix 12?": lambda: round(
        _tariff("Voltara", "Flex")["rate"] - _tariff("Voltara", "Fix 12")["rate"], 3
    ),
    "Which supplier has the lower standing charge, EcoVolt or LumenEnergy?": lambda: _lower_standing(
        "EcoVolt", "LumenEnergy"
    ),
    "how many tariffs have the exit fee left blank": lambda: int(
        (TARIFFS["Exit fee (€)"].str.strip() == "").sum()
    ),
    "Add up the exit fees of all the 24-month contracts.": lambda: float(
        TARIFFS.loc[TARIFFS["months"] == 24, "exit_fee"].sum()
    ),
    # shop returns
    "What reason was given for the return on order ORD-10291?": lambda: RETURNS.loc[
        RETURNS["order_no"] == "ORD-10291", "reason"
    ].iloc[0],
    "how many items came back because of wrong size": lambda: int(
        (RETURNS["reason_norm"] == "wrong size").sum()
    ),
    "How many returns have no reason recorded?": lambda: int((RETURNS["reason_norm"] == "").sum()),
    "Which order received the biggest refund?": lambda: RETURNS.loc[
        RETURNS["refund_amt"].idxmin(), "order_no"
    ],
    "how many refunds were over 50 euros": lambda: int((RETURNS["refund_amt"] < -50).sum()),
    "On average, how many days did customers take to send their item back?": lambda: round(
        RETURNS["days"].mean(), 2
    ),
    "Which orders were returned in March 2024?": lambda: RETURNS.loc[
        (RETURNS["date"].dt.year == 2024) & (RETURNS["date"].dt.month == 3), "order_no"
    ].tolist(),
    "what was the last product returned in February": lambda: (
        RETURNS[(RETURNS["date"].dt.year == 2024) & (RETURNS["date"].dt.month == 2)]
        .sort_values("date")
        .iloc[-1]["product"]
    ),
    "Which returns took longer than 20 days? give order numbers": lambda: RETURNS.loc[
        RETURNS["days"] > 20, "order_no"
    ].tolist(),
    "What do the refund amounts for returns marked Faulty add up to?": lambda: round(
        float(RETURNS.loc[RETURNS["reason_norm"] == "faulty", "refund_amt"].sum()), 2
    ),
}
