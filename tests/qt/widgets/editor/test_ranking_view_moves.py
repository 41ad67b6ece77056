"""A row move repaints only the rows between its ends (`RankingView.doItemsLayout`), and what is on
screen afterwards is what a full repaint draws, pixel for pixel: the window's backing store (what
the platform shows) read after each move of a random sequence, beside the same view repainted
whole."""

from __future__ import annotations

import random

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QObject, QRect

from ndcg_gui.core.lists.ranked_list import RankedList

N = 300


class Painted(QObject):
    """The rectangles of a widget's Paint events."""

    def __init__(self, widget) -> None:
        super().__init__()
        self.rects: list[QRect] = []
        widget.installEventFilter(self)

    def eventFilter(self, _watched, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.rects.append(event.rect())
        return False


@pytest.fixture
def shown(qtbot, window, screen):
    grades = np.random.default_rng(1).integers(0, 4, N).astype(float)
    grades[[9, 40, 41, 120]] = np.nan
    window.document.set_lists({"q": RankedList(docs=[f"doc-{i:05d}" for i in range(N)], grades=grades,
                                               scores=np.linspace(9, 1, N), query="q")})
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    screen.settle()
    return window


@pytest.mark.parametrize("scrolled", [0, 150])
def test_after_each_move_the_screen_shows_what_a_full_repaint_draws(screen, shown, scrolled):
    window, view = shown, shown.ranking_view
    view.scrollTo(view.model().index(scrolled, 0))
    view.select_rows(scrolled + 3, 2)
    rng = random.Random(scrolled)
    stack = window.document.undo_stack
    for step in range(30):
        if step % 7 == 6:  # an undo, a redo: moves too; a grade typed: not a move
            stack.undo() if step % 2 else stack.redo()
            if step == 20:
                window.document.set_grade(scrolled + 2, 3.0)
            after = screen.grab(view.viewport())
            view.viewport().repaint()
            assert after == screen.grab(view.viewport()), step
            continue
        count = rng.randint(1, 3)
        first = scrolled + rng.randrange(0, 30)
        destination = scrolled + rng.randrange(0, 40)
        if destination in range(first, first + count + 1):
            continue  # (no move)
        window.document.move_rows(first, count, destination)
        after_move = screen.grab(view.viewport())
        view.viewport().repaint()
        assert after_move == screen.grab(view.viewport()), (first, count, destination)


def test_a_move_near_the_top_repaints_only_the_rows_it_displaced(screen, shown):
    view = shown.ranking_view
    painted = Painted(view.viewport())
    shown.document.move_rows(3, 1, 0)
    screen.settle()
    height = view.viewport().height()
    assert painted.rects and max(r.bottom() for r in painted.rects) < 5 * view.rowHeight(0) < height
    painted.rects.clear()
    shown.document.move_rows(250, 1, 1)  # every row in view below the first moves down
    screen.settle()
    assert max(r.bottom() for r in painted.rects) >= height - 1
