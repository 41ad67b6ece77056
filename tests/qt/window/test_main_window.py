"""The window as a person uses it: keyboard moves, paste, delete, undo, opening good and bad files,
the unsaved-changes question, settings, and the query panel's place."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QGuiApplication

from ndcg_gui.assets import resource_path
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import ndcg_at
from ndcg_gui.core.ndcg.presets import LABELS, preset
from ndcg_gui.qt.widgets import dialogs
from ndcg_gui.qt.window.layout import QUERY_DOCK_WIDTH
from ndcg_gui.qt.window.main_window import MainWindow


def order(window: MainWindow) -> list[str]:
    return window.document.current_list().docs.tolist()


def test_headline_plot_and_tables_show_one_recompute(window):
    window.ranking_view.select_rows(4, 1)
    window.actions.move_up.trigger()
    assert order(window) == ["A", "B", "C", "E", "D"]
    expected = ndcg_at([3, 2, 3, 1, 0], Measure(k=10))
    assert f"{expected:.4f}" in window.headline.ndcg.text()
    assert window.plot.ndcg.getData()[1][-1] == pytest.approx(expected)
    assert float(window.metrics_model.index(4, 10).data()) == pytest.approx(expected, abs=5e-5)
    assert window.ranking_model.index(3, 1).data() == "E"


def test_ctrl_up_and_down_move_a_selected_block_which_stays_selected(window):
    window.ranking_view.select_rows(1, 2)  # B, C
    window.actions.move_down.trigger()
    assert order(window) == ["A", "D", "B", "C", "E"]
    assert window.ranking_view.selected_rows() == [2, 3]
    window.actions.move_up.trigger()
    window.actions.move_up.trigger()
    assert order(window) == ["B", "C", "A", "D", "E"]
    window.actions.move_up.trigger()  # already at the top: nothing happens
    assert order(window) == ["B", "C", "A", "D", "E"]
    assert window.document.undo_stack.count() == 3
    window.actions.undo.trigger()
    assert order(window) == list("ABCDE")
    window.actions.undo.trigger()
    assert order(window) == ["A", "D", "B", "C", "E"]


def test_paste_pairs_inserts_rows_and_grades_overwrite(window):
    window.ranking_view.select_rows(1, 1)
    window.editing.paste_rows("doc\tgrade\nX\t2\nY\t\n")
    assert order(window)[:4] == ["A", "X", "Y", "B"]
    assert math.isnan(window.document.current_list().grades[2])
    window.ranking_view.select_rows(5, 1)
    window.editing.paste_rows("1\n0\n2\n")
    assert window.document.current_list().grades.tolist()[5:] == [1, 0, 2]
    assert len(window.document.current_list()) == 8
    window.document.undo_stack.undo()
    window.document.undo_stack.undo()
    assert order(window) == list("ABCDE")


def test_bad_paste_says_why_and_changes_nothing(window):
    window.editing.paste_rows("a\t1\nb\thigh\n")
    assert "line 2" in window.statusBar().currentMessage()
    assert order(window) == list("ABCDE")


def test_copy_rows_puts_doc_grade_pairs_on_the_clipboard(window):
    window.ranking_view.select_rows(0, 2)
    window.editing.copy_rows()
    assert QGuiApplication.clipboard().text() == "doc\tgrade\nA\t3\nB\t2\n"


def test_delete_add_and_undo(window):
    window.ranking_view.select_rows(0, 2)
    window.actions.delete.trigger()
    assert order(window) == ["C", "D", "E"]
    window.actions.add_row.trigger()
    assert len(order(window)) == 4
    window.document.undo_stack.undo()
    window.document.undo_stack.undo()
    assert order(window) == list("ABCDE")
    window.actions.redo.trigger()
    assert order(window) == ["C", "D", "E"]


def test_quick_list_starts_a_new_list_undoably(window):
    window.quick_entry.setText("3, 0 1")
    window.editing.apply_quick_list()
    assert window.document.current_list().grades.tolist() == [3, 0, 1]
    window.quick_entry.setText("3 x")
    window.editing.apply_quick_list()
    assert "not a number" in window.statusBar().currentMessage()
    window.actions.undo.trigger()
    assert order(window) == list("ABCDE")


def test_sort_reverse_reset(window):
    window.actions.sort.trigger()
    assert window.document.current_list().grades.tolist() == [3, 3, 2, 1, 0]
    assert window.document.summary.ndcg == pytest.approx(1.0)
    window.actions.reverse.trigger()
    assert window.document.current_list().grades.tolist() == [0, 1, 2, 3, 3]
    window.actions.reset.trigger()
    assert order(window) == list("ABCDE")


def test_opening_a_file_and_a_bad_file_keeps_the_old_list(window, dialog_log, tmp_path):
    with resource_path("examples/e1.csv") as e1:
        assert window.files.open(e1)
    assert order(window) == ["doc-A", "doc-B", "doc-C", "doc-D", "doc-E"]
    assert "e1.csv" in window.windowTitle()
    bad = tmp_path / "bad.csv"
    bad.write_text("doc,grade\nx,1\ny,high\n")
    window.actions.move_up.trigger()  # something to keep
    before = order(window)
    assert not window.files.open(bad, ask=False)
    assert dialog_log and "bad.csv:3" in dialog_log[-1][1]
    assert order(window) == before
    assert not window.files.open(tmp_path / "missing.csv", ask=False)
    assert order(window) == before


def test_unsaved_changes_are_asked_about(window, monkeypatch, tmp_path, qtbot):
    answers = []

    def ask(_parent, what):
        answers.append(what)
        return answer

    monkeypatch.setattr(dialogs, "ask_unsaved", ask)
    window.show()
    window.document.reverse()
    assert window.isWindowModified()
    answer = dialogs.Unsaved.CANCEL
    assert not window.close()
    assert window.isVisible()
    with resource_path("examples/e1.csv") as e1:
        assert not window.files.open(e1)
    assert order(window) == list("EDCBA")
    window.actions.new.trigger()
    assert order(window) == list("EDCBA")
    assert answers == ["closing", "opening another file", "starting a new list"]
    target = tmp_path / "saved.csv"
    monkeypatch.setattr(window.files, "save_as", lambda: window.files.save_to(target))
    answer = dialogs.Unsaved.SAVE
    assert window.close()
    assert target.read_text().splitlines()[1].endswith("E,1")


def test_save_writes_the_edited_list_and_clears_the_modified_mark(window, tmp_path):
    window.document.sort_ideal()
    path = tmp_path / "out.csv"
    assert window.files.save_to(path)
    assert not window.isWindowModified()
    assert window.document.is_clean()
    assert "out.csv" in window.windowTitle()
    from ndcg_gui.core.reading import load

    assert load(path).ranked_list(load(path).queries()[0]).grades.tolist() == [3, 3, 2, 1, 0]


def test_export_metrics_csv(window, tmp_path):
    path = tmp_path / "metrics.csv"
    assert window.exports.export_metrics(path)
    lines = path.read_text().splitlines()
    assert lines[0].startswith("rank,doc,grade")
    assert len(lines) == 6


def test_settings_keep_definition_and_recent_files(qtbot, tmp_path, dialog_log):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat)
    first = MainWindow(settings=settings)
    qtbot.addWidget(first)
    first.document.set_measure(Measure(gain="exponential", discount="jarvelin", base=3), k=4)
    with resource_path("examples/e1.csv") as e1:
        first.files.open(e1)
    first.save_settings()
    second = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(second)
    assert second.document.measure == Measure(gain="exponential", discount="jarvelin",
                                              base=3).at(second.document.k)
    assert second.document.k == 4
    assert second.files.recent.entries and second.files.recent.entries[0].endswith("e1.csv")


def test_definition_panel_applies_presets_and_fields(window):
    panel = window.headline.definition
    panel.preset.setCurrentIndex(panel.preset.findData("sklearn"))
    panel.preset.activated.emit(panel.preset.currentIndex())
    assert window.document.measure == preset("sklearn").at(window.document.k)
    panel.gain.setCurrentIndex(panel.gain.findData("exponential"))
    panel.gain.activated.emit(panel.gain.currentIndex())
    assert window.document.measure.gain == "exponential"
    assert panel.preset.currentData() == "custom"
    assert "2^rel" in window.headline.describe.text()
    window.headline.k.setValue(3)
    assert window.document.k == 3
    assert "NDCG@3" in window.headline.ndcg.text()


def test_the_query_panel_place_shows_only_for_many_queries(window):
    window.show()
    assert not window.query_dock.isVisible()
    window.document.set_lists({"q1": RankedList.from_grades([1, 0]), "q2": RankedList.from_grades([0, 1])})
    assert window.query_dock.isVisible()
    assert window.query_dock.widget() is window.query_panel
    window.document.set_current_query("q2")
    assert "q2" in window.windowTitle()
    window.document.set_lists({"only": RankedList.from_grades([1])})
    assert not window.query_dock.isVisible()


def test_status_bar_counts(window):
    window.document.set_grade(0, math.nan)
    text = window.status_counts.text()
    assert "5 docs" in text and "4 judged" in text and "1 unjudged" in text


def test_status_bar_counts_read_at_a_glance(window):
    """500000 queries read as 500,000 (the 500M-row window's status bar said "500000 queries")."""
    window.document.set_lists({f"q{i}": RankedList.from_grades([1] * 1200 if i == 0 else [1])
                               for i in range(1500)})
    text = window.status_counts.text()
    assert "1,200 docs" in text and "1,500 queries" in text, text


def test_dropped_files_open(window, tmp_path):
    run = tmp_path / "r.run"
    qrels = tmp_path / "r.qrels"
    run.write_text("q1 Q0 a 1 2.0 t\nq1 Q0 b 2 1.0 t\n")
    qrels.write_text("q1 0 a 0\nq1 0 b 2\nq1 0 c 1\n")
    window.files.open_dropped([str(qrels), str(run)])
    assert order(window) == ["a", "b"]
    assert window.document.current_list().unretrieved == {"c": 1.0}
    assert Path(window.document.path).name == "r.run"


def test_fits_a_1024_px_screen_and_the_toolbar_keeps_still(window, qtbot):
    """A 1280 px laptop at 125 % gives about 1024 px: the window fits (the definition row takes a
    second line), and the toolbar's Undo keeps its short label whatever the step it undoes."""
    from PySide6.QtWidgets import QToolBar

    window.show()
    window.resize(1000, 700)
    qtbot.waitUntil(lambda: window.width() == 1000)
    assert window.minimumSizeHint().width() <= 1000
    panel = window.headline.definition
    assert panel._rows == 2 and panel.width() <= 1000
    window.resize(1280, 800)
    qtbot.waitUntil(lambda: panel._rows == 1)
    bar = window.findChild(QToolBar)
    labels = [a.iconText() for a in bar.actions()]
    window.document.set_grade(1, 3)
    assert [a.iconText() for a in bar.actions()] == labels and "Undo" in labels
    undo = next(a for a in bar.actions() if a.iconText() == "Undo")
    assert undo.isEnabled() and "Set grade" in undo.toolTip()
    undo.trigger()
    assert window.document.current_list().grades[1] == 2


@pytest.mark.parametrize("size", [(1024, 700), (1280, 800)])
def test_the_query_table_shows_its_ids_and_figures_whole(window, qtbot, size):
    """The query dock opens wide enough for its columns (ids beside docs, judged and NDCG), and
    only the column sorted by keeps room for the sort arrow."""
    from ndcg_gui.qt.models.query_model import COL_NDCG, COL_QUERY

    window.resize(*size)
    window.show()
    qtbot.waitUntil(lambda: window.width() == size[0])
    with resource_path("examples/sample.run") as run, resource_path("examples/sample.qrels") as qrels:
        assert window.files.open(run, qrels)
    table = window.query_panel.table
    dock = window.query_dock
    qtbot.waitUntil(lambda: dock.isVisible() and dock.width() >= window.dock_width())
    qtbot.wait(20)
    assert table.columnWidth(COL_QUERY) >= table.sizeHintForColumn(COL_QUERY)  # "401", not "…"
    assert not table.horizontalScrollBar().isVisible()
    table.sortByColumn(COL_NDCG, Qt.SortOrder.AscendingOrder)
    qtbot.wait(20)
    assert table.columnWidth(COL_QUERY) >= table.sizeHintForColumn(COL_QUERY)
    assert not table.horizontalScrollBar().isVisible()


def test_the_query_docks_width_is_kept(qtbot, tmp_path, dialog_log):
    def opened() -> MainWindow:
        win = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
        qtbot.addWidget(win)
        win.show()
        with resource_path("examples/sample.run") as run, resource_path("examples/sample.qrels") as qrels:
            win.files.open(run, qrels, ask=False)
        qtbot.waitUntil(lambda: win.query_dock.isVisible())
        return win

    first = opened()
    qtbot.waitUntil(lambda: abs(first.query_dock.width() - QUERY_DOCK_WIDTH) <= 2)  # first-time width
    first.resizeDocks([first.query_dock], [380], Qt.Horizontal)
    qtbot.waitUntil(lambda: abs(first.query_dock.width() - 380) <= 2)
    first.save_settings()
    second = opened()
    qtbot.wait(50)
    assert abs(second.query_dock.width() - 380) <= 5  # (the layout may round a few pixels)


def test_a_file_of_many_queries_is_laid_out_in_the_pass_that_shows_it(window, qtbot):
    """The query dock takes its first width in the pass that installs the file, so every view
    is first painted at its final size (painting at an interim layout and again made a 7M-line
    run's install frame ~20 ms longer: bench_queries --only big)."""
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    with resource_path("examples/sample.run") as run, resource_path("examples/sample.qrels") as qrels:
        assert window.files.open(run, qrels, ask=False)  # a small file: installed before this returns
    dock, plot, histogram = window.query_dock, window.plot, window.query_panel.histogram
    assert dock.isVisible() and abs(dock.width() - window.dock_width()) <= 2
    laid_out = (dock.width(), plot.size(), histogram.size())
    qtbot.wait(100)
    assert (dock.width(), plot.size(), histogram.size()) == laid_out


def test_a_file_read_in_the_background_gets_the_window_ready_meanwhile(window, qtbot):
    """While a big file is read in a process, the query panel's histogram plot is made, so the
    pass that installs the file does not make it too; the histogram keeps the height it has when
    made at first show (its size hints do not depend on when the plot was made)."""
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    window.loader._process = True  # read as a big file is, in a loader process
    made_when_installed = []
    histogram = window.query_panel.histogram
    window.loader.task.finished.connect(lambda *_: made_when_installed.append(histogram.made))
    with resource_path("examples/sample.run") as run, resource_path("examples/sample.qrels") as qrels:
        assert window.files.open(run, qrels, ask=False)
        qtbot.waitUntil(lambda: bool(made_when_installed), timeout=20000)
    assert made_when_installed == [True]
    height = window.query_panel.histogram.height()

    other = MainWindow(settings=QSettings(str(Path(window.settings.fileName()).with_name("o.ini")),
                                          QSettings.IniFormat))
    qtbot.addWidget(other)
    other.resize(1280, 800)
    other.show()
    with resource_path("examples/sample.run") as run, resource_path("examples/sample.qrels") as qrels:
        assert other.files.open(run, qrels, ask=False)  # read at once: the plot made when shown
    qtbot.waitUntil(lambda: other.query_panel.histogram.made)
    assert other.query_panel.histogram.height() == height


def test_undo_after_opening_a_run_returns_to_the_list(window, qtbot):
    window.show()
    window.document.set_grade(0, 1)  # unsaved; the prompt is answered "discard"
    with resource_path("examples/sample.run") as run, resource_path("examples/sample.qrels") as qrels:
        assert window.files.open(run, qrels)
    qtbot.waitUntil(lambda: window.query_dock.isVisible())
    assert "sample.run" in window.windowTitle()
    window.actions.undo.trigger()
    qtbot.waitUntil(lambda: not window.query_dock.isVisible())
    assert window.document.queries() == ["q1"]
    assert window.document.current_list().grades[0] == 1  # the discarded edit is back
    assert window.isWindowModified()


def test_hidden_curves_leave_the_legend(window):
    plot = window.plot
    plot.toggles["DCG"].setChecked(False)
    assert [label.text for _sample, label in plot.legend.items] == ["IDCG", "NDCG"]
    assert not plot.dcg.isVisible()
    plot.toggles["DCG"].setChecked(True)
    assert [label.text for _sample, label in plot.legend.items] == ["DCG", "IDCG", "NDCG"]


def test_a_refused_grade_is_said_next_to_the_cell(window, qtbot, monkeypatch):
    from PySide6.QtWidgets import QToolTip

    shown = []
    monkeypatch.setattr(QToolTip, "showText", lambda _pos, text, *_a: shown.append(text))
    window.show()
    qtbot.waitExposed(window)
    model = window.ranking_model
    window.ranking_view.setCurrentIndex(model.index(1, model.GRADE))
    assert not model.setData(model.index(1, model.GRADE), "high")
    assert shown and "high" in shown[0]
    assert window.document.current_list().grades[1] == 2


def test_a_dock_never_shown_gets_its_default_width_next_time(qtbot, tmp_path, dialog_log):
    first = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(first)
    first.show()
    first.save_settings()  # one list all session: the dock never showed
    second = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(second)
    second.show()
    with resource_path("examples/sample.run") as run, resource_path("examples/sample.qrels") as qrels:
        second.files.open(run, qrels, ask=False)
    qtbot.waitUntil(lambda: abs(second.query_dock.width() - second.dock_width()) <= 2)
    assert second.width() < 1280 or second.dock_width() == QUERY_DOCK_WIDTH


def test_a_csvs_other_columns_show_with_their_rows_and_are_saved_back(window, tmp_path):
    """Nothing of the user's file is lost: title and url travel with their rows, and a save
    writes them back under their own names, with the file's delimiter."""
    path = tmp_path / "ranking.csv"
    path.write_text("doc;title;grade;url\nd1;First doc;2;http://a\nd2;Second, with comma;0;http://b\n"
                    "d3;Third;3;http://c\n", encoding="utf-8")
    assert window.files.open(path, ask=False)
    model = window.ranking_model
    headers = [model.headerData(c, Qt.Horizontal) for c in range(model.columnCount())]
    assert headers[-2:] == ["title", "url"]
    title = model.column("extra:title")
    window.document.move_rows(2, 1, 0)  # d3 to the top: its title goes with it
    assert [model.index(r, title).data() for r in range(3)] == ["Third", "First doc", "Second, with comma"]
    assert window.files.save()
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[0] == "doc;title;grade;url"
    assert text.splitlines()[1] == "d3;Third;3;http://c"
    assert "Second, with comma" in text


def test_a_column_width_a_person_sets_is_kept(qtbot, tmp_path, dialog_log, monkeypatch):
    """Remembered by title, through a refit (another file) and into the next session; a refit's own
    resizes are not remembered."""
    from PySide6.QtWidgets import QApplication

    settings = QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat)
    first = MainWindow(settings=settings)
    qtbot.addWidget(first)
    header = first.ranking_view.horizontalHeader()
    grade = first.ranking_model.GRADE
    monkeypatch.setattr(QApplication, "mouseButtons", staticmethod(lambda: Qt.LeftButton))  # a drag
    header.resizeSection(grade, 123)
    monkeypatch.undo()
    with resource_path("examples/sample.run") as run, resource_path("examples/sample.qrels") as qrels:
        first.files.open(run, qrels, ask=False)  # the columns are fitted again
    assert header.sectionSize(grade) == 123
    first.save_settings()
    second = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(second)
    assert second.ranking_view.horizontalHeader().sectionSize(grade) == 123
    assert "Rank" not in second.ranking_view.column_widths.widths  # refits are not remembered


