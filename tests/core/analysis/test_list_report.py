"""The headline's figures and caveats of one list, its per-rank table with contribution and ideal
gain, and its counts (core.list_report, no Qt)."""

import numpy as np
import pytest
from definition_strategies import SMALL_GRADE, configs, judged_pools
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core.analysis.list_report import ListReport, counts, display_table, list_summary
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import ndcg_at, per_rank
from ndcg_gui.core.ndcg.presets import preset


def test_summary_warnings():
    lst = RankedList(docs=["a", "b", "c"], grades=[np.nan, -1, 0])
    s = list_summary(lst, Measure(k=2))
    assert any("negative grades are kept" in w for w in s.warnings)
    assert any("IDCG@2 = 0" in w for w in s.warnings)
    assert any("1 unjudged document counts as gain 0 in the top 2" in w for w in s.warnings)
    assert not list_summary(RankedList.from_grades([3, 1]), Measure(k=2)).warnings


def test_judged_pool_counts_in_the_ideal():
    # E7: a grade-3 document judged but not retrieved lowers NDCG@5 to 0.8047.
    lst = RankedList(docs=list("ABCDE"), grades=[3, 2, 3, 0, 1], unretrieved={"F": 3}, has_pool=True)
    assert list_summary(lst, Measure(ideal="judged", k=5)).ndcg == pytest.approx(0.8047, abs=5e-5)
    assert list_summary(lst, Measure(ideal="retrieved", k=5)).ndcg == pytest.approx(0.9724, abs=5e-5)


def test_display_table_adds_contribution_and_ideal_gain():
    lst = RankedList(docs=list("ABCDE"), grades=[3, 2, 3, 0, 1])
    config = Measure(gain="exponential")
    table = display_table(lst, config)
    expected = per_rank([3, 2, 3, 0, 1], config)
    np.testing.assert_allclose(table["contribution"], expected["gain"] * expected["discount"])
    np.testing.assert_allclose(table["ideal_gain"], [7, 7, 3, 1, 0])


def test_counts():
    lst = RankedList(docs=list("abcd"), grades=[2, np.nan, 0, -1], unretrieved={"e": 1}, has_pool=True)
    c = counts(lst)
    assert (c.documents, c.judged, c.unjudged, c.relevant, c.unretrieved) == (4, 3, 1, 1, 1)
    assert any("1 unjudged document counts" in w for w in list_summary(lst, Measure(k=4)).warnings)
    two = RankedList(docs=list("ab"), grades=[np.nan, np.nan])
    assert any("2 unjudged documents count as" in w for w in list_summary(two, Measure(k=2)).warnings)


def test_ideal_ranking_holds_the_judged_pool_with_list_ranks():
    from ndcg_gui.core.analysis.list_report import ideal_ranking

    lst = RankedList(docs=["a", "b", "c", "d"], grades=[1, np.nan, 3, 1], unretrieved={"z": 2.0},
                     has_pool=True)
    ideal = ideal_ranking(lst, Measure())
    assert ideal["doc"].tolist() == ["c", "z", "a", "d"]  # equal gains keep list order; b unjudged
    assert ideal["list_rank"].tolist() == [3, 0, 1, 4]
    # the ideal grades are what per_rank builds IDCG from
    expected = per_rank(lst.scoring_grades(), Measure(), judged=lst.judged_pool())
    assert ideal["grade"].tolist()[:4] == expected["ideal_grade"].tolist()
    own = ideal_ranking(lst, Measure(ideal="retrieved"))
    assert own["doc"].tolist() == ["c", "a", "d"]  # b is unjudged: no place in an ideal of judgments


def test_a_report_keeps_the_baseline_ranks_and_figures():
    from ndcg_gui.core.analysis.list_report import ListReport

    loaded = RankedList(docs=list("abcde"), grades=[3, 2, 3, 0, 1])
    moved = loaded.moved(4, 1, 0)
    report = ListReport(moved, Measure(k=3), loaded)
    assert report.baseline_ranks.tolist() == [5, 1, 2, 3, 4]
    assert report.baseline_summary.ndcg == list_summary(loaded, Measure(k=3)).ndcg
    assert report.summary.ndcg == list_summary(moved, Measure(k=3)).ndcg
    assert report.band is None and report.best_moves(2)["delta"].iloc[0] > 0


