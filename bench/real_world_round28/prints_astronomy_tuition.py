"""Round 28 real-world checks: photo lab orders (xlsx), astronomy log (csv), tuition fees (parquet)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: object) -> float:
    text = str(value).replace("£", "").replace("$", "").replace(",", "").strip()
    return float(text)


def _number(value: object) -> float:
    text = str(value).replace(",", "").replace("%", "").replace("~", "").strip()
    if text.lower() in {"", "n/a", "nan", "none"}:
        return float("nan")
    return float(text)


def photo() -> pd.DataFrame:
    df = pd.read_excel(REAL / "r28_photo_lab_orders.xlsx", dtype={"Price": str})
    df["price_num"] = df["Price"].map(_money)
    df["express"] = df["Express (Y/N)"].astype(str).str.strip().str.upper().eq("Y")
    df["ordered"] = pd.to_datetime(df["Order Date"], dayfirst=True)
    df["dispatched"] = pd.to_datetime(df["Dispatch Date"], dayfirst=True)
    return df


def astro() -> pd.DataFrame:
    df = pd.read_csv(REAL / "r28_astronomy_observations.csv", dtype=str, keep_default_na=False)
    df["mag"] = df["magnitude"].map(_number)
    df["seeing"] = df["seeing_1to5"].astype(int)
    df["mins"] = df["minutes"].astype(int)
    df["when"] = pd.to_datetime(df["date"], format="%Y-%m-%d")
    return df


def tuition() -> pd.DataFrame:
    df = pd.read_parquet(REAL / "r28_tuition_fees.parquet")
    df["fee"] = df["Avg yearly fee (USD)"].map(_number)
    df["change"] = df["Change on 2020 (%)"].map(_number)
    df["share"] = df["International students share"].map(_number)
    return df


def _photo_spend(name: str) -> float:
    df = photo()
    return float(df.loc[df["Customer"] == name, "price_num"].sum())


def _fee(country: str) -> float:
    df = tuition()
    return float(df.loc[df["Country"] == country, "fee"].iloc[0])


def _after(df: pd.DataFrame, col: str, value: str, out: str) -> str:
    pos = df.index[df[col] == value][0]
    return str(df.loc[pos + 1, out])


def _ruth_minutes(prefix: str) -> int:
    df = astro()
    rows = df[(df["observer"] == "Ruth Sandoval") & df["object"].str.startswith(prefix + " ")]
    return int(rows["mins"].iloc[0])


ANSWERS: dict[str, Callable[[], object]] = {
    "What print size did Tomasz Nowak order?": lambda: str(
        photo().loc[lambda d: d["Customer"] == "Tomasz Nowak", "Print Size"].iloc[0]
    ),
    "how many orders were express": lambda: int(photo()["express"].sum()),
    "What is the total value of all our A3 orders?": lambda: float(
        photo().loc[lambda d: d["Print Size"] == "A3", "price_num"].sum()
    ),
    "Which order ref had the largest quantity of prints?": lambda: str(
        photo().sort_values("Qty", ascending=False)["Order Ref"].iloc[0]
    ),
    "how many orders cost more than £40": lambda: int((photo()["price_num"] > 40).sum()),
    "On average, how many prints per order do we get for the 6x4 size?": lambda: float(
        photo().loc[lambda d: d["Print Size"] == "6x4", "Qty"].mean()
    ),
    "Which customer placed the order that comes right after PH-2207 in the sheet?": lambda: _after(
        photo(), "Order Ref", "PH-2207", "Customer"
    ),
    "Of the orders that have been dispatched, which one was sent out last?": lambda: str(
        photo().dropna(subset=["dispatched"]).sort_values("dispatched")["Order Ref"].iloc[-1]
    ),
    "list the order refs placed from 8 to 10 July 2024 inclusive": lambda: (
        photo()
        .loc[
            lambda d: d["ordered"].between(pd.Timestamp("2024-07-08"), pd.Timestamp("2024-07-10")),
            "Order Ref",
        ]
        .tolist()
    ),
    "Who has spent more with us in total, Amelia Hart or Rohan Mehta?": lambda: max(
        ["Amelia Hart", "Rohan Mehta"], key=_photo_spend
    ),
    "How many observations in the log were of objects with a negative magnitude?": lambda: int(
        (astro()["mag"] < 0).sum()
    ),
    "whats the faintest object anyone logged": lambda: str(astro().sort_values("mag")["object"].iloc[-1]),
    "Which telescope was used to observe M44?": lambda: str(
        astro().loc[lambda d: d["object"].str.split(" ").str[0] == "M44", "telescope"].iloc[0]
    ),
    "how many galaxy observations do we have": lambda: int((astro()["object_type"] == "Galaxy").sum()),
    "Total minutes observed by Dev Malhotra?": lambda: int(
        astro().loc[lambda d: d["observer"] == "Dev Malhotra", "mins"].sum()
    ),
    "What was the average seeing score for sessions on the Celestron C8?": lambda: float(
        astro().loc[lambda d: d["telescope"] == "Celestron C8", "seeing"].mean()
    ),
    "How many more minutes did Ruth Sandoval spend on M51 than on M31?": lambda: (
        _ruth_minutes("M51") - _ruth_minutes("M31")
    ),
    "Which objects did our members observe in March 2024? List them in log order.": lambda: (
        astro().loc[lambda d: (d["when"].dt.year == 2024) & (d["when"].dt.month == 3), "object"].tolist()
    ),
    "number of sessions lasting 40 minutes or more": lambda: int((astro()["mins"] >= 40).sum()),
    "When did Tom Okafor last observe?": lambda: str(
        astro().loc[lambda d: d["observer"] == "Tom Okafor"].sort_values("when")["date"].iloc[-1]
    ),
    "What is the average yearly fee in Japan?": lambda: str(
        tuition().loc[lambda d: d["Country"] == "Japan", "Avg yearly fee (USD)"].iloc[0]
    ),
    "Which countries saw fees fall compared with 2020?": lambda: (
        tuition().loc[lambda d: d["change"] < 0, "Country"].tolist()
    ),
    "which country had the biggest drop in fees since 2020": lambda: str(
        tuition().sort_values("change")["Country"].iloc[0]
    ),
    "Which country has the highest share of international students?": lambda: str(
        tuition().dropna(subset=["share"]).sort_values("share")["Country"].iloc[-1]
    ),
    "Which countries charge more than 8,000 USD a year on average?": lambda: (
        tuition().loc[lambda d: d["fee"] > 8000, "Country"].tolist()
    ),
    "what's the mean yearly fee across the countries in the Europe region": lambda: round(
        float(tuition().loc[lambda d: d["Region"] == "Europe", "fee"].mean()), 2
    ),
    "Which is more expensive to study in, Canada or Chile?": lambda: max(["Canada", "Chile"], key=_fee),
    "How much higher is the average yearly fee in the United States than in the United Kingdom, in USD?": lambda: (
        _fee("United States") - _fee("United Kingdom")
    ),
    "Which country comes right after Mexico in the list?": lambda: _after(
        tuition(), "Country", "Mexico", "Country"
    ),
    "how many countries have an international student share under 5%": lambda: int(
        (tuition()["share"] < 5).sum()
    ),
}
