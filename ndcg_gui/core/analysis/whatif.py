"""What single moves would do to NDCG@k: per-row what-ifs, the loss per rank, the best moves.

A move takes one document out of the list and puts it back at another rank; the documents in
between shift by one. IDCG does not depend on the order of the list, so only DCG@k changes, and the
change of every move comes from three prefix sums in O(1) (no list is rebuilt). Only moves that
touch the first k ranks change DCG@k: a move entirely below k leaves it as it is.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import (
    _pool,
    as_grades,
    dcg_idcg_at,
    discounts,
    finish,
    gains,
    ideal_gains,
)

MOVE_EFFECT_COLUMNS = ["rank", "ideal_rank", "ndcg_if_first", "ndcg_if_ideal", "loss"]
BEST_MOVE_COLUMNS = ["from_rank", "to_rank", "ndcg_after", "delta"]

_DEFAULT = Measure()
_CHUNK = 1 << 20  # moves scored at once by best_moves (memory, not speed)


class _Moves:
    """DCG@k of one list after any single move, from prefix sums.

    With dk the discount cut at k (0 from rank k+1 on), moving row i up to row j < i shifts rows
    j..i-1 down one rank and moving it down to j > i shifts rows i+1..j up one, so
    ΔDCG = Σ g[r]·(dk[r±1] − dk[r]) over the shifted rows + g[i]·(dk[j] − dk[i]).
    """

    def __init__(self, gain: np.ndarray, measure: Measure) -> None:
        n, k = len(gain), measure.k
        cut = n if k is None else min(k, n)
        dk = np.zeros(n + 1)
        dk[:cut] = discounts(cut, measure)
        self.gain, self.dk, self.cut = gain, dk, cut
        zero = np.zeros(1)
        self.stay = np.concatenate([zero, np.cumsum(gain * dk[:n])])
        self.down = np.concatenate([zero, np.cumsum(gain * dk[1:])])
        up = gain * np.concatenate([zero, dk[: n - 1]]) if n else gain
        self.up = np.concatenate([zero, np.cumsum(up)])

    def delta(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """ΔDCG@k of moving row i to row j (0-based, arrays of the same shape)."""
        lo, hi = np.minimum(i, j), np.maximum(i, j)
        shifted = np.where(
            j < i,
            (self.down[hi] - self.down[lo]) - (self.stay[hi] - self.stay[lo]),
            (self.up[hi + 1] - self.up[lo + 1]) - (self.stay[hi + 1] - self.stay[lo + 1]),
        )
        out = shifted + self.gain[i] * (self.dk[j] - self.dk[i])
        return np.where(i == j, 0.0, out)


def _setup(grades, measure, judged):
    measure = measure or _DEFAULT
    grades = as_grades(grades)
    dcg, idcg = dcg_idcg_at(grades, measure, judged)
    return measure, measure.k, grades, dcg, idcg


def _ratio(dcg: np.ndarray | float, idcg: float, measure: Measure) -> np.ndarray:
    """NDCG as the definition reports it (`metrics.finish`: IDCG = 0 and rounding included)."""
    dcg = np.asarray(dcg, dtype=float)
    flat = np.atleast_1d(dcg)
    out = finish(flat, np.full(flat.shape, float(idcg)), measure)
    return out.reshape(dcg.shape)


BRUTE_FORCE_ROWS = 64  # past this a definition the prefix sums do not model gets no move figures


def _unmodelled(grades: np.ndarray, measure: Measure, judged) -> bool:
    """Definitions where a move changes more than DCG@k by the prefix sums: a condensed list that
    drops rows (negative grades with negative="zero"), or an ideal taken in the list's own order."""
    drops = measure.judged_only and measure.negative == "zero" and bool((grades < 0).any())
    own_order = measure.ideal_order == "given" and (judged is None or measure.ideal == "retrieved")
    return drops or own_order


