"""The query browser: the query panel kept in step with the document and its per-query scores.
The panel says which query the person picked; the document opens it; the panel follows the query
on screen and the scores of every edit."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject

from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.document.query_scores import QueryScores
from ndcg_gui.qt.widgets.query_panel import QueryPanel


class QueryBrowser(QObject):
    def __init__(self, document: Document, scores: QueryScores, panel: QueryPanel,
                 status: Callable[[str, int], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document, self.scores, self.panel = document, scores, panel
        self._status = status
        scores.changed.connect(self._show_scores)
        panel.querySelected.connect(self._open_query)
        document.changed.connect(self._follow)
        self._show_scores()
        panel.set_current_query(document.current_query)

    def _follow(self, changes: Changes) -> None:
        if changes.query or changes.dataset:
            self.panel.set_current_query(self.document.current_query)

    def _show_scores(self) -> None:
        doc = self.document
        self.panel.set_unscored(len(doc.dataset.unjudged_queries()))
        self.panel.set_result(self.scores.result, doc.k)
        self.panel.set_edited(doc.edited_queries())
        self.panel.set_current_query(doc.current_query)

    def _open_query(self, query: str) -> None:
        try:
            self.document.set_current_query(query)
        except KeyError as err:
            self._status(str(err), 5000)
