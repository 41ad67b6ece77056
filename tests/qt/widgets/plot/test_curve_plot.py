"""The curve plot: what it draws equals what an independent computation gives (scikit-learn's DCG
and NDCG per rank, a brute-force search over gradings for the unjudged band), NDCG sits in its own
panel on its own scale, the view opens on the first max(2k, 20) ranks and zooms as asked, the
marks, the list as loaded, the loss bars and the readout follow every edit."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, QSizeF, Qt
from PySide6.QtGui import QColor, QWheelEvent
from PySide6.QtWidgets import QApplication
from sklearn.metrics import dcg_score, ndcg_score

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import ndcg_at
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.widgets.plot.curve_panels import FIRST_VIEW
from ndcg_gui.qt.widgets.plot.curve_plot import CurvePlot


def make_plot(qtbot, lists: dict[str, RankedList], k: int = 10) -> tuple[Document, CurvePlot]:
    doc = Document()
    doc.set_lists(lists)
    doc.set_measure(k=k, undoable=False)
    plot = CurvePlot(doc)
    qtbot.addWidget(plot)
    plot.resize(900, 500)
    plot.show()
    qtbot.waitExposed(plot)
    return doc, plot


def graded(grades, query: str = "q") -> RankedList:
    return RankedList(docs=[f"{query}-d{i}" for i in range(len(grades))], grades=grades, query=query)


def sklearn_per_rank(grades: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """DCG@i, IDCG@i and NDCG@i for every i by scikit-learn: the list's own order (descending
    scores) and its own ideal, linear gain, log2 discount (our default for a list without qrels)."""
    n = len(grades)
    true, score = grades[None, :], np.arange(n, 0, -1, dtype=float)[None, :]
    dcg = np.array([dcg_score(true, score, k=i) for i in range(1, n + 1)])
    idcg = np.array([dcg_score(true, true, k=i) for i in range(1, n + 1)])
    ndcg = np.array([ndcg_score(true, score, k=i) for i in range(1, n + 1)])
    return dcg, idcg, ndcg


def readout(plot: CurvePlot) -> str:
    return plot.readout.text().replace("\N{NO-BREAK SPACE}", " ")


def wheel(plot: CurvePlot, vb, rank: float, delta: int) -> None:
    """A wheel turn over `rank` of a panel, sent to the plot's viewport as Qt would."""
    at = plot.plot.mapFromScene(vb.mapViewToScene(QPointF(rank, 0.5)))
    global_at = plot.plot.viewport().mapToGlobal(at)
    event = QWheelEvent(QPointF(at), QPointF(global_at), QPoint(0, 0), QPoint(0, delta), Qt.NoButton,
                        Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(plot.plot.viewport(), event)


def rng_grades(seed: int, n: int) -> np.ndarray:
    return np.random.default_rng(seed).choice([0, 0, 0, 1, 2, 3], size=n).astype(float)


def test_curves_equal_scikit_learn_and_ndcg_has_its_own_panel(qtbot):
    grades = rng_grades(1, 35)
    grades[0] = 1  # sklearn's NDCG is 0 where DCG and IDCG are 0; keep it defined at rank 1
    _doc, plot = make_plot(qtbot, {"q": graded(grades)})
    dcg, idcg, ndcg = sklearn_per_rank(grades)
    np.testing.assert_allclose(plot.dcg.yData, dcg, atol=1e-12)
    np.testing.assert_allclose(plot.idcg.yData, idcg, atol=1e-12)
    np.testing.assert_allclose(plot.ndcg.yData, ndcg, atol=1e-12)
    for curve in (plot.dcg, plot.idcg, plot.ndcg):
        np.testing.assert_array_equal(curve.xData, np.arange(1, 36))
    # NDCG is drawn in the lower panel on 0–1, DCG and IDCG in the upper one: never on one line.
    assert plot.ndcg.getViewBox() is plot.bottom.vb
    assert plot.dcg.getViewBox() is plot.top.vb and plot.idcg.getViewBox() is plot.top.vb
    low, high = plot.bottom.vb.viewRange()[1]
    assert low < 0 and 1 <= high <= 1.1
    # Both panels show the same ranks, and their left axes line up.
    assert plot.bottom.vb.viewRange()[0] == pytest.approx(plot.top.vb.viewRange()[0])
    assert plot.top.vb.sceneBoundingRect().left() == pytest.approx(plot.bottom.vb.sceneBoundingRect().left())


@pytest.mark.parametrize(("n", "k", "end"),
                         [(200, 10, 20), (200, 15, 30), (200, 3, FIRST_VIEW), (12, 10, 12)])
def test_view_opens_on_the_first_ranks_and_zooms_to_k_or_all(qtbot, n, k, end):
    doc, plot = make_plot(qtbot, {"q": graded(rng_grades(2, n))}, k=k)
    assert plot.visible_ranks() == pytest.approx((0.5, end + 0.5))
    plot.zoom_to_k()
    assert plot.visible_ranks() == pytest.approx((0.5, min(k, n) + 0.5))
    plot.show_all()
    assert plot.visible_ranks() == pytest.approx((0.5, n + 0.5))
    # Another k opens the view on its own first ranks; an edit keeps the view a person chose.
    doc.set_measure(k=k + 1)
    assert plot.visible_ranks() == pytest.approx((0.5, min(n, max(2 * k + 2, FIRST_VIEW)) + 0.5))
    plot.show_all()
    doc.move_rows(n - 1, 1, 0)
    assert plot.visible_ranks() == pytest.approx((0.5, n + 0.5))


def test_zoom_never_leaves_an_axis_in_a_silly_state(qtbot):
    grades = np.zeros(1000)
    grades[[3, 40, 400, 990]] = [2, 1, 3, 1]
    _doc, plot = make_plot(qtbot, {"q": graded(grades)})
    vb = plot.top.vb
    plot.show_all()
    QApplication.processEvents()
    for _ in range(12):  # the wheel, as a person turns it over rank 400 of the NDCG panel
        wheel(plot, plot.bottom.vb, 400, 120)
    x0, x1 = plot.visible_ranks()
    assert x1 - x0 < 200 and x0 < 400 < x1  # zoomed in around the rank under the wheel
    for _ in range(6):
        vb.scaleBy(x=0.3, center=QPointF(400, 0))
    assert plot.visible_ranks()[1] - plot.visible_ranks()[0] >= 2  # not below two ranks
    x0, x1 = plot.visible_ranks()
    in_view = (plot.dcg.xData >= x0) & (plot.dcg.xData <= x1)
    shown = np.concatenate([plot.dcg.yData[in_view], plot.idcg.yData[in_view]])
    y0, y1 = vb.viewRange()[1]
    assert y0 == 0 and shown.max() <= y1 <= 1.1 * shown.max()  # the height follows the ranks in view
    for _ in range(10):
        vb.scaleBy(x=4.0, center=QPointF(400, 0))
    assert plot.visible_ranks() == pytest.approx((0.5, 1000.5))  # no further than the list
    plot.show_all()
    for item in (plot.top, plot.bottom):
        for name in ("left", "bottom"):
            axis = item.getAxis(name)
            assert axis.autoSIPrefixScale == 1.0 and "x0." not in axis.labelString()
    assert plot.bottom.vb.viewRange()[1][1] == pytest.approx(1.04)  # NDCG keeps its 0–1 scale


def test_k_is_labelled_above_the_plot_not_on_a_curve(qtbot):
    doc, plot = make_plot(qtbot, {"q": graded(rng_grades(3, 50))}, k=7)
    axis = plot.top.getAxis("top")
    assert axis.isVisible() and axis._tickLevels == [[(7.0, "k = 7")], []]
    assert getattr(plot.k_line, "label", None) is None  # no text inside the panels
    assert plot.k_line.value() == 7
    doc.set_measure(k=80)  # past the end of the list: no line, no label
    assert not plot.k_line.isVisible() and axis._tickLevels == [[], []]


def test_relevant_ranks_are_marked_by_grade(qtbot):
    grades = np.array([0, 3, 0, 1, 2, 0, 1, np.nan, 3, 0.0])
    _doc, plot = make_plot(qtbot, {"q": graded(grades)})
    marked = {}
    for item in plot.mark_items:
        if item.isVisible():
            x, y = item.getData()
            marked[item.opts["pen"].color().name()] = sorted(set(x.tolist()))
            assert (y < 0).all()  # in the strip under NDCG = 0, not over the curve
    want = [[4, 7], [5], [2, 9]]  # grade 1, 2, 3 (the unjudged rank 8 is not marked)
    assert sorted(marked.values()) == sorted(want)
    shade = {tuple(ranks): colour for colour, ranks in marked.items()}
    lightness = [QColor(shade[tuple(r)]).lightness() for r in want]
    assert lightness[0] > lightness[1] > lightness[2]  # higher grades darker
    plot.toggles["Relevant ranks"].setChecked(False)
    assert not any(item.isVisible() for item in plot.mark_items)


def brute_force_band(lst: RankedList, config: Measure, ranks) -> tuple[np.ndarray, np.ndarray]:
    """The least and greatest NDCG@i over every grading of the unjudged documents, each grade
    from 0 and the grades seen, the graded documents joining the judged pool."""
    pool = lst.judged_pool()
    seen = lst.grades[~np.isnan(lst.grades)]
    scale = np.unique(np.concatenate([[0.0], seen, pool if pool is not None else []]))
    at = np.flatnonzero(np.isnan(lst.grades))
    values = []
    for choice in itertools.product(scale, repeat=len(at)):
        full = lst.grades.copy()
        full[at] = choice
        judged = None if pool is None else np.concatenate([pool, choice])
        values.append([ndcg_at(full, config.with_(k=int(i)), judged=judged) for i in ranks])
    values = np.array(values)
    return values.min(axis=0), values.max(axis=0)


def test_unjudged_band_equals_the_report_and_brute_force_and_waits_for_a_pause(qtbot):
    grades = np.array([2, np.nan, 0, 1, np.nan, 0, 3, np.nan, 0, 1, 0, 0])
    lst = RankedList(docs=[f"d{i}" for i in range(12)], grades=grades, query="q",
                     unretrieved={"x1": 2.0, "x2": 1.0}, has_pool=True)
    doc, plot = make_plot(qtbot, {"q": lst})
    qtbot.waitUntil(plot.band_is_current)  # drawn once the timer fires
    band = doc.report.band
    np.testing.assert_array_equal(plot.band_low.xData, band["rank"])
    np.testing.assert_array_equal(plot.band_low.yData, band["low"])
    np.testing.assert_array_equal(plot.band_high.yData, band["high"])
    low, high = brute_force_band(lst, doc.measure, band["rank"])
    np.testing.assert_allclose(plot.band_low.yData, low, atol=1e-12)
    np.testing.assert_allclose(plot.band_high.yData, high, atol=1e-12)
    assert (low - 1e-12 <= plot.ndcg.yData).all() and (plot.ndcg.yData <= high + 1e-12).all()

    plot.show_rank(2)
    assert f"band {band['low'].iloc[1]:.4f}–{band['high'].iloc[1]:.4f}" in readout(plot)

    doc.move_rows(1, 1, 11)  # an edit: the band of the new list is computed only after a pause
    assert "band" not in vars(doc.report) and not plot.band_is_current()
    plot.settle()
    assert plot.band_is_current()
    low, high = brute_force_band(doc.current_list(), doc.measure, doc.report.band["rank"])
    np.testing.assert_allclose(plot.band_low.yData, low, atol=1e-12)

    plot.toggles["Unjudged band"].setChecked(False)  # hidden: never computed
    doc.move_rows(0, 1, 5)
    plot.settle()
    assert not plot.band.isVisible() and "band" not in vars(doc.report)
    plot.toggles["Unjudged band"].setChecked(True)
    plot.settle()
    assert plot.band_is_current() and plot.band.isVisible()


def test_no_band_without_unjudged_documents(qtbot):
    doc, plot = make_plot(qtbot, {"q": graded(rng_grades(4, 20))})
    plot.settle()
    assert not plot.band.isVisible() and doc.report.band is None


def test_list_as_loaded_is_drawn_while_the_list_differs(qtbot):
    grades = rng_grades(5, 25)
    grades[:3] = [0, 0, 3]
    doc, plot = make_plot(qtbot, {"q": graded(grades)})
    assert not plot.baseline.isVisible()
    doc.move_rows(2, 1, 0)
    assert plot.baseline.isVisible()
    _dcg, _idcg, ndcg = sklearn_per_rank(grades)
    np.testing.assert_allclose(plot.baseline.yData[2:], ndcg[2:], atol=1e-12)  # sklearn: 0/0 at ranks 1–2
    np.testing.assert_allclose(plot.baseline.yData[:2], 0.0)
    with plot.figure(QSizeF(960, 600)):  # the exported figure's legend names it
        assert "NDCG as loaded" in [label.text for _sample, label in plot.legend.items]
    doc.undo_stack.undo()
    assert not plot.baseline.isVisible()
    doc.undo_stack.redo()
    plot.toggles["As loaded"].setChecked(False)
    assert not plot.baseline.isVisible()


def test_loss_bars_are_the_first_k_losses_and_add_up_to_idcg_minus_dcg(qtbot):
    grades = rng_grades(6, 30)
    doc, plot = make_plot(qtbot, {"q": graded(grades)}, k=8)
    assert not plot.loss.isVisible()  # off until asked for
    plot.toggles["Loss per rank"].setChecked(True)
    heights = np.asarray(plot.loss.opts["height"])
    assert len(heights) == 8
    np.testing.assert_array_equal(heights, doc.report.move_effects["loss"].to_numpy()[:8])
    dcg = dcg_score(grades[None, :], np.arange(30, 0, -1)[None, :], k=8)
    idcg = dcg_score(grades[None, :], grades[None, :], k=8)
    assert heights.sum() == pytest.approx(idcg - dcg, abs=1e-9)
    doc.set_measure(k=3)
    assert len(plot.loss.opts["height"]) == 3


def test_readout_follows_edits_and_clears_on_another_query(qtbot):
    a, b = graded(np.array([3, 0, 2, 1.0]), "a"), graded(np.array([1, 1.0]), "b")
    doc, plot = make_plot(qtbot, {"a": a, "b": b})
    plot.show_rank(2)
    text = readout(plot)
    at_2 = ndcg_score(np.array([[3, 0, 2, 1]]), np.array([[4, 3, 2, 1]]), k=2)
    for part in ("rank 2", "a-d1", "DCG 3.0000", f"NDCG {at_2:.4f}"):
        assert part in text
    doc.move_rows(2, 1, 1)  # a-d2 (grade 2) to rank 2
    assert "a-d2" in readout(plot) and plot.cursor.value() == 2
    want = ndcg_score(np.array([[3, 2, 0, 1]]), np.array([[4, 3, 2, 1]]), k=2)
    assert f"NDCG {want:.4f}" in readout(plot)
    # Over the upper panel, inside the plot (not a row of its own).
    assert plot.readout.isVisible() and plot.readout.parent() is plot.plot
    assert plot.plot.rect().contains(plot.readout.geometry())
    doc.set_current_query("b")
    assert not plot.readout.text().strip() and not plot.cursor.isVisible() and not plot.readout.isVisible()


def test_hover_moves_the_readout(qtbot):
    _doc, plot = make_plot(qtbot, {"q": graded(rng_grades(7, 40))})
    QApplication.processEvents()
    vb = plot.bottom.vb
    scene_pos = vb.mapViewToScene(QPointF(5.2, 0.5))
    plot.plot.scene().sigMouseMoved.emit(scene_pos)
    qtbot.waitUntil(lambda: "rank 5" in readout(plot))
    plot.plot.scene().sigMouseMoved.emit(QPointF(-5, -5))  # off the panels
    qtbot.waitUntil(lambda: not plot.readout.text().strip())


def test_figure_layout_puts_title_and_legend_above_the_panels(qtbot):
    grades = np.array([2, np.nan, 0, 1, 0, 3.0])
    doc, plot = make_plot(qtbot, {"q": graded(grades)})
    doc.move_rows(5, 1, 0)
    plot.show_rank(3)
    screen = plot.top.vb.sceneBoundingRect()
    with plot.figure(QSizeF(960, 600)) as rect:
        assert rect.size() == QSizeF(960, 600)
        assert not plot.cursor.isVisible()
        panels = plot.top.vb.sceneBoundingRect().united(plot.bottom.vb.sceneBoundingRect())
        for item in (plot.title, plot.legend, plot.marks_legend):
            box = item.sceneBoundingRect()
            assert rect.contains(box) and box.bottom() <= panels.top()
        labels = [label.text for _sample, label in plot.legend.items]
        assert labels[:3] == ["DCG", "IDCG", "NDCG"] and "NDCG as loaded" in labels
        assert any("unjudged band" in t for t in labels)
        assert "q · NDCG@10 = " in plot.title.text
    assert plot.cursor.isVisible()
    assert plot.top.vb.sceneBoundingRect() == screen  # the screen's layout is back


def test_toggles_hide_and_show_their_items(qtbot):
    _doc, plot = make_plot(qtbot, {"q": graded(rng_grades(8, 20))})
    for name, item in (("DCG", plot.dcg), ("IDCG", plot.idcg), ("NDCG", plot.ndcg)):
        plot.toggles[name].setChecked(False)
        assert not item.isVisible()
        plot.toggles[name].setChecked(True)
        assert item.isVisible()
    plot.toggles["DCG"].setChecked(False)
    plot.toggles["IDCG"].setChecked(False)
    assert plot.top.vb.viewRange()[1] == pytest.approx([0, 1.06])  # an empty panel keeps a sane range


def test_an_empty_list_draws_nothing_and_breaks_nothing(qtbot):
    doc, plot = make_plot(qtbot, {"q": RankedList(docs=[], grades=[], query="q")})
    plot.settle()
    assert plot.ndcg.xData is None or len(plot.ndcg.xData) == 0
    assert not plot.band.isVisible() and not any(item.isVisible() for item in plot.mark_items)
    plot.zoom_to_k()
    plot.show_all()
    assert plot.visible_ranks() == pytest.approx((0.5, 1.5))
    doc.insert_rows(0, ["a", "b", "c"], [1, np.nan, 2])  # differs from the (empty) list as loaded
    plot.settle()
    assert plot.band_is_current() and list(plot.ndcg.xData) == [1, 2, 3]
    assert not plot.baseline.isVisible()  # an empty list as loaded is no reference to draw


def test_the_band_is_searched_a_slice_at_a_time_and_an_edit_starts_the_new_lists(qtbot, monkeypatch):
    from ndcg_gui.qt.widgets.plot import curve_plot

    monkeypatch.setattr(curve_plot, "BAND_SLICE_MS", 0)  # one rank a slice
    grades = np.array([2, np.nan, 0, 1, np.nan, 0, 3, np.nan, 0, 1, 0, 0])
    lst = RankedList(docs=[f"d{i}" for i in range(12)], grades=grades, query="q",
                     unretrieved={"x1": 2.0}, has_pool=True)
    doc, plot = make_plot(qtbot, {"q": lst})
    plot._band_timer.stop()  # as if the pause after the last edit were over
    search = doc.report.band_search
    plot._search_band()
    # One slice searched; the rest waits for the event loop, nothing drawn yet.
    assert len(search._rows) == 1 and plot._band_slices.isActive() and not plot.band_is_current()
    plot._search_band()
    assert len(search._rows) == 2

    doc.move_rows(1, 1, 11)  # an edit half-way: that search stops, the new list's waits for a pause
    assert not plot._band_slices.isActive() and plot._band_timer.isActive()
    qtbot.waitUntil(plot.band_is_current)
    assert len(search._rows) == 2 and doc.report.band_search.done
    low, high = brute_force_band(doc.current_list(), doc.measure, doc.report.band["rank"])
    np.testing.assert_allclose(plot.band_low.yData, low, atol=1e-12)
    np.testing.assert_allclose(plot.band_high.yData, high, atol=1e-12)

    doc.move_rows(0, 1, 5)
    plot._band_timer.stop()
    plot._search_band()
    assert plot._band_slices.isActive()
    plot.settle()  # e.g. an export: the rest at once
    assert not plot._band_slices.isActive() and plot.band_is_current() and doc.report.band_search.done


def test_the_dcg_axis_top_number_is_whole_with_k_past_the_list(qtbot):
    """ranking.csv's 8 documents at k = 10: no k label above the plot, and the DCG axis's "8" was
    cut in half at the plot's top edge (seen in the screenshot grid, issue 34)."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QFontMetrics

    for k in (10, 5):  # past the list's end, then within it (the k label above)
        _doc, plot = make_plot(qtbot, {"q": graded(np.array([3, 0, 1, 3, 2, np.nan, 3, 0.0]))}, k=k)
        panel, axis = plot.top, plot.top.getAxis("left")
        top = panel.vb.viewRange()[1][1]
        spacing = axis.tickSpacing(*panel.vb.viewRange()[1], panel.vb.height())[0][0]
        highest = np.floor(top / spacing) * spacing  # the highest number the axis writes
        y = plot.plot.mapFromScene(panel.vb.mapViewToScene(QPointF(1, highest))).y()
        half = QFontMetrics(axis.style["tickFont"] or axis.font()).height() / 2
        assert y - half >= 0, (k, highest, y, half)