def test_every_figure_follows_the_tie_rule(window, tmp_path):
    """With tied scores the headline, the per-rank table, the query table and the Definitions tab
    agree under each rule; "file order" is the file's order; "averaged" is scikit-learn's."""
    from sklearn.metrics import ndcg_score

    path = tmp_path / "tied.csv"
    path.write_text("query;doc;score;grade\nq1;d1;9,5;0\nq1;d3;8,7;0\nq1;d4;8,7;3\nq1;d2;7,1;1\n"
                    "q2;x;1;1\n", encoding="utf-8")
    assert window.files.open(path, ask=False)
    doc = window.document
    panel = window.query_panel
    for rule in ("trec", "file", "average"):
        doc.set_measure(k=3, ties=rule)
        lst = doc.current_list()
        if rule == "file":
            assert lst.docs.tolist() == ["d1", "d3", "d4", "d2"]
        if rule == "trec":
            assert lst.docs.tolist() == ["d1", "d4", "d3", "d2"]
        shown = f"{doc.summary.ndcg:.4f}"
        assert shown in window.headline.ndcg.text()
        assert window.metrics_model.index(2, 10).data() == shown
        assert panel.model.index(panel.model.row_of("q1"), 4).data() == shown
        assert f"{doc.report.definitions['ndcg'].iloc[0]:.4f}" == shown
    assert doc.summary.ndcg == pytest.approx(ndcg_score([[0, 0, 3, 1]], [[9.5, 8.7, 8.7, 7.1]], k=3))


