"""Recompute every gold answer of the real-world set (`examples/real/questions.tsv`, `questions-round2.tsv`,
`questions-round3.tsv`, `questions-round4.tsv`, `questions-round5.tsv`, `questions-round6.tsv`,
`questions-round7.tsv`, `questions-round8.tsv`, `questions-round9.tsv`, `questions-round10.tsv`,
`questions-round11.tsv`, `questions-round12.tsv`,
`questions-round13.tsv`, `questions-round14.tsv`, `questions-round15.tsv`,
`questions-round16.tsv`, `questions-round17.tsv`, `questions-round18.tsv`, `questions-round19.tsv`,
`questions-round20.tsv`, `questions-round21.tsv`, `questions-round22.tsv`, `questions-round23.tsv`,
`questions-round24.tsv`, `questions-round25.tsv`,
`questions-round26.tsv`, `questions-round27.tsv`, `questions-round28.tsv`) from the tables with plain pandas, not nsm.

The answers in the question file were written by hand; this script states each question once more as explicit
pandas code over the table, read with its own parsing of money, accounting negatives, European decimals,
magnitude suffixes and dates, and reports every question whose gold answer disagrees (or has no check here).
Exit code 1 when any does.

    python bench/real_world_gold_check.py
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[1] / "examples" / "real"


# --------------------------------------------------------------------------------------------------------
# Reading the tables, independently of nsmcli's readers


def read(name: str) -> pd.DataFrame:
    path = REAL / name
    if path.suffix == ".xlsx":
        return pd.read_excel(path, engine="openpyxl")
    if path.suffix == ".json":
        return pd.DataFrame(json.loads(path.read_text(encoding="utf-8")))
    sep = {".tsv": "\t"}.get(path.suffix, ";" if "_eu" in path.stem else ",")
    return pd.read_csv(path, sep=sep, dtype=str, keep_default_na=False)


def money(text: str) -> float:
    """`$1,234.50` -> 1234.5; `(120.00)` -> -120.0; `+4.85` -> 4.85."""
    s = text.strip().replace("$", "").replace(",", "").replace("%", "")
    if s.startswith("(") and s.endswith(")"):
        return -float(s[1:-1])
    return float(s)


def european(text: str) -> float:
    """`48.215,70` -> 48215.7; `3.104` -> 3104 (the whole column uses `.` for thousands)."""
    return float(text.replace(".", "").replace(",", "."))


def magnitude(text: str) -> float:
    """`2.5M` -> 2500000; `545K` -> 545000."""
    factor = {"K": 1e3, "M": 1e6}[text[-1].upper()]
    return float(text[:-1]) * factor


def numbers(series: pd.Series, parse: Callable[[str], float] = money) -> pd.Series:
    return series.map(parse)


def dates(series: pd.Series, fmt: str) -> pd.Series:
    return pd.to_datetime(series, format=fmt)


def named(df: pd.DataFrame, column: str, value: str) -> pd.Series:
    """The (first) row of `df` whose `column` is `value`."""
    return df[df[column] == value].iloc[0]


sales = read("sales_export.csv")
sales["total"] = numbers(sales["Total"])
sales["units"] = sales["Units"].astype(int)
sales["date"] = dates(sales["Order Date"], "%m/%d/%Y")

fc = read("riverside_fc_results.csv")
fc["att"] = numbers(fc["Attendance"])
fc["date"] = dates(fc["Date"], "%d %b %Y")
home, away = fc[fc["Venue"] == "Home"], fc[fc["Venue"] == "Away"]

staff = read("staff_directory.csv")
staff["start"] = dates(staff["Start Date"], "%Y-%m-%d")

wx = read("weather_log_spring_2024.csv")
wx["date"] = dates(wx["Date"], "%B %d, %Y")
wx["high"] = wx["High (°F)"].astype(int)
wx["low"] = wx["Low (°F)"].astype(int)
wx["rain"] = wx["Precipitation (in)"].astype(float)
wx["wind"] = wx["Max Wind (mph)"].astype(int)
march, april = wx[wx["date"].dt.month == 3], wx[wx["date"].dt.month == 4]


def wx_day(month: int, day: int) -> pd.Series:
    return wx[(wx["date"].dt.month == month) & (wx["date"].dt.day == day)].iloc[0]


ind = read("world_indicators_2022.csv")
for column in ind.columns[2:]:
    ind[column] = ind[column].astype(float)
GROWTH, LIFE, POP = "GDP growth (annual %)", "Life expectancy at birth, total (years)", "Population, total"
ELEC = "Access to electricity (% of population)"
UNEMP = "Unemployment, total (% of total labor force) (modeled ILO estimate)"


def country(name: str) -> pd.Series:
    return named(ind, "Country Name", name)


exp = read("expense_report_march.csv")
exp["amount"] = numbers(exp["Amount (USD)"])
exp["date"] = dates(exp["Date"], "%m/%d/%Y")

stk = read("stock_moves.csv")
stk["close"] = numbers(stk["Close"])
stk["change"] = numbers(stk["Change"])
stk["pct"] = numbers(stk["% Change"])
stk["volume"] = numbers(stk["Volume"])

eu = read("store_revenue_march_eu.csv")
eu["revenue"] = numbers(eu["Revenue (€)"], european)
eu["customers"] = numbers(eu["Customers"], european)
eu["basket"] = numbers(eu["Avg. Basket (€)"], european)
eu["opened"] = dates(eu["Opened"], "%d.%m.%Y")


def store(name: str) -> pd.Series:
    return named(eu, "Store", name)


inv = read("inventory.tsv")
inv["stock"] = inv["In Stock"].astype(int)
inv["reorder"] = inv["Reorder Level"].astype(int)
inv["cost"] = numbers(inv["Unit Cost"])
inv["discount"] = numbers(inv["Discount"])
inv["margin"] = numbers(inv["Margin"])


def product(name: str) -> pd.Series:
    return named(inv, "Product", name)


city = read("city_populations.json")
city["pop"] = numbers(city["Population"], magnitude)
city["area"] = numbers(city["Area (km²)"])
city["growth"] = numbers(city["Annual Growth"])


def town(name: str) -> pd.Series:
    return named(city, "City", name)


tt = read("train_timetable.csv")
tt["dep"] = dates(tt["Departure"], "%Y-%m-%dT%H:%M")
tt["arr"] = dates(tt["Arrival"], "%Y-%m-%dT%H:%M")

gr = read("term1_grades.xlsx")


def student(name: str) -> pd.Series:
    return named(gr, "Student", name)


sv = read("customer_survey.csv")
sv["age"] = sv["Age"].astype(int)
sv["sat"] = sv["Satisfaction (1-5)"].astype(int)
sv["fee"] = numbers(sv["Monthly Fee"])
sv["since"] = dates(sv["Customer Since"], "%Y-%m-%d")


rc = read("race_results.csv")
rc["lap"] = rc["Best Lap"].map(lambda t: int(t.split(":")[0]) * 60 + float(t.split(":")[1]))  # m:ss.ff
rc["laps"] = rc["Laps"].astype(int)


def driver(name: str) -> pd.Series:
    return named(rc, "Driver", name)


# an API's response: the records under "data", nested objects flattened to `contact.city` and the like
club = pd.json_normalize(json.loads((REAL / "club_members.json").read_text(encoding="utf-8"))["data"])
club["joined_date"] = dates(club["joined"], "%Y-%m-%d")


def member(name: str) -> pd.Series:
    return named(club, "name", name)


# `;`-separated, thousands grouped by spaces, decimal commas; two note lines below the six regions
en = pd.read_csv(REAL / "energy_regions_fr.csv", sep=";", dtype=str, nrows=6)
en["mwh"] = en["Consumption (MWh)"].map(lambda t: float(t.replace(" ", "").replace(",", ".")))
en["price"] = en["Avg Price (€/MWh)"].map(lambda t: float(t.replace(",", ".")))
en["change"] = en["Change"].map(lambda t: float(t.replace(" %", "").replace(",", ".")))


def region(name: str) -> pd.Series:
    return named(en, "Region", name)


# a timesheet whose durations are written "2h 30m", "45m", "3h"
ts = read("timesheet_week10.csv")


def minutes(text: str) -> int:
    """`2h 30m` -> 150; `45m` -> 45; `3h` -> 180."""
    total = 0
    for part in text.split():
        total += int(part[:-1]) * (60 if part.endswith("h") else 1)
    return total


ts["minutes"] = ts["Duration"].map(minutes)
ts["day"] = dates(ts["Date"], "%Y-%m-%d")


def task(name: str) -> pd.Series:
    return named(ts, "Task", name)


# lab samples: a row of units under the header and an empty row among the data
lab = pd.read_csv(REAL / "lab_samples.csv", skiprows=[1]).dropna(how="all").reset_index(drop=True)


def sample(name: str) -> pd.Series:
    return named(lab, "Sample", name)


def after(df: pd.DataFrame, mask: pd.Series, column: str, offset: int = 1) -> object:
    """The value of `column` in the row `offset` rows after the (single) row where `mask` holds."""
    index = df.index[mask.to_numpy()][0]
    return df.loc[index + offset, column]


def pick(df: pd.DataFrame, mask: pd.Series, column: str) -> object:
    return df.loc[mask.to_numpy(), column].iloc[0]


def argmax(df: pd.DataFrame, key: str, column: str) -> object:
    return df.loc[df[key].idxmax(), column]


def argmin(df: pd.DataFrame, key: str, column: str) -> object:
    return df.loc[df[key].idxmin(), column]


def longer(a: pd.Series, b: pd.Series, key: str, column: str) -> object:
    return a[column] if a[key] > b[key] else b[column]


def day_text(ts: pd.Timestamp) -> str:
    return f"{ts:%B} {ts.day}, {ts.year}"


def order(n: int) -> pd.Series:
    return sales[sales["Order ID"] == str(n)].iloc[0]


# thirty-fifth session: a bank statement with signed amounts and ISO dates, apartment listings with blank
# cells, and project tasks with day-first dates
bank = read("bank_statement_may.csv")
bank["amount"] = numbers(bank["Amount"])
bank["date"] = dates(bank["Date"], "%Y-%m-%d")

flats = read("apartment_listings.csv")
flats["rent"] = numbers(flats["Rent"])
flats["size"] = numbers(flats["Size (sq ft)"])
flats["bedrooms"] = flats["Bedrooms"].astype(int)
flats["available"] = pd.to_datetime(flats["Available"], format="%m/%d/%Y", errors="coerce")

tasks = read("project_tasks.csv")
tasks["due"] = dates(tasks["Due"], "%d/%m/%Y")
tasks["hours"] = tasks["Estimate (h)"].astype(int)


# --------------------------------------------------------------------------------------------------------
# One recomputation per question (the question text is the key)

ANSWERS: dict[str, Callable[[], object]] = {
    # sales export
    "What was the total on order 1010?": lambda: order(1010)["total"],
    "who is the sales rep for Gulf Coast Realty": lambda: pick(
        sales, sales["Customer"] == "Gulf Coast Realty", "Sales Rep"
    ),
    "How many orders came from the West region?": lambda: (sales["Region"] == "West").sum(),
    "Which customer placed the biggest order?": lambda: argmax(sales, "total", "Customer"),
    "How many units did Harbor Supply Co. buy in total?": lambda: sales.loc[
        sales["Customer"] == "Harbor Supply Co.", "units"
    ].sum(),
    "What's the total value of all the Standing Desk orders?": lambda: sales.loc[
        sales["Product"] == "Standing Desk", "total"
    ].sum(),
    "How many orders were placed in March 2024?": lambda: (
        (sales["date"].dt.month == 3) & (sales["date"].dt.year == 2024)
    ).sum(),
    "Which customers ordered more than 20 units at once?": lambda: list(
        sales.loc[sales["units"] > 20, "Customer"]
    ),
    "When was the last order placed?": lambda: argmax(sales, "date", "Order Date"),
    "On average, how many units were in Kevin Tran's orders?": lambda: sales.loc[
        sales["Sales Rep"] == "Kevin Tran", "units"
    ].mean(),
    "What product was ordered right after order 1006?": lambda: after(
        sales, sales["Order ID"] == "1006", "Product"
    ),
    "Which order was bigger, 1005 or 1009?": lambda: longer(order(1005), order(1009), "total", "Order ID"),
    "How many orders were over $1,000?": lambda: (sales["total"] > 1000).sum(),
    "How much more was order 1013 worth than order 1010?": lambda: (
        order(1013)["total"] - order(1010)["total"]
    ),
    "What was the total of the orders placed in February?": lambda: sales.loc[
        sales["date"].dt.month == 2, "total"
    ].sum(),
    # football results
    "What was the score against Harrowgate FC?": lambda: pick(fc, fc["Opponent"] == "Harrowgate FC", "Score"),
    "What was the attendance at the away game against Northgate United?": lambda: pick(
        away, away["Opponent"] == "Northgate United", "att"
    ),
    "Which opponent drew the biggest crowd?": lambda: argmax(fc, "att", "Opponent"),
    "How many games did we win?": lambda: (fc["Result"] == "W").sum(),
    "How many home games had more than 17,000 fans?": lambda: (home["att"] > 17000).sum(),
    "What was the average home attendance?": lambda: home["att"].mean(),
    "Who did Riverside play after Brookfield Town?": lambda: after(
        fc, fc["Opponent"] == "Brookfield Town", "Opponent"
    ),
    "who did they play in the last match of the year?": lambda: argmax(fc, "date", "Opponent"),
    "How many matches were played in November?": lambda: (fc["date"].dt.month == 11).sum(),
    "How many more fans came to the away game at Northgate United than to the home game against them?": (
        lambda: (
            pick(away, away["Opponent"] == "Northgate United", "att")
            - pick(home, home["Opponent"] == "Northgate United", "att")
        )
    ),
    "Which home crowd was bigger, Kingsbridge Athletic or Westvale Wanderers?": lambda: argmax(
        home[home["Opponent"].isin(["Kingsbridge Athletic", "Westvale Wanderers"])], "att", "Opponent"
    ),
    "What was the total attendance for away games?": lambda: away["att"].sum(),
    "Which games were watched by fewer than 10,000 people?": lambda: list(
        fc.loc[fc["att"] < 10000, "Opponent"]
    ),
    "What was the score in the game before the Harrowgate FC match?": lambda: after(
        fc, fc["Opponent"] == "Harrowgate FC", "Score", -1
    ),
    "Who was the first opponent of the season?": lambda: argmin(fc, "date", "Opponent"),
    # staff list
    "What is Grace Liu's job title?": lambda: pick(staff, staff["Name"] == "Grace Liu", "Job Title"),
    "who is daniel osei's manager": lambda: pick(staff, staff["Name"] == "Daniel Osei", "Manager"),
    "How many people work in Engineering?": lambda: (staff["Department"] == "Engineering").sum(),
    "How many employees have no extension listed?": lambda: (staff["Ext."].str.strip() == "").sum(),
    "Who has been with the company the longest?": lambda: argmin(staff, "start", "Name"),
    "Which employees started in 2023?": lambda: list(staff.loc[staff["start"].dt.year == 2023, "Name"]),
    "How many people report to Tom Becker?": lambda: (staff["Manager"] == "Tom Becker").sum(),
    "Who joined before 2016?": lambda: list(staff.loc[staff["start"].dt.year < 2016, "Name"]),
    "Who comes after Rachel Kim on the list?": lambda: after(staff, staff["Name"] == "Rachel Kim", "Name"),
    "Who started earlier, Sofia Rossi or Aisha Rahman?": lambda: argmin(
        staff[staff["Name"].isin(["Sofia Rossi", "Aisha Rahman"])], "start", "Name"
    ),
    "Who is the last person in the directory?": lambda: staff["Name"].iloc[-1],
    "How many people are in the Chicago office?": lambda: (staff["Office"] == "Chicago").sum(),
    # weather log
    "What was the high on March 15, 2024?": lambda: wx_day(3, 15)["high"],
    "what was the low on april 1": lambda: wx_day(4, 1)["low"],
    "What was the hottest day?": lambda: argmax(wx, "high", "Date"),
    "Which day had the most rain?": lambda: argmax(wx, "rain", "Date"),
    "In April, on how many days were the conditions Rain?": lambda: (april["Conditions"] == "Rain").sum(),
    "How many days did the low drop below freezing (32 °F)?": lambda: (wx["low"] < 32).sum(),
    "On which days was the high above 70 degrees?": lambda: list(wx.loc[wx["high"] > 70, "Date"]),
    "How much rain fell in total in March?": lambda: march["rain"].sum(),
    "What was the weather like the day after March 20, 2024?": lambda: after(
        wx, wx["Date"] == "March 20, 2024", "Conditions"
    ),
    "How much warmer was the high on April 10 than on March 10?": lambda: (
        wx_day(4, 10)["high"] - wx_day(3, 10)["high"]
    ),
    "When was the first thunderstorm?": lambda: day_text(
        wx.loc[wx["Conditions"] == "Thunderstorms", "date"].min()
    ),
    "Which day was windier, March 5 or March 25?": lambda: longer(
        wx_day(3, 5), wx_day(3, 25), "wind", "Date"
    ),
    "What was the average high over the first week of April?": lambda: april["high"].iloc[:7].mean(),
    "How much rain fell between April 10 and April 20?": lambda: april.loc[
        april["date"].dt.day.between(10, 20), "rain"
    ].sum(),
    "What was the average low in April?": lambda: april["low"].mean(),
    # indicators
    "What is the life expectancy in Kenya?": lambda: country("Kenya")[LIFE],
    "Which country has the highest GDP per capita?": lambda: argmax(
        ind, "GDP per capita (current US$)", "Country Name"
    ),
    "Which country has the lowest access to electricity?": lambda: argmin(ind, ELEC, "Country Name"),
    "Which countries have unemployment above 8%?": lambda: list(ind.loc[ind[UNEMP] > 8, "Country Name"]),
    "Which countries had negative GDP growth?": lambda: list(ind.loc[ind[GROWTH] < 0, "Country Name"]),
    "How many countries have a life expectancy above 75 years?": lambda: (ind[LIFE] > 75).sum(),
    "How much longer do people live in Japan than in India?": lambda: (
        country("Japan")[LIFE] - country("India")[LIFE]
    ),
    "Which has the larger population, Indonesia or Brazil?": lambda: longer(
        country("Indonesia"), country("Brazil"), POP, "Country Name"
    ),
    "What was Poland's inflation rate?": lambda: country("Poland")["Inflation, consumer prices (annual %)"],
    "How many countries have 100% access to electricity?": lambda: (ind[ELEC] == 100).sum(),
    # expense report
    "What is the net total of the expense report?": lambda: exp["amount"].sum(),
    "Which entry is the largest credit?": lambda: argmin(exp, "amount", "Description"),
    "How many expenses are in the Travel category?": lambda: (exp["Category"] == "Travel").sum(),
    "How many line items are credits (negative amounts)?": lambda: (exp["amount"] < 0).sum(),
    "How much was spent on meals?": lambda: exp.loc[exp["Category"] == "Meals", "amount"].sum(),
    "What was the most expensive item?": lambda: argmax(exp, "amount", "Description"),
    "Who filed the Boston hotel expense?": lambda: pick(
        exp, exp["Description"].str.contains("Hotel, Boston"), "Employee"
    ),
    "Which expenses were over $500?": lambda: list(exp.loc[exp["amount"] > 500, "Description"]),
    "What was the expense submitted right before the team lunch?": lambda: after(
        exp, exp["Description"] == "Team lunch", "Description", -1
    ),
    "How many expenses were dated between March 10 and March 20?": lambda: (
        exp["date"].dt.day.between(10, 20).sum()
    ),
    "What is the status of the conference meals?": lambda: pick(
        exp, exp["Description"] == "Conference meals", "Status"
    ),
    "What was the last expense filed?": lambda: argmax(exp, "date", "Description"),
    # stock moves
    "Which stock had the lowest % change?": lambda: argmin(stk, "pct", "Company"),
    "Which ticker had the biggest price drop in dollars?": lambda: argmin(stk, "change", "Ticker"),
    "How many stocks closed down?": lambda: (stk["change"] < 0).sum(),
    "What was Litware Health's change?": lambda: pick(stk, stk["Company"] == "Litware Health", "change"),
    "Which company traded the most shares?": lambda: argmax(stk, "volume", "Company"),
    "Which companies closed above $100?": lambda: list(stk.loc[stk["close"] > 100, "Company"]),
    "What is the average close of the Consumer stocks?": lambda: stk.loc[
        stk["Sector"] == "Consumer", "close"
    ].mean(),
    "What's the difference in closing price between Contoso Systems and Proseware?": lambda: (
        pick(stk, stk["Company"] == "Contoso Systems", "close")
        - pick(stk, stk["Company"] == "Proseware", "close")
    ),
    "Which dropped more, Fabrikam Inc. or Margie's Travel?": lambda: argmin(
        stk[stk["Company"].isin(["Fabrikam Inc.", "Margie's Travel"])], "pct", "Company"
    ),
    "How many stocks are in the Healthcare sector?": lambda: (stk["Sector"] == "Healthcare").sum(),
    "What's the first ticker in the list?": lambda: stk["Ticker"].iloc[0],
    "What is the total volume traded for the Retail stocks?": lambda: stk.loc[
        stk["Sector"] == "Retail", "volume"
    ].sum(),
    # European store figures
    "What was the revenue of Wien Neubau?": lambda: store("Wien Neubau")["revenue"],
    "Which store made the most money?": lambda: argmax(eu, "revenue", "Store"),
    "Which stores had more than 3,000 customers?": lambda: list(eu.loc[eu["customers"] > 3000, "Store"]),
    "What was the total revenue of the German stores?": lambda: eu.loc[
        eu["Country"] == "Germany", "revenue"
    ].sum(),
    "What was the average basket in Austria?": lambda: eu.loc[eu["Country"] == "Austria", "basket"].mean(),
    "Which store opened first?": lambda: argmin(eu, "opened", "Store"),
    "How many stores opened in 2019?": lambda: (eu["opened"].dt.year == 2019).sum(),
    "How many more customers did Amsterdam Jordaan have than Rotterdam Centrum?": lambda: (
        store("Amsterdam Jordaan")["customers"] - store("Rotterdam Centrum")["customers"]
    ),
    "Which store had the larger average basket: Graz Zentrum or Köln Ehrenfeld?": lambda: longer(
        store("Graz Zentrum"), store("Köln Ehrenfeld"), "basket", "Store"
    ),
    "How many stores brought in less than €30,000?": lambda: (eu["revenue"] < 30000).sum(),
    # inventory
    "What is the margin on the Cordless Drill 18V?": lambda: product("Cordless Drill 18V")["margin"],
    "Which products are discounted by 20% or more?": lambda: list(inv.loc[inv["discount"] >= 20, "Product"]),
    "How many items are below their reorder level?": lambda: (inv["stock"] < inv["reorder"]).sum(),
    "Which product has the highest margin?": lambda: argmax(inv, "margin", "Product"),
    "How many power tools do we have in stock altogether?": lambda: inv.loc[
        inv["Category"] == "Power Tools", "stock"
    ].sum(),
    "What is the average discount on hand tools?": lambda: inv.loc[
        inv["Category"] == "Hand Tools", "discount"
    ].mean(),
    "How many products are in the Safety category?": lambda: (inv["Category"] == "Safety").sum(),
    "Which product comes after the Claw Hammer?": lambda: after(
        inv, inv["Product"] == "Claw Hammer", "Product"
    ),
    "Which costs more per unit, the Stud Finder or the Extension Cord 50ft?": lambda: longer(
        product("Stud Finder"), product("Extension Cord 50ft"), "cost", "Product"
    ),
    "How much more does the Circular Saw cost than the Cordless Drill 18V?": lambda: (
        product("Circular Saw")["cost"] - product("Cordless Drill 18V")["cost"]
    ),
    # city populations
    "Which city has the largest population?": lambda: argmax(city, "pop", "City"),
    "How many cities have more than 5 million people?": lambda: (city["pop"] > 5e6).sum(),
    "What is the population of Accra?": lambda: town("Accra")["pop"],
    "Which cities are shrinking?": lambda: list(city.loc[city["growth"] < 0, "City"]),
    "Which city is growing fastest?": lambda: argmax(city, "growth", "City"),
    "Which cities have fewer than one million people?": lambda: list(city.loc[city["pop"] < 1e6, "City"]),
    "Which is bigger by area, Lima or Hanoi?": lambda: longer(town("Lima"), town("Hanoi"), "area", "City"),
    "How many more people live in Lima than in Santiago?": lambda: (
        town("Lima")["pop"] - town("Santiago")["pop"]
    ),
    "Which city has the lowest growth rate?": lambda: argmin(city, "growth", "City"),
    # train timetable
    "When does IC 203 arrive?": lambda: pick(tt, tt["Train"] == "IC 203", "Arrival"),
    "Which train leaves first?": lambda: argmin(tt, "dep", "Train"),
    "How many trains are cancelled?": lambda: (tt["Status"] == "Cancelled").sum(),
    "How many trains are delayed?": lambda: tt["Status"].str.startswith("Delayed").sum(),
    "Which trains leave after 6 pm?": lambda: list(tt.loc[tt["dep"].dt.hour >= 18, "Train"]),
    "Which train departs after IC 207?": lambda: after(tt, tt["Train"] == "IC 207", "Train"),
    "What is the last train of the day?": lambda: argmax(tt, "dep", "Train"),
    "How many trains go to Edinburgh?": lambda: (tt["To"] == "Edinburgh").sum(),
    "Which platform does the train to Scarborough leave from?": lambda: pick(
        tt, tt["To"] == "Scarborough", "Platform"
    ),
    "How many trains depart between 7:00 and 8:00 am?": lambda: (
        (tt["dep"].dt.hour == 7) | ((tt["dep"].dt.hour == 8) & (tt["dep"].dt.minute == 0))
    ).sum(),
    "Which train leaves just before IC 209?": lambda: after(tt, tt["Train"] == "IC 209", "Train", -1),
    # grades
    "Who got the highest math score?": lambda: argmax(gr, "Math", "Student"),
    "What is the average science score?": lambda: gr["Science"].mean(),
    "How many students scored below 70 in English?": lambda: (gr["English"] < 70).sum(),
    "What did Noah Williams get in History?": lambda: student("Noah Williams")["History"],
    "How many students are in class 10B?": lambda: (gr["Class"] == "10B").sum(),
    "How many points higher was Harper Hall's English score than Ethan Brown's?": lambda: (
        student("Harper Hall")["English"] - student("Ethan Brown")["English"]
    ),
    "Who had better attendance, Sophia Lee or Amelia Lewis?": lambda: longer(
        student("Sophia Lee"), student("Amelia Lewis"), "Attendance (%)", "Student"
    ),
    "Which students had attendance below 85%?": lambda: list(gr.loc[gr["Attendance (%)"] < 85, "Student"]),
    # survey
    "How many respondents would recommend us?": lambda: (sv["Would Recommend"] == "Yes").sum(),
    "What is the average satisfaction of Pro users?": lambda: sv.loc[sv["Plan"] == "Pro", "sat"].mean(),
    "How old is the oldest respondent?": lambda: sv["age"].max(),
    "How many people gave a satisfaction score of 4 or higher?": lambda: (sv["sat"] >= 4).sum(),
    "How many customers signed up in 2024?": lambda: (sv["since"].dt.year == 2024).sum(),
    "What is the total monthly fee paid by the Team plan respondents?": lambda: sv.loc[
        sv["Plan"] == "Team", "fee"
    ].sum(),
    "What plan is respondent R007 on?": lambda: pick(sv, sv["Respondent"] == "R007", "Plan"),
    "Which city is the respondent after R010 from?": lambda: after(sv, sv["Respondent"] == "R010", "City"),
    # race results (added in the twenty-sixth session, answers written before any model ran)
    "Who set the fastest lap?": lambda: argmin(rc, "lap", "Driver"),
    "Which team does Ivy Chen drive for?": lambda: driver("Ivy Chen")["Team"],
    "How many drivers completed 20 laps?": lambda: (rc["laps"] == 20).sum(),
    "Who finished right after Marco Bianchi?": lambda: after(rc, rc["Driver"] == "Marco Bianchi", "Driver"),
    "How many drivers does Delta Works have?": lambda: (rc["Team"] == "Delta Works").sum(),
    "Which driver had the slowest best lap?": lambda: argmax(rc, "lap", "Driver"),
    "Who had the faster best lap, Tom Ruiz or Ivy Chen?": lambda: min(
        ("Tom Ruiz", "Ivy Chen"), key=lambda name: driver(name)["lap"]
    ),
    "Who won the race?": lambda: rc["Driver"].iloc[0],
    "How many laps did Paul Weber complete?": lambda: driver("Paul Weber")["laps"],
    "How many laps were completed in total?": lambda: rc["laps"].sum(),
    "Who finished last?": lambda: rc["Driver"].iloc[-1],
    # club members (an API response with nested fields)
    "How many members live in Leeds?": lambda: (club["contact.city"] == "Leeds").sum(),
    "Which member has the most visits?": lambda: argmax(club, "visits", "name"),
    "What membership level is Eva Schmidt?": lambda: member("Eva Schmidt")["membership.level"],
    "What is the total of all annual fees?": lambda: club["membership.annual_fee"].sum(),
    "How many Gold members are there?": lambda: (club["membership.level"] == "Gold").sum(),
    "What is the average number of visits?": lambda: club["visits"].mean(),
    "Who joined first?": lambda: argmin(club, "joined_date", "name"),
    "How many members joined before 2020?": lambda: (club["joined_date"].dt.year < 2020).sum(),
    "Who has more visits, Ben Carter or Hugo Berg?": lambda: longer(
        member("Ben Carter"), member("Hugo Berg"), "visits", "name"
    ),
    "How many more visits does Gia Rossi have than Ana Lopez?": lambda: (
        member("Gia Rossi")["visits"] - member("Ana Lopez")["visits"]
    ),
    "What is the average annual fee of Silver members?": lambda: club.loc[
        club["membership.level"] == "Silver", "membership.annual_fee"
    ].mean(),
    # regional energy (French number forms, notes below the table)
    "Which region consumed the most?": lambda: argmax(en, "mwh", "Region"),
    "What was the average price in Bretagne?": lambda: region("Bretagne")["price"],
    "How many regions had a negative change?": lambda: (en["change"] < 0).sum(),
    "Which regions' change is below zero?": lambda: list(en.loc[en["change"] < 0, "Region"]),
    "How many regions are listed?": lambda: len(en),
    "What is the total consumption of all regions?": lambda: en["mwh"].sum(),
    "Which region had the lowest average price?": lambda: argmin(en, "price", "Region"),
    "How many regions consumed more than 9,000 MWh?": lambda: (en["mwh"] > 9000).sum(),
    "What was the change in Normandie?": lambda: region("Normandie")["change"],
    "Which had the higher average price, Normandie or Grand Est?": lambda: longer(
        region("Normandie"), region("Grand Est"), "price", "Region"
    ),
    "What is the difference in average price between Île-de-France and Occitanie?": lambda: (
        region("Île-de-France")["price"] - region("Occitanie")["price"]
    ),
    # timesheet (added in the twenty-seventh session, answers written before any model ran)
    "How long did Lena Ortiz spend on testing?": lambda: pick(
        ts, (ts["Employee"] == "Lena Ortiz") & (ts["Task"] == "Testing"), "Duration"
    ),
    "Which task took the longest?": lambda: argmax(ts, "minutes", "Task"),
    "What was the shortest task?": lambda: argmin(ts, "minutes", "Task"),
    "Which tasks took more than 4 hours?": lambda: list(ts.loc[ts["minutes"] > 240, "Task"]),
    "How many tasks took less than an hour?": lambda: (ts["minutes"] < 60).sum(),
    "How many entries are for the Atlas project?": lambda: (ts["Project"] == "Atlas").sum(),
    "How many minutes did Tom Becker log in total?": lambda: ts.loc[
        ts["Employee"] == "Tom Becker", "minutes"
    ].sum(),
    "How many hours did Priya Nair log in total?": lambda: (
        ts.loc[ts["Employee"] == "Priya Nair", "minutes"].sum() / 60
    ),
    "Which took longer, the code review or the deployment?": lambda: longer(
        task("Code review"), task("Deployment"), "minutes", "Task"
    ),
    "What task was logged right after the data import?": lambda: after(
        ts, ts["Task"] == "Data import", "Task"
    ),
    "What was the last task logged?": lambda: ts["Task"].iloc[-1],
    "How many tasks were logged between March 5 and March 7?": lambda: (
        ts["day"].between(pd.Timestamp(2024, 3, 5), pd.Timestamp(2024, 3, 7)).sum()
    ),
    "How many entries are not billable?": lambda: (ts["Billable"] == "No").sum(),
    "What is the average duration of Borealis tasks in minutes?": lambda: ts.loc[
        ts["Project"] == "Borealis", "minutes"
    ].mean(),
    "How many more minutes did the workshop take than the prototype?": lambda: (
        task("Workshop")["minutes"] - task("Prototype")["minutes"]
    ),
    # lab samples (units row, empty row)
    "What is the mass of sample S04?": lambda: sample("S04")["Mass"],
    "Which sample is the longest?": lambda: argmax(lab, "Length", "Sample"),
    "Which sample is the lightest?": lambda: argmin(lab, "Mass", "Sample"),
    "How many samples did Ravi measure?": lambda: (lab["Operator"] == "Ravi").sum(),
    "How many samples are there?": lambda: len(lab),
    "How many samples are longer than 13 cm?": lambda: (lab["Length"] > 13).sum(),
    "Which samples weigh more than 33 g?": lambda: list(lab.loc[lab["Mass"] > 33, "Sample"]),
    "What is the average temperature?": lambda: lab["Temperature"].mean(),
    "How much heavier is S07 than S08?": lambda: sample("S07")["Mass"] - sample("S08")["Mass"],
    "Which is longer, S02 or S05?": lambda: longer(sample("S02"), sample("S05"), "Length", "Sample"),
    "Which sample was measured last?": lambda: lab["Sample"].iloc[-1],
    "How many samples are longer than 0.15 metres?": lambda: (lab["Length"] / 100 > 0.15).sum(),
    "What is the total mass of Mei's samples?": lambda: lab.loc[lab["Operator"] == "Mei", "Mass"].sum(),
    # bank statement
    "What was the balance after the gym membership payment?": lambda: named(
        bank, "Description", "Gym membership"
    )["Balance"],
    "What was the balance on May 15?": lambda: bank.loc[bank["date"] == "2024-05-15", "Balance"].iloc[0],
    "How many grocery transactions were there?": lambda: (bank["Category"] == "Groceries").sum(),
    "Which payment was the largest?": lambda: argmin(bank, "amount", "Description"),
    "How many transactions added money to the account?": lambda: (bank["amount"] > 0).sum(),
    "What is the total of the Groceries amounts?": lambda: bank.loc[
        bank["Category"] == "Groceries", "amount"
    ].sum(),
    "How much was spent on fuel?": lambda: -bank.loc[bank["Description"] == "Fuel Stop", "amount"].sum(),
    "What was the last transaction?": lambda: bank["Description"].iloc[-1],
    "What came right after the cinema?": lambda: after(
        bank, bank["Description"] == "Cinema Lux", "Description"
    ),
    "How many transactions were on or after May 20?": lambda: (bank["date"] >= "2024-05-20").sum(),
    # more spent: the more negative amount
    "Was more spent at Cinema Lux or on the mobile plan?": lambda: argmin(
        bank[bank["Description"].isin(["Cinema Lux", "Mobile plan"])], "amount", "Description"
    ),
    "What was the average amount of the Income entries?": lambda: round(
        bank.loc[bank["Category"] == "Income", "amount"].mean(), 2
    ),
    "How much more was the salary than the freelance invoice?": lambda: (
        named(bank, "Description", "Salary Northwind Ltd")["amount"]
        - named(bank, "Description", "Freelance invoice 0412")["amount"]
    ),
    # apartment listings
    "What is the rent for B-202?": lambda: named(flats, "Listing", "B-202")["Rent"],
    "How many listings are in Hillcrest?": lambda: (flats["Neighborhood"] == "Hillcrest").sum(),
    "Which listing is the cheapest?": lambda: argmin(flats, "rent", "Listing"),
    "Which listing is the largest?": lambda: argmax(flats, "size", "Listing"),
    "How many apartments allow pets?": lambda: (flats["Pets"] == "Yes").sum(),
    "How many listings have no pet policy listed?": lambda: (flats["Pets"] == "").sum(),
    "Which listings rent for less than $1,500?": lambda: list(flats.loc[flats["rent"] < 1500, "Listing"]),
    "What is the average rent of the 2-bedroom apartments?": lambda: flats.loc[
        flats["bedrooms"] == 2, "rent"
    ].mean(),
    "Which is bigger, A-102 or C-311?": lambda: longer(
        named(flats, "Listing", "A-102"), named(flats, "Listing", "C-311"), "size", "Listing"
    ),
    "How much more does D-404 cost than D-405?": lambda: (
        named(flats, "Listing", "D-404")["rent"] - named(flats, "Listing", "D-405")["rent"]
    ),
    "How many listings become available in July?": lambda: (flats["available"].dt.month == 7).sum(),
    "Which listing is available first?": lambda: argmin(flats, "available", "Listing"),
    "What is the total rent of the Maple Park listings?": lambda: flats.loc[
        flats["Neighborhood"] == "Maple Park", "rent"
    ].sum(),
    # project tasks (day-first dates)
    "Who owns the security review?": lambda: named(tasks, "Task", "Security review")["Owner"],
    "How many tasks are not started?": lambda: (tasks["Status"] == "Not started").sum(),
    "How many hours are estimated for Chen's tasks in total?": lambda: tasks.loc[
        tasks["Owner"] == "Chen", "hours"
    ].sum(),
    "Which task has the biggest estimate?": lambda: argmax(tasks, "hours", "Task"),
    "Which tasks are due after July 15, 2024?": lambda: list(tasks.loc[tasks["due"] > "2024-07-15", "Task"]),
    "What task comes after Build API?": lambda: after(tasks, tasks["Task"] == "Build API", "Task"),
    "How many tasks are due in June?": lambda: (tasks["due"].dt.month == 6).sum(),
    "What is the average estimate of the high priority tasks?": lambda: round(
        tasks.loc[tasks["Priority"] == "High", "hours"].mean(), 2
    ),
    "How many more hours does Build UI need than Write tests?": lambda: (
        named(tasks, "Task", "Build UI")["hours"] - named(tasks, "Task", "Write tests")["hours"]
    ),
    "Which is due sooner, User docs or Write tests?": lambda: argmin(
        tasks[tasks["Task"].isin(["User docs", "Write tests"])], "due", "Task"
    ),
    "What is the last task?": lambda: tasks["Task"].iloc[-1],
    "How many tasks have an estimate of at least 10 hours?": lambda: (tasks["hours"] >= 10).sum(),
}


# --------------------------------------------------------------------------------------------------------
# Comparing with the hand-written gold


def gold_number(text: str) -> float | None:
    """A gold item as a number, reading the forms the gold uses (`$2,469.00`, `21,332`, `2.5 million`)."""
    s = text.strip()
    factor = 1.0
    if s.endswith(" million"):
        s, factor = s[: -len(" million")], 1e6
    s = s.replace("$", "").replace(",", "").rstrip("%")
    try:
        return float(s) * factor
    except ValueError:
        return None


def _half_unit(text: str) -> float:
    """Half a unit of the last decimal a gold number is written with: "78.33" stands for 78.3333..., as the
    writers were told to round an average; a whole number is exact."""
    decimals = text.split(".")[1] if "." in text else ""
    return 0.5 * 10.0 ** -len(decimals) if decimals.isdigit() else 1e-6


def agrees(gold: list[str], computed: object) -> bool:
    items = computed if isinstance(computed, list) else [computed]
    if len(items) != len(gold):
        return False
    remaining = list(gold)
    for item in items:
        if isinstance(item, int | float) and not isinstance(item, bool):
            match = next(
                (
                    g
                    for g in remaining
                    if (n := gold_number(g)) is not None and math.isclose(n, item, abs_tol=_half_unit(g))
                ),
                None,
            )
        else:
            match = next((g for g in remaining if g == str(item)), None)
        if match is None:
            return False
        remaining.remove(match)
    return True


#: Recomputations by (table, question): two writers of one round may ask the same words of their own tables.
Recomputations = dict[tuple[str, str], Callable[[], object]]


def by_table(
    path: Path, writers: Sequence[dict[str, Callable[[], object]]], sources: Sequence[str]
) -> Recomputations:
    """Each writer's recomputations keyed by (table, question) for the lines of `path`: a question asked of
    several tables goes with the writer whose source (`sources`, one per writer) names the line's table."""
    keyed: Recomputations = {}
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        table, question, *_ = line.split("\t")
        owners = [answers for answers in writers if question in answers]
        if len(owners) > 1:
            owners = [
                a for a, source in zip(writers, sources, strict=True) if question in a and table in source
            ]
        if len(owners) == 1:
            keyed[table, question] = owners[0][question]
    asked = {question for _, question in keyed}
    for answers in writers:  # a recomputation of no line is reported by `check`
        keyed.update({("?", q): f for q, f in answers.items() if q not in asked})
    return keyed


