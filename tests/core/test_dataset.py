"""Dataset: per-query lists as slices, edits merged back, and scoring that agrees with the list view."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import ndcg_score

from ndcg_gui.core.config import PRESETS, MetricConfig
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.metrics import ndcg_at
from ndcg_gui.core.reading import load


def random_dataset(seed: int, pool: bool) -> Dataset:
    rng = np.random.default_rng(seed)
    run_rows, qrels_rows = [], []
    for q in rng.permutation(12):
        docs = rng.choice(60, size=rng.integers(1, 25), replace=False)
        for d in docs:
            run_rows.append((f"q{q}", f"d{d}", float(rng.integers(-1, 4)) if rng.random() < 0.7 else np.nan))
        for d in rng.choice(60, size=10, replace=False):
            qrels_rows.append((f"q{q}", f"d{d}", float(rng.integers(0, 4))))
    run = pd.DataFrame(run_rows, columns=["query", "doc", "grade"])
    if not pool:
        return Dataset(run)
    qrels = pd.DataFrame([*qrels_rows, ("q-none", "x", 2.0)], columns=["query", "doc", "grade"])
    lookup = {(q, d): g for q, d, g in qrels_rows}
    run["grade"] = [lookup.get((q, d), np.nan) for q, d in zip(run["query"], run["doc"], strict=True)]
    return Dataset(run, qrels)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("pool", [False, True])
@pytest.mark.parametrize("preset", ["trec_eval", "ranx_burges", "jarvelin2002"])
def test_vectorised_scores_equal_per_list_scores(seed, pool, preset):
    dataset = random_dataset(seed, pool)
    config = PRESETS[preset].config
    result = dataset.evaluate(5, config)
    for q in dataset.queries():
        rl = dataset.ranked_list(q)
        if pool and not rl.has_pool:
            continue
        if q not in result.index:  # no judgment at all: left out, as trec_eval does
            assert pool and not (rl.judged.any() or rl.unretrieved)
            continue
        expected = ndcg_at(rl.scoring_grades(), 5, config, judged=rl.judged_pool()) if len(rl) else 0.0
        assert result.loc[q, "ndcg"] == pytest.approx(expected, abs=1e-12), q
    if pool:
        assert result.loc["q-none", "ndcg"] == 0 and result.loc["q-none", "n_retrieved"] == 0


def test_average_ties_match_scikit_learn(tmp_path):
    # E5c of the worked examples: grades [3, 2, 1, 0, 0], scores [3, 2, 0, 0, 1].
    path = tmp_path / "e5c.csv"
    path.write_text("doc,grade,score\na,3,3\nb,2,2\nc,1,0\nd,0,0\ne,0,1\n")
    preset = PRESETS["sklearn"]
    result = load(path).evaluate(None, preset.config, ties=preset.ties)
    expected = ndcg_score([[3, 2, 1, 0, 0]], [[3, 2, 0, 0, 1]])
    assert result["ndcg"].iloc[0] == pytest.approx(expected) == pytest.approx(0.9808, abs=1e-4)


def test_queries_in_file_order_and_lists_as_slices():
    run = pd.DataFrame({"query": ["b", "a", "b", "a"], "doc": ["1", "2", "3", "4"], "grade": [1, 2, 3, 4.0]})
    dataset = Dataset(run)
    assert dataset.queries() == ["b", "a"]
    assert list(dataset.ranked_list("b").docs) == ["1", "3"]
    assert list(dataset.ranked_list("a").grades) == [2, 4]
    with pytest.raises(KeyError):
        dataset.ranked_list("zzz")


def test_with_lists_replaces_edited_queries_and_their_judgments():
    dataset = random_dataset(1, pool=True)
    q0, q1 = dataset.queries()[:2]
    rl = dataset.ranked_list(q0)
    edited = rl.with_grade(0, 3.0).removed([len(rl) - 1])
    new = dataset.with_lists({q0: edited})
    assert new.queries() == dataset.queries()
    assert new.ranked_list(q0) == edited
    assert new.ranked_list(q1) == dataset.ranked_list(q1)
    pool = new.qrels[new.qrels["query"] == q0].set_index("doc")["grade"]
    assert pool[edited.docs[0]] == 3.0  # the grade change reached the judged pool
    assert new.evaluate(10).loc[q0, "ndcg"] == pytest.approx(
        ndcg_at(edited.scoring_grades(), 10, MetricConfig(), judged=edited.judged_pool())
    )
    assert dataset.ranked_list(q0) == rl  # the original is untouched


def test_from_ranked_list_keeps_scores_and_pool():
    rl = RankedList(docs=["a", "b"], grades=[1, np.nan], scores=[2.0, 1.0], query="q",
                    unretrieved={"z": 3.0}, has_pool=True)
    dataset = Dataset.from_ranked_list(rl)
    assert dataset.kind == "typed" and dataset.queries() == ["q"]
    assert dataset.ranked_list("q") == rl


def test_summary_in_query_order_with_the_issue_columns():
    dataset = random_dataset(2, pool=True)
    summary = dataset.summary(10)
    assert list(summary.columns) == ["query", "n_docs", "n_judged", "dcg", "idcg", "ndcg"]
    order = [q for q in dataset.queries() if q in set(summary["query"])]
    assert summary["query"].tolist() == order


def test_a_runs_tag_is_kept_through_edits_and_written_again(tmp_path):
    from ndcg_gui.core.writing.writers import write_trec_run

    src = tmp_path / "in.run"
    src.write_text("# comment\nq1 Q0 a 1 3.5 myrun\nq1 Q0 b 2 2.5 myrun\n")
    ds = load(src, need_grades=False)
    assert ds.tag == "myrun"
    edited = ds.with_lists({"q1": ds.ranked_list("q1").reordered([1, 0])})
    out = tmp_path / "out.run"
    write_trec_run(edited, out)
    assert out.read_text().splitlines() == ["# comment", "q1 Q0 b 1 2 myrun", "q1 Q0 a 2 1 myrun"]
    write_trec_run(edited, out, tag="other")
    assert out.read_text().split()[5] == "other"


def test_queries_without_judgments_are_named():
    run = pd.DataFrame({"query": ["a", "a", "b"], "doc": ["x", "y", "z"], "grade": np.nan})
    qrels = pd.DataFrame({"query": ["a", "c"], "doc": ["x", "w"], "grade": [1.0, 2.0]})
    ds = Dataset(run, qrels)
    assert ds.unjudged_queries() == ["b"]
    assert "b" not in ds.evaluate(10).index
    assert Dataset(run.assign(grade=1.0)).unjudged_queries() == []


def test_judged_queries_without_results_are_named_and_score_zero():
    run = pd.DataFrame({"query": ["a", "b"], "doc": ["x", "z"], "grade": [1.0, np.nan]})
    qrels = pd.DataFrame({"query": ["c", "a", "d"], "doc": ["w", "x", "v"], "grade": [2.0, 1.0, 0.0]})
    ds = Dataset(run, qrels)
    assert ds.queries_without_results() == ["c", "d"]
    assert ds.evaluate(10).loc["c", "ndcg"] == 0
    assert Dataset(run).queries_without_results() == []


@pytest.mark.parametrize("ties", ["trec", "file", "average"])
def test_each_query_scores_as_the_window_scores_its_list_edited_or_not(tmp_path, ties):
    """Whole-dataset scoring (the summary export, a rescore of every query) gives each query the
    figure of its list as the window shows it: unedited lists with their ties in the rule's order,
    an edited list in the order it stands (a tied document dragged above another stays there)."""
    from ndcg_gui.core.analysis.list_report import list_summary

    path = tmp_path / "t.csv"
    path.write_text("query,doc,score,grade\nq,a,2,0\nq,b,1,3\nq,c,1,0\nq,d,1,0\nq,e,0.5,1\n"
                    "p,x,1,1\np,y,1,0\np,z,0,2\n")
    loaded = load(path)
    shown = {q: loaded.ranked_list(q).ties_ordered(ties) for q in loaded.queries()}
    shown["q"] = shown["q"].moved(3, 1, 1)  # a tied document dragged up, past its tied neighbours
    edited = loaded.with_lists({"q": shown["q"]})
    scored = edited.evaluate(3, MetricConfig(), ties=ties)
    for query, lst in shown.items():
        assert scored.loc[query, "ndcg"] == pytest.approx(list_summary(lst, 3, MetricConfig(), ties).ndcg)
