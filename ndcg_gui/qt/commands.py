"""Undo steps. Each holds the list before and after (immutable, so cheap to keep) and asks the
document to install one or the other; the document does the recompute and the signalling."""

from __future__ import annotations

from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QTimer
from PySide6.QtGui import QUndoCommand

from ndcg_gui.core.ranked_list import RankedList

if TYPE_CHECKING:
    from ndcg_gui.qt.document import Document, Session


class SetListCommand(QUndoCommand):
    """Any edit of one query's list: grade, id, insert, delete, paste, sort, reset."""

    def __init__(self, doc: Document, query: str, before: RankedList, after: RankedList,
                 text: str) -> None:
        super().__init__(text)
        self._doc, self._query, self._before, self._after = doc, query, before, after

    def redo(self) -> None:
        self._doc._install(self._query, self._after)

    def undo(self) -> None:
        self._doc._install(self._query, self._before)


class MoveRowsCommand(QUndoCommand):
    """A block of rows moved: done and undone as row moves, so views keep selection and scroll."""

    def __init__(self, doc: Document, query: str, before: RankedList, after: RankedList,
                 move: tuple[int, int, int], text: str) -> None:
        super().__init__(text)
        self._doc, self._query, self._before, self._after = doc, query, before, after
        self._move = move

    def redo(self) -> None:
        self._doc._install(self._query, self._after, self._move)

    def undo(self) -> None:
        self._doc._install(self._query, self._before, inverse_move(*self._move))


class OpenCommand(QUndoCommand):
    """Opening a file (or starting a new list): the first step of the new document's first query.
    Undoing it brings back the document that was open, with its edits and undo history; the new
    one is dropped with its history, this step included, so there is nothing to redo (open the file
    again instead)."""

    _before: Session | None

    def __init__(self, doc: Document, before: Session, text: str) -> None:
        super().__init__(text)
        self._doc, self._before = doc, before

    def forget(self) -> None:
        """Another file was opened on top (one previous document is kept, not a chain of them),
        or another query of this one was edited (undoing the open would drop that edit unasked).
        Undoing this step then only removes it."""
        if self._before is not None:
            self._before = None
            self.setText(f"{self.text()} (the file before it is no longer kept)")

    def redo(self) -> None:
        pass  # pushed once the file is open: nothing to do

    def undo(self) -> None:
        if self._before is None:
            self.setObsolete(True)  # the stack drops it, and with it where the saved state was:
            stack = self._doc.undo_stack
            if stack.cleanIndex() == 1:  # saved right after this step: the file as opened, still
                QTimer.singleShot(0, lambda: shiboken6.isValid(stack) and stack.setClean())
            return
        self._doc._restore_session(self._before)


def inverse_move(first: int, count: int, destination: int) -> tuple[int, int, int]:
    """The move that puts rows back: in Qt's rule the block now starts at `at`."""
    at = destination if destination <= first else destination - count
    back = first if first < at else first + count
    return at, count, back
