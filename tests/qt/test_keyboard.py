"""The window by keyboard alone: open a run and its qrels through the file dialogs, jump to the
worst query, move a document, undo; Tab goes from pane to pane, not from cell to cell."""

from __future__ import annotations

from conftest import show_active
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog

from ndcg_gui.assets import resource_path
from ndcg_gui.core.reading import load

# The offscreen platform cannot raise windows, grab the keyboard (the file dialog's completer) or
# propagate size hints: its limits, not our warnings.
CTRL, SHIFT, ALT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier, \
    Qt.KeyboardModifier.AltModifier


def type_in_file_dialog(path, then=None) -> None:
    """When the file dialog is up: type the path where the focus is, press Enter."""
    def act() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, QFileDialog), f"expected a file dialog, got {dialog!r}"
        QTest.keyClicks(QApplication.focusWidget(), str(path))
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
        if then is not None:
            then()
    QTimer.singleShot(300, act)


def test_open_pick_the_worst_query_move_and_undo_without_the_mouse(qtbot, window, tmp_path):
    run, qrels = tmp_path / "sample.run", tmp_path / "sample.qrels"
    for name, target in (("examples/sample.run", run), ("examples/sample.qrels", qrels)):
        with resource_path(name) as source:
            target.write_bytes(source.read_bytes())
    show_active(window, qtbot)
    window.ranking_view.setFocus()

    type_in_file_dialog(run, then=lambda: type_in_file_dialog(qrels))
    QTest.keyClick(window.ranking_view, Qt.Key.Key_O, CTRL | SHIFT)  # Open run with qrels…
    qtbot.waitUntil(lambda: window.document.path == run, timeout=10000)
    doc = window.document
    assert doc.qrels_path == qrels
    show_active(window, qtbot)  # offscreen, closing a dialog does not give the window back its focus
    assert QApplication.focusWidget() is window.ranking_view  # where an open leaves the keyboard

    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_W, ALT)  # Go ▸ Worst query
    scores = load(run, qrels).evaluate(doc.measure)
    # the worst query with something to learn from: results, and an NDCG (IDCG above 0)
    scores = scores[(scores["n_retrieved"] > 0) & ~scores["undefined"]]
    worst = scores["ndcg"].idxmin()
    assert scores.loc[doc.current_query, "ndcg"] == scores.loc[worst, "ndcg"]
    # The queries listed above it (no results, IDCG = 0) are said to be skipped.
    said = window.statusBar().currentMessage()
    assert said.startswith(f"Query {doc.current_query}: the lowest NDCG") and "(IDCG = 0)" in said

    view = window.ranking_view
    view.setFocus()
    before = doc.current_list().docs.tolist()
    QTest.keyClick(view, Qt.Key.Key_Home, CTRL)  # the first row
    QTest.keyClick(view, Qt.Key.Key_Down)  # the second
    QTest.keyClick(view, Qt.Key.Key_Down, CTRL)  # moved one rank down
    after = doc.current_list().docs.tolist()
    assert after[2] == before[1] and after[1] == before[2]
    QTest.keyClick(view, Qt.Key.Key_Z, CTRL)
    assert doc.current_list().docs.tolist() == before


def test_tab_goes_from_pane_to_pane(qtbot, window):
    show_active(window, qtbot)
    window.ranking_view.setFocus()
    seen = []
    for _ in range(12):
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        seen.append(QApplication.focusWidget())
    assert window.metrics_view in seen or window.why in seen or any(
        w is not None and window.why.isAncestorOf(w) for w in seen)
    assert seen.count(window.ranking_view) <= 1  # not trapped cell by cell in one table
