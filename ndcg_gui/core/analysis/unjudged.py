"""How far unjudged documents could move NDCG@k: bounds over every grading, the per-rank band,
and which unjudged documents to judge first.

An unjudged document (grade NaN) may have any grade of a scale (by default 0 and every grade seen
in the list or the judged pool). Once graded it joins the ideal pool, so "every unjudged document
= 0" is not the lower bound: a relevant unjudged document below k raises IDCG@k without raising
DCG@k. The search itself is in `unjudged_search`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ndcg_gui.core.analysis.unjudged_search import Extreme, Levels, Problem, extremes
from ndcg_gui.core.ndcg.measure import Measure, check_k
from ndcg_gui.core.ndcg.metrics import as_grades, dcg_idcg_at, discounts, finish, gains

BAND_COLUMNS = ["rank", "low", "high", "exact"]
JUDGE_FIRST_COLUMNS = ["rank", "low", "high", "spread", "grade_low", "grade_high"]

_DEFAULT = Measure()


class _Setting:
    """One list with unjudged documents, its judged pool and scale, checked once."""

    def __init__(self, grades, measure, judged, scale) -> None:
        self.measure = measure or _DEFAULT
        self.grades = _with_unjudged(grades)
        self.unjudged = np.isnan(self.grades)
        self.judged = None if judged is None else as_grades(judged, "judged grades")
        scale = None if scale is None else as_grades(scale, "scale")
        n = len(self.grades)
        # What does not depend on the order of the rows (a move keeps it), made once per multiset.
        kept = _order_free(self.measure, self.grades, self.unjudged, self.judged, scale)
        self.scale_all, self.scale_gain, self.scale_grade, self.levels, self.disc, self.ideal = kept
        self.known_part = np.where(self.unjudged, 0.0, gains(np.nan_to_num(self.grades), self.measure))
        self.known_part *= self.disc[:n]
        self.unjudged_before = np.concatenate([[0], np.cumsum(self.unjudged)])

    def problem(self, k: int | None) -> Problem:
        n = len(self.grades)
        cut = n if k is None else min(k, n)
        at = np.flatnonzero(self.unjudged[:cut])
        size = len(self.ideal) - 1
        # How deep the ideal goes (`Measure.ideal_depth`): k, min(k, n), or never cut.
        depth = None if k is None or self.measure.ideal_depth == "all" else (
            min(k, n) if self.measure.ideal_depth == "list" else k)
        ideal = self.ideal if depth is None or depth >= size else np.minimum(self.ideal, self.ideal[depth])
        return Problem(
            d0=float(self.known_part[:cut].sum()),
            top_disc=self.disc[at],
            n_below=int(self.unjudged_before[n] - self.unjudged_before[cut]),
            levels=self.levels,
            ideal=ideal,
        )

    def graded(self, k: int | None, end: Extreme) -> float:
        """NDCG@k, by `ndcg_at`'s own arithmetic, of the grading that gives `end`."""
        cut = len(self.grades) if k is None else min(k, len(self.grades))
        full = self.grades.copy()
        at = np.flatnonzero(self.unjudged)
        full[at[at < cut]] = self._grade_of(end.top)
        full[at[at >= cut]] = self._grade_of(end.below)
        judged = None if self.judged is None else np.concatenate([self.judged, full[at]])
        dcg, idcg = dcg_idcg_at(full, self.measure.at(k), judged)
        return float(finish(np.array([dcg]), np.array([idcg]), self.measure)[0])

    def _grade_of(self, gain: np.ndarray) -> np.ndarray:
        return self.scale_grade[np.searchsorted(-self.scale_gain, -gain)]


_OrderFree = tuple[np.ndarray, np.ndarray, np.ndarray, Levels, np.ndarray, np.ndarray]
# The order-free parts of the last few settings, by what they are made from: the measure, the
# list's grades as a multiset (sorted, NaN last: how many are unjudged), the judged pool's and the
# scale's grades. A row move makes a new list of the same multiset: its setting finds them here.
_KEPT: dict[tuple, _OrderFree] = {}
_KEPT_AT_MOST = 4


