"""Statistics: an edit's NDCG waits in `pending`; reading `current` folds it in at once; once edits
pause the statistics are worked out on the runner and land; a full rescore voids what was under
way. Checked against `Comparison.with_scores` on the same figures."""

from __future__ import annotations

import pandas as pd
import pytest

from ndcg_gui.core.analysis.runs.compare import compare_runs
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.qt.document.runner import Runner
from ndcg_gui.qt.document.statistics import Statistics


@pytest.fixture
def cmp():
    runs = {name: pd.DataFrame({"query": [q for q in "abcd" for _ in range(3)],
                                "doc": [f"d{i}" for _ in "abcd" for i in range(3)],
                                "score": [3, 2, 1] * 4 if name == "A" else [1, 2, 3] * 4})
            for name in ("A", "B")}
    qrels = pd.DataFrame({"query": list("abcd"), "doc": ["d0", "d1", "d2", "d0"], "grade": [1, 2, 1, 3]})
    return compare_runs(runs, qrels, Measure(k=3), samples=200, seed=0)


def test_an_edit_is_pending_until_read(qtbot, cmp):
    landed = []
    stats = Statistics(Runner(), lambda: landed.append(True))
    stats.reset(cmp)
    stats.add("A", "a", 0.25)
    assert stats.pending == {"A": {"a": 0.25}} and stats.cmp is cmp
    expected = cmp.with_scores("A", {"a": 0.25})
    pd.testing.assert_frame_equal(stats.current.summary, expected.summary)
    assert stats.pending == {} and not stats.flush() and landed == []


def test_once_edits_pause_the_statistics_land_from_the_runner(qtbot, cmp):
    landed = []
    stats = Statistics(Runner(), lambda: landed.append(True))
    stats.reset(cmp)
    stats.add("B", "b", 0.5)
    stats.edited()
    qtbot.waitUntil(lambda: bool(landed), timeout=5000)
    assert stats.pending == {} and not stats.working
    pd.testing.assert_frame_equal(stats.cmp.summary, cmp.with_scores("B", {"b": 0.5}).summary)


def test_a_new_comparison_voids_what_was_pending_or_under_way(qtbot, cmp):
    landed = []
    stats = Statistics(Runner(), lambda: landed.append(True))
    stats.reset(cmp)
    stats.add("B", "b", 0.5)
    stats.edited()
    stats.reset(None)  # the runs compared went: nothing to work out
    qtbot.wait(200)
    assert stats.pending == {} and stats.cmp is None and landed == []
