"""The pieces of the plots that are not curves: axes (whole ranks only, the k label above the
plot, no SI prefixes) and their colours in the window's scheme (`paint_plot`), the shades of
grades, and the swatches that make the curve plot's check boxes its legend."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetrics, QIcon, QPainter, QPen, QPixmap

from ndcg_gui.qt.models.colours import Colours

# Relevant ranks: violet by grade (no other mark of the plot is violet), from the background's
# shade to the text's, the tick taller for a higher grade.
GRADE_LEVELS = 4  # at most this many shades: more are not told apart in a 10-pixel tick


def mark_shades(colours: Colours) -> list[str]:
    return [colours.grade_low, colours.grade_mid, colours.grade_high]


def paint_plot(view: pg.GraphicsView, plots, colours: Colours) -> None:
    """A pyqtgraph view's background, and its plots' axes (lines, numbers, titles) and legends, in
    `colours` (pyqtgraph's own come from its config when an item is made, and never change)."""
    view.setBackground(colours.plot)
    for plot in plots:
        for side in ("left", "bottom", "right", "top"):
            axis = plot.getAxis(side)
            if not isinstance(axis, KAxis):
                axis.setPen(colours.plot_text)
                axis.setTextPen(colours.plot_text)
        if plot.legend is not None:
            plot.legend.setLabelTextColor(colours.plot_text)


def no_tab_stop(view: pg.GraphicsView) -> None:
    """A plot is no Tab stop: it would show no focus and take no key (a click picks, the tables and
    View ▸ do the rest). Its viewport too: Tab stopped on it and, its focus proxy the plot, stayed."""
    view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    view.viewport().setFocusPolicy(Qt.FocusPolicy.NoFocus)


class PlainAxis(pg.AxisItem):
    """An axis that writes its numbers as they are: pyqtgraph's SI prefixes turn 0.25–0.45 into
    "(x0.001)" 250–450 after a zoom, which reads as another quantity."""

    _label_html: str | None = None  # the title's HTML as last set (pyqtgraph's __init__ sets one)

    def __init__(self, orientation: str, **kwargs) -> None:
        super().__init__(orientation, **kwargs)
        self.enableAutoSIPrefix(False)

    def _updateLabel(self) -> None:
        """pyqtgraph's, without parsing the title's HTML again when it is the same text: it sets
        it at every range, pen and style change (~100 times before the first paint), and a
        `setHtml` lays the text out anew each time."""
        html = self.labelString()
        if html != self._label_html:
            self.label.setHtml(html)
            self._label_html = html
        self._adjustSize()
        self.picture = None
        self.update()


def fit_title(plot: pg.PlotItem, side: str, texts: list[str], length: float) -> str:
    """Title the `side` axis with the first of `texts` that fits `length` pixels as drawn, else the
    last cut at its end with "…"; returns it. pyqtgraph centres a title and draws it past both ends
    of a short axis; what it draws is the text, a space after it and the text item's margins."""
    axis = plot.getAxis(side)
    metrics = QFontMetrics(axis.label.font())
    room = int(length - 2 * axis.label.document().documentMargin() - metrics.horizontalAdvance(" "))
    text = next((t for t in texts if metrics.horizontalAdvance(t) <= room),
                metrics.elidedText(texts[-1], Qt.TextElideMode.ElideRight, max(room, 0)))
    if axis.labelText != text or not axis.label.isVisible():
        plot.setLabel(side, text)
        # pyqtgraph places a title only when its axis is resized (AxisItem.resizeEvent; 0.14's
        # setLabel leaves the new text where the old one was centred): placed anew here.
        axis.resizeEvent()
    return text


class RankAxis(PlainAxis):
    """Ticks at whole ranks only (no rank 1.5 on a short list)."""

    def tickSpacing(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, float]]:
        levels = [(s, o) for s, o in super().tickSpacing(minVal, maxVal, size) if s >= 1]
        return levels or [(1.0, 0.0)]


