"""`preprocess` on slices of the real WTQ and WikiSQL releases, and loading what it wrote."""

import json
import random
import shutil
from pathlib import Path

import pytest

from nsmcli.errors import DataError
from nsmcli.worlds.tables.data.preprocess import load_dataset, preprocess
from nsmcli.worlds.tables.lang.program import parse_program


def wtq_slice(data_dir: Path, dest: Path, n: int = 40, split: str = "random-split-1-train") -> Path:
    """A miniature WTQ release: the first `n` questions of `split` and their tables."""
    source = data_dir / "wtq"
    lines = (source / "data" / f"{split}.tsv").read_text(encoding="utf-8").splitlines()[: n + 1]
    (dest / "data").mkdir(parents=True)
    (dest / "data" / f"{split}.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for line in lines[1:]:
        context = line.split("\t")[2]
        target = dest / context
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source / context, target)
    return dest


def wikisql_slice(data_dir: Path, dest: Path, n: int = 60) -> Path:
    source = data_dir / "wikisql"
    questions = (source / "dev.jsonl").read_text(encoding="utf-8").splitlines()[:n]
    wanted = {json.loads(q)["table_id"] for q in questions}
    dest.mkdir(parents=True)
    (dest / "dev.jsonl").write_text("\n".join(questions) + "\n", encoding="utf-8")
    with open(source / "dev.tables.jsonl", encoding="utf-8") as f:
        tables = [line for line in f if json.loads(line)["id"] in wanted]
    (dest / "dev.tables.jsonl").write_text("".join(tables), encoding="utf-8")
    return dest


def test_wtq_slice(data_dir, tmp_path):
    release = wtq_slice(data_dir, tmp_path / "release")
    summary = preprocess("wtq", release, tmp_path / "out")
    assert summary.examples == {"random-split-1-train": 40}
    dataset = load_dataset(tmp_path / "out")
    examples = dataset.examples("random-split-1-train")
    assert [e.id for e in examples[:3]] == ["nt-0", "nt-1", "nt-4"]  # file order (nt-2 is in dev)
    first = examples[0]
    assert first.table_id == "t_204_590" and first.answer == ["2004"]
    assert [(e.kind, e.values) for e in first.question.entities] == [("string", ("usl a-league",))]
    # the answer check is the official one: "2004" matches the number 2004 a program returns
    assert dataset.is_correct(first, [2004.0]) and not dataset.is_correct(first, [2003.0])
    env = dataset.environment(first)
    result = env.execute(
        '(filter_str_contain_any all_rows "usl a-league" r.league-string) (last v0) (hop v1 r.year-number)'
    )
    assert result.error is None and dataset.is_correct(first, result.answer)
    vocab = json.loads((tmp_path / "out" / "vocab.json").read_text())
    assert vocab["random-split-1-train"]["the"] > 10


def test_wtq_programs_round_trip_on_real_tables(data_dir, tmp_path):
    """Random valid programs on real tables: tokens -> text -> tree -> tokens is the identity."""
    preprocess("wtq", wtq_slice(data_dir, tmp_path / "release", n=25), tmp_path / "out")
    dataset = load_dataset(tmp_path / "out")
    rng = random.Random(0)
    checked = 0
    for example in dataset.examples("random-split-1-train"):
        env = dataset.environment(example)
        for _ in range(20):
            state = env.initial_state()
            while not state.done:
                state = env.step(state, rng.choice(env.valid_tokens(state)))
            assert state.error is None
            text = str(env.decode(state.tokens))
            assert str(parse_program(text)) == text
            assert tuple(env.encode(text)) == state.tokens
            assert env.execute(text).answer == env.result(state).answer
            checked += 1
    assert checked == 500


def test_wikisql_slice_answers_come_from_gold_sql_which_is_not_written(data_dir, tmp_path):
    release = wikisql_slice(data_dir, tmp_path / "release")
    summary = preprocess("wikisql", release, tmp_path / "out")
    assert summary.examples == {"dev": 60}
    text = (tmp_path / "out" / "dev.jsonl").read_text()
    assert '"sql"' not in text and "conds" not in text
    dataset = load_dataset(tmp_path / "out")
    first = dataset.examples("dev")[0]
    # "What position does the player who played for butler cc (ks) play?" -> Guard-Forward
    assert first.answer == ["Guard-Forward"]
    env = dataset.environment(first)
    assert any(e.kind == "string" and "butler cc" in e.values[0] for e in first.question.entities)
    program = (
        '(filter_str_contain_any all_rows "butler cc" r.school_club_team-string) (hop v0 r.position-string)'
    )
    assert dataset.is_correct(first, env.execute(program).answer)


