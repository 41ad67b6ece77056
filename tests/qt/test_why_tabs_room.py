"""Issue 34, finding 9: at 1366x768 the Definitions tab showed 3½ rows, the answer to "Why do
trec_eval and sklearn differ?" was cut at the pane's bottom, and the tab bar's scroll arrows hid
Definitions and Checks. Measured on the widgets as laid out (offscreen; under Xvfb too)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication, QToolButton


def opened(window, qtbot, files, size, compared: bool) -> None:
    run, qrels, second = files
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    assert window.files.open(run, qrels, ask=False)
    qtbot.waitUntil(window.query_dock.isVisible)
    if compared:
        window.compare.add_run(second)
        qtbot.waitUntil(lambda: window.comparison.active and window.right_tabs.count() == 2, timeout=10000)
        window.compare.flush()
        window.right_tabs.setCurrentWidget(window.right_splitter)  # (the curves and the tabs)
    QApplication.processEvents()


def show_tab(window, qtbot, title: str):
    why = window.why
    why.setCurrentIndex(next(i for i in range(why.count()) if why.tabText(i).startswith(title)))
    qtbot.waitUntil(lambda: why.currentWidget().isVisible())
    return why.currentWidget()


@pytest.mark.parametrize("size", [(1024, 700), (1366, 768), (1920, 1080)])
@pytest.mark.parametrize("compared", [False, True])
def test_every_why_tab_is_in_view_and_named_whole(qtbot, window, files, size, compared):
    opened(window, qtbot, files, size, compared)
    bar = window.why.tabBar()
    arrows = [b for b in bar.findChildren(QToolButton) if b.isVisible()]
    assert arrows == []  # no scroll arrow: nothing is hidden behind one
    for i in range(bar.count()):
        assert bar.rect().contains(bar.tabRect(i)), (bar.tabText(i), bar.tabRect(i), bar.rect())
        title = bar.tabText(i)
        assert bar.tabToolTip(i).startswith(title)  # whole in its tooltip, however it is cut
        if size != (1024, 700):  # a laptop's window and up: every title whole on its tab
            assert bar.shown_text(i) == title, (bar.shown_text(i), bar.tabRect(i).width())


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_the_definitions_tab_shows_its_presets_and_the_walk_its_answer(qtbot, window, files, size):
    opened(window, qtbot, files, size, compared=False)
    show_tab(window, qtbot, "Definitions")
    view = window.why.definitions_view
    viewport = view.viewport().rect()
    whole = [r for r in range(view.model().rowCount())
             if viewport.contains(view.visualRect(view.model().index(r, 0)))]
    assert len(whole) >= 5, (whole, viewport, [view.rowHeight(r) for r in range(6)])
    assert window.why.which.edit.isVisible()  # another tool's mean, under the presets
    # Why do trec_eval and sklearn differ? The answer and the first steps whole in view.
    page = show_tab(window, qtbot, "Why they differ")
    walk = window.why.difference
    assert (walk.a.currentText(), walk.b.currentText()) == ("trec_eval", "sklearn")
    shown = QRect(page.viewport().mapTo(window, page.viewport().rect().topLeft()), page.viewport().size())
    answer = walk.total
    assert answer.text().startswith("NDCG@")
    qtbot.waitUntil(lambda: answer.height() >= answer.heightForWidth(answer.width()))  # every line drawn
    at = QRect(answer.mapTo(window, answer.rect().topLeft()), answer.size())
    assert shown.contains(at), (at, shown)
    table = walk.table
    first = table.visualRect(table.model().index(0, 0))
    assert table.viewport().rect().contains(first)
    assert QRect(table.mapTo(window, table.rect().topLeft()), table.size()).bottom() <= shown.bottom()
