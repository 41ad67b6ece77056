"""The window over a run too big to hold (issue 24): a small Parquet run and its qrels, forced
through DuckDB (NDCG_GUI_ENGINE_ABOVE=0), dropped on the window as a person drops them, show what
the same files loaded in memory show — every query's NDCG, the mean, each list — and are edited,
undone, re-scored under another k and saved (the edited queries alone, to a new file) the same
way; Cancel leaves the open document, a bad file is one line naming it."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
import pytest
from engine_samples import write_sample
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QLabel

from ndcg_gui.core.analysis.workspace_report import ndcg_of
from ndcg_gui.core.ndcg.mean import mean_summary
from ndcg_gui.core.reading import load
from ndcg_gui.core.sql import cache
from ndcg_gui.core.sql.progress import Cancelled
from ndcg_gui.core.state.workspace import Workspace
from ndcg_gui.qt.models.colours import current

pytest.importorskip("duckdb")
# The offscreen platform's limits, not our warnings.
CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture(autouse=True)
def forced(monkeypatch):
    monkeypatch.setenv("NDCG_GUI_ENGINE_ABOVE", "0")  # every Parquet run with qrels goes to DuckDB


@pytest.fixture
def sample(tmp_path):
    return write_sample(tmp_path)


def drop(qtbot, window, run, qrels) -> None:
    """The run and its qrels dropped on the window together; back once the load has ended."""
    window.files.open_dropped([str(run), str(qrels)])
    qtbot.waitUntil(lambda: not window.loader.is_loading(), timeout=30000)
    assert window.scores.wait(30)


def type_into(box, text: str) -> None:
    """`text` typed into `box` (the k box) as a person types it: focus, select all, keys, Enter."""
    box.setFocus()
    box.selectAll()
    QTest.keyClicks(box, text)
    QTest.keyClick(box, Qt.Key.Key_Return)


def held_scoring(monkeypatch):
    """DuckDB's scoring held at 50 % until the event returned is set (or its report says stop)."""
    import threading

    release, real = threading.Event(), cache.score_files

    def engine(run, qrels, definition, memory_limit=None, threads=None, progress=None):
        while not release.is_set() and progress("scoring", 50.0) is not False:
            time.sleep(0.01)
        return real(run, qrels, definition, memory_limit, threads, progress)

    monkeypatch.setattr(cache, "score_files", engine)
    return release


@pytest.fixture
def opened(qtbot, window, sample):
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    drop(qtbot, window, *sample)
    return window


def test_the_query_table_and_lists_are_those_of_the_files_loaded(opened, sample, qtbot):
    doc, memory = opened.document, load(*sample)
    assert not doc.dataset.in_memory and doc.path == sample[0]
    assert "scored by DuckDB" in opened.statusBar().currentMessage()
    want = memory.evaluate(doc.measure)
    shown = opened.scores.result
    assert list(shown.index) == list(want.index)
    assert np.abs(shown["ndcg"].to_numpy() - want["ndcg"].to_numpy()).max() <= 1e-12
    model = opened.query_panel.model
    assert sorted(model.query_at(r) for r in range(model.rowCount())) == sorted(want.index)
    mean = mean_summary(want, doc.state.measure).mean
    assert opened.query_panel.summary.mean == pytest.approx(mean, abs=1e-12)
    assert doc.queries() == memory.queries()

    # A query picked in the query table, by keyboard: its list is the one the loaded file holds.
    table = opened.query_panel.table
    table.setFocus()
    QTest.keyClick(table, Qt.Key.Key_Home, CTRL)
    QTest.keyClick(table, Qt.Key.Key_Down)
    qtbot.waitUntil(lambda: doc.reading is None, timeout=10000)  # (read in the background)
    query = doc.current_query
    assert query == model.query_at(1)
    assert doc.current_list() == Workspace.of(memory).list_for(query)


def test_an_edit_is_scored_in_the_query_table_and_undone(opened, sample):
    doc = opened.document
    doc.set_current_query(next(q for q in doc.queries() if len(doc.list_for(q)) > 3))
    query, before = doc.current_query, doc.current_list()
    view = opened.ranking_view
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_Home, CTRL)
    QTest.keyClick(view, Qt.Key.Key_Down, CTRL)  # the first document one rank down
    after = doc.current_list()
    assert after.docs[1] == before.docs[0] and doc.edited_queries() == [query]
    assert opened.scores.result.loc[query, "ndcg"] == pytest.approx(ndcg_of(after, doc.state.measure),
                                                                    abs=1e-12)
    assert not doc.is_clean()
    QTest.keyClick(view, Qt.Key.Key_Z, CTRL)
    assert doc.current_list() == before and doc.is_clean()
    want = load(*sample).evaluate(doc.measure)
    assert opened.scores.result.loc[query, "ndcg"] == pytest.approx(want.loc[query, "ndcg"], abs=1e-12)


def test_another_k_is_scored_again_by_the_engine(opened, sample):
    doc = opened.document
    opened.headline.k.setValue(3)  # the k box, as a person sets it
    assert opened.scores.wait(30) and doc.k == 3
    want = load(*sample).evaluate(doc.measure.with_(k=3))
    assert np.abs(opened.scores.result["ndcg"] - want["ndcg"]).max() <= 1e-12


def test_save_writes_the_edited_queries_alone_to_a_new_file(opened, sample, tmp_path, monkeypatch):
    doc = opened.document
    doc.set_current_query(next(q for q in doc.queries() if len(doc.list_for(q)) > 3))
    query = doc.current_query
    view = opened.ranking_view
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_Home, CTRL)
    QTest.keyClick(view, Qt.Key.Key_Down, CTRL)
    edited = doc.current_list()
    target = tmp_path / "edits.run"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *_a: (str(target), "TREC run (*.run)")))
    before = sample[0].read_bytes()
    QTest.keyClick(view, Qt.Key.Key_S, CTRL)  # File ▸ Save: the big file is not rewritten
    lines = [line.split() for line in target.read_text().splitlines()]
    assert {fields[0] for fields in lines} == {query}
    assert [fields[2] for fields in lines] == edited.docs.tolist()
    assert sample[0].read_bytes() == before and doc.path == sample[0]
    said = opened.statusBar().currentMessage()
    assert "1 edited query to edits.run" in said and "run.parquet itself is not rewritten" in said
    assert doc.is_clean()  # nothing unsaved: closing asks nothing


def working_until_cancelled(monkeypatch) -> list:
    """DuckDB's scoring at work until its progress report says stop (Cancel); the runs it was
    asked to score, in the list returned."""
    scoring = []

    def slow(run, qrels, definition, memory_limit=None, threads=None, progress=None):
        scoring.append(run)
        while progress("scoring", 50.0) is not False:
            time.sleep(0.01)
        raise Cancelled

    monkeypatch.setattr(cache, "score_files", slow)
    return scoring


def test_cancel_mid_way_leaves_the_open_document(qtbot, window, sample, monkeypatch):
    scoring = working_until_cancelled(monkeypatch)
    before = window.document.state
    window.files.open_dropped([str(sample[0]), str(sample[1])])
    qtbot.waitUntil(lambda: bool(scoring) and window.progress.bar.value() > 0, timeout=10000)
    assert window.progress.label.text() == "Loading run.parquet with DuckDB…"
    window.progress.cancel_button.click()
    assert window.document.state is before and not window.loader.is_loading()
    assert window.statusBar().currentMessage() == "Loading cancelled"
    qtbot.wait(200)  # (the worker's late end is dropped)
    assert window.document.state is before