def test_preprocess_failure_keeps_previous_output(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "meta.json").write_text("{}")
    with pytest.raises(DataError):
        preprocess("wtq", tmp_path, out)
    assert (out / "meta.json").read_text() == "{}"


def test_load_dataset_rejects_other_directories(tmp_path):
    with pytest.raises(DataError, match="nsm preprocess"):
        load_dataset(tmp_path)
    (tmp_path / "meta.json").write_text("{not json")
    with pytest.raises(DataError, match="corrupt"):
        load_dataset(tmp_path)


# ----- your own questions and tables ----------------------------------------------------------------------

OWN_DATA = Path(__file__).resolve().parents[1] / "examples" / "own-data"


def test_own_tables_dataset_from_question_files(tmp_path):
    """`nsm preprocess tables`: one split per question file, table ids are paths relative to the data
    directory, answers checked as WTQ's (the bundled example's answers are all reachable by a program)."""
    summary = preprocess("tables", OWN_DATA, tmp_path / "out")
    assert summary.examples == {"dev": 26, "train": 32} and summary.tables == 4
    dataset = load_dataset(tmp_path / "out")
    assert dataset.language == "wtq"
    first = dataset.examples("train")[0]
    assert (first.id, first.table_id, first.answer) == ("train-2", "../tables/medals.csv", ["14"])
    env = dataset.environment(first)
    program = '(filter_str_contain_any all_rows "norway" r.nation-string) (hop v0 r.gold-number)'
    assert dataset.is_correct(first, env.execute(program).answer)
    assert not dataset.is_correct(first, env.execute("(count all_rows)").answer)


def test_own_tables_dataset_skips_bad_questions_with_reasons(tmp_path):
    data = tmp_path / "mine"
    (data / "tables").mkdir(parents=True)
    shutil.copy(OWN_DATA.parent / "tables" / "medals.csv", data / "tables" / "medals.csv")
    (data / "tables" / "empty.csv").write_text("a,b\n", encoding="utf-8")
    (data / "train.tsv").write_text(
        "table\tquestion\tanswer\n"
        "tables/medals.csv\thow many nations are listed?\t11\n"
        "tables/medals.csv\twho won?\n"  # no answer
        "tables/nope.csv\thow many?\t3\n"
        "tables/empty.csv\thow many?\t0\n",
        encoding="utf-8",
    )
    summary = preprocess("tables", data, tmp_path / "out")
    assert summary.examples == {"train": 1}
    assert summary.skipped == {"train": {"no answer": 1, "table unreadable": 2}}  # missing; header only
    (data / "train.tsv").write_text("question\tanswer\nhow many?\t3\n", encoding="utf-8")
    with pytest.raises(DataError, match="header table<TAB>question"):
        preprocess("tables", data, tmp_path / "out")
    (data / "train.tsv").unlink()
    with pytest.raises(DataError, match="no question files"):
        preprocess("tables", data, tmp_path / "out")
    assert load_dataset(tmp_path / "out").examples("train")[0].answer == ["11"]  # earlier output kept


def test_question_files_saved_by_spreadsheets_are_read(tmp_path):
    """A byte-order mark and Windows line ends (what spreadsheet programs write) are not part of the data."""
    data = tmp_path / "mine"
    (data / "tables").mkdir(parents=True)
    shutil.copy(OWN_DATA.parent / "tables" / "medals.csv", data / "tables" / "medals.csv")
    text = "table\tquestion\tanswer\r\ntables/medals.csv\thow many nations are listed?\t11\r\n"
    (data / "train.tsv").write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    summary = preprocess("tables", data, tmp_path / "out")
    assert summary.examples == {"train": 1}
    example = load_dataset(tmp_path / "out").examples("train")[0]
    assert example.answer == ["11"] and example.question.text == "how many nations are listed?"


