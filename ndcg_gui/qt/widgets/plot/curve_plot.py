"""The curve plot of the list on screen: its bar (one check box per curve or mark, each with a
swatch that makes the bar the legend, and "Zoom to k" / "Show all"), the two panels
(`CurvePanels`: DCG and IDCG above, NDCG on its own 0–1 scale below) and a hover readout. Follows
the document's `report`; computes nothing.

The unjudged band of a long list costs more than a
frame, so it is searched once edits pause (BAND_DELAY_MS), a slice of ranks at a time with the
event loop running between slices (BAND_SLICE_MS), and only while its toggle is on; until it is
drawn the band of the same list before the edit shows, faded.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPoint, QRectF, QSize, QSizeF, Qt, QTimer
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QCheckBox, QLabel, QToolButton, QVBoxLayout, QWidget

from ndcg_gui.core.analysis.list_report import ListReport
from ndcg_gui.core.lists.numbers import format_metric
from ndcg_gui.core.ndcg.presets import preset_name
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.models.colours import current
from ndcg_gui.qt.widgets.plot.curve_panels import CurvePanels, band_brush, band_pen, curve_pen, loss_brush
from ndcg_gui.qt.widgets.plot.flow_layout import FlowLayout
from ndcg_gui.qt.widgets.plot.plot_parts import mark_shades, swatch, ticks_swatch
from ndcg_gui.qt.widgets.scheme import FollowsScheme

BAND_DELAY_MS = 200  # the band is searched once edits pause this long
BAND_SLICE_MS = 8  # ... in slices of ranks this long, so no frame waits for the whole search
READOUT_PADDING = 6
READOUT_STYLE = ("QLabel#plotReadout {{ background: {background}; color: {text}; border: 1px solid {border};"
                 f" border-radius: 3px; padding: 2px {READOUT_PADDING}px; }}}}")
LOSS_TIP = ("Loss per rank, over the first k ranks: the ideal ranking's gain × discount at this rank "
            "minus this row's (the bars add up to IDCG@k − DCG@k)")
BAND_TIP = ("Where documents are unjudged: the lowest and highest NDCG at each rank over every grading "
            "of them (the line counts them as 0)")


class CurvePlot(FollowsScheme, QWidget):
    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._doc = document
        self._report: ListReport | None = None
        self._band_report: ListReport | None = None
        self.toggles: dict[str, QCheckBox] = {}
        self._row: list[QCheckBox] = []  # the check boxes, one Tab stop (`_one_tab_stop`)
        self.plot = CurvePanels(self.shown)
        # The panels' items, by the names the window's tests and actions use.
        p = self.plot
        self.top, self.bottom, self.dcg, self.idcg, self.ndcg = p.top, p.bottom, p.dcg, p.idcg, p.ndcg
        self.baseline, self.loss, self.mark_items, self.k_line = p.baseline, p.loss, p.mark_items, p.k_line
        self.band, self.band_low, self.band_high = p.band, p.band_low, p.band_high
        self.cursor, self.legend, self.marks_legend, self.title = p.cursor, p.legend, p.marks_legend, p.title

        # Over the upper panel's top left corner (where cumulative curves are lowest), only while
        # it shows a rank: a row of its own would take height from a small plot.
        self.readout = QLabel(" ", self.plot)
        self.readout.setObjectName("plotReadout")
        self.readout.setTextFormat(Qt.RichText)
        self.readout.setWordWrap(True)
        self.readout.setAttribute(Qt.WA_TransparentForMouseEvents)
        self.readout.hide()

        bar = FlowLayout(spacing=6)
        bar.setContentsMargins(4, 2, 4, 0)
        self._toggle(bar, "DCG", "DCG", True, "DCG curve", "The DCG curve (solid)")
        self._toggle(bar, "IDCG", "IDCG", True, "IDCG curve", "The IDCG curve (dashed)")
        self._toggle(bar, "NDCG", "NDCG", True, "NDCG curve", "The NDCG curve (the lower panel)")
        self._toggle(bar, "As loaded", "As loaded", True, "NDCG as loaded",
                     "NDCG at each rank of the list as loaded, thin and dashed (drawn once the list "
                     "differs from it)")
        self._toggle(bar, "Unjudged band", "Unjudged band", True, "Unjudged band", BAND_TIP)
        self._toggle(bar, "Loss per rank", "Loss", False, "Loss per rank", LOSS_TIP)
        self._toggle(bar, "Relevant ranks", "Relevant", True, "Marks at relevant ranks",
                     "A tick under the NDCG curve at each rank whose grade is above 0 (taller: higher grade)")
        self._one_tab_stop(list(self.toggles.values()))
        self.zoom_k = self._button(bar, "Zoom to k", self.zoom_to_k, "Show the first k ranks")
        self.show_all_button = self._button(bar, "Show all", self.show_all, "Show every rank of the list")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(bar)
        layout.addWidget(self.plot, 1)

        self._band_timer = QTimer(self)
        self._band_timer.setSingleShot(True)
        self._band_timer.setInterval(BAND_DELAY_MS)
        self._band_timer.timeout.connect(self._search_band)
        self._band_slices = QTimer(self)  # the next slice, once the events queued meanwhile are handled
        self._band_slices.setSingleShot(True)
        self._band_slices.setInterval(0)
        self._band_slices.timeout.connect(self._search_band)
        self._hover = pg.SignalProxy(self.plot.scene().sigMouseMoved, rateLimit=60, slot=self._mouse_moved)
        self.plot.installEventFilter(self)  # the mouse leaving the plot takes the readout away
        document.changed.connect(self._follow)
        self.refresh()
        self.plot.reset_view()
        self.plot.refresh_legend()
        self.follow_scheme()

    def restyle(self) -> None:
        """The swatches and the readout in the window's colours (the panels restyle themselves)."""
        c = current()
        icons = {"DCG": swatch(curve_pen(c, "dcg")), "IDCG": swatch(curve_pen(c, "idcg")),
                 "NDCG": swatch(curve_pen(c, "ndcg")), "As loaded": swatch(curve_pen(c, "baseline")),
                 "Unjudged band": swatch(band_pen(c), band_brush(c).color()),
                 "Loss per rank": swatch(None, loss_brush(c).color()),
                 "Relevant ranks": ticks_swatch(mark_shades(c))}
        for name, icon in icons.items():
            self.toggles[name].setIcon(icon)
        back = c.qcolor("readout")
        self.readout.setStyleSheet(READOUT_STYLE.format(
            background=f"rgba({back.red()}, {back.green()}, {back.blue()}, {back.alpha()})",
            text=c.plot_text, border=c.readout_border))
        if self.readout.isVisible():
            self.show_rank(int(self.cursor.value()))

    # ---- the bar ------------------------------------------------------------------------------------
    def _toggle(self, bar: FlowLayout, name: str, text: str, on: bool, menu_text: str, tip: str) -> None:
        box = QCheckBox(text)  # (its swatch: `restyle`)
        box.setIconSize(QSize(18, 10))
        box.setChecked(on)
        box.setProperty("menuText", menu_text)  # the View menu's action for it (window/actions.py)
        box.setToolTip(tip)
        box.toggled.connect(self._toggled)
        bar.addWidget(box)
        self.toggles[name] = box

    def _one_tab_stop(self, boxes: list[QCheckBox]) -> None:
        """The check boxes are one Tab stop (seven stops were too many to Tab past, none left them
        out of reach): Tab reaches the one used last, ← and → (Home, End) move along the row, Space
        ticks; the View menu has them too."""
        self._row = boxes
        for box in boxes:
            box.installEventFilter(self)
            box.setAccessibleDescription("← and → move along the plot's check boxes; Space ticks one")
        self._stop_at(boxes[0])

    def _stop_at(self, stop: QCheckBox) -> None:
        for box in self._row:
            box.setFocusPolicy(Qt.FocusPolicy.StrongFocus if box is stop else Qt.FocusPolicy.ClickFocus)

    def _move_along(self, box: QCheckBox, key: int) -> bool:
        row = self._row
        at = row.index(box)
        to = {Qt.Key.Key_Left: at - 1, Qt.Key.Key_Right: at + 1, Qt.Key.Key_Home: 0,
              Qt.Key.Key_End: len(row) - 1}.get(Qt.Key(key))
        if to is None:
            return False
        target = row[max(0, min(to, len(row) - 1))]
        self._stop_at(target)  # (Tab comes back to it)
        target.setFocus(Qt.FocusReason.TabFocusReason)
        return True

    def _button(self, bar: FlowLayout, text: str, slot: Callable[[], None], tip: str) -> QToolButton:
        button = QToolButton()
        button.setText(text)
        button.setToolTip(tip)
        button.clicked.connect(slot)
        bar.addWidget(button)
        return button

    def _toggled(self, _on: bool) -> None:
        self.refresh()
        self.plot.refresh_legend()

    def shown(self, name: str) -> bool:
        box = self.toggles.get(name)
        return box is None or box.isChecked()

    def zoom_to_k(self) -> None:
        self.plot.zoom_to_k()

    def show_all(self) -> None:
        self.plot.show_all()

    def visible_ranks(self) -> tuple[float, float]:
        return self.plot.visible_ranks()

    # ---- following the document -----------------------------------------------------------------------
    def _follow(self, changes: Changes) -> None:
        if self._doc.report is self._report:
            return
        other, k_before = changes.dataset or changes.query, self.plot.k
        # A list as loaded of its own (a typed or new list) is another list too; and while the
        # person has not zoomed or panned, the view keeps the opening frame of the list as it
        # grows or shrinks (read before drawing: the new list's limits clamp the old range).
        before, now = self._report, self._doc.report
        other = other or (before is not None and now.baseline is not before.baseline
                          and now.baseline != before.baseline)
        opening = self.plot.at_opening()
        if other:  # the readout and the band would describe a list no longer shown
            self.clear_readout()
        if other or changes.definition:
            self._band_report = None
            self.plot.show_band(None)
        self.refresh()
        if other or opening or self.plot.k != k_before:
            self.plot.reset_view()

    def refresh(self) -> None:
        report = self._report = self._doc.report
        self.plot.draw(report)
        self._schedule_band(report)
        if self.cursor.isVisible():  # an edit under the readout: show the rank's new figures
            rank = int(self.cursor.value())
            self.show_rank(rank) if 1 <= rank <= self.plot.n else self.clear_readout()

    # ---- the unjudged band ------------------------------------------------------------------------------
    def _schedule_band(self, report: ListReport) -> None:
        self._band_slices.stop()  # a search under way starts again from where it is after the pause
        if not (self.shown("Unjudged band") and report.unjudged_range):
            self._band_timer.stop()
            self._band_report = None
            self.plot.show_band(None)
        elif self._band_report is not report:
            if self.band.isVisible():
                self.plot.fade_band()
            self._band_timer.start()

    def _search_band(self) -> None:
        """Search the band of the list on screen for one slice (BAND_SLICE_MS) and come back for the
        next once the event loop has run (painting, input), then draw it: the whole search at once
        would be one long frame for a long list."""
        search = self._doc.report.band_search if self.shown("Unjudged band") else None
        if search is not None:
            deadline = time.perf_counter() + BAND_SLICE_MS / 1000
            while not search.step() and time.perf_counter() < deadline:
                pass
            if not search.done:
                self._band_slices.start()
                return
        self._draw_band()

    def _draw_band(self) -> None:
        """Draw the band of the list on screen, searching what is left of it first."""
        report = self._doc.report
        band = report.band if self.shown("Unjudged band") else None
        self._band_report = report if band is not None else None
        self.plot.show_band(band)
        if self.cursor.isVisible():
            self.show_rank(int(self.cursor.value()))

    def settle(self) -> None:
        """Draw now what waits for edits to pause (the unjudged band)."""
        if self._band_timer.isActive() or self._band_slices.isActive():
            self._band_timer.stop()
            self._band_slices.stop()
            self._draw_band()

    def band_is_current(self) -> bool:
        """Whether the band drawn is the one of the list on screen."""
        return self._band_report is not None and self._band_report is self._doc.report

    # ---- the exported figure ----------------------------------------------------------------------------
    def figure_title(self) -> str:
        """What the exported figure shows: file, query, k, definition and NDCG@k."""
        doc = self._doc
        definition = preset_name(doc.measure, ignoring_ties=True) or "custom definition"
        query = f"query {doc.current_query} · " if doc.current_query else ""
        return f"{doc.display_name} · {query}NDCG@{doc.k} = {format_metric(doc.summary.ndcg)} · {definition}"

    @contextmanager
    def figure(self, size: QSizeF, title: str | None = None) -> Iterator[QRectF]:
        """The plot laid out as a figure of `size` (title, the definition under it, legend rows;
        no cursor) for the duration of the block, which gets the scene rectangle to render."""
        self.settle()
        title = html.escape(title if title is not None else self.figure_title())
        describe = html.escape(self._doc.measure.describe())
        subtitle = f"<span style='font-size:9pt; color:#555'>{describe}</span>"  # (a figure: on white)
        with self.plot.figure(size, f"{title}<br>{subtitle}") as rect:
            yield rect

    # ---- hover -------------------------------------------------------------------------------------------
    def eventFilter(self, watched, event) -> bool:
        if watched in self._row:
            if event.type() == QEvent.Type.KeyPress and not event.modifiers():
                return self._move_along(watched, event.key())
            if event.type() == QEvent.Type.FocusIn:  # (clicked, say: Tab comes back to this one)
                self._stop_at(watched)
        if watched is self.plot and event.type() == QEvent.Type.Leave:
            self._hover.flush()  # (a move still queued would show the readout again)
            self.clear_readout()
        return False

    def _mouse_moved(self, event) -> None:
        rank = self.plot.rank_at(event[0])
        self.show_rank(rank) if rank is not None else self.clear_readout()

    def clear_readout(self) -> None:
        self.plot.set_cursor(None)
        self.readout.setText(" ")
        self.readout.hide()

    def _judged(self) -> bool:
        """Whether the list has anything to score NDCG by (else its 0 would read as a figure)."""
        lst = self._doc.report.list
        return not len(lst) or bool(lst.judged.any()) or bool(lst.unretrieved)

    def show_rank(self, rank: int) -> None:
        """Put the cursor on `rank` and show its figures."""
        i, c, colours, judged = rank - 1, self.plot.columns, current(), self._judged()
        self.plot.set_cursor(rank)
        parts = [f"<b>{_keep('rank', rank)}</b>", html.escape(str(self.plot.docs[i])),
                 _keep("DCG", format_metric(c["dcg"][i]), colours.dcg),
                 _keep("IDCG", format_metric(c["idcg"][i]), colours.idcg),
                 _keep("NDCG", format_metric(c["ndcg"][i]) if judged else "– (no judgments)", colours.ndcg)]
        if judged and self.band_is_current() and self.band.isVisible():  # (none: a band of [0, 0])
            x, low, high = self.band_low.xData, self.band_low.yData, self.band_high.yData
            at = int(np.searchsorted(x, rank))
            if at < len(x) and x[at] == rank:
                parts.append(_keep("band", f"{format_metric(low[at])}–{format_metric(high[at])}"))
        if self.baseline.isVisible() and self.baseline.yData is not None and i < len(self.baseline.yData):
            parts.append(_keep("as loaded", format_metric(self.baseline.yData[i])))
        if i < len(self.plot.losses):  # (below 0 the row gains over the ideal's: said so)
            loss = self.plot.losses[i]
            parts.append(_keep("loss" if loss >= 0 else "gain", format_metric(abs(loss))))
        self.readout.setText(" · ".join(parts))
        self._place_readout(rank)

    def _place_readout(self, rank: int) -> None:
        """At the top of the upper panel, beside the cursor (right of it, or left near the end),
        so the cursor and the points it crosses stay in sight."""
        view = self.plot.mapFromScene(self.top.vb.sceneBoundingRect()).boundingRect()
        # One line when the panel is wide enough, else wrapped to the panel's width.
        text = QTextDocument()
        text.setDefaultFont(self.readout.font())
        text.setHtml(self.readout.text())
        width = int(min(text.idealWidth() + 2 * (READOUT_PADDING + 1) + 2, max(view.width() - 12, 120)))
        self.readout.resize(width, self.readout.heightForWidth(width))
        cursor = self.plot.mapFromScene(self.top.vb.mapViewToScene(pg.Point(rank, 0))).x()
        x = cursor + 10 if cursor + 10 + width <= view.right() else cursor - 10 - width
        self.readout.move(QPoint(int(max(x, view.left() + 2)), view.top() + 4))
        self.readout.show()


def _keep(label: str, value: object, colour: str | None = None) -> str:
    """One part of the readout, kept on one line (a no-break space) and coloured like its curve."""
    text = f"{label}\N{NO-BREAK SPACE}{value}"
    return f"<span style='color:{colour}'>{text}</span>" if colour else text
