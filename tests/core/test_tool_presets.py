"""The choices some tools make (discount base and table, condensed lists, IDCG = 0, ideal order and
depth, rounding) and the presets of tools that do not install here, against the expected values
in those tools' own test files (each cited), and the one-list and many-query paths against each
other for every new choice."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.metrics import dcg_score, ndcg_score

from ndcg_gui.core import Measure, evaluate, ndcg_at, per_rank
from ndcg_gui.core.ndcg.evaluate import mean_ndcg
from ndcg_gui.core.ndcg.metrics import condensed_keep, dcg_idcg_at
from ndcg_gui.core.ndcg.presets import PRESETS


def close(a: float, b: float, tol: float = 1e-12) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=tol)


def one_query(grades, k, preset, pool=None) -> float:
    """NDCG@k of one ranked list (grades in rank order, NaN = unrated) under a preset."""
    docs = [f"d{i}" for i in range(len(grades))]
    run = pd.DataFrame({"query": "q", "doc": docs, "rank": np.arange(1, len(docs) + 1)})
    if pool is None:
        pool = {d: g for d, g in zip(docs, grades, strict=True) if not math.isnan(g)}
    qrels = pd.DataFrame({"query": "q", "doc": list(pool), "grade": list(pool.values())})
    chosen = PRESETS[preset]
    return float(evaluate(run, qrels, chosen.with_(k=k)).loc["q", "ndcg"])


# --- Elasticsearch: x-pack/.../rankeval/DiscountedCumulativeGainTests.java ---------------------

def test_elasticsearch_testDCGAt():
    # testDCGAt: ratings 3 2 3 0 1 2, EXPECTED_NDCG = 13.84826362927298 / 14.595390756454922
    assert close(one_query([3, 2, 3, 0, 1, 2], 10, "elasticsearch"), 13.84826362927298 / 14.595390756454922)


def test_elasticsearch_testDCGAtSixMissingRatings():
    # six hits, ratings 3 2 3 (none) 1 and a sixth hit unrated: 12.779642067948913 / 13.347184833073591
    nan = float("nan")
    value = one_query([3, 2, 3, nan, 1, nan], 10, "elasticsearch")
    assert close(value, 12.779642067948913 / 13.347184833073591)


def test_elasticsearch_testDCGAtFourMoreRatings():
    # four hits (the fourth unrated), rated documents 3 2 3 1: 12.392789260714371 / 13.347184833073591
    nan = float("nan")
    pool = {"d0": 3, "d1": 2, "d2": 3, "x4": 1}
    value = one_query([3, 2, 3, nan], 10, "elasticsearch", pool)
    assert close(value, 12.392789260714371 / 13.347184833073591)


def test_elasticsearch_cuts_the_ideal_at_the_number_of_hits_not_k():
    # Three hits, five rated documents: the ideal is cut at 3, not at k = 10 (trec_eval's cut).
    pool = {"d0": 1, "d1": 0, "d2": 0, "x": 3, "y": 3}
    es = one_query([1, 0, 0], 10, "elasticsearch", pool)
    assert close(es, 1 / (7 + 7 / math.log2(3) + 1 / 2))
    trec_like = PRESETS["elasticsearch"].with_(ideal_depth="k")
    assert close(ndcg_at([1, 0, 0], trec_like.with_(k=10), judged=[1, 0, 0, 3, 3]),
                 1 / (7 + 7 / math.log2(3) + 1 / 2 + 0))  # the pool has only 5: same here
    pool = [1, 0, 0, 3, 3, 2]
    elasticsearch = PRESETS["elasticsearch"].at(10)
    assert ndcg_at([1, 0, 0], elasticsearch, pool) > ndcg_at([1, 0, 0], trec_like.at(10), pool)


# --- Spark: mllib/src/test/scala/org/apache/spark/mllib/evaluation/RankingMetricsSuite.scala ----

def _spark_run(pairs) -> pd.DataFrame:
    """Spark's (predictions, labels) pairs as a run whose grades are 1 for labels (binary)."""
    rows = []
    for qi, (pred, labels) in enumerate(pairs):
        rows += [(f"q{qi}", str(d), 1.0 if d in labels else 0.0) for d in pred]
        if not pred:  # a query with labels but no predictions
            rows.append((f"q{qi}", "none", float("nan")))
    return pd.DataFrame(rows, columns=["query", "doc", "grade"])


