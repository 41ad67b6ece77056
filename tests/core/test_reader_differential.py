"""The pyarrow reader against the pandas reader it replaces: the same lists, grades, order, file
format records and one-line errors for valid and broken files (hypothesis writes both kinds).

Scores are drawn from values exact in single precision, so trec_eval's float32 tie rule (the new
reader's) and the old reader's float64 comparison order them alike.
"""

from __future__ import annotations

import base64
import json
import math
import os
import re

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.reading import load as new_load
from ndcg_gui.core.reading.legacy.readers import load as old_load

# NDCG_DIFF_EXAMPLES=5000 for a long search.
EXAMPLES = int(os.environ.get("NDCG_DIFF_EXAMPLES", "250"))
FIXTURE = [HealthCheck.function_scoped_fixture]
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=FIXTURE)


# ---- what a load shows ------------------------------------------------------------------------
def _number(x) -> object:
    x = float(x)
    return None if math.isnan(x) else x


def _format(fmt) -> dict | None:
    if fmt is None:
        return None
    return {
        "kind": fmt.kind, "encoding": fmt.encoding, "file_encoding": fmt.file_encoding, "bom": fmt.bom,
        "line_ending": fmt.line_ending, "final_newline": fmt.final_newline, "delimiter": fmt.delimiter,
        "columns": fmt.columns, "header": fmt.header, "quote_all": fmt.quote_all,
        "decimal_comma": fmt.decimal_comma, "blank_rows": fmt.blank_rows,
        "record_query": [fmt.queries[c] if c >= 0 else None for c in fmt.record_query.tolist()],
        "text": bytes(fmt.text_bytes()),
    }


def observe(load, path, qrels=None, need_grades=True):
    """Everything a load gives that a person or a save can see, or its error."""
    try:
        ds = load(path, qrels, need_grades=need_grades)
    except InputError as err:
        return ("error", type(err).__name__, str(err), err.line, err.column)
    except Exception as exc:  # a bug
        if load is new_load:
            raise
        return ("crash", repr(exc))
    lists = {}
    for q in ds.queries():
        rl = ds.ranked_list(q)
        lists[q] = (
            [str(d) for d in rl.docs], [_number(g) for g in rl.grades],
            None if rl.scores is None else [_number(s) for s in rl.scores],
            None if rl.origin is None else rl.origin.tolist(),
            {n: [str(v) for v in vals] for n, vals in rl.extras.items()},
            sorted((d, _number(g)) for d, g in rl.unretrieved.items()), rl.has_pool,
        )
    return ("ok", ds.kind, ds.tag, ds.extra_columns, ds.queries(), lists, _format(ds.file_format),
            _format(ds.qrels_format))


def same(old, new) -> None:
    if old[0] == "crash":
        return  # the old reader's bug (e.g. an IndexError joining a list of grades to qrels)
    if old[0] == "error" and ("cannot be read as" in old[2] or "malformed line" in old[2]):
        # pandas' own parser failed (its message names no line), or pandas split a line otherwise
        # than the old reader's own message did (a form feed is whitespace to pandas' \s+ only):
        # the new reader reads the file or names the fault itself, with nothing but an InputError.
        return
    assert new == old


def without_line_endings(seen):
    """An observation with the file's line endings and text left out."""
    if seen[0] != "ok":
        return seen
    formats = [None if f is None else {k: v for k, v in f.items() if k not in ("line_ending", "text")}
               for f in seen[6:]]
    return (*seen[:6], *formats)


def without_texts(seen):
    """An observation with the files' texts and record lists left out."""
    formats = [None if f is None else {k: v for k, v in f.items() if k not in ("text", "record_query")}
               for f in seen[6:]]
    return (*seen[:6], *formats)


def _text(data: bytes) -> str:
    return data.decode("utf-16") if data.startswith((b"\xff\xfe", b"\xfe\xff")) else data.decode("latin-1")


def _lf_endings(data: bytes) -> bytes:
    fixed = _text(data).replace("\r\n", "\n").replace("\r", "\n")
    return fixed.encode("utf-16") if data.startswith((b"\xff\xfe", b"\xfe\xff")) else fixed.encode("latin-1")


def as_json(value):
    """An observation in JSON's terms (tuples as lists, bytes as base64)."""
    if isinstance(value, bytes | bytearray):
        return {"base64": base64.b64encode(value).decode()}
    if isinstance(value, tuple | list):
        return [as_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): as_json(v) for k, v in value.items()}
    return value


def record(files, qrels, need_grades, expected) -> None:
    """With NDCG_RECORD_EXPECTATIONS=FILE, each case the old and new readers agreed on (or the
    old one could not read: "no crash" expected) is appended to FILE, for the plain tests kept
    when the old reader is removed (test_reader_expectations.py)."""
    target = os.environ.get("NDCG_RECORD_EXPECTATIONS")
    if target:
        case = {"files": {n: base64.b64encode(d).decode() for n, d in files.items()}, "qrels": qrels,
                "need_grades": need_grades, "expected": as_json(expected)}
        with open(target, "a") as out:
            out.write(json.dumps(case) + "\n")


