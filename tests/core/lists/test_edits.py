"""The edit rules (core.edits) against plain Python list manipulation: moves, blocks, steps,
inserts, deletes, paste, renames, and what each refuses."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core.lists import edits
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import ndcg_at


def make(n: int) -> RankedList:
    return RankedList(docs=[f"x{i}" for i in range(n)], grades=[float(i % 4) for i in range(n)], query="q")


def qt_move(items: list, first: int, count: int, destination: int) -> list:
    """Qt's moveRows rule, written out: the block goes to before the item that was at `destination`."""
    block = items[first:first + count]
    anchor = items[destination] if destination < len(items) else None
    rest = items[:first] + items[first + count:]
    at = len(rest) if anchor is None else rest.index(anchor)
    return rest[:at] + block + rest[at:]


@given(st.data())
def test_move_rows_follows_qts_rule_and_says_the_move(data):
    n = data.draw(st.integers(1, 12))
    first = data.draw(st.integers(0, n - 1))
    count = data.draw(st.integers(1, n - first))
    destination = data.draw(st.integers(0, n))
    lst = make(n)
    edit = edits.move_rows(lst, first, count, destination)
    if first <= destination <= first + count:
        assert edit is None  # a no-op
        return
    assert edit.after.docs.tolist() == qt_move(lst.docs.tolist(), first, count, destination)
    assert edit.move == (first, count, destination)
    at, selected = edit.select
    assert edit.after.docs.tolist()[at:at + selected] == lst.docs.tolist()[first:first + count]


@given(st.data())
def test_move_block_gathers_rows_in_their_order(data):
    n = data.draw(st.integers(2, 12))
    rows = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1)))
    destination = data.draw(st.integers(0, n))
    lst = make(n)
    edit = edits.move_block(lst, rows, destination)
    docs = lst.docs.tolist()
    picked = [docs[r] for r in rows]
    rest_before = [docs[r] for r in range(destination) if r not in rows]
    rest_after = [docs[r] for r in range(destination, n) if r not in rows]
    expected = rest_before + picked + rest_after
    if expected == docs:
        assert edit is None
    else:
        assert edit.after.docs.tolist() == expected
        first, count = edit.select
        assert edit.after.docs.tolist()[first:first + count] == picked


def test_step_rows_moves_a_block_by_one_and_stops_at_the_ends():
    lst = make(5)
    down = edits.step_rows(lst, [1, 2], +1)
    assert down.after.docs.tolist() == ["x0", "x3", "x1", "x2", "x4"] and down.select == (2, 2)
    up = edits.step_rows(lst, [1, 2], -1)
    assert up.after.docs.tolist() == ["x1", "x2", "x0", "x3", "x4"] and up.select == (0, 2)
    assert edits.step_rows(lst, [0], -1) is None
    assert edits.step_rows(lst, [4], +1) is None
    scattered = edits.step_rows(lst, [1, 3], +1)  # first gathered where the first one is
    assert scattered.after.docs.tolist() == ["x0", "x1", "x3", "x2", "x4"] and scattered.select == (1, 2)


def test_rename_refuses_empty_and_duplicate_ids():
    lst = make(3)
    with pytest.raises(edits.EditRefused, match="cannot be empty"):
        edits.rename(lst, 0, "  ")
    with pytest.raises(edits.EditRefused, match=r"already in the list \(rank 2\)"):
        edits.rename(lst, 0, "x1")
    assert edits.rename(lst, 0, " x0 ") is None
    assert edits.rename(lst, 0, "new").after.docs.tolist() == ["new", "x1", "x2"]


def test_insert_names_new_rows_with_unused_ids_and_refuses_duplicates():
    lst = RankedList(docs=["d4", "a"], grades=[1, 2], unretrieved={"d3": 1.0}, has_pool=True)
    edit = edits.insert(lst, 1, None, [0.0, 1.0])
    assert edit.after.docs.tolist() == ["d4", "d5", "d6", "a"]  # d3 is judged, d4 listed
    assert edit.select == (1, 2)
    with pytest.raises(edits.EditRefused, match="twice"):
        edits.insert(lst, 0, ["a"], [1.0])
    with pytest.raises(edits.EditRefused, match="twice"):
        edits.insert(lst, 0, ["z", "z"], [1.0, 2.0])


