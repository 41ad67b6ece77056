"""move_effects and best_moves against brute force: every moved list is literally built and scored
with `ndcg_at`; the loss per rank against an ideal ranking sorted here by Python."""

import math

import numpy as np
import pytest
from definition_strategies import CUTOFF, GRADE, configs, judged_pools
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core import Measure, best_moves, dcg_idcg_at, discounts, gains, move_effects, ndcg_at
from ndcg_gui.core.analysis.whatif import best_insert_row
from ndcg_gui.core.ndcg.metrics import ideal_gains
from ndcg_gui.core.ndcg.presets import preset


def moved(grades: list[float], i: int, j: int) -> list[float]:
    """The list with row i (0-based) taken out and put back so that it stands at row j."""
    rest = grades[:i] + grades[i + 1 :]
    return [*rest[:j], grades[i], *rest[j:]]


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


@st.composite
def cases(draw, max_size=10):
    grades = draw(st.lists(GRADE, max_size=max_size))
    return grades, draw(CUTOFF), draw(configs()), draw(judged_pools(grades))


@settings(max_examples=400, deadline=None)
@given(case=cases())
def test_move_effects_is_each_moved_list_scored(case):
    grades, k, config, judged = case
    table = move_effects(grades, config.with_(k=k), judged)
    n = len(grades)
    assert list(table["rank"]) == list(range(1, n + 1))
    gain = gains(np.array(grades, float), config)
    # Ideal rank: Python's sort is stable, so equal gains keep their list order.
    by_gain = sorted(range(n), key=lambda i: -gain[i])
    for i in range(n):
        ideal_rank = by_gain.index(i) + 1
        assert table["ideal_rank"].iloc[i] == ideal_rank
        assert close(table["ndcg_if_first"].iloc[i], ndcg_at(moved(grades, i, 0), config.with_(k=k), judged))
        assert close(
            table["ndcg_if_ideal"].iloc[i],
            ndcg_at(moved(grades, i, ideal_rank - 1), config.with_(k=k), judged)
        )
    dcg, idcg = dcg_idcg_at(grades, config.with_(k=k), judged)
    assert close(table.attrs["ndcg"], ndcg_at(grades, config.with_(k=k), judged))
    assert close(table.attrs["dcg"], dcg) and close(table.attrs["idcg"], idcg)


@settings(max_examples=400, deadline=None)
@given(case=cases())
def test_losses_of_the_first_k_rows_add_up_to_idcg_minus_dcg(case):
    grades, k, config, judged = case
    table = move_effects(grades, config.with_(k=k), judged)
    n = len(grades)
    if config.judged_only and config.negative == "zero" and min(grades, default=0) < 0:
        assert table["loss"].isna().all()  # a condensed list that drops rows: no loss per row
        return
    pool = grades if judged is None or config.ideal == "retrieved" else judged
    pool_gain = list(ideal_gains(np.array(pool, float), config)[1])  # sorted, or as given
    if k is None or config.ideal_depth == "all":
        depth = len(pool_gain)
    else:
        depth = min(k, n if config.ideal_depth == "list" else k, len(pool_gain))
    ideal = [pool_gain[r] if r < len(pool_gain) else 0.0 for r in range(n)]  # not cut at k
    disc = discounts(n, config)
    gain = gains(np.array(grades, float), config)
    for r in range(n):
        assert close(table["loss"].iloc[r], ideal[r] * disc[r] - gain[r] * disc[r])
    dcg, idcg = dcg_idcg_at(grades, config.with_(k=k), judged)
    first_k = table["loss"].iloc[: n if k is None else k].sum()
    assert close(first_k + table.attrs["loss_beyond_list"], idcg - dcg)
    if depth <= (n if k is None else min(k, n)):  # the ideal no deeper than the rows counted
        assert table.attrs["loss_beyond_list"] == 0 and close(first_k, idcg - dcg)


def every_move(n: int):
    """(i, j, order) for every distinct single move: i -> i+1 and i+1 -> i give one list."""
    seen = set()
    for i in range(n):
        for j in range(n):
            order = tuple(moved(list(range(n)), i, j))
            if i != j and order not in seen:
                seen.add(order)
                yield i, j, order


@settings(max_examples=400, deadline=None)
@given(case=cases(), n_best=st.integers(0, 8))
def test_best_moves_are_the_best_of_every_move(case, n_best):
    grades, k, config, judged = case
    result = best_moves(grades, config.with_(k=k), judged, n=n_best)
    assert list(result.columns) == ["from_rank", "to_rank", "ndcg_after", "delta"]
    brute = sorted(
        (ndcg_at(moved(grades, i, j), config.with_(k=k), judged) for i, j, _ in every_move(len(grades))),
        reverse=True,
    )
    assert len(result) == min(n_best, len(brute))
    now = ndcg_at(grades, config.with_(k=k), judged)
    orders = set()
    for row, best in zip(result.itertuples(), brute, strict=False):
        after = ndcg_at(moved(grades, row.from_rank - 1, row.to_rank - 1), config.with_(k=k), judged)
        assert close(row.ndcg_after, after) and close(row.delta, after - now)
        assert close(row.ndcg_after, best)  # the i-th best value of all moves
        assert row.from_rank != row.to_rank != row.from_rank + 1
        orders.add(tuple(moved(list(range(len(grades))), row.from_rank - 1, row.to_rank - 1)))
    assert len(orders) == len(result)  # no list twice
    assert (np.diff(result["ndcg_after"]) <= 1e-12).all()  # best first


