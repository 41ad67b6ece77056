"""The query browser inside the main window: picking a query opens it, edits are kept per query with
their undo, the panel follows edits and definition changes, big files load in the background (and a
cancel leaves the open document as it was), and the summary export equals the panel."""

import pandas as pd
import pytest
from PySide6.QtCore import Qt

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.reading import load
from ndcg_gui.qt.models.query_model import COL_EDITED, COL_NDCG, COL_QUERY, EDITED_MARK
from ndcg_gui.qt.widgets import dialogs


@pytest.fixture
def errors(monkeypatch):
    shown = []
    monkeypatch.setattr(dialogs, "show_error", lambda _p, title, message, details=None: shown.append(message))
    return shown


@pytest.fixture
def loaded(window, errors, sample_paths):
    """The window (tests/qt/conftest.py) on the sample run and its qrels."""
    run, qrels = sample_paths
    window.resize(1280, 800)
    window.document.set_dataset(load(run, qrels), run, qrels)
    window.show()
    return window


def ndcg_cell(panel, query):
    return panel.model.index(panel.model.row_of(query), COL_NDCG).data()


def mark(panel, query):
    return panel.model.index(panel.model.row_of(query), COL_EDITED).data()


def test_the_panel_shows_every_query_and_hides_for_one(qtbot, loaded):
    browser, doc = loaded.query_browser, loaded.document
    qtbot.waitUntil(lambda: loaded.query_dock.isVisible())
    assert loaded.query_dock.widget() is browser.panel
    assert browser.panel.model.rowCount() == len(doc.evaluate())
    result = doc.evaluate()
    for q in ("401", "417", "424"):
        assert ndcg_cell(browser.panel, q) == f"{result.loc[q, 'ndcg']:.4f}"
    doc.set_lists({"only": RankedList.from_grades([3, 2, 1])})
    assert not loaded.query_dock.isVisible()


def test_picking_a_query_opens_it_with_its_judged_pool(qtbot, loaded):
    panel, doc = loaded.query_panel, loaded.document
    qtbot.waitExposed(loaded)
    index = panel.proxy.mapFromSource(panel.model.index(panel.model.row_of("409"), COL_QUERY))
    panel.table.scrollTo(index)
    rect = panel.table.visualRect(index)
    qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert doc.current_query == "409"
    assert doc.current_list() == doc.dataset.ranked_list("409")
    assert doc.current_list().unretrieved  # the judged but unretrieved documents came along
    assert loaded.ranking_model.rowCount() == len(doc.current_list())


def test_edits_are_kept_per_query_with_undo_and_marked(qtbot, loaded):
    panel, doc = loaded.query_panel, loaded.document
    before = ndcg_cell(panel, "405")
    panel.set_current_query("405")
    doc.set_current_query("405")
    doc.sort_ideal()
    assert mark(panel, "405") == EDITED_MARK
    assert ndcg_cell(panel, "405") != before
    pd.testing.assert_frame_equal(loaded.scores.result, doc.evaluate())
    doc.set_current_query("410")
    assert panel.current_query() == "410"
    doc.reverse()
    doc.set_current_query("405")
    assert doc.current_list() != doc.dataset.ranked_list("405")  # the sort is still there
    doc.undo_stack.undo()  # the last step, 410's reverse: undone, with 410 shown
    assert doc.current_query == "410" and panel.current_query() == "410"
    assert mark(panel, "410") == "" and mark(panel, "405") == EDITED_MARK
    doc.undo_stack.undo()
    assert mark(panel, "405") == "" and ndcg_cell(panel, "405") == before


def test_k_and_definition_changes_rescore_the_panel(qtbot, loaded):
    panel, doc = loaded.query_panel, loaded.document
    doc.set_measure(k=3)
    result = doc.evaluate()
    assert panel.model.headerData(COL_NDCG, Qt.Orientation.Horizontal) == "NDCG@3"
    assert ndcg_cell(panel, "401") == f"{result.loc['401', 'ndcg']:.4f}"
    assert panel.mean_label.text().startswith(f"Mean NDCG@3 = {result['ndcg'].mean():.4f}")


