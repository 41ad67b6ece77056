"""Every query's NDCG@k for the query browser, kept in step with the document.

A new dataset or a new definition (k, gain, discount, ties) scores every query with `evaluate`;
an edit rescores only the edited query (each query is scored on its own, so that is the same
result). With one query in the document no panel shows the scores, so an edit only marks its
query stale and `result` rescores it when read: a drag then costs no scoring beyond the editor's.
A loader that already scored the file (in its process) offers that result, so a big file
is not scored twice.
"""

from __future__ import annotations

import pandas as pd
from PySide6.QtCore import QObject, Signal

from ndcg_gui.core.summary import score, with_list_rescored
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document


class QueryScores(QObject):
    changed = Signal()

    def __init__(self, document: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self._result = pd.DataFrame()
        self._stale: set[str] = set()  # edited queries not rescored yet
        self._offered: tuple[object, tuple, pd.DataFrame] | None = None
        document.changed.connect(self._follow)
        self.rescore_all()

    def _definition(self) -> tuple:
        doc = self.document
        return (doc.k, doc.config, doc.ties)

    def _follow(self, changes: Changes) -> None:
        if changes.dataset or changes.definition:
            self.rescore_all()
        elif changes.lists:
            self._stale |= changes.lists
            if len(self.document.queries()) > 1:  # the panel shows the scores: rescore now
                self.changed.emit()

    def offer(self, dataset: object, k: int | None, config, ties, result: pd.DataFrame) -> None:
        """A result already computed for `dataset` under (k, config, ties): used instead of scoring
        again when that dataset is opened under that definition."""
        self._offered = (dataset, (k, config, ties), result)

    @property
    def result(self) -> pd.DataFrame:
        """Every query's row of `evaluate`, edits included."""
        doc = self.document
        while self._stale:
            query = self._stale.pop()
            self._result = with_list_rescored(self._result, doc.list_for(query), doc.k, doc.config,
                                              doc.ties)
        return self._result

    def rescore_all(self) -> None:
        doc = self.document
        offered, self._offered = self._offered, None
        if offered is not None and offered[0] is doc.dataset and offered[1] == self._definition():
            result = offered[2]
        else:
            result = score(doc.dataset, doc.k, doc.config, doc.ties)
        for query in doc.edited_queries():
            result = with_list_rescored(result, doc.list_for(query), doc.k, doc.config, doc.ties)
        self._result, self._stale = result, set()
        self.changed.emit()
