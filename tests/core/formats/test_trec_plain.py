"""`trec_text.read_plain_run` (a run parsed as it is read) against `read_run` of the whole file: the
same rows, or None and the whole file read instead, whatever the bytes and wherever pieces end."""

from __future__ import annotations

import codecs
import gzip
import hashlib
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats import source as source_module
from ndcg_gui.core.formats import trec_text
from ndcg_gui.core.formats.source import read_source

FIELD = st.sampled_from(["1", "q2", "ü", "D12", "d-1", "x", "00", "é中"])
SCORE = st.sampled_from(["1", "1.5", "-2", "1e39", "0.000", "3.25", "inf", "nan", "1.5e", "x"])
# What a line can be: whole, or one way that a plain parse may not take (and read_run then decides).
ODD = st.sampled_from([
    None, None, None, None, None, None, "tabs", "double space", "comment", "short", "long", "lead",
    "cr", "crlf", "latin1 tag", "nul", "empty field", "hash in id",
])


@st.composite
def runs(draw) -> tuple[bytes, bool]:
    """(the file's bytes, whether every line is whole and the file starts with its first line)."""
    lines, plain = [], True
    for _ in range(draw(st.integers(1, 40))):
        fields = [draw(FIELD), "Q0", draw(FIELD), str(draw(st.integers(1, 9))), draw(SCORE), "tag"]
        if draw(st.integers(0, 4)):  # mostly good numbers
            fields[4] = draw(st.sampled_from(["1", "1.5", "-2", "0.25", "7"]))
        line = " ".join(fields).encode()
        odd = draw(ODD)
        plain = plain and odd is None and fields[4] not in ("inf", "nan", "1.5e", "x")
        if odd == "tabs":
            line = line.replace(b" ", b"\t")
        elif odd == "double space":
            line = line.replace(b" ", b"  ", 1)
        elif odd == "comment":
            line = b"# " + line
        elif odd == "short":
            line = line.rsplit(b" ", 1)[0]
        elif odd == "long":
            line += b" more"
        elif odd == "lead":
            line = b" " + line
        elif odd == "cr":
            line += b"\r"
        elif odd == "crlf":
            line += b"\r"  # before the \n below
        elif odd == "latin1 tag":
            line = line[:-3] + "tàg".encode("latin-1")
        elif odd == "nul":
            line += b"\0"
        elif odd == "empty field":
            line = line.replace(b" Q0 ", b"  ", 1)
        elif odd == "hash in id":
            line = line.replace(b"Q0 ", b"Q0 #", 1)
        lines.append(line)
    data = b"\n".join(lines) + draw(st.sampled_from([b"\n", b""]))
    start = draw(st.sampled_from([b""] * 6 + [codecs.BOM_UTF8, b"\n", b"\n\n"]))
    return start + data, plain and not start


def columns(rows) -> tuple:
    return (rows.query.to_pylist(), rows.doc.to_pylist(), rows.score.tolist(), rows.record.tolist())


def whole(path: Path):
    """`read_run` of the whole file: its rows, or the message it refuses the file with."""
    try:
        return columns(trec_text.read_run(read_source(path)))
    except InputError as exc:
        return str(exc)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(run=runs(), piece=st.sampled_from([1, 7, 64, 1 << 20]))
def test_a_run_parsed_as_read_has_the_rows_of_the_whole_file(run, piece, monkeypatch):
    data, plain_file = run
    monkeypatch.setattr(trec_text, "_PIECE", piece)  # pieces end anywhere, also inside a line
    monkeypatch.setattr(trec_text, "_SLACK", max(1, piece // 3))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run.txt"
        path.write_bytes(data)
        plain = trec_text.read_plain_run(path)
        expected = whole(path)
    if plain is not None:
        assert columns(plain) == expected
    else:
        assert not plain_file, "a plain file was read whole"


def test_a_message_about_a_line_of_a_run_parsed_as_read_names_that_line(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("1 Q0 a 1 2.0 t\n1 Q0 b 2 1.0 t\n1 Q0 a 3 0.5 t\n")
    rows = trec_text.read_plain_run(path)
    assert rows is not None and rows.line_of(2) == 3


def test_a_compressed_run_is_read_whole(tmp_path):
    path = tmp_path / "run.gz"
    path.write_bytes(gzip.compress(b"1 Q0 a 1 2.0 t\n"))
    assert trec_text.read_plain_run(path) is None
    assert trec_text.read_plain_run(tmp_path / "absent") is None


def test_a_run_parsed_as_read_keeps_its_sha256_for_a_report(tmp_path):
    path = tmp_path / "run.txt"
    path.write_bytes(b"".join(b"q%d Q0 d%d 1 %d.5 t\n" % (i, i, i) for i in range(5000)))
    with source_module.recording_digests():
        assert trec_text.read_plain_run(path) is not None
        assert source_module.read_digests(path) == {hashlib.sha256(path.read_bytes()).hexdigest()}


@settings(max_examples=300, deadline=None)
@given(scores=st.lists(st.one_of(st.floats(allow_nan=False, allow_infinity=False),
                                 st.sampled_from([3.4028235e38, 3.4028236e38, 1e39, -1e39, 1e-46, 0.1])),
                       min_size=1, max_size=60),
       piece=st.sampled_from([1, 16, 1 << 20]))
def test_scores_read_as_float32_are_the_rankings_key_of_the_scores_read_whole(scores, piece):
    # The key trec_eval's rule ranks by (`score_key` at float32), from the float64 scores of
    # `read_run`: the same, pieces or not, also where float32 rounds to infinity.
    import numpy as np

    from ndcg_gui.core.arrays.order import score_key

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run.txt"
        path.write_text("".join(f"q Q0 d{i} {i + 1} {s!r} t\n" for i, s in enumerate(scores)))
        trec_text._PIECE, old = piece, trec_text._PIECE
        try:
            single = trec_text.read_plain_run(path, np.float32)
        finally:
            trec_text._PIECE = old
        expected = score_key(trec_text.read_run(read_source(path)).score, "float32")
    assert single is not None and single.score.dtype == np.float32
    assert np.array_equal(single.score.astype(np.float64), expected)


def test_a_run_of_a_comment_alone_without_a_line_break_is_refused_in_one_line(tmp_path):
    path = tmp_path / "run.txt"
    path.write_bytes(b"# 1 Q0 1 1 1 tag")  # (was an IndexError: no piece of text to parse)
    try:
        trec_text.read_run(read_source(path))
    except InputError as exc:
        assert str(exc) == "run.txt: cannot be read as a TREC run file"
    else:
        raise AssertionError("a file of a comment alone was read")
