"""A place for a pyqtgraph plot that is made when first shown. The histogram and the runs' scatter
are hidden until a file with several queries (or a compared run) shows them; making their
PlotWidgets at start-up was a visible share of the time to the first paint. Subclasses keep what they
are given, answer from it, and draw it in `_draw` once the plot exists."""

from __future__ import annotations

import pyqtgraph as pg
import PySide6  # noqa: F401  (pyqtgraph picks its binding from whichever Qt is imported first)
from PySide6.QtCore import QPointF, QSize, QTimer
from PySide6.QtWidgets import QSizePolicy, QVBoxLayout, QWidget

_HINT, _MINIMUM = QSize(600, 480), QSize(68, 68)  # a PlotWidget's own size hints


class LazyPlot(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self._plot: pg.PlotWidget | None = None

    def _make_plot(self) -> pg.PlotWidget:
        raise NotImplementedError

    def _draw(self) -> None:
        """Draw what was given on the plot (called once it exists, then on every change)."""
        raise NotImplementedError

    def plot_widget(self) -> pg.PlotWidget:
        """The pyqtgraph plot, made now (and drawn) if it was not yet."""
        if self._plot is None:
            self._plot = self._make_plot()
            self.layout().addWidget(self._plot)
            self._plot.show()  # added during a showEvent it would be shown one event later
            self._draw()
        return self._plot

    @property
    def made(self) -> bool:
        return self._plot is not None

    def showEvent(self, event) -> None:
        # Made once the event loop has had a turn: shown with a big file's install, making and
        # drawing it in the same pass made that pass longer (bench_queries --only big).
        QTimer.singleShot(0, self, self._make_if_shown)  # (not after the widget is deleted)
        super().showEvent(event)

    def _make_if_shown(self) -> None:
        if self.isVisible():
            self.plot_widget()

    # The same hints whether or not the plot is made yet, so the layout does not depend on when it
    # was made (a made histogram hints 100 x 30, and a query panel first shown with it gave the
    # histogram its minimum height).
    def sizeHint(self) -> QSize:
        return _HINT

    def minimumSizeHint(self) -> QSize:
        return _MINIMUM

    # Read by tests and keyboard users as a PlotWidget's.
    def getPlotItem(self) -> pg.PlotItem:
        return self.plot_widget().getPlotItem()

    def viewport(self) -> QWidget:
        return self.plot_widget().viewport()

    def mapFromScene(self, point: QPointF):
        return self.plot_widget().mapFromScene(point)
