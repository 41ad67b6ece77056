"""The editable list model: Qt's model contract, moves through moveRows and through a drop, edits
that are refused with a message, and undo through the document."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QModelIndex, Qt

from ndcg_gui.core.metrics import ndcg_at
from ndcg_gui.core.ranked_list import RankedList
from ndcg_gui.qt.models.ranking_model import ROWS_MIME, RankingModel


@pytest.fixture
def model(document) -> RankingModel:
    return RankingModel(document)


def docs(model: RankingModel) -> list[str]:
    return [model.index(r, RankingModel.DOC).data() for r in range(model.rowCount())]


def test_passes_qtmodeltester(qtmodeltester, model, document):
    qtmodeltester.check(model, force_py=True)
    document.move_rows(0, 2, 5)
    document.set_grade(1, math.nan)
    qtmodeltester.check(model, force_py=True)


def test_shows_rank_doc_grade_and_marks_unjudged(document, model):
    assert docs(model) == list("ABCDE")
    assert [model.index(r, RankingModel.RANK).data() for r in range(5)] == ["1", "2", "3", "4", "5"]
    document.set_grade(3, math.nan)
    cell = model.index(3, RankingModel.GRADE)
    assert cell.data() == "unjudged"
    assert cell.data(Qt.EditRole) == ""
    assert cell.data(Qt.FontRole).italic()
    assert "Unjudged" in cell.data(Qt.ToolTipRole)


def test_score_column_only_when_the_list_has_scores(qtbot, document, model):
    assert model.columnCount() == 3
    document.set_lists({"q": RankedList(docs=["a", "b"], grades=[1, 0], scores=[0.9, 0.25])})
    assert model.columnCount() == 4
    # One number of decimals for the whole column, so the figures line up.
    assert [model.index(r, RankingModel.SCORE).data() for r in (0, 1)] == ["0.90", "0.25"]


def test_move_rows_emits_a_real_move_and_is_one_undo_step(qtbot, document, model):
    with qtbot.waitSignals([model.rowsAboutToBeMoved, model.rowsMoved]):
        assert model.moveRows(QModelIndex(), 2, 1, QModelIndex(), 0)
    assert docs(model) == ["C", "A", "B", "D", "E"]
    assert document.summary.ndcg == pytest.approx(ndcg_at([3, 3, 2, 0, 1], 10))
    assert document.undo_stack.count() == 1
    document.undo_stack.undo()
    assert docs(model) == list("ABCDE")


def test_moving_a_block_down(document, model):
    assert model.moveRows(QModelIndex(), 0, 2, QModelIndex(), 4)
    assert docs(model) == ["C", "D", "A", "B", "E"]


def test_a_no_op_move_is_refused(document, model):
    assert not model.moveRows(QModelIndex(), 1, 1, QModelIndex(), 2)
    assert document.undo_stack.count() == 0


def test_drag_and_drop_through_mime_data(document, model):
    indexes = [model.index(r, c) for r in (3, 4) for c in range(model.columnCount())]
    mime = model.mimeData(indexes)
    assert mime.hasFormat(ROWS_MIME)
    assert model.canDropMimeData(mime, Qt.MoveAction, 0, 0, QModelIndex())
    assert model.dropMimeData(mime, Qt.MoveAction, 0, 0, QModelIndex())
    assert docs(model) == ["D", "E", "A", "B", "C"]
    assert document.current_list().grades.tolist() == [0, 1, 3, 2, 3]
    assert document.undo_stack.count() == 1


def test_drop_below_the_last_row_and_non_contiguous_rows(document, model):
    mime = model.mimeData([model.index(0, 0), model.index(2, 0)])
    assert model.dropMimeData(mime, Qt.MoveAction, -1, -1, QModelIndex())
    assert docs(model) == ["B", "D", "E", "A", "C"]
    document.undo_stack.undo()
    assert docs(model) == list("ABCDE")


def test_only_the_root_accepts_drops(model):
    assert model.flags(QModelIndex()) & Qt.ItemIsDropEnabled
    assert not model.flags(model.index(0, 0)) & Qt.ItemIsDropEnabled
    assert model.supportedDropActions() == Qt.MoveAction


def test_editing_a_grade_and_a_document(document, model):
    assert model.setData(model.index(0, RankingModel.GRADE), "1")
    assert model.setData(model.index(1, RankingModel.DOC), "X")
    assert docs(model)[:2] == ["A", "X"]
    assert document.current_list().grades[0] == 1
    assert model.setData(model.index(2, RankingModel.GRADE), "")  # empty = unjudged
    assert math.isnan(document.current_list().grades[2])
    assert document.undo_stack.count() == 3


def test_a_non_number_is_refused_with_a_message(qtbot, document, model):
    with qtbot.waitSignal(model.editRejected) as signal:
        assert not model.setData(model.index(0, RankingModel.GRADE), "high")
    assert "not a number" in signal.args[0]
    assert document.current_list().grades[0] == 3
    with qtbot.waitSignal(model.editRejected) as signal:
        assert not model.setData(model.index(0, RankingModel.DOC), "B")
    assert "already in the list" in signal.args[0]
    assert document.undo_stack.count() == 0
