"""Files for the fuzz suite (`test_fuzz_inputs.py`): hypothesis strategies over every format's
grammar, the lists each file holds (to score with pytrec_eval), and mutations of the bytes.

A `Lists` is what a run and its judgments say: each query's documents with scores, and the
judged (query, doc, grade) triples. The writers below spell it in each format the readers
accept (TREC run and qrels with spaces or tabs, CSV/TSV with a header in any delimiter, quoting
where a cell needs it or everywhere, CRLF, a BOM, extra columns; JSON Lines; Parquet; gzip).
"""

from __future__ import annotations

import codecs
import gzip
import io
import json
import os
from dataclasses import dataclass

from hypothesis import strategies as st

# Ids as people write them, the awkward ones included: non-ASCII, formula-like (= + - @ '),
# number-like ("007", "1.50"); never whitespace or `#` first (a TREC comment) or quotes/delimiters
# (a CSV writer below quotes what needs it).
ID = st.one_of(
    st.text(alphabet="abcAB01-_.éß中", min_size=1, max_size=5),
    st.sampled_from(["=x", "'-abc", "@user", "+1x", "007", "1.50", "-3", "nan", "NA", "d1"]),
).filter(lambda s: not s.startswith("#"))
QUERY = st.one_of(st.integers(1, 400).map(str), st.text(alphabet="qrs0129_-", min_size=1, max_size=4))
SCORE = st.one_of(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.25, -1.0, 3.0]), st.integers(-5, 50).map(float),
                  st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False))
GRADE = st.integers(-1, 4)


def budget(examples: int) -> int:
    """`examples` in `make test`; times NDCG_FUZZ_LONG for a long run (NDCG_FUZZ_LONG=1: times 50)."""
    factor = os.environ.get("NDCG_FUZZ_LONG", "")
    if not factor:
        return examples
    return examples * (50 if factor == "1" else int(factor))


@dataclass(frozen=True)
class Lists:
    run: dict[str, dict[str, float]]  # query -> doc -> score (file order = dict order)
    qrels: dict[str, dict[str, int]]  # query -> doc -> grade

    def rows(self) -> list[tuple[str, str, float]]:
        return [(q, d, s) for q, docs in self.run.items() for d, s in docs.items()]


@st.composite
def lists(draw, min_queries: int = 1) -> Lists:
    """Queries with: judged documents the run missed, retrieved ones never judged, tied scores,
    negative grades, queries without judgments and judged queries without results."""
    run: dict[str, dict[str, float]] = {}
    qrels: dict[str, dict[str, int]] = {}
    for query in draw(st.lists(QUERY, min_size=min_queries, max_size=4, unique=True)):
        docs = draw(st.lists(ID, max_size=12, unique=True))
        if docs or not run:
            run[query] = {d: draw(SCORE) for d in docs} if docs else {draw(ID): 1.0}
        retrieved = list(run.get(query, {}))
        judged = draw(st.lists(st.sampled_from(retrieved), unique=True)) if retrieved else []
        missed = draw(st.lists(ID.map(lambda d: "u" + d), max_size=4, unique=True))
        if (judged or missed) and draw(st.integers(0, 4)):  # now and then a query without judgments
            qrels[query] = {d: draw(GRADE) for d in judged + missed}
    if not set(qrels) & set(run):  # a judged query with results, or nothing scores
        query = next(iter(run))
        qrels[query] = {next(iter(run[query])): 1}
    return Lists(run, qrels)


def _number(x: float) -> str:
    return str(int(x)) if x == int(x) and abs(x) < 1e15 else repr(x)


# ---- TREC -------------------------------------------------------------------------------------------
@st.composite
def trec_run(draw, data: Lists) -> bytes:
    sep = draw(st.sampled_from([" ", "\t", "  "]))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    lines = []
    if draw(st.integers(0, 5)) == 0:
        lines.append("# a comment")
    for q, docs in data.run.items():
        for rank, (d, s) in enumerate(docs.items(), start=1):
            lines.append(sep.join([q, "Q0", d, str(rank), _number(s), "tag"]))
    return (ending.join(lines) + (ending if draw(st.booleans()) else "")).encode()


@st.composite
def trec_qrels(draw, data: Lists) -> bytes:
    sep = draw(st.sampled_from([" ", "\t"]))
    lines = [sep.join([q, "0", d, str(g)]) for q, docs in data.qrels.items() for d, g in docs.items()]
    return ("\n".join(lines) + "\n").encode()


# ---- CSV/TSV ------------------------------------------------------------------------------------------
def _cell(text: str, delimiter: str, quote_all: bool) -> str:
    if quote_all or any(c in text for c in (delimiter, '"', "\n", "\r")) or text != text.strip():
        return '"' + text.replace('"', '""') + '"'
    return text


