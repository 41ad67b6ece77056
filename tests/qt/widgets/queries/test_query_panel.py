"""The query panel: its numbers equal `evaluate`, the mean follows the stated policy, the histogram
counts and its click filter agree with the per-query NDCG, and picking a row names the query."""

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from query_samples import sample_frames

from ndcg_gui.core.ndcg.evaluate import evaluate
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.presets import preset
from ndcg_gui.qt.models.query_model import COL_JUDGED, COL_NDCG, COL_QUERY
from ndcg_gui.qt.widgets.queries.query_panel import QueryPanel

TREC = preset("trec_eval")
# The offscreen platform says this whenever a top-level window is shown; it is not our warning.


@pytest.fixture
def result():
    return evaluate(*sample_frames(), TREC.with_(k=10))


@pytest.fixture
def panel(qtbot, result):
    p = QueryPanel()
    qtbot.addWidget(p)
    p.resize(420, 760)
    p.set_result(result, 10)
    p.show()
    qtbot.waitExposed(p)
    return p


def expected_mean(result, empty, undefined):
    keep = np.ones(len(result), bool)
    if empty == "skip":
        keep &= result["n_retrieved"].to_numpy() > 0
    if undefined == "skip":
        keep &= ~result["undefined"].to_numpy()
    return result["ndcg"].to_numpy()[keep].mean(), int(keep.sum())


def test_sample_has_the_cases_the_policy_is_about(result):
    assert (result["n_retrieved"] == 0).sum() == 1
    assert result["undefined"].sum() == 1


@pytest.mark.parametrize("empty", ["zero", "skip"])
@pytest.mark.parametrize("undefined", ["zero", "skip"])
def test_mean_follows_the_policy_chosen_in_the_combos(qtbot, panel, result, empty, undefined):
    panel.empty_combo.setCurrentIndex(panel.empty_combo.findData(empty))
    panel.undefined_combo.setCurrentIndex(panel.undefined_combo.findData(undefined))
    mean, n = expected_mean(result, empty, undefined)
    assert panel.policy == Measure(undefined=undefined, empty=empty)
    assert panel.summary.mean == pytest.approx(mean)
    assert panel.mean_label.text() == f"Mean NDCG@10 = {mean:.4f} over {n} of {len(result)} queries"
    assert panel.histogram.counts.sum() == n


def test_a_policy_picked_in_the_box_is_announced_and_one_shown_is_not(qtbot, panel):
    with qtbot.waitSignal(panel.policyChanged) as blocker:
        panel.empty_combo.setCurrentIndex(panel.empty_combo.findData("skip"))  # as a person picks it
    assert blocker.args == [Measure(undefined="zero", empty="skip")]
    assert "1 judged query with no results" in panel.policy_note.text()
    assert "1 query with IDCG = 0" in panel.policy_note.text()
    with qtbot.assertNotEmitted(panel.policyChanged):  # the document's policy shown: not asked again
        panel.set_policy(Measure(undefined="skip", empty="zero"))
    assert panel.policy == Measure(undefined="skip", empty="zero")
    assert panel.undefined_combo.currentData() == "skip"


def test_rescore_with_new_k_updates_table_mean_and_histogram(panel):
    at5 = evaluate(*sample_frames(), TREC.with_(k=5))
    panel.set_result(at5, 5)
    mean, _ = expected_mean(at5, "zero", "zero")
    assert panel.mean_label.text().startswith(f"Mean NDCG@5 = {mean:.4f}")
    row = panel.model.row_of("401")
    assert panel.model.index(row, COL_NDCG).data() == f"{at5.loc['401', 'ndcg']:.4f}"
    counts, _ = np.histogram(at5["ndcg"], bins=np.linspace(0, 1, 11))
    assert list(panel.histogram.counts) == list(counts)


def click_bar(qtbot, histogram, index):
    vb = histogram.getPlotItem().getViewBox()
    scene_pos = vb.mapViewToScene(histogram.bin_center(index))
    pos = histogram.mapFromScene(scene_pos)
    qtbot.mouseClick(histogram.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(pos.x(), pos.y()))


