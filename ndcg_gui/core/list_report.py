"""What the window shows of one ranked list, computed here so a script gets the same: the figures
at k with the caveats a reader must see next to them, the per-rank table with the two columns a
reader of the arithmetic needs, and the counts of the list's documents."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ndcg_gui.core.config import MetricConfig
from ndcg_gui.core.metrics import dcg_idcg_at, gains
from ndcg_gui.core.ranked_list import RankedList


@dataclass(frozen=True)
class Summary:
    """What the headline shows: the figures at k and the warnings that matter for them."""

    k: int
    n: int
    dcg: float
    idcg: float
    ndcg: float
    warnings: tuple[str, ...] = field(default_factory=tuple)
    notes: tuple[str, ...] = field(default_factory=tuple)


def list_summary(lst: RankedList, k: int, config: MetricConfig) -> Summary:
    """NDCG@k, DCG@k, IDCG@k of one list, and the caveats a reader must see next to them."""
    pool = lst.judged_pool()
    dcg, idcg = dcg_idcg_at(lst.scoring_grades(), k, config, judged=pool)
    ndcg = dcg / idcg if idcg != 0 else 0.0
    warnings: list[str] = []
    notes: list[str] = []
    grades = lst.grades[lst.judged]
    all_grades = grades if pool is None else np.concatenate([grades, pool])
    if (all_grades < 0).any():
        if config.negative == "keep":
            warnings.append("negative grades are kept: NDCG may fall outside [0, 1]")
        else:
            notes.append("negative grades count as gain 0")
    if idcg == 0:
        warnings.append(f"IDCG@{k} = 0: no relevant document, NDCG is undefined (shown as 0)")
    unjudged = int((~lst.judged[:k]).sum())
    if unjudged:
        what = "unjudged documents count" if unjudged > 1 else "unjudged document counts"
        warnings.append(f"{unjudged} {what} as gain 0 in the top {k}")
    if config.ideal == "judged" and not lst.has_pool:
        notes.append("no qrels: the ideal comes from the list's own grades")
    if lst.unretrieved and config.ideal == "judged":
        m = len(lst.unretrieved)
        notes.append(f"{m} judged document{'s' if m > 1 else ''} not in the list count in the ideal")
    if len(lst) < k:
        notes.append(f"the list has {len(lst)} documents, fewer than k = {k}")
    return Summary(k, len(lst), dcg, idcg, ndcg, tuple(warnings), tuple(notes))


def display_table(lst: RankedList, config: MetricConfig) -> pd.DataFrame:
    """`RankedList.metrics` plus the two columns the table shows that `per_rank` leaves implicit."""
    table = lst.metrics(config)
    table["contribution"] = table["gain"] * table["discount"]
    ideal = table["ideal_grade"].to_numpy(dtype=float)
    table["ideal_gain"] = np.where(np.isnan(ideal), 0.0, gains(np.nan_to_num(ideal), config))
    return table


@dataclass(frozen=True)
class Counts:
    """How many documents of a list are judged, unjudged, relevant (grade > 0), and how many judged
    documents of the query the list did not retrieve."""

    documents: int
    judged: int
    unjudged: int
    relevant: int
    unretrieved: int


def counts(lst: RankedList) -> Counts:
    judged = lst.judged
    return Counts(len(lst), int(judged.sum()), int((~judged).sum()), int((lst.grades[judged] > 0).sum()),
                  len(lst.unretrieved))
