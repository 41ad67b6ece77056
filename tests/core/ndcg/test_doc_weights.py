"""Document weights and list weights as TF-Ranking defines them (`Measure.doc_weights`, issue 35
item 2): TF-Ranking's own test cases, transcribed (tensorflow cannot be installed here), and the
definition brute-forced against `evaluate` on small lists.

TF-Ranking 0.5.5 (github.com/tensorflow/ranking at 5b1d133): tensorflow_ranking/python/
metrics_impl.py, NDCGMetric._compute_impl (lines 652-670): DCG of weight × gain, the ideal sorted by
weight × gain, per-list weights by _per_example_weights_to_per_list_weights (lines 63-118); a weight
of 0 masks the document (line 261); metrics.py:503 the mean, tf.compat.v1.metrics.mean(per_list_ndcg,
per_list_weights).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.lists.dataset import FrameDataset
from ndcg_gui.core.ndcg.evaluate import Joined, evaluate, list_weights, mean_ndcg, score_ranked
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.presets import PRESETS

TF = PRESETS["tf_ranking"].with_(doc_weights="tf_ranking")


def log2p1(x):  # metrics_impl_test.py:23
    return math.log2(1. + x)


def _dcg(label, rank, weight=1.0, gain_fn=lambda l: math.pow(2.0, l) - 1.0,  # noqa: E741
         rank_discount_fn=lambda r: 1. / math.log(r + 1.0, 2.0)):  # metrics_test.py:28-45
    return weight * gain_fn(label) * rank_discount_fn(rank)


def frame(labels, scores, weights) -> pd.DataFrame:
    """A batch as TF-Ranking's tests give it (lists of lists) as a run: one query a list."""
    batch = zip(labels, scores, weights, strict=True)
    rows = [(f"q{i}", f"d{j}", s, g, w) for i, (ls, ss, ws) in enumerate(batch)
            for j, (g, s, w) in enumerate(zip(ls, ss, ws, strict=True))]
    return pd.DataFrame(rows, columns=["query", "doc", "score", "grade", "doc_weight"])


def compute(labels, scores, weights, topn=None, measure=TF):
    """NDCGMetric(topn).compute(labels, scores, weights): (per-list NDCG, per-list weights), and
    metrics.normalized_discounted_cumulative_gain's mean of them."""
    result = evaluate(frame(labels, scores, weights), None, measure.with_(k=topn))
    return result["ndcg"].tolist(), list_weights(result).tolist(), mean_ndcg(result, measure.with_(k=topn))


# --- metrics_impl_test.py, NDCGMetricTest ---------------------------------------------------------

def test_ndcg_with_weights():
    output, _, _ = compute([[1., 2., 3.]], [[1., 2., 3.]], [[4., 1., 1.]])
    assert output == pytest.approx([((2**3. - 1.) / log2p1(1) + (2**2. - 1.) / log2p1(2) +
                                     (2**1. - 1.) / log2p1(3) * 4.) /
                                    ((2**3. - 1.) / log2p1(1) + (2**2. - 1.) / log2p1(3) +
                                     (2**1. - 1.) / log2p1(2) * 4.)])


def test_ndcg_weights_should_be_average_of_weighted_gain():
    _, output_weights, _ = compute([[1., 0., 2.]], [[1., 3., 2.]], [[3., 7., 9.]])
    assert output_weights == pytest.approx([(1. * 3. + (2. ** 2. - 1.) * 9.) / (1. + (2. ** 2. - 1.))])


def test_ndcg_weights_should_be_1_when_no_rel_items():
    _, output_weights, _ = compute([[0., 0., 0.]], [[1., 3., 2.]], [[2., 4., 4.]])
    assert output_weights == pytest.approx([1.])


