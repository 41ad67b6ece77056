""""I only have another tool's mean": a box under the walk between two definitions where a person
pastes "0.4127 from ranx" and is told which presets give that figure on the open run, and at which
k (`core.analysis.which_preset`), to the decimals it was written with. The run as loaded is
asked about (the other tool scored the file, not the edits made here).

A big run is scored off the GUI thread (the document's `Runner`); an answer overtaken by another
question or another file is dropped."""

from __future__ import annotations

import functools

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QScrollArea, QVBoxLayout, QWidget

from ndcg_gui.core.errors import InputError
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document

# From this many rows (run + qrels) the presets are scored in the background: every preset at
# six cut-offs is more than a frame's work past it.
BACKGROUND_ROWS = 20_000


def _work(dataset, text: str, k: int) -> str:
    from ndcg_gui.core.analysis.which_preset import COMMON_K, answer, frames_of, presets_giving_figure

    figure = read(text)
    run, qrels = frames_of(dataset)
    return answer(figure, presets_giving_figure(figure, run, qrels, (k, *COMMON_K)))


def read(text: str):
    from ndcg_gui.core.analysis.which_preset import read_figure

    return read_figure(text)


class WhichPresetBox(QWidget):
    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._doc = document
        self._ticket = 0
        self.edit = QLineEdit()
        self.edit.setPlaceholderText("e.g. 0.4127 from ranx, then Enter")
        self.edit.setAccessibleName("Another tool's mean")
        self.edit.setToolTip("A mean NDCG another tool gave for this run: Enter names the presets (and "
                             "the k) that give it, to the decimals you wrote")
        self.edit.returnPressed.connect(self.ask)
        self.answer = QLabel(wordWrap=True)
        self.answer.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel("Only have another tool's mean?"))
        row.addWidget(self.edit, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.answer)
        document.changed.connect(self._follow)

    def _follow(self, changes: Changes) -> None:
        if changes.dataset and self.answer.text():
            self._ticket += 1  # (an answer under way is of the file before)
            self.answer.setText("Another file is open: Enter to ask again.")

    def ask(self) -> None:
        text = self.edit.text()
        self._ticket += 1
        try:
            read(text)
        except InputError as err:
            self.answer.setText(f"⚠ {err}")
            return
        doc = self._doc
        if not doc.dataset.in_memory:
            self._say("Not asked of a run scored by DuckDB where it lies (too big to load): every "
                      "preset would be a scan of the whole file.")
            return
        work = functools.partial(_work, doc.dataset, text, doc.k)
        if doc.state.size() < BACKGROUND_ROWS:
            self._say(work())
            return
        self._say("Scoring every preset on this run…")
        doc.runner.run("which preset", work, functools.partial(self._landed, self._ticket))

    def _landed(self, ticket: int, said: str | None, error: BaseException | None) -> None:
        if ticket == self._ticket:
            self._say(said if error is None else "⚠ The presets could not be scored.")

    def _say(self, text: str) -> None:
        """The answer, scrolled into view when the tab scrolls (a short window), once laid out."""
        self.answer.setText(text)
        QTimer.singleShot(0, self, self._into_view)

    def _into_view(self) -> None:
        area = self.parentWidget()
        while area is not None and not isinstance(area, QScrollArea):
            area = area.parentWidget()
        if area is not None:
            area.ensureWidgetVisible(self.answer, 0, 0)
            area.horizontalScrollBar().setValue(0)  # (its lines begin at the left)
