"""The document: one recompute per edit, undo/redo of every kind of edit, per-query stacks."""

from __future__ import annotations

import numpy as np
import pytest

from ndcg_gui.core.config import MetricConfig
from ndcg_gui.core.metrics import per_rank
from ndcg_gui.core.ranked_list import RankedList
from ndcg_gui.qt.document import Document


def grades(doc: Document) -> list[float]:
    return doc.current_list().grades.tolist()


def test_metrics_are_per_rank_of_the_current_list(document):
    expected = per_rank([3, 2, 3, 0, 1])
    for column in expected.columns:
        np.testing.assert_allclose(document.metrics[column], expected[column])
    np.testing.assert_allclose(document.metrics["contribution"],
                               expected["gain"] * expected["discount"])
    assert document.summary.ndcg == pytest.approx(0.9724, abs=5e-5)


def test_move_recomputes_and_undo_restores(qtbot, document):
    with qtbot.waitSignals([document.rowsAboutToMove, document.listChanged, document.metricsChanged]):
        assert document.move_rows(2, 1, 0)
    assert document.current_list().docs.tolist() == ["C", "A", "B", "D", "E"]
    np.testing.assert_allclose(document.metrics["ndcg"], per_rank([3, 3, 2, 0, 1])["ndcg"])
    document.undo_stack.undo()
    assert document.current_list().docs.tolist() == list("ABCDE")
    document.undo_stack.redo()
    assert document.current_list().docs.tolist() == ["C", "A", "B", "D", "E"]


def test_no_op_moves_push_nothing(document):
    assert not document.move_rows(1, 1, 1)
    assert not document.move_rows(1, 1, 2)
    assert not document.move_rows(4, 2, 0)
    assert document.undo_stack.count() == 0


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda d: d.set_grade(0, 1), [1, 2, 3, 0, 1]),
        (lambda d: d.remove_rows([0, 2]), [2, 0, 1]),
        (lambda d: d.insert_rows(1, ["X"], [2]), [3, 2, 2, 3, 0, 1]),
        (lambda d: d.sort_ideal(), [3, 3, 2, 1, 0]),
        (lambda d: d.reverse(), [1, 0, 3, 2, 3]),
        (lambda d: d.set_grades_from(3, [2, 2, 1]), [3, 2, 3, 2, 2, 1]),
        (lambda d: d.new_from_grades([1, 0]), [1, 0]),
    ],
)
def test_every_edit_is_one_undo_step(document, edit, expected):
    edit(document)
    assert grades(document) == expected
    assert document.undo_stack.count() == 1
    np.testing.assert_allclose(document.metrics["dcg"], per_rank(expected)["dcg"])
    document.undo_stack.undo()
    assert grades(document) == [3, 2, 3, 0, 1]
    assert document.is_clean()


def test_reset_to_original_is_undoable(document):
    document.sort_ideal()
    document.reset_to_original()
    assert grades(document) == [3, 2, 3, 0, 1]
    document.undo_stack.undo()
    assert grades(document) == [3, 3, 2, 1, 0]


def test_duplicate_or_empty_document_id_is_refused(document):
    with pytest.raises(ValueError, match="already in the list"):
        document.set_doc(0, "B")
    with pytest.raises(ValueError, match="empty"):
        document.set_doc(0, "  ")
    assert document.current_list().docs.tolist() == list("ABCDE")
    assert document.undo_stack.count() == 0


def test_edits_and_undo_are_kept_per_query(qtbot):
    doc = Document()
    doc.set_lists({"q1": RankedList.from_grades([3, 2, 1]), "q2": RankedList.from_grades([0, 1, 2])})
    assert doc.queries() == ["q1", "q2"]
    doc.reverse()
    doc.set_current_query("q2")
    assert grades(doc) == [0, 1, 2]
    assert not doc.undo_group.canUndo() or doc.undo_stack.count() == 0
    doc.sort_ideal()
    doc.set_current_query("q1")
    assert grades(doc) == [1, 2, 3]  # q1's edit is still there
    assert doc.undo_group.canUndo()
    doc.undo_group.undo()
    assert grades(doc) == [3, 2, 1]
    assert sorted(doc.edited_queries()) == ["q2"]
    saved = doc.lists_for_saving()
    assert saved.ranked_list("q2").grades.tolist() == [2, 1, 0]
    assert saved.ranked_list("q1").grades.tolist() == [3, 2, 1]
    assert not doc.is_clean()


def test_evaluate_includes_edits(qtbot):
    doc = Document()
    doc.set_lists({"q1": RankedList.from_grades([0, 1]), "q2": RankedList.from_grades([1, 0])})
    doc.set_definition(k=1)
    assert doc.evaluate().loc["q1", "ndcg"] == 0
    doc.reverse()
    assert doc.evaluate().loc["q1", "ndcg"] == pytest.approx(1.0)


