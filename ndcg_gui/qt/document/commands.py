"""The undo step: the document's state before and after (immutable `Workspace`s, so cheap to keep)
and which query to show. Every change a person makes is one of these: an edit, a definition change,
opening a file."""

from __future__ import annotations

import weakref
from collections.abc import Callable

from PySide6.QtGui import QUndoCommand

from ndcg_gui.core.lists.edits import Move
from ndcg_gui.core.state.workspace import Workspace

# The document's one way to change: install a state, show a query (None: keep), announce a move.
Show = Callable[[Workspace, str | None, Move | None], None]

K_CHANGE = 1  # merge id: spinning k from 10 to 15 is one undo step, not five


class StepCommand(QUndoCommand):
    def __init__(self, show: Show, before: Workspace, after: Workspace, text: str,
                 show_before: str | None, show_after: str | None, move: Move | None = None,
                 merge: int = -1) -> None:
        super().__init__(text)
        # Weakly: the document owns its undo stack, which owns this step; a strong reference back
        # would make a cycle that the garbage collector breaks in the wrong order (a crash).
        self._install = weakref.WeakMethod(show)
        self.before, self.after = before, after
        self._show = (show_before, show_after)
        self._move = move
        self._merge = merge

    def redo(self) -> None:
        if (show := self._install()) is not None:
            show(self.after, self._show[1], self._move)

    def undo(self) -> None:
        if (show := self._install()) is not None:
            show(self.before, self._show[0], None if self._move is None else inverse_move(*self._move))

    def id(self) -> int:
        return self._merge

    def mergeWith(self, other: QUndoCommand) -> bool:
        if other.id() != self._merge or not isinstance(other, StepCommand):
            return False
        self.after = other.after
        self.setText(other.text())
        if self.after.measure == self.before.measure:
            self.setObsolete(True)  # back where it started: nothing to undo
        return True


def inverse_move(first: int, count: int, destination: int) -> Move:
    """The move that puts rows back: in Qt's rule the block now starts at `at`."""
    at = destination if destination <= first else destination - count
    back = first if first < at else first + count
    return at, count, back
