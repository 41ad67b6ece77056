"""One list under two definitions, for teaching: both per-rank tables, and the ranks whose own
term (gain × discount) differs between them, which is where the two figures part."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ndcg_gui.core.analysis.list_report import ListSummary, display_table, list_summary
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.presets import PRESETS

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Side:
    name: str
    measure: Measure
    table: pd.DataFrame
    summary: ListSummary


@dataclass(frozen=True)
class SideBySide:
    a: Side
    b: Side
    differs: np.ndarray  # per rank: the term gain × discount differs (the ideal's too)

    def text(self) -> str:
        k = self.a.summary.k
        ranks = [str(i + 1) for i in np.flatnonzero(self.differs)]
        where = f"ranks {', '.join(ranks)} count differently" if ranks else "no rank counts differently"
        return (f"NDCG@{k}: {self.a.summary.ndcg:.4f} under {self.a.name}, {self.b.summary.ndcg:.4f} under "
                f"{self.b.name}; {where}")


def choices(measure: Measure) -> dict[str, Measure]:
    """The measures offered side by side: the one in use with linear or exponential gain, then
    every preset, all at the cut-off of the one in use."""
    out = {"linear gain": measure.with_(gain="linear"), "exponential gain": measure.with_(gain="exponential")}
    out.update({name: p.at(measure.k) for name, p in PRESETS.items()})
    return out


def side_by_side(lst: RankedList, a: tuple[str, Measure], b: tuple[str, Measure]) -> SideBySide:
    """`lst` under the measures `a` and `b` (each named), at their cut-off."""
    sides = []
    for name, measure in (a, b):
        table = display_table(lst, measure)
        sides.append(Side(name, measure, table, list_summary(lst, measure)))
    first, second = (s.table for s in sides)

    def own(table, gain: str) -> np.ndarray:
        return table[gain].to_numpy(float) * table["discount"].to_numpy(float)

    differs = np.zeros(len(lst), bool)
    for gain in ("gain", "ideal_gain"):
        differs |= ~np.isclose(own(first, gain), own(second, gain), rtol=0, atol=1e-12)
    return SideBySide(sides[0], sides[1], differs)