class KAxis(PlainAxis):
    """The axis above the plot: one label, "k = 10", over the k line, where no curve can be."""

    def __init__(self) -> None:
        super().__init__("top", hide_overlapping_labels=False, tickLength=5)
        self.set_k(None)

    def restyle(self, colours: Colours) -> None:
        self.setPen(pg.mkPen(colours.plot_faint))
        self.setTextPen(pg.mkPen(colours.k))

    def set_k(self, k: int | None) -> None:
        ticks = [[(float(k), f"k = {k}")] if k is not None else [], []]
        if ticks != self._tickLevels:  # (setTicks draws the axis again: not at every edit, for the same k)
            self.setTicks(ticks)
        # Tall enough for a whole line of the label's font: pyqtgraph sizes the axis from the
        # label's tight ink box, and a larger font lost the top of "k = 10" above the plot.
        style = self.style
        line = max(QFontMetrics(style["tickFont"] or self.font()).height(), style["tickTextHeight"])
        need = line + style["tickTextOffset"][1] + max(0, style["tickLength"])
        if self.fixedHeight != need:
            self.setHeight(need)


def grade_colours(grades: np.ndarray, colours: Colours) -> list[tuple[float, str]]:
    """The shade of each positive grade level of `grades` (lowest nearest the background): (lowest
    grade of the level, colour), at most GRADE_LEVELS levels (real grades grouped in equal steps)."""
    positive = distinct(grades[np.isfinite(grades) & (grades > 0)])
    if not len(positive):
        return []
    if len(positive) > GRADE_LEVELS:
        positive = np.linspace(positive[0], positive[-1], GRADE_LEVELS + 1)[:-1]
    return list(_shades(tuple(positive.tolist()), colours.grade_low, colours.grade_high))


@lru_cache(maxsize=32)
def _shades(levels: tuple[float, ...], low: str, high: str) -> tuple[tuple[float, str], ...]:
    """The ramp's colour of each level (made again only when the levels or colours change: an edit
    seldom changes which grades a list has)."""
    ramp = pg.ColorMap([0.0, 1.0], [QColor(low), QColor(high)])
    where = np.linspace(0.0, 1.0, len(levels)) if len(levels) > 1 else np.ones(1)
    return tuple((float(g), ramp.map(float(t), mode="qcolor").name())
                 for g, t in zip(levels, where, strict=True))


def distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values (no NaN among them), sorted: sorted, then repeats dropped (np.unique
    would import numpy.ma into the first paint)."""
    values = np.sort(values)
    keep = np.ones(len(values), bool)
    keep[1:] = values[1:] != values[:-1]
    return values[keep]



def swatch(pen: QPen | None = None, brush: QBrush | QColor | None = None) -> QIcon:
    """A small picture of how an item is drawn: its line (with the pen's style) over its fill."""
    pixmap = QPixmap(36, 20)
    pixmap.fill(Qt.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.Antialiasing)
    if brush is not None:
        painter.fillRect(1, 3, 34, 14, QBrush(brush))
    if pen is not None:
        line = QPen(pen)
        line.setCosmetic(False)
        line.setWidthF(max(pen.widthF(), 1.0) * 1.6)
        painter.setPen(line)
        painter.drawLine(QPointF(1, 10), QPointF(35, 10))
    painter.end()
    return QIcon(pixmap)


def ticks_swatch(shades: list[str]) -> QIcon:
    """The relevant-rank marks: vertical ticks in the grade shades, taller for higher grades."""
    pixmap = QPixmap(36, 20)
    pixmap.fill(Qt.transparent)
    painter = QPainter(pixmap)
    for i, colour in enumerate(shades):
        height = 6 + 10 * (i + 1) // len(shades)
        painter.fillRect(4 + i * 11, 18 - height, 5, height, QColor(colour))
    painter.end()
    return QIcon(pixmap)
