"""Value rules: user tables read signs, money, percentages, magnitudes, European decimals and common dates;
WTQ and WikiSQL data keep the official WTQ rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nsmcli.errors import DataError
from nsmcli.worlds.tables.data.annotate import annotate_question
from nsmcli.worlds.tables.data.readers import load_table, load_wtq_table
from nsmcli.worlds.tables.data.table import Table
from nsmcli.worlds.tables.data.units import names_duration, names_length
from nsmcli.worlds.tables.data.valuerules import RULES, get_rules
from nsmcli.worlds.tables.data.values import Date
from nsmcli.worlds.tables.lang.interpreter import bind, shown_answer


def user_column(*cells: str) -> dict[str, tuple]:
    """The views of a one-column user table holding `cells`."""
    return Table.from_rows("t", ["c"], [[c] for c in cells], value_rules="user").columns[0].views


def numbers(*cells: str) -> tuple:
    return user_column(*cells)["number"]


def dates(*cells: str) -> tuple:
    return user_column(*cells)["date"]


def test_change_column_keeps_its_signs_and_argmin_picks_the_most_negative(tmp_path: Path) -> None:
    path = tmp_path / "stocks.csv"
    path.write_text("Name,Change\nAcme,-3.5\nBolt,1.2\nCorex,-0.4\n", encoding="utf-8")
    table = load_table(path)
    assert table.value_rules == "user"
    assert table.column("Change").views["number"] == (-3.5, 1.2, -0.4)
    result = bind("wtq", table).execute("(argmin all_rows r.change-number) (hop v0 r.name-string)")
    assert result.ok, result.error
    assert result.answer == ["acme"]
    # the same file under the WTQ rules loses the signs and picks -0.4
    wtq = load_table(path, value_rules="wtq")
    assert bind("wtq", wtq).execute("(argmin all_rows r.change-number) (hop v0 r.name-string)").answer == [
        "corex"
    ]


def test_minus_signs() -> None:
    assert numbers("-3.5", "−4", "+2", "- 7", "$-5", "-$6") == (-3.5, -4.0, 2.0, -7.0, -5.0, -6.0)


def test_accounting_negatives() -> None:
    assert numbers("(1,200.00)", "(5)", "$(3.50)", "12") == (-1200.0, -5.0, -3.5, 12.0)


def test_currency_symbols_and_codes() -> None:
    cells = ("$1,234.50", "USD 12", "12 EUR", "£7", "US$ 9.99", "¥300")
    assert numbers(*cells) == (1234.5, 12.0, 12.0, 7.0, 9.99, 300.0)


def test_percentages_are_the_number_written() -> None:
    assert numbers("12.5%", "-3%", "0.5 %") == (12.5, -3.0, 0.5)


def test_magnitude_suffixes() -> None:
    cells = ("2.5M", "3k", "1.2bn", "4 million", "7 thousand", "$1.5B", "10 km")
    assert numbers(*cells) == (2.5e6, 3e3, 1.2e9, 4e6, 7e3, 1.5e9, 10.0)
    # a lower-case m or b is a million or a billion in money only: "100 m" is a distance
    assert numbers("£400m", "£3.2bn", "$75 m", "€1.5b") == (4e8, 3.2e9, 7.5e7, 1.5e9)
    assert numbers("100 m", "400 m", "5 b") == (100.0, 400.0, 5.0)


def test_years_of_an_era_and_circa() -> None:
    """Years before Christ are negative, so the earliest founding is the smallest number; "c. 900" is about
    900 (the WTQ rules read 0.9) and "B.C." is no billion."""
    cells = ("1200 BC", "15 BC", "138 B.C.", "1 BCE", "AD 79", "79 CE", "c. 900", "ca. 1450", "1624")
    assert numbers(*cells) == (-1200.0, -15.0, -138.0, -1.0, 79.0, 79.0, 900.0, 1450.0, 1624.0)
    assert numbers("$1.5B", "2 B") == (1.5e9, 2e9)  # a magnitude still


def test_the_earliest_founding_and_a_question_year_before_christ(tmp_path: Path) -> None:
    path = tmp_path / "cities.csv"
    path.write_text("City,Founded\nLisbon,1200 BC\nBarcelona,15 BC\nMadrid,865\n", encoding="utf-8")
    table = load_table(path)
    earliest = bind("wtq", table).execute("(argmin all_rows r.founded-number) (hop v0 r.city-string)")
    assert earliest.answer == ["lisbon"]
    question = annotate_question("which cities were founded before 500 BC?", table)
    assert ("number", (-500.0,)) in {(e.kind, e.values) for e in question.entities}
    assert ("number", (500.0,)) not in {(e.kind, e.values) for e in question.entities}
    before = bind("wtq", table, question.entities).execute(
        "(filter_less all_rows -500 r.founded-number) (count v0)"
    )
    assert before.ok and before.answer == [1.0], before.error


def test_european_decimals_are_decided_per_column() -> None:
    # "1.000" alone could be either; the column's other cells say it is a thousand
    assert numbers("€1.234,50", "€0,99", "1.000", "12") == (1234.5, 0.99, 1000.0, 12.0)
    # with no cell that only the European convention reads, "1.000" is one
    assert numbers("1.000", "2.5", "1,234") == (1.0, 2.5, 1234.0)
    # a cell the column's convention cannot read has no number, rather than a US reading of its own
    assert numbers("1.234,50", "2,5", "3,75", "1,234.5") == (1234.5, 2.5, 3.75, None)


def test_a_column_that_does_not_say_follows_the_tables_decimal_convention() -> None:
    def table(*rows):
        return Table.from_rows("t", ["revenue", "customers", "share"], rows, value_rules="user").columns

    # "3.104" alone is three point one; beside European revenues it is a count of 3,104
    european = table(["48.215,70", "3.104", "1,5"], ["36.902,15", "2.611", "2,25"])
    assert european[1].views["number"] == (3104.0, 2611.0)
    assert european[0].views["number"] == (48215.7, 36902.15) and european[2].views["number"] == (1.5, 2.25)
    # beside US revenues, or alone, it stays a decimal; a column's own evidence beats the table's
    assert table(["48,215.70", "3.104", "1,5"], ["36,902.15", "2.611", "2,25"])[1].views["number"] == (
        3.104,
        2.611,
    )
    assert numbers("3.104", "2.611") == (3.104, 2.611)
    mixed = table(["48.215,70", "3.5", "1,5"], ["36.902,15", "2.25", "2,25"])
    assert mixed[1].views["number"] == (3.5, 2.25)


def test_scores_keep_both_numbers() -> None:
    views = user_column("3–1", "2-0", "18,204")
    assert views["number"] == (3.0, 2.0, 18204.0)
    assert views["num2"][:2] == (1.0, 0.0)


def test_month_name_dates() -> None:
    cells = ("Mar. 15, 2024", "March 1, 2024", "1 March 2024", "Friday, March 1st, 2024", "March 2024", "May")
    assert dates(*cells) == (
        Date(2024, 3, 15),
        Date(2024, 3, 1),
        Date(2024, 3, 1),
        Date(2024, 3, 1),
        Date(2024, 3, -1),
        Date(-1, 5, -1),
    )
    # a full date is not a number (the WTQ rules read "Mar. 15, 2024" as 0.15)
    assert "number" not in user_column("Mar. 15, 2024", "March 1, 2024")


def test_iso_dates_and_date_times() -> None:
    cells = ("2024-03-15", "2024-03-15T10:00", "2024-03-16 23:59:59", "2024-03-17T08:30:00Z")
    assert dates(*cells) == (Date(2024, 3, 15), Date(2024, 3, 15), Date(2024, 3, 16), Date(2024, 3, 17))
    # a log's zone after the time, and its time of day as the number
    views = user_column("2024-03-14 06:22 UTC", "2024-03-15 18:30 gmt", "2024-03-16 07:00 +01:00")
    assert views["date"] == (Date(2024, 3, 14), Date(2024, 3, 15), Date(2024, 3, 16))
    assert views["number"] == (6 + 22 / 60, 18.5, 7.0)
    assert dates("2024-03-14 06:22 CET", "2024-03-15 08:00 EST") == (Date(2024, 3, 14), Date(2024, 3, 15))


def test_a_weekday_before_a_date_in_digits_is_part_of_the_date() -> None:
    views = user_column("Mon 2024-04-01", "Tue 2024-04-02", "Wed, 2024-04-03")
    assert views["date"] == (Date(2024, 4, 1), Date(2024, 4, 2), Date(2024, 4, 3))
    assert "number" not in views  # no year 2024 and month 4 as numbers
    # and numeric dates keep their column's day-first decision
    assert dates("Fri 15/03/2024", "Sat 16/03/2024") == (Date(2024, 3, 15), Date(2024, 3, 16))
    assert dates("Fri 03/15/2024", "Sat 03/16/2024") == (Date(2024, 3, 15), Date(2024, 3, 16))
    # a weekday alone, or before words, is no date; its period is no dotted date's
    assert "date" not in user_column("Mon", "Tue 5pm", "Wed")
    assert dates("Mon. 03/04/2024", "Tue. 03/05/2024") == (Date(2024, 3, 4), Date(2024, 3, 5))


#: A column's dates in one of the forms a user's export writes, with or without a time (and its zone).
_DATE_FORMS = ("{y}-{m:02d}-{d:02d}", "{m:02d}/{d:02d}/{y}", "{d}/{m}/{y}", "{d}.{m}.{y}")
_DAYS = st.tuples(st.integers(1990, 2030), st.integers(1, 12), st.integers(1, 28))
_TIME_TEXTS = st.sampled_from(["", " 10:00", "T08:30:00Z", " 06:22 UTC", " 18:30 cet", " 07:00 +01:00"])


@settings(max_examples=200, derandomize=True, deadline=None, database=None)
@given(
    st.sampled_from(_DATE_FORMS),
    st.lists(st.tuples(_DAYS, _TIME_TEXTS), min_size=1, max_size=5),
    st.sampled_from(["Mon ", "Tue, ", "wed. ", "Thursday ", "FRI "]),
)
def test_a_weekday_before_a_date_changes_neither_its_date_nor_its_time(
    form: str, days: list[tuple[tuple[int, int, int], str]], weekday: str
) -> None:
    cells = [form.format(y=y, m=m, d=d) + time for (y, m, d), time in days]
    plain, named = user_column(*cells), user_column(*(weekday + cell for cell in cells))
    assert plain.get("date") == named.get("date") and plain.get("number") == named.get("number")


def test_times_of_day_are_numbers_of_hours() -> None:
    assert numbers("18:05", "6:30 pm", "7 am", "12:15 am", "23:59:59") == (
        18 + 5 / 60,
        18.5,
        7.0,
        0.25,
        23 + 59 / 60 + 59 / 3600,
    )
    # a date-time's number is its time of day, and its date view stays
    views = user_column("2024-05-03T18:05", "2024-05-03 07:30:00", "03/15/2024 10:00 PM")
    assert views["number"] == (18 + 5 / 60, 7.5, 22.0)
    assert views["date"] == (Date(2024, 5, 3), Date(2024, 5, 3), Date(2024, 3, 15))
    # no minutes and no am/pm is a number; one digit after the colon is a score; no 25 o'clock
    assert numbers("7", "12") == (7.0, 12.0)
    assert user_column("3:1", "2:0")["num2"] == (1.0, 0.0) and numbers("3:1", "2:0") == (3.0, 2.0)
    assert numbers("25:00", "13:00 pm") == (25.0, 13.0)
    # decided per column: one cell that is no time of day makes them all scores (or durations)
    assert numbers("25:23", "21:18", "15:25") == (25.0, 21.0, 15.0)
    assert numbers("3:45", "59:30") == (3.0, 59.0)
    # the WTQ rules read the hour alone
    wtq = Table.from_rows("t", ["c"], [["18:05"], ["6:30 pm"]])
    assert wtq.columns[0].views["number"] == (18.0, 6.0)


def test_race_times_are_seconds_so_the_fastest_is_the_least() -> None:
    """ "1:23.45" (minutes, seconds and hundredths) is a duration of 83.45 s, not the number 1 of every lap
    in the column; plain seconds in the same column compare with it; "10:30" stays a time of day."""
    assert numbers("1:23.45", "59.90", "1:02:03.4", "1:22.98") == (83.45, 59.9, 3723.4, 82.98)
    assert numbers("10:30", "18:05") == (10.5, 18.0 + 5 / 60)
    # and the column is in seconds, so a question's clock is too: "under 1:05" is 65 s, not five past one
    heats = Table.from_rows(
        "t", ["Swimmer", "Heat Time"], [["a", "58.91"], ["b", "1:03.90"]], value_rules="user"
    )
    assert heats.quantity_unit(heats.columns[1]).name == "second"
    entities = annotate_question("who swam under 1:05?", heats).entities
    assert ("number", (65.0,)) in [(e.kind, e.values) for e in entities]


def test_a_column_of_times_with_tenths_is_race_times_in_seconds() -> None:
    """A timing system's `00:25:12.3` is 25 minutes 12.3 seconds, though its hours make it look like a time
    of day: no clock counts tenths. An export's `10:00:00.000` stays a time of day, in hours."""
    times = Table.from_rows(
        "t", ["Rider", "Time"], [["a", "00:25:12.3"], ["b", "00:24:31.5"], ["c", "DNF"]], value_rules="user"
    )
    assert times.columns[1].views["number"] == (1512.3, 1471.5, None)
    assert times.quantity_unit(times.columns[1]).name == "second"
    # so a question's minutes are seconds of that column: "under 23 minutes" is 1380
    entities = annotate_question("which riders finished in under 23 minutes?", times).entities
    assert ("number", (1380.0,)) in [(e.kind, e.values) for e in entities]
    assert numbers("10:00:00.000", "14:30:00.000") == (10.0, 14.5)
    # a whole second beside tenths is the race's too; hundredths on a clock past the ninth hour are a day's
    assert numbers("00:25:12", "00:24:31.5", "00:26:00.2") == (1512.0, 1471.5, 1560.2)
    assert numbers("10:00:00.5", "14:30:00.25") == (10.0, 14.5)
    # a clock the question writes is seconds too: "under 1:30:00"
    entities = annotate_question("which riders finished under 0:25:00?", times).entities
    assert ("number", (1500.0,)) in [(e.kind, e.values) for e in entities]


