"""Beside the headline while a worked example is open: what the example is, each figure the
teaching material printed against the right one and why they differ, and the ways on (step by
step, an exercise, two gains side by side, the walk between two definitions)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from ndcg_gui.core.teaching.examples import WorkedExample, example_named
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document

LINKS = (("steps", "Step by step (F6)"), ("exercise", "Exercise (F7)"),
         ("gains", "Linear vs exponential gain"), ("walk", "Walk between definitions"))
WIDTH_CHARS = 58  # the note's width: a line of about this many characters


class ExampleNote(QFrame):
    """Hidden unless the document is a worked example. `asked(name)`: a link was followed
    (one of `LINKS`' names)."""

    asked = Signal(str)

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._doc = document
        self.example: WorkedExample | None = None
        self.setObjectName("exampleNote")
        self.setFrameShape(QFrame.StyledPanel)
        self.setAutoFillBackground(True)
        palette = self.palette()
        palette.setColor(QPalette.Window, QColor("#fff8db"))  # (a note, not a figure: pale yellow)
        palette.setColor(QPalette.WindowText, QColor("#222"))
        self.setPalette(palette)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.RichText)
        self.label.setTextInteractionFlags(Qt.TextBrowserInteraction)
        self.label.setOpenExternalLinks(False)
        self.label.linkActivated.connect(self.asked.emit)
        self.label.setAccessibleName("Worked example note")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.label)
        self.setFixedWidth(self.fontMetrics().horizontalAdvance("n" * WIDTH_CHARS))
        self.hide()
        self._pending = False
        document.changed.connect(self._follow)
        self._follow(Changes(dataset=True))

    def _follow(self, _changes: Changes) -> None:
        """After the events of the change: the examples are read when first needed, after the
        window's first paint (it opens on E1)."""
        if not self._pending:
            self._pending = True
            QTimer.singleShot(0, self, self.refresh)

    def refresh(self) -> None:
        self._pending = False
        example = example_named(self._doc.display_name)
        self.example = example
        self.setVisible(example is not None)
        if example is None:
            return
        own = self._doc.state.definition == example.definition
        self.label.setText(note_html(example, self._doc.report.differs_from_loaded, own))
        self.setToolTip(example.note())


def note_html(example: WorkedExample, edited: bool = False, own_definition: bool = True) -> str:
    rows = []
    for p in example.printed:
        mark = "✗ wrong" if p.wrong else "✓ right"
        colour = "#c92a2a" if p.wrong else "#2b8a3e"
        rows.append(f"<li>Printed <b>{escape(p.what)} = {escape(p.printed)}</b>: "
                    f"<span style='color:{colour}'>{mark}</span>"
                    + (f", the right figure is <b>{p.right:.4f}</b>" if p.wrong else f" ({p.right:.4f})")
                    + f" — {escape(p.why)}.</li>")
    links = " · ".join(f"<a href='{name}'>{text}</a>" for name, text in LINKS)
    changed = ("<br><i>The list was edited since it opened: the headline's figures are the edited "
               "list's (Ctrl+Z goes back).</i>" if edited else "")
    if not own_definition:
        d = example.definition
        gain = d.config.describe().split(";")[0]
        changed += (f"<br><i>The headline's definition is not the example's ({gain}, k = {d.k}): "
                    f"Help ▸ Worked examples ▸ {escape(example.id)} opens it under its own.</i>")
    return (f"<b>{escape(example.id)}: {escape(example.title)}</b> — {escape(example.about)}"
            f"<ul style='margin:2px 0 2px -20px'>{''.join(rows)}</ul>{links}{changed}")
