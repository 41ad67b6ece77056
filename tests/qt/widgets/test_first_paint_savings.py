"""What issue 36's first-paint work (helper "paint10") left out of the start-up still works when
first needed: the why tabs' bar fits its tabs once shown (it no longer fits them while hidden),
an axis title set again to the same text is not parsed again but a new text still shows, and the
curve plot's panels have no context menu (made without one rather than made and dropped)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QTabWidget

from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.widgets.fitting_tabs import FittingTabBar
from ndcg_gui.qt.widgets.plot.curve_plot import CurvePlot
from ndcg_gui.qt.widgets.plot.plot_parts import PlainAxis


def test_a_bar_built_hidden_fits_its_tabs_when_shown(qtbot):
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    bar = FittingTabBar()
    tabs.setTabBar(bar)
    for i in range(12):
        tabs.addTab(QLabel(str(i)), f"A rather long title {i}")
    tabs.resize(300, 200)
    assert bar.hidden_tabs() == []  # (not fitted while hidden)
    tabs.show()
    qtbot.waitExposed(tabs)
    qtbot.waitUntil(lambda: bar.hidden_tabs() != [] and bar.more.isVisible())
    assert bar.isTabVisible(tabs.currentIndex())
    tabs.resize(4000, 200)  # room for all: every tab back, no button
    qtbot.waitUntil(lambda: bar.hidden_tabs() == [] and bar.more.isHidden())
    tabs.hide()
    tabs.resize(300, 200)  # narrowed while hidden: fitted again when shown
    tabs.show()
    qtbot.waitUntil(lambda: bar.hidden_tabs() != [] and bar.more.isVisible())


def test_an_axis_title_shows_each_new_text(qtbot):
    axis = PlainAxis("left")
    axis.setLabel("DCG")
    first = axis.label.toHtml()
    assert "DCG" in first
    axis.setLabel("DCG")  # the same: the same document
    assert axis.label.toHtml() == first
    axis.setLabel("NDCG", units="x")
    assert "NDCG" in axis.label.toPlainText() and "x" in axis.label.toPlainText()
    axis.setLabel("DCG")
    assert axis.label.toPlainText().strip() == "DCG"


def test_the_curve_panels_have_no_context_menu(qtbot):
    plot = CurvePlot(Document())
    qtbot.addWidget(plot)
    for panel in (plot.plot.top, plot.plot.bottom):
        assert not panel.menuEnabled() and panel.vb.menu is None and not panel.vb.menuEnabled()
