"""WorkspaceReport: the figures across queries of a Workspace, each checked against the core's
plain functions on the same state (`evaluate`, `mean_summary`, `compare_runs`)."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ndcg_gui.assets import resource_path
from ndcg_gui.core.analysis import workspace_report as report
from ndcg_gui.core.analysis.runs.compare import compare_runs
from ndcg_gui.core.lists import edits
from ndcg_gui.core.lists.rescoring import score
from ndcg_gui.core.ndcg.mean import bin_index, counted, histogram_edges, mean_summary
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.reading import load
from ndcg_gui.core.state.workspace import Workspace


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> tuple[Path, Path, Path]:
    folder = tmp_path_factory.mktemp("runs")
    paths = []
    for name in ("sample.run", "sample.qrels"):
        with resource_path(f"examples/{name}") as p:
            (folder / name).write_bytes(p.read_bytes())
        paths.append(folder / name)
    run = pd.read_csv(paths[0], sep=r"\s+", header=None, names=["q", "z", "d", "r", "s", "t"], dtype=str)
    other = run[run["q"] != "404"].iloc[::-1]  # every list upside down, one query left out
    pairs = zip(other["q"], other["d"], strict=True)
    lines = [f"{q} Q0 {d} {i} {1000 - i} other" for i, (q, d) in enumerate(pairs, 1)]
    (folder / "other.run").write_text("\n".join(lines) + "\n")
    return paths[0], paths[1], folder / "other.run"


@pytest.fixture
def state(files) -> Workspace:
    run, qrels, _ = files
    ws = Workspace.of(load(run, qrels))
    query = ws.queries()[1]
    return ws.with_list(query, edits.reverse(ws.list_for(query)).after)


def test_scores_are_every_query_scored_with_the_edits(state):
    edited = state.edited_queries()
    assert edited
    expected = score(state.dataset.with_lists({q: state.list_for(q) for q in edited}), state.measure)
    got = report.WorkspaceReport(state).scores
    pd.testing.assert_frame_equal(got[expected.columns], expected, check_dtype=False)
    unedited = score(state.dataset, state.measure)
    assert got.loc[edited[0], "ndcg"] != pytest.approx(unedited.loc[edited[0], "ndcg"])


@pytest.mark.parametrize("policy", [Measure(), Measure(undefined="skip", empty="skip"),
                                    Measure(undefined="skip", empty="zero")])
def test_the_mean_and_the_histogram_are_those_of_the_policy(state, policy):
    ws = state.with_measure(empty=policy.empty, undefined=policy.undefined)
    r = report.WorkspaceReport(ws)
    assert r.mean.summary == mean_summary(r.scores, ws.measure)
    counted_rows = r.scores[counted(r.scores, policy)]
    np.testing.assert_array_equal(r.mean.values.to_numpy(), counted_rows["ndcg"].to_numpy())
    edges = histogram_edges(r.mean.values.to_numpy())
    bins = bin_index(counted_rows["ndcg"].to_numpy(), edges)
    for i in range(len(edges) - 1):
        assert r.mean.in_bin(edges, i) == [str(q) for q in counted_rows.index[bins == i]]


def test_no_query_has_no_mean():
    r = report.QueryMean(pd.DataFrame({"ndcg": [], "n_retrieved": [], "undefined": []}), Measure())
    assert r.summary is None and len(r.values) == 0


def test_the_worst_query_is_the_lowest_ndcg_with_results_and_an_idcg(state):
    r = report.WorkspaceReport(state)
    query, _ = r.worst_query()
    scores = r.scores
    fit = scores[(scores["n_retrieved"] > 0) & ~scores["undefined"].astype(bool)]
    assert scores.loc[query, "ndcg"] == fit["ndcg"].min()
    among = [q for q in scores.index if q != query]
    assert r.worst_query(among)[0] != query


@pytest.mark.parametrize("empty", ["zero", "skip"])
def test_runs_compared_are_compare_runs_on_the_lists_as_edited(state, files, empty):
    ws, name = state.with_run(load(files[2], files[1]), files[2], open_name="open")
    ws = ws.with_measure(undefined="zero", empty=empty)
    figures = report.WorkspaceReport(ws).runs("open")
    edited = ws.dataset.with_lists({q: ws.list_for(q) for q in ws.edited_queries()})
    expected = compare_runs({"open": edited, name: ws.comparing.run(name).dataset}, edited.qrels, ws.measure,
                            samples=report.SAMPLES, seed=report.SEED)
    pd.testing.assert_frame_equal(figures.comparison.per_query, expected.per_query)
    pd.testing.assert_frame_equal(figures.comparison.summary, expected.summary)
    assert not figures.answered.loc["404", name] and figures.answered.loc["404", "open"]
    assert list(figures.compared(empty)) == list(expected.per_query.index)
    deltas = report.deltas(figures.ndcg, "open", [name], figures.compared(empty))
    assert np.isnan(deltas.loc["404", name]) == (empty == "skip")


def test_an_edit_rescores_its_query_for_every_run_until_it_changes_what_is_compared(state, files):
    ws, name = state.with_run(load(files[2], files[1]), files[2], open_name="open")
    figures = report.WorkspaceReport(ws).runs("open")
    query = "401"
    moved = ws.with_list(query, edits.sort_ideal(ws.list_for(query), ws.measure).after)
    held: report.Judged = {}
    own = report.score_state(moved)
    rows = report.edited_rows(moved, "open", [query], figures.ndcg, figures.answered, own, held)
    assert rows == {query: {"open": own.at[query, "ndcg"], name: figures.ndcg.at[query, name]}}
    assert query in held  # the other run's figure is kept for the next edit of the same judgments
    emptied = ws.with_list(query, edits.remove(ws.list_for(query), range(len(ws.list_for(query)))).after)
    own = report.score_state(emptied)
    assert report.edited_rows(emptied, "open", [query], figures.ndcg, figures.answered, own, {}) is None


def test_a_grade_edited_judges_a_run_an_engine_scores_as_it_judges_a_run_in_memory(tmp_path):
    """An engine scores a run compared by its qrels file; a grade edited in the open run judges
    that document for every run (`compare_runs` judges them all by the edited qrels): the same
    figures whether the run compared is held in memory or read by DuckDB where it lies."""
    pytest.importorskip("duckdb")
    from engine_samples import write_sample

    from ndcg_gui.core.sql.engine_dataset import open_engine

    run, qrels = write_sample(tmp_path)
    rows = pd.read_parquet(run)
    rows["score"] = np.random.default_rng(1).permutation(rows["score"].to_numpy())
    second = tmp_path / "second.parquet"
    rows.to_parquet(second, index=False)
    ws = Workspace.of(load(run, qrels))
    for query in [q for q in ws.queries() if len(ws.list_for(q)) > 3 and ws.list_for(q).judgments()][:3]:
        lst = ws.list_for(query)
        row = int(np.flatnonzero(~np.isnan(lst.grades))[0])
        ws = ws.with_list(query, edits.set_grade(lst, row, 3.0 if lst.grades[row] != 3 else 0.0).after)
    own = report.score_state(ws)
    memory = report.compare_state(ws.with_run(load(second, qrels), second, "b")[0], "a", own, "a")
    engine = open_engine(str(second), str(qrels), ws.measure)
    read = report.compare_state(ws.with_run(engine, second, "b")[0], "a", own, "a")
    pd.testing.assert_frame_equal(read.ndcg, memory.ndcg, rtol=0, atol=1e-12)
    assert all(engine.at_hand(q) for q in ws.lists)  # (read there, and kept)