def _order_free(measure: Measure, grades: np.ndarray, unjudged: np.ndarray, judged: np.ndarray | None,
                scale: np.ndarray | None) -> _OrderFree:
    """The scale (every grade, and one grade per distinct gain, high first), the gain levels of the
    pool and the scale, the discounts and the ideal's discount prefix sums: none of them depends on
    which row holds which grade."""
    key = (measure, np.sort(grades).tobytes(), None if judged is None else np.sort(judged).tobytes(),
           None if scale is None else scale.tobytes())
    made = _KEPT.get(key)
    if made is not None:
        return made
    seen = [np.zeros(1), grades[~unjudged]]
    if judged is not None:
        seen.append(judged)
    grades_in_scale = np.unique(np.concatenate(seen) if scale is None else scale)
    if len(grades_in_scale) == 0:
        raise ValueError("scale must hold at least one grade")
    # Grades with equal gains are one choice; each gain remembers one grade that gives it.
    gain = gains(grades_in_scale, measure)
    order = np.lexsort((grades_in_scale, -gain))
    gain, first = np.unique(-gain[order], return_index=True)
    scale_gain = -gain  # high first
    scale_grade = grades_in_scale[order][first]
    pool = judged if judged is not None and measure.ideal == "judged" else None
    pool_gain = gains(grades[~unjudged] if pool is None else pool, measure)
    levels = Levels.of(pool_gain, scale_gain)
    size = len(pool_gain) + int(unjudged.sum())
    disc = discounts(max(len(grades), size), measure)
    ideal = np.concatenate([[0.0], np.cumsum(disc[:size])])
    for array in (grades_in_scale, scale_gain, scale_grade, disc, ideal, levels.values, levels.pool_counts,
                  levels.scale_at):
        array.setflags(write=False)  # (shared by every setting of the multiset)
    made = (grades_in_scale, scale_gain, scale_grade, levels, disc, ideal)
    if len(_KEPT) >= _KEPT_AT_MOST:
        _KEPT.clear()
    _KEPT[key] = made
    return made


def _with_unjudged(grades) -> np.ndarray:
    """Grades as floats, NaN kept (unjudged); infinite or non-numeric values raise ValueError."""
    try:
        arr = np.asarray(grades, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"grades must be numbers or NaN (unjudged), got {grades!r:.80}") from None
    if arr.ndim != 1:
        raise ValueError(f"grades must be a flat sequence of numbers, got shape {arr.shape}")
    if np.isinf(arr).any():
        i = int(np.flatnonzero(np.isinf(arr))[0])
        raise ValueError(f"grades must be finite numbers or NaN; position {i + 1} is {arr[i]}")
    return arr


ENUMERATED = 20_000  # gradings tried one by one for a definition the search does not model


def _modelled(setting: _Setting) -> bool:
    """Whether `extremes` models this definition: IDCG = 0 scored 0, the ideal sorted, and a
    condensed list only where no document leaves it once judged (no negative grade, in the list
    or the scale, that counts as unjudged). Rounding is applied to the bounds after (it keeps
    their order)."""
    measure = setting.measure
    grades = np.concatenate([setting.grades[~setting.unjudged], setting.scale_grade])
    drops = measure.judged_only and measure.negative == "zero" and bool((grades < 0).any())
    return measure.idcg_zero == "zero" and measure.ideal_order == "sorted" and not drops


