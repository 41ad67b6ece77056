"""Files in and out of the document: the one way a file is opened (dialog, command line, recent
files, a file dropped on the window, big files read in the background), saving, and the
unsaved-changes question.

Opening, whatever started it: `open()` asks about unsaved changes once, hands the file to the
loader (which reads a small file at once and a big one in a process, with progress and Cancel),
and `_loaded` finishes every open the same way: the document shows the dataset (an undo step),
the file joins the recent files, the status bar says so, and `--query` is applied. A failed load
says why in one line and leaves the document as it was.

Reading and writing are the core's (`core.reading.load`, `core.writing`, `core.saving`); this module chooses
paths, asks questions and reports.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QMimeData, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QApplication, QFileDialog

from ndcg_gui.core.errors import InputError, NeedsQrels
from ndcg_gui.core.formats.query_notes import notes_beside
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.writing.saving import (
    Stamp,
    backup_copy,
    judgment_targets,
    loaded_stamps,
    refuse_save_over_inputs,
    rescored_queries,
    save_as_name,
    stamp_key,
)
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.document.loader import BackgroundLoader, LoadFn, LoadResult
from ndcg_gui.qt.document.own_columns import own_columns, own_said, scored_with_own_columns
from ndcg_gui.qt.document.query_scores import QueryScores
from ndcg_gui.qt.widgets import dialogs
from ndcg_gui.qt.window.feedback import Feedback
from ndcg_gui.qt.window.query_notes import QueryNotes
from ndcg_gui.qt.window.settings_store import RecentFiles

# A TREC run is usually named input.NAME with no extension: the dialogs show every file.
OPEN_FILTER = ("All files (*);;Ranked lists (*.csv *.tsv *.txt *.run *.qrels *.trec *.gz *.parquet "
               "*.feather *.arrow *.jsonl *.ndjson)")
SAVE_FILTERS = {"CSV (*.csv)": ".csv", "TREC run (*.run)": ".run"}
Status = Callable[[str, int], None]


class FileFlow(QObject):
    opened = Signal(str)  # the file's path, after it is shown

    def __init__(self, document: Document, scores: QueryScores, loader: BackgroundLoader,
                 recent: RecentFiles, feedback: Feedback) -> None:
        super().__init__(feedback.parent)
        self.document, self.scores, self.loader, self.recent = document, scores, loader, recent
        self._parent, self._status = feedback.parent, feedback.status
        self.notes = QueryNotes(document, feedback)  # the notes on queries, saved beside the run
        # (run, qrels, --query, the measure the loader scores under, undoable) of the open under way
        self._pending: tuple[Path, Path | None, str | None, Measure, bool] | None = None
        self._edited_while_loading = False
        self._restoring: Callable[[LoadResult], None] | None = None  # (a recovered session's read)
        self._edited_while_restoring = False
        self._restoring_name = ""
        self._after_open: Callable[[], None] | None = None  # (a restore asked for while a file loads)
        self.problem: str | None = None  # the last open's failure, for the command line
        self._report = True
        self._rescored_ok: set[str] = set()  # queries whose new scores were accepted (this document)
        self._rank_column = False  # a CSV save keeps every order by a rank column (asked, this document)
        # Every file read or written here, as it was then: a save over one that another program
        # changed since asks first (for a big file and a small one alike).
        self._stamps: dict[Path, Stamp] = {}
        loader.task.finished.connect(self._landed)
        document.changed.connect(self._note_edit)

    # ---- opening ---------------------------------------------------------------------------------
    def open(self, path: str | Path, qrels: str | Path | None = None, query: str | None = None,
             ask: bool = True, report: bool = True, undoable: bool = True, judged: bool = True) -> bool:
        """Open a file (with its qrels), then `query` in it. False when the person cancelled or the
        file could not be read at once; a big file answers True and opens when it is read.
        `report=False`: a failure to read at once is left in `problem` (the command line reports it)
        instead of a dialog. `undoable=False`: not an undo step (the command line's file replaces
        the example shown while it loads, which the person never chose). `judged=False`: a TREC run
        without qrels opens with every document unjudged (to compare runs by their rankings)."""
        if self._restoring is not None and not dialogs.ask_stop_restore(
                self._parent, self._restoring_name, Path(path).name):  # (the person said yes to it)
            self._status(f"{Path(path).name} not opened: the edits of {self._restoring_name} are "
                         "being restored", 8000)
            return False
        if ask and not self.maybe_discard("opening another file"):
            return False
        doc = self.document
        # A restore waiting for the open under way waits for this one instead (not started by the
        # cancel below, only to be cancelled by this open's start).
        after, self._after_open = self._after_open, None
        self.loader.cancel()  # (the load under way ends first, said as its own: not this one's end)
        self._after_open = after
        self.problem = None
        self._report = report
        self._pending = (Path(path), Path(qrels) if qrels else None, query, doc.measure, undoable)
        self._edited_while_loading = False
        self.loader.start(path, qrels, then=functools.partial(scored_with_own_columns, measure=doc.measure),
                          measure=doc.measure, need_grades=judged)
        self._report = True  # a big file failing later is reported whatever the caller asked
        return self.problem is None

    def _note_edit(self, changes: Changes) -> None:
        if changes.lists and self._pending is not None:
            self._edited_while_loading = True
        if changes.lists and self._restoring is not None:
            self._edited_while_restoring = True
        if changes.dataset:  # another document (a file, a typed list, recovered edits): ask again
            self._rescored_ok.clear()
            self._rank_column = False

    def restore(self, path: Path, qrels: Path | None, read: LoadFn, engine: bool,
                landed: Callable[[LoadResult], None]) -> None:
        """A session recovered after a crash (`recovery.py`): its files read by `read` as `open`
        reads a file (at once, or in the background with the same progress and Cancel; `engine`:
        DuckDB reads one); `landed` gets how it ended (its data: what `read` made). A file being
        opened (the command line's, at start-up) is opened first, the session shown after it."""
        if self._pending is not None:
            self._after_open = functools.partial(self.restore, path, qrels, read, engine, landed)
            return
        self.loader.cancel()  # (a restore under way ends first, said as its own)
        self._restoring, self._edited_while_restoring = landed, False
        self._restoring_name = path.name
        self.loader.start_reading(path, qrels, read, engine)

    def _landed(self, result: LoadResult) -> None:
        if self._restoring is not None:
            landed, self._restoring = self._restoring, None
            landed(result)
            return
        if result.cancelled:
            self._cancelled()
        elif result.problem is not None:
            self._failed(result.problem)
        else:
            self._loaded(result.data, result.extra)
        after, self._after_open = self._after_open, None
        if after is not None:
            after()  # (waits again if another open began meanwhile)

    def may_restore(self, what: str) -> bool:
        """Whether a recovered session just read may replace the document: edits made while it was
        read are asked about, as an open asks (a big document keeps no undo step to bring them back)."""
        edited, self._edited_while_restoring = self._edited_while_restoring, False
        return not edited or self.maybe_discard(what)

    def _loaded(self, dataset, extra) -> None:
        scored, own = extra if extra is not None else (None, None)  # (`scored_with_own_columns`)
        pending, self._pending = self._pending, None
        if pending is None:
            return
        path, qrels, query, measure, undoable = pending
        # Unsaved changes were asked about before loading; edits made since are asked about now.
        if self._edited_while_loading and not self.maybe_discard(f"opening {path.name}"):
            return
        # Scored while loading under the measure of the time: used if that still holds.
        self.scores.offer(dataset, measure, scored)
        self._stamps.update(loaded_stamps(dataset))
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        # The objects held until now are left out of the collector's full passes while the new
        # file is installed: its allocations made one land there (a long pass over this process's
        # objects for a big file, in the frame that shows them); back in a second later.
        notes, notes_problem = notes_beside(path)  # (a bad sidecar is said; the run opens all the same)
        if own is None:  # (its segment and weight columns; a bad cell is said, as a sidecar's)
            own = own_columns(dataset)
        gc.freeze()
        try:
            self.document.set_dataset(dataset, path, qrels, undoable=undoable, notes=notes, own=own)
        finally:
            QApplication.restoreOverrideCursor()
            QTimer.singleShot(1000, self, gc.unfreeze)
        self.recent.add(path, qrels)
        queries = self.document.query_count()
        back = " (Ctrl+Z goes back to the previous document)" if self.document.undo_stack.canUndo() else ""
        engine = "" if dataset.in_memory else ", scored by DuckDB where it lies (too big to load)"
        count = f": {queries:,} queries" if queries > 1 else ""
        noted = f", {len(notes):,} note{'' if len(notes) == 1 else 's'} on queries" if notes else ""
        said = "".join(f"; {p}" for p in (*own.problems, notes_problem) if p) + own_said(own)
        self._status(f"Opened {path.name}{count}{noted}{engine}{back}{said}", 8000)
        if query is not None:
            if self.document.has_query(query):
                self.document.set_current_query(query)
            else:
                self._failed(str(InputError(f'--query "{query}": no such query in {path.name}')))
        self.opened.emit(str(path))

    def _cancelled(self) -> None:
        self._pending = None
        self._status("Loading cancelled", 5000)

    def _failed(self, message: str) -> None:
        self._pending = None
        if message.endswith((NeedsQrels.MESSAGE, "give its qrels too")):
            message += " (File ▸ Open run with qrels…, or drop the run and its qrels on the window together)"
        self.problem = message
        if self._report:
            dialogs.show_error(self._parent, "Could not open the file", message)

    def open_dialog(self) -> None:
        if not self.maybe_discard("opening another file"):
            return
        path, _ = QFileDialog.getOpenFileName(self._parent, "Open a ranked list", self._start_dir(),
                                              OPEN_FILTER)
        if path:
            self.open(path, ask=False)

    def open_with_qrels_dialog(self) -> None:
        # Unsaved changes are asked about first: not after two files were picked.
        if not self.maybe_discard("opening another file"):
            return
        run, _ = QFileDialog.getOpenFileName(self._parent, "Open a TREC run", self._start_dir(), OPEN_FILTER)
        if not run:
            return
        qrels, _ = QFileDialog.getOpenFileName(self._parent, "Its qrels (judgments)", str(Path(run).parent),
                                               OPEN_FILTER)
        if qrels:
            self.open(run, qrels, ask=False)

    def new_list(self) -> None:
        if not self.maybe_discard("starting a new list"):
            return
        from ndcg_gui.core.lists.ranked_list import RankedList

        self.document.new_list(RankedList.from_grades([]), "New list")

    @staticmethod
    def dropped_paths(mime: QMimeData) -> list[str]:
        return [u.toLocalFile() for u in mime.urls() if u.isLocalFile()] if mime.hasUrls() else []

    def open_dropped(self, paths: list[str]) -> None:
        """One file: open it. Two: the one named like qrels is the judgments of the other."""
        if len(paths) == 2:
            qrels = [p for p in paths if "qrel" in Path(p).name.lower()]
            if len(qrels) == 1:
                run = next(p for p in paths if p != qrels[0])
                self.open(run, qrels[0])
                return
        self.open(paths[0])

    # ---- saving ---------------------------------------------------------------------------------
    def maybe_discard(self, what: str) -> bool:
        """True when it is fine to replace the document: it is saved, or the person says so."""
        if self.document.is_clean():
            return True
        answer = dialogs.ask_unsaved(self._parent, what)
        if answer == dialogs.Unsaved.SAVE:
            return self.save()
        return answer == dialogs.Unsaved.DISCARD

    def save(self) -> bool:
        doc = self.document
        kind = getattr(doc.dataset, "kind", "csv")
        if doc.path is not None and not doc.state.unsaved_queries() and doc.state.notes_unsaved():
            return self.notes.save()  # only notes typed: the run itself is not written again
        if doc.path is None or kind not in ("csv", "trec_run"):
            return self.save_as()
        return self.save_to(doc.path, ".run" if kind == "trec_run" else ".csv")

    def save_as(self) -> bool:
        doc = self.document
        # A run is offered as a run first, anything else as CSV.
        as_run = getattr(doc.dataset, "kind", "csv") == "trec_run"
        first = "TREC run (*.run)" if as_run else "CSV (*.csv)"
        start = str(save_as_name(doc.path, SAVE_FILTERS[first])) if doc.path else self._start_dir()
        path, chosen = QFileDialog.getSaveFileName(self._parent, "Save the list", start,
                                                   ";;".join(SAVE_FILTERS), first)
        if not path:
            return False
        suffix = SAVE_FILTERS.get(chosen, ".csv")
        if Path(path).suffix.lower() in (".run", ".txt", ".trec"):
            suffix = ".run"
        return self.save_to(path, suffix)

    def save_to(self, path: str | Path, suffix: str = ".csv") -> bool:
        """Write every query (edits included): CSV, or a TREC run for suffix '.run'. With qrels,
        the judgments go to a qrels file too (neither format can hold the judged documents a list
        did not retrieve): over the loaded one when a grade was edited, beside a new file always."""
        from ndcg_gui.core.writing import writers

        doc, path = self.document, Path(path)
        try:  # its own file is the document's to rewrite; its qrels or a run compared are not
            compared = [r.path for r in doc.state.comparing.runs]
            refuse_save_over_inputs(path, doc.path, [doc.qrels_path, *compared])
        except InputError as err:
            dialogs.show_error(self._parent, "Could not save", str(err))
            return False
        data = doc.lists_for_saving()
        engine = not data.in_memory  # read where it lies (too big to load): its edited lists alone
        if engine:
            data = data.edited_only()
            if data is None:
                self._status(f"Nothing to save: no list of {doc.display_name} was edited", 5000)
                return True
        as_run = suffix == ".run"
        rescored = [] if self._rank_column and not as_run else rescored_queries(data, as_run=as_run)
        if set(rescored) - self._rescored_ok:  # asked once for each list
            answer = dialogs.ask_rescore(self._parent, rescored, path, rank=not as_run)
            if answer is None:
                return False
            if answer == "rank":
                self._rank_column, rescored = True, []
            else:
                self._rescored_ok.update(rescored)
        target = self._judgments_target(data, path)
        if target is False:
            return False  # the person cancelled
        qrels = None if target is None else target.path
        if not self._may_overwrite([path] if qrels is None else [path, qrels]):
            return False
        try:
            if target is not None and target.backup:
                backup_copy(target.path)  # the qrels the person opened, kept before replacing them
            if suffix == ".run":
                writers.write_trec_run(data, path)
            else:
                writers.write_csv(data, path, rank=self._rank_column)
            if qrels is not None:
                writers.write_qrels(data, qrels)
        except (InputError, OSError) as err:
            dialogs.show_error(self._parent, "Could not save", str(err))
            return False
        for written in (path, qrels):
            if written is not None and (stamp := Stamp.of(written)) is not None:
                self._stamps[stamp_key(written)] = stamp
        if rescored:  # the scores the file has now, shown (Undo gives the old ones back)
            doc.rescore(rescored, f"New scores n, n-1, … 1 as saved in {path.name}")
        saved = path.name + (f" and {qrels.name}" if qrels is not None else "")
        if engine:  # the document stays the big file; its edits are kept in `path`
            doc.mark_saved()
            if (problem := self.notes.save_beside(doc.path)) is not None:
                dialogs.show_error(self._parent, "Could not save the notes", problem)
            n = len(data.queries())
            self._status(f"Saved the {n} edited quer{'y' if n == 1 else 'ies'} to {saved} "
                         f"({doc.display_name} itself is not rewritten)", 8000)
            return True
        moved = path != doc.path or (qrels is not None and qrels != doc.qrels_path)
        doc.mark_saved(path, qrels)
        if (problem := self.notes.save_beside(path)) is not None:
            dialogs.show_error(self._parent, "Could not save the notes", problem)
        if moved:
            self.recent.add(path, doc.qrels_path)
        self._status(f"Saved {saved}", 5000)
        return True

    def _may_overwrite(self, paths: list[Path]) -> bool:
        """False when one of `paths` was changed by another program since it was read or written
        here and the person does not want those changes replaced."""
        for path in paths:
            stamp = self._stamps.get(stamp_key(path))
            if stamp is not None and stamp.changed(path) and not dialogs.ask_overwrite_changed(
                    self._parent, path):
                return False
        return True

    def _judgments_target(self, data, path: Path):
        """Where the judgments go with the lists saved at `path` (core.saving decides what loses and
        overwrites nothing): None when nowhere, a new file beside the lists when that is the only
        place, and the person's choice when the qrels they opened could be replaced (False: they
        cancelled the save)."""
        targets = judgment_targets(data, path, self.document.judgments_edited())
        if not targets:
            return None
        loaded = next((t for t in targets if t.kind == "loaded"), None)
        beside = next(t for t in targets if t.kind == "beside")
        if loaded is None:
            return beside
        answer = dialogs.ask_judgments(self._parent, loaded.path, loaded.backup, beside.path)
        return False if answer is None else loaded if answer == "loaded" else beside

    # ---- helpers ----------------------------------------------------------------------------------
    def _start_dir(self) -> str:
        if self.document.path:
            return str(self.document.path.parent)
        if self.recent.entries:
            return str(Path(self.recent.items()[0][0]).parent)
        return str(Path.home())
