"""The `spark` preset against Spark itself (pyspark 3.5, local mode): `RankingMetrics.ndcgAt` of
pyspark.mllib (binary labels), the same Scala class with relevance values (graded: PySpark drops
them, so it is called through the JVM), and `RankingEvaluator` (pyspark.ml, ndcgAtK), query by
query, on random lists with tied scores (ranked in file order, as Spark takes the list given),
graded, negative, fractional and binary labels, queries without results and without labels. Our
figure is Spark's to 1e-12, quirks included:

- the ideal takes the labels in the order given (RankingMetrics.scala:190-191, `lab(i)`), so NDCG
  can pass 1 (and with negative labels, be negative);
- gain 2^rel − 1 over ln(i + 2) (RankingMetrics.scala:188 and 191; binary: 1/ln(i + 2), 179);
- an ideal of 0 gives 0 (RankingMetrics.scala:196-198);
- a query without labels scores 0 and counts in Spark's mean (RankingMetrics.scala:203-204); here
  it is left out, so the means differ by that count;
- PySpark's RankingMetrics drops the relevance values (PythonMLLibAPI.scala:1066-1067 maps each row
  to (predictions, labels)): with them it gives the binary figure;
- RankingEvaluator takes (prediction, label) arrays of doubles only: binary (RankingEvaluator.scala:
  122-124).
Line numbers: the LineNumberTable of spark-mllib_2.12-3.5.9.jar (`javap -l`), which ships in the
pyspark wheel; PySpark's side in pyspark/mllib/evaluation.py:465-468.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from ndcg_gui.core import PRESETS, evaluate

pytest.importorskip("pyspark")  # (make test installs the spark extra: never skipped there)

# (PySpark's RankingMetrics makes an SQLContext, deprecated since 3.0, itself)
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("spark"),  # one JVM, one worker (the CLI's: another)
              pytest.mark.filterwarnings("ignore:Deprecated in 3.0.0:FutureWarning")]

SPARK = PRESETS["spark"]


@pytest.fixture(scope="module")
def spark():
    from ndcg_gui.core.sql.spark_engine import session

    return session("local[2]")


def _draw(rng: np.random.Generator, graded: bool) -> tuple[list[str], list[str], list[float], list[float]]:
    """One query: docs and scores in file order (ties: few distinct scores), and labels with
    their relevance in the order given (some retrieved, some not)."""
    n = int(rng.integers(0, 9)) if rng.random() > 0.1 else 0
    docs = [f"d{i}" for i in rng.permutation(12)[:n]]
    scores = [float(s) for s in rng.choice([1.0, 2.0, 2.0, 3.0, 0.5], size=n)]
    # Mostly retrieved documents, in random order, and a few never retrieved.
    pool = [*docs, "x1", "x2", "x3"]
    m = min(len(pool), int(rng.integers(0, 7))) if rng.random() > 0.1 else 0
    labelled = [pool[i] for i in rng.permutation(len(pool))[:m]]
    grades = [1.0] * m
    if graded:
        grades = [float(g) for g in rng.choice([-1.0, 0.0, 0.5, 1.0, 2.0, 3.0, 4.0], size=m)]
    return docs, labelled, grades, scores


def _ranked(docs: list[str], scores: list[float]) -> list[str]:
    """The list as Spark is given it: by score, ties in file order."""
    order = sorted(range(len(docs)), key=lambda i: -scores[i])  # (a stable sort)
    return [docs[i] for i in order]


def _ours(queries, k: int) -> dict[str, float]:
    run = pd.DataFrame([(q, d, s) for q, (docs, _, _, scores) in queries.items()
                        for d, s in zip(docs, scores, strict=True)], columns=["query", "doc", "score"])
    qrels = pd.DataFrame([(q, d, g) for q, (_, labels, grades, _) in queries.items()
                          for d, g in zip(labels, grades, strict=True)], columns=["query", "doc", "grade"])
    table = evaluate(run, qrels, SPARK.with_(k=k, empty="zero"))
    return table["ndcg"].to_dict()


def _scala_ndcg(spark, pred: list[str], labels: list[str], grades: list[float], k: int) -> float:
    """Scala's RankingMetrics(RDD[(Array[T], Array[T], Array[Double])]).ndcgAt(k) of one query."""
    sc = spark.sparkContext
    jvm, gateway = sc._jvm, sc._gateway

    def array(values, kind):
        out = gateway.new_array(kind, len(values))
        for i, v in enumerate(values):
            out[i] = v
        return out

    rows = jvm.java.util.ArrayList()
    rows.add(jvm.scala.Tuple3(array(pred, jvm.java.lang.String), array(labels, jvm.java.lang.String),
                              array(grades, jvm.double)))
    rdd = sc._jsc.parallelize(rows, 1).rdd()
    tag = getattr(getattr(jvm.scala.reflect, "ClassTag$"), "MODULE$").AnyRef()
    return jvm.org.apache.spark.mllib.evaluation.RankingMetrics(rdd, tag).ndcgAt(k)


