"""A read-only table whose rows can be acted on: each action is a context-menu entry (right click,
or the menu key / Shift+F10 on the current row) and may have keys of its own; the first one given
as `default` is also what Enter and a double-click do. Every action works on the current row, so
the mouse and the keyboard mean the same row."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QContextMenuEvent, QKeySequence
from PySide6.QtWidgets import QMenu, QTableView

ENTER = (QKeySequence(Qt.Key.Key_Return), QKeySequence(Qt.Key.Key_Enter))


class ReportView(QTableView):
    def __init__(self) -> None:
        super().__init__()
        self._default: QAction | None = None
        self.doubleClicked.connect(self._double_clicked)

    def add_row_action(self, text: str, slot: Callable[[int], object], keys=(), default: bool = False,
                       tip: str = "") -> QAction:
        """`slot(row)` for the current row, from the context menu, `keys` and, for the default
        action, Enter and a double-click."""
        action = QAction(text, self)
        shortcuts = [QKeySequence(k) for k in keys] + (list(ENTER) if default else [])
        action.setShortcuts(shortcuts)
        action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)  # only while this table has focus
        if tip:
            action.setToolTip(tip)
            action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False: self._on_current(slot))
        self.addAction(action)
        if default and self._default is None:
            self._default = action
            font = action.font()
            font.setBold(True)  # as menus show the double-click's entry
            action.setFont(font)
        return action

    def _on_current(self, slot: Callable[[int], object]) -> None:
        index = self.currentIndex()
        if index.isValid():
            slot(index.row())

    def _double_clicked(self, index) -> None:
        if self._default is not None and index.isValid():
            self.setCurrentIndex(index)
            self._default.trigger()

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        if not self.actions():
            return
        if event.reason() == QContextMenuEvent.Reason.Mouse:
            index = self.indexAt(event.pos())  # (a mouse's menu comes from the viewport)
            if not index.isValid():
                return
            self.setCurrentIndex(index)
            at = event.globalPos()
        else:  # the menu key: below the current row, where the person is looking
            index = self.currentIndex()
            if not index.isValid():
                return
            rect = self.visualRect(index)
            at = self.viewport().mapToGlobal(QPoint(rect.left() + 8, rect.bottom()))
        self.menu().popup(at)

    def menu(self) -> QMenu:
        """The context menu of the current row (a new one each time: its actions are the view's)."""
        menu = QMenu(self)
        menu.addActions(self.actions())
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        return menu
