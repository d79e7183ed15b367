"""Question annotation: tokens, trigger tags, entities, features and canonical answers."""

from __future__ import annotations

import csv
import math

import pytest

from nsmcli.worlds.tables.data.annotate import (
    AnnotatedQuestion,
    annotate_question,
    canonicalize_answer,
    pos_tags,
    tokenize,
)
from nsmcli.worlds.tables.data.table import Table
from nsmcli.worlds.tables.data.values import Date


@pytest.fixture()
def table() -> Table:
    return Table.from_rows(
        "t_test",
        ["Year", "Team Name", "Points", "Date"],
        [
            ["1990", "Grand Blanc High School", "12", "January 26, 1995"],
            ["1991", "Piotr's Eagles", "7", "May 3, 1996"],
            ["1992", "Kaminario K2", "30", "June 1, 1997"],
        ],
    )


def test_tokenize_splits_clitics_and_punctuation() -> None:
    assert tokenize("Didn't Piotr's team win?") == ["did", "n't", "piotr", "'s", "team", "win", "?"]


def test_pos_tags_mark_comparatives_and_superlatives() -> None:
    tags = pos_tags(tokenize("which team had the most points, the biggest or an earlier win, more or less?"))
    words = tokenize("which team had the most points, the biggest or an earlier win, more or less?")
    tagged = dict(zip(words, tags, strict=True))
    assert tagged["most"] == "JJS"
    assert tagged["biggest"] == "JJS"
    assert tagged["earlier"] == "JJR"
    assert tagged["more"] == "JJR"
    assert tagged["less"] == "JJR"
    assert tagged["team"] not in ("JJR", "JJS", "RBR", "RBS")
    assert pos_tags(["most", "quickly"])[0] == "RBS"


def test_string_entities_expand_and_skip_stop_words(table: Table) -> None:
    q = annotate_question("how long did grand blanc high school play for?", table)
    strings = [e for e in q.entities if e.kind == "string"]
    assert [(e.values, e.start, e.end) for e in strings] == [(("grand blanc high school",), 3, 7)]
    assert q.in_table == [0, 0, 0, 1, 1, 1, 1, 0, 0, 0]


def test_no_duplicate_entities(table: Table) -> None:
    q = annotate_question("eagles or eagles in 1990 and 1990?", table)
    keys = [(e.kind, e.values) for e in q.entities]
    # a numeral found in a cell is also a string entity, as in MAPO
    assert keys == [("string", ("eagles",)), ("string", ("1990",)), ("date", (Date(1990, -1, -1),))]


def test_number_and_date_entities_and_in_table(table: Table) -> None:
    q = annotate_question("which team scored 12 points before january 26, 1995 or more than 40?", table)
    kinds = [(e.kind, e.values, e.start, e.end) for e in q.entities if e.kind != "string"]
    assert kinds == [
        ("number", (12.0,), 3, 4),
        ("date", (Date(1995, 1, 26),), 6, 10),
        ("number", (40.0,), 13, 14),
    ]
    assert q.in_table[3] == 1  # 12 is a cell number (MAPO's always-false check, fixed)
    assert q.in_table[6:10] == [1, 1, 1, 1]
    assert q.in_table[13] == 0


def test_ordinals_only_on_request(table: Table) -> None:
    assert [e for e in annotate_question("the first team", table).entities if e.kind == "number"] == []
    q = annotate_question("the first team", table, ordinals=True)
    assert [(e.kind, e.values) for e in q.entities if e.kind == "number"] == [("number", (1.0,))]


def test_column_match_counts_slug_pieces(table: Table) -> None:
    q = annotate_question("what team name has the most points?", table)
    assert q.column_match["r.team_name-string"] == 2.0
    assert q.column_match["r.points-number"] == 1.0
    assert "r.year-number" not in q.column_match  # non-matching properties are omitted


def test_json_round_trip(table: Table) -> None:
    q = annotate_question(
        "who won on january 26, 1995 with 12 points?", table, qid="nt-1", answer=["17 years"]
    )
    d = q.to_json()
    assert d["answer_canon"] == ["17.0"]
    assert {"kind": "date", "values": ["1995-01-26"], "start": 3, "end": 7} in d["entities"]
    back = AnnotatedQuestion.from_json(d)
    assert back == q


@pytest.mark.parametrize(
    ("answer", "canon"),
    [
        ("17 years", "17.0"),
        ("100,000", "100000.0"),
        ("$535", "535.0"),
        ("45.7%", "45.7"),
        ("2nd", "2.0"),
        ("4.0 million", "4000000.0"),
        ("12.21 (+0.7)", "12.21"),
        ("2013", "2013.0"),
        ("January 26, 1995", "1995-01-26"),
        ("27 September", "xxxx-09-27"),
        ("December 1985", "1985-12-xx"),
        ("October", "xxxx-10-xx"),
        ("01/16/2014", "2014-01-16"),
        ("Iron Man 3", "Iron Man 3"),
        ("1st match", "1st match"),
        ("2007/08", "2007/08"),
        ("1:46", "1:46"),
        ("four", "four"),
        ("Che Fu", "Che Fu"),
    ],
)
def test_canonicalize_answer(answer: str, canon: str) -> None:
    assert canonicalize_answer(answer) == canon


def _split(text: str) -> list[str]:
    return [x.replace("\\n", "\n").replace("\\p", "|").replace("\\\\", "\\") for x in text.split("|")]


def _same(gold: str, mine: str) -> bool:
    try:
        return abs(float(gold) - float(mine)) < 1e-6
    except ValueError:
        g, m = Date.parse(gold), Date.parse(mine)
        return (g == m) if g is not None or m is not None else gold == mine


def test_agreement_with_tagged_questions(data_dir) -> None:
    """The first 300 official tagged questions: canonical answers and tokens agree with CoreNLP."""
    path = data_dir / "wtq" / "tagged" / "data" / "pristine-seen-tables.tagged"
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))[:300]
    canon_ok = tokens_ok = 0
    for row in rows:
        pairs = zip(_split(row["targetValue"]), _split(row["targetCanon"]), strict=False)
        canon_ok += all(_same(gold, canonicalize_answer(value)) for value, gold in pairs)
        gold_tokens = [t.replace("\\/", "/") for t in _split(row["tokens"])]
        tokens_ok += tokenize(row["utterance"]) == gold_tokens
    assert canon_ok / len(rows) >= 0.98
    assert tokens_ok / len(rows) >= 0.93


def test_a_numeral_beyond_float_range_is_no_number_entity(table: Table) -> None:
    """400 nines overflow to infinity: no cell can equal it and strict JSON cannot carry it."""
    q = annotate_question(f"which team scored more than {'9' * 400} points in 12 games?", table)
    numbers = [e.values[0] for e in q.entities if e.kind == "number"]
    assert numbers and all(math.isfinite(v) for v in numbers)


