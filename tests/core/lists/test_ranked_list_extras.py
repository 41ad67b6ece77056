"""A list's extra columns and each row's origin stay with their rows through every edit, and a
dataset gives back exactly the lists it was given (and counts as edited only the changed ones)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core.lists.dataset import ORIGIN, Dataset
from ndcg_gui.core.lists.ranked_list import RankedList

EDITS = st.lists(
    st.tuples(st.sampled_from(["move", "grade", "rename", "insert", "remove", "reorder", "ideal"]),
              st.integers(0, 10**6), st.integers(0, 10**6)),
    max_size=12,
)


def start(n: int) -> RankedList:
    return RankedList(
        docs=[f"doc{i}" for i in range(n)], grades=[i % 3 for i in range(n)], query="q",
        extras={"title": [f"T{i}" for i in range(n)], "url": [f"u/{i}" for i in range(n)]},
        origin=np.arange(n) + 1,
    )


@settings(max_examples=300, deadline=None)
@given(n=st.integers(1, 8), edits=EDITS)
def test_every_edit_keeps_extras_and_origin_with_their_rows(n, edits):
    rl = start(n)
    rows = [{"doc": f"doc{i}", "grade": float(i % 3), "title": f"T{i}", "url": f"u/{i}", "origin": i + 1}
            for i in range(n)]
    fresh = 0
    for step, a, b in edits:
        m = len(rows)
        if step == "move" and m:
            first = a % m
            count = 1 + b % (m - first)
            dest = (a // 3) % (m + 1)
            rl = rl.moved(first, count, dest)
            block, rest = rows[first:first + count], rows[:first] + rows[first + count:]
            at = dest if dest <= first else dest - count
            rows = rest[:at] + block + rest[at:]
        elif step == "grade" and m:
            rl = rl.with_grade(a % m, float(b % 4))
            rows[a % m] = {**rows[a % m], "grade": float(b % 4)}
        elif step == "rename" and m:
            fresh += 1
            rl = rl.with_doc(a % m, f"new{fresh}")
            rows[a % m] = {**rows[a % m], "doc": f"new{fresh}"}
        elif step == "insert":
            fresh += 1
            rl = rl.inserted(a % (m + 1), [f"ins{fresh}"], [1.0])
            blank = {"title": "", "url": "", "origin": -1}
            rows.insert(a % (m + 1), {"doc": f"ins{fresh}", "grade": 1.0, **blank})
        elif step == "remove" and m:
            rl = rl.removed([a % m])
            rows.pop(a % m)
        elif step == "reorder" and m:
            order = np.random.default_rng(a).permutation(m)
            rl = rl.reordered(order)
            rows = [rows[i] for i in order]
        elif step == "ideal" and m:
            order = rl.ideal_order()
            rl = rl.reordered(order)
            rows = [rows[i] for i in order]
    assert rl.extra_columns == ("title", "url")
    assert rl.docs.tolist() == [r["doc"] for r in rows]
    assert rl.grades.tolist() == [r["grade"] for r in rows]
    assert rl.extras["title"].tolist() == [r["title"] for r in rows]
    assert rl.extras["url"].tolist() == [r["url"] for r in rows]
    assert rl.origin.tolist() == [r["origin"] for r in rows]


def test_inserted_rows_may_bring_their_own_cells():
    rl = start(2).inserted(1, ["x", "y"], [1, 2], extras={"title": ["X", "Y"]})
    assert rl.extras["title"].tolist() == ["T0", "X", "Y", "T1"]
    assert rl.extras["url"].tolist() == ["u/0", "", "", "u/1"]


def test_a_dataset_gives_back_the_lists_it_was_given_and_names_the_edited_ones():
    run = pd.DataFrame({
        "query": ["a", "a", "b"], "doc": ["x", "y", "z"], "grade": [1.0, 0.0, 2.0],
        ORIGIN: [1, 2, 3], "title": ["X", "Y", "Z"],
    })
    dataset = Dataset.of(run, extra_columns=("title",))
    a = dataset.ranked_list("a")
    assert a.extras["title"].tolist() == ["X", "Y"] and a.origin.tolist() == [1, 2]
    same = dataset.with_lists({"a": a})
    assert same.edited == frozenset()
    changed = same.with_lists({"a": a.reordered([1, 0]), "c": RankedList.from_grades([3], query="c")})
    assert changed.edited == {"a", "c"}
    assert changed.ranked_list("a") == a.reordered([1, 0])
    assert changed.ranked_list("c").extras["title"].tolist() == [""]
    assert changed.ranked_list("c").origin.tolist() == [-1]
    assert changed.ranked_list("b") == dataset.ranked_list("b")
    assert changed.with_lists({"a": a}).edited == {"a", "c"}  # edited since loading, even if undone later
