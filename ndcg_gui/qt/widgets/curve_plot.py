"""The figures of the list on screen against rank, in two panels on one rank axis: DCG and IDCG
above, NDCG below on its own 0–1 scale (so it never shares a line with DCG), with the list as
loaded, the band over gradings of the unjudged documents, the loss per rank, marks at the relevant
ranks and a hover readout. Draws the document's `report`; computes nothing.

The view opens on the first max(2k, 20) ranks; "Zoom to k" and "Show all" change it, a wheel or a
drag zooms and pans the rank axis only (the upper panel's height follows the ranks in view, the
NDCG panel keeps its scale). The unjudged band costs tens of milliseconds, so it is drawn once
edits pause (BAND_DELAY_MS): until then the previous band of the same list shows, faded.
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, QSize, QSizeF, Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QLabel,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ndcg_gui.core.list_report import ListReport
from ndcg_gui.core.numbers import format_grade, format_metric
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.widgets.flow_layout import FlowLayout
from ndcg_gui.qt.widgets.plot_parts import (
    GRADE_LEVELS,
    K_COLOUR,
    MARK_SHADES,
    KAxis,
    PlainAxis,
    RankAxis,
    grade_colours,
    swatch,
    ticks_swatch,
)

DCG_COLOUR, IDCG_COLOUR, NDCG_COLOUR = "#1f6fb5", "#6b7280", "#d9480f"
DCG_PEN = pg.mkPen(DCG_COLOUR, width=2)
IDCG_PEN = pg.mkPen(IDCG_COLOUR, width=2, style=Qt.DashLine)
NDCG_PEN = pg.mkPen(NDCG_COLOUR, width=2.5)
BASELINE_PEN = pg.mkPen((217, 72, 15, 110), width=1.5, style=Qt.DashLine)
BAND_BRUSH, BAND_STALE_BRUSH = pg.mkBrush(217, 72, 15, 60), pg.mkBrush(217, 72, 15, 22)
BAND_PEN = pg.mkPen((217, 72, 15, 90), width=1)
LOSS_BRUSH = pg.mkBrush(201, 42, 42, 110)
K_PEN = pg.mkPen(K_COLOUR, width=1.5, style=Qt.DashDotLine)
CURSOR_PEN = pg.mkPen("#999", width=1)
SYMBOLS_UP_TO = 60  # dots on the curves while a person can still tell the ranks apart
FIRST_VIEW = 20  # the view opens on the first max(2k, FIRST_VIEW) ranks
BAND_DELAY_MS = 200  # the band is drawn once edits pause this long
MARK_STRIP = 0.12  # the strip under NDCG = its lowest value where relevant ranks are marked (share of range)
LEFT_AXIS_WIDTH = 52  # both panels' left axes: the same width keeps their ranks aligned
READOUT_ONE_LINE = 110  # characters: a pane narrower than this shows the readout on two lines
FAST = {"autoDownsample": True, "downsampleMethod": "peak", "clipToView": True,
        "autoDownsampleFactor": 1.0, "skipFiniteCheck": True}

LOSS_TIP = ("Loss per rank, over the first k ranks: the ideal ranking's gain × discount at this rank "
            "minus this row's (the bars add up to IDCG@k − DCG@k)")
BAND_TIP = ("Where documents are unjudged: the lowest and highest NDCG at each rank over every grading "
            "of them (the line counts them as 0)")


class CurvePlot(QWidget):
    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._doc = document
        self._report: ListReport | None = None
        self._band_report: ListReport | None = None
        self._baseline_of: tuple[object, object] | None = None
        self._columns: dict[str, np.ndarray] = {}
        self._loss = np.zeros(0)
        self._marks: list[tuple[float, str, np.ndarray]] = []
        self._ndcg_range = (0.0, 1.0)
        self._dotted: bool | None = None
        self._mark_strip = (-0.1, 0.0)
        self._legend_key: tuple = ()
        self._n, self._k = 0, 1

        self.plot = pg.GraphicsLayoutWidget()
        self.plot.setBackground("w")
        layout = self.plot.ci
        layout.setContentsMargins(2, 2, 12, 2)
        layout.setSpacing(6)
        self.top = pg.PlotItem(axisItems={"left": PlainAxis("left"), "bottom": RankAxis("bottom"),
                                          "top": KAxis()})
        self.bottom = pg.PlotItem(axisItems={"left": PlainAxis("left"), "bottom": RankAxis("bottom")})
        layout.addItem(self.top, row=3, col=0)
        layout.addItem(self.bottom, row=4, col=0)
        layout.layout.setRowStretchFactor(3, 11)
        layout.layout.setRowStretchFactor(4, 9)
        for item, label in ((self.top, "DCG, IDCG"), (self.bottom, "NDCG")):
            item.setMenuEnabled(False)
            item.hideButtons()
            item.setLabel("left", label)
            item.getAxis("left").setWidth(LEFT_AXIS_WIDTH)
            item.vb.setMouseEnabled(x=True, y=False)  # the rank axis zooms; each panel sets its height
            # Long lists: about one point per pixel (peak downsampling keeps the shape).
            item.setDownsampling(auto=True, mode="peak")
            item.setClipToView(True)
        self.top.showAxis("top")
        self.top.getAxis("bottom").setStyle(showValues=False)
        self.top.getAxis("bottom").setHeight(6)
        self.bottom.setLabel("bottom", "rank")
        self.bottom.setXLink(self.top)

        # Upper panel: DCG, IDCG, the loss bars behind them.
        self.loss = pg.BarGraphItem(x=[], height=[], width=0.6, brush=LOSS_BRUSH, pen=pg.mkPen(None))
        self.loss.setZValue(-5)
        self.top.addItem(self.loss)
        self.dcg = self.top.plot(pen=DCG_PEN, **FAST)
        self.idcg = self.top.plot(pen=IDCG_PEN, **FAST)
        # Lower panel: the band, the list as loaded, NDCG, the marks of relevant ranks.
        self.band_low = pg.PlotCurveItem(pen=BAND_PEN, skipFiniteCheck=True)
        self.band_high = pg.PlotCurveItem(pen=BAND_PEN, skipFiniteCheck=True)
        self.band = pg.FillBetweenItem(self.band_low, self.band_high, brush=BAND_BRUSH)
        for part in (self.band_low, self.band_high, self.band):
            part.setZValue(-10)
            self.bottom.addItem(part)
            part.setVisible(False)
        self.baseline = self.bottom.plot(pen=BASELINE_PEN, **FAST)
        self.baseline.setVisible(False)
        self.ndcg = self.bottom.plot(pen=NDCG_PEN, **FAST)
        self.mark_items = [pg.PlotCurveItem(connect="pairs", skipFiniteCheck=True) for _ in range(GRADE_LEVELS)]
        for item in self.mark_items:
            self.bottom.addItem(item)

        self.k_line = pg.InfiniteLine(angle=90, pen=K_PEN, movable=False)
        self._k_line_low = pg.InfiniteLine(angle=90, pen=K_PEN, movable=False)
        self.cursor = pg.InfiniteLine(angle=90, pen=CURSOR_PEN)
        self._cursor_low = pg.InfiniteLine(angle=90, pen=CURSOR_PEN)
        for item, panel in ((self.k_line, self.top), (self._k_line_low, self.bottom),
                            (self.cursor, self.top), (self._cursor_low, self.bottom)):
            panel.addItem(item, ignoreBounds=True)
        self.cursor.setVisible(False)
        self._cursor_low.setVisible(False)

        # The figure's title and legend: rows of the layout only while exporting (`figure`); on
        # screen the headline says what the list is and the bar's swatches are the legend.
        self.title = pg.LabelItem("", size="12pt", color="#222")
        self.legend = pg.LegendItem(labelTextColor="#333", frame=False, horSpacing=8)
        self.marks_legend = pg.LegendItem(labelTextColor="#333", frame=False, horSpacing=8)
        self._figure_rows = (self.title, self.legend, self.marks_legend)
        for item in self._figure_rows:
            item.setSizePolicy(QSizePolicy.Maximum, QSizePolicy.Fixed)
        self._band_sample = pg.PlotDataItem(pen=BAND_PEN, fillLevel=0, fillBrush=BAND_BRUSH)

        self.readout = QLabel(" ")
        self.readout.setObjectName("plotReadout")
        self.readout.setTextFormat(Qt.RichText)
        # A long readout wraps in a narrow pane rather than widening the window; its height is
        # set by width (`resizeEvent`), so hovering never makes the plot jump.
        self.readout.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Fixed)
        self.readout.setWordWrap(True)
        self.readout.setContentsMargins(4, 0, 4, 0)
        self.toggles: dict[str, QCheckBox] = {}
        toggles = FlowLayout(spacing=6)
        toggles.setContentsMargins(4, 2, 4, 0)
        self._toggle(toggles, "DCG", "DCG", True, swatch(DCG_PEN), "DCG curve")
        self._toggle(toggles, "IDCG", "IDCG", True, swatch(IDCG_PEN), "IDCG curve")
        self._toggle(toggles, "NDCG", "NDCG", True, swatch(NDCG_PEN), "NDCG curve")
        self._toggle(toggles, "As loaded", "As loaded", True, swatch(BASELINE_PEN), "NDCG as loaded",
                     "NDCG at each rank of the list as loaded (drawn once the list differs from it)")
        self._toggle(toggles, "Unjudged band", "Unjudged band", True, swatch(BAND_PEN, BAND_BRUSH.color()),
                     "Unjudged band", BAND_TIP)
        self._toggle(toggles, "Loss per rank", "Loss", False, swatch(None, LOSS_BRUSH.color()),
                     "Loss per rank", LOSS_TIP)
        self._toggle(toggles, "Relevant ranks", "Relevant", True, ticks_swatch(MARK_SHADES),
                     "Marks at relevant ranks",
                     "A tick under the NDCG curve at each rank whose grade is above 0 (darker: higher grade)")
        self.zoom_k = self._button(toggles, "Zoom to k", self.zoom_to_k, "Show the first k ranks")
        self.show_all_button = self._button(toggles, "Show all", self.show_all, "Show every rank of the list")
        layout_ = QVBoxLayout(self)
        layout_.setContentsMargins(0, 0, 0, 0)
        layout_.setSpacing(2)
        layout_.addLayout(toggles)
        layout_.addWidget(self.readout)
        layout_.addWidget(self.plot, 1)

        self._band_timer = QTimer(self)
        self._band_timer.setSingleShot(True)
        self._band_timer.setInterval(BAND_DELAY_MS)
        self._band_timer.timeout.connect(self._draw_band)
        self.top.vb.sigXRangeChanged.connect(self._x_range_changed)
        self._hover = pg.SignalProxy(self.plot.scene().sigMouseMoved, rateLimit=60, slot=self._mouse_moved)
        document.changed.connect(self._follow)
        self.refresh()
        self._reset_view()
        self._refresh_legend()

    # ---- the bar ----------------------------------------------------------------------------------
    def _toggle(self, bar: FlowLayout, name: str, text: str, on: bool, icon, menu_text: str,
                tip: str = "") -> None:
        box = QCheckBox(text)
        box.setIconSize(QSize(18, 10))
        box.setIcon(icon)
        box.setChecked(on)
        box.setProperty("menuText", menu_text)  # the View menu's action for it (window/actions.py)
        box.setToolTip(tip or f"Show the {menu_text}")
        box.toggled.connect(self._toggled)
        bar.addWidget(box)
        self.toggles[name] = box

    def _button(self, bar: FlowLayout, text: str, slot, tip: str) -> QToolButton:
        button = QToolButton()
        button.setText(text)
        button.setToolTip(tip)
        button.clicked.connect(slot)
        bar.addWidget(button)
        return button

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        lines = 1 if event.size().width() >= READOUT_ONE_LINE * self.fontMetrics().averageCharWidth() else 2
        self.readout.setFixedHeight(lines * self.fontMetrics().lineSpacing() + 2)
        super().resizeEvent(event)

    def _toggled(self, _on: bool) -> None:
        self.refresh()
        self._refresh_legend()

    def shown(self, name: str) -> bool:
        return self.toggles[name].isChecked()

    # ---- following the document -------------------------------------------------------------------
    def _follow(self, changes: Changes) -> None:
        if self._doc.report is self._report:
            return
        other = changes.dataset or changes.query
        k_before = self._k
        if other:  # the readout and the band would describe a list no longer shown
            self.clear_readout()
        if other or changes.definition:
            self._hide_band()
        self.refresh()
        if other or self._k != k_before:
            self._reset_view()

    def refresh(self) -> None:
        report = self._report = self._doc.report
        table = report.table
        n = self._n = len(table)
        self._k = report.k
        rank = table["rank"].to_numpy(dtype=float)
        self._columns = {name: table[name].to_numpy(dtype=float) for name in ("dcg", "idcg", "ndcg")}
        self._docs = table["doc"].to_numpy()
        for curve, name in ((self.dcg, "dcg"), (self.idcg, "idcg"), (self.ndcg, "ndcg")):
            curve.setData(rank, self._columns[name])
            curve.setVisible(self.shown(name.upper()))
        self._draw_baseline(report)
        self._draw_loss(report)
        self._collect_marks(table)
        self._schedule_band(report)
        for line in (self.k_line, self._k_line_low):
            line.setValue(report.k)
            # With k past the end the figures @k are those at the last rank (the headline says so).
            line.setVisible(report.k <= n)
        self.top.getAxis("top").set_k(report.k if report.k <= n else None)
        self._set_limits()
        self._fit_top()
        self._update_dots(force=True)
        self._fit_bottom()
        if self.cursor.isVisible():  # an edit under the readout: show the rank's new figures
            at = int(self.cursor.value())
            self.show_rank(at) if 1 <= at <= n else self.clear_readout()

    def _draw_baseline(self, report: ListReport) -> None:
        """The NDCG of the list as loaded, while the list differs from it."""
        differs = report.baseline is not report.list and report.baseline != report.list
        show = differs and self.shown("As loaded")
        if show and self._baseline_of != (report.baseline, report.config):
            base = report.baseline_table
            self.baseline.setData(base["rank"].to_numpy(dtype=float), base["ndcg"].to_numpy(dtype=float))
            self._baseline_of = (report.baseline, report.config)
        self.baseline.setVisible(show)

    def _draw_loss(self, report: ListReport) -> None:
        if not self.shown("Loss per rank") or not self._n:
            self._loss = np.zeros(0)
            self.loss.setVisible(False)
            return
        self._loss = report.move_effects["loss"].to_numpy(dtype=float)[: report.k]
        self.loss.setOpts(x=np.arange(1, len(self._loss) + 1, dtype=float), height=self._loss)
        self.loss.setVisible(True)

    def _collect_marks(self, table) -> None:
        """The relevant ranks (grade > 0) grouped by grade level; drawn by `_fit_bottom`."""
        self._marks = []
        if not self.shown("Relevant ranks"):
            return
        grades = np.where(table["judged"].to_numpy(dtype=bool), table["grade"].to_numpy(dtype=float), np.nan)
        levels = grade_colours(grades)
        if not levels:
            return
        starts = np.array([g for g, _ in levels])
        relevant = np.flatnonzero(grades > 0)
        level = np.searchsorted(starts, grades[relevant], side="right") - 1
        exact = len(levels) == len(np.unique(grades[relevant]))
        for i, (g, colour) in enumerate(levels):
            label = f"grade {format_grade(g)}" if exact else f"grade ≥ {format_grade(round(g, 2))}"
            self._marks.append((label, colour, relevant[level == i] + 1.0))

    # ---- the unjudged band -------------------------------------------------------------------------
    def _schedule_band(self, report: ListReport) -> None:
        if not (self.shown("Unjudged band") and report.has_unjudged):
            self._band_timer.stop()
            self._hide_band()
            return
        if self._band_report is report:
            return
        if self.band.isVisible():  # the same list before the edit: right above the first changed rank
            self.band.setBrush(BAND_STALE_BRUSH)
        self._band_timer.start()

    def _hide_band(self) -> None:
        self._band_report = None
        for part in (self.band_low, self.band_high, self.band):
            part.setVisible(False)

    def _draw_band(self) -> None:
        report = self._doc.report
        band = report.band if self.shown("Unjudged band") else None
        if band is None:
            self._hide_band()
            return
        x = band["rank"].to_numpy(dtype=float)
        self.band_low.setData(x, band["low"].to_numpy(dtype=float))
        self.band_high.setData(x, band["high"].to_numpy(dtype=float))
        self.band.setBrush(BAND_BRUSH)
        for part in (self.band_low, self.band_high, self.band):
            part.setVisible(True)
        self._band_report = report
        self._fit_bottom()

    def settle(self) -> None:
        """Draw now what waits for edits to pause (the unjudged band)."""
        if self._band_timer.isActive():
            self._band_timer.stop()
            self._draw_band()

    def band_is_current(self) -> bool:
        """Whether the band drawn (if any) is the one of the list on screen."""
        return self._band_report is not None and self._band_report is self._doc.report

    # ---- ranges ---------------------------------------------------------------------------------------
    def _set_limits(self) -> None:
        end = max(self._n, 1) + 0.5
        for vb in (self.top.vb, self.bottom.vb):
            vb.setLimits(xMin=0.5, xMax=end, minXRange=min(2.0, end - 0.5))

    def _default_end(self) -> int:
        return min(max(self._n, 1), max(2 * self._k, FIRST_VIEW))

    def _show_ranks(self, last: int) -> None:
        self.top.setXRange(0.5, last + 0.5, padding=0)

    def _reset_view(self) -> None:
        self._show_ranks(self._default_end())

    def zoom_to_k(self) -> None:
        """The first k ranks (at least two, when the list has them)."""
        n = max(self._n, 1)
        self._show_ranks(min(n, max(self._k, 2)))

    def show_all(self) -> None:
        self._show_ranks(max(self._n, 1))

    def visible_ranks(self) -> tuple[float, float]:
        x0, x1 = self.top.vb.viewRange()[0]
        return float(x0), float(x1)

    def _x_range_changed(self) -> None:
        self._fit_top()
        self._update_dots()
        self._draw_marks()

    def _update_dots(self, force: bool = False) -> None:
        """Dots on the curves while the view shows few enough ranks to tell them apart."""
        x0, x1 = self.visible_ranks()
        dotted = x1 - x0 <= SYMBOLS_UP_TO + 1
        if dotted == self._dotted and not force:
            return
        self._dotted = dotted
        for curve, colour in ((self.dcg, DCG_COLOUR), (self.idcg, IDCG_COLOUR), (self.ndcg, NDCG_COLOUR),
                              (self.baseline, BASELINE_PEN.color())):
            if dotted:
                curve.setSymbolPen(None)
                curve.setSymbolBrush(colour)
                curve.setSymbolSize(6)
                curve.setSymbol("o")
            else:
                curve.setSymbol(None)

    def _fit_top(self) -> None:
        """The upper panel's height: 0 to the highest curve (or bar) within the ranks in view."""
        x0, x1 = self.visible_ranks()
        first = min(max(int(np.ceil(x0)) - 1, 0), max(self._n - 1, 0))
        last = max(min(int(np.floor(x1)), self._n), first + 1)
        low, high = 0.0, 0.0
        parts = [self._columns[name][first:last] for name in ("dcg", "idcg") if self.shown(name.upper())]
        parts.append(self._loss[first:last])
        for part in parts:
            if len(part):
                low, high = min(low, float(np.nanmin(part))), max(high, float(np.nanmax(part)))
        if high <= low:
            high = low + 1.0
        self.top.setYRange(low, high + 0.06 * (high - low), padding=0)

    def _fit_bottom(self) -> None:
        """The NDCG panel: 0 to 1 (wider only when negative grades take NDCG outside), with a strip
        below for the marks of relevant ranks."""
        parts = [self._columns["ndcg"]]
        if self.baseline.isVisible():
            parts.append(self.baseline.yData)
        if self.band.isVisible():
            parts += [self.band_low.yData, self.band_high.yData]
        low, high = 0.0, 1.0
        for part in parts:
            finite = part[np.isfinite(part)] if part is not None else ()
            if len(finite):
                low, high = min(low, float(finite.min())), max(high, float(finite.max()))
        span = high - low
        bottom = low - (MARK_STRIP * span if self.shown("Relevant ranks") else 0.02 * span)
        self._ndcg_range = (low, high)
        self.bottom.setYRange(bottom, high + 0.04 * span, padding=0)
        self._mark_strip = (bottom, low - 0.015 * span)
        self._draw_marks()

    def _draw_marks(self) -> None:
        """The marks within the ranks in view (thousands of ticks off screen would cost a paint)."""
        (y0, y1), (x0, x1) = self._mark_strip, self.visible_ranks()
        for i, item in enumerate(self.mark_items):
            if i < len(self._marks):
                _label, colour, ranks = self._marks[i]
                ranks = ranks[np.searchsorted(ranks, x0 - 1):np.searchsorted(ranks, x1 + 1, side="right")]
                item.setData(np.repeat(ranks, 2), np.tile([y0, y1], len(ranks)), pen=pg.mkPen(colour, width=3))
                item.setVisible(True)
            else:
                item.setData([], [])
                item.setVisible(False)

    # ---- legend (for the exported figure) -------------------------------------------------------------
    def _refresh_legend(self) -> None:
        """The legend lists what is drawn (a hidden item would stay there as a blank mark). Made
        for a figure and when a toggle changes, not on every edit (it costs milliseconds)."""
        entries = [(self.dcg, "DCG"), (self.idcg, "IDCG"), (self.loss, "loss per rank (ideal − actual)"),
                   (self.ndcg, "NDCG"), (self.baseline, "NDCG as loaded"), (self._band_sample,
                                                                          "unjudged band (NDCG low–high)")]
        shown = [(item, name) for item, name in entries
                 if (self.band.isVisible() if item is self._band_sample else item.isVisible())]
        key = (tuple(name for _item, name in shown), tuple((label, colour) for label, colour, _r in self._marks))
        if key == self._legend_key:
            return
        self._legend_key = key
        self.legend.clear()
        for item, name in shown:
            self.legend.addItem(item, name)
        self.legend.setColumnCount(max(len(shown), 1))
        self.marks_legend.clear()
        for label, colour, _ranks in self._marks:
            sample = pg.ScatterPlotItem(symbol="|", size=14, pen=pg.mkPen(colour, width=3), brush=colour)
            self.marks_legend.addItem(sample, f"{label} (tick under NDCG)")
        self.marks_legend.setColumnCount(max(len(self._marks), 1))

    # ---- the exported figure -----------------------------------------------------------------------------
    def figure_title(self) -> str:
        """What the exported figure shows: file, query, k, definition and NDCG@k."""
        doc = self._doc
        definition = doc.config.preset_name() or "custom definition"
        query = f"query {doc.current_query} · " if doc.current_query else ""
        return f"{doc.display_name} · {query}NDCG@{doc.k} = {format_metric(doc.summary.ndcg)} · {definition}"

    @contextmanager
    def figure(self, size: QSizeF, title: str | None = None) -> Iterator[QRectF]:
        """The plot laid out as a figure of `size` (title and legend rows added, the hover cursor
        hidden) for the duration of the block, which gets the scene rectangle to render."""
        self.settle()
        self._refresh_legend()
        layout = self.plot.ci
        cursor = self.cursor.isVisible()
        self.cursor.setVisible(False)
        self._cursor_low.setVisible(False)
        title = html.escape(title if title is not None else self.figure_title())
        describe = html.escape(self._doc.config.describe())
        self.title.setText(f"{title}<br><span style='font-size:9pt; color:#555'>{describe}</span>")
        on_screen = layout.geometry()  # (before adding rows: they make the layout grow at once)
        for row, item in enumerate(self._figure_rows):
            layout.addItem(item, row=row, col=0)
            layout.layout.setAlignment(item, Qt.AlignHCenter)
        layout.setGeometry(QRectF(QPointF(0, 0), size))
        layout.layout.activate()
        try:
            yield layout.sceneBoundingRect()
        finally:
            for item in self._figure_rows:
                layout.removeItem(item)
            # The rows' minimum height is cached: forget it, or the screen's smaller size is refused.
            layout.layout.invalidate()
            layout.updateGeometry()
            layout.setGeometry(on_screen)
            layout.layout.activate()
            self.cursor.setVisible(cursor)
            self._cursor_low.setVisible(cursor)

    # ---- hover ----------------------------------------------------------------------------------------
    def _mouse_moved(self, event) -> None:
        pos: QPointF = event[0]
        for panel in (self.top, self.bottom):
            vb = panel.vb
            if self._n and vb.sceneBoundingRect().contains(pos):
                rank = round(vb.mapSceneToView(pos).x())
                self.show_rank(min(max(rank, 1), self._n))
                return
        self.clear_readout()

    def clear_readout(self) -> None:
        self.cursor.setVisible(False)
        self._cursor_low.setVisible(False)
        self.readout.setText(" ")

    def show_rank(self, rank: int) -> None:
        """Put the crosshair on `rank` and show its figures."""
        i = rank - 1
        for line in (self.cursor, self._cursor_low):
            line.setValue(rank)
            line.setVisible(True)
        c = self._columns
        parts = [f"<b>rank {rank}</b>", html.escape(str(self._docs[i])),
                 f"<span style='color:{DCG_COLOUR}'>DCG {format_metric(c['dcg'][i])}</span>",
                 f"<span style='color:{IDCG_COLOUR}'>IDCG {format_metric(c['idcg'][i])}</span>",
                 f"<span style='color:{NDCG_COLOUR}'>NDCG {format_metric(c['ndcg'][i])}</span>"]
        band = self._band_report.band if self.band_is_current() and self.band.isVisible() else None
        if band is not None:
            at = np.searchsorted(band["rank"].to_numpy(), rank)
            if at < len(band) and band["rank"].iat[at] == rank:
                parts.append(f"band {format_metric(band['low'].iat[at])}–{format_metric(band['high'].iat[at])}")
        if self.baseline.isVisible() and i < len(self.baseline.yData):
            parts.append(f"as loaded {format_metric(self.baseline.yData[i])}")
        if i < len(self._loss):
            parts.append(f"loss {format_metric(self._loss[i])}")
        self.readout.setText(" · ".join(parts))
