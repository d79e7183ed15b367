"""Hostile inputs for the fuzzing suite (tests/test_fuzz.py runs a few hundred, bench/fuzz.py thousands).

Each target takes one drawn input and returns "ok" (success) or "clean" (an `NsmError`, or exit code 2
with one line on stderr); anything else raises `Fault`, whose message says what went wrong.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from hypothesis import strategies as st

from nsmcli.cli.main import main
from nsmcli.errors import NsmError
from nsmcli.worlds.tables.data.annotate import annotate_question
from nsmcli.worlds.tables.data.readers import load_table, table_from_dataframe
from nsmcli.worlds.tables.lang.interpreter import bind, get_language
from nsmcli.worlds.tables.lang.program import parse_program

ROOT = Path(__file__).resolve().parents[1]
MEDALS = ROOT / "examples" / "tables" / "medals.csv"


class Fault(Exception):
    """An input that broke the property: an internal error, a traceback, or output that is not safe."""


# ----- hostile text --------------------------------------------------------------------------------------

#: Characters that have broken text handling somewhere: controls (C0, DEL, C1), bidi overrides and isolates,
#: line and paragraph separators, zero-width and byte-order marks, surrogate-escaped bytes, quotes and
#: delimiters, combining marks, full-width digits and other scripts' digits.
HOSTILE_CHARS = (
    "\x00\x01\x07\x08\t\n\r\x0b\x0c\x1b\x7f\x80\x85\x9b\x9f"
    "\u061c\u200b\u200d\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
    "\ufeff\ufffd\ufffe\udc80\udcff\ud800"
    "\"',;|\\/()[]{}#=%$-+.eE "
    "\u0301\u0665\uff11\u00bd\u2155\u00a0\u3000"
)

#: Numbers at and beyond the ends of floating point, and number-like text that is not quite a number.
EXTREME_NUMBERS = (
    "1e999",
    "-1e999",
    "1e308",
    "1.7976931348623157e308",
    "5e-324",
    "1e-999",
    "9" * 400,
    "-" + "9" * 400,
    "0." + "0" * 400 + "1",
    "-0",
    "-0.0",
    "+0",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "Infinity",
    "1,000,000",
    "1.000.000,5",
    "1_000",
    "0x1F",
    "1e",
    "e5",
    "--1",
    "1/0",
    "12%",
    "$1,5",
    "3rd",
    "1st",
    "1999-02-30",
    "2020-13-45",
    "99999-01-01",
    "0000-00-00",
    "\u0661\u0662",
)

hostile_text = st.text(alphabet=st.sampled_from(HOSTILE_CHARS) | st.characters(codec="utf-8"), max_size=40)
number_text = st.sampled_from(EXTREME_NUMBERS) | st.integers().map(str) | st.floats().map(repr)
words = st.sampled_from(
    ["which", "nation", "gold", "how", "many", "total", "rank", "more", "than", "the", "first", "last",
     "norway", "kenya", "before", "after", "most", "least", "silver", "bronze", "?", "of", "in", "and"]
)  # fmt: skip
cell_text = st.one_of(
    hostile_text, number_text, words, st.just(""), st.text(min_size=1, max_size=1).map(lambda c: c * 3000)
)


@st.composite
def question_text(draw) -> str:
    parts = draw(st.lists(st.one_of(words, number_text, hostile_text), max_size=12))
    return " ".join(parts)


@st.composite
def table_rows(draw) -> list[list[str]]:
    """A header and rows of hostile cells; rows may be ragged."""
    width = draw(st.integers(1, 5))
    header = draw(st.lists(cell_text, min_size=width, max_size=width))
    rows = draw(
        st.lists(st.lists(cell_text, min_size=max(0, width - 1), max_size=width + 1), min_size=1, max_size=6)
    )
    return [header, *rows]


def _csv_line(cells: list[str], sep: str, quote: bool) -> str:
    if quote:
        return sep.join('"' + c.replace('"', '""') + '"' for c in cells)
    return sep.join(cells)


@st.composite
def table_file(draw) -> tuple[str, bytes]:
    """(extension, contents): random bytes, or a hostile table written as CSV/TSV/JSON/JSONL text."""
    kind = draw(st.sampled_from(["bytes", "delimited", "delimited", "json", "jsonl"]))
    if kind == "bytes":
        ext = draw(st.sampled_from([".csv", ".tsv", ".txt", ".json", ".jsonl", ".xlsx", ".parquet"]))
        return ext, draw(st.binary(max_size=300))
    rows = draw(table_rows())
    if kind == "delimited":
        sep = draw(st.sampled_from([",", ";", "\t", "|"]))
        quote = draw(st.booleans())
        ext = draw(st.sampled_from([".csv", ".tsv", ".txt"]))
        text = draw(st.sampled_from(["\n", "\r\n", "\r"])).join(_csv_line(r, sep, quote) for r in rows)
        if draw(st.booleans()):
            text = draw(st.sampled_from(["\ufeff", f"sep={sep}\n", "sep=\n", "\ufeffsep=;\n"])) + text
    else:
        header, body = rows[0], rows[1:]
        records = [dict(zip(header, r, strict=False)) for r in body]
        ext = ".json" if kind == "json" else ".jsonl"
        text = json.dumps(records) if kind == "json" else "\n".join(json.dumps(r) for r in records)
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-16", "latin-1"]))
    return ext, text.encode(encoding, errors="surrogateescape" if encoding == "utf-8" else "replace")


# ----- programs ------------------------------------------------------------------------------------------

_FUNCTIONS = [f.name for f in get_language("wtq").functions]
_COLUMNS = ["r.nation-string", "r.gold-number", "r.rank-number", "r.total-number", "r.silver-number"]
_COLUMNS += ["r.nation-date", "r.gold-string", "r.bogus-number", "r.", "r.-number"]
program_atom = st.one_of(
    st.sampled_from(_FUNCTIONS),
    st.sampled_from(_COLUMNS),
    st.sampled_from(["all_rows", "v0", "v1", "v2", "v9", "v99999999999999999999", "v-1"]),
    number_text,
    words,
    hostile_text.map(lambda t: '"' + t + '"'),
)


@st.composite
def program_text(draw) -> str:
    """Programs that are nearly right (the grammar's own words) and plain noise."""
    if draw(st.integers(0, 9)) == 0:
        return draw(hostile_text)
    exprs = []
    for _ in range(draw(st.integers(0, 4))):
        atoms = draw(st.lists(program_atom, min_size=0, max_size=4))
        exprs.append("(" * draw(st.integers(0, 2)) + " ".join(atoms) + ")" * draw(st.integers(0, 2)))
    return " ".join(exprs)


# ----- targets -------------------------------------------------------------------------------------------


def _medals():
    return load_table(MEDALS)


def _table_of(rows: list[list[str]]):
    import pandas as pd

    header, body = rows[0], rows[1:]
    width = len(header)
    body = [(r + [""] * width)[:width] for r in body]
    return table_from_dataframe(pd.DataFrame(body, columns=pd.Index(header)), "fuzz")


def _api(call: Callable[[], object]) -> str:
    try:
        call()
    except NsmError:
        return "clean"
    except Exception as exc:  # the property: no other exception
        raise Fault(f"{type(exc).__name__}: {exc}") from exc
    return "ok"


def check_reader(case: tuple[str, bytes]) -> str:
    ext, data = case
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"table{ext}"
        path.write_bytes(data)
        return _api(lambda: load_table(path))


# ----- standard input and URLs --------------------------------------------------------------------------


class _Stdin(io.TextIOWrapper):
    """Standard input holding `data`, as a pipe gives it: bytes under `buffer`, never a terminal."""

    def __init__(self, data: bytes):
        super().__init__(io.BytesIO(data), encoding="utf-8", errors="surrogateescape")

    def isatty(self) -> bool:
        return False


@contextlib.contextmanager
def piped_stdin(data: bytes):
    old = sys.stdin
    sys.stdin = _Stdin(data)
    try:
        yield
    finally:
        sys.stdin = old


@st.composite
def stdin_table(draw) -> tuple[str | None, bytes]:
    """(--format or None to sniff, bytes piped in): a table file's bytes, named or not by its format."""
    ext, data = draw(table_file())
    fmt = draw(st.sampled_from([None, ext.lstrip("."), "csv", "json", "jsonl", "tsv", "xlsx", "parquet"]))
    return fmt, data


def check_stdin_reader(case: tuple[str | None, bytes]) -> str:
    fmt, data = case
    with piped_stdin(data):
        return _api(lambda: load_table("-", format=fmt))


class _Reply:
    """What the loopback server answers for one path: a status, headers and a body, or a hang-up."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes, hang_up: bool = False):
        self.status, self.headers, self.body, self.hang_up = status, headers, body, hang_up

    def __repr__(self) -> str:
        return f"_Reply({self.status}, {self.headers!r}, {self.body[:200]!r}, hang_up={self.hang_up})"


class LoopbackServer:
    """An HTTP server on 127.0.0.1 that answers each registered path as told (`serve`): hostile statuses,
    content types, charsets and lengths, redirects and dropped connections. Started on first use."""

    def __init__(self) -> None:
        import http.server
        import threading

        replies = self._replies = {}

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - the http.server hook's name
                reply = replies.get(self.path.split("?")[0].split("#")[0])
                if reply is None:
                    self.send_error(404)
                    return
                if reply.hang_up:  # close before any response line
                    self.close_connection = True
                    return
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(reply.body)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        self.base = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._count = 0

    def serve(self, name: str, reply: _Reply) -> str:
        """The URL at which `reply` is now served (a fresh path each time, ending in `name`)."""
        self._count += 1
        path = f"/{self._count}/{name}"
        self._replies[path] = reply
        return self.base + path

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


_LOOPBACK: list[LoopbackServer] = []


def loopback() -> LoopbackServer:
    """The one loopback server of this process (started on first use, stopped at exit)."""
    if not _LOOPBACK:
        import atexit

        _LOOPBACK.append(LoopbackServer())
        atexit.register(_LOOPBACK[0].close)
    return _LOOPBACK[0]


_CONTENT_TYPES = [
    None, "text/csv", "text/csv; charset=utf-8", "text/csv; charset=latin-1", "text/plain; charset=utf-16",
    "text/csv; charset=bogus", "text/csv; charset=", "application/json", "application/octet-stream",
    "text/html; charset=\u00e9",
]  # fmt: skip


@st.composite
def url_reply(draw) -> tuple[str, _Reply, str | None]:
    """(the URL path's last part, what the server answers, --format or None)."""
    ext, data = draw(table_file())
    name = draw(st.sampled_from(["table" + ext, "table", "export?x=1", "t%20able" + ext, "book.xlsx#Sheet1"]))
    status = draw(st.sampled_from([200, 200, 200, 200, 204, 301, 404, 500, 503]))
    headers: dict[str, str] = {}
    content_type = draw(st.sampled_from(_CONTENT_TYPES))
    if content_type is not None:
        headers["Content-Type"] = content_type
    length = draw(st.sampled_from(["exact", "exact", "none", "longer", "shorter"]))
    if length != "none":
        extra = {"exact": 0, "longer": 50, "shorter": -min(len(data), 5)}[length]
        headers["Content-Length"] = str(len(data) + extra)
    if status == 301:
        headers["Location"] = draw(st.sampled_from(["/nowhere", "http://127.0.0.1:9/x.csv", "", "/1/loop"]))
    if draw(st.integers(0, 9)) == 0:
        headers["Content-Encoding"] = "gzip"  # urllib does not decompress: the body reads as junk
    hang_up = draw(st.integers(0, 19)) == 0
    fmt = draw(st.sampled_from([None, None, ext.lstrip("."), "csv", "json", "xlsx"]))
    return name, _Reply(status, headers, data, hang_up), fmt


def check_url_reader(case: tuple[str, _Reply, str | None]) -> str:
    name, reply, fmt = case
    url = loopback().serve(name, reply)
    return _api(lambda: load_table(url, format=fmt))


def check_annotator(case: tuple[str, list[list[str]] | None]) -> str:
    question, rows = case

    def call():
        table = _medals() if rows is None else _table_of(rows)
        annotate_question(question, table)

    return _api(call)


def check_interpreter(case: tuple[str, list[list[str]] | None]) -> str:
    text, rows = case

    def call():
        try:
            parse_program(text)
        except NsmError:
            pass
        table = _medals() if rows is None else _table_of(rows)
        entities = annotate_question(text, table).entities
        result = bind("wtq", table, entities).execute(text)
        strict_loads(_json_text(result))

    return _api(call)


def check_parser(parser, case: tuple[str, list[list[str]] | None, int]) -> str:
    question, rows, beam = case

    def call():
        table = _medals() if rows is None else _table_of(rows)
        result = parser.parse(question, table, beam=beam)
        strict_loads(_json_text(result.to_json()))

    return _api(call)


def _json_text(value) -> str:
    from nsmcli.cli.output import strict_json

    if hasattr(value, "__dataclass_fields__"):
        import dataclasses

        value = dataclasses.asdict(value)
    return strict_json(value)


def _reject_constant(name: str):
    raise Fault(f"non-strict JSON constant {name}")


_UNSAFE_RAW = re.compile("[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def strict_loads(text: str):
    """Parse JSON as a strict parser would: no NaN/Infinity, and no raw C1/DEL/bidi characters."""
    if _UNSAFE_RAW.search(text):
        raise Fault(f"raw control or bidi character in JSON output: {_UNSAFE_RAW.search(text).group()!r}")
    return json.loads(text, parse_constant=_reject_constant)


def run_cli(args: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    """`nsm ARGS` in this process, with `stdin` piped in: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), piped_stdin(stdin):
        try:
            main(args)
        except SystemExit as exc:
            code = 0 if exc.code is None else int(exc.code) if isinstance(exc.code, int) else 1
    return code, out.getvalue(), err.getvalue()


@st.composite
def cli_args(draw) -> tuple[list[str], tuple[str, bytes] | None, str | None]:
    """(arguments, table file or None for the bundled medals table, question file text or None); the paths
    are put in when the files are written."""
    command = draw(st.sampled_from(["parse", "execute", "questions"]))
    table = draw(st.none() | table_file())
    if table is not None and command != "questions":  # the table as a file, piped in as `-`, or a URL
        source = draw(st.sampled_from(["file", "file", "stdin", "url"]))
        table = (source, *table)
    if command == "questions":  # `nsm parse --questions FILE`: FILE's lines name the table as {table}
        lines = draw(st.lists(st.tuples(question_text(), st.none() | hostile_text), max_size=4))
        header = draw(
            st.sampled_from(["table\tquestion\tanswer", "table\tquestion", "\ufefftable\tquestion", "x"])
        )
        body = [f"{{table}}\t{q}" + ("" if a is None else f"\t{a}") for q, a in lines]
        text = "\n".join([header, *body])
        args = [
            "parse",
            "--questions",
            "{questions}",
            *draw(st.lists(st.sampled_from(["--json", "-q"]), max_size=2)),
        ]
        return args, table, text
    first = draw(question_text() if command == "parse" else program_text())
    options = draw(
        st.lists(
            st.sampled_from(
                ["--json", "--json", "-q", "--sql-check", "--beam", "--sql", "--vote", "--format",
                 "--encoding", "--model", "--question", "--bogus", "-x", "--"]
            ),
            max_size=4,
        )
    )  # fmt: skip
    args = [command, first, "{table}"]
    values = {
        "--beam": st.sampled_from(["0", "1", "3", "-1", "257", "100000", "1e999", "x", ""]),
        "--sql": st.sampled_from(["sqlite", "postgres", "bogus", ""]),
        "--vote": st.sampled_from(["answer", "program", "bogus"]),
        "--format": st.sampled_from(["csv", "json", "xlsx", "bogus", ""]),
        "--encoding": st.sampled_from(["utf-8", "latin-1", "utf-16", "bogus", ""]),
        "--model": st.sampled_from(["wtq", "wikisql", "bogus", "/nonexistent", ""]),
        "--question": question_text(),
    }
    for option in options:
        args.append(option)
        if option in values:  # options the other command lacks are usage errors, which is fine
            args.append(draw(values[option]))
    if table is not None and table[0] == "stdin" and draw(st.booleans()):
        args += ["--format", draw(st.sampled_from([table[1].lstrip("."), "csv", "json", "jsonl"]))]
    return args, table, None


def check_cli(case: tuple[list[str], tuple | None, str | None]) -> str:
    """`case`: (arguments, the table (`(ext, bytes)`, or `(source, ext, bytes)` with source file, stdin or
    url) or None for the medals table, question file text or None)."""
    args, table, questions = case
    stdin = b""
    with tempfile.TemporaryDirectory() as tmp:
        path = str(MEDALS)
        if table is not None:
            source, ext, data = table if len(table) == 3 else ("file", *table)
            if source == "stdin":
                path, stdin = "-", data
            elif source == "url":
                path = loopback().serve(f"table{ext}", _Reply(200, {}, data))
            else:
                path = str(Path(tmp) / f"table{ext}")
                Path(path).write_bytes(data)
        if questions is not None:
            question_file = Path(tmp) / "questions.tsv"
            question_file.write_bytes(questions.replace("{table}", path).encode("utf-8", "surrogateescape"))
            args = [str(question_file) if a == "{questions}" else a for a in args]
        args = [path if a == "{table}" else a for a in args]
        code, out, err = run_cli(args, stdin)
    if "Traceback" in err or "Traceback" in out:
        raise Fault(f"traceback on stderr: {err[-300:]!r}")
    if code == 0:
        if "--json" in args[: args.index("--") if "--" in args else len(args)]:
            try:
                strict_loads(out)
            except ValueError as exc:
                raise Fault(f"--json output is not strict JSON: {exc}; {out[:200]!r}") from None
        return "ok"
    lines = err.strip().splitlines()
    if code != 2:
        raise Fault(f"exit code {code}: {err.strip()[:300]!r}")
    if len(lines) != 1:
        raise Fault(f"{len(lines)} lines on stderr: {err[:300]!r}")
    return "clean"


optional_rows = st.none() | table_rows()
STRATEGIES = {
    "readers": table_file(),
    "stdin": stdin_table(),
    "url": url_reply(),
    "annotator": st.tuples(question_text(), optional_rows),
    "interpreter": st.tuples(program_text(), optional_rows),
    "parser": st.tuples(question_text(), optional_rows, st.integers(0, 3)),
    "cli": cli_args(),
}