def test_the_query_dock_is_laid_out_while_duckdb_reads_and_goes_again_on_cancel(qtbot, window, sample,
                                                                                 monkeypatch):
    """The frame that installs a run DuckDB reads also laid out the query dock (~40 ms of it at
    500,000 queries): the dock is shown while the run is read (such a run holds many queries), and
    hidden again when the load is cancelled (the example open is one list)."""
    scoring = working_until_cancelled(monkeypatch)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    assert not window.query_dock.isVisible()
    window.files.open_dropped([str(sample[0]), str(sample[1])])
    qtbot.waitUntil(lambda: bool(scoring) and window.query_dock.isVisible(), timeout=10000)
    assert window.loader.is_loading()
    window.progress.cancel_button.click()
    qtbot.waitUntil(lambda: not window.query_dock.isVisible(), timeout=5000)
    monkeypatch.undo()
    monkeypatch.setenv("NDCG_GUI_ENGINE_ABOVE", "0")
    drop(qtbot, window, *sample)  # (read this time: the dock shown, sized once, the queries in it)
    assert window.query_dock.isVisible() and window.query_panel.model.rowCount() > 1


def test_a_bad_file_is_one_line_naming_it(qtbot, window, tmp_path, dialog_log):
    run, qrels = tmp_path / "run.parquet", tmp_path / "qrels.parquet"
    pd.DataFrame({"query": ["a"], "doc": ["x"], "rank": [1]}).to_parquet(run)  # no score column
    pd.DataFrame({"query": ["a"], "doc": ["x"], "grade": [1]}).to_parquet(qrels)
    before = window.document.state
    window.files.open_dropped([str(run), str(qrels)])
    qtbot.waitUntil(lambda: not window.loader.is_loading(), timeout=30000)
    assert window.document.state is before
    (title, message), = dialog_log
    assert title == "Could not open the file" and "run.parquet" in message and "score" in message
    assert "\n" not in message


def _sql_refuses_the_given_order(monkeypatch):
    """Every preset is SQL now; a choice the SQL does not express (a discount table, a choice added
    to the measure before its SQL) still takes this path: spark's given order stands for one."""
    import importlib

    sql = importlib.import_module("ndcg_gui.core.sql.ndcg_sql")  # (the module, not its function)
    monkeypatch.setitem(sql._SUPPORTED, "ideal_order", lambda v: v == "sorted")


def test_a_preset_sql_cannot_express_is_refused_in_one_line(opened, monkeypatch):
    _sql_refuses_the_given_order(monkeypatch)
    doc, box = opened.document, opened.headline.definition.preset
    before, shown = doc.state.measure, box.currentData()
    notices = []
    doc.changed.connect(notices.append)
    # (spark: its judgments' given order making the ideal, refused here as the SQL once refused it)
    assert box.findData("spark") >= 0
    box.setCurrentIndex(box.findData("spark"))  # picked from the list, as a click does
    box.activated.emit(box.currentIndex())
    assert doc.state.measure == before and not opened.scores.pending
    # Nothing changed, so no notice (one saying the definition changed stopped and restarted a
    # rescoring DuckDB had under way).
    assert not any(n.definition for n in notices)
    assert box.currentData() == shown  # the box shows the definition in use again
    said = opened.statusBar().currentMessage()
    assert said == ("⚠ run.parquet is scored by DuckDB, and the SQL engines cannot compute NDCG with "
                    "ideal_order='given' (yet)")


def test_edits_recovered_after_a_crash_are_read_through_duckdb_again(opened, qtbot, settings, tmp_path,
                                                                      monkeypatch):
    """A window that ended without saving its edits of a run too big to hold: the next start
    opens the run through DuckDB again (loading it whole is what made it too big), edits on top."""
    from ndcg_gui.core.state.recovery import new_recovery_path, write_recovery
    from ndcg_gui.qt.widgets import dialogs
    from ndcg_gui.qt.window.main_window import MainWindow
    from ndcg_gui.qt.window.recovery import offer_recovery

    doc = opened.document
    doc.set_current_query(next(q for q in doc.queries() if len(doc.list_for(q)) > 3))
    doc.reverse()
    edited, query = doc.current_list(), doc.current_query
    left = tmp_path / "left"
    left.mkdir()
    write_recovery(new_recovery_path(left), doc.state, query)  # (as a killed window leaves it)
    monkeypatch.setattr(dialogs, "ask_restore", lambda _parent, what: True)
    again = MainWindow(settings=settings)
    qtbot.addWidget(again)
    offer_recovery(again.files, again, left)
    qtbot.waitUntil(lambda: not again.loader.is_loading(), timeout=30000)  # (read in a worker)
    assert not again.document.dataset.in_memory
    assert again.document.current_query == query and again.document.current_list() == edited
    assert not again.document.is_clean()


def test_a_run_compared_with_it_is_scored_by_duckdb_too(opened, qtbot, sample, tmp_path):
    """Runs compared with a run read where it lies: each run's NDCG from its engine, the same
    statistics as the in-memory comparison of the same files."""
    from ndcg_gui.core.analysis.runs.compare import compare_runs
    from ndcg_gui.core.analysis.workspace_report import SAMPLES, SEED

    run, qrels = sample
    rows = pd.read_parquet(run)
    rows["score"] = np.random.default_rng(1).permutation(rows["score"].to_numpy())
    second = tmp_path / "second.parquet"
    rows.to_parquet(second, index=False)
    opened.compare.add_run(second)
    qtbot.waitUntil(lambda: len(opened.comparison.added) == 1, timeout=30000)
    assert opened.comparison.wait(30)  # (scored by DuckDB in a worker)
    opened.compare.flush()
    doc = opened.document
    assert not doc.state.comparing.runs[0].dataset.in_memory
    got = opened.comparison.comparison
    want = compare_runs({"a": load(run, qrels), "b": load(second, qrels)}, load(run, qrels), doc.measure,
                        samples=SAMPLES, seed=SEED)
    assert np.abs(got.per_query.to_numpy() - want.per_query.to_numpy()).max() <= 1e-12
    assert list(got.per_query.index) == list(want.per_query.index)
    assert np.allclose(got.summary.drop(columns=["run"], errors="ignore").select_dtypes("number").to_numpy(),
                       want.summary.drop(columns=["run"], errors="ignore").select_dtypes("number").to_numpy(),
                       rtol=0, atol=1e-12, equal_nan=True)


def test_a_folder_of_parquet_without_qrels_asks_for_them_in_one_line(qtbot, window, sample, dialog_log):
    folder = sample[0].parent / "parts"
    folder.mkdir()
    pd.read_parquet(sample[0]).to_parquet(folder / "part-0.parquet")
    before = window.document.state
    window.files.open_dropped([str(folder)])
    qtbot.waitUntil(lambda: bool(dialog_log), timeout=10000)
    (_title, message), = dialog_log
    assert message.startswith("parts: is Parquet files read by DuckDB, which needs their judgments")
    assert "Open run with qrels" in message and "\n" not in message
    assert window.document.state is before


def test_a_folder_of_parquet_with_its_qrels_opens(qtbot, window, sample):
    folder = sample[0].parent / "parts"
    folder.mkdir()
    rows = pd.read_parquet(sample[0])
    rows.iloc[:40].to_parquet(folder / "part-0.parquet", index=False)
    rows.iloc[40:].to_parquet(folder / "part-1.parquet", index=False)
    drop(qtbot, window, folder, sample[1])
    doc, memory = window.document, load(*sample)
    assert not doc.dataset.in_memory and doc.queries() == memory.queries()
    want = memory.evaluate(doc.measure)
    assert np.abs(window.scores.result["ndcg"] - want["ndcg"]).max() <= 1e-12


