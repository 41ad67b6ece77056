"""The list's and the metrics table's cells answered in one `multiData` call give what `data()`
gives role by role, and a view's delegate paints from them."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import QModelRoleData, QModelRoleDataSpan, Qt
from PySide6.QtGui import QBrush, QFont
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem, QTableView

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.qt.models.metrics_model import MetricsTableModel
from ndcg_gui.qt.models.ranking_model import RankingModel

ROLES = [Qt.DisplayRole, Qt.EditRole, Qt.TextAlignmentRole, Qt.ForegroundRole, Qt.BackgroundRole,
         Qt.FontRole, Qt.ToolTipRole, Qt.CheckStateRole, Qt.DecorationRole, Qt.SizeHintRole]


@pytest.fixture(params=[RankingModel, MetricsTableModel])
def model(request, document):
    # Scores with ties, an unjudged document and a moved row: every kind of cell.
    document.set_lists({"q1": RankedList(docs=list("ABCDEF"), grades=[3, 2, math.nan, 0, 1, 2],
                                         scores=np.array([9.0, 8.0, 8.0, 5.0, 4.0, 3.0]), query="q1")})
    document.move_rows(4, 1, 0)
    return request.param(document)


def cells(model):
    return [model.index(r, c) for r in range(model.rowCount()) for c in range(model.columnCount())]


def same(a, b) -> bool:
    if isinstance(a, QBrush | QFont) or isinstance(b, QBrush | QFont):
        return type(a) is type(b) and a == b
    return a == b


def test_each_role_in_one_call_is_what_data_gives(model):
    for index in cells(model):
        for role in ROLES:
            answer = QModelRoleData(int(role))
            model.multiData(index, QModelRoleDataSpan(answer))
            assert same(answer.data(), model.data(index, role)), (index.row(), index.column(), role)


def test_a_view_paints_each_cell_from_them(qtbot, model):
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    delegate = QStyledItemDelegate()
    for index in cells(model):
        option = QStyleOptionViewItem()
        delegate.initStyleOption(option, index)  # (Qt asks for every role at once)
        assert option.text == (model.data(index, Qt.DisplayRole) or "")
        assert int(option.displayAlignment) == int(model.data(index, Qt.TextAlignmentRole))
        font = model.data(index, Qt.FontRole)
        assert option.font.italic() == (font is not None and font.italic())
        assert option.font.bold() == (font is not None and font.bold())
        background = model.data(index, Qt.BackgroundRole)
        assert option.backgroundBrush == (background if background is not None else QBrush())
