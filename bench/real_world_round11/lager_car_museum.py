"""Round 11 (writer w59): German stock export, used car listings (Parquet), museum exhibitions (JSON)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
TSV = REAL / "questions-round11-w59.tsv"


def _de_number(text: str) -> float | None:
    """Parse a German number like '1.250', '-15', '1.085,00 €'; blank gives None."""
    s = str(text).replace("€", "").replace("\u00a0", "").strip()
    if not s:
        return None
    return float(s.replace(".", "").replace(",", "."))


def lager() -> pd.DataFrame:
    df = pd.read_csv(
        REAL / "r11_lagerbestand.csv", sep=";", dtype=str, keep_default_na=False, encoding="utf-8-sig"
    )
    df["bestand_n"] = df["Bestand"].map(_de_number)
    df["mindest_n"] = df["Mindestbestand"].map(_de_number)
    df["wert_n"] = df["Stückwert"].map(_de_number)
    df["korr_n"] = df["Korrektur"].map(_de_number)
    df["inventur_d"] = pd.to_datetime(df["Letzte Inventur"], format="%d.%m.%Y")
    return df


def cars() -> pd.DataFrame:
    return pd.read_parquet(REAL / "r11_used_cars.parquet")


def museum() -> pd.DataFrame:
    records = json.loads((REAL / "r11_museum_exhibitions.json").read_text(encoding="utf-8"))
    df = pd.DataFrame(records)
    df["price_n"] = df["ticket_price"].map(lambda p: None if p is None else float(str(p).replace("£", "")))
    df["open_d"] = pd.to_datetime(df["opening_date"], format="%Y-%m-%d")
    df["close_d"] = pd.to_datetime(df["closing_date"], format="%Y-%m-%d")
    return df


def _lager_row(name: str) -> pd.Series:
    df = lager()
    return df[df["Bezeichnung"] == name].iloc[0]


def _car(model: str) -> pd.Series:
    df = cars()
    return df[df["model"] == model].iloc[0]


def _show(title: str) -> pd.Series:
    df = museum()
    return df[df["title"] == title].iloc[0]


def _halle_c_avg() -> float:
    df = lager()
    return round(float(df.loc[df["Lagerort"] == "Halle C", "wert_n"].mean()), 2)


def _march_2024() -> list[str]:
    df = lager()
    d = df["inventur_d"]
    return df.loc[(d.dt.year == 2024) & (d.dt.month == 3), "Bezeichnung"].tolist()


def _next_after(title: str) -> str:
    df = museum().reset_index(drop=True)
    i = df.index[df["title"] == title][0]
    return str(df.loc[i + 1, "title"])


def _opened_q1_2024() -> list[str]:
    df = museum()
    mask = (df["open_d"] >= "2024-01-01") & (df["open_d"] <= "2024-03-31")
    return df.loc[mask, "title"].tolist()


ANSWERS: dict[str, Callable[[], object]] = {
    # r11_lagerbestand.csv
    "what is the unit value of the Bohrhammer SDS-Plus": lambda: str(
        _lager_row("Bohrhammer SDS-Plus")["Stückwert"]
    ),
    "How many articles do we keep in Halle B?": lambda: int((lager()["Lagerort"] == "Halle B").sum()),
    "How many articles are currently below their minimum stock level?": lambda: int(
        (lager()["bestand_n"] < lager()["mindest_n"]).sum()
    ),
    "how many articles got a negative correction at the last inventory": lambda: int(
        (lager()["korr_n"] < 0).sum()
    ),
    "Which article had the biggest write-down, i.e. the most negative correction?": lambda: str(
        lager().loc[lager()["korr_n"].idxmin(), "Bezeichnung"]
    ),
    "What is the total stock of all articles stored in the Außenlager?": lambda: float(
        lager().loc[lager()["Lagerort"] == "Außenlager", "bestand_n"].sum()
    ),
    "which articles were last counted in March 2024": _march_2024,
    "Which article has the oldest last inventory date?": lambda: str(
        lager().loc[lager()["inventur_d"].idxmin(), "Bezeichnung"]
    ),
    "How many more Unterlegscheibe 8,4 mm than Sechskantschraube M8x40 do we have in stock?": lambda: float(
        _lager_row("Unterlegscheibe 8,4 mm")["bestand_n"] - _lager_row("Sechskantschraube M8x40")["bestand_n"]
    ),
    "average unit value of the articles in Halle C?": _halle_c_avg,
    # r11_used_cars.parquet
    "what's the mileage on the Mazda CX-5": lambda: int(_car("CX-5")["mileage_km"]),
    "How many electric cars are in the listings?": lambda: int((cars()["fuel"] == "Electric").sum()),
    "How many cars have done fewer than 50,000 km?": lambda: int(
        (cars()["mileage_km"].dropna() < 50000).sum()
    ),
    "Which model has the highest mileage?": lambda: str(cars().loc[cars()["mileage_km"].idxmax(), "model"]),
    "What is the average asking price of our diesel cars in euros?": lambda: round(
        float(cars().loc[cars()["fuel"] == "Diesel", "price_eur"].mean()), 2
    ),
    "list the listing ids of all cars built before 2016": lambda: (
        cars().loc[cars()["year"] < 2016, "listing_id"].tolist()
    ),
    "which costs more, the X1 or the CX-5": lambda: (
        "X1" if _car("X1")["price_eur"] > _car("CX-5")["price_eur"] else "CX-5"
    ),
    "How much more is the Tesla Model 3 than the Renault Zoe?": lambda: float(
        _car("Model 3")["price_eur"] - _car("Zoe")["price_eur"]
    ),
    "What is the combined asking price of every car listed in Berlin?": lambda: float(
        cars().loc[cars()["seller_city"] == "Berlin", "price_eur"].sum()
    ),
    "Which model is the newest car by year of manufacture?": lambda: str(
        cars().loc[cars()["year"].idxmax(), "model"]
    ),
    # r11_museum_exhibitions.json
    "What's the ticket price for Women of the Bauhaus?": lambda: str(
        _show("Women of the Bauhaus")["ticket_price"]
    ),
    "how many exhibitions are touring": lambda: int(museum()["touring"].sum()),
    "How many of our exhibitions were free to enter, with no ticket price?": lambda: int(
        museum()["ticket_price"].isna().sum()
    ),
    "Which exhibition drew the most visitors?": lambda: str(
        museum().loc[museum()["visitors"].idxmax(), "title"]
    ),
    "which exhibitions had fewer than 15,000 visitors": lambda: (
        museum().loc[museum()["visitors"] < 15000, "title"].tolist()
    ),
    "What was the average ticket price across the paid exhibitions?": lambda: round(
        float(museum()["price_n"].dropna().mean()), 2
    ),
    "Which exhibitions opened between 1 January and 31 March 2024?": _opened_q1_2024,
    "which exhibition is listed right after Dinosaurs in Colour": lambda: _next_after("Dinosaurs in Colour"),
    "Did Roman Glass or Victorian Toys get more visitors?": lambda: (
        "Roman Glass"
        if _show("Roman Glass")["visitors"] > _show("Victorian Toys")["visitors"]
        else "Victorian Toys"
    ),
    "Which exhibition was the last to close?": lambda: str(
        museum().loc[museum()["close_d"].idxmax(), "title"]
    ),
}


def _agrees(computed: object, gold: str) -> bool:
    if isinstance(computed, list):
        return "|".join(str(x) for x in computed) == gold
    if isinstance(computed, (int, float)) and not isinstance(computed, bool):
        decimals = len(gold.split(".")[1]) if "." in gold else 0
        return abs(float(computed) - float(gold)) <= 0.5 * 10**-decimals + 1e-9
    return str(computed) == gold


def main() -> None:
    qs = pd.read_csv(TSV, sep="\t", dtype=str, keep_default_na=False)
    assert list(qs.columns) == ["table", "question", "answer", "type"]
    ok = 0
    for row in qs.itertuples(index=False):
        got = ANSWERS[row.question]()
        good = _agrees(got, row.answer)
        ok += good
        print(f"{'OK  ' if good else 'FAIL'} [{row.type}] {row.question} -> {got!r} (gold {row.answer!r})")
    missing = set(ANSWERS) - set(qs["question"])
    print(f"{ok}/{len(qs)} agree; {len(missing)} ANSWERS keys not in TSV")
    print(qs.groupby("type").size().to_string())


if __name__ == "__main__":
    main()
