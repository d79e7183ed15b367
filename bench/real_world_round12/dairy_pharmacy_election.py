"""Round 12 (w62) answers for the dairy milk log, pharmacy stock list and district election tables."""

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "examples" / "real"
QUESTIONS = DATA / "questions-round12-w62.tsv"


def _comma_decimal(text: object) -> float:
    """'23,4' -> 23.4"""
    return float(str(text).strip().replace(",", "."))


def _euro(text: object) -> float:
    """'€ 4,50' -> 4.5"""
    return float(str(text).replace("€", "").replace("\u00a0", "").strip().replace(",", "."))


def _count(text: object) -> int:
    """'12 345' or '12,345' -> 12345"""
    return int(str(text).replace(" ", "").replace("\u00a0", "").replace(",", ""))


def _percent(text: object) -> float:
    """'61.2%' -> 61.2"""
    return float(str(text).replace("%", "").strip())


def _signed(text: object) -> float:
    """'+2.4' / '-3.1' / '0.0' -> float"""
    return float(str(text).strip().replace("+", ""))


def milk() -> pd.DataFrame:
    path = DATA / "r12_milk_yield_log.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    df = pd.DataFrame(rows)
    df["litres"] = df["milk_l"].map(_comma_decimal)
    df["day"] = pd.to_datetime(df["date"], format="%d.%m.%Y")
    df["treated"] = df["treatment"].fillna("").astype(str).str.strip() != ""
    return df


def pharmacy() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r12_pharmacy_stock.csv", sep=";", dtype=str, encoding="utf-8")
    df["price"] = df["Preis"].map(_euro)
    df["qty"] = df["Bestand"].astype(int)
    df["expiry"] = pd.to_datetime(df["Verfall"], format="%Y-%m")
    df["reorder"] = df["Reorder"].str.strip().str.lower().isin(["ja", "yes"])
    return df


def election() -> pd.DataFrame:
    df = pd.read_csv(DATA / "r12_district_election.csv", dtype=str, encoding="utf-8")
    for col in [
        "Electorate",
        "Valid votes",
        "Civic Union",
        "Social Democrats",
        "Greens",
        "Liberal Forum",
        "Others",
    ]:
        df[col + "_n"] = df[col].map(_count)
    df["turnout"] = df["Turnout"].map(_percent)
    df["swing"] = df["SD swing"].map(_signed)
    return df


def _milk_on(tag: str, date: str) -> pd.Series:
    df = milk()
    return df[(df["cow_tag"] == tag) & (df["date"] == date)].iloc[0]


def _row_after(df: pd.DataFrame, mask: pd.Series) -> pd.Series:
    pos = df.index.get_loc(df[mask].index[0])
    return df.iloc[pos + 1]


def _drug(name: str) -> pd.Series:
    df = pharmacy()
    return df[df["Artikel"] == name].iloc[0]


def _district(name: str) -> pd.Series:
    df = election()
    return df[df["District"] == name].iloc[0]


