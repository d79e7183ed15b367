"""Round six of the real-world set (property, energy, library): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"

props = pd.read_csv(HERE / "property_sales.csv", dtype=str, keep_default_na=False)
energy = pd.read_csv(HERE / "energy_prices_eu.csv", sep=";", dtype=str, keep_default_na=False)
with open(HERE / "library_catalog.json", encoding="utf-8") as f:
    books = pd.DataFrame(json.load(f)).astype(object)
books = books.map(lambda v: "" if v is None or (isinstance(v, float) and pd.isna(v)) else str(v))


def money(s: str) -> float:
    return float(s.replace("$", "").replace(",", "").strip())


def num(s: str) -> float | None:
    """Plain number with optional thousands commas; blank -> None."""
    s = s.strip()
    return None if s == "" else float(s.replace(",", ""))


def eu(s: str) -> float | None:
    """European decimal like '0,312', '-4,5 %', '+2,1 %'; blank -> None."""
    s = s.replace("%", "").replace(" ", "").strip()
    return None if s == "" else float(s.replace(",", "."))


def date(s: str) -> datetime:
    return datetime.strptime(s.strip(), "%B %d, %Y")


P = props.assign(
    price=props["Price"].map(money),
    land=props["Land (m²)"].map(num),
    sold=props["Sold Date"].map(date),
)
B = books.assign(
    year=books["year_published"].map(int),
    pages_n=books["pages"].map(int),
    copies_n=books["copies"].map(int),
    avail=books["available"].map(int),
    rating_n=books["rating"].map(num),
)
E = energy.assign(
    price=energy["Price (EUR/kWh)"].map(eu),
    change=energy["Change vs 2023"].map(eu),
    ren=energy["Renewable share"].map(eu),
    standing=energy["Standing charge (EUR/month)"].map(eu),
)


def row_after(df: pd.DataFrame, col: str, value: str, step: int) -> str:
    i = df.index[df[col] == value][0]
    return df.loc[i + step, col]


def pick_max(df: pd.DataFrame, key: str, col: str) -> str:
    best = df[key].max()
    hits = df[df[key] == best]
    assert len(hits) == 1, f"tie on {key}"
    return hits[col].iloc[0]


def pick_min(df: pd.DataFrame, key: str, col: str) -> str:
    best = df[key].min()
    hits = df[df[key] == best]
    assert len(hits) == 1, f"tie on {key}"
    return hits[col].iloc[0]


def val(df: pd.DataFrame, keycol: str, key: str, col: str):
    hits = df[df[keycol] == key]
    assert len(hits) == 1, f"{key} not unique"
    return hits[col].iloc[0]


def higher(df: pd.DataFrame, keycol: str, a: str, b: str, col: str) -> str:
    va, vb = val(df, keycol, a, col), val(df, keycol, b, col)
    assert va != vb, "tie"
    return a if va > vb else b


ANSWERS: dict[str, Callable[[], object]] = {
    # property_sales.csv
    "What did 41 Fenwick Street sell for?": lambda: val(P, "Address", "41 Fenwick Street", "Price"),
    "how many sales did Theo Marchetti handle": lambda: int((P["Agent"] == "Theo Marchetti").sum()),
    "how many of the sales have no land size recorded?": lambda: int(P["land"].isna().sum()),
    "Which property had the biggest block of land?": lambda: pick_max(P, "land", "Address"),
    "average sale price in Elmbrook": lambda: round(P[P["Suburb"] == "Elmbrook"]["price"].mean(), 2),
    "How many homes sold in March 2024?": lambda: int(
        ((P["sold"].dt.year == 2024) & (P["sold"].dt.month == 3)).sum()
    ),
    "which sale is listed right after 31 Cobbler Way": lambda: row_after(P, "Address", "31 Cobbler Way", 1),
    "Which went for more, 22 Gully Road or 50 Gully Road?": lambda: higher(
        P, "Address", "22 Gully Road", "50 Gully Road", "price"
    ),
    "which houses sold for more than $1,300,000": lambda: list(P[P["price"] > 1_300_000]["Address"]),
    "What's the total value of all the sales Dana Whitlock made?": lambda: P[P["Agent"] == "Dana Whitlock"][
        "price"
    ].sum(),
    # library_catalog.json
    "Who wrote The Marrow Key?": lambda: val(B, "title", "The Marrow Key", "author"),
    "how many mystery titles are in the catalog": lambda: int((B["genre"] == "Mystery").sum()),
    "How many titles have no copies on the shelf right now?": lambda: int((B["avail"] == 0).sum()),
    "which is the longest book we have": lambda: pick_max(B, "pages_n", "title"),
    "What's the oldest book in the collection?": lambda: pick_min(B, "year", "title"),
    "average rating for literary fiction": lambda: round(
        B[B["genre"] == "Literary Fiction"]["rating_n"].mean(), 2
    ),
    "How many copies do we own in total across all the Mystery titles?": lambda: int(
        B[B["genre"] == "Mystery"]["copies_n"].sum()
    ),
    "which books came out before 2000": lambda: list(B[B["year"] < 2000]["title"]),
    "how many books haven't been rated yet": lambda: int(B["rating_n"].isna().sum()),
    "Which is rated higher, The Ninth Bell or The Copper Orchard Murders?": lambda: higher(
        B, "title", "The Ninth Bell", "The Copper Orchard Murders", "rating_n"
    ),
    # energy_prices_eu.csv
    "what's the standing charge in Ireland": lambda: val(
        E, "Country", "Ireland", "Standing charge (EUR/month)"
    ),
    "Which country saw the biggest drop in electricity price compared to 2023?": lambda: pick_min(
        E, "change", "Country"
    ),
    "how many countries got more expensive since 2023": lambda: int((E["change"] > 0).sum()),
    "Where is electricity cheapest per kWh?": lambda: pick_min(E, "price", "Country"),
    "What is the average renewable share among the countries whose price went up versus 2023?": lambda: round(
        E[E["change"] > 0]["ren"].mean(), 2
    ),
    "which countries get more than 70% of their power from renewables": lambda: list(
        E[E["ren"] > 70]["Country"]
    ),
    "How many countries have no standing charge listed?": lambda: int(E["standing"].isna().sum()),
    "how much higher is Germany's price per kWh than Poland's": lambda: round(
        val(E, "Country", "Germany", "price") - val(E, "Country", "Poland", "price"), 4
    ),
    "Which has the higher renewable share, Spain or Germany?": lambda: higher(
        E, "Country", "Spain", "Germany", "ren"
    ),
    "In the list, which country comes just before Hungary?": lambda: row_after(E, "Country", "Hungary", -1),
}
