"""QueryScores follows the document: its per-query frame always equals scoring the document's
lists (edits included) from scratch with `evaluate`."""

import dataclasses

import pandas as pd
import pytest
from PySide6.QtCore import Qt

from ndcg_gui.assets import resource_path
from ndcg_gui.core.analysis import workspace_report
from ndcg_gui.core.lists.rescoring import score
from ndcg_gui.core.ndcg.presets import preset
from ndcg_gui.core.reading import load
from ndcg_gui.qt.document import query_scores
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.document.query_scores import QueryScores
from ndcg_gui.qt.models.query_model import COL_NDCG


@pytest.fixture(scope="module")
def sample():
    with resource_path("examples/sample.run") as run, resource_path("examples/sample.qrels") as qrels:
        return load(run, qrels)


@pytest.fixture
def doc(qtbot, sample):
    d = Document()
    d.set_dataset(sample)
    return d


def from_scratch(doc):
    return doc.lists_for_saving().evaluate(doc.measure.with_(empty="zero"))


def test_a_new_dataset_is_scored(qtbot, sample):
    doc = Document()
    scores = QueryScores(doc)
    with qtbot.waitSignal(doc.changed, check_params_cb=lambda c: c.scores):
        doc.set_dataset(sample)
    pd.testing.assert_frame_equal(scores.result, from_scratch(doc))
    assert len(scores.result) == 25


def test_edits_undo_and_switching_keep_the_scores_exact(qtbot, doc):
    scores = QueryScores(doc)
    before = scores.result.copy()
    doc.set_current_query("405")
    with qtbot.waitSignal(doc.changed, check_params_cb=lambda c: c.scores):
        doc.sort_ideal()
    pd.testing.assert_frame_equal(scores.result, from_scratch(doc))
    changed = scores.result.index[(scores.result["ndcg"] != before["ndcg"])]
    assert list(changed) == ["405"]
    doc.set_current_query("412")
    doc.move_rows(5, 1, 0)
    doc.set_grade(0, 2.0)
    pd.testing.assert_frame_equal(scores.result, from_scratch(doc))
    assert set(doc.edited_queries()) == {"405", "412"}
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    pd.testing.assert_frame_equal(scores.result, from_scratch(doc))
    assert scores.result.loc["412", "ndcg"] == before.loc["412", "ndcg"]
    doc.set_current_query("405")
    assert scores.result.loc["405", "ndcg"] != before.loc["405", "ndcg"]  # its edit was kept


@pytest.mark.parametrize("change", [{"k": 3}, {"measure": preset("ranx_burges")},
                                    {"measure": preset("sklearn"), "ties": "average"}])
def test_a_new_definition_rescores_every_query_edits_included(qtbot, doc, change):
    scores = QueryScores(doc)
    doc.set_current_query("401")
    doc.reverse()
    with qtbot.waitSignal(doc.changed, check_params_cb=lambda c: c.scores):
        doc.set_measure(**change)
    pd.testing.assert_frame_equal(scores.result, from_scratch(doc))


def test_an_offered_result_is_used_once_and_only_for_its_definition(qtbot, sample, monkeypatch):
    doc = Document()
    scores = QueryScores(doc)
    calls = []
    monkeypatch.setattr(workspace_report, "score", lambda *a, **kw: calls.append(a) or score(*a, **kw))
    offered = score(sample, doc.measure)
    scores.offer(sample, doc.state.measure, offered)
    doc.set_dataset(sample)
    assert calls == [] and scores.result is offered
    scores.offer(sample, dataclasses.replace(doc.state.measure, k=3), offered)  # another k: not usable
    doc.set_dataset(sample)
    pd.testing.assert_frame_equal(scores.result, from_scratch(doc))
    assert len(calls) == 1