def check(path: Path, answers: Recomputations) -> tuple[int, int]:
    """(lines, disagreements) of one question file against its recomputations, each disagreement printed."""
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    bad = 0
    seen = set()
    for number, line in enumerate(lines, start=2):
        table, question, answer, _ = line.split("\t")
        seen.add((table, question))
        gold = answer.split("|")
        if (table, question) not in answers:
            print(f"{path.name}:{number}: no recomputation for {question!r}")
            bad += 1
            continue
        computed = answers[table, question]()
        if hasattr(computed, "item"):  # numpy scalar
            computed = computed.item()
        if isinstance(computed, tuple | set):
            computed = sorted(computed)
        if not agrees(gold, computed):
            print(f"{path.name}:{number}: {question!r} ({table}): gold {gold}, recomputed {computed!r}")
            bad += 1
    for _, question in answers.keys() - seen:
        print(f"{path.name}: recomputation for a question not in the file: {question!r}")
        bad += 1
    print(f"{path.name}: {len(lines) - bad} of {len(lines)} gold answers agree with the recomputation")
    return len(lines), bad


def main() -> int:
    import real_world_round2 as round2
    import real_world_round3 as round3
    import real_world_round4 as round4
    import real_world_round5 as round5
    import real_world_round6 as round6
    import real_world_round7 as round7
    import real_world_round8 as round8
    import real_world_round9 as round9
    import real_world_round10 as round10
    import real_world_round11 as round11
    import real_world_round12 as round12
    import real_world_round13 as round13
    import real_world_round14 as round14
    import real_world_round15 as round15
    import real_world_round16 as round16
    import real_world_round17 as round17
    import real_world_round18 as round18
    import real_world_round19 as round19
    import real_world_round20 as round20
    import real_world_round21 as round21
    import real_world_round22 as round22
    import real_world_round23 as round23
    import real_world_round24 as round24
    import real_world_round25 as round25
    import real_world_round26 as round26
    import real_world_round27 as round27
    import real_world_round28 as round28

    rounds = [("questions.tsv", by_table(REAL / "questions.tsv", [ANSWERS], [Path(__file__).read_text()]))]
    for name, package in (
        ("questions-round2.tsv", round2),
        ("questions-round3.tsv", round3),
        ("questions-round4.tsv", round4),
        ("questions-round5.tsv", round5),
        ("questions-round6.tsv", round6),
        ("questions-round7.tsv", round7),
        ("questions-round8.tsv", round8),
        ("questions-round9.tsv", round9),
        ("questions-round10.tsv", round10),
        ("questions-round11.tsv", round11),
        ("questions-round12.tsv", round12),
        ("questions-round13.tsv", round13),
        ("questions-round14.tsv", round14),
        ("questions-round15.tsv", round15),
        ("questions-round16.tsv", round16),
        ("questions-round17.tsv", round17),
        ("questions-round18.tsv", round18),
        ("questions-round19.tsv", round19),
        ("questions-round20.tsv", round20),
        ("questions-round21.tsv", round21),
        ("questions-round22.tsv", round22),
        ("questions-round23.tsv", round23),
        ("questions-round24.tsv", round24),
        ("questions-round25.tsv", round25),
        ("questions-round26.tsv", round26),
        ("questions-round27.tsv", round27),
        ("questions-round28.tsv", round28),
    ):
        writers = [module.ANSWERS for module in package.WRITERS]
        sources = [Path(module.__file__).read_text(encoding="utf-8") for module in package.WRITERS]
        rounds.append((name, by_table(REAL / name, writers, sources)))
    bad = sum(check(REAL / name, answers)[1] for name, answers in rounds)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
