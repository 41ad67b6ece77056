"""Runs compared by their rankings in the window (issue 35.3): the query table's RBO, Jaccard@k
and τ of the focus run against the baseline are the command line's (`ndcg-inspect A B --overlap
--format json`, no Qt); Go ▸ Most different first sorts by RBO, lowest first, ties by query id, and
opens the top query with both lists side by side; runs without any judgment open and compare
without raising, their NDCG columns saying "no judgments"; a big change of ranking with no change
of NDCG is marked as a judging hole; an edit moves the overlap of its query."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import Qt
from test_cli import cli

from ndcg_gui.core.analysis.runs.overlap import HOLE_TEXT
from ndcg_gui.core.lists.query_order import natural_key
from ndcg_gui.qt.models.query_model import COL_NDCG
from ndcg_gui.qt.models.query_runs import HOLE_WORD, OVERLAP, UNJUDGED
from ndcg_gui.qt.models.run_diff_model import COL_DOC, COL_RANK_A, COL_RANK_B


def from_cli(*args) -> pd.DataFrame:
    """The command line's per-query figures (rbo, jaccard, tau, and NDCG where judged)."""
    result = cli(*args, "--format", "json")
    assert result.returncode == 0, result.stderr
    return pd.DataFrame(json.loads(result.stdout)["queries"]).set_index("query")


def overlap_cells(panel) -> pd.DataFrame:
    """The table's overlap columns as shown (text), per query."""
    model = panel.model
    columns = [model.overlap_column(name) for name in OVERLAP]
    assert min(columns) > 0
    rows = {}
    for row in range(model.rowCount()):
        query = model.index(row, 1).data()
        rows[query] = [model.index(row, c).data() for c in columns]
    return pd.DataFrame.from_dict(rows, orient="index", columns=list(OVERLAP))


def text_of(value: float) -> str:
    return "–" if value is None or value != value else f"{round(value, 4) + 0.0:.4f}"


def assert_shown_as(panel, want: pd.DataFrame, holes=(), listed=None) -> None:
    """The table's overlap cells are `want`'s; `listed`: the queries the table lists (None: those
    of `want`), one no run returned showing none."""
    shown = overlap_cells(panel)
    assert set(shown.index) == set(want.index if listed is None else listed)
    for query in set(shown.index) - set(want.index):
        assert list(shown.loc[query]) == ["–", "–", "–"], query
    for query, row in want.loc[want.index.isin(shown.index)].iterrows():
        rbo = text_of(row["rbo"]) + (f" {HOLE_WORD}" if query in holes else "")
        assert list(shown.loc[query]) == [rbo, text_of(row["jaccard"]), text_of(row["tau"])], query


@pytest.fixture
def unjudged(qtbot, window, files):
    """The sample run and the second one, opened without qrels (File ▸ Compare runs without
    judgments…)."""
    run, _, second = files
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    assert window.compare.compare_unjudged([run, second])
    qtbot.waitUntil(lambda: window.comparison.active and not window.compare.busy(), timeout=20_000)
    return window


def test_runs_compared_with_qrels_show_the_command_lines_overlap_beside_ndcg(qtbot, opened, files):
    run, qrels, second = files
    opened.compare.add_run(second)
    opened.compare.flush()
    panel = opened.query_panel
    want = from_cli(run, second, "--qrels", qrels, "--overlap")
    got = opened.comparison.overlap
    pd.testing.assert_frame_equal(got[list(OVERLAP)].sort_index(),
                                  want[list(OVERLAP)].astype(float).sort_index(),
                                  check_names=False, rtol=0, atol=1e-12, check_index_type=False)
    holes = set(want.index[want["judging_hole"] == 1])
    # The table lists the judged queries: one no run returned (424) has no overlap, one without
    # judgments (426) is not listed (the query panel's rule, said under its mean).
    listed = opened.scores.result.index
    assert "424" in listed and "426" not in listed and "426" in want.index
    assert_shown_as(panel, want, holes, listed=list(listed))
    # With judgments and no judging hole the table keeps NDCG and Δ (RBO, Jaccard and τ hidden: the
    # side-by-side lists keep their room); the RBO cell's tooltip gives all three.
    model = panel.model
    assert not holes
    assert not panel.table.isColumnHidden(model.column_of("delta", "second"))
    assert panel.table.isColumnHidden(model.overlap_column("rbo"))
    assert panel.table.isColumnHidden(model.overlap_column("tau"))
    row = model.row_of("401")
    tip = model.index(row, model.overlap_column("rbo")).data(Qt.ItemDataRole.ToolTipRole)
    assert tip == (f"second against sample: RBO {want.at['401', 'rbo']:.4f}, Jaccard@10 "
                   f"{want.at['401', 'jaccard']:.4f}, Kendall's τ {want.at['401', 'tau']:.4f}")


