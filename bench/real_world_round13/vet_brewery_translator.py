"""Round 13 (w65): vet vaccinations, brewery batch log and translator invoices, with pandas-computed answers."""

from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"
VET = "r13_vet_vaccinations.csv"
BREW = "r13_brewery_batches.tsv"
INV = "r13_translator_invoices.xlsx"


def _kg(text: str) -> float:
    """'12.4 kg' or '19.5kg' -> 12.4."""
    return float(str(text).lower().replace("kg", "").strip())


def _pounds(text: str) -> float:
    """'£1,038.50' -> 1038.5."""
    return float(str(text).replace("£", "").replace(",", "").strip())


def _pct(text: str) -> float:
    """'5.2%' -> 5.2."""
    return float(str(text).replace("%", "").strip())


def _litres(text: str) -> float:
    """'1,200 L' -> 1200."""
    return float(str(text).upper().replace("L", "").replace(",", "").strip())


def _euro(text: str) -> float:
    """European '1.234,50 €' or '-120,00 €' -> 1234.5 / -120.0."""
    s = str(text).replace("€", "").replace("\u00a0", "").strip()
    return float(s.replace(".", "").replace(",", "."))


def vet() -> pd.DataFrame:
    df = pd.read_csv(DATA / VET, dtype=str, keep_default_na=False)
    df["date_"] = pd.to_datetime(df["Date"], format="%d/%m/%Y")
    df["kg_"] = df["Weight"].map(_kg)
    df["fee_"] = df["Fee"].map(_pounds)
    return df


def brew() -> pd.DataFrame:
    df = pd.read_csv(DATA / BREW, sep="\t", dtype=str, keep_default_na=False)
    df["brewed_"] = pd.to_datetime(df["Brew date"], format="%Y-%m-%d")
    df["packaged_"] = pd.to_datetime(df["Packaged"].replace("", None), format="%d %b %Y")
    df["abv_"] = df["ABV"].map(_pct)
    df["litres_"] = df["Volume"].map(_litres)
    return df


def inv() -> pd.DataFrame:
    df = pd.read_excel(DATA / INV)
    df["eur_"] = df["Amount"].map(_euro)
    return df


def _vet_cats_avg() -> float:
    v = vet()
    return round(v.loc[v["Species"] == "Cat", "kg_"].mean(), 2)


def _otis_gain() -> float:
    o = vet().query("Pet == 'Otis'").sort_values("date_")
    return round(o["kg_"].iloc[-1] - o["kg_"].iloc[0], 2)


def _row_after(df: pd.DataFrame, mask: pd.Series, col: str) -> str:
    pos = df.index.get_loc(df.index[mask][0])
    return df.iloc[pos + 1][col]


def _more_litres(a: str, b: str) -> str:
    s = brew().groupby("Brewer")["litres_"].sum()
    return a if s[a] > s[b] else b


def _more_words(a: str, b: str) -> str:
    s = inv().groupby("Client")["Words"].sum()
    return a if s[a] > s[b] else b


def _van_dijk_march_next() -> str:
    d = inv()
    mask = (d["Client"] == "Van Dijk Legal") & (d["Invoice date"].dt.month == 3)
    return _row_after(d, mask, "Client")