def _bounds_at(setting: _Setting, k: int | None, as_core: bool = True) -> tuple[float, float, bool]:
    if not setting.unjudged.any():
        dcg, idcg = dcg_idcg_at(np.nan_to_num(setting.grades), setting.measure.at(k), setting.judged)
        value = float(finish(np.array([dcg]), np.array([idcg]), setting.measure)[0])
        return value, value, True
    if not _modelled(setting):
        return _every_grading(setting, k)
    low, high, exact = extremes(setting.problem(k))
    if not exact or not as_core:
        rounded = finish(np.array([low.ndcg, high.ndcg]), np.ones(2), setting.measure.with_(idcg_zero="zero"))
        return float(rounded[0]), float(rounded[1]), exact
    return setting.graded(k, low), setting.graded(k, high), True


def _every_grading(setting: _Setting, k: int | None) -> tuple[float, float, bool]:
    """The bounds by trying every grading (at most `ENUMERATED`). Past that, [0, 1] where every
    gain is ≥ 0 and the ideal is sorted (NDCG cannot leave it then), else not known: NaN."""
    at = np.flatnonzero(setting.unjudged)
    choices = setting.scale_all
    if len(choices) ** len(at) > ENUMERATED:
        known = setting.grades[~setting.unjudged]
        every = np.concatenate([known, choices] + ([] if setting.judged is None else [setting.judged]))
        measure = setting.measure
        if _modelled(_Setting(setting.grades, measure.with_(idcg_zero="zero"), setting.judged, choices)):
            # Only IDCG = 0 scored 1 is not modelled: those gradings score 1 instead of 0, so the
            # bounds with IDCG = 0 scored 0, widened to take in 1, hold every grading.
            plain = _Setting(setting.grades, measure.with_(idcg_zero="zero"), setting.judged, choices)
            low, high, _ = _bounds_at(plain, k, as_core=False)
            return min(low, 1.0), max(high, 1.0), False
        if measure.ideal_order == "sorted" and (gains(every, measure) >= 0).all():
            return 0.0, 1.0, False
        return float("nan"), float("nan"), False
    # The measure at k made once, not per grading (a Measure is validated whenever it is made), and
    # `finish` applied to all the gradings at once: it works element by element.
    measure = setting.measure.at(k)
    gradings = _gradings(setting, at, choices, k)
    dcg, idcg = np.empty(len(gradings)), np.empty(len(gradings))
    full = setting.grades.copy()
    for i, assigned in enumerate(gradings):
        full[at] = assigned
        judged = None if setting.judged is None else np.concatenate([setting.judged, full[at]])
        dcg[i], idcg[i] = dcg_idcg_at(full, measure, judged)
    values = finish(dcg, idcg, setting.measure)
    return float(values.min()), float(values.max()), True


def _gradings(setting: _Setting, at: np.ndarray, choices: np.ndarray, k: int | None) -> list[tuple]:
    """The gradings of the unjudged documents at `at` worth scoring at k: every one, or, where the
    ideal is sorted and no graded document leaves the list, those below k as a multiset only (below
    k a grade counts in the ideal alone, which is sorted, so which of them has it changes nothing;
    a condensed list that drops negative grades moves documents up into the top k, so it needs them
    all). The same least and greatest NDCG, from fewer gradings."""
    measure = setting.measure
    drops = measure.judged_only and measure.negative == "zero"
    if measure.ideal_order != "sorted" or drops:
        return list(itertools.product(choices, repeat=len(at)))
    cut = len(setting.grades) if k is None else min(k, len(setting.grades))
    top = int((at < cut).sum())
    below = list(itertools.combinations_with_replacement(choices, len(at) - top))
    return [a + b for a in itertools.product(choices, repeat=top) for b in below]