def check(tmp_path, files: dict[str, bytes], qrels: str | None = None, need_grades=True,
          mutated: bool = False) -> None:
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    run = tmp_path / next(iter(files))
    qpath = tmp_path / qrels if qrels else None
    old, new = observe(old_load, run, qpath, need_grades), observe(new_load, run, qpath, need_grades)
    if old == new:
        record(files, qrels, need_grades, new)
    elif old[0] == "crash" or (old[0] == "error" and any(m in old[2] for m in ("cannot be read", "malformed"))):
        record(files, qrels, need_grades, "no crash")
    if old != new and mutated and any(b'"' in d for d in files.values()):
        # A quote dropped inside a cell or left open: pandas, Python's csv module and pyarrow end
        # such a cell in different places (the old reader disagreed with itself there). The new
        # reader reads it as pyarrow does or names the fault; quoting itself is compared above.
        return
    if old != new and any(re.search(rb'(^|[\r\n])[ \t]*""[ \t]*([\r\n]|$)', d) for d in files.values()):
        # A line holding one empty quoted cell is no record (`Source.records`); pandas made it a
        # row padded with empty cells, which the old reader's check for short rows let through.
        for name, data in files.items():
            fixed = re.sub(rb'(^|[\r\n])[ \t]*""[ \t]*(?=[\r\n]|$)', rb"\1", data)
            (tmp_path / name).write_bytes(fixed)
        old = observe(old_load, run, qpath, need_grades)
        if old[0] == "ok" and new[0] == "ok":  # (the file as read holds those lines)
            old, new = without_texts(old), without_texts(new)
    lone_cr = {n for n, d in files.items() if "\r" in _text(d).replace("\r\n", "")}
    if old != new and lone_cr:
        # The old reader missed `#` lines after a lone CR (its pattern took only LF as a line
        # start), and pandas' whitespace split mixed CR-ended lines: the new reader must read
        # such a file as the old one reads it with LF endings.
        for name in lone_cr:
            (tmp_path / name).write_bytes(_lf_endings(files[name]))
        old, new = without_line_endings(observe(old_load, run, qpath, need_grades)), without_line_endings(new)
    same(old, new)


# ---- files ------------------------------------------------------------------------------------
QUERIES = st.sampled_from(["1", "2", "10", "q7", "301"])
DOCS = st.text("abcAB019-_.#é", min_size=1, max_size=6).filter(lambda d: not d.startswith("#"))
SCORES = st.sampled_from(["1", "0.5", "2.25", "-3", "1e3", "12.75", "0", "7"])
GRADES = st.sampled_from(["0", "1", "2", "3", "-1", "0.5"])
ENDINGS = st.sampled_from(["\n", "\r\n", "\r"])
SEPARATORS = st.sampled_from([" ", " ", " ", "\t", "  ", " \t"])
BROKEN_NUMBERS = st.sampled_from(["x", "nan", "inf", "-Infinity", "", "1,5", "1e", "--1"])


@st.composite
def trec_lines(draw, width: int, broken: bool):
    rows = draw(st.lists(st.tuples(QUERIES, DOCS, SCORES if width == 6 else GRADES), min_size=1, max_size=25))
    sep = draw(SEPARATORS)
    lines = []
    for i, (q, d, s) in enumerate(rows):
        fields = [q, "Q0", d, str(i + 1), s, "run1"] if width == 6 else [q, "0", d, s]
        if draw(st.integers(0, 9)) == 0:
            fields.append("extra")  # trec_eval ignores more fields
        if broken:
            fault = draw(st.integers(0, 6))
            if fault == 0:
                fields.pop(draw(st.integers(0, len(fields) - 1)))
            elif fault == 1:
                fields[4 if width == 6 else 3] = draw(BROKEN_NUMBERS) or "x"
        line = sep.join(fields)
        if draw(st.integers(0, 12)) == 0:
            line = draw(st.sampled_from([" ", "\t"])) + line
        if draw(st.integers(0, 12)) == 0:
            line += draw(st.sampled_from([" ", "\t"]))
        lines.append(line)
        if draw(st.integers(0, 15)) == 0:
            lines.append(draw(st.sampled_from(["", "# a comment", "  # indented", "   "])))
    if draw(st.booleans()):
        lines.insert(0, "# run made by a test")
    ending = draw(ENDINGS)
    return (ending.join(lines) + (ending if draw(st.booleans()) else "")).encode()


@SETTINGS
@given(text=trec_lines(6, broken=False), qrels=trec_lines(4, broken=False))
def test_valid_trec_runs_and_qrels(tmp_path, text, qrels):
    check(tmp_path, {"run.txt": text, "qrels.txt": qrels}, "qrels.txt")
    check(tmp_path, {"run.txt": text}, need_grades=False)


@SETTINGS
@given(text=trec_lines(6, broken=True), qrels=trec_lines(4, broken=True))
def test_broken_trec_runs_and_qrels(tmp_path, text, qrels):
    check(tmp_path, {"run.txt": text, "qrels.txt": qrels}, "qrels.txt")
    check(tmp_path, {"qrels.txt": qrels})


