"""Issue 35: at 1366x768 with runs compared, the scatter's x axis title was cut through its
letters by the plot's bottom edge (pyqtgraph reserves 0.8 of a title's height and draws it 5 px
past its axis). Each axis's title, as drawn, lies inside what the plot widget shows, at every
size the screenshots take (and 1366x768 less a title bar), and in the scatter at its smallest."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QRectF, QTimer
from PySide6.QtWidgets import QApplication

from ndcg_gui.qt.widgets.editor.ranking_view import REFIT_DELAY_MS
from ndcg_gui.qt.widgets.plot.run_scatter import RunScatter

SIZES = [(1024, 700), (1366, 768), (1366, 743), (1920, 1080)]


def settle(qtbot, window) -> None:
    """The window's short single-shot timers have fired, then the posted layout requests run."""
    def idle() -> bool:
        return not any(t.isActive() and t.isSingleShot() and t.interval() <= REFIT_DELAY_MS
                       for t in window.findChildren(QTimer))
    qtbot.waitUntil(idle, timeout=5000)
    QApplication.sendPostedEvents()
    QApplication.processEvents()


def titles_outside(plot_widget) -> list[str]:
    """Each axis title whose box, as placed in the scene, is not within the part the widget shows."""
    shown = plot_widget.mapToScene(plot_widget.viewport().rect()).boundingRect()
    out = []
    for side in ("bottom", "left"):
        axis = plot_widget.getPlotItem().getAxis(side)
        label = axis.label
        box: QRectF = label.mapRectToScene(label.boundingRect())
        if not label.isVisible() or not axis.labelText.strip(" …"):
            out.append(f"{side}: no title")
        elif not shown.contains(box):
            out.append(f"{side} {axis.labelText!r}: {box.getRect()} not within {shown.getRect()}")
    return out


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_scatters_titles_lie_inside_the_plot_with_runs_compared(window, qtbot, files, size):
    run, qrels, second = files
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    assert window.files.open(run, qrels, ask=False)
    window.compare.add_run(second)
    qtbot.waitUntil(lambda: window.comparison.active and window.right_tabs.count() == 2, timeout=10000)
    window.compare.flush()
    window.right_tabs.setCurrentIndex(1)
    scatter = window.compare_pane.scatter
    qtbot.waitUntil(lambda: scatter.made)
    settle(qtbot, window)
    assert window.size().toTuple() == size
    assert titles_outside(scatter.plot_widget()) == []


def test_the_titles_lie_inside_the_scatter_at_its_smallest(qtbot):
    scatter = RunScatter()
    qtbot.addWidget(scatter)
    scatter.resize(scatter.minimumSize())
    scatter.set_points(["a", "b", "c"], np.array([0.1, 0.5, 0.9]), np.array([0.2, 0.4, 0.9]),
                       ("a_baseline_run_with_a_long_name", "the_other_run_with_a_long_name"), 10, "a")
    scatter.show()
    qtbot.waitExposed(scatter)
    qtbot.waitUntil(lambda: scatter.made)
    QApplication.processEvents()
    assert titles_outside(scatter.plot_widget()) == []


@pytest.mark.parametrize("width", [560, 640, 760])
def test_the_scatter_is_laid_over_by_neither_its_hint_nor_the_method(qtbot, width):
    """At 1366x768 with a worked example's note open, the hint above the scatter took three lines
    where a wrapping label's minimum said one: in a short pane the method's text was then laid
    over the scatter's x axis and its title. Each keeps its own rows, however short the pane."""
    from ndcg_gui.qt.widgets.runs.comparison_pane import ComparisonPane

    pane = ComparisonPane()
    qtbot.addWidget(pane)
    pane.set_method("how it was made\n" * 6)
    pane.resize(width, 300)  # (shorter than the pane's content: it scrolls)
    pane.show()
    qtbot.waitExposed(pane)
    qtbot.waitUntil(lambda: pane.scatter.made)
    QApplication.processEvents()
    assert not pane.narrow and pane.method_text.isVisible()
    hint, scatter, method = (w.geometry() for w in (pane.hint, pane.scatter, pane.method_text))
    assert hint.height() >= pane.hint.heightForWidth(hint.width())
    assert hint.bottom() < scatter.top() and scatter.bottom() < method.top()
    assert scatter.height() >= pane.scatter.minimumHeight()
