"""File ▸ Open segments…: each query's segment read from a `query<TAB>segment` file in a worker
(`core.formats.query_map`, bounded as a run's read is: a pipe once, a named pipe nobody writes to
refused after a wait), then put in the document as one undo step; a bad line is said in one line,
naming the file and the line. The query panel then filters by segment (`QueryPanel.set_segments`)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog

from ndcg_gui.core.errors import InputError
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.widgets import dialogs
from ndcg_gui.qt.window.feedback import Feedback


def _read(path: Path):
    """The file's segments, or the `InputError` saying what is wrong with it (a value: the runner
    raises what a worker raises, as a bug)."""
    from ndcg_gui.core.formats.query_map import read_query_map  # (in the worker)

    try:
        return read_query_map(path, "segment")
    except InputError as err:
        return err


class SegmentsFlow(QObject):
    def __init__(self, document: Document, feedback: Feedback) -> None:
        super().__init__(feedback.parent)
        self.document = document
        self._status, self._parent = feedback.status, feedback.parent
        self.reading: Path | None = None  # the file being read, if any
        self.problem: str | None = None  # the last read's failure (tests)

    def open_dialog(self) -> None:
        path = self.document.path
        start = str(path.parent) if path is not None else str(Path.home())
        chosen, _ = QFileDialog.getOpenFileName(self._parent, "Open segments (query<TAB>segment)", start,
                                                "Segments (*.tsv *.txt);;All files (*)")
        if chosen:
            self.open(chosen)

    def open(self, path: str | Path) -> None:
        """Read `path` in a worker; its segments become the document's when it lands."""
        path = Path(path)
        self.reading, self.problem = path, None
        self.document.runner.run("read segments", lambda: _read(path),
                                 lambda result, error: self._landed(path, result, error))

    def _landed(self, path: Path, segments, error: BaseException | None) -> None:
        if self.reading != path:  # (another file asked for since)
            return
        self.reading = None
        if error is not None:  # (a bug: the runner raises it where the application reports it)
            return
        if isinstance(segments, InputError):
            self.problem = str(segments)
            dialogs.show_error(self._parent, "Could not read the segments", self.problem)
            return
        before = self.document.state.segments
        self.document.set_segments(segments)
        names = len(set(segments.values.values()))
        replaced = f", in place of {before.origin}'s" if before is not None else ""
        self._status(f"{names:,} segment{'' if names == 1 else 's'} read from {segments.origin}{replaced}",
                     8000)