@pytest.fixture()
def medals() -> Table:
    return Table.from_rows(
        "t_medals",
        ["Nation", "Gold", "Date", "Venue", "Score"],
        [
            ["Germany", "3", "April 10, 2005", "St. Louis", "3–1"],
            ["Kenya", "2", "April 19, 2005", "O'Neal Arena", "1,000"],
            ["Côte d'Ivoire", "1", "May 1, 2006", "Mötley Crüe Hall", "2.5"],
            ["Czech Republic", "0", "June 7, 2006", "East-West Stadium", "7"],
        ],
    )


def _strings(question: str, table: Table, linking: str = "word") -> list[tuple[str, int, int]]:
    q = annotate_question(question, table, linking=linking)
    return [(e.values[0], e.start, e.end) for e in q.entities if e.kind == "string"]


def test_word_linking_needs_whole_words(medals: Table) -> None:
    assert _strings("how many medals did germany win", medals) == [("germany", 4, 5)]
    q = annotate_question("how many medals did germany win", medals)
    assert q.in_table == [0, 0, 0, 0, 1, 0]
    # MAPO's substring linking, kept for reproduction, finds "many" inside "germany"
    assert _strings("how many medals did germany win", medals, "substring") == [
        ("many", 1, 2),
        ("germany", 4, 5),
    ]


def test_either_or_of_two_cells_is_one_entity_of_both(medals: Table) -> None:
    """ "germany or kenya" is also one string entity of both values over their span, so one filter keeps
    both rows; each side stays an entity of its own, and the "or" is not marked as in the table."""
    from nsmcli.worlds.tables.lang.interpreter import bind

    question = "which nation won more gold, germany or kenya?"
    q = annotate_question(question, medals)
    pairs = [(e.values, e.start, e.end) for e in q.entities if len(e.values) > 1]
    assert pairs == [(("germany", "kenya"), 6, 9)]
    assert _strings(question, medals) == [("germany", 6, 7), ("germany", 6, 9), ("kenya", 8, 9)]
    assert q.in_table[6:9] == [1, 0, 1]
    env = bind("wtq", medals, q.entities)
    program = (
        '(filter_str_contain_any all_rows ["germany" "kenya"] r.nation-string) (argmax v0 r.gold-number)'
    )
    assert env.execute(program + " (hop v1 r.nation-string)").answer == ["germany"]
    assert len(annotate_question("germany, or kenya: which won less gold?", medals).entities) == 3
    # a word that is no cell leaves no pair; nor does MAPO's substring linking, reproduced as it was
    assert not any(len(e.values) > 1 for e in annotate_question("germany or spain?", medals).entities)
    assert not any(
        len(e.values) > 1 for e in annotate_question(question, medals, linking="substring").entities
    )


def test_a_possessive_name_links_whole_and_an_article_may_follow_the_or() -> None:
    """The tokenizer splits "Margie's" into "margie" and "'s": the cell still links as one entity, and
    "the X or the Y" pairs X and Y."""
    table = Table.from_rows(
        "t", ["Company", "Close"], [["Margie's Travel", "5"], ["Fabrikam Inc.", "7"], ["Stud Finder", "2"]]
    )
    q = annotate_question("which closed higher, the stud finder or margie's travel?", table)
    assert [e.values for e in q.entities if e.kind == "string"] == [
        ("stud finder",),
        ("stud finder", "margie's travel"),
        ("margie's travel",),
    ]
    # on a user's table a noun may follow the first name: "the stud finder job or the fabrikam one"
    question = "which closed higher, the stud finder job or the fabrikam one?"
    user = Table.from_rows(
        "t", ["Company", "Close"], [["Stud Finder", "2"], ["Fabrikam", "7"]], value_rules="user"
    )
    assert ("stud finder", "fabrikam") in [e.values for e in annotate_question(question, user).entities]
    wtq = Table.from_rows("t", ["Company", "Close"], [["Stud Finder", "2"], ["Fabrikam", "7"]])
    assert ("stud finder", "fabrikam") not in [e.values for e in annotate_question(question, wtq).entities]


def test_word_linking_does_not_stretch_a_number_into_a_longer_one(medals: Table) -> None:
    # only April 10 and 19 are in the table: "april 1" is not, "april 19" is
    assert _strings("what happened on april 1", medals)[0] == ("april", 3, 4)
    assert _strings("what happened on april 19", medals) == [("april 19", 3, 5)]
    assert _strings("what happened on april 1", medals, "substring") == [("april 1", 3, 5)]
    # a number inside a longer one is not a match ("1,000", "2.5"); one beside a hyphen is ("3–1")
    table = Table.from_rows("t", ["Score", "Attendance"], [["3–1", "1,000"], ["0–0", "2.5"]])
    assert _strings("an attendance of 1 or 5", table) == [("1", 3, 4)]
    assert _strings("an attendance of 2", table) == []
    assert _strings("an attendance of 2", table, "substring") == [("2", 3, 4)]
    table = Table.from_rows("t", ["Attendance"], [["1,000"], ["2.5"]])
    assert _strings("an attendance of 1", table) == []
    assert _strings("an attendance of 1", table, "substring") == [("1", 3, 4)]


def test_word_linking_treats_punctuation_as_a_boundary(medals: Table) -> None:
    assert _strings("matches at st. louis", medals) == [("st. louis", 2, 4)]
    assert _strings("what was at o'neal arena?", medals) == [("o'neal arena", 3, 5)]
    assert _strings("which nation held west stadium", medals) == [("west stadium", 3, 5)]
    assert _strings("is ivoire there", medals) == [("ivoire", 1, 2)]  # after an apostrophe
    assert _strings("who won in the east", medals) == [("east", 4, 5)]  # before a hyphen
    assert _strings("what about st", medals) == [("st", 2, 3)]  # "st." in a cell
    assert _strings("does it rain in the west?", medals)[0] == ("west", 5, 6)


def test_word_linking_with_accents_and_inside_foreign_words(medals: Table) -> None:
    # accents are normalised away on both sides; a match inside a longer word still fails
    assert _strings("how did cote d'ivoire do", medals) == [("cote d'ivoire", 2, 4)]
    assert _strings("tell me about motley crüe", medals) == [("motley crue", 3, 5)]
    assert _strings("what did the czech team do", medals)[0] == ("czech", 3, 4)
    assert _strings("is zech there", medals) == []
    assert _strings("is zech there", medals, "substring") == [("zech", 1, 2)]


def test_unknown_linking_is_a_data_error(medals: Table) -> None:
    from nsmcli.errors import DataError

    with pytest.raises(DataError, match="unknown linking 'fuzzy'; choose one of: word, substring"):
        annotate_question("germany", medals, linking="fuzzy")


def test_word_linking_boundaries_in_lists_and_slugs() -> None:
    table = Table.from_rows("t", ["Years", "Title"], [["1964,1967,1992", "Cry_Wolf"], ["2001", "Big 1,200"]])
    assert _strings("who won in 1964", table)[0] == ("1964", 3, 4)  # a list, not a thousands separator
    assert _strings("who won in 1967", table)[0] == ("1967", 3, 4)
    assert _strings("what came after cry wolf", table) == [("cry", 3, 4), ("wolf", 4, 5)]
    assert _strings("the big 1", table) == [("big", 1, 2)]


