"""`core.formats.query_map`: `query<TAB>value` files and a run's column, every bad line refused in one
line naming the file and line, every input that is not a small text file refused as the run readers
refuse it."""

from __future__ import annotations

import gzip
import os
import threading

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core.analysis.weights import parse_weight
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats import query_map, source
from ndcg_gui.core.formats.query_map import column_map, named_column, read_query_map


def write(tmp_path, text: str | bytes, name: str = "segments.tsv"):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def refusal(path, what: str = "segment", parse=None) -> str:
    with pytest.raises(InputError) as info:
        read_query_map(path, what, *([parse] if parse else []))
    text = str(info.value)
    assert "\n" not in text
    return text


def test_lines_header_comments_blank_lines_and_line_endings(tmp_path):
    text = "query\tsegment\r\n# locale\r\n\r\n401\ten-US\r\n 402 \t de \r\n\n403\tfr\n401\ten-US\n"
    path = write(tmp_path, text)
    got = read_query_map(path, "segment")
    assert got.values == {"401": "en-US", "402": "de", "403": "fr"}
    assert got.lines == {"401": 4, "402": 5, "403": 7}  # as an editor counts, the repeat not moving it
    assert got.origin == "segments.tsv"


def test_a_first_line_that_is_not_a_header_is_data(tmp_path):
    got = read_query_map(write(tmp_path, "q1\tsegment\nq2\tx\n"), "segment")
    assert got.values == {"q1": "segment", "q2": "x"}


@pytest.mark.parametrize(("text", "line", "words"), [
    ("q1\ta\nq2 b\n", 2,
     "expected query<TAB>segment, found no tab (the two fields are split by spaces: use a tab)"),
    ("q1\ta\nq2\n", 2, "expected query<TAB>segment, found no tab"),
    ("q1\ta\tb\n", 1, "expected query<TAB>segment, found 3 fields split by tabs"),
    ("q1\ta\n\tb\n", 2, "the query is empty"),
    ("q1\ta\nq2\t  \n", 2, 'the segment of query "q2" is empty'),
    ("q1\ta\nq2\tb\nq1\tc\n", 3, 'query "q1" has two segments: "a" (line 1) and "c"'),
])
def test_bad_lines_are_named(tmp_path, text, line, words):
    assert refusal(write(tmp_path, text)).startswith(f"segments.tsv:{line}: {words}")


def test_weights_are_checked_where_they_are_written(tmp_path):
    for text, words in [("q1\t-1\n", 'weight "-1" is negative'),
                        ("q1\tnan\n", 'weight "nan" is not a number (NaN)'),
                        ("q1\tinf\n", 'weight "inf" is not a finite number'),
                        ("q1\t1e999\n", 'weight "1e999" is not a finite number'),
                        ("q1\tmany\n", 'weight "many" is not a number'),
                        ("q1\t1,5\n", 'weight "1,5" is not a number')]:
        got = refusal(write(tmp_path, "q0\t2\n" + text, "w.tsv"), "weight", parse_weight)
        assert got.startswith(f'w.tsv:2: query "q1": {words}; expected a number of at least 0'), got
    # the same weight written twice is one weight; two weights are refused
    twice = read_query_map(write(tmp_path, "q\t2\nq\t2.0\n", "w.tsv"), "weight", parse_weight)
    assert twice.values == {"q": 2.0}
    assert refusal(write(tmp_path, "q\t2\nq\t3\n", "w.tsv"), "weight", parse_weight).startswith(
        'w.tsv:2: query "q" has two weights: "2" (line 1) and "3"')


def test_an_empty_file_or_one_of_only_a_header(tmp_path):
    assert refusal(write(tmp_path, "\n\n")) == "segments.tsv: the file is empty"
    assert refusal(write(tmp_path, "query\tsegment\n")) == "segments.tsv: holds no line query<TAB>segment"


def test_binary_compressed_and_columnar(tmp_path):
    assert "is a binary file" in refusal(write(tmp_path, b"q1\ta\n\x00\x01\x02"))
    assert read_query_map(write(tmp_path, gzip.compress(b"q1\ta\n"), "s.gz"), "segment").values == {"q1": "a"}
    pd.DataFrame({"query": ["q"], "segment": ["a"]}).to_parquet(tmp_path / "s.parquet")
    assert refusal(tmp_path / "s.parquet") == \
        "s.parquet: is a Parquet file; expected text lines query<TAB>segment"