def test_a_rescoring_overtaken_by_another_k_is_stopped(opened, qtbot, sample, monkeypatch):
    """DuckDB scoring the run again for one k stops when the person picks another before it ends
    (minutes of work at 500M rows for figures nobody would see); the last k's figures land."""
    from ndcg_gui.qt.document import query_scores

    monkeypatch.setattr(query_scores, "BACKGROUND_ROWS", 0)  # (as for a big run: in the background)
    jobs, real = [], cache.score_files

    def engine(run, qrels, definition, memory_limit=None, threads=None, progress=None):
        jobs.append(definition.k)
        if len(jobs) == 1:  # the first job runs until its progress report says stop
            while progress("scoring", 50.0) is not False:
                time.sleep(0.01)
            raise Cancelled
        return real(run, qrels, definition, memory_limit, threads, progress)

    monkeypatch.setattr(cache, "score_files", engine)
    doc, k = opened.document, opened.headline.k
    k.setValue(3)
    qtbot.waitUntil(lambda: jobs == [3], timeout=10000)
    assert opened.scores.pending
    k.setValue(4)
    assert opened.scores.wait(30) and jobs == [3, 4]
    want = load(*sample).evaluate(doc.measure.with_(k=4))
    assert np.abs(opened.scores.result["ndcg"] - want["ndcg"]).max() <= 1e-12


def test_the_html_report_is_made_from_the_engine_figures(opened, tmp_path, dialog_log):
    """The report reads every query's scores and the few lists it shows: what the engine answers."""
    out = tmp_path / "report.html"
    assert opened.exports.export_report(out) and not dialog_log
    html = out.read_text()
    mean = opened.query_panel.summary.mean
    assert "run.parquet" in html and f"{mean:.4f}" in html


def test_a_parquet_run_with_trec_text_qrels_goes_through_duckdb_too(qtbot, window, sample, tmp_path):
    """The usual pair (a big Parquet run, TREC qrels as text): the qrels are read once into a
    Parquet copy beside them, and the window shows what the files loaded in memory show; the
    status names the qrels file, not the copy."""
    run, qrels_parquet = sample
    qrels = tmp_path / "sample.qrels"
    rows = pd.read_parquet(qrels_parquet)
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in rows.itertuples(index=False)))
    window.resize(1024, 700)
    window.show()
    qtbot.waitExposed(window)
    drop(qtbot, window, run, qrels)
    doc, memory = window.document, load(run, qrels)
    assert not doc.dataset.in_memory and doc.qrels_path == qrels
    assert list(tmp_path.glob(".sample.qrels.ndcg-rows-*.parquet"))
    want = memory.evaluate(doc.measure)
    assert np.abs(window.scores.result["ndcg"].to_numpy() - want["ndcg"].to_numpy()).max() <= 1e-12
    assert doc.current_list() == Workspace.of(memory).list_for(doc.current_query)


def test_a_rescoring_shows_its_progress_and_undo_stops_it(opened, qtbot, sample, monkeypatch):
    """Another k on a run DuckDB reads is minutes of work at 500M rows: the status bar says what
    runs and how far it is, and Ctrl+Z (the k box's step undone) stops it and brings back the
    figures of before; the bar goes when the job ends."""
    from ndcg_gui.qt.document import query_scores

    monkeypatch.setattr(query_scores, "BACKGROUND_ROWS", 0)  # (as for a big run: in the background)
    jobs, stopped = [], []

    def engine(run, qrels, definition, memory_limit=None, threads=None, progress=None):
        jobs.append(definition.k)
        percent = 0.0
        while progress("scoring", percent) is not False:
            percent = min(99.0, percent + 1)
            time.sleep(0.01)
        stopped.append(definition.k)
        raise Cancelled

    doc, bar = opened.document, opened.scoring_progress
    before, k_before = opened.scores.result.copy(), doc.k
    monkeypatch.setattr(cache, "score_files", engine)
    k = opened.headline.k
    type_into(k, "7")
    qtbot.waitUntil(lambda: jobs == [7] and bar.bar.value() > 0, timeout=10000)
    assert bar.isVisible() and bar.label.text() == "Scoring every query at k = 7 with DuckDB…"
    assert not bar.cancel_button.isVisible() and opened.scores.pending
    opened.query_panel.table.setFocus()  # (Ctrl+Z from the window, not the k box's own text undo)
    QTest.keyClick(opened.query_panel.table, Qt.Key.Key_Z, CTRL)
    qtbot.waitUntil(lambda: stopped == [7] and not bar.isVisible(), timeout=10000)
    assert doc.k == k_before != 7 and not opened.scores.pending
    pd.testing.assert_frame_equal(opened.scores.result, before)


def test_quitting_stops_a_rescoring_and_waits_for_it(opened, qtbot, monkeypatch):
    """A thread still inside DuckDB when Python ends aborts the process: on quit the scoring of
    another k is told to stop and waited for."""
    from ndcg_gui.qt.document import query_scores

    monkeypatch.setattr(query_scores, "BACKGROUND_ROWS", 0)
    running, stopped = [], []

    def engine(run, qrels, definition, memory_limit=None, threads=None, progress=None):
        running.append(definition.k)
        while progress("scoring", 50.0) is not False:
            time.sleep(0.01)
        stopped.append(definition.k)
        raise Cancelled

    monkeypatch.setattr(cache, "score_files", engine)
    opened.headline.k.setValue(4)
    qtbot.waitUntil(lambda: running == [4], timeout=10000)
    opened.scores.stop()  # (what QApplication.aboutToQuit runs)
    assert stopped == [4] and not opened.scores._thread.is_alive()


def _second_run(sample, tmp_path):
    """The sample's run with its scores shuffled: another run of the same queries."""
    rows = pd.read_parquet(sample[0])
    rows["score"] = np.random.default_rng(1).permutation(rows["score"].to_numpy())
    second = tmp_path / "second.parquet"
    rows.to_parquet(second, index=False)
    return second


@pytest.fixture
def compared_by_engine(qtbot, window, sample, tmp_path, monkeypatch):
    """The sample's run loaded in memory, and a run read by DuckDB compared with it."""
    monkeypatch.delenv("NDCG_GUI_ENGINE_ABOVE")  # (the open run: small, loaded)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    drop(qtbot, window, *sample)
    assert window.document.dataset.in_memory
    monkeypatch.setenv("NDCG_GUI_ENGINE_ABOVE", "0")  # the run added goes through DuckDB
    window.compare.add_run(_second_run(sample, tmp_path))
    qtbot.waitUntil(lambda: len(window.comparison.added) == 1, timeout=30000)
    assert window.comparison.wait(30)
    assert not window.document.state.comparing.runs[0].dataset.in_memory
    return window


def test_a_preset_a_compared_runs_sql_cannot_express_is_refused_naming_it(compared_by_engine, monkeypatch):
    """The open run takes any definition, the run compared with it is read by DuckDB: a choice
    its SQL cannot express is refused as the open run's is (one line naming the run and the
    choice, no notice, the panel back on the definition in use), not an error raised."""
    _sql_refuses_the_given_order(monkeypatch)
    window = compared_by_engine
    doc, box = window.document, window.headline.definition.preset
    before, shown = doc.state.measure, box.currentData()
    notices = []
    doc.changed.connect(notices.append)
    box.setFocus()
    # (spark: its judgments' given order making the ideal, refused here as the SQL once refused it)
    assert box.findData("spark") >= 0
    box.setCurrentIndex(box.findData("spark"))  # picked from the list, as a click does
    box.activated.emit(box.currentIndex())
    assert doc.state.measure == before and not any(n.definition for n in notices)
    assert box.currentData() == shown
    assert window.statusBar().currentMessage() == (
        "⚠ second.parquet, compared with the open run, is scored by DuckDB, and the SQL engines "
        "cannot compute NDCG with ideal_order='given' (yet)")


