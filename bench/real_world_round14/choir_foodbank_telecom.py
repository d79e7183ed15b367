"""Round-14 real-world checks: choir ticket sales, food bank donations and telecom indicators."""

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"


def _money(value: str) -> float:
    return float(str(value).replace("£", "").replace(",", "").strip())


def _kg(value: str) -> float:
    match = re.fullmatch(r"\s*([\d.]+)\s*(kg|g)\s*", str(value))
    if match is None:
        raise ValueError(f"bad weight: {value!r}")
    amount = float(match.group(1))
    return amount if match.group(2) == "kg" else amount / 1000


def _indicator(value: str) -> float:
    text = str(value).strip()
    if text in ("..", "", "nan"):
        return float("nan")
    return float(re.sub(r"[a-z]+$", "", text).replace(",", ""))


@cache
def choir() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r14_choir_concert_tickets.csv", dtype=str, keep_default_na=False)
    df["date"] = pd.to_datetime(df["Concert Date"], format="%a %d %b %Y")
    df["venue"] = df["Venue"].str.strip()
    df["sold"] = df["Seats Sold"].astype(int)
    df["takings"] = df["Takings"].map(_money)
    return df


@cache
def food() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r14_foodbank_donations.tsv", sep="\t", dtype=str, keep_default_na=False)
    df["date"] = pd.to_datetime(df["Date"], format="%d/%m/%Y")
    df["kg"] = df["Weight"].map(_kg)
    return df


@cache
def telecom() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r14_telecom_indicators.csv", dtype=str, keep_default_na=False)
    for col in df.columns[2:]:
        df[col + " #"] = df[col].map(_indicator)
    return df


def _choir_row(name: str) -> pd.Series:
    return choir().loc[choir()["Programme"] == name].iloc[0]


def _tel(country: str, col: str) -> float:
    t = telecom()
    return t.loc[t["Country"] == country, col + " #"].iloc[0]


def _next_after(df: pd.DataFrame, col: str, name: str, out: str) -> str:
    pos = df.index[df[col] == name][0]
    return df.loc[pos + 1, out]


MOBILE = "Mobile subscriptions (per 100 people)"
BROADBAND = "Fixed broadband, 2022 (per 100 people)"
INTERNET = "Internet users (% of population)"
SERVERS = "Secure internet servers (per million people)"
PRICE = "Mobile data price (USD per GB)"
CHANGE = "Change in fixed lines since 2017 (per 100 people)"
FIVE_G = "5G coverage (% of population)"
POP = "Population (millions)"

ANSWERS: dict[str, Callable[[], object]] = {
    # choir concert tickets
    "What was the ticket price for the Fauré Requiem?": lambda: _choir_row("Fauré Requiem")["Ticket Price"],
    "how many concerts were sold out": lambda: int((choir()["Status"].str.strip() == "Sold out").sum()),
    "How many of our concerts took more than £2,000?": lambda: int((choir()["takings"] > 2000).sum()),
    "Which concert brought in the most money?": lambda: choir().loc[choir()["takings"].idxmax(), "Programme"],
    "what were our total takings across all the concerts": lambda: float(choir()["takings"].sum()),
    "On average, how many seats did we sell per concert at the Cathedral Nave?": lambda: round(
        float(choir().loc[choir()["venue"] == "Cathedral Nave", "sold"].mean()), 2
    ),
    "How many more seats did the Christmas Gala sell than Family Carols?": lambda: int(
        _choir_row("Christmas Gala")["sold"] - _choir_row("Family Carols")["sold"]
    ),
    "which concert came right after the Advent Carols": lambda: _next_after(
        choir().sort_values("date").reset_index(drop=True), "Programme", "Advent Carols", "Programme"
    ),
    "Which concerts did we put on in December 2024?": lambda: (
        choir()
        .loc[(choir()["date"].dt.year == 2024) & (choir()["date"].dt.month == 12), "Programme"]
        .tolist()
    ),
    "Which sold more seats, Valentine Songs or Come and Sing?": lambda: max(
        ["Valentine Songs", "Come and Sing"], key=lambda n: _choir_row(n)["sold"]
    ),
    # food bank donations
    "How many donations came from supermarkets?": lambda: int((food()["Donor Type"] == "Supermarket").sum()),
    "total weight of perishable donations in kg": lambda: round(
        float(food().loc[food()["Perishable"].str.strip() == "Y", "kg"].sum()), 2
    ),
    "Which item was the heaviest single donation?": lambda: food().loc[food()["kg"].idxmax(), "Item"],
    "What did Maria Lopez donate?": lambda: food().loc[food()["Donor"] == "Maria Lopez", "Item"].iloc[0],
    "How many donations did we receive in April 2024?": lambda: int(
        ((food()["date"].dt.year == 2024) & (food()["date"].dt.month == 4)).sum()
    ),
    "What's the average weight of a church donation, in kg?": lambda: round(
        float(food().loc[food()["Donor Type"] == "Church", "kg"].mean()), 2
    ),
    "who made the last donation in the log": lambda: (
        food().sort_values("date", kind="stable").iloc[-1]["Donor"]
    ),
    "What was donated right after the Easter eggs?": lambda: _next_after(
        food(), "Item", "Easter eggs", "Item"
    ),
    "Which donations from individuals weighed less than 1 kg? List the items.": lambda: (
        food().loc[(food()["Donor Type"] == "Individual") & (food()["kg"] < 1), "Item"].tolist()
    ),
    "How many more kilograms did FreshMart donate than Greenway Supermarket altogether?": lambda: round(
        float(
            food().loc[food()["Donor"] == "FreshMart", "kg"].sum()
            - food().loc[food()["Donor"] == "Greenway Supermarket", "kg"].sum()
        ),
        2,
    ),
    # telecom indicators
    "what is the internet users percentage for vietnam": lambda: _tel("Vietnam", INTERNET),
    "Which country has the highest mobile subscriptions per 100 people?": lambda: telecom().loc[
        telecom()[MOBILE + " #"].idxmax(), "Country"
    ],
    "How many countries have no 5G coverage figure?": lambda: int(telecom()[FIVE_G + " #"].isna().sum()),
    "What is the average fixed broadband per 100 people in 2022 across the European countries?": lambda: (
        round(float(telecom().loc[telecom()["Region"] == "Europe", BROADBAND + " #"].mean()), 2)
    ),
    "Which countries have gained fixed telephone lines since 2017 rather than lost them?": lambda: (
        telecom().loc[telecom()[CHANGE + " #"] > 0, "Country"].tolist()
    ),
    "which country had the biggest fall in fixed lines since 2017": lambda: telecom().loc[
        telecom()[CHANGE + " #"].idxmin(), "Country"
    ],
    "Which is cheaper for mobile data per GB, Indonesia or Egypt?": lambda: min(
        ["Indonesia", "Egypt"], key=lambda c: _tel(c, PRICE)
    ),
    "Which countries in the Americas have internet users above 85% of the population?": lambda: (
        telecom()
        .loc[(telecom()["Region"] == "Americas") & (telecom()[INTERNET + " #"] > 85), "Country"]
        .tolist()
    ),
    "total population of the African countries, in millions": lambda: round(
        float(telecom().loc[telecom()["Region"] == "Africa", POP + " #"].sum()), 2
    ),
    "How many more secure internet servers per million people does Germany have than Norway?": lambda: int(
        _tel("Germany", SERVERS) - _tel("Norway", SERVERS)
    ),
}