def test_most_different_first_sorts_by_rbo_then_query_id_and_opens_the_top_query(qtbot, opened, files):
    run, qrels, second = files
    opened.compare.add_run(second)
    opened.compare.flush()
    panel = opened.query_panel
    assert opened.actions.most_different in next(
        a.menu() for a in opened.menuBar().actions() if a.text() == "&Go").actions()
    opened.actions.most_different.trigger()
    want = from_cli(run, second, "--qrels", qrels, "--overlap")
    listed = opened.scores.result.index
    rbo = want["rbo"].reindex(listed).fillna(np.inf)  # (no overlap: last)
    order = sorted(listed, key=lambda q: (rbo[q], natural_key(q)))
    assert panel.visible_queries() == order
    assert panel.table.horizontalHeader().sortIndicatorSection() == panel.model.overlap_column("rbo")
    assert opened.document.current_query == order[0]
    shown = opened.compare_pane.diff_model
    assert shown.names == ("sample", "second") and shown.rowCount() > 0


def test_runs_without_judgments_compare_by_their_rankings_most_different_first(qtbot, unjudged, files,
                                                                               dialog_log):
    run, _, second = files
    w, panel = unjudged, unjudged.query_panel
    assert not dialog_log and not w.comparison.judged
    assert w.comparison.names == ["sample", "second"]
    want = from_cli(run, second)  # (no qrels: the overlap alone)
    assert_shown_as(panel, want)
    model = panel.model
    # The NDCG columns say there are no judgments (not 0.0000); they and the Δ columns are left out
    # of the dock, so RBO, Jaccard and τ show whole.
    assert panel.table.isColumnHidden(COL_NDCG)
    for query in want.index:
        row = model.row_of(query)
        assert model.index(row, COL_NDCG).data() == UNJUDGED
        assert "no judgments" in model.index(row, COL_NDCG).data(Qt.ItemDataRole.ToolTipRole).lower()
    assert panel.table.isColumnHidden(model.column_of("delta", "second"))
    assert not panel.table.isColumnHidden(model.overlap_column("tau"))
    assert not panel.table.horizontalScrollBar().isVisible()
    # Comparing without judgments starts most different first; the line says the overlap.
    order = sorted(want.index, key=lambda q: (want.at[q, "rbo"], natural_key(q)))
    assert panel.visible_queries() == order
    means = want[list(OVERLAP)].mean()
    assert panel.compare_label.text() == (
        f"second against sample, no judgments: mean RBO {means['rbo']:.4f} · Jaccard@10 "
        f"{means['jaccard']:.4f} · τ {means['tau']:.4f} ({len(want)} queries) · most different: "
        f"{order[0]} (RBO {want.at[order[0], 'rbo']:.4f})")
    assert "without judgments" in w.statusBar().currentMessage()
    # The top query's lists side by side: each document's ranks in the two runs.
    w.actions.most_different.trigger()
    query = order[1] if order[0] == "404" else order[0]  # (404: second returned nothing)
    w.document.set_current_query(query)
    diff = w.compare_pane.diff_model
    ranks_a = {d: i + 1 for i, d in enumerate(w.comparison.list_for("sample", query).docs)}
    ranks_b = {d: i + 1 for i, d in enumerate(w.comparison.list_for("second", query).docs)}
    assert diff.rowCount() > 0
    for row in range(diff.rowCount()):
        doc = diff.index(row, COL_DOC).data()
        assert diff.index(row, COL_RANK_A).data() == str(ranks_a.get(doc, "–"))
        assert diff.index(row, COL_RANK_B).data() == str(ranks_b.get(doc, "–"))


def test_without_judgments_an_edit_moves_its_querys_overlap(qtbot, unjudged, files):
    import rbo

    w = unjudged
    w.document.set_current_query("401")
    before = w.comparison.overlap.at["401", "rbo"]
    w.document.move_rows(0, 1, 5)
    mine = list(w.document.current_list().docs)
    theirs = list(w.comparison.list_for("second", "401").docs)
    got = w.comparison.overlap.at["401", "rbo"]
    assert got != before and got == pytest.approx(rbo.RankingSimilarity(mine, theirs).rbo_ext(0.9), abs=1e-12)
    shown = overlap_cells(w.query_panel).loc["401", "rbo"]
    assert shown == text_of(got)