def test_the_band_is_its_search_finished_and_the_part_searched_is_not_searched_again():
    from ndcg_gui.core.analysis.list_report import ListReport
    from ndcg_gui.core.analysis.unjudged import unjudged_band

    grades = np.tile([2, np.nan, 0, 1, np.nan, 0, 3, np.nan, 0, 1], 30)  # 300 ranks: 199 searched
    lst = RankedList(docs=[f"d{i}" for i in range(len(grades))], grades=grades)
    report = ListReport(lst, Measure(k=10))
    search = report.band_search
    assert search is report.band_search and not search.done
    search.step(50)
    searched = list(search._rows)
    band = report.band
    assert search.done and search._rows[:50] == searched and band is search.band()
    assert list(band["rank"][:100]) == list(range(1, 101)) and band["rank"].iloc[-1] == 300
    expected = unjudged_band(grades, Measure(), lst.judged_pool(), ranks=band["rank"])
    np.testing.assert_array_equal(band[["low", "high"]].to_numpy(), expected[["low", "high"]].to_numpy())
    no_unjudged = ListReport(RankedList.from_grades([3, 1, 0]), Measure(k=2))
    assert no_unjudged.band_search is None and no_unjudged.band is None


def test_the_highest_ranked_of_equal_documents_are_shaded_as_wasting_a_top_k_place():
    """Eight documents of grade 0 fill the top 10; the ideal top 10 holds eight relevant ones and
    two of grade 0: six of the zeros waste a place, the six ranked highest (where a relevant
    document would add most), not the six below them."""
    from ndcg_gui.core.analysis.list_report import ideal_rank_of_rows, slot_marks

    lst = RankedList.from_grades([0] * 8 + [1, 1] + [1, 1, 1, 1, 2, 2], query="q")
    marks = slot_marks(lst, Measure(k=10))
    assert marks.tolist() == [1] * 6 + [0] * 4 + [-1] * 6
    # The ideal ranks keep equal grades in list order: the zeros ranked 1 and 2 are its 9th and 10th.
    assert ideal_rank_of_rows(lst, Measure())[:8].tolist() == [9, 10, 11, 12, 13, 14, 15, 16]


@given(st.lists(st.one_of(st.just(np.nan), SMALL_GRADE), min_size=1, max_size=14),
       st.integers(1, 12), configs(), st.data())
@settings(max_examples=300, deadline=None)
def test_swapping_a_shaded_pair_always_raises_dcg_and_the_counts_follow_the_ideal(grades, k, config, data):
    """Every document shaded as wasting a place (1) is worse than every one shaded as belonging
    in the top k (-1): swapping any such pair raises DCG@k. Per gain, as many are shaded as the
    ideal ranking puts past k while they are in the top k."""
    from ndcg_gui.core.analysis.list_report import ideal_rank_of_rows, slot_marks
    from ndcg_gui.core.ndcg.metrics import dcg_idcg_at, gains

    judged = [g for g in grades if g == g]
    pool = data.draw(judged_pools(judged))
    extra = pool[len(judged):] if pool is not None else []
    lst = RankedList(docs=[f"d{i}" for i in range(len(grades))], grades=grades, query="q",
                     unretrieved={f"x{i}": g for i, g in enumerate(extra)}, has_pool=pool is not None)
    marks = slot_marks(lst, config.with_(k=k))
    if config.judged_only and (lst.scoring_grades() < 0).any() and config.negative == "zero":
        assert not marks.any()  # a condensed list that leaves rows out is not shaded
        return
    ideal = ideal_rank_of_rows(lst, config)
    rank = np.arange(1, len(lst) + 1)
    gain = gains(lst.scoring_grades(), config)
    out = (ideal > 0) & (rank <= k) & (ideal > k)
    for value in np.unique(gain):
        assert (marks[gain == value] == 1).sum() == (out & (gain == value)).sum()
    assert not (marks[(ideal == 0)]).any()  # unjudged rows are never shaded
    assert ((marks == -1) <= ((ideal > 0) & (ideal <= k) & (rank > k))).all()
    before, _ = dcg_idcg_at(lst.scoring_grades(), config.with_(k=k), judged=lst.judged_pool())

    def raised(i, j) -> bool:
        swapped = lst.scoring_grades().copy()
        swapped[[i, j]] = swapped[[j, i]]
        return dcg_idcg_at(swapped, config.with_(k=k), judged=lst.judged_pool())[0] > before

    top = np.flatnonzero(rank <= k)
    for j in np.flatnonzero(marks == -1):
        assert all(raised(i, j) for i in np.flatnonzero(marks == 1))
        assert any(raised(i, j) for i in top)  # it has somewhere to go that helps
    # Past k, every row left unshaded that belongs in the ideal top k has no such place left.
    greens = (marks == -1).sum()
    places = np.sort(gain[rank <= k])
    for j in np.flatnonzero((marks == 0) & (ideal > 0) & (ideal <= k) & (rank > k)):
        assert (places < gain[j]).sum() <= greens


