"""The Checks tab (issue 22.4): the window checks the file it opens (core.analysis.checks), marks
what would change a figure, counts it in the tab's title, and shows an example's query on Enter or
a double-click; a big file is checked off the GUI thread and the result comes in the document's
notice."""

from __future__ import annotations

import pytest
from conftest import show_active
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QTabBar

from ndcg_gui.core.analysis.checks import check, raw_frames
from ndcg_gui.qt.document import input_checks

# Query 2: d3 and d4 tie at rank 2 = k (crossing the cut-off); d7's grade is negative; query 9 is
# judged but not in the run; query 3 judges "X1" while the run returns "x1".
RUN = """1 Q0 a1 1 3.0 t
1 Q0 a2 2 2.0 t
1 Q0 a3 3 1.0 t
2 Q0 d1 1 5.0 t
2 Q0 d3 2 4.0 t
2 Q0 d4 3 4.0 t
2 Q0 d7 4 1.0 t
3 Q0 x1 1 2.0 t
3 Q0 x2 2 1.0 t
"""
QRELS = """1 0 a1 1
1 0 a3 2
2 0 d1 1
2 0 d4 2
2 0 d7 -1
3 0 X1 2
9 0 z 1
"""


@pytest.fixture
def messy(tmp_path):
    run, qrels = tmp_path / "messy.run", tmp_path / "messy.qrels"
    run.write_text(RUN)
    qrels.write_text(QRELS)
    return run, qrels


def key(k) -> None:
    """A key pressed by a person: it goes where the focus is."""
    QTest.keyClick(QApplication.focusWidget(), k)


def tab_index(window, prefix: str) -> int:
    return next(i for i in range(window.why.count()) if window.why.tabText(i).startswith(prefix))


def double_click(tree, item) -> None:
    """A person's double-click on `item`: a click, then the second press (a double-click event)."""
    tree.scrollToItem(item)
    at = tree.visualItemRect(item).center()
    QTest.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=at)
    QTest.mouseDClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=at)


def panel_rows(panel) -> dict[str, tuple[str, list[str]]]:
    """Each check's row: its count and its examples, as shown."""
    tree = panel.tree
    out = {}
    for i in range(tree.topLevelItemCount()):
        item = tree.topLevelItem(i)
        name = item.text(0)[2:]
        out[name] = (item.text(0)[0], item.text(1), [item.child(j).text(0) for j in range(item.childCount())])
    return out


def open_messy(window, qtbot, messy, size=(1366, 768)):
    window.resize(*size)
    assert window.files.open(messy[0], messy[1], ask=False)
    show_active(window, qtbot)
    return window.why.widget(tab_index(window, "Checks"))


def test_the_window_checks_the_file_it_opens(qtbot, window, messy):
    panel = open_messy(window, qtbot, messy)
    run, qrels = raw_frames(*messy)
    expected = {f.name: f for f in check(run, qrels, window.document.k)}
    rows = panel_rows(panel)
    assert set(rows) == set(expected)
    for name, finding in expected.items():
        mark, count, examples = rows[name]
        assert count == str(finding.count)
        changes = finding.count and finding.changes_figure
        assert mark == ("⚠" if changes else "✓" if not finding.count else "·")
        assert examples[:len(finding.examples)] == list(finding.examples)
    changing = sum(1 for f in expected.values() if f.count and f.changes_figure)
    assert changing == 3  # only in the qrels, a negative grade, ids differing by case
    # Seen from any tab: the title counts the checks that would change a figure.
    assert window.why.tabText(tab_index(window, "Checks")) == f"Checks ⚠{changing}"
    assert "would change a figure" in panel.note.text() and "the file as written" in panel.note.text()
    # k follows: at k = 2 the tie at ranks 2-3 of query 2 crosses the cut-off.
    assert rows["ties across the cut-off"][1] == "0"
    window.document.set_measure(k=2)
    assert panel_rows(panel)["ties across the cut-off"][1] == "1"
    assert "at k = 2" in panel.note.text()


