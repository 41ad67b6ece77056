"""Mean NDCG over queries under each averaging policy, checked by hand and against pytrec_eval."""

import numpy as np
import pandas as pd
import pytest
from definition_strategies import CUTOFF, SMALL_GRADE, configs
from hypothesis import given, settings
from hypothesis import strategies as st
from pytrec_child import evaluate as pytrec_evaluate

from ndcg_gui.core.lists.typed_dataset import TypedDataset
from ndcg_gui.core.ndcg.evaluate import evaluate
from ndcg_gui.core.ndcg.mean import MeanPolicy, bin_index, counted, histogram, histogram_edges, mean_summary
from ndcg_gui.core.ndcg.measure import MetricConfig
from ndcg_gui.core.ndcg.metrics import ndcg_at

TREC = MetricConfig.preset("trec_eval")

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
    return evaluate(RUN, QRELS, k=10, config=TREC)


def by_hand():
    q1 = ndcg_at([0, 2, 1], 10, TREC, judged=[2, 1])
    q4 = ndcg_at([1, 0, 3], 10, TREC, judged=[1, 3])
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
    summary = mean_summary(result, MeanPolicy(empty=empty, undefined=undefined))
    assert summary.mean == pytest.approx(np.mean(values))
    assert summary.counted == len(values)
    assert summary.total == 4
    assert summary.empty == 1
    assert summary.undefined == 1
    assert counted(result, summary.policy).sum() == len(values)


def test_skipping_empty_queries_matches_pytrec_eval(result):
    qrel = {
        q: {d: int(g) for d, g in zip(grp.doc, grp.grade, strict=True)}
        for q, grp in QRELS.groupby("query")
    }
    run = {q: dict(zip(grp.doc, grp.score, strict=True)) for q, grp in RUN.groupby("query")}
    per_query = pytrec_evaluate(qrel, {"ndcg_cut.10"}, run)
    theirs = np.mean([m["ndcg_cut_10"] for m in per_query.values()])
    assert mean_summary(result, MeanPolicy(empty="skip", undefined="zero")).mean == pytest.approx(theirs)


def test_no_query_left_gives_nan_and_says_so():
    only_undefined = evaluate(RUN[RUN["query"] == "q2"], QRELS[QRELS["query"] == "q2"], k=5)
    summary = mean_summary(only_undefined, MeanPolicy(undefined="skip"))
    assert np.isnan(summary.mean)
    assert summary.describe(5) == "mean NDCG@5 = n/a over 0 of 1 queries"


def test_describe_states_the_mean_and_the_policy(result):
    summary = mean_summary(result, MeanPolicy(empty="skip"))
    assert summary.describe(10) == f"mean NDCG@10 = {summary.mean:.4f} over 3 of 4 queries"
    assert "no results left out" in summary.policy.describe()
    assert "IDCG = 0 count as 0" in summary.policy.describe()


def test_bad_policy_is_refused():
    with pytest.raises(ValueError, match="empty must be 'zero' or 'skip'"):
        MeanPolicy(empty="drop")


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


# ---- rescoring one edited query equals scoring everything again ------------------------------
@pytest.fixture(scope="module")
def sample():
    from ndcg_gui.assets import resource_path
    from ndcg_gui.core.reading import load

    with resource_path("examples/sample.run") as run, resource_path("examples/sample.qrels") as qrels:
        return load(run, qrels)


def edits(rl):
    """A few edits a person makes: a move, a grade change, a removal, an insertion."""
    yield "move", rl.moved(len(rl) - 1, 1, 0)
    yield "grade", rl.with_grade(0, 3.0)
    yield "remove", rl.removed([0, 1, 2])
    yield "insert", rl.inserted(1, ["new-doc"], [2.0])


@pytest.mark.parametrize("preset", ["trec_eval", "sklearn", "ranx_burges"])
@pytest.mark.parametrize("k", [5, None])
def test_one_query_rescored_equals_the_whole_dataset_rescored(sample, preset, k):
    from ndcg_gui.core.lists.rescoring import score, with_list_rescored
    from ndcg_gui.core.ndcg.measure import PRESETS

    config, ties = PRESETS[preset].config, PRESETS[preset].ties
    before = score(sample, k, config, ties)
    for query in ["401", "417"]:
        for what, edited in edits(sample.ranked_list(query)):
            expected = score(sample.with_lists({query: edited}), k, config, ties)
            got = with_list_rescored(before, edited, k, config, ties)
            pd.testing.assert_frame_equal(got, expected, obj=f"{query} {what}")


def test_a_query_that_gains_its_first_results_appears(sample):
    from ndcg_gui.core.lists.rescoring import score, with_list_rescored

    before = score(sample, 10, TREC)
    assert before.loc["424", "n_retrieved"] == 0
    rl = sample.ranked_list("424")
    doc, grade = next(iter(rl.unretrieved.items()))
    edited = rl.inserted(0, [doc], [grade])
    expected = score(sample.with_lists({"424": edited}), 10, TREC)
    pd.testing.assert_frame_equal(with_list_rescored(before, edited, 10, TREC), expected)