def test_a_move_below_k_changes_nothing_and_is_listed_after_every_gain():
    grades = [0.0, 3.0, 2.0, 0.0, 1.0, 0.0, 2.0]
    result = best_moves(grades, Measure(k=2), n=40)
    assert (np.diff(result["ndcg_after"]) <= 1e-12).all()  # best first
    below = result[(result["from_rank"] > 2) & (result["to_rank"] > 2)]
    assert len(below) and (below["delta"] == 0).all()
    assert result.iloc[0]["ndcg_after"] == pytest.approx(
        max(ndcg_at(moved(grades, i, j), Measure(k=2)) for i, j, _ in every_move(len(grades)))
    )


def test_empty_single_and_undefined_lists():
    for grades in ([], [2.0]):
        assert len(best_moves(grades, Measure(k=3))) == 0
        assert len(move_effects(grades, Measure(k=3))) == len(grades)
    # IDCG = 0: every figure is 0, as ndcg_at says.
    table = move_effects([0.0, 0.0, -1.0], preset("trec_eval").with_(k=2))
    assert (table[["ndcg_if_first", "ndcg_if_ideal"]] == 0).all().all()
    assert (best_moves([0.0, 0.0, -1.0], preset("trec_eval").with_(k=2))["ndcg_after"] == 0).all()


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="k must be"):
        move_effects([1.0, 2.0], Measure(k=0))
    with pytest.raises(ValueError, match="n must be"):
        best_moves([1.0, 2.0], n=-1)
    with pytest.raises(ValueError, match="finite"):
        best_moves([1.0, float("nan")])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([0.0, 1.0, 2.0, 3.0]), min_size=2, max_size=14), st.integers(1, 6))
def test_distinct_moves_are_the_best_moves_that_help_one_of_each_idea(grades, k):
    from ndcg_gui.core.analysis.whatif import best_moves, distinct_moves

    shown = distinct_moves(grades, Measure(k=k), n=5)
    assert (shown["delta"] > 0).all()
    assert not shown.duplicated(["from_rank"]).any()  # one move per document: its best
    assert not shown.duplicated(["to_rank", "ndcg_after"]).any()
    # Brute force: each document's best destination, by moving it everywhere (one rank down is the
    # neighbour's move up: listed as that one's).
    def after(f: int, t: int) -> float:
        moved = list(grades)
        moved.insert(t, moved.pop(f))
        return ndcg_at(moved, Measure(k=k))
    now = ndcg_at(grades, Measure(k=k))
    best_of = {f: max(after(f, t) for t in range(len(grades)) if t != f + 1) for f in range(len(grades))}
    for row in shown.itertuples():
        assert row.ndcg_after == pytest.approx(best_of[row.from_rank - 1], abs=1e-12)
        assert after(row.from_rank - 1, row.to_rank - 1) == pytest.approx(row.ndcg_after, abs=1e-12)
    if len(shown) == 5:  # nothing left out beats the last one shown
        listed = set(shown["from_rank"] - 1)
        places = {(t, round(a, 9)) for t, a in zip(shown["to_rank"] - 1, shown["ndcg_after"], strict=True)}
        for f, best in best_of.items():
            if f not in listed and best - now > 1e-9:
                assert best <= shown["ndcg_after"].iloc[-1] + 1e-12 or any(
                    (t, round(best, 9)) in places for t in range(len(grades)))
    best = best_moves(grades, Measure(k=k), n=1)
    if len(best) and best["delta"].iloc[0] > 1e-12:
        assert shown.iloc[0].tolist() == best.iloc[0].tolist()
    else:
        assert shown.empty


def test_best_moves_list_one_move_per_document():
    """Issue 19.8 (query 307): 16→1, 16→2, 16→3 of one document were listed while another document's
    move of equal gain was not. Each document is listed once, at its best rank."""
    from ndcg_gui.core.analysis.whatif import distinct_moves

    grades = [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 2]
    shown = distinct_moves(grades, Measure(k=10), n=5)
    assert shown["from_rank"].tolist()[:2] == [16, 20]
    assert shown["to_rank"].tolist()[:2] == [1, 1]
    assert not shown.duplicated(["from_rank"]).any()


# ---- where a judged document the list missed would do most ----------------------------------------
@pytest.mark.parametrize(("grades", "grade", "k", "expected"), [
    ([0, 1, 2], 3, 3, 0),  # above everything
    ([3, 2, 0, 1], 1, 3, 2),  # below the 2, above the 0: the highest DCG@3
    ([3, 2, 1], 0, 2, 3),  # a 0 goes last: it pushes nothing down
    ([2, float("nan"), 1], 1, None, 1),  # an unjudged row counts as 0
    ([], 2, 10, 0),
])
def test_best_insert_row_examples(grades, grade, k, expected):
    assert best_insert_row(grades, grade, Measure(k=k)) == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([0, 1, 2, 3, -1]), max_size=12), st.sampled_from([0, 1, 2, 3, -1]),
       st.integers(1, 6))
def test_best_insert_row_gives_the_highest_ndcg_at_k_of_every_place(grades, grade, k):
    # IDCG is the same wherever it goes: the highest DCG@k is the highest NDCG@k (when IDCG > 0).
    scores = [dcg_idcg_at([*grades[:p], grade, *grades[p:]], Measure(k=k))[0] for p in range(len(grades) + 1)]
    at = best_insert_row(grades, grade, Measure(k=k))
    assert scores[at] == pytest.approx(max(scores), abs=1e-12)
    # Of equal DCG@k, the place that gives the whole list the highest DCG.
    whole = [dcg_idcg_at([*grades[:p], grade, *grades[p:]], Measure())[0] if scores[p] == pytest.approx(
        max(scores), abs=1e-12) else -np.inf for p in range(len(grades) + 1)]
    assert whole[at] == pytest.approx(max(whole), abs=1e-12)
