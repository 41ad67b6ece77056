"""After row moves and a change of k, the curve plot on screen (the window's backing store, what
the platform shows) is what a full repaint draws, pixel for pixel; and the k axis above the plot
is drawn again only when k changes (`KAxis.set_k`: at every edit it made the axis again)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ndcg_gui.core.lists.ranked_list import RankedList

N = 300


@pytest.fixture
def shown(qtbot, window, screen):
    grades = np.random.default_rng(4).integers(0, 4, N).astype(float)
    grades[[2, 30, 31]] = np.nan
    window.document.set_lists({"q": RankedList(docs=[f"doc-{i:05d}" for i in range(N)], grades=grades,
                                               query="q")})
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    screen.settle()
    return window


def test_after_moves_and_a_new_k_the_plot_on_screen_is_a_full_repaint(screen, shown):
    plot, panels = shown.plot, shown.plot.plot
    # The unjudged band off: its antialiased fill, repainted in part by pyqtgraph, differs from a
    # full repaint by a pixel at its edge now and then, with the k axis drawn at every edit as
    # without (measured: the same pixel, the same step).
    plot.toggles["Unjudged band"].setChecked(False)
    rng = random.Random(8)
    for step in range(16):
        if step == 9:
            shown.document.set_measure(k=5)
        else:
            first, destination = rng.randrange(0, 25), rng.randrange(0, 30)
            if destination in (first, first + 1):
                continue
            shown.document.move_rows(first, 1, destination)
        after = screen.grab(panels.viewport())
        panels.viewport().repaint()
        assert after == screen.grab(panels.viewport()), step


def test_the_k_axis_is_drawn_again_only_for_another_k(screen, shown):
    axis = shown.plot.plot.top.getAxis("top")
    screen.settle()
    picture = axis.picture
    assert picture is not None
    shown.document.move_rows(3, 1, 0)
    screen.settle()
    assert axis.picture is picture  # (the same k: the same label, not made again)
    shown.document.set_measure(k=7)
    screen.settle()
    assert axis.picture is not picture
    assert [label for _, label in axis._tickLevels[0]] == ["k = 7"]


def test_the_dots_on_the_curves_are_as_set_anew_after_moves_zooms_and_lists(screen, shown):
    """`draw` no longer sets every curve's dots again at every edit: after each step they are what
    setting them anew gives (dots while few ranks show, none past that, in the curves' colours)."""
    panels = shown.plot.plot

    def dots():
        return [(c.opts["symbol"], c.opts["symbolSize"], str(c.opts["symbolBrush"]), str(c.opts["symbolPen"]))
                for c in (panels.dcg, panels.idcg, panels.ndcg, panels.baseline)]

    steps = [lambda: shown.document.move_rows(3, 1, 0), panels.show_all,
             lambda: shown.document.move_rows(0, 1, 5), panels.zoom_to_k,
             lambda: shown.document.move_rows(200, 2, 1),
             lambda: shown.document.set_lists({"q": RankedList.from_grades([3, 0, 2, 1] * 5, query="q")}),
             lambda: shown.document.set_measure(k=3), panels.show_all, panels.reset_view]
    for step, act in enumerate(steps):
        act()
        screen.settle()
        now = dots()
        panels._update_dots(force=True)
        assert dots() == now, step
    assert panels.dcg.opts["symbol"] is not None  # (the last: the opening ranks, dotted)
