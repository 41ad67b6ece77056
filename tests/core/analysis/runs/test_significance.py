"""Each statistic of a run comparison against an independent reference: exact enumeration in
rational arithmetic, scipy.stats (ttest_rel, permutation_test, bootstrap), a step-down Holm
written from its definition, and the degenerate cases (no spread, one query, all ties)."""

import itertools
import math
import statistics
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from ndcg_gui.core.analysis.runs import significance as sig

# --- references -----------------------------------------------------------------------------------


def exact_sign_flip_p(numerators: list[int], denominator: int) -> float:
    """Two-sided sign-flip p by brute force over all 2^n sign patterns, in exact arithmetic:
    the share of patterns whose |sum| is at least the observed |sum| (zeros included)."""
    d = [Fraction(x, denominator) for x in numerators]
    observed = abs(sum(d))
    hits = sum(
        abs(sum(s * x for s, x in zip(signs, d, strict=True))) >= observed
        for signs in itertools.product((1, -1), repeat=len(d))
    )
    return hits / 2 ** len(d)


def scipy_sign_flip(d: np.ndarray, n_resamples: float, seed: int = 0):
    return stats.permutation_test(
        (d,), np.mean, permutation_type="samples", vectorized=True, n_resamples=n_resamples,
        alternative="two-sided", rng=np.random.default_rng(seed),
    )


