"""How a controller speaks to the person: a passing line in the status bar, a problem said where it
is seen, and the widget its dialogs belong to. Controllers get this, never the window."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtWidgets import QWidget


@dataclass(frozen=True)
class Feedback:
    parent: QWidget  # what dialogs are shown over (and the controllers' Qt parent)
    show_status: Callable[[str, int], None]  # (message, milliseconds)
    problem: Callable[[str], None]  # a refused action, said beside where it was tried

    def status(self, message: str, msecs: int = 5000) -> None:
        self.show_status(message, msecs)

    def note(self, message: str) -> None:
        """A passing status line (as long as `status` shows one)."""
        self.show_status(message, 5000)
