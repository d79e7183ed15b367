"""Round 9 (w51): pandas answers for the Italian sales export, the rental-car JSON and the studio ledger."""

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _eu_number(text: object) -> float:
    """Parse a European amount such as `1.234,50` or `-45,00`."""
    s = str(text).strip().replace(".", "").replace(",", ".")
    return float(s)


def _acct_number(text: object) -> float:
    """Parse an accounting amount such as `(1,200.00)` or `2,450.00`; blank becomes NaN."""
    if pd.isna(text) or str(text).strip() == "":
        return float("nan")
    s = str(text).strip().replace(",", "")
    if s.startswith("(") and s.endswith(")"):
        return -float(s[1:-1])
    return float(s)


def _euro(text: object) -> float:
    """Parse a rate such as `€49.90`."""
    return float(str(text).replace("€", "").strip())


def vendite() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r9_vendite_regioni.csv", sep=";", dtype=str, keep_default_na=False)
    df["importo"] = df["Importo €"].map(_eu_number)
    df["data"] = pd.to_datetime(df["Data"], format="%d.%m.%Y")
    df["qta"] = df["Qtà"].astype(int)
    return df


def cars() -> pd.DataFrame:
    with open(REAL / "r9_rental_cars.json", encoding="utf-8") as fh:
        df = pd.DataFrame(json.load(fh))
    df["rate"] = df["daily_rate"].map(_euro)
    return df


def ledger() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r9_studio_ledger.csv", dtype=str, keep_default_na=False)
    df["amount"] = df["Amount"].map(_acct_number)
    df["balance"] = df["Balance"].map(_acct_number)
    df["date"] = pd.to_datetime(df["Date"], format="%Y-%m-%d")
    return df


def _row_after(df: pd.DataFrame, col: str, value: str, offset: int) -> pd.Series:
    idx = df.index[df[col] == value][0]
    return df.loc[idx + offset]


def _vendite_answers() -> dict[str, Callable[[], object]]:
    v = vendite
    return {
        "What was the Importo on invoice FT-2024-008?": lambda: (
            v().loc[lambda d: d["N. Documento"] == "FT-2024-008", "Importo €"].iloc[0]
        ),
        "how many rows are from Liguria": lambda: int((v()["Regione"].str.strip() == "Liguria").sum()),
        "What is our total Importo for Lombardia after the credit notes?": lambda: round(
            float(v().loc[lambda d: d["Regione"] == "Lombardia", "importo"].sum()), 2
        ),
        "which document numbers have a negative importo": lambda: (
            v().loc[lambda d: d["importo"] < 0, "N. Documento"].tolist()
        ),
        "Which customer had the single biggest sale?": lambda: v().loc[v()["importo"].idxmax(), "Cliente"],
        "List the documents dated in March 2024.": lambda: (
            v().loc[lambda d: d["data"].dt.strftime("%Y-%m") == "2024-03", "N. Documento"].tolist()
        ),
        "Which region sold more in total, Toscana or Campania?": lambda: (
            v().groupby("Regione")["importo"].sum()[["Toscana", "Campania"]].idxmax()
        ),
        "average importo for Olio extravergine 5L": lambda: round(
            float(v().loc[lambda d: d["Prodotto"] == "Olio extravergine 5L", "importo"].mean()), 2
        ),
        "who is the client on the line right after FT-2024-010": lambda: _row_after(
            v(), "N. Documento", "FT-2024-010", 1
        )["Cliente"],
        "How much more was invoice FT-2024-005 worth than FT-2024-013?": lambda: round(
            float(
                v().set_index("N. Documento").loc["FT-2024-005", "importo"]
                - v().set_index("N. Documento").loc["FT-2024-013", "importo"]
            ),
            2,
        ),
    }


def _cars_answers() -> dict[str, Callable[[], object]]:
    c = cars
    return {
        "What's the daily rate for the Tesla Model 3?": lambda: (
            c().loc[lambda d: (d["make"] == "Tesla") & (d["model"] == "Model 3"), "daily_rate"].iloc[0]
        ),
        "how many hybrid cars do we have": lambda: int((c()["fuel"] == "hybrid").sum()),
        "How many cars in the fleet have no mileage recorded?": lambda: int(c()["mileage_km"].isna().sum()),
        "Which plate has the highest mileage?": lambda: c().loc[c()["mileage_km"].idxmax(), "plate"],
        "average daily rate of the diesel cars": lambda: round(
            float(c().loc[lambda d: d["fuel"] == "diesel", "rate"].mean()), 2
        ),
        "Which models were built before 2021?": lambda: c().loc[lambda d: d["year"] < 2021, "model"].tolist(),
        "plate of the last car in the list": lambda: c()["plate"].iloc[-1],
        "Which branch has more cars, Bologna or Napoli Centrale?": lambda: (
            c()["branch"].value_counts()[["Bologna", "Napoli Centrale"]].idxmax()
        ),
        "If we rented out every car at Roma Fiumicino for one day, how much would we take in?": lambda: round(
            float(c().loc[lambda d: d["branch"] == "Roma Fiumicino", "rate"].sum()), 2
        ),
        "How much more per day does the Mercedes-Benz Classe V cost than the Fiat Panda?": lambda: round(
            float(
                c().loc[lambda d: d["model"] == "Classe V", "rate"].iloc[0]
                - c().loc[lambda d: (d["make"] == "Fiat") & (d["model"] == "Panda"), "rate"].iloc[0]
            ),
            2,
        ),
    }


def _ledger_answers() -> dict[str, Callable[[], object]]:
    g = ledger
    return {
        "What was the balance after the Figma annual plan payment?": lambda: (
            g().loc[lambda d: d["Description"] == "Figma annual plan", "Balance"].iloc[0]
        ),
        "On which dates did the balance sit below 10,000.00?": lambda: (
            g().loc[lambda d: d["balance"] < 10000, "Date"].tolist()
        ),
        "How much did we spend on Software in total?": lambda: round(
            float(-g().loc[lambda d: d["Category"] == "Software", "amount"].sum()), 2
        ),
        "how many entries are outgoings (amounts in brackets)": lambda: int((g()["amount"] < 0).sum()),
        "Which invoice brought in the most money?": lambda: (
            g()
            .loc[lambda d: d["Description"].str.startswith("Invoice")]
            .sort_values("amount", ascending=False)["Description"]
            .iloc[0]
        ),
        "total income received in January 2024": lambda: round(
            float(
                g()
                .loc[
                    lambda d: (d["date"].dt.year == 2024) & (d["date"].dt.month == 1) & (d["amount"] > 0),
                    "amount",
                ]
                .sum()
            ),
            2,
        ),
        "what came right before the Quarterly VAT payment": lambda: _row_after(
            g(), "Description", "Quarterly VAT payment", -1
        )["Description"],
        "When was the last rent payment made?": lambda: (
            g().loc[lambda d: d["Category"] == "Rent"].sort_values("date")["Date"].iloc[-1]
        ),
        "What is the average amount of our Sales invoices, leaving out the refund?": lambda: round(
            float(g().loc[lambda d: (d["Category"] == "Sales") & (d["amount"] > 0), "amount"].mean()), 2
        ),
        "how many outgoings were bigger than 1,000": lambda: int((g()["amount"] < -1000).sum()),
    }


ANSWERS: dict[str, Callable[[], object]] = {**_vendite_answers(), **_cars_answers(), **_ledger_answers()}
