"""The box where a list is typed as grades (`3 2 3 0 1`, Enter makes it the list).

Ctrl+Z / Ctrl+Y belong to the box only while it has typing of its own to undo or redo; otherwise
they go to the window's one undo history, so Ctrl+Z right after Enter undoes the typed list and
not the box. The box is emptied when it has been used and when another file is opened: old text
there would read as the grades of the list on screen."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QLineEdit, QWidget

from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document

_UNDO_KEYS = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo)


class GradesBox(QLineEdit):
    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Short enough to show whole in the box's narrowest ("Type grades, e.g. 3 …" was cut).
        self.setPlaceholderText("Grades, e.g. 3 2 1")
        self.setToolTip("Type grades in ranked order, e.g. 3 2 3 0 1, and press Enter: a new list "
                        "(Ctrl+Z goes back)")
        document.changed.connect(self._follow)

    def used(self) -> None:
        """Its text became the list: emptied, with nothing left to undo in the box."""
        self.setText("")  # (setText, unlike clear(), also drops the box's own undo history)

    def _follow(self, changes: Changes) -> None:
        if changes.dataset and self.text():
            self.used()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            undo, redo = (event.matches(key) for key in _UNDO_KEYS)
            ctrl_y = event.keyCombination().toCombined() == QKeySequence("Ctrl+Y")[0].toCombined()
            if (undo and not self.isUndoAvailable()) or ((redo or ctrl_y) and not self.isRedoAvailable()):
                event.ignore()  # not the box's: the window's Undo / Redo shortcut takes it
                return False
        return super().event(event)
