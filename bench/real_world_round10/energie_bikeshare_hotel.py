"""Round-10 gold recomputation for the French energy bills, bike-share and hotel bookings tables (writer w55)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
ENERGIE = "r10_factures_energie.csv"
VELO = "r10_velo_stations.parquet"
HOTEL = "r10_hotel_bookings.json"
QUESTIONS = REAL / "questions-round10-w55.tsv"


def _fr_number(text: str) -> float:
    """Parse a French number such as '1 234,50' or '-85,20' (spaces, NBSP or thin spaces as thousands)."""
    cleaned = str(text).strip()
    for space in (" ", "\u00a0", "\u202f"):
        cleaned = cleaned.replace(space, "")
    return float(cleaned.replace(",", "."))


def _euro(text: str) -> float:
    """Parse an amount such as '€129.00'."""
    return float(str(text).strip().replace("€", "").replace(",", ""))


def energie() -> pd.DataFrame:
    df = pd.read_csv(REAL / ENERGIE, sep=";", dtype=str, keep_default_na=False, encoding="utf-8-sig")
    df["date"] = pd.to_datetime(df["Date facture"], format="%d/%m/%Y")
    df["kwh"] = df["Consommation (kWh)"].map(_fr_number)
    df["ttc"] = df["Montant TTC (€)"].map(_fr_number)
    return df


def velo() -> pd.DataFrame:
    return pd.read_parquet(REAL / VELO)


def hotel() -> pd.DataFrame:
    records = json.loads((REAL / HOTEL).read_text(encoding="utf-8"))
    df = pd.DataFrame.from_records(records)
    df["check_in_date"] = pd.to_datetime(df["check_in"], format="%Y-%m-%d")
    df["rate"] = df["nightly_rate"].map(_euro)
    return df


def _energie_row(ref: str) -> pd.Series:
    df = energie()
    return df.loc[df["Référence"] == ref].iloc[0]


def _velo_cell(station: str, month: str, column: str) -> object:
    df = velo()
    return df.loc[(df["station"] == station) & (df["month"] == month), column].iloc[0]


def _hotel_row(guest: str) -> pd.Series:
    df = hotel()
    return df.loc[df["guest"] == guest].iloc[0]


def _site_after(ref: str) -> str:
    df = energie().reset_index(drop=True)
    pos = df.index[df["Référence"] == ref][0]
    return str(df.loc[pos + 1, "Site"])


def _first_month_above(station: str, threshold: int) -> str:
    df = velo()
    rows = df[(df["station"] == station) & (df["trips"] > threshold)].sort_values("month")
    return str(rows["month"].iloc[0])


def _more_trips(month: str, a: str, b: str) -> str:
    return a if _velo_cell(a, month, "trips") > _velo_cell(b, month, "trips") else b


def _longer_stay(a: str, b: str) -> str:
    return a if _hotel_row(a)["nights"] > _hotel_row(b)["nights"] else b


def _kept_revenue() -> float:
    df = hotel()
    kept = df[~df["cancelled"].astype(bool)]
    return float((kept["nights"] * kept["rate"]).sum())


ANSWERS: dict[str, Callable[[], object]] = {
    # r10_factures_energie.csv
    "what's the Montant TTC on invoice FAC-2407": lambda: str(_energie_row("FAC-2407")["Montant TTC (€)"]),
    "How many invoices are there for the Siège Lyon site?": lambda: int(
        (energie()["Site"] == "Siège Lyon").sum()
    ),
    "What is the total Montant TTC billed to Entrepôt Vénissieux across all its invoices?": lambda: round(
        float(energie().query("Site == 'Entrepôt Vénissieux'")["ttc"].sum()), 2
    ),
    "what's the net total we were billed for Agence Grenoble once the -85,20 regularisation is taken into account": (
        lambda: round(float(energie().query("Site == 'Agence Grenoble'")["ttc"].sum()), 2)
    ),
    "Which invoice has the highest consumption in kWh?": lambda: str(
        energie().sort_values("kwh", ascending=False)["Référence"].iloc[0]
    ),
    "list the invoices dated in March 2024": lambda: (
        energie().loc[lambda d: (d["date"].dt.year == 2024) & (d["date"].dt.month == 3), "Référence"].tolist()
    ),
    "What is the average Montant TTC of our gas (Gaz) invoices?": lambda: round(
        float(energie().query("Énergie == 'Gaz'")["ttc"].mean()), 2
    ),
    "how many invoices show a consumption above 10 000 kWh": lambda: int((energie()["kwh"] > 10000).sum()),
    "Which site is on the invoice that comes right after FAC-2409 in the list?": lambda: _site_after(
        "FAC-2409"
    ),
    "How much more was invoice FAC-2411 than FAC-2402, in euros TTC?": lambda: round(
        float(_energie_row("FAC-2411")["ttc"] - _energie_row("FAC-2402")["ttc"]), 2
    ),
    # r10_velo_stations.parquet
    "How many trips did Université have in 2024-05?": lambda: int(
        _velo_cell("Université", "2024-05", "trips")
    ),
    "which station had the longest average trip in 2024-06": lambda: str(
        velo()
        .query("month == '2024-06'")
        .dropna(subset=["avg_trip_min"])
        .sort_values("avg_trip_min")["station"]
        .iloc[-1]
    ),
    "What's the total revenue for Gare Centrale over all the months?": lambda: round(
        float(velo().query("station == 'Gare Centrale'")["revenue_eur"].sum()), 2
    ),
    "what was port nord's average trip length in minutes, ignoring months with no figure": lambda: round(
        float(velo().query("station == 'Port Nord'")["avg_trip_min"].dropna().mean()), 2
    ),
    "how many station-months have no revenue recorded": lambda: int(velo()["revenue_eur"].isna().sum()),
    "Which had more trips in April 2024, Place du Marché or Université?": lambda: _more_trips(
        "2024-04", "Place du Marché", "Université"
    ),
    "Which stations had more than 3500 trips in 2024-06?": lambda: (
        velo().loc[lambda d: (d["month"] == "2024-06") & (d["trips"].fillna(0) > 3500), "station"].tolist()
    ),
    "How many more trips did Parc Riverside get in 2024-06 than in 2024-03?": lambda: int(
        _velo_cell("Parc Riverside", "2024-06", "trips") - _velo_cell("Parc Riverside", "2024-03", "trips")
    ),
    "In which month did Parc Riverside first go above 3000 trips?": lambda: _first_month_above(
        "Parc Riverside", 3000
    ),
    "how many rows are for stations in our Centre zone": lambda: int((velo()["zone"] == "Centre").sum()),
    # r10_hotel_bookings.json
    "What nightly rate is Yuki Tanaka paying?": lambda: str(_hotel_row("Yuki Tanaka")["nightly_rate"]),
    "how many bookings were cancelled": lambda: int(hotel()["cancelled"].astype(bool).sum()),
    "How many bookings have no loyalty number?": lambda: int(hotel()["loyalty_no"].isna().sum()),
    "Which guest is staying the most nights?": lambda: str(hotel().sort_values("nights")["guest"].iloc[-1]),
    "who checks in earliest": lambda: str(hotel().sort_values("check_in_date")["guest"].iloc[0]),
    "Which guests check in during August 2024?": lambda: (
        hotel()
        .loc[lambda d: (d["check_in_date"].dt.year == 2024) & (d["check_in_date"].dt.month == 8), "guest"]
        .tolist()
    ),
    "What's the average nightly rate for Double rooms?": lambda: round(
        float(hotel().query("room_type == 'Double'")["rate"].mean()), 2
    ),
    "what is our total room revenue (nights times nightly rate) from the bookings that were not cancelled": lambda: (
        round(_kept_revenue(), 2)
    ),
    "Which guests have a check-in date before 2024-07-15?": lambda: (
        hotel().loc[lambda d: d["check_in_date"] < pd.Timestamp("2024-07-15"), "guest"].tolist()
    ),
    "Who is staying longer, Sofia Almeida or Ivan Novak?": lambda: _longer_stay(
        "Sofia Almeida", "Ivan Novak"
    ),
}


def _agrees(gold: str, value: object) -> bool:
    """Numbers agree within half a unit of the gold's last written decimal; strings and lists must match exactly."""
    if isinstance(value, list):
        return gold.split("|") == [str(v) for v in value]
    if isinstance(value, str):
        return value == gold
    decimals = len(gold.split(".")[1]) if "." in gold else 0
    return abs(float(value) - float(gold)) <= 0.5 * 10**-decimals + 1e-9


def _check() -> int:
    questions = pd.read_csv(QUESTIONS, sep="\t", dtype=str, keep_default_na=False, quoting=3)
    failures = 0
    for row in questions.itertuples(index=False):
        value = ANSWERS[row.question]()
        ok = _agrees(row.answer, value)
        failures += not ok
        print(f"{'OK ' if ok else 'BAD'} {row.table:28} {row.type:18} gold={row.answer!r} computed={value!r}")
    extra = set(ANSWERS) - set(questions["question"])
    print(
        f"{len(questions)} questions, {len(questions) - failures} agree, {failures} disagree, {len(extra)} unused"
    )
    print(questions["type"].value_counts().to_string())
    return 1 if failures or extra else 0


if __name__ == "__main__":
    raise SystemExit(_check())
