"""Issue 34, finding 12: every colour that carries meaning has a second cue, a glyph, a word, a line
style or a mark's shape, for people who do not see the colour: read through the window with runs
compared, in the models' texts and in what the plots draw."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from run_samples import show_compared

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.qt.models.colours import LIGHT

# A colour-blind reader's cues: places out of the ideal's order (↓ ↑), tied scores (┌ │ └), moves
# (▲ ▼), a figure's sign, and the words.
GLYPHS = "↓↑┌│└▲▼+−-"
WORDS = ("unjudged", "new")
# Greyed is a lightness, read without hue (ranks past k, figures of before): not a colour cue.
GREYS = {LIGHT.beyond_k, LIGHT.beyond_k_text, LIGHT.muted}


def uncued(model) -> list[str]:
    """The cells drawn in a colour of their own whose text says nothing without it."""
    out = []
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            index = model.index(row, column)
            brushes = [index.data(role) for role in (Qt.ItemDataRole.BackgroundRole,
                                                     Qt.ItemDataRole.ForegroundRole)]
            coloured = [b.color().name() for b in brushes if b is not None and b.color().name() not in GREYS]
            text = str(index.data() or "")
            if coloured and not (any(g in text for g in GLYPHS) or any(w in text for w in WORDS)):
                out.append(f"({row}, {column}) {text!r} in {coloured}")
    return out


def test_every_coloured_cell_says_it_without_its_colour(qtbot, window, files):
    doc = window.document
    run, qrels, second = files
    assert window.files.open(run, qrels, ask=False)
    window.compare.add_run(second)
    qtbot.waitUntil(lambda: window.comparison.active and window.right_tabs.count() == 2, timeout=10000)
    window.compare.flush()
    doc.move_rows(5, 1, 0)  # (moved rows: ▲ and ▼)
    model = window.ranking_model
    ideal = model.column("ideal")
    marked = [model.index(r, ideal).data(Qt.ItemDataRole.BackgroundRole) for r in range(model.rowCount())]
    assert sum(m is not None for m in marked) >= 2  # (both marks are there to be read)
    assert uncued(model) == []
    assert uncued(window.query_panel.model) == []
    assert uncued(window.compare_pane.diff_model) == []
    # A list with tied scores and an unjudged document.
    doc.set_lists({"q": RankedList(docs=list("abcde"), grades=[0, 2, 1, np.nan, 3], scores=[5, 4, 4, 4, 1],
                                   query="q")})
    doc.set_measure(k=2)
    assert uncued(model) == [] and uncued(window.metrics_model) == []
    score = model.column("score")
    assert [model.index(r, score).data() for r in range(5)][1:4] == ["┌ 4", "│ 4", "└ 4"]


def test_the_comparisons_plots_tell_wins_losses_and_moves_by_shape(qtbot, window, files):
    show_compared(window, qtbot, files)
    window.right_tabs.setCurrentWidget(window.compare_pane)
    scatter = window.compare_pane.scatter
    plot = scatter.plot_widget()
    qtbot.waitUntil(lambda: len(scatter.drawn()[0]) > 0)
    _x, _y, _queries, kinds = scatter.drawn()
    assert {0, 1} <= set(kinds.tolist())  # wins and losses both drawn
    symbols = [group.opts["symbol"] for group in plot.groups]
    assert len(set(symbols)) == 3, symbols  # a win, a loss and a tie each in its own shape
    lines = window.compare_pane.lines
    styles = {("rose" if e.move > 0 else "fell" if e.move < 0 else "kept"): lines.line_pen(e).style()
              for e in lines.entries if not np.isnan(e.move)}
    assert {"rose", "fell"} <= set(styles)
    assert styles["rose"] != styles["fell"]


def test_relevant_ranks_ticks_are_taller_for_higher_grades(qtbot, window):
    window.document.set_lists({"q": RankedList.from_grades([1, 0, 3, 2, 1, 3], query="q")})
    plot = window.plot
    heights = []
    for item in plot.mark_items:
        x, y = item.getData()
        if x is not None and len(x):
            heights.append(float(np.max(y) - np.min(y)))
    labels = [label for label, _colour, _ranks in plot.plot.marks]
    assert labels == ["grade 1", "grade 2", "grade 3"]
    assert len(heights) == 3 and heights == sorted(heights) and len(set(heights)) == 3, heights