def test_a_typed_list_over_an_open_file_is_a_new_untitled_document(window, tmp_path, monkeypatch):
    path = tmp_path / "e1copy.csv"
    with resource_path("examples/e1.csv") as e1:
        path.write_bytes(e1.read_bytes())
    assert window.files.open(path, ask=False)
    before = path.read_bytes()
    window.quick_entry.setText("1 0 2")
    window.editing.apply_quick_list()
    doc = window.document
    assert doc.path is None and doc.current_list().grades.tolist() == [1, 0, 2]
    asked = []
    monkeypatch.setattr(window.files, "save_as", lambda: asked.append(True) or False)
    window.actions.save.trigger()  # no file to write to: Save asks where
    assert asked and path.read_bytes() == before
    window.actions.undo.trigger()  # the file comes back
    assert doc.path == path and doc.current_list().docs.tolist()[0] == "doc-A"


def test_a_first_session_starts_on_trec_evals_definition_and_a_saved_one_is_kept(qtbot, tmp_path, dialog_log):
    """With no saved definition the preset box names a tool (on Measure's own defaults it
    said "Custom": trec_eval's but with negative grades kept); a definition saved is restored."""
    from ndcg_gui.core.ndcg.presets import PRESETS

    first = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(first)
    assert first.document.measure == PRESETS["trec_eval"].at(first.document.k)  # (ties "trec" included)
    assert first.headline.definition.preset.currentText() == LABELS["trec_eval"]
    first.document.set_measure(Measure(negative="keep", gain="exponential"))
    first.save_settings()
    second = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(second)
    assert second.document.measure == Measure(negative="keep", gain="exponential").at(second.document.k)


