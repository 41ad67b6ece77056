"""The document: one recompute and one change notice per step, undo/redo of every kind of step
(edits, definition changes, opening a file) in one history for the whole document."""

from __future__ import annotations

import numpy as np
import pytest

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.lists.typed_dataset import TypedDataset
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import per_rank
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import KEEP_FOR_UNDO_ROWS, Document


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
    with qtbot.waitSignal(document.changed) as notice:
        assert document.move_rows(2, 1, 0)
    assert notice.args[0] == Changes(lists=frozenset({"q1"}), move=(2, 1, 0))
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


def test_one_history_for_every_query_undo_shows_the_query_it_changes(qtbot):
    doc = Document()
    doc.set_lists({"q1": RankedList.from_grades([3, 2, 1]), "q2": RankedList.from_grades([0, 1, 2])})
    assert doc.queries() == ["q1", "q2"]
    doc.reverse()
    doc.set_current_query("q2")
    assert grades(doc) == [0, 1, 2]
    doc.sort_ideal()
    doc.set_current_query("q1")
    assert grades(doc) == [1, 2, 3]  # q1's edit is still there
    doc.undo_stack.undo()  # the last step was q2's: undone, and q2 shown
    assert doc.current_query == "q2" and grades(doc) == [0, 1, 2]
    doc.undo_stack.undo()
    assert doc.current_query == "q1" and grades(doc) == [3, 2, 1]
    doc.undo_stack.redo()
    assert sorted(doc.edited_queries()) == ["q1"]
    saved = doc.lists_for_saving()
    assert saved.ranked_list("q1").grades.tolist() == [1, 2, 3]
    assert saved.ranked_list("q2").grades.tolist() == [0, 1, 2]
    assert not doc.is_clean()


def test_evaluate_includes_edits(qtbot):
    doc = Document()
    doc.set_lists({"q1": RankedList.from_grades([0, 1]), "q2": RankedList.from_grades([1, 0])})
    doc.set_measure(k=1)
    assert doc.evaluate().loc["q1", "ndcg"] == 0
    doc.reverse()
    assert doc.evaluate().loc["q1", "ndcg"] == pytest.approx(1.0)


def test_definition_change_recomputes_and_is_undoable(qtbot, document):
    with qtbot.waitSignal(document.changed) as notice:
        document.set_measure(Measure(gain="exponential"), k=3)
    assert notice.args[0] == Changes(definition=True)
    expected = per_rank([3, 2, 3, 0, 1], Measure(gain="exponential"))
    np.testing.assert_allclose(document.metrics["idcg"], expected["idcg"])
    assert document.summary.k == 3
    assert document.summary.ndcg == pytest.approx(expected["ndcg"][2])
    document.undo_stack.undo()
    assert document.measure == Measure().at(document.k) and document.k == 10
    assert document.summary.ndcg == pytest.approx(0.9724, abs=5e-5)


def test_steps_of_k_merge_into_one_undo_step(document):
    for k in (3, 4, 5):
        document.set_measure(k=k)
    assert document.undo_stack.count() == 1 and document.undo_stack.undoText() == "Set k = 5"
    document.undo_stack.undo()
    assert document.k == 10
    document.undo_stack.redo()
    document.set_measure(k=10)  # back where it started: the merged step has nothing to undo
    assert document.k == 10 and document.undo_stack.count() == 0


def test_a_starting_definition_is_not_an_undo_step(document):
    document.set_measure(k=4, undoable=False)
    assert document.k == 4 and document.undo_stack.count() == 0


def test_opening_a_file_can_be_undone_with_the_edits_it_replaced(qtbot, document):
    """Undo after an open brings back the list that was open, with its edits and their history."""

    document.move_rows(4, 1, 0)  # an edit of E1, not saved
    edited = document.current_list()
    other = TypedDataset.of(RankedList.from_grades([1, 0, 2], query="q9"))
    document.set_dataset(other, name="other.csv", undoable=True)
    assert document.queries() == ["q9"] and document.is_clean() and document.display_name == "other.csv"
    assert document.undo_stack.undoText() == "Open other.csv"
    with qtbot.waitSignal(document.changed) as notice:
        document.undo_stack.undo()
    assert notice.args[0].dataset
    assert document.queries() == ["q1"] and document.current_list() == edited
    assert not document.is_clean()  # E1's edit is still unsaved
    assert document.undo_stack.undoText() == "Move row"
    document.undo_stack.undo()
    assert document.current_list().grades.tolist() == [3, 2, 3, 0, 1]
    assert not document.undo_stack.canUndo()
    document.undo_stack.redo()
    document.undo_stack.redo()  # opened again
    assert document.queries() == ["q9"] and document.is_clean()


