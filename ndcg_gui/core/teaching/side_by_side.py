"""One list under two definitions, for teaching: both per-rank tables, and the ranks whose own
term (gain × discount) differs between them, which is where the two figures part."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ndcg_gui.core.analysis.list_report import ListSummary, display_table, list_summary
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import PRESETS, MetricConfig, TiesName

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Side:
    name: str
    config: MetricConfig
    ties: TiesName
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


def choices(config: MetricConfig, ties: TiesName) -> dict[str, tuple[MetricConfig, TiesName]]:
    """The definitions offered side by side: the one in use with linear or exponential gain, then
    every preset."""
    out = {"linear gain": (config.with_(gain="linear"), ties),
           "exponential gain": (config.with_(gain="exponential"), ties)}
    out.update({name: (p.config, p.ties) for name, p in PRESETS.items()})
    return out


def side_by_side(lst: RankedList, k: int, a: tuple[str, MetricConfig, TiesName],
                 b: tuple[str, MetricConfig, TiesName]) -> SideBySide:
    sides = []
    for name, config, ties in (a, b):
        table = display_table(lst, config, ties)
        sides.append(Side(name, config, ties, table, list_summary(lst, k, config, ties)))
    first, second = (s.table for s in sides)

    def own(table, gain: str) -> np.ndarray:
        return table[gain].to_numpy(float) * table["discount"].to_numpy(float)

    differs = np.zeros(len(lst), bool)
    for gain in ("gain", "ideal_gain"):
        differs |= ~np.isclose(own(first, gain), own(second, gain), rtol=0, atol=1e-12)
    return SideBySide(sides[0], sides[1], differs)
