"""Editing intent from the ranked list's keys, menus and the quick-entry box, turned into document
edits: which rows are meant (the view's selection), and which rows to select afterwards (the
core edit says). The rules of each edit are the core's (`core.edits`, `core.clipboard`)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QToolTip

from ndcg_gui.core.lists import edits
from ndcg_gui.core.lists.clipboard import parse_quick_list, rows_as_tsv
from ndcg_gui.core.lists.edits import Edit, EditRefused
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.widgets import dialogs
from ndcg_gui.qt.widgets.editor.grades_box import GradesBox
from ndcg_gui.qt.widgets.editor.ranking_view import RankingView
from ndcg_gui.qt.window.feedback import Feedback

Say = Callable[[str], None]


class Editing(QObject):
    def __init__(self, document: Document, view: RankingView, quick_entry: GradesBox, feedback: Feedback,
                 may_replace: Callable[[str], bool] = lambda _what: True) -> None:
        """`feedback.problem` shows a refused edit beside the list; `may_replace(what)` asks about
        unsaved changes before the document is replaced."""
        super().__init__(feedback.parent)
        self.document, self.view, self.quick_entry = document, view, quick_entry
        self._problem, self._note, self._may_replace = feedback.problem, feedback.note, may_replace

    def _select(self, edit: Edit | None) -> None:
        if edit is not None and edit.select is not None:
            self.view.select_rows(*edit.select)
            self.view.scrollTo(self.view.model().index(edit.select[0], 0))

    def move_selection(self, delta: int) -> bool:
        """Ctrl+Up (-1) / Ctrl+Down (+1): the selected rows one place; they stay selected."""
        current = self.view.current_row()
        rows = self.view.selected_rows() or ([current] if current >= 0 else [])
        edit = self.document.step_rows(rows, delta)
        self._select(edit)
        return edit is not None

    def move_to_rank(self) -> bool:
        """Move to rank… (the keyboard's long drag): the selected rows, the first of them to a rank
        the person types."""
        current = self.view.current_row()
        rows = self.view.selected_rows() or ([current] if current >= 0 else [])
        lst = self.document.current_list()
        if not rows:
            return False
        what = str(lst.docs[rows[0]]) if len(rows) == 1 else f"{len(rows)} rows"
        rank, ok = dialogs.ask_number(self.view, "Move to rank", f"Move {what} to rank (1–{len(lst)}):",
                                      rows[0] + 1, 1, len(lst))
        if not ok:
            return False
        edit = self.document.apply(edits.move_to_rank(lst, rows, rank))
        self._select(edit)
        return edit is not None

    def add_row(self) -> None:
        current = self.view.current_row()
        row = current + 1 if current >= 0 else len(self.document.current_list())
        self._select(self.document.insert_rows(row, None, [0.0], "Add row"))

    def delete_rows(self) -> None:
        self.document.remove_rows(self.view.selected_rows())

    def copy_rows(self) -> None:
        rows = self.view.selected_rows() or None
        QGuiApplication.clipboard().setText(rows_as_tsv(self.document.current_list(), rows))

    def paste_rows(self, text: str | None = None) -> None:
        """Document/grade pairs are inserted above the current row; a column of grades overwrites
        grades from the current row down (new documents past the end)."""
        text = QGuiApplication.clipboard().text() if text is None else text
        try:
            self._select(self.document.paste(self.view.current_row(), text))
        except (ValueError, EditRefused) as err:
            self._problem(str(err))

    def reset(self) -> None:
        if self.document.reset_to_original() is None:
            self._note("The list is as it was loaded: nothing to reset")

    def apply_quick_list(self) -> None:
        try:
            grades = parse_quick_list(self.quick_entry.text())
        except ValueError as err:
            self._problem(str(err))
            entry = self.quick_entry  # said where it was typed
            QToolTip.showText(entry.mapToGlobal(entry.rect().bottomLeft()), f"⚠ {err}", entry)
            return
        doc = self.document
        # A typed list is a new, untitled document: its own list as loaded, never saved over a
        # file; what was open stays one Ctrl+Z away.
        if doc.path is not None and not self._may_replace("starting a new list"):
            return
        doc.new_from_grades(grades)
        self._note(f"New list of {len(grades)} documents (Ctrl+Z to undo)")
        # The keyboard goes to the list just made: Ctrl+Z there undoes it, arrows and Ctrl+Up/Down
        # work on its rows (the box would have taken Ctrl+Z as "undo my typing").
        self.quick_entry.used()
        if self.view.model().rowCount():
            self.view.select_rows(0, 1)
        self.view.setFocus()