def test_the_definitions_reasons_wrap_in_view(qtbot, window):
    """"Why it differs" is the point of the Definitions tab: the column fills the room the others
    leave and its reasons wrap onto more lines (elided, "same figure: negative grad…" said nothing)."""
    with resource_path("examples/sample.run") as run, resource_path("examples/sample.qrels") as qrels:
        assert window.files.open(run, qrels, ask=False)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    window.document.set_current_query("412")
    why = window.why
    why.setCurrentIndex(next(i for i in range(why.count()) if why.tabText(i) == "Definitions"))
    view = why.definitions_view
    qtbot.waitUntil(lambda: view.isVisible())
    qtbot.wait(50)
    last = view.model().columnCount() - 1
    assert view.columnViewportPosition(last) + view.columnWidth(last) <= view.viewport().width()
    metrics = view.fontMetrics()
    for row in range(view.model().rowCount()):
        text = view.model().index(row, last).data()
        lines = -(-metrics.horizontalAdvance(text) // max(1, view.columnWidth(last) - 8))
        assert view.rowHeight(row) >= min(lines, 3) * metrics.height()  # every line of it shown


def test_a_broken_saved_value_is_dropped_alone(qtbot, tmp_path, dialog_log):
    """A hand-edited settings file with one bad value keeps the other saved fields, on trec_eval's
    definition (not Measure's defaults)."""
    from ndcg_gui.core.ndcg.presets import PRESETS

    path = tmp_path / "s.ini"
    path.write_text("[definition]\nideal=bogus\nbase=abc\ngain=exponential\n")
    window = MainWindow(settings=QSettings(str(path), QSettings.IniFormat))
    qtbot.addWidget(window)
    assert window.document.measure == PRESETS["trec_eval"].with_(gain="exponential").at(window.document.k)


def _type_list(window: MainWindow, text: str) -> None:
    """Typed as a person does: click into the grades box, type, press Enter (keys to the focus)."""
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    if not window.isVisible():
        window.show()
        window.activateWindow()
        QApplication.processEvents()
    window.quick_entry.setFocus()
    QApplication.processEvents()
    assert QApplication.focusWidget() is window.quick_entry
    QTest.keyClicks(QApplication.focusWidget(), text)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key_Return)


