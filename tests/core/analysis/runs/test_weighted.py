"""The weighted randomization test and bootstrap (`core.analysis.runs.weighted`) against references
that do not share its reduction: every sign pattern of the weighted mean in exact arithmetic,
scipy.stats.permutation_test and scipy.stats.bootstrap with the weighted mean as their statistic,
and the unweighted tests of `significance` when every weight is equal."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from ndcg_gui.core.analysis.runs import significance as sig
from ndcg_gui.core.analysis.runs import weighted as wt


def exact_weighted_p(numerators: list[int], denominator: int, weights: list[int]) -> float:
    """The share of all 2^n sign patterns whose |weighted mean| is at least the observed one, in
    rational arithmetic."""
    d = [Fraction(x, denominator) for x in numerators]
    total = sum(weights)
    observed = abs(sum(w * x for w, x in zip(weights, d, strict=True)) / total)
    hits = sum(abs(sum(s * w * x for s, w, x in zip(signs, weights, d, strict=True)) / total) >= observed
               for signs in itertools.product((1, -1), repeat=len(d)))
    return hits / 2 ** len(d)


def weighted_mean_statistic(w: np.ndarray):
    def statistic(x, axis=-1):
        return (x * w).sum(axis=axis) / w.sum()
    return statistic


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(-12, 12), st.integers(0, 9)), min_size=1, max_size=10),
       st.sampled_from([7, 60, 1000]))
def test_exact_weighted_p_equals_every_sign_pattern_in_exact_arithmetic(pairs, denominator):
    numerators, weights = [n for n, _ in pairs], [w for _, w in pairs]
    if not any(weights):
        return
    d = sig.snap_ties(np.array(numerators, dtype=float) / denominator)
    p, exact = wt.weighted_sign_flip_p(d, np.array(weights, float), samples=2 ** len(d), seed=0)
    assert exact
    assert p == pytest.approx(exact_weighted_p(numerators, denominator, weights), abs=1e-15)


@pytest.mark.parametrize("n", [2, 5, 9, 12])
@pytest.mark.parametrize("seed", [0, 1])
def test_exact_weighted_p_equals_scipy_enumeration(n, seed):
    rng = np.random.default_rng(seed)
    d, w = rng.normal(0.02, 0.1, n), rng.exponential(1.0, n)
    p, exact = wt.weighted_sign_flip_p(d, w, samples=10_000, seed=0)
    ref = stats.permutation_test((d,), weighted_mean_statistic(w), permutation_type="samples",
                                 vectorized=True, n_resamples=np.inf, alternative="two-sided")
    assert exact and p == pytest.approx(ref.pvalue, abs=1e-12)


def test_sampled_weighted_p_is_close_to_the_exact_one():
    rng = np.random.default_rng(20)
    numerators, weights = rng.integers(-40, 60, 17).tolist(), rng.integers(1, 20, 17).tolist()
    exact = exact_weighted_p(numerators, 100, weights)
    assert 0.01 < exact < 0.9
    p, is_exact = wt.weighted_sign_flip_p(np.array(numerators) / 100, np.array(weights, float), 4000, 3)
    assert not is_exact
    assert abs(p - exact) < 5 * math.sqrt(exact * (1 - exact) / 4000) + 2 / 4000


def test_heavy_queries_decide_the_test():
    """Eight heavy queries won, eight light ones lost as much: no difference unweighted, a clear
    one weighted; and one query alone, however heavy, is no evidence (its flip reaches it)."""
    d = np.array([0.1] * 8 + [-0.1] * 8)
    w = np.array([100.0] * 8 + [1.0] * 8)
    assert sig.sign_flip_p(d, 2 ** 16, 0) == (1.0, True)
    p, exact = wt.weighted_sign_flip_p(d, w, 2 ** 16, 0)
    assert exact
    assert p == pytest.approx(exact_weighted_p([10] * 8 + [-10] * 8, 100, [100] * 8 + [1] * 8), abs=1e-15)
    assert p < 0.01  # the heavy queries must all keep one sign to reach it
    alone = wt.weighted_sign_flip_p(np.array([0.5, -0.05, -0.05]), np.array([1e6, 1.0, 1.0]), 100, 0)
    assert alone == (1.0, True)


@pytest.mark.parametrize("samples", [50, 4096, 10_000])
def test_equal_weights_are_the_unweighted_tests_bit_for_bit(samples):
    d = sig.snap_ties(np.random.default_rng(7).normal(0.01, 0.1, 12 if samples == 4096 else 40))
    for scale in (1.0, 3.7, 1e300):
        w = np.full(len(d), scale)
        assert wt.weighted_sign_flip_p(d, w, samples, 5) == sig.sign_flip_p(d, samples, 5)
        assert wt.weighted_bootstrap_ci(d, w, samples, 5) == sig.bootstrap_ci(d, samples, 5)


@pytest.mark.parametrize(("n", "samples", "seed", "confidence"),
                         [(2, 500, 0, 0.95), (7, 1000, 3, 0.9), (50, 10_000, 0, 0.95), (300, 2000, 11, 0.99)])
def test_weighted_bootstrap_equals_scipy_paired_bootstrap_of_the_weighted_mean(n, samples, seed, confidence):
    rng = np.random.default_rng(n)
    d, w = rng.normal(0.01, 0.1, n), rng.exponential(2.0, n)

    def statistic(x, v, axis=-1):
        return (x * v).sum(axis=axis) / v.sum(axis=axis)

    ref = stats.bootstrap((d, w / w.max()), statistic, paired=True, vectorized=True, n_resamples=samples,
                          method="percentile", confidence_level=confidence,
                          rng=np.random.default_rng(seed)).confidence_interval
    assert wt.weighted_bootstrap_ci(d, w, samples, seed, confidence) == pytest.approx(
        (ref.low, ref.high), rel=1e-12, abs=1e-15)


def test_resamples_of_weight_zero_are_left_out(monkeypatch):
    d, w = np.array([0.3, -0.2, 0.1]), np.array([0.0, 2.0, 1.0])
    samples, seed = 3000, 4
    picked = np.random.default_rng(seed).integers(0, 3, (samples, 3))
    means = [math.fsum(w[i] * d[i] for i in row) / math.fsum(w[i] for i in row) for row in picked
             if w[row].sum() > 0]
    assert len(means) < samples  # some resamples drew only the query of weight 0
    want = np.quantile(means, [0.025, 0.975])
    assert wt.weighted_bootstrap_ci(d, w, samples, seed) == pytest.approx(tuple(want), rel=1e-12)
    monkeypatch.setattr(sig, "CHUNK_CELLS", 7)  # the same draws, whatever the chunks
    assert wt.weighted_bootstrap_ci(d, w, samples, seed) == pytest.approx(tuple(want), rel=1e-12)


def test_degenerate_cases():
    empty = np.array([])
    assert np.isnan(wt.weighted_sign_flip_p(empty, empty, 100, 0)[0])
    assert all(np.isnan(wt.weighted_bootstrap_ci(empty, empty, 100, 0)))
    zero = np.zeros(3)
    assert np.isnan(wt.weighted_sign_flip_p(np.ones(3), zero, 100, 0)[0])
    assert all(np.isnan(wt.weighted_bootstrap_ci(np.ones(3), zero, 100, 0)))
    # a query of weight 0 is never flipped: its difference changes nothing
    d = np.array([0.2, -0.1, 0.3, 0.05])
    assert wt.weighted_sign_flip_p(np.append(d, 9.0), np.append(np.ones(4), 0.0), 100, 0) == \
        sig.sign_flip_p(d, 100, 0)
    for bad in ([-1.0, 1.0], [np.nan, 1.0], [np.inf, 1.0]):
        with pytest.raises(ValueError, match="finite numbers of at least 0"):
            wt.weighted_sign_flip_p(np.ones(2), np.array(bad), 100, 0)
    with pytest.raises(ValueError, match="2 differences but 3 weights"):
        wt.weighted_bootstrap_ci(np.ones(2), np.ones(3), 100, 0)
