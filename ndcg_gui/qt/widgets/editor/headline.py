"""The figures that matter at a glance: NDCG@k, DCG@k, IDCG@k, the k spin box, the definition in
use and the warnings that qualify the figures. Shows the document's `summary`; computes nothing."""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, QSize, Qt
from PySide6.QtGui import QPalette, QResizeEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from ndcg_gui.core.ndcg.measure import MAX_K
from ndcg_gui.core.ndcg.presets import preset_name
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.models.colours import current
from ndcg_gui.qt.widgets.editor.caveats import NOTE, WARNING, CaveatsLabel
from ndcg_gui.qt.widgets.editor.definition_panel import DefinitionPanel
from ndcg_gui.qt.widgets.scheme import FollowsScheme, set_colour
from ndcg_gui.qt.widgets.wrapped_label import WrappedLabel


def _figure(object_name: str) -> QLabel:
    label = QLabel()
    label.setObjectName(object_name)
    label.setTextFormat(Qt.RichText)
    label.setTextInteractionFlags(Qt.TextSelectableByMouse)
    return label


def _set_text(label: QLabel, text: str) -> None:
    if label.text() != text:  # a rich-text label lays itself out again on every setText
        label.setText(text)


CHANGE_TIP = ("NDCG@k of the list as loaded, and how the edits changed it; where documents are "
              "unjudged, the range NDCG@k could take once they are judged; where tied scores cross "
              "the cut-off, the range over every order of them (another tool's tie rule gives one of those)")
OVERLAP_TIP = ("Without judgments the runs compared are told apart by how they rank this query: "
               "rank-biased overlap (RBO, 1 the same ranking), Jaccard@k of their first k, Kendall's τ")
NO_JUDGMENTS_TIP = ("No judgments for this query: there is no NDCG to show (a 0 would read as a "
                    "figure). Open the run with its qrels (File ▸ Open run with qrels…), or type "
                    "grades in the list's Grade column, to score it.")


NO_QRELS_OF_QUERY_TIP = ("No judgments for this query: the qrels judge none of its documents, so "
                         "there is no NDCG to show (the query panel's mean leaves it out). Type grades "
                         "in the list's Grade column to score it.")


def has_judgments(lst) -> bool:
    """Whether a list has anything to score NDCG by: a graded document, or judged ones it missed
    (an empty list has its NDCG, 0: nothing retrieved, and how the edits changed it)."""
    return not len(lst) or bool(lst.judged.any()) or bool(lst.unretrieved)


