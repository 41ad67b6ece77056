"""The list's and the metrics table's cells answered in one `multiData` call give what `data()`
gives role by role, and a view's delegate paints from them; the metrics table announces the
cells that differ, column by column."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import QModelRoleData, QModelRoleDataSpan, Qt
from PySide6.QtGui import QBrush, QFont
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem, QTableView
from screen_mirror import ScreenMirror

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.qt.models.metrics_model import COLUMNS, MetricsTableModel
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


def test_after_a_move_the_metrics_table_announces_only_the_cells_that_differ(qtbot, document):
    """Every cell that differs is announced (the mirror of what a view painted is never stale),
    and after a move near the top the columns that follow the rows (document, grade, gain) are
    announced only between the move's ends, while DCG and NDCG change down the list."""
    rng = np.random.default_rng(3)
    grades = rng.integers(0, 4, 60).astype(float)
    grades[[5, 17, 40]] = math.nan
    document.set_lists({"q1": RankedList(docs=[f"d{i}" for i in range(60)], grades=grades, query="q1")})
    model = MetricsTableModel(document)
    mirror = ScreenMirror(model, "metrics")
    spans: list[tuple[int, int, int, int]] = []
    model.dataChanged.connect(lambda a, b, *_: spans.append((a.row(), b.row(), a.column(), b.column())))
    columns = {name: c for c, (_, name, _) in enumerate(COLUMNS)}

    def rows_announced(name: str) -> set[int]:
        c = columns[name]
        return {r for first, last, left, right in spans if left <= c <= right for r in range(first, last + 1)}

    before = [[model.data(model.index(r, c)) for c in range(model.columnCount())] for r in range(60)]
    document.move_rows(3, 1, 0)
    assert mirror.stale_cells() == []
    after = [[model.data(model.index(r, c)) for c in range(model.columnCount())] for r in range(60)]
    for name in ("doc", "grade", "gain", "dcg", "ndcg", "idcg"):
        c = columns[name]
        differ = {r for r in range(60) if before[r][c] != after[r][c]}
        assert differ <= rows_announced(name)
    assert rows_announced("doc") <= set(range(4)) and rows_announced("gain") <= set(range(4))
    assert not rows_announced("idcg") and not rows_announced("rank")
    assert max(rows_announced("dcg")) > 4  # (DCG of every rank below the move differs)
    for step in (lambda: document.move_rows(50, 1, 2), lambda: document.set_grade(7, math.nan),
                 lambda: document.set_grade(5, 3.0), lambda: document.move_rows(0, 3, 60)):
        spans.clear()
        step()
        assert mirror.stale_cells() == []
