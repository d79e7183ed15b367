"""Round eight of the real-world set (weather, education, invoices): each answer recomputed with pandas by the
question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"


def load(name):
    return pd.read_csv(HERE / name, dtype=str, keep_default_na=False)


def num(s):
    """'1,234.5' -> 1234.5, '$3,450.00' -> 3450.0, '(250.00)' -> -250.0, '' -> None."""
    s = s.strip()
    if s == "":
        return None
    neg = s.startswith("(") and s.endswith(")")
    s = s.strip("()").replace("$", "").replace(",", "")
    v = float(s)
    return -v if neg else v


def long_date(s):
    return datetime.strptime(s.strip(), "%B %d, %Y")


def iso_date(s):
    return datetime.strptime(s.strip(), "%Y-%m-%d")


W = load("mountain_weather_log.csv")
E = load("education_indicators.csv")
INV = load("contractor_invoices.csv")

W_date = "Date"
W_max, W_min, W_snow = "Max temp (°C)", "Min temp (°C)", "Snow (cm)"
W_wind, W_cond = "Wind (km/h)", "Conditions"

E_name = "Country Name"
E_enr = "School enrollment, primary (% gross)"
E_ptr = "Pupil-teacher ratio, primary"
E_lit = "Literacy rate, adult total (% of people ages 15 and above)"
E_gov = "Government expenditure on education, total (% of GDP)"
E_net = "Internet users (% of population)"

I_inv, I_con, I_iss, I_due = "Invoice #", "Contractor", "Issued", "Due Date"
I_amt, I_st, I_proj = "Amount (USD)", "Status", "Project"


def wrow(date_text):
    return W[W[W_date] == date_text].iloc[0]


def erow(country):
    return E[E[E_name] == country].iloc[0]


def col_nums(df, col):
    return df[col].map(num)


def unique_best(df, col, label, largest=True):
    """Row label with the max/min numeric value of col; fails on a tie."""
    vals = col_nums(df, col).dropna()
    best = vals.max() if largest else vals.min()
    hits = vals[vals == best]
    assert len(hits) == 1, f"tie on {col}: {list(df.loc[hits.index, label])}"
    return df.loc[hits.index[0], label]


def mean(values):
    values = [v for v in values if v is not None]
    return round(sum(values) / len(values), 2)


def next_label(df, key_col, key, out_col):
    pos = df.index[df[key_col] == key][0]
    return df.loc[pos + 1, out_col]


ANSWERS: dict[str, Callable[[], object]] = {
    # mountain_weather_log.csv
    "What was the wind speed on February 8, 2024?": lambda: wrow("February 8, 2024")[W_wind],
    "how many blizzard days were there": lambda: int((W[W_cond] == "Blizzard").sum()),
    "How many days did the daytime high get above freezing?": lambda: int((col_nums(W, W_max) > 0).sum()),
    "Which night was the coldest at the hut (lowest minimum temperature)?": lambda: unique_best(
        W, W_min, W_date, largest=False
    ),
    "total snowfall on heavy snow days": lambda: col_nums(W[W[W_cond] == "Heavy snow"], W_snow).sum(),
    "average wind speed on clear days?": lambda: mean(col_nums(W[W[W_cond] == "Clear"], W_wind)),
    "How much colder was the overnight low on March 1 than on February 29?": lambda: (
        num(wrow("February 29, 2024")[W_min]) - num(wrow("March 1, 2024")[W_min])
    ),
    "what were conditions like the day after feb 23": lambda: W.loc[
        [i for i in W.index if long_date(W.loc[i, W_date]) == datetime(2024, 2, 24)][0], W_cond
    ],
    "When was the last foggy day in the log?": lambda: max(W[W[W_cond] == "Fog"][W_date], key=long_date),
    "which was windier, March 16 or March 17?": lambda: unique_best(
        W[W[W_date].isin(["March 16, 2024", "March 17, 2024"])], W_wind, W_date
    ),
    # education_indicators.csv
    "What's the primary pupil-teacher ratio in Kalmora?": lambda: erow("Kalmora")[E_ptr],
    "how many countries are missing an adult literacy figure": lambda: int(
        (E[E_lit].str.strip() == "").sum()
    ),
    "Which country spends the largest share of its GDP on education?": lambda: unique_best(E, E_gov, E_name),
    "which countries have more than 80% of people online": lambda: list(
        E[col_nums(E, E_net).map(lambda v: v is not None and v > 80)][E_name]
    ),
    "What is the average gross primary enrollment rate across the countries?": lambda: mean(
        col_nums(E, E_enr)
    ),
    "how many percentage points higher is internet use in Velmark than in Tavoria": lambda: (
        num(erow("Velmark")[E_net]) - num(erow("Tavoria")[E_net])
    ),
    "Which has the higher adult literacy rate, Nordhavn or Isperan?": lambda: unique_best(
        E[E[E_name].isin(["Nordhavn", "Isperan"])], E_lit, E_name
    ),
    "which country comes right after Oltera in the list?": lambda: next_label(E, E_name, "Oltera", E_name),
    "smallest primary class sizes - which country has the fewest pupils per teacher": lambda: unique_best(
        E, E_ptr, E_name, largest=False
    ),
    "How many countries have more than 35 primary pupils per teacher?": lambda: int(
        col_nums(E, E_ptr).map(lambda v: v is not None and v > 35).sum()
    ),
    # contractor_invoices.csv
    "what's the amount on invoice INV-1021?": lambda: INV[INV[I_inv] == "INV-1021"].iloc[0][I_amt],
    "How many invoices are overdue?": lambda: int((INV[I_st] == "Overdue").sum()),
    "How much has Clearview Glazing billed us in total, credits included?": lambda: col_nums(
        INV[INV[I_con] == "Clearview Glazing"], I_amt
    ).sum(),
    "which invoice is the largest credit note": lambda: unique_best(
        INV[col_nums(INV, I_amt) < 0], I_amt, I_inv, largest=False
    ),
    "number of invoices issued in april 2024": lambda: int(
        INV[I_iss].map(lambda s: (iso_date(s).year, iso_date(s).month) == (2024, 4)).sum()
    ),
    "Which invoices came to more than $10,000?": lambda: list(INV[col_nums(INV, I_amt) > 10000][I_inv]),
    "who sent the invoice after INV-1016?": lambda: next_label(INV, I_inv, "INV-1016", I_con),
    "What is the latest due date on any unpaid invoice?": lambda: max(
        INV[INV[I_st] == "Unpaid"][I_due], key=iso_date
    ),
    "average invoice amount for the Harbor Street Lofts job": lambda: mean(
        col_nums(INV[INV[I_proj] == "Harbor Street Lofts"], I_amt)
    ),
    "Which contractor sent the single biggest invoice?": lambda: unique_best(INV, I_amt, I_con),
}