ANSWERS: dict[str, Callable[[], object]] = {
    # --- vet vaccinations (CSV)
    "what did Diesel weigh at his leptospirosis shot": lambda: (
        vet().query("Pet == 'Diesel' and Vaccine == 'Leptospirosis'")["Weight"].iloc[0]
    ),
    "How many Rabies vaccinations did we give?": lambda: int((vet()["Vaccine"] == "Rabies").sum()),
    "How many records have no next due date filled in?": lambda: int(
        (vet()["Next due"].str.strip() == "").sum()
    ),
    "Which pet was the heaviest at any visit?": lambda: vet().sort_values("kg_").iloc[-1]["Pet"],
    "What's the average weight in kg across all the cat visits?": _vet_cats_avg,
    "how much has Hannah Okafor paid us in total for vaccinations": lambda: (
        vet().query("Owner == 'Hannah Okafor'")["fee_"].sum()
    ),
    "Which pets were vaccinated in March 2024?": lambda: (
        vet().loc[lambda d: (d["date_"].dt.year == 2024) & (d["date_"].dt.month == 3), "Pet"].tolist()
    ),
    "Which pet came in right after Otis's Bordetella visit?": lambda: _row_after(
        vet(), (vet()["Pet"] == "Otis") & (vet()["Vaccine"] == "Bordetella"), "Pet"
    ),
    "when was Sushi's most recent vaccination": lambda: (
        vet().query("Pet == 'Sushi'").sort_values("date_").iloc[-1]["Date"]
    ),
    "By how many kg did Otis's weight go up between his first visit and his last one?": _otis_gain,
    # --- brewery batch log (TSV)
    "What's the ABV of batch B-0312?": lambda: brew().set_index("Batch").loc["B-0312", "ABV"],
    "how many batches have we dumped": lambda: int((brew()["Status"] == "Dumped").sum()),
    "Which batches are stronger than 6.5% ABV?": lambda: (
        brew().loc[lambda d: d["abv_"] > 6.5, "Batch"].tolist()
    ),
    "Which batch had the lowest ABV?": lambda: brew().sort_values("abv_").iloc[0]["Batch"],
    "total litres across all the batches that have status Packaged": lambda: (
        brew().query("Status == 'Packaged'")["litres_"].sum()
    ),
    "What is the average ABV of our Hopscotch IPA batches?": lambda: round(
        brew().query("Beer == 'Hopscotch IPA'")["abv_"].mean(), 2
    ),
    "Did Rosa or Dev brew more litres in total?": lambda: _more_litres("Rosa", "Dev"),
    "which batches did we brew in February 2024": lambda: (
        brew().loc[lambda d: (d["brewed_"] >= "2024-02-01") & (d["brewed_"] < "2024-03-01"), "Batch"].tolist()
    ),
    "How many batches are under 5% ABV?": lambda: int((brew()["abv_"] < 5).sum()),
    "Looking at the packaging dates, which batch code was packaged most recently?": lambda: (
        brew().dropna(subset=["packaged_"]).sort_values("packaged_").iloc[-1]["Batch"]
    ),
    # --- translator invoices (XLSX)
    "What's the amount on INV-2024-009?": lambda: (
        inv().set_index("Invoice no.").loc["INV-2024-009", "Amount"]
    ),
    "which invoices have a negative amount": lambda: (
        inv().loc[lambda d: d["eur_"] < 0, "Invoice no."].tolist()
    ),
    "What do my credit notes (the negative amounts) add up to in euros?": lambda: round(
        inv().loc[lambda d: d["eur_"] < 0, "eur_"].sum(), 2
    ),
    "How much have I invoiced Kessler Maschinenbau GmbH in total, in euros?": lambda: round(
        inv().query("Client == 'Kessler Maschinenbau GmbH'")["eur_"].sum(), 2
    ),
    "average word count of the DE>EN invoices": lambda: round(
        inv().loc[lambda d: d["Language pair"] == "DE>EN", "Words"].mean(), 2
    ),
    "How many invoices are still unpaid, i.e. have no Paid on date?": lambda: int(
        inv()["Paid on"].isna().sum()
    ),
    "Which invoices were for more than 1000 euros?": lambda: (
        inv().loc[lambda d: d["eur_"] > 1000, "Invoice no."].tolist()
    ),
    "Who did I bill more words to overall, Van Dijk Legal or Atelier Rousseau?": lambda: _more_words(
        "Van Dijk Legal", "Atelier Rousseau"
    ),
    "Which client was invoiced right after Van Dijk Legal's March invoice?": _van_dijk_march_next,
    "invoice number with the biggest word count": lambda: (
        inv().sort_values("Words").dropna(subset=["Words"]).iloc[-1]["Invoice no."]
    ),
}
