"""Run A against run B in the window: adding a run (File ▸ Add run to compare…) adds its columns
and the difference to the query panel, sorted biggest losses first, with the summary line and the
histogram of differences; the Compare runs tab shows the scatter (a click opens the query) and the
open query's lists side by side; editing the open run updates all of it; removing the run takes
it all away. Figures are checked against `evaluate` and `compare_runs` on plain frames."""

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import QPoint, Qt
from run_samples import ndcg_from_scratch, read_qrels, read_run

from ndcg_gui.core.analysis.runs.compare import paired_summary
from ndcg_gui.core.analysis.runs.run_diff import delta_line
from ndcg_gui.core.analysis.workspace_report import SAMPLES, SEED
from ndcg_gui.qt.models.query_model import COL_DOCS, COL_JUDGED, COL_NDCG, FIXED_COLUMNS
from ndcg_gui.qt.models.run_diff_model import COL_DOC, COL_GRADE, COL_RANK_A, COL_RANK_B
from ndcg_gui.qt.window.comparison import TAB_TITLE


@pytest.fixture
def comparing(opened, files):
    opened.compare.add_run(files[2])
    opened.compare.flush()
    return opened


def scratch(window, files, baseline="sample"):
    """Per-query NDCG of both runs and the statistics (a one-row frame per compared run),
    recomputed from plain frames."""
    ndcg = ndcg_from_scratch(window.document, {"second": files[2]}, "sample")
    return ndcg, paired_summary(ndcg, baseline, SAMPLES, SEED)


def line(window, stats, run):
    """The summary line the window should show for `run`, from the recomputed statistics."""
    return delta_line(dataclasses.replace(window.comparison.comparison, summary=stats), run)


def cell(panel, query, column):
    return panel.model.index(panel.model.row_of(query), column).data()


def test_adding_a_run_adds_its_columns_and_the_compare_tab(qtbot, comparing, files, dialog_log):
    w, panel = comparing, comparing.query_panel
    assert w.right_tabs.count() == 2 and w.right_tabs.currentWidget() is w.compare_pane
    assert w.right_tabs.tabText(1) == TAB_TITLE
    headers = [panel.model.headerData(c, Qt.Orientation.Horizontal) for c in range(panel.model.columnCount())]
    assert headers[COL_NDCG:] == ["sample", "second", "Δ second", "RBO", "J@10", "τ"]
    assert panel.table.isColumnHidden(COL_DOCS) and panel.table.isColumnHidden(COL_JUDGED)
    ndcg, _ = scratch(w, files)
    for query in ndcg.index:
        a, b = ndcg.at[query, "sample"], ndcg.at[query, "second"]
        assert cell(panel, query, COL_NDCG) == f"{a:.4f}"
        assert cell(panel, query, FIXED_COLUMNS) == f"{b:.4f}"
        d = b - a
        assert cell(panel, query, FIXED_COLUMNS + 1) == ("0" if abs(d) <= 1e-9 else f"{d:+.4f}")
    assert "results for 23 of 25 judged queries" in w.statusBar().currentMessage()
    assert not dialog_log


def test_biggest_losses_first_with_the_summary_line_and_the_histogram_of_differences(comparing, files):
    panel = comparing.query_panel
    ndcg, stats = scratch(comparing, files)
    deltas = (ndcg["second"] - ndcg["sample"]).where(lambda d: d.abs() > 1e-9, 0.0)
    shown = deltas.loc[panel.visible_queries()].to_numpy()
    assert np.all(np.diff(shown) >= 0) and shown[0] == deltas.min()
    assert panel.compare_label.text() == line(comparing, stats, "second")
    assert "10,000 sign flips, seed 0" in panel.compare_label.text()
    assert panel.mean_label.text().startswith("sample: mean NDCG@10")
    hist = panel.histogram
    assert hist.deltas
    expected, _ = np.histogram(deltas.to_numpy(), bins=hist.edges)
    assert hist.counts.tolist() == expected.tolist()
    index = int(np.argmax(hist.counts))
    panel.pick_bin(index)
    lo, hi = hist.edges[index], hist.edges[index + 1]
    assert set(panel.visible_queries()) == set(deltas.index[(deltas >= lo) & (deltas < hi)])