def _moved_ndcg(grades: np.ndarray, measure: Measure, judged, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """NDCG@k after each move i → j, each list rebuilt and scored by `ndcg_at`'s arithmetic; NaN
    past `BRUTE_FORCE_ROWS` rows."""
    out = np.full(np.shape(i), np.nan)
    if len(grades) > BRUTE_FORCE_ROWS:
        return out
    for at, (a, b) in enumerate(zip(np.ravel(i), np.ravel(j), strict=True)):
        order = list(range(len(grades)))
        order.insert(int(b), order.pop(int(a)))
        dcg, idcg = dcg_idcg_at(grades[order], measure, judged)
        out.flat[at] = finish(np.array([dcg]), np.array([idcg]), measure)[0]
    return out


def _after(grades, measure, judged, moves, dcg, idcg, i, j) -> np.ndarray:
    """NDCG@k after moves i → j: from the prefix sums, or each list scored where they do not
    model the definition (`_unmodelled`)."""
    if _unmodelled(grades, measure, judged):
        return _moved_ndcg(grades, measure, judged, i, j)
    return _ratio(dcg + moves.delta(i, j), idcg, measure)


def ideal_ranks(grades: np.ndarray, measure: Measure) -> np.ndarray:
    """1-based rank of each row when the list is ordered by gain, high first (stable)."""
    order = np.argsort(-gains(grades, measure), kind="stable")
    ranks = np.empty(len(grades), np.int64)
    ranks[order] = np.arange(1, len(grades) + 1)
    return ranks


def move_effects(
    grades: Sequence[float] | np.ndarray | pd.Series,
    measure: Measure | None = None,
    judged: Sequence[float] | np.ndarray | None = None,
) -> pd.DataFrame:
    """One row per rank: rank, ideal_rank, ndcg_if_first, ndcg_if_ideal, loss.

    ideal_rank     where the document stands when the list is ordered by gain, high first (equal
                   gains keep their list order).
    ndcg_if_first  NDCG@k with this document alone moved to rank 1, the others keeping their order.
    ndcg_if_ideal  the same with the document moved to its ideal_rank.
    loss           the ideal ranking's gain x discount at this rank minus this row's; the ideal comes
                   from the same pool as IDCG (the judged pool under ideal="judged"), so the losses
                   of the first k rows add up to IDCG@k − DCG@k. When the ideal is longer than the
                   list (k past the end, or k=None, with a larger judged pool) the ideal ranks past
                   the last row have no row, and an ideal not cut at k (ideal_depth="all") counts
                   ranks past k: that part of IDCG is `attrs["loss_beyond_list"]`.

    `attrs` also holds "dcg", "idcg" and "ndcg" of the list as it is. Cut-off and ideal follow
    `ndcg_at`.
    """
    measure, k, grades, dcg, idcg = _setup(grades, measure, judged)
    n = len(grades)
    gain = gains(grades, measure)
    moves = _Moves(gain, measure)
    rows = np.arange(n)
    ideal = ideal_ranks(grades, measure)
    _, pool_gain = ideal_gains(_pool(grades, judged, measure), measure)
    if k is None or measure.ideal_depth == "all":
        depth = len(pool_gain)
    else:  # the ideal cut at k, or at min(k, n) (`Measure.ideal_depth`)
        depth = min(k, n if measure.ideal_depth == "list" else k, len(pool_gain))
    # The ideal at every rank, not cut at k: past k a row's loss still compares it with what the
    # ideal ranking holds there (the first k losses alone make IDCG@k − DCG@k).
    disc = discounts(max(n, len(pool_gain)), measure)

    def after(i: np.ndarray, j: np.ndarray) -> np.ndarray:
        if _unmodelled(grades, measure, judged):
            return _moved_ndcg(grades, measure, judged, i, j)
        return _after(grades, measure, judged, moves, dcg, idcg, i, j)

    drops = measure.judged_only and measure.negative == "zero" and bool((grades < 0).any())
    ideal_part = np.zeros(max(n, len(pool_gain)))
    ideal_part[: len(pool_gain)] = pool_gain * disc[: len(pool_gain)]
    table = pd.DataFrame(
        {
            "rank": rows + 1,
            "ideal_rank": ideal,
            "ndcg_if_first": after(rows, np.zeros(n, np.int64)),
            "ndcg_if_ideal": after(rows, ideal - 1),
            # A condensed list that drops rows has no loss per row of the list as shown.
            "loss": np.full(n, np.nan) if drops else ideal_part[:n] - gain * disc[:n],
        },
        columns=MOVE_EFFECT_COLUMNS,
    )
    counted = n if k is None else min(k, n)  # the rows whose losses count
    table.attrs.update(
        dcg=dcg, idcg=idcg, ndcg=float(_ratio(dcg, idcg, measure)),
        loss_beyond_list=float("nan") if drops else float(ideal_part[counted:depth].sum())
    )
    return table


def best_moves(
    grades: Sequence[float] | np.ndarray | pd.Series,
    measure: Measure | None = None,
    judged: Sequence[float] | np.ndarray | None = None,
    n: int = 5,
) -> pd.DataFrame:
    """The `n` single moves (one document taken out and put back at another rank) that give the
    highest NDCG@k, best first: from_rank, to_rank, ndcg_after, delta (ndcg_after − NDCG@k now).

    Swapping two neighbours is one move, listed as the lower one moving up. Moves that change
    nothing (entirely below k, or among equal gains) count too, so an ideal list gets moves with
    delta 0. Equal results are ordered by the shorter move, then the smaller from_rank, then the
    smaller to_rank. Fewer than `n` rows when the list has fewer distinct moves.
    """
    measure, _, grades, dcg, idcg, moves = _moves_of(grades, measure, judged, n)
    size = len(moves.gain)
    picked = [np.zeros((0, 2), np.int64)]
    for i, j in _candidate_blocks(size, moves.cut, int(n)):
        after = _after(grades, measure, judged, moves, dcg, idcg, i, j)
        keep = _top(after, i, j, size, int(n))
        picked.append(np.column_stack([i[keep], j[keep]]))
    ij = np.concatenate(picked)
    i, j = ij[:, 0], ij[:, 1]
    after = _after(grades, measure, judged, moves, dcg, idcg, i, j)
    keep = _top(after, i, j, size, int(n))
    now = float(_ratio(dcg, idcg, measure))
    return pd.DataFrame(
        {"from_rank": i[keep] + 1, "to_rank": j[keep] + 1, "ndcg_after": after[keep],
         "delta": after[keep] - now},
        columns=BEST_MOVE_COLUMNS,
    ).reset_index(drop=True)


def distinct_moves(
    grades: Sequence[float] | np.ndarray | pd.Series,
    measure: Measure | None = None,
    judged: Sequence[float] | np.ndarray | None = None,
    n: int = 5,
) -> pd.DataFrame:
    """The best single moves a person wants to read: only those that raise NDCG@k, one per document
    (its best destination: moving it one rank less far is the same idea, not another move), and of
    several documents that would each give the same NDCG@k at the same rank, only the first. Ordered
    as `best_moves` orders them; same columns."""
    measure, _, grades, dcg, idcg, moves = _moves_of(grades, measure, judged, n)
    size = len(moves.gain)
    picked = [np.zeros((0, 2), np.int64)]
    for i, j in _candidate_blocks(size, moves.cut, 1):
        after = _after(grades, measure, judged, moves, dcg, idcg, i, j)
        picked.append(_best_per_document(after, i, j, size))
    ij = np.concatenate(picked)
    i, j = ij[:, 0], ij[:, 1]
    after = _after(grades, measure, judged, moves, dcg, idcg, i, j)
    pairs = _best_per_document(after, i, j, size)
    i, j = pairs[:, 0], pairs[:, 1]
    after = _after(grades, measure, judged, moves, dcg, idcg, i, j)
    now = float(_ratio(dcg, idcg, measure))
    order = _order(after, i, j, size)
    i, j, after = i[order], j[order], after[order]
    helps = after - now > 1e-12
    i, j, after = i[helps], j[helps], after[helps]
    same_place = pd.Series(list(zip(j, np.round(after, 12), strict=True))).duplicated().to_numpy()
    keep = ~same_place
    return pd.DataFrame(
        {"from_rank": i[keep] + 1, "to_rank": j[keep] + 1, "ndcg_after": after[keep],
         "delta": after[keep] - now},
        columns=BEST_MOVE_COLUMNS,
    ).head(n).reset_index(drop=True)


def _order(after: np.ndarray, i: np.ndarray, j: np.ndarray, size: int) -> np.ndarray:
    """Positions by (ndcg_after high first, to 12 decimals; shorter move; smaller from; smaller to)."""
    tie = (np.abs(i - j) * size + i) * size + j
    return np.lexsort((tie, -np.round(after, 12)))


def _best_per_document(after: np.ndarray, i: np.ndarray, j: np.ndarray, size: int) -> np.ndarray:
    """(from, to) rows of each document's best move among those given, in `_order`."""
    order = _order(after, i, j, size)
    _, first = np.unique(i[order], return_index=True)
    chosen = order[np.sort(first)]
    return np.column_stack([i[chosen], j[chosen]]).astype(np.int64)


def _moves_of(grades, measure, judged, n):
    """`_setup`'s (measure, k, grades, DCG@k, IDCG@k) and every single move's DCG@k of the list,
    after checking the arguments."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"n must be a whole number ≥ 0, not {n!r}")
    measure, k, grades, dcg, idcg = _setup(grades, measure, judged)
    return measure, k, grades, dcg, idcg, _Moves(gains(grades, measure), measure)


def _candidate_blocks(size: int, cut: int, n_best: int):
    """(from, to) rows (0-based) of every distinct move that can change DCG@k, in blocks, plus
    enough of the moves entirely below k (which all change nothing) to fill `n_best` rows."""
    if size < 2 or n_best == 0:
        return
    every = np.arange(size)
    # Rows inside the cut may go anywhere; rows below it only into the cut.
    for rows, to in ((every[:cut], every), (every[cut:], every[:cut])):
        if len(rows) == 0 or len(to) == 0:
            continue
        step = max(1, _CHUNK // len(to))
        for start in range(0, len(rows), step):
            block = rows[start : start + step]
            yield _distinct(np.repeat(block, len(to)), np.tile(to, len(block)))
    below = every[cut : min(size, cut + n_best + 2)]
    if len(below) >= 2:
        i, j = np.meshgrid(below, below, indexing="ij")
        yield _distinct(i.ravel(), j.ravel())


def _distinct(i: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    # i -> i+1 is the same list as i+1 -> i: keep the upward form only.
    keep = (i != j) & (j != i + 1)
    return i[keep], j[keep]


def _top(after: np.ndarray, i: np.ndarray, j: np.ndarray, size: int, n_best: int) -> np.ndarray:
    """Positions of the n_best moves by (ndcg_after high first, shorter, smaller from, smaller to),
    in that order. ndcg_after is compared to 12 decimals, so float noise does not split ties."""
    if len(after) == 0 or n_best == 0:
        return np.zeros(0, np.int64)
    value = np.round(after, 12)
    tie = (np.abs(i - j) * size + i) * size + j
    if len(value) > n_best:
        threshold = np.partition(value, len(value) - n_best)[len(value) - n_best]
        above = np.flatnonzero(value > threshold)
        at = np.flatnonzero(value == threshold)
        need = n_best - len(above)
        if need < len(at):
            at = at[np.argpartition(tie[at], need - 1)[:need]] if need else at[:0]
        chosen = np.concatenate([above, at])
    else:
        chosen = np.arange(len(value))
    return chosen[np.lexsort((tie[chosen], -value[chosen]))]


def best_insert_row(grades: Sequence[float] | np.ndarray, grade: float,
                    measure: Measure | None = None) -> int:
    """Where a document of `grade` put into the list (unjudged rows count as 0) raises NDCG@k most:
    the 0-based row it goes before. IDCG is the same wherever it goes, so this is the highest
    DCG@k; of equal ones, the highest DCG of the whole list, then the highest place."""
    measure = measure or _DEFAULT
    k = measure.k
    g = gains(np.nan_to_num(np.asarray(grades, dtype=float), nan=0.0), measure)
    new = float(gains(np.array([grade], dtype=float), measure)[0])
    n = len(g)
    at = np.arange(n + 1)

    def dcg_with_it(cut: int) -> np.ndarray:  # DCG@cut with the document before row 0, 1, …, n
        d = np.zeros(n + 2)
        d[: min(cut, n + 1)] = discounts(min(cut, n + 1), measure)
        above = np.concatenate([[0.0], np.cumsum(g * d[:n])])  # rows above it keep their rank
        pushed = np.concatenate([[0.0], np.cumsum(g * d[1 : n + 1])])  # rows below go one down
        return above[at] + new * d[at] + (pushed[n] - pushed[at])

    top = dcg_with_it(n + 1 if k is None else k)
    whole = dcg_with_it(n + 1)
    tie = 1e-12 * max(1.0, float(np.abs(top).max()))
    best = np.flatnonzero(top >= top.max() - tie)
    return int(best[np.flatnonzero(whole[best] >= whole[best].max() - tie)[0]])