def test_a_run_compared_is_scored_again_in_the_background_and_undo_brings_back_its_figures(
        compared_by_engine, qtbot, sample, monkeypatch):
    """Another k with a run DuckDB reads compared: the engine scores it again in a worker (minutes
    at 500M rows), the figures of before shown greyed meanwhile, its progress in the status bar;
    a newer k stops the older job, and Ctrl+Z (the k undone) brings the figures of before back."""
    import threading

    from ndcg_gui.core.analysis.runs.compare import compare_runs
    from ndcg_gui.core.analysis.workspace_report import SAMPLES, SEED

    window = compared_by_engine
    doc, c = window.document, window.comparison
    second = doc.state.comparing.runs[0].path
    before, k_before = c.ndcg.copy(), doc.k
    jobs, stopped, on_gui, real = [], [], [], cache.score_files

    def engine(run, qrels, definition, memory_limit=None, threads=None, progress=None):
        on_gui.append(threading.current_thread() is threading.main_thread())
        jobs.append(definition.k)
        if definition.k == 7 and progress is not None:  # runs until its progress report says stop
            percent = 0.0
            while progress("scoring", percent) is not False:
                percent = min(99.0, percent + 1)
                time.sleep(0.01)
            stopped.append(definition.k)
            raise Cancelled
        return real(run, qrels, definition, memory_limit, threads, progress)

    monkeypatch.setattr(cache, "score_files", engine)
    k = window.headline.k
    type_into(k, "7")
    assert doc.k == 7 and c.waiting and not window.compare_pane.isEnabled()
    pd.testing.assert_frame_equal(c.ndcg[before.columns], before)  # the figures of before, greyed
    model, panel = window.query_panel.model, window.query_panel
    cell = model.index(0, model.column_of("ndcg", c.added[0]))

    def greyed() -> bool:
        brush = model.data(cell, Qt.ItemDataRole.ForegroundRole)
        said = model.data(cell, Qt.ItemDataRole.ToolTipRole)
        grey = brush is not None and brush.color().name() == current().muted and "worked out again" in said
        assert grey != panel.compare_label.isEnabled()
        histogram = panel.histogram.plot_widget().bottom_label
        assert grey == ("worked out again" in histogram) != ("NDCG@" in histogram)
        return grey

    assert greyed()
    bar = window.comparison_progress
    qtbot.waitUntil(lambda: jobs == [7] and bar.bar.value() > 0, timeout=10000)
    assert bar.isVisible() and bar.label.text() == "Scoring the runs compared at k = 7 with DuckDB…"
    window.query_panel.table.setFocus()  # (Ctrl+Z from the window, not the k box's own text undo)
    QTest.keyClick(window.query_panel.table, Qt.Key.Key_Z, CTRL)
    qtbot.waitUntil(lambda: stopped == [7] and not c.waiting, timeout=10000)
    assert doc.k == k_before and window.compare_pane.isEnabled() and not bar.isVisible()
    pd.testing.assert_frame_equal(c.ndcg, before)
    assert not greyed()

    # A newer k than the one being scored: the older job stops, the newer one's figures land.
    type_into(k, "7")
    qtbot.waitUntil(lambda: jobs.count(7) == 2, timeout=10000)
    k.selectAll()
    QTest.keyClicks(k, "4")
    QTest.keyClick(k, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not c.waiting, timeout=30000)
    assert stopped == [7, 7] and 4 in jobs and not any(on_gui)
    memory = {"run": load(*sample), "second": load(second, sample[1])}
    want = compare_runs(memory, memory["run"], doc.measure.with_(k=4), samples=SAMPLES, seed=SEED)
    c.flush()
    assert np.abs(c.comparison.per_query.to_numpy() - want.per_query.to_numpy()).max() <= 1e-12


def _left_behind(doc, tmp_path):
    """A recovery file as a window killed after an edit of `doc`'s run leaves it: the folder, the
    edited list and its query."""
    from ndcg_gui.core.state.recovery import new_recovery_path, write_recovery

    # (not the first query: the one whose list an open reads with the run)
    doc.set_current_query(next(q for q in doc.queries()[1:] if len(doc.list_for(q)) > 3))
    doc.reverse()
    left = tmp_path / "left"
    left.mkdir()
    write_recovery(new_recovery_path(left), doc.state, doc.current_query)
    return left, doc.current_list(), doc.current_query


def test_edits_recovered_of_a_run_duckdb_reads_are_read_in_the_background_with_progress(
        opened, qtbot, settings, tmp_path, monkeypatch):
    """The next start reads the run through DuckDB as an open does: in a worker (the per-query
    table may take minutes), 'Loading run.parquet with DuckDB…' and its bar in the status bar
    meanwhile, the window answering; the edits are on top when it lands."""
    import threading

    from ndcg_gui.core.sql import engine_dataset
    from ndcg_gui.qt.widgets import dialogs
    from ndcg_gui.qt.window.main_window import MainWindow
    from ndcg_gui.qt.window.recovery import offer_recovery

    left, edited, query = _left_behind(opened.document, tmp_path)
    on_gui, release, real = [], threading.Event(), engine_dataset.open_engine

    def slow_open(run, qrels, definition, progress=None, **options):
        on_gui.append(threading.current_thread() is threading.main_thread())
        if progress is not None and not on_gui[-1]:  # (the engine at work until released)
            while not release.is_set() and progress("scoring", 50.0) is not False:
                time.sleep(0.01)
        return real(run, qrels, definition, progress, **options)

    monkeypatch.setattr(engine_dataset, "open_engine", slow_open)
    monkeypatch.setattr(dialogs, "ask_restore", lambda _parent, what: True)
    again = MainWindow(settings=settings)
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    offer_recovery(again.files, again, left)
    assert on_gui == [False] or not on_gui  # (nothing read by DuckDB on the GUI thread)
    bar = again.progress
    qtbot.waitUntil(lambda: bar.isVisible() and bar.bar.value() > 0, timeout=10000)
    assert bar.label.text() == "Loading run.parquet with DuckDB…"
    release.set()
    qtbot.waitUntil(lambda: not again.loader.is_loading() and not bar.isVisible(), timeout=30000)
    doc = again.document
    assert not doc.dataset.in_memory and on_gui == [False]
    assert doc.current_query == query and doc.current_list() == edited and not doc.is_clean()


def test_cancel_while_edits_are_recovered_keeps_them_for_the_next_start(opened, qtbot, settings, tmp_path,
                                                                         monkeypatch):
    """Cancel on the recovery's read (as on an open's) leaves the window as it was and the
    recovery file where it is, offered again at the next start."""
    from ndcg_gui.core.sql import engine_dataset
    from ndcg_gui.qt.widgets import dialogs
    from ndcg_gui.qt.window.main_window import MainWindow
    from ndcg_gui.qt.window.recovery import left_behind, offer_recovery

    left, _edited, _query = _left_behind(opened.document, tmp_path)

    def slow_open(run, qrels, definition, progress=None, **options):
        while progress("scoring", 50.0) is not False:
            time.sleep(0.01)
        raise Cancelled

    monkeypatch.setattr(engine_dataset, "open_engine", slow_open)
    monkeypatch.setattr(dialogs, "ask_restore", lambda _parent, what: True)
    again = MainWindow(settings=settings)
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    before, notes = again.document.state, []
    assert offer_recovery(again.files, again, left, note=notes.append) == 0
    bar = again.progress
    qtbot.waitUntil(lambda: bar.isVisible() and bar.bar.value() > 0, timeout=10000)
    bar.cancel_button.click()
    assert again.document.state is before and not bar.isVisible()
    assert notes == ["run.parquet: edits not restored (cancelled); offered again at the next start"]
    assert len(left_behind(left)) == 1