def test_review_cases_of_times_money_and_magnitudes() -> None:
    """A time of day with fractions of a second stays hours (only minutes:seconds.ff is a race time);
    space-grouped money in millions keeps both; a header's currency may stand apart from its `m`; an
    upper-case M or K after a whole number is no magnitude ("size 10 M"), after a decimal it is."""
    assert numbers("14:03:27.125", "09:15:02.500", "16:40:00") == pytest.approx(
        (14 + 3 / 60 + 27 / 3600, 9 + 15 / 60 + 2 / 3600, 16 + 40 / 60)
    )
    assert numbers("£1 200 m", "£950 m") == (1.2e9, 9.5e8)
    from nsmcli.worlds.tables.data.valuerules import header_magnitude

    assert [
        header_magnitude(h) for h in ("Revenue (USD m)", "Cost (£ m)", "Sales ($mn)", "Receipts (US$ bn)")
    ] == [
        6,
        6,
        6,
        9,
    ]
    table = Table.from_rows("t", ["Firm", "Revenue ($m)"], [["a", "2,500"], ["b", "900"]], value_rules="user")
    said = [
        e.values
        for e in annotate_question("which firm made over $2bn?", table).entities
        if e.kind == "number"
    ]
    assert said == [(2000.0,)]
    # a number a column of plain numbers reaches is left as said: "20M arrivals" beside `Receipts (US$ bn)`
    tourism = Table.from_rows(
        "t", ["Country", "Arrivals", "Receipts (US$ bn)"], [["a", "24,500,000", "12.5"]], value_rules="user"
    )
    for question, value in (("which countries topped 20M arrivals?", 2e7), ("receipts over $20bn?", 20.0)):
        found = [e.values for e in annotate_question(question, tourism).entities if e.kind == "number"]
        assert found == [(value,)], question
    # a plain column the number does not name leaves it converted: a year, an area
    for header, question in (
        (
            ["Country", "Area (km2)", "Population (millions)"],
            "which countries have a population over 100 million?",
        ),
        (["Product", "Year", "Units (000s)"], "products with more than 100 thousand units"),
    ):
        table = Table.from_rows("t", header, [["a", "17,098,246", "144"]], value_rules="user")
        assert [e.values for e in annotate_question(question, table).entities if e.kind == "number"] == [
            (100.0,)
        ]
    plain = Table.from_rows("t", ["Player", "Size"], [["a", "10"], ["b", "12"]], value_rules="user")
    for question, value in (("who wears size 10 M?", 10.0), ("who earns 1.5 M?", 1.5e6)):
        found = [e.values for e in annotate_question(question, plain).entities if e.kind == "number"]
        assert found == [(value,)], question


def test_quantities_with_mixed_units_are_one_number_in_the_columns_smallest_unit() -> None:
    """ "2h 30m", "1h 05m", "45m" were the numbers 2, 1 and 45 (the longest task was the 45-minute one); a
    column of units of one family is now read in the smallest unit it uses."""
    assert numbers("2h 30m", "1h 05m", "45m") == (150.0, 65.0, 45.0)
    assert numbers("1 hr 20 min", "45 min", "2 hrs", "") == (80.0, 45.0, 120.0, None)
    assert numbers("3 days", "12 hours", "1 week") == (72.0, 12.0, 168.0)
    assert numbers("2m 35s", "58s", "1m 02s") == (155.0, 58.0, 62.0)
    assert numbers("PT2H30M", "PT45M", "PT1H") == (150.0, 45.0, 60.0)  # ISO 8601 durations
    assert numbers("2h", "90 min", "1h30", "2 h 05") == (120.0, 90.0, 90.0, 125.0)  # minutes after hours
    assert numbers("1h75", "2h") == (1.0, 2.0)  # no 75 minutes: not read as a duration
    assert numbers("5 ft 11 in", "6 ft", "5'9\"") == (71.0, 72.0, 69.0)
    assert numbers("1.2 km", "800 m", "1,500 m") == (1200.0, 800.0, 1500.0)  # "m" is metres beside km
    assert numbers("1.5 GB", "800 MB") == (1500.0, 800.0)
    assert "num2" not in user_column("2h 30m", "1h 05m", "45m")
    # one unit throughout: the numbers as written; a unit word two families share, or no unit: as before
    assert numbers("12 kg", "7.5 kg") == (12.0, 7.5)
    assert numbers("5m", "3m") == (5.0, 3.0)
    assert numbers("1.2B", "3.4B") == (1.2e9, 3.4e9)  # a billion, not bytes
    assert user_column("3–1", "2–0")["num2"] == (1.0, 0.0)
    assert numbers("Week 12", "Week 3") == (12.0, 3.0)
    # European decimals in a European column; a number it cannot read leaves the column as it was
    assert numbers("7,5 km", "800 m") == (7500.0, 800.0)
    assert numbers("7,5 km", "2,5 km", "1,500,000 m")[:2] == (7.5, 2.5)
    # parts are one quantity only when they step down ("2h 30m"): a length given twice, a list and a column
    # where nothing says whether "m" is minutes or metres keep their numbers
    assert numbers("4220 m 13,845 ft", "722 km 448 mi") == (4220.0, 722.0)
    assert numbers("5 kg, 10 kg", "3 kg") == (5.0, 3.0)
    # after years "m" is months, never minutes, in every cell of the column: ages, the youngest 11 months old
    assert numbers("2y 3m", "35y") == (27.0, 420.0)
    assert numbers("9m", "1y 2m", "11m", "12y") == (9.0, 14.0, 11.0, 144.0)
    assert numbers("1y 2m", "2h 30m") == (
        1.0,
        2.0,
    )  # months beside minutes: no one quantity, the numbers stay
    assert numbers("10.12 s", "8.05 m", "2.31 m", "19.80 s") == (10.12, 8.05, 2.31, 19.8)
    assert numbers("1 km 200 m", "800 m") == (1200.0, 800.0)
    # the WTQ rules keep reading the first number
    wtq = Table.from_rows("t", ["c"], [["2h 30m"], ["45m"]]).columns[0].views["number"]
    assert wtq == (2.0, 45.0)


def test_an_accounting_exports_trailing_minus_is_a_negative() -> None:
    assert numbers("123.45-", "67.00", "1,200.00-") == (-123.45, 67.0, -1200.0)
    assert numbers("1990-", "2004") == (1990.0, 2004.0)  # an open range of years, no negative
    assert numbers("10,000-49,999", "50,000-")[1] == 50000.0  # an open-ended band


def test_spreadsheet_errors_are_missing_and_a_numeric_month_is_a_date() -> None:
    assert numbers("#N/A", "12", "#DIV/0!", "#VALUE!") == (None, 12.0, None, None)  # "#DIV/0!" was 0
    assert [str(d) for d in dates("03/2024", "12/2023")] == ["2024-03-xx", "2023-12-xx"]
    # a spreadsheet's `mmm-yy` is a month of a year; its `d-mmm` a day of a month
    assert [str(d) for d in dates("Apr-24", "Sept-23", "Dec '99")] == [
        "2024-04-xx",
        "2023-09-xx",
        "1999-12-xx",
    ]
    assert [str(d) for d in dates("24-Apr", "25-Apr")] == ["xxxx-04-24", "xxxx-04-25"]
    assert "number" not in user_column("Apr-24", "May-24")
    # a week's dates written month first stay days: a month with four numbers is no month of four years
    assert [str(d) for d in dates("Jan-05", "Jan-12", "Jan-19", "Jan-26")][:2] == ["xxxx-01-05", "xxxx-01-12"]
    # bare numbers of which only some read as years are no years: a peak's height of 2850 beside 3020 m
    assert "date" not in user_column("2850", "3020", "1999", "2010", "3100")
    assert "date" in user_column("2019", "2020", "2021", "", "0")  # one slip is no other kind of column
    # nor digit groups of which only some read as dates (a player's kills/deaths/assists)
    assert "date" not in user_column("5/12/18", "13/19/15", "6/11/19", "15/21/18")
    assert "date" not in user_column("3.2024", "1.5000")  # numbers with four decimals stay numbers
    assert "date" not in user_column("1/2500", "3/1000")  # odds