def test_ndcg_weights_should_use_custom_gain_fn():
    # gain_fn = lambda label: label + 5.: a gain table over the labels there are
    plus_five = TF.with_(gain={0: 5., 1: 6., 2: 7.})
    _, output_weights, _ = compute([[1., 0., 2.]], [[1., 3., 2.]], [[3., 7., 9.]], measure=plus_five)
    assert output_weights == pytest.approx([((1. + 5.) * 3. + (0. + 5.) * 7. + (2. + 5.) * 9.) /
                                            ((1. + 5.) + (0. + 5.) + (2. + 5.))])


def test_ndcg_with_all_zero_weights():
    output, output_weights, _ = compute([[1., 2., 3.]], [[1., 2., 3.]], [[0., 0., 0.]])
    assert output == pytest.approx([0.0])
    assert output_weights == pytest.approx([0.0])


# --- metrics_test.py, MetricsTest.test_make_normalized_discounted_cumulative_gain_fn -------------

SCORES = [[1., 3., 2.], [1., 2., 3.]]
LABELS = [[0., 0., 1.], [0., 1., 2.]]
WEIGHTS = [[1., 2., 3.], [4., 5., 6.]]


def test_make_ndcg_fn_without_weights():
    ones = [[1.] * 3] * 2
    _, _, first = compute([LABELS[0]], [SCORES[0]], [ones[0]])
    assert first == pytest.approx((_dcg(0., 1) + _dcg(1., 2) + _dcg(0., 3)) /
                                  (_dcg(1., 1) + _dcg(0., 2) + _dcg(0., 3)), abs=1e-5)
    expected_ndcg_1 = (_dcg(0., 1) + _dcg(1., 2) + _dcg(0., 3)) / (_dcg(1., 1) + _dcg(0., 2) + _dcg(0., 3))
    _, _, both = compute(LABELS, SCORES, ones)
    assert both == pytest.approx((expected_ndcg_1 + 1.0) / 2.0, abs=1e-5)


def test_make_ndcg_fn_with_item_wise_weights():
    _, _, top = compute([LABELS[0]], [SCORES[0]], [WEIGHTS[0]], topn=1)
    assert top == pytest.approx(_dcg(0., 1, 2.) / _dcg(1., 1, 3.), abs=1e-5)
    _, _, weight = compute([LABELS[0]], [SCORES[0]], [WEIGHTS[0]])
    assert weight == pytest.approx((_dcg(0., 1, 2.) + _dcg(1., 2, 3.) + _dcg(0., 3, 1.)) /
                                   (_dcg(1., 1, 3.) + _dcg(0., 2, 1.) + _dcg(0., 3, 2.)), abs=1e-5)


def test_make_ndcg_fn_with_list_wise_weights():
    # list_weights = [1., 0.]: a list's weight is every document's of it (TF-Ranking broadcasts a
    # [batch_size, 1] weight over the list, _prepare_and_validate_params)
    list_weights_ = [[1.] * 3, [0.] * 3]
    _, _, mean = compute(LABELS, SCORES, list_weights_)
    assert mean == pytest.approx((_dcg(0., 1, 2.) + _dcg(1., 2, 3.) + _dcg(0., 3, 1.)) /
                                 (_dcg(1., 1, 3.) + _dcg(0., 2, 1.) + _dcg(0., 3, 2.)), abs=1e-5)


# --- the definition, brute force -----------------------------------------------------------------

def _direct(lists, k):
    """Per-list NDCG and weight and the weighted mean, from TF-Ranking's definition written out:
    each list sorted by score (file order among ties), weight-0 documents masked to the end, DCG
    of w·(2^g − 1)/log2(1 + rank) over the first k, the ideal the same documents sorted by w·gain;
    the per-list weight Σ w·gain / Σ gain with the batch's fallback."""
    ndcg, own, total = [], [], []
    for grades, scores, weights in lists:
        g, s, w = (np.asarray(x, float) for x in (grades, scores, weights))
        gain = 2.0 ** g - 1.0
        kept = np.flatnonzero(w > 0)
        order = kept[np.argsort(-s[kept], kind="stable")]
        top = order[:k]
        dcg = sum(w[i] * gain[i] / math.log2(r + 2) for r, i in enumerate(top))
        ideal = sorted((w[i] * gain[i] for i in kept), reverse=True)[:k]
        idcg = sum(v / math.log2(r + 2) for r, v in enumerate(ideal))
        ndcg.append(dcg / idcg if idcg > 0 else 0.0)
        own.append(float((w * gain).sum() / gain.sum()) if gain.sum() > 0 else None)
        total.append(float(w.sum()))
    counted = [o for o, t in zip(own, total, strict=True) if o is not None and t > 0]
    fallback = sum(counted) / len(counted) if counted else 1.0
    weight = [0.0 if t == 0 else fallback if o is None else o for o, t in zip(own, total, strict=True)]
    mean = float(np.dot(weight, ndcg) / sum(weight)) if sum(weight) > 0 else math.nan
    return ndcg, weight, mean


