"""The one object that owns what the window shows: the open `Workspace` (loaded data, edited lists,
definition), the query on screen, the undo history, and the recompute.

Data flows one way::

    user action -> Document method -> core rule makes the new state (core.edits, Workspace.with_*)
    -> StepCommand pushed -> Document._show(state) -> core recomputes once (display table, summary)
    -> changed(Changes) -> models and views

The rules (what an edit does, what it refuses) are the core's; this class holds state, keeps the
history and announces. One undo history for the whole document: Undo takes back the last step
wherever it was, showing that step's query (as a spreadsheet's undo moves to the sheet it changes).
Opening a file is a step too: undoing it brings back the document that was open, edits and all
(unless the documents kept would exceed `KEEP_FOR_UNDO_ROWS`).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoStack

from ndcg_gui.core.analysis.list_report import ListReport, ListSummary
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.lists.edits import Edit, Move
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.lists.typed_dataset import TypedDataset
from ndcg_gui.core.ndcg.measure import MEAN_FIELDS, Measure
from ndcg_gui.core.state.workspace import FileRef, Workspace
from ndcg_gui.core.writing.saving import order_columns
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.commands import K_CHANGE, StepCommand
from ndcg_gui.qt.document.list_edits import ListEdits
from ndcg_gui.qt.document.runner import Runner, engines_below_gui

if TYPE_CHECKING:
    import pandas as pd

    from ndcg_gui.core.formats.query_map import QueryMap
    from ndcg_gui.qt.document.own_columns import OwnColumns

# A query's neighbours are read ahead this long after it is shown (`read_ahead`).
AHEAD_AFTER_MS = 150
# Opening a file stays undoable while the documents the history keeps hold at most this many rows.
KEEP_FOR_UNDO_ROWS = 1_000_000


class Document(ListEdits, QObject):
    changed = Signal(object)  # Changes: once after every change
    refused = Signal(str)  # a change the data cannot take, in one line (nothing changed)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.runner = Runner(self)  # the one way work leaves the GUI thread (and comes back)
        self.state = Workspace.empty()
        self.current_query = self.state.first_query()
        # The list as loaded, with what it was made from (`_report`): kept while those stay.
        self._original: tuple[tuple, RankedList] | None = None
        self.report = self._report()
        self._followers: list[Callable[[Changes], Changes | None]] = []
        self.reading: str | None = None  # a query picked whose list is being read (`set_current_query`)
        self._read_ticket = 0  # the read whose list is wanted; an older one's is dropped
        self._read_busy = False  # a read runs (one at a time)
        self._ahead: list[str] = []  # queries to read while none is picked (`read_ahead`)
        self._reader: threading.Thread | None = None  # the last read's thread

    def _report(self) -> ListReport:
        # The list as loaded is built from the file once here (not free for a long list; the views
        # ask for the list on screen several times a change) and, unedited, is the list on screen.
        # The same file, query and definition give the same list as loaded: the one object kept,
        # so an edit's followers tell it is the same by identity, not by comparing every row.
        key = (self.state.dataset, self.current_query, self.measure)
        kept = self._original
        if kept is not None and kept[0][0] is key[0] and kept[0][1:] == key[1:]:
            original = kept[1]
        else:
            original = self.state.original(self.current_query)
            self._original = (key, original)
        edited = self.state.lists.get(self.current_query)  # (an edited list may be empty)
        return ListReport(original if edited is None else edited, self.measure, original)

    @property
    def metrics(self) -> pd.DataFrame:
        """The per-rank table of the list on screen (the core's `display_table`)."""
        return self.report.table

    @property
    def summary(self) -> ListSummary:
        """The figures at k of the list on screen, with their caveats."""
        return self.report.summary

    # ---- reading -----------------------------------------------------------------------------
    @property
    def dataset(self) -> Dataset:
        return self.state.dataset

    @property
    def file(self) -> FileRef:
        return self.state.file

    @property
    def path(self) -> Path | None:
        return self.state.file.path

    @property
    def qrels_path(self) -> Path | None:
        return self.state.file.qrels_path

    @property
    def display_name(self) -> str:
        return self.state.file.name

    @property
    def measure(self) -> Measure:
        """Which NDCG the document's figures are, at which k, and what its mean counts."""
        return self.state.measure

    @property
    def k(self) -> int:
        return self.state.k


    def queries(self) -> list[str]:
        return self.state.queries()

    def query_count(self) -> int:
        return self.state.query_count()

    def has_query(self, query: str) -> bool:
        return self.state.has_query(str(query))

    def current_list(self) -> RankedList:
        """The list on screen: the report's, made anew (`_show`) whenever the shown list, the
        file or the definition (whose tie rule orders a list as loaded) changes."""
        return self.report.list

    def list_for(self, query: str) -> RankedList:
        return self.state.list_for(query)

    def original_list(self) -> RankedList:
        """The list on screen as loaded (the report's baseline)."""
        return self.report.baseline

    def edited_queries(self) -> list[str]:
        return self.state.edited_queries()

    def unjudged_queries(self) -> list[str]:
        return self.state.unjudged_queries()

    def judgments_edited(self) -> bool:
        return self.state.judgments_edited()

    def lists_for_saving(self) -> Dataset:
        return self.state.for_saving()

    def evaluate(self) -> pd.DataFrame:
        return self.state.evaluate()

    def is_clean(self) -> bool:
        """Whether the lists are what the file holds (a definition change does not touch the file;
        undoing back to the saved lists is clean again, whatever was opened in between)."""
        return not self.state.unsaved_queries() and not self.state.notes_unsaved()

    # ---- navigation (not an undo step) -----------------------------------------------------------
    def set_current_query(self, query: str) -> None:
        """Show another query; its edits are where they were left. A list the dataset reads from
        its files (a run DuckDB reads where it lies: too slow for a frame) is read in the background
        first: meanwhile `reading` names the query, the list on screen stays the one shown and
        takes no edit, and the query is shown when its list is there. The last pick wins: a
        read overtaken by another pick (or by another query shown, another file) is dropped."""
        query = str(query)
        if query == (self.reading or self.current_query):
            return
        if query == self.current_query:  # (back to the list on screen while another is read)
            self._drop_read()
            self.announce(Changes(reading=True))
            return
        if not self.state.has_query(query):
            raise KeyError(f"no query {query!r} in this file")
        if self.state.all_at_hand(query):
            self._show(self.state, query)
            return
        self.reading = query
        self._read_ticket += 1
        self._read_next()
        self.announce(Changes(reading=True))

    def reads_pending(self) -> bool:
        """Whether a list is being read (for a pick or ahead) or a pick waits for its list."""
        return self._read_busy or self.reading is not None or bool(self._ahead)

    def read_ahead(self, queries: Sequence[str]) -> None:
        """Read these queries' lists in the background while nothing is picked (the neighbours
        of the query shown in the query table: the next arrow key shows its list at once); a
        pick goes first. Replaces the ones asked before."""
        self._ahead = [str(q) for q in queries if q is not None]
        # Once the frames that show the query are painted: its Python work (DuckDB's client turns
        # the rows into Arrow) takes the GIL from them.
        QTimer.singleShot(AHEAD_AFTER_MS, self, self._read_next)

    def _read_next(self) -> None:
        """Read the list of the query picked last, one read at a time (picks made meanwhile,
        arrow keys held down, are passed over: only the last is read next), else one to read
        ahead."""
        if self._read_busy:
            return
        query, ticket = self.reading, self._read_ticket
        if query is not None and self.state.all_at_hand(query):  # (read for an earlier pick, or ahead)
            self._show(self.state, query)
            return
        if query is None:
            ticket = None
            while self._ahead and query is None:
                q = self._ahead.pop(0)
                query = q if self.state.has_query(q) and not self.state.all_at_hand(q) else None
            if query is None:
                return
        self._read_busy = True
        done = functools.partial(self._list_read, ticket, query)
        self._reader = self.runner.run(f"read query {query}", functools.partial(read_list, self.state, query),
                                       done)

    def wait_reads(self, timeout: float = 10.0) -> bool:
        """Wait for the list being read, no other started after it (on quit: a thread still in
        DuckDB when Python ends aborts the process). True when none runs."""
        self._ahead, reader = [], self._reader
        self._drop_read()
        if reader is not None:
            reader.join(timeout)
        return reader is None or not reader.is_alive()

    def _list_read(self, ticket: int | None, query: str, problem: str | None,
                   error: BaseException | None) -> None:
        self._read_busy = False
        if ticket != self._read_ticket:  # (overtaken, or read ahead: whatever comes next)
            self._read_next()
            return
        if error is not None or problem is not None:  # (a bug is raised after this by the runner)
            self._drop_read()
            self.announce(Changes(reading=True, problem=problem))
            return
        self._show(self.state, query)
        if self.reading == query:  # (not shown after all: not a query of the state any more)
            self._drop_read()
            self.announce(Changes(reading=True))

    def _drop_read(self) -> bool:
        """Stop waiting for the list being read (its result is dropped); whether one was."""
        was, self.reading = self.reading is not None, None
        self._read_ticket += 1
        return was

    # ---- opening ---------------------------------------------------------------------------------
    def set_dataset(self, dataset: Dataset, path: str | Path | None = None,
                    qrels_path: str | Path | None = None, name: str | None = None,
                    undoable: bool = False, notes: Mapping[str, str] | None = None,
                    own: OwnColumns | None = None) -> None:
        """Show a loaded dataset at its first query, under the definition in use. `path` is where
        Save writes (None: Save asks). `undoable`: the open is an undo step (see the module doc).
        `notes`: the notes on its queries its sidecar holds. `own`: the maps of its own `segment`
        and `weight` columns (`own_columns`), which replace the segments the last document had."""
        ws = Workspace.of(dataset, file=FileRef.of(path, qrels_path, name))
        if own is not None:
            ws = ws.with_segments(own.segments).with_weights(own.weights)
        self.open_workspace(ws.with_notes(notes, saved=True) if notes else ws, undoable=undoable)

    def open_workspace(self, ws: Workspace, text: str | None = None, undoable: bool = True,
                       query: str | None = None, own_setup: bool = False,
                       own_definition: bool = False) -> None:
        """Show another document (a file opened, edits recovered after a crash) under the
        definition in use, at `query` (None: the first); an undo step when `undoable` and worth
        keeping. `own_setup`: it keeps its own runs compared and mean policy (a recovered one).
        `own_definition`: it keeps its own definition (a worked example is taught under its own)."""
        new = ws.carrying(self.state, setup=not own_setup)
        if own_definition:
            new = replace(new, measure=ws.measure)
        if undoable and self._worth_keeping(new):
            self.undo_stack.push(StepCommand(self._show, self.state, new, text or f"Open {new.file.name}",
                                             self.current_query, query))
        else:
            self.undo_stack.clear()
            self._show(new, query)

    def set_lists(self, lists: Mapping[str, RankedList], path: str | Path | None = None,
                  undoable: bool = False) -> None:
        """Lists made in code (a typed list, tests) as the document, in the given query order."""
        named = {str(q): replace(lst, query=str(q)) for q, lst in lists.items()}
        (first, *_), rest = named.values(), dict(list(named.items())[1:])
        dataset = TypedDataset.of(first)
        if rest:
            dataset = dataset.with_lists(rest)
        self.set_dataset(replace(dataset, path=Path(path) if path else None), path, undoable=undoable)

    def _worth_keeping(self, new: Workspace) -> bool:
        """Whether opening `new` should be undoable: the open document is worth going back to (not
        an untouched empty list) and the history would keep at most KEEP_FOR_UNDO_ROWS rows."""
        current = self.state
        if (not current.size() and not any(len(lst) for lst in current.lists.values())
                and not self.undo_stack.count()):  # (an empty list with steps before it is kept)
            return False
        held = {id(current.dataset): current.size(), id(new.dataset): new.size()}
        for i in range(self.undo_stack.count()):
            command = self.undo_stack.command(i)
            if isinstance(command, StepCommand):
                for ws in (command.before, command.after):
                    held[id(ws.dataset)] = ws.size()
        return sum(held.values()) <= KEEP_FOR_UNDO_ROWS

    def mark_saved(self, path: str | Path | None = None, qrels_path: str | Path | None = None) -> None:
        """After a save: the lists as they are now are what the file holds (and, after Save As,
        the file is another one; every state of this document then saves there)."""
        ref = self.state.file
        if path is not None and Path(path) != ref.path:
            ref.path, ref.name = Path(path), Path(path).name
        if qrels_path is not None:
            ref.qrels_path = Path(qrels_path)
        self.state.mark_saved()
        self.announce(Changes())  # the title and the file name shown follow

    def mark_notes_saved(self) -> None:
        """After the notes were written beside the run: they are what its sidecar holds."""
        self.state.mark_notes_saved()
        self.announce(Changes())  # the title follows

    # ---- definition (an undo step) ------------------------------------------------------------------
    def set_measure(self, measure: Measure | None = None, *, undoable: bool = True,
                    **choices: object) -> None:
        """Use `measure` (a preset's, say: without a k it keeps the one in use), or the one in use,
        with some of its choices changed (`Measure.with_`: k=, gain=, ties=, …; None: as it is).
        The mean policy stays the one in use (`set_mean` changes it). An undo step unless
        `undoable` is False (the measure a session starts with)."""
        if measure is not None:
            own = self.state.measure
            measure = measure.with_(k=measure.k or own.k, **{f: getattr(own, f) for f in MEAN_FIELDS})
        choices = {name: value for name, value in choices.items() if value is not None}
        k = choices.get("k")
        if k is not None and int(k) < 1:
            raise ValueError(f"k must be at least 1, not {k}")
        if "k" in choices:
            choices["k"] = int(choices["k"])  # (a spin box's value, numpy's integers)
        new = self.state.with_measure(measure, **choices)
        if new is self.state:
            return
        reason = self._refusal(new.measure)
        if reason is not None:  # (a run read by DuckDB: what its SQL cannot express)
            # (Nothing changed: no notice, which would stop and restart the engine's work.)
            self.refused.emit(reason)
            return
        if not undoable:  # the definition a session starts with (settings, command line)
            self._show(new, self.current_query)
            return
        only_k = new.measure.at(self.k) == self.state.measure
        text = f"Set k = {new.k}" if only_k else "Change the definition"
        query = self.current_query
        self.undo_stack.push(StepCommand(self._show, self.state, new, text, query, query,
                                         merge=K_CHANGE if only_k else -1))

    def _refusal(self, measure: Measure) -> str | None:
        """Why a run an engine scores, the open one or one compared, cannot take `measure`."""
        reason = self.dataset.refuses(measure)
        if reason is not None:
            return f"{self.display_name} is scored by DuckDB, and {reason}"
        for run in self.state.comparing.runs:
            reason = run.dataset.refuses(measure)
            if reason is not None:
                name = run.path.name if run.path is not None else run.name
                return f"{name}, compared with the open run, is scored by DuckDB, and {reason}"
        return None

    # ---- runs compared and the mean (each an undo step) -----------------------------------------------
    def add_run(self, dataset: Dataset, path: str | Path | None = None, name: str | None = None,
                open_name: str = "") -> str:
        """Compare `dataset` with the open run too; returns the name it is shown under."""
        new, name = self.state.with_run(dataset, path, name, open_name)
        self._push(new, f"Compare {name}")
        return name

    def remove_run(self, name: str) -> None:
        self._push(self.state.without_run(name), f"Stop comparing {name}")

    def clear_runs(self) -> None:
        self._push(self.state.without_runs(), "Stop comparing runs")

    def set_baseline(self, name: str | None) -> None:
        self._push(self.state.with_baseline(name), f"Compare with {name or 'the open run'}")

    def set_focus(self, name: str | None) -> None:
        self._push(self.state.with_focus(name), f"Plot {name}")

    def set_mean(self, empty: str | None = None, undefined: str | None = None) -> None:
        """Which queries the mean counts (the measure's `empty` and `undefined`; None: as they are)."""
        choices = {name: value for name, value in (("empty", empty), ("undefined", undefined))
                   if value is not None}
        self._push(self.state.with_measure(**choices), "Change which queries the mean counts")

    def set_segments(self, segments: QueryMap[str] | None) -> None:
        """Each query's segment (None: none), one undo step."""
        text = f"Open segments {segments.origin}" if segments is not None else "Drop the segments"
        self._push(self.state.with_segments(segments), text)

    def note(self, query: str) -> str:
        """The note on `query` ("" when none)."""
        return self.state.notes.get(query, "")

    def set_note(self, query: str, note: str) -> None:
        """`note` on `query` (empty: none), one undo step."""
        text = f"Note on query {query}" if note.strip() else f"Remove the note on query {query}"
        self._push(self.state.with_note(query, note), text)

    def _push(self, new: Workspace, text: str) -> None:
        if new is not self.state:
            query = self.current_query
            self.undo_stack.push(StepCommand(self._show, self.state, new, text, query, query))

    # ---- edits: each pushes one undo step -------------------------------------------------------------
    def apply(self, edit: Edit | None) -> Edit | None:
        """Push one core edit of the shown list (None: nothing to do). Returns it."""
        if edit is None or edit.after == self.current_list():
            return None
        if self.reading is not None:  # (the list on screen is not the query picked: edits wait)
            self.refused.emit(f"Query {self.reading} is being read: the list shown is query "
                              f"{self.current_query}'s, not edited meanwhile")
            return None
        query = self.current_query
        new = self.state.with_list(query, edit.after)
        self.undo_stack.push(StepCommand(self._show, self.state, new, edit.text, query, query, edit.move))
        return edit

    def rescore(self, queries: Sequence[str], text: str) -> None:
        """The lists of `queries` given scores n, n-1, … 1 in their order, as a save wrote them
        (`core.writing.saving.rescored_queries`, `order_columns`): one undo step, so the window
        shows what the file says (it kept showing the old scores while the file had the new ones)."""
        new = self.state
        for query in queries:
            lst = new.list_for(query)
            kept = order_columns(len(lst), lst.scores, "scores")
            new = new.with_list(query, replace(lst, scores=kept.score))
        self._push(new, text)

    def new_from_grades(self, grades: Sequence[float]) -> None:
        """A typed list such as `3 2 3 0 1` as a new document (`new_list`)."""
        self.new_list(RankedList.from_grades(grades), "New list")

    def new_list(self, lst: RankedList, text: str = "New list") -> None:
        """A list typed or pasted in (or File ▸ New's empty one) is a new untitled document, one
        undo step: it is its own list as loaded, the reference of 'vs as loaded', Moved and Reset."""
        self.open_workspace(Workspace.typed({"": lst}), text)

    # ---- the one place the state changes -------------------------------------------------------------
    def _show(self, state: Workspace, query: str | None, move: Move | None = None) -> None:
        """Install `state`, show `query` (None: keep the shown one if the state has it, else the
        first), recompute what the screen shows, and announce it once."""
        old, old_query = self.state, self.current_query
        if query is None or not state.has_query(query):
            query = old_query if state.has_query(old_query) and state.dataset is old.dataset else \
                state.first_query()
        self.state, self.current_query = state, query
        dataset = state.dataset is not old.dataset or state.file is not old.file  # (a new open)
        # Another query shown, or another file: a list still being read is not wanted any more.
        reading = (query != old_query or dataset) and self._drop_read()
        if dataset:
            self._ahead = []
        changes = Changes(
            reading=reading,
            dataset=dataset,
            query=query != old_query,
            lists=frozenset(q for q in set(state.lists) | set(old.lists)
                            if state.lists.get(q) is not old.lists.get(q)),
            move=move if not dataset and query == old_query else None,
            definition=state.measure.per_query() != old.measure.per_query(),
            comparing=state.comparing != old.comparing,
            policy=any(getattr(state.measure, f) != getattr(old.measure, f) for f in MEAN_FIELDS),
            segments=state.segments is not old.segments or state.weights is not old.weights,
            notes=frozenset() if state.notes is old.notes else frozenset(
                q for q in set(state.notes) | set(old.notes) if state.notes.get(q) != old.notes.get(q)),
        )
        if changes.shown_list(query) or changes.definition:
            self.report = self._report()
        self.announce(changes)

    # ---- the one change notice ---------------------------------------------------------------------
    def work_out_with(self, follower: Callable[[Changes], Changes | None]) -> None:
        """`follower` works out what follows from each change (every query's scores, the run
        comparison) before the notice is sent, in the order followers were added (the comparison
        needs the scores), and says what it changed: that goes out in the same notice."""
        self._followers.append(follower)

    def announce(self, changes: Changes) -> None:
        """Send one notice: `changes` and what the followers worked out from them. Results that
        come back from the background (scores, statistics) are announced the same way."""
        for follow in self._followers:
            more = follow(changes)
            if more is not None:
                changes = changes | more
        self.changed.emit(changes)


def read_list(state: Workspace, query: str) -> str | None:
    """In a worker thread, below the window: `query`'s lists read by `state`'s datasets (the open
    run's, the compared runs'), which keep them (then at hand); a problem reading one in one line,
    or None."""
    engines_below_gui()  # (DuckDB's threads below the window; this one holds the GIL between calls)
    try:
        state.read_all(query)
    except InputError as err:
        return str(err)
    return None