def _close(got: float, want: float) -> bool:
    return math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-12)


def _queries(seed: int, graded: bool, n: int = 16) -> dict:
    rng = np.random.default_rng(seed)
    return {f"q{i}": _draw(rng, graded) for i in range(n)}


def test_graded_ndcg_at_k_is_sparks_query_by_query(spark):
    seen = {"above one": 0, "below zero": 0, "ideal 0": 0, "no results": 0}
    for seed in range(4):
        queries, k = _queries(seed, graded=True), 1 + seed * 2
        ours = _ours(queries, k)
        for q, (docs, labels, grades, scores) in queries.items():
            theirs = _scala_ndcg(spark, _ranked(docs, scores), labels, grades, k)
            if not labels:  # Spark: 0 (and counted in its mean); here left out
                assert theirs == 0.0 and q not in ours
                continue
            assert _close(ours[q], theirs), (q, ours[q], theirs, docs, labels, grades)
            seen["above one"] += ours[q] > 1
            seen["below zero"] += ours[q] < 0
            seen["ideal 0"] += all(g == 0 for g in grades[:k])
            seen["no results"] += not docs
    assert all(seen.values()), seen  # each quirk met at least once


def test_an_ideal_in_label_order_passes_one_as_in_spark(spark):
    # Labelled low grade first: the ideal 1/ln 2 + 7/ln 3 is below the list's 7/ln 2 + 1/ln 3.
    queries = {"q": (["a", "b"], ["b", "a"], [1.0, 3.0], [2.0, 1.0])}
    theirs = _scala_ndcg(spark, ["a", "b"], ["b", "a"], [1.0, 3.0], 2)
    assert theirs > 1 and _close(_ours(queries, 2)["q"], theirs)
    # Every label 0: Spark's ideal is 0 and it answers 0, as the preset does.
    queries = {"q": (["a"], ["a"], [0.0], [1.0])}
    assert _scala_ndcg(spark, ["a"], ["a"], [0.0], 1) == 0.0 == _ours(queries, 1)["q"]


@pytest.mark.parametrize("seed", range(3))
def test_binary_ndcg_at_k_is_pysparks_query_by_query(spark, seed):
    from pyspark.mllib.evaluation import RankingMetrics

    queries, k = _queries(100 + seed, graded=False), 2 + seed * 3
    ours = _ours(queries, k)
    for q, (docs, labels, _, scores) in queries.items():
        pred = _ranked(docs, scores)
        if not pred or not labels:  # (PySpark cannot type an empty list: the JVM's class directly)
            theirs = _scala_ndcg(spark, pred, labels, [], k)
        else:
            theirs = RankingMetrics(spark.sparkContext.parallelize([(pred, labels)], 1)).ndcgAt(k)
        if not labels:
            assert theirs == 0.0 and q not in ours
            continue
        assert _close(ours[q], theirs), (q, ours[q], theirs)


def test_pyspark_drops_the_relevance_values(spark):
    from pyspark.mllib.evaluation import RankingMetrics

    pred, labels, grades = ["a", "b", "c"], ["c", "a"], [3.0, 1.0]
    with_relevance = RankingMetrics(spark.sparkContext.parallelize([(pred, labels, grades)], 1)).ndcgAt(3)
    binary = {"q": (pred, labels, [1.0, 1.0], [3.0, 2.0, 1.0])}
    graded = {"q": (pred, labels, grades, [3.0, 2.0, 1.0])}
    assert _close(with_relevance, _ours(binary, 3)["q"])
    assert _close(_scala_ndcg(spark, pred, labels, grades, 3), _ours(graded, 3)["q"])
    assert not _close(_ours(graded, 3)["q"], _ours(binary, 3)["q"])


def test_ranking_evaluator_ndcg_at_k_is_the_binary_figure(spark):
    from pyspark.ml.evaluation import RankingEvaluator

    queries, k = _queries(7, graded=False, n=10), 4
    ours = _ours(queries, k)
    rows, counted = [], []
    for q, (docs, labels, _, scores) in queries.items():
        # Items are doubles for RankingEvaluator: d7 is 7.0, x2 is 102.0.
        def item(doc: str) -> float:
            return float(doc[1:]) + (100 if doc[0] == "x" else 0)

        rows.append(([item(d) for d in _ranked(docs, scores)], [item(d) for d in labels]))
        counted.append(ours.get(q, 0.0))  # a query without labels: 0 in Spark's mean
    frame = spark.createDataFrame(rows, "prediction array<double>, label array<double>")
    evaluator = RankingEvaluator(metricName="ndcgAtK", k=k)
    assert _close(evaluator.evaluate(frame), sum(counted) / len(counted))
    for (pred, labels), want in zip(rows[:4], counted[:4], strict=True):  # and query by query
        one = spark.createDataFrame([(pred, labels)], "prediction array<double>, label array<double>")
        assert _close(evaluator.evaluate(one), want)
