"""The ranking order: the one rule by which every list is ranked, in memory (here) and in SQL
(`core.sql.ndcg_sql`, the same rule written once).

Rows grouped by query; within a query, high score first, scores compared at the definition's
precision (`Measure.score_precision`: float32 as trec_eval 9.x keeps them, `float sim`, where 1.0
and 1.0000000001 are tied; or the float64 numbers as given); tied scores by doc id in descending
byte order (trec_eval's strcmp, the "trec" rule) or in file order ("file", "average"); a rank
column instead: low rank first, ties in file order; neither: file order.

The loader ranks each list by its exact (float64) scores, ties by doc id descending: from that
order every rule at every precision is a reordering of runs of neighbours (`ranked` with the
rule's key and tie-break), so a `Dataset` never decides the ties of the measure.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ndcg_gui.core.arrays.ids import take

_TIES = 1 << 16


def score_key(score: np.ndarray, precision: str = "float32") -> np.ndarray:
    """Scores as the ranking compares them, at `precision` (`Measure.score_precision`): "float32"
    rounds them to single precision, so scores equal as float32 are ties (beyond float32's range:
    infinite, as in trec_eval); "float64" compares them exactly."""
    if precision not in ("float32", "float64"):
        raise ValueError(f"precision must be 'float32' or 'float64', not {precision!r}")
    score = np.asarray(score, dtype=np.float64)
    if precision == "float64":
        return score
    with np.errstate(over="ignore"):
        return score.astype(np.float32).astype(np.float64)


def ranked(rows: np.ndarray | None, codes: np.ndarray, key: np.ndarray | None, docs: pa.Array | None,
           origin: np.ndarray | None = None) -> np.ndarray:
    """`rows` (None: every row) reordered so each query's rows are contiguous (codes ascending) and
    ranked: key high first, ties in the order of `rows`, or with `docs` given, tied keys by doc id
    in descending byte order, or with `origin` given, tied keys by origin ascending.

    codes   the query code of every row of the table (`rows` index it), numbered by first appearance
    key     the ranking value of every row (a `score_key`, or minus the rank), None for file order
    docs    every row's doc id, for trec_eval's tie rule (None: ties keep the order of `rows`)
    origin  every row's place in its file, for the file-order rule over rows in another order
    """
    own = rows is None  # `rows` made here: changed in place below
    if own:  # every row: the arrays as they are (no copies of millions of values)
        rows, code, k = np.arange(len(codes)), codes, key
    else:
        code = codes[rows]
        k = key[rows] if key is not None else None
    if not is_ranked(code, k):
        order = np.argsort(-k, kind="stable") if k is not None else np.arange(len(rows))
        order = order[np.argsort(code[order].astype(_small_int(int(code.max()) + 1)), kind="stable")]
        rows, code = rows[order], code[order]
        k = k[order] if k is not None else None
        del order
        own = True
    return _order_runs(rows, code, k, docs, origin, own)


def order_ties(codes: np.ndarray, key: np.ndarray, docs: pa.Array | None = None,
               origin: np.ndarray | None = None) -> np.ndarray:
    """The order of rows grouped by query in which each run of neighbours with equal keys is put
    by doc id descending (`docs`) or by `origin`; the runs keep their places (a list as it stands
    has only its ties decided: `ranked` of a list already ranked)."""
    return _order_runs(np.arange(len(codes)), codes, key, docs, origin, True)


def _order_runs(rows: np.ndarray, code: np.ndarray, k: np.ndarray | None, docs: pa.Array | None,
                origin: np.ndarray | None, own: bool) -> np.ndarray:
    """`rows` (their codes and keys `code`, `k`) with each run of equal neighbours ordered."""
    if (docs is None and origin is None) or k is None or len(rows) < 2:
        return rows
    tied_next = (code[1:] == code[:-1]) & (k[1:] == k[:-1])
    del code, k
    if not tied_next.any():
        return rows
    # Only rows inside a run of equal keys are reordered; the runs keep their places.
    tied = np.zeros(len(rows), bool)
    tied[:-1] |= tied_next
    tied[1:] |= tied_next
    at = np.flatnonzero(tied)
    del tied
    if len(rows) < 2**31:
        at = at.astype(np.int32)  # (positions: half the memory)
    first = np.ones(len(at), bool)  # where a run of ties starts, among the tied rows
    first[1:] = ~tied_next[at[1:] - 1]
    del tied_next
    run_id = np.cumsum(first, dtype=np.int32 if len(first) < 2**31 else np.int64)  # never falls
    del first
    if not own:
        rows = rows.copy()
    if docs is None:  # ties by origin: one integer sort of the tied rows
        order = np.lexsort((np.asarray(origin)[rows[at]], run_id))
        rows[at] = rows[at][order]
        return rows
    # Some runs at a time (whole runs, about _TIES rows; a block starts where the run of its
    # first row starts): the doc ids taken to sort them are a few MB, not a copy of every tied id.
    cuts = np.unique(np.searchsorted(run_id, run_id[::_TIES], side="left"))
    for lo, hi in zip(cuts.tolist(), [*cuts[1:].tolist(), len(at)], strict=True):
        where = at[lo:hi]
        # Arrow compares ids byte by byte (unsigned), as trec_eval's strcmp does.
        pairs = pa.table({"run": run_id[lo:hi], "doc": take(docs, rows[where])})
        order = pc.sort_indices(pairs, [("run", "ascending"), ("doc", "descending")]).to_numpy()
        rows[where] = rows[where][order]
    return rows


def is_ranked(code: np.ndarray, key: np.ndarray | None) -> bool:
    """Whether rows with these codes and keys are grouped (codes never fall) and ranked (the key
    never rises within a query)."""
    if len(code) < 2:
        return True
    if (code[1:] < code[:-1]).any():  # (compared, not np.diff: a bool a row, not 8 bytes)
        return False
    return key is None or not ((code[1:] == code[:-1]) & (key[1:] > key[:-1])).any()


def _small_int(n: int) -> type:
    return np.uint16 if n <= np.iinfo(np.uint16).max else np.int64