def test_the_summary_export_has_the_panels_numbers(qtbot, loaded, tmp_path):
    doc = loaded.document
    doc.set_current_query("402")
    doc.reverse()
    out = tmp_path / "summary.csv"
    assert loaded.exports.export_summary(out)
    written = pd.read_csv(out, dtype={"query": str}).set_index("query")
    panel = loaded.query_panel
    for q in written.index:
        assert f"{written.loc[q, 'ndcg']:.4f}" == ndcg_cell(panel, q)
    assert len(written) == panel.model.rowCount()


# ---- saving a run with its qrels ------------------------------------------------------------
@pytest.fixture
def own_copy(window, sample_paths, tmp_path):
    """The sample run + qrels copied where the test may overwrite them, opened in the window."""
    run, qrels = (tmp_path / p.name for p in sample_paths)
    for src, dst in zip(sample_paths, (run, qrels), strict=True):
        dst.write_bytes(src.read_bytes())
    assert window.files.open(run, qrels, ask=False)
    window.show()
    return window, run, qrels


def test_save_of_a_run_keeps_grade_edits_in_its_qrels_and_its_tag(own_copy, monkeypatch, dialog_log):
    """Edited grades replace the loaded qrels only when the person says so, after a backup copy."""
    window, run, qrels = own_copy
    original = qrels.read_bytes()
    monkeypatch.setattr(dialogs, "ask_judgments", lambda _p, loaded, backup, beside: "loaded")
    doc = window.document
    doc.set_current_query("403")
    doc.set_grade(0, 3)  # a judgment changed
    doc.move_rows(5, 1, 1)  # and the order
    expected = doc.evaluate()
    assert window.files.save()
    assert window.document.is_clean() and not window.isWindowModified()
    assert (qrels.parent / f"{qrels.name}.bak").read_bytes() == original
    reopened = load(run, qrels)
    pd.testing.assert_frame_equal(reopened.evaluate(doc.measure), expected)
    assert reopened.ranked_list("403").grades[0] == 3
    assert {line.split()[5] for line in run.read_text().splitlines()} == {"sample"}


def test_edited_judgments_go_to_a_new_file_or_the_save_is_cancelled(own_copy, monkeypatch):
    window, run, qrels = own_copy
    original_run, original_qrels = run.read_bytes(), qrels.read_bytes()
    doc = window.document
    doc.set_current_query("403")
    doc.set_grade(0, 3)
    monkeypatch.setattr(dialogs, "ask_judgments", lambda _p, loaded, backup, beside: None)
    assert not window.files.save()  # cancelled: nothing written, still unsaved
    assert run.read_bytes() == original_run and qrels.read_bytes() == original_qrels
    assert not doc.is_clean()
    monkeypatch.setattr(dialogs, "ask_judgments", lambda _p, loaded, backup, beside: "beside")
    assert window.files.save()
    assert qrels.read_bytes() == original_qrels  # the judgments file opened is untouched
    beside = run.with_suffix(".qrels") if run.with_suffix(".qrels") != qrels else \
        run.with_name(f"{run.stem}-judgments.qrels")
    assert doc.qrels_path == beside and load(run, beside).ranked_list("403").grades[0] == 3


def test_save_of_a_reordered_run_leaves_its_qrels_alone(own_copy, dialog_log):
    window, run, qrels = own_copy
    before = qrels.read_bytes()
    window.document.reverse()
    assert window.files.save()
    assert qrels.read_bytes() == before
    assert load(run, qrels).ranked_list("401").docs[0] == window.document.current_list().docs[0]


def test_saving_lists_reordered_by_hand_asks_once_before_writing_new_scores(own_copy, monkeypatch):
    window, run, _qrels = own_copy
    original = run.read_bytes()
    asked = []
    answer = None
    monkeypatch.setattr(dialogs, "ask_rescore",
                        lambda _p, queries, target, rank=False: asked.append(queries) or answer)
    doc = window.document
    doc.set_current_query("402")
    doc.move_rows(3, 1, 0)
    assert not window.files.save()  # cancelled: the file keeps its scores
    assert run.read_bytes() == original and not doc.is_clean()
    answer = "scores"
    assert window.files.save()
    assert asked == [["402"], ["402"]]
    doc.set_grade(0, 2)  # the same list again: not asked again
    assert window.files.save()
    doc.set_current_query("403")
    doc.reverse()  # another list: asked for it
    assert window.files.save()
    # 402 was shown with the scores it was saved with (issue 34.5): in its order, nothing to ask.
    assert asked[-1] == ["403"] and len(asked) == 3
    scores = [float(line.split()[4]) for line in run.read_text().splitlines() if line.startswith("402 ")]
    assert len(scores) > 1 and scores == list(range(len(scores), 0, -1))
    doc.set_current_query("404")
    doc.reverse()
    assert window.files.save_to(run.with_name("copy.csv"), ".csv")  # a CSV keeps rank and scores
    assert len(asked) == 3  # not asked