def test_substring_linking_is_mapo_s_own_for_clitics_and_pairs() -> None:
    """MAPO's substring linking, kept to reproduce the published models' data, joins no clitic back and
    makes no pair (WikiSQL and the GloVe model's data are unchanged by word linking's readings)."""
    table = Table.from_rows("t", ["Company", "Close"], [["Margie's Travel", "5"], ["Fabrikam", "7"]])
    q = annotate_question("did margie's travel or fabrikam close higher?", table, linking="substring")
    assert [e.values for e in q.entities if e.kind == "string"] == [("margie",), ("travel",), ("fabrikam",)]


def test_a_word_links_a_user_tables_cell_that_holds_it_in_its_other_number() -> None:
    header = ["Date", "Conditions"]
    rows = [["March 4, 2024", "Rain"], ["March 5, 2024", "Thunderstorms"], ["March 6, 2024", "Sunny spells"]]
    user = Table.from_rows("t", header, rows, value_rules="user")
    assert _strings("when was the first thunderstorm?", user) == [("thunderstorms", 4, 5)]
    assert _strings("how many days had spell of sun?", user) == [("spells", 4, 5)]
    # a word the cells hold as it is links as it is; a short word's other number is often another word
    assert _strings("how many days of rain?", user) == [("rain", 4, 5)]
    assert _strings("how many were sunny?", user) == [("sunny", 3, 4)]
    # a word of a column's name, in either number, asks of the column, not of cells that hold it
    race = Table.from_rows("t", ["Driver", "Laps", "Gap"], [["Ann", "20", "+1 lap"]], value_rules="user")
    assert _strings("how many laps did ann complete?", race) == [("ann", 4, 5)]
    # WTQ's tables keep MAPO's linking, and the models trained on it
    assert _strings("when was the first thunderstorm?", Table.from_rows("t", header, rows)) == []


def test_a_span_that_ends_in_the_other_number_links_the_cells_words() -> None:
    header = ["Name", "Role"]
    rows = [
        ["Lisa", "Dental Hygienist"],
        ["Carlos", "Dental Assistant"],
        ["Omar", "Dentist"],
        ["Bo", "Dental Assistant"],
    ]
    user = Table.from_rows("t", header, rows, value_rules="user")
    # not "dental", which every dental role holds
    assert _strings("how many dental assistants do we have", user) == [("dental assistant", 2, 4)]
    assert _strings("total hours of our dental hygienists", user) == [("dental hygienist", 4, 6)]
    # a span that the other number does not complete stops where it is found
    assert _strings("how many dental nurses do we have", user) == [("dental", 2, 3)]
    # WTQ's tables keep MAPO's linking
    assert _strings("how many dental assistants do we have", Table.from_rows("t", header, rows)) == [
        ("dental", 2, 3)
    ]


def test_anonymous_asks_for_a_blank_name() -> None:
    rows = [["", "25.00"], ["Ann Lee", "100.00"], ["", "22.50"]]
    assert ("string", ("",)) in _user_entities("how many donations were anonymous", ["Donor", "Amount"], rows)
    assert ("string", ("",)) not in _user_entities("how many donations were there", ["Donor", "Amount"], rows)
    # where a cell says so, the word links that cell, not the blanks
    said = [["Anonymous", "25.00", ""], ["Ann Lee", "100.00", "gift aid"]]
    linked = _user_entities("how many donations were anonymous", ["Donor", "Amount", "Note"], said)
    assert linked == [("string", ("anonymous",))]


def test_a_duration_gives_its_number_where_no_columns_unit_converts_it() -> None:
    plain = [["Ann", "34.1"], ["Bo", "28.0"]]
    said = _user_entities("who averages more than 30 minutes a game", ["Player", "MIN"], plain)
    assert ("number", (30.0,)) in said
    # a column in minutes converts "2 hours" to 120, and the 2 as said is no second reading
    timed = [["Audit", "2h 30m"], ["Backup", "45m"]]
    converted = _user_entities("which tasks took over 2 hours", ["Task", "Time"], timed)
    assert ("number", (120.0,)) in converted and ("number", (2.0,)) not in converted
    # no column says a unit of time: no number, as a duration never gave one
    assert not any(
        kind == "number" for kind, _ in _user_entities("over 30 minutes", ["Player", "PTS"], plain)
    )


def test_freezing_is_the_number_of_the_freezing_point_in_the_tables_scale() -> None:
    rows = [["March 1", "4.1", "-4.6"], ["March 2", "-0.5", "-3.0"]]
    celsius = _user_entities("how many days below freezing", ["Date", "High (°C)", "Low (°C)"], rows)
    assert ("number", (0.0,)) in celsius
    fahrenheit = _user_entities("how many days below freezing", ["Date", "High (°F)", "Low (°F)"], rows)
    assert ("number", (32.0,)) in fahrenheit and ("number", (0.0,)) not in fahrenheit
    plain = _user_entities("how many days", ["Date", "High (°F)", "Low (°F)"], rows)
    assert not any(kind == "number" for kind, _ in plain)
    # the scale may be in the cells; "(F)" alone is no Fahrenheit
    in_cells = [["March 1", "40°F", "28°F"]]
    assert ("number", (32.0,)) in _user_entities("days below freezing", ["Date", "High", "Low"], in_cells)
    counts = [["Maths", "12", "3"]]
    assert ("number", (32.0,)) not in _user_entities(
        "below freezing", ["Class", "Low (°C)", "Students (F)"], counts
    )
    # no temperatures, or a cell the word belongs to: no freezing point
    stock = [["Peas", "Frozen", "12"], ["Milk", "Chilled", "8"]]
    assert not any(
        kind == "number"
        for kind, _ in _user_entities("which items need freezing", ["Item", "Storage", "Qty"], stock)
    )
    weather = [["March 1", "-2.0", "Freezing rain"], ["March 2", "3.5", "Sunny"]]
    rain = _user_entities("how many days had freezing rain", ["Date", "Low (°C)", "Conditions"], weather)
    assert rain == [("string", ("freezing rain",))]


def test_a_user_tables_cell_that_opens_with_a_stop_word_links_whole() -> None:
    header, rows = (
        ["Task", "Status"],
        [["Spec", "Not started"], ["API", "In progress"], ["UI", "Started late"]],
    )
    user = Table.from_rows("t", header, rows, value_rules="user")
    assert _strings("how many tasks are not started?", user) == [("not started", 4, 6)]
    assert _strings("which tasks are in progress?", user) == [("in progress", 3, 5)]
    # a stop word before a word that is only part of a cell stays out
    assert _strings("how many were not late?", user) == [("late", 4, 5)]
    # WTQ's tables keep MAPO's linking
    assert _strings("how many tasks are not started?", Table.from_rows("t", header, rows)) == [
        ("started", 5, 6)
    ]