def test_keyboard_reaches_the_checks_and_enter_shows_the_example_query(qtbot, window, messy):
    open_messy(window, qtbot, messy)
    doc = window.document
    doc.set_current_query("1")
    # From the tab bar with arrow keys, then Tab into the checks.
    window.why.tabBar().setFocus()
    assert isinstance(QApplication.focusWidget(), QTabBar)
    while not window.why.tabText(window.why.currentIndex()).startswith("Checks"):
        before = window.why.currentIndex()
        key(Qt.Key.Key_Right)
        assert window.why.currentIndex() != before, "arrow keys never reached the Checks tab"
    panel = window.why.currentWidget()
    key(Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is panel.tree
    # Down through the rows to the negative grade's example ("2: d7 = -1"), then Enter.
    tree = panel.tree
    for _ in range(40):
        if tree.currentItem().text(0) == "2: d7 = -1":
            break
        key(Qt.Key.Key_Down)
    assert tree.currentItem().text(0) == "2: d7 = -1"
    assert panel.why.text().startswith("negative grades: trec_eval counts them 0")  # why it matters
    key(Qt.Key.Key_Return)
    assert doc.current_query == "2"
    # On a check itself Enter opens or closes its examples.
    item = next(tree.topLevelItem(i) for i in range(tree.topLevelItemCount())
                if tree.topLevelItem(i).text(0).endswith("negative grades"))
    tree.setCurrentItem(item)
    assert item.isExpanded()
    key(Qt.Key.Key_Return)
    assert not item.isExpanded()


def test_a_double_click_on_an_example_shows_its_query(qtbot, window, messy):
    panel = open_messy(window, qtbot, messy)
    window.why.setCurrentWidget(panel)
    tree = panel.tree
    item = next(tree.topLevelItem(i) for i in range(tree.topLevelItemCount())
                if tree.topLevelItem(i).text(0).endswith("ids that differ only by case or spaces"))
    example = item.child(0)
    assert example.text(0) == "3: 'x1' vs 'X1'"
    qtbot.waitUntil(tree.isVisible)
    double_click(tree, example)
    assert window.document.current_query == "3"
    # A query only in the qrels is scored 0 here (trec_eval -c): it is among the queries shown.
    item = next(tree.topLevelItem(i) for i in range(tree.topLevelItemCount())
                if tree.topLevelItem(i).text(0).endswith("queries only in the qrels"))
    double_click(tree, item.child(0))
    assert window.document.current_query == "9"


def test_a_big_file_is_checked_in_the_background(qtbot, window, messy, monkeypatch):
    """From BACKGROUND_ROWS rows the check runs in the document's runner: pending first, then the
    findings in a notice of their own; an open overtaken by another drops the older result."""
    monkeypatch.setattr(input_checks, "BACKGROUND_ROWS", 1)
    notices = []
    window.document.changed.connect(lambda changes: notices.append(changes.checks))
    assert window.files.open(messy[0], messy[1], ask=False)
    checks = window.input_checks
    panel = window.why.widget(tab_index(window, "Checks"))
    assert checks.pending and checks.findings is None and "Checking" in panel.note.text()
    assert checks.wait()
    assert checks.findings is not None and notices[-1] is True
    assert window.why.tabText(tab_index(window, "Checks")).startswith("Checks ⚠")
    # Two k changes in a row: only the last one's findings are kept.
    window.document.set_measure(k=2)
    window.document.set_measure(k=3)
    assert checks.wait()
    assert checks.k == 3


@pytest.mark.parametrize("size", [(1024, 700), (1366, 768)])
def test_the_checks_tab_at_small_sizes(qtbot, window, messy, size, tmp_path):
    panel = open_messy(window, qtbot, messy, size)
    window.why.setCurrentWidget(panel)
    qtbot.waitUntil(panel.tree.isVisible)
    qtbot.wait(50)
    tree = panel.tree
    assert panel.note.height() >= panel.note.heightForWidth(panel.note.width())  # the note whole
    assert tree.viewport().height() >= 3 * tree.fontMetrics().height()  # rows to read, not a sliver
    # The check names whole in their column.
    for i in range(tree.topLevelItemCount()):
        text = tree.topLevelItem(i).text(0)
        assert tree.fontMetrics().horizontalAdvance(text) < tree.columnWidth(0)
    window.grab().save(str(tmp_path / f"checks_{size[0]}x{size[1]}.png"))


def test_a_typed_list_is_checked_when_the_checks_tab_is_shown(qtbot, window):
    # A list from no file (the example the window starts with, a typed one) is not checked while
    # nobody looks: that would import pandas before the first paint. Shown, the tab checks it.
    import numpy as np

    from ndcg_gui.core.lists.ranked_list import RankedList

    show_active(window, qtbot)
    tied = RankedList(docs=np.array(["a", "b", "b"], dtype=object), grades=np.array([1.0, 2.0, 2.0]),
                      scores=np.array([3.0, 2.0, 2.0]))
    window.document.set_lists({"q": tied})
    assert window.input_checks.findings is None
    bar = window.why.tabBar()  # a person clicks the tab
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(tab_index(window, "Checks")).center())
    qtbot.waitUntil(lambda: window.input_checks.findings is not None)
    assert window.checks_panel.tree.topLevelItemCount() > 0
    assert "Nothing checked yet" not in window.checks_panel.note.text()
