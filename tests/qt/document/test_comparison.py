"""RunComparison: the runs compared with the open one, kept in step with the document. Every figure
is checked against `evaluate` on plain frames (the document's lists and judgments as they stand,
the other run read by pandas) and the paired statistics of those per-query figures."""

import numpy as np
import pandas as pd
import pytest
from run_samples import ndcg_from_scratch, read_run

from ndcg_gui.core.analysis.runs.compare import paired_summary
from ndcg_gui.core.analysis.workspace_report import SAMPLES, SEED
from ndcg_gui.core.reading import load
from ndcg_gui.core.state.workspace import run_label
from ndcg_gui.qt.document.changes import Changes, ComparisonChanges
from ndcg_gui.qt.document.comparison import RunComparison
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.document.query_scores import QueryScores


@pytest.fixture
def doc(qtbot, files):
    run, qrels, _ = files
    document = Document()
    document.set_dataset(load(run, qrels), run, qrels)
    return document


@pytest.fixture
def cmp(doc, files):
    comparison = RunComparison(doc, QueryScores(doc))
    comparison.add_run(load(files[2], files[1]), path=files[2])
    return comparison


def from_scratch(doc, cmp, files, missing="zero"):
    """(per-query NDCG of every run, the queries compared, the statistics) recomputed."""
    ndcg = ndcg_from_scratch(doc, {"second": files[2]}, cmp.doc_name)
    compared = ndcg.index
    if missing == "skip":
        answered = set(read_run(files[2])["query"]) & {q for q in doc.queries() if len(doc.list_for(q))}
        compared = ndcg.index[ndcg.index.isin(answered)]
    return ndcg, compared, paired_summary(ndcg.loc[compared], cmp.baseline, SAMPLES, SEED)


def assert_matches(doc, cmp, files, missing="zero"):
    ndcg, compared, stats = from_scratch(doc, cmp, files, missing)
    pd.testing.assert_frame_equal(cmp.ndcg, ndcg, check_names=False, check_exact=False, rtol=1e-12,
                                  check_index_type=False)
    got = cmp.comparison
    assert list(got.per_query.index) == list(compared) == list(cmp.compared)
    pd.testing.assert_frame_equal(got.summary, stats, check_exact=False, rtol=1e-9)
    assert got.scored.to_dict() == {name: int(cmp.answered[name].sum()) for name in cmp.names}


def comparison_notice(qtbot, doc, timeout=1000):
    """The document's notice that carries the comparison's figures (the one change notice)."""
    return qtbot.waitSignal(doc.changed, timeout=timeout, check_params_cb=lambda c: c.comparison is not None)


def test_names_are_the_run_files_without_extension():
    assert run_label("sample.run") == "sample"
    assert run_label("input.bm25") == "bm25"
    assert run_label("input.bm25.run.gz") == "bm25"
    assert run_label("qrels") == "qrels"


def test_an_added_run_is_compared_with_the_open_one(doc, cmp, files):
    assert cmp.active and cmp.names == ["sample", "second"] and cmp.baseline == "sample"
    assert cmp.focus == "second" and cmp.others == ["second"]
    assert_matches(doc, cmp, files)
    # 404 is judged but the second run left it out: scored 0, and said so.
    assert not cmp.answered.at["404", "second"] and cmp.ndcg.at["404", "second"] == 0
    judged = set(cmp.ndcg.index)
    for name, path in (("sample", files[0]), ("second", files[2])):
        answered = judged & set(read_run(path)["query"])
        assert cmp.answered[name].to_dict() == {q: q in answered for q in cmp.ndcg.index}
        assert cmp.comparison.scored[name] == len(answered)


def test_the_same_file_twice_gets_its_own_name(doc, cmp, files):
    name = cmp.add_run(load(files[2], files[1]), path=files[2])
    assert name == "second (2)" and cmp.names == ["sample", "second", "second (2)"]
    assert list(cmp.comparison.summary.index) == ["second", "second (2)"]