def test_a_demonym_links_the_country_a_user_table_holds() -> None:
    header, rows = ["Store", "Country", "Revenue"], [["Berlin", "Germany", "5"], ["Lyon", "France", "7"]]
    user = Table.from_rows("t", header, rows, value_rules="user")
    assert _strings("what was the total revenue of the german stores?", user) == [("germany", 7, 8)]
    # a country the table lacks links nothing; a cell that holds the word itself links as it is
    assert _strings("how many italian stores are there?", user) == []
    languages = Table.from_rows("t", ["Language", "Speakers"], [["German", "5"]], value_rules="user")
    assert _strings("how many speak german?", languages) == [("german", 3, 4)]
    # a compass word makes it another country's; the country must be a whole cell
    koreas = Table.from_rows("t", ["Country"], [["South Korea"], ["North Korea"]], value_rules="user")
    assert "south korea" not in [
        v for v, _, _ in _strings("how many medals did north korean athletes win?", koreas)
    ]
    assert ("south korea", 4, 5) in _strings("how many medals did korean athletes win?", koreas)
    money = Table.from_rows("t", ["Company", "Revenue"], [["Acme", "US$ 5"]], value_rules="user")
    assert _strings("how many american companies are there?", money) == []
    # WTQ's tables keep MAPO's linking, and the models trained on it
    assert (
        _strings("what was the total revenue of the german stores?", Table.from_rows("t", header, rows)) == []
    )


def test_a_state_named_in_full_links_its_postal_code() -> None:
    header, rows = ["Order", "State", "Total"], [["1", "TX", "5"], ["2", "NY", "7"], ["3", "WA", "9"]]
    user = Table.from_rows("t", header, rows, value_rules="user")
    assert _strings("total sales to texas customers", user) == [("tx", 3, 4)]
    assert _strings("average total for New York?", user) == [("ny", 3, 5)]
    assert _strings("orders from ohio", user) == []  # a state the table lacks links nothing
    # a cell that names the state itself links as it is; WTQ's tables keep MAPO's linking
    named = Table.from_rows("t", ["Name", "State"], [["Washington", "WA"]], value_rules="user")
    assert _strings("orders of washington", named) == [("washington", 2, 3)]
    assert _strings("total sales to texas customers", Table.from_rows("t", header, rows)) == []
    # the longest name wins: West Virginia is WV, or nothing, never VA
    virginias = Table.from_rows("t", ["State"], [["VA"], ["GA"]], value_rules="user")
    assert _strings("sales in west virginia", virginias) == []
    assert _strings("sales in virginia", virginias) == [("va", 2, 3)]
    # codes in a column that is not all states are not states: Canada's CA, a status OK
    other = Table.from_rows("t", ["Country", "Status"], [["CA", "OK"], ["MX", "Late"]], value_rules="user")
    assert _strings("sales in california or oklahoma", other) == []


def test_a_country_named_another_way_links_the_name_the_table_writes() -> None:
    header, rows = ["City", "Country"], [["Leeds", "United Kingdom"], ["Austin", "USA"], ["Oslo", "Norway"]]
    user = Table.from_rows("t", header, rows, value_rules="user")
    assert _strings("total sales at the UK shows", user) == [("united kingdom", 4, 5)]
    assert _strings("how many US dates were there", user) == [("usa", 2, 3)]
    states = Table.from_rows("t", header, [["Austin", "USA"], ["Oslo", "Norway"]], value_rules="user")
    assert _strings("how many united states dates", states) == [("usa", 2, 4)]
    # "us" the pronoun, and US dollars, name no country
    assert _strings("how many shows did they play for us", user) == []
    assert _strings("revenue in US dollars by city", user) == []
    koreas = Table.from_rows(
        "t", ["City", "Country"], [["Busan", "South Korea"], ["Lima", "Peru"]], value_rules="user"
    )
    assert "south korea" not in [v for v, _, _ in _strings("how many cities in north korea", koreas)]


def test_a_weekday_links_the_form_the_table_writes_it_in() -> None:
    header, rows = ["Day", "Dog"], [["Mon", "Rufus"], ["Thu", "Luna"], ["Thu", "Rufus"]]
    user = Table.from_rows("t", header, rows, value_rules="user")
    assert _strings("What time does Rufus start on Thursday?", user) == [("rufus", 3, 4), ("thu", 6, 7)]
    assert _strings("walks on mondays", user) == [("mon", 2, 3)]
    assert _strings("walks on friday", user) == []  # a day the table lacks links nothing
    full = Table.from_rows("t", header, [["Monday", "Rufus"], ["Thursday", "Luna"]], value_rules="user")
    assert _strings("who walks on thurs", full) == [("thursday", 3, 4)]
    assert _strings("who walks on Thursday", Table.from_rows("t", header, rows)) == []  # WTQ's linking
    # short forms that are words too count after a word that names a day, and never a column's name
    days = Table.from_rows("t", ["Day", "Sun"], [["Sat", "3"], ["Wed", "5"]], value_rules="user")
    assert _strings("how many hours of sun in total?", days) == []
    assert _strings("hours on saturday", days) == [("sat", 2, 3)]
    named = Table.from_rows(
        "t", ["Day", "Guests"], [["Saturday", "3"], ["Wednesday", "5"]], value_rules="user"
    )
    assert _strings("how many guests sat down", named) == []
    assert _strings("guests every sat", named) == [("saturday", 2, 3)]
    # a word that is no plural though it ends in "s" has no singular to link: "thus" is no `Thu`
    assert _strings("thus far, what is the highest score?", user) == []
    assert _strings("thus the score on thursday?", user) == [("thu", 4, 5)]


def test_may_is_the_month_where_the_question_capitalises_it() -> None:
    header, rows = ["Order", "Order Date"], [["1", "05/02/2024"], ["2", "06/11/2024"]]
    may = ("date", (Date(-1, 5, -1),))
    assert may in _user_entities("how many orders were placed in May?", header, rows)
    assert may not in _user_entities("which orders may be late?", header, rows)
    assert may not in _user_entities("May I know how many orders there are?", header, rows)
    assert may not in _user_entities("which orders did May Smith place?", header, rows)
    assert may in _user_entities("May orders", header, rows)
    wtq = Table.from_rows("t", header, rows)
    assert may not in [(e.kind, e.values) for e in annotate_question("orders placed in May?", wtq).entities]


