"""Beside the headline while a worked example is open: what the example is, each figure the
teaching material printed against the right one and why they differ, and the ways on (step by
step, an exercise, two gains side by side, the walk between two definitions)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QSize, QTimer, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextBrowser, QVBoxLayout, QWidget

from ndcg_gui.core.teaching.examples import WorkedExample, example_named
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.models.colours import Colours, current
from ndcg_gui.qt.widgets.scheme import FollowsScheme

LINKS = (("steps", "Step by step (F6)"), ("exercise", "Exercise (F7)"),
         ("gains", "Linear vs exponential gain"), ("walk", "Walk between definitions"))
WIDTH_CHARS = 58  # the note's width: a line of about this many characters


class ExampleNote(FollowsScheme, QFrame):
    """Says the worked example open, if any: `shown(bool)` whether there is one (the window shows
    or hides the note's place); `asked(name)`: a link was followed (one of `LINKS`' names)."""

    asked = Signal(str)
    shown = Signal(bool)

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._doc = document
        self.example: WorkedExample | None = None
        self.setObjectName("exampleNote")
        self.setFrameShape(QFrame.StyledPanel)
        self.setAutoFillBackground(True)
        # Scrolls within the headline's height and gives up width first: it never makes the window
        # wider or the headline taller (1024 x 700).
        self.label = QTextBrowser()
        self.label.setOpenLinks(False)
        self.label.setFrameShape(QFrame.NoFrame)
        self.label.anchorClicked.connect(lambda url: self.asked.emit(url.toString()))
        self.label.setAccessibleName("Worked example note")
        self.label.setTabChangesFocus(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 2, 2, 2)
        layout.addWidget(self.label)
        self.setMinimumWidth(self.fontMetrics().horizontalAdvance("n" * (WIDTH_CHARS // 3)))
        self.setMaximumWidth(self.fontMetrics().horizontalAdvance("n" * WIDTH_CHARS))
        self.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Ignored)
        self._pending = False
        document.changed.connect(self._follow)
        self._follow(Changes(dataset=True))
        self.follow_scheme()

    def restyle(self) -> None:
        """A note, not a figure: pale yellow (a dark olive in a dark window)."""
        colours = current()
        palette = self.palette()
        for role in (QPalette.Window, QPalette.Base):
            palette.setColor(role, QColor(colours.note))
        for role in (QPalette.Text, QPalette.WindowText):
            palette.setColor(role, QColor(colours.note_text))
        if palette != self.label.palette():
            self.setPalette(palette)
            self.label.setPalette(palette)
        if self.example is not None:
            self.refresh()

    def sizeHint(self) -> QSize:
        """As wide as it may be: the headline beside it gives up what it does not need."""
        return QSize(self.maximumWidth(), super().sizeHint().height())

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
        self.shown.emit(example is not None)
        if example is None:
            return
        own = self._doc.measure.per_query() == example.measure.per_query()
        self.label.setHtml(note_html(example, self._doc.report.differs_from_loaded, own, current()))
        self.setToolTip(example.note())


def note_html(example: WorkedExample, edited: bool = False, own_definition: bool = True,
              colours: Colours | None = None) -> str:
    colours = colours or current()
    rows = []
    for p in example.printed:
        mark = "✗ wrong" if p.wrong else "✓ right"
        colour = colours.down if p.wrong else colours.up
        rows.append(f"<li>Printed <b>{escape(p.what)} = {escape(p.printed)}</b>: "
                    f"<span style='color:{colour}'>{mark}</span>"
                    + (f", the right figure is <b>{p.right:.4f}</b>" if p.wrong else f" ({p.right:.4f})")
                    + f" — {escape(p.why)}.</li>")
    links = " · ".join(f"<a href='{name}'>{text}</a>" for name, text in LINKS)
    changed = ("<br><i>The list was edited since it opened: the headline's figures are the edited "
               "list's (Ctrl+Z goes back).</i>" if edited else "")
    if not own_definition:
        d = example.measure
        gain = d.describe().split(";")[0]
        changed += (f"<br><i>The headline's definition is not the example's ({gain}, k = {d.k}): "
                    f"Help ▸ Worked examples ▸ {escape(example.id)} opens it under its own.</i>")
    # (The ways on first: in view however little of the note the headline leaves room for.)
    return (f"<b>{escape(example.id)}: {escape(example.title)}</b><br>{links}{changed}"
            f"<ul style='margin:2px 0 2px -20px'>{''.join(rows)}</ul>{escape(example.about)}")
