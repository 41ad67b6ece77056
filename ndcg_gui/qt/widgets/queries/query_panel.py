"""The query browser: filter box, query table, mean NDCG@k with its averaging policy, histogram.

With segments (`set_segments`: each query's segment, File ▸ Open segments…) a box beside the filter
picks one: the table lists its queries, and the mean and the histogram are the segment's.

Fed a per-query result frame (from `evaluate`) and the set of edited queries; says which query the
user picked (`querySelected`). The mean comes from `core.ndcg.mean` under the policy chosen here.
While runs are compared (`set_comparison`) the table has each run's NDCG and Δ columns, sorted
biggest losses first, the histogram shows the differences of one run from the baseline, and a line
per run says the comparison's figures (given by the caller, from the core).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ndcg_gui.core.analysis.workspace_report import QueryMean, in_bin
from ndcg_gui.core.ndcg.mean import MeanSummary
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.qt.models.colours import current
from ndcg_gui.qt.models.query_model import (
    COL_DOCS,
    COL_JUDGED,
    COL_NDCG,
    COL_QUERY,
    FIXED_COLUMNS,
    QUERY_ROLE,
    QueryFilterProxy,
    QueryTableModel,
    RunColumns,
)
from ndcg_gui.qt.widgets.plot.histogram import NdcgHistogram
from ndcg_gui.qt.widgets.queries.policy_box import PolicyBox
from ndcg_gui.qt.widgets.queries.query_table import QueryTable
from ndcg_gui.qt.widgets.scheme import FollowsScheme, set_colour
from ndcg_gui.qt.widgets.wrapped_label import WrappedLabel

if TYPE_CHECKING:
    import pandas as pd

    from ndcg_gui.core.formats.query_map import QueryMap


class _FilterEdit(QLineEdit):
    """The filter box; Down says so (an event filter on the panel instead was called while a
    panel was being collected, and crashed)."""

    downPressed = Signal()

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Down and not event.modifiers():
            self.downPressed.emit()
            return
        super().keyPressEvent(event)


def _hidden(runs: RunColumns | None, column: tuple[str, int] | None, holes: bool) -> bool:
    """Whether a comparison's column is left out of a narrow dock: without judgments the runs' NDCG
    and Δ (and the open run's NDCG, `set_comparison`); with them Jaccard and τ (the RBO
    cell's tooltip gives them), and RBO too unless a query is a judging hole (`holes`), where it
    says what NDCG cannot: beside NDCG and Δ alone the side-by-side lists keep their room at
    1366x768 (an RBO column more took it from them and from the Why tabs)."""
    if runs is None or column is None:
        return False
    kind, j = column
    if not runs.judged:
        return kind in ("ndcg", "delta")
    return kind == "overlap" and (j > 0 or not holes)


class QueryPanel(FollowsScheme, QWidget):
    """Browse many queries, worst first in one click; pick one to open it."""

    querySelected = Signal(str)
    policyChanged = Signal(object)  # a Measure: its `empty` and `undefined` (`PolicyBox`)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.model = QueryTableModel(self)
        self.proxy = QueryFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self._scores: pd.DataFrame | None = None  # what `_result` reads
        self._policy = Measure()  # the document's mean policy (`empty`, `undefined`), in the boxes
        self._mean: QueryMean | None = None  # the mean under it and the queries it counts (the core's)
        self._syncing = False
        self._current: str | None = None  # the query open in the editor
        self._unscored = 0  # queries with results but no judgments: not listed
        self._has_judgments = True  # the document has something to score NDCG by (`set_judged`)
        self._runs: RunColumns | None = None  # the run comparison shown, if any
        self._focus: str | None = None  # the run whose differences the histogram shows
        self._segments: dict[str, str] = {}  # each query's segment (none: no segment box)
        self._segment: str | None = None  # the segment picked (None: every query)
        self._members: tuple | None = None  # (index, segment, its queries): `_segment_queries`
        self._labels: tuple | None = None  # (index, segments, each query's segment): `_segment_labels`
        self._weights: QueryMap[float] | None = None  # each query's weight (none: a plain mean)
        self._weighted: tuple[float | None, str] = (None, "")  # its weighted mean, or why none

        self.filter_edit = _FilterEdit(placeholderText="Filter query ids…", clearButtonEnabled=True)
        self.filter_edit.textChanged.connect(lambda text: self._refilter(lambda: self.proxy.set_text(text)))
        # Enter opens the first query listed, Down goes into the table, as in a search box.
        self.filter_edit.returnPressed.connect(lambda: self._into_table(first=True))
        self.filter_edit.downPressed.connect(lambda: self._into_table(first=False))
        # Shown once segments are read: the table, the mean and the histogram of one segment.
        self.segment_combo = QComboBox(toolTip="List one segment's queries: its mean and histogram")
        self.segment_combo.setAccessibleName("Segment")
        self.segment_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.segment_combo.currentIndexChanged.connect(self._on_segment_picked)
        self.segment_combo.hide()

        self.table = QueryTable(self.model, self.proxy)
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row)
        self._dropped: dict[int, int] = {}  # overlap columns left out for room, their widths (`_fit_room`)
        self.table.widthChanged.connect(self._fit_room)
        self.model.headerDataChanged.connect(self._fit_room)  # (after the table fits them: k, sort)
        self.model.modelReset.connect(self._fit_room)

        # Shown while a histogram bar filters the table.
        self.bin_label = QLabel()
        self.bin_clear = QToolButton(text="Show all", toolTip="Drop the histogram filter")
        self.bin_clear.clicked.connect(lambda: self.pick_bin(-1))
        self._bin_row = QWidget()
        bin_layout = QHBoxLayout(self._bin_row)
        bin_layout.setContentsMargins(0, 0, 0, 0)
        bin_layout.addWidget(self.bin_label, 1)
        bin_layout.addWidget(self.bin_clear)
        self._bin_row.hide()

        self.mean_label = WrappedLabel(max_lines=3,
                                       textInteractionFlags=Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.mean_label.font()
        font.setBold(True)
        self.mean_label.setFont(font)
        self.mean_label.setWordWrap(True)
        self.policy_box = PolicyBox()
        self.policy_box.picked.connect(self._on_policy_picked)
        self.empty_combo, self.undefined_combo = self.policy_box.empty_combo, self.policy_box.undefined_combo
        # (two lines at most, whole in the tooltip: four in a narrow dock made the window taller
        # than a 700-pixel screen with its window manager's title bar)
        self.policy_note = WrappedLabel(max_lines=2)  # (in the scheme's muted colour: `restyle`)
        # One line per run compared with the baseline; the tooltip says how each figure was made.
        self.compare_label = WrappedLabel(max_lines=4,
                                          textInteractionFlags=Qt.TextInteractionFlag.TextSelectableByMouse)
        self.compare_label.hide()

        self.histogram = NdcgHistogram()
        self.histogram.binClicked.connect(self._on_bin_clicked)

        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.setSpacing(4)  # (the dock's height is the window's least on a short screen)
        filter_row = QHBoxLayout()
        filter_row.setContentsMargins(0, 0, 0, 0)
        filter_row.addWidget(self.filter_edit, 1)
        filter_row.addWidget(self.segment_combo)
        top_layout.addLayout(filter_row)
        top_layout.addWidget(self._bin_row)
        top_layout.addWidget(self.table, 1)
        top_layout.addWidget(self.mean_label)
        top_layout.addWidget(self.compare_label)
        top_layout.addWidget(self.policy_box)
        top_layout.addWidget(self.policy_note)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(top)
        self.splitter.addWidget(self.histogram)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.splitter)
        self._show_summary()
        self.follow_scheme()

    def restyle(self) -> None:
        # (a grey of its own, #808080, read about 3:1 in either scheme: text needs 4.5:1)
        set_colour(self.policy_note, QPalette.ColorRole.WindowText, current().muted)

    @property
    def _result(self) -> pd.DataFrame:
        if self._scores is None:  # made when first read: no pandas before the window's first paint
            import pandas as pd

            self._scores = pd.DataFrame()
        return self._scores

    @_result.setter
    def _result(self, result: pd.DataFrame) -> None:
        self._scores = result

    # ---- feeding ---------------------------------------------------------------------------
    def set_result(self, result: pd.DataFrame, k: int | None, condensed: bool = False) -> None:
        """Show per-query results (a frame of `evaluate`, missing="zero") at cut-off k
        (`condensed`: scored on condensed lists, `QueryTableModel.set_result`)."""
        same_queries = result.index.equals(self._result.index)
        self._result = result
        self.model.set_result(result, k, condensed)
        picked, subset = self.histogram.picked, self.proxy.subset
        if not same_queries:
            self._fill_segments()
        self._show_summary()
        if not same_queries:
            self._set_subset(None, -1)
        elif subset is not None:
            # A re-score keeps the queries the user picked, so the one being edited stays listed.
            self.histogram.set_picked(picked)

    def set_comparison(self, runs: RunColumns | None, lines: Sequence[str] = (), details: str = "",
                       focus: str | None = None) -> None:
        """Show a run comparison (None: none): the runs' columns, one summary line per compared
        run with `details` (how each figure was made) as its tooltip, and the histogram of
        `focus`'s differences from the baseline."""
        before = self._runs.layout if self._runs is not None else None
        same = before == (runs.layout if runs is not None else None) and focus == self._focus
        picked, subset = self.histogram.picked, self.proxy.subset
        sort_column = self.proxy.sortColumn()
        self._runs, self._focus = runs, focus
        self.model.set_runs(runs)
        for column in (COL_DOCS, COL_JUDGED):  # room for the runs' columns in a narrow dock
            self.table.setColumnHidden(column, runs is not None)
        # Without judgments the open run's NDCG says only "no judgments" (the summary says so once):
        # its room goes to RBO, Jaccard and τ, whole at 1366 px wide (it made the table scroll).
        self.table.setColumnHidden(COL_NDCG, not self.judged)
        for column in range(FIXED_COLUMNS, self.model.columnCount()):
            self.table.setColumnHidden(column, _hidden(runs, self.model.run_column(column),
                                                      self.model.has_holes()))
        self._dropped = {}
        if not same:
            self.table.fit_columns()
        self._fit_room()
        self.compare_label.setVisible(runs is not None)
        self.compare_label.setEnabled(runs is None or not runs.waiting)  # (greyed: figures of before)
        self.compare_label.setText("\n".join(lines))
        self.compare_label.setToolTip(details)
        self._show_summary()  # the mean line names the open run; the histogram shows differences
        if not same:
            self._set_subset(None, -1)
            if runs is not None and focus is not None and (before is None or sort_column >= FIXED_COLUMNS):
                # Comparing starts with the biggest losses first; without judgments, the queries
                # ranked most differently first.
                first = self.model.column_of("delta", focus) if runs.judged else self.model.overlap_column()
                self.table.sortByColumn(first, Qt.SortOrder.AscendingOrder)
            elif sort_column >= self.model.columnCount():
                self.table.sortByColumn(COL_QUERY, Qt.SortOrder.AscendingOrder)
        elif subset is not None:
            self.histogram.set_picked(picked)

    def dropped_columns(self) -> list[str]:
        """The headers of the columns left out for room (`_fit_room`)."""
        return [str(self.model.headerData(c, Qt.Orientation.Horizontal)) for c in sorted(self._dropped)]

    def _fit_room(self) -> None:
        """In a dock too narrow for every column (a window opened small and made wider keeps its
        dock; a dock the person narrowed) the least needed go, rather than the table scrolling
        sideways: τ first, then Jaccard (the RBO cell's tooltip gives both), then, beside NDCG, the
        RBO of a judging hole (the summary's line names the holes); each comes back once it fits."""
        if self._runs is None or self.model.overlap_column() < 0:
            return
        table = self.table
        for column in self._dropped:
            table.setColumnHidden(column, False)
        self._dropped = {}
        optional = [self.model.overlap_column(name) for name in ("tau", "jaccard", "rbo")]
        optional = [c for c in optional if not table.isColumnHidden(c)]
        if not self._runs.judged:
            optional = optional[:2]  # (without judgments RBO is what the table is sorted by)
        room = table.room()
        while optional and table.columns_width(set(self._dropped)) > room:
            column = optional.pop(0)
            self._dropped[column] = table.columnWidth(column)
        for column in self._dropped:
            table.setColumnHidden(column, True)

    @property
    def judged(self) -> bool:
        """Whether there is an NDCG to show: the document has judgments (and so the runs compared)."""
        return self._has_judgments and (self._runs is None or self._runs.judged)

    def set_judged(self, judged: bool) -> None:
        """Whether the document has anything to score NDCG by (False: the mean, its policy and the
        histogram say there is no NDCG rather than show 0)."""
        if judged != self._has_judgments:
            self._has_judgments = judged
            self.table.setColumnHidden(COL_NDCG, not self.judged)
            self._show_summary()

    @property
    def comparing(self) -> bool:
        return self._runs is not None and self._focus is not None

    def set_segments(self, segments: dict[str, str] | None) -> None:
        """Each query's segment (None: none, and no segment box): the box lists them, "All
        segments" first; a segment still there stays picked."""
        self._segments = dict(segments or {})
        self._fill_segments()
        self._show_summary()
        self._set_subset(None, -1)

    def set_weights(self, weights: QueryMap[float] | None) -> None:
        """Each query's weight (the run's `weight` column; None: none): the mean line adds the
        mean weighted by them, of the same queries (the segment's picked, if any)."""
        self._weights = weights
        self._show_summary()

    @property
    def weighted_mean(self) -> float | None:
        """The mean shown weighted by the weights (None: no weights, or none to weigh by)."""
        return self._weighted[0] if self._weights is not None else None

    @property
    def segment(self) -> str | None:
        """The segment picked (None: every query)."""
        return self._segment

    def pick_segment(self, name: str | None) -> None:
        """List the queries of segment `name` (None: every query)."""
        at = self.segment_combo.findData(name) if name is not None else 0
        if at < 0:
            raise KeyError(f"no segment {name!r}")
        self.segment_combo.setCurrentIndex(at)

    def set_unscored(self, count: int) -> None:
        """How many queries of the file have results but no judgment (left out, as trec_eval does)."""
        if count != self._unscored:
            self._unscored = count
            self._show_summary()

    def set_edited(self, queries) -> None:
        if self.model.set_edited(queries):
            self.table.fit_figures()  # (an edited query's figures are bold: wider)

    def set_notes(self, notes) -> None:
        """The note on each query: a mark beside its id, the note in the tooltip."""
        self.model.set_notes(notes)

    def set_current_query(self, query: str) -> None:
        """Select `query` in the table without announcing it (the document already knows)."""
        self._current = query
        if not self.model.has_query(query):
            return
        self._syncing = True
        try:
            if self.model.row_of(query) < 0:  # filtered away: show everything, not hide the current query
                self.filter_edit.clear()
                if self._segment is not None and self._segments.get(query) != self._segment:
                    self.segment_combo.setCurrentIndex(0)  # (every segment: `_on_segment_picked`)
                self._set_subset(None, -1)
            index = self.proxy.mapFromSource(self.model.index(self.model.row_of(query), COL_QUERY))
            flags = (
                QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
            )
            self.table.selectionModel().setCurrentIndex(index, flags)
            self.table.scrollTo(index)
        finally:
            self._syncing = False

    def current_query(self) -> str | None:
        index = self.table.currentIndex()
        return index.data(QUERY_ROLE) if index.isValid() else None

    @property
    def policy(self) -> Measure:
        return self._policy

    def set_policy(self, measure: Measure) -> None:
        """Show the mean policy of `measure` (the document's): the boxes follow without asking for
        it again."""
        policy = Measure(empty=measure.empty, undefined=measure.undefined)
        self.policy_box.show_policy(policy)
        if policy != self._policy:
            self._policy = policy
            self._show_summary()
            self._set_subset(None, -1)

    @property
    def summary(self) -> MeanSummary | None:
        return self._mean.summary if self._mean is not None else None

    def visible_queries(self) -> list[str]:
        """The queries the table lists now, top to bottom."""
        return [self.proxy.index(r, COL_QUERY).data(QUERY_ROLE) for r in range(self.proxy.rowCount())]

    def query_beside(self, query: str, delta: int) -> str | None:
        """The query `delta` rows from `query` in the table as sorted and filtered; from a query
        the table does not list, the first (delta > 0) or the last; None past either end. (Not
        `visible_queries`: 500,000 rows read one by one for one step.)"""
        count = self.proxy.rowCount()
        row = self.model.row_of(query)
        at = self.proxy.mapFromSource(self.model.index(row, COL_QUERY)).row() if row >= 0 else -1
        at = at + delta if at >= 0 else (0 if delta > 0 else count - 1)
        return self.proxy.index(at, COL_QUERY).data(QUERY_ROLE) if 0 <= at < count else None

    def pick_bin(self, index: int) -> None:
        """Filter the table to the queries of one histogram bin (-1: no bin filter)."""
        if index < 0 or len(self._result) == 0:
            self._set_subset(None, -1)
            return
        edges = self.histogram.edges
        members = in_bin(self._focus_deltas(), edges, index) if self.comparing else \
            self._mean.in_bin(edges, index)
        self._set_subset(members, index)

    def _focus_deltas(self) -> pd.Series:
        """The focus run's differences from the baseline over the queries compared (of the
        segment picked, if any)."""
        deltas = self._runs.delta[self._focus].dropna()
        members = self._segment_queries()
        return deltas if members is None else deltas[deltas.index.isin(members)]

    # ---- internals -------------------------------------------------------------------------
    def _into_table(self, first: bool) -> None:
        """The keyboard from the filter into the table: on its first row (`first`, or when no row
        listed is current), which opens that query."""
        if self.proxy.rowCount() == 0:
            return
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)
        if first or not self.table.currentIndex().isValid():
            flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
            self.table.selectionModel().setCurrentIndex(self.proxy.index(0, COL_QUERY), flags)
            self.table.scrollToTop()

    def needed_width(self) -> int:
        """The panel's width that shows every column of the table whole."""
        margins = self.layout().contentsMargins() if self.layout() is not None else None
        dropped = sum(self._dropped.values())  # (left out for room: needed all the same)
        return self.table.needed_width() + dropped + (margins.left() + margins.right() if margins else 0)

    def _refilter(self, change) -> None:
        """Apply a filter change without opening another query: the table's current row moves when
        the open query is filtered away, and that must not count as picking a query."""
        self._syncing = True
        try:
            change()
            row = self.model.row_of(self._current) if self._current is not None else -1
            index = self.proxy.mapFromSource(self.model.index(row, COL_QUERY)) if row >= 0 else QModelIndex()
            if index.isValid():
                flags = (QItemSelectionModel.SelectionFlag.ClearAndSelect
                         | QItemSelectionModel.SelectionFlag.Rows)
                self.table.selectionModel().setCurrentIndex(index, flags)
            else:
                self.table.selectionModel().clear()
        finally:
            self._syncing = False

    def _segment_queries(self) -> list[str] | None:
        """The table's queries in the segment picked (None: no segment picked)."""
        if self._segment is None:
            return None
        index, kept = self._result.index, self._members
        if kept is None or kept[0] is not index or kept[1] != self._segment or kept[2] is not self._segments:
            of = self._segment_labels()
            members = of.index[of.to_numpy() == self._segment].to_numpy(dtype=object).tolist()
            kept = self._members = (index, self._segment, self._segments, [str(q) for q in members])
        return kept[3]

    def _segment_labels(self) -> pd.Series:
        """Each of the table's queries' segment (None: none), worked out once for its queries."""
        index, kept = self._result.index, self._labels
        if kept is None or kept[0] is not index or kept[1] is not self._segments:
            from ndcg_gui.core.analysis.segments import segment_of  # lazy: start-up (pandas)

            kept = self._labels = (index, self._segments, segment_of(index, self._segments))
        return kept[2]

    def _shown_result(self) -> pd.DataFrame | None:
        """The rows the mean and the histogram are of: the segment's picked, or every one."""
        result = self._scores
        members = self._segment_queries()
        if result is None or members is None:
            return result
        return result.loc[members]

    def _fill_segments(self) -> None:
        """The segment box: "All segments", then each segment of the table's queries with how many."""
        combo = self.segment_combo
        names, counts = [], {}
        if self._segments:
            from ndcg_gui.core.analysis.segments import ordered_segments  # lazy: start-up (pandas)

            of = self._segment_labels()
            names, counts = ordered_segments(of), of.value_counts()
        keep = self._segment if self._segment in names else None
        combo.blockSignals(True)
        try:
            combo.clear()
            combo.addItem("All segments", None)
            for name in names:
                combo.addItem(f"{name} ({counts[name]:,})", name)
            combo.setCurrentIndex(combo.findData(keep) if keep is not None else 0)
        finally:
            combo.blockSignals(False)
        self._segment = keep
        combo.setVisible(bool(self._segments))

    def _on_segment_picked(self, _index: int) -> None:
        picked = self.segment_combo.currentData()
        if picked == self._segment:
            return
        self._segment = picked
        self._show_summary()
        self._set_subset(None, -1)

    def _set_subset(self, queries: list[str] | None, index: int) -> None:
        bin_queries = queries
        members = self._segment_queries()
        if members is not None:  # (a histogram bar's queries are the segment's already)
            queries = members if queries is None else queries
        self._refilter(lambda: self.proxy.set_subset(queries))
        self.histogram.set_picked(index)
        self._bin_row.setVisible(bin_queries is not None)
        if bin_queries is not None:
            self.bin_label.setText(f"{self.histogram.bin_text(index)}: {len(bin_queries):,} queries")

    def _show_summary(self) -> None:
        k = self.model.k
        result = self._shown_result()
        # (worked out in the worker that scored a big result, `workspace_report.prepared`)
        self._mean = QueryMean.of(result, self._policy) if result is not None else None
        summary = self.summary
        if summary is None:
            self.mean_label.setText("No queries")
            self.policy_note.setText("")
            self._show_histogram()
            return
        judged = self.judged
        at = f"@{k}" if k else ""
        # (without judgments every NDCG is 0 for want of any: no mean to show, nor a policy for it)
        text = summary.describe(k) if judged else f"no judgments, no mean NDCG{at} ({len(result):,} queries)"
        if self._segment is not None:
            text = f"segment {self._segment}: {text}"
        if judged and self._weights is not None:
            self._weighted = _weighted(result, self._policy, self._weights)
            value, problem = self._weighted
            text += (f"; {problem}" if problem else
                     f"; weighted by {self._weights.origin}: {'n/a' if value != value else f'{value:.4f}'}")
        self.mean_label.setText(f"{self._runs.open_run}: {text}" if self._runs is not None
                                else text[0].upper() + text[1:])
        weighed = (f"; then the mean weighted by {self._weights.origin} (each query's NDCG as it is)"
                   if self._weights is not None else "")
        plain = f"Plain mean of per-query NDCG{at}: {self._policy.describe_mean()}"
        self.mean_label.setToolTip(plain + weighed if judged else NO_MEAN_TIP)
        self.policy_box.setVisible(judged)
        self.histogram.setVisible(judged)
        notes = []
        if summary.empty:
            notes.append(f"{summary.empty} judged {_queries(summary.empty)} with no results")
        if summary.undefined:
            notes.append(f"{summary.undefined} {_queries(summary.undefined)} with IDCG = 0")
        if self._unscored:
            notes.append(f"{self._unscored} {_queries(self._unscored)} without judgments, not listed "
                         "(nothing to score them by)")
        self.policy_note.setText("; ".join(notes))
        self.policy_note.setVisible(bool(notes) and judged)
        self._show_histogram()

    def _show_histogram(self) -> None:
        """NDCG@k of the queries the mean counts, or, while comparing, the focus run's differences."""
        k, runs = self.model.k, self._runs
        at = f"@{k}" if k is not None else ""
        if self.comparing:
            deltas = self._focus_deltas()
            mean = float(deltas.mean()) if len(deltas) else None
            label = f"Δ NDCG{at}: {self._focus} − {runs.baseline}"
            if not runs.judged:  # (every NDCG is 0 without judgments: no bars that pretend)
                deltas, mean = deltas.iloc[:0], None
                label = "No judgments: no NDCG to plot"
            elif runs.waiting:  # (the figures of before the change: not of k as shown)
                why = "not scored again" if runs.failed else "worked out again"
                label = f"Δ NDCG before the change ({why}): {self._focus} − {runs.baseline}"
            self.histogram.set_deltas(deltas.to_numpy(), label, mean)
        elif self.summary is None:
            self.histogram.set_values(np.array([]), k)
        else:
            self.histogram.set_bins(*self._mean.histogram, k, self.summary.mean)

    def _on_policy_picked(self, policy: Measure) -> None:
        if policy == self._policy:
            return
        self._policy = policy
        self._show_summary()
        self._set_subset(None, -1)
        self.policyChanged.emit(policy)

    def _on_bin_clicked(self, index: int) -> None:
        self.pick_bin(-1 if index == self.histogram.picked else index)

    def _on_current_row(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._syncing or not current.isValid():
            return
        self.querySelected.emit(current.data(QUERY_ROLE))


def _weighted(result: pd.DataFrame, policy: Measure, weights: QueryMap[float]) -> tuple[float | None, str]:
    """(the mean of `result` under `policy` weighted by `weights`, the core's as `ndcg-inspect`'s
    all line; why there is none, in words)."""
    from ndcg_gui.core.analysis.segments import segment_means  # lazy: start-up (pandas)
    from ndcg_gui.core.analysis.weights import query_weights
    from ndcg_gui.core.errors import InputError

    try:
        chosen = query_weights(weights, result.index)
    except InputError as err:
        return None, f"no weighted mean: {err}"
    return float(segment_means(result, {}, policy, weights=chosen).overall["mean"]), ""


NO_MEAN_TIP = ("No judgments: no query has an NDCG to average. Open the run with its qrels (File ▸ Open "
               "run with qrels…, then File ▸ Add run to compare…) to score them; meanwhile runs compared "
               "are told apart by how they rank each query (RBO, Jaccard, τ).")


def _queries(n: int) -> str:
    return "query" if n == 1 else "queries"