HEADERS = {
    "query": ["query", "qid", "Query", "topic"],
    "doc": ["doc", "docid", "Doc ID", "document", "id"],
    "grade": ["grade", "relevance", "label", "rel"],
    "score": ["score", "sim"],
    "rank": ["rank", "position"],
    "title": ["title", "url"],
}


@st.composite
def csv_files(draw, broken: bool):
    roles = draw(st.lists(st.sampled_from(list(HEADERS)), min_size=1, max_size=5, unique=True))
    if "doc" not in roles and "grade" not in roles:
        roles.append("grade")
    delim = draw(st.sampled_from([",", ";", "\t", " "]))
    header = draw(st.booleans()) or not (roles == ["grade"] or roles == ["doc", "grade"])
    quote = draw(st.sampled_from(["", "", '"']))
    rows = draw(st.lists(st.tuples(QUERIES, DOCS, GRADES, SCORES, st.integers(1, 50),
                                   st.text("ab c,;é", max_size=5)), min_size=1, max_size=15))
    lines = [delim.join(quote + draw(st.sampled_from(HEADERS[r])) + quote for r in roles)] if header else []
    for q, d, g, s, r, t in rows:
        cells = {"query": q, "doc": d, "grade": g if draw(st.integers(0, 5)) else "", "score": s,
                 "rank": str(r), "title": t}
        if delim == ";" and "." in cells["grade"]:
            cells["grade"] = cells["grade"].replace(".", ",")  # a decimal comma
        if broken:
            fault = draw(st.integers(0, 6))
            if fault == 0:
                cells[draw(st.sampled_from(roles))] = draw(BROKEN_NUMBERS)
            elif fault == 1:
                cells["extra"] = "x"
        values = [cells[r] for r in roles] + ([cells["extra"]] if "extra" in cells else [])
        if delim == " ":
            values = [v.replace(" ", "_").replace("é", "e") or "0" for v in values]
        elif not quote:
            values = [v.replace(delim, "_").replace('"', "") for v in values]
        pad = draw(st.sampled_from(["", "", " "])) if delim != " " else ""
        lines.append(delim.join(pad + quote + v + quote + pad for v in values))
        if draw(st.integers(0, 15)) == 0:
            lines.append(draw(st.sampled_from(["", "  "])))
    ending = draw(ENDINGS)
    text = ending.join(lines) + (ending if draw(st.booleans()) else "")
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8-sig", "cp1252", "utf-16"]))
    return text.encode(encoding)


@SETTINGS
@given(data=csv_files(broken=False))
def test_valid_csv_files(tmp_path, data):
    check(tmp_path, {"ranking.csv": data})


@SETTINGS
@given(data=csv_files(broken=True))
def test_broken_csv_files(tmp_path, data):
    check(tmp_path, {"ranking.csv": data})


@SETTINGS
@given(data=csv_files(broken=False), qrels=trec_lines(4, broken=False))
def test_csv_with_trec_qrels(tmp_path, data, qrels):
    check(tmp_path, {"ranking.csv": data, "qrels.txt": qrels}, "qrels.txt")


VALID = [
    "query,doc,grade,score\nq1,a,3,0.9\nq1,b,,0.5\nq2,c,1,0.1\n",
    "1 Q0 a 1 0.5 t\n1 Q0 b 2 0.4 t\n2 Q0 c 1 1 t\n",
    "1 0 a 2\n1 0 b 0\n2 0 c 1\n",
    '"doc";"grade"\n"x";1,5\n"y";2\n',
    "3\n2\n3\n0\n1\n",
    "doc grade title\na 1 x\nb 2 y\n",
]
# No form feed: pandas read "\f0" as the number 0 (strtod skips it as whitespace) and split
# fields on it; the new reader, like the old reader's own messages, splits on spaces and tabs only
# and refuses such a number. (test_readers_errors fuzzes form feeds for "one InputError, no crash".)
PIECES = st.sampled_from([",", ";", "\t", " ", "\n", "\r\n", '"', "'", "#", "x", "1", "-", "=", "inf", "",
                          "é", "Q0", "0.5"])


@settings(max_examples=2 * EXAMPLES, deadline=None, suppress_health_check=FIXTURE)
@given(base=st.sampled_from(VALID), edits=st.lists(st.tuples(st.integers(0, 400), st.integers(0, 3), PIECES),
                                                    max_size=6))
def test_mutations_of_valid_files(tmp_path, base, edits):
    text = base
    for at, remove, piece in edits:
        at %= len(text) + 1
        text = text[:at] + piece + text[at + remove:]
    check(tmp_path, {"mutated.csv": text.encode("utf-8")}, mutated=True)


def test_the_differential_harness_sees_a_difference(tmp_path):
    (tmp_path / "r.csv").write_text("doc,grade\na,1\n")
    a = observe(new_load, tmp_path / "r.csv")
    (tmp_path / "r.csv").write_text("doc,grade\na,2\n")
    assert observe(new_load, tmp_path / "r.csv") != a and np.isfinite(1)
