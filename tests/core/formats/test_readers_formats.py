"""Compressed text (gzip, bzip2, xz, zstd) and columnar files (Parquet, Arrow IPC / Feather, JSON Lines),
recognised by content; each must give the lists its plain-text twin gives."""

from __future__ import annotations

import bz2
import gzip
import lzma

import numpy as np
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq
import pytest

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats.compression import compress
from ndcg_gui.core.reading import load
from ndcg_gui.core.writing.writers import write_csv, write_qrels, write_trec_run

RUN = "301 Q0 d1 1 2.5 sys\n301 Q0 d2 2 2.5 sys\n301 Q0 d3 3 1 sys\n302 Q0 a 1 7 sys\n"
QRELS = "301 0 d1 2\n301 0 d3 1\n301 0 d9 3\n302 0 a 0\n"
CSV = "query,doc,grade,score,title\n301,d1,2,2.5,One\n301,d2,,2.5,Two\n301,d3,1,1,Three\n302,a,0,7,\n"


def lists(dataset):
    return {q: (rl.docs.tolist(), [None if np.isnan(g) else g for g in rl.grades],
                None if rl.scores is None else rl.scores.tolist(), dict(rl.extras and
                {n: v.tolist() for n, v in rl.extras.items()}), sorted(rl.unretrieved.items()))
            for q in dataset.queries() for rl in [dataset.ranked_list(q)]}


def zstd(data: bytes) -> bytes:
    return compress(data, "zstd")


CODECS = {"gzip": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress, "zstd": zstd}


@pytest.mark.parametrize("codec", list(CODECS))
@pytest.mark.parametrize("suffix", ["", ".gz"])  # recognised by content, whatever the name says
def test_compressed_runs_and_qrels_read_as_their_text(tmp_path, codec, suffix):
    (tmp_path / "run.txt").write_text(RUN)
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / f"input.sys{suffix}").write_bytes(CODECS[codec](RUN.encode()))
    (tmp_path / f"qrels{suffix}").write_bytes(CODECS[codec](QRELS.encode()))
    plain = load(tmp_path / "run.txt", tmp_path / "qrels.txt")
    packed = load(tmp_path / f"input.sys{suffix}", tmp_path / f"qrels{suffix}")
    assert lists(packed) == lists(plain) and packed.kind == "trec_run" and packed.tag == "sys"
    assert packed.file_format.compression == codec and packed.qrels_format.compression == codec
    assert packed.file_format.text_bytes() == RUN.encode()


def test_a_compressed_csv_reads_as_its_text(tmp_path):
    (tmp_path / "r.csv").write_text(CSV)
    (tmp_path / "r.csv.gz").write_bytes(gzip.compress(CSV.encode()))
    assert lists(load(tmp_path / "r.csv.gz")) == lists(load(tmp_path / "r.csv"))


def test_a_cut_short_gzip_file_says_so(tmp_path):
    (tmp_path / "run.gz").write_bytes(gzip.compress(RUN.encode())[:-12])
    with pytest.raises(InputError) as caught:
        load(tmp_path / "run.gz", need_grades=False)
    assert str(caught.value) == (
        "run.gz: is gzip-compressed but cannot be decompressed (the file is cut short)")


def test_a_compressed_binary_file_is_still_refused(tmp_path):
    (tmp_path / "x.gz").write_bytes(gzip.compress(bytes(range(256)) * 4))
    with pytest.raises(InputError, match="is a binary file"):
        load(tmp_path / "x.gz")


# ---- saving compressed files -------------------------------------------------------------------
def test_a_compressed_run_is_saved_compressed_with_its_lines_kept(tmp_path):
    path = tmp_path / "input.sys"  # gzip without a .gz name, as TREC distributes runs
    path.write_bytes(gzip.compress(RUN.encode()))
    dataset = load(path, need_grades=False)
    write_trec_run(dataset, path)  # Save: over the file it came from
    assert path.read_bytes()[:2] == b"\x1f\x8b" and gzip.decompress(path.read_bytes()) == RUN.encode()
    edited = dataset.with_lists({"302": dataset.ranked_list("302").with_doc(0, "b")})
    write_trec_run(edited, tmp_path / "copy.run")  # Save As a plain name: plain text
    assert (tmp_path / "copy.run").read_text() == RUN.replace("302 Q0 a", "302 Q0 b")
    write_trec_run(edited, tmp_path / "copy.run.zst")  # a compressed name: that codec
    assert load(tmp_path / "copy.run.zst", need_grades=False).file_format.compression == "zstd"


