"""A real mouse drag of a row under a real X server (Xvfb): the view starts a QDrag, drops between
rows, Qt calls the model's moveRows, and the order and NDCG change. Run by `make test` as
`QT_QPA_PLATFORM=xcb xvfb-run -a pytest -m xvfb`; offscreen Qt cannot run a drag loop."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint
from real_display import XVFB, drag, shown

from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import ndcg_at

pytestmark = XVFB


def row_center(view, row: int) -> QPoint:
    return view.visualRect(view.model().index(row, 1)).center()


def test_dragging_the_last_row_to_the_top_reorders_and_rescores(qtbot, window):
    window.document.set_measure(k=3, undoable=False)
    shown(window, qtbot)
    view = window.ranking_view
    viewport = view.viewport()
    start = row_center(view, 4)  # E, grade 1
    target = view.visualRect(view.model().index(0, 1)).topLeft() + QPoint(20, 2)  # above row 0
    before = window.document.summary.ndcg
    assert before == pytest.approx(ndcg_at([3, 2, 3, 0, 1], Measure(k=3)))

    # Qt's drag loop (QDrag.exec) blocks the move that starts it; the rest of the drag runs inside
    # that loop once it is entered, not after a guessed delay.
    drag(window, qtbot, viewport, start, viewport, target,
         lambda: window.document.current_list().docs[0] == "E")

    assert window.document.current_list().docs.tolist() == ["E", "A", "B", "C", "D"]
    assert window.document.summary.ndcg == pytest.approx(ndcg_at([1, 3, 2, 3, 0], Measure(k=3)))
    assert window.document.summary.ndcg != before
    assert window.document.undo_stack.count() == 1