def test_questions_say_numbers_and_names_as_people_write_them() -> None:
    table = Table.from_rows(
        "t",
        ["Date", "Customer", "Amount"],
        [["2024-03-15", "O'Neil & Sons", "$1,200.50"], ["2024-04-03", "Smith and Wesson", "$85"]],
        value_rules="user",
    )

    def entities(question: str) -> list[tuple[str, tuple[str, ...]]]:
        return [(e.kind, tuple(map(str, e.values))) for e in annotate_question(question, table).entities]

    assert entities("What did O'Neil and Sons buy?") == [("string", ("o'neil & sons",))]
    assert entities("what did smith & wesson buy") == [("string", ("smith and wesson",))]
    assert entities("orders over a thousand dollars") == [("number", ("1000.0",))]
    assert entities("half a million") == [("number", ("500000.0",))]
    assert entities("a hundred thousand or a dozen") == [("number", ("100000.0",)), ("number", ("12.0",))]
    assert entities("orders in March '24") == [("date", ("2024-03-xx",))]  # not the number 24
    assert entities("orders in May '98") == [("date", ("1998-05-xx",))]
    assert entities("a hundred and fifty, a thousand five hundred") == [
        ("number", ("150.0",)),
        ("number", ("1500.0",)),
    ]
    assert entities("orders in 4/2024") == [("date", ("2024-04-xx",))]
    # four digits are a year where a year is likely or the table dates one, else the number they are
    assert entities("orders in 2023") == [("date", ("2023-xx-xx",))]
    assert entities("orders of more than 1000 units") == [("number", ("1000.0",))]
    # a spreadsheet's `mmm-yy` is a month of a year only where the table holds months ("Dec-31" may be a day)
    assert ("date", ("2024-04-xx",)) not in entities("orders in Apr-24")
    months = Table.from_rows("t", ["Month", "Orders"], [["Mar-24", "3"], ["Apr-24", "4"]], value_rules="user")
    assert ("date", ("2024-04-xx",)) in [
        (e.kind, tuple(map(str, e.values))) for e in annotate_question("orders in Apr-24", months).entities
    ]
    # thousands grouped by spaces are one number where the cells group them so (French and SI write them
    # so), with decimals in either convention; elsewhere two numbers side by side stay two
    spaced = Table.from_rows(
        "t", ["Site", "kWh"], [["Lyon", "12 480"], ["Nice", "9 870,5"]], value_rules="user"
    )

    def numbers_in(question: str, of: Table) -> list[float]:
        return [e.values[0] for e in annotate_question(question, of).entities if e.kind == "number"]

    assert numbers_in("sites above 10 000 kWh", spaced) == [10000.0]
    assert numbers_in("a refund of -1 234 567.50", spaced) == [-1234567.5]
    assert numbers_in("the top 10 sites", spaced) == [10.0]
    assert numbers_in("orders above 10 000 dollars", table) == [10.0, 0.0]
    assert numbers_in("the 3 100 m races", table) == [3.0, 100.0]
    # WTQ tables keep MAPO's linking: no "&" for "and"
    wtq = Table.from_rows("t", ["Customer"], [["O'Neil & Sons"]])
    assert [e.values for e in annotate_question("O'Neil and Sons", wtq).entities] == [("o'neil",), ("sons",)]


def test_a_temperature_written_as_one_token_is_its_number() -> None:
    """ "colder than 26.5°C" linked the cell `26.5°C` as text only, so no comparison could use it."""
    table = Table.from_rows(
        "t", ["Day", "Water temp"], [["a", "26.5°C"], ["b", "27.1°C"]], value_rules="user"
    )

    def numbers_in(question: str, of: Table) -> list[float]:
        return [e.values[0] for e in annotate_question(question, of).entities if e.kind == "number"]

    assert numbers_in("On how many days was the water colder than 26.5°C?", table) == [26.5]
    assert numbers_in("warmer than 27°C", table) == [27.0]
    assert numbers_in("below -3° c", table) == [-3.0]
    assert numbers_in("colder than 26.5℃", table) == [26.5]


def test_codes_that_number_rows_are_no_amounts_whatever_the_header() -> None:
    """A dog walker's `Booking` column of `B101`..`B123` was the numbers 101..123, which "total takings"
    summed; codes of one prefix and one width of three digits or more number rows."""
    assert "number" not in user_column("B101", "B102", "B107", "")
    assert "number" not in user_column("R-2285", "R-2290", "R-2301")
    # prices in a currency written with letters, or under a header that names money, are amounts
    assert numbers("R150", "R299", "R450") == (150.0, 299.0, 450.0)
    assert numbers("RM120", "RM250", "RM380") == (120.0, 250.0, 380.0)
    priced = Table.from_rows("t", ["Item", "Price"], [["a", "X120"], ["b", "X250"]], value_rules="user")
    assert priced.columns[1].views["number"] == (120.0, 250.0)
    # quarters, priorities, fiscal years, a currency's amounts and mixed prefixes keep their numbers
    assert numbers("Q1", "Q2", "Q3") == (1.0, 2.0, 3.0)
    assert numbers("P1", "P3", "P2") == (1.0, 3.0, 2.0)
    assert numbers("FY2023", "FY2024") == (2023.0, 2024.0)
    assert numbers("EUR100", "EUR250") == (100.0, 250.0)
    assert numbers("A12", "B3", "C7") == (12.0, 3.0, 7.0)


def test_durations_written_as_clocks_are_minutes_where_the_cells_say_so() -> None:
    """A podcast's `32:15` beside its `1:02:45` were the numbers 32 and 1, so the hour-long episode was the
    shortest; `m:ss` beside `h:mm:ss` are now one quantity in minutes, which "longer than one hour" compares
    with."""
    assert numbers("32:15", "48:10", "1:02:45", "") == (32.25, 48.166666667, 62.75, None)
    table = Table.from_rows(
        "t", ["Title", "Duration"], [["a", "32:15"], ["b", "1:02:45"], ["c", "27:40"]], value_rules="user"
    )
    said = [e.values for e in annotate_question("which run longer than one hour", table).entities]
    assert said == [(60.0,)]
    result = bind("wtq", table).execute("(argmax all_rows r.duration-number) (hop v0 r.title-string)")
    assert result.answer == ["b"]
    # a clock column of one form is read as before: times of day, scores, or hours
    assert numbers("18:05", "18:05:30", "9:15") == pytest.approx((18.083333333, 18.091666667, 9.25))
    assert user_column("25:23", "21:25")["num2"] == (23.0, 25.0)
    assert numbers("1:02:45", "0:58:10") == pytest.approx((1.045833333, 0.969444444))


def test_clocks_under_a_header_of_a_duration_are_minutes_and_seconds() -> None:
    """A playlist's `Duration` of `3:45` was read as a time in hours, so "the average track in seconds" was
    3.84 hours in seconds' clothing; where the header says it holds durations, its `m:ss` clocks are minutes,
    and an answer in seconds converts from them. Where it names a length outright (`Duration`, not `Run time`),
    so are its `h:mm:ss` clocks alone."""
    table = Table.from_rows(
        "t",
        ["Track", "Duration", "Played"],
        [["a", "3:45", "07:02"], ["b", "4:12", "07:06"], ["c", "2:59", "19:40"]],
        value_rules="user",
    )
    duration, played = table.columns[1], table.columns[2]
    assert duration.views["number"] == pytest.approx((3.75, 4.2, 2.983333333))
    assert table.quantity_unit(duration).name == "minute"
    # a clock column whose header names no duration is still times of day
    assert table.quantity_unit(played) is None
    # a header of a duration in hours keeps the clock's hours; a snake_case key names a duration too, and
    # `m:ss` beside `h:mm:ss` under it is one quantity in minutes
    assert not names_duration("Duration (h:mm)") and not names_duration("Shift length (hours)")
    assert (
        names_duration("trip_duration") and names_duration("Avg Wait (m:ss)") and names_duration("Run time")
    )
    assert not names_duration("Time") and not names_duration("Scheduled")
    mixed = Table.from_rows(
        "t", ["Match", "Duration"], [["a", "12:30"], ["b", "1:05:20"], ["c", "9:15"]], value_rules="user"
    )
    assert mixed.columns[1].views["number"] == pytest.approx((12.5, 65.333333333, 9.25))
    # a match's `00:42:10` under `Duration` is 42 minutes, every cell `h:mm:ss`: "lasted more than 45 minutes"
    # compared minutes with 0.70 of an hour
    matches = Table.from_rows(
        "t",
        ["Match", "Duration"],
        [["M01", "00:18:45"], ["M02", "00:42:10"], ["M03", ""], ["M04", "01:05:00"]],
        value_rules="user",
    )
    assert matches.columns[1].views["number"] == pytest.approx((18.75, 42.166666667, None, 65.0))
    assert quantity_unit_name(matches) == "minute"
    said = annotate_question("which matches lasted more than 45 minutes", matches).entities
    assert (45.0,) in [e.values for e in said]
    result = bind("wtq", matches, said).execute(
        "(filter_greater all_rows 45 r.duration-number) (hop v0 r.match-string)"
    )
    assert result.answer == ["m04"]
    # a header that gives the clock's whole form names a duration; a job's last run time is a time of day
    assert names_duration("Duration (h:mm:ss)") and names_length("Duration (hh:mm:ss)")
    assert names_duration("Last run time") and not names_length("Last run time")
    assert not names_duration("Departure (hh:mm:ss)") and not names_duration("Start time (h:mm:ss)")
    jobs = Table.from_rows(
        "t", ["Job", "Last run time"], [["backup", "02:00:00"], ["report", "14:30:00"]], value_rules="user"
    )
    assert jobs.columns[1].views["number"] == pytest.approx((2.0, 14.5))
    assert quantity_unit_name(jobs) is None
    env = bind("wtq", table)
    said = annotate_question("whats the average track duration in seconds", table)
    result = env.execute("(average all_rows r.duration-number)")
    assert shown_answer(result, env, said.tokens)[1] == ["218.666667 seconds"]


def quantity_unit_name(table: Table) -> str | None:
    """The name of the unit of a two-column table's second column, if it has one."""
    unit = table.quantity_unit(table.columns[1])
    return unit.name if unit is not None else None


def test_a_pace_is_minutes_per_distance_so_the_fastest_is_the_least() -> None:
    """A running log's `5:58 /km` was the number 5 with 58 beside it, so `4:51 /km` and `4:05 /km` tied."""
    assert numbers("5:58 /km", "4:51/km", "6:05 per km", "", "1:45 per 100m") == (
        5.966666667,
        4.85,
        6.083333333,
        None,
        1.75,
    )
    assert "num2" not in user_column("5:58 /km", "4:51/km", "6:05 /km")
    assert numbers("5:58 min/km", "4:51 min per km") == (5.966666667, 4.85)  # as Strava and Garmin write it