def test_a_plural_links_a_cell_that_is_its_column_name_word_alone() -> None:
    """ "rides by members" of a `Member Type` column of `Member` and `Casual`; "how many laps" of a `Laps`
    column of `+1 lap` still asks of the column."""
    rides = [["Member", "12"], ["Casual", "30"]]
    assert ("string", ("member",)) in _user_entities(
        "average duration for members", ["Member Type", "Min"], rides
    )
    # the cell must be in the column the word names: a `Role` of Manager is not what "managers" asks of
    staff = [["Ann", "Bo", "Manager"], ["Cy", "Ann", "Analyst"]]
    assert (
        _user_entities("how many distinct managers are there?", ["Employee", "Manager", "Role"], staff) == []
    )
    laps = [["Ann", "+1 lap"], ["Bo", "+2 laps"]]
    assert _user_entities("how many laps behind was Bo", ["Driver", "Laps"], laps) == [("string", ("bo",))]


def test_blank_or_missing_cells_the_question_leaves_out_link_nothing() -> None:
    header = ["Freezer", "Temp", "Note"]
    rows = [["FZ-1", "-18", ""], ["FZ-1", "", "door open"], ["FZ-2", "n/a", "n/a"]]
    user = Table.from_rows("t", header, rows, value_rules="user")
    assert _strings("average temp for fz-1, ignoring the blank readings", user) == [("fz-1", 3, 4)]
    assert "n/a" not in [v for v, _, _ in _strings("average temp, leaving out rows where it was n/a", user)]
    # asked for, they link: "which readings are blank?", "how many notes say n/a?"
    assert ("", 3, 4) in _strings("which readings are blank?", user)
    assert ("n/a", 4, 5) in _strings("how many notes say n/a?", user)
    # a leaving-out word of another clause, or a count of what is left, leaves them linked
    assert ("", 6, 7) in _strings("excluding fz-2, which readings are blank?", user)
    assert ("n/a", 6, 7) in _strings("ignoring fz-1, which notes say n/a?", user)


def test_the_rows_counted_after_how_many_are_not_a_cell_that_holds_the_word() -> None:
    header, rows = (
        ["Name", "Club", "Time"],
        [["Ann", "Harbour Runners", "3:10"], ["Bo", "Fell Club", "3:40"]],
    )
    user = Table.from_rows("t", header, rows, value_rules="user")
    assert _strings("how many runners finished in under 3:30", user) == []
    # elsewhere, or as a whole cell, the word still links
    assert _strings("which times did harbour runners post", user) == [("harbour runners", 3, 5)]
    clubs = Table.from_rows("t", ["Club"], [["Runners"], ["Walkers"]], value_rules="user")
    assert _strings("how many runners are there", clubs) == [("runners", 2, 3)]
    # a word that modifies the noun after it is still the cell's: "how many eagles games"
    games = Table.from_rows(
        "t",
        ["Opponent", "Result"],
        [["Philadelphia Eagles", "W"], ["Dallas Cowboys", "L"]],
        value_rules="user",
    )
    assert ("eagles", 2, 3) in _strings("how many eagles games did we win?", games)


def test_a_playing_position_named_in_words_links_its_code() -> None:
    squad = [["Ann", "GK"], ["Bo", "DF"], ["Cy", "MF"], ["Di", "FW"], ["Ed", "FW"]]
    user = Table.from_rows("t", ["Player", "Pos"], squad, value_rules="user")
    assert _strings("how many forwards are listed?", user) == [("fw", 2, 3)]
    assert _strings("average minutes played by midfielders", user) == [("mf", 4, 5)]
    # a two-word position is one code (a box score's point guards), and the code the column holds is meant
    box = [["Al", "PG"], ["Bea", "SF"], ["Cal", "C"], ["Dan", "G-F"]]
    scores = Table.from_rows("t", ["Player", "Position"], box, value_rules="user")
    assert _strings("how many point guards are there", scores) == [("pg", 2, 4)]
    assert _strings("how many centres played?", scores) == [("c", 2, 3)]
    assert _strings("list the forwards", scores) == [("f", 2, 3)]  # a guard-forward `G-F` is a forward
    assert _strings("list the strikers", scores) == [("f", 2, 3)]
    # a column of other codes, or not named as positions, is no positions column; nor on WTQ's tables
    grades = Table.from_rows(
        "t", ["Student", "Grade"], [["Ann", "C"], ["Bo", "D"], ["Cy", "F"]], value_rules="user"
    )
    assert _strings("how many centres passed?", grades) == []
    assert _strings("how many forwards are listed?", Table.from_rows("t", ["Player", "Pos"], squad)) == []
    # a missing cell leaves a positions column one; a baseball team's fielders
    gaps = Table.from_rows("t", ["Player", "Pos"], [*squad, ["Fay", "n/a"]], value_rules="user")
    assert _strings("how many forwards are listed?", gaps) == [("fw", 2, 3)]
    nine = Table.from_rows(
        "t", ["Player", "Pos"], [["a", "P"], ["b", "C"], ["c", "CF"], ["d", "SS"]], value_rules="user"
    )
    assert _strings("how many center fielders", nine) == [("cf", 2, 4)]


def _user_entities(question: str, header: list[str], rows: list[list[str]]) -> list[tuple[str, tuple]]:
    table = Table.from_rows("t", header, rows, value_rules="user")
    return [(e.kind, e.values) for e in annotate_question(question, table).entities]


def test_a_flag_column_or_a_yes_no_column_named_by_a_verb_links_the_cell_it_means() -> None:
    swims = [["Ann", "Q"], ["Bo", ""], ["Cy", "Q"]]
    gala = [["Ann", "Y"], ["Bo", "N"], ["Cy", "Y"]]
    assert ("string", ("y",)) in _user_entities("how many swims were PBs", ["Swimmer", "PB"], gala)
    assert ("string", ("q",)) in _user_entities(
        "how many swimmers qualified?", ["Swimmer", "Qualified"], swims
    )
    assert ("string", ("",)) in _user_entities("who was not qualified?", ["Swimmer", "Qualified"], swims)
    trails = [["Ridge", "Yes"], ["Lake", "No"]]
    assert ("string", ("yes",)) in _user_entities(
        "which trails allow dogs?", ["Trail", "Dogs Allowed"], trails
    )
    assert ("string", ("q",)) in _user_entities("how many swimmers qualify?", ["Swimmer", "Qualified"], swims)
    # "no ... listed" asks for the blanks of a yes/no column, not for its "no"
    pets = [["a", "Yes"], ["b", "No"], ["c", ""]]
    listed = _user_entities("how many listings have no pet policy listed?", ["Listing", "Pets"], pets)
    assert ("string", ("",)) in listed and ("string", ("no",)) not in listed
    assert ("string", ("no",)) in _user_entities(
        "which listings do not allow pets?", ["Listing", "Pets"], pets
    )
    with_balcony = [["a", "Yes", "Yes"], ["b", "No", "No"], ["c", "", "Yes"]]
    clause = _user_entities(
        "how many listings with no pets have a balcony?", ["Listing", "Pets", "Balcony"], with_balcony
    )
    assert ("string", ("no",)) in clause
    assert ("string", ("",)) in _user_entities(
        "which listings never had a pet policy listed?", ["Listing", "Pets"], pets
    )
    # a sparse number column is no flag, nor is a column of one long text and blanks
    goals = [["Ann", "1"], ["Bo", ""], ["Cy", "1"]]
    assert ("string", ("1",)) not in _user_entities("who scored the most goals?", ["Player", "Goals"], goals)
    notes = [["Ann", "see file"], ["Bo", ""]]
    assert _user_entities("how many notes?", ["Name", "Notes"], notes) == []