def _moved_texts(window: MainWindow) -> list[str]:
    model = window.ranking_model
    col = model.column_of("moved") if hasattr(model, "column_of") else \
        [model.headerData(c, Qt.Horizontal) for c in range(model.columnCount())].index("Moved")
    return [model.index(r, col).data(Qt.ToolTipRole) for r in range(model.rowCount())]


def _change(window: MainWindow) -> str:
    import re

    return re.sub(r"<[^>]+>", "", window.headline.change.text())


def test_a_typed_list_is_the_new_list_as_loaded(window):
    """Issue 19.1: the typed list, not the example it replaced, is what 'vs as loaded', the Moved
    column and Reset refer to; Ctrl+Z takes back the typed list as one step."""
    typed = [2, 0, 3, 1, 0, 2, 1, 0, 0, 3, 1]
    _type_list(window, " ".join(map(str, typed)))
    doc = window.document
    assert doc.current_list().grades.tolist() == typed
    assert "vs as loaded" not in window.headline.change.text()
    assert all(tip == "Where it was loaded" for tip in _moved_texts(window))
    window.ranking_view.select_rows(2, 1)  # the first 3 up to the top
    window.actions.move_up.trigger()
    window.actions.move_up.trigger()
    moved = [3, 2, 0, 1, 0, 2, 1, 0, 0, 3, 1]
    assert doc.current_list().grades.tolist() == moved
    expected = ndcg_at(moved, Measure(k=10)) - ndcg_at(typed, Measure(k=10))
    assert f"▲ {expected:+.4f} vs as loaded ({ndcg_at(typed, Measure(k=10)):.4f})" in _change(window)
    assert _moved_texts(window)[:3] == ["Rank 3 in the list as loaded", "Rank 1 in the list as loaded",
                                        "Rank 2 in the list as loaded"]
    window.editing.reset()
    assert doc.current_list().grades.tolist() == typed
    for _ in range(3):  # the reset, the two moves
        window.actions.undo.trigger()
    assert doc.current_list().grades.tolist() == typed
    window.actions.undo.trigger()  # the typed list, one step
    assert order(window) == list("ABCDE")


