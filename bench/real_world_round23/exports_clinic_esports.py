"""Round 23 (w107): pandas recomputation of the gold answers for the exports, vet clinic and esports tables."""

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd

REAL = Path(__file__).resolve().parents[2] / "examples" / "real"
QUESTIONS = REAL / "questions-round23-w107.tsv"

FOOD = "Food & live animals (USD mn)"
CRUDE = "Crude materials, inedible, except fuels (USD mn)"
FUELS = "Mineral fuels, lubricants & related materials (USD mn)"
CHEM = "Chemicals & related products (USD mn)"
MACH = "Machinery & transport equipment (USD mn)"
MISC = "Miscellaneous manufactured articles (USD mn)"
TOTAL = "Total exports (USD mn)"
YOY = "Total exports YoY change (%)"
PLAYERS = ["kairo", "Blitz", "mnt", "Sable", "Juno"]


def _num(text: object) -> float:
    """Parse '1,234.5', '+2.6%' or '-3.4%' into a float; blanks become NaN."""
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return float("nan")
    cleaned = str(text).strip().replace(",", "").replace("%", "").replace("+", "")
    return float(cleaned) if cleaned else float("nan")


def exports() -> pd.DataFrame:
    raw = pd.read_csv(REAL / "r23_monthly_exports.csv", dtype=str, keep_default_na=False)
    df = raw.copy()
    for col in raw.columns:
        if col.endswith("(USD mn)") or col == YOY:
            df[col + " #"] = raw[col].map(_num)
    df["period"] = pd.to_datetime(raw["Month"], format="%b-%Y")
    return df


def vet() -> pd.DataFrame:
    lines = (REAL / "r23_vet_appointments.jsonl").read_text(encoding="utf-8").splitlines()
    df = pd.DataFrame([json.loads(line) for line in lines if line.strip()])
    df["fee #"] = df["fee"].map(_num)
    df["when"] = pd.to_datetime(df["date"] + " " + df["time"], format="%Y-%m-%d %H:%M")
    return df


def esports() -> pd.DataFrame:
    raw = pd.read_csv(REAL / "r23_esports_matches.csv", dtype=str)
    df = raw.copy()
    df["day"] = pd.to_datetime(raw["Date"], format="%d/%m/%Y")
    df["kd #"] = raw["Team K/D"].astype(float)
    for p in PLAYERS:
        parts = raw[f"{p} K/D/A"].str.split("/", expand=True).astype(int)
        df[f"{p} kills"], df[f"{p} deaths"], df[f"{p} assists"] = parts[0], parts[1], parts[2]
    return df


def _ex_months(mask: pd.Series) -> list[str]:
    return exports().loc[mask, "Month"].tolist()


def _ex_between(start: str, end: str) -> pd.DataFrame:
    df = exports()
    return df[(df["period"] >= pd.Timestamp(start)) & (df["period"] <= pd.Timestamp(end))]


def _ex_value(month: str, col: str) -> float:
    df = exports()
    return float(df.loc[df["Month"] == month, col + " #"].iloc[0])


def _vet_fees_by_owner(owner: str) -> float:
    df = vet()
    return float(df.loc[df["owner"] == owner, "fee #"].sum())


def _vet_next_pet(appt: str) -> str:
    df = vet().sort_values("when", kind="stable").reset_index(drop=True)
    pos = df.index[df["appt_id"] == appt][0]
    return str(df.loc[pos + 1, "pet_name"])


def _es_next_opponent(score: str, map_name: str) -> str:
    df = esports().reset_index(drop=True)
    pos = df.index[(df["Score"] == score) & (df["Map"] == map_name)][0]
    return str(df.loc[pos + 1, "Opponent"])


def _es_final_split_diff() -> int:
    df = esports()
    row = df[(df["Event"] == "Spring Cup Final") & (df["Map"] == "Split")].iloc[0]
    return int(row["Blitz kills"] - row["Juno kills"])


def _ex_prev_yoy(month: str) -> str:
    df = exports().sort_values("period").reset_index(drop=True)
    pos = df.index[df["Month"] == month][0]
    return str(df.loc[pos - 1, YOY])