def test_result_codes_link_beside_other_short_codes() -> None:
    games = [["a", "W"], ["b", "L"], ["c", "OTL"]]
    assert ("string", ("w",)) in _user_entities("how many games did we win?", ["Opponent", "Result"], games)
    # a column of weekdays holds a `W` and a `T`, but no results
    classes = [["Yoga", "M"], ["Spin", "T"], ["Pilates", "W"], ["Boxing", "F"]]
    assert _user_entities("which classes did we win?", ["Class", "Day"], classes) == []


def test_a_stop_word_that_completes_a_cell_or_follows_a_columns_name_links() -> None:
    exams = [["Bio", "Hall A", "A"], ["Chem", "Hall B", "B+"]]
    header = ["Course", "Room", "Letter Grade"]
    assert ("string", ("hall a",)) in _user_entities("how many exams are in Hall A?", header, exams)
    assert ("string", ("a",)) in _user_entities("who has a letter grade of A?", header, exams)
    assert ("string", ("a",)) not in _user_entities("who has a room?", header, exams)


def test_hyphenated_plurals_and_adjectives_in_y_link_their_cells() -> None:
    rides = [["1", "E-bike", "Fog"], ["2", "Classic", "Rain"]]
    header = ["Ride", "Bike Type", "Weather"]
    assert ("string", ("e-bike",)) in _user_entities("how many rentals were on e-bikes?", header, rides)
    assert ("string", ("fog",)) in _user_entities("which rides were foggy?", header, rides)
    # a verb's base links no name that a column gives each row once: "billed" is no `Bill` of a staff list
    staff = [["Ann", "Paid"], ["Bill", "Billed"], ["Cy", "Paid"], ["Di", "Billed"]]
    assert _user_entities("who billed the most?", ["Name", "Status"], staff) == [("string", ("billed",))]
    names = [["Ann", "5"], ["Bill", "7"], ["Cy", "2"], ["Di", "3"]]
    assert _user_entities("how many hours were billed?", ["Name", "Hours"], names) == []
    # a noun in -ity links its adjective's cell: "electricity" of `Electric`
    bills = [["Jan", "Electric"], ["Jan", "Gas"], ["Feb", "Electric"], ["Feb", "Gas"]]
    assert ("string", ("active",)) not in _user_entities(
        "which member had the most activity?",
        ["Name", "Status"],
        [["a", "Active"], ["b", "Active"], ["c", "Idle"]],
    )
    assert ("string", ("electric",)) in _user_entities(
        "when did we use the most electricity?", ["Month", "Type"], bills
    )
    # a guess from an adjective needs a whole cell: "directory" is no "director" of `Sales Director`
    staff = [["Ann", "Sales Director"], ["Bo", "Clerk"]]
    assert _user_entities("who is the last person in the directory?", ["Name", "Title"], staff) == []


def test_an_ordinal_is_a_number_only_where_a_column_ranks() -> None:
    runners = [["1", "Ann"], ["2", "Bo"]]
    assert ("number", (2.0,)) in _user_entities("who finished 2nd?", ["Place", "Runner"], runners)
    assert ("number", (2.0,)) not in _user_entities("who came 2nd?", ["Bib", "Runner"], runners)
    # a finish time is named like a place but holds none
    times = [["Ann", "151.5"], ["Bo", "165.2"]]
    assert _user_entities("who was the 2nd fastest?", ["Runner", "Finish Time"], times) == []
    # a number too large for any place is none, and no crash
    assert ("number", (2.0,)) not in _user_entities(
        "who was 2nd?", ["Place", "Runner"], [["9" * 400, "Ann"], ["3", "Bo"]]
    )


def test_a_word_that_is_a_columns_whole_name_is_not_read_as_a_cell() -> None:
    cars = [["Tesla", "Model 3", "$40,000"], ["Kia", "Niro", "$30,000"]]
    header = ["make", "model", "price"]
    assert ("string", ("model",)) not in _user_entities("which model is the cheapest?", header, cars)
    assert ("string", ("model 3",)) in _user_entities("what does the model 3 cost?", header, cars)


def test_a_word_of_a_columns_name_inside_a_longer_cell_names_the_column() -> None:
    sessions = [
        ["Town Hall", "41", "Heating off"],
        ["Riverside", "52", "Car park closed, donors redirected"],
        ["Mill Lane", "47", "New donor drive"],
        ["St Mark's", "38", "Staff short"],
    ]
    header = ["Venue", "Donors Attended", "Comments"]
    question = "What was the average number of donors attending per session?"
    assert _user_entities(question, header, sessions) == []
    # in the other number too: "plants" of a `Plant` column, not the supplier `Hillside Plants`
    stock = [["Thymus", "Hillside Plants", "yes"], ["Hebe", "Greenfields", "no"]]
    plants = _user_entities("how many plants are marked hardy", ["Plant", "Supplier", "Hardy"], stock)
    assert ("string", ("plants",)) not in plants
    # a cell that is the word alone is still that cell, and a longer span still links
    games = [["Home", "Home win"], ["Away", "Draw"]]
    assert ("string", ("home",)) in _user_entities("how many home games?", ["Home", "Result"], games)
    assert ("string", ("hillside plants",)) in _user_entities(
        "how many come from hillside plants", ["Plant", "Supplier", "Hardy"], stock
    )
    # a word of a longer name that a column of repeated values holds is still its cells
    staff = [["Ann", "Sales team", "12"], ["Bo", "Sales team", "9"], ["Cy", "Support", "0"]]
    linked = _user_entities("how many people work in sales?", ["Name", "Department", "Total Sales"], staff)
    assert ("string", ("sales",)) in linked
    orders = [
        ["A1", "Shipped - late", "2024-03-01"],
        ["A2", "Shipped - late", "2024-03-02"],
        ["A3", "Open", ""],
    ]
    assert ("string", ("shipped",)) in _user_entities(
        "how many orders were shipped?", ["Order", "Status", "Shipped Date"], orders
    )
    # WTQ's tables keep MAPO's linking
    table = Table.from_rows("t", header, sessions)
    assert ("string", ("donors",)) in [
        (e.kind, e.values) for e in annotate_question(question, table).entities
    ]


