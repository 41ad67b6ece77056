"""One list scored again as a row of the per-query table: the row `evaluate` gives its query,
made from the list alone (`list_row`), and a table with one query's row replaced from its edited
list (`with_list_rescored`), so an edit costs one list, not the whole dataset."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.lists.query_order import KEEP_FROM, kept_text, position_of
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure

if TYPE_CHECKING:
    import pandas as pd


def score(dataset: Dataset, measure: Measure) -> pd.DataFrame:
    """Every query of a dataset scored for the query browser: judged queries without results are
    listed (NDCG 0), so the measure's mean policy can decide about them (`Measure.per_query`)."""
    return dataset.evaluate(measure.per_query())


def list_row(ranked_list: RankedList, measure: Measure) -> pd.DataFrame:
    """One list's row of `evaluate` (under `measure.per_query()`), scored in the order the list
    stands, without making a dataset of it. ties="average": neighbours with equal scores share
    their gains and rows without a score (pasted, typed) stand alone, as in a dataset's
    `evaluate`; any other rule scores the list as it stands, as a dataset of that list alone does.
    No row when the list is empty and nothing judges its query, or when the pool is known and
    holds no judgment for it."""
    from ndcg_gui.core.ndcg.evaluate import Pool, score_ranked  # lazy: start-up (pandas)

    measure = measure.per_query()
    rl, n = ranked_list, len(ranked_list)
    if rl.has_pool:
        judged_grades = np.concatenate([rl.grades[rl.judged], np.fromiter(rl.unretrieved.values(), float)])
    listed = n > 0 or (rl.has_pool and len(judged_grades) > 0)
    queries = np.array([rl.query] if listed else [], dtype=object)
    row_query = np.zeros(n, np.int64)
    if rl.has_pool:
        pool = Pool(np.zeros(len(judged_grades), np.int64), judged_grades, judged=True)
    else:
        pool = Pool(row_query, rl.grades, judged=False)
    tie_key = rl.scores if measure.ties == "average" and rl.scores is not None else None  # (NaN never ties)
    return score_ranked(queries, row_query, rl.grades, np.array([n] if listed else [], np.int64), pool,
                        measure, tie_key)


def _place(index: pd.Index, query: str) -> int:
    """Where `query` is in `index` (unique ids), or -1: in a big index found by a scan of its kept
    Arrow text (`query_order.position_of`), not by the hash table of every id pandas makes for a
    lookup (made in the frame of the first edit of a big file)."""
    if len(index) < KEEP_FROM:
        return int(index.get_loc(query)) if query in index else -1
    return position_of(kept_text(index), index, query)


def with_list_rescored(
    result: pd.DataFrame,
    ranked_list: RankedList,
    measure: Measure,
) -> pd.DataFrame:
    """`result` (from `score`) with one query's row recomputed from its edited list: each query is
    scored on its own, so this equals scoring the whole dataset again, at the cost of one list."""
    import pandas as pd  # lazy: start-up (pandas)

    query = ranked_list.query
    rows = list_row(ranked_list, measure)
    at = _place(result.index, query)
    if at >= 0 and query not in rows.index:
        # It lost its last judgment (a typed list emptied, say): still listed, so the person can
        # go back to it, with nothing to score it by.
        rows = result.loc[[query]].copy()
        for column in rows.columns:
            rows[column] = rows[column].dtype.type(0) if column != "undefined" else True
        rows["n_retrieved"] = len(ranked_list)
    if at >= 0 and query in rows.index:
        columns = {}
        for column in result.columns:  # column by column, so every dtype stays as it was
            values = columns[column] = result[column].to_numpy(copy=True)
            values[at] = rows[column].to_numpy()[0]
        return pd.DataFrame(columns, index=result.index, columns=result.columns, copy=False)
    # The query appears or disappears (it gained or lost its last judgment): rebuild the order.
    out = pd.concat([result.drop(index=query, errors="ignore"), rows])
    return out.sort_index(kind="stable")
