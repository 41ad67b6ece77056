"""The least and greatest NDCG@k over every grading of a list's unjudged documents.

Everything here is in gains. A `Problem` is one list at one cut-off: the DCG@k of its judged
documents, the discounts of its unjudged documents inside the cut-off, how many unjudged documents
lie below it, the gains of the judged pool, and the gains an unjudged document may take. Every
assigned gain joins the ideal pool, so IDCG moves with the assignment too.

Why the search is exact without trying every assignment:

* IDCG@k is the top-k of the pool sorted, weighted by non-increasing discounts: by the
  rearrangement inequality it is a maximum of linear functions with non-negative weights, so it
  never falls when any one gain rises.
* For a fixed multiset of gains given to the unjudged documents inside the cut-off, IDCG is fixed
  and DCG is greatest with the highest gains at the best ranks and least the other way round.
* Dinkelbach: when IDCG keeps one sign, max D/I = λ exactly when max over assignments of
  D − λ·I = 0 (signs adjusted for I < 0). For a fixed λ the documents below the cut-off enter only
  through −λ·I, so they all take the lowest gain (λ ≥ 0) or all the highest (λ < 0); the documents
  inside the cut-off are chosen by a dynamic programme over gain levels, high to low, whose state is
  how many of them have been given a gain so far (DCG from the discount prefix sums of their ranks,
  IDCG from the ideal discount prefix sums at the pool's running count). Each λ-step is
  O(levels x unjudged-in-cut-off); λ rises strictly to the optimum in a handful of steps.
* When IDCG can be 0 or change sign (negative gains), D/I is not monotone in I, and the pairs
  (multiset inside the cut-off, top-k multiset of the ones below) are enumerated if there are few
  enough; otherwise the answer is a sound enclosure, flagged inexact.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

ENUMERATION_LIMIT = 200_000  # (inside, below) multiset pairs tried before falling back to a bound
_REL = 1e-12


@dataclass(frozen=True)
class Levels:
    """The distinct gains of the judged pool and of the scale, high first; how many judged
    documents have each; and the level of each scale gain (the scale is high first too)."""

    values: np.ndarray
    pool_counts: np.ndarray
    scale_at: np.ndarray

    @classmethod
    def of(cls, pool: np.ndarray, scale: np.ndarray) -> Levels:
        values = np.unique(np.concatenate([pool, scale]))[::-1]
        at = np.searchsorted(-values, -pool)
        counts = np.bincount(at, minlength=len(values)).astype(np.int64)
        return cls(values, counts, np.searchsorted(-values, -scale))

    @property
    def scale(self) -> np.ndarray:
        return self.values[self.scale_at]

    def level_of(self, gain: np.ndarray) -> np.ndarray:
        return np.searchsorted(-self.values, -gain)


@dataclass(frozen=True)
class Problem:
    d0: float  # DCG@k of the judged documents of the list
    top_disc: np.ndarray  # discounts at the ranks of the unjudged documents inside the cut-off
    n_below: int  # unjudged documents below the cut-off
    levels: Levels
    ideal: np.ndarray  # IDCG@k weight of the first r ideal ranks, r = 0..pool size

    @property
    def scale(self) -> np.ndarray:
        return self.levels.scale

    @property
    def depth(self) -> int:
        """How many ideal ranks IDCG@k counts."""
        return int(np.searchsorted(self.ideal, self.ideal[-1]))

    @property
    def zero(self) -> float:
        """|IDCG| at or below this is 0: sums of opposite gains leave float dust, not a value."""
        return 1e-12 * float(np.abs(self.levels.values).max() * self.ideal[-1])

    def dcg(self, top: np.ndarray) -> float:
        return float(self.d0 + top @ self.top_disc)

    def idcg(self, top: np.ndarray, below: np.ndarray) -> float:
        assigned = self.levels.level_of(np.concatenate([top, below]))
        n = self.levels.pool_counts + np.bincount(assigned, minlength=len(self.levels.values))
        return self.idcg_of_counts(n)

    def idcg_of_counts(self, n: np.ndarray) -> np.ndarray | float:
        """IDCG@k of pools given as counts per level (last axis): each level's block of ideal
        ranks weighs its gain times the discounts of those ranks."""
        cum = np.cumsum(n, axis=-1)
        value = (self.levels.values * (self.ideal[cum] - self.ideal[cum - n])).sum(axis=-1)
        return np.where(np.abs(value) <= self.zero, 0.0, value) if np.ndim(value) else (
            0.0 if abs(value) <= self.zero else float(value))


@dataclass(frozen=True)
class Extreme:
    """One end of the range: NDCG, and the gains that give it (None for a bound)."""

    ndcg: float
    top: np.ndarray | None = None
    below: np.ndarray | None = None


def ratio(d: float, i: float) -> float:
    return d / i if i != 0 else 0.0


def extremes(p: Problem) -> tuple[Extreme, Extreme, bool]:
    """(least, greatest, exact) NDCG@k over every assignment of gains from `p.scale`."""
    m_t = len(p.top_disc)
    lowest, highest = p.scale[-1], p.scale[0]
    # The four corners: inside the cut-off all lowest / all highest, below it the same.
    corners = [
        _point(p, np.full(m_t, inside), np.full(p.n_below, below))
        for inside in (lowest, highest)
        for below in (lowest, highest)
    ]
    i_lo = p.idcg(corners[0].top, corners[0].below)
    i_hi = p.idcg(corners[3].top, corners[3].below)
    if i_lo > 0 or i_hi < 0:
        worst = min(corners, key=lambda e: e.ndcg)
        best = max(corners, key=lambda e: e.ndcg)
        if m_t == 0:
            # Only IDCG moves, and D/I is monotone in it: the ends are corners.
            return worst, best, True
        sign = 1.0 if i_lo > 0 else -1.0
        return _dinkelbach(p, sign, False, worst), _dinkelbach(p, sign, True, best), True
    nonneg = p.levels.values.min() >= 0 and p.d0 == 0
    if nonneg:
        # D, I >= 0 and I = 0 only when every gain of the pool is 0, where D = 0 too (d0 = 0):
        # NDCG = 0 there, and the assignments with I > 0 keep Dinkelbach's premise.
        low = corners[0]
        if i_hi == 0:
            return low, low, True
        best = max(corners, key=lambda e: e.ndcg)
        return low, _dinkelbach(p, 1.0, True, best), True
    found = _enumerate(p)
    if found is not None:
        return found[0], found[1], True
    return *_enclosure(p), False


def _point(p: Problem, top: np.ndarray, below: np.ndarray) -> Extreme:
    return Extreme(ratio(p.dcg(top), p.idcg(top, below)), top, below)


# --- Dinkelbach with a dynamic programme per step ----------------------------------------------


def _dinkelbach(p: Problem, sign: float, maximise: bool, start: Extreme) -> Extreme:
    """The greatest (or least) D/I, given I has the sign `sign` for every assignment."""
    best = start
    lam = start.ndcg
    sigma = sign if maximise else -sign
    for _ in range(200):
        top, below = _best_assignment(p, sigma, sigma * lam)
        d, i = p.dcg(top), p.idcg(top, below)
        gap = sigma * (d - lam * i)  # ≥ 0: the current best scores 0
        if gap <= _REL * (abs(d) + abs(lam * i)) or i == 0:
            break
        new = d / i
        if not (new > lam if maximise else new < lam):
            break
        lam, best = new, Extreme(new, top, below)
    return best


def _best_assignment(p: Problem, sigma: float, mu: float) -> tuple[np.ndarray, np.ndarray]:
    """Gains for the unjudged documents maximising sigma·DCG − mu·IDCG."""
    lv = p.levels
    below_gain = p.scale[-1] if mu >= 0 else p.scale[0]
    levels = lv.values
    fixed = lv.pool_counts.copy()
    fixed[lv.level_of(below_gain)] += p.n_below
    choice = np.zeros(len(levels), bool)
    choice[lv.scale_at] = True
    disc = p.top_disc if sigma >= 0 else p.top_disc[::-1]
    q = np.concatenate([[0.0], np.cumsum(disc)])  # DCG of the first t placed (best ranks first)
    ideal = p.ideal
    m_t = len(disc)
    t = np.arange(m_t + 1)
    value = np.full(m_t + 1, -np.inf)
    value[0] = 0.0
    placed = 0  # fixed pool entries placed in the ideal so far
    back: list[tuple[int, np.ndarray]] = []
    for j, v in enumerate(levels):
        if fixed[j]:
            value = value - mu * v * (ideal[placed + fixed[j] + t] - ideal[placed + t])
            placed += fixed[j]
        if choice[j] and m_t:
            gain_at = sigma * v * q - mu * v * ideal[placed + t]
            x = value - gain_at
            best = np.maximum.accumulate(x)
            back.append((j, np.maximum.accumulate(np.where(x >= best, t, 0))))
            value = best + gain_at
    counts = np.zeros(len(levels), np.int64)
    at = m_t
    for j, arg in reversed(back):
        counts[j] = at - arg[at]
        at = arg[at]
    top = np.repeat(levels, counts)  # high first, onto the best ranks (or the worst for sigma < 0)
    return (top if sigma >= 0 else top[::-1]), np.full(p.n_below, below_gain)


# --- exhaustive over multisets, for the sign-changing case -------------------------------------


def _compositions(total: int, parts: int) -> np.ndarray:
    """Every vector of `parts` counts ≥ 0 adding up to `total` (stars and bars)."""
    if parts == 1:
        return np.array([[total]], np.int64)
    bars = np.array(list(itertools.combinations(range(total + parts - 1), parts - 1)), np.int64)
    bars = bars.reshape(-1, parts - 1)
    edges = np.column_stack([np.full(len(bars), -1), bars, np.full(len(bars), total + parts - 1)])
    return np.diff(edges, axis=1) - 1


def _enumerate(p: Problem) -> tuple[Extreme, Extreme] | None:
    """Exact extremes by trying every (multiset inside the cut-off, arrangement at the two
    extremes, multiset of the below ones' top k), or None when there are too many.

    Only the k highest gains below the cut-off can reach IDCG@k, so the others are set to the
    lowest gain: that changes no IDCG.
    """
    s, m_t = len(p.scale), len(p.top_disc)
    reach = min(p.n_below, p.depth)
    n_pairs = math.comb(m_t + s - 1, s - 1) * math.comb(reach + s - 1, s - 1)
    if n_pairs > ENUMERATION_LIMIT:
        return None
    tops, belows = _compositions(m_t, s), _compositions(reach, s)
    lv = p.levels
    fixed = lv.pool_counts.copy()
    fixed[lv.scale_at[-1]] += p.n_below - reach
    n = np.zeros((len(tops), len(belows), len(lv.values)), np.int64)
    n[...] = fixed
    n[:, :, lv.scale_at] += tops[:, None, :] + belows[None, :, :]
    idcg = p.idcg_of_counts(n)  # (tops, belows)
    # DCG with the highest gains on the best ranks (0) or the worst (1).
    seqs = [np.repeat(p.scale, c) for c in tops]
    dcg = np.array([[p.dcg(seq), p.dcg(seq[::-1])] for seq in seqs])  # (tops, 2)
    ndcg = np.divide(dcg[:, :, None], idcg[:, None, :], out=np.zeros((len(tops), 2, len(belows))),
                     where=idcg[:, None, :] != 0)
    rest = np.full(p.n_below - reach, p.scale[-1])

    def at(flat: int) -> Extreme:
        c, arrangement, e = np.unravel_index(flat, ndcg.shape)
        top = seqs[c] if arrangement == 0 else seqs[c][::-1]
        return Extreme(float(ndcg.flat[flat]), top, np.concatenate([np.repeat(p.scale, belows[e]), rest]))

    return at(int(np.argmin(ndcg))), at(int(np.argmax(ndcg)))


# --- a sound enclosure when exactness is too dear -----------------------------------------------


def _enclosure(p: Problem) -> tuple[Extreme, Extreme]:
    """Bounds from DCG and IDCG bounded apart. Reached only when IDCG can be 0 or change sign;
    with non-negative gains a positive IDCG is at least the smallest positive gain at rank 1."""
    spread = p.top_disc.sum()
    d_lo, d_hi = p.d0 + p.scale[-1] * spread, p.d0 + p.scale[0] * spread
    gains = p.levels.values
    if gains.min() >= 0 and d_lo >= 0 and p.depth:
        positive = gains[gains > 0]
        floor = positive.min() * p.ideal[1] if len(positive) else math.inf
        return Extreme(0.0), Extreme(d_hi / floor if math.isfinite(floor) else 0.0)
    # Otherwise IDCG spans 0 and D/I has no bound without knowing how close to 0 it comes.
    return Extreme(-math.inf), Extreme(math.inf)
