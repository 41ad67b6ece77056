"""NDCG@k of the baseline run (x) against another run (y), one point per query compared: above the
diagonal the other run wins, below it loses. A click on a point opens that query; the open query
is ringed."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import PySide6  # noqa: F401  (pyqtgraph picks its binding from whichever Qt is imported first)
from PySide6.QtCore import QPointF, Qt, Signal

_WIN, _LOSS, _TIE = pg.mkBrush(21, 128, 61, 170), pg.mkBrush(185, 28, 28, 170), pg.mkBrush(120, 120, 120, 150)
_RING = pg.mkPen(230, 140, 40, width=3)
_DIAGONAL = pg.mkPen(150, 150, 150, width=1, style=Qt.PenStyle.DashLine)


class RunScatter(pg.PlotWidget):
    queryClicked = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent, background="w")
        self.setMinimumSize(200, 200)
        plot = self.getPlotItem()
        plot.setMouseEnabled(x=False, y=False)  # a click picks a query; nothing pans or zooms
        plot.hideButtons()
        plot.setMenuEnabled(False)
        plot.showGrid(x=True, y=True, alpha=0.15)
        plot.setAspectLocked(True)
        self._diagonal = pg.InfiniteLine(pos=(0, 0), angle=45, pen=_DIAGONAL)
        plot.addItem(self._diagonal)
        self._points = pg.ScatterPlotItem(size=9, pen=pg.mkPen(255, 255, 255, 200), hoverable=True,
                                          tip=self._tip)
        self._points.sigClicked.connect(self._on_click)
        plot.addItem(self._points)
        self._ring = pg.ScatterPlotItem(size=17, pen=_RING, brush=pg.mkBrush(None))
        plot.addItem(self._ring)
        self._queries: list[str] = []
        self._x = self._y = np.array([], dtype=float)
        self._names = ("", "")
        self._current: str | None = None

    # ---- feeding ---------------------------------------------------------------------------
    def set_points(self, queries: list[str], x: np.ndarray, y: np.ndarray, names: tuple[str, str],
                   k: int | None, current: str | None) -> None:
        """One point per query at (baseline NDCG, other NDCG); `names` = (baseline, other)."""
        self._queries = [str(q) for q in queries]
        self._x, self._y = np.asarray(x, float), np.asarray(y, float)
        self._names = names
        d = self._y - self._x
        brushes = [_WIN if v > 1e-9 else _LOSS if v < -1e-9 else _TIE for v in d]
        self._points.setData(x=self._x, y=self._y, data=self._queries, brush=brushes)
        at = f"@{k}" if k is not None else ""
        plot = self.getPlotItem()
        plot.setLabel("bottom", f"NDCG{at} of {names[0]} (baseline)")
        plot.setLabel("left", f"NDCG{at} of {names[1]}")
        values = np.concatenate([self._x, self._y, [0.0, 1.0]])
        lo, hi = float(np.nanmin(values)), float(np.nanmax(values))
        plot.setXRange(lo, hi, padding=0.04)
        plot.setYRange(lo, hi, padding=0.04)
        self.set_current(current)

    def set_current(self, query: str | None) -> None:
        """Ring the open query's point (none when it is not compared)."""
        self._current = query
        if query in self._queries:
            i = self._queries.index(query)
            self._ring.setData(x=[self._x[i]], y=[self._y[i]])
        else:
            self._ring.setData(x=[], y=[])

    # ---- reading (tests, keyboard users) --------------------------------------------------------
    @property
    def queries(self) -> list[str]:
        return list(self._queries)

    def point(self, query: str) -> QPointF:
        """Where a query's point is, in plot coordinates."""
        i = self._queries.index(query)
        return QPointF(self._x[i], self._y[i])

    @property
    def ringed(self) -> tuple[float, float] | None:
        x, y = self._ring.getData()
        return (float(x[0]), float(y[0])) if x is not None and len(x) else None

    # ---- mouse -----------------------------------------------------------------------------
    def _on_click(self, _item, points, _event=None) -> None:
        if len(points):
            # Several queries can share a point (both runs 0): the first drawn is opened.
            self.queryClicked.emit(str(points[0].data()))

    def _tip(self, x: float, y: float, data) -> str:
        a, b = self._names
        return f"query {data}: {a} {x:.4f}, {b} {y:.4f} (Δ {y - x:+.4f}); click to open"