@pytest.fixture
def hole_files(tmp_path):
    """"hole": both runs put the one judged document first and nothing else in common (all
    unjudged): the NDCG is the same, the ranking is not. "moved": a real change of NDCG."""
    base = ["hole Q0 j1 1 9 a", *[f"hole Q0 u{i} {i + 2} {8 - i} a" for i in range(6)],
            "moved Q0 r1 1 9 a", "moved Q0 x1 2 8 a", "moved Q0 x2 3 7 a"]
    cand = ["hole Q0 j1 1 9 b", *[f"hole Q0 v{i} {i + 2} {8 - i} b" for i in range(6)],
            "moved Q0 x1 1 9 b", "moved Q0 x2 2 8 b", "moved Q0 r1 3 7 b"]
    paths = tmp_path / "base.run", tmp_path / "cand.run", tmp_path / "j.qrels"
    paths[0].write_text("\n".join(base) + "\n")
    paths[1].write_text("\n".join(cand) + "\n")
    paths[2].write_text("hole 0 j1 2\nmoved 0 r1 2\n")
    return paths


def test_a_big_change_of_ranking_with_no_change_of_ndcg_is_marked_a_judging_hole(qtbot, window,
                                                                                 hole_files):
    base, cand, qrels = hole_files
    assert window.files.open(base, qrels, ask=False)
    window.compare.add_run(cand)
    window.compare.flush()
    want = from_cli(base, cand, "--qrels", qrels, "--overlap")
    assert list(want.index[want["judging_hole"] == 1]) == ["hole"]
    model = window.query_panel.model
    rbo = model.overlap_column("rbo")
    cell = model.index(model.row_of("hole"), rbo)
    assert cell.data() == f"{want.at['hole', 'rbo']:.4f} {HOLE_WORD}"
    assert HOLE_TEXT in cell.data(Qt.ItemDataRole.ToolTipRole)
    table = window.query_panel.table  # (a hole: the RBO column shown beside NDCG and Δ, Jaccard and τ not)
    assert not table.isColumnHidden(rbo) and table.isColumnHidden(model.overlap_column("tau"))
    assert model.index(model.row_of("moved"), rbo).data() == f"{want.at['moved', 'rbo']:.4f}"
    lines = window.query_panel.compare_label.text().splitlines()
    assert lines[-1].startswith("cand: 1 query ranked very differently with the same NDCG")
    assert lines[-1].endswith(": hole")


def test_a_run_with_its_own_grades_but_no_qrels_is_still_refused(qtbot, window, tmp_path, dialog_log):
    """Grades in the open run but no qrels: the runs would be judged by nothing they share."""
    (tmp_path / "a.csv").write_text("query,doc,score,grade\nq,x,2,1\nq,y,1,0\n")
    assert window.files.open(tmp_path / "a.csv", ask=False)
    window.compare.add_run(tmp_path / "a.csv")
    assert dialog_log and dialog_log[-1][0] == "Add a run to compare" and not window.comparison.active


def test_without_judgments_no_ndcg_is_plotted_at_zero(qtbot, unjudged):
    """Every NDCG is 0 without judgments: the scatter is not drawn and the histogram has no bar,
    each saying why, rather than plotting zeros as if they were figures."""
    w = unjudged
    qtbot.waitUntil(lambda: w.comparison.active and w.comparison.overlap is not None, timeout=10000)
    w.compare.flush()
    pane, histogram = w.compare_pane, w.query_panel.histogram
    assert not pane.scatter.isVisibleTo(pane) and pane.hint.text().startswith("No judgments")
    plot = histogram.plot_widget()
    assert histogram.counts.sum() == 0 and plot.bottom_label.startswith("No judgments: no NDCG to plot")


def shown_labels(window) -> list[str]:
    """The text of every label the window shows (rich text as a person reads it)."""
    from PySide6.QtGui import QTextDocumentFragment
    from PySide6.QtWidgets import QLabel

    texts = []
    for label in window.findChildren(QLabel):
        if label.isVisibleTo(window) and label.text():
            texts.append(QTextDocumentFragment.fromHtml(label.text()).toPlainText())
    return texts


