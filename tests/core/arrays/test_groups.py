"""Rows by query (`ids.Groups.of`): the grouped shortcut (neighbours compared, the first id of each
run proved distinct by hashes) and the general way (a dictionary encoding) against a plain
Python grouping of the same ids."""

from __future__ import annotations

import itertools

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core.arrays import ids as ids_module
from ndcg_gui.core.arrays.ids import Groups

QUERIES = st.sampled_from(["1", "10", "01", "a", "A", "", "ü", "q 1", "a\x00"])


def plain(values: list[str]) -> tuple[list[int], list[str], bool]:
    """(code of each row by first appearance, labels, whether each query's rows are contiguous)."""
    codes: dict[str, int] = {}
    row_codes = [codes.setdefault(v, len(codes)) for v in values]
    runs = [v for i, v in enumerate(values) if i == 0 or values[i - 1] != v]
    return row_codes, list(codes), len(runs) == len(set(runs))


def check(values: list[str], chunks: int = 1) -> None:
    cut = np.linspace(0, len(values), chunks + 1).astype(int)
    parts = [pa.array(values[a:b], pa.string()) for a, b in itertools.pairwise(cut)]
    arr = pa.chunked_array(parts, pa.string())
    groups = Groups.of(arr.combine_chunks() if chunks == 1 else arr)
    codes, labels, grouped = plain(values)
    assert groups.codes.tolist() == codes
    assert groups.labels.tolist() == labels
    assert groups.sizes.tolist() == [codes.count(c) for c in range(len(labels))]
    if grouped:
        assert groups.starts is not None
        assert groups.starts.tolist() == [codes.index(c) for c in range(len(labels))]
    else:
        assert groups.starts is None


@given(st.lists(st.tuples(QUERIES, st.integers(1, 5)), max_size=12), st.integers(1, 3))
@settings(max_examples=300, deadline=None)
def test_runs_of_queries_grouped_or_not(runs, chunks):
    check([q for q, n in runs for _ in range(n)], chunks)


def test_a_query_that_comes_back_after_another_is_not_grouped():
    check(["1"] * 3000 + ["2"] * 3000 + ["1"] * 10)


def test_first_ids_whose_hashes_collide_are_compared_as_strings(monkeypatch):
    monkeypatch.setattr(ids_module, "hash_strings", lambda values, skip=0: np.zeros(len(values), np.uint64))
    check(["a"] * 5 + ["b"] * 5 + ["c"] * 5)  # distinct: still grouped
    check(["a"] * 5 + ["b"] * 5 + ["a"] * 5)  # "a" twice: not grouped