ANSWERS: dict[str, Callable[[], object]] = {
    # dairy milk log
    "What treatment did DE-0618 get on 03.04.2024?": lambda: _milk_on("DE-0618", "03.04.2024")["treatment"],
    "how many records are there for cow DE-0603": lambda: int((milk()["cow_tag"] == "DE-0603").sum()),
    "How many log entries have no treatment recorded?": lambda: int((~milk()["treated"]).sum()),
    "Which cow gave the most milk in a single day?": lambda: milk().loc[milk()["litres"].idxmax(), "cow_tag"],
    "what was our total milk yield on 02.04.2024": lambda: round(
        float(milk().query("date == '02.04.2024'")["litres"].sum()), 2
    ),
    "Average daily litres for DE-0417?": lambda: round(
        float(milk().query("cow_tag == 'DE-0417'")["litres"].mean()), 2
    ),
    "How many more litres did DE-0603 give than DE-0618 on 04.04.2024?": lambda: round(
        float(_milk_on("DE-0603", "04.04.2024")["litres"] - _milk_on("DE-0618", "04.04.2024")["litres"]), 2
    ),
    "What is the earliest date recorded in our milk log?": lambda: milk().loc[milk()["day"].idxmin(), "date"],
    "In the log, which cow is listed right after DE-0522 on 03.04.2024?": lambda: _row_after(
        milk(), (milk()["cow_tag"] == "DE-0522") & (milk()["date"] == "03.04.2024")
    )["cow_tag"],
    "on which dates did any cow give under 18 litres": lambda: list(
        milk()[milk()["litres"] < 18].sort_values("day")["date"].drop_duplicates()
    ),
    # pharmacy stock list
    "What is the price of Ramipril 5 mg?": lambda: _drug("Ramipril 5 mg")["Preis"],
    "how many items are flagged for reorder": lambda: int(pharmacy()["reorder"].sum()),
    "How many products do we have fewer than 10 packs of in stock?": lambda: int(
        (pharmacy()["qty"] < 10).sum()
    ),
    "Which drug is the most expensive per pack?": lambda: pharmacy().loc[
        pharmacy()["price"].idxmax(), "Artikel"
    ],
    "Which items expire in March, April or May 2025?": lambda: list(
        pharmacy()[pharmacy()["expiry"].between(pd.Timestamp("2025-03-01"), pd.Timestamp("2025-05-01"))][
            "Artikel"
        ]
    ),
    "What is the total value of our stock if we multiply each price by its quantity on hand and add it all up?": (
        lambda: round(float((pharmacy()["price"] * pharmacy()["qty"]).sum()), 2)
    ),
    "average price of the Filmtabletten items": lambda: round(
        float(pharmacy().query("Darreichungsform == 'Filmtabletten'")["price"].mean()), 2
    ),
    "Which do we have more packs of in stock, Cetirizin 10 mg or Loratadin 10 mg?": lambda: max(
        ["Cetirizin 10 mg", "Loratadin 10 mg"], key=lambda name: _drug(name)["qty"]
    ),
    "which product expires soonest": lambda: pharmacy().loc[pharmacy()["expiry"].idxmin(), "Artikel"],
    "How much more does Ibuprofen 600 mg cost than Ibuprofen 400 mg?": lambda: round(
        float(_drug("Ibuprofen 600 mg")["price"] - _drug("Ibuprofen 400 mg")["price"]), 2
    ),
    # district election
    "What was the turnout in Canal Side?": lambda: _district("Canal Side")["Turnout"],
    "how many districts did the Social Democrats win": lambda: int(
        (election()["Winner"] == "Social Democrats").sum()
    ),
    "In how many districts was the SD swing negative?": lambda: int((election()["swing"] < 0).sum()),
    "Which district had the largest swing against the Social Democrats?": lambda: election().loc[
        election()["swing"].idxmin(), "District"
    ],
    "Which district has the largest electorate?": lambda: election().loc[
        election()["Electorate_n"].idxmax(), "District"
    ],
    "total greens votes across all districts": lambda: int(election()["Greens_n"].sum()),
    "What's the average turnout across the 14 districts?": lambda: round(
        float(election()["turnout"].mean()), 2
    ),
    "which districts had a turnout below 50%": lambda: list(
        election()[election()["turnout"] < 50]["District"]
    ),
    "In Station Quarter, which got more votes: Greens or Civic Union?": lambda: max(
        ["Greens", "Civic Union"], key=lambda party: _district("Station Quarter")[party + "_n"]
    ),
    "By how many votes did Civic Union beat the Social Democrats in Brookfield?": lambda: int(
        _district("Brookfield")["Civic Union_n"] - _district("Brookfield")["Social Democrats_n"]
    ),
}


def _agrees(computed: object, gold: str) -> bool:
    if isinstance(computed, list):
        return "|".join(str(item) for item in computed) == gold
    if isinstance(computed, str):
        return computed == gold
    decimals = len(gold.split(".")[1]) if "." in gold else 0
    return abs(float(computed) - float(gold)) <= 0.5 * 10**-decimals + 1e-9


def check() -> int:
    """Compare every TSV gold answer with its computed value; return the number of disagreements."""
    questions = pd.read_csv(QUESTIONS, sep="\t", dtype=str, keep_default_na=False, encoding="utf-8")
    bad = 0
    for row in questions.itertuples(index=False):
        computed = ANSWERS[row.question]()
        ok = _agrees(computed, row.answer)
        bad += not ok
        print(
            f"{'OK ' if ok else 'BAD'} [{row.type}] {row.question!r}: gold={row.answer!r} computed={computed!r}"
        )
    missing = set(ANSWERS) - set(questions["question"])
    print(f"{len(questions) - bad}/{len(questions)} agree; answers without a question: {len(missing)}")
    return bad + len(missing)


if __name__ == "__main__":
    raise SystemExit(check())
