"""A bar histogram of per-query NDCG@k, or of per-query differences between two runs (Δ NDCG@k). A
click on a bar says which bin was picked; the panel turns that into a filter. Bins come from
`core.ndcg.mean.histogram` (NDCG) and `core.run_diff.delta_histogram` (Δ), so the counts and the
filter agree.

The pyqtgraph plot is made when the histogram is first shown (`LazyPlot`: the query panel is hidden
until a file has several queries); until then the histogram answers from what it was given."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import PySide6  # noqa: F401  (pyqtgraph picks its binding from whichever Qt is imported first)
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtWidgets import QWidget

from ndcg_gui.core.analysis.runs.run_diff import delta_histogram
from ndcg_gui.core.ndcg.mean import histogram
from ndcg_gui.qt.models.colours import current
from ndcg_gui.qt.widgets.plot.lazy_plot import LazyPlot
from ndcg_gui.qt.widgets.plot.plot_parts import PlainAxis, fit_title, no_tab_stop, paint_plot
from ndcg_gui.qt.widgets.scheme import FollowsScheme


class _Plot(FollowsScheme, pg.PlotWidget):
    """The drawing: bars, the mean as a dashed line, the zero line of differences; the bar picked
    in another colour and outlined thick."""

    def __init__(self, parent: QWidget) -> None:
        # Plain axes: pyqtgraph's SI prefix wrote differences of -0.2..0.4 as "(x0.001)" -200..400.
        super().__init__(parent, axisItems={"bottom": PlainAxis("bottom"), "left": PlainAxis("left")})
        no_tab_stop(self)
        plot = self.getPlotItem()
        plot.setMouseEnabled(x=False, y=False)  # a click picks a bar; nothing pans or zooms
        plot.hideButtons()
        plot.setMenuEnabled(False)
        plot.showGrid(y=True, alpha=0.2)
        plot.setLabel("left", "queries")
        self.bars = pg.BarGraphItem(x0=[], x1=[], height=[])
        self.mean = pg.InfiniteLine(angle=90)
        self.mean.setVisible(False)
        self.zero = pg.InfiniteLine(pos=0, angle=90)
        self.zero.setVisible(False)
        for item in (self.bars, self.mean, self.zero):
            plot.addItem(item)
        self.bottom_label, self._fitting = "", False
        self.picked = -1
        plot.getAxis("bottom").geometryChanged.connect(self._fit_label)  # (the width to fit)
        self.follow_scheme()

    def restyle(self) -> None:
        c = current()
        paint_plot(self, (self.getPlotItem(),), c)
        self.mean.setPen(pg.mkPen(c.mean, width=2, style=Qt.PenStyle.DashLine))
        self.zero.setPen(pg.mkPen(c.plot_text, width=1))
        self.draw_bars()

    def draw_bars(self, **opts) -> None:
        """The bars (`opts`: BarGraphItem's x0, x1, height), bar `picked` told apart."""
        c = current()
        height = opts.get("height", self.bars.opts.get("height"))
        picked = [i == self.picked for i in range(0 if height is None else len(height))]
        if not picked:  # (pyqtgraph 0.14 fails on an empty list of pens)
            self.bars.setOpts(pens=None, brushes=None, pen=pg.mkPen(c.outline), brush=c.brush("bar"), **opts)
            return
        self.bars.setOpts(brushes=[c.brush("picked" if p else "bar") for p in picked],
                          pens=[pg.mkPen(c.plot_text if p else c.outline, width=2.5 if p else 1)
                                for p in picked], **opts)

    def set_bottom_label(self, text: str) -> None:
        """The x axis's title, cut at its end with "…" where it is wider than the axis (a pyqtgraph
        label is centred and drawn past both ends: "DCG@10: run_b − run_a · dash" in a narrow dock)."""
        self.bottom_label = text
        self._fit_label()

    def shown_bottom_label(self) -> str:
        """The title as drawn (plain text, "…" where cut)."""
        return self.getPlotItem().getAxis("bottom").labelText

    def _fit_label(self) -> None:
        plot = self.getPlotItem()
        room = plot.getAxis("bottom").size().width()
        if room > 0 and not self._fitting:  # (setting the title lays the axis out again)
            self._fitting = True
            try:
                fit_title(plot, "bottom", [self.bottom_label], room)
            finally:
                self._fitting = False


class NdcgHistogram(LazyPlot):
    """Counts of queries per NDCG (or Δ NDCG) bin, with the mean as a dashed line."""

    binClicked = Signal(int)  # the bin under a left click, or -1 outside the bars / on an empty bin

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setMinimumHeight(96)  # (bars and their axis still read; a short screen needs the rest)
        self._edges = np.linspace(0, 1, 11)
        self._counts = np.zeros(10, dtype=np.int64)
        self._picked = -1
        self._deltas = False  # showing differences between runs
        self._label = ""
        self._mean_value: float | None = None
        self.set_values(np.array([]), None)

    def _make_plot(self) -> _Plot:
        plot = _Plot(self)
        plot.scene().sigMouseClicked.connect(self._on_click)
        plot.scene().sigMouseMoved.connect(self._on_hover)
        return plot

    # ---- feeding ---------------------------------------------------------------------------
    def set_values(self, values: np.ndarray, k: int | None, mean: float | None = None) -> None:
        """Show the NDCG@k of these queries; `mean` draws the mean line (hidden when None/NaN)."""
        self.set_bins(*histogram(np.asarray(values, dtype=float)), k, mean)

    def set_bins(self, edges: np.ndarray, counts: np.ndarray, k: int | None,
                 mean: float | None = None) -> None:
        """`set_values` of values binned already (`core.ndcg.mean.histogram`)."""
        at = f"@{k}" if k is not None else ""
        self._show(edges, counts, f"NDCG{at} per query", mean, deltas=False)

    def set_deltas(self, values: np.ndarray, label: str, mean: float | None = None) -> None:
        """Show per-query differences between two runs (bins centred on 0), titled `label`."""
        self._show(*delta_histogram(np.asarray(values, dtype=float)), label, mean, deltas=True)

    def _show(self, edges: np.ndarray, counts: np.ndarray, label: str, mean: float | None,
              deltas: bool) -> None:
        mean = None if mean is None or np.isnan(mean) else float(mean)
        if (self._picked, self._deltas, self._label, self._mean_value) == (-1, deltas, label, mean) \
                and np.array_equal(edges, self._edges) and np.array_equal(counts, self._counts):
            # The same bars (a definition change shows the old scores, greyed, until new ones
            # land): drawing them again would regenerate the axes' pictures for nothing.
            return
        self._edges, self._counts, self._deltas = edges, counts, deltas
        self._picked = -1
        self._label = label
        self._mean_value = mean
        self._draw()

    def set_picked(self, index: int) -> None:
        """Highlight one bin (-1: none)."""
        self._picked = index
        if self._plot is not None:
            self._draw_bars()

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
        if self._plot is None:
            return -1
        vb = self._plot.getPlotItem().getViewBox()
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
            self._plot.setToolTip("Click a bar to list its queries")
            return
        self._plot.setToolTip(f"{self.bin_text(index)}: {self._counts[index]} queries (click to list them)")

    # ---- drawing ---------------------------------------------------------------------------
    def _draw(self) -> None:
        plot = self._plot
        if plot is None:
            return  # drawn when the plot is made
        self._draw_bars()
        plot.zero.setVisible(self._deltas)
        item = plot.getPlotItem()
        # (a dashed line alone did not say it was the mean)
        plot.set_bottom_label(self._label + (" · dashed: mean" if self._mean_value is not None else ""))
        plot.mean.setVisible(self._mean_value is not None)
        if self._mean_value is not None:
            plot.mean.setValue(self._mean_value)
        item.setXRange(self._edges[0], self._edges[-1], padding=0.02)
        item.setYRange(0, max(1, int(self._counts.max(initial=0))), padding=0.05)

    def _draw_bars(self) -> None:
        self._plot.picked = self._picked
        self._plot.draw_bars(x0=self._edges[:-1], x1=self._edges[1:], height=self._counts)