def test_edits_recovered_keep_their_list_as_loaded_as_edits_made_here_do(opened, qtbot, settings, tmp_path,
                                                                          monkeypatch):
    """Every notice compares an edited list with the file's: a recovered edit's list as loaded is
    read with the run (in the worker) and kept, as an edit made here keeps it (`Dataset.keep`), so
    stepping through other queries (which pushes lists read out) never reads it again through
    DuckDB on the GUI thread."""
    import threading

    from ndcg_gui.core.sql import engine_dataset
    from ndcg_gui.qt.widgets import dialogs
    from ndcg_gui.qt.window.main_window import MainWindow
    from ndcg_gui.qt.window.recovery import offer_recovery

    left, edited, query = _left_behind(opened.document, tmp_path)
    monkeypatch.setattr(dialogs, "ask_restore", lambda _parent, what: True)
    monkeypatch.setattr(engine_dataset, "MEMO", 1)  # (a list read pushes the one before out)
    read_on_gui, real = [], engine_dataset.read_list

    def read_list(run, qrels, q, memory_limit=None):
        if threading.current_thread() is threading.main_thread():
            read_on_gui.append(q)
        return real(run, qrels, q, memory_limit)

    monkeypatch.setattr(engine_dataset, "read_list", read_list)
    again = MainWindow(settings=settings)
    qtbot.addWidget(again)
    again.resize(1366, 768)
    again.show()
    qtbot.waitExposed(again)
    offer_recovery(again.files, again, left)
    qtbot.waitUntil(lambda: not again.loader.is_loading(), timeout=30000)
    doc, table = again.document, again.query_panel.table
    assert doc.current_query == query and not doc.is_clean()
    table.setFocus()
    for key in (Qt.Key.Key_Home, Qt.Key.Key_Down, Qt.Key.Key_Down, Qt.Key.Key_Down):
        QTest.keyClick(table, key, CTRL if key == Qt.Key.Key_Home else Qt.KeyboardModifier.NoModifier)
        qtbot.waitUntil(lambda: doc.reading is None, timeout=10000)
    assert doc.current_query != query and doc.edited_queries() == [query] and not doc.is_clean()
    assert read_on_gui == []
    assert doc.list_for(query) == edited


def test_an_edit_made_while_the_runs_compared_are_scored_again_is_in_the_figures_that_land(
        compared_by_engine, qtbot, monkeypatch):
    """The job scores the document as it was when it started: a list moved meanwhile (by keyboard,
    in the open run) is rescored when its figures land, not lost."""

    from ndcg_gui.core.analysis import workspace_report

    window = compared_by_engine
    doc, c = window.document, window.comparison
    release = held_scoring(monkeypatch)
    k = window.headline.k
    type_into(k, "7")
    assert c.waiting
    doc.set_current_query(next(q for q in doc.queries() if len(doc.list_for(q)) > 3 and q in c.ndcg.index))
    view = window.ranking_view
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_Home, CTRL)
    QTest.keyClick(view, Qt.Key.Key_Down, CTRL)  # the first document one rank down
    assert doc.edited_queries() == [doc.current_query] and c.waiting
    release.set()
    assert c.wait(30)
    c.flush()
    want = workspace_report.compare_state(doc.state, c.doc_name, window.scores.result, c.baseline)
    pd.testing.assert_frame_equal(c.ndcg, want.ndcg)
    assert c.ndcg.at[doc.current_query, c.doc_name] == pytest.approx(
        workspace_report.ndcg_of(doc.current_list(), doc.state.measure), abs=1e-12)
    assert np.abs(c.comparison.per_query.to_numpy() - want.comparison.per_query.to_numpy()).max() <= 1e-12


def test_the_task_in_the_status_bar_fits_a_1024_window(compared_by_engine, qtbot, monkeypatch):
    """The scoring's name beside the counts and the bar: cut with "…" (whole in its tooltip) at
    1024x700, not widening the window past its screen."""
    window = compared_by_engine
    window.resize(1024, 700)

    def engine(run, qrels, definition, memory_limit=None, threads=None, progress=None):
        while progress("scoring", 50.0) is not False:
            time.sleep(0.01)
        raise Cancelled

    monkeypatch.setattr(cache, "score_files", engine)
    window.headline.k.setValue(7)
    label = window.comparison_progress.label
    qtbot.waitUntil(lambda: label.isVisible(), timeout=10000)
    qtbot.wait(50)  # (the layout settles)
    assert window.minimumSizeHint().width() <= 1024 and window.width() == 1024
    whole = "Scoring the runs compared at k = 7 with DuckDB…"
    shown = QLabel.text(label)
    assert label.text() == whole and shown != whole and shown.endswith("…")
    assert whole in label.toolTip()
    window.comparison.stop()


def test_queries_picked_with_a_run_duckdb_reads_compared_read_its_lists_in_the_background(
        compared_by_engine, qtbot, sample, monkeypatch):
    """The compare pane shows the query's list of each run side by side: a run DuckDB reads reads
    it in the background as the open run's is read (the pick waits for it), never on the GUI
    thread at each arrow key."""
    import threading

    from ndcg_gui.core.sql import engine_dataset

    window = compared_by_engine
    doc, c = window.document, window.comparison
    name, second = c.added[0], doc.state.comparing.runs[0].path
    read_on_gui, real = [], engine_dataset.read_list

    def read_list(run, qrels, q, memory_limit=None):
        if threading.current_thread() is threading.main_thread():
            read_on_gui.append(q)
        return real(run, qrels, q, memory_limit)

    monkeypatch.setattr(engine_dataset, "read_list", read_list)
    memory = Workspace.of(load(second, sample[1]))
    table = window.query_panel.table
    table.setFocus()
    QTest.keyClick(table, Qt.Key.Key_Home, CTRL)
    for _ in range(4):
        QTest.keyClick(table, Qt.Key.Key_Down)
        qtbot.waitUntil(lambda: doc.reading is None and not doc.reads_pending(), timeout=10000)
        query = doc.current_query
        panel = window.query_panel
        assert query == panel.model.query_at(panel.proxy.mapToSource(table.currentIndex()).row())
        assert c.list_for(name, query).docs.tolist() == memory.list_for(query).docs.tolist()
        assert window.compare_pane.diff_model.rowCount() == len(
            set(c.list_for(name, query).docs) | set(doc.current_list().docs))
    assert read_on_gui == []
    # Added anew: its list of the query on screen is read with its figures, in the worker.
    window.comparison.remove_run(name)
    window.compare.add_run(second)
    qtbot.waitUntil(lambda: len(c.added) == 1, timeout=30000)
    assert c.wait(30) and window.compare_pane.diff_model.rowCount() > 0
    assert read_on_gui == []


def test_no_comparison_report_of_the_figures_of_before_while_they_are_worked_out(
        compared_by_engine, tmp_path, dialog_log, monkeypatch):
    """A report made while the runs compared are scored again would print the figures of the
    definition before under the one in use: it is refused in one line, and made once they land."""
    window = compared_by_engine

    def engine(run, qrels, definition, memory_limit=None, threads=None, progress=None):
        while progress("scoring", 50.0) is not False:
            time.sleep(0.01)
        raise Cancelled

    monkeypatch.setattr(cache, "score_files", engine)
    window.headline.k.setValue(7)
    out = tmp_path / "report.html"
    assert not window.exports.export_report(out) and not out.exists()
    (title, message), = dialog_log
    assert title == "Could not export the report" and "scored again" in message and "\n" not in message
    window.document.undo_stack.undo()  # (k as before: its figures back)
    assert window.comparison.wait(30)
    assert window.exports.export_report(out) and "@10" in out.read_text()


def test_a_file_dropped_while_a_run_loads_through_duckdb_is_opened(qtbot, window, sample, tmp_path,
                                                                   monkeypatch):
    """The big open under way is given up for the file dropped since (the last one wins); the
    second open was dropped silently: the cancel of the first cleared it."""
    def slow(run, qrels, definition, memory_limit=None, threads=None, progress=None):
        while progress("scoring", 50.0) is not False:
            time.sleep(0.01)
        raise Cancelled

    monkeypatch.setattr(cache, "score_files", slow)
    window.files.open_dropped([str(sample[0]), str(sample[1])])
    qtbot.waitUntil(lambda: window.progress.bar.value() > 0, timeout=10000)
    typed = tmp_path / "typed.csv"
    typed.write_text("doc,grade\na,3\nb,1\n")
    window.files.open_dropped([str(typed)])
    qtbot.waitUntil(lambda: window.document.path == typed, timeout=10000)
    assert not window.loader.is_loading() and window.document.current_list().docs.tolist() == ["a", "b"]