def test_definition_change_recomputes(qtbot, document):
    with qtbot.waitSignals([document.definitionChanged, document.metricsChanged]):
        document.set_definition(config=MetricConfig(gain="exponential"), k=3)
    expected = per_rank([3, 2, 3, 0, 1], MetricConfig(gain="exponential"))
    np.testing.assert_allclose(document.metrics["idcg"], expected["idcg"])
    assert document.summary.k == 3
    assert document.summary.ndcg == pytest.approx(expected["ndcg"][2])


def test_opening_a_file_can_be_undone_with_the_edits_it_replaced(qtbot, document):
    """Undo after an open brings back the list that was open, its edits and their undo history."""
    from ndcg_gui.core.dataset import Dataset

    document.move_rows(4, 1, 0)  # an edit of E1, not saved
    edited = document.current_list()
    other = Dataset.from_ranked_list(RankedList.from_grades([1, 0, 2], query="q9"))
    document.set_dataset(other, name="other.csv", undoable=True)
    assert document.queries() == ["q9"] and document.is_clean()
    assert document.undo_stack.undoText() == "Open other.csv"
    with qtbot.waitSignal(document.datasetChanged):
        document.undo_group.undo()
    assert document.queries() == ["q1"] and document.current_list() == edited
    assert not document.is_clean()  # E1's edit is still unsaved
    assert document.undo_stack.undoText() == "Move row"
    document.undo_group.undo()
    assert document.current_list().grades.tolist() == [3, 2, 3, 0, 1]
    assert not document.undo_group.canUndo()


def test_an_open_replacing_an_empty_document_is_not_an_undo_step(qtbot):
    from ndcg_gui.core.dataset import Dataset

    doc = Document()
    doc.set_dataset(Dataset.from_ranked_list(RankedList.from_grades([1, 2])), undoable=True)
    assert not doc.undo_group.canUndo()


def test_only_the_last_open_keeps_the_document_before_it(qtbot, document):
    """Opening A then B keeps A for B's undo, not E1 too (memory): after undoing B, A's open step
    only goes away."""
    from ndcg_gui.core.dataset import Dataset

    def open_(name, grades):
        ds = Dataset.from_ranked_list(RankedList.from_grades(grades, query=name))
        document.set_dataset(ds, name=name, undoable=True)

    open_("a", [1, 2])
    open_("b", [0, 1])
    document.undo_group.undo()  # back to a
    assert document.queries() == ["a"]
    assert "no longer kept" in document.undo_stack.undoText()
    document.undo_group.undo()  # a's open step is dropped; e1 is not restored
    assert document.queries() == ["a"] and not document.undo_group.canUndo()
    document.set_lists({"t": RankedList.from_grades([3])})  # a plain (not undoable) replacement
    open_("c", [2])  # must not touch the deleted step of an earlier session
    document.undo_group.undo()
    assert document.queries() == ["t"]


def test_a_document_whose_open_was_undone_can_be_dropped(qtbot):
    """Undo stacks belong to Python: dropping a document right after an undone open (stacks of two
    documents about) must not free anything twice (it crashed the interpreter once)."""
    import gc

    from ndcg_gui.core.dataset import Dataset

    doc = Document()
    doc.set_lists({"q1": RankedList.from_grades([3, 2])})
    doc.set_dataset(Dataset.from_ranked_list(RankedList.from_grades([1], query="a")), undoable=True)
    doc.undo_group.undo()
    assert doc.queries() == ["q1"]
    del doc
    gc.collect()
    qtbot.wait(20)  # deferred deletions run


def test_an_edit_of_another_query_ends_the_undoable_open(qtbot, document):
    """Undoing the open would drop q2's edit without asking: it only removes the step then."""
    from ndcg_gui.core.dataset import Dataset

    lists = {"a": RankedList.from_grades([1, 2], query="a"), "b": RankedList.from_grades([2, 0], query="b")}
    ds = Dataset.from_ranked_list(lists["a"]).with_lists({"b": lists["b"]})
    document.set_dataset(ds, name="two.csv", undoable=True)
    document.set_current_query("b")
    document.reverse()
    document.set_current_query("a")
    document.undo_group.undo()  # the (forgotten) open step: removed, nothing else happens
    assert document.queries() == ["a", "b"]
    assert document.list_for("b").grades.tolist() == [0, 2]
    assert not document.undo_group.canUndo()


def test_a_forgotten_open_step_leaves_a_saved_document_saved(qtbot, document):
    from ndcg_gui.core.dataset import Dataset

    for name in ("a", "b", "c"):
        ds = Dataset.from_ranked_list(RankedList.from_grades([1, 2], query=name))
        document.set_dataset(ds, name=name, undoable=True)
    document.undo_group.undo()  # back to b, whose own open step was forgotten
    assert document.is_clean()
    document.undo_group.undo()  # removes that step
    qtbot.waitUntil(document.is_clean)