def test_a_file_with_mixed_units_says_the_unit_its_sums_are_in(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    path.write_text("Task,Time,Weight\nAudit,2h 30m,12 kg\nBackup,1h 05m,7.5 kg\n", encoding="utf-8")
    table = load_table(path)
    assert table.notes == (
        "column 'Time' is read in minutes ('2h 30m' is 150); sums and differences over it are in minutes",
    )
    assert bind("wtq", table).execute("(sum all_rows r.time-number)").answer == [215.0]


def test_an_answer_over_a_column_of_quantities_is_stated_in_the_unit_asked_for() -> None:
    table = Table.from_rows(
        "t",
        ["Task", "Time", "Height (cm)", "Score"],
        [["Audit", "2h 30m", "170", "5"], ["Backup", "1h 05m", "182", "7"], ["Cleanup", "45m", "165", "9"]],
        value_rules="user",
    )

    def shown(program: str, question: str = "") -> tuple[list, list[str]]:
        result = bind("wtq", table).execute(program)
        return shown_answer(result, bind("wtq", table), annotate_question(question, table).tokens)

    assert shown("(sum all_rows r.time-number)", "How many hours in total?") == (
        [4.333333333],
        ["4.333333 hours"],
    )
    assert shown("(sum all_rows r.time-number)", "how long in all, in minutes?") == ([260.0], ["260 minutes"])
    # no unit asked: the column's unit, which no cell of a mixed column states, is said
    assert shown("(sum all_rows r.time-number)", "What is the total time?") == ([260.0], ["260 minutes"])
    assert shown("(maximum all_rows r.height-number)", "how tall in metres") == ([1.82], ["1.82 metres"])
    # a cell read as written stays as the table writes it when no unit is asked; a count has no unit
    assert shown("(maximum all_rows r.time-number)", "What is the longest time?")[1] == ["2h 30m"]
    assert shown("(count all_rows)", "how many hours are listed") == ([3.0], ["3"])
    assert shown("(sum all_rows r.score-number)", "how many minutes") == ([21.0], ["21"])


def test_an_answer_over_a_column_of_times_is_in_hours_and_stated_in_the_unit_asked_for() -> None:
    table = Table.from_rows(
        "t",
        ["Rider", "Finish Time", "Start"],
        [["Luca", "1:02:33", "6:30 PM"], ["Dave", "1:04:47", "7:15 PM"], ["Sam", "", ""]],
        value_rules="user",
    )

    def shown(program: str, question: str) -> tuple[list, list[str]]:
        result = bind("wtq", table).execute(program)
        return shown_answer(result, bind("wtq", table), annotate_question(question, table).tokens)

    slower = "(argmax all_rows r.finish_time-number) (argmin all_rows r.finish_time-number) (diff v0 v1 r.finish_time-number)"
    assert shown(slower, "how many seconds slower was Dave than Luca") == ([134.0], ["134 seconds"])
    assert shown(slower, "how many minutes slower was Dave than Luca") == (
        [2.233333333],
        ["2.233333 minutes"],
    )
    later = "(argmax all_rows r.start-number) (argmin all_rows r.start-number) (diff v0 v1 r.start-number)"
    assert shown(later, "how many minutes later did Dave start") == ([45.0], ["45 minutes"])
    # no unit asked: the hours as computed; a question's "over an hour" is read by the column's cells
    assert shown(slower, "what is the gap between Dave and Luca")[0] == pytest.approx([134 / 3600])
    assert table.quantity_unit(table.column("Finish Time")) is None
    # `19:45` may be a 5K's minutes and seconds: no unit is claimed for it
    fives = Table.from_rows(
        "t", ["Runner", "5K Time"], [["Ann", "19:45"], ["Cy", "21:02"]], value_rules="user"
    )
    assert fives.answer_unit(fives.column("5K Time")) is None


def test_an_answer_asked_in_millions_is_scaled_unless_its_column_already_counts_in_them() -> None:
    header, rows = (
        ["Film", "Gross", "GDP (million EUR)"],
        [["a", "$45.2M", "1500"], ["b", "$16.1M", "2000"]],
    )
    table = Table.from_rows("t", header, rows, value_rules="user")

    def shown(program: str, question: str, of: Table = table) -> tuple[list, list[str]]:
        result = bind("wtq", of).execute(program)
        return shown_answer(result, bind("wtq", of), annotate_question(question, of).tokens)

    assert shown("(sum all_rows r.gross-number)", "total gross in millions of dollars") == (
        [61.3],
        ["61.3 million"],
    )
    assert shown("(sum all_rows r.gross-number)", "total gross")[0] == [61300000.0]
    # a column whose header counts in millions is in millions already; a count is no column's number
    assert shown("(sum all_rows r.gdp-number)", "total GDP in million euros")[0] == [3500.0]
    assert shown("(count all_rows)", "how many films, in thousands")[0] == [2.0]
    wtq = Table.from_rows("t", ["Film", "Gross"], [["a", "45200000"]])
    assert shown("(sum all_rows r.gross-number)", "total gross in millions", wtq)[0] == [45200000.0]
    # a currency may stand between "in" and the magnitude, and a letter alone says one only after it
    assert shown("(sum all_rows r.gross-number)", "total gross, in $ millions")[0] == [61.3]
    assert shown("(sum all_rows r.gross-number)", "total gross in US$ bn")[0] == [0.0613]
    assert shown("(sum all_rows r.gross-number)", "total gross in £m")[0] == [61.3]
    assert shown("(sum all_rows r.gross-number)", "total gross in m")[0] == [61300000.0]


def test_how_much_was_spent_is_the_size_of_a_ledgers_negative_outgoings() -> None:
    header = ["Date", "Description", "Amount"]
    rows = [
        ["2024-05-02", "Fuel", "-$60.10"],
        ["2024-05-09", "Fuel", "-$60.10"],
        ["2024-05-10", "Salary", "$2,000"],
    ]
    table = Table.from_rows("t", header, rows, value_rules="user")

    def shown(program: str, question: str, of: Table = table) -> tuple[list, list[str]]:
        result = bind("wtq", of).execute(program)
        return shown_answer(result, bind("wtq", of), annotate_question(question, of).tokens)

    fuel = "(argmin all_rows r.amount-number) (sum v0 r.amount-number)"  # both fuel rows tie
    assert shown(fuel, "How much was spent on fuel?") == ([120.2], ["$120.20"])
    assert shown(fuel, "how much did we spend") == ([120.2], ["$120.20"])
    assert shown(fuel, "how much did we spend, in thousands") == ([0.1202], ["0.1202 thousand"])
    # a cell read as it is shows without its sign
    assert shown(
        "(argmin all_rows r.amount-number) (hop v0 r.amount-number)", "how much was paid for fuel?"
    ) == (
        [60.1],
        ["$60.10"],
    )
    # no "how much" with a word of spending, a net, or an answer that is not all negative, keeps its sign
    assert shown(fuel, "what is the total of the smallest amount") == ([-120.2], ["-$120.20"])
    assert shown(fuel, "what did we pay for fuel")[0] == [-120.2]
    assert shown(fuel, "how much was paid in net")[0] == [-120.2]
    assert shown("(sum all_rows r.amount-number)", "how much was paid in and out")[0] == [1879.8]


def test_a_quantity_said_with_a_unit_compares_with_a_column_in_that_family() -> None:
    table = Table.from_rows(
        "t",
        ["Task", "Time", "Weight"],
        [["Audit", "2h 30m", "12 kg"], ["Backup", "1h 05m", "7.5 kg"], ["Cleanup", "45m", "20 kg"]],
        value_rules="user",
    )

    def numbers_of(question: str) -> list[float]:
        return [e.values[0] for e in annotate_question(question, table).entities if e.kind == "number"]

    assert numbers_of("Which tasks took longer than 2 hours?") == [120.0]  # the column counts minutes
    assert numbers_of("which took under an hour and 10 minutes") == [70.0]
    assert numbers_of("under half an hour, or more than an hour and a half") == [30.0, 90.0]
    assert numbers_of("over 1.5 hrs or 100min") == [90.0, 100.0]
    assert numbers_of("which weighed more than 10 kg") == [10.0]
    assert numbers_of("heavier than 500 grams or 800g") == [500.0, 0.5, 0.8]  # as said, and in kg
    assert numbers_of("between 2 hours and 3 hours") == [120.0, 180.0]  # two quantities, not 300
    assert numbers_of("30 minutes a day, $20 an hour") == [30.0, 20.0]  # rates are no hours
    assert numbers_of("which took the 1990s") == []  # a decade, no seconds
    ages = Table.from_rows(
        "a", ["Dog", "Age"], [["Rex", "1y 2m"], ["Bo", "9m"], ["Kit", "3y"]], value_rules="user"
    )
    ages_asked = [e.values[0] for e in annotate_question("which dogs are older than 1y6m?", ages).entities]
    assert 18.0 in ages_asked  # months, as the column counts them: "m" after years is no minute
    result = bind("wtq", table, [("number", (120.0,))]).execute(
        "(filter_greater all_rows 120 r.time-number) (hop v0 r.task-string)"
    )
    assert result.ok, result.error
    assert result.answer == ["audit"]
    # a header names the unit of plain numbers
    named = Table.from_rows(
        "t",
        ["Name", "Height (cm)", "Life expectancy, total (years)"],
        [["Ann", "170", "31"]],
        value_rules="user",
    )
    said = [e.values for e in annotate_question("taller than 1.75 metres, over 30 years", named).entities]
    assert said == [(1.75,), (175.0,), (30.0,)]  # the number as said stays beside its conversion
    assert [e.values for e in annotate_question("which scored 3 in the final", named).entities] == [(3.0,)]
    assert [
        e.values for e in annotate_question("who ran the 100m", named).entities
    ] == []  # "m" alone: no unit
    # a column's name that says its unit converts too: "2 hours" of `Minutes` is 120, "30 minutes" of `MIN` 30
    plain = Table.from_rows("t", ["Task", "Minutes", "Year"], [["Audit", "150", "2021"]], value_rules="user")
    assert [
        e.values for e in annotate_question("longer than 2 hours", plain).entities if e.kind == "number"
    ] == [(120.0,)]
    box = Table.from_rows("t", ["Player", "MIN"], [["Ann", "34.1"]], value_rules="user")
    assert [e.values for e in annotate_question("more than 30 minutes a game", box).entities] == [(30.0,)]
    # a table without a column of that family (a `Year` is no duration): "2 hours" stays a duration, no number
    seasons = Table.from_rows("t", ["Team", "Year"], [["Ann", "2021"]], value_rules="user")
    assert [e for e in annotate_question("within 2 hours", seasons).entities if e.kind == "number"] == []
    assert [e for e in annotate_question("over 5 years", seasons).entities if e.kind == "number"] == []


def test_question_times_compare_with_time_columns(tmp_path: Path) -> None:
    path = tmp_path / "trains.csv"
    path.write_text(
        "Train,Departure\nIC 201,2024-05-03T06:45\nIC 203,2024-05-03T07:00\nIC 213,2024-05-03T18:03\n"
        "RE 425,2024-05-03T22:10\n",
        encoding="utf-8",
    )
    table = load_table(path)

    def numbers_of(question: str) -> list[float]:
        entities = annotate_question(question, table).entities
        return [e.values[0] for e in entities if e.kind == "number"]

    assert numbers_of("Which trains leave after 6 pm?") == [18.0]  # not 6
    assert numbers_of("How many trains depart between 7:00 and 8:00 am?") == [7.0, 8.0]
    assert numbers_of("which train leaves at 18:03 or 10am or noon") == [18 + 3 / 60, 10.0, 12.0]
    assert numbers_of("after 6") == [6.0]  # a bare number is no time
    assert numbers_of("between 5 and 6 pm") == [17.0, 18.0]  # the range's pm holds for both ends
    assert numbers_of("how many left between 7 and 9 at night") == [19.0, 21.0]
    assert numbers_of("which left at 12 at night") == [0.0]  # midnight, not noon
    assert numbers_of("which left at 2 at night") == [2.0]
    assert numbers_of("how many left between 5 and 7 at night") == [17.0, 19.0]
    assert numbers_of("trains after 6 in the evening") == [18.0]
    assert numbers_of("at 6.30 pm, or 6.30") == [18.5, 6.3]
    result = bind("wtq", table, [("number", (18.0,))]).execute(
        "(filter_greater all_rows 18 r.departure-number) (hop v0 r.train-string)"
    )
    assert result.ok, result.error
    assert result.answer == ["ic 213", "re 425"]
    # under the WTQ rules a question's "6 pm" stays 6
    wtq = Table.from_rows("t", ["Departure"], [["18:03"]])
    assert [e.values for e in annotate_question("after 6 pm", wtq).entities if e.kind == "number"] == [(6.0,)]


def test_negative_and_positive_in_a_question_compare_with_zero(tmp_path: Path) -> None:
    path = tmp_path / "growth.csv"
    path.write_text("Country,GDP growth (%)\nArgentina,-1.6\nGermany,-0.3\nIndia,7.0\n", encoding="utf-8")
    table = load_table(path)
    entities = annotate_question("Which countries had negative GDP growth?", table).entities
    assert [(e.values, e.start) for e in entities if e.kind == "number"] == [((0.0,), 3)]
    result = bind("wtq", table, [("number", (0.0,))]).execute(
        "(filter_less all_rows 0 r.gdp_growth-number) (hop v0 r.country-string)"
    )
    assert result.ok and result.answer == ["argentina", "germany"]
    assert [e.values for e in annotate_question("any positive?", table).entities] == [(0.0,)]
    # the WTQ rules lose signs, so their questions get no such number
    wtq = Table.from_rows("t", ["Growth"], [["-1.6"]])
    assert not annotate_question("Which had negative growth?", wtq).entities


def test_words_of_falling_and_rising_compare_with_zero_where_a_column_holds_both_signs() -> None:
    """ "shrinking", "fell", "closed down" of a change column of both signs are below 0, as "negative" is;
    "down" alone ("the third one down") is no change, and a table whose numbers all share one sign gets no
    such 0 (there "grew" compares nothing with zero)."""
    rows = [["Lisbon", "-0.4", "545"], ["Hanoi", "2.1", "3359"], ["Riga", "-0.9", "304"]]
    table = Table.from_rows("t", ["City", "Growth", "Area"], rows, value_rules="user")

    def zeros(question: str, of: Table = table) -> list[int]:
        return [e.start for e in annotate_question(question, of).entities if e.values == (0.0,)]

    assert zeros("which cities are shrinking?") == [3]
    assert zeros("how many stocks closed down?") == [4]
    assert zeros("which city grew?") == [2]
    assert zeros("which city is third one down the list?") == []
    assert zeros("which is higher, lisbon or riga?") == []  # a comparison of two, not a sign
    assert zeros("which stocks closed higher?") == [3]
    assert zeros("which city lost the most people?") == [2]  # losing is falling too
    unsigned = Table.from_rows(
        "t", ["City", "Area"], [["Lisbon", "545"], ["Hanoi", "3359"]], value_rules="user"
    )
    assert zeros("which cities are shrinking?", unsigned) == []
    # money going out of a ledger or coming into it, over its signed amounts
    ledger = Table.from_rows(
        "t", ["Payee", "Amount"], [["Rent", "(1,450.00)"], ["Payroll", "2,150.00"]], value_rules="user"
    )
    assert zeros("who got the biggest payment out of the account?", ledger) == [5]
    assert zeros("how many outgoing payments were over $100", ledger) == [2]
    assert zeros("how many entries are outgoings", ledger) == [4]
    assert zeros("how much money came into the account?", ledger) == [4]
    assert zeros("who came in first?", ledger) == []
    # "in the red", "overdrawn" and "made a loss" are below 0; "the red team" or "a red car" no sign
    assert zeros("how many entries left the account in the red?", ledger) == [8]
    assert zeros("when did we first go overdrawn?", ledger) == [5]
    assert zeros("how many payees made a loss?", ledger) == [5]
    assert zeros("how many went to the red team?", ledger) == []
    # prices that got cheaper fell; "cheaper" alone compares ("which is cheaper, a or b?")
    assert zeros("how many cities got cheaper?") == [4]
    assert zeros("which is cheaper, lisbon or riga?") == []
    assert zeros("which cities got dearer?") == [3]
    assert zeros("which cities are in the black this year?") == [5]
    assert zeros("how many cities in the red zone?") == []  # a zone named red
    # a balance's deficit is below 0, its surplus above
    assert zeros("how many countries ran a current account deficit", table) == [7]
    assert zeros("which city had a surplus", table) == [4]
    # of a column the word names, a deficit is its values, not a sign
    budget = Table.from_rows(
        "t", ["Year", "Budget deficit"], [["2021", "120"], ["2022", "-15"]], value_rules="user"
    )
    assert zeros("which years had a deficit?", budget) == []
    assert zeros("which came out on top?", ledger) == []
    games = Table.from_rows("t", ["Game", "Diff"], [["a", "-3"], ["b", "7"]], value_rules="user")
    assert zeros("how many games went into overtime?", games) == []
    assert zeros("games paid by debit card", games) == []


def test_a_question_on_a_yes_no_column_links_the_cell_it_means() -> None:
    table = Table.from_rows(
        "t",
        ["Respondent", "Would Recommend"],
        [["R1", "Yes"], ["R2", "No"], ["R3", "Yes"]],
        value_rules="user",
    )

    def strings(question: str) -> list[tuple]:
        return [e.values for e in annotate_question(question, table).entities if e.kind == "string"]

    assert strings("How many respondents would recommend us?") == [("yes",)]
    assert strings("Who would not recommend us?") == [("no",)]
    assert strings("Who cannot recommend us?") == [("no",)]
    assert strings("Who took part?") == []  # the column is not mentioned
    assert strings("Which respondent would be listed first?") == []  # "would" alone does not name it
    # a negation far from the name is not about it
    assert strings("who is not from Denver and would recommend us?") == [("yes",)]
    # the "no" of the name itself is no negation
    shows = Table.from_rows("t", ["Patient", "No Show"], [["P1", "Yes"], ["P2", "No"]], value_rules="user")
    linked = annotate_question("which patients were a no show?", shows).entities
    assert [e.values for e in linked] == [("yes",)]
    result = bind("wtq", table, [("string", ("yes",))]).execute(
        '(filter_str_contain_any all_rows "yes" r.would_recommend-string) (count v0)'
    )
    assert result.ok and result.answer == [2.0]
    # the name with "un" before it is negated: "unpaid" of a `Paid` column
    paid = Table.from_rows("t", ["Invoice", "Paid"], [["A1", "Y"], ["A2", "N"]], value_rules="user")
    assert [e.values for e in annotate_question("how many invoices are unpaid", paid).entities] == [("n",)]
    assert [e.values for e in annotate_question("how many invoices are paid", paid).entities] == [("y",)]
    # a column with other values too is no yes/no column
    other = Table.from_rows("t", ["Recommend"], [["Yes"], ["No"], ["Maybe"]], value_rules="user")
    assert not annotate_question("would they recommend it?", other).entities


def test_a_question_about_wins_links_the_code_of_a_results_column() -> None:
    table = Table.from_rows(
        "t",
        ["Opponent", "Result"],
        [["Ashford", "W"], ["Kingsbridge", "D"], ["Millbrook", "L"], ["Northgate", "W"]],
        value_rules="user",
    )

    def strings(question: str) -> list[tuple]:
        return [e.values for e in annotate_question(question, table).entities if e.kind == "string"]

    assert strings("How many games did we win?") == [("w",)]
    assert strings("how many matches were lost?") == [("l",)]
    assert strings("how many draws were there") == [("d",)]
    assert strings("who did we play?") == []
    result = bind("wtq", table, [("string", ("w",))]).execute(
        '(filter_str_contain_any all_rows "w" r.result-string) (count v0)'
    )
    assert result.ok and result.answer == [2.0]
    # a column with longer cells is no results column, and the WTQ rules keep their own linking
    scores = Table.from_rows("t", ["Result"], [["W 3-1"], ["L 0-2"]], value_rules="user")
    assert not annotate_question("how many did we win?", scores).entities
    wtq = Table.from_rows("t", ["Result"], [["W"], ["L"]])
    assert not annotate_question("how many did we win?", wtq).entities


def test_a_header_symbol_is_a_word_of_the_column_name() -> None:
    rows = [["-1.35", "-2.73%", "3"]]
    user = Table.from_rows("t", ["Change", "% Change", "# Trades"], rows, value_rules="user")
    assert [c.slug for c in user.columns] == ["change", "percent_change", "number_trades"]
    # a header of a symbol alone keeps the plain name: "the number of ..." is no match for it
    assert Table.from_rows("t", ["#", "Name"], [["1", "a"]], value_rules="user").columns[0].slug == "column_1"
    match = annotate_question("which had the lowest % change?", user).column_match
    assert match["r.percent_change-number"] > match["r.change-number"]
    # the WTQ rules keep WTQ's names
    wtq = Table.from_rows("t", ["Change", "% Change", "# Trades"], rows)
    assert [c.slug for c in wtq.columns] == ["change", "change_2", "trades"]


def test_headers_alike_but_for_a_parenthesised_detail_keep_it_in_their_names() -> None:
    header = ["Country", "CPI, annual % (2021)", "CPI, annual % (2022)", "Amount (GBP)"]
    user = Table.from_rows("t", header, [["Chile", "4.52", "11.64", "3"]], value_rules="user")
    # a detail that tells no header from another still goes, as a unit does
    assert [c.slug for c in user.columns] == [
        "country",
        "cpi_annual_percent_2021",
        "cpi_annual_percent_2022",
        "amount",
    ]
    match = annotate_question("which country had the highest inflation (CPI) in 2022?", user).column_match
    assert match["r.cpi_annual_percent_2022-number"] > match["r.cpi_annual_percent_2021-number"]
    wtq = Table.from_rows("t", header, [["Chile", "4.52", "11.64", "3"]])
    assert [c.slug for c in wtq.columns] == ["country", "cpi_annual", "cpi_annual_2", "amount"]


def test_a_month_said_in_full_matches_its_abbreviation_in_a_header() -> None:
    assert _matched_columns(
        "bikes counted in April 2024", ["Site", "Mar 2024", "Apr 2024"], ["a", "1", "2"]
    ) == {
        "r.mar_2024",
        "r.apr_2024",
    }
    table = Table.from_rows("t", ["Site", "Mar 2024", "Apr 2024"], [["a", "1", "2"]], value_rules="user")
    match = annotate_question("bikes counted in April 2024", table).column_match
    assert match["r.apr_2024-number"] > match["r.mar_2024-number"]


def test_day_first_is_decided_per_column() -> None:
    # one cell with a first field over 12 makes the whole column day-first
    assert dates("15/03/2024", "01/02/2024") == (Date(2024, 3, 15), Date(2024, 2, 1))
    assert dates("03/15/2024", "01/02/2024") == (Date(2024, 3, 15), Date(2024, 1, 2))
    # a cell that contradicts its column's order is no date, never read the other way round
    assert dates("15/03/2024", "16/03/2024", "03/17/2024") == (Date(2024, 3, 15), Date(2024, 3, 16), None)
    # dotted dates are day-first, as they are written in Germany
    assert dates("01.02.2024", "03.04.2024") == (Date(2024, 2, 1), Date(2024, 4, 3))


def test_empty_cells_are_missing_in_every_typed_view() -> None:
    views = user_column("1", "", "2024-03-15", "  ")
    for kind in ("number", "date"):
        assert views[kind][1] is None and views[kind][3] is None
    assert views["string"][1] == ""


def test_text_is_not_a_date() -> None:
    assert "date" not in user_column("March of the Penguins", "Mayday", "Marching band", "Sept Sisters")
    assert user_column("Apr", "May", "x")["date"] == (Date(-1, 4, -1), Date(-1, 5, -1), None)  # month names


def test_wtq_rules_are_unchanged() -> None:
    """The official rules' known misreads stay: WTQ data and the models trained on it depend on them."""
    wtq = Table.from_rows("t", ["c"], [["-3.5"], ["2.5M"], ["Mar. 15, 2024"]])
    assert wtq.value_rules == "wtq"
    assert wtq.columns[0].views["number"] == (3.5, 2.5, 0.15)


def test_wtq_tables_use_the_wtq_rules(data_dir: Path) -> None:
    assert load_wtq_table(data_dir / "wtq", "csv/204-csv/590.csv").value_rules == "wtq"


def test_question_numbers_match_the_rules() -> None:
    table = Table.from_rows(
        "t", ["Name", "Growth", "Price"], [["a", "12.5%", "$1,000"], ["b", "3%", "$20"]], value_rules="user"
    )
    found = {e.values for e in annotate_question("who grew more than 12.5% and cost $1,000?", table).entities}
    assert (12.5,) in found and (1000.0,) in found
    wtq = Table.from_rows("t", ["Name", "Growth"], [["a", "12.5%"], ["b", "3%"]])
    assert (12.5,) not in {e.values for e in annotate_question("more than 12.5%?", wtq).entities}


def test_question_magnitudes_written_apart_money_millions_and_minus() -> None:
    """ "1.5 mn" and "2 bn" are the cells' 1.5M and 2bn; "$1.5m" is money, so a million ("10 m" is not);
    "minus 3.5" is -3.5."""
    table = Table.from_rows(
        "t", ["Name", "Revenue", "Change"], [["a", "$1.5m", "-3.5"], ["b", "£2bn", "1.0"]], value_rules="user"
    )

    def numbers_of(question: str) -> set[float]:
        return {
            v for e in annotate_question(question, table).entities if e.kind == "number" for v in e.values
        }

    assert numbers_of("who made over 1.5 mn?") == {1.5e6}
    assert numbers_of("who made 2 bn?") == {2e9}
    assert numbers_of("who made more than $1.5m?") == {1.5e6}
    assert numbers_of("who made more than US$ 75 m?") == {7.5e7}
    assert numbers_of("who ran 10 m?") == {10.0}
    assert numbers_of("which had a change of minus 3.5?") == {-3.5}


def test_a_number_said_in_the_magnitude_a_header_counts_in_compares_with_its_cells() -> None:
    """ "more than 5 million people" of `Population (millions)` is 5, the cells' unit; a bare "(m)" is metres
    and changes nothing; two headers of different magnitudes leave the number as said."""
    from nsmcli.worlds.tables.data.valuerules import header_magnitude

    assert [header_magnitude(h) for h in ("Revenue ($m)", "Sales (in thousands)", "GDP (USD bn)")] == [
        6,
        3,
        9,
    ]
    assert [header_magnitude(h) for h in ("Height (m)", "Area (km²)", "Population, total")] == [None] * 3
    rows = [["Lagos", "15.4", "12"], ["Accra", "2.5", "8"]]

    def numbers_of(question: str, header: list[str]) -> list[tuple]:
        table = Table.from_rows("t", header, rows, value_rules="user")
        return [e.values for e in annotate_question(question, table).entities if e.kind == "number"]

    millions = ["City", "Population (millions)", "Height (m)"]
    assert numbers_of("which cities have more than 5 million people?", millions) == [(5.0,)]
    assert numbers_of("which cities have more than 5 people?", millions) == [(5.0,)]
    assert numbers_of("which cities have over 2.5 million people?", ["City", "Population", "Height"]) == [
        (2.5e6,)
    ]
    mixed = ["City", "Population (millions)", "Budget ($bn)"]
    assert numbers_of("which cities have more than 5 million people?", mixed) == [(5e6,)]


def test_question_dates_and_negatives_compare_with_cells() -> None:
    table = Table.from_rows(
        "t", ["Day", "Change"], [["March 1, 2024", "-3.5"], ["March 2, 2024", "1.2"]], value_rules="user"
    )
    question = annotate_question("what was the change on march 1, 2024 when it fell -3.5?", table)
    entities = {(e.kind, e.values) for e in question.entities}
    assert ("date", (Date(2024, 3, 1),)) in entities and ("number", (-3.5,)) in entities
    marked = [t for t, flag in zip(question.tokens, question.in_table, strict=True) if flag]
    assert "march" in marked and "-3.5" in marked


def test_unknown_rules() -> None:
    assert set(RULES) == {"wtq", "user"}
    with pytest.raises(DataError, match="unknown value rules"):
        get_rules("excel")


def test_amounts_that_are_not_what_they_seem() -> None:
    # a parenthesised note before more text is no accounting negative; "140P/Halley" is the WTQ reading;
    # spaces between digit groups join them as the WTQ rules do; magnitudes are exact in decimal
    assert numbers("(131) 44.75", "140P/Halley", "162 989", "£4.1 billion") == (131.0, 140.0, 162989.0, 4.1e9)
    assert user_column("August 8-10", "August 11-13")["date"] == (Date(-1, 8, -1),) * 2  # a range of days


def test_version_numbers_are_not_dates() -> None:
    assert "date" not in user_column("3.10.12", "2.7.18", "1.0.0")


def test_identifiers_are_not_years() -> None:
    """Order 1013 is not the year 1013: a column whose header names an identifier has no date view, under
    the user rules only (the WTQ rules give every four-digit number a year)."""
    rows = [["1001", "2019"], [" 1013", "2020"], ["N/A", "2021"]]
    for header in ("Order ID", "Invoice No.", "order_id", "SKU", "Ticket #", "Ext", "Customer ID"):
        table = Table.from_rows("t", [header, "Season"], rows, value_rules="user")
        assert "date" not in table.columns[0].views, header
        # nor an amount, where the header ends naming the identifier and no two rows share one
        assert "number" not in table.columns[0].views, header
        assert table.columns[1].views["date"] == (Date(2019, -1, -1), Date(2020, -1, -1), Date(2021, -1, -1))
    for header in ("Zip", "ID Group"):  # an identifier's word elsewhere in the header keeps the numbers
        table = Table.from_rows("t", [header, "Season"], rows, value_rules="user")
        assert "date" not in table.columns[0].views, header
        assert table.columns[0].views["number"] == (1001.0, 1013.0, None), header
    shared = Table.from_rows("t", ["Order ID"], [["1001"], ["1001"]], value_rules="user")
    assert shared.columns[0].views["number"] == (1001.0, 1001.0)
    # counts under a "#" header vary in width; placeholders beside order numbers do not make them amounts
    counted = Table.from_rows("t", ["Attendees #"], [["12"], ["30"], ["7"]], value_rules="user")
    assert counted.columns[0].views["number"] == (12.0, 30.0, 7.0)
    numbered = Table.from_rows("t", ["Payment No."], [["9"], ["10"], ["11"]], value_rules="user")
    assert "number" not in numbered.columns[0].views  # rows numbered one by one
    pending = Table.from_rows("t", ["Order #"], [["1001"], ["1002"], ["TBD"], ["TBD"]], value_rules="user")
    assert "number" not in pending.columns[0].views
    # codes under a number's abbreviation or a reference are not amounts either (FT-2024-005 is not 2024)
    for header in ("N. Documento", "N° facture", "Référence"):
        coded = Table.from_rows("t", [header], [["FT-2024-005"], ["FT-2024-013"]], value_rules="user")
        assert sorted(coded.columns[0].views) == ["string"], header
    for header in ("No. of Employees", "Number of Guests", "N", "Nation"):  # counts, not identifiers
        assert "number" in Table.from_rows("t", [header], [["5"], ["7"]], value_rules="user").columns[0].views
    for header in ("Year", "Founded", "Opened", "Note"):
        table = Table.from_rows("t", [header], [["1001"]], value_rules="user")
        assert table.columns[0].views["date"] == (Date(1001, -1, -1),), header
    dated = Table.from_rows("t", ["Ref date"], [["2024-03-15"], ["2024-03-16"]], value_rules="user")
    assert dated.columns[0].views["date"] == (Date(2024, 3, 15), Date(2024, 3, 16))
    wtq = Table.from_rows("t", ["Order ID"], [["1001"]])
    assert wtq.columns[0].views["date"] == (Date(1001, -1, -1),)


def test_codes_in_an_identifier_column_are_not_amounts() -> None:
    """`D-2401` of a `Delivery ID` column is a code: no number view, so no program sums or compares it, even
    where two rows share one."""
    rows = [["D-2401", "R10418", "3"], ["D-2402", "R10418", "4"]]
    table = Table.from_rows("t", ["Delivery ID", "Rental ID", "Packages"], rows, value_rules="user")
    assert [sorted(c.views) for c in table.columns[:2]] == [["string"], ["string"]]
    assert table.columns[2].views["number"] == (3.0, 4.0)
    # amounts with a unit or suffix are no codes: "No. of Employees" of 10k, 25k still counts
    counts = Table.from_rows("t", ["No. of Employees"], [["10k"], ["25k"], ["5k"]], value_rules="user")
    assert counts.columns[0].views["number"] == (10000.0, 25000.0, 5000.0)
    # not an identifier's name: "Unit 5" may be a quantity a question compares
    assert Table.from_rows("t", ["Unit"], [["Unit 5"]], value_rules="user").columns[0].views["number"] == (
        5.0,
    )
    assert Table.from_rows("t", ["Delivery ID"], [["D-2401"]]).columns[0].views["number"] == (2401.0,)  # WTQ
    # a code with a letter after its digits (a refund's `SK-2510R`) is a code too, so the column stays codes
    lessons = Table.from_rows(
        "t", ["Lesson Ref"], [["SK-2510"], ["SK-2510R"], ["SK-2511"]], value_rules="user"
    )
    assert sorted(lessons.columns[0].views) == ["string"]
    # digit groups joined by a hyphen are an article's number, not 100 and 2041 (as a score's 3-1 would be)
    articles = Table.from_rows(
        "t", ["Artikel-Nr.", "Bestand"], [["100-2041", "980"], ["900-0120", "12"]], value_rules="user"
    )
    assert sorted(articles.columns[0].views) == ["string"]
    assert articles.columns[1].views["number"] == (980.0, 12.0)
    # where the header does not end naming an identifier, they may be ranges: 2-4 players
    players = Table.from_rows("t", ["Number of players"], [["2-4"], ["1-10"], ["3-5"]], value_rules="user")
    assert players.columns[0].views["number"] == (2.0, 1.0, 3.0)


def test_a_mostly_blank_column_of_numbers_is_still_numbers() -> None:
    """Blank cells are missing values: `Snowfall` blank on 49 of 60 days still has a number view, while free
    notes that mention a number now and then do not."""
    snow = ["5.0", "2.7", "0.3", ""] + [""] * 10
    notes = [
        "felt strong",
        "6 x 800m",
        "",
        "windy",
        "gel at mile 7",
        "",
        "sore calves",
        "hilly",
        "",
        "",
        "",
        "",
    ]
    assert user_column(*snow)["number"][:4] == (5.0, 2.7, 0.3, None)
    assert "number" not in user_column(*notes)
    assert "number" not in user_column("", "", "")
    assert "number" not in user_column("see row 4", *[""] * 9)  # one filled cell is no column of numbers


def test_scientific_notation_is_read_and_overflow_is_no_number() -> None:
    from nsmcli.worlds.tables.data.table import Table

    table = Table.from_rows("t", ["a"], [["1e308"], ["-1e308"], ["2.5E-3"], ["1e999"]], value_rules="user")
    assert table.columns[0].views["number"] == (1e308, -1e308, 0.0025, None)
    # an exponent inside a code is none: an episode `S3E22` is no 3 x 10^22
    episodes = Table.from_rows("t", ["Episode"], [["S3E01"], ["S3E22"]], value_rules="user")
    assert "number" not in episodes.columns[0].views
    assert Table.from_rows("t", ["Ep"], [["Episode 5 (S1E5)"]], value_rules="user").columns[0].views[
        "number"
    ] == (5.0,)


def test_cells_of_long_whitespace_runs_are_read_at_once_and_are_not_numbers() -> None:
    """Found by fuzzing: the number pattern split a run of spaces between its optional pieces in n^4 ways,
    so a cell of 3,000 spaces (or of a currency sign and spaces) never finished loading."""
    cells = (" " * 3000, "\x1c" * 3000, "$" + " " * 3000 + "x", "( - " + "\u3000" * 3000)
    assert "number" not in user_column(*cells)
    assert numbers(" " * 3000 + "5" + " " * 3000) == (5.0,)


def test_a_question_reads_numbers_and_dates_as_the_table_writes_them() -> None:
    us = Table.from_rows("t", ["Name", "Total", "Date"], [["a", "1,200", "03/15/2024"]], value_rules="user")
    eu = Table.from_rows(
        "t", ["Name", "Total", "Date"], [["a", "1.200,50", "15/03/2024"]], value_rules="user"
    )

    def values(question: str, table: Table) -> list[tuple]:
        return [e.values for e in annotate_question(question, table).entities if e.kind != "string"]

    for table in (us, eu):
        assert values("which had more than 18k fans?", table) == [(18000.0,)]
        assert values("over 1.5M people?", table) == [(1500000.0,)]
        assert values("orders placed on 15/03/2024", table) == [(Date(2024, 3, 15),)]
    # a date whose fields could be either reads as the table's dates do
    assert values("placed on 03/04/2024", us) == [(Date(2024, 3, 4),)]
    assert values("placed on 03/04/2024", eu) == [(Date(2024, 4, 3),)]
    assert values("at least 1,5k", eu) == [(1500.0,)]
    assert values("changes below -5k", us) == [(-5000.0,)]
    assert values("who lives in room 2B", us) == []  # a question's "2B" is no billion
    # an ISO column does not outvote a day-first column
    mixed = Table.from_rows(
        "t",
        ["Order", "Date", "Shipped"],
        [
            ["a", "15/03/2024", "2024-03-16"],
            ["b", "05/03/2024", "2024-03-06"],
            ["c", "20/03/2024", "2024-03-21"],
        ],
        value_rules="user",
    )
    assert values("placed on 05/03/2024", mixed) == [(Date(2024, 3, 5),)]
    # the WTQ rules read questions as WTQ's own data were read
    wtq = Table.from_rows("t", ["Name", "Total"], [["a", "1,200"]])
    assert values("which had more than 18k fans?", wtq) == []


def test_digits_join_across_a_space_only_as_thousands() -> None:
    assert numbers("1 234", "56 789", "12 345 678") == (1234.0, 56789.0, 12345678.0)
    # French and Nordic exports: spaces group thousands and a comma marks decimals, decided per column
    assert numbers("€ 1 234,56", "€ 2 000,00", "€ 15,50") == (1234.56, 2000.0, 15.5)
    assert numbers("1 234,5 kr", "12 000 kr", "999 kr") == (1234.5, 12000.0, 999.0)
    # a quarter and its year are two numbers, not 12024
    assert numbers("Q1 2024", "Q2 2024") == (1.0, 2.0)
    assert user_column("Q1 2024", "Q2 2024")["num2"] == (2024.0, 2024.0)
    # the WTQ rules keep WTQ's reading
    wtq = Table.from_rows("t", ["Quarter"], [["Q1 2024"]])
    assert wtq.columns[0].views["number"] == (12024.0,)


def test_abbreviated_and_plural_header_words_match_the_question() -> None:
    table = Table.from_rows(
        "t", ["Store", "Avg. Basket", "Qty", "Customer"], [["a", "1", "2", "x"]], value_rules="user"
    )
    match = annotate_question("which store had the larger average basket?", table).column_match
    assert match["r.avg_basket-number"] == 2.0
    assert annotate_question("what quantity", table).column_match["r.qty-number"] == 1.0
    assert annotate_question("which customers", table).column_match["r.customer-string"] == 1.0
    assert "r.qty-number" not in annotate_question("who has no store", table).column_match
    # an abbreviation the question names as a cell is the cell: the team STL is no steals
    box = Table.from_rows(
        "t", ["Opponent", "STL", "PTS"], [["STL", "3", "101"], ["CHI", "5", "99"]], value_rules="user"
    )
    assert "r.stl-number" not in annotate_question("points in games against STL", box).column_match
    assert (
        "r.stl-number"
        in annotate_question(
            "most stl in a game",
            Table.from_rows("t", ["Opponent", "STL"], [["CHI", "3"]], value_rules="user"),
        ).column_match
    )
    assert "r.precip" in _matched_columns(
        "which day had the most precipitation?", ["Day", "Precip (in)"], ["a", "1"]
    )
    # a box score's `+/-` is the plus-minus, however the question writes it
    for question in ("who had the worst plus/minus", "best +/-", "her plus minus"):
        assert "r.plus_minus" in _matched_columns(question, ["Player", "PTS", "+/-"], ["a", "1", "-3"])
    # a word in -ies or -ied meets its header in -y or -ie: "calories" / `Calorie`, "qualify" / `Qualified`
    assert "r.calorie" in _matched_columns("the lowest calories", ["Food", "Calorie"], ["a", "1"])
    assert "r.qualified" in _matched_columns("who will qualify", ["Name", "Qualified"], ["a", "x"])
    # but "special" is no "species", and a date's or a fraction's numbers are no words
    assert "r.species" not in _matched_columns(
        "special needs?", ["Name", "Species", "Special Needs"], ["a", "b", "c"]
    )
    assert _matched_columns("what sold on 03/15?", ["Item", "Week 15"], ["a", "1"]) == set()
    # WTQ's rules match equal words only, as its data were made
    wtq = Table.from_rows("t", ["Store", "Avg. Basket"], [["a", "1"]])
    assert annotate_question("the larger average basket?", wtq).column_match["r.avg_basket-number"] == 1.0


def test_a_league_tables_codes_match_the_words_a_question_names_them_by() -> None:
    header = ["Team", "GP", "W", "L", "OTL", "PTS", "GF", "GA"]
    row = ["Ashby Hornets", "30", "18", "8", "4", "40", "101", "85"]
    table = Table.from_rows("t", header, [row], value_rules="user")

    def best(question: str) -> set[str]:
        match = {
            n: s for n, s in annotate_question(question, table).column_match.items() if n.endswith("-number")
        }
        top = max(match.values())
        return {n.rsplit("-", 1)[0] for n, s in match.items() if s == top}

    assert best("which team allowed the fewest goals") == {"r.ga"}
    assert best("who has given up the most goals?") == {"r.ga"}
    assert best("average goals scored per team") == {"r.gf"}
    assert best("most overtime losses") == {"r.otl"}
    assert best("how many games has the Ashby Hornets played") == {"r.gp"}
    assert "r.w" in _matched_columns("which team won the most", header, row)
    assert "r.l" in _matched_columns("how many games did they lose", header, row)
    # a football table's draws; a lone `W` is no win, a box's `W`, `L`, `H` no results, a box score's `PF` are
    # personal fouls and `GA` may be Georgia
    assert "r.d" in _matched_columns(
        "which club drew the most", ["Club", "P", "W", "D", "L"], ["a", "3", "2", "1", "0"]
    )
    assert "r.w" not in _matched_columns("which shape won", ["Shape", "W", "H"], ["a", "3", "4"])
    assert "r.d" not in _matched_columns(
        "which box is drawn", ["Box", "W", "L", "H", "D"], ["a", "1", "2", "3", "4"]
    )
    assert "r.pf" not in _matched_columns(
        "who scored the most points", ["Player", "PTS", "PF"], ["a", "20", "3"]
    )
    assert "r.ga" not in _matched_columns(
        "how many votes were given in 2001", ["Year", "GA", "FL"], ["2001", "3", "4"]
    )
    assert RULES["user"].header_words.word("losses") == "loss"
    # a header of a stop word alone is still its word ("won" is one, for "won't"), but no word of comparing
    assert "r.won" in _matched_columns(
        "which team won the most games", ["Team", "Played", "Won", "Lost"], ["a", "3", "2", "1"]
    )
    assert "r.over" not in _matched_columns("who bowled over 100 balls", ["Bowler", "Over"], ["a", "3"])


def test_an_acronym_header_matches_the_words_whose_initials_it_is() -> None:
    header = ["Player", "Inn", "Runs", "HS", "Avg", "SR"]
    row = ["Tom Hadley", "12", "642", "112*", "58.36", "91.2"]
    assert "r.sr" in _matched_columns("average strike rate of the club", header, row)
    assert "r.hs" in _matched_columns("what is Tom Hadley's highest score?", header, row)
    assert "r.inn" in _matched_columns("players with 10 or more innings", header, row)
    assert "r.rbi" in _matched_columns("most runs batted in", ["Player", "RBI"], ["a", "1"])
    # stop words spell no acronym ("of a" is no `OA`), nor do words of a header written in words
    assert "r.oa" not in _matched_columns("which of a kind", ["Name", "OA"], ["a", "1"])
    assert "r.sr" not in _matched_columns("strike rate", ["Name", "Sr"], ["a", "1"])
    # nor words that name another column, an identifier's or a currency's code
    invoices = ["ID", "Invoice Date", "Item", "Description", "EUR"]
    cells = ["7", "2024-01-02", "pen", "blue", "1.5"]
    assert "r.id" not in _matched_columns("the latest invoice date", invoices, cells)
    assert "r.id" not in _matched_columns("which item description is longest", invoices, cells)
    assert "r.eur" not in _matched_columns("every user reviewed", invoices, cells)
    # "home runs" is `HR` beside a `Runs` column; two letters count once ("unit sales" beside a named `UK`)
    batting = ["Player", "Runs", "HR"]
    assert "r.hr" in _matched_columns("who hit the most home runs", batting, ["a", "1", "2"])
    markets = Table.from_rows("t", ["Product", "US", "UK"], [["a", "1", "2"]], value_rules="user")
    match = annotate_question("which product had the most unit sales in the uk", markets).column_match
    assert match["r.uk-number"] >= match["r.us-number"]
    # WTQ tables keep their exact matches
    wtq = Table.from_rows("t", header, [row])
    assert "r.sr-number" not in annotate_question("average strike rate", wtq).column_match


def test_a_german_french_or_spanish_header_matches_the_english_words_of_its_parts() -> None:
    header = ["Klasse", "Datum", "Schüler gesamt", "Abwesend", "Anwesenheitsquote"]
    row = ["7b", "18.03.2024", "28", "2", "92,9 %"]
    assert "r.anwesenheitsquote" in _matched_columns("7b's attendance rate on 18.03.2024", header, row)
    assert "r.schuler_gesamt" in _matched_columns("how many pupils in total", header, row)
    assert "r.abwesend" in _matched_columns("how many were absent", header, row)
    assert _matched_columns("the latest date", header, row) >= {"r.datum"}
    assert "r.montant" in _matched_columns("the largest amount", ["Client", "Montant"], ["a", "1"])
    assert "r.fecha" in _matched_columns("the first date", ["Fecha", "Importe"], ["2024-01-02", "1"])
    # a compound's first part modifies it: `Umsatzsteuer` beside `Umsatz` is a tax, not the revenue
    tax = ["Monat", "Umsatz", "Umsatzsteuer"]
    assert _matched_columns("the month with the highest revenue", tax, ["Jan", "1", "2"]) == {
        "r.monat",
        "r.umsatz",
    }
    assert "r.umsatzsteuer" in _matched_columns("the highest tax", tax, ["Jan", "1", "2"])
    # an English header reads as before, one that ends as a foreign word too
    assert _matched_columns("who has the most runs", ["Player", "Runs"], ["a", "1"]) == {"r.runs"}
    english = ["Driver", "Grand Prix", "Quote", "Year of Manufacture"]
    assert _matched_columns("how many invoices at the lowest price", english, ["a", "b", "1", "2"]) == set()
    assert _matched_columns("exchange rate", english, ["a", "b", "1", "2"]) == set()
    wtq = Table.from_rows("t", header, [row])
    assert "r.anwesenheitsquote-number" not in annotate_question("attendance rate", wtq).column_match


def _matched_columns(question: str, header: list[str], row: list[str]) -> set[str]:
    """The columns (`r.slug`) a question matches in a one-row user table."""
    table = Table.from_rows("t", header, [row], value_rules="user")
    return {name.rsplit("-", 1)[0] for name in annotate_question(question, table).column_match}


def test_a_question_word_matches_the_header_of_what_it_measures() -> None:
    table = Table.from_rows(
        "t",
        ["Sample", "Age", "Mass (g)", "High (°F)", "Annual Growth", "Unit Price"],
        [["a", "1", "2", "3", "4%", "5"]],
        value_rules="user",
    )

    def matched(question: str) -> set[str]:
        return set(annotate_question(question, table).column_match)

    assert "r.age-number" in matched("who is the oldest?")
    assert "r.ref" in _matched_columns(
        "the reference of the deepest pothole", ["Ref", "Street"], ["PH-1", "a"]
    )
    assert "r.mass-number" in matched("which sample is the heaviest?")
    assert "r.mass-number" in matched("how much does it weigh?")
    assert "r.high-number" in matched("what was the hottest day?")
    assert "r.annual_growth-number" in matched("which city is growing fastest?")
    assert "r.unit_price-number" in matched("what is the most expensive product?")
    # a verb meets the noun made of it
    timetable = (["Train", "Departure", "Arrival", "Attendance"], ["a", "1", "2", "3"])
    assert _matched_columns("when does it arrive?", *timetable) == {"r.arrival"}
    assert _matched_columns("which departs first?", *timetable) == {"r.departure"}
    assert _matched_columns("how many attended?", *timetable) == {"r.attendance"}
    # a person is no verb, a verb has no degrees, and a measure names no column of text
    people = (
        ["Seller", "Player", "Cost Center", "Amount", "Region", "Life"],
        ["a", "b", "c", "1", "north", "2"],
    )
    assert _matched_columns("how many units did we sell?", *people) == set()
    assert _matched_columns("how many games were played?", *people) == set()
    assert "r.cost_center" not in _matched_columns("how many cents was the pen?", *people)
    assert _matched_columns("who has the liver?", *people) == set()
    assert "r.life" in _matched_columns("where do people live longest?", *people)
    text_measure = Table.from_rows("t", ["Team", "Size"], [["a", "big"]], value_rules="user")
    assert not annotate_question("which team is the biggest?", text_measure).column_match.keys() - {
        "r.team-string"
    }
    # words that measure nothing leave the columns unmatched, and a word is not read as a superlative
    # of another ("newest" is no "new" of `ATTRIBUTES`; "latest" is no "lat")
    assert matched("which sample came latest?") == {"r.sample-string"}
    # WTQ's rules match equal words only
    wtq = Table.from_rows("t", ["Name", "Age"], [["a", "1"]])
    assert "r.age-number" not in annotate_question("who is the oldest?", wtq).column_match


def test_a_missing_marker_in_a_column_of_numbers_is_a_blank() -> None:
    """A statistics office's `..` (and `…`) says the value is missing, as a blank cell does, so that "how many
    countries have no figure?" counts them; a lone dash, which accounts write for zero, stays, and so does
    `n/a`, which a user may name."""
    table = Table.from_rows(
        "t",
        ["Country", "5G coverage"],
        [["A", "85.0"], ["B", ".."], ["C", "n/a"], ["D", "-"], ["E", "40.5"], ["F", "…"]],
        value_rules="user",
    )
    column = table.columns[1]
    assert column.views["string"] == ("85.0", "", "n/a", "-", "40.5", "")
    assert column.views["number"][:3] == (85.0, None, None)
    assert ("string", ("",)) in [
        (e.kind, e.values)
        for e in annotate_question("How many countries have no 5G coverage figure?", table).entities
    ]
    # WTQ's rules read the cells as they always have
    wtq = Table.from_rows("t", ["Country", "Score"], [["A", "1"], ["B", ".."], ["C", "3"]])
    assert wtq.columns[1].views["string"][1] != ""


def test_a_signed_quantity_keeps_its_unit() -> None:
    """A delay of `-6 min` (early) or `+17 min` (late) is minutes, so that "30 minutes or more behind
    schedule" is 30 of them; a sign before compound parts is the whole quantity's."""
    table = Table.from_rows(
        "t",
        ["Flight", "Delay"],
        [["BA1", "-6 min"], ["EZ8", "+17 min"], ["LH4", "+1h 20m"]],
        value_rules="user",
    )
    assert table.quantity_unit(table.columns[1]).name == "minute"
    assert table.columns[1].views["number"] == (-6.0, 17.0, 80.0)
    glued = Table.from_rows(
        "t", ["Flight", "Delay"], [["BA1", "-6min"], ["EZ8", "+17min"]], value_rules="user"
    )
    assert glued.columns[1].views["number"] == (-6.0, 17.0)
    entities = annotate_question("how many flights were 30 minutes or more late?", table).entities
    assert ("number", (30.0,)) in [(e.kind, e.values) for e in entities]


def test_zero_padded_codes_number_rows_unless_the_header_names_a_period() -> None:
    """A table-tennis draw's `M01`..`M16` were the numbers 1..16, and "which match lasted the longest" took the
    last match; two digits padded with a zero number rows as three digits do, but a week's `W03` is week 3."""

    def views(header: str, *cells: str) -> dict[str, tuple]:
        return Table.from_rows("t", [header], [[c] for c in cells], value_rules="user").columns[0].views

    assert "number" not in views("Match", "M01", "M02", "M10", "M16")
    assert "number" not in views("Site", "TC-06", "TC-11", "TC-16")
    assert views("Week", "W01", "W02", "W10")["number"] == (1.0, 2.0, 10.0)
    assert views("Match", "M1", "M2", "M10")["number"] == (1.0, 2.0, 10.0)  # unpadded: an order of its own


def test_the_balance_after_a_transaction_is_that_rows_running_balance() -> None:
    ledger = Table.from_rows(
        "t",
        ["Date", "Description", "Amount", "Balance"],
        [["2024-05-01", "Gym", "-40.00", "960.00"], ["2024-05-02", "Salary", "2000.00", "2960.00"]],
        value_rules="user",
    )
    # "after" reads as the next row (`next`): the model reads "at", which the row's own balance is
    assert annotate_question("what was the balance after the gym payment?", ledger).tokens[4] == "at"
    # elsewhere "after" keeps its word
    assert "after" in annotate_question("what came after the gym payment?", ledger).tokens
    assert "after" in annotate_question("the balance after 2015", ledger).tokens  # a bound
    plain = Table.from_rows("t", ["Item", "Total"], [["a", "1"]], value_rules="user")
    assert "after" in annotate_question("the balance after item a", plain).tokens
