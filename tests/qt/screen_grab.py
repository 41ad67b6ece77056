"""What a window shows, as its backing store holds it (not painted anew), once every repaint Qt
was asked for has been delivered: the check that a partial repaint draws what a whole one does."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QWidget


class _Deliveries(QObject):
    """Counts the update requests and paint events the application delivers."""

    def __init__(self) -> None:
        super().__init__()
        self.updates = self.paints = 0

    def eventFilter(self, _watched, event) -> bool:
        if event.type() == QEvent.Type.UpdateRequest:
            self.updates += 1
        elif event.type() == QEvent.Type.Paint:
            self.paints += 1
        return False


class Screen:
    def __init__(self, window: QWidget) -> None:
        self.window = window

    def settle(self) -> None:
        """Until every repaint asked for is on screen: events are processed in rounds until two
        rounds in a row deliver no update request. Qt delivers a window's repaint as an
        UpdateRequest, QWindow.requestUpdate's timer after it is asked for; the tests set that
        timer to 0 ms (QT_QPA_UPDATE_IDLE_TIME, tests/conftest.py), so a repaint asked for in one
        round comes in the next. (Asking for one ourselves repaints the whole window: a partial
        repaint would go unchecked.)"""
        app = QApplication.instance()
        seen = _Deliveries()
        app.installEventFilter(seen)
        try:
            quiet = 0
            for _ in range(100):
                seen.updates = 0
                app.sendPostedEvents()
                app.processEvents()
                quiet = quiet + 1 if seen.updates == 0 else 0
                if quiet == 2:
                    return
            raise AssertionError("the window was still asking for repaints after 100 rounds")
        finally:
            app.removeEventFilter(seen)

    def grab(self, widget: QWidget) -> QImage:
        """`widget` as the window's backing store holds it, once settled."""
        self.settle()
        image = QApplication.primaryScreen().grabWindow(self.window.winId()).toImage()
        return image.copy(widget.rect().translated(widget.mapTo(self.window, QPoint(0, 0))))