def test_compressed_qrels_and_csv_are_saved_compressed(tmp_path):
    (tmp_path / "q.bz2").write_bytes(bz2.compress(QRELS.encode()))
    (tmp_path / "r.csv.xz").write_bytes(lzma.compress(CSV.encode()))
    dataset = load(tmp_path / "r.csv.xz", tmp_path / "q.bz2")
    write_qrels(dataset, tmp_path / "q.bz2")
    assert bz2.decompress((tmp_path / "q.bz2").read_bytes()) == QRELS.encode()
    write_csv(load(tmp_path / "r.csv.xz"), tmp_path / "r.csv.xz")
    assert lzma.decompress((tmp_path / "r.csv.xz").read_bytes()) == CSV.encode()


# ---- columnar files ------------------------------------------------------------------------------
TABLE = pa.table({
    "qid": pa.array([301, 301, 301, 302]),  # numbers as ids: their text
    "docno": ["d1", "d2", "d3", "a"],
    "rel": pa.array([2.0, None, 1.0, 0.0]),  # null: unjudged
    "score": [2.5, 2.5, 1.0, 7.0],
    "title": ["One", "Two", "Three", None],
})


def _expected(tmp_path):
    (tmp_path / "twin.csv").write_text(CSV)
    return lists(load(tmp_path / "twin.csv"))


def test_parquet_reads_as_its_csv_twin(tmp_path):
    pq.write_table(TABLE, tmp_path / "log.parquet")
    dataset = load(tmp_path / "log.parquet")
    assert lists(dataset) == _expected(tmp_path)
    assert dataset.kind == "parquet" and dataset.file_format is None and dataset.extra_columns == ("title",)


@pytest.mark.filterwarnings("ignore:Feather V1 files are deprecated:DeprecationWarning")
@pytest.mark.parametrize("how", ["feather v2", "feather v1", "ipc stream"])
def test_arrow_files_read_as_their_csv_twin(tmp_path, how):
    path = tmp_path / "log.arrow"
    if how == "ipc stream":
        with pa.ipc.new_stream(str(path), TABLE.schema) as writer:
            writer.write_table(TABLE)
    else:
        feather.write_feather(TABLE, path, version=2 if how == "feather v2" else 1)
    dataset = load(path)
    assert lists(dataset) == _expected(tmp_path) and dataset.kind == "feather"


def test_json_lines_read_as_their_csv_twin(tmp_path):
    lines = ['{"qid": 301, "docno": "d1", "rel": 2, "score": 2.5, "title": "One"}',
             '{"qid": 301, "docno": "d2", "rel": null, "score": 2.5, "title": "Two"}',
             "",
             '{"qid": 301, "docno": "d3", "rel": 1, "score": 1, "title": "Three"}',
             '{"qid": 302, "docno": "a", "rel": 0, "score": 7}']
    (tmp_path / "log.jsonl").write_text("\n".join(lines) + "\n")
    (tmp_path / "log.jsonl.gz").write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    for name in ("log.jsonl", "log.jsonl.gz"):
        dataset = load(tmp_path / name)
        assert lists(dataset) == _expected(tmp_path) and dataset.kind == "jsonl"


def test_json_lines_with_mixed_types_are_read_line_by_line(tmp_path):
    (tmp_path / "log.jsonl").write_text('{"query": 1, "doc": "a", "grade": 1}\n'
                                        '{"query": "q2", "doc": 7, "grade": "2"}\n')
    assert lists(load(tmp_path / "log.jsonl")) == {
        "1": (["a"], [1.0], None, {}, []), "q2": (["7"], [2.0], None, {}, [])}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"doc": "a", "grade": 1}\n{"doc": "b" "grade": 2}\n',
         "log.jsonl:2: not valid JSON (Expecting ',' delimiter); expected one JSON object per line "
         "(JSON Lines)"),
        ('{"doc": "a", "grade": 1}\n\n[1, 2]\n',
         "log.jsonl:3: a JSON list, not an object; expected one JSON object per line (JSON Lines)"),
        ('{"doc": "a", "grade": 1}\n{"doc": "b", "grade": "high"}\n',
         'log.jsonl:2: grade "high" is not a number'),
        ('{"doc": "a", "stars": 1}\n', 'log.jsonl: no grade column: found "doc", "stars"'),
        ('{"doc": "a", "grade": 1}\n{"doc": null, "grade": 2}\n',
         "log.jsonl:2: doc is empty; expected an id"),
    ],
)
def test_bad_json_lines_name_their_line(tmp_path, text, message):
    (tmp_path / "log.jsonl").write_text(text)
    with pytest.raises(InputError) as caught:
        load(tmp_path / "log.jsonl")
    assert str(caught.value).startswith(message)


