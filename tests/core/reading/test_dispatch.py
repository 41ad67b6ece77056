"""The loader works a piece at a time to keep its memory low (issue 14): TREC text parsed in pieces
of lines, tied rows ordered some runs at a time, rows reordered and repeats checked in blocks,
chunked columns taken chunk by chunk. With every piece made tiny, a load must give what it gives
in one piece: the same dataset, the same saved-file record, the same messages."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from ndcg_gui.core.arrays import order
from ndcg_gui.core.arrays.ids import take
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats import rows, trec_text
from ndcg_gui.core.reading import dispatch, load


def _files(tmp_path, seed: int, separator: str = " "):
    rng = np.random.default_rng(seed)
    run, qrels = [], []
    for q in rng.permutation(12):  # queries not in number order; scores with many ties
        docs = rng.choice(60, size=int(rng.integers(1, 25)), replace=False)
        for rank, d in enumerate(docs, 1):
            run.append(separator.join([f"q{q}", "Q0", f"doc-{d:03d}", str(rank),
                                       str(float(rng.integers(0, 4)) / 2), "t"]))
        for d in rng.choice(60, size=8, replace=False):
            qrels.append(f"q{q} 0 doc-{d:03d} {int(rng.integers(0, 3))}")
    if seed % 2:  # a shuffled run: its rows are ordered, not only their ties
        run = [run[i] for i in rng.permutation(len(run))]
    (tmp_path / "run").write_text("\n".join(run) + "\n")
    (tmp_path / "qrels").write_text("\n".join(qrels) + "\n")
    (tmp_path / "run.csv").write_text("query,doc,score,title\n" + "".join(
        f"{f[0]},{f[2]},{f[4]},t{i}\n" for i, f in enumerate(line.split() for line in run)))
    return tmp_path / "run", tmp_path / "qrels", tmp_path / "run.csv"


def _same(a, b) -> None:
    pd.testing.assert_frame_equal(a.run, b.run)
    if a.qrels is None:
        assert b.qrels is None
    else:
        pd.testing.assert_frame_equal(a.qrels, b.qrels)
    for name in ("file_format", "qrels_format"):
        x, y = getattr(a, name), getattr(b, name)
        assert (x is None) == (y is None)
        if x is not None:
            assert np.array_equal(x.record_query, y.record_query) and x.queries == y.queries


@pytest.mark.parametrize("seed", range(4))
def test_tiny_pieces_load_what_one_piece_loads(tmp_path, monkeypatch, seed):
    run, qrels, csv = _files(tmp_path, seed, "\t" if seed == 2 else " ")
    whole = [load(run, qrels), load(run, need_grades=False), load(qrels), load(csv, need_grades=False),
             load(csv, qrels)]
    monkeypatch.setattr(trec_text, "_PIECE", 40)
    monkeypatch.setattr(order, "_TIES", 3)
    monkeypatch.setattr(rows, "_PIECE", 5)
    monkeypatch.setattr(dispatch._equal_keys_within_queries, "__defaults__", (4,))
    pieces = [load(run, qrels), load(run, need_grades=False), load(qrels), load(csv, need_grades=False),
              load(csv, qrels)]
    for a, b in zip(whole, pieces, strict=True):
        _same(a, b)


@pytest.mark.parametrize(("line", "message"), [
    ("q1 Q0 x  1 t", "5 fields, but a TREC run line has 6"),  # an empty field: the general way
    ("q1 Q0 x 1 high t", "score \"high\" \\(field 5\\) is not a finite number"),
    ("q1 Q0 doc-001 9 1.5 t", "document \"doc-001\" is listed twice for query \"q1\""),
])
def test_a_fault_in_a_later_piece_is_reported_as_in_one_piece(tmp_path, monkeypatch, line, message):
    lines = [f"q{q} Q0 doc-{d:03d} {d} {d % 3}.0 t" for q in range(3) for d in range(1, 30)]
    path = tmp_path / "run"
    path.write_text("\n".join([*lines[:40], line, *lines[40:]]) + "\n")
    with pytest.raises(InputError, match=message) as whole:
        load(path, need_grades=False)
    monkeypatch.setattr(trec_text, "_PIECE", 50)
    monkeypatch.setattr(order, "_TIES", 2)
    monkeypatch.setattr(rows, "_PIECE", 3)
    monkeypatch.setattr(dispatch._equal_keys_within_queries, "__defaults__", (5,))
    with pytest.raises(InputError) as pieces:
        load(path, need_grades=False)
    assert str(pieces.value) == str(whole.value)


def test_the_pieces_of_a_text_end_after_a_line_feed_and_cover_it():
    data = b"a b\nc d\r\ne f\rg h\n" * 7 + b"last line without a break"
    trec_text_pieces = list(trec_text._pieces(data))
    assert b"".join(p.to_pybytes() for p in trec_text_pieces) == data
    assert all(p.to_pybytes().endswith(b"\n") for p in trec_text_pieces[:-1])


def test_equal_keys_are_found_in_any_block():
    codes = np.repeat(np.arange(6, dtype=np.int32), [1, 7, 2, 9, 1, 3])
    keys = np.arange(len(codes), dtype=np.uint64)
    for block in (1, 2, 3, 5, 100):
        assert not dispatch._equal_keys_within_queries(codes, keys, block)
    for i, j in ((1, 5), (10, 18), (22, 21)):  # within queries 1 and 3, and 5 (the last)
        repeated = keys.copy()
        repeated[j] = repeated[i]
        for block in (1, 2, 3, 5, 100):
            assert dispatch._equal_keys_within_queries(codes, repeated, block)


def test_take_from_chunks_is_arrows_take():
    rng = np.random.default_rng(0)
    values = [f"v{i}" for i in range(40)]
    cuts = [0, 0, 3, 3, 17, 18, 40]
    chunked = pa.chunked_array([pa.array(values[a:b], pa.string()) for a, b in itertools.pairwise(cuts)])
    for size in (0, 1, 5, 60):
        rows_taken = rng.integers(0, 40, size)
        for picked in (rows_taken, np.sort(rows_taken)):
            assert take(chunked, picked).to_pylist() == [values[i] for i in picked]