def test_after_file_new_nothing_is_compared_with_the_empty_list(window):
    """Issue 19.1: File ▸ New then a typed list: the typed list is the reference, and rows added to
    the empty list are not measured against 'NDCG 0 as loaded'."""
    window.actions.new.trigger()
    assert len(window.document.current_list()) == 0
    window.actions.add_row.trigger()
    assert len(window.document.current_list()) == 1
    assert "vs as loaded" not in window.headline.change.text()
    _type_list(window, "1 0 2")
    window.ranking_view.select_rows(2, 1)
    window.actions.move_up.trigger()
    assert f"vs as loaded ({ndcg_at([1, 0, 2], Measure(k=10)):.4f})" in _change(window)
    while window.document.undo_stack.canUndo():
        window.actions.undo.trigger()
    assert order(window) == list("ABCDE")  # nothing the person had is lost


def test_a_paste_into_a_new_list_is_the_list_as_loaded(window):
    window.actions.new.trigger()
    window.editing.paste_rows("3\n0\n2\n")
    assert window.document.current_list().grades.tolist() == [3, 0, 2]
    assert window.document.original_list().grades.tolist() == [3, 0, 2]
    assert not window.document.is_clean()  # typed in, never saved: asked about before it goes


def test_unsaved_changes_are_asked_about_before_the_files_are_picked(window, dialog_log, monkeypatch):
    """Issue 19.11: the question came after both the run and its qrels had been picked."""
    from PySide6.QtWidgets import QFileDialog

    window.document.reverse()  # an unsaved edit
    events = []
    monkeypatch.setattr(dialogs, "ask_unsaved",
                        lambda _parent, what: events.append("asked") or dialogs.Unsaved.CANCEL)
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **kw: events.append("picked") or ("", "")))
    window.files.open_with_qrels_dialog()
    window.files.open_dialog()
    assert events == ["asked", "asked"]  # cancelled at the question: no file dialog at all


