"""The drawing of the curve plot: two panels on one rank axis, DCG and IDCG above (with the loss
bars), NDCG below on its own 0–1 scale (with the list as loaded, the unjudged band and ticks at the
relevant ranks), the k line labelled in the axis above, a hover cursor, and the figure layout
(title and legend rows) for exports. Draws a `ListReport` it is given; knows no document.

Colours follow the window's scheme (`restyle`); an exported figure is drawn in the light set on
white. Each curve has a second cue beside its colour: DCG solid, IDCG dashed (squares where
dotted), NDCG in a panel of its own, the list as loaded thin and dashed; the ticks at relevant
ranks are taller for higher grades.

Ranges: the rank axis zooms and pans (wheel, drag) within the list; the upper panel's height
follows the ranks in view; the NDCG panel keeps 0–1 (wider only when negative grades take NDCG
outside). No axis uses SI prefixes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QPen

from ndcg_gui.core.analysis.list_report import ListReport
from ndcg_gui.core.lists.numbers import format_grade
from ndcg_gui.qt.models.colours import Colours, current
from ndcg_gui.qt.widgets.plot.figure_rows import FigureRows
from ndcg_gui.qt.widgets.plot.plot_parts import (
    GRADE_LEVELS,
    KAxis,
    PlainAxis,
    RankAxis,
    distinct,
    grade_colours,
    no_tab_stop,
    paint_plot,
)
from ndcg_gui.qt.widgets.scheme import FollowsScheme

if TYPE_CHECKING:
    import pandas as pd

SYMBOLS = {"dcg": "o", "idcg": "s", "ndcg": "o", "baseline": "o"}  # the dots of each curve


def curve_pen(colours: Colours, name: str) -> QPen:
    """How curve `name` (dcg, idcg, ndcg, baseline: the list as loaded) is drawn."""
    if name == "dcg":
        return pg.mkPen(colours.dcg, width=2)
    if name == "idcg":
        return pg.mkPen(colours.idcg, width=2, style=Qt.DashLine)
    if name == "ndcg":
        return pg.mkPen(colours.ndcg, width=2.5)
    return pg.mkPen(colours.qcolor("ndcg", 110), width=1.5, style=Qt.DashLine)


def band_pen(colours: Colours) -> QPen:
    return pg.mkPen(colours.qcolor("ndcg", 90), width=1)


def band_brush(colours: Colours, stale: bool = False) -> QBrush:
    """The unjudged band's fill; fainter while it is of the list before an edit."""
    return pg.mkBrush(colours.qcolor("ndcg", 22 if stale else 60 if not colours.dark else 70))


def loss_brush(colours: Colours) -> QBrush:
    return pg.mkBrush(colours.qcolor("loss", 110))


DOTS_UP_TO = 60  # dots on the curves while the view shows few enough ranks to tell them apart
FIRST_VIEW = 20  # the view opens on the first max(2k, FIRST_VIEW) ranks
MARK_STRIP = 0.12  # the strip under the lowest NDCG where relevant ranks are marked (share of range)
LEFT_AXIS_WIDTH = 52  # both panels' left axes: the same width keeps their ranks aligned
FAST = {"autoDownsample": True, "downsampleMethod": "peak", "clipToView": True,
        "autoDownsampleFactor": 1.0, "skipFiniteCheck": True}

Shown = Callable[[str], bool]  # whether the toggle of that name is on