def test_one_query_is_rescored_when_read_not_on_every_edit(qtbot, monkeypatch):
    """With one query no panel shows the scores: an edit costs no scoring, and the frame read
    afterwards still equals scoring the edited list from scratch."""
    from ndcg_gui.core.lists.ranked_list import RankedList

    doc = Document()
    doc.set_lists({"q": RankedList.from_grades([3, 2, 3, 0, 1])})
    scores = QueryScores(doc)
    calls = []
    real = workspace_report.with_list_rescored
    monkeypatch.setattr(workspace_report, "with_list_rescored",
                        lambda *a, **kw: calls.append(1) or real(*a, **kw))
    doc.move_rows(4, 1, 0)
    doc.set_grade(0, 3)
    assert calls == []
    pd.testing.assert_frame_equal(scores.result, from_scratch(doc))
    assert calls == [1]  # both edits, one rescore


# ---- a big file: every query scored again in a worker thread --------------------------------------
@pytest.fixture
def background(monkeypatch):
    """Every document of several queries counts as big: full scorings run in the worker thread."""
    monkeypatch.setattr(query_scores, "BACKGROUND_ROWS", 0)


def test_a_new_definition_is_scored_in_the_background_edits_included(qtbot, doc, background):
    scores = QueryScores(doc)
    before = scores.result.copy()
    assert not scores.pending and scores.k == 10
    doc.set_current_query("401")
    doc.reverse()
    doc.set_measure(k=3)
    assert scores.pending
    assert scores.k == 10  # what `result` holds until the new scoring lands
    assert scores.result.index.equals(before.index)
    doc.set_current_query("405")
    doc.sort_ideal()  # an edit while the worker runs: rescored on top of its result
    assert scores.wait()
    assert not scores.pending and scores.k == 3
    pd.testing.assert_frame_equal(scores.result, from_scratch(doc))


def test_a_scoring_overtaken_by_another_change_is_dropped(qtbot, doc, background, monkeypatch):
    scores = QueryScores(doc)
    scored = []
    real = query_scores.score_state
    monkeypatch.setattr(query_scores, "score_state", lambda state: scored.append(state.k) or real(state))
    for k in (3, 4):  # before the event loop runs: the worker starts once, on k = 4
        doc.set_measure(k=k)
    qtbot.waitUntil(lambda: scored == [4])
    for k in (5, 6, 7):  # while it scores k = 4
        doc.set_measure(k=k)
    assert scores.wait()
    assert scored == [4, 7]  # then it took the document as it is
    pd.testing.assert_frame_equal(scores.result, from_scratch(doc))
    assert scores.k == 7


def test_a_pending_scoring_of_another_file_shows_no_rows(qtbot, sample, background):
    from ndcg_gui.core.lists.ranked_list import RankedList

    doc = Document()
    doc.set_lists({"a": RankedList.from_grades([1, 0]), "b": RankedList.from_grades([0, 2])})
    scores = QueryScores(doc)
    assert list(scores.result.index) == ["a", "b"]
    doc.set_dataset(sample)
    assert scores.pending and len(scores.result) == 0  # not the queries of the other file
    assert scores.wait()
    pd.testing.assert_frame_equal(scores.result, from_scratch(doc))


def test_the_query_panel_is_greyed_while_its_scores_are_of_another_definition(qtbot, settings, sample,
                                                                              background):
    from ndcg_gui.qt.window.main_window import MainWindow

    window = MainWindow(settings=settings)
    qtbot.addWidget(window)
    window.document.set_dataset(sample)
    assert window.scores.wait()
    assert window.query_panel.isEnabled()
    model = window.query_panel.model

    def ndcg_header() -> str:
        return model.headerData(COL_NDCG, Qt.Orientation.Horizontal)

    assert ndcg_header() == "NDCG@10"
    window.document.set_measure(k=3)
    assert not window.query_panel.isEnabled()
    assert ndcg_header() == "NDCG@10"  # the figures shown are still those at 10, greyed
    assert window.scores.wait()
    assert window.query_panel.isEnabled() and ndcg_header() == "NDCG@3"
    pd.testing.assert_frame_equal(window.scores.result, from_scratch(window.document))
    window.document.undo_stack.setClean()