_list = st.integers(1, 6).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 3), min_size=n, max_size=n),
    st.lists(st.integers(-5, 5), min_size=n, max_size=n),
    st.lists(st.sampled_from([0.0, 0.25, 1.0, 2.0, 3.5]), min_size=n, max_size=n)))


@settings(max_examples=300, deadline=None)
@given(lists=st.lists(_list, min_size=1, max_size=4), k=st.sampled_from([None, 1, 2, 3, 5]))
def test_weighted_ndcg_and_mean_are_tf_rankings_definition(lists, k):
    run = frame(*zip(*lists, strict=True))
    measure = TF.with_(k=k)
    result = evaluate(run, None, measure)
    ndcg, weight, mean = _direct(lists, k)
    queries = [f"q{i}" for i in range(len(lists))]
    assert result.loc[queries, "ndcg"].to_numpy() == pytest.approx(ndcg, abs=1e-12)
    assert list_weights(result.loc[queries]) == pytest.approx(weight, abs=1e-12)
    assert mean_ndcg(result, measure) == pytest.approx(mean, abs=1e-12, nan_ok=True)
    # with the grades as qrels, the ideal from the list's own documents is the same
    judged = evaluate(run.drop(columns="grade"), run[["query", "doc", "grade"]], measure)
    assert judged.loc[queries, "ndcg"].to_numpy() == pytest.approx(ndcg, abs=1e-12)
    assert list_weights(judged.loc[queries]) == pytest.approx(weight, abs=1e-12)
    # a dataset's lists (in score order, as the loader keeps them; doc_weight cells as text, as a
    # reader keeps them) are scored the same
    ranked = run.assign(doc_weight=run["doc_weight"].map(repr), key=-run["score"])
    ranked = ranked.sort_values(["query", "key"], kind="stable").drop(columns="key")
    loaded = FrameDataset.of(ranked, None).evaluate(measure)
    pd.testing.assert_frame_equal(loaded.loc[queries], result.loc[queries], check_exact=False, rtol=0,
                                  atol=1e-12)


def test_weights_of_one_leave_every_figure_as_it_was():
    # (TF-Ranking's docstring: with all weights 1.0 the per-list weights are 1.0 everywhere)
    lists = [([1, 0, 2], [3, 2, 1], [1] * 3), ([0, 0, 0], [1, 2, 3], [1] * 3), ([3, 1], [1, 2], [1] * 2)]
    run = frame(*zip(*lists, strict=True))
    weighted = evaluate(run, None, TF.with_(k=2))
    plain = evaluate(run.drop(columns="doc_weight"), None, PRESETS["tf_ranking"].with_(k=2))
    assert weighted["ndcg"].tolist() == plain["ndcg"].tolist()
    assert list_weights(weighted).tolist() == [1.0, 1.0, 1.0]
    assert mean_ndcg(weighted, TF) == pytest.approx(mean_ndcg(plain))


# --- the data and the refusals -------------------------------------------------------------------