def test_clicking_a_bar_lists_its_queries_and_again_lists_all(qtbot, panel, result):
    counts, edges = np.histogram(result["ndcg"], bins=np.linspace(0, 1, 11))
    assert list(panel.histogram.counts) == list(counts)
    index = int(np.argmax(counts))
    with qtbot.waitSignal(panel.histogram.binClicked):
        click_bar(qtbot, panel.histogram, index)
    lo, hi = edges[index], edges[index + 1]
    expected = set(result.index[(result["ndcg"] >= lo) & (result["ndcg"] < hi)])
    assert set(panel.visible_queries()) == expected
    assert panel.histogram.picked == index
    assert panel.bin_label.isVisible() and f"{len(expected)} queries" in panel.bin_label.text()
    click_bar(qtbot, panel.histogram, index)
    assert len(panel.visible_queries()) == len(result)
    assert not panel.bin_label.isVisible()


def test_bar_filter_survives_a_rescore_of_the_same_queries(qtbot, panel, result):
    panel.pick_bin(0)
    picked = set(panel.visible_queries())
    assert picked
    panel.set_result(result.assign(ndcg=result["ndcg"] * 0.5), 10)
    assert set(panel.visible_queries()) == picked


def test_filter_box_filters_by_id(qtbot, panel):
    qtbot.keyClicks(panel.filter_edit, "42")
    assert set(panel.visible_queries()) == {"420", "421", "422", "423", "424", "425"}


def test_worst_first_by_clicking_the_ndcg_header(qtbot, panel, result):
    header = panel.table.horizontalHeader()
    x = header.sectionViewportPosition(COL_NDCG) + header.sectionSize(COL_NDCG) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))
    shown = result.loc[panel.visible_queries(), "ndcg"].to_numpy()
    assert np.all(np.diff(shown) >= 0) or np.all(np.diff(shown) <= 0)
    if shown[0] > shown[-1]:  # the first click sorted descending on this style: one more
        qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))
    assert panel.visible_queries()[0] == result["ndcg"].idxmin()


def test_picking_a_row_names_the_query_and_syncing_back_does_not(qtbot, panel):
    row = panel.proxy.mapFromSource(panel.model.index(panel.model.row_of("407"), COL_QUERY)).row()
    rect = panel.table.visualRect(panel.proxy.index(row, COL_QUERY))
    with qtbot.waitSignal(panel.querySelected) as blocker:
        qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert blocker.args == ["407"]
    with qtbot.assertNotEmitted(panel.querySelected):
        panel.set_current_query("412")
    assert panel.current_query() == "412"


def test_syncing_to_a_filtered_away_query_drops_the_filters(qtbot, panel):
    panel.filter_edit.setText("40")
    panel.set_current_query("415")
    assert panel.current_query() == "415"
    assert panel.filter_edit.text() == ""


def test_no_queries_says_so(qtbot):
    panel = QueryPanel()
    qtbot.addWidget(panel)
    empty = evaluate(pd.DataFrame({"query": [], "doc": [], "grade": []}), measure=Measure(k=10))
    panel.set_result(empty, 10)
    assert panel.mean_label.text() == "No queries"
    assert panel.summary is None


def test_filtering_never_opens_another_query(qtbot, panel, result):
    """Typing a filter or clicking a bar hides rows; the open query stays open (selected while it is
    listed), and nothing is announced until the person picks a row."""
    panel.set_current_query("405")
    with qtbot.assertNotEmitted(panel.querySelected):
        qtbot.keyClicks(panel.filter_edit, "41")  # 405 filtered away
        assert panel.current_query() is None
        panel.filter_edit.clear()  # listed again: selected again
        assert panel.current_query() == "405"
        panel.pick_bin(0)
        panel.pick_bin(-1)
    assert panel.current_query() == "405"
    row = panel.proxy.mapFromSource(panel.model.index(panel.model.row_of("410"), COL_QUERY)).row()
    rect = panel.table.visualRect(panel.proxy.index(row, COL_QUERY))
    with qtbot.waitSignal(panel.querySelected) as blocker:
        qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert blocker.args == ["410"]


def test_the_header_shows_the_models_sort_and_keeps_it_over_new_queries(qtbot, panel, result):
    header = panel.table.horizontalHeader()
    down = Qt.SortOrder.DescendingOrder
    panel.table.sortByColumn(COL_NDCG, down)
    assert (header.sortIndicatorSection(), header.sortIndicatorOrder()) == (COL_NDCG, down)
    assert (panel.model.sort_column, panel.model.sort_order) == (COL_NDCG, down)
    fewer = result.iloc[::2]
    panel.set_result(fewer, 10)  # other queries: a reset, sorted as asked before
    shown = fewer.loc[panel.visible_queries(), "ndcg"].to_numpy()
    assert sorted(panel.visible_queries()) == sorted(fewer.index)
    assert np.all(np.diff(shown) <= 0)
    assert header.sortIndicatorSection() == COL_NDCG