def test_a_query_that_loses_its_last_judgment_stays_listed():
    from ndcg_gui.core.lists.ranked_list import RankedList
    from ndcg_gui.core.lists.rescoring import score, with_list_rescored

    listed = RankedList(docs=["a"], grades=[1.0], query="q", unretrieved={"z": 2.0}, has_pool=True)
    result = score(TypedDataset.of(listed), 10)
    emptied = with_list_rescored(result, RankedList.from_grades([], query="q"), 10)
    assert emptied.loc["q", "undefined"] and emptied.loc["q", "ndcg"] == 0
    assert emptied.loc["q", "n_retrieved"] == 0


def test_histogram_edges_stay_few_when_ndcg_is_far_outside_0_1():
    from ndcg_gui.core.ndcg.mean import histogram

    edges, counts = histogram(np.array([0.5, -3e14, 2.0]))
    assert len(edges) == 11 and counts.sum() == 3


@st.composite
def scored_lists(draw):
    """A list as a person may leave it: grades (NaN = unjudged), scores with ties, unscored rows
    (pasted or typed), judged documents it does not hold, or no pool at all."""
    from ndcg_gui.core.lists.ranked_list import RankedList

    n = draw(st.integers(0, 9))
    grades = draw(st.lists(st.one_of(st.just(np.nan), SMALL_GRADE), min_size=n, max_size=n))
    scores = draw(st.one_of(st.none(), st.lists(st.one_of(st.just(np.nan), st.sampled_from([1.0, 2.0, 3.0])),
                                                min_size=n, max_size=n)))
    has_pool = draw(st.booleans())
    unretrieved = draw(st.dictionaries(st.sampled_from(["x", "y", "z"]), SMALL_GRADE, max_size=3)
                       if has_pool else st.just({}))
    return RankedList(docs=[f"d{i}" for i in range(n)], grades=grades, scores=scores, query="q",
                      unretrieved=unretrieved, has_pool=has_pool)


@given(scored_lists(), configs(), CUTOFF, st.sampled_from(["trec", "file", "average"]))
@settings(max_examples=300, deadline=None)
def test_one_lists_row_is_the_row_of_a_dataset_of_that_list(rl, config, k, ties):
    """`list_row` scores a list without making a dataset of it: the same row as that dataset's
    `evaluate` (the list as it stands; "average" over neighbours with equal scores)."""
    from ndcg_gui.core.lists.rescoring import list_row

    one_list = TypedDataset.of(rl)
    expected = one_list.evaluate(k, config, ties="trec" if ties == "file" else ties)
    pd.testing.assert_frame_equal(list_row(rl, k, config, ties), expected)


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
    from ndcg_gui.core.ndcg.mean import MeanPolicy, MeanSummary

    summary = MeanSummary(0.033, 500_000, 500_000, 0, 0, MeanPolicy())
    assert summary.describe(10) == "mean NDCG@10 = 0.0330 over 500,000 of 500,000 queries"


class HashCountedId(str):
    """A query id that counts how often it is hashed: what building a hash table of ids does."""

    hashed = 0

    def __hash__(self) -> int:
        HashCountedId.hashed += 1
        return str.__hash__(self)


@pytest.mark.parametrize("kept", [True, False])
def test_one_list_rescored_in_a_big_result_hashes_no_id_of_the_others(monkeypatch, kept):
    """An edit of one query of a big result finds its row by a scan, not the table of every id
    pandas makes for a lookup (~80 ms at 500,000, in the frame of a big file's first edit); the
    other rows stay as they were."""
    from ndcg_gui.core.lists import query_order, rescoring
    from ndcg_gui.core.lists.ranked_list import RankedList
    from ndcg_gui.core.lists.rescoring import list_row, with_list_rescored
    from ndcg_gui.core.ndcg.evaluate import RESULT_COLUMNS

    monkeypatch.setattr(rescoring, "KEEP_FROM", 100)
    monkeypatch.setattr(query_order, "KEEP_FROM", 100)
    n = 2_000
    rng = np.random.default_rng(0)
    big = pd.DataFrame({c: rng.integers(0, 5, n) for c in RESULT_COLUMNS[:5]}
                       | {c: rng.random(n) for c in RESULT_COLUMNS[5:8]} | {"undefined": np.zeros(n, bool)},
                       index=pd.Index([HashCountedId(f"q{i}") for i in range(n)], dtype=object))
    if kept:
        query_order.order_keys_of(big.index)
    lst = RankedList.from_grades([0, 2, 1, 3], query="q1234")
    HashCountedId.hashed = 0
    rescored = with_list_rescored(big, lst, 3)
    assert HashCountedId.hashed < n // 10
    assert rescored.index is big.index
    assert rescored.loc["q1234", "ndcg"] == pytest.approx(list_row(lst, 3)["ndcg"].iloc[0])
    others = big.index != "q1234"
    assert rescored[others].equals(big[others])