def test_an_edit_rescores_its_query_for_every_run(qtbot, doc, cmp, files):
    doc.set_current_query("401")
    lst = doc.current_list()
    other = read_run(files[2])
    shared = [d for d in other.loc[other["query"] == "401", "doc"].head(10) if d in set(lst.docs.tolist())]
    row = lst.docs.tolist().index(shared[0])
    before = cmp.ndcg.loc["401"].copy()
    with comparison_notice(qtbot, doc) as blocker:
        doc.set_grade(row, 3)  # judges the document for the other run too
    assert blocker.args[0].comparison == ComparisonChanges(queries=frozenset({"401"}))
    assert blocker.args[0].lists == frozenset({"401"})  # in the edit's own notice
    assert cmp.ndcg.at["401", "second"] != before["second"]
    doc.move_rows(0, 1, len(lst))
    assert_matches(doc, cmp, files)
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    pd.testing.assert_series_equal(cmp.ndcg.loc["401"], before)
    assert_matches(doc, cmp, files)


def test_a_move_leaves_the_other_runs_figures_and_says_only_what_changed(qtbot, doc, cmp, files,
                                                                           monkeypatch):
    """A move changes no judgment: the other runs' figures of the query stand (not scored again,
    the reason a move with a run compared costs about what it costs alone). A move that changes
    no NDCG says only its query (its overlap with the other run changed); a grade edit scores the
    other runs again."""
    import ndcg_gui.core.analysis.workspace_report as comparison

    doc.set_current_query("401")
    doc.move_rows(0, 1, 2)  # the first edit of the query scores the other run once
    scored = []
    real = comparison.ndcg_of
    monkeypatch.setattr(comparison, "ndcg_of", lambda lst, d: scored.append(lst.query) or real(lst, d))
    grades = np.nan_to_num(doc.current_list().grades)  # (unjudged: gain 0, as grade 0)
    same = next(i for i in range(len(grades) - 1) if grades[i] == grades[i + 1])
    notices = []
    doc.changed.connect(notices.append)
    ndcg = cmp.ndcg.copy()
    rbo = cmp.overlap.at["401", "rbo"]
    doc.move_rows(same, 1, same + 2)  # two documents of one grade swap: no NDCG changes
    said = [c.comparison for c in notices if c.comparison]
    assert said == [ComparisonChanges(queries=frozenset({"401"}))]  # (the overlap's row only)
    assert cmp.ndcg.equals(ndcg) and cmp.overlap.at["401", "rbo"] != rbo
    differ = next(i for i in range(len(grades) - 1) if grades[i] != grades[i + 1])
    with comparison_notice(qtbot, doc) as blocker:
        doc.move_rows(differ, 1, differ + 2)
    assert blocker.args[0].comparison == ComparisonChanges(queries=frozenset({"401"}))
    assert scored == []
    assert_matches(doc, cmp, files)
    doc.set_grade(differ, 3 if grades[differ] != 3 else 1)
    assert scored == ["401"]
    assert_matches(doc, cmp, files)


def test_the_statistics_follow_a_moment_after_an_edit_worked_out_off_the_gui_thread(
        qtbot, doc, cmp, files, monkeypatch):
    import threading

    import ndcg_gui.core.analysis.workspace_report as comparison

    threads = []
    real = comparison.with_scores
    monkeypatch.setattr(comparison, "with_scores",
                        lambda c, p: threads.append(threading.current_thread()) or real(c, p))
    doc.set_current_query("405")
    doc.reverse()
    assert cmp._pending  # not yet folded in: a drag repaints first
    with comparison_notice(qtbot, doc, timeout=5000) as blocker:
        pass
    assert blocker.args[0] == Changes(comparison=ComparisonChanges(summary=True))
    assert threads and threading.main_thread() not in threads
    assert not cmp._pending and not cmp.working
    assert_matches(doc, cmp, files)