def test_edits_recovered_while_the_command_lines_file_loads_come_after_it(qtbot, window, sample, tmp_path,
                                                                          monkeypatch):
    """At start-up the file named on the command line may still be loading when the person accepts
    the edits left by a crash: both happen, the recovered session last (Ctrl+Z goes back to the
    file), rather than the recovery cancelling the open."""

    from ndcg_gui.core.lists import edits
    from ndcg_gui.core.state.recovery import new_recovery_path, write_recovery
    from ndcg_gui.core.state.workspace import FileRef
    from ndcg_gui.qt.widgets import dialogs
    from ndcg_gui.qt.window.recovery import offer_recovery

    release = held_scoring(monkeypatch)
    window.files.open(sample[0], sample[1], ask=False)
    qtbot.waitUntil(lambda: window.progress.bar.value() > 0, timeout=10000)
    csv = tmp_path / "typed.csv"
    csv.write_text("doc,grade\na,3\nb,1\nc,0\n")
    ws = Workspace.of(load(csv), file=FileRef.of(csv))
    left = tmp_path / "left"
    write_recovery(new_recovery_path(left), ws.with_list("", edits.reverse(ws.list_for("")).after), "")
    monkeypatch.setattr(dialogs, "ask_restore", lambda _parent, what: True)
    offer_recovery(window.files, window, left)
    release.set()
    doc = window.document
    qtbot.waitUntil(lambda: doc.path == csv, timeout=30000)
    assert not doc.is_clean() and doc.undo_stack.undoText() == "Restore unsaved edits"
    doc.undo_stack.undo()
    assert doc.path == sample[0] and not doc.dataset.in_memory


def test_a_run_compared_that_fails_to_be_scored_again_is_said_in_one_line_its_figures_left_greyed(
        compared_by_engine, qtbot, tmp_path, monkeypatch, dialog_log):
    """Another k typed in the k box, and the run DuckDB reads gone since it was added: the engine's
    failure is one line in the status bar, in the one notice (no traceback dialog); the figures of
    before stay greyed (they are not of k as shown), the report refuses them, an edit rescores no
    query alone at the new k beside the others at the old one; the next k that scores brings
    figures of the definition in use."""
    import sys

    window = compared_by_engine
    doc, c = window.document, window.comparison
    name, second = c.added[0], doc.state.comparing.runs[0].path
    before, hooked, notices, ended = c.ndcg.copy(), [], [], []
    monkeypatch.setattr(sys, "excepthook", lambda *a: hooked.append(a[1]))
    doc.changed.connect(notices.append)
    c.task.finished.connect(ended.append)
    hidden = second.rename(tmp_path / "hidden.parquet")
    k = window.headline.k
    type_into(k, "7")
    qtbot.waitUntil(lambda: bool(ended), timeout=30000)
    qtbot.wait(50)
    problems = [n.problem for n in notices if n.problem]
    assert hooked == [] and len(problems) == 1 and "second.parquet" in problems[0] and "\n" not in problems[0]
    assert window.statusBar().currentMessage() == f"⚠ {problems[0]}"
    assert doc.k == 7 and c.waiting and not window.compare_pane.isEnabled()
    pd.testing.assert_frame_equal(c.ndcg[before.columns], before)
    title = window.query_panel.histogram.plot_widget().bottom_label
    assert "@7" not in title and "(not scored again)" in title  # (not "worked out again": it failed)
    model = window.query_panel.model
    tip = model.data(model.index(0, model.column_of("ndcg", name)), Qt.ItemDataRole.ToolTipRole)
    assert "scoring them again failed" in tip
    out = tmp_path / "report.html"
    assert not window.exports.export_report(out) and not out.exists()
    assert "could not be scored again" in str(dialog_log[-1]), dialog_log

    query = next(q for q in doc.queries() if len(doc.list_for(q)) > 3 and q in c.ndcg.index)
    doc.set_current_query(query)
    qtbot.waitUntil(lambda: not doc.reads_pending(), timeout=10000)
    view = window.ranking_view
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_Home, CTRL)
    QTest.keyClick(view, Qt.Key.Key_Down, CTRL)
    c.flush()
    assert doc.edited_queries() == [query] and c.ndcg.at[query, name] == before.at[query, name]

    hidden.rename(second)  # back: the next k scores
    type_into(k, "5")
    assert c.wait(30) and window.compare_pane.isEnabled() and hooked == []
    want = ndcg_of(c.list_for(name, query), doc.state.measure)
    assert c.ndcg.at[query, name] == pytest.approx(want, abs=1e-12)


def test_a_list_of_a_run_compared_that_cannot_be_read_is_one_line_not_read_again_on_the_gui_thread(
        compared_by_engine, qtbot, monkeypatch, dialog_log):
    """The run added anew, and its list of the query on screen unreadable (a damaged file): the
    job that scores it says so in one line; the pane does not read that list again on the GUI
    thread (where it would raise a traceback)."""
    import sys
    import threading

    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.sql import engine_dataset

    window = compared_by_engine
    doc, c = window.document, window.comparison
    name, second = c.added[0], doc.state.comparing.runs[0].path
    hooked, notices, read_on_gui, real = [], [], [], engine_dataset.read_list
    monkeypatch.setattr(sys, "excepthook", lambda *a: hooked.append(a[1]))
    doc.set_current_query(doc.queries()[1])  # (not the first: read with the run when it is added)
    qtbot.waitUntil(lambda: not doc.reads_pending(), timeout=10000)
    shown = doc.current_query

    def read_list(run, qrels, q, memory_limit=None):
        if q != shown:
            return real(run, qrels, q, memory_limit)
        read_on_gui.append(threading.current_thread() is threading.main_thread())
        raise InputError("could not read the list", second)

    window.comparison.remove_run(name)
    monkeypatch.setattr(engine_dataset, "read_list", read_list)
    doc.changed.connect(notices.append)
    window.compare.add_run(second)
    qtbot.waitUntil(lambda: len(c.added) == 1, timeout=30000)
    c.wait(30)
    qtbot.wait(50)
    problems = [n.problem for n in notices if n.problem]
    assert hooked == [] and not any(read_on_gui) and len(problems) == 1
    assert "second.parquet" in problems[0] and "\n" not in problems[0]
    assert c.waiting and not window.compare_pane.isEnabled()