def test_a_rescored_open_query_moves_to_its_place_selected_and_in_view(qtbot, panel, result):
    panel.table.sortByColumn(COL_NDCG, Qt.SortOrder.AscendingOrder)
    worst = panel.visible_queries()[0]
    panel.set_current_query(worst)
    rescored = result.copy()
    rescored.loc[worst, "ndcg"] = 2.0  # now last
    panel.set_result(rescored, 10)
    panel.set_current_query(worst)  # as the query browser does after every rescore
    assert panel.visible_queries()[-1] == worst
    assert panel.current_query() == worst
    rect = panel.table.visualRect(panel.table.currentIndex())
    assert panel.table.viewport().rect().intersects(rect)


def bar_heights(histogram):
    from pyqtgraph import BarGraphItem

    bars = [i for i in histogram.getPlotItem().items if isinstance(i, BarGraphItem)]
    return list(bars[0].opts["height"])


def test_the_histogram_plot_is_made_when_first_shown_with_what_it_was_given(qtbot, result):
    p = QueryPanel()
    qtbot.addWidget(p)
    p.set_result(result, 10)
    p.pick_bin(int(np.argmax(p.histogram.counts)))
    assert not p.histogram.made  # hidden: no pyqtgraph plot yet, yet it answers
    counts, _ = np.histogram(result["ndcg"], bins=np.linspace(0, 1, 11))
    assert list(p.histogram.counts) == list(counts)
    p.show()
    qtbot.waitExposed(p)
    qtbot.waitUntil(lambda: p.histogram.made)  # once the event loop has had a turn
    assert bar_heights(p.histogram) == list(counts)
    assert p.histogram.picked == int(np.argmax(counts))


def qt_fit(panel, columns) -> list[int]:
    """Qt's own resizeColumnToContents of `columns`, with room for the sort arrow only in the column
    sorted by (Qt keeps it in every header): the widths `QueryTable.fit_figures` should give."""
    header = panel.table.horizontalHeader()
    widths = []
    for c in columns:
        header.setSortIndicatorShown(c == header.sortIndicatorSection())
        panel.table.resizeColumnToContents(c)
        widths.append(panel.table.columnWidth(c))
    header.setSortIndicatorShown(True)
    return widths


def test_figure_columns_fit_their_widest_cell_as_qt_would_measure_every_row(qtbot, panel, result):
    # Wide and signed figures, NaN, and edited (bold) queries: the fitted widths equal Qt's own
    # resizeColumnToContents over every row (precision -1) once k changes (a rescore at the same k
    # keeps the widths, as before).
    wide = result.copy()
    wide["n_retrieved"] = np.arange(len(wide)) * 123_457
    wide.loc[wide.index[3], "ndcg"] = -12.5
    wide.loc[wide.index[4], "ndcg"] = np.nan
    wide.loc[wide.index[5], "ndcg"] = -0.0
    header = panel.table.horizontalHeader()
    header.setResizeContentsPrecision(-1)
    columns = range(COL_QUERY + 1, COL_NDCG + 1)
    for k, edited in ((5, []), (20, [wide.index[-1]]), (1000, [wide.index[3], wide.index[-1]])):
        panel.set_edited(edited)
        panel.set_result(wide, k)
        fitted = [panel.table.columnWidth(c) for c in columns]
        assert fitted == qt_fit(panel, columns), k
    resized = []  # the figure columns resized (the stretched query column follows the layout)
    header.sectionResized.connect(lambda column, *_: resized.append(column) if column in columns else None)
    panel.set_result(wide, 10)
    assert set(resized) == {COL_JUDGED, COL_NDCG}  # "@10" is narrower than "@1000"
    resized.clear()
    panel.table.fit_figures()  # the widths are right already: no relayout
    assert resized == []
    before = panel.table.columnWidth(COL_NDCG)
    panel.table.sortByColumn(COL_NDCG, Qt.SortOrder.DescendingOrder)  # the arrow needs its room there
    assert panel.table.columnWidth(COL_NDCG) > before
    assert [panel.table.columnWidth(c) for c in columns] == qt_fit(panel, columns)


