"""The status bar's counts of the list on screen: documents, judged, unjudged, relevant retrieved
of all judged relevant, judged documents the list missed, queries. Short, so a status message fits
beside it at 1024 px; the tooltip says it in full. The counts are the core's (`list_report.counts`)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from ndcg_gui.core.analysis.list_report import counts
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.widgets.editor.headline import has_judgments


class StatusCounts(QLabel):
    def __init__(self, document: Document) -> None:
        super().__init__()
        self._doc = document
        document.changed.connect(self.refresh)
        self.refresh()

    def refresh(self, _changes: object = None) -> None:
        lst = self._doc.current_list()
        c = counts(lst)
        # Short, so a status message fits beside it at 1024 px; the tooltip says it in full.
        parts = [f"{c.documents:,} docs", f"{c.judged:,} judged", f"{c.unjudged:,} unjudged"]
        tips = [f"{c.documents:,} documents in the list, {c.judged:,} of them judged, "
                f"{c.unjudged:,} unjudged"]
        if not has_judgments(lst):  # (not "0 judged · 0 relevant": nothing is known of relevance)
            parts[1:] = ["no judgments"]
            tips = [f"{c.documents:,} documents in the list, none judged: nothing says which are "
                    "relevant (open the run with its qrels to score it)"]
        elif lst.has_pool:
            parts.append(f"{c.relevant:,}/{c.relevant_judged:,} relevant retrieved")
            tips.append(f"{c.relevant:,} of the query's {c.relevant_judged:,} relevant judged documents "
                        "retrieved")
        else:
            parts.append(f"{c.relevant:,} relevant")
            tips.append(f"{c.relevant:,} relevant (grade above 0)")
        if c.unretrieved:
            parts.append(f"{c.unretrieved:,} missed")
            tips.append(f"{c.unretrieved:,} judged documents not retrieved (they count in the ideal)")
        queries = self._doc.query_count()
        if queries > 1:
            unjudged = len(self._doc.unjudged_queries())
            # "26 queries, 25 with judgments": the panel's figures are over those 25.
            with_judgments = f", {queries - unjudged:,} with judgments" if unjudged else ""
            parts.append(f"{queries:,} queries{with_judgments}")  # (500,000: read at a glance)
            if unjudged:
                tips.append(f"{unjudged:,} queries have results but no judgments: not scored")
        text = " · ".join(parts)
        if self.text() != text:
            self.setText(text)
            self.setToolTip("\n".join(tips))