def test_emptying_a_query_compares_it_anew(doc, cmp, files):
    doc.set_current_query("403")
    doc.remove_rows(range(len(doc.current_list())))
    assert not cmp.answered.at["403", "sample"] and cmp.ndcg.at["403", "sample"] == 0
    assert_matches(doc, cmp, files)
    doc.undo_stack.undo()
    assert cmp.answered.at["403", "sample"]
    assert_matches(doc, cmp, files)


def test_another_baseline_turns_the_differences_round(doc, cmp, files):
    deltas = cmp.deltas["second"]
    cmp.set_baseline("second")
    assert cmp.baseline == "second" and cmp.others == ["sample"] and cmp.focus == "sample"
    np.testing.assert_array_equal(cmp.deltas["sample"].to_numpy(), -deltas.to_numpy())
    assert_matches(doc, cmp, files)


def test_skip_compares_only_the_queries_every_run_answered(doc, cmp, files):
    cmp.set_missing("skip")
    assert "404" not in cmp.compared and np.isnan(cmp.deltas.at["404", "second"])
    assert_matches(doc, cmp, files, missing="skip")


def test_a_new_definition_rescores_every_run(doc, cmp, files):
    doc.set_measure(k=3)
    assert cmp.comparison.k == 3
    assert_matches(doc, cmp, files)


def test_other_judgments_end_the_comparison_the_same_ones_keep_it(qtbot, doc, cmp, files, tmp_path):
    run, qrels, _ = files
    doc.set_dataset(load(run, qrels), run, qrels, undoable=True)  # the same file again
    assert cmp.active
    other = tmp_path / "other.qrels"
    other.write_text(qrels.read_text())
    with comparison_notice(qtbot, doc):
        doc.set_dataset(load(run, other), run, other, undoable=True)
    assert not cmp.active and cmp.names == [] and cmp.comparison is None


def test_removing_the_last_run_ends_the_comparison(doc, cmp):
    cmp.remove_run("second")
    assert not cmp.active and cmp.ndcg.empty
    with pytest.raises(KeyError):
        cmp.remove_run("second")


def test_runs_need_judgments(qtbot, e1_list):
    document = Document()
    document.set_lists({"q1": e1_list})
    comparison = RunComparison(document, QueryScores(document))
    assert not comparison.can_add()


def test_the_open_run_scores_as_the_panel_shows_it_with_tied_scores_averaged(qtbot, tmp_path):
    """Under "average" ties a row added without a score stands alone and the other tied rows
    still share their gains: in the panel, the comparison and the whole file's `Dataset.evaluate`
    alike (one scoring semantics, issue 21.2; the file was once scored by position then)."""
    run, qrels, other = tmp_path / "tied.run", tmp_path / "tied.qrels", tmp_path / "other.run"
    pairs = [(q, d) for q in range(3) for d in range(6)]
    run.write_text("".join(f"q{q} Q0 d{d} {d + 1} {3.0 - d // 2} tied\n" for q, d in pairs))
    qrels.write_text("".join(f"q{q} 0 d{d} {(d + q) % 3}\n" for q, d in pairs))
    other.write_text("".join(f"q{q} Q0 d{5 - d} {d + 1} {10.0 - d} other\n" for q, d in pairs))
    doc = Document()
    doc.set_dataset(load(run, qrels), run, qrels)
    doc.set_measure(ties="average")
    scores = QueryScores(doc)
    cmp = RunComparison(doc, scores)
    cmp.add_run(load(other, qrels), path=other)
    doc.insert_rows(0, ["new"], [2.0])  # q0 gains a row without a score
    cmp.flush()
    expected = ndcg_from_scratch(doc, {"other": other}, "tied")
    np.testing.assert_allclose(cmp.ndcg.to_numpy(), expected.to_numpy(), rtol=1e-12)
    np.testing.assert_allclose(cmp.ndcg["tied"].to_numpy(), scores.result["ndcg"].to_numpy(), rtol=1e-12)
    stats = paired_summary(expected, "tied", SAMPLES, SEED)
    pd.testing.assert_frame_equal(cmp.comparison.summary, stats, check_exact=False, rtol=1e-9)
    # The whole file scored at once gives the same figures, the edited query's included:
    whole = doc.lists_for_saving().evaluate(doc.measure.with_(ties="average"))["ndcg"]
    np.testing.assert_allclose(whole.to_numpy(), expected["tied"].to_numpy(), rtol=1e-12)