def holm_reference(p: list[float]) -> list[float]:
    """Holm's adjusted p of each hypothesis from the procedure itself: the smallest level at
    which the step-down test (reject the smallest p while p_(r) * (m - r + 1) <= alpha) rejects it."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])

    def rejected(alpha: float) -> set[int]:
        out = set()
        for rank, i in enumerate(order):
            if p[i] * (m - rank) > alpha:
                break
            out.add(i)
        return out

    levels = sorted({min(1.0, p[i] * (m - rank)) for rank, i in enumerate(order)} | {1.0})
    # Never rejected at a level up to 1: adjusted p is 1 (adjusted p-values are capped at 1).
    return [min((a for a in levels if i in rejected(a)), default=1.0) for i in range(m)]


def monte_carlo_tolerance(p: float, draws: int) -> float:
    """Five standard errors of a Monte Carlo p-value, plus the +1 of the estimator."""
    return 5 * math.sqrt(max(p * (1 - p), 1e-4) / draws) + 2 / draws


# --- randomization test -----------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    numerators=st.lists(st.integers(-12, 12), min_size=1, max_size=11),
    denominator=st.sampled_from([7, 60, 1000]),
)
def test_exact_sign_flip_equals_enumeration_in_exact_arithmetic(numerators, denominator):
    # Grid values make true ties between sign patterns common: the rounding tolerance must
    # count them exactly as rational arithmetic does.
    d = sig.snap_ties(np.array(numerators, dtype=float) / denominator)
    p, exact = sig.sign_flip_p(d, samples=2 ** len(d), seed=0)
    assert exact
    assert p == pytest.approx(exact_sign_flip_p(numerators, denominator), abs=1e-15)


@pytest.mark.parametrize("n", [2, 3, 5, 8, 12])  # scipy needs 2 or more
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_exact_sign_flip_equals_scipy_permutation_test(n, seed):
    d = np.random.default_rng(seed).normal(0.02, 0.1, n)
    p, exact = sig.sign_flip_p(d, samples=10_000, seed=0)
    assert exact  # 2^12 = 4096 <= 10,000: scipy enumerates too
    assert p == pytest.approx(scipy_sign_flip(d, np.inf).pvalue, abs=1e-12)


def test_zero_differences_do_not_change_the_p_value():
    d = np.array([0.3, -0.1, 0.25, 0.05, 0.12, -0.02, 0.2, 0.07, 0.11, 0.01, 0.09, -0.04, 0.15, 0.06])
    with_zeros = np.concatenate([d, np.zeros(40)])
    # Exact (2^14 patterns; scipy would enumerate 2^54 for the zeros too) and the same value
    # as scipy's enumeration of the non-zero part.
    p, exact = sig.sign_flip_p(with_zeros, samples=20_000, seed=0)
    assert exact and p == sig.sign_flip_p(d, samples=20_000, seed=0)[0]
    assert p == pytest.approx(scipy_sign_flip(d, np.inf).pvalue, abs=1e-12)
    # Sampled: only non-zero differences are flipped, so zeros change nothing, draw for draw.
    assert sig.sign_flip_p(with_zeros, 1000, 5) == sig.sign_flip_p(d, 1000, 5)


@pytest.mark.parametrize("seed", [0, 1])
def test_sampled_sign_flip_is_close_to_the_exact_p(seed):
    # 2^17 patterns, 4,000 draws: a Monte Carlo estimate of a p-value computed exactly here.
    rng = np.random.default_rng(10 + seed)
    numerators = rng.integers(-40, 60, 17).tolist()
    d = np.array(numerators, dtype=float) / 100
    exact = exact_sign_flip_p(numerators, 100)
    assert 0.01 < exact < 0.9  # a p-value worth estimating
    p, is_exact = sig.sign_flip_p(d, samples=4000, seed=seed)
    assert not is_exact
    assert abs(p - exact) < monte_carlo_tolerance(exact, 4000)
    # scipy's own Monte Carlo estimate agrees with both to within chance.
    scipy_p = scipy_sign_flip(d, 4000, seed).pvalue
    assert abs(scipy_p - exact) < monte_carlo_tolerance(exact, 4000)


def test_sampled_sign_flip_counts_the_observed_pattern():
    # (count + 1) / (samples + 1): never 0, and a multiple of 1 / (samples + 1).
    d = np.full(40, 0.3) + np.linspace(0, 0.01, 40)  # every draw is smaller than the observed
    p, exact = sig.sign_flip_p(d, samples=999, seed=0)
    assert not exact and p == 1 / 1000
    d = np.random.default_rng(3).normal(0, 0.1, 30)
    p, _ = sig.sign_flip_p(d, samples=999, seed=0)
    assert p * 1000 == pytest.approx(round(p * 1000), abs=1e-9)


def test_sign_flip_is_reproducible_and_seeded():
    d = np.random.default_rng(4).normal(0.01, 0.1, 60)
    assert sig.sign_flip_p(d, 2000, 7) == sig.sign_flip_p(d, 2000, 7)
    assert len({sig.sign_flip_p(d, 2000, s)[0] for s in range(6)}) > 1


def test_sign_flip_does_not_depend_on_the_chunk_size(monkeypatch):
    d = np.random.default_rng(5).normal(0.01, 0.1, 50)
    expected = sig.sign_flip_p(d, 3000, 1), sig.sign_flip_p(d[:11], 3000, 1)
    monkeypatch.setattr(sig, "CHUNK_CELLS", 37)
    assert (sig.sign_flip_p(d, 3000, 1), sig.sign_flip_p(d[:11], 3000, 1)) == expected


def test_sign_flip_degenerate_cases():
    assert math.isnan(sig.sign_flip_p(np.array([]), 100, 0)[0])
    assert sig.sign_flip_p(np.zeros(5), 100, 0) == (1.0, True)  # nothing differs
    assert sig.sign_flip_p(np.array([0.4]), 100, 0) == (1.0, True)  # one query: +d and -d tie
    assert sig.sign_flip_p(np.array([0.4, -0.4]), 100, 0) == (1.0, True)  # observed mean 0


# --- bootstrap interval -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "samples", "seed", "confidence"),
    [(2, 500, 0, 0.95), (7, 1000, 3, 0.9), (50, 10_000, 0, 0.95), (300, 2000, 11, 0.99)],
)
def test_bootstrap_equals_scipy_percentile_bootstrap(n, samples, seed, confidence):
    d = np.random.default_rng(n).normal(0.01, 0.1, n)
    ours = sig.bootstrap_ci(d, samples, seed, confidence)
    ref = stats.bootstrap(
        (d,), np.mean, n_resamples=samples, method="percentile", confidence_level=confidence,
        rng=np.random.default_rng(seed),
    ).confidence_interval
    assert ours == pytest.approx((ref.low, ref.high), rel=1e-12, abs=1e-15)


def test_bootstrap_does_not_depend_on_the_chunk_size(monkeypatch):
    d = np.random.default_rng(6).normal(0, 0.1, 40)
    expected = sig.bootstrap_ci(d, 3000, 2)
    monkeypatch.setattr(sig, "CHUNK_CELLS", 37)  # not a multiple of anything in sight
    assert sig.bootstrap_ci(d, 3000, 2) == expected


def test_bootstrap_degenerate_cases():
    assert all(math.isnan(x) for x in sig.bootstrap_ci(np.array([]), 100, 0))
    assert sig.bootstrap_ci(np.array([0.25]), 100, 0) == (0.25, 0.25)  # every resample is it
    assert sig.bootstrap_ci(np.zeros(9), 100, 0) == (0.0, 0.0)


# --- t-test and effect size -------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    pairs=st.lists(
        st.tuples(st.floats(0, 1, allow_nan=False), st.floats(0, 1, allow_nan=False)), min_size=2, max_size=40
    )
)
def test_t_test_and_effect_size_equal_scipy_ttest_rel(pairs):
    run, base = (np.array(x) for x in zip(*pairs, strict=True))
    d = sig.snap_ties(run - base)
    if np.ptp(d) <= sig.TIE:
        assert math.isnan(sig.t_test_p(d)) and math.isnan(sig.effect_size(d))
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # scipy's note on nearly equal data
        ref = stats.ttest_rel(run, base)
        ref_snapped = stats.ttest_1samp(d, 0.0)
    # Snapping moves a difference by at most 1e-9: the same test as ttest_rel on the raw pairs.
    assert sig.t_test_p(d) == pytest.approx(ref_snapped.pvalue, rel=1e-9, abs=1e-12)
    if np.all((np.abs(run - base) > sig.TIE) | (run == base)):
        assert sig.t_test_p(d) == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-12)
    # Cohen's d_z = t / sqrt(n), and by its definition with the sample standard deviation.
    es = sig.effect_size(d)
    assert es == pytest.approx(ref_snapped.statistic / math.sqrt(len(d)), rel=1e-9, abs=1e-12)
    by_definition = statistics.mean(d.tolist()) / statistics.stdev(d.tolist())
    assert es == pytest.approx(by_definition, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize(
    "d",
    [np.array([0.3]), np.zeros(6), np.full(5, 0.1), np.array([0.1, 0.1 + 5e-10])],
    ids=["one", "zeros", "equal", "equal-to-1e-9"],
)
def test_no_spread_gives_nan_t_test_and_effect_size(d):
    # Undefined (standard deviation 0): scipy says NaN for the first two and +inf or a
    # rounding-driven t for the others; we say NaN for all of them.
    assert math.isnan(sig.t_test_p(d))
    assert math.isnan(sig.effect_size(d))


def test_nearly_equal_differences_give_scipys_p_without_a_warning():
    d = np.array([0.1, 0.1 + 2e-9, 0.1 - 1e-9])  # a spread just above the tie tolerance
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p = sig.t_test_p(d)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert p == stats.ttest_1samp(d, 0.0).pvalue


def test_snap_ties_only_touches_differences_within_1e9():
    d = sig.snap_ties(np.array([1e-9, -1e-9, 1.5e-9, -2e-9, 0.0, 0.3, 1e-17]))
    assert d.tolist() == [0.0, 0.0, 1.5e-9, -2e-9, 0.0, 0.3, 0.0]


# --- Holm --------------------------------------------------------------------------------------------------


def test_holm_by_hand():
    # m = 3: 0.01 * 3 = 0.03; 0.03 * 2 = 0.06; 0.04 * 1 = 0.04, raised to 0.06 (step-down).
    np.testing.assert_allclose(sig.holm([0.01, 0.04, 0.03]), [0.03, 0.06, 0.06])
    np.testing.assert_allclose(sig.holm([0.5, 0.6]), [1.0, 1.0])  # capped at 1
    assert sig.holm([0.02]).tolist() == [0.02]
    assert sig.holm([]).tolist() == []


@settings(max_examples=300, deadline=None)
@given(
    p=st.lists(
        st.one_of(st.floats(0, 1), st.sampled_from([0.0, 0.01, 0.05, 1.0]), st.just(float("nan"))),
        max_size=8,
    )
)
def test_holm_equals_the_step_down_procedure(p):
    got = sig.holm(np.array(p, dtype=float))
    known = [i for i, x in enumerate(p) if not math.isnan(x)]
    assert all(math.isnan(got[i]) for i in range(len(p)) if i not in known)
    ref = holm_reference([p[i] for i in known])
    np.testing.assert_allclose(got[known], ref, rtol=1e-12, atol=0)
