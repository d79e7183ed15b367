"""Round five of the real-world set (marathon, warehouse, quarterly): each answer recomputed with pandas by
the question's writer, as written before any model ran (`bench/real_world_gold_check.py` reads `ANSWERS`)."""

from collections.abc import Callable
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[2] / "examples" / "real"

M = pd.read_excel(HERE / "marathon_results.xlsx", dtype=str, keep_default_na=False)
W = pd.read_json(HERE / "warehouse_inventory.json", dtype=False)
W = W.astype(object).where(W.notna(), "").astype(str)
Q = pd.read_csv(HERE / "quarterly_results_eu.csv", sep=";", dtype=str, keep_default_na=False)


def secs(t: str) -> int:
    h, m, s = (int(x) for x in t.split(":"))
    return h * 3600 + m * 60 + s


def usd(s: str) -> float:
    return float(s.replace("$", "").replace(",", ""))


def eu(s: str) -> float:
    return float(s.replace(".", "").replace(",", "."))


def pct(s: str) -> float:
    return float(s.replace("%", "").strip().replace(",", "."))


def m_row(col, val):
    return M[M[col] == val].iloc[0]


def q_rows(region):
    return Q[Q["Region"] == region]


ANSWERS: dict[str, Callable[[], object]] = {
    # marathon
    "What was Paula Iglesias's finish time?": lambda: m_row("Name", "Paula Iglesias")["Finish Time"],
    "how many runners from NOR": lambda: int((M["Country"] == "NOR").sum()),
    "How many women ran in the F40 category?": lambda: int((M["Age Group"] == "F40").sum()),
    "how many runners have no half marathon split recorded": lambda: int(
        (M["Half Split"].str.strip() == "").sum()
    ),
    "Who ran the fastest first half?": lambda: (
        M[M["Half Split"] != ""]
        .assign(s=lambda d: d["Half Split"].map(secs))
        .sort_values("s")
        .iloc[0]["Name"]
    ),
    "who crossed the line right after bib 118?": lambda: M[
        M["Place"].astype(int) == int(m_row("Bib", "118")["Place"]) + 1
    ].iloc[0]["Name"],
    "who was the last M50 finisher": lambda: (
        M[M["Age Group"] == "M50"]
        .assign(s=lambda d: d["Finish Time"].map(secs))
        .sort_values("s")
        .iloc[-1]["Name"]
    ),
    "Which runners broke 2:30?": lambda: list(M[M["Finish Time"].map(secs) < secs("2:30:00")]["Name"]),
    "Who was quicker, Lena Brandt or Sofia Marchetti?": lambda: min(
        ["Lena Brandt", "Sofia Marchetti"], key=lambda n: secs(m_row("Name", n)["Finish Time"])
    ),
    "How many seconds behind the winner did the runner-up finish?": lambda: (
        secs(m_row("Place", "2")["Finish Time"]) - secs(m_row("Place", "1")["Finish Time"])
    ),
    # warehouse
    "what bin is HW-1042 in?": lambda: W[W["SKU"] == "HW-1042"].iloc[0]["Bin Location"],
    "How many items don't have a supplier on file?": lambda: int((W["Supplier"] == "").sum()),
    "list the SKUs that cost more than $60 a unit": lambda: list(W[W["Unit Cost"].map(usd) > 60]["SKU"]),
    "total units on hand from Brightline Fasteners": lambda: int(
        W[W["Supplier"] == "Brightline Fasteners"]["On Hand"].astype(int).sum()
    ),
    "What's the average unit price of the Safeguard PPE products?": lambda: round(
        W[W["Supplier"] == "Safeguard PPE"]["Unit Cost"].map(usd).mean(), 2
    ),
    "which skus were last counted in March 2024": lambda: list(
        W[W["Last Counted"].str.startswith("2024-03")]["SKU"]
    ),
    "Which item do we have the most of in stock?": lambda: W.loc[
        W["On Hand"].astype(int).idxmax(), "Description"
    ],
    "When was the oldest stock count done?": lambda: min(W["Last Counted"]),
    "do we have more M6 hex nuts or M8 hex nuts on hand?": lambda: max(
        ["Hex nut M6 (box of 200)", "Hex nut M8 (box of 200)"],
        key=lambda d: int(W[W["Description"] == d].iloc[0]["On Hand"]),
    ),
    "How many products do we buy from Torvik Tools?": lambda: int((W["Supplier"] == "Torvik Tools").sum()),
    # quarterly
    "What was the operating result for DACH in Q3 2023?": lambda: Q[
        (Q["Region"] == "DACH") & (Q["Quarter"] == "Q3 2023")
    ].iloc[0]["Operating Result (EUR)"],
    "in which quarter did the Nordics post their biggest loss": lambda: (
        q_rows("Nordics")
        .assign(r=lambda d: d["Operating Result (EUR)"].map(eu))
        .sort_values("r")
        .iloc[0]["Quarter"]
    ),
    "how many times did a region close a quarter in the red?": lambda: int(
        (Q["Operating Result (EUR)"].map(eu) < 0).sum()
    ),
    "total DACH revenue in 2024": lambda: round(
        q_rows("DACH")[q_rows("DACH")["Quarter"].str.endswith("2024")]["Revenue (EUR)"].map(eu).sum(), 2
    ),
    "average margin for benelux across all quarters": lambda: round(
        q_rows("Benelux")["Margin"].map(pct).mean(), 2
    ),
    "How much more revenue did Benelux bring in in Q4 2024 compared with Q4 2023?": lambda: round(
        eu(q_rows("Benelux").set_index("Quarter").loc["Q4 2024", "Revenue (EUR)"])
        - eu(q_rows("Benelux").set_index("Quarter").loc["Q4 2023", "Revenue (EUR)"]),
        2,
    ),
    "Which quarter had DACH's lowest costs?": lambda: (
        q_rows("DACH").assign(c=lambda d: d["Costs (EUR)"].map(eu)).sort_values("c").iloc[0]["Quarter"]
    ),
    "Which 2023 quarters did Benelux have a margin above 10 %?": lambda: list(
        q_rows("Benelux")[
            q_rows("Benelux")["Quarter"].str.endswith("2023") & (q_rows("Benelux")["Margin"].map(pct) > 10)
        ]["Quarter"]
    ),
    "In which quarters did Nordics revenue top 1.4 million euros?": lambda: list(
        q_rows("Nordics")[q_rows("Nordics")["Revenue (EUR)"].map(eu) > 1_400_000]["Quarter"]
    ),
    "Q2 2024: which region had the higher margin, Benelux or DACH?": lambda: max(
        ["Benelux", "DACH"],
        key=lambda r: pct(Q[(Q["Region"] == r) & (Q["Quarter"] == "Q2 2024")].iloc[0]["Margin"]),
    ),
}
