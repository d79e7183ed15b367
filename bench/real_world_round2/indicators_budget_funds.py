"""Round two of the real-world set (indicators, budget, funds): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

import re
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"


def load(name: str) -> pd.DataFrame:
    return pd.read_csv(HERE / name, dtype=str, keep_default_na=False)


def num(s: str) -> float | None:
    """Parse '1,234.50', '(45.00)', '-3.4%', '$12' -> float; blank -> None."""
    s = s.strip()
    if s == "":
        return None
    neg = s.startswith("(") and s.endswith(")")
    s = re.sub(r"[()$,%\s]", "", s)
    v = float(s)
    return -v if neg else v


def assets(s: str) -> float:
    """Parse '850M', '2.5B' -> dollars."""
    mult = {"K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}
    s = s.strip().upper()
    if s and s[-1] in mult:
        return float(s[:-1].replace(",", "")) * mult[s[-1]]
    return float(s.replace(",", ""))


def day(s: str) -> date:
    return date.fromisoformat(s.strip())


C = load("country_indicators_2021.csv")
H = load("household_budget_2024.csv")
F = load("fund_performance.csv")

POP = "Population, total"
GDP = "GDP per capita (current US$)"
LIFE = "Life expectancy at birth, total (years)"
CO2 = "CO2 emissions (metric tons per capita)"
UNEMP = "Unemployment, total (% of total labor force)"

C_pop = C[POP].map(num)
C_gdp = C[GDP].map(num)
C_life = C[LIFE].map(num)
C_co2 = C[CO2].map(num)
C_unemp = C[UNEMP].map(num)

H_amt = H["Amount (USD)"].map(num)
H_bal = H["Balance"].map(num)
H_day = H["Date"].map(day)

F_ret = F["1-Yr Return"].map(num)
F_exp = F["Expense Ratio"].map(num)
F_assets = F["Net Assets ($)"].map(assets)


def c_val(country: str, series: pd.Series) -> float:
    return series[C["Country Name"] == country].iloc[0]


def row_after(df: pd.DataFrame, mask: pd.Series, col: str) -> str:
    i = mask[mask].index[0]
    return df.loc[i + 1, col]


def f_val(fund: str, series: pd.Series):
    return series[F["Fund Name"] == fund].iloc[0]


ANSWERS: dict[str, Callable[[], object]] = {
    # country_indicators_2021.csv
    "What was the life expectancy in Marovia?": lambda: C.loc[C["Country Name"] == "Marovia", LIFE].iloc[0],
    "which country has the highest gdp per head": lambda: C.loc[C_gdp.idxmax(), "Country Name"],
    "How many countries are missing an unemployment rate?": lambda: int((C[UNEMP].str.strip() == "").sum()),
    "countries where co2 per person is over 10 tonnes": lambda: list(
        C.loc[C_co2.map(lambda v: v is not None and v > 10), "Country Name"]
    ),
    "What's the average life expectancy across all the countries in the list?": lambda: round(
        C_life.dropna().mean(), 2
    ),
    "Which has the bigger population, Kestrel Coast or Lumeria?": lambda: max(
        ["Kestrel Coast", "Lumeria"], key=lambda c: c_val(c, C_pop)
    ),
    "how many points higher is joblessness in Galdovia than in Nordhaven": lambda: (
        c_val("Galdovia", C_unemp) - c_val("Nordhaven", C_unemp)
    ),
    "What is the combined population of the countries with GDP per capita above $40,000?": lambda: C_pop[
        C_gdp > 40000
    ].sum(),
    "lowest carbon emissions per capita - which country?": lambda: C.loc[
        C_co2.dropna().astype(float).idxmin(), "Country Name"
    ],
    "how many countries have life expectancy below 70": lambda: int((C_life < 70).sum()),
    # household_budget_2024.csv
    "what was the balance after the brake pad repair?": lambda: H.loc[
        H["Memo"] == "Brake pads", "Balance"
    ].iloc[0],
    "How much money came into the account in February?": lambda: H_amt[
        (H_amt > 0) & H_day.map(lambda d: (d.year, d.month) == (2024, 2))
    ].sum(),
    "When did the last paycheck arrive?": lambda: H.loc[H_day[H["Category"] == "Income"].idxmax(), "Date"],
    "which payee comes right after the dentist in the ledger": lambda: row_after(
        H, H["Payee"].str.contains("Dental"), "Payee"
    ),
    "how many utility bills are there": lambda: int((H["Category"] == "Utilities").sum()),
    "How many transactions were there in March 2024?": lambda: int(
        H_day.map(lambda d: (d.year, d.month) == (2024, 3)).sum()
    ),
    "What's my average paycheck?": lambda: round(
        H_amt[H["Payee"] == "Northwind Logistics Payroll"].mean(), 2
    ),
    "On what date did the balance drop to its lowest point?": lambda: H.loc[H_bal.idxmin(), "Date"],
    "Who got the single biggest payment out of the account?": lambda: sorted(
        set(H.loc[H_amt == H_amt.min(), "Payee"])
    ),
    "how many outgoing payments were more than $100": lambda: int((H_amt < -100).sum()),
    # fund_performance.csv
    "Which fund lost the most money over the last year?": lambda: F.loc[F_ret.idxmin(), "Fund Name"],
    "how many funds had a negative 1 year return": lambda: int((F_ret < 0).sum()),
    "What's the largest fund by assets?": lambda: F.loc[F_assets.idxmax(), "Fund Name"],
    "funds charging more than 1% in fees": lambda: list(F.loc[F_exp > 1, "Fund Name"]),
    "What was the average one-year return for the bond funds, in percent?": lambda: round(
        F_ret[F["Category"] == "Bond"].mean(), 2
    ),
    "how many funds are rated 5 stars": lambda: int((F["Star Rating"].str.strip() == "5").sum()),
    "Which one manages more money, Oakmont Mid Cap Value or Lakeshore Intl Developed?": lambda: max(
        ["Oakmont Mid Cap Value", "Lakeshore Intl Developed"], key=lambda f: f_val(f, F_assets)
    ),
    "What is the expense ratio on Copperfield Dividend Income?": lambda: F.loc[
        F["Fund Name"] == "Copperfield Dividend Income", "Expense Ratio"
    ].iloc[0],
    "combined assets of the sector funds in millions of dollars": lambda: (
        F_assets[F["Category"] == "Sector"].sum() / 1e6
    ),
    "By how many percentage points did Alder Tech Innovators beat Harborline Growth Fund over 1 year?": lambda: (
        f_val("Alder Tech Innovators", F_ret) - f_val("Harborline Growth Fund", F_ret)
    ),
}


def same(computed: object, expected: str) -> bool:
    if isinstance(computed, (list, tuple, set)):
        items = [str(x) for x in computed]
        if len(items) == 1:
            return items[0] == expected
        return set(items) == set(expected.split("|"))
    if isinstance(computed, str):
        return computed == expected
    try:
        return abs(float(computed) - float(expected)) <= 0.01
    except ValueError:
        return False
