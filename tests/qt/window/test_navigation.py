"""Navigation: the next or previous query in the query table's order, the worst query (the core's
answer among the queries listed, not the view's sorting), the next relevant document."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ndcg_gui.core.analysis.workspace_report import WorkspaceReport


@pytest.fixture
def nav(opened):
    return opened.navigation


def test_next_and_previous_follow_the_table_as_sorted_and_filtered(nav, opened):
    doc, panel = opened.document, opened.query_panel
    panel.filter_edit.setText("41")
    listed = panel.visible_queries()
    assert listed and all("41" in q for q in listed)
    doc.set_current_query(listed[0])
    assert nav.step_query(1) and doc.current_query == listed[1]
    assert nav.step_query(-1) and doc.current_query == listed[0]
    assert not nav.step_query(-1) and doc.current_query == listed[0]  # the first: nowhere to go


def test_the_worst_query_is_the_cores_among_those_listed(nav, opened):
    doc, panel = opened.document, opened.query_panel
    panel.filter_edit.setText("42")
    listed = panel.visible_queries()
    expected, _ = WorkspaceReport(doc.state).worst_query(listed)
    scores = WorkspaceReport(doc.state).scores.loc[listed]
    fit = scores[(scores["n_retrieved"] > 0) & ~scores["undefined"].astype(bool)]
    assert expected == fit["ndcg"].idxmin()
    assert nav.worst_query()
    assert doc.current_query == expected
    shown = pd.Series([opened.scores.result.at[q, "ndcg"] for q in panel.visible_queries()])
    assert shown.is_monotonic_increasing  # sorted by NDCG, lowest first


def test_the_worst_query_follows_an_edit(nav, opened):
    doc = opened.document
    assert nav.worst_query()
    worst = doc.current_query
    doc.sort_ideal()  # the worst query made ideal: another one is the worst now
    assert nav.worst_query()
    assert doc.current_query != worst
    assert doc.current_query == WorkspaceReport(doc.state).worst_query()[0]


def test_next_relevant_document_steps_over_the_others(nav, opened):
    grades = np.nan_to_num(opened.document.current_list().grades)
    relevant = np.flatnonzero(grades > 0)
    opened.ranking_view.select_rows(0, 1)
    for row in relevant[relevant > 0][:3]:
        assert nav.step_relevant(1)
        assert opened.ranking_view.current_row() == row