def test_the_same_scores_shown_again_leave_the_histogram_as_drawn(qtbot, panel, result, monkeypatch):
    # A definition change greys the panel over the old scores until new ones land: the same bars
    # are not drawn again (that regenerates the axes for nothing); other scores, or a bar picked,
    # are.
    drawn = []
    draw = type(panel.histogram)._draw
    monkeypatch.setattr(type(panel.histogram), "_draw", lambda self: (drawn.append(1), draw(self)))
    bars = panel.histogram._plot.bars
    panel.set_result(result, 10)
    assert drawn == []
    at5 = evaluate(*sample_frames(), TREC.with_(k=5))
    panel.set_result(at5, 5)
    assert len(drawn) == 1
    counts, _ = np.histogram(at5["ndcg"], bins=np.linspace(0, 1, 11))
    np.testing.assert_array_equal(bars.opts["height"], counts)
    panel.histogram.set_picked(2)
    panel.histogram.set_values(at5["ndcg"].to_numpy(), 5, panel.summary.mean)
    assert len(drawn) == 2 and panel.histogram.picked == -1


def test_an_edited_query_shown_bold_keeps_its_figures_whole(qtbot, panel, result):
    """An edited query's row is bold: its figures are wider than the same figures in regular type,
    and the columns widen to show them (a 1,000-document list's "1000" was cut to "10…" after an
    edit, seen on the window over a 50M-row run)."""
    from PySide6.QtWidgets import QStyleOptionViewItem

    from ndcg_gui.qt.models.query_model import COL_DOCS

    result = result.assign(n_retrieved=1000)
    panel.set_result(result, 10)
    table, query = panel.table, str(result.index[0])
    panel.set_edited([query])
    row = panel.proxy.mapFromSource(panel.model.index(panel.model.row_of(query), COL_DOCS)).row()
    option = QStyleOptionViewItem()
    table.initViewItemOption(option)
    for column in (COL_DOCS, COL_JUDGED, COL_NDCG):
        index = panel.proxy.index(row, column)
        needed = table.itemDelegate().sizeHint(option, index).width()
        assert table.columnWidth(column) >= needed, (column, index.data())


@pytest.mark.parametrize(("ids", "typed", "kept"), [
    (["Q1-Alpha", "q2-beta", "Q10-ALPHA", "q20"], "alpha", {"Q1-Alpha", "Q10-ALPHA"}),
    (["Straße-1", "STRASSE-2", "straw-3", "Ωmega-4"], "strass", {"Straße-1", "STRASSE-2"}),  # ß folds to ss
])
def test_each_keystroke_in_the_filter_box_searches_ids_folded_once(qtbot, monkeypatch, ids, typed, kept):
    """The ids' ASCII check and case folding are made once for the ids shown, not at each
    keystroke (59 ms a keystroke at 500,000 non-ASCII ids): typing only searches them."""
    import pyarrow.compute as pc

    frame = pd.DataFrame({"query": ids, "doc": list("abcd"), "grade": [1.0, 0.0, 2.0, 1.0]})
    p = QueryPanel()
    qtbot.addWidget(p)
    p.set_result(evaluate(frame, measure=Measure(k=5)), 5)
    p.show()
    qtbot.waitExposed(p)
    calls = {"string_is_ascii": 0, "ascii_lower": 0}
    for name in calls:
        real = getattr(pc, name)
        monkeypatch.setattr(pc, name, lambda *a, _real=real, _name=name, **kw: (
            calls.__setitem__(_name, calls[_name] + 1), _real(*a, **kw))[1])
    p.filter_edit.setFocus()
    QTest.keyClicks(p.filter_edit, typed)  # a keystroke at a time, to the box with the focus
    assert set(p.visible_queries()) == kept
    ascii = all(i.isascii() for i in ids)
    assert calls["string_is_ascii"] == 1 and calls["ascii_lower"] == (1 if ascii else 0)
    QTest.keyClick(p.filter_edit, Qt.Key.Key_Backspace)
    assert set(p.visible_queries()) == {i for i in ids if typed[:-1] in i.casefold()}
    assert calls["string_is_ascii"] == 1