ANSWERS: dict[str, Callable[[], object]] = {
    # --- r23_monthly_exports.csv
    "What were machinery & transport equipment exports in Oct-2023?": lambda: (
        exports().set_index("Month").loc["Oct-2023", MACH]
    ),
    "Which month saw the steepest year-on-year fall in total exports?": lambda: (
        exports().sort_values(YOY + " #").iloc[0]["Month"]
    ),
    "which month had the highest total exports": lambda: (
        exports().sort_values(TOTAL + " #").iloc[-1]["Month"]
    ),
    "What did we export in total across all of 2023, in USD mn?": lambda: round(
        float(exports().query("period.dt.year == 2023")[TOTAL + " #"].sum()), 1
    ),
    "average monthly food & live animals exports in the first half of 2024": lambda: round(
        float(_ex_between("2024-01-01", "2024-06-30")[FOOD + " #"].mean()), 2
    ),
    "How much higher were mineral fuels exports in Mar-2023 than in Mar-2024?": lambda: round(
        _ex_value("Mar-2023", FUELS) - _ex_value("Mar-2024", FUELS), 1
    ),
    "In which months were chemicals & related products exports above 420 USD mn?": lambda: _ex_months(
        exports()[CHEM + " #"] > 420
    ),
    "what was the YoY change in total exports for the month just before Jan-2024": lambda: _ex_prev_yoy(
        "Jan-2024"
    ),
    "Which had higher miscellaneous manufactured articles exports, Nov-2023 or Dec-2023?": lambda: (
        "Nov-2023" if _ex_value("Nov-2023", MISC) > _ex_value("Dec-2023", MISC) else "Dec-2023"
    ),
    "Between Apr-2023 and Sep-2023, which months had crude materials exports over 310 USD mn?": lambda: (
        _ex_between("2023-04-01", "2023-09-30").query(f"`{CRUDE} #` > 310")["Month"].tolist()
    ),
    # --- r23_vet_appointments.jsonl
    "What time is Pepper's appointment?": lambda: vet().set_index("pet_name").loc["Pepper", "time"],
    "how many appointments were for cats": lambda: int((vet()["species"] == "Cat").sum()),
    "How many appointments have no fee recorded?": lambda: int(vet()["fee #"].isna().sum()),
    "What is the total of the fees for completed appointments, in EUR?": lambda: float(
        vet().query("status == 'completed'")["fee #"].sum()
    ),
    "average fee of dr. chen's completed appointments": lambda: round(
        float(vet().query("status == 'completed' and vet == 'Dr. Chen'")["fee #"].mean()), 2
    ),
    "Which pet had the single most expensive appointment?": lambda: (
        vet().sort_values("fee #").dropna(subset=["fee #"]).iloc[-1]["pet_name"]
    ),
    "which pet was seen in the appointment right after VC-2410": lambda: _vet_next_pet("VC-2410"),
    "On what date is Mochi's last appointment in the book?": lambda: (
        vet().query("pet_name == 'Mochi'").sort_values("when").iloc[-1]["date"]
    ),
    "How many appointments did we have scheduled in June 2024?": lambda: int(
        ((vet()["when"].dt.year == 2024) & (vet()["when"].dt.month == 6)).sum()
    ),
    "Between Ken Tanaka and Helen Marsh, whose pets ran up more in fees?": lambda: (
        "Tanaka, Ken"
        if _vet_fees_by_owner("Tanaka, Ken") > _vet_fees_by_owner("Marsh, Helen")
        else "Marsh, Helen"
    ),
    # --- r23_esports_matches.csv
    "When did we last play Iron Lynx?": lambda: (
        esports().query("Opponent == 'Iron Lynx'").sort_values("day").iloc[-1]["Date"]
    ),
    "how many matches did we lose": lambda: int((esports()["Result"] == "L").sum()),
    "In how many matches was our team K/D below 1.00?": lambda: int((esports()["kd #"] < 1.0).sum()),
    "What map was our highest team K/D match played on?": lambda: (
        esports().sort_values("kd #").iloc[-1]["Map"]
    ),
    "total kills for kairo across all matches": lambda: int(esports()["kairo kills"].sum()),
    "What's Sable's average number of assists per match?": lambda: round(
        float(esports()["Sable assists"].mean()), 2
    ),
    "In the Spring Cup Final game on Split, how many more kills did Blitz get than Juno?": _es_final_split_diff,
    "List the dates of the matches where kairo got 25 or more kills": lambda: list(
        dict.fromkeys(esports().query("`kairo kills` >= 25")["Date"])
    ),
    "who did we play in the match right after the 16-14 game on Lotus": lambda: _es_next_opponent(
        "16-14", "Lotus"
    ),
    "How many matches did our team play in May 2024?": lambda: int(
        ((esports()["day"].dt.year == 2024) & (esports()["day"].dt.month == 5)).sum()
    ),
}


def _agrees(computed: object, gold: str) -> bool:
    if isinstance(computed, list):
        parts = gold.split("|")
        return len(parts) == len(computed) and all(
            _agrees(c, g) for c, g in zip(computed, parts, strict=True)
        )
    if isinstance(computed, str):
        return computed == gold
    decimals = len(gold.split(".")[1]) if "." in gold else 0
    return abs(float(computed) - float(gold)) <= 0.5 * 10**-decimals + 1e-9


def check() -> int:
    gold = pd.read_csv(QUESTIONS, sep="\t", dtype=str, keep_default_na=False)
    failures = 0
    for row in gold.itertuples(index=False):
        value = ANSWERS[row.question]()
        ok = _agrees(value, row.answer)
        failures += not ok
        print(
            f"{'OK  ' if ok else 'FAIL'} [{row.type}] {row.table}: {row.question!r} -> {value!r} (gold {row.answer!r})"
        )
    missing = set(ANSWERS) ^ set(gold["question"])
    print(f"{len(gold) - failures}/{len(gold)} agree; unmatched keys: {sorted(missing)}")
    print(gold["type"].value_counts().to_string())
    return failures + len(missing)


if __name__ == "__main__":
    raise SystemExit(check())
