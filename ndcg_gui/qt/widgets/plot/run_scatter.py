"""NDCG@k of the baseline run (x) against another run (y), one point per query compared: above the
diagonal the other run wins (▲, green), below it loses (▼, red), on it ties (●, grey). A click on a
point opens that query; the open query is ringed. The pyqtgraph plot is made when the scatter is
first shown (`LazyPlot`: the comparison pane is hidden until runs are compared); until then it
answers from what it was given."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import PySide6  # noqa: F401  (pyqtgraph picks its binding from whichever Qt is imported first)
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtWidgets import QWidget

from ndcg_gui.qt.models.colours import current
from ndcg_gui.qt.widgets.plot.lazy_plot import LazyPlot
from ndcg_gui.qt.widgets.plot.plot_parts import PlainAxis, fit_title, no_tab_stop, paint_plot
from ndcg_gui.qt.widgets.scheme import FollowsScheme

# Wins, losses and ties: a colour each and a shape each (a triangle up, one down, a dot).
GROUPS = (("win", "t1", 170), ("lose", "t", 170), ("tie", "o", 150))


def point_size(points: int) -> int:
    """Points' diameter in pixels: smaller as they grow many (2,000 points of 9 px made a solid
    block where a plot a few hundred pixels wide should show a cloud)."""
    return 9 if points <= 300 else 7 if points <= 1000 else 5


class TitledAxis(PlainAxis):
    """An axis whose title lies wholly within it. pyqtgraph reserves 0.8 of the title's height
    (AxisItem._updateHeight: "bounding rect is usually an overestimate") and draws it 5 px past
    the axis's outer edge (resizeEvent's nudge), so at 1366x768 the plot widget's edge cut the
    x axis's title through its letters. Here the whole height is reserved and the title placed
    inside."""

    def _title_room(self) -> float:
        """What the whole title takes beyond what pyqtgraph reserved for it."""
        shown = self.isVisible() and self.label is not None and self.label.isVisible()
        return 0.2 * self.label.boundingRect().height() if shown else 0.0

    def _updateHeight(self) -> None:
        super()._updateHeight()
        if self.fixedHeight is None and (extra := self._title_room()):
            self.setMaximumHeight(self.maximumHeight() + extra)
            self.setMinimumHeight(self.maximumHeight())

    def _updateWidth(self) -> None:
        super()._updateWidth()
        if self.fixedWidth is None and (extra := self._title_room()):
            self.setMaximumWidth(self.maximumWidth() + extra)
            self.setMinimumWidth(self.maximumWidth())

    def resizeEvent(self, ev=None) -> None:
        super().resizeEvent(ev)
        if self.label is None:  # (pyqtgraph clears it when the axis is closed)
            return
        at = self.label.pos()
        if self.orientation == "bottom":
            at.setY(self.size().height() - self.label.boundingRect().height())
        elif self.orientation == "left":
            at.setX(0)
        self.label.setPos(at)


class _Plot(FollowsScheme, pg.PlotWidget):
    """The drawing: the diagonal, the points, the ring round the open query's."""

    def __init__(self, parent: QWidget, tip) -> None:
        super().__init__(parent, axisItems={"bottom": TitledAxis("bottom"), "left": TitledAxis("left")})
        no_tab_stop(self)
        plot = self.getPlotItem()
        plot.setMouseEnabled(x=False, y=False)  # a click picks a query; nothing pans or zooms
        plot.hideButtons()
        plot.setMenuEnabled(False)
        plot.showGrid(x=True, y=True, alpha=0.15)
        # Not locked square: a pane wider than tall then stretched the x axis to -0.5..1.5 while
        # NDCG lies in [0, 1]; both axes show the same range instead (the diagonal is still y = x).
        self.diagonal = pg.InfiniteLine(pos=(0, 0), angle=45)
        plot.addItem(self.diagonal)
        # One item per kind (wins, losses, ties), each with one brush: setting every point with
        # a brush each cost every edit, and an edit usually moves points of one kind only.
        self.groups = [pg.ScatterPlotItem(size=9, symbol=symbol, hoverable=True, tip=tip)
                       for _name, symbol, _alpha in GROUPS]
        for item in self.groups:
            plot.addItem(item)
        self.ring = pg.ScatterPlotItem(size=17, brush=pg.mkBrush(None))
        plot.addItem(self.ring)
        self.follow_scheme()

    def restyle(self) -> None:
        c = current()
        paint_plot(self, (self.getPlotItem(),), c)
        self.diagonal.setPen(pg.mkPen(c.plot_text, width=1, style=Qt.PenStyle.DashLine))
        for item, (name, _symbol, alpha) in zip(self.groups, GROUPS, strict=True):
            item.setPen(pg.mkPen(c.qcolor("outline", 200)))
            item.setBrush(pg.mkBrush(c.qcolor(name, alpha)))
        self.ring.setPen(pg.mkPen(c.picked, width=3))