def test_a_huge_file_is_refused_before_it_is_read(tmp_path, monkeypatch):
    path = tmp_path / "huge.tsv"
    with path.open("wb") as f:  # sparse: no disk used
        f.truncate(query_map.MAX_MAP_BYTES + 1)
    read = []
    monkeypatch.setattr(query_map, "read_source", lambda p: read.append(p))
    assert "over the 256 MiB a file of one line per query may hold" in refusal(path)
    assert not read


def test_a_compressed_file_past_the_limit_once_decompressed(tmp_path, monkeypatch):
    packed = gzip.compress(b"".join(b"q%d\ta\n" % i for i in range(10_000)))
    monkeypatch.setattr(query_map, "MAX_MAP_BYTES", len(packed) + 1)  # (the text is ten times as long)
    path = write(tmp_path, packed, "s.gz")
    assert "holds more than 256 MiB, the most a segments file may" in refusal(path)


def test_a_folder_and_a_missing_file(tmp_path):
    assert refusal(tmp_path) .endswith("is a folder, not a file")
    assert refusal(tmp_path / "nope.tsv").startswith("nope.tsv: file not found")


def test_a_named_pipe_nobody_writes_to_is_refused_after_the_wait(tmp_path, monkeypatch):
    monkeypatch.setattr(source, "FIFO_WAIT", 0.3)
    os.mkfifo(tmp_path / "fifo")
    assert "is a named pipe that no program wrote to within 0.3 s" in refusal(tmp_path / "fifo")


def test_a_pipe_is_read_once_and_a_device_of_zeros_refused(tmp_path):
    read, write_end = os.pipe()

    def feed() -> None:
        with os.fdopen(write_end, "wb") as f:
            f.write(b"q1\tmobile\nq2\tdesktop\n")

    threading.Thread(target=feed, daemon=True).start()
    assert read_query_map(f"/dev/fd/{read}", "segment").values == {"q1": "mobile", "q2": "desktop"}
    assert "is a binary file" in refusal("/dev/zero")


# --- a run's column -------------------------------------------------------------------------------


def frame(rows):
    return pd.DataFrame(rows, columns=["query", "doc", "segment"])


def test_a_column_gives_each_query_the_value_of_its_rows():
    run = frame([("q1", "a", "mobile"), ("q1", "b", " mobile "), ("q2", "c", ""), ("q2", "d", None),
                 ("q3", "e", "web")])
    got = column_map(run, "segment", "run.csv", "segment")
    assert got.values == {"q1": "mobile", "q3": "web"}  # q2: every cell empty, in no segment


@pytest.mark.parametrize(("cells", "said"), [(["a", "b"], '"a" and "b"'),
                                             (["a", ""], '"a" and an empty cell')])
def test_a_query_with_two_values_on_its_rows_is_refused(cells, said):
    run = frame([("q1", "x", cells[0]), ("q1", "y", cells[1])])
    with pytest.raises(InputError) as info:
        column_map(run, "segment", "run.csv", "segment")
    assert str(info.value) == ('column "segment" of run.csv: query "q1" has two segments on its rows: '
                               f"{said}; give every row of a query its one segment")


def test_a_weight_column_is_parsed_and_checked():
    run = pd.DataFrame({"query": ["q1", "q1", "q2"], "weight": ["2", "2", "-3"]})
    with pytest.raises(InputError) as info:
        column_map(run, "weight", "run.csv", "weight", parse_weight)
    assert 'run.csv: query "q2": weight "-3" is negative' in str(info.value)
    assert named_column(["query", " Weight "], "weight") == " Weight "
    assert named_column(["query"], "weight") is None


# (no tab, line break, edge space or BOM: the format reads those otherwise)
NAME_CHARACTERS = st.characters(blacklist_categories=["Cs", "Cc", "Cf", "Zs", "Zl", "Zp"])


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(NAME_CHARACTERS, min_size=1), st.text(NAME_CHARACTERS, min_size=1),
                       min_size=1, max_size=20))
def test_what_is_written_is_read_back(tmp_path_factory, pairs):
    """Any ids and names without tabs, line breaks or edge spaces: read back as written (a header-like
    first pair or a `#` query aside, which the format reads otherwise)."""
    pairs = {q: s for q, s in pairs.items() if not q.startswith("#") and q.lower() not in ("query", "qid")}
    if not pairs:
        return
    path = tmp_path_factory.mktemp("map") / "s.tsv"
    path.write_text("".join(f"{q}\t{s}\n" for q, s in pairs.items()), encoding="utf-8")
    assert read_query_map(path, "segment").values == pairs
