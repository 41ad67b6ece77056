"""A bar histogram of per-query NDCG@k, or of per-query differences between two runs (Δ NDCG@k). A
click on a bar says which bin was picked; the panel turns that into a filter. Bins come from
`core.summary.histogram` (NDCG) and `core.run_diff.delta_histogram` (Δ), so the counts and the
filter agree."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import PySide6  # noqa: F401  (pyqtgraph picks its binding from whichever Qt is imported first)
from PySide6.QtCore import QPointF, Qt, Signal

from ndcg_gui.core.analysis.run_diff import delta_histogram
from ndcg_gui.core.summary import histogram

_BAR = pg.mkBrush(90, 130, 200)
_PICKED = pg.mkBrush(230, 140, 40)
_MEAN_PEN = pg.mkPen(200, 40, 40, width=2, style=Qt.PenStyle.DashLine)


class NdcgHistogram(pg.PlotWidget):
    """Counts of queries per NDCG (or Δ NDCG) bin, with the mean as a dashed line."""

    binClicked = Signal(int)  # the bin under a left click, or -1 outside the bars / on an empty bin

    def __init__(self, parent=None) -> None:
        super().__init__(parent, background="w")
        self.setMinimumHeight(140)
        plot = self.getPlotItem()
        plot.setMouseEnabled(x=False, y=False)  # a click picks a bar; nothing pans or zooms
        plot.hideButtons()
        plot.setMenuEnabled(False)
        plot.showGrid(y=True, alpha=0.2)
        plot.setLabel("left", "queries")
        self._bars = pg.BarGraphItem(x0=[], x1=[], height=[], brush=_BAR, pen=pg.mkPen("w"))
        self._mean = pg.InfiniteLine(angle=90, pen=_MEAN_PEN)
        self._mean.setVisible(False)
        plot.addItem(self._bars)
        plot.addItem(self._mean)
        self._edges = np.linspace(0, 1, 11)
        self._counts = np.zeros(10, dtype=np.int64)
        self._picked = -1
        self._deltas = False  # showing differences between runs
        self._zero = pg.InfiniteLine(pos=0, angle=90, pen=pg.mkPen(120, 120, 120, width=1))
        self._zero.setVisible(False)
        plot.addItem(self._zero)
        self.scene().sigMouseClicked.connect(self._on_click)
        self.scene().sigMouseMoved.connect(self._on_hover)
        self.set_values(np.array([]), None)

    # ---- feeding ---------------------------------------------------------------------------
    def set_values(self, values: np.ndarray, k: int | None, mean: float | None = None) -> None:
        """Show the NDCG@k of these queries; `mean` draws the mean line (hidden when None/NaN)."""
        at = f"@{k}" if k is not None else ""
        self._show(*histogram(np.asarray(values, dtype=float)), f"NDCG{at} per query", mean, deltas=False)

    def set_deltas(self, values: np.ndarray, label: str, mean: float | None = None) -> None:
        """Show per-query differences between two runs (bins centred on 0), titled `label`."""
        self._show(*delta_histogram(np.asarray(values, dtype=float)), label, mean, deltas=True)

    def _show(self, edges: np.ndarray, counts: np.ndarray, label: str, mean: float | None,
              deltas: bool) -> None:
        self._edges, self._counts, self._deltas = edges, counts, deltas
        self._picked = -1
        self._redraw()
        self._zero.setVisible(deltas)
        self.getPlotItem().setLabel("bottom", label)
        self._mean.setVisible(mean is not None and not np.isnan(mean))
        if self._mean.isVisible():
            self._mean.setValue(mean)
        self.getPlotItem().setXRange(self._edges[0], self._edges[-1], padding=0.02)
        self.getPlotItem().setYRange(0, max(1, int(self._counts.max(initial=0))), padding=0.05)

    def set_picked(self, index: int) -> None:
        """Highlight one bin (-1: none)."""
        self._picked = index
        self._redraw()

    @property
    def edges(self) -> np.ndarray:
        return self._edges

    @property
    def counts(self) -> np.ndarray:
        return self._counts

    @property
    def picked(self) -> int:
        return self._picked

    @property
    def deltas(self) -> bool:
        return self._deltas

    def bin_text(self, index: int) -> str:
        """A bin's range as the panel and the tooltip say it: "NDCG 0.1–0.2", "Δ −0.05 to +0.05"."""
        lo, hi = self._edges[index], self._edges[index + 1]
        if self._deltas:
            return f"Δ {lo:+.2f} to {hi:+.2f}".replace("-", "−")
        return f"NDCG {lo:.1f}–{hi:.1f}"

    def bin_center(self, index: int) -> QPointF:
        """The middle of a bar in plot coordinates (for tests and keyboard users)."""
        return QPointF((self._edges[index] + self._edges[index + 1]) / 2, self._counts[index] / 2)

    # ---- mouse -----------------------------------------------------------------------------
    def bin_at(self, scene_pos: QPointF) -> int:
        """The non-empty bin under a scene position, or -1."""
        vb = self.getPlotItem().getViewBox()
        if not vb.sceneBoundingRect().contains(scene_pos):
            return -1
        x = vb.mapSceneToView(scene_pos).x()
        if not self._edges[0] <= x <= self._edges[-1]:
            return -1
        index = int(np.clip(np.searchsorted(self._edges, x, side="right") - 1, 0, len(self._counts) - 1))
        return index if self._counts[index] > 0 else -1

    def _on_click(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.binClicked.emit(self.bin_at(event.scenePos()))

    def _on_hover(self, scene_pos: QPointF) -> None:
        index = self.bin_at(scene_pos)
        if index < 0:
            self.setToolTip("Click a bar to list its queries")
            return
        self.setToolTip(f"{self.bin_text(index)}: {self._counts[index]} queries (click to list them)")

    def _redraw(self) -> None:
        brushes = [_PICKED if i == self._picked else _BAR for i in range(len(self._counts))]
        self._bars.setOpts(
            x0=self._edges[:-1], x1=self._edges[1:], height=self._counts, brushes=brushes
        )
