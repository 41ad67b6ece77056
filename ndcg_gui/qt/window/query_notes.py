"""Edit ▸ Note on query… (and the query table's context menu): a note typed on the query on screen,
put in the document as one undo step (`Document.set_note`); and the notes written beside the run
when it is saved (`core/writing/query_notes.py`: `RUN.notes.tsv`, never over an input)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats.query_notes import notes_path
from ndcg_gui.core.writing.query_notes import write_notes
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.widgets import dialogs
from ndcg_gui.qt.window.feedback import Feedback


class QueryNotes(QObject):
    def __init__(self, document: Document, feedback: Feedback) -> None:
        super().__init__(feedback.parent)
        self.document = document
        self._status, self._parent = feedback.status, feedback.parent

    def edit(self) -> None:
        """Ask for the note on the query on screen; an empty one removes it."""
        doc = self.document
        query = doc.current_query
        note, accepted = dialogs.ask_note(self._parent, query, doc.note(query))
        if accepted:
            doc.set_note(query, note)

    def save_beside(self, run: Path | None) -> str | None:
        """Write the notes beside `run` (None: nowhere to keep them); the problem in one line, or None."""
        doc = self.document
        if run is None or str(run).startswith(("/dev/", "/proc/")):
            return None  # (a pipe or a device: nothing beside it to keep notes in)
        if not doc.state.notes and not doc.state.file.saved_notes and not notes_path(run).exists():
            return None
        compared = [r.path for r in doc.state.comparing.runs]
        try:
            write_notes(notes_path(run), doc.state.notes, [run, doc.path, doc.qrels_path, *compared])
        except (InputError, OSError) as err:
            return f"notes not saved: {err}"
        doc.mark_notes_saved()
        return None

    def save(self) -> bool:
        """Only the notes changed: write them beside the run, the run itself left as it is."""
        problem = self.save_beside(self.document.path)
        if problem is not None:
            dialogs.show_error(self._parent, "Could not save the notes", problem)
            return False
        self._status(f"Saved the notes on queries to {notes_path(self.document.path).name}", 5000)
        return True
