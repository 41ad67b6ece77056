"""The query table: one row per query of a per-query result frame (from `evaluate`), plus a mark for
queries edited in this session and, while runs are compared, one NDCG column per other run and one
difference (Δ) column per run against the baseline. Holds no metric logic: it shows what the
frames say.

The model keeps its rows in the order asked of it (`sort`: numbers, not display text; ties in
natural query order), sorted with numpy and re-sorted after a change only when the order changed,
moving its persistent indexes (the selection) along; and it lists only the queries its filter keeps
(by query id and, after a click on the histogram, by a set of queries), worked out over every id at
once in Arrow's kernels. `QueryFilterProxy`, the view's model, passes the rows through as they are
and hands sorting and filtering to the model: a `QSortFilterProxyModel` sorting in Python made a
call per comparison (`lessThan`), filtering in Python a call per row, and even unfiltered it
mapped every row at each reset, in the frame that shows a big file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import (
    QAbstractTableModel,
    QIdentityProxyModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)

from ndcg_gui.core.lists.query_order import order_keys_of, position_of
from ndcg_gui.qt.models.cells import ALIGN_RIGHT, differing_rows, font
from ndcg_gui.qt.models.colours import current
from ndcg_gui.qt.models.query_runs import (
    FIXED_COLUMNS,
    QUERY_ROLE,
    RunColumns,
    RunColumnsPart,
)

if TYPE_CHECKING:
    import pandas as pd


COL_EDITED, COL_QUERY, COL_DOCS, COL_JUDGED, COL_NDCG = range(5)
EDITED_MARK = "✎"
NOTE_MARK = "¶"  # a note on the query (`Workspace.notes`), whole in the cell's tooltip


Index = QModelIndex | QPersistentModelIndex


DICT_ROWS = 50_000  # queries up to which a row is found by a dict (see `_position`)


class QueryTableModel(RunColumnsPart, QAbstractTableModel):
    """Rows: queries of the result frame, in its order until sorted (`sort`). Columns: edited mark,
    query, docs, judged, NDCG@k, then while runs are compared (`set_runs`) each other run's NDCG and
    each Δ against the baseline. Read-only."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._queries = np.array([], dtype=object)
        self._index = None  # the frame's index the ids came from (a rescore keeps it: same rows)
        self._last_sort: tuple | None = None  # (keys, descending, natural, order): `_sorted_by`
        self._row_of: dict[str, int] | None = None  # made on first use, for up to DICT_ROWS queries
        self._found: dict[str, int] = {}  # past DICT_ROWS: the last few found by a scan
        # Each id's rank in natural order, its length, the entries in natural order (`order_keys`).
        self._natural = self._lengths = self._in_order = np.array([], dtype=np.int64)
        self._text = None  # the ids as Arrow text (a row found, the filter worked out)
        self._folded: tuple | None = None  # (ids, their casefolds as Arrow text): `_folded_ids`
        self._docs = self._judged = np.array([], dtype=np.int64)
        self._share = np.array([], dtype=float)  # Judged@k: the share of the first k judged
        self._condensed = False  # scored on condensed lists: no share of the run as retrieved
        self._dcg = self._idcg = self._ndcg = np.array([], dtype=float)
        self._undefined = self._empty = np.array([], dtype=bool)
        self._edited: set[str] = set()
        self._edited_mask: np.ndarray | None = None  # which entries are edited (None: not worked out)
        self._notes: dict[str, str] = {}
        self._noted_mask: np.ndarray | None = None  # which entries have a note (None: not worked out)
        self._k: int | None = None
        self._runs: RunColumns | None = None
        self._run_ndcg = self._delta = self._overlap = np.zeros((0, 0), dtype=float)
        self._run_answered = np.zeros((0, 0), dtype=bool)
        self._hole = np.zeros(0, dtype=bool)
        # Arrays are kept in the frame's order; row r shows its entry _order[r] (_row_at: inverse,
        # -1 for an entry the filter leaves out).
        self._order = self._row_at = np.array([], dtype=np.int64)
        self._sort_column, self._sort_order = -1, Qt.SortOrder.AscendingOrder
        self._filter: tuple[str, frozenset[str] | None] = ("", None)  # `set_filter`'s
        self._keep: np.ndarray | None = None  # the entries the filter keeps (None: every one)

    # ---- feeding ---------------------------------------------------------------------------
    def set_result(self, result: pd.DataFrame, k: int | None, condensed: bool = False) -> None:
        """Show a per-query frame of `evaluate`. The same queries in the same order (a re-score
        after an edit or a new k) only repaint, so the view keeps its selection and scroll.
        `condensed`: scored on condensed lists (judged documents only), whose counts say nothing
        of the share of the run as retrieved that is judged: the Judged@k column is blank."""
        # (a rescore after an edit keeps the frame's index; `to_numpy` makes a new array each time)
        same_rows = result.index is self._index
        queries = result.index.to_numpy(dtype=object)
        same_rows = same_rows or np.array_equal(queries, self._queries)
        self._index = result.index
        # (the judged count too: the Judged@k cell's tooltip says it)
        figures = (self._docs, self._judged, self._share, self._dcg, self._idcg, self._ndcg)
        before = figures if same_rows else ()
        if not same_rows:
            self.beginResetModel()
            self._queries = queries
            self._row_of, self._found = None, {}
            # (worked out in the worker that scored a big file, `workspace_report.prepared`: kept by index)
            self._natural, self._lengths, self._text, self._in_order = order_keys_of(result.index)
            self._keep = self._kept()
            self._edited_mask = self._noted_mask = None
            self._align_runs()
        self._docs = result["n_retrieved"].to_numpy(dtype=np.int64)
        self._judged = result["n_judged"].to_numpy(dtype=np.int64)
        from ndcg_gui.core.analysis.judged import judged_share  # lazy: start-up (pandas, loaded by now)

        self._share = np.full(len(queries), np.nan) if condensed else \
            judged_share(self._judged, self._docs, k)
        self._condensed = condensed
        self._dcg = result["dcg"].to_numpy(dtype=float)
        self._idcg = result["idcg"].to_numpy(dtype=float)
        self._ndcg = result["ndcg"].to_numpy(dtype=float)
        self._undefined = result["undefined"].to_numpy(dtype=bool)
        self._empty = self._docs == 0
        k_changed = k != self._k
        self._k = k
        if not same_rows:
            self._order, self._row_at = self._sorted()  # sorted before any view reads a row
            self.endResetModel()
            return
        if k_changed:
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, COL_JUDGED, COL_NDCG)
        if k_changed:  # every figure is of another k
            if rows := self.rowCount():
                self.dataChanged.emit(self.index(0, 0), self.index(rows - 1, self.columnCount() - 1))
        else:  # (column by column: stacking them copied 500,000 rows twice at every edit)
            changed = np.zeros(len(queries), dtype=bool)
            after = (self._docs, self._judged, self._share, self._dcg, self._idcg, self._ndcg)
            for old, new in zip(before, after, strict=True):
                differ = old != new
                if old.dtype.kind == "f":
                    differ &= ~(np.isnan(old) & np.isnan(new))
                changed |= differ
            self._rows_changed(np.flatnonzero(changed))
        self._resort()

    def set_edited(self, queries: Iterable[str]) -> bool:
        """Mark these queries (and only these) as edited in this session; False: they were."""
        edited = {str(q) for q in queries}
        if edited == self._edited:
            return False
        before = self._edited_rows()
        self._edited, self._edited_mask = edited, None
        self._rows_changed(np.flatnonzero(before != self._edited_rows()))
        self._resort()
        return True

    def set_notes(self, notes: Mapping[str, str]) -> bool:
        """The note on each query (a mark beside its id, the note in its tooltip); False: as they were."""
        notes = {str(q): str(n) for q, n in notes.items()}
        if notes == self._notes:
            return False
        before = self._noted_rows()
        changed = [q for q in set(notes) | set(self._notes) if notes.get(q) != self._notes.get(q)]
        self._notes, self._noted_mask = notes, None
        positions = [p for q in changed if (p := self._position(q)) >= 0]
        self._rows_changed(np.union1d(np.flatnonzero(before != self._noted_rows()),
                                      np.array(positions, dtype=np.int64)))
        self._resort()
        return True

    def note(self, query: str) -> str:
        return self._notes.get(str(query), "")

    def _noted_rows(self) -> np.ndarray:
        if self._noted_mask is None:
            self._noted_mask = _is_in(self._text, self._queries, frozenset(self._notes))
        return self._noted_mask

    def _edited_rows(self) -> np.ndarray:
        """Which entries are edited, over every id at once (a Python test per id cost a big file
        a frame each time a column was fitted after an edit)."""
        if self._edited_mask is None:
            self._edited_mask = _is_in(self._text, self._queries, frozenset(self._edited))
        return self._edited_mask

    def set_runs(self, runs: RunColumns | None) -> None:
        """Show a run comparison's columns (None: none). Other runs or another baseline change the
        columns (a reset); new figures repaint the rows that changed."""
        old_layout = self._runs.layout if self._runs is not None else None
        new_layout = runs.layout if runs is not None else None
        if old_layout != new_layout:
            self.beginResetModel()
            self._runs = runs
            self._align_runs()
            self._order, self._row_at = self._sorted()
            self.endResetModel()
            return
        if runs is None:
            return
        before, was_waiting = self._run_cells(), self._runs.waiting
        self._runs = runs
        self._align_runs()
        changed = differing_rows(before, self._run_cells())
        if runs.waiting != was_waiting and len(self._queries):  # (every row greyed, or no longer)
            changed = (0, len(self._queries) - 1)
        if changed is not None:  # (first, last) entry: every row between may have moved
            self._rows_changed(np.arange(changed[0], changed[1] + 1))
            self._resort()

    def _rows_changed(self, positions: np.ndarray) -> None:
        """Repaint the rows of these entries (positions in the frame) only, as one range (those
        the filter leaves out have none)."""
        rows = self._row_at[positions.astype(np.int64)]
        rows = rows[rows >= 0]
        if len(rows):
            self.dataChanged.emit(self.index(int(rows.min()), 0),
                                  self.index(int(rows.max()), self.columnCount() - 1))

    # ---- sorting ---------------------------------------------------------------------------
    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Keep the rows sorted on `column` (numbers, not display text; -1: the frame's order), ties
        in natural query order, through every later change."""
        self._sort_column, self._sort_order = column, order
        self._resort()

    @property
    def sort_column(self) -> int:
        return self._sort_column

    @property
    def sort_order(self) -> Qt.SortOrder:
        return self._sort_order

    def _sorted(self) -> tuple[np.ndarray, np.ndarray]:
        """(order, row_at) of the rows under the asked sort and filter: order[row] = position in
        the frame; row_at[position] = row, or -1 for an entry the filter leaves out."""
        n, column = len(self._queries), self._sort_column
        descending = self._sort_order == Qt.SortOrder.DescendingOrder
        if column == COL_QUERY and self._keep is None:
            # Natural order, worked out with the ids: nothing to sort or invert.
            if descending:
                return self._in_order[::-1], n - 1 - self._natural
            return self._in_order, self._natural
        if column == COL_QUERY:
            order = self._in_order[::-1] if descending else self._in_order
        elif 0 <= column < self.columnCount():
            order = self._sorted_by(self.sort_keys(column), descending)
        else:  # unsorted, or a comparison's column gone: the frame's order
            order = np.arange(n, dtype=np.int64)
        if self._keep is not None:
            order = order[self._keep[order]]
        row_at = np.full(n, -1, dtype=np.int64)
        row_at[order] = np.arange(len(order), dtype=np.int64)
        return order, row_at

    def _sorted_by(self, keys: np.ndarray, descending: bool) -> np.ndarray:
        """Every entry in the order of `keys` (ties in natural order). The last one is kept while
        its keys are the same array (figures are never changed in place): each keystroke in the
        filter box then cuts it down instead of sorting every id again."""
        last = self._last_sort
        if last is not None and last[0] is keys and last[1] == descending and last[2] is self._natural:
            return last[3]
        ordered = -keys.astype(float if keys.dtype.kind == "f" else np.int64) if descending else keys
        # A stable sort of the keys taken in natural order leaves ties in natural order, in a
        # fraction of a lexsort of keys and natural ranks (at each edit while
        # sorted by a figure, and at a big file's install).
        order = self._in_order[np.argsort(ordered[self._in_order], kind="stable")].astype(np.int64)
        self._last_sort = (keys, descending, self._natural, order)
        return order

    def _resort(self) -> None:
        """Move the rows to the asked order if they are not in it, carrying the persistent indexes
        (selection, current row) along: an edited query moves to its place and stays selected."""
        order, row_at = self._sorted()
        if np.array_equal(order, self._order):
            return
        self.layoutAboutToBeChanged.emit()
        old_order = self._order
        self._order, self._row_at = order, row_at
        before = self.persistentIndexList()
        after = [self.index(int(row_at[old_order[i.row()]]), i.column()) for i in before]
        self.changePersistentIndexList(before, after)
        self.layoutChanged.emit()

    # ---- filtering -------------------------------------------------------------------------
    def set_filter(self, text: str, subset: frozenset[str] | None) -> None:
        """List only the queries whose id contains `text` (casefolded) and that are in `subset`
        (None: any). Another filter resets the rows (the view's selection with them)."""
        if (text, subset) == self._filter:
            return
        self.beginResetModel()
        self._filter = (text, subset)
        self._keep = self._kept()
        self._order, self._row_at = self._sorted()
        self.endResetModel()

    @property
    def filtering(self) -> tuple[str, frozenset[str] | None]:
        return self._filter

    def _kept(self) -> np.ndarray | None:
        """Which entries the filter keeps (None: every one), over every id at once."""
        text, subset = self._filter
        if not text and subset is None:
            return None
        keep = np.ones(len(self._queries), dtype=bool)
        if subset is not None:
            keep &= _is_in(self._text, self._queries, subset)
        if text:
            keep &= _contains(self._folded_ids(), text)
        return keep

    def _folded_ids(self):
        """The ids casefolded, as Arrow text: made once for the ids shown (kept while they are the
        same array), so a keystroke in the filter box only searches them (their ASCII check and
        folding at each keystroke was a frame's work for a big file)."""
        last = self._folded
        if last is None or last[0] is not self._queries:
            last = self._folded = (self._queries, _casefolded(self._text, self._queries))
        return last[1]

    # ---- lookups ---------------------------------------------------------------------------
    def query_at(self, row: int) -> str:
        return str(self._queries[self._order[row]])

    def row_of(self, query: str) -> int:
        """The row of `query`, or -1 (not a query of the table, or left out by the filter)."""
        position = self._position(str(query))
        return -1 if position < 0 else int(self._row_at[position])

    def has_query(self, query: str) -> bool:
        """Whether `query` is a query of the table, listed or left out by the filter."""
        return self._position(str(query)) >= 0

    def _position(self, query: str) -> int:
        """Where `query` is in the result frame, or -1: a dict for up to DICT_ROWS queries; past
        that a scan of the ids, since making the dict took far longer, in the frame
        that shows a file of that many queries."""
        if len(self._queries) > DICT_ROWS:
            found = self._found.get(query)  # (the query shown is asked for several times a change)
            if found is None:
                found = position_of(self._text, self._queries, query)
                self._found = {**dict(list(self._found.items())[-7:]), query: found}
            return found
        if self._row_of is None:
            self._row_of = {str(q): i for i, q in enumerate(self._queries)}
        return self._row_of.get(query, -1)

    @property
    def k(self) -> int | None:
        return self._k

    # ---- QAbstractTableModel ---------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._order)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid():
            return 0
        return FIXED_COLUMNS + self._run_column_count()

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        run = self.run_column(section)
        if run is not None:
            return self._run_header(*run, role)
        if section == COL_NDCG and self._runs is not None:  # comparing: each NDCG column is a run's
            return self._run_header("open", 0, role)
        if role == Qt.ItemDataRole.DisplayRole:
            at = f"@{self._k}" if self._k is not None else ""
            # Judged among the first k, as the header says: the status bar counts the whole list.
            return [EDITED_MARK, "Query", "Docs", f"Judged{at}", f"NDCG{at}"][section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return [
                f"{EDITED_MARK} edited in this session; {NOTE_MARK} a note on the query (in its tooltip)",
                "Query id",
                "Documents retrieved for the query",
                f"Judged@{self._k or 'all'}: the share of the first {self._k or 'all'} documents "
                "retrieved that are judged (ir_measures' Judged@k; 0 without results): a low NDCG with "
                "a low share is a judging hole" + (" (not given on condensed lists: every document "
                                                   "they keep is judged)" if self._condensed else ""),
                "NDCG at the cut-off k (0 where IDCG = 0)",
            ][section]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row, col = int(self._order[index.row()]), index.column()  # row: the entry's position
        run = self.run_column(col)
        if run is not None:
            return self._run_data(row, *run, role)
        if col == COL_NDCG and self._runs is not None and not self._runs.judged and role in (
                Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.ForegroundRole):
            return self._run_data(row, "open", 0, role)
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, col)
        if role == QUERY_ROLE:
            return str(self._queries[row])
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(row, col)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (COL_DOCS, COL_JUDGED, COL_NDCG):
            return ALIGN_RIGHT
        if role == Qt.ItemDataRole.TextAlignmentRole and col == COL_EDITED:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.ForegroundRole and col == COL_NDCG and self._not_scored(row):
            return current().brush("muted")
        if role == Qt.ItemDataRole.FontRole and str(self._queries[row]) in self._edited:
            return font(bold=True)
        return None

    def _display(self, row: int, col: int) -> str:
        if col == COL_EDITED:
            query = str(self._queries[row])
            edited = EDITED_MARK if query in self._edited else ""
            return edited + (NOTE_MARK if query in self._notes else "")
        if col == COL_QUERY:
            return str(self._queries[row])
        return self._figure_text(col, self._figures(col)[row])

    def widest_texts(self, col: int) -> list[tuple[str, bool]]:
        """The texts of a figure column (docs, judged, NDCG) that could be its widest, each with
        whether it is shown bold (an edited query): among the edited and among the other queries,
        the texts of the greatest number and of the most negative one (most digits and a sign),
        and "nan". A view fits the column by measuring these few texts, not every row."""
        values = self._figures(col)
        groups = [(values, False)]  # (no copies of 500,000 figures when nothing is edited)
        if self._edited:
            edited = self._edited_rows()
            groups = [(values[~edited], False), (values[edited], True)]
        texts: list[tuple[str, bool]] = []
        for part, bold in groups:
            if part.dtype.kind == "f":
                nan = np.isnan(part)
                if nan.any():
                    texts.append((self._figure_text(col, np.nan), bold))
                    part = part[~nan]
            if not len(part):
                continue
            texts.append((self._figure_text(col, part.max()), bold))
            lowest = part.min()
            if lowest < 0:
                texts.append((self._figure_text(col, lowest), bold))
            elif part.dtype.kind == "f" and np.signbit(part).any():  # -0.0: written "-0.0000"
                texts.append((self._figure_text(col, -0.0), bold))
        return texts

    def longest_queries(self, n: int = 5) -> list[tuple[str, bool]]:
        """The `n` longest query ids, each with whether it is shown bold (edited): the texts a view
        measures to size the query column without reading every row."""
        texts = self._queries
        longest = np.argsort(-self._lengths, kind="stable")[:n]
        return [(str(texts[i]), str(texts[i]) in self._edited) for i in longest.tolist()]

    def _figures(self, col: int) -> np.ndarray:
        """The numbers of a figure column (docs, judged, NDCG), in the frame's order."""
        return {COL_DOCS: self._docs, COL_JUDGED: self._share}.get(col, self._ndcg)

    @staticmethod
    def _figure_text(col: int, value) -> str:
        """A figure cell's text, as the table shows it (a share not given: a dash)."""
        if col == COL_JUDGED:
            return "–" if value != value else f"{value:.4f}"
        return f"{value:.4f}" if col == COL_NDCG else str(value)

    def sort_keys(self, col: int) -> np.ndarray:
        """Every entry's sort key in column `col`, in the frame's order."""
        if col == COL_EDITED:  # (edited, then noted, then both)
            return self._edited_rows().astype(np.int64) + 2 * self._noted_rows().astype(np.int64)
        run = self.run_column(col)
        if run is not None:
            return self._run_sort_keys(*run)
        return {COL_QUERY: self._natural, COL_DOCS: self._docs, COL_JUDGED: self._share}.get(col, self._ndcg)

    def _not_scored(self, row: int) -> bool:
        return bool(self._undefined[row] or self._empty[row])

    def _tooltip(self, row: int, col: int) -> str | None:
        if col in (COL_EDITED, COL_QUERY) and (note := self._notes.get(str(self._queries[row]))):
            return f"Note: {note}"
        if col == COL_JUDGED:
            if self._condensed:
                return "Not given on condensed lists: every document they keep is judged"
            depth = self._docs[row] if self._k is None else min(self._k, self._docs[row])
            return f"{self._judged[row]} of the first {depth} documents retrieved are judged"
        if col != COL_NDCG:
            return None
        at = f"@{self._k}" if self._k is not None else ""
        if self._empty[row]:
            return "Judged, but the run returned no document for this query: NDCG 0"
        if self._undefined[row]:
            return f"IDCG{at} = 0 (no relevant judged document): NDCG undefined, shown as 0"
        return f"NDCG{at} = DCG / IDCG = {self._dcg[row]:.4f} / {self._idcg[row]:.4f} = {self._ndcg[row]:.4f}"


class QueryFilterProxy(QIdentityProxyModel):
    """The query table's model as the view sees it: the source model's rows as they are, which
    sorts (`QueryTableModel.sort`) and filters (`QueryTableModel.set_filter`) them itself. Keeps
    rows whose id contains the filter text (case-insensitive) and, when a subset is set (a
    histogram bar), that are in the subset."""

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if self.sourceModel() is not None:
            self.sourceModel().sort(column, order)

    def sortColumn(self) -> int:
        model = self.sourceModel()
        return model.sort_column if model is not None else -1

    def sortOrder(self) -> Qt.SortOrder:
        model = self.sourceModel()
        return model.sort_order if model is not None else Qt.SortOrder.AscendingOrder

    def set_text(self, text: str) -> None:
        if self.sourceModel() is not None:
            self.sourceModel().set_filter(text.strip().casefold(), self.subset)

    def set_subset(self, queries: Iterable[str] | None) -> None:
        subset = None if queries is None else frozenset(map(str, queries))
        if self.sourceModel() is not None:
            self.sourceModel().set_filter(self.sourceModel().filtering[0], subset)

    @property
    def subset(self) -> frozenset[str] | None:
        model = self.sourceModel()
        return model.filtering[1] if model is not None else None


def _is_in(text, queries: np.ndarray, subset: frozenset[str]) -> np.ndarray:
    """Which ids are in `subset` (`text`: the ids as Arrow text, or None)."""
    if not subset:
        return np.zeros(len(queries), dtype=bool)
    if text is not None:
        import pyarrow as pa  # lazy: start-up (the first paint shows one list)
        import pyarrow.compute as pc

        found = pc.is_in(text, value_set=pa.array(list(subset), pa.string()))
        return found.to_numpy(zero_copy_only=False).astype(bool)
    return np.fromiter((str(q) in subset for q in queries), bool, len(queries))


def _casefolded(text, queries: np.ndarray):
    """The ids `queries` (`text`: the same as Arrow text, or None when there are none) casefolded,
    as Arrow text: in Arrow's kernel when every id is ASCII (its casefold is its lower case), else
    in one `str.casefold` of them all, joined (it maps character by character)."""
    if text is None:
        return None
    import pyarrow as pa  # lazy: start-up
    import pyarrow.compute as pc  # lazy: start-up

    if pc.all(pc.string_is_ascii(text)).as_py():
        return pc.ascii_lower(text)
    folded = "\0".join(map(str, queries)).casefold().split("\0")
    if len(folded) != len(queries):  # (an id holding the separator)
        folded = [str(q).casefold() for q in queries]
    return pa.array(folded, pa.string())


def _contains(folded, part: str) -> np.ndarray:
    """Which ids contain `part` (casefolded), `folded`: the ids casefolded (`_casefolded`). UTF-8
    bytes match where the characters do."""
    if folded is None:
        return np.zeros(0, dtype=bool)
    import pyarrow.compute as pc  # lazy: start-up

    return pc.match_substring(folded, part).to_numpy(zero_copy_only=False).astype(bool)
