"""A word-wrapped label that asks for the height its text takes at its width, up to `max_lines`
lines; a longer text is cut at its end with "…" there and is whole in the tooltip.

A wrapping QLabel tells layouts only a small minimum (its height for width is a hint), so in a
crowded pane (the query dock at 1024x700 with a run compared) it was given fewer lines than its
text and drawn cut; asking for all of them, two long run names made the dock, and so the window,
taller than a 700-pixel screen. `text()` is the text set; `shown_text()` the text drawn."""

from __future__ import annotations

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget


class WrappedLabel(QLabel):
    def __init__(self, parent: QWidget | None = None, max_lines: int = 5, **kwargs) -> None:
        super().__init__(parent, **kwargs)
        self.setWordWrap(True)
        self.max_lines = max_lines
        self._text = ""
        self._tip = ""

    def text(self) -> str:
        return self._text

    def shown_text(self) -> str:
        return super().text()

    def setText(self, text: str) -> None:
        self._text = text
        self._fit()

    def setToolTip(self, tip: str) -> None:
        self._tip = tip
        self._show_tip()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        room = self.max_lines * self.fontMetrics().lineSpacing() + 2 * self.margin()
        width = self.width()
        shown = self._text
        if shown and self._height(shown, width) > room:
            # The longest start of the text that fits in `max_lines` lines (a binary search).
            low, high = 0, len(shown)
            while low < high:
                middle = (low + high + 1) // 2
                if self._height(shown[:middle].rstrip() + "…", width) <= room:
                    low = middle
                else:
                    high = middle - 1
            shown = shown[:low].rstrip() + "…"
        if shown != super().text():
            super().setText(shown)
        self._show_tip()
        height = self.heightForWidth(width) if shown else 0
        if height > 0 and height != self.minimumHeight():
            self.setMinimumHeight(height)

    def _height(self, text: str, width: int) -> int:
        super().setText(text)
        return self.heightForWidth(width)

    def _show_tip(self) -> None:
        cut = super().text() != self._text
        super().setToolTip("\n\n".join(t for t in ((self._text if cut else ""), self._tip) if t))