def test_nothing_is_shaded_green_that_would_not_raise_dcg_at_k():
    """The top k holds unjudged documents (0) and past k a grade-0 one that belongs in the ideal
    top k: moving it in changes nothing, so it is not shaded; with negative grades kept, moving a
    -1 up would lower DCG@k."""
    from ndcg_gui.core.analysis.list_report import slot_marks

    lst = RankedList(docs=list("abcd"), grades=[np.nan, np.nan, 0, 1], query="q")
    assert slot_marks(lst, Measure(k=2)).tolist() == [0, 0, 0, -1]
    lst = RankedList(docs=list("ab"), grades=[np.nan, -1], query="q")
    assert slot_marks(lst, Measure(negative="keep", k=1)).tolist() == [0, 0]


def test_the_largest_k_costs_what_the_list_costs():
    """k = MAX_K on five rows: every figure the window shows, with memory for five rows, not k
    (an array of k floats would be 8 GB). Above MAX_K, k is refused."""
    import tracemalloc

    from ndcg_gui.core.ndcg.measure import MAX_K

    lst = RankedList(docs=list("ABCDE"), grades=[3, np.nan, 3, 0, 1], unretrieved={"F": 2}, has_pool=True)
    report = ListReport(lst, preset("trec_eval").with_(k=MAX_K))
    tracemalloc.start()
    try:
        figures = [report.summary, report.table, report.move_effects, report.best_moves(), report.bounds,
                   report.slot_marks, report.band, report.judge_first, report.definitions]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20
    assert report.summary.ndcg == pytest.approx(ndcg_at([3, 0, 3, 0, 1], Measure(k=5),
                                                        judged=[3, 3, 0, 1, 2]))
    assert all(f is not None for f in figures)
    with pytest.raises(ValueError, match="from 1 to 1,000,000"):
        list_summary(lst, Measure(k=MAX_K + 1))


def test_a_condensed_list_that_drops_unjudged_rows_has_no_loss_per_row():
    # Judged only (TF-Ranking, trec_eval -J): the unjudged row leaves the list, so the losses of
    # the rows as shown cannot add up to IDCG@k - DCG@k; the window drew bars that did not (found
    # by the random-action test under TF-Ranking's preset).
    lst = RankedList(docs=["a", "b", "c", "d"], grades=[1.0, np.nan, 2.0, 0.0])
    condensed = ListReport(lst, Measure(judged_only=True, k=3))
    assert condensed.move_effects["loss"].isna().all()
    plain = ListReport(lst, Measure(k=3))
    gap = plain.summary.idcg - plain.summary.dcg
    assert plain.move_effects["loss"].iloc[:3].sum() == pytest.approx(gap)


def test_a_list_of_a_query_nobody_judged_has_no_tie_range():
    """A query the qrels do not judge (its pool known, and empty), tied scores in its top k: every
    order scores alike (the query is not scored), so no range; the window showing it (the headline
    asks) raised IndexError from an empty table."""
    lst = RankedList(docs=np.array(list("abc")), grades=np.full(3, np.nan), scores=np.array([1.0, 1.0, 0.5]),
                     query="q", has_pool=True)
    assert ListReport(lst, Measure(k=10)).tie_bounds is None