def test_an_open_replacing_an_empty_document_is_not_an_undo_step(qtbot):

    doc = Document()
    doc.set_dataset(TypedDataset.of(RankedList.from_grades([1, 2])), undoable=True)
    assert not doc.undo_stack.canUndo()


def test_opening_stops_being_undoable_past_the_memory_limit(qtbot, document, monkeypatch):
    """The history keeps the documents it can go back to; past KEEP_FOR_UNDO_ROWS rows an open
    starts a fresh history (its documents would not fit)."""
    from ndcg_gui.qt.document import document as document_module

    monkeypatch.setattr(document_module, "KEEP_FOR_UNDO_ROWS", 12)
    assert KEEP_FOR_UNDO_ROWS > 12

    def open_(name, n):
        ds = TypedDataset.of(RankedList.from_grades([1] * n, query=name))
        document.set_dataset(ds, name=name, undoable=True)

    open_("a", 4)  # E1 (5) + a (4) <= 12: undoable
    assert document.undo_stack.count() == 1
    open_("b", 4)  # 13 rows would be kept: a fresh history
    assert document.undo_stack.count() == 0 and document.queries() == ["b"]


def test_a_document_with_undone_opens_can_be_dropped(qtbot):
    """The undo stack and its steps belong to the document: dropping it after an undone open must
    not free anything twice."""
    import gc


    doc = Document()
    doc.set_lists({"q1": RankedList.from_grades([3, 2])})
    doc.set_dataset(TypedDataset.of(RankedList.from_grades([1], query="a")), undoable=True)
    doc.undo_stack.undo()
    assert doc.queries() == ["q1"]
    del doc
    gc.collect()
    qtbot.wait(20)  # deferred deletions run


def test_save_as_renames_every_state_of_the_document(document, tmp_path):
    document.reverse()
    document.mark_saved(tmp_path / "saved.csv")
    assert document.is_clean() and document.display_name == "saved.csv"
    document.undo_stack.undo()  # an edit undone: still the file saved as
    assert document.path == tmp_path / "saved.csv" and not document.is_clean()


def test_the_list_on_screen_and_as_loaded_are_the_reports_and_follow_every_step(qtbot, monkeypatch):
    from ndcg_gui.assets import resource_path
    from ndcg_gui.core.reading import load
    from ndcg_gui.core.state.workspace import Workspace

    with resource_path("examples/sample.run") as run, resource_path("examples/sample.qrels") as qrels:
        dataset = load(run, qrels)
    doc = Document()
    doc.set_dataset(dataset)
    built = []
    original = Workspace.original
    monkeypatch.setattr(Workspace, "original", lambda self, q: (built.append(q), original(self, q))[1])
    steps = [lambda: doc.set_measure(ties="file"), doc.reverse, lambda: doc.set_current_query("403"),
             lambda: doc.move_rows(0, 1, 3), doc.undo_stack.undo, doc.undo_stack.undo,
             doc.undo_stack.redo, lambda: doc.set_measure(k=3), doc.reset_to_original,
             lambda: doc.set_dataset(TypedDataset.of(RankedList.from_grades([1, 0, 2])))]
    for step in steps:
        built.clear()
        step()
        query = doc.current_query
        assert built in ([], [query])  # the list as loaded built at most once a step
        assert doc.current_list() is doc.report.list and doc.original_list() is doc.report.baseline
        if query in doc.state.lists:  # edited: the very list the state holds
            assert doc.current_list() is doc.state.lists[query]
        else:
            assert doc.current_list() == original(doc.state, query)
        assert doc.original_list() == original(doc.state, query)


def test_two_problems_in_one_notice_are_both_said():
    from ndcg_gui.qt.document.changes import Changes

    both = Changes(problem="a.run: cannot be read") | Changes(reading=True) | Changes(problem="q2: gone")
    assert both.problem == "a.run: cannot be read; q2: gone" and both.reading
    assert (Changes() | Changes()).problem is None
