"""The one object that owns what the window shows: the loaded queries, each query's edited list,
the definition of NDCG, one undo stack per query, and the recompute.

Data flows one way::

    user action -> Document method -> QUndoCommand pushed -> command calls Document._install()
    -> RankedList replaced -> core recomputes once (RankedList.metrics) -> signals -> models/views

API for the other parts of the window (the query browser uses the same):

- `set_dataset(ds, path=None, undoable=False)`: a loaded `core.dataset.Dataset`. Starts a fresh
  session (the window asks about unsaved changes first); with `undoable` the open is the new
  session's first undo step, whose undo brings back the previous document with its edits and undo
  history (`Session`).
  `set_lists({q: RankedList})` does the same for lists made in code (tests, a typed list).
- `queries()`, `current_query`, `set_current_query(q)`: switch the editor to another query. Each
  query keeps its edited list and its own undo stack (`undo_group` holds them; the active stack is
  the current query's), so switching back finds the edits and their undo history.
- `current_list()`, `metrics` (the `per_rank` table of the current list plus `contribution` and
  `ideal_gain`), `summary` (figures @k and warnings for the headline).
- Edits, each one undo step: `move_rows`, `set_grade`, `set_doc`, `insert_rows`, `remove_rows`,
  `set_grades_from`, `reorder`, `sort_ideal`, `reverse`, `reset_to_original`, `replace_list`.
- Definition: `config`, `k`, `ties`, `set_definition(config=, k=, ties=)`.
- `edited_queries()`, `lists_for_saving()` (the dataset with every edited query swapped in),
  `evaluate()` (all queries, edits included, at the current k and definition), `is_clean()`,
  `set_clean()`.

Signals: `rowsAboutToMove(first, count, destination)` then `listChanged(move)` (move is the
(first, count, destination) tuple or None for any other change), `metricsChanged`,
`definitionChanged`, `currentQueryChanged(str)`, `datasetChanged`, `queryEdited(str)`,
`cleanChanged(bool)` (the current query's state; ask `is_clean()` for the whole document).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd
import shiboken6
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoGroup, QUndoStack

from ndcg_gui.core.config import DEFAULT_K, MetricConfig, TiesName
from ndcg_gui.core.dataset import Dataset
from ndcg_gui.core.list_report import metrics_table, summarize
from ndcg_gui.core.ranked_list import RankedList
from ndcg_gui.qt.commands import MoveRowsCommand, OpenCommand, SetListCommand

# A document bigger than this is not kept in memory to undo the opening of another file.
KEEP_FOR_UNDO_ROWS = 1_000_000


@dataclass
class Session:
    """Everything a file open replaces, kept by the open's undo step."""

    dataset: Dataset
    path: Path | None
    qrels_path: Path | None
    display_name: str
    queries: list[str]
    lists: dict[str, RankedList]
    stacks: dict[str, QUndoStack]
    current_query: str


