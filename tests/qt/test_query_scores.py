"""QueryScores follows the document: its per-query frame always equals scoring the document's
lists (edits included) from scratch with `evaluate`."""

import pandas as pd
import pytest

from ndcg_gui.assets import resource_path
from ndcg_gui.core.config import MetricConfig
from ndcg_gui.core.reading import load
from ndcg_gui.core.summary import score
from ndcg_gui.qt.document import query_scores
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.document.query_scores import QueryScores


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
    return doc.lists_for_saving().evaluate(doc.k, doc.config, ties=doc.ties, missing="zero")


def test_a_new_dataset_is_scored(qtbot, sample):
    doc = Document()
    scores = QueryScores(doc)
    with qtbot.waitSignal(scores.changed):
        doc.set_dataset(sample)
    pd.testing.assert_frame_equal(scores.result, from_scratch(doc))
    assert len(scores.result) == 25


def test_edits_undo_and_switching_keep_the_scores_exact(qtbot, doc):
    scores = QueryScores(doc)
    before = scores.result.copy()
    doc.set_current_query("405")
    with qtbot.waitSignal(scores.changed):
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


@pytest.mark.parametrize("change", [{"k": 3}, {"config": MetricConfig.preset("ranx_burges")},
                                    {"config": MetricConfig.preset("sklearn"), "ties": "average"}])
def test_a_new_definition_rescores_every_query_edits_included(qtbot, doc, change):
    scores = QueryScores(doc)
    doc.set_current_query("401")
    doc.reverse()
    with qtbot.waitSignal(scores.changed):
        doc.set_definition(**change)
    pd.testing.assert_frame_equal(scores.result, from_scratch(doc))


def test_an_offered_result_is_used_once_and_only_for_its_definition(qtbot, sample, monkeypatch):
    doc = Document()
    scores = QueryScores(doc)
    calls = []
    monkeypatch.setattr(query_scores, "score", lambda *a, **kw: calls.append(a) or score(*a, **kw))
    offered = score(sample, doc.k, doc.config, doc.ties)
    scores.offer(sample, doc.k, doc.config, doc.ties, offered)
    doc.set_dataset(sample)
    assert calls == [] and scores.result is offered
    scores.offer(sample, 3, doc.config, doc.ties, offered)  # another k: not usable
    doc.set_dataset(sample)
    assert len(calls) == 1
    pd.testing.assert_frame_equal(scores.result, from_scratch(doc))


def test_one_query_is_rescored_when_read_not_on_every_edit(qtbot, monkeypatch):
    """With one query no panel shows the scores: an edit costs no scoring, and the frame read
    afterwards still equals scoring the edited list from scratch."""
    from ndcg_gui.core.ranked_list import RankedList

    doc = Document()
    doc.set_lists({"q": RankedList.from_grades([3, 2, 3, 0, 1])})
    scores = QueryScores(doc)
    calls = []
    real = query_scores.with_list_rescored
    monkeypatch.setattr(query_scores, "with_list_rescored",
                        lambda *a, **kw: calls.append(1) or real(*a, **kw))
    doc.move_rows(4, 1, 0)
    doc.set_grade(0, 3)
    assert calls == []
    pd.testing.assert_frame_equal(scores.result, from_scratch(doc))
    assert calls == [1]  # both edits, one rescore
