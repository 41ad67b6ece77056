"""Mean NDCG over queries under each averaging policy, checked by hand and against pytrec_eval."""

import numpy as np
import pandas as pd
import pytest
from pytrec_child import evaluate as pytrec_evaluate

from ndcg_gui.core.ndcg.evaluate import evaluate
from ndcg_gui.core.ndcg.mean import bin_index, counted, histogram, histogram_edges, mean_summary
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import ndcg_at
from ndcg_gui.core.ndcg.presets import preset

TREC = preset("trec_eval")

# q1 ordinary, q2 judged but nothing relevant (IDCG = 0), q3 judged but not retrieved, q4 ordinary.
RUN = pd.DataFrame(
    {
        "query": ["q1"] * 3 + ["q2"] * 2 + ["q4"] * 3,
        "doc": ["a", "b", "c", "d", "e", "f", "g", "h"],
        "score": [3.0, 2.0, 1.0, 2.0, 1.0, 3.0, 2.0, 1.0],
    }
)
QRELS = pd.DataFrame(
    {
        "query": ["q1", "q1", "q2", "q3", "q4", "q4"],
        "doc": ["b", "c", "d", "x", "f", "h"],
        "grade": [2, 1, 0, 1, 1, 3],
    }
)


@pytest.fixture
def result():
    return evaluate(RUN, QRELS, TREC.with_(k=10))


def by_hand():
    q1 = ndcg_at([0, 2, 1], TREC.with_(k=10), judged=[2, 1])
    q4 = ndcg_at([1, 0, 3], TREC.with_(k=10), judged=[1, 3])
    return q1, q4


@pytest.mark.parametrize(
    ("empty", "undefined", "expected_values"),
    [
        ("zero", "zero", lambda q1, q4: [q1, 0.0, 0.0, q4]),
        ("skip", "zero", lambda q1, q4: [q1, 0.0, q4]),
        ("zero", "skip", lambda q1, q4: [q1, 0.0, q4]),  # q3 has a relevant doc: IDCG > 0, NDCG 0
        ("skip", "skip", lambda q1, q4: [q1, q4]),
    ],
)
def test_each_policy_averages_the_queries_it_names(result, empty, undefined, expected_values):
    values = expected_values(*by_hand())
    summary = mean_summary(result, Measure(undefined=undefined, empty=empty))
    assert summary.mean == pytest.approx(np.mean(values))
    assert summary.counted == len(values)
    assert summary.total == 4
    assert summary.empty == 1
    assert summary.undefined == 1
    assert counted(result, summary.measure).sum() == len(values)


def test_skipping_empty_queries_matches_pytrec_eval(result):
    qrel = {
        q: {d: int(g) for d, g in zip(grp.doc, grp.grade, strict=True)}
        for q, grp in QRELS.groupby("query")
    }
    run = {q: dict(zip(grp.doc, grp.score, strict=True)) for q, grp in RUN.groupby("query")}
    per_query = pytrec_evaluate(qrel, {"ndcg_cut.10"}, run)
    theirs = np.mean([m["ndcg_cut_10"] for m in per_query.values()])
    assert mean_summary(result, Measure(undefined="zero", empty="skip")).mean == pytest.approx(theirs)


def test_no_query_left_gives_nan_and_says_so():
    only_undefined = evaluate(RUN[RUN["query"] == "q2"], QRELS[QRELS["query"] == "q2"], Measure(k=5))
    summary = mean_summary(only_undefined, Measure(undefined="skip"))
    assert np.isnan(summary.mean)
    assert summary.describe(5) == "mean NDCG@5 = n/a over 0 of 1 queries"


def test_describe_states_the_mean_and_the_policy(result):
    summary = mean_summary(result, Measure(empty="skip"))
    assert summary.describe(10) == f"mean NDCG@10 = {summary.mean:.4f} over 3 of 4 queries"
    assert "no results left out" in summary.measure.describe_mean()
    assert "IDCG = 0 count as 0" in summary.measure.describe_mean()


def test_bad_policy_is_refused():
    with pytest.raises(ValueError, match="empty must be 'zero' or 'skip'"):
        Measure(empty="drop")


def test_histogram_bins_cover_0_to_1_and_count_every_value():
    values = np.array([0.0, 0.05, 0.1, 0.55, 0.99, 1.0, 1.0])
    edges, counts = histogram(values)
    assert np.allclose(edges, np.linspace(0, 1, 11))
    assert counts.sum() == len(values)
    assert counts[0] == 2 and counts[1] == 1 and counts[5] == 1 and counts[9] == 3
    assert list(bin_index(values, edges)) == [0, 0, 1, 5, 9, 9, 9]


def test_histogram_widens_for_values_outside_0_1():
    edges = histogram_edges(np.array([-0.25, 0.5, 1.2]))
    assert edges[0] == pytest.approx(-0.3) and edges[-1] == pytest.approx(1.2)
    assert np.allclose(np.diff(edges), 0.1)
    _, counts = histogram(np.array([-0.25, 0.5, 1.2]))
    assert counts.sum() == 3


def test_histogram_of_nothing_is_empty_bins():
    edges, counts = histogram(np.array([]))
    assert len(edges) == 11 and counts.sum() == 0


def test_histogram_edges_stay_few_when_ndcg_is_far_outside_0_1():
    from ndcg_gui.core.ndcg.mean import histogram

    edges, counts = histogram(np.array([0.5, -3e14, 2.0]))
    assert len(edges) == 11 and counts.sum() == 3


def test_the_worst_query_is_the_lowest_ndcg_with_results_and_an_ideal():
    """Issue 21.2: the worst query is a core rule (it was read off the sorted view's rows)."""
    import pandas as pd

    from ndcg_gui.core.ndcg.mean import worst_query

    result = pd.DataFrame(
        {"ndcg": [0.5, 0.0, 0.0, 0.2, 0.2, 0.9], "n_retrieved": [5, 0, 4, 3, 3, 2],
         "undefined": [False, False, True, False, False, False]},
        index=pd.Index(["a", "b", "c", "d", "e", "f"], name="query"))
    assert worst_query(result) == ("d", ["b (no results)", "c (IDCG = 0)"])
    assert worst_query(result, ["f", "e", "d"]) == ("e", [])  # among a filter's queries, in its order
    assert worst_query(result, ["b", "c"]) == (None, ["b (no results)", "c (IDCG = 0)"])
    assert worst_query(result, ["zzz"]) == (None, [])


def test_a_mean_over_many_queries_says_their_count_with_thousands_separated():
    # 500,000 queries read "over 500,000 of 500,000 queries", not "500000" (seen on the 500M window).
    from ndcg_gui.core.ndcg.mean import MeanSummary

    summary = MeanSummary(0.033, 500_000, 500_000, 0, 0, Measure())
    assert summary.describe(10) == "mean NDCG@10 = 0.0330 over 500,000 of 500,000 queries"