@pytest.mark.parametrize("answer", ["cancel", "discard"])
def test_edits_made_while_a_recovered_session_is_read_are_asked_about_before_it_replaces_them(
        opened, qtbot, settings, tmp_path, monkeypatch, dialog_log, answer):
    """The restore reads a run DuckDB reads (minutes at 500M rows) and the person edits the list
    on screen meanwhile, by keyboard: when it lands, they are asked about their unsaved changes as
    an open asks (a big document keeps no undo step to bring them back). Cancel keeps them on
    screen and the recovery file for the next start; Discard restores."""
    import threading

    from ndcg_gui.core.sql import engine_dataset
    from ndcg_gui.qt.document import document as docmod
    from ndcg_gui.qt.widgets import dialogs
    from ndcg_gui.qt.window.main_window import MainWindow
    from ndcg_gui.qt.window.recovery import left_behind, offer_recovery

    left, edited, query = _left_behind(opened.document, tmp_path)
    release, real = threading.Event(), engine_dataset.open_engine

    def slow_open(run, qrels, definition, progress=None, **options):
        while not release.is_set() and progress("scoring", 50.0) is not False:
            time.sleep(0.01)
        return real(run, qrels, definition, progress, **options)

    asked = []

    def unsaved(_parent, what):
        asked.append(what)
        return dialogs.Unsaved(answer)

    monkeypatch.setattr(engine_dataset, "open_engine", slow_open)
    monkeypatch.setattr(dialogs, "ask_restore", lambda _parent, what: True)
    monkeypatch.setattr(dialogs, "ask_unsaved", unsaved)
    monkeypatch.setattr(docmod, "KEEP_FOR_UNDO_ROWS", 0)  # (stands for a run of more than 1M rows)
    again = MainWindow(settings=settings)
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    mine_file = tmp_path / "mine.csv"
    mine_file.write_text("doc,grade\na,3\nb,1\nc,2\n")
    again.files.open(mine_file)
    notes = []
    offer_recovery(again.files, again, left, note=notes.append)
    qtbot.waitUntil(lambda: again.progress.bar.value() > 0, timeout=10000)
    doc, view = again.document, again.ranking_view
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_Home, CTRL)
    QTest.keyClick(view, Qt.Key.Key_Down, CTRL)  # the person's own edit, meanwhile
    mine = doc.current_list()
    assert not doc.is_clean()
    release.set()
    qtbot.waitUntil(lambda: not again.loader.is_loading(), timeout=30000)
    assert len(asked) == 1 and "run.parquet" in asked[0]
    if answer == "cancel":
        assert doc.current_list() == mine and not doc.is_clean() and doc.path == mine_file
        assert len(left_behind(left)) == 1 and "offered again at the next start" in notes[-1]
    else:
        assert doc.current_query == query and doc.current_list() == edited
        assert left_behind(left) == []


@pytest.mark.parametrize("stop", [False, True])
def test_a_file_dropped_while_recovered_edits_are_read_asks_before_it_stops_that(
        opened, qtbot, settings, tmp_path, monkeypatch, dialog_log, stop):
    """The person said yes to restoring a session's edits, and drops a file while its run is read:
    they are asked whether to stop restoring. No: the restore goes on and lands, the file is not
    opened. Yes: the file opens, the recovery file stays for the next start."""
    import threading

    from ndcg_gui.core.sql import engine_dataset
    from ndcg_gui.qt.widgets import dialogs
    from ndcg_gui.qt.window.main_window import MainWindow
    from ndcg_gui.qt.window.recovery import left_behind, offer_recovery

    left, edited, query = _left_behind(opened.document, tmp_path)
    release, real = threading.Event(), engine_dataset.open_engine

    def slow_open(run, qrels, definition, progress=None, **options):
        while not release.is_set():
            if progress("scoring", 50.0) is False:
                raise Cancelled
            time.sleep(0.01)
        return real(run, qrels, definition, progress, **options)

    asked = []
    monkeypatch.setattr(engine_dataset, "open_engine", slow_open)
    monkeypatch.setattr(dialogs, "ask_restore", lambda _parent, what: True)
    monkeypatch.setattr(dialogs, "ask_stop_restore",
                        lambda _parent, restoring, opening: asked.append((restoring, opening)) or stop)
    again = MainWindow(settings=settings)
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    offer_recovery(again.files, again, left, note=lambda _line: None)
    qtbot.waitUntil(lambda: again.progress.bar.value() > 0, timeout=10000)
    typed = tmp_path / "typed.csv"
    typed.write_text("doc,grade\na,3\nb,1\n")
    again.files.open_dropped([str(typed)])
    assert asked == [("run.parquet", "typed.csv")]
    release.set()
    qtbot.waitUntil(lambda: not again.loader.is_loading(), timeout=30000)
    qtbot.wait(50)
    doc = again.document
    if stop:
        assert doc.path == typed and len(left_behind(left)) == 1
    else:
        assert doc.current_query == query and doc.current_list() == edited and left_behind(left) == []


def test_a_file_dropped_while_the_command_lines_file_loads_keeps_the_restore_waiting_for_it(
        qtbot, window, sample, tmp_path, monkeypatch):
    """A restore accepted while the command line's file loads waits for it; a file dropped
    meanwhile replaces that open (the last one wins), and the restore still comes after it,
    rather than being started and cancelled at once."""

    from ndcg_gui.core.lists import edits
    from ndcg_gui.core.state.recovery import new_recovery_path, write_recovery
    from ndcg_gui.core.state.workspace import FileRef
    from ndcg_gui.qt.widgets import dialogs
    from ndcg_gui.qt.window.recovery import left_behind, offer_recovery

    def slow(run, qrels, definition, memory_limit=None, threads=None, progress=None):
        while progress("scoring", 50.0) is not False:
            time.sleep(0.01)
        raise Cancelled

    monkeypatch.setattr(cache, "score_files", slow)
    window.files.open(sample[0], sample[1], ask=False)
    qtbot.waitUntil(lambda: window.progress.bar.value() > 0, timeout=10000)
    csv = tmp_path / "recovered.csv"
    csv.write_text("doc,grade\na,3\nb,1\nc,0\n")
    ws = Workspace.of(load(csv), file=FileRef.of(csv))
    left = tmp_path / "left"
    write_recovery(new_recovery_path(left), ws.with_list("", edits.reverse(ws.list_for("")).after), "")
    monkeypatch.setattr(dialogs, "ask_restore", lambda _parent, what: True)
    notes = []
    offer_recovery(window.files, window, left, note=notes.append)
    typed = tmp_path / "typed.csv"
    typed.write_text("doc,grade\na,3\nb,1\n")
    window.files.open_dropped([str(typed)])
    doc = window.document
    qtbot.waitUntil(lambda: doc.path == csv and not window.loader.is_loading(), timeout=10000)
    assert notes == [] and left_behind(left) == [] and not doc.is_clean()
    doc.undo_stack.undo()
    assert doc.path == typed


def test_a_list_edited_while_the_runs_compared_are_scored_is_rescored_without_reading_on_the_gui_thread(
        compared_by_engine, qtbot, monkeypatch):
    """A list moved by keyboard while the runs compared are scored again under another k, then
    other queries browsed (which pushes lists read out of the run's memo): when the figures land,
    the edited query is rescored for every run from lists kept, none read on the GUI thread
    (~0.2 s a list a run at 500M rows)."""
    import threading

    from ndcg_gui.core.sql import engine_dataset

    window = compared_by_engine
    doc, c = window.document, window.comparison
    monkeypatch.setattr(engine_dataset, "MEMO", 3)
    read_on_gui, real_read = [], engine_dataset.read_list

    def read_list(run, qrels, q, memory_limit=None):
        if threading.current_thread() is threading.main_thread():
            read_on_gui.append(q)
        return real_read(run, qrels, q, memory_limit)

    monkeypatch.setattr(engine_dataset, "read_list", read_list)
    release = held_scoring(monkeypatch)
    k = window.headline.k
    type_into(k, "7")
    assert c.waiting
    queries = [q for q in doc.queries() if len(doc.list_for(q)) > 3 and q in c.ndcg.index]
    doc.set_current_query(queries[0])
    qtbot.waitUntil(lambda: not doc.reads_pending(), timeout=10000)
    view = window.ranking_view
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_Home, CTRL)
    QTest.keyClick(view, Qt.Key.Key_Down, CTRL)
    for q in queries[1:7]:
        doc.set_current_query(q)
        qtbot.waitUntil(lambda: not doc.reads_pending(), timeout=10000)
    release.set()
    assert c.wait(30)
    assert read_on_gui == []
    name = c.added[0]
    assert c.ndcg.at[queries[0], name] == pytest.approx(
        ndcg_of(c.list_for(name, queries[0]), doc.state.measure), abs=1e-12)
    qtbot.waitUntil(lambda: not c.working, timeout=10000)  # (no statistics left to land in the next test)