class Headline(FollowsScheme, QFrame):
    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._doc = document
        self.setObjectName("headline")
        self.setAutoFillBackground(True)
        self.setFrameShape(QFrame.NoFrame)
        self.ndcg = _figure("ndcgFigure")
        self.dcg = _figure("dcgFigure")
        self.idcg = _figure("idcgFigure")
        self.k = QSpinBox()
        self.k.setRange(1, MAX_K)
        self.k.setPrefix("k = ")
        self.k.setToolTip("Cut-off: NDCG@k counts the top k ranks (the ideal is cut at k too)")
        self.k.setKeyboardTracking(False)
        self.k.valueChanged.connect(lambda v: self._doc.set_measure(k=v))
        self.definition = DefinitionPanel(document)
        self.describe = QLabel()
        self.describe.setObjectName("definitionText")
        self.describe.setWordWrap(True)
        self.change = _figure("changeFigure")
        self.change.setToolTip(CHANGE_TIP)
        self.warnings = CaveatsLabel()
        self.warnings.setObjectName("warnings")
        # The note typed on the query on screen (Edit ▸ Note on query…), shown only when there is one.
        self.note = WrappedLabel(max_lines=2)
        self.note.setObjectName("queryNote")
        self.note.setTextFormat(Qt.PlainText)
        self.note.hide()

        figures = QHBoxLayout()
        figures.addWidget(self.ndcg)
        figures.addSpacing(24)
        figures.addWidget(self.dcg)
        figures.addSpacing(16)
        figures.addWidget(self.idcg)
        figures.addSpacing(24)
        figures.addWidget(self.k)  # (before the change figure: it stays put when that appears)
        figures.addSpacing(16)
        figures.addWidget(self.change)
        figures.addSpacing(16)
        figures.addWidget(self.warnings, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(4)
        layout.addLayout(figures)
        layout.addWidget(self.definition)
        layout.addWidget(self.describe)
        layout.addWidget(self.note)

        self._kept: tuple[object, str] | None = None  # the definition kept from the last session
        self._overlap = None  # the query's overlap of the runs compared, said instead of NDCG
        document.changed.connect(self.refresh)
        self.follow_scheme()

    def restyle(self) -> None:
        colours = current()
        set_colour(self, QPalette.ColorRole.Window, colours.headline)
        set_colour(self.describe, QPalette.ColorRole.WindowText, colours.muted)
        self.refresh()

    def sizeHint(self) -> QSize:
        """As tall as the wrapped definition needs at the width the headline has: the top dock
        area asks sizeHint, not heightForWidth, and at the hint's narrower width the definition
        wrapped to a second line it does not need (the side-by-side lists lost that row)."""
        hint = super().sizeHint()
        layout = self.layout()
        if self.width() > hint.width() and layout is not None and layout.hasHeightForWidth():
            hint.setHeight(layout.totalHeightForWidth(self.width()))
        return hint

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.updateGeometry()  # (the hint's height follows the width)

    def set_kept(self, note: str) -> None:
        """The definition on screen now came from the last session: `note` says what of it differs
        from a first session's, among the caveats until the person sets another ("": nothing)."""
        self._kept = (self._definition(), note) if note else None
        self.refresh()

    def show_overlap(self, of) -> None:
        """`of(query)`: how differently the runs compared rank the query (a line; None: not
        compared), shown where NDCG would be when the list has no judgments."""
        self._overlap = of
        self.refresh()

    def _definition(self) -> object:
        return self._doc.measure.per_query()

    def _change_text(self) -> str:
        report = self._doc.report
        parts = []
        if report.differs_from_loaded:
            now, then = report.summary.ndcg, report.baseline_summary.ndcg
            delta = now - then
            colours = current()
            colour = colours.up if delta > 0 else colours.down if delta < 0 else colours.muted
            arrow = "▲" if delta > 0 else "▼" if delta < 0 else "="
            parts.append(f"<span style='color:{colour}'>{arrow} {delta:+.4f}</span> vs as loaded "
                         f"({then:.4f})")
        if report.tie_bounds is not None:  # tools that order tied scores otherwise say one of these
            low, high = report.tie_bounds
            parts.append(f"any order of ties: [{low:.4f}, {high:.4f}]")
        if report.unjudged_range:
            low, high, exact = report.bounds
            parts.append(f"if judged: [{low:.4f}, {high:.4f}]" + ("" if exact else " (bound)"))
        return "<br>".join(parts)

    def _overlap_text(self) -> str:
        said = self._overlap(self._doc.current_query) if self._overlap is not None else None
        return said or ""

    def refresh(self, _changes: object = None) -> None:
        s = self._doc.summary
        if self.k.value() != s.k:
            with QSignalBlocker(self.k):
                self.k.setValue(s.k)
        judged = has_judgments(self._doc.current_list())
        if judged:
            _set_text(self.ndcg, f"<span style='font-size:15pt'>NDCG@{s.k}</span> "
                              f"<span style='font-size:22pt; font-weight:600'>{s.ndcg:.4f}</span>")
        else:  # (every figure would be 0, meaning "unknown": said in words)
            _set_text(self.ndcg, f"<span style='font-size:15pt'>NDCG@{s.k} — no judgments</span>")
        self.ndcg.setToolTip("" if judged else NO_JUDGMENTS_TIP if self._doc.qrels_path is None
                             else NO_QRELS_OF_QUERY_TIP)
        self.dcg.setVisible(judged)
        self.idcg.setVisible(judged)
        _set_text(self.dcg, f"DCG@{s.k} <b>{s.dcg:.4f}</b>")
        _set_text(self.idcg, f"IDCG@{s.k} <b>{s.idcg:.4f}</b>")
        _set_text(self.change, self._change_text() if judged else self._overlap_text())
        self.change.setToolTip(CHANGE_TIP if judged else OVERLAP_TIP)
        preset = preset_name(self._doc.measure)  # (its definition with another tie rule is not it)
        has_scores = self._doc.current_list().scores is not None
        ties = f"; tied scores: {self._doc.measure.ties}" if has_scores else ""
        described = self._doc.measure.describe()
        if not self._doc.current_list().has_pool:  # (no qrels: the list's grades are every judgment)
            described = described.replace("ideal from all judged documents",
                                          "ideal from all judged documents (no qrels: the list's own)")
        self.describe.setText(
            ("Definition: " if preset is None else f"Definition ({preset}): ") + described + ties
        )
        if self._kept is not None and self._kept[0] != self._definition():
            self._kept = None  # the person has set their own since
        kept = [(f"ⓘ {self._kept[1]}", NOTE)] if self._kept is not None else []
        # (without judgments the caveats are of figures not shown: IDCG = 0, unjudged as gain 0)
        warnings = [(f"⚠ {w}", WARNING) for w in s.warnings] if judged else []
        self.warnings.set_caveats(warnings + kept + ([(n, NOTE) for n in s.notes] if judged else []))
        note = self._doc.note(self._doc.current_query)
        said = f"Note on query {self._doc.current_query}: {note}" if note else ""
        if self.note.text() != said:
            self.note.setText(said)
            self.note.setToolTip(said)
            self.note.setVisible(bool(note))
