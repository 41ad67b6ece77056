"""A word-wrapped label that asks for the height its text takes at its width. A wrapping QLabel
tells layouts only a small minimum (its height for width is a hint), so in a crowded pane (the
query dock at 1024x700 with a run compared) it was given fewer lines than its text and drawn cut;
this one makes the others (the query table, the histogram's splitter) give way instead."""

from __future__ import annotations

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget


class WrappedLabel(QLabel):
    def __init__(self, parent: QWidget | None = None, **kwargs) -> None:
        super().__init__(parent, **kwargs)
        self.setWordWrap(True)

    def setText(self, text: str) -> None:
        super().setText(text)
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        height = self.heightForWidth(self.width()) if self.text() else 0
        if height > 0 and height != self.minimumHeight():
            self.setMinimumHeight(height)
