"""A dataset packed for the trip from the loader process and unpacked is the same dataset."""

import pickle

import numpy as np
import pandas as pd
import pytest

from ndcg_gui.assets import resource_path
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.reading import load
from ndcg_gui.core.reading.packed import pack, unpack


def assert_same(a: Dataset, b: Dataset) -> None:
    pd.testing.assert_frame_equal(a.run, b.run)
    if a.qrels is None:
        assert b.qrels is None
    else:
        pd.testing.assert_frame_equal(a.qrels, b.qrels)
    assert (a.path, a.qrels_path, a.kind) == (b.path, b.qrels_path, b.kind)
    assert a.queries() == b.queries()
    for q in a.queries():
        assert a.ranked_list(q) == b.ranked_list(q)


def test_the_sample_run_and_qrels_survive_the_trip():
    with resource_path("examples/sample.run") as run, resource_path("examples/sample.qrels") as qrels:
        dataset = load(run, qrels)
    assert_same(dataset, unpack(pickle.loads(pickle.dumps(pack(dataset)))))


def test_a_loaded_files_text_travels_as_arrow_not_as_python_strings(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("query,doc,grade,title\nq,a,1,Alpha\nq,b,0,Beta\n")
    packed = pack(load(path))
    assert {name: next(iter(column)) for name, column in packed["run"].items()} == {
        "query": "arrow", "doc": "arrow", "grade": "numbers", "_origin": "numbers", "title": "arrow"}


@pytest.mark.parametrize(
    "docs",
    [
        ["é-doc", "日本", "", "a b", "x\ty"],  # unicode, empty and spaced ids
        ["nul\0inside", "b", "c", "d", "e"],  # a NUL cannot be a separator: carried as objects
        ["\ud800lone", "b", "c", "d", "e"],  # a lone surrogate (from a badly decoded file)
    ],
)
def test_unusual_ids_survive(docs):
    # Object columns: pandas' default string dtype (pyarrow) cannot hold a lone surrogate at all.
    run = pd.DataFrame({"query": ["q"] * 5, "doc": pd.Series(docs, dtype=object),
                        "grade": [1.0, np.nan, 0.0, 2.0, 3.0]})
    dataset = Dataset.of(run)
    assert_same(dataset, unpack(pack(dataset)))


def test_many_rows_and_no_rows():
    n = 200_007
    run = pd.DataFrame({"query": np.repeat(["a", "b"], [n - 3, 3]),
                        "doc": [f"d{i}" for i in range(n)], "grade": np.arange(n) % 3})
    dataset = Dataset.of(run.astype({"grade": float}))
    assert_same(dataset, unpack(pack(dataset)))
    empty = Dataset.of(pd.DataFrame({"query": [], "doc": [], "grade": []}))
    assert len(unpack(pack(empty)).run) == 0