def test_save_as_csv_writes_the_judgments_beside_it(own_copy, tmp_path):
    """A CSV cannot hold the judged documents a list did not retrieve (nor judged queries without
    results): they go to a qrels file beside it, so reopening the pair gives the same figures."""
    window, _run, _qrels = own_copy
    doc = window.document
    doc.set_grade(2, 2)
    expected = doc.evaluate()
    out = tmp_path / "edited.csv"
    assert window.files.save_to(out, ".csv")
    beside = tmp_path / "edited.qrels"
    assert beside.exists() and doc.qrels_path == beside and doc.path == out
    pd.testing.assert_frame_equal(load(out, beside).evaluate(doc.measure), expected)
    assert window.files.recent.entries[0] == f"{out.resolve()}\n{beside.resolve()}"


# ---- big files: the background path (forced on for the small sample) -------------------------
@pytest.fixture
def background(window):
    window.loader._process = True
    return window


def test_a_big_file_opens_in_the_background_with_progress(qtbot, background, sample_paths, errors):
    run, qrels = sample_paths
    window, doc = background, background.document
    with qtbot.waitSignal(window.loader.task.finished, timeout=30000, check_params_cb=lambda r: r.loaded):
        assert window.files.open(run, qrels, query="412")
        assert not window.progress.isHidden()
        assert doc.dataset.path != run  # nothing changed yet
    assert doc.dataset.path == run and doc.current_query == "412"
    assert window.progress.isHidden()
    pd.testing.assert_frame_equal(window.scores.result, doc.evaluate())
    assert errors == []


def test_cancelling_a_background_load_leaves_the_document_untouched(qtbot, background, sample_paths):
    run, qrels = sample_paths
    window, doc = background, background.document
    doc.set_current_query(doc.queries()[0])
    doc.new_from_grades([1, 2, 3])  # an unsaved edit that must survive
    dataset, query, lst = doc.dataset, doc.current_query, doc.current_list()
    window.files.open(run, qrels)
    with qtbot.waitSignal(window.loader.task.finished, timeout=1000, check_params_cb=lambda r: r.cancelled):
        window.progress.cancel_button.click()
    assert window.loader.wait(5000)
    qtbot.wait(100)
    assert doc.dataset is dataset and doc.current_query == query and doc.current_list() == lst
    assert window.progress.isHidden()


def test_a_bad_big_file_says_why_and_changes_nothing(qtbot, background, tmp_path, errors):
    bad = tmp_path / "bad.run"
    bad.write_text("1 Q0 a 1 2.0 t\n1 Q0 b 2 high t\n")
    window, doc = background, background.document
    dataset = doc.dataset
    with qtbot.waitSignal(window.loader.task.finished, timeout=30000):
        window.files.open(bad)
    assert errors and errors[0].startswith("bad.run:2:")
    assert doc.dataset is dataset


def test_command_line_big_file_opens_in_the_background_at_its_query(qtbot, background, sample_paths):
    import argparse

    from ndcg_gui.qt.app import apply_options

    run, qrels = sample_paths
    options = argparse.Namespace(file=str(run), qrels=str(qrels), query="412", k=5, preset="trec_eval",
                                 gain=None, discount=None, screenshot=None)
    window, doc = background, background.document
    with qtbot.waitSignal(window.loader.task.finished, timeout=30000, check_params_cb=lambda r: r.loaded):
        assert apply_options(background, options) is None
    assert doc.current_query == "412" and doc.k == 5
    assert window.query_panel.current_query() == "412"
    pd.testing.assert_frame_equal(window.scores.result, doc.evaluate())


def test_the_panel_says_which_queries_it_cannot_score(loaded):
    """Query 426 has results but no judgment: not listed (as trec_eval), and the panel says so."""
    panel = loaded.query_panel
    assert panel.model.row_of("426") == -1
    assert "1 query without judgments, not listed" in panel.policy_note.text()