class RunScatter(LazyPlot):
    queryClicked = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setMinimumSize(200, 200)
        self._queries: list[str] = []
        self._x = self._y = np.array([], dtype=float)
        self._names = ("", "")
        self._k: int | None = None
        self._current: str | None = None

    def _make_plot(self) -> _Plot:
        plot = _Plot(self, self._tip)
        for item in plot.groups:
            item.sigClicked.connect(self._on_click)
        plot.getPlotItem().vb.sigResized.connect(self._fit_labels)
        self._drawn: list[tuple[np.ndarray, np.ndarray, np.ndarray] | None] = [None] * len(plot.groups)
        return plot

    # ---- feeding ---------------------------------------------------------------------------
    def set_points(self, queries: list[str], x: np.ndarray, y: np.ndarray, names: tuple[str, str],
                   k: int | None, current: str | None) -> None:
        """One point per query at (baseline NDCG, other NDCG); `names` = (baseline, other)."""
        self._queries = [str(q) for q in queries]
        self._x, self._y = np.asarray(x, float), np.asarray(y, float)
        self._names, self._k, self._current = names, k, current
        self._draw()

    def set_current(self, query: str | None) -> None:
        """Ring the open query's point (none when it is not compared)."""
        self._current = query
        if self._plot is not None:
            self._draw_ring()

    # ---- reading (tests, keyboard users) --------------------------------------------------------
    @property
    def queries(self) -> list[str]:
        return list(self._queries)

    def point(self, query: str) -> QPointF:
        """Where a query's point is drawn, in plot coordinates (before the plot is made: where it
        will be drawn)."""
        if self._plot is None:
            i = self._queries.index(query)
            return QPointF(self._x[i], self._y[i])
        x, y, queries, _ = self.drawn()
        i = queries.tolist().index(query)
        return QPointF(x[i], y[i])

    def drawn(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(x, y, query, kind) of every point the plot draws, read from its items; kind 0 is a
        win (green ▲), 1 a loss (red ▼), 2 a tie (grey ●)."""
        parts = [(*item.getData(), item.data["data"], np.full(len(item.data), i))
                 for i, item in enumerate(self._plot.groups)]
        return tuple(np.concatenate([np.asarray(p[i]) for p in parts]) for i in range(4))

    @property
    def ringed(self) -> tuple[float, float] | None:
        if self._plot is None:  # where the ring will be drawn
            i = self._ring_at()
            return (float(self._x[i]), float(self._y[i])) if i >= 0 else None
        x, y = self._plot.ring.getData()
        return (float(x[0]), float(y[0])) if x is not None and len(x) else None

    # ---- drawing ---------------------------------------------------------------------------
    def _draw(self) -> None:
        if self._plot is None:
            return  # drawn when the plot is made
        d = self._y - self._x
        size = point_size(len(d))
        for item in self._plot.groups:
            if item.opts["size"] != size:
                item.setSize(size)
        kind = np.where(d > 1e-9, 0, np.where(d < -1e-9, 1, 2))
        queries = np.array(self._queries, dtype=object)
        for i, item in enumerate(self._plot.groups):
            mine = kind == i
            points = (self._x[mine], self._y[mine], queries[mine])
            held = self._drawn[i]
            if held is None or not all(np.array_equal(a, b) for a, b in zip(held, points, strict=True)):
                item.setData(x=points[0], y=points[1], data=points[2])
                self._drawn[i] = points
        plot = self._plot.getPlotItem()
        self._fit_labels()
        values = np.concatenate([self._x, self._y, [0.0, 1.0]])
        lo, hi = float(np.nanmin(values)), float(np.nanmax(values))
        plot.setXRange(lo, hi, padding=0.04)
        plot.setYRange(lo, hi, padding=0.04)
        self._draw_ring()

    def labels(self) -> list[str]:
        """What the axes say, the longest that fits their length first."""
        a, b = self._names
        at = f"@{self._k}" if self._k is not None else ""
        return [[f"NDCG{at} of {a} (baseline)", f"{a} (baseline)", a], [f"NDCG{at} of {b}", b]]

    def _fit_labels(self) -> None:
        """Each axis's label whole along its axis: a shorter form in a small plot (at 1280x800 the
        long one was cut at both ends), the run's name cut at its end as a last resort."""
        if self._plot is None:
            return
        plot = self._plot.getPlotItem()
        for side, texts in zip(("bottom", "left"), self.labels(), strict=True):
            fit_title(plot, side, texts, plot.vb.width() if side == "bottom" else plot.vb.height())

    def _ring_at(self) -> int:
        return self._queries.index(self._current) if self._current in self._queries else -1

    def _draw_ring(self) -> None:
        i = self._ring_at()
        if i >= 0:
            self._plot.ring.setData(x=[self._x[i]], y=[self._y[i]])
        else:
            self._plot.ring.setData(x=[], y=[])

    # ---- mouse -----------------------------------------------------------------------------
    def _on_click(self, _item, points, _event=None) -> None:
        if len(points):
            # Several queries can share a point (both runs 0): the first drawn is opened.
            self.queryClicked.emit(str(points[0].data()))

    def _tip(self, x: float, y: float, data) -> str:
        a, b = self._names
        return f"query {data}: {a} {x:.4f}, {b} {y:.4f} (Δ {y - x:+.4f}); click to open"