def _same_bytes(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two float arrays hold the same values bit for bit: a memory comparison, where
    `array_equal(equal_nan=True)` makes several temporary arrays. A NaN or a zero of another bit
    pattern only reads as a change (one `setData` more), never as no change."""
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


class CurvePanels(FollowsScheme, FigureRows, pg.GraphicsLayoutWidget):
    def __init__(self, shown: Shown) -> None:
        super().__init__()
        self._shown = shown
        self.n, self.k = 0, 1
        self.columns: dict[str, np.ndarray] = {"dcg": np.zeros(0), "idcg": np.zeros(0), "ndcg": np.zeros(0)}
        self.docs = np.zeros(0, dtype=object)
        self.losses = np.zeros(0)
        self.marks: list[tuple[str, str, np.ndarray]] = []  # (label, colour, ranks) per grade level
        self._baseline_of: tuple[object, object, object] | None = None
        self._mark_strip = (-0.1, 0.0)
        self._dotted: bool | None = None
        self._opening: tuple[float, float] | None = None  # the ranks reset_view framed last
        self._colours = current()
        self._band_stale = False
        self._marked_grades: np.ndarray | None = None  # the grades the marks were made from

        no_tab_stop(self)
        layout = self.ci
        layout.setContentsMargins(2, 2, 12, 2)
        layout.setSpacing(6)
        # enableMenu=False: no context menus (set off below as before), and their views make no
        # ViewBoxMenu (its axis forms, ~2 % of the instructions to the first paint) only to drop it.
        self.top = pg.PlotItem(axisItems={"left": PlainAxis("left"), "bottom": RankAxis("bottom"),
                                          "top": KAxis()}, enableMenu=False)
        self.bottom = pg.PlotItem(axisItems={"left": PlainAxis("left"), "bottom": RankAxis("bottom")},
                                  enableMenu=False)
        self.top.showAxis("top")
        layout.addItem(self.top, row=3, col=0)  # rows 0–2: the figure's title and legends
        layout.addItem(self.bottom, row=4, col=0)
        layout.layout.setRowStretchFactor(3, 11)
        layout.layout.setRowStretchFactor(4, 9)
        for panel, label in ((self.top, "DCG, IDCG"), (self.bottom, "NDCG")):
            panel.setMenuEnabled(False)
            panel.hideButtons()
            panel.setLabel("left", label)
            panel.getAxis("left").setWidth(LEFT_AXIS_WIDTH)
            panel.vb.setMouseEnabled(x=True, y=False)  # the rank axis zooms; each panel sets its height
            # Long lists: about one point per pixel (peak downsampling keeps the shape).
            panel.setDownsampling(auto=True, mode="peak")
            panel.setClipToView(True)
        self.top.getAxis("bottom").setStyle(showValues=False)
        self.top.getAxis("bottom").setHeight(6)
        self.bottom.setLabel("bottom", "rank")
        self.bottom.setXLink(self.top)

        # Upper panel: the loss bars behind DCG and IDCG.
        self.loss = pg.BarGraphItem(x=[], height=[], width=0.6, pen=pg.mkPen(None))
        self.loss.setZValue(-5)
        self.loss.setVisible(False)
        self.top.addItem(self.loss)
        self.dcg = self.top.plot(**FAST)
        self.idcg = self.top.plot(**FAST)
        # Lower panel: the band behind the list as loaded and NDCG; the marks under them.
        self.band_low = pg.PlotCurveItem(skipFiniteCheck=True)
        self.band_high = pg.PlotCurveItem(skipFiniteCheck=True)
        self.band = pg.FillBetweenItem(self.band_low, self.band_high)
        for part in (self.band_low, self.band_high, self.band):
            part.setZValue(-10)
            part.setVisible(False)
            self.bottom.addItem(part)
        self.baseline = self.bottom.plot(**FAST)
        self.baseline.setVisible(False)
        self.ndcg = self.bottom.plot(**FAST)
        self.mark_items = [pg.PlotCurveItem(connect="pairs", skipFiniteCheck=True)
                           for _ in range(GRADE_LEVELS)]
        for item in self.mark_items:
            self.bottom.addItem(item)

        self.k_line = pg.InfiniteLine(angle=90, movable=False)
        self.cursor = pg.InfiniteLine(angle=90)
        self._k_line_low = pg.InfiniteLine(angle=90, movable=False)
        self._cursor_low = pg.InfiniteLine(angle=90)
        for item, panel in ((self.k_line, self.top), (self._k_line_low, self.bottom),
                            (self.cursor, self.top), (self._cursor_low, self.bottom)):
            panel.addItem(item, ignoreBounds=True)
        self.set_cursor(None)

        self._make_figure_rows()

        self.top.vb.sigXRangeChanged.connect(self._x_range_changed)
        self.follow_scheme()

    # ---- colours ---------------------------------------------------------------------------------
    def restyle(self, colours: Colours | None = None) -> None:
        """Every pen and brush from `colours` (the window's, by default)."""
        c = self._colours = colours or current()
        paint_plot(self, (self.top, self.bottom), c)
        self.top.getAxis("top").restyle(c)
        for name in ("dcg", "idcg", "ndcg", "baseline"):
            getattr(self, name).setPen(curve_pen(c, name))
        for part in (self.band_low, self.band_high):
            part.setPen(band_pen(c))
        self.band.setBrush(band_brush(c, self._band_stale))
        self.loss.setOpts(brush=loss_brush(c))
        k_pen = pg.mkPen(c.k, width=1.5, style=Qt.DashDotLine)
        for line in (self.k_line, self._k_line_low):
            line.setPen(k_pen)
        for line in (self.cursor, self._cursor_low):
            line.setPen(pg.mkPen(c.cursor, width=1))
        self._collect_marks_again()
        self.restyle_figure_rows(band_pen(c), band_brush(c))
        self._update_dots(force=True)

    # ---- drawing a report ---------------------------------------------------------------------------
    def draw(self, report: ListReport) -> None:
        """Everything but the unjudged band (`show_band`), which costs too much for every edit."""
        table = report.columns  # plain arrays: a DataFrame costs more than the drawing
        self.n, self.k = len(table["rank"]), report.k
        rank = table["rank"].astype(float)
        before = self.columns
        # (No copy of a column that is float already: the report's arrays are not written to.)
        self.columns = {name: np.asarray(table[name], dtype=float) for name in ("dcg", "idcg", "ndcg")}
        self.docs = table["doc"]
        for curve, name in ((self.dcg, "dcg"), (self.idcg, "idcg"), (self.ndcg, "ndcg")):
            # A curve the edit left as it was keeps its points (IDCG after a move).
            if not _same_bytes(before[name], self.columns[name]):
                curve.setData(rank, self.columns[name])
            curve.setVisible(self._shown(name.upper()))
        self._draw_baseline(report)
        self._draw_loss(report)
        self._collect_marks(table)
        on_list = report.k <= self.n  # with k past the end the figures @k are those at the last rank
        for line in (self.k_line, self._k_line_low):
            line.setValue(report.k)
            line.setVisible(on_list)
        # The k axis keeps its height with k past the list's end: without it the DCG axis's top
        # number ("8") was cut at the plot's top edge.
        self.top.getAxis("top").set_k(report.k if on_list else None)
        end = max(self.n, 1) + 0.5
        for vb in (self.top.vb, self.bottom.vb):
            vb.setLimits(xMin=0.5, xMax=end, minXRange=min(2.0, end - 0.5))
        self._fit_top()
        self._fit_bottom()
        # Dots or none, by the ranks in view (a range change since has set them; the colours'
        # own, `restyle`): not set again on every curve at every edit.
        self._update_dots()

    def _draw_baseline(self, report: ListReport) -> None:
        """The NDCG of the list as loaded, while the list differs from it."""
        show = report.differs_from_loaded and self._shown("As loaded")
        if show and self._baseline_of != (report.baseline, report.measure):
            base = report.baseline_columns
            self.baseline.setData(base["rank"].astype(float), base["ndcg"].astype(float))
            self._baseline_of = (report.baseline, report.measure)
        self.baseline.setVisible(show)

    def _draw_loss(self, report: ListReport) -> None:
        """The loss at each of the first k ranks (computed only while shown)."""
        show = self._shown("Loss per rank") and self.n > 0
        self.losses = report.move_effects["loss"].to_numpy(dtype=float)[: report.k] if show else np.zeros(0)
        if show and not np.isfinite(self.losses).all():  # a condensed list that drops rows: no loss per row
            show, self.losses = False, np.zeros(0)
        if show:
            self.loss.setOpts(x=np.arange(1, len(self.losses) + 1, dtype=float), height=self.losses)
        self.loss.setVisible(show)

    def _collect_marks(self, table: pd.DataFrame) -> None:
        """The relevant ranks (grade > 0) grouped by grade level; drawn by `_draw_marks`."""
        self.marks = []
        if not self._shown("Relevant ranks"):
            return
        grades = np.where(table["judged"], table["grade"].astype(float), np.nan)
        self._marked_grades = grades
        self._group_marks(grades)

    def _collect_marks_again(self) -> None:
        """The marks' shades in the colours now in use."""
        if self._marked_grades is not None and self.marks:
            self._group_marks(self._marked_grades)
            self._draw_marks()

    def _group_marks(self, grades: np.ndarray) -> None:
        self.marks = []
        levels = grade_colours(grades, self._colours)
        if not levels:
            return
        relevant = np.flatnonzero(grades > 0)
        level = np.searchsorted(np.array([g for g, _ in levels]), grades[relevant], side="right") - 1
        exact = len(levels) == len(distinct(grades[relevant]))
        for i, (g, colour) in enumerate(levels):
            label = f"grade {format_grade(g)}" if exact else f"grade ≥ {format_grade(round(g, 2))}"
            self.marks.append((label, colour, relevant[level == i] + 1.0))

    # ---- the unjudged band ---------------------------------------------------------------------------
    def show_band(self, band: pd.DataFrame | None) -> None:
        """Draw `band` (rank, low, high), or hide the band (None)."""
        if band is not None:
            x = band["rank"].to_numpy(dtype=float)
            self.band_low.setData(x, band["low"].to_numpy(dtype=float))
            self.band_high.setData(x, band["high"].to_numpy(dtype=float))
            self._band_stale = False
            self.band.setBrush(band_brush(self._colours))
        for part in (self.band_low, self.band_high, self.band):
            part.setVisible(band is not None)
        self._fit_bottom()

    def fade_band(self) -> None:
        """The band drawn is of the list before an edit (right above the first rank it changed)."""
        self._band_stale = True
        self.band.setBrush(band_brush(self._colours, stale=True))

    # ---- ranges ------------------------------------------------------------------------------------------
    def visible_ranks(self) -> tuple[float, float]:
        x0, x1 = self.top.vb.viewRange()[0]
        return float(x0), float(x1)

    def show_ranks(self, last: int) -> None:
        self.top.setXRange(0.5, min(max(last, 1), max(self.n, 1)) + 0.5, padding=0)

    def reset_view(self) -> None:
        """The first max(2k, FIRST_VIEW) ranks."""
        self.show_ranks(max(2 * self.k, FIRST_VIEW))
        self._opening = self.visible_ranks()

    def at_opening(self) -> bool:
        """Whether the view still shows the ranks `reset_view` framed (nobody zoomed or panned)."""
        x0, x1 = self.visible_ranks()
        return self._opening is not None and abs(x0 - self._opening[0]) + abs(x1 - self._opening[1]) < 1e-6

    def zoom_to_k(self) -> None:
        """The first k ranks (at least two)."""
        self.show_ranks(max(self.k, 2))

    def show_all(self) -> None:
        self.show_ranks(self.n)

    def _x_range_changed(self) -> None:
        self._fit_top()
        self._update_dots()
        self._draw_marks()

    def _fit_top(self) -> None:
        """The upper panel's height: from 0 (or below) to the highest curve or bar in view."""
        x0, x1 = self.visible_ranks()
        first = min(max(int(np.ceil(x0)) - 1, 0), max(self.n - 1, 0))
        last = max(min(int(np.floor(x1)), self.n), first + 1)
        parts = [self.columns[name][first:last] for name in ("dcg", "idcg") if self._shown(name.upper())]
        low, high = 0.0, 0.0
        for part in [*parts, self.losses[first:last]]:
            if len(part):
                low, high = min(low, float(np.nanmin(part))), max(high, float(np.nanmax(part)))
        if high <= low:
            high = low + 1.0
        self.top.setYRange(low, high + 0.06 * (high - low), padding=0)

    def _fit_bottom(self) -> None:
        """The NDCG panel: 0 to 1 (wider only when NDCG goes outside), with a strip below it for
        the marks of relevant ranks."""
        parts = [self.columns["ndcg"]]
        if self.baseline.isVisible():
            parts.append(self.baseline.yData)
        if self.band.isVisible():
            parts += [self.band_low.yData, self.band_high.yData]
        low, high = 0.0, 1.0
        for part in parts:
            finite = part[np.isfinite(part)] if part is not None else ()  # (None: no data)
            if len(finite):
                low, high = min(low, float(finite.min())), max(high, float(finite.max()))
        span = high - low
        bottom = low - (MARK_STRIP if self._shown("Relevant ranks") else 0.02) * span
        self.bottom.setYRange(bottom, high + 0.04 * span, padding=0)
        self._mark_strip = (bottom, low - 0.015 * span)
        self._draw_marks()

    def _draw_marks(self) -> None:
        """Ticks at the relevant ranks in view (thousands off screen would still cost a paint), the
        higher the grade the taller (its shade the darker, or lighter in a dark window)."""
        (y0, y1), (x0, x1) = self._mark_strip, self.visible_ranks()
        levels = len(self.marks)
        for i, item in enumerate(self.mark_items):
            if i < levels:
                _label, colour, ranks = self.marks[i]
                ranks = ranks[np.searchsorted(ranks, x0 - 1):np.searchsorted(ranks, x1 + 1, side="right")]
                top = y0 + (y1 - y0) * (i + 1) / levels
                item.setData(np.repeat(ranks, 2), np.tile([y0, top], len(ranks)),
                             pen=pg.mkPen(colour, width=3))
            else:
                item.setData([], [])
            item.setVisible(i < len(self.marks))

    def _update_dots(self, force: bool = False) -> None:
        x0, x1 = self.visible_ranks()
        dotted = x1 - x0 <= DOTS_UP_TO + 1
        if dotted == self._dotted and not force:
            return
        self._dotted = dotted
        for name, symbol in SYMBOLS.items():
            curve = getattr(self, name)
            if dotted:
                curve.setSymbolPen(None)
                curve.setSymbolBrush(curve_pen(self._colours, name).color())
                curve.setSymbolSize(6)
                curve.setSymbol(symbol)
            else:
                curve.setSymbol(None)

    # ---- hover ---------------------------------------------------------------------------------------------
    def rank_at(self, pos: QPointF) -> int | None:
        """The rank under a scene position within either panel (None: outside them)."""
        for panel in (self.top, self.bottom):
            if self.n and panel.vb.sceneBoundingRect().contains(pos):
                return min(max(round(panel.vb.mapSceneToView(pos).x()), 1), self.n)
        return None

    def set_cursor(self, rank: int | None) -> None:
        for line in (self.cursor, self._cursor_low):
            if rank is not None:
                line.setValue(rank)
            line.setVisible(rank is not None)
