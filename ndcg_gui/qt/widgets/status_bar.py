"""The window's status bar: a message longer than the room left of the permanent widgets (the
counts, a progress bar) is cut at its end with "…" and whole in the tooltip; QStatusBar clips it
at the first permanent widget ("…results for 3 of 3 judged c" with a long run name at 1024)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QStatusBar, QStyle, QStyleOption, QWidget


class StatusBar(QStatusBar):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._permanent: list[QWidget] = []
        self.messageChanged.connect(self._tip)

    def addPermanentWidget(self, widget: QWidget, stretch: int = 0) -> None:
        super().addPermanentWidget(widget, stretch)
        self._permanent.append(widget)

    def message_room(self) -> int:
        """The width the message is drawn in: up to the first permanent widget shown."""
        right = min((w.geometry().left() for w in self._permanent if w.isVisible()), default=self.width())
        return max(0, right - 2 * self.style().pixelMetric(QStyle.PixelMetric.PM_LayoutLeftMargin) - 6)

    def shown_message(self) -> str:
        return self.fontMetrics().elidedText(self.currentMessage(), Qt.TextElideMode.ElideRight,
                                             self.message_room())

    def paintEvent(self, event: QPaintEvent) -> None:
        message = self.currentMessage()
        if not message:
            super().paintEvent(event)
            return
        # QStatusBar's own painting, with the message cut to its room (Qt: qstatusbar.cpp).
        painter = QPainter(self)
        option = QStyleOption()
        option.initFrom(self)
        self.style().drawPrimitive(QStyle.PrimitiveElement.PE_PanelStatusBar, option, painter, self)
        for widget in self._permanent:
            if widget.isVisible():
                frame = QStyleOption()
                frame.rect = widget.geometry().adjusted(-2, -1, 2, 1)
                frame.palette = self.palette()
                self.style().drawPrimitive(QStyle.PrimitiveElement.PE_FrameStatusBarItem, frame, painter,
                                           widget)
        painter.setPen(self.palette().windowText().color())
        margin = self.style().pixelMetric(QStyle.PixelMetric.PM_LayoutLeftMargin)
        rect = self.rect().adjusted(margin + 2, 0, 0, 0)
        rect.setWidth(self.message_room())
        painter.drawText(rect, Qt.AlignmentFlag.AlignLeading | Qt.AlignmentFlag.AlignVCenter
                         | Qt.TextFlag.TextSingleLine, self.shown_message())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._tip(self.currentMessage())

    def _tip(self, message: str) -> None:
        self.setToolTip(message if message and self.shown_message() != message else "")