def unjudged_bounds(
    grades: Sequence[float] | np.ndarray | pd.Series,
    measure: Measure | None = None,
    judged: Sequence[float] | np.ndarray | None = None,
    scale: Sequence[float] | np.ndarray | None = None,
) -> tuple[float, float, bool]:
    """(low, high, exact): the least and greatest NDCG@k over every way of giving each unjudged
    document (grade NaN) a grade from `scale`, the given grades joining the ideal pool.

    judged  the grades of the query's judged documents, retrieved or not (without the unjudged
            ones); under ideal="judged" the ideal comes from them plus the assigned grades,
            otherwise from the list's own grades. Cut-off rules as in `ndcg_at`.
    scale   the grades an unjudged document may have; by default 0 and every grade seen in the
            list or in `judged`.

    Exact at any size whenever IDCG@k keeps one sign over every assignment, or the gains are
    non-negative and the judged pool holds the list's judged grades (the usual cases); low and
    high are then the NDCG@k of actual gradings, computed as `ndcg_at` would. Otherwise (negative
    gains that can bring IDCG to 0) the search is exhaustive over multisets when they are few
    enough; past that, exact=False and [low, high] is a sound enclosure, possibly infinite (NDCG
    is unbounded as IDCG nears 0). One search per call: cheap enough to run at every edit.
    """
    setting = _Setting(grades, measure, judged, scale)
    return _bounds_at(setting, setting.measure.k)


def unjudged_band(
    grades: Sequence[float] | np.ndarray | pd.Series,
    measure: Measure | None = None,
    judged: Sequence[float] | np.ndarray | None = None,
    scale: Sequence[float] | np.ndarray | None = None,
    ranks: Sequence[int] | np.ndarray | None = None,
) -> pd.DataFrame:
    """`unjudged_bounds` at every rank i (NDCG@i), for drawing the NDCG curve as a band: one row
    per rank (or per rank in `ranks`): rank, low, high, exact. Each rank is its own exact search
    (the extremes at different ranks come from different gradings); `exact` is False only where
    `unjudged_bounds` would say so. The cost grows with the ranks (a search each: a long list's whole
    band is more than a frame), so a caller may ask for fewer `ranks`, or search a few at a time
    (`BandSearch`).
    A move changes nothing at ranks above the first row it touches (the documents there and the
    multiset below are the same): those rows of an earlier band stay valid.
    """
    return BandSearch(grades, measure, judged, scale, ranks).band()


class BandSearch:
    """`unjudged_band` searched a few ranks at a time, for a caller that must not wait for all of
    it: the window's plot runs `step` between frames (a long list's whole band takes more than a
    frame; one rank far less). Same arguments and result as `unjudged_band`."""

    def __init__(
        self,
        grades: Sequence[float] | np.ndarray | pd.Series,
        measure: Measure | None = None,
        judged: Sequence[float] | np.ndarray | None = None,
        scale: Sequence[float] | np.ndarray | None = None,
        ranks: Sequence[int] | np.ndarray | None = None,
    ) -> None:
        self._setting = _Setting(grades, measure, judged, scale)
        n = len(self._setting.grades)
        self.ranks = np.arange(1, n + 1) if ranks is None else np.asarray(ranks, np.int64)
        self._ks = [check_k(int(i)) for i in self.ranks]  # bad ranks raise here, not half-way
        self._rows: list[tuple[float, float, bool]] = []
        self._band: pd.DataFrame | None = None

    @property
    def done(self) -> bool:
        """Whether every rank has been searched."""
        return len(self._rows) == len(self._ks)

    def step(self, count: int = 1) -> bool:
        """Search the next `count` ranks (fewer at the end); True once every rank is searched."""
        start = len(self._rows)
        # The search's own D/I (equal to ndcg_at's to float rounding), without re-scoring each grading.
        self._rows += [_bounds_at(self._setting, k, as_core=False) for k in self._ks[start:start + count]]
        return self.done

    def band(self) -> pd.DataFrame:
        """The band (rank, low, high, exact), the ranks not searched yet searched first."""
        if self._band is None:
            self.step(len(self._ks))
            rows = self._rows
            low, high, exact = (np.array(c) for c in zip(*rows, strict=True)) if rows else ([], [], [])
            self._band = pd.DataFrame(
                {"rank": self.ranks, "low": np.asarray(low, float), "high": np.asarray(high, float),
                 "exact": np.asarray(exact, bool)},
                columns=BAND_COLUMNS,
            )
        return self._band


