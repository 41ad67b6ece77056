"""The curve plot's figure rows: its title and legends, laid out above the panels only while a
figure is drawn for export (`figure`); on screen the headline says what the list is and the bar's
swatches are the legend. A part of `CurvePanels` (whose items it lists), kept apart by role."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QBrush, QPen
from PySide6.QtWidgets import QSizePolicy

from ndcg_gui.qt.models.colours import LIGHT


class FigureRows:
    """Mixed into `CurvePanels` (a `pg.GraphicsLayoutWidget` with the curves as attributes)."""

    def _make_figure_rows(self) -> None:
        # The figure's title and legends: rows of the layout only while exporting (`figure`); on
        # screen the headline says what the list is and the bar's swatches are the legend. A
        # figure is drawn on white, in the light set of colours.
        self._legend_key: tuple = ()
        self.title = pg.LabelItem("", size="12pt", color="#222")
        self.legend = pg.LegendItem(labelTextColor="#333", frame=False, horSpacing=8)
        self.marks_legend = pg.LegendItem(labelTextColor="#333", frame=False, horSpacing=8)
        self._figure_rows = (self.title, self.legend, self.marks_legend)
        for item in self._figure_rows:
            item.setSizePolicy(QSizePolicy.Maximum, QSizePolicy.Fixed)
        self._band_sample = pg.PlotDataItem(fillLevel=0)

    def restyle_figure_rows(self, band_pen: QPen, band_brush: QBrush) -> None:
        self._band_sample.setPen(band_pen)
        self._band_sample.setFillBrush(band_brush)
        self._legend_key = ()  # (made again with the marks' shades)

    def refresh_legend(self) -> None:
        """The legends list what is drawn (a hidden item would stay as a blank mark). Made for a
        figure and when a toggle changes, not on every edit: it costs milliseconds."""
        entries = [(self.dcg, "DCG"), (self.idcg, "IDCG"), (self.loss, "loss per rank (ideal − actual)"),
                   (self.ndcg, "NDCG"), (self.baseline, "NDCG as loaded"),
                   (self._band_sample, "unjudged band (NDCG low–high)")]
        shown = [(item, name) for item, name in entries
                 if (self.band.isVisible() if item is self._band_sample else item.isVisible())]
        key = (tuple(name for _item, name in shown),
               tuple((label, colour) for label, colour, _r in self.marks))
        if key == self._legend_key:
            return
        self._legend_key = key
        self.legend.clear()
        for item, name in shown:
            self.legend.addItem(item, name)
        self.legend.setColumnCount(max(len(shown), 1))
        self.marks_legend.clear()
        for label, colour, _ranks in self.marks:
            sample = pg.ScatterPlotItem(symbol="|", size=14, pen=pg.mkPen(colour, width=3), brush=colour)
            self.marks_legend.addItem(sample, f"{label} (tick under NDCG)")
        self.marks_legend.setColumnCount(max(len(self.marks), 1))

    @contextmanager
    def figure(self, size: QSizeF, title_html: str) -> Iterator[QRectF]:
        """The panels laid out as a figure of `size`, the title and legend rows above them and no
        cursor, for the duration of the block, which gets the scene rectangle to render."""
        self.restyle(LIGHT)
        self.refresh_legend()
        layout = self.ci
        cursor = self.cursor.isVisible()
        self.set_cursor(None)
        self.title.setText(title_html)
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
            self.set_cursor(int(self.cursor.value()) if cursor else None)
            self.restyle()