def test_with_a_big_file_scored_in_the_background_the_comparison_waits_for_its_scores(
        qtbot, doc, cmp, files, monkeypatch):
    """A definition change of a big file scores the open run in a worker thread (`QueryScores`):
    the comparison is made when those scores land, never from the previous definition's."""
    from ndcg_gui.qt.document import query_scores

    monkeypatch.setattr(query_scores, "BACKGROUND_ROWS", 0)
    doc.set_measure(k=3)
    assert cmp.scores.pending and cmp.waiting
    doc.set_current_query("405")
    doc.reverse()  # an edit while the scores are on their way
    assert cmp.scores.wait()
    qtbot.waitUntil(lambda: not cmp.waiting)
    assert_matches(doc, cmp, files)
    own = cmp.scores.result["ndcg"].reindex(cmp.ndcg.index)
    np.testing.assert_allclose(cmp.ndcg[cmp.doc_name], own.fillna(0.0), rtol=1e-12)


def test_statistics_keep_up_with_a_stream_of_edits(qtbot, doc, cmp, files, monkeypatch):
    """Edits while the thread works do not throw its result away: the figures of the lists as the
    thread found them are shown, then those of the edits made meanwhile."""
    import threading

    import ndcg_gui.core.analysis.workspace_report as comparison

    started, release = threading.Event(), threading.Event()
    real = comparison.with_scores

    def slow(c, p):
        if threading.current_thread() is not threading.main_thread():
            started.set()
            release.wait(5)
        return real(c, p)

    monkeypatch.setattr(comparison, "with_scores", slow)
    doc.set_current_query("405")
    doc.reverse()
    qtbot.waitUntil(started.is_set)
    doc.set_current_query("401")
    doc.reverse()  # while the thread works
    summaries = []
    doc.changed.connect(lambda c: summaries.append(cmp.statistics.cmp)
                        if c.comparison and c.comparison.summary else None)
    release.set()
    qtbot.waitUntil(lambda: len(summaries) == 2 and not cmp.working, timeout=5000)
    first, last = summaries
    assert first.per_query.at["405", cmp.doc_name] == cmp.ndcg.at["405", cmp.doc_name]
    assert first.per_query.at["401", cmp.doc_name] != cmp.ndcg.at["401", cmp.doc_name]  # a moment behind
    assert last.per_query.at["401", cmp.doc_name] == cmp.ndcg.at["401", cmp.doc_name]
    assert not cmp._pending
    assert_matches(doc, cmp, files)


def test_a_run_added_while_the_open_run_is_scored_anew_waits_for_its_figures(qtbot, doc, cmp, files):
    """A big file is rescored in the background (a new k, say) and a run is added meanwhile: its
    figures are blank until the open run's scores land, and the query panel reads them
    without failing; then every figure is right."""
    from ndcg_gui.qt.widgets.queries.query_panel import QueryPanel
    from ndcg_gui.qt.window.feedback import Feedback
    from ndcg_gui.qt.window.query_browser import QueryBrowser

    panel = QueryPanel()
    qtbot.addWidget(panel)
    QueryBrowser(doc, cmp.scores, panel, Feedback(panel, lambda *_: None, lambda _: None), comparison=cmp)
    cmp.scores._wanted = True  # as while a big file's scores are worked out in the background
    third = cmp.add_run(load(files[2], files[1]), path=files[2])
    assert cmp.waiting and list(cmp.ndcg.columns) == cmp.names
    assert cmp.ndcg[third].isna().all() and not cmp.deltas.empty
    cmp.scores._wanted = False
    doc.announce(Changes(scores=True))  # the scores land
    assert not cmp.waiting and not cmp.ndcg[third].isna().any()
    assert list(cmp.comparison.per_query.columns) == cmp.names