def _spark_mean(pairs, k) -> float:
    rows, pool = [], []
    for qi, (pred, labels) in enumerate(pairs):
        rows += [(f"q{qi}", str(d), r) for r, d in enumerate(pred, 1)]
        pool += [(f"q{qi}", str(d), 1.0) for d in labels]
    run = pd.DataFrame(rows, columns=["query", "doc", "rank"])
    qrels = pd.DataFrame(pool, columns=["query", "doc", "grade"])
    result = evaluate(run, qrels, PRESETS["spark"].with_(k=k, ties="file", empty="zero"))
    # Spark counts a query without labels as 0 (it is in its data set): here it has no judgment,
    # so it is not in the table and is added as a 0 to the mean.
    no_labels = sum(1 for _, labels in pairs if not labels)
    return float(result["ndcg"].sum() / (len(result) + no_labels))


def test_spark_ranking_metrics_suite_map_ndcg():
    pairs = [([1, 6, 2, 7, 8, 3, 9, 10, 4, 5], [1, 2, 3, 4, 5]),
             ([4, 1, 5, 6, 2, 7, 3, 8, 9, 10], [1, 2, 3]),
             ([1, 2, 3, 4, 5], [])]
    assert _spark_mean(pairs, 3) == pytest.approx(1.0 / 3, abs=1e-5)
    assert _spark_mean(pairs, 5) == pytest.approx(0.328788, abs=1e-5)
    assert _spark_mean(pairs, 10) == pytest.approx(0.487913, abs=1e-5)
    assert _spark_mean(pairs, 15) == pytest.approx(_spark_mean(pairs, 10), abs=1e-5)


def test_spark_few_predictions_SPARK_14886():
    pairs = [([1, 6, 2], [1, 2, 3, 4, 5]), ([], [1, 2, 3])]
    assert _spark_mean(pairs, 1) == pytest.approx(0.5, abs=1e-5)
    assert _spark_mean(pairs, 2) == pytest.approx(0.30657, abs=1e-5)


def test_spark_ideal_in_label_order_can_pass_one():
    # Labels given low grade first: Spark's ideal is not sorted, so NDCG > 1.
    spark = PRESETS["spark"]
    assert ndcg_at([3, 1], spark.with_(k=2), judged=[1, 3]) > 1
    assert close(ndcg_at([3, 1], spark.with_(ideal_order="sorted").with_(k=2), judged=[1, 3]), 1.0)
    # DCG is log2's over ln 2; NDCG is unchanged by the base.
    dcg, _ = dcg_idcg_at([3, 1], spark.with_(k=2), judged=[3, 1])
    assert close(dcg, (7 + 1 / math.log2(3)) / math.log(2))


# --- Quepid: db/scorers/ndcg@10.js ------------------------------------------------------------

