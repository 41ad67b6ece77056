"""The Why they differ tab answers "why do these two tools differ on this list?": picked presets, the
walk from one to the other, and figures that are the tools' own (scikit-learn's, trec_eval's)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import ndcg_score

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import ndcg_at

GRADES, SCORES = [3.0, 2.0, 3.0, 0.0, 1.0], [5.0, 4.0, 4.0, 2.0, 1.0]  # b and c tie on score


def show_definitions(window, qtbot):
    lst = RankedList(docs=np.array(list("abcde"), dtype=object), grades=np.array(GRADES),
                     scores=np.array(SCORES))
    window.document.set_lists({"q": lst})
    window.document.set_measure(k=3, undoable=False)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    tabs = window.why
    tabs.setCurrentIndex(next(i for i in range(tabs.count()) if tabs.tabText(i) == "Why they differ"))
    qtbot.waitUntil(tabs.difference.isVisible)
    return tabs.difference


def cells(panel) -> list[list[str]]:
    t = panel.table
    return [[t.item(r, c).text() for c in range(t.columnCount())] for r in range(t.rowCount())]


def test_trec_eval_against_scikit_learn_on_a_tied_list(qtbot, window):
    panel = show_definitions(window, qtbot)
    trec = ndcg_at([3, 3, 2, 0, 1], Measure(k=3))  # trec_eval: tied b, c by docno descending (c first)
    sk = ndcg_score([GRADES], [SCORES], k=3)  # scikit-learn averages the tie
    rows = cells(panel)
    assert rows[0][0] == "as trec_eval" and rows[0][2] == f"{trec:.4f}"
    assert rows[-1][2] == f"{sk:.4f}"
    tie = next(r for r in rows if r[0] == "ties")
    # (scikit-learn also compares the float64 scores where trec_eval 9.x keeps float32: one step)
    assert tie[1] == "ties → average; scores compared as float64" and tie[3] == f"{sk - trec:+.4f}"
    changes = sum(float(r[3]) for r in rows[1:])
    assert changes == pytest.approx(sk - trec, abs=5e-4)  # (each rounded to 4 decimals)
    assert f"{trec:.4f} under trec_eval, {sk:.4f} under sklearn" in panel.total.text()
    assert len(rows) == 2  # only the choice that changes the figure; the others said in words
    assert "negative → keep" in panel.total.text()


def test_another_pair_and_the_list_edited(qtbot, window):
    panel = show_definitions(window, qtbot)
    panel.b.setCurrentIndex(panel.b.findData("trec_eval"))
    assert panel.table.rowCount() == 1 and "no choice of theirs" in panel.total.text()
    panel.b.setCurrentIndex(panel.b.findData("sklearn"))
    window.document.reverse()  # the order the tie rules act on changes: the walk follows
    shown = window.document.current_list().grades.tolist()
    assert shown == [1, 0, 2, 3, 3]  # (shown in trec_eval's tie order: c before b, then reversed)
    rows = cells(panel)
    assert rows[0][2] == f"{ndcg_at(shown, Measure(k=3)):.4f}"


def test_the_headline_gives_the_range_over_every_order_of_tied_scores(qtbot, window):
    """Issue 22.3: the tie at ranks 2-3 crosses k = 2: either document may come first."""
    show_definitions(window, qtbot)
    window.document.set_measure(k=2, undoable=False)
    one, other = ndcg_at([3, 2, 3, 0, 1], Measure(k=2)), ndcg_at([3, 3, 2, 0, 1], Measure(k=2))
    assert f"any order of ties: [{min(one, other):.4f}, {max(one, other):.4f}]" in \
        window.headline.change.text()
    window.document.set_measure(k=1, undoable=False)  # the tie below k: no range to give
    assert "order of ties" not in window.headline.change.text()