def test_save_as_never_overwrites_a_file_it_was_not_given(own_copy):
    """The judgments go beside the chosen file under a free name: here sample.qrels (the loaded
    qrels) is taken, so they go to sample-judgments.qrels and the loaded file is untouched."""
    window, run, qrels = own_copy
    before = qrels.read_bytes()
    window.document.set_grade(0, 2)
    out = run.with_suffix(".csv")
    assert window.files.save_to(out, ".csv")
    assert qrels.read_bytes() == before
    assert window.document.qrels_path == run.with_name("sample-judgments.qrels")
    assert load(out, window.document.qrels_path).ranked_list("401").grades[0] == 2


def test_save_keeps_a_csv_qrels_as_it_is(window, tmp_path):
    run = tmp_path / "r.run"
    run.write_text("1 Q0 dA 1 2 t\n1 Q0 dB 2 1 t\n")
    qrels = tmp_path / "j.csv"
    qrels.write_text("query,doc,grade,assessor\n1,dA,2,ann\n1,dB,0,bob\n")
    before = qrels.read_bytes()
    assert window.files.open(run, qrels, ask=False)
    window.document.set_grade(1, 1)
    assert window.files.save()
    assert qrels.read_bytes() == before  # not rewritten as TREC lines
    beside = window.document.qrels_path
    assert beside != qrels and load(run, beside).ranked_list("1").grades.tolist() == [2, 1]


def test_a_big_files_query_table_is_filled_in_a_frame_of_its_own(qtbot, loaded, monkeypatch, sample_paths):
    """Past FILL_LATER queries the notice that shows another file leaves the query table to the
    next frame (500,000 rows: ~70 ms of their own); meanwhile the panel, still the old file's rows,
    takes no click; then it holds the new file's queries, the one shown selected."""
    from ndcg_gui.qt.window import query_browser

    panel, doc = loaded.query_browser.panel, loaded.document
    before = panel.model.rowCount()
    monkeypatch.setattr(query_browser, "FILL_LATER", 2)
    lists = {q: RankedList.from_grades(g) for q, g in (("a", [3, 0]), ("b", [1]), ("c", [0, 2, 1]))}
    doc.set_lists(lists)
    assert panel.model.rowCount() == before and not panel.isEnabled()
    qtbot.waitUntil(lambda: panel.isEnabled(), timeout=5000)
    assert sorted(panel.model.query_at(r) for r in range(panel.model.rowCount())) == ["a", "b", "c"]
    assert panel.current_query() == doc.current_query == "a"
    assert ndcg_cell(panel, "c") == f"{doc.evaluate().loc['c', 'ndcg']:.4f}"



def test_after_a_save_with_new_scores_the_window_shows_the_files_scores(window, tmp_path, dialog_log):
    """Issue 34.5: after saving a reordered CSV the window showed the old scores (8.5090 at rank 1)
    while the file said 15. The scores shown are the file's, read back by pandas; Undo gives the
    old ones back; the question names the query in quotes, in short sentences."""
    csv = tmp_path / "products.csv"
    csv.write_text("query,doc,score,grade,title\n" + "".join(
        f"how to descale a nespresso machine,P{i},{8.5 - i / 3:.4f},{i % 3},t{i}\n" for i in range(6)))
    assert window.files.open(csv, ask=False)
    doc = window.document
    before = doc.current_list()
    doc.move_rows(4, 1, 0)
    assert window.files.save()
    assert dialog_log[-1] == ("Rescore", "how to descale a nespresso machine")
    saved = pd.read_csv(csv)
    shown = doc.current_list()
    assert shown.docs.tolist() == saved["doc"].tolist()
    assert shown.scores.tolist() == saved["score"].astype(float).tolist() == [6, 5, 4, 3, 2, 1]
    model = window.ranking_model
    score = model.column("score")
    assert [float(model.index(r, score).data()) for r in range(model.rowCount())] == [6, 5, 4, 3, 2, 1]
    assert doc.is_clean()
    window.actions.undo.trigger()  # the scores it had, in the order given
    assert doc.current_list().scores.tolist() == before.scores[[4, 0, 1, 2, 3, 5]].tolist()
    assert not doc.is_clean()
    text = dialogs.rescore_question(["how to descale a nespresso machine"], csv)
    assert "“how to descale a nespresso machine”" in text and "products.csv" in text
    assert all(len(sentence) < 160 for sentence in text.replace("\n", " ").split(". "))
