"""Paired statistics of per-query differences (run minus baseline): tests, interval, effect size.

Every function takes the differences `d` of one comparison, one value per query, already passed
through `snap_ties` (differences within `TIE` of 0 are exactly 0, so two runs equal on a query do
not feed rounding noise into a test). Random draws come from `np.random.default_rng(seed)`, a
fresh generator per call, so each figure is reproduced from its seed alone.

scipy is imported inside the functions that need it: `import ndcg_gui.core` stays light.
"""

from __future__ import annotations

import numpy as np

TIE = 1e-9  # NDCG differences at most this far from 0 count as ties
# Draws are made in chunks of about this many matrix cells (8 MB of float64), so memory stays
# bounded whatever the number of queries and draws.
CHUNK_CELLS = 1 << 20
# Flipped sums within this fraction of sum |d| of the observed one count as equal: arrangements
# that are equal in exact arithmetic can differ by rounding (about n * 2.2e-16 of sum |d|).
SUM_RTOL = 1e-10


def prepare() -> None:
    """Import what the tests need (scipy.special) ahead of them, e.g. in a thread while a run to
    compare is read, so the comparison that follows does not wait for it."""
    from scipy import special  # noqa: F401  (lazy: start-up)


def snap_ties(d: np.ndarray) -> np.ndarray:
    """`d` as float, with every value within TIE of 0 set to exactly 0."""
    d = np.asarray(d, dtype=float)
    return np.where(np.abs(d) <= TIE, 0.0, d)


def _rows_per_chunk(width: int) -> int:
    return max(1, CHUNK_CELLS // max(width, 1))


def sign_flip_p(d: np.ndarray, samples: int, seed: int) -> tuple[float, bool]:
    """Two-sided paired randomization test of mean(d) = 0: (p, exact).

    Under the null hypothesis each query's difference is as likely to have the other sign. The
    statistic is |mean(d)|; a sign pattern counts when its |mean| is at least the observed one
    (up to rounding, SUM_RTOL). Zero differences are unchanged by a flip, so only the m non-zero
    ones are flipped (the p-value is the same as flipping all n).

    exact    2**m <= samples: every sign pattern is enumerated, p = count / 2**m (the observed
             pattern is one of them). scipy.stats.permutation_test does the same when its
             n_resamples reaches the number of distinct arrangements, and gives the same p.
    sampled  otherwise: `samples` random patterns from default_rng(seed), and
             p = (count + 1) / (samples + 1), the observed pattern counted as one draw, so p is
             never 0 (Phipson & Smyth 2010; scipy counts the same way, but two-sided it doubles
             the smaller one-sided p instead of counting |mean|, which differs only by chance).
    No queries: (nan, True). All differences 0: (1.0, True).
    """
    d = np.asarray(d, dtype=float)
    if len(d) == 0:
        return float("nan"), True
    nonzero = d[d != 0]
    m = len(nonzero)
    if m == 0:
        return 1.0, True
    total = float(nonzero.sum())
    bar = abs(total) - SUM_RTOL * float(np.abs(nonzero).sum())
    exact = m < 63 and 2**m <= samples
    draws = 2**m if exact else samples
    rng = None if exact else np.random.default_rng(seed)
    step = _rows_per_chunk(m)
    words_per_row = (m + 63) // 64
    count = 0
    for start in range(0, draws, step):
        rows = min(step, draws - start)
        if exact:
            # Pattern j flips the queries whose bit is set in j.
            j = np.arange(start, start + rows, dtype=np.int64)
            flip = ((j[:, None] >> np.arange(m, dtype=np.int64)) & 1).astype(np.float64)
        else:
            # Raw 64-bit words, little-endian bytes: the same bits whatever the chunk size or
            # the machine, so a seed gives one p-value.
            words = rng.bit_generator.random_raw(rows * words_per_row).astype("<u8", copy=False)
            packed = words.view(np.uint8).reshape(rows, 8 * words_per_row)
            flip = np.unpackbits(packed, axis=1, count=m, bitorder="little").astype(np.float64)
        # Flipping a set F of signs turns the sum S into S - 2 * sum(d over F).
        flipped = total - 2.0 * (flip @ nonzero)
        count += int(np.count_nonzero(np.abs(flipped) >= bar))
    if exact:
        return count / draws, True
    return (count + 1) / (samples + 1), False


def bootstrap_ci(
    d: np.ndarray, samples: int, seed: int, confidence: float = 0.95
) -> tuple[float, float]:
    """Percentile bootstrap interval of mean(d): `samples` resamples of the queries with
    replacement from default_rng(seed), and the (1 - confidence) / 2 and (1 + confidence) / 2
    quantiles (linear interpolation) of their means.

    Equal to scipy.stats.bootstrap((d,), np.mean, n_resamples=samples, method="percentile",
    confidence_level=confidence, rng=np.random.default_rng(seed)) to the last bits: the same
    draws in the same order (numpy's bounded integers do not depend on how they are split into
    calls), so the chunk size changes nothing.
    No queries: (nan, nan). One query: (d, d).
    """
    d = np.asarray(d, dtype=float)
    n = len(d)
    if n == 0:
        return float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    step = _rows_per_chunk(n)
    means = np.empty(samples)
    for start in range(0, samples, step):
        rows = min(step, samples - start)
        means[start : start + rows] = d[rng.integers(0, n, (rows, n))].mean(axis=-1)
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return float(low), float(high)


def _no_spread(d: np.ndarray) -> bool:
    """Fewer than two queries, or every difference equal to within TIE: a standard deviation of
    0 (or none), so the t statistic and the effect size are undefined."""
    return len(d) < 2 or float(np.ptp(d)) <= TIE


def t_test_p(d: np.ndarray) -> float:
    """Two-sided Student's paired t-test of mean(d) = 0 (scipy.stats.ttest_1samp(d, 0), the same
    as scipy.stats.ttest_rel(run, baseline)). NaN when undefined: fewer than two queries, or
    every difference equal (standard deviation 0, where scipy reports NaN for all zeros and an
    infinite or rounding-driven t otherwise).

    The p-value is scipy's own formula, 2 * t.sf(|t|, n - 1), by the function that t.sf calls
    (scipy.special.stdtr): importing scipy.stats costs a command more than the whole comparison."""
    d = np.asarray(d, dtype=float)
    if _no_spread(d):
        return float("nan")
    from scipy import special  # lazy: start-up (scipy: only a comparison's statistics need it)

    n = len(d)
    t = d.mean() / np.sqrt(d.var(ddof=1) / n)
    return float(min(1.0, 2.0 * special.stdtr(n - 1, -abs(t))))


def effect_size(d: np.ndarray) -> float:
    """mean(d) / sd(d), the sample standard deviation (ddof = 1): Cohen's d for paired samples
    (d_z); t = d_z * sqrt(n). NaN when the standard deviation is 0 or undefined (as `t_test_p`)."""
    d = np.asarray(d, dtype=float)
    if _no_spread(d):
        return float("nan")
    return float(d.mean() / d.std(ddof=1))


def holm(pvalues: np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment for m tests (NaN p-values are left out of m and stay NaN):
    the i-th smallest p becomes max over j <= i of min(1, (m - j + 1) * p_(j))."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = len(ok)
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    out[order] = np.maximum.accumulate(scaled)
    return out