def test_paste_pairs_insert_and_a_grade_column_overwrites_then_extends():
    lst = make(3)
    pairs = edits.paste(lst, 1, "doc\tgrade\nX\t2\nY\t\n")
    assert pairs.after.docs.tolist() == ["x0", "X", "Y", "x1", "x2"]
    assert math.isnan(pairs.after.grades[2])
    column = edits.paste(lst, 2, "1\n0\n2\n")
    assert column.after.grades.tolist()[2:] == [1, 0, 2]
    assert len(column.after) == 5 and column.text == "Paste 3 grades"
    with pytest.raises(ValueError, match="line 2"):
        edits.paste(lst, 0, "a\t1\nb\thigh\n")


def test_remove_sort_reverse_reset():
    lst = make(5)
    assert edits.remove(lst, [4, 0, 0]).after.docs.tolist() == ["x1", "x2", "x3"]
    assert edits.remove(lst, []) is None
    ideal = edits.sort_ideal(lst, Measure())
    assert ideal.after.grades.tolist() == sorted(lst.grades.tolist(), reverse=True)
    assert edits.sort_ideal(ideal.after, Measure()) is None
    assert edits.reverse(lst).after.docs.tolist() == lst.docs.tolist()[::-1]
    assert edits.reset(ideal.after, lst).after == lst
    assert edits.reset(lst, lst) is None


def test_set_grade_is_a_no_op_when_equal_even_for_unjudged():
    lst = RankedList(docs=["a", "b"], grades=[1, np.nan])
    assert edits.set_grade(lst, 0, 1.0) is None
    assert edits.set_grade(lst, 1, float("nan")) is None
    assert edits.set_grade(lst, 1, 2.0).after.grades.tolist() == [1, 2]


@settings(deadline=None)  # the first example imports the analysis modules (pandas): seconds on a busy machine
@given(st.data())
def test_move_to_puts_the_document_at_the_rank_best_moves_names(data):
    from ndcg_gui.core.analysis.whatif import best_moves

    n = data.draw(st.integers(2, 10))
    grades = data.draw(st.lists(st.sampled_from([0.0, 1.0, 2.0, 3.0]), min_size=n, max_size=n))
    lst = RankedList(docs=[f"x{i}" for i in range(n)], grades=grades)
    for _, move in best_moves(grades, Measure(k=3), n=3).iterrows():
        edit = edits.move_to(lst, int(move.from_rank), int(move.to_rank))
        doc = lst.docs[int(move.from_rank) - 1]
        assert edit.after.docs.tolist().index(doc) == int(move.to_rank) - 1
        assert ndcg_at(edit.after.grades, Measure(k=3)) == pytest.approx(move.ndcg_after)


def test_a_judgment_belongs_to_its_document_not_to_the_row():
    """Renaming a row never invents or loses a judgment: the pool holds the same judged documents."""
    lst = RankedList(docs=["a", "b"], grades=[2, np.nan], unretrieved={"z": 3.0}, has_pool=True)
    renamed = edits.rename(lst, 0, "fresh").after
    assert np.isnan(renamed.grades[0]) and renamed.unretrieved == {"z": 3.0, "a": 2.0}
    assert renamed.judgments() == lst.judgments()
    found = edits.rename(lst, 1, "z").after  # a judged document the list had missed
    assert found.grades.tolist() == [2, 3] and found.unretrieved == {}
    assert found.judgments() == lst.judgments()
    typed = RankedList(docs=["a", "b"], grades=[2, 1])  # no pool: the grade stays with the row
    assert edits.rename(typed, 0, "a2").after.grades.tolist() == [2, 1]


@given(st.integers(1, 9).flatmap(lambda n: st.tuples(
    st.just(n), st.sets(st.integers(0, n - 1), min_size=1), st.integers(-2, n + 2))))
def test_move_to_rank_puts_the_first_row_at_that_rank_and_keeps_the_rest_in_order(case):
    n, rows, rank = case
    lst = RankedList(docs=[f"d{i}" for i in range(n)], grades=list(range(n)))
    edit = edits.move_to_rank(lst, rows, rank)
    after = lst if edit is None else edit.after
    docs = after.docs.tolist()
    picked = [f"d{r}" for r in sorted(rows)]
    at = max(0, min(rank - 1, n - len(rows)))
    assert docs[at:at + len(picked)] == picked  # the block, in order, from that rank
    assert [d for d in docs if d not in picked] == [f"d{r}" for r in range(n) if r not in rows]
    if edit is not None and edit.select is not None:
        assert edit.select == (at, len(rows))
