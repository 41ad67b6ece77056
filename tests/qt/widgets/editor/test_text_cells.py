"""The tables' own delegate (`TextCells`) paints every cell pixel for pixel as Qt's
`QStyledItemDelegate` does: each kind of cell of the ranked list and the per-rank table (tied
scores, unjudged, moved, beyond k, the bold NDCG@k), selected or not, with the focus or not, in
an active window or not, cut with "…" when narrow, and again after the view's font changes."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.qt.models.metrics_model import MetricsTableModel
from ndcg_gui.qt.models.ranking_model import RankingModel
from ndcg_gui.qt.widgets.editor.metrics_view import MetricsView
from ndcg_gui.qt.widgets.editor.ranking_view import RankingView
from ndcg_gui.qt.widgets.editor.text_cells import TextCells

S = QStyle.StateFlag
STATES = {
    "plain": S.State_None,
    "selected": S.State_Selected,
    "focus": S.State_HasFocus,
    "selected, focus": S.State_Selected | S.State_HasFocus,
    "inactive, selected": S.State_Selected,  # (the window not active: State_Active taken away)
}


@pytest.fixture(params=[(RankingView, RankingModel), (MetricsView, MetricsTableModel)],
                ids=["ranked list", "per-rank table"])
def view(request, qtbot, document):
    # Scores with ties, unjudged documents, moved rows, k inside the list: every kind of cell.
    document.set_lists({"q1": RankedList(docs=[f"a-long-document-id-{i}" for i in range(12)],
                                         grades=[3, 2, math.nan, 0, 1, 2] * 2,
                                         scores=np.array([9.0, 8.0, 8.0, 5.0, 4.0, 3.0] * 2), query="q1")})
    document.move_rows(4, 1, 0)
    document.set_measure(k=5)
    view_type, model_type = request.param
    shown = view_type(model_type(document))
    qtbot.addWidget(shown)
    shown.resize(700, 400)
    return shown


def painted(delegate, view, index, state, width: int) -> QImage:
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    option.rect = QRect(0, 0, width, view.verticalHeader().defaultSectionSize())
    option.state = state
    image = QImage(width, option.rect.height(), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    # (the screen's resolution, which Qt's own text layout reads a font's points in)
    image.setDotsPerMeterX(round(view.logicalDpiX() / 0.0254))
    image.setDotsPerMeterY(round(view.logicalDpiY() / 0.0254))
    painter = QPainter(image)
    delegate.paint(painter, option, index)
    painter.end()
    return image


def differing_cells(view, widths) -> list[tuple]:
    ours, qts = view.itemDelegate(), QStyledItemDelegate(view)
    assert isinstance(ours, TextCells)
    model = view.model()
    found = []
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            index = model.index(row, column)
            for name, state in STATES.items():
                state |= S.State_Enabled if name.startswith("inactive") else S.State_Enabled | S.State_Active
                for width in widths:
                    if painted(ours, view, index, state, width) != painted(qts, view, index, state, width):
                        found.append((row, column, name, width))
    return found


def test_each_cell_is_painted_as_qt_paints_it(view):
    assert differing_cells(view, (200, 40, 12)) == []  # (40 and 12 pixels cut the ids and figures)


def test_after_the_font_changes_too(view):
    differing_cells(view, (200,))  # (the delegate has measured the fonts it met)
    font = QFont(view.font())
    font.setPointSizeF(font.pointSizeF() * 1.6)
    view.setFont(font)
    assert differing_cells(view, (200, 40)) == []


def test_the_whole_view_is_painted_the_same(view, qtbot):
    view.show()
    qtbot.waitExposed(view)
    view.selectRow(2)
    view.horizontalHeader().resizeSection(1, 50)  # the ids cut with "…"
    ours = view.viewport().grab().toImage()
    view.setItemDelegate(QStyledItemDelegate(view))
    assert view.viewport().grab().toImage() == ours


def test_a_cell_looks_as_its_roles_say(view):
    model = view.model()
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            index = model.index(row, column)
            roles = (Qt.DisplayRole, Qt.TextAlignmentRole, Qt.ForegroundRole, Qt.BackgroundRole, Qt.FontRole)
            assert model.look(row, column) == tuple(model.data(index, role) for role in roles)
