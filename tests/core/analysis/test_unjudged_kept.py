"""The unjudged bounds keep the part of their setting that does not depend on the rows' order (the
scale, the gain levels, the discounts, the ideal's prefix sums) per multiset of grades
(`unjudged._KEPT`): a row move finds it made. Through moves, grade edits, undo and definition
changes, every figure equals the one worked out with nothing kept."""

from __future__ import annotations

import math

import numpy as np
from definition_strategies import SMALL_GRADE, configs
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_gui.core.analysis.unjudged as unjudged
from ndcg_gui.core import judge_first, unjudged_band, unjudged_bounds
from ndcg_gui.core.analysis.unjudged import _Setting

NAN = float("nan")


def figures(grades, measure, judged, scale):
    """Every figure the bounds give the window: the headline's range, the band, judge first."""
    bounds = unjudged_bounds(grades, measure, judged, scale)
    band = unjudged_band(grades, measure, judged, scale).to_numpy(dtype=float)
    first = judge_first(grades, measure, judged, scale).to_numpy(dtype=float)
    return np.array(bounds, dtype=float), band, first


def same(a, b) -> None:
    for x, y in zip(a, b, strict=True):
        assert x.shape == y.shape
        assert np.array_equal(x, y, equal_nan=True), (x, y)


@st.composite
def steps(draw):
    grades = draw(st.lists(st.one_of(SMALL_GRADE, st.just(NAN)), min_size=1, max_size=9))
    extra = draw(st.one_of(st.none(), st.lists(SMALL_GRADE, max_size=3)))
    scale = draw(st.one_of(st.none(), st.just([0.0, 1.0, 2.0, 3.0])))
    actions = draw(st.lists(st.tuples(st.sampled_from(["move", "move", "grade", "undo", "measure"]),
                                      st.integers(0, 100), st.integers(0, 100), SMALL_GRADE | st.just(NAN)),
                            min_size=1, max_size=8))
    measures = [draw(configs()).with_(k=draw(st.integers(1, 6))) for _ in range(2)]
    return grades, extra, scale, actions, measures


@settings(max_examples=150, deadline=None)
@given(case=steps())
def test_figures_with_the_kept_part_equal_those_worked_out_anew(case):
    grades, extra, scale, actions, measures = case
    history = [np.array(grades, dtype=float)]
    which = 0
    for action, a, b, grade in actions:
        now = history[-1].copy()
        if action == "move":  # a row moved elsewhere: the same multiset
            row = now[a % len(now)]
            now = np.insert(np.delete(now, a % len(now)), b % len(now), row)
            history.append(now)
        elif action == "grade":
            now[a % len(now)] = grade
            history.append(now)
        elif action == "undo" and len(history) > 1:
            history.pop()
        elif action == "measure":
            which = 1 - which
        now = history[-1]
        known = [g for g in now.tolist() if not math.isnan(g)]
        judged = None if extra is None else known + extra
        kept = figures(now, measures[which], judged, scale)  # (with what earlier steps left)
        unjudged._KEPT.clear()
        same(kept, figures(now, measures[which], judged, scale))


def test_a_move_finds_the_order_free_part_made_and_another_multiset_does_not():
    rng = np.random.default_rng(5)
    grades = rng.integers(0, 4, 500).astype(float)
    grades[rng.random(500) < 0.1] = NAN
    unjudged._KEPT.clear()
    first = _Setting(grades, None, None, None)
    moved = np.concatenate([grades[3:4], grades[:3], grades[4:]])
    after = _Setting(moved, None, None, None)
    assert after.levels is first.levels and after.ideal is first.ideal and after.disc is first.disc
    assert not np.array_equal(after.known_part, first.known_part)  # (the order's own part is not kept)
    edited = grades.copy()
    edited[0] = 3.0 if grades[0] != 3.0 else 2.0
    assert _Setting(edited, None, None, None).levels is not first.levels
    for array in (first.disc, first.ideal, first.levels.pool_counts, first.scale_grade):
        assert not array.flags.writeable  # (shared by every list of the multiset)
