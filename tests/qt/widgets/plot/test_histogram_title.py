"""The histogram's x title in a narrow dock: pyqtgraph centres it and drew a long one past both
ends ("DCG@10: long_ids.b − long_ids · dash"); it is cut at its end within the axis, keeping as
much as fits, and whole again when there is room."""

from __future__ import annotations

import numpy as np
import pytest

from ndcg_gui.qt.widgets.plot.histogram import NdcgHistogram

LONG = "Δ NDCG@10: bm25_rm3_query_expansion_tuned_final_v2 − monot5_reranked_top100_baseline_run"


@pytest.mark.parametrize("width", [250, 400])
def test_a_long_title_is_cut_at_its_end_keeping_what_fits(qtbot, width):
    histogram = NdcgHistogram()
    qtbot.addWidget(histogram)
    histogram.resize(width, 220)
    histogram.show()
    qtbot.waitExposed(histogram)
    histogram.set_deltas(np.array([-0.1, 0.0, 0.2]), LONG, mean=0.03)
    plot = histogram.plot_widget()
    axis = plot.getPlotItem().getAxis("bottom")
    qtbot.waitUntil(lambda: axis.label.boundingRect().width() <= axis.size().width())
    shown = plot.shown_bottom_label()
    assert shown.endswith("…") and plot.bottom_label.startswith(shown[:-1])
    # (not cut to a stub: the drawn title fills most of the axis; the first try cut it to "Δ N…")
    assert axis.label.boundingRect().width() >= 0.75 * axis.size().width()
    histogram.resize(2400, 220)  # room for it all
    qtbot.waitUntil(lambda: plot.shown_bottom_label() == plot.bottom_label)