@st.composite
def csv_table(draw, data: Lists, graded: bool) -> bytes:
    """query, doc, score (and grade from the qrels when `graded`: empty = unjudged), maybe a title
    column, in any column order and delimiter."""
    delimiter = draw(st.sampled_from([",", ";", "\t"]))
    quote_all = draw(st.integers(0, 4)) == 0
    names = {"query": draw(st.sampled_from(["query", "qid", "Query ID"])),
             "doc": draw(st.sampled_from(["doc", "docid", "docno"])),
             "score": "score", "grade": draw(st.sampled_from(["grade", "relevance", "label"])),
             "title": "title"}
    columns = ["query", "doc", "score"] + (["grade"] if graded else [])
    if draw(st.booleans()):
        columns.append("title")
    columns = draw(st.permutations(columns))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    lines = [delimiter.join(_cell(names[c], delimiter, quote_all) for c in columns)]
    for i, (q, d, s) in enumerate(data.rows()):
        grade = data.qrels.get(q, {}).get(d)
        value = {"query": q, "doc": d, "score": _number(s), "grade": "" if grade is None else str(grade),
                 "title": draw(st.sampled_from(["", "plain", "a, b; c", 'say "hi"', "two\nlines", f"t{i}"]))}
        lines.append(delimiter.join(_cell(value[c], delimiter, quote_all) for c in columns))
    text = ending.join(lines) + ending
    bom = codecs.BOM_UTF8 if draw(st.integers(0, 5)) == 0 else b""
    return bom + text.encode()


def graded_only(data: Lists) -> Lists:
    """The lists a CSV with its own grades holds: judged documents are the listed ones."""
    qrels = {q: {d: g for d, g in data.qrels.get(q, {}).items() if d in docs} for q, docs in data.run.items()}
    return Lists(data.run, {q: g for q, g in qrels.items() if g})


# ---- JSON Lines, Parquet, gzip ---------------------------------------------------------------------------
def records(data: Lists) -> list[dict]:
    return [{"query": q, "doc": d, "score": s, "grade": data.qrels.get(q, {}).get(d)}
            for q, d, s in data.rows()]


def json_lines(data: Lists) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records(data)).encode()


def parquet(data: Lists) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = records(data)
    table = pa.table({"query": [r["query"] for r in rows], "doc": [r["doc"] for r in rows],
                      "score": pa.array([r["score"] for r in rows], pa.float64()),
                      "grade": pa.array([r["grade"] for r in rows], pa.int64())})
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


def gzipped(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


# ---- mutations ----------------------------------------------------------------------------------------
INSERTS = [b'"', b"\x00", b"1e400", b"-inf", b"nan", b"99999999999999999999999", str(2**63).encode(),
           b"\n", b"\r", b"\t", b" ", b"#", b",", b";", b"{", b"[" * 200, b'{"a": ' + b"[" * 3000,
           b"'=", b"\xff\xfe", b"\xef\xbb\xbf", b"Q0", b"\\", b"\x1b[31m"]
LONG_LINE = 5 << 20  # past the 4 MiB limit for one line


@st.composite
def mutated(draw, data: bytes) -> bytes:
    """`data` with one to three edits: a byte changed, cut short, a piece inserted (quotes, NULs,
    huge or non-finite numbers, nesting, line breaks...), a range deleted or a line doubled; now
    and then a line longer than the limit."""
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(out)))
        how = draw(st.sampled_from(["flip", "cut", "insert", "insert", "delete", "double", "long"]))
        if how == "flip" and at < len(out):
            out[at] = draw(st.integers(0, 255))
        elif how == "cut":
            del out[at:]
        elif how == "insert":
            out[at:at] = draw(st.sampled_from(INSERTS))
        elif how == "delete":
            del out[at:at + draw(st.integers(1, 40))]
        elif how == "double":
            start = out.rfind(b"\n", 0, at) + 1
            end = out.find(b"\n", at)
            end = len(out) if end < 0 else end + 1
            out[end:end] = out[start:end]
        elif how == "long" and draw(st.integers(0, 9)) == 0:
            out[at:at] = b"x" * LONG_LINE
    return bytes(out)


# ---- file names ----------------------------------------------------------------------------------------
# Pieces of file names as a hostile world gives them: glob characters, line breaks, control
# characters, ESC and C1 sequences, a file name's undecodable bytes, shell and format specials.
NAME_PIECES = ["[1]", "[a-z]", "[", "]", "*", "?", "**", "\n", "\r", "\t", "\x01", "\x0b", "\x7f",
               "\x1b[31m", "\x1b]0;title\x07", "\x1b[2J", "\x9b2J", "\u202e", "\u2028", "\ufeff",
               os.fsdecode(b"\xff\xfe"), " ", "-", ".", "{a,b}", "$HOME", "`x`", '"', "'", "\\", "|", "&",
               "<b>", "%s", "#", "_", "é", "中", "😀"]
NAME_MAX = 255  # bytes in one name on the usual file systems


@st.composite
def hostile_names(draw, fits: bool = False) -> str:
    """A file name (no `/`, no NUL, not `.` or `..`) built from `NAME_PIECES` and other text; now
    and then a very long one: past `NAME_MAX` bytes (which no file system takes) unless `fits`."""
    pieces = st.one_of(st.sampled_from(NAME_PIECES),
                       # (no lone surrogate but a file name's undecodable bytes: no system gives one)
                       st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"),
                               min_size=1, max_size=6))
    name = "".join(draw(st.lists(pieces, min_size=1, max_size=8)))
    if draw(st.integers(0, 5)) == 0:
        name += "x" * draw(st.integers(100, 300))
    if fits:
        while len(os.fsencode(name)) > NAME_MAX:
            name = name[:-1]
    return name if name.strip(".") else name + "x"