def test_own_tables_keep_the_user_value_rules_through_preprocessing(tmp_path):
    """Tables of `nsm preprocess tables` are typed by the user rules when written and when loaded again;
    the questions' percentages are numbers, as the cells are."""
    data = tmp_path / "mine"
    (data / "tables").mkdir(parents=True)
    (data / "tables" / "stocks.csv").write_text(
        "Name;Change;Share\nAcme;-3,5;12,5%\nBolt;1,2;3%\nCorex;-0,4;7%\n", encoding="utf-8"
    )
    (data / "train.tsv").write_text(
        "table\tquestion\tanswer\ntables/stocks.csv\twhich fell the most?\tAcme\n"
        "tables/stocks.csv\twho had a share over 5%?\tAcme|Corex\n",
        encoding="utf-8",
    )
    preprocess("tables", data, tmp_path / "out")
    record = json.loads((tmp_path / "out" / "tables.jsonl").read_text(encoding="utf-8"))
    assert record["value_rules"] == "user"
    dataset = load_dataset(tmp_path / "out")
    table = dataset.tables["tables/stocks.csv"]
    assert (table.value_rules, table.column("Change").views["number"]) == ("user", (-3.5, 1.2, -0.4))
    second = dataset.examples("train")[1]
    assert [e.values for e in second.question.entities if e.kind == "number"] == [(5.0,)]
    env = dataset.environment(dataset.examples("train")[0])
    answer = env.execute("(argmin all_rows r.change-number) (hop v0 r.name-string)").answer
    assert dataset.is_correct(dataset.examples("train")[0], answer)


def test_wtq_and_wikisql_tables_records_name_no_value_rules(data_dir, tmp_path):
    preprocess("wtq", wtq_slice(data_dir, tmp_path / "wtq", n=5), tmp_path / "out")
    for line in (tmp_path / "out" / "tables.jsonl").read_text(encoding="utf-8").splitlines():
        assert "value_rules" not in json.loads(line)
    assert {t.value_rules for t in load_dataset(tmp_path / "out").tables.values()} == {"wtq"}


def test_linking_is_chosen_at_preprocessing_and_recorded(tmp_path):
    """`--linking substring` reproduces MAPO's substring linking; the choice is in meta.json, and a run
    trained on the data annotates its parse questions the same way."""
    from nsmcli.worlds.tables.data.annotate import DEFAULT_LINKING
    from nsmcli.worlds.tables.data.preprocess import run_linking

    entities = {}
    for linking in ("word", "substring"):
        preprocess("tables", OWN_DATA, tmp_path / linking, linking=linking)
        dataset = load_dataset(tmp_path / linking)
        assert dataset.meta["linking"] == linking
        assert run_linking({"language": "wtq", "dataset": {"meta": dataset.meta}}) == linking
        entities[linking] = {(e.id, x.values) for e in dataset.examples("train") for x in e.question.entities}
    # the medal table has Germany: substring linking finds "many" in every "how many" question
    dropped = entities["substring"] - entities["word"]
    assert dropped and {values for _, values in dropped} == {("many",)}
    assert entities["word"] < entities["substring"]
    preprocess("tables", OWN_DATA, tmp_path / "default")
    assert load_dataset(tmp_path / "default").meta["linking"] == DEFAULT_LINKING == "word"
    # runs from before linking was recorded (the bundled models): the default
    assert run_linking({"language": "wikisql", "dataset": {"meta": {}}}) == DEFAULT_LINKING


def _own_questions(root: Path, rows: list[str], name: str = "train.tsv") -> Path:
    (root / "tables").mkdir(parents=True, exist_ok=True)
    (root / "tables" / "t.csv").write_text("Team,Wins\nAcme,3\nBolt,5\n", encoding="utf-8")
    (root / name).write_text("table\tquestion\tanswer\n" + "".join(r + "\n" for r in rows), encoding="utf-8")
    return root


