"""What only a mouse reached, by keyboard (issue 19, findings 2, 3, 7 and 11): keys go to the widget
that has the focus (QApplication.focusWidget()), never to the widget the test meant."""

from __future__ import annotations

import numpy as np
from conftest import show_active
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QApplication, QCheckBox

from ndcg_gui.core.analysis.whatif import best_insert_row
from ndcg_gui.core.lists import edits
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.qt.widgets import dialogs

CTRL = Qt.KeyboardModifier.ControlModifier


def key(k, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    """A key pressed by a person: it goes where the focus is."""
    QTest.keyClick(QApplication.focusWidget(), k, modifiers)


def type_text(text: str) -> None:
    QTest.keyClicks(QApplication.focusWidget(), text)


def pooled_list() -> RankedList:
    """Four retrieved documents (one unjudged) and three judged ones the list missed."""
    return RankedList(docs=["a", "b", "c", "u"], grades=[0, 1, 2, np.nan], query="q",
                      unretrieved={"z": 3.0, "y": 1.0, "x": 0.0}, has_pool=True)


# ---- finding 2: Ctrl+Z right after Enter undoes the typed list -----------------------------------
def test_ctrl_z_right_after_enter_undoes_the_typed_list(qtbot, window):
    show_active(window, qtbot)
    window.quick_entry.setFocus()
    type_text("3 2 1")
    key(Qt.Key.Key_Return)
    doc = window.document
    assert doc.current_list().grades.tolist() == [3, 2, 1]
    assert QApplication.focusWidget() is window.ranking_view  # the list just made, ready for keys
    key(Qt.Key.Key_Z, CTRL)
    assert doc.current_list().grades.tolist() == [3, 2, 3, 0, 1]
    key(Qt.Key.Key_Y, CTRL)
    assert doc.current_list().grades.tolist() == [3, 2, 1]
    # Back in the (used, now empty) box, Ctrl+Z is still the window's: nothing typed to undo there.
    window.quick_entry.setFocus()
    key(Qt.Key.Key_Z, CTRL)
    assert doc.current_list().grades.tolist() == [3, 2, 3, 0, 1]
    # While something is typed there, Ctrl+Z undoes the typing, as in any text box.
    type_text("1 1")
    key(Qt.Key.Key_Z, CTRL)
    assert window.quick_entry.text() == "" and doc.current_list().grades.tolist() == [3, 2, 3, 0, 1]


# ---- finding 11: the grades box follows the document ---------------------------------------------
def test_grades_box_is_emptied_when_another_file_opens(qtbot, window, tmp_path):
    csv = tmp_path / "other.csv"
    csv.write_text("doc,grade\np,1\nq,0\n")
    window.quick_entry.setText("3 2 3")  # typed, never used
    window.files.open(csv)
    qtbot.waitUntil(lambda: window.document.path == csv)
    assert window.quick_entry.text() == ""


# ---- finding 7: Enter does what a double-click does, and each has a context-menu entry -----------
def menu_texts(view) -> list[str]:
    return [a.text().replace("&", "") for a in view.actions() if not a.isSeparator()]


def focus_row(window, view, row: int) -> None:
    """The tab of `view` shown, its row `row` current, the keyboard on it."""
    why = window.why
    why.setCurrentIndex(next(i for i in range(why.count()) if why.widget(i).isAncestorOf(view)))
    view.setFocus()
    view.setCurrentIndex(view.model().index(row, 0))
    assert QApplication.focusWidget() is view


def test_enter_on_a_best_move_makes_that_move(qtbot, window):
    window.document.set_measure(k=4, undoable=False)
    show_active(window, qtbot)
    moves = window.document.report.best_moves()
    assert len(moves) > 1
    before = window.document.current_list()
    focus_row(window, window.why.moves_view, 1)  # not the first: the button only made that one
    key(Qt.Key.Key_Return)
    expected = edits.move_to(before, int(moves["from_rank"].iloc[1]), int(moves["to_rank"].iloc[1])).after
    assert window.document.current_list() == expected
    assert "Make this move" in menu_texts(window.why.moves_view)


def test_enter_on_the_ideal_and_what_if_tables_finds_the_row_in_the_list(qtbot, window):
    show_active(window, qtbot)
    for view in (window.why.ideal_view, window.why.what_if_view):
        focus_row(window, view, 3)
        key(Qt.Key.Key_Return)
        assert window.ranking_view.selected_rows() == [3]
        window.ranking_view.clearSelection()
    assert any(t.startswith("Find") for t in menu_texts(window.why.ideal_view))
    assert any(t.startswith("Find") for t in menu_texts(window.why.what_if_view))


def test_enter_on_an_unjudged_document_starts_typing_its_grade(qtbot, window):
    window.document.set_lists({"q": pooled_list()})
    show_active(window, qtbot)
    focus_row(window, window.why.judge_view, 0)
    key(Qt.Key.Key_Return)
    view = window.ranking_view
    assert view.state() == QAbstractItemView.State.EditingState
    assert view.currentIndex().row() == 3 and view.currentIndex().column() == view.ranking_model().GRADE
    type_text("2")
    key(Qt.Key.Key_Return)  # (the delegate commits a turn of the event loop later)
    qtbot.waitUntil(lambda: window.document.current_list().grades[3] == 2)
    assert "Grade this document…" in menu_texts(window.why.judge_view)


def test_enter_on_a_definition_uses_it(qtbot, window):
    show_active(window, qtbot)
    frame = window.document.report.definitions
    row = next(r for r in range(1, len(frame)) if frame["measure"].iloc[r] != window.document.measure)
    focus_row(window, window.why.definitions_view, row)
    key(Qt.Key.Key_Return)
    assert window.document.measure == frame["measure"].iloc[row]
    key(Qt.Key.Key_Z, CTRL)  # one undo step, from where the keyboard is
    assert window.document.measure == frame["measure"].iloc[0]
    assert "Use this definition" in menu_texts(window.why.definitions_view)


# ---- finding 3: a missed document goes into the list by keyboard -------------------------------
def test_enter_on_a_missed_document_inserts_it_at_its_best_rank(qtbot, window):
    window.document.set_lists({"q": pooled_list()})
    window.document.set_measure(k=3, undoable=False)
    show_active(window, qtbot)
    doc = window.document
    before = doc.current_list()
    focus_row(window, window.why.missed_view, 0)
    assert window.why.missed.text(0, 0) == "z"
    key(Qt.Key.Key_Return)
    at = best_insert_row(before.grades, 3.0, doc.measure)
    assert at == 0  # grade 3 above everything
    assert doc.current_list().docs.tolist() == ["z", "a", "b", "c", "u"]
    assert doc.current_list().grades[0] == 3
    assert window.why.missed.rowCount() == 2  # no longer missed
    key(Qt.Key.Key_Z, CTRL)
    assert doc.current_list() == before


def test_insert_a_missed_document_at_a_rank_asked_for(qtbot, window, monkeypatch):
    window.document.set_lists({"q": pooled_list()})
    show_active(window, qtbot)
    asked = []

    def get_int(_parent, _title, label, value, low, high):
        asked.append((label, value, low, high))
        return 3, True

    monkeypatch.setattr(dialogs, "ask_number", get_int)
    focus_row(window, window.why.missed_view, 1)  # y, grade 1
    assert "Insert into list at rank…" in menu_texts(window.why.missed_view)
    key(Qt.Key.Key_Insert)  # the shortcut of "Insert into list at rank…"
    assert asked and asked[0][2:] == (1, 5)
    assert window.document.current_list().docs.tolist() == ["a", "b", "y", "c", "u"]


# ---- finding 7 (issue 19) and 11 (issue 34): the plot's check boxes are one Tab stop ------------------
def test_the_plots_check_boxes_are_one_tab_stop_and_the_arrows_go_along_them(qtbot, window):
    """Issue 19 had Tab stop on each of seven boxes; issue 34 found none reachable by Tab. One stop
    for the row: Tab reaches the box used last, ← → (Home, End) go along, Space ticks."""
    show_active(window, qtbot)
    window.ranking_view.setFocus()
    seen = [QApplication.focusWidget()]
    for _ in range(40):
        key(Qt.Key.Key_Tab)
        seen.append(QApplication.focusWidget())
    cycle = seen[:seen.index(window.ranking_view, 1)]  # (once round the window)
    boxes = [w for w in cycle if isinstance(w, QCheckBox)]
    row = list(window.plot.toggles.values())
    assert boxes == [row[0]]
    assert window.why.tabBar() in seen or any(window.why.isAncestorOf(w) for w in seen if w is not None)
    row[0].setFocus()
    for box in row[1:]:
        key(Qt.Key.Key_Right)
        assert QApplication.focusWidget() is box
    key(Qt.Key.Key_Right)  # (the last stays)
    assert QApplication.focusWidget() is row[-1]
    key(Qt.Key.Key_Home)
    assert QApplication.focusWidget() is row[0]
    key(Qt.Key.Key_End)
    key(Qt.Key.Key_Left)
    loss = QApplication.focusWidget()
    assert loss is row[-2]
    ticked = loss.isChecked()
    key(Qt.Key.Key_Space)
    assert loss.isChecked() != ticked
    # Tab away and back: the box used last is the stop.
    window.ranking_view.setFocus()
    for _ in range(40):
        key(Qt.Key.Key_Tab)
        if isinstance(QApplication.focusWidget(), QCheckBox):
            break
    assert QApplication.focusWidget() is loss


# ---- the ranked list: Enter edits, as a double-click does; its actions in a context menu ---------
def test_enter_on_a_row_of_the_list_starts_typing_its_grade(qtbot, window):
    show_active(window, qtbot)
    view = window.ranking_view
    view.setFocus()
    view.setCurrentIndex(view.model().index(3, 0))  # the rank cell: not editable, its row's grade is
    key(Qt.Key.Key_Return)
    assert view.state() == QAbstractItemView.State.EditingState
    assert view.currentIndex().row() == 3 and view.currentIndex().column() == view.ranking_model().GRADE
    type_text("2")
    key(Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.document.current_list().grades.tolist() == [3, 2, 3, 2, 1])
    # The menu key (as X delivers it: a keyboard context-menu event to the focus widget).
    QApplication.sendEvent(view, QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, QPoint(2, 2),
                                                   view.mapToGlobal(QPoint(2, 2))))
    menu = QApplication.activePopupWidget()
    texts = [a.text().replace("&", "") for a in menu.actions()]
    menu.close()
    assert texts[0] == "Edit grade" and {"Move up", "Move down", "Delete rows", "Paste rows"} <= set(texts)


def test_move_to_rank_is_a_drag_by_keyboard(qtbot, window, monkeypatch):
    show_active(window, qtbot)
    monkeypatch.setattr(dialogs, "ask_number", lambda *_a, **_kw: (2, True))
    view = window.ranking_view
    view.setFocus()
    view.select_rows(3, 2)  # D and E
    key(Qt.Key.Key_M, CTRL)
    assert window.document.current_list().docs.tolist() == ["A", "D", "E", "B", "C"]
    assert view.selected_rows() == [1, 2]  # they stay selected where they went
    key(Qt.Key.Key_Z, CTRL)
    assert window.document.current_list().docs.tolist() == list("ABCDE")