def click_point(qtbot, scatter, query):
    qtbot.waitUntil(lambda: scatter.made)  # as a person sees it: made once the event loop had a turn
    qtbot.wait(50)  # and laid out, its range set
    vb = scatter.getPlotItem().getViewBox()
    pos = scatter.mapFromScene(vb.mapViewToScene(scatter.point(query)))
    at = QPoint(round(pos.x()), round(pos.y()))
    qtbot.mouseClick(scatter.viewport(), Qt.MouseButton.LeftButton, pos=at)


def test_a_click_on_the_scatter_opens_the_query(qtbot, comparing, files):
    scatter, doc = comparing.compare_pane.scatter, comparing.document
    ndcg, _ = scratch(comparing, files)
    assert sorted(scatter.queries) == sorted(ndcg.index)
    # A query whose point no other shares.
    points = {q: (ndcg.at[q, "sample"], ndcg.at[q, "second"]) for q in ndcg.index}
    lonely = next(q for q, p in points.items() if q != doc.current_query
                  and sum(math.dist(p, o) < 0.03 for o in points.values()) == 1)
    for q in ndcg.index:
        p = scatter.point(q)
        assert (p.x(), p.y()) == pytest.approx(points[q])
    with qtbot.waitSignal(doc.changed):
        click_point(qtbot, scatter, lonely)
    assert doc.current_query == lonely
    assert scatter.ringed == pytest.approx(points[lonely])
    assert comparing.query_panel.current_query() == lonely


def brute_lists(window, files, query):
    """The two ranked lists of `query` and its judgments, read from the files and the document."""
    doc = window.document
    a = [str(d) for d in doc.list_for(query).docs]
    second = read_run(files[2])
    b = second.loc[second["query"] == query].sort_values("rank")["doc"].tolist()
    qrels = read_qrels(files[1])
    judged = qrels[qrels["query"] == query]
    return a, b, dict(zip(judged["doc"], judged["grade"].astype(float), strict=True))


