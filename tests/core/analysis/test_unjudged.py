"""unjudged_bounds, unjudged_band and judge_first against brute force: every assignment of a scale
grade to each unjudged document is literally built (itertools.product) and scored with `ndcg_at`,
the assigned grades joining the judged pool."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from definition_strategies import CUTOFF, SMALL_GRADE, configs
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import ndcg_gui.core.analysis.unjudged_search as search
from ndcg_gui.core import (
    Measure,
    dcg_idcg_at,
    judge_first,
    ndcg_at,
    unjudged_band,
    unjudged_bounds,
)
from ndcg_gui.core.analysis.unjudged import BandSearch
from ndcg_gui.core.ndcg.presets import preset

NAN = float("nan")


@st.composite
def cases(draw, max_size=8, max_unjudged=5):
    grades = draw(st.lists(st.one_of(SMALL_GRADE, st.just(NAN)), max_size=max_size))
    assume(sum(map(math.isnan, grades)) <= max_unjudged)
    known = [g for g in grades if not math.isnan(g)]
    judged = draw(st.one_of(st.none(), st.lists(SMALL_GRADE, max_size=4).map(lambda e: known + e)))
    scale = draw(st.one_of(st.none(), st.lists(st.sampled_from([-1.0, 0.0, 0.5, 1.0, 2.0, 4.0]),
                                               min_size=1, max_size=3, unique=True)))
    return grades, draw(CUTOFF), draw(configs()), judged, scale


def default_scale(grades, judged):
    return sorted({0.0, *(g for g in grades if not math.isnan(g)), *(judged or [])})


def every_grading(grades, k, config, judged, scale):
    """NDCG@k of every assignment, or None when some IDCG is float dust (neither 0 nor a value)."""
    scale = default_scale(grades, judged) if scale is None else scale
    at = [i for i, g in enumerate(grades) if math.isnan(g)]
    values = []
    for assigned in itertools.product(scale, repeat=len(at)):
        full = list(grades)
        for i, g in zip(at, assigned, strict=True):
            full[i] = g
        pool = None if judged is None else [*judged, *assigned]
        idcg = dcg_idcg_at(full, config.with_(k=k), pool)[1]
        if 0 < abs(idcg) < 1e-9:
            return None
        values.append(ndcg_at(full, config.with_(k=k), pool))
    return values


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


@settings(max_examples=600, deadline=None)
@given(case=cases())
@example(case=([1.0, NAN, 2.0], 3, Measure(), None, [0.0, 1.0, 2.0, 3.0]))  # best at grade 2
@example(case=([1.0, 0.0, NAN], 2, Measure(), None, None))  # worst is not "unjudged = 0"
@example(case=([NAN, 0.0, NAN], None, Measure(ideal="retrieved"), None, [1.0, 0.5, -2.0]))
# Enumerated (IDCG = 0 scored 1), unjudged documents below k taken as a multiset; a gain table
# that is not monotone in the grade.
@example(case=([NAN, 1.0, NAN, 0.0, NAN, NAN], 2, Measure(idcg_zero="one", gain={1.0: 3.0, 2.0: 1.0}),
               [1.0, 0.0, 2.0], None))
def test_bounds_are_the_least_and_greatest_of_every_grading(case):
    grades, k, config, judged, scale = case
    values = every_grading(grades, k, config, judged, scale)
    assume(values is not None)
    low, high, exact = unjudged_bounds(grades, config.with_(k=k), judged, scale)
    assert exact  # small inputs are always exact
    assert close(low, min(values)) and close(high, max(values))


@settings(max_examples=300, deadline=None)
@given(case=cases())
def test_past_the_enumeration_limit_the_bounds_still_enclose_every_grading(case):
    grades, k, config, judged, scale = case
    values = every_grading(grades, k, config, judged, scale)
    assume(values is not None)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(search, "ENUMERATION_LIMIT", 0)
        low, high, exact = unjudged_bounds(grades, config.with_(k=k), judged, scale)
    if exact:
        assert close(low, min(values)) and close(high, max(values))
    else:
        assert low <= min(values) + 1e-9 and high >= max(values) - 1e-9


def test_the_traps_named_in_the_issue():
    # A relevant unjudged document below k raises IDCG@k, not DCG@k: "unjudged = 0" is not the low.
    low, high, _ = unjudged_bounds([1.0, 0.0, NAN], Measure(k=2))
    assert ndcg_at([1.0, 0.0, 0.0], Measure(k=2)) == high == 1.0
    assert low == pytest.approx(ndcg_at([1.0, 0.0, 1.0], Measure(k=2))) and low < 1.0
    # The greatest NDCG may need a middle grade, neither 0 nor the top of the scale.
    scale = [0.0, 1.0, 2.0, 3.0]
    by_grade = {g: ndcg_at([1.0, g, 2.0], Measure(k=3)) for g in scale}
    _, high, _ = unjudged_bounds([1.0, NAN, 2.0], Measure(k=3), scale=scale)
    assert high == pytest.approx(by_grade[2.0]) and high > max(by_grade[0.0], by_grade[3.0])


@settings(max_examples=200, deadline=None)
@given(case=cases(max_size=7, max_unjudged=4))
def test_band_is_the_bounds_at_every_rank(case):
    grades, _, config, judged, scale = case
    band = unjudged_band(grades, config, judged, scale)
    assert list(band["rank"]) == list(range(1, len(grades) + 1))
    for row in band.itertuples():
        values = every_grading(grades, row.rank, config, judged, scale)
        if values is None:
            continue
        assert row.exact
        assert close(row.low, min(values)) and close(row.high, max(values))


@settings(max_examples=300, deadline=None)
@given(case=cases())
def test_judge_first_ranges_over_one_document_at_a_time(case):
    grades, k, config, judged, scale = case
    table = judge_first(grades, config.with_(k=k), judged, scale)
    at = [i for i, g in enumerate(grades) if math.isnan(g)]
    assert sorted(table["rank"]) == [i + 1 for i in at]
    scale = default_scale(grades, judged) if scale is None else scale
    for row in table.itertuples():
        values = {}
        for g in scale:
            # The others stay as the list is scored now: grade 0, not in the judged pool (left
            # out of a condensed list).
            full = [0.0 if math.isnan(x) and not config.judged_only else x for x in grades]
            full[row.rank - 1] = g
            values[g] = ndcg_at(full, config.with_(k=k), None if judged is None else [*judged, g])
        assert close(row.low, min(values.values())) and close(row.high, max(values.values()))
        assert close(values[row.grade_low], row.low) and close(values[row.grade_high], row.high)
        assert close(row.spread, row.high - row.low)
    assert (np.diff(table["spread"]) <= 0).all()  # widest first


def test_a_thousand_documents_are_exact_and_no_grading_found_by_search_escapes():
    rng = np.random.default_rng(7)
    grades = rng.choice([0.0, 0.0, 1.0, 2.0, 3.0, NAN, NAN], 1000)
    known = grades[~np.isnan(grades)]
    judged = np.concatenate([known, rng.integers(0, 4, 300).astype(float)])
    config = preset("trec_eval")
    at = np.flatnonzero(np.isnan(grades))
    for k in (10, 100, None):
        low, high, exact = unjudged_bounds(grades, config.with_(k=k), judged)
        assert exact and low <= high
        # Random gradings, each improved one document at a time, never leave [low, high].
        for _ in range(3):
            assigned = rng.integers(0, 4, len(at)).astype(float)
            for direction in (1, -1):
                a = assigned.copy()
                for i in rng.permutation(len(at))[:40]:
                    best = None
                    for g in (0.0, 1.0, 2.0, 3.0):
                        a[i] = g
                        full = grades.copy()
                        full[at] = a
                        v = direction * ndcg_at(full, config.with_(k=k), np.concatenate([judged, a]))
                        best = (v, g) if best is None or v > best[0] else best
                    a[i] = best[1]
                    assert low - 1e-12 <= direction * best[0] <= high + 1e-12


def test_no_unjudged_document_gives_the_ndcg_itself_and_bad_input_is_refused():
    at2 = Measure(k=2)
    assert unjudged_bounds([3.0, 2.0, 0.0], at2) == (ndcg_at([3.0, 2.0, 0.0], at2),) * 2 + (True,)
    assert unjudged_bounds([], Measure(k=3)) == (0.0, 0.0, True)
    assert len(judge_first([1.0, 2.0], Measure(k=2))) == 0
    with pytest.raises(ValueError, match="finite"):
        unjudged_bounds([1.0, float("inf")])
    with pytest.raises(ValueError, match="scale"):
        unjudged_bounds([1.0, NAN], scale=[])


@settings(max_examples=100, deadline=None)
@given(case=cases(max_size=8, max_unjudged=4), count=st.integers(1, 3))
def test_band_searched_a_few_ranks_at_a_time_is_the_whole_band(case, count):
    grades, _, config, judged, scale = case
    ranks = np.arange(1, len(grades) + 1)[::2]  # some ranks only, as the window asks
    whole = unjudged_band(grades, config, judged, scale, ranks=ranks)
    steps = BandSearch(grades, config, judged, scale, ranks=ranks)
    for _ in range(math.ceil(len(ranks) / count)):
        assert not steps.done
        steps.step(count)
    assert steps.done and steps.step() and steps.band() is steps.band()  # searched once, then kept
    pd.testing.assert_frame_equal(steps.band(), whole)


def test_band_search_finishes_what_is_left_when_the_band_is_asked_for():
    grades = [2, NAN, 0, 1, NAN, 0, 3, NAN, 0, 1]
    steps = BandSearch(grades, judged=[2, 0, 1, 0, 3, 0, 1, 2])
    assert not steps.step(4) and len(steps._rows) == 4
    pd.testing.assert_frame_equal(steps.band(), unjudged_band(grades, judged=[2, 0, 1, 0, 3, 0, 1, 2]))
    with pytest.raises(ValueError):  # a bad rank is refused at once, not half-way through
        BandSearch(grades, ranks=[1, 0])
