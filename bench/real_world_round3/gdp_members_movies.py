"""Round three of the real-world set (gdp, members, movies): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

import os
import re
from collections.abc import Callable
from datetime import date, datetime

import pandas as pd

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "real")


def load(name, sep):
    return pd.read_csv(os.path.join(HERE, name), sep=sep, dtype=str, keep_default_na=False)


def eu_num(s):
    """'1.234.567,8' or '-0,4' -> float; blank -> None."""
    s = s.strip()
    if not s:
        return None
    return float(s.replace(".", "").replace(",", "."))


def money(s):
    """'$45', '$45.2M' -> float (millions stay in millions); blank -> None."""
    s = s.strip().replace("$", "").replace(",", "")
    if not s:
        return None
    if s.endswith("M"):
        s = s[:-1]
    return float(s)


def iso_date(s):
    s = s.strip()
    return datetime.strptime(s, "%Y-%m-%d").date() if s else None


def us_date(s):
    """'Mar. 15, 2024' / 'May 3, 2024' -> date."""
    return datetime.strptime(s.replace(".", ""), "%b %d, %Y").date()


def minutes(s):
    """'2h 14m' -> 134."""
    m = re.fullmatch(r"\s*(\d+)h\s*(\d+)m\s*", s)
    return int(m.group(1)) * 60 + int(m.group(2))


gdp = load("gdp_growth_eu.csv", ";")
club = load("club_members.tsv", "\t")
mov = load("movie_box_office.csv", ",")

gdp["gdp"] = gdp["GDP (million EUR)"].map(eu_num)
gdp["growth"] = gdp["GDP growth (%)"].map(eu_num)
gdp["infl"] = gdp["Inflation rate (%)"].map(eu_num)
gdp["unemp"] = gdp["Unemployment (%)"].map(eu_num)
gdp["pop"] = gdp["Population"].map(eu_num)

club["age"] = club["Age"].astype(int)
club["fee"] = club["Monthly Fee"].map(money)
club["joined"] = club["Join Date"].map(iso_date)

mov["opening"] = mov["Opening Weekend"].map(money)
mov["gross"] = mov["Total Gross (Domestic)"].map(money)
mov["released"] = mov["Release Date"].map(us_date)
mov["mins"] = mov["Runtime"].map(minutes)


def row(df, col, value):
    r = df[df[col] == value]
    assert len(r) == 1, (col, value, len(r))
    return r.iloc[0]


def unique_extreme(df, col, key, largest=True):
    d = df[df[col].notna()]
    best = d[col].max() if largest else d[col].min()
    hits = d[d[col] == best]
    assert len(hits) == 1, ("tie", col, best)
    return hits.iloc[0][key]


def bigger(df, key, col, a, b):
    va, vb = row(df, key, a)[col], row(df, key, b)[col]
    assert va != vb
    return a if va > vb else b


unemp_known = gdp[gdp["unemp"].notna()]
bluegate = mov[mov["Studio"] == "Bluegate Pictures"]
red_mesa = mov[mov["Studio"] == "Red Mesa Pictures"]
greta_pos = club.index[club["Name"] == "Greta Hollis"][0]

ANSWERS: dict[str, Callable[[], object]] = {
    # gdp_growth_eu.csv
    "What was Morvania's inflation rate?": lambda: row(gdp, "Country", "Morvania")["Inflation rate (%)"],
    "which country's economy shrank the most": lambda: unique_extreme(
        gdp, "growth", "Country", largest=False
    ),
    "how many countries saw their GDP fall?": lambda: int((gdp["growth"] < 0).sum()),
    "How many countries don't have an unemployment figure?": lambda: int(
        (gdp["Unemployment (%)"].str.strip() == "").sum()
    ),
    "Which country has the biggest population?": lambda: unique_extreme(gdp, "pop", "Country"),
    "which countries had inflation above 10%": lambda: list(gdp[gdp["infl"] > 10]["Country"]),
    "total GDP in million euros for countries with unemployment over 10 percent": lambda: unemp_known[
        unemp_known["unemp"] > 10
    ]["gdp"].sum(),
    "What is the average inflation rate across all the countries?": lambda: round(gdp["infl"].mean(), 2),
    "how many points higher is the jobless rate in Galvany than in Rosvik": lambda: (
        row(gdp, "Country", "Galvany")["unemp"] - row(gdp, "Country", "Rosvik")["unemp"]
    ),
    "Which had stronger growth, Belmoria or Norhelm?": lambda: bigger(
        gdp, "Country", "growth", "Belmoria", "Norhelm"
    ),
    # club_members.tsv
    "when did Kwame Ashdown join?": lambda: row(club, "Name", "Kwame Ashdown")["Join Date"],
    "How many premium members do we have?": lambda: int((club["Membership Type"] == "Premium").sum()),
    "how many members have no last visit on record": lambda: int(
        (club["Last Visit"].str.strip() == "").sum()
    ),
    "Who is our oldest member?": lambda: unique_extreme(club, "age", "Name"),
    "What do Standard members pay in total each month?": lambda: club[club["Membership Type"] == "Standard"][
        "fee"
    ].sum(),
    "average age of student members": lambda: round(
        club[club["Membership Type"] == "Student"]["age"].mean(), 2
    ),
    "which members signed up in 2021?": lambda: list(
        club[club["joined"].map(lambda d: d.year == 2021)]["Name"]
    ),
    "Who was the most recent person to join the club?": lambda: unique_extreme(club, "joined", "Name"),
    "what's the member id of the person listed just before Greta Hollis": lambda: club.loc[
        greta_pos - 1, "Member ID"
    ],
    "Which members are over 60?": lambda: list(club[club["age"] > 60]["Name"]),
    # movie_box_office.csv
    "What did Midnight Ledger make on its opening weekend?": lambda: row(mov, "Title", "Midnight Ledger")[
        "Opening Weekend"
    ],
    "which movie earned the most overall": lambda: unique_extreme(mov, "gross", "Title"),
    "how many R rated films are on the list": lambda: int((mov["MPAA Rating"] == "R").sum()),
    "Which films run longer than two and a half hours?": lambda: list(mov[mov["mins"] > 150]["Title"]),
    "average opening weekend for Bluegate Pictures films, in millions": lambda: round(
        bluegate["opening"].mean(), 2
    ),
    "What is the combined total gross of all Copperfield Films releases, in millions of dollars?": lambda: (
        mov[mov["Studio"] == "Copperfield Films"]["gross"].sum()
    ),
    "how many films were released between April 1 and June 30, 2024?": lambda: int(
        mov["released"].map(lambda d: date(2024, 4, 1) <= d <= date(2024, 6, 30)).sum()
    ),
    "What was the last film Red Mesa put out?": lambda: unique_extreme(red_mesa, "released", "Title"),
    "Which had the bigger opening, Crown of Embers or Nightshade Motel?": lambda: bigger(
        mov, "Title", "opening", "Crown of Embers", "Nightshade Motel"
    ),
    "how much more did Tiny Titans 2 gross than Sprocket & Bolt, in millions": lambda: (
        row(mov, "Title", "Tiny Titans 2")["gross"] - row(mov, "Title", "Sprocket & Bolt")["gross"]
    ),
}
