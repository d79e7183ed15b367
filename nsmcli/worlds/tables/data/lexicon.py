"""English words about measuring, for reading questions over user tables: what an adjective or verb measures
(`attribute_nouns`: "oldest" -> age), for a word in any degree ("old", "older", "oldest": `degree_base`).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence

from nsmcli.worlds.tables.data.textnum import WEEKDAY_FORMS

#: What a question's adjective measures: the nouns a header names it by (WordNet's "attribute" relation),
#: so that "the oldest respondent" matches `Age`. Keys are base forms; values are singular and written
#: out, the common form of `valuerules.HeaderWords.word`.
ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "old": ("age",),
    "young": ("age",),
    "long": ("length", "duration", "runtime", "distance"),
    "short": ("length", "duration", "height", "runtime", "distance"),
    "tall": ("height",),
    "high": ("height",),
    "heavy": ("weight", "mass"),
    "light": ("weight", "mass"),
    "hot": ("temperature", "high"),
    "warm": ("temperature", "high"),
    "cold": ("temperature", "low"),
    "cool": ("temperature", "low"),
    "fast": ("speed", "time", "pace"),
    "quick": ("speed", "time", "pace"),
    "slow": ("speed", "time", "pace"),
    "expensive": ("price", "cost", "amount", "fee", "quote", "fare"),
    "cheap": ("price", "cost", "amount", "fee", "quote", "fare"),
    "costly": ("price", "cost", "amount", "fee", "quote", "fare"),
    # "the biggest order" is the one of the largest amount
    "big": ("size", "amount", "total", "value"),
    "large": ("size", "amount", "total", "value"),
    "small": ("size", "amount", "total", "value"),
    "wide": ("width",),
    "narrow": ("width",),
    "deep": ("depth",),
    "shallow": ("depth",),
    "far": ("distance",),
    "near": ("distance",),
    "rich": ("income", "wealth"),
    "poor": ("income", "wealth"),
    "wealthy": ("income", "wealth"),
    "populous": ("population",),
    "wet": ("precipitation", "rainfall", "rain"),
    "dry": ("precipitation", "rainfall", "rain"),
    "rainy": ("precipitation", "rainfall", "rain"),
    "windy": ("wind",),
    "strong": ("strength",),
    "weak": ("strength",),
    "popular": ("popularity",),
    "profitable": ("profit", "margin"),
    "valuable": ("value",),
}


#: Verbs of measuring (and "worth") and the nouns a header names the measure by ("growing" -> `Growth`);
#: exact forms only, since a verb has no degrees ("liver" is no "live", "seller" no "sell").
VERBS: dict[str, tuple[str, ...]] = {
    "grow": ("growth",),
    "grew": ("growth",),
    "grown": ("growth",),
    "growing": ("growth",),
    "weigh": ("weight", "mass"),
    "weighed": ("weight", "mass"),
    "weighing": ("weight", "mass"),
    "cost": ("price", "cost"),
    "costs": ("price", "cost"),
    "earn": ("earnings", "income", "salary", "revenue"),
    "earned": ("earnings", "income", "salary", "revenue"),
    "live": ("life",),
    "lived": ("life",),
    "sell": ("sale",),
    "sold": ("sale",),
    "spend": ("spending", "amount", "cost"),
    "spent": ("spending", "amount", "cost"),
    "worth": ("value", "price", "amount", "total"),
    # not "due": a `Due Date` is no amount owed
    **dict.fromkeys(("owe", "owes", "owed", "owing"), ("balance", "outstanding")),
    **dict.fromkeys(("generate", "generates", "generated", "generating"), ("generation", "output")),
    **dict.fromkeys(("rate", "rated", "rates"), ("rating",)),
    **dict.fromkeys(
        ("leave", "leaves", "leaving", "depart", "departs", "departed", "departing"), ("departure",)
    ),
    **dict.fromkeys(("arrive", "arrives", "arrived", "arriving"), ("arrival",)),
    # not "last": "the last booking" is the latest
    **dict.fromkeys(("lasted", "lasts", "lasting"), ("duration", "length", "runtime")),
}


def degree_base(word: str, known: Container[str]) -> str | None:
    """The base form in `known` of `word` or of its comparative or superlative ("heaviest" -> "heavy",
    "hotter" -> "hot", "larger" -> "large"), or None."""
    if word in known:
        return word
    for suffix in ("est", "er"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            base = next((b for b in base_forms(word[: -len(suffix)]) if b in known), None)
            if base is not None:
                return base
    return None


def base_forms(stem: str) -> list[str]:
    """The base forms a comparative's or superlative's stem may come from: "bigg" -> big, "larg" -> large,
    "heavi" -> heavy (the stem itself first)."""
    forms = [stem, stem + "e"]
    if len(stem) > 2 and stem[-1] == stem[-2]:
        forms.append(stem[:-1])
    if stem.endswith("i"):
        forms.append(stem[:-1] + "y")
    return forms


def attribute_nouns(word: str) -> tuple[str, ...]:
    """The header nouns a question word measures (`ATTRIBUTES`), through its degree: "oldest" -> ("age",),
    "heavier" -> ("weight", "mass"), or of its verb (`VERBS`); () for any other word."""
    if word in VERBS:
        return VERBS[word]
    base = degree_base(word, ATTRIBUTES)
    return ATTRIBUTES[base] if base is not None else ()


def measured_nouns(words: Sequence[str]) -> set[str]:
    """The header nouns that a question's adjectives and verbs measure (`attribute_nouns`: "oldest" -> age,
    "heavier" -> weight, mass)."""
    return {noun for word in words for noun in attribute_nouns(word)}


#: Which way an adjective (base form) or degree word points on the quantity it measures: "heaviest" is the
#: most weight (+1), "cheapest" the least price (-1). Speed words measure speed: over a column of times
#: they point the other way (`polarity`).
MAGNITUDE: dict[str, int] = {
    **dict.fromkeys(
        "old long tall high heavy hot warm fast quick expensive costly big large wide deep far rich wealthy "
        "populous wet rainy windy strong popular profitable valuable great more most top maximum "
        "max busy loud bright".split(),
        1,
    ),
    **dict.fromkeys(
        "young short light cold cool slow cheap small narrow shallow near poor dry weak low few less "
        "least fewer fewest bottom minimum min quiet dim".split(),
        -1,
    ),
}
#: Which way a word points in time, over a column of dates: "oldest" and "first" are the earliest (-1),
#: "newest" and "most recent" the latest (+1).
TIME_DIRECTION: dict[str, int] = {
    **dict.fromkeys("old early first soon long".split(), -1),
    **dict.fromkeys("young new recent late last".split(), 1),
}
#: Adjectives of speed: the fastest of a column of times is its smallest.
SPEED = frozenset({"fast", "quick", "slow"})
#: Verbs of money going out: "how much did I spend in 2023" asks for a total of the year's rows, and "how
#: much was spent on fuel" of a ledger's negative outgoings asks for their size.
SPENDING = frozenset({"spend", "spent", "pay", "paid"})
#: Words that ask for a total.
TOTAL_WORDS = frozenset({"total", "totals", "altogether", "sum", "combined", "add", "overall"})
#: Words that ask for an average ("the average share from 2019 to 2023").
AVERAGE_WORDS = frozenset({"average", "mean", "avg"})
#: Words that ask for one figure of several rows together: a total or an average ("the combined GDP of
#: France, Germany and the United Kingdom", "their average age").
AGGREGATE_WORDS = TOTAL_WORDS | {"average", "together", "mean"}
#: Words that end a list ("France, Germany and the United Kingdom").
LIST_JOINS = frozenset({"and", "&"})


def asks_amount_spent(words: Sequence[str]) -> bool:
    """Whether lower-cased question words ask "how much" with a verb of `SPENDING` ("how much did I spend in
    2023"; "who spent the most" does not)."""
    how_much = any(a == "how" and b == "much" for a, b in zip(words, words[1:], strict=False))
    return how_much and not SPENDING.isdisjoint(words)


#: Words of distance that point only in their degrees: "a quake near Caddick", "so far" and "far away"
#: compare nothing, "the nearest" and "the farthest" do (`polarity`'s `degrees_only`).
_DEGREES_ONLY = frozenset({"near", "far"})
#: Irregular degrees, and the base form each is a degree of.
_IRREGULAR_DEGREES = {"farther": "far", "farthest": "far", "furthest": "far"}


def polarity(word: str, *, dates: bool = False, times: bool = False, degrees_only: bool = False) -> int:
    """Which way `word` in any degree ("heaviest", "older", "most") points over the compared column: +1 to
    its largest values, -1 to its smallest, 0 for a word that does not say. `dates`: the column holds dates
    or years, where a word of time (`TIME_DIRECTION`) says it first; `times`: it holds durations or clock
    times, where speed words point down. `degrees_only`: "near" and "far" point only as degrees
    ("nearest", "farthest"); the reranker of WTQ tables was fitted without it."""
    if degrees_only:
        if word in _DEGREES_ONLY:
            return 0
        word = _IRREGULAR_DEGREES.get(word, word)
    if dates:
        base = degree_base(word, TIME_DIRECTION)
        if base is not None:
            return TIME_DIRECTION[base]
    base = degree_base(word, MAGNITUDE)
    if base is None:
        return 0
    return -MAGNITUDE[base] if times and base in SPEED else MAGNITUDE[base]


#: Words that make the adjective after them a degree of theirs: "least expensive" points down, "most
#: recent" up, as the adjective's own way times theirs.
DEGREE_WORDS = {"most": 1, "more": 1, "least": -1, "less": -1}


def pointing(
    words: Sequence[str], *, dates: bool = False, times: bool = False, degrees_only: bool = False
) -> set[int]:
    """The ways (+1, -1) a question's words point over a column (`polarity`), a degree word and the
    adjective after it read as one ("least expensive": -1, not both ways)."""
    ways = set()
    i = 0
    while i < len(words):
        degree = DEGREE_WORDS.get(words[i])
        after = (
            polarity(words[i + 1], dates=dates, times=times, degrees_only=degrees_only)
            if i + 1 < len(words)
            else 0
        )
        if degree is not None and after and words[i + 1] not in DEGREE_WORDS:
            ways.add(degree * after)
            i += 2
            continue
        way = polarity(words[i], dates=dates, times=times, degrees_only=degrees_only)
        if way:
            ways.add(way)
        i += 1
    return ways


#: Phrases that bound a column's values by the number or date written next to them ("more than 30",
#: "before 2016", "at least 5", "5 or more"): the side the kept values lie on (+1 above, -1 below) and
#: whether the bound itself is kept. Those of `BOUNDS_AFTER` follow their number; the others precede it.
BOUNDS: dict[tuple[str, ...], tuple[int, bool]] = {
    **dict.fromkeys(
        [("more", "than"), ("greater", "than"), ("higher", "than"), ("larger", "than"), ("bigger", "than")]
        + [("over",), ("above",), ("exceed",), ("exceeding",), ("exceeds",), ("exceeded",), ("after",)]
        + [("later", "than")]
        + [("beyond",)],
        (1, False),
    ),
    **dict.fromkeys(
        [("at", "least"), ("no", "less", "than"), ("no", "fewer", "than"), ("not", "less", "than")]
        + [("since",), ("on", "or", "after")],
        (1, True),
    ),
    **dict.fromkeys(
        [("less", "than"), ("fewer", "than"), ("lower", "than"), ("smaller", "than"), ("under",)]
        + [("below",), ("before",), ("earlier", "than"), ("prior", "to")],
        (-1, False),
    ),
    **dict.fromkeys(
        [("at", "most"), ("no", "more", "than"), ("not", "more", "than"), ("up", "to"), ("until",)]
        + [("on", "or", "before")],
        (-1, True),
    ),
}
BOUNDS_AFTER: dict[tuple[str, ...], tuple[int, bool]] = {
    ("or", "more"): (1, True),
    ("or", "higher"): (1, True),
    ("or", "above"): (1, True),
    ("or", "over"): (1, True),
    ("or", "later"): (1, True),
    ("onwards",): (1, True),
    ("and", "over"): (1, True),
    ("and", "above"): (1, True),
    ("or", "less"): (-1, True),
    ("or", "fewer"): (-1, True),
    ("or", "lower"): (-1, True),
    ("or", "below"): (-1, True),
    ("or", "under"): (-1, True),
    ("or", "earlier"): (-1, True),
    ("and", "under"): (-1, True),
    ("and", "below"): (-1, True),
}
#: "The day after March 20" names a neighbour, not a bound ("in what year after 1990" is a bound): these
#: nouns after "the" or "a", or these adverbs, just before "after" or "before".
_NEIGHBOUR_NOUNS = frozenset("day week month year one game match race row entry stage round".split())
_NEIGHBOUR_ADVERBS = frozenset("just right immediately directly".split())


def bounds(words: Sequence[str], is_value: Callable[[str], bool]) -> set[tuple[int, bool]]:
    """The bounds (`BOUNDS`: side, kept) a question's words set next to a value (`is_value`: a number's or
    month's word; "33 g or more": a unit may stand between). "Between" sets none (a range has both sides).
    "The day after March 20" names a neighbour, not a bound."""
    found = set()
    i = 0
    while i < len(words):
        step = 1
        for length in (3, 2, 1):
            phrase = tuple(words[i : i + length])
            if len(phrase) < length:
                continue
            if phrase in BOUNDS and i + length < len(words) and is_value(words[i + length]):
                neighbour = phrase[0] in ("after", "before") and (
                    (i > 0 and words[i - 1] in _NEIGHBOUR_ADVERBS)
                    or (i > 1 and words[i - 2] in ("the", "a") and words[i - 1] in _NEIGHBOUR_NOUNS)
                )
                if not neighbour:
                    found.add(BOUNDS[phrase])
                step = length
                break
            if phrase in BOUNDS_AFTER and any(is_value(w) for w in words[max(i - 2, 0) : i]):
                found.add(BOUNDS_AFTER[phrase])
                step = length
                break
        i += step
    return found


#: The US states by name, lower-cased, and the postal code a table writes for each (lower-cased, as cells are
#: compared): "sales to texas customers" of a `State` column of `TX`.
US_STATES: dict[str, str] = {
    "alabama": "al",
    "alaska": "ak",
    "arizona": "az",
    "arkansas": "ar",
    "california": "ca",
    "colorado": "co",
    "connecticut": "ct",
    "delaware": "de",
    "florida": "fl",
    "georgia": "ga",
    "hawaii": "hi",
    "idaho": "id",
    "illinois": "il",
    "indiana": "in",
    "iowa": "ia",
    "kansas": "ks",
    "kentucky": "ky",
    "louisiana": "la",
    "maine": "me",
    "maryland": "md",
    "massachusetts": "ma",
    "michigan": "mi",
    "minnesota": "mn",
    "mississippi": "ms",
    "missouri": "mo",
    "montana": "mt",
    "nebraska": "ne",
    "nevada": "nv",
    "new hampshire": "nh",
    "new jersey": "nj",
    "new mexico": "nm",
    "new york": "ny",
    "north carolina": "nc",
    "north dakota": "nd",
    "ohio": "oh",
    "oklahoma": "ok",
    "oregon": "or",
    "pennsylvania": "pa",
    "rhode island": "ri",
    "south carolina": "sc",
    "south dakota": "sd",
    "tennessee": "tn",
    "texas": "tx",
    "utah": "ut",
    "vermont": "vt",
    "virginia": "va",
    "washington": "wa",
    "west virginia": "wv",
    "wisconsin": "wi",
    "wyoming": "wy",
    "district of columbia": "dc",
    "washington dc": "dc",
}
US_STATE_CODES = frozenset(US_STATES.values())


#: The country (or region) a demonym names, as a cell may write it, most usual first: "the German stores" are
#: those whose country is Germany. Only single words; a cell that holds the word itself links as it is.
#: Left out: words that more often name a language than a country here ("English", "Welsh"), and short
#: forms that occur inside other cells ("US" in "US$", "America" in "South America").
DEMONYMS: dict[str, tuple[str, ...]] = {
    "american": ("united states", "usa", "united states of america"),
    "british": ("united kingdom", "uk", "great britain", "britain"),
    "scottish": ("scotland",),
    "irish": ("ireland",),
    "german": ("germany",),
    "french": ("france",),
    "italian": ("italy",),
    "spanish": ("spain",),
    "portuguese": ("portugal",),
    "dutch": ("netherlands", "the netherlands", "holland"),
    "belgian": ("belgium",),
    "swiss": ("switzerland",),
    "austrian": ("austria",),
    "swedish": ("sweden",),
    "norwegian": ("norway",),
    "danish": ("denmark",),
    "finnish": ("finland",),
    "icelandic": ("iceland",),
    "polish": ("poland",),
    "czech": ("czech republic", "czechia"),
    "slovak": ("slovakia",),
    "hungarian": ("hungary",),
    "romanian": ("romania",),
    "bulgarian": ("bulgaria",),
    "greek": ("greece",),
    "turkish": ("turkey", "türkiye"),
    "russian": ("russia",),
    "ukrainian": ("ukraine",),
    "croatian": ("croatia",),
    "serbian": ("serbia",),
    "slovenian": ("slovenia",),
    "estonian": ("estonia",),
    "latvian": ("latvia",),
    "lithuanian": ("lithuania",),
    "luxembourgish": ("luxembourg",),
    "canadian": ("canada",),
    "mexican": ("mexico",),
    "brazilian": ("brazil",),
    "argentine": ("argentina",),
    "argentinian": ("argentina",),
    "chilean": ("chile",),
    "colombian": ("colombia",),
    "peruvian": ("peru",),
    "venezuelan": ("venezuela",),
    "cuban": ("cuba",),
    "jamaican": ("jamaica",),
    "chinese": ("china",),
    "japanese": ("japan",),
    "korean": ("south korea", "korea"),
    "indian": ("india",),
    "pakistani": ("pakistan",),
    "bangladeshi": ("bangladesh",),
    "indonesian": ("indonesia",),
    "thai": ("thailand",),
    "vietnamese": ("vietnam", "viet nam"),
    "filipino": ("philippines",),
    "malaysian": ("malaysia",),
    "singaporean": ("singapore",),
    "australian": ("australia",),
    "egyptian": ("egypt",),
    "nigerian": ("nigeria",),
    "kenyan": ("kenya",),
    "ethiopian": ("ethiopia",),
    "ghanaian": ("ghana",),
    "moroccan": ("morocco",),
    "algerian": ("algeria",),
    "tunisian": ("tunisia",),
    "israeli": ("israel",),
    "iranian": ("iran",),
    "iraqi": ("iraq",),
    "saudi": ("saudi arabia",),
    "emirati": ("united arab emirates", "uae"),
    "european": ("europe",),
    "african": ("africa",),
    "asian": ("asia",),
}


#: Header words of German, French and Spanish exports, folded as a slug folds them (`Schüler` is `schuler`,
#: `Quantité` `quantite`), and the English words a question names them by: "the attendance rate" of
#: `Anwesenheitsquote`. Only words no English header writes ("Land", "Tag", "Stand" and "Service" are left
#: out), so an English table reads as before.
HEADER_TRANSLATIONS: dict[str, tuple[str, ...]] = {
    # German
    "datum": ("date",),
    "monat": ("month",),
    "jahr": ("year",),
    "woche": ("week",),
    "uhrzeit": ("time",),
    "zeit": ("time",),
    "dauer": ("duration",),
    "klasse": ("class",),
    "klassenleitung": ("teacher",),
    "lehrer": ("teacher",),
    "lehrerin": ("teacher",),
    "schuler": ("pupil", "student"),
    "gesamt": ("total",),
    "summe": ("total", "sum"),
    "betrag": ("amount",),
    "preis": ("price",),
    "kosten": ("cost",),
    "menge": ("quantity",),
    "anzahl": ("number", "count"),
    "nummer": ("number",),
    "umsatz": ("revenue", "sales"),
    "kunde": ("customer",),
    "produkt": ("product",),
    "artikel": ("item", "article"),
    "bezeichnung": ("description", "name"),
    "kategorie": ("category",),
    "bestand": ("stock",),
    "lagerbestand": ("stock",),
    "rabatt": ("discount",),
    "stadt": ("city",),
    "vorname": ("forename",),
    "nachname": ("surname",),
    "abteilung": ("department",),
    "mitarbeiter": ("employee", "staff"),
    "gehalt": ("salary",),
    "lohn": ("wage", "pay"),
    "stunden": ("hour",),
    "verbrauch": ("consumption", "usage"),
    "zahlerstand": ("reading", "meter"),
    "veranderung": ("change",),
    "vorjahr": ("previous",),
    "bemerkung": ("note", "comment", "remark"),
    "abwesend": ("absent", "missing"),
    "fehlend": ("absent", "missing"),
    "anwesend": ("present",),
    "anwesenheit": ("attendance",),
    "temperatur": ("temperature",),
    "niederschlag": ("precipitation", "rainfall", "rain"),
    "gewicht": ("weight",),
    "lieferant": ("supplier",),
    "rechnung": ("invoice",),
    "bestellung": ("order",),
    "zahlung": ("payment",),
    "bezahlt": ("paid",),
    "einnahmen": ("income", "revenue"),
    "ausgaben": ("expense", "spending"),
    "steuer": ("tax",),
    "miete": ("rent",),
    "verkaufer": ("seller",),
    # French
    "mois": ("month",),
    "annee": ("year",),
    "jour": ("day",),
    "semaine": ("week",),
    "heure": ("time", "hour"),
    "montant": ("amount",),
    "quantite": ("quantity",),
    "cout": ("cost",),
    "ventes": ("sales",),
    "vente": ("sale",),
    "produit": ("product",),
    "ville": ("city",),
    "prenom": ("forename",),
    "categorie": ("category",),
    "remise": ("discount",),
    "poids": ("weight",),
    "duree": ("duration",),
    "salaire": ("salary",),
    "employe": ("employee",),
    "commande": ("order",),
    "facture": ("invoice",),
    "fournisseur": ("supplier",),
    "taux": ("rate",),
    "moyenne": ("average",),
    "affaires": ("revenue", "sales"),
    # Spanish
    "fecha": ("date",),
    "mes": ("month",),
    "ano": ("year",),
    "precio": ("price",),
    "cantidad": ("quantity",),
    "importe": ("amount",),
    "monto": ("amount",),
    "cliente": ("customer",),
    "producto": ("product",),
    "ciudad": ("city",),
    "pais": ("country",),
    "nombre": ("name",),
    "ventas": ("sales",),
    "costo": ("cost",),
    "coste": ("cost",),
}
#: German words that end compounds ("Anwesenheits-quote") and are no header alone in any language here
#: ("Quote" is an English header too).
_COMPOUND_HEADS: dict[str, tuple[str, ...]] = {"quote": ("rate",), "leitung": ("head",)}
#: Heads that end German compounds whatever comes before them ("Ablese-datum", "Rechnungs-betrag"): no
#: English word ends in them, as "manu-facture" ends in French's "facture" and "Nash-ville" in "ville".
_GERMAN_HEADS = frozenset(
    "datum betrag preis menge anzahl nummer summe kosten stunden gewicht dauer umsatz zeit bestand".split()
)
#: The letters that may join the parts of a German compound ("Anwesenheit-s-quote", "Klasse-n-lehrer").
_COMPOUND_JOINS = ("", "s", "n", "en", "es", "e")


def header_translation(piece: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The English words of a header word of a German, French or Spanish export (`HEADER_TRANSLATIONS`),
    as (words of the thing it names, words of what modifies it): a German compound's last part names the
    thing, its first part modifies it ("anwesenheitsquote" -> (rate,), (attendance,); "umsatzsteuer", a
    tax, -> (tax,), (revenue, sales)). A compound needs both parts known, or a last part that only German
    ends words with (`_GERMAN_HEADS`: "ablesedatum" -> (date,), ()); ((), ()) for any other word. The last
    part has four letters or more, the first three or more."""
    if piece in HEADER_TRANSLATIONS:
        return HEADER_TRANSLATIONS[piece], ()
    for cut in range(3, len(piece) - 3):  # the longest head first
        tail = piece[cut:]
        head = HEADER_TRANSLATIONS.get(tail) or _COMPOUND_HEADS.get(tail)
        if head is None:
            continue
        first = piece[:cut]
        for join in _COMPOUND_JOINS:
            stem = first[: len(first) - len(join)]
            if first.endswith(join) and stem in HEADER_TRANSLATIONS:
                return head, HEADER_TRANSLATIONS[stem]
        if tail in _GERMAN_HEADS:
            return head, ()
    return (), ()


#: Each form of a weekday (`textnum.WEEKDAY_FORMS`), and a full name's plural ("thursdays"), -> all of its
#: forms: "thursday" in a question is the `Thu` of a `Day` column.
WEEKDAY_OF: dict[str, tuple[str, ...]] = {
    word: forms for forms in WEEKDAY_FORMS for word in (*forms, forms[0] + "s")
}
#: Short forms of weekdays that are English words too ("the sun", "she sat"): a day only after `BEFORE_A_DAY`.
WEEKDAY_WORDS = frozenset({"sun", "sat", "wed", "mon"})
#: Words that stand before a day's name ("on sat", "every wed", "until mon").
BEFORE_A_DAY = frozenset(
    "on every each next last this that until till from by before after since of and or to".split()
)

#: Words ending in "s" that are no plurals, whose "singular" is another word a cell may hold ("thus" is no
#: `Thu`, "news" no `New`): `annotate.inflections` leaves them as they are.
NOT_PLURALS = frozenset({"thus", "news", "series", "species", "means", "whereas", "always", "towards"})

#: The playing positions a sports table writes by code (`GK`, `DF`, `MF`, `FW`; `PG`, `C`; `LW`, `D`), by the
#: words a question names them with, singular: each word's codes in order of preference, the first a positions
#: column holds being meant ("forwards" is `FW` in a football squad, `F` in a box score).
POSITION_WORDS: dict[tuple[str, ...], tuple[str, ...]] = {
    ("goalkeeper",): ("gk", "gkp", "g"),
    ("keeper",): ("gk", "gkp", "g", "wk"),
    ("goalie",): ("g", "gk", "gkp"),
    ("goaltender",): ("g", "gk"),
    ("defender",): ("df", "def", "d"),
    ("defenseman",): ("d",),
    ("defenceman",): ("d",),
    ("defensemen",): ("d",),
    ("defencemen",): ("d",),
    ("midfielder",): ("mf", "mid", "m"),
    ("forward",): ("fw", "fwd", "f"),
    ("striker",): ("st", "fw", "fwd", "f"),
    ("attacker",): ("fw", "fwd", "f"),
    ("point", "guard"): ("pg",),
    ("shooting", "guard"): ("sg",),
    ("small", "forward"): ("sf",),
    ("power", "forward"): ("pf",),
    ("guard",): ("g",),
    ("center",): ("c",),
    ("centre",): ("c",),
    ("left", "wing"): ("lw",),
    ("left", "winger"): ("lw",),
    ("right", "wing"): ("rw",),
    ("right", "winger"): ("rw",),
    ("pitcher",): ("p",),
    ("catcher",): ("c",),
    ("shortstop",): ("ss",),
    ("left", "fielder"): ("lf",),
    ("center", "fielder"): ("cf",),
    ("centre", "fielder"): ("cf",),
    ("right", "fielder"): ("rf",),
    ("outfielder",): ("of",),
    ("wicketkeeper",): ("wk",),
}
#: Every code of `POSITION_WORDS`, and those a positions column may hold beside them (a baseball team's bases).
POSITION_CODES = frozenset(code for codes in POSITION_WORDS.values() for code in codes) | {
    "1b",
    "2b",
    "3b",
    "dh",
}
#: The names of a positions column.
POSITION_HEADERS = frozenset({"pos", "position", "positions", "posn", "role"})

#: The names one country goes by, lower-cased: a question's "UK" is a table's `United Kingdom`, its "United
#: States" a `USA` (`annotate._country_name_entities`). "us" counts only written "US" (else the pronoun).
COUNTRY_NAMES: tuple[tuple[str, ...], ...] = (
    ("united states", "usa", "us", "u.s.", "u.s.a.", "united states of america"),
    ("united kingdom", "uk", "u.k.", "great britain", "britain"),
    ("united arab emirates", "uae"),
    ("south korea", "korea", "republic of korea"),
    ("czech republic", "czechia"),
    ("netherlands", "holland", "the netherlands"),
)
