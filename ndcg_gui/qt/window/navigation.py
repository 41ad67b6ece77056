"""Getting around by keyboard: the next or previous query in the query table's order, the next
or previous relevant document of the list, and straight to the query filter or the k box."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QDockWidget, QSpinBox

from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.document.query_scores import QueryScores
from ndcg_gui.qt.models.query_model import COL_NDCG, COL_QUERY
from ndcg_gui.qt.models.query_runs import QUERY_ROLE
from ndcg_gui.qt.widgets.editor.ranking_view import RankingView
from ndcg_gui.qt.widgets.queries.query_panel import QueryPanel
from ndcg_gui.qt.window.feedback import Feedback


class Navigation(QObject):
    def __init__(self, document: Document, view: RankingView, panel: QueryPanel, dock: QDockWidget,
                 k_box: QSpinBox, scores: QueryScores, feedback: Feedback) -> None:
        super().__init__(feedback.parent)
        self.document, self.view, self.panel, self.dock, self.k_box = document, view, panel, dock, k_box
        self.scores, self._note = scores, feedback.note

    def step_query(self, delta: int) -> bool:
        """Open the query `delta` places away in the query table as it is sorted and filtered."""
        current = self.document.reading or self.document.current_query  # (the last pick)
        query = self.panel.query_beside(current, delta)
        if query is None:
            return False
        try:
            self.document.set_current_query(query)
        except KeyError:  # (a big file's table filled a frame after it is shown: the last file's row)
            return False
        return True

    def worst_query(self) -> bool:
        """Open the query of lowest NDCG there is something to learn from (results and IDCG > 0)
        among those the table lists, as the core finds it (`WorkspaceReport.worst_query`), and sort
        the table by NDCG, lowest first, so it is at the top with the queries passed over above it."""
        query, skipped = self.scores.report.worst_query(self.panel.visible_queries())
        self.panel.table.sortByColumn(COL_NDCG, Qt.SortOrder.AscendingOrder)
        if query is None:
            self._note("No listed query has both results and an NDCG")
            return False
        self.document.set_current_query(query)
        if skipped:  # said, so the queries listed above it are not a surprise
            more = f" and {len(skipped) - 4} more" if len(skipped) > 4 else ""
            listed = ", ".join(skipped[:4]) + more
            self._note(f"Query {query}: the lowest NDCG of the queries with results and IDCG > 0; "
                       f"skipped {listed}")
        return True

    def most_different(self) -> bool:
        """Sort the query table by RBO, lowest first (the queries the runs compared rank most
        differently, ties by query id), and open the first one listed."""
        column = self.panel.model.overlap_column("rbo")
        if column < 0:
            self._note("No runs compared: File ▸ Add run to compare… (or Compare runs without "
                       "judgments…) first")
            return False
        self.panel.table.sortByColumn(column, Qt.SortOrder.AscendingOrder)
        first = self.panel.proxy.index(0, COL_QUERY).data(QUERY_ROLE)
        if first is None:
            self._note("No query listed")
            return False
        self.document.set_current_query(first)
        return True

    def step_relevant(self, delta: int) -> bool:
        """Select the next (delta 1) or previous (-1) document with a grade above 0."""
        grades = np.nan_to_num(self.document.current_list().grades, nan=0.0)
        relevant = np.flatnonzero(grades > 0)
        here = self.view.current_row()
        after = relevant[relevant > here] if delta > 0 else relevant[relevant < here][::-1]
        if not len(after):
            self._note(f"No relevant document {'below' if delta > 0 else 'above'} this row")
            return False
        row = int(after[0])
        self.view.select_rows(row, 1)
        self.view.scrollTo(self.view.model().index(row, 0))
        self.view.setFocus()
        return True

    def show_rank(self, rank: int) -> None:
        """Select rank `rank` of the ranked list and bring it into view."""
        model = self.view.ranking_model()
        if 1 <= rank <= model.rowCount():
            self.view.select_rows(rank - 1, 1)
            self.view.scrollTo(model.index(rank - 1, 0))

    def judge_rank(self, rank: int) -> None:
        """Start typing the grade of rank `rank`."""
        self.show_rank(rank)
        index = self.view.ranking_model().index(rank - 1, self.view.ranking_model().GRADE)
        if index.isValid():
            self.view.setCurrentIndex(index)
            self.view.setFocus()
            self.view.edit(index)

    def focus_filter(self) -> None:
        if not self.dock.isVisible() and self.document.query_count() > 1:
            self.dock.show()
        self.panel.filter_edit.setFocus()
        self.panel.filter_edit.selectAll()

    def focus_k(self) -> None:
        self.k_box.setFocus()
        self.k_box.selectAll()
