"""The Checks tab: what in the open file makes tools disagree (`core.analysis.checks`, worked out
by `qt.document.input_checks.InputChecks`), one row per check with its count and why it matters,
its examples below it. A check whose cases would change a figure is marked ⚠ (and counted in the
tab's title, so it is seen without opening the tab). Enter or a double-click on an example shows
its query; on a check, opens or closes its examples.

Widgets only: the findings are the document's; the one thing asked of the document is a query."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.document.input_checks import InputChecks

HEADERS = ["Check", "Found"]
QUERY = Qt.ItemDataRole.UserRole  # an example's query
WHY = Qt.ItemDataRole.UserRole + 1  # a check's reason to matter
TITLE = "Checks"


class ChecksPanel(QWidget):
    def __init__(self, document: Document, checks: InputChecks, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._doc, self._checks = document, checks
        self.note = QLabel(wordWrap=True)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(HEADERS)
        self.tree.setAccessibleName("Input checks")
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.tree.setWordWrap(True)
        self.tree.setUniformRowHeights(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.setExpandsOnDoubleClick(False)  # (a double-click does it, once: _double_clicked)
        header = self.tree.header()  # (the names whole, the count beside them: a narrow pane fits)
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        # Why the current check matters, below the tree: it wraps, where a column would be cut.
        self.why = QLabel(wordWrap=True)
        self.why.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.tree.currentItemChanged.connect(self._show_why)
        self.tree.itemDoubleClicked.connect(self._double_clicked)
        show = QAction("Show this query", self.tree)
        show.setShortcuts([QKeySequence(Qt.Key.Key_Return), QKeySequence(Qt.Key.Key_Enter)])
        show.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)  # only while the tree has focus
        show.triggered.connect(self._enter)
        self.tree.addAction(show)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        layout.addWidget(self.note)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.why)
        document.changed.connect(self._follow)
        self.refresh()

    def _follow(self, changes: Changes) -> None:
        if changes.checks:
            self.refresh()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._checks.ensure()  # (the list the window started with is checked when first looked at)

    # ---- what it shows ----------------------------------------------------------------------
    def refresh(self) -> None:
        checks, findings = self._checks, self._checks.findings
        self.tree.clear()
        if findings is None:
            self.note.setText("Checking the file…" if checks.pending else
                              "Not checked: the file is scored by DuckDB where it lies (too big to load)."
                              if not self._checks.document.dataset.in_memory else "Nothing checked yet.")
            self._set_title(TITLE)
            return
        changing = [f for f in findings if f.count and f.changes_figure]
        # What would change a figure first, then what was found, then the checks that found nothing.
        for finding in sorted(findings, key=lambda f: (not (f.count and f.changes_figure), not f.count)):
            mark = "⚠" if finding.count and finding.changes_figure else "✓" if not finding.count else "·"
            item = QTreeWidgetItem([f"{mark} {finding.name}", str(finding.count)])
            item.setData(0, WHY, finding.why)
            item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            item.setToolTip(0, "Would change a figure: tools disagree on this input" if mark == "⚠"
                            else "Nothing found" if mark == "✓" else "Found, but changes no figure")
            if mark == "⚠":
                font = item.font(0)
                font.setBold(True)
                item.setFont(0, font)
            for i, example in enumerate(finding.examples):
                child = QTreeWidgetItem([example])
                child.setFirstColumnSpanned(True)
                if i < len(finding.queries):
                    child.setData(0, QUERY, finding.queries[i])
                    child.setToolTip(0, f"Enter or double-click: show query {finding.queries[i]}")
                item.addChild(child)
            if finding.count > len(finding.examples):
                more = QTreeWidgetItem([f"… and {finding.count - len(finding.examples)} more"])
                more.setFirstColumnSpanned(True)
                more.setFlags(Qt.ItemFlag.ItemIsEnabled)
                item.addChild(more)
            self.tree.addTopLevelItem(item)
            item.setFirstColumnSpanned(False)
            item.setExpanded(mark == "⚠")
        self.tree.setCurrentItem(self.tree.topLevelItem(0))
        source = "the file as written" if checks.as_written else "the lists as loaded"
        k = f" at k = {checks.k}" if checks.k is not None else ""
        if changing:
            n = len(changing)
            said = (f"<b>⚠ {n} check{'s' if n > 1 else ''} found what would change a figure</b> "
                    f"(tools disagree on it) in {source}{k}. Enter or double-click an example: its query.")
        else:
            said = f"<b>Nothing found that would change a figure</b> in {source}{k}."
        if checks.pending:
            said += " Checking again…"
        self.note.setText(said)
        self._set_title(f"{TITLE} ⚠{len(changing)}" if changing else TITLE)

    def _show_why(self, item: QTreeWidgetItem | None, _previous: object = None) -> None:
        while item is not None and item.parent() is not None:
            item = item.parent()
        why = item.data(0, WHY) if item is not None else None
        self.why.setText(f"{item.text(0)[2:]}: {why}" if why else "")

    def _set_title(self, text: str) -> None:
        """The tab's title, when the panel is one: the count is seen from any tab."""
        parent = self.parentWidget()
        while parent is not None and not isinstance(parent, QTabWidget):
            parent = parent.parentWidget()
        if parent is not None:
            index = parent.indexOf(self)
            if index >= 0 and parent.tabText(index) != text:
                parent.setTabText(index, text)

    # ---- what the person asks --------------------------------------------------------------------
    def _enter(self) -> None:
        item = self.tree.currentItem()
        if item is not None:
            self._double_clicked(item)

    def _double_clicked(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        query = item.data(0, QUERY)
        if query is None:
            if item.childCount():
                item.setExpanded(not item.isExpanded())
            return
        if not self._doc.has_query(str(query)):
            self.note.setText(f"Query {query} is not among the open file's queries (the loader left it "
                              "out, or the run has no list for it).")
            return
        self._doc.set_current_query(str(query))