def test_save_as_of_a_parquet_file_does_not_propose_an_existing_csv(window, tmp_path, monkeypatch):
    import pandas as pd
    from PySide6.QtWidgets import QFileDialog

    path = tmp_path / "lists.parquet"
    pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "grade": [1.0, 0.0]}).to_parquet(path)
    (tmp_path / "lists.csv").write_text("doc,grade\nmine,3\n")
    assert window.files.open(path, ask=False)
    offered = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda _p, _t, start, *a: offered.append(start) or ("", "")))
    window.files.save_as()
    assert offered == [str(tmp_path / "lists-edited.csv")]


def test_without_qrels_the_ideal_box_does_not_claim_all_judged_documents(window, sample_paths):
    """Issue 19.11: 'Ideal from: all judged docs' stood beside 'the ideal comes from the list's own
    grades' for a list without qrels."""
    box = window.headline.definition.ideal
    assert "all judged" not in box.currentText() and not box.isEnabled()
    assert "(no qrels: the list's own)" in window.headline.describe.text()
    assert window.files.open(*sample_paths, ask=False)
    assert box.currentText() == "all judged docs" and box.isEnabled()
    assert "no qrels" not in window.headline.describe.text()


def test_a_definition_kept_from_the_last_session_is_said_until_another_is_set(qtbot, tmp_path, dialog_log):
    """Issue 34.4: a session ended at k = 6; the next opened the example and a CSV at NDCG@6 and
    nothing said so (ndcg-inspect scores at k = 10). The headline says where k came from."""
    from ndcg_gui.core.ndcg.measure import DEFAULT_K
    from ndcg_gui.core.ndcg.presets import PRESETS

    def window_of(settings_file: str) -> MainWindow:
        win = MainWindow(settings=QSettings(str(tmp_path / settings_file), QSettings.IniFormat))
        qtbot.addWidget(win)
        return win

    def caveats(win: MainWindow) -> str:
        return win.headline.warnings.toolTip()

    first = window_of("s.ini")
    assert "last session" not in caveats(first)  # a first session: nothing kept
    first.document.set_measure(k=6)
    first.save_settings()
    second = window_of("s.ini")
    assert second.document.k == 6
    said = caveats(second)
    assert "k = 6 kept from the last session" in said and f"k = {DEFAULT_K}" in said, said
    second.document.set_lists({"q": RankedList.from_grades([1, 3])})  # another list: still k = 6
    assert "k = 6 kept from the last session" in caveats(second)  # still said
    second.document.set_measure(k=5)  # the person's own k: no longer the last session's
    assert "last session" not in caveats(second)
    second.document.set_measure(k=6)
    assert "last session" not in caveats(second)
    # A definition kept (k as a first session's) is named too.
    sklearn = PRESETS["sklearn"]
    second.document.set_measure(sklearn.at(DEFAULT_K))
    second.save_settings()
    third = window_of("s.ini")
    assert "the sklearn definition kept from the last session" in caveats(third), caveats(third)
    assert "k = " not in caveats(third).split("kept")[0]
