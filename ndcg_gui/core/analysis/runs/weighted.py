"""Paired statistics of per-query differences when queries carry weights (traffic): the weighted
randomization test and the weighted bootstrap.

The statistic is the weighted mean difference, sum(w * d) / sum(w). Under the null hypothesis each
query's difference is as likely to have the other sign, the weights staying with their queries:
since sum(w) does not change with the signs, flipping the signs of d is flipping those of w * d,
and the test is `significance.sign_flip_p` on w * d (exact enumeration included). The bootstrap
resamples the queries with replacement, each with its weight, and takes each resample's weighted
mean (the usual bootstrap of a ratio estimator). With every weight equal both are the unweighted
ones of `significance`, to the last bit of the p-value.
"""

from __future__ import annotations

import numpy as np

from ndcg_gui.core.analysis.runs import significance as sig

TEST_WORDS = ("paired randomization test of the weighted mean difference, two-sided: each query's "
              "difference flips its sign, its weight kept")
BOOTSTRAP_WORDS = ("percentile bootstrap of the weighted mean difference: the queries resampled with "
                   "replacement, each with its weight, sum(w * d) / sum(w) of each resample")


def _checked(d: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    d, w = np.asarray(d, dtype=float), np.asarray(w, dtype=float)
    if d.shape != w.shape:
        raise ValueError(f"{len(d)} differences but {len(w)} weights")
    if (w < 0).any() or not np.isfinite(w).all():
        raise ValueError("weights must be finite numbers of at least 0")
    top = w.max() if len(w) else 0.0
    return d, (w / top if top > 0 else w)


def weighted_sign_flip_p(d: np.ndarray, w: np.ndarray, samples: int, seed: int) -> tuple[float, bool]:
    """Two-sided randomization test of sum(w * d) / sum(w) = 0: (p, exact), as `sign_flip_p`.
    A query of weight 0 changes nothing. No query: (nan, True); every weight 0: (nan, True)."""
    d, w = _checked(d, w)
    if len(d) and not w.any():
        return float("nan"), True
    return sig.sign_flip_p(w * d, samples, seed)


def weighted_bootstrap_ci(
    d: np.ndarray, w: np.ndarray, samples: int, seed: int, confidence: float = 0.95
) -> tuple[float, float]:
    """Percentile bootstrap interval of sum(w * d) / sum(w): `samples` resamples of the queries
    (indices drawn as `bootstrap_ci` draws them, from default_rng(seed)), the weighted mean of each,
    and its (1 - confidence) / 2 and (1 + confidence) / 2 quantiles. A resample whose weights
    are all 0 has no weighted mean and is left out of the quantiles. Equal to
    scipy.stats.bootstrap((d, w), weighted mean, paired=True, method="percentile") drawn from
    the same generator. No query, or every weight 0: (nan, nan)."""
    d, w = _checked(d, w)
    n = len(d)
    if n == 0 or not w.any():
        return float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    wd = w * d
    step = max(1, sig.CHUNK_CELLS // n)
    means = np.empty(samples)
    for start in range(0, samples, step):
        rows = min(step, samples - start)
        picked = rng.integers(0, n, (rows, n))
        total = w[picked].sum(axis=-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            means[start:start + rows] = np.where(total > 0, wd[picked].sum(axis=-1) / total, np.nan)
    alpha = (1.0 - confidence) / 2.0
    means = means[~np.isnan(means)]
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return float(low), float(high)