def test_a_question_number_over_european_decimals_reads_as_the_cells_do() -> None:
    sales = [["Toaster", "1.987,50"], ["Mixer", "12.450,75"]]
    header = ["Produkt", "Umsatz"]
    assert ("number", (10000.0,)) in _user_entities("which sold over 10.000?", header, sales)
    assert ("number", (2.5,)) in _user_entities("which sold over 2,5?", header, sales)
    # groups of three digits are thousands in either convention: an English question over the same table
    assert ("number", (3000.0,)) in _user_entities("which sold more than 3,000?", header, sales)
    assert ("number", (30000.0,)) in _user_entities("which sold under €30,000?", header, sales)
    # a leading zero is a decimal, and a magnitude word after the number stays the shared reading's
    assert ("number", (0.125,)) in _user_entities("which sold over 0,125?", header, sales)
    assert ("number", (1.5e6,)) in _user_entities("which sold over 1.5 million?", header, sales)


def test_measuring_words_name_runtime_distance_and_rating_columns() -> None:
    table = Table.from_rows(
        "t", ["Title", "Runtime", "Distance", "Rating"], [["A", "90", "5", "4.5"]], value_rules="user"
    )
    match = annotate_question("what's the longest movie?", table).column_match
    assert match.get("r.runtime-number") and match.get("r.distance-number")
    assert annotate_question("highest rated title", table).column_match.get("r.rating-number")


def test_number_noun_compounds_verbs_and_stat_abbreviations_link_on_user_tables() -> None:
    courses = [["BIO101", "4", "Yes"], ["ART200", "3", "No"]]
    header = ["Course", "Credits", "Lab"]
    assert ("number", (4.0,)) in _user_entities("how many 4-credit courses are there?", header, courses)
    table = Table.from_rows("t", header, courses, value_rules="user")
    assert "r.credits-number" in annotate_question("how many 4-credit courses?", table).column_match
    inspections = [["Cafe A", "Pass"], ["Cafe B", "Fail"]]
    assert ("string", ("fail",)) in _user_entities(
        "how many inspections failed?", ["Name", "Result"], inspections
    )
    # the act's noun that the verb's stem makes, and a verb in -ing
    launches = [["A-1", "Success"], ["A-2", "Failure"], ["A-3", "Success"]]
    assert ("string", ("failure",)) in _user_entities(
        "how many launches failed", ["Rocket", "Outcome"], launches
    )
    trades = [["BTC", "Buy", "10"], ["SOL", "Sell", "5"], ["BTC", "Sell", "2"]]
    assert ("string", ("buy",)) in _user_entities("total spent buying BTC", ["Coin", "Type", "USD"], trades)
    # a weekday's short form is no verb's base: "wedding" is no `Wed`
    days = [["Wed", "120"], ["Sat", "80"], ["Wed", "95"]]
    assert ("string", ("wed",)) not in _user_entities(
        "how many wedding bookings had over 100 guests", ["Day", "Guests"], days
    )
    box = Table.from_rows("t", ["Player", "PTS", "AST"], [["a", "10", "3"]], value_rules="user")
    assert "r.ast-number" in annotate_question("who had the most assists?", box).column_match
    bowling = Table.from_rows(
        "t", ["Bowler", "Mdns", "Wkts", "Econ"], [["a", "3", "20", "4.5"]], value_rules="user"
    )
    matched = annotate_question("who took the most wickets, and the most maidens, at what economy?", bowling)
    assert {"r.wkts-number", "r.mdns-number", "r.econ-number"} <= set(matched.column_match)
    rent = Table.from_rows(
        "t", ["Tenant", "Balance Due"], [["a", "(20.00)"], ["b", "35.00"]], value_rules="user"
    )
    assert "r.balance_due-number" in annotate_question("who owes the most?", rent).column_match
    # "behind" falls only after a word of how far or of being, not in "right behind"
    sites = [["S1", "+8"], ["S2", "-10"]]
    header = ["Site", "Variance vs Target"]
    assert ("number", (0.0,)) in _user_entities("which site is furthest behind its target?", header, sites)
    assert ("number", (0.0,)) not in _user_entities("which site is right behind S1?", header, sites)
    assert ("number", (0.0,)) not in _user_entities("which site was behind S1?", header, sites)
    # no compound number of a magnitude, a date or a unit of time; a European table's thousands
    budgets = [["Dam", "1.500", "12.000"], ["Pier", "2.000", "8.000"]]
    projects = ["Project", "Budget", "Seats"]
    assert ("number", (5.0,)) not in _user_entities(
        "which project had a $5-million budget?", projects, budgets
    )
    assert ("number", (5.0,)) not in _user_entities(
        "which fund has the best 5-year return?", projects, budgets
    )
    assert ("number", (12000.0,)) in _user_entities("which is the 12.000-seat project?", projects, budgets)
    # "called" is no "cal"
    calls = [["Cal", "x"], ["Bo", "y"]]
    assert _user_entities("who was called up?", ["Name", "Code"], calls) == []
    assert ("number", (0.0,)) in _user_entities("how many sites lowered their variance?", header, sites)


def test_a_number_that_spells_a_columns_name_is_no_value() -> None:
    header = ["Player", "Played", "3-Dart Avg", "Credits"]
    rows = [["Gary", "12", "78.45", "4"], ["Sean", "3", "61.10", "3"], ["Cy", "9", "64.20", "4"]]
    under = _user_entities("which players had a 3-dart average under 65?", header, rows)
    assert ("number", (65.0,)) in under and ("number", (3.0,)) not in under
    assert ("number", (3.0,)) not in _user_entities("who has the best 3 dart average", header, rows)
    # a number joined to a noun no column's name holds with it is a value: 4 credits
    assert ("number", (4.0,)) in _user_entities("who took 4-credit courses?", header, rows)
    assert ("number", (3.0,)) in _user_entities("who played 3 games?", header, rows)


def test_a_word_cutting_a_category_cell_short_links_it() -> None:
    header = ["Species", "Age", "Priority"]
    rows = [["Robin", "ad", "High"], ["Wren", "juv", "Low"], ["Tit", "juv", "High"], ["Jay", "ad", "Low"]]
    assert ("string", ("juv",)) in _user_entities("how many juveniles did we ring", header, rows)
    # another form of a whole word is no cut: "highest" is not `High`
    assert ("string", ("high",)) not in _user_entities("which bird had the highest priority", header, rows)
    # a cut ends where a vowel follows: "yesterday" is no `Yes`
    paid = [["a", "Yes"], ["b", "No"], ["c", "Yes"]]
    assert _user_entities("which orders came in yesterday", ["Order", "Paid"], paid) == []
    months = [["a", "Mar"], ["b", "Apr"], ["c", "Mar"]]
    assert _user_entities("who ran the marathon", ["Runner", "Month"], months) == []
    # a word of a column's name names the column: "rainfall" of `Rain (mm)` beside a `Rain` condition
    weather = [["1", "4.2", "Rain"], ["2", "0.0", "Sun"], ["3", "1.1", "Rain"]]
    assert _user_entities("total rainfall", ["Day", "Rain (mm)", "Conditions"], weather) == []


