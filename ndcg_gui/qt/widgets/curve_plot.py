"""DCG and IDCG (left axis) and NDCG (0–1, right axis) against rank, with a line at k and a
hover readout. Draws the document's per-rank table; computes nothing."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document

DCG_PEN = pg.mkPen("#1f6fb5", width=2)
IDCG_PEN = pg.mkPen("#6b7280", width=2, style=Qt.DashLine)
NDCG_PEN = pg.mkPen("#d9480f", width=2.5)
K_PEN = pg.mkPen("#2f9e44", width=1.5, style=Qt.DashDotLine)
SYMBOLS_UP_TO = 60  # dots on the curves while a person can still tell the ranks apart


class RankAxis(pg.AxisItem):
    """Ticks at whole ranks only (no rank 1.5 on a short list)."""

    def tickSpacing(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, float]]:
        levels = [(s, o) for s, o in super().tickSpacing(minVal, maxVal, size) if s >= 1]
        return levels or [(1.0, 0.0)]


class CurvePlot(QWidget):
    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._doc = document
        self._table = document.metrics
        self._ranges: tuple[float, ...] = ()
        self.plot = pg.PlotWidget(background="w", axisItems={"bottom": RankAxis("bottom")})
        item = self.plot.getPlotItem()
        # No grid: its translucent lines cost more to paint than the three curves (10 ms a frame at
        # 1280 x 800); the hover readout gives exact values instead.
        # Long lists: about one point per pixel (peak downsampling keeps the shape). Set on the
        # plot item, which applies its own settings to the curves added to it.
        item.setDownsampling(auto=True, mode="peak")
        item.setClipToView(True)
        item.setLabel("bottom", "rank")
        item.setLabel("left", "DCG, IDCG")
        item.setLabel("right", "NDCG")
        item.setMenuEnabled(False)
        item.hideButtons()
        self.legend = item.addLegend(offset=(-10, -10), labelTextColor="#333", brush=(255, 255, 255, 220))

        fast = {"autoDownsample": True, "downsampleMethod": "peak", "clipToView": True,
                "autoDownsampleFactor": 1.0, "skipFiniteCheck": True}
        self.dcg = item.plot(name="DCG", pen=DCG_PEN, **fast)
        self.idcg = item.plot(name="IDCG", pen=IDCG_PEN, **fast)
        # NDCG on its own 0–1 axis: a second view box sharing the x axis (pyqtgraph's way).
        self.ndcg_view = pg.ViewBox()
        self.ndcg_view.setMouseEnabled(x=False, y=False)
        item.scene().addItem(self.ndcg_view)
        item.getAxis("right").linkToView(self.ndcg_view)
        self.ndcg_view.setXLink(item)
        self.ndcg = pg.PlotDataItem(name="NDCG", pen=NDCG_PEN, **fast)
        self.ndcg_view.addItem(self.ndcg)
        self.legend.addItem(self.ndcg, "NDCG")
        item.vb.sigResized.connect(self._sync_views)

        self.k_line = pg.InfiniteLine(angle=90, pen=K_PEN, movable=False,
                                      label="k = {value:.0f}", labelOpts={"position": 0.95,
                                                                         "color": "#2f9e44"})
        item.addItem(self.k_line, ignoreBounds=True)
        self.cursor = pg.InfiniteLine(angle=90, pen=pg.mkPen("#999", width=1))
        self.cursor.setVisible(False)
        item.addItem(self.cursor, ignoreBounds=True)
        self._hover = pg.SignalProxy(self.plot.scene().sigMouseMoved, rateLimit=60, slot=self._mouse_moved)

        self.readout = QLabel(" ")
        self.readout.setObjectName("plotReadout")
        self.readout.setTextFormat(Qt.RichText)
        self.toggles = {}
        bar = QHBoxLayout()
        bar.setContentsMargins(4, 0, 4, 0)
        for name, curve in (("DCG", self.dcg), ("IDCG", self.idcg), ("NDCG", self.ndcg)):
            box = QCheckBox(name)
            box.setChecked(True)
            box.toggled.connect(curve.setVisible)
            box.toggled.connect(lambda _on: self._refresh_legend())
            box.toggled.connect(lambda _on: self._fit_ranges())
            bar.addWidget(box)
            self.toggles[name] = box
        bar.addSpacing(12)
        bar.addWidget(self.readout, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(bar)
        layout.addWidget(self.plot, 1)

        document.changed.connect(self._follow)
        self.refresh()

    def _follow(self, changes: Changes) -> None:
        if self._doc.metrics is self._table and not changes.definition:
            return
        if changes.dataset or changes.query:  # the readout would describe a list no longer shown
            self.clear_readout()
        self.refresh()

    def _refresh_legend(self) -> None:
        """The legend lists the curves shown (a hidden one would stay there as a blank mark)."""
        self.legend.clear()
        for name, curve in (("DCG", self.dcg), ("IDCG", self.idcg), ("NDCG", self.ndcg)):
            if self.toggles[name].isChecked():
                self.legend.addItem(curve, name)

    def _sync_views(self) -> None:
        vb = self.plot.getPlotItem().vb
        self.ndcg_view.setGeometry(vb.sceneBoundingRect())
        self.ndcg_view.linkedViewChanged(vb, self.ndcg_view.XAxis)

    def refresh(self) -> None:
        table = self._table = self._doc.metrics
        n = len(table)
        rank = table["rank"].to_numpy(dtype=float)
        symbols = {"symbol": "o", "symbolSize": 6} if n <= SYMBOLS_UP_TO else {"symbol": None}
        self.dcg.setData(rank, table["dcg"].to_numpy(), symbolBrush="#1f6fb5", symbolPen=None, **symbols)
        self.idcg.setData(rank, table["idcg"].to_numpy(), symbolBrush="#6b7280", symbolPen=None,
                          **symbols)
        self.ndcg.setData(rank, table["ndcg"].to_numpy(), symbolBrush="#d9480f", symbolPen=None,
                          **symbols)
        self.k_line.setValue(self._doc.k)
        self._fit_ranges()
        if self.cursor.isVisible():  # an edit under the readout: show the rank's new figures
            rank = int(self.cursor.value())
            self.show_rank(rank) if 1 <= rank <= n else self.clear_readout()

    def clear_readout(self) -> None:
        self.cursor.setVisible(False)
        self.readout.setText(" ")

    def _fit_ranges(self) -> None:
        table = self._table
        n = len(table)
        top = 0.0
        for name, box in (("dcg", self.toggles["DCG"]), ("idcg", self.toggles["IDCG"])):
            if box.isChecked() and n:
                top = max(top, float(np.nanmax(table[name].to_numpy())))
        ndcg = table["ndcg"].to_numpy()
        low = min(0.0, float(ndcg.min())) if n else 0.0
        high = max(1.0, float(ndcg.max())) if n else 1.0
        # Over the list's ranks: with k beyond the end, the figures @k are those at the last rank
        # (the headline says so) and the k line would only push the curves into a corner.
        self.k_line.setVisible(self._doc.k <= n)
        ranges = (max(n, 1) + 0.5, top * 1.05 if top > 0 else 1, low, high * 1.05)
        if ranges == self._ranges:
            return  # a reorder keeps the ranges: leave the axes as drawn
        self._ranges = ranges
        item = self.plot.getPlotItem()
        item.setXRange(0.5, ranges[0], padding=0.02)
        item.setYRange(0, ranges[1], padding=0)
        self.ndcg_view.setYRange(ranges[2], ranges[3], padding=0)
        self._sync_views()

    def _mouse_moved(self, event) -> None:
        pos: QPointF = event[0]
        vb = self.plot.getPlotItem().vb
        n = len(self._table)
        if not n or not vb.sceneBoundingRect().contains(pos):
            self.clear_readout()
            return
        rank = round(vb.mapSceneToView(pos).x())
        self.show_rank(min(max(rank, 1), n))

    def show_rank(self, rank: int) -> None:
        """Put the crosshair on `rank` and show its figures."""
        row = self._table.iloc[rank - 1]
        self.cursor.setValue(rank)
        self.cursor.setVisible(True)
        self.readout.setText(
            f"<b>rank {rank}</b> &nbsp; {row['doc']} &nbsp; "
            f"<span style='color:#1f6fb5'>DCG {row['dcg']:.4f}</span> &nbsp; "
            f"<span style='color:#6b7280'>IDCG {row['idcg']:.4f}</span> &nbsp; "
            f"<span style='color:#d9480f'>NDCG {row['ndcg']:.4f}</span>"
        )