def test_the_open_query_side_by_side_with_its_biggest_moves(comparing, files):
    doc, pane = comparing.document, comparing.compare_pane
    doc.set_current_query("401")
    a, b, judgments = brute_lists(comparing, files, "401")
    model = pane.diff_model
    depth = model.depth
    expected = a[:depth] + [d for d in b[:depth] if d not in a[:depth]]
    shown = [model.index(r, COL_DOC).data() for r in range(model.rowCount())]
    assert sorted(shown) == sorted(expected)
    for r, d in enumerate(shown):
        assert model.index(r, COL_RANK_A).data() == (str(a.index(d) + 1) if d in a else "–")
        assert model.index(r, COL_RANK_B).data() == (str(b.index(d) + 1) if d in b else "–")
        g = judgments.get(d)
        assert model.index(r, COL_GRADE).data() == ("" if g is None else f"{g:g}")
    # The first move said is one with the largest change of DCG@10 (brute force, linear gain).
    disc = lambda docs, d: 1 / math.log2(docs.index(d) + 2) if d in docs and docs.index(d) < 10 else 0.0  # noqa: E731
    effects = {d: judgments.get(d, 0.0) * (disc(b, d) - disc(a, d)) for d in set(a) | set(b)}
    first = pane.moves_label.text().splitlines()[1].removeprefix("• ").split(" ")[0]
    assert abs(effects[first]) == pytest.approx(max(abs(e) for e in effects.values()))
    assert pane.lines_title.text() == "Query 401: sample (left) and second (right)"
    assert pane.lines.height() >= (len(expected) // 2) * pane.lines.fontMetrics().height()


def test_editing_the_open_run_updates_the_comparison_live(qtbot, comparing, files):
    w, doc, panel = comparing, comparing.document, comparing.query_panel
    doc.set_current_query("405")
    top = str(doc.current_list().docs[0])
    root = w.ranking_model.index(0, 0).parent()
    w.ranking_model.moveRows(root, 0, 1, root, 6)  # as a drop does
    assert str(doc.current_list().docs[5]) == top
    ndcg, stats = scratch(w, files)
    d = ndcg.at["405", "second"] - ndcg.at["405", "sample"]
    assert cell(panel, "405", COL_NDCG) == f"{ndcg.at['405', 'sample']:.4f}"
    assert cell(panel, "405", FIXED_COLUMNS + 1) == f"{d:+.4f}"
    lines = w.compare_pane.diff_model
    row = [lines.index(r, COL_DOC).data() for r in range(lines.rowCount())]
    assert lines.index(row.index(top), COL_RANK_A).data() == "6"
    with qtbot.waitSignal(w.document.changed, timeout=2000,
                          check_params_cb=lambda c: c.comparison is not None and c.comparison.summary):
        pass  # the statistics follow a moment later
    assert panel.compare_label.text() == line(comparing, stats, "second")
    doc.undo_stack.undo()
    ndcg, stats = scratch(w, files)
    w.compare.flush()
    assert panel.compare_label.text() == line(comparing, stats, "second")


def test_another_baseline(qtbot, comparing, files):
    pane, panel = comparing.compare_pane, comparing.query_panel
    combo = pane.baseline_combo
    combo.setCurrentIndex(combo.findData("second"))
    combo.activated.emit(combo.currentIndex())
    assert comparing.comparison.baseline == "second"
    assert panel.model.headerData(FIXED_COLUMNS + 1, Qt.Orientation.Horizontal) == "Δ sample"
    _, stats = scratch(comparing, files, baseline="second")
    assert panel.compare_label.text() == line(comparing, stats, "sample")
    assert [pane.focus_combo.itemData(i) for i in range(pane.focus_combo.count())] == ["sample"]


def test_removing_the_run_takes_its_columns_and_tab_away(comparing):
    w, panel = comparing, comparing.query_panel
    menu = w.actions.remove_run_menu
    menu.aboutToShow.emit()
    [action] = [a for a in menu.actions() if a.text() == "second"]
    action.trigger()
    assert not w.comparison.active and w.right_tabs.count() == 1
    assert panel.model.columnCount() == FIXED_COLUMNS
    assert panel.model.headerData(COL_NDCG, Qt.Orientation.Horizontal) == "NDCG@10"
    assert not panel.table.isColumnHidden(COL_DOCS) and not panel.compare_label.isVisible()
    assert not panel.histogram.deltas
    menu.aboutToShow.emit()
    assert [a.text() for a in menu.actions()] == ["(none)"]


def test_runs_need_judgments(qtbot, settings, dialog_log, files, e1_list):
    from ndcg_gui.qt.window.main_window import MainWindow

    w = MainWindow(settings=settings)
    qtbot.addWidget(w)
    w.document.set_lists({"q1": e1_list})
    w.actions.add_run.trigger()
    assert dialog_log and dialog_log[-1][0] == "Add a run to compare"
    w.compare.add_run(files[2])
    assert not w.comparison.active


def test_a_bad_run_says_why_and_changes_nothing(comparing, dialog_log, tmp_path):
    bad = tmp_path / "bad.run"
    bad.write_text("401 Q0 doc-1 1 2.0 x\n401 Q0 doc-2 2 high x\n")
    comparing.compare.add_run(bad)
    assert dialog_log[-1][0] == "Could not add the run" and "bad.run" in dialog_log[-1][1]
    assert comparing.comparison.names == ["sample", "second"]


def test_a_big_run_is_read_in_the_background(qtbot, comparing, files, monkeypatch):
    monkeypatch.setattr(comparing.compare.loader, "uses_process", lambda *_: True)
    comparing.compare.add_run(files[2])
    assert comparing.compare.loader.is_loading()
    qtbot.waitUntil(lambda: len(comparing.comparison.names) == 3, timeout=30000)
    assert comparing.comparison.names[-1] == "second (2)"


def test_the_plots_are_made_when_first_shown(qtbot, settings, dialog_log, files):
    """Start-up makes neither pyqtgraph plot of the hidden panels; a file of several queries shows
    the histogram, a compared run the scatter."""
    from ndcg_gui.qt.window.main_window import MainWindow

    w = MainWindow(settings=settings)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    assert not w.query_panel.histogram.made and not w.compare_pane.scatter.made
    w.files.open(files[0], files[1], ask=False)
    qtbot.waitUntil(lambda: w.query_panel.histogram.made)
    assert not w.compare_pane.scatter.made
    w.compare.add_run(files[2])
    w.compare.flush()
    qtbot.waitUntil(lambda: w.compare_pane.scatter.made)
    ndcg, _ = scratch(w, files)
    x, y, _queries, _colours = w.compare_pane.scatter.drawn()
    drawn = np.array(sorted(zip(x, y, strict=True)))
    assert np.allclose(drawn, sorted(zip(ndcg["sample"], ndcg["second"], strict=True)))


def test_a_scatter_fed_while_hidden_draws_it_when_shown(qtbot):
    from ndcg_gui.qt.widgets.plot.run_scatter import RunScatter

    scatter = RunScatter()
    qtbot.addWidget(scatter)
    x, y = np.array([0.2, 0.5, 0.9]), np.array([0.3, 0.5, 0.1])
    scatter.set_points(["a", "b", "c"], x, y, ("base", "other"), 10, current="b")
    scatter.set_current("c")
    assert not scatter.made
    assert scatter.ringed == (0.9, 0.1) and (scatter.point("a").x(), scatter.point("a").y()) == (0.2, 0.3)
    scatter.show()
    qtbot.waitExposed(scatter)
    qtbot.waitUntil(lambda: scatter.made)
    drawn_x, drawn_y, queries, colours = scatter.drawn()
    assert {q: (a, b, c) for q, a, b, c in zip(queries, drawn_x, drawn_y, colours, strict=True)} == {
        "a": (0.2, 0.3, 0), "b": (0.5, 0.5, 2), "c": (0.9, 0.1, 1)}  # a win, a tie, a loss
    assert scatter.ringed == (0.9, 0.1)  # now read from the drawn ring
    assert scatter.getPlotItem().getAxis("left").labelText == "NDCG@10 of other"


def test_the_lines_view_repaints_when_only_the_gains_change(qtbot):
    """The lines view draws relevant documents from their gain: a new gain with the same ranks and
    effects is announced and reaches the view."""
    from ndcg_gui.core.analysis.runs.run_diff import side_by_side
    from ndcg_gui.core.ndcg.measure import Measure
    from ndcg_gui.qt.models.run_diff_model import RunDiffModel
    from ndcg_gui.qt.widgets.runs.run_lines import RunLines

    model = RunDiffModel()
    view = RunLines(model)
    qtbot.addWidget(view)
    a, b, judged = np.array(["x", "y", "z"]), np.array(["x", "z", "y"]), {"x": 1.0, "y": 0.0, "z": 0.0}
    model.set_diff(side_by_side(a, b, judged, Measure(k=10)), ("A", "B"), 20, 10)
    assert [e.gain for e in view._entries] == [1.0, 0.0, 0.0]
    none_count = Measure(gain={0: 0.0, 1: 0.0, 2: 1.0, 3: 2.0})
    with qtbot.waitSignal(model.dataChanged):
        model.set_diff(side_by_side(a, b, judged, none_count.with_(k=10)), ("A", "B"), 20, 10)
    assert [e.gain for e in view._entries] == model.frame["gain"].tolist() == [0.0, 0.0, 0.0]


def test_a_narrow_pane_puts_the_scatter_above_the_lists(qtbot):
    """Side by side, a pane under NARROW px left the plot and the lists ~170 px each (1024 px
    window): then the plot goes above the lists, the method's text and the legend become
    tooltips; wide again, side by side with both shown."""
    from ndcg_gui.qt.widgets.runs.comparison_pane import NARROW, ComparisonPane

    pane = ComparisonPane()
    qtbot.addWidget(pane)
    pane.set_method("how it was made")
    pane.resize(NARROW - 100, 500)
    pane.show()
    qtbot.waitExposed(pane)
    assert pane.narrow and not pane.method_text.isVisible() and not pane.legend.isVisible()
    assert pane.hint.toolTip() == "how it was made" and pane.lines_title.toolTip()
    assert pane.lines.width() > NARROW - 150  # the lists get the pane's whole width
    pane.resize(NARROW + 300, 500)
    qtbot.waitUntil(lambda: not pane.narrow)
    assert pane.method_text.isVisible() and pane.legend.isVisible()


def test_the_plots_of_differences_write_their_numbers_as_they_are(qtbot):
    """Differences of -0.2..0.4 read as such: pyqtgraph's SI prefix wrote them "(x0.001)"
    -200..400 (a newcomer's look, 2,000 queries)."""
    from ndcg_gui.qt.widgets.plot.histogram import NdcgHistogram
    from ndcg_gui.qt.widgets.plot.run_scatter import RunScatter

    histogram, scatter = NdcgHistogram(), RunScatter()
    for widget in (histogram, scatter):
        qtbot.addWidget(widget)
        widget.resize(400, 300)
        widget.show()
    histogram.set_deltas(np.linspace(-0.2, 0.4, 50), "Δ NDCG@10: b − a")
    scatter.set_points(["a", "b"], np.array([0.01, 0.02]), np.array([0.03, 0.04]), ("a", "b"), 10, None)
    qtbot.waitUntil(lambda: histogram.made and scatter.made)
    for widget in (histogram, scatter):
        for name in ("left", "bottom"):
            axis = widget.getPlotItem().getAxis(name)
            assert axis.autoSIPrefixScale == 1.0 and "x0." not in axis.labelString()


def test_many_queries_are_drawn_as_smaller_points(qtbot):
    from ndcg_gui.qt.widgets.plot.run_scatter import RunScatter

    scatter = RunScatter()
    qtbot.addWidget(scatter)
    scatter.show()
    rng = np.random.default_rng(0)

    def sizes(n):
        x, y = rng.random(n), rng.random(n)
        scatter.set_points([f"q{i}" for i in range(n)], x, y, ("a", "b"), 10, None)
        qtbot.waitUntil(lambda: scatter.made)
        return {item.opts["size"] for item in scatter._plot.groups}

    assert sizes(50) == {9}
    assert sizes(2000) == {5}
    assert len(scatter.drawn()[0]) == 2000


def test_the_compare_tab_shows_the_figures_and_follows_an_edit(qtbot, comparing, files):
    """The figures themselves, recomputed from plain frames, in the tab's table (the headers'
    tooltips say how each was made); an edit's new figures follow once the statistics land."""
    pane = comparing.compare_pane
    table = pane.stats

    def shown(row):
        return pane.figures(row)

    _, stats = scratch(comparing, files)
    s = stats.loc["second"]
    counts = f"{int(s['wins'])} / {int(s['ties'])} / {int(s['losses'])}"
    assert shown(0)[0] == "sample" and shown(1)[:5] == [
        "second", f"{s['mean']:.4f}", f"{s['delta']:+.4f}", counts, f"{s['rand_p']:.3g}"]
    assert shown(1)[6] == f"[{s['ci_low']:+.4f}, {s['ci_high']:+.4f}]"
    how = table.item(3, 0).toolTip() if pane._turned else table.horizontalHeaderItem(4).toolTip()
    assert "randomization" in how
    before = shown(1)
    doc = comparing.document
    doc.set_current_query("405")
    doc.reverse()
    qtbot.waitUntil(lambda: shown(1) != before, timeout=5000)
    _, stats = scratch(comparing, files)
    assert shown(1)[2] == f"{stats.at['second', 'delta']:+.4f}"


def test_the_query_dock_grows_to_show_the_runs_columns(qtbot, opened, files):
    window = opened
    table, dock = window.query_panel.table, window.query_dock
    qtbot.waitUntil(lambda: dock.isVisible())
    qtbot.wait(50)
    before = dock.width()
    window.compare.add_run(files[2])
    window.compare.flush()
    qtbot.waitUntil(lambda: window.query_panel.comparing)
    qtbot.wait(50)
    assert dock.width() >= before
    assert not table.horizontalScrollBar().isVisible()  # Δ whole, not behind a scroll bar
    assert dock.width() <= window.width() // 3


def test_the_status_bar_counts_the_queries_the_figures_are_over(opened):
    window = opened
    """26 queries in the file, one with results but no judgment: the panel's figures are over 25;
    once a grade is typed in that query, over 26, and the status bar says so too."""
    assert "26 queries, 25 with judgments" in window.status_counts.text()
    assert "over 25 of 25 queries" in window.query_panel.mean_label.text()
    doc = window.document
    (unjudged,) = doc.unjudged_queries()
    doc.set_current_query(unjudged)
    doc.set_grade(0, 2)
    assert doc.unjudged_queries() == []
    assert "26 queries" in window.status_counts.text() and "with judgments" not in window.status_counts.text()
    assert "over 26 of 26 queries" in window.query_panel.mean_label.text()
    assert "without judgments" not in window.query_panel.policy_note.text()


def test_the_figures_table_scrolls_past_a_few_runs(qtbot):
    """Thirty runs do not make the pane taller than a screen: six rows show, the rest scroll."""
    from ndcg_gui.qt.widgets.runs.comparison_pane import STATS_ROWS, ComparisonPane

    pane = ComparisonPane()
    qtbot.addWidget(pane)
    columns = [("Run", ""), ("NDCG@10", "")]
    pane.set_summary(columns, [[f"run {i}", "0.5"] for i in range(3)])
    few = pane.stats.height()
    pane.set_summary(columns, [[f"run {i}", "0.5"] for i in range(30)])
    many = pane.stats.height()
    row = pane.stats.rowHeight(0)
    assert many == few + (STATS_ROWS - 3) * row
    assert pane.stats.rowHeight(0) >= pane.stats.fontMetrics().height()


def test_what_is_compared_and_the_mean_policy_are_undo_steps_of_the_document(qtbot, comparing, files):
    """Issue 21.1: the runs compared, the baseline, the run in the plots and the mean policy live in
    the document's state and change through it: Ctrl+Z takes each back, and the figures follow."""
    w, doc, c = comparing, comparing.document, comparing.comparison
    assert doc.state.comparing.names() == ["second"]
    steps = doc.undo_stack.count()
    assert doc.undo_stack.text(steps - 1) == "Compare second"
    w.compare_pane.baselineChosen.emit("second")  # as the pane's box asks for it
    assert c.baseline == "second" and doc.state.comparing.baseline == "second"
    assert c.comparison.baseline == "second"
    panel = w.query_panel
    panel.empty_combo.setCurrentIndex(panel.empty_combo.findData("skip"))  # as a person picks it
    assert doc.state.measure.empty == "skip" and c.comparison.measure.empty == "skip"
    assert doc.undo_stack.count() == steps + 2
    w.actions.undo.trigger()
    assert doc.state.measure.empty == "zero" and panel.empty_combo.currentData() == "zero"
    assert c.comparison.measure.empty == "zero"
    w.actions.undo.trigger()
    assert c.baseline == "sample" and c.comparison.baseline == "sample"
    w.actions.undo.trigger()  # the run added
    assert not c.active and w.right_tabs.count() == 1
    w.actions.redo.trigger()
    assert c.active and c.names == ["sample", "second"]
    ndcg, _ = scratch(w, files)
    pd.testing.assert_frame_equal(c.ndcg, ndcg, check_names=False, check_exact=False, rtol=1e-12,
                                  check_index_type=False)


def test_runs_compared_stay_with_their_qrels_across_opens(qtbot, comparing, files, tmp_path):
    w, doc, c = comparing, comparing.document, comparing.comparison
    assert w.files.open(files[2], files[1], ask=False)  # another run, the same judgments
    assert c.active and doc.state.comparing.names() == ["second"]
    other = tmp_path / "other.qrels"
    other.write_bytes(files[1].read_bytes())
    assert w.files.open(files[0], other, ask=False)  # other judgments: nothing compared on them
    assert not c.active
    w.actions.undo.trigger()  # the document before, with what it compared
    assert c.active and c.names[1:] == ["second"]


def test_the_views_never_work_the_statistics_out_on_the_gui_thread(qtbot, comparing, files, monkeypatch):
    """A person keeps editing while the statistics of an earlier edit are worked out: when those
    land, the views show them and wait for the rest, never working the rest out in that notice
    (it took ~100 ms over 2,000 queries from the frame of the move; bench_compare_window.py)."""
    import threading

    import ndcg_gui.core.analysis.workspace_report as report

    started, release = threading.Event(), threading.Event()
    on_gui_thread = []
    real = report.with_scores

    def watched(c, p):
        if threading.current_thread() is threading.main_thread():
            on_gui_thread.append(p)
        else:
            started.set()
            release.wait(5)
        return real(c, p)

    monkeypatch.setattr(report, "with_scores", watched)
    w, doc, panel = comparing, comparing.document, comparing.query_panel
    doc.set_current_query("405")
    doc.reverse()
    qtbot.waitUntil(started.is_set)
    doc.set_current_query("401")
    doc.reverse()  # while the thread works
    release.set()
    qtbot.waitUntil(lambda: not w.comparison.working and not w.comparison._pending, timeout=5000)
    assert on_gui_thread == []
    _, stats = scratch(w, files)
    assert panel.compare_label.text().startswith(line(comparing, stats, "second"))


def test_the_statistics_library_is_imported_off_the_gui_thread_while_a_run_is_read(
        qtbot, opened, files, monkeypatch):
    # scipy's import is long: the first comparison's statistics waited for it on the GUI thread
    # (bench_compare_window.py); it is now imported in a thread while the run is read.
    import sys
    import threading

    from ndcg_gui.core.analysis.runs import significance

    where = []
    monkeypatch.setattr(significance, "prepare", lambda: where.append(threading.current_thread()))
    monkeypatch.delitem(sys.modules, "scipy.special", raising=False)  # (as in a fresh window)
    opened.compare.add_run(files[2])
    qtbot.waitUntil(lambda: bool(where))
    assert where[0] is not threading.main_thread()
    qtbot.waitUntil(lambda: opened.comparison.active)