def test_two_questions_on_one_unreadable_table_are_both_skipped(tmp_path):
    data = _own_questions(tmp_path / "q", ["tables/t.csv\twho won most?\tBolt"])
    (data / "tables" / "bad.csv").write_bytes(b"")  # empty: unreadable
    with open(data / "train.tsv", "a", encoding="utf-8") as f:
        f.write("tables/bad.csv\tfirst question?\tx\ntables/bad.csv\tsecond question?\ty\n")
    summary = preprocess("tables", data, tmp_path / "out")
    assert summary.examples["train"] == 1 and summary.skipped["train"] == {"table unreadable": 2}


def test_a_question_file_named_like_an_output_file_is_refused(tmp_path):
    data = _own_questions(tmp_path / "q", ["tables/t.csv\twho won most?\tBolt"], name="tables.tsv")
    with pytest.raises(DataError, match="cannot be named tables.tsv"):
        preprocess("tables", data, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_preprocess_output_in_use_or_unwritable_fails_before_any_work(tmp_path):
    from nsmcli.fileio import output_lock

    data = _own_questions(tmp_path / "q", ["tables/t.csv\twho won most?\tBolt"])
    with output_lock(tmp_path / "out", "preprocessing output", inside=False):
        with pytest.raises(DataError, match="being written by another nsm process"):
            preprocess("tables", data, tmp_path / "out")
    (tmp_path / "a-file").write_text("")
    with pytest.raises(DataError, match="cannot write"):
        preprocess("tables", data, tmp_path / "a-file" / "out")
    stale = tmp_path / ".out.x1.partial"  # what a killed run's staging left
    stale.mkdir()
    preprocess("tables", data, tmp_path / "out")
    assert not stale.exists() and load_dataset(tmp_path / "out").splits == ["train"]


def test_question_files_break_lines_only_at_newlines(tmp_path):
    rows = ["tables/t.csv\twho won\u2028most?\tBolt", "tables/t.csv\thow many teams\x85are there?\t2"]
    data = _own_questions(tmp_path / "q", rows)
    summary = preprocess("tables", data, tmp_path / "out")
    ids = [e.id for e in load_dataset(tmp_path / "out").examples("train")]
    assert summary.examples["train"] == 2 and ids == ["train-2", "train-3"]


def test_mix_in_puts_another_datasets_questions_in_train(data_dir, tmp_path):
    """`nsm preprocess tables --mix-in DIR:SPLIT:COUNT`: the first COUNT questions of another preprocessed
    dataset join the train split as that dataset wrote them, with their tables, each table keeping its own
    value rules; dev is untouched, and meta.json says where the questions came from."""
    from nsmcli.worlds.tables.data.preprocess import MixIn

    preprocess("wtq", wtq_slice(data_dir, tmp_path / "wtq", n=12), tmp_path / "wtq-out")
    mix = MixIn.parse(f"{tmp_path / 'wtq-out'}:random-split-1-train:5")
    summary = preprocess("tables", OWN_DATA, tmp_path / "out", mix_in=mix)
    assert summary.examples == {"dev": 26, "train": 37} and summary.mixed_in["questions"] == 5
    dataset = load_dataset(tmp_path / "out")
    assert dataset.meta["mixed_in"]["split"] == "random-split-1-train"
    train = dataset.examples("train")
    assert [e.id for e in train[32:34]] == ["nt-0", "nt-1"] and train[0].id == "train-2"
    assert len(dataset.examples("dev")) == 26
    rules = {t.id: t.value_rules for t in dataset.tables.values()}
    assert rules["t_204_590"] == "wtq" and rules["../tables/medals.csv"] == "user"
    mixed = train[32]
    result = dataset.environment(mixed).execute(
        '(filter_str_contain_any all_rows "usl a-league" r.league-string) (last v0) (hop v1 r.year-number)'
    )
    assert dataset.is_correct(mixed, result.answer)
    with pytest.raises(DataError, match="has 12 questions"):  # the slice's 12, not 50
        preprocess("tables", OWN_DATA, tmp_path / "out", mix_in=MixIn(mix.path, mix.split, 50))
    with pytest.raises(DataError, match="split 'dev' not in"):
        preprocess("tables", OWN_DATA, tmp_path / "out", mix_in=MixIn(mix.path, "dev", 5))
    preprocess("wtq", tmp_path / "wtq", tmp_path / "wtq-substring", linking="substring")
    with pytest.raises(DataError, match="substring linking"):  # its entities were linked otherwise
        preprocess(
            "tables", OWN_DATA, tmp_path / "out", mix_in=MixIn(tmp_path / "wtq-substring", mix.split, 5)
        )
    assert len(load_dataset(tmp_path / "out").examples("train")) == 37  # the output of the first run kept


def test_mix_in_refuses_what_it_cannot_add_with_one_line_errors(tmp_path):
    """Clashing question or table ids, a damaged or incomplete source, a dataset with no train split of your
    own: each is one error line and exit 2 from the command, and the output written before stays."""
    import subprocess
    import sys

    from nsmcli.worlds.tables.data.preprocess import MixIn

    preprocess("tables", OWN_DATA, tmp_path / "own")
    with pytest.raises(DataError, match="uses ids this dataset uses too"):  # train-2 ...
        preprocess("tables", OWN_DATA, tmp_path / "out", mix_in=MixIn(tmp_path / "own", "train", 3))
    # a source whose questions have other ids but ask of a table this dataset has too
    source = tmp_path / "source"
    shutil.copytree(tmp_path / "own", source)
    lines = (source / "train.jsonl").read_text(encoding="utf-8").splitlines()
    renamed = [json.dumps({**json.loads(line), "id": f"other-{k}"}) for k, line in enumerate(lines)]
    (source / "train.jsonl").write_text("\n".join(renamed) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"uses ids this dataset uses too \(\.\./tables/medals\.csv"):
        preprocess("tables", OWN_DATA, tmp_path / "out", mix_in=MixIn(source, "train", 3))

    (source / "train.jsonl").write_text("\n".join([renamed[0], renamed[0]]) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match="repeats question ids"):
        preprocess("tables", OWN_DATA, tmp_path / "out", mix_in=MixIn(source, "train", 2))
    (source / "train.jsonl").write_text(renamed[0] + "\n" + renamed[1][:40] + "\n", encoding="utf-8")
    with pytest.raises(DataError, match="train.jsonl line 2 is corrupt"):
        preprocess("tables", OWN_DATA, tmp_path / "out", mix_in=MixIn(source, "train", 2))
    (source / "train.jsonl").write_text(renamed[0] + "\n", encoding="utf-8")
    (source / "tables.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(DataError, match="lacks the table"):
        preprocess("tables", OWN_DATA, tmp_path / "out", mix_in=MixIn(source, "train", 1))

    preprocess("tables", OWN_DATA, tmp_path / "out")
    data = tmp_path / "only-dev"
    (data / "tables").mkdir(parents=True)
    shutil.copy(OWN_DATA.parent / "tables" / "medals.csv", data / "tables" / "medals.csv")
    (data / "dev.tsv").write_text(
        "table\tquestion\tanswer\ntables/medals.csv\thow many?\t11\n", encoding="utf-8"
    )
    for args in (
        ["tables", "--data-dir", str(data), "--mix-in", f"{tmp_path / 'own'}:train:3"],
        ["tables", "--data-dir", str(OWN_DATA), "--mix-in", f"{tmp_path / 'own'}:train:3"],
        ["tables", "--data-dir", str(OWN_DATA), "--mix-in", f"{tmp_path / 'own'}:train"],
        ["tables", "--data-dir", str(OWN_DATA), "--mix-in", ""],
        ["wtq", "--data-dir", str(tmp_path / "no-release"), "--mix-in", f"{tmp_path / 'own'}:train:3"],
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "nsmcli", "preprocess", *args, "--out", str(tmp_path / "out")],
            capture_output=True,
            text=True,
            timeout=300,
        )
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 2 and len(lines) == 1 and "--mix-in" in lines[0], proc.stderr
    assert len(load_dataset(tmp_path / "out").examples("train")) == 32  # kept
    for text in (
        "data/wtq",
        "data/wtq:5",
        "data/wtq:train:0",
        "data/wtq:train:x",
        "data/wtq:train:\u00b2",
        "",
    ):
        with pytest.raises(DataError, match="DIR:SPLIT:COUNT"):
            MixIn.parse(text)
    assert MixIn.parse("C:/data/wtq:train:20") == MixIn(Path("C:/data/wtq"), "train", 20)
