"""The headline's figures and caveats of one list, its per-rank table with contribution and ideal
gain, and its counts (core.list_report, no Qt)."""

import numpy as np
import pytest

from ndcg_gui.core.analysis.list_report import counts, display_table, list_summary
from ndcg_gui.core.config import MetricConfig
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.metrics import per_rank


def test_summary_warnings():
    lst = RankedList(docs=["a", "b", "c"], grades=[np.nan, -1, 0])
    s = list_summary(lst, 2, MetricConfig())
    assert any("negative grades are kept" in w for w in s.warnings)
    assert any("IDCG@2 = 0" in w for w in s.warnings)
    assert any("1 unjudged document counts as gain 0 in the top 2" in w for w in s.warnings)
    assert not list_summary(RankedList.from_grades([3, 1]), 2, MetricConfig()).warnings


def test_judged_pool_counts_in_the_ideal():
    # E7: a grade-3 document judged but not retrieved lowers NDCG@5 to 0.8047.
    lst = RankedList(docs=list("ABCDE"), grades=[3, 2, 3, 0, 1], unretrieved={"F": 3}, has_pool=True)
    assert list_summary(lst, 5, MetricConfig(ideal="judged")).ndcg == pytest.approx(0.8047, abs=5e-5)
    assert list_summary(lst, 5, MetricConfig(ideal="retrieved")).ndcg == pytest.approx(0.9724, abs=5e-5)


def test_display_table_adds_contribution_and_ideal_gain():
    lst = RankedList(docs=list("ABCDE"), grades=[3, 2, 3, 0, 1])
    config = MetricConfig(gain="exponential")
    table = display_table(lst, config)
    expected = per_rank([3, 2, 3, 0, 1], config)
    np.testing.assert_allclose(table["contribution"], expected["gain"] * expected["discount"])
    np.testing.assert_allclose(table["ideal_gain"], [7, 7, 3, 1, 0])


def test_counts():
    lst = RankedList(docs=list("abcd"), grades=[2, np.nan, 0, -1], unretrieved={"e": 1}, has_pool=True)
    c = counts(lst)
    assert (c.documents, c.judged, c.unjudged, c.relevant, c.unretrieved) == (4, 3, 1, 1, 1)
    assert any("1 unjudged document counts" in w for w in list_summary(lst, 4, MetricConfig()).warnings)
    two = RankedList(docs=list("ab"), grades=[np.nan, np.nan])
    assert any("2 unjudged documents count as" in w for w in list_summary(two, 2, MetricConfig()).warnings)


def test_ideal_ranking_holds_the_judged_pool_with_list_ranks():
    from ndcg_gui.core.analysis.list_report import ideal_ranking

    lst = RankedList(docs=["a", "b", "c", "d"], grades=[1, np.nan, 3, 1], unretrieved={"z": 2.0},
                     has_pool=True)
    ideal = ideal_ranking(lst, MetricConfig())
    assert ideal["doc"].tolist() == ["c", "z", "a", "d"]  # equal gains keep list order; b unjudged
    assert ideal["list_rank"].tolist() == [3, 0, 1, 4]
    # the ideal grades are what per_rank builds IDCG from
    expected = per_rank(lst.scoring_grades(), MetricConfig(), judged=lst.judged_pool())
    assert ideal["grade"].tolist()[:4] == expected["ideal_grade"].tolist()
    own = ideal_ranking(lst, MetricConfig(ideal="retrieved"))
    assert own["doc"].tolist() == ["c", "a", "d"]  # b is unjudged: no place in an ideal of judgments


def test_a_report_keeps_the_baseline_ranks_and_figures():
    from ndcg_gui.core.analysis.list_report import ListReport

    loaded = RankedList(docs=list("abcde"), grades=[3, 2, 3, 0, 1])
    moved = loaded.moved(4, 1, 0)
    report = ListReport(moved, 3, MetricConfig(), loaded)
    assert report.baseline_ranks.tolist() == [5, 1, 2, 3, 4]
    assert report.baseline_summary.ndcg == list_summary(loaded, 3, MetricConfig()).ndcg
    assert report.summary.ndcg == list_summary(moved, 3, MetricConfig()).ndcg
    assert report.band is None and report.best_moves(2)["delta"].iloc[0] > 0


def test_the_band_is_its_search_finished_and_the_part_searched_is_not_searched_again():
    from ndcg_gui.core.analysis.list_report import ListReport
    from ndcg_gui.core.analysis.unjudged import unjudged_band

    grades = np.tile([2, np.nan, 0, 1, np.nan, 0, 3, np.nan, 0, 1], 30)  # 300 ranks: 199 searched
    lst = RankedList(docs=[f"d{i}" for i in range(len(grades))], grades=grades)
    report = ListReport(lst, 10, MetricConfig())
    search = report.band_search
    assert search is report.band_search and not search.done
    search.step(50)
    searched = list(search._rows)
    band = report.band
    assert search.done and search._rows[:50] == searched and band is search.band()
    assert list(band["rank"][:100]) == list(range(1, 101)) and band["rank"].iloc[-1] == 300
    expected = unjudged_band(grades, MetricConfig(), lst.judged_pool(), ranks=band["rank"])
    np.testing.assert_array_equal(band[["low", "high"]].to_numpy(), expected[["low", "high"]].to_numpy())
    no_unjudged = ListReport(RankedList.from_grades([3, 1, 0]), 2, MetricConfig())
    assert no_unjudged.band_search is None and no_unjudged.band is None
