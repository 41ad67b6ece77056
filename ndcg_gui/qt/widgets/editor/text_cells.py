"""A delegate for tables of one line of text per cell (the ranked list, the per-rank table): it
paints what Qt's `QStyledItemDelegate` paints for such a cell (the background role or the
selection, the text in its font, colour and alignment, cut at its end with "…" when too long,
the focus frame), pixel for pixel, from one Python call to the model (`look(row, column)`: the
display, alignment, foreground, background and font roles). Qt's own asks the model for each role
across C++ and lays each text out with a `QTextLayout`, which made the tables' cells most of a
row move's paint. Editors and size hints stay Qt's own."""

from __future__ import annotations

import math
from typing import Protocol

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QRect, QRectF, Qt
from PySide6.QtGui import QBrush, QFont, QFontMetricsF, QPainter, QPalette
from PySide6.QtWidgets import (
    QStyle,
    QStyledItemDelegate,
    QStyleOptionFocusRect,
    QStyleOptionViewItem,
    QWidget,
)

Index = QModelIndex | QPersistentModelIndex
Look = tuple[str | None, int | None, QBrush | None, QBrush | None, QFont | None]

# Plain ints: a flag enum's `&` in Python cost more than the cell's drawing.
_SELECTED, _ACTIVE = QStyle.StateFlag.State_Selected.value, QStyle.StateFlag.State_Active.value
_FOCUS, _EDITING = QStyle.StateFlag.State_HasFocus.value, QStyle.StateFlag.State_Editing.value
_ENABLED = QStyle.StateFlag.State_Enabled.value
_FOCUS_FRAME = QStyle.StateFlag.State_KeyboardFocusChange | QStyle.StateFlag.State_Item
_VCENTER, _BOTTOM = int(Qt.AlignmentFlag.AlignVCenter), int(Qt.AlignmentFlag.AlignBottom)
_RIGHT = int(Qt.AlignmentFlag.AlignRight)
_VERTICAL = int(Qt.AlignmentFlag.AlignVertical_Mask)
_TOP_LINE = int(Qt.AlignmentFlag.AlignTop) | int(Qt.TextFlag.TextSingleLine)
_LEFT_TOP_LINE = _TOP_LINE | int(Qt.AlignmentFlag.AlignLeft)
_NORMAL, _INACTIVE, _DISABLED = QPalette.ColorGroup.Normal, QPalette.ColorGroup.Inactive, \
    QPalette.ColorGroup.Disabled
_HIGHLIGHT, _HIGHLIGHTED_TEXT = QPalette.ColorRole.Highlight, QPalette.ColorRole.HighlightedText
_TEXT, _WINDOW = QPalette.ColorRole.Text, QPalette.ColorRole.Window


class Looks(Protocol):
    def look(self, row: int, column: int) -> Look:
        """What `data()` gives for DisplayRole, TextAlignmentRole, ForegroundRole, BackgroundRole
        and FontRole."""


class TextCells(QStyledItemDelegate):
    def __init__(self, view: QWidget) -> None:
        super().__init__(view)
        # Made once per font the model gives (None: the view's own, which a table view gives
        # every cell) rather than per cell, and again when the view's font or style changes:
        # the model's font, the font drawn, its metrics, its line's height, the text margin.
        self._fonts: dict[int, tuple[QFont | None, QFont, QFontMetricsF, int, int]] = {}
        view.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.parent():
            if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
                self._fonts.clear()
            return False
        return super().eventFilter(watched, event)  # (an editor's: Enter commits, Esc leaves)

    def _font(self, given: QFont | None, option: QStyleOptionViewItem
              ) -> tuple[QFont | None, QFont, QFontMetricsF, int, int]:
        # By identity: the models' fonts are made once (`cells.font`); the font is kept with its
        # entry, so its id names no other font while the entry lives.
        known = self._fonts.get(id(given))
        if known is None or known[0] is not given:
            if len(self._fonts) > 16:
                self._fonts.clear()
            drawn = QFont(option.font) if given is None else given.resolve(option.font)
            # Every property its own: a painter fills those a font leaves unset from its device's
            # font, and `resolve` marks only the model's (an italic of the image's size, in tests).
            drawn.setResolveMask(drawn.resolveMask() | option.font.resolveMask())
            metrics = QFontMetricsF(drawn)
            widget = option.widget
            # Qt's text margin (QCommonStyle's viewItemDrawText): the focus frame's and a pixel.
            margin = widget.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1 \
                if widget is not None else 3
            known = self._fonts[id(given)] = (given, drawn, metrics, math.ceil(metrics.height()), margin)
        return known

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        state = option.state.value
        if state & _EDITING:  # (the editor covers the cell: Qt's own draws what shows of it)
            super().paint(painter, option, index)
            return
        text, alignment, foreground, background, font = index.model().look(index.row(), index.column())
        rect, widget, palette = option.rect, option.widget, option.palette
        enabled = widget.isEnabled() if widget is not None else bool(state & _ENABLED)
        group = _DISABLED if not enabled else _NORMAL if state & _ACTIVE else _INACTIVE
        selected = bool(state & _SELECTED)
        if selected:
            painter.fillRect(rect, palette.brush(group, _HIGHLIGHT))
        elif background is not None:
            painter.setBrushOrigin(rect.topLeft())
            painter.fillRect(rect, background)
        if text:
            _, drawn, metrics, height, margin = self._font(font, option)
            painter.setFont(drawn)
            painter.setPen(palette.color(group, _HIGHLIGHTED_TEXT) if selected else
                           foreground.color() if foreground is not None else palette.color(group, _TEXT))
            left, width = rect.left() + margin, rect.width() - 2 * margin
            flags = alignment if alignment is not None else int(option.displayAlignment)
            # Where Qt's text layout puts the line: its height rounded up, centred in whole
            # pixels (drawText's own centring is fractional: the glyphs came out a shade apart),
            # rounded towards 0 as C++ divides, for a line taller than its row.
            top = rect.top() + int((rect.height() - height) / 2) if flags & _VCENTER else \
                rect.bottom() + 1 - height if flags & _BOTTOM else rect.top()
            advance = metrics.horizontalAdvance(text)
            if advance > width:
                text = metrics.elidedText(text, option.textElideMode, width)
                advance = metrics.horizontalAdvance(text)
            if flags & _RIGHT:  # (where Qt's layout puts it: its advance from the right, unrounded)
                x = left + width - advance
                painter.drawText(QRectF(x, top, rect.left() + rect.width() - x, height), _LEFT_TOP_LINE, text)
            else:
                painter.drawText(QRect(left, top, width, height), (flags & ~_VERTICAL) | _TOP_LINE, text)
        if state & _FOCUS and widget is not None:
            focus = QStyleOptionFocusRect()
            focus.rect, focus.palette, focus.direction = QRect(rect), palette, option.direction
            focus.fontMetrics, focus.state = option.fontMetrics, option.state | _FOCUS_FRAME
            focus.backgroundColor = palette.color(group, _HIGHLIGHT if selected else _WINDOW)
            widget.style().drawPrimitive(QStyle.PrimitiveElement.PE_FrameFocusRect, focus, painter, widget)
