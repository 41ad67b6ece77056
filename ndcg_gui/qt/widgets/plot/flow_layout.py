"""A layout that places its widgets in a row and wraps them onto further rows when the row is too
narrow (Qt's "Flow Layout" example; Qt ships none). The plot's bar uses it so a narrow pane shows
every control on two lines instead of cutting some off or forcing the window wider."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget


class FlowLayout(QLayout):
    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self.setSpacing(spacing)

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._place(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._place(rect, move=True)

    def sizeHint(self) -> QSize:
        """One row of everything (what a wide pane shows)."""
        items = [i for i in self._items if not i.isEmpty()]
        width = sum(i.sizeHint().width() for i in items) + self.spacing() * max(len(items) - 1, 0)
        height = max((i.sizeHint().height() for i in items), default=0)
        m = self.contentsMargins()
        return QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    def minimumSize(self) -> QSize:
        """The widest single item: anything narrower would cut it."""
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def _place(self, rect: QRect, move: bool) -> int:
        """Lay the items out in lines within `rect` (each line's items centred on it); the height."""
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        lines: list[list[QLayoutItem]] = [[]]
        x = area.x()
        for item in (i for i in self._items if not i.isEmpty()):
            width = item.sizeHint().width()
            if x + width > area.right() + 1 and lines[-1]:
                lines.append([])
                x = area.x()
            lines[-1].append(item)
            x += width + self.spacing()
        y = area.y()
        for line in lines:
            height = max((i.sizeHint().height() for i in line), default=0)
            x = area.x()
            for item in line:
                hint = item.sizeHint()
                if move:
                    item.setGeometry(QRect(QPoint(x, y + (height - hint.height()) // 2), hint))
                x += hint.width() + self.spacing()
            y += height + self.spacing()
        return y - self.spacing() - rect.y() + m.bottom()
