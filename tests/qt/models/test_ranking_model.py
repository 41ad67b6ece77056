"""The editable list model: Qt's model contract, moves through moveRows and through a drop, edits
that are refused with a message, and undo through the document."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import QModelIndex, Qt

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import ndcg_at
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
    assert model.column("score") == -1
    assert [model.headerData(c, Qt.Horizontal) for c in range(model.columnCount())] == \
        ["Rank", "Document", "Grade", "Ideal", "Moved"]
    document.set_lists({"q": RankedList(docs=["a", "b"], grades=[1, 0], scores=[0.9, 0.25])})
    assert model.column("score") == 3
    # One number of decimals for the whole column, so the figures line up.
    assert [model.index(r, model.column("score")).data() for r in (0, 1)] == ["0.90", "0.25"]


def test_move_rows_emits_a_real_move_and_is_one_undo_step(qtbot, document, model):
    with qtbot.waitSignals([model.rowsAboutToBeMoved, model.rowsMoved]):
        assert model.moveRows(QModelIndex(), 2, 1, QModelIndex(), 0)
    assert docs(model) == ["C", "A", "B", "D", "E"]
    assert document.summary.ndcg == pytest.approx(ndcg_at([3, 3, 2, 0, 1], Measure(k=10)))
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
    assert model.supportedDropActions() == Qt.MoveAction | Qt.CopyAction  # copy: judged documents dropped in


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


def test_ideal_rank_moves_and_ties_are_shown(qtbot, document, model):
    document.set_lists({"q": RankedList(docs=list("abcd"), grades=[0, 2, 1, np.nan], scores=[3, 2, 2, 1],
                                        unretrieved={"z": 3.0}, has_pool=True)})
    ideal, moved, score = model.column("ideal"), model.column("moved"), model.column("score")
    # Tied scores in trec_eval's order (doc id, descending): a, c, b, d. z is ideal rank 1.
    assert document.current_list().docs.tolist() == ["a", "c", "b", "d"]
    assert [model.index(r, ideal).data() for r in range(4)] == ["4", "3", "2", ""]
    assert model.index(1, score).data(Qt.BackgroundRole) is not None  # 2 and 2 are tied
    assert model.index(0, score).data(Qt.BackgroundRole) is None
    # The tie told without its shade too: a bracket joins the tied rows.
    assert [model.index(r, score).data() for r in range(4)] == ["3", "┌ 2", "└ 2", "1"]
    assert "ranks 2–3" in model.index(2, score).data(Qt.ToolTipRole)
    document.move_rows(2, 1, 0)  # c to the top
    assert [model.index(r, moved).data() for r in range(4)] == ["▲2", "▼1", "▼1", ""]


def test_a_judged_document_dropped_from_the_missed_list_is_inserted_with_its_grade(qtbot, document, model):
    from ndcg_gui.qt.models.report_tables import MissedTable

    document.set_lists({"q": RankedList(docs=["a", "b"], grades=[0, 1], unretrieved={"z": 3.0, "y": 1.0},
                                        has_pool=True)})
    missed = MissedTable(document)
    missed.set_active(True)
    assert [missed.text(r, 0) for r in range(missed.rowCount())] == ["z", "y"]
    mime = missed.mimeData([missed.index(0, 0)])
    assert model.dropMimeData(mime, Qt.CopyAction, 1, 0, QModelIndex())
    lst = document.current_list()
    assert lst.docs.tolist() == ["a", "z", "b"] and lst.grades.tolist() == [0, 3, 1]
    assert [missed.text(r, 0) for r in range(missed.rowCount())] == ["y"]
    document.undo_stack.undo()
    assert document.current_list().docs.tolist() == ["a", "b"]


def test_the_ideal_column_shades_what_ndcg_at_k_cares_about(qtbot, document, model):
    """Red: in the top k, a place the ideal gives a better document (of equal grades the highest
    ranked); green: past k, belongs in the top k. A new k or a move reshades and announces it."""
    from ndcg_gui.qt.models.colours import LIGHT

    document.set_lists({"q": RankedList.from_grades([0, 0, 0, 1, 2, 0], query="q")})
    document.set_measure(k=3)
    ideal = model.column("ideal")

    def shades():
        brush = [model.index(r, ideal).data(Qt.BackgroundRole) for r in range(model.rowCount())]
        said = ["red" if b == LIGHT.brush("wasted_slot") else "green" if b == LIGHT.brush("belongs_in_top_k")
                else "" for b in brush]
        # The same without colour: ↓ (belongs lower) and ↑ (belongs in the top k) by the rank.
        glyphs = [model.index(r, ideal).data()[-1:] for r in range(model.rowCount())]
        assert glyphs == [{"red": "↓", "green": "↑", "": g if g not in "↓↑" else "?"}[s]
                          for s, g in zip(said, glyphs, strict=True)], glyphs
        return said

    assert shades() == ["red", "red", "", "green", "green", ""]  # not the lowest-ranked zeros
    with qtbot.waitSignal(model.dataChanged):
        document.set_measure(k=4)  # two places for zeros now: one zero too many
    assert shades() == ["red", "", "", "", "green", ""]
    with qtbot.waitSignal(model.dataChanged):
        document.move_rows(4, 1, 0)  # the 2 to the top
    assert shades() == ["", "red", "", "", "green", ""]


def test_how_far_each_row_moved_is_kept_through_every_kind_of_change(document):
    """After a move the model moves each row's rank as loaded with it instead of looking every id
    up again: after moves, blocks, grade edits, undo, redo, rows added and removed, another tie
    rule (which reorders the list as loaded) and another query, "moved" is what the report worked
    out from scratch gives (`ListReport.baseline_ranks`)."""
    rng = np.random.default_rng(11)
    scores = np.repeat(np.arange(20.0, 0, -1), 2)  # tied pairs: the tie rule orders the list as loaded
    lists = {q: RankedList(docs=[f"{q}-{i:02d}" for i in range(40)],
                           grades=rng.integers(0, 3, 40).astype(float), scores=scores, query=q)
             for q in ("q1", "q2")}
    document.set_lists(lists)
    model = RankingModel(document)
    moved = model.column("moved")

    def check() -> None:
        report = document.report
        fresh = type(report)(report.list, report.measure, report.baseline)  # no cached figure reused
        base = fresh.baseline_ranks
        want = np.where(base > 0, base - np.arange(1, len(base) + 1), np.iinfo(np.int64).min)
        assert model.rowCount() == len(want)
        assert [model.value_moved(r) for r in range(model.rowCount())] == want.tolist()
        shown = [model.index(r, moved).data() for r in range(model.rowCount())]
        assert shown == ["new" if m == np.iinfo(np.int64).min else f"▲{m}" if m > 0 else f"▼{-m}" if m < 0
                         else "" for m in want.tolist()]

    steps = [
        lambda: document.move_rows(3, 1, 0), lambda: document.move_rows(30, 2, 1),
        lambda: document.move_block([1, 5, 9], 20), lambda: document.set_grade(4, math.nan),
        lambda: document.undo_stack.undo(), lambda: document.undo_stack.undo(),
        lambda: document.undo_stack.redo(), lambda: document.move_rows(0, 1, 40),
        lambda: document.set_measure(ties="file"), lambda: document.move_rows(10, 3, 2),
        lambda: document.set_measure(ties="trec"), lambda: document.insert_rows(2, ["new"], [2.0], "Insert"),
        lambda: document.move_rows(2, 1, 7), lambda: document.remove_rows([0, 1]),
        lambda: document.move_rows(5, 1, 1), lambda: document.set_current_query("q2"),
        lambda: document.move_rows(12, 1, 3), lambda: document.set_current_query("q1"),
        lambda: document.move_rows(6, 2, 0),
    ]
    check()
    for step in steps:
        step()
        check()