def judge_first(
    grades: Sequence[float] | np.ndarray | pd.Series,
    measure: Measure | None = None,
    judged: Sequence[float] | np.ndarray | None = None,
    scale: Sequence[float] | np.ndarray | None = None,
) -> pd.DataFrame:
    """Unjudged documents ranked by how much their own grade could move NDCG@k ("judge these first").

    One row per unjudged document: its rank, the least and greatest NDCG@k as its grade alone runs
    over `scale` (the other unjudged documents scored as the list is scored now: grade 0, not in the
    judged pool), spread = high − low, and the grades that give low and high (the lowest such
    grade). Widest spread first; equal spreads by rank.
    """
    measure = measure or _DEFAULT
    k = measure.k
    setting = _Setting(grades, measure, judged, scale)
    at = np.flatnonzero(setting.unjudged)
    if len(at) == 0:
        return pd.DataFrame({c: [] for c in JUDGE_FIRST_COLUMNS}, columns=JUDGE_FIRST_COLUMNS)
    base = np.where(setting.unjudged, 0.0, setting.grades)
    cut = len(base) if k is None else min(k, len(base))
    weight = np.zeros(len(base))
    weight[:cut] = discounts(cut, measure)
    dcg0, _ = dcg_idcg_at(base, measure, None)
    # DCG is linear in the one grade; IDCG depends on the grade only, not on which document has it
    # (the others are all 0, so any one of them stands for all).
    scale_grades = np.sort(setting.scale_grade)
    if measure.judged_only or not _modelled(setting):
        scale_grades = setting.scale_all
        ndcg = _one_at_a_time(setting, at, scale_grades, k)
    else:
        dcg = dcg0 + np.outer(weight[at], gains(scale_grades, measure) - gains(np.zeros(1), measure))
        idcg = np.empty(len(scale_grades))
        for s, grade in enumerate(scale_grades):
            one = base.copy()
            one[at[0]] = grade
            pool = None if setting.judged is None else np.append(setting.judged, grade)
            idcg[s] = dcg_idcg_at(one, measure, pool)[1]
        ndcg = finish(dcg, np.broadcast_to(idcg, dcg.shape), measure)
    lo, hi = ndcg.argmin(axis=1), ndcg.argmax(axis=1)
    rows = np.arange(len(at))
    table = pd.DataFrame(
        {
            "rank": at + 1,
            "low": ndcg[rows, lo],
            "high": ndcg[rows, hi],
            "spread": ndcg[rows, hi] - ndcg[rows, lo],
            "grade_low": scale_grades[lo],
            "grade_high": scale_grades[hi],
        },
        columns=JUDGE_FIRST_COLUMNS,
    )
    return table.sort_values(["spread", "rank"], ascending=[False, True], kind="stable").reset_index(
        drop=True
    )


def _one_at_a_time(setting: _Setting, at: np.ndarray, scale_grades: np.ndarray, k: int | None) -> np.ndarray:
    """NDCG@k with one unjudged document graded at a time (rows) to each grade (columns), the
    others scored as now (0, or left out of a condensed list): each by `ndcg_at`'s arithmetic,
    for the definitions whose DCG is not linear in one grade."""
    measure = setting.measure
    out = np.empty((len(at), len(scale_grades)))
    for r, i in enumerate(at):
        for c, grade in enumerate(scale_grades):
            full = setting.grades.copy()
            full[i] = grade
            if not measure.judged_only:
                full = np.nan_to_num(full)
            pool = None if setting.judged is None else np.append(setting.judged, grade)
            dcg, idcg = dcg_idcg_at(full, measure.at(k), pool)
            out[r, c] = finish(np.array([dcg]), np.array([idcg]), measure)[0]
    return out