def test_quepid_divides_by_the_whole_ideal_list():
    # 21 rated documents, 12 relevant: nDCG = DCG@10 / DCG(ideal, ideal.length), not IDCG@10.
    ratings = [3, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    pool = dict(zip([f"d{i}" for i in range(10)], ratings, strict=True)) | {f"x{i}": 1 for i in range(11)}
    ideal = sorted(pool.values(), reverse=True)
    dcg = sum((2**r - 1) / math.log2(i + 2) for i, r in enumerate(ratings))
    whole = sum((2**r - 1) / math.log2(i + 2) for i, r in enumerate(ideal))
    assert close(one_query(ratings, 10, "quepid", pool), dcg / whole)
    assert one_query(ratings, 10, "quepid", pool) < one_query(ratings, 10, "ranx_burges", pool)


# --- scikit-learn log_base, and the new choices one by one -------------------------------------

@settings(max_examples=100, deadline=None)
@given(grades=st.lists(st.integers(0, 4), min_size=2, max_size=10),
       base=st.sampled_from([1.5, math.e, 3, 10]), k=st.integers(1, 12))
def test_discount_log_base_is_sklearn_log_base(grades, base, k):
    y_true = np.array([grades], float)
    y_score = np.arange(len(grades), 0, -1, dtype=float)[None, :]
    config = Measure(discount="log", base=base, ideal="retrieved")
    dcg, _ = dcg_idcg_at(grades, config.with_(k=k))
    assert close(dcg, dcg_score(y_true, y_score, k=k, log_base=base))
    assert close(ndcg_at(grades, config.with_(k=k)), ndcg_score(y_true, y_score, k=k))


def test_discount_table_and_its_end():
    config = Measure(discount=[1, 0.5, 0.25])
    table = per_rank([3, 2, 1, 4], config)
    assert table["discount"].tolist() == [1, 0.5, 0.25, 0]
    assert table["dcg"].iloc[-1] == 3 + 1 + 0.25
    assert table["idcg"].iloc[-1] == 4 + 1.5 + 0.5
    assert "discount table (1, 0.5, 0.25), 0 past rank 3" in config.describe()
    with pytest.raises(ValueError, match="discount table entries"):
        Measure(discount=[1, -1])
    with pytest.raises(ValueError, match="at least one rank"):
        Measure(discount=[])


def test_idcg_zero_scored_one_and_rounding_half_away():
    assert ndcg_at([0, 0], Measure(idcg_zero="one", k=2)) == 1.0
    assert ndcg_at([0, 0], Measure(k=2)) == 0.0
    # 0.125 is exact in binary: np.round gives 0.12, OpenSearch's half-up 0.13.
    config = Measure(discount=[1, 1], rounding=2, ideal="retrieved")
    assert ndcg_at([1, 8], config.with_(rounding=None).with_(k=1)) == 0.125
    assert ndcg_at([1, 8], config.with_(k=1)) == 0.13


def test_choices_are_validated_and_described():
    for field, bad in (("idcg_zero", "nan"), ("ideal_order", "file"), ("ideal_depth", 3),
                       ("rounding", -1), ("rounding", 2.5), ("judged_only", "yes"), ("discount", "ln")):
        with pytest.raises(ValueError, match=field):
            Measure(**{field: bad})
    text = Measure(judged_only=True, ideal_order="given", ideal_depth="list", idcg_zero="one",
                        rounding=2, discount="log", base=10).describe()
    for words in ("condensed", "order the judgments are given", "min(k, list length)", "IDCG = 0 scores 1",
                  "rounded to 2 decimals", "1/log_10(i+1)"):
        assert words in text
    assert Measure().describe() == (
        "gain = rel; discount 1/log2(i+1); ideal from all judged documents; negative grades kept")


CHOICES = st.builds(
    Measure,
    gain=st.sampled_from(["linear", "exponential"]),
    discount=st.sampled_from(["log2", "log", "jarvelin", (1.0, 0.7, 0.2)]),
    base=st.sampled_from([2, 3, math.e]),
    ideal=st.sampled_from(["judged", "retrieved"]),
    negative=st.sampled_from(["keep", "zero"]),
    judged_only=st.booleans(),
    idcg_zero=st.sampled_from(["zero", "one"]),
    ideal_order=st.sampled_from(["sorted", "given"]),
    ideal_depth=st.sampled_from(["k", "list", "all"]),
    rounding=st.sampled_from([None, 2, 4]),
)


@settings(max_examples=300, deadline=None)
@given(grades=st.lists(st.one_of(st.none(), st.integers(-1, 3), st.sampled_from([0.5, 2.25])), max_size=12),
       extra=st.lists(st.integers(-1, 3), max_size=4), k=st.one_of(st.none(), st.integers(1, 14)),
       config=CHOICES)
def test_one_list_and_evaluate_agree_on_every_choice(grades, extra, k, config):
    """`ndcg_at` (one list; NaN = unjudged) and `evaluate` (run and qrels) under the same choices."""
    grades = np.array([np.nan if g is None else g for g in grades], float)
    docs = [f"d{i:02d}" for i in range(len(grades))]
    judged = ~np.isnan(grades)
    pool_docs = [d for d, j in zip(docs, judged, strict=True) if j] + [f"x{i}" for i in range(len(extra))]
    pool = np.concatenate([grades[judged], np.array(extra, float)])
    run = pd.DataFrame({"query": "q", "doc": docs, "rank": np.arange(1, len(docs) + 1)})
    qrels = pd.DataFrame({"query": "q", "doc": pool_docs, "grade": pool})
    result = evaluate(run, qrels, config.with_(k=k, ties="file"))
    if len(pool) == 0:
        assert "q" not in result.index
        return
    listed = grades if config.judged_only else np.nan_to_num(grades)
    kept = grades[condensed_keep(grades, config)]
    for pool_grades in (pool, np.nan_to_num(grades), kept):
        # Kept negative grades can cancel to an IDCG of 1e-16 in one sum order and 0 in another.
        idcg = dcg_idcg_at(listed, config.with_(k=k), pool_grades)[1]
        assume(config.negative == "zero" or not 0 < abs(idcg) < 1e-9)
    assume(config.negative == "zero" or not 0 < abs(result.loc["q", "idcg"]) < 1e-9)
    assert close(result.loc["q", "ndcg"], ndcg_at(listed, config.with_(k=k), judged=pool), tol=1e-9)
    if not len(grades):
        return
    # Without qrels, the ideal is drawn from the run's own rows, an unjudged one as gain 0.
    own = evaluate(run.assign(grade=grades), None, config.with_(k=k, ties="file"))
    assume(config.negative == "zero" or not 0 < abs(own.loc["q", "idcg"]) < 1e-9)
    own_pool = kept if config.judged_only else np.nan_to_num(grades)
    assert close(own.loc["q", "ndcg"], ndcg_at(listed, config.with_(k=k), judged=own_pool), tol=1e-9)
    assert close(mean_ndcg(result), result.loc["q", "ndcg"])


# --- TF-Ranking: tensorflow_ranking/python/metrics_impl_test.py, NDCGMetricTest -------------------

def _tf_ranking(labels, scores, topn=None, config=None) -> float:
    run = pd.DataFrame({"query": "q", "doc": [f"d{i}" for i in range(len(labels))],
                        "score": scores, "grade": labels})
    chosen = PRESETS["tf_ranking"]
    result = evaluate(run, None, (config or chosen).with_(k=topn, ties=chosen.ties))
    return float(result.loc["q", "ndcg"])


def log2p1(x: float) -> float:
    return math.log2(1.0 + x)


def test_tf_ranking_ndcg_metric_test_values():
    assert close(_tf_ranking([0, 1, 0], [3, 2, 1]), (1 / log2p1(2)) / (1 / log2p1(1)))
    assert _tf_ranking([0, 0, 0], [3, 2, 1]) == 0.0  # test_ndcg_should_be_0_when_no_rel_items
    graded = ((2**3 - 1) / log2p1(2) + 1 / log2p1(3)) / ((2**3 - 1) / log2p1(1) + 1 / log2p1(2))
    assert close(_tf_ranking([0, 3, 1, 0], [4, 3, 2, 1]), graded)
    # custom gain_fn label / 2: a gain table; custom rank_discount_fn 1 / (rank + 10): a discount table
    halves = PRESETS["tf_ranking"].with_(gain={0: 0, 1: 0.5, 3: 1.5})
    value = ((3 / 2) / log2p1(2) + (1 / 2) / log2p1(3)) / ((3 / 2) / log2p1(1) + (1 / 2) / log2p1(2))
    assert close(_tf_ranking([0, 3, 1, 0], [4, 3, 2, 1], config=halves), value)
    tenths = PRESETS["tf_ranking"].with_(discount=[1 / (r + 10) for r in range(1, 5)])
    value = ((2**3 - 1) / (2 + 10) + 1 / (3 + 10)) / ((2**3 - 1) / (1 + 10) + 1 / (2 + 10))
    assert close(_tf_ranking([0, 3, 1, 0], [4, 3, 2, 1], config=tenths), value)
    # test_ndcg_should_ignore_padded_items: the label −1 leaves the list
    padded = ((2**2 - 1) / log2p1(3) + 1 / log2p1(1)) / ((2**2 - 1) / log2p1(1) + 1 / log2p1(2))
    assert close(_tf_ranking([2, -1, 1, 0], [1, 4, 3, 2]), padded)
    # test_ndcg_should_handle_topn
    top = [(1, [1, 0, 2], (1 / log2p1(1)) / ((2**2 - 1) / log2p1(1))),
           (2, [0, 1, 0], (1 / log2p1(2)) / (1 / log2p1(1))),
           (6, [1, 0, 2], (1 / log2p1(1) + (2**2 - 1) / log2p1(3))
            / ((2**2 - 1) / log2p1(1) + 1 / log2p1(2)))]
    for topn, labels, expected in top:
        assert close(_tf_ranking(labels, [3, 2, 1], topn), expected)


# --- OpenSearch: src/test/.../metrics/calculator/EvaluationTests.java, testCalculateNDCGAtK ------

def test_opensearch_calculate_ndcg_at_k():
    judgments = {f"d{i}": i % 3 for i in range(1, 21)}
    results = list(judgments)

    def ndcg(docs, k):
        run = pd.DataFrame({"query": "q", "doc": docs, "rank": np.arange(1, len(docs) + 1)})
        qrels = pd.DataFrame({"query": "q", "doc": list(judgments), "grade": list(judgments.values())})
        chosen = PRESETS["opensearch"]
        return float(evaluate(run, qrels, chosen.with_(k=k)).loc["q", "ndcg"])

    assert ndcg(results, 20) == 0.76
    assert ndcg(results[:5], 5) == 0.51
    assert ndcg(results[:5], 8) == 0.40
    assert ndcg(results[:8], 5) == 0.51


def test_unjudged_bounds_follow_idcg_zero_and_rounding():
    from ndcg_gui.core import unjudged_bounds

    # One unjudged document and one judged 0: graded 0 the list has IDCG = 0, which scores 1 here.
    low, high, _ = unjudged_bounds([np.nan, 0.0], Measure(idcg_zero="one", ideal="retrieved", k=2))
    assert (low, high) == (1.0, 1.0)
    rounded = Measure(rounding=2, ideal="retrieved")
    low, high, _ = unjudged_bounds([0.0, np.nan], rounded.with_(k=2), scale=[0, 1])
    assert (low, high) == (0.0, 0.63)  # 1/log2(3) = 0.6309…, rounded as the figure is


@settings(max_examples=150, deadline=None)
@given(grades=st.lists(st.one_of(st.none(), st.integers(-1, 3)), min_size=1, max_size=10),
       extra=st.lists(st.integers(0, 3), max_size=3), negative=st.sampled_from(["keep", "zero"]))
def test_a_condensed_list_keeps_a_row_per_document_in_the_per_rank_table(grades, extra, negative):
    grades = np.array([np.nan if g is None else g for g in grades], float)
    config = Measure(judged_only=True, negative=negative, idcg_zero="one")
    pool = np.concatenate([grades[~np.isnan(grades)], extra])
    table = per_rank(grades, config, judged=pool)
    assert len(table) == len(grades)
    keep = condensed_keep(grades, config)
    place = np.cumsum(keep)
    for row in np.flatnonzero(keep):  # a kept row shows NDCG at its rank among the kept rows
        assert close(table["ndcg"].iloc[row], ndcg_at(grades, config.with_(k=int(place[row])), judged=pool),
                     tol=1e-9)
    assert (table["discount"][~keep] == 0).all() and (table["gain"][~keep] == 0).all()


def test_the_window_summary_follows_condensing_idcg_zero_and_rounding():
    from ndcg_gui.core.analysis.list_report import list_summary
    from ndcg_gui.core.lists.ranked_list import RankedList

    lst = RankedList(docs=np.array(["a", "b", "c"], object), grades=np.array([np.nan, 0.0, 1.0]))
    condensed = list_summary(lst, Measure(judged_only=True, ideal="retrieved", rounding=2, k=2, ties="file"))
    assert condensed.ndcg == 0.63  # b, c at ranks 1, 2: (1/log2 3) / 1, rounded
    zero = RankedList(docs=np.array(["a"], object), grades=np.array([0.0]))
    assert list_summary(zero, Measure(idcg_zero="one", k=1, ties="file")).ndcg == 1.0