def test_parquet_faults_name_the_row(tmp_path):
    pq.write_table(pa.table({"doc": ["a", "b"], "grade": [1.0, float("inf")]}), tmp_path / "x.parquet")
    with pytest.raises(InputError, match=r'^x\.parquet: row 2: grade "inf" is not a finite number$'):
        load(tmp_path / "x.parquet")
    pq.write_table(pa.table({"doc": ["a", "a"], "grade": [1, 2]}), tmp_path / "y.parquet")
    twice = r'^y\.parquet: row 2: document "a" is listed twice \(first at row 1\)'
    with pytest.raises(InputError, match=twice):
        load(tmp_path / "y.parquet")


def test_a_damaged_parquet_file_says_so(tmp_path):
    pq.write_table(TABLE, tmp_path / "log.parquet")
    data = (tmp_path / "log.parquet").read_bytes()
    (tmp_path / "bad.parquet").write_bytes(data[: len(data) // 2])
    with pytest.raises(InputError, match=r"^bad\.parquet: cannot be read as a Parquet file \("):
        load(tmp_path / "bad.parquet")


def test_a_parquet_file_whose_column_name_is_not_utf8_says_so(tmp_path):
    """pyarrow decodes a column's name only when asked: a damaged byte in it is one line, not a
    UnicodeDecodeError (found by tests/core/test_fuzz_inputs.py)."""
    table = pa.table({"query": ["1"], "doc": ["a"], "score": [0.5], "grade": [1]})
    pq.write_table(table, tmp_path / "r.parquet")
    data = (tmp_path / "r.parquet").read_bytes()
    at = data.index(b"\x05grade", data.rindex(b"\x06schema")) + 1  # (the footer's schema)
    (tmp_path / "bad.parquet").write_bytes(data[:at] + b"\x80" + data[at + 1:])
    with pytest.raises(InputError, match=r"^bad\.parquet: cannot be read as a Parquet file \(.*utf-8"):
        load(tmp_path / "bad.parquet")


def test_a_parquet_run_takes_its_grades_from_qrels(tmp_path):
    pq.write_table(pa.table({"qid": ["301", "301", "301", "302"], "docno": ["d1", "d2", "d3", "a"],
                             "score": [2.5, 2.5, 1.0, 7.0]}), tmp_path / "run.parquet")
    (tmp_path / "run.txt").write_text(RUN)
    (tmp_path / "qrels.txt").write_text(QRELS)
    got = load(tmp_path / "run.parquet", tmp_path / "qrels.txt")
    assert lists(got) == lists(load(tmp_path / "run.txt", tmp_path / "qrels.txt"))


def test_a_columnar_dataset_is_saved_as_csv_with_its_other_columns(tmp_path):
    # Save does not write Parquet back (kind "parquet" sends the window to Save As); a CSV keeps all.
    pq.write_table(TABLE, tmp_path / "log.parquet")
    write_csv(load(tmp_path / "log.parquet"), tmp_path / "out.csv")
    assert lists(load(tmp_path / "out.csv")) == _expected(tmp_path)


def test_an_xlsx_workbook_still_says_save_it_as_csv(tmp_path):
    (tmp_path / "book.xlsx").write_bytes(b"PK\x03\x04\x14\x00\x06\x00" + bytes(range(256)))
    with pytest.raises(InputError, match=r"an \.xlsx workbook: save it as CSV first"):
        load(tmp_path / "book.xlsx")


def test_a_trec_line_starting_with_a_brace_is_not_json_lines(tmp_path):
    """Found by hypothesis: query id "{" made a qrels file look like JSON Lines."""
    from ndcg_gui.core import load

    run, qrels = tmp_path / "r.run", tmp_path / "q.qrels"
    run.write_text("{ Q0 a 1 2.0 t\n{ Q0 b 2 1.0 t\n")
    qrels.write_text("{ 0 a 0\n{ 0 b 2\n")
    dataset = load(run, qrels)
    assert dataset.ranked_list("{").grades.tolist() == [0, 2]


def test_an_unclosed_quote_is_said_as_such(tmp_path):
    from ndcg_gui.core import InputError, load

    path = tmp_path / "uq.csv"
    path.write_text('doc,grade\n"a,1\nb,2\n')
    with pytest.raises(InputError, match=r'uq\.csv:2: a quote opened on this line is not closed'):
        load(path)


BIG = [2**60 + 1, 2**60, 2**53 + 1, 2**63 - 1]  # nanosecond timestamps as scores


def _big_csv_twin(tmp_path):
    path = tmp_path / "twin.csv"
    path.write_text("doc,grade,score\n" + "".join(f"d{i},{i % 3},{s}\n" for i, s in enumerate(BIG)))
    return lists(load(path))


@pytest.mark.parametrize("how", ["parquet", "feather", "jsonl", "uint64 parquet"])
def test_integers_above_2_to_the_53_read_as_in_a_csv(tmp_path, how):
    """They were `internal error (ArrowInvalid: Integer value … not in range)`."""
    kind = pa.uint64() if how.startswith("uint64") else pa.int64()
    grades = [i % 3 for i in range(len(BIG))]
    table = pa.table({"doc": [f"d{i}" for i in range(len(BIG))], "grade": pa.array(grades, kind),
                      "score": pa.array(BIG, kind)})
    path = tmp_path / "big.data"
    if how == "jsonl":
        path.write_text("".join(f'{{"doc": "d{i}", "grade": {i % 3}, "score": {s}}}\n'
                                for i, s in enumerate(BIG)))
    elif how == "feather":
        feather.write_feather(table, path)
    else:
        pq.write_table(table, path)
    assert lists(load(path)) == _big_csv_twin(tmp_path)


@pytest.mark.parametrize("depth", [65, 3000])
def test_json_lines_nested_too_deep_are_refused_naming_the_line(tmp_path, depth):
    """Depth 1,000-5,000 was a RecursionError; 20,000 a segfault in pyarrow (tests/test_cli.py)."""
    path = tmp_path / "deep.jsonl"
    nested = "[" * depth + "]" * depth
    path.write_text('{"doc": "a", "grade": 1}\n\n{"doc": "b", "grade": 2, "x": ' + nested + "}\n")
    with pytest.raises(InputError) as caught:
        load(path)
    assert str(caught.value) == ("deep.jsonl:3: arrays and objects nested more than 64 levels deep, the most "
                                 "read; expected one JSON object of columns per line")


def test_nesting_is_found_piece_by_piece_naming_its_line(tmp_path, monkeypatch):
    """The scan goes through a big file in pieces of whole lines (one scan of the whole file
    peaked at 14.6x its size): a deep line in a later piece is named by its own line, and many
    brackets in strings (more than the limit on one line) are no nesting."""
    from ndcg_gui.core.formats import columnar

    monkeypatch.setattr(columnar, "_NESTING_PIECE", 100)
    lines = [f'{{"doc": "d{i}", "grade": 1, "t": "{"[" * 70}"}}' for i in range(30)]
    lines.insert(20, '{"doc": "x", "grade": 2, "x": ' + "[" * 63 + "]" * 63 + "}")  # 64 levels
    path = tmp_path / "pieces.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert len(load(path).ranked_list("").docs) == 31
    path.write_text("\n".join([*lines[:25], "", lines[20].replace("[", "[[", 1).replace("]", "]]", 1),
                               *lines[25:]]) + "\n")
    with pytest.raises(InputError) as caught:
        load(path)
    assert str(caught.value).startswith("pieces.jsonl:27: arrays and objects nested more than 64 levels")


def test_brackets_in_strings_and_nesting_up_to_the_limit_are_read(tmp_path):
    path = tmp_path / "ok.jsonl"
    nested = "[" * 63 + "]" * 63  # with the line's object: 64 levels
    path.write_text('{"doc": "a[[", "grade": 1, "t": "' + "[" * 100 + '\\"' + "{" * 100 + '"}\n'
                    + '{"doc": "b\\\\\\"]", "grade": 2, "x": ' + nested + ', "t": "' + "]" * 100 + '"}\n')
    dataset = load(path)
    assert dataset.ranked_list("").docs.tolist() == ["a[[", 'b\\"]']