def test_without_judgments_no_figure_says_ndcg_0_where_it_is_unknown(qtbot, unjudged, files):
    """Issue 35: without judgments the headline, the query panel's mean and the status bar said
    "NDCG@10 0.0000", "mean NDCG@10 = 0.0000", "0 judged · 0 relevant" and the per-rank table's NDCG
    column 0s: a 0 that means "unknown". Now each says there are no judgments (the tooltip how to
    get them), and the headline shows what there is instead: the query's overlap of the runs, the
    command line's figures."""
    import re

    w = unjudged
    w.compare.flush()
    query = w.document.current_query
    headline = w.headline
    assert headline.ndcg.text().count("no judgments") == 1 and "0.0000" not in headline.ndcg.text()
    assert "qrels" in headline.ndcg.toolTip()
    assert not headline.dcg.isVisible() and not headline.idcg.isVisible()
    want = from_cli(*files[::2]).loc[query]
    assert headline.change.text() == (f"second against sample: RBO {text_of(want['rbo'])} · J@10 "
                                      f"{text_of(want['jaccard'])} · τ {text_of(want['tau'])}")
    assert headline.warnings.toolTip() == ""  # (IDCG = 0, unjudged as gain 0: of figures not shown)
    method = w.compare_pane.method_text.toPlainText()  # (how RBO, J and τ are made; no judging hole)
    assert method.startswith("No judgments") and "RBO" in method and "hole (with judgments)" not in method
    panel = w.query_panel
    listed = len(panel.visible_queries())
    assert panel.mean_label.text() == f"sample: no judgments, no mean NDCG@10 ({listed} queries)"
    assert "qrels" in panel.mean_label.toolTip()
    assert not panel.policy_box.isVisible() and not panel.policy_note.isVisible()
    assert not panel.histogram.isVisible()
    counts = w.status_counts.text()
    assert "no judgments" in counts and "judged ·" not in counts and "relevant" not in counts
    metrics = w.metrics_model
    ndcg = next(c for c in range(metrics.columnCount()) if metrics.headerData(c, Qt.Horizontal) == "NDCG")
    cells = {metrics.index(r, ndcg).data() for r in range(metrics.rowCount())}
    assert cells == {"–"} and "No judgments" in metrics.index(0, ndcg).data(Qt.ItemDataRole.ToolTipRole)
    w.plot.show_rank(1)  # (the curves' readout, as the mouse over rank 1 shows it)
    readout = w.plot.readout.text().replace("\xa0", " ")
    assert "NDCG – (no judgments)" in readout and "band" not in readout
    for text in shown_labels(w):  # nowhere a mean or an NDCG of 0 for want of judgments
        assert not re.search(r"NDCG\S*\s*=?\s*0\.0000", text), text
    why = w.why
    assert why.apply_button is not None  # (the panes made, as a first Show makes them)
    for index in range(1, 7):  # Ideal … Definitions: their tables' 0s said to be for want of grades
        why.setCurrentIndex(index)
        note = why.notes[why._models[index]]
        assert note.text().startswith("<b>No judgments</b>"), why.tabText(index)
    assert not why.apply_button.isEnabled()
    # A grade typed judges the list: its NDCG is a figure again, the caveats back.
    w.document.set_grade(0, 2)
    assert "no judgments" not in headline.ndcg.text() and re.search(r"\d\.\d{4}", headline.ndcg.text())
    assert headline.dcg.isVisible() and "no judgments" not in w.status_counts.text()
    assert metrics.index(0, ndcg).data() != "–"
    w.plot.show_rank(1)
    assert "no judgments" not in w.plot.readout.text()
    assert not why.notes[why._models[why.currentIndex()]].text().startswith("<b>No judgments")


def test_a_run_open_without_judgments_before_any_is_compared_has_no_mean_of_zeros(qtbot, window, files):
    """The first run of Compare runs without judgments is open alone until the others are read
    (and again once they are removed): its panel says there is no mean, not "0.0000"."""
    run = files[0]
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    assert window.files.open(run, None, ask=False, judged=False)
    panel = window.query_panel
    qtbot.waitUntil(lambda: panel.isVisible() and len(panel.visible_queries()) > 1)
    assert not window.comparison.active
    listed = len(panel.visible_queries())
    assert panel.mean_label.text() == f"No judgments, no mean NDCG@10 ({listed} queries)"
    assert panel.table.isColumnHidden(COL_NDCG) and not panel.histogram.isVisible()
    assert not panel.policy_box.isVisible() and "no judgments" in window.headline.ndcg.text()


def test_a_query_the_qrels_do_not_judge_says_so_where_its_ndcg_would_be(opened):
    """With qrels open, a query they judge none of (426 of the sample: results, no judgment) showed
    "NDCG@10 0.0000" with the IDCG = 0 caveat; now the headline says there are no judgments, its
    tooltip how to score it (grades typed: the qrels are open already), the status bar likewise;
    the panel's mean is still the judged queries'."""
    doc, headline = opened.document, opened.headline
    (query,) = doc.unjudged_queries()
    doc.set_current_query(query)
    assert "no judgments" in headline.ndcg.text() and "0.0000" not in headline.ndcg.text()
    assert "qrels judge none" in headline.ndcg.toolTip() and "Type grades" in headline.ndcg.toolTip()
    assert "no judgments" in opened.status_counts.text()
    assert opened.query_panel.mean_label.text().startswith("Mean NDCG@10 = ")
    doc.set_grade(0, 2)
    assert "no judgments" not in headline.ndcg.text() and headline.ndcg.toolTip() == ""
