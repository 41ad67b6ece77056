"""The open query in two runs side by side: the baseline's list on the left, the other run's on the
right, a line joining each document's two ranks. Green and solid: the document rose in the other
run, red and dashed: it fell, grey: same rank (a level line); thick lines are relevant documents.
A document only one run retrieved ends in a hollow circle and is set in italics; one ranked below
the shown depth joins the "below" row. Painted from a `RunDiffModel`; holds no data of its own."""

from __future__ import annotations

import math
from typing import NamedTuple

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from ndcg_gui.core.lists.numbers import format_grade
from ndcg_gui.qt.models.colours import current
from ndcg_gui.qt.models.run_diff_model import RunDiffModel

PAD, GRADE_BOX, RANK_WIDTH, MIDDLE_MIN, BLOCK_MIN = 4, 22, 22, 36, 110


class Entry(NamedTuple):
    doc: str
    grade: float
    gain: float
    rank_a: float
    rank_b: float
    move: float


class RunLines(QWidget):
    def __init__(self, model: RunDiffModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMouseTracking(True)
        for signal in (model.modelReset, model.dataChanged, model.headerDataChanged):
            signal.connect(self._changed)
        self._changed()

    # ---- geometry ----------------------------------------------------------------------------
    def _row_height(self) -> int:
        return self.fontMetrics().height() + 6

    def _changed(self, *_args) -> None:
        """Read the model once per change (a paint then touches plain tuples, not pandas)."""
        frame = self.model.frame if self.model.rowCount() else None  # (none yet: no pandas at start-up)
        self._entries = [] if frame is None else [
            Entry(str(doc), *values)
            for doc, *values in frame[["grade", "gain", "rank_a", "rank_b", "move"]].itertuples(name=None)]
        ranks = [r for e in self._entries for r in (e.rank_a, e.rank_b) if not math.isnan(r)]
        deepest = max(ranks, default=0)
        self._shown = int(min(self.model.depth, deepest))  # ranks shown, as far as either list goes
        # A 'below' row when a document ranked beyond them joins one shown.
        self._below = any(e.rank_a > self._shown or e.rank_b > self._shown for e in self._entries)
        self._block = self._needed_block()
        self.setFixedHeight(self._height())
        self.updateGeometry()
        self.update()

    @property
    def entries(self) -> list[Entry]:
        """The documents drawn, read from the model."""
        return list(self._entries)

    def _rows(self) -> int:
        return self._shown + int(self._below)

    def sizeHint(self) -> QSize:
        return QSize(max(440, self.minimumSizeHint().width()), self._height())

    def minimumSizeHint(self) -> QSize:
        # The ids whole: narrower, the scroll area around the lines scrolls sideways.
        return QSize(2 * self._block + MIDDLE_MIN + 2 * PAD, self._height())

    def _needed_block(self) -> int:
        """The width of a list's block that shows every id shown whole (italic: one run's only)."""
        italic = QFont(self.font())
        italic.setItalic(True)
        plain, slanted = self.fontMetrics(), QFontMetrics(italic)
        widest = max((max(plain.horizontalAdvance(e.doc), slanted.horizontalAdvance(e.doc))
                      for e in self._entries if min(e.rank_a, e.rank_b) <= self._shown), default=0)
        return max(BLOCK_MIN, widest + RANK_WIDTH + GRADE_BOX + 4 + 2)

    def _height(self) -> int:
        return 2 * PAD + self._row_height() * (self._rows() + 1)

    def _columns(self) -> tuple[float, float]:
        """The width of each list's block and the x where the right block starts."""
        w = self.width()
        block = max(float(self._block), min(230.0, (w - 2 * PAD - MIDDLE_MIN) / 2))
        return block, w - PAD - block

    def _y(self, rank: float) -> float | None:
        """The middle of the row of `rank` (the 'below' row beyond the depth), None if unranked."""
        if math.isnan(rank):
            return None
        return PAD + self._row_height() * (min(int(rank), self._shown + 1) + 0.5)

    # ---- painting ----------------------------------------------------------------------------
    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        entries = self._entries
        fm = self.fontMetrics()
        h = self._row_height()
        block, right = self._columns()
        left_edge, right_edge = PAD + block, right  # where lines start and end
        a, b = self.model.names
        bold = QFont(self.font())
        bold.setBold(True)
        p.setFont(bold)
        p.drawText(QRectF(PAD, PAD, block, h), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                   QFontMetrics(bold).elidedText(a, Qt.TextElideMode.ElideRight, int(block)))
        p.drawText(QRectF(right, PAD, block, h), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                   QFontMetrics(bold).elidedText(b, Qt.TextElideMode.ElideRight, int(block)))
        p.setFont(self.font())
        same = current().qcolor("same")
        if not entries:
            p.setPen(same)
            p.drawText(QRectF(PAD, PAD + h, self.width() - 2 * PAD, h), Qt.AlignmentFlag.AlignCenter,
                       "Neither run retrieved a document for this query")
            return
        shown = self._shown
        if self._below:
            y = PAD + h * (shown + 1)
            p.setPen(same)
            for x, align in ((PAD, Qt.AlignmentFlag.AlignLeft), (right, Qt.AlignmentFlag.AlignRight)):
                p.drawText(QRectF(x, y, block, h), align | Qt.AlignmentFlag.AlignVCenter,
                           f"below rank {shown}")

        # Lines first, so the text sits on top of them.
        for e in entries:
            self._draw_line(p, e, left_edge, right_edge)
        for e in entries:
            only = math.isnan(e.rank_a) or math.isnan(e.rank_b)
            for rank, side in ((e.rank_a, "a"), (e.rank_b, "b")):
                if not math.isnan(rank) and rank <= shown:
                    self._draw_entry(p, fm, e, int(rank), side, only, block, right)

    def line_pen(self, e: Entry) -> QPen:
        """How `e`'s line is drawn: green and solid where it rose, red and dashed where it fell
        (told apart without their colours), grey (and level) where it kept its rank; thick where
        it is relevant."""
        relevant, move = e.gain > 0, e.move
        color = current().qcolor("same" if math.isnan(move) or move == 0 else "up" if move > 0 else "down")
        if not relevant:
            color.setAlpha(120)
        pen = QPen(color, 2.6 if relevant else 1.0)
        if not math.isnan(move) and move < 0:
            pen.setStyle(Qt.PenStyle.DashLine)
        return pen

    def _draw_line(self, p: QPainter, e: Entry, x0: float, x1: float) -> None:
        ya, yb = self._y(e.rank_a), self._y(e.rank_b)
        pen = self.line_pen(e)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        if ya is not None and yb is not None:
            path = QPainterPath(QPointF(x0, ya))
            mid = (x0 + x1) / 2
            path.cubicTo(QPointF(mid, ya), QPointF(mid, yb), QPointF(x1, yb))
            p.drawPath(path)
            return
        # In one list only: a stub towards the other list, ending in a hollow circle.
        x, y, step = (x0, ya, 1) if ya is not None else (x1, yb, -1)
        end = x + step * min(22.0, (x1 - x0) / 3)
        p.drawLine(QPointF(x, y), QPointF(end, y))
        p.drawEllipse(QPointF(end + step * 4, y), 4, 4)

    def doc_boxes(self) -> list[tuple[str, QFont, QRectF]]:
        """Each id shown, the font it is drawn in and its box (tests measure the one in the other)."""
        block, right = self._columns()
        boxes = []
        for e in self._entries:
            only = math.isnan(e.rank_a) or math.isnan(e.rank_b)
            font = QFont(self.font())
            font.setItalic(only)
            for rank, side in ((e.rank_a, "a"), (e.rank_b, "b")):
                if not math.isnan(rank) and rank <= self._shown:
                    boxes.append((e.doc, font, self._doc_box(int(rank), side, block, right)))
        return boxes

    def _doc_box(self, rank: int, side: str, block: float, right: float) -> QRectF:
        h = self._row_height()
        y = PAD + h * rank
        if side == "a":
            return QRectF(PAD + RANK_WIDTH, y, block - RANK_WIDTH - GRADE_BOX - 4, h)
        return QRectF(right + GRADE_BOX + 4, y, block - RANK_WIDTH - GRADE_BOX - 4, h)

    def _draw_entry(self, p: QPainter, fm: QFontMetrics, e: Entry, rank: int, side: str, only: bool,
                    block: float, right: float) -> None:
        h = self._row_height()
        y = PAD + h * rank
        x = PAD if side == "a" else right
        doc, grade = e.doc, e.grade
        # Mirrored: rank, document, grade box on the left; grade box, document, rank on the right.
        if side == "a":
            rank_box = QRectF(x, y, RANK_WIDTH - 4, h)
            grade_box = QRectF(x + block - GRADE_BOX, y + 2, GRADE_BOX - 2, h - 4)
            rank_align, doc_align = Qt.AlignmentFlag.AlignRight, Qt.AlignmentFlag.AlignLeft
        else:
            rank_box = QRectF(x + block - RANK_WIDTH + 4, y, RANK_WIDTH - 4, h)
            grade_box = QRectF(x + 2, y + 2, GRADE_BOX - 2, h - 4)
            rank_align, doc_align = Qt.AlignmentFlag.AlignLeft, Qt.AlignmentFlag.AlignRight
        doc_box = self._doc_box(rank, side, block, right)
        colours = current()
        p.setPen(colours.qcolor("same"))
        p.drawText(rank_box, rank_align | Qt.AlignmentFlag.AlignVCenter, str(rank))
        font = QFont(self.font())
        font.setItalic(only)
        p.setFont(font)
        p.setPen(self.palette().text().color())
        p.drawText(doc_box, doc_align | Qt.AlignmentFlag.AlignVCenter,
                   QFontMetrics(font).elidedText(doc, Qt.TextElideMode.ElideRight, int(doc_box.width())))
        p.setFont(self.font())
        if math.isnan(grade):
            p.setPen(colours.qcolor("unjudged"))
            p.drawText(grade_box, Qt.AlignmentFlag.AlignCenter, "?")
            return
        relevant = e.gain > 0
        p.setPen(QPen(colours.qcolor("up" if relevant else "same"), 1))
        p.setBrush(colours.qcolor("relevant_fill") if relevant else Qt.BrushStyle.NoBrush)
        p.drawRoundedRect(grade_box, 3, 3)
        p.setPen(self.palette().text().color())
        p.drawText(grade_box, Qt.AlignmentFlag.AlignCenter, format_grade(grade))
        p.setBrush(Qt.BrushStyle.NoBrush)

    # ---- hover ---------------------------------------------------------------------------------
    def entry_at(self, x: float, y: float) -> str | None:
        """The document whose entry is under (x, y), or None."""
        h = self._row_height()
        rank = int((y - PAD) // h)
        block, right = self._columns()
        column = "rank_a" if x <= PAD + block else "rank_b" if x >= right else None
        if column is None or rank < 1 or rank > self._shown:
            return None
        return next((e.doc for e in self._entries if getattr(e, column) == rank), None)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            doc = self.entry_at(event.pos().x(), event.pos().y())
            if doc is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(event.globalPos(), self.describe(doc), self)
            return True
        return super().event(event)

    def describe(self, doc: str) -> str:
        r = self.model.frame.loc[doc]
        a, b = self.model.names
        grade = "unjudged" if math.isnan(r["grade"]) else f"grade {format_grade(r['grade'])}"
        ranks = "; ".join(f"{name}: {'not retrieved' if math.isnan(v) else f'rank {v:.0f}'}"
                          for name, v in ((a, r["rank_a"]), (b, r["rank_b"])))
        return f"{doc} ({grade}) — {ranks}; ΔDCG {r['effect']:+.4f}"
