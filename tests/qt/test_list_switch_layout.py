"""Another list shown is laid out before it is painted: every frame that paints the per-rank table
and the ranked list after a query is picked has their columns fitted to the new rows (no figure
cut, no horizontal scroll bar flashed while the vertical one comes). Before, the per-rank table
kept the short list's widths for its first frames: its columns scrolled sideways."""

from __future__ import annotations

import numpy as np
import pytest
from layout_checks import cut_cells
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtTest import QTest

from ndcg_gui.core.lists.ranked_list import RankedList


def _list(n: int, width: int) -> RankedList:
    rng = np.random.default_rng(n)
    return RankedList(docs=[f"d{i:0{width}d}" for i in range(n)], grades=rng.integers(0, 3, n).astype(float),
                      scores=np.linspace(100.0, 1.0, n) * 1234.5)


class Paints(QObject):
    """What a view's viewport showed at each paint: its cut cells (`layout_checks.cut_cells`)."""

    def __init__(self, view) -> None:
        super().__init__(view)
        self.view, self.seen = view, []
        view.viewport().installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.seen.append(cut_cells(self.view))
        return False

    def stop(self) -> None:
        self.view.viewport().removeEventFilter(self)


@pytest.mark.parametrize("size", [(1024, 700), (1366, 768)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_long_list_picked_after_a_short_one_is_fitted_in_every_frame(window, qtbot, size):
    window.resize(*size)
    window.document.set_lists({"short": _list(3, 2), "long": _list(400, 14)})
    window.show()
    qtbot.waitExposed(window)
    window.document.set_current_query("short")
    window.right_tabs.setCurrentIndex(0)  # the per-rank table
    table = window.query_panel.table
    qtbot.waitUntil(lambda: table.model().rowCount() == 2)
    qtbot.wait(300)
    row = next(r for r in range(2) if table.model().index(r, 1).data() == "long")
    watched = [Paints(window.metrics_view), Paints(window.ranking_view)]
    QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton,
                     pos=table.visualRect(table.model().index(row, 1)).center())
    qtbot.waitUntil(lambda: window.document.current_query == "long")
    qtbot.wait(300)  # (past the refit after a pause)
    for paints in watched:
        paints.stop()
        assert paints.seen, type(paints.view).__name__
        assert [cut for cut in paints.seen if cut] == [], type(paints.view).__name__