class Document(QObject):
    rowsAboutToMove = Signal(int, int, int)
    listChanged = Signal(object)
    metricsChanged = Signal()
    definitionChanged = Signal()
    currentQueryChanged = Signal(str)
    datasetChanged = Signal()
    queryEdited = Signal(str)
    cleanChanged = Signal(bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.undo_group = QUndoGroup(self)
        # Only the active (current query's) stack can change; the group relays it. A native
        # signal-to-signal connection: the group also signals while it is being destroyed.
        self.undo_group.cleanChanged.connect(self.cleanChanged)
        self.config = MetricConfig()
        self.k = DEFAULT_K
        self.ties: TiesName = "trec"
        self.dataset: Dataset = Dataset.from_ranked_list(RankedList.from_grades([]))
        self.path: Path | None = None
        self.display_name = "untitled"
        self.qrels_path: Path | None = None
        self._queries: list[str] = [""]
        self._lists: dict[str, RankedList] = {}
        self._stacks: dict[str, QUndoStack] = {}
        self._open_command: OpenCommand | None = None  # the undo step of the last open, if kept
        self._retired: list[QUndoStack] = []  # stacks of the document just replaced (see _retire_stacks)
        self.current_query = ""
        self._list = RankedList.from_grades([])
        self.metrics = metrics_table(self._list, self.config)
        self.summary = summarize(self._list, self.k, self.config)
        self._new_session()

    # ---- the loaded data -------------------------------------------------------------------
    def set_dataset(self, dataset: Dataset, path: str | Path | None = None,
                    qrels_path: str | Path | None = None, name: str | None = None,
                    undoable: bool = False) -> None:
        """Show a loaded dataset, opening its first query. Edits and undo history start afresh.
        `path` is where Save writes (None: Save asks); `name` is what the title shows. `undoable`:
        the open is an undo step that brings back the document open now (unless that one is empty,
        or too big to keep)."""
        before = self._detach_session() if undoable and self._worth_keeping() else None
        self._open_command = None  # (its stack goes with the session it belonged to)
        self.dataset = dataset
        self.path = Path(path) if path is not None else None
        self.qrels_path = Path(qrels_path) if qrels_path is not None else None
        self.display_name = name or (self.path.name if self.path else "untitled")
        self._new_session()
        if before is not None:
            self._open_command = OpenCommand(self, before, f"Open {self.display_name}")
            self.undo_stack.push(self._open_command)
            self.undo_stack.setClean()

    def set_lists(self, lists: Mapping[str, RankedList], path: str | Path | None = None,
                  undoable: bool = False) -> None:
        """Lists made in code (a typed list, tests) as the document, in the given query order."""
        named = {str(q): replace(lst, query=str(q)) for q, lst in lists.items()}
        (first, *_), rest = named.values(), dict(list(named.items())[1:])
        dataset = Dataset.from_ranked_list(first)
        if rest:
            dataset = dataset.with_lists(rest)
        self.set_dataset(replace(dataset, path=Path(path) if path else None), undoable=undoable)

    def _new_session(self) -> None:
        self._retire_stacks()
        self._stacks = {}
        self._lists = {}
        self._queries = [str(q) for q in self.dataset.queries()] or [""]
        first = self._queries[0]
        self.current_query = first
        self._list = self._original(first)
        self._activate_stack(first)
        self._recompute()
        self.datasetChanged.emit()
        self.currentQueryChanged.emit(first)
        self.listChanged.emit(None)
        self.metricsChanged.emit()
        self.cleanChanged.emit(True)

    def _retire_stacks(self) -> None:
        """Take the current stacks out of the group. They are dropped at the next change of
        document, not now: this may run inside the undo of a command that one of them holds."""
        for stack in self._stacks.values():
            self.undo_group.removeStack(stack)
        self._retired = list(self._stacks.values())
        self._stacks = {}

    def _worth_keeping(self) -> bool:
        rows = len(self.dataset.run) + (0 if self.dataset.qrels is None else len(self.dataset.qrels))
        typed = any(len(lst) for lst in self._lists.values())  # lists typed into an empty document
        return rows <= KEEP_FOR_UNDO_ROWS and (rows > 0 or typed)

    def _detach_session(self) -> Session:
        """The open document, its undo stacks taken out of the group (kept, not deleted)."""
        if self._open_command is not None and shiboken6.isValid(self._open_command):
            self._open_command.forget()  # keep one previous document, not a chain of them
            self._open_command = None
        session = Session(self.dataset, self.path, self.qrels_path, self.display_name,
                          list(self._queries), dict(self._lists), dict(self._stacks), self.current_query)
        for stack in self._stacks.values():
            self.undo_group.removeStack(stack)
        self._stacks = {}
        return session

    def _restore_session(self, session: Session) -> None:
        """Undo of an open: the document detached by it comes back; the current one is dropped."""
        self._retire_stacks()
        self.dataset, self.path, self.qrels_path = session.dataset, session.path, session.qrels_path
        self.display_name = session.display_name
        self._queries, self._lists, self._stacks = session.queries, session.lists, session.stacks
        for stack in self._stacks.values():
            self.undo_group.addStack(stack)
        self._open_command = None  # the restored document's own open step was forgotten
        self.current_query = session.current_query
        self._list = self.list_for(self.current_query)
        self._activate_stack(self.current_query)
        self._recompute()
        self.datasetChanged.emit()
        self.currentQueryChanged.emit(self.current_query)
        self.listChanged.emit(None)
        self.metricsChanged.emit()
        self.cleanChanged.emit(self.is_clean())

    def queries(self) -> list[str]:
        return list(self._queries)

    def _original(self, query: str) -> RankedList:
        if query not in set(self.dataset.queries()):
            return RankedList.from_grades([], query=query)
        return self.dataset.ranked_list(query)

    def original_list(self) -> RankedList:
        return self._original(self.current_query)

    def current_list(self) -> RankedList:
        return self._list

    def list_for(self, query: str) -> RankedList:
        return self._lists.get(query) or self._original(query)

    def set_current_query(self, query: str) -> None:
        """Open another query in the editor; its edits and undo history are where they were left."""
        query = str(query)
        if query == self.current_query:
            return
        if query not in self._queries:
            raise KeyError(f"no query {query!r} in this file")
        self.current_query = query
        self._list = self.list_for(query)
        self._activate_stack(query)
        self._recompute()
        self.currentQueryChanged.emit(query)
        self.listChanged.emit(None)
        self.metricsChanged.emit()

    def _activate_stack(self, query: str) -> None:
        stack = self._stacks.get(query)
        if stack is None:
            # Owned by Python, not by the group: a stack lives as long as this document or a kept
            # `Session` refers to it, and is never deleted from under a Python reference.
            stack = QUndoStack()
            self.undo_group.addStack(stack)
            self._stacks[query] = stack
        self.undo_group.setActiveStack(stack)

    @property
    def undo_stack(self) -> QUndoStack:
        return self._stacks[self.current_query]

    def edited_queries(self) -> list[str]:
        """Queries whose list differs from the file's."""
        return [q for q, lst in self._lists.items() if lst != self._original(q)]

    def judgments_edited(self) -> bool:
        """Whether a grade or a judged document differs from the file's: the qrels need saving."""
        return any(self._lists[q].judgments() != self._original(q).judgments() for q in self.edited_queries())

    def is_clean(self) -> bool:
        return all(stack.isClean() for stack in self._stacks.values() if shiboken6.isValid(stack))

    def set_clean(self) -> None:
        """After a save: the lists as they are now are what the file holds."""
        for stack in self._stacks.values():
            stack.setClean()
        self.cleanChanged.emit(True)

    def lists_for_saving(self) -> Dataset:
        """The dataset with every edited query's list swapped in (unedited queries untouched)."""
        edited = {q: lst for q, lst in self._lists.items() if lst != self._original(q)}
        return self.dataset.with_lists(edited) if edited else self.dataset

    def evaluate(self) -> pd.DataFrame:
        """Every query scored at the current k and definition, edits included."""
        return self.lists_for_saving().evaluate(self.k, self.config, ties=self.ties)

    # ---- definition --------------------------------------------------------------------------
    def set_definition(self, config: MetricConfig | None = None, k: int | None = None,
                       ties: TiesName | None = None) -> None:
        changed = False
        if config is not None and config != self.config:
            self.config, changed = config, True
        if k is not None and int(k) != self.k:
            if int(k) < 1:
                raise ValueError(f"k must be at least 1, not {k}")
            self.k, changed = int(k), True
        if ties is not None and ties != self.ties:
            self.ties, changed = ties, True
        if changed:
            self._recompute()
            self.definitionChanged.emit()
            self.metricsChanged.emit()

    # ---- edits: each pushes one undo command ---------------------------------------------------
    def replace_list(self, new: RankedList, text: str) -> None:
        """Any edit: the current list becomes `new`, as one undo step."""
        if new == self._list:
            return
        self.undo_stack.push(SetListCommand(self, self.current_query, self._list, new, text))

    def move_rows(self, first: int, count: int, destination: int) -> bool:
        """Rows first..first+count-1 to before row `destination` (Qt's rule). False if a no-op."""
        n = len(self._list)
        if count < 1 or first < 0 or first + count > n or not 0 <= destination <= n:
            return False
        if first <= destination <= first + count:
            return False
        after = self._list.moved(first, count, destination)
        what = "row" if count == 1 else f"{count} rows"
        self.undo_stack.push(
            MoveRowsCommand(self, self.current_query, self._list, after, (first, count, destination),
                            f"Move {what}")
        )
        return True

    def set_grade(self, row: int, grade: float) -> None:
        self.replace_list(self._list.with_grade(row, grade), f"Set grade of {self._list.docs[row]}")

    def set_doc(self, row: int, doc: str) -> None:
        doc = doc.strip()
        if not doc:
            raise ValueError("a document id cannot be empty")
        if doc != self._list.docs[row] and doc in set(self._list.docs.tolist()):
            raise ValueError(f"document {doc!r} is already in the list (rank "
                             f"{self._list.docs.tolist().index(doc) + 1})")
        self.replace_list(self._list.with_doc(row, doc), f"Rename {self._list.docs[row]} to {doc}")

    def insert_rows(self, row: int, docs: Sequence[str] | None, grades: Sequence[float],
                    text: str = "Insert rows") -> None:
        """New rows before `row`; docs=None names them d1, d2, … avoiding ids already used."""
        if docs is None:
            docs = self.fresh_doc_ids(len(grades))
        taken = set(self._list.docs.tolist())
        dupes = [d for d in docs if d in taken]
        if dupes or len(set(docs)) != len(docs):
            raise ValueError(f"document {(dupes or list(docs))[0]!r} would be in the list twice")
        self.replace_list(self._list.inserted(row, docs, grades), text)

    def fresh_doc_ids(self, count: int) -> list[str]:
        taken = set(self._list.docs.tolist()) | set(self._list.unretrieved)
        out, i = [], len(self._list) + 1
        while len(out) < count:
            if f"d{i}" not in taken:
                out.append(f"d{i}")
            i += 1
        return out

    def remove_rows(self, rows: Sequence[int]) -> None:
        rows = sorted(set(rows))
        if rows:
            what = "row" if len(rows) == 1 else f"{len(rows)} rows"
            self.replace_list(self._list.removed(rows), f"Delete {what}")

    def set_grades_from(self, row: int, grades: Sequence[float], text: str = "Paste grades") -> None:
        """Grades of rows row, row+1, … overwritten; rows past the end are added as new documents."""
        lst = self._list
        fit = min(len(grades), len(lst) - row)
        if fit > 0:
            new_grades = lst.grades.copy()
            new_grades[row:row + fit] = grades[:fit]
            lst = replace(lst, grades=new_grades)
        rest = list(grades[max(fit, 0):])
        if rest:
            ids = self.fresh_doc_ids(len(rest))
            lst = lst.inserted(len(lst), ids, rest)
        self.replace_list(lst, text)

    def reorder(self, order: Sequence[int] | np.ndarray, text: str) -> None:
        self.replace_list(self._list.reordered(order), text)

    def sort_ideal(self) -> None:
        self.reorder(self._list.ideal_order(self.config), "Sort to ideal")

    def reverse(self) -> None:
        self.reorder(np.arange(len(self._list))[::-1], "Reverse")

    def reset_to_original(self) -> None:
        self.replace_list(self.original_list(), "Reset to the file's order")

    def new_from_grades(self, grades: Sequence[float]) -> None:
        """A typed list such as `3 2 3 0 1` replaces the current one (undoable)."""
        self.replace_list(RankedList.from_grades(grades, query=self.current_query), "New list")

    # ---- called by the undo commands only ----------------------------------------------------
    def _install(self, query: str, lst: RankedList, move: tuple[int, int, int] | None = None) -> None:
        if query != self.current_query:  # undo of another query's stack: show that query first
            self.set_current_query(query)
        if query != self._queries[0] and self._open_command is not None:
            # The open's undo step sits in the first query's history: undoing it later would
            # drop this edit without asking. Opening stays undoable only until another query changes.
            if shiboken6.isValid(self._open_command):
                self._open_command.forget()
            self._open_command = None
        self._lists[query] = lst
        if move is not None:
            self.rowsAboutToMove.emit(*move)
        self._list = lst
        self._recompute()
        self.listChanged.emit(move)
        self.metricsChanged.emit()
        self.queryEdited.emit(query)

    def _recompute(self) -> None:
        self.metrics = metrics_table(self._list, self.config)
        self.summary = summarize(self._list, self.k, self.config)
