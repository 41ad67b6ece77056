"""A run's own `segment` and `weight` columns, read when the window opens it by the core's rule
(`core.analysis.own_columns`, which `ndcg_gui.inspect` and `ndcg_gui.report` read them by too), as
`ndcg-inspect` reads them (`cli.segments`). The segments become the document's as File ▸ Open segments…
makes them; the weights weigh the query panel's mean. A bad cell is one line naming the file and
its line, and the run opens all the same, without that column's map."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ndcg_gui.core.analysis.own_columns import OwnColumns, own_columns

if TYPE_CHECKING:
    import pandas as pd

    from ndcg_gui.core.lists.dataset import Dataset
    from ndcg_gui.core.ndcg.measure import Measure

__all__ = ["OwnColumns", "own_columns", "own_said", "scored_with_own_columns"]


def scored_with_own_columns(dataset: Dataset, measure: Measure) -> tuple[pd.DataFrame, OwnColumns]:
    """`score_for_window` and `own_columns`, in the loader's worker (a big run's column is
    grouped by query there, not in a frame of the window). Module-level: a loader process runs it
    (`functools.partial(scored_with_own_columns, measure=...)` pickles; no Qt imported)."""
    from ndcg_gui.core.analysis.workspace_report import score_for_window

    return score_for_window(dataset, measure), own_columns(dataset)


def own_said(own: OwnColumns) -> str:
    """What the status line adds for the maps read: "; 3 segments and weights from its columns"."""
    read = []
    if own.segments is not None:
        names = len(set(own.segments.values.values()))
        read.append(f"{names:,} segment{'' if names == 1 else 's'}")
    if own.weights is not None:
        read.append("query weights")
    return f"; {' and '.join(read)} from its own columns" if read else ""
