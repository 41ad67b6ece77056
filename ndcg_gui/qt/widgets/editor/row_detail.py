"""The file's own columns of the current row (title, url…) in words under the ranked list: the
list's pane is as wide as its ids and figures, so a title column showed two letters ("So", "Bo")
at every window size, and widening the pane squeezed the plot and the tabs to a strip. Here the
texts wrap over up to three lines, whole in the tooltip (and in each cell's)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.widgets.editor.ranking_view import RankingView
from ndcg_gui.qt.widgets.wrapped_label import WrappedLabel

LINES = 3


class RowDetail(WrappedLabel):
    """Hidden while the list has no columns of its own; else the current row's (the first row's
    until one is current)."""

    def __init__(self, document: Document, view: RankingView) -> None:
        super().__init__(max_lines=LINES, textInteractionFlags=Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setObjectName("rowDetail")
        self.setAccessibleName("The current row's columns of the file")
        self._doc, self._view = document, view
        view.selectionModel().currentRowChanged.connect(self._show)
        document.changed.connect(self._show)
        self._show()

    def _show(self, *_args) -> None:
        lst = self._doc.current_list()
        if not lst.extras or not len(lst):
            self.setVisible(False)
            self.setText("")
            return
        row = self._view.current_row()
        row = row if 0 <= row < len(lst) else 0
        fields = " · ".join(f"{name}: {values[row]}" for name, values in lst.extras.items())
        self.setText(f"{row + 1}. {lst.docs[row]} — {fields}")
        self.setVisible(True)