def test_nothing_in_a_column_asks_for_its_blanks() -> None:
    rows = [["Police", "new cars"], ["Fire", ""], ["Parks", ""]]
    assert ("string", ("",)) in _user_entities(
        "How many departments have nothing in the notes column?", ["Department", "Notes"], rows
    )
    costs = [["Police", "0"], ["Fire", "12"]]
    assert _user_entities("which department cost nothing in total", ["Department", "Cost"], costs) == []
    # a column of amounts is named for its zero, not its blanks
    fees = [["a", "0"], ["b", "120"], ["c", ""]]
    assert ("string", ("",)) not in _user_entities(
        "which students paid nothing in fees?", ["Student", "Fees"], fees
    )


def test_half_is_fifty_beside_percentages_and_quantities_spelled_or_in_capitals_convert() -> None:
    shares = [["Norway", "98.6"], ["Chad", "12.0"]]
    assert ("number", (50.0,)) in _user_entities(
        "how many countries get more than half of their electricity from renewables",
        ["Country", "Renewables (% of total)"],
        shares,
    )
    assert ("number", (0.5,)) in _user_entities("which funds lost more than half", ["Fund", "Ratio"], shares)
    # beside both percentages and fractions, both readings
    both = [["A", "98.6", "0.2"], ["B", "12.0", "0.7"]]
    mixed = _user_entities("which have a ratio of more than half", ["Country", "Share (%)", "Ratio"], both)
    assert ("number", (50.0,)) in mixed and ("number", (0.5,)) in mixed
    assert ("number", (25.0,)) in _user_entities(
        "which films run longer than twenty five minutes?",
        ["Title", "Runtime"],
        [["a", "1h 52m"], ["b", "24 min"]],
    )
    # "two" counts films there, no duration: no number in the column's minutes
    longest = _user_entities(
        "which two films ran longest", ["Title", "Runtime"], [["a", "1h 52m"], ["b", "24 min"]]
    )
    assert longest == [("number", (2.0,))]
    films = [["Salt Road", "1h 52m"], ["Harrow Lane", "2h 07m"]]
    assert ("number", (120.0,)) in _user_entities(
        "which films run longer than two hours?", ["Title", "Runtime"], films
    )
    plans = [["Basic", "500 MB"], ["Plus", "5 GB"], ["Max", "1.5GB"]]
    for question in ("which plans give less than 1 GB of data", "which plans give less than 1GB"):
        assert ("number", (1000.0,)) in _user_entities(question, ["Plan", "Data"], plans)


def test_no_before_a_column_of_amounts_is_zero_unless_blanks_are_asked_for() -> None:
    days = [["1", "0.0", "Sunny"], ["2", "4.2", "Rain"], ["3", "0.0", ""]]
    header = ["Day", "Rain (mm)", "Conditions"]
    assert ("number", (0.0,)) in _user_entities("how many days had no rain at all", header, days)
    assert ("number", (0.0,)) not in _user_entities("how many days have no rain recorded", header, days)
    # a column that holds no 0 is not named for one
    films = [["Up", "2009"], ["Heat", ""]]
    assert ("number", (0.0,)) not in _user_entities("which films have no year", ["Film", "Year"], films)


def test_a_year_inside_a_month_the_question_names_is_that_month_not_cells_that_write_the_year() -> None:
    invoices = [
        ["INV-2024-0701", "01-Jul-2024", "03-Jul-2024"],
        ["INV-2024-0801", "01-Aug-2024", "05-Aug-2024"],
    ]
    header = ["Invoice No", "Issue date", "Paid on"]
    linked = _user_entities("total invoiced in August 2024", header, invoices)
    assert ("string", ("2024",)) not in linked
    assert any(kind == "date" for kind, _ in linked)
    # a whole cell keeps its link: a `Month` column's `August`
    months = [["August", "2024-08-01", "120"], ["July", "2024-07-01", "90"]]
    linked = _user_entities("total invoiced in August 2024", ["Month", "Issued", "Total"], months)
    assert ("string", ("august",)) in linked
    # a year alone still links the cells that write it
    assert ("string", ("2024",)) in _user_entities(
        "which invoices are from 2024", ["Invoice No"], [["INV-2024-07"]]
    )


def test_a_word_of_a_column_named_in_full_or_the_rows_per_divides_by_is_no_cell() -> None:
    callouts = [
        ["Pillar", "9", "Walked off with team"],
        ["Catbells", "6", "Walked off with team"],
        ["Skiddaw", "12", "Airlifted"],
    ]
    header = ["Location", "Team deployed", "Outcome"]
    question = "On average, how many team members were deployed per call-out?"
    assert ("string", ("team",)) not in _user_entities(question, header, callouts)
    assert ("string", ("team",)) in _user_entities("how many walked off with the team", header, callouts)
    bookings = [["Booking.com", "3"], ["Direct", "4"], ["Booking.com", "2"]]
    per = _user_entities("what's the average number of nights per booking", ["Channel", "Nights"], bookings)
    assert per == []
    assert ("string", ("booking",)) in _user_entities(
        "how many came through booking", ["Channel", "Nights"], bookings
    )
    tickets = [["Adult ticket", "12.50"], ["Child ticket", "6.00"]]
    assert ("string", ("adult",)) in _user_entities(
        "what is the price per adult", ["Ticket", "Price"], tickets
    )
    staff = [["Ann", "Sales team", "120"], ["Bo", "Sales team", "220"], ["Cy", "Support", "115"]]
    linked = _user_entities(
        "what were the total sales of the people in sales?", ["Name", "Dept", "Total sales"], staff
    )
    assert ("string", ("sales",)) in linked
    plans = [["Basis", "24 months"], ["Flex", "1 month"]]
    assert _user_entities("What's the cheapest plan per month?", ["Plan", "Contract"], plans) == []


def test_a_header_word_hyphened_to_a_stop_word_is_one_word() -> None:
    regions = [["Capital", "48,210", "41,935"], ["Coast", "12,004", "13,110"]]
    header = ["Region", "In-migration 2023", "Out-migration 2023"]
    table = Table.from_rows("t", header, regions, value_rules="user")
    match = annotate_question(
        "What was the total in-migration summed over all regions in 2023?", table
    ).column_match
    assert match["r.in_migration_2023-number"] > match["r.out_migration_2023-number"]
    stock = Table.from_rows(
        "t", ["Store", "In-stock", "Out-of-stock"], [["Leeds", "4", "2"]], value_rules="user"
    )
    match = annotate_question("how many units were out-of-stock at Leeds", stock).column_match
    assert match.get("r.out_of_stock-number", 0) > match.get("r.in_stock-number", 0)


def test_the_word_after_which_names_the_rows_even_when_said_again_in_a_columns_name() -> None:
    trees = [["ST-0114", "Tulip Tree", "410"], ["ST-0131", "Tulip Tree", "388"], ["ST-0140", "Oak", "300"]]
    header = ["Tree ID", "Common name", "Girth"]
    question = "Which tree has the biggest trunk girth? Just the tree ID please."
    assert ("string", ("tree",)) not in _user_entities(question, header, trees)