def _reads_on_gui(monkeypatch, held: str | None = None):
    """The queries whose list is read from the files on the GUI thread; a worker's read of `held`
    waits for the event returned (a slow disk: the job has not read it yet)."""
    import threading

    from ndcg_gui.core.sql import engine_dataset

    on_gui, release, real = [], threading.Event(), engine_dataset.read_list

    def read_list(run, qrels, q, memory_limit=None):
        if threading.current_thread() is threading.main_thread():
            on_gui.append(q)
        elif q == held:
            assert release.wait(30)
        return real(run, qrels, q, memory_limit)

    monkeypatch.setattr(engine_dataset, "read_list", read_list)
    return on_gui, release


def test_an_edit_made_before_a_run_added_has_read_its_list_reads_nothing_on_the_gui_thread(
        compared_by_engine, qtbot, monkeypatch):
    """A run DuckDB reads, added anew: the job that scores it reads its list of the query on screen
    in a worker. An edit made by keyboard before that read lands keeps that list once read (every
    edit of the query rescores it for every run) instead of reading it through DuckDB on the GUI
    thread (at 500M rows a blocking read: a frozen window); the edit stands and is in the figures
    that land, and the list stays kept while other queries are browsed."""
    from ndcg_gui.core.sql import engine_dataset

    window = compared_by_engine
    doc, c = window.document, window.comparison
    name, second = c.added[0], doc.state.comparing.runs[0].path
    first = doc.queries()[0]  # (read with the run when it is added)
    query = next(q for q in doc.queries() if q != first and len(doc.list_for(q)) > 3 and q in c.ndcg.index)
    doc.set_current_query(query)
    qtbot.waitUntil(lambda: not doc.reads_pending(), timeout=10000)
    window.comparison.remove_run(name)
    monkeypatch.setattr(engine_dataset, "MEMO", 1)  # (a list read pushes the one before out)
    on_gui, release = _reads_on_gui(monkeypatch, held=query)
    window.compare.add_run(second)
    qtbot.waitUntil(lambda: len(c.added) == 1, timeout=30000)
    assert c.waiting
    view = window.ranking_view
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_Home, CTRL)
    QTest.keyClick(view, Qt.Key.Key_Down, CTRL)  # the first document one rank down
    edited = doc.current_list()
    assert doc.edited_queries() == [query] and on_gui == []
    release.set()
    assert c.wait(30)
    c.flush()
    assert c.ndcg.at[query, name] == pytest.approx(ndcg_of(c.list_for(name, query), doc.state.measure),
                                                   abs=1e-12)
    assert c.ndcg.at[query, c.doc_name] == pytest.approx(ndcg_of(edited, doc.state.measure), abs=1e-12)
    assert window.compare_pane.isEnabled() and window.compare_pane.diff_model.rowCount() == len(
        set(c.list_for(name, query).docs) | set(edited.docs))  # (the lines came with the figures)
    table = window.query_panel.table
    table.setFocus()
    for _ in range(3):  # other queries shown: their lists read push the others out
        QTest.keyClick(table, Qt.Key.Key_Down)
        qtbot.waitUntil(lambda: not doc.reads_pending(), timeout=10000)
    assert doc.current_query != query and doc.state.comparing.runs[0].dataset.at_hand(query)
    assert on_gui == [] and doc.list_for(query) == edited
    qtbot.waitUntil(lambda: not c.working, timeout=10000)  # (no statistics left to land in the next test)


def test_a_run_added_after_an_edit_keeps_its_list_of_the_edited_query_as_read_when_added(
        compared_by_engine, qtbot, monkeypatch):
    """A run DuckDB reads, added after a query was edited: its list of that query is read in the
    job that scores it and kept, as a run compared before the edit keeps it (`Workspace.with_list`),
    so browsing other queries never makes it read from the file again: coming back to the edited
    query reads nothing of that run, and its list is the one the figures were worked out with."""
    from ndcg_gui.core.sql import engine_dataset

    window = compared_by_engine
    doc, c = window.document, window.comparison
    name, second = c.added[0], doc.state.comparing.runs[0].path
    window.comparison.remove_run(name)
    first = doc.queries()[0]
    query = next(q for q in doc.queries() if q != first and len(doc.list_for(q)) > 3)
    doc.set_current_query(query)
    view = window.ranking_view
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_Home, CTRL)
    QTest.keyClick(view, Qt.Key.Key_Down, CTRL)  # the first document one rank down
    assert doc.edited_queries() == [query]
    doc.set_current_query(first)  # (read with the run when it is added)
    monkeypatch.setattr(engine_dataset, "MEMO", 1)  # (a list read pushes the one before out)
    reads, real = [], engine_dataset.read_list

    def read_list(run, qrels, q, memory_limit=None):
        reads.append((q, run))
        return real(run, qrels, q, memory_limit)

    monkeypatch.setattr(engine_dataset, "read_list", read_list)
    window.compare.add_run(second)
    qtbot.waitUntil(lambda: len(c.added) == 1, timeout=30000)
    assert c.wait(30)
    added = doc.state.comparing.runs[0].dataset
    for other in [q for q in doc.queries() if q not in (first, query)][:3]:  # (pushing the others out)
        doc.set_current_query(other)
        qtbot.waitUntil(lambda: not doc.reads_pending(), timeout=10000)
    assert added.at_hand(query) and [q for q, _run in reads].count(query) == 1
    doc.set_current_query(query)  # back: nothing of the run read again
    qtbot.waitUntil(lambda: doc.current_query == query and not doc.reads_pending(), timeout=10000)
    assert [q for q, _run in reads].count(query) == 1
    assert c.ndcg.at[query, name] == pytest.approx(ndcg_of(c.list_for(name, query), doc.state.measure),
                                                   abs=1e-12)


def test_a_grade_edited_judges_the_runs_duckdb_reads_when_they_are_scored_again(
        compared_by_engine, qtbot, sample):
    """A grade typed into the open run judges that document for every run (one qrels file): a run
    DuckDB reads, added after the edit, then scored again under another k, is judged by the edited
    grade as the same run loaded in memory is, not by its qrels file's."""
    from ndcg_gui.core.analysis import workspace_report
    from ndcg_gui.qt.models.ranking_model import RankingModel

    window = compared_by_engine
    doc, c = window.document, window.comparison
    name, second = c.added[0], doc.state.comparing.runs[0].path
    window.comparison.remove_run(name)
    query = next(q for q in doc.queries() if len(doc.list_for(q)) > 3 and doc.list_for(q).judgments()
                 and doc.list_for(q).grades[0] == doc.list_for(q).grades[0])  # (its first document judged)
    doc.set_current_query(query)
    before = doc.current_list().grades[0]
    view = window.ranking_view
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_Home, CTRL)
    for _ in range(RankingModel.GRADE):
        QTest.keyClick(view, Qt.Key.Key_Right)
    QTest.keyClick(view, Qt.Key.Key_F2)  # the grade cell edited by keyboard
    editor = QApplication.focusWidget()
    editor.selectAll()
    QTest.keyClicks(editor, "3" if before != 3 else "0")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: doc.current_list().grades[0] != before, timeout=5000)  # (committed queued)
    assert doc.edited_queries() == [query]
    window.compare.add_run(second)
    qtbot.waitUntil(lambda: len(c.added) == 1, timeout=30000)
    for k in (None, "5"):  # added after the edit; scored again under another k
        if k is not None:
            type_into(window.headline.k, k)
        assert c.wait(30)
        memory = doc.state.without_runs().with_run(load(second, sample[1]), second, name)[0]
        want = workspace_report.compare_state(memory, c.doc_name, window.scores.result, c.baseline)
        assert c.ndcg.at[query, name] == pytest.approx(want.ndcg.at[query, name], abs=1e-12)
        assert np.abs(c.ndcg.to_numpy() - want.ndcg.to_numpy()).max() <= 1e-12
    qtbot.waitUntil(lambda: not c.working, timeout=10000)  # (no statistics left to land in the next test)
