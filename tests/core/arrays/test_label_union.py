"""Query labels united and placed (`join.label_union`, `evaluate.sorted_union`): matched by hashes
of their bytes and sorted by Arrow, against Python's own set, sort and dict on the same labels."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core.arrays import join
from ndcg_gui.core.arrays.join import label_union
from ndcg_gui.core.ndcg.evaluate import sorted_union

# Labels that sort differently by bytes, by code points and by numbers, and a lone surrogate
# (text a badly decoded file gives, which Arrow cannot hold).
ODD = ["", "0", "00", "01", "1", "10", "2", "a", "A", "a\x00", "ä", "é", "\U0001F600", "\uffff", "q 1",
       "\ud800", "\ud800x"]
LABELS = st.text(max_size=5) | st.sampled_from(ODD)


def reference(sets: list[list[str]]):
    """(first-seen union, sorted union, positions in each) by Python's own means."""
    seen: dict[str, int] = {}
    for labels in sets:
        for label in labels:
            seen.setdefault(label, len(seen))
    ordered = sorted(seen)
    place = {label: i for i, label in enumerate(ordered)}
    return (list(seen), [[seen[x] for x in labels] for labels in sets],
            ordered, [[place[x] for x in labels] for labels in sets])


@given(st.lists(st.lists(LABELS, max_size=12, unique=True), min_size=1, max_size=3))
@settings(max_examples=300, deadline=None)
def test_united_and_sorted_as_python_does(sets):
    arrays = [np.array(labels, dtype=object) for labels in sets]
    first_seen, first_places, ordered, places = reference(sets)
    union, positions = label_union(*arrays)
    assert union.tolist() == first_seen
    assert [p.tolist() for p in positions] == first_places
    queries, positions = sorted_union(*arrays)
    assert queries.tolist() == ordered
    assert [p.tolist() for p in positions] == places


def test_many_labels_as_a_run_and_its_qrels_have_them():
    rng = np.random.default_rng(36)
    run = np.array([str(q) for q in rng.permutation(30_000) + 1001], dtype=object)
    qrels = np.array([str(q) for q in rng.permutation(33_000)[:25_000] + 1001], dtype=object)
    first_seen, first_places, ordered, places = reference([run.tolist(), qrels.tolist()])
    union, positions = label_union(run, qrels)
    assert union.tolist() == first_seen and [p.tolist() for p in positions] == first_places
    queries, positions = sorted_union(run, qrels)
    assert queries.tolist() == ordered and [p.tolist() for p in positions] == places


def test_labels_whose_hashes_collide_are_told_apart(monkeypatch):
    # Every label hashed alike: each match is then confirmed on the strings, and the join numbers
    # the labels exactly instead.
    monkeypatch.setattr(join, "hash_strings", lambda ids, skip=0: np.zeros(len(ids), np.uint64))
    run, qrels = np.array(["b", "a", "c"], dtype=object), np.array(["c", "d", "a"], dtype=object)
    union, (at_run, at_qrels) = label_union(run, qrels)
    assert union.tolist() == ["b", "a", "c", "d"]
    assert at_run.tolist() == [0, 1, 2] and at_qrels.tolist() == [2, 3, 1]


NOTHING = np.zeros(0, object)


@pytest.mark.parametrize("sets", [[], [NOTHING], [NOTHING, np.array(["x"], dtype=object)]])
def test_nothing_to_unite(sets):
    queries, positions = sorted_union(*sets)
    assert queries.tolist() == sorted({x for s in sets for x in s})
    assert len(positions) == len(sets)