def test_a_csv_with_a_doc_weight_column_is_scored_with_its_weights(tmp_path):
    from ndcg_gui.core.reading import load

    path = tmp_path / "run.csv"
    path.write_text("query,doc,score,grade,doc_weight\nq,a,1,1,3\nq,b,3,0,7\nq,c,2,2,9\n")
    dataset = load(path)
    result = dataset.evaluate(TF.with_(k=None))
    # (the ideal: w·gain 27, 3, 0 — documents c, a, b)
    expected = (_dcg(0., 1, 7.) + _dcg(2., 2, 9.) + _dcg(1., 3, 3.)) / (_dcg(2., 1, 9.) + _dcg(1., 2, 3.))
    assert result.loc["q", "ndcg"] == pytest.approx(expected)
    assert list_weights(result).tolist() == pytest.approx([(1 * 3 + 3 * 9) / (1 + 3)])
    # without the measure's choice the column is only carried: the figures are unweighted
    plain = dataset.evaluate(PRESETS["tf_ranking"].with_(k=None))
    assert "list_weight" not in plain and plain.loc["q", "ndcg"] == pytest.approx(
        (_dcg(0., 1) + _dcg(2., 2) + _dcg(1., 3)) / (_dcg(2., 1) + _dcg(1., 2)))


@pytest.mark.parametrize(("cell", "problem"), [
    ("-1", 'doc_weight "-1" is negative'),
    ("nan", 'doc_weight "nan" is not a number (NaN)'),
    ("inf", 'doc_weight "inf" is not a finite number'),
    ("heavy", 'doc_weight "heavy" is not a number'),
])
def test_a_bad_doc_weight_is_refused_naming_the_file_and_line(tmp_path, cell, problem):
    from ndcg_gui.core.reading import load

    path = tmp_path / "run.csv"
    path.write_text(f"query,doc,score,grade,doc_weight\nq,a,1,1,3\n\nq,b,3,0,{cell}\n")
    with pytest.raises(InputError) as caught:
        load(path)
    message = str(caught.value)
    assert message.startswith("run.csv:4: " + problem) and "\n" not in message


def test_a_bad_doc_weight_in_parquet_is_refused_naming_the_row(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ndcg_gui.core.reading import load

    path = tmp_path / "run.parquet"
    pq.write_table(pa.table({"query": ["q", "q"], "doc": ["a", "b"], "score": [1.0, 2.0],
                             "grade": [1.0, 0.0], "doc_weight": [1.0, -2.0]}), path)
    with pytest.raises(InputError) as caught:
        load(path)
    assert str(caught.value).startswith("run.parquet: row 2: doc_weight \"-2\" is negative")


def test_the_measure_refuses_what_tf_ranking_has_no_weights_for():
    with pytest.raises(ValueError, match="doc_weights='tf_ranking' needs ideal='retrieved'"):
        Measure(doc_weights="tf_ranking")  # (the ideal from every judged document)
    with pytest.raises(ValueError, match="doc_weights must be 'none' or 'tf_ranking'"):
        Measure(doc_weights="gain")
    with pytest.raises(ValueError, match="needs a doc_weight column"):
        evaluate(frame([[1]], [[1]], [[1]]).drop(columns="doc_weight"), None, TF)


def test_rows_without_document_weights_are_never_scored_unweighted_unsaid():
    run = frame([[1, 0]], [[2, 1]], [[3, 1]])
    with pytest.raises(ValueError, match="scored without document weights"):
        Joined.of(run.drop(columns="doc_weight")).score(TF)
    with pytest.raises(ValueError, match="needs each row's document weight"):
        score_ranked(np.array(["q0"], object), np.zeros(2, np.intp), np.array([1.0, 0.0]), np.array([2]),
                     None, TF)


def test_the_sql_engines_refuse_document_weights_in_one_line():
    from ndcg_gui.core.sql.ndcg_sql import NotExpressible, check_expressible

    check_expressible(PRESETS["tf_ranking"].at(10), row_order=True)  # (the preset itself: as before)
    with pytest.raises(NotExpressible, match=r"^the SQL engines cannot compute NDCG with "
                                             r"doc_weights='tf_ranking' \(yet\)$"):
        check_expressible(TF.at(10), row_order=True)
