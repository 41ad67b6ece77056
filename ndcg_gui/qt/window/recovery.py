"""Edits survive a crash: while the document has unsaved edits, they are written to a recovery
file every few seconds (core.recovery); a clean exit or a save removes it. The file is written
(and synced) or removed in a thread of its own, never on the GUI thread: beside an engine's spill
files a sync or an unlink waits for the disk (a long frame, measured beside DuckDB's 50M job).
At the next start, a recovery file left by a window that is gone is offered back. Each window
has a file of its own (a random id) and holds its lock while it lives (`RecoveryLock`).

The folder is the application's data folder (`recovery/`), or NDCG_RECOVERY_DIR when set.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QStandardPaths, QTimer

from ndcg_gui.core.errors import InputError, LoadCancelled
from ndcg_gui.core.state import recovery as recovery_files
from ndcg_gui.core.state.recovery import LeftBehind, RecoveryLock, Snapshot, new_recovery_path, snapshot_json
from ndcg_gui.core.state.recovery import left_behind as _left_behind
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.document.loader import ENGINE_STEPS, LoadResult
from ndcg_gui.qt.document.runner import engines_below_gui, start_thread
from ndcg_gui.qt.widgets import dialogs

if TYPE_CHECKING:
    from ndcg_gui.core.lists.dataset import Dataset
    from ndcg_gui.core.ndcg.measure import Measure
    from ndcg_gui.core.state.workspace import Workspace
    from ndcg_gui.qt.window.file_flow import FileFlow

INTERVAL_MS = 3000


def recovery_dir() -> Path:
    override = os.environ.get("NDCG_RECOVERY_DIR")
    if override:
        return Path(override)
    return Path(QStandardPaths.writableLocation(QStandardPaths.AppLocalDataLocation)) / "recovery"


def left_behind(folder: Path | None = None) -> list[tuple[Path, Snapshot]]:
    """Recovery files of windows that are gone, oldest first (damaged ones are moved aside)."""
    found, _notes = _left_behind(folder or recovery_dir())
    for item in found:
        item.keep()
    return [(item.path, item.snapshot) for item in found]


class Recovery(QObject):
    """Keeps this process's recovery file in step with the document's unsaved edits."""

    def __init__(self, document: Document, folder: Path | None = None, interval_ms: int = INTERVAL_MS,
                 on_error: Callable[[str], None] | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.path = new_recovery_path(folder or recovery_dir())
        try:  # taken before the file is first written: no other window may take it for a dead one's
            self._lock: RecoveryLock | None = RecoveryLock.take(self.path)
        except OSError:  # a folder that cannot be written: said at the first write
            self._lock = None
        self._dirty = False
        self._on_error = on_error
        self._writer = _Writer(self.path)
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.write_now)
        self._timer.start()
        document.changed.connect(self._follow)

    def _follow(self, changes: Changes) -> None:
        self._dirty = True

    def write_now(self) -> None:
        """Bring the recovery file up to date: written while edits are unsaved, removed when none.
        What to write is taken from the state now; the disk is left to the writer's thread."""
        self._say(self._writer.failure)  # (the writer's thread touches no Qt object: told here)
        if not self._dirty:
            return
        self._dirty = False
        state = self.document.state
        data = None
        if state.worth_recovering():
            data = json.dumps(snapshot_json(state, shown=self.document.current_query)).encode("utf-8")
            if len(data) > recovery_files.MAX_RECOVERY_BYTES:  # (the next start would not read it back)
                self._say(f"the edits take {len(data) / 1e6:,.0f} MB, over the "
                          f"{recovery_files.MAX_RECOVERY_BYTES >> 20} MiB a recovery file holds")
                return
        self._writer.put(data)

    def wait(self) -> None:
        """Until the file is as the last `write_now` left it (a test's look, a clean exit)."""
        self._writer.wait()

    def _say(self, message: str | None) -> None:
        # A full disk must not stop the editing: said once.
        if message is not None and self._on_error is not None:
            self._on_error(f"Edits could not be written to the recovery file: {message}")
            self._on_error = None

    def discard(self) -> None:
        """A clean exit: nothing to recover."""
        self._timer.stop()
        self._writer.wait()  # (a write under way would bring the file back)
        with contextlib.suppress(OSError):  # (a folder that could never be written: nothing there)
            self.path.unlink(missing_ok=True)
        if self._lock is not None:
            self._lock.release()
            self._lock = None


class _Writer:
    """One write of the recovery file at a time, in a thread; the newest content wins (one asked
    for while another is written replaces any waiting). `None` removes the file. `failure`: why
    the last write failed (None: it did not), read by the GUI thread: the thread touches no Qt
    object, which may be gone (a window closed) while a write waits for the disk."""

    def __init__(self, path: Path) -> None:
        self.path, self.failure = path, None
        self._lock = threading.Lock()
        self._next: list[bytes | None] = []  # (empty: nothing waiting; [None]: a removal)
        self._thread: threading.Thread | None = None

    def put(self, data: bytes | None) -> None:
        with self._lock:
            self._next = [data]
            if self._thread is None:
                try:
                    self._thread = start_thread("recovery file", self._run)
                except RuntimeError as err:  # (out of threads: said once, tried again at the next put)
                    self.failure = f"no thread to write it ({err})"

    def wait(self) -> None:
        while True:
            with self._lock:
                thread = self._thread
            if thread is None:
                return
            thread.join()

    def _run(self) -> None:
        from ndcg_gui.core.errors import InputError
        from ndcg_gui.core.writing.atomic import atomic_write_bytes

        while True:
            with self._lock:
                if not self._next:
                    self._thread = None
                    return
                data = self._next.pop()
            try:
                if data is None:
                    self.path.unlink(missing_ok=True)
                else:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                    atomic_write_bytes(self.path, data)
                self.failure = None
            except InputError as err:
                self.failure = err.message
            except OSError as err:
                self.failure = str(err)


def _restore(snapshot: Snapshot, measure: Measure, _path=None, _qrels=None, cancel=None,
             progress=None) -> tuple[Workspace, str | None]:
    """A recovered document, its files read again as they were opened (a Parquet run too big to
    hold through DuckDB, any other file loaded) and its edits put back, with the query to show
    (the one on screen, else the first edited): called by the loader, in a worker for a big file
    or one DuckDB reads, so that the lists the first notice compares are read there too."""
    from ndcg_gui.core.reading import load  # (only now: pandas is not needed at start-up)
    from ndcg_gui.core.sql.progress import Cancelled, StepFraction

    files = [snapshot.path, *(path for _, path in snapshot.compared)]
    fraction = StepFraction(ENGINE_STEPS * len(files))

    def told(step: str, percent: float) -> bool:
        if cancel is not None and cancel():
            return False
        if progress is not None:
            progress(fraction(step, percent))
        return True

    def read(path: Path, qrels: Path | None) -> Dataset:
        if _by_engine(path, qrels):
            from ndcg_gui.core.sql.engine_dataset import open_engine
            from ndcg_gui.core.sql.inputs import window_memory_limit

            engines_below_gui()  # (DuckDB's threads below the window)
            return open_engine(str(path), str(qrels), measure, told, memory_limit=window_memory_limit())
        return load(path, qrels, cancel=cancel, progress=progress if path == snapshot.path else None)

    try:
        workspace = snapshot.restore(read)
    except Cancelled:
        raise LoadCancelled() from None
    except (OSError, ValueError, KeyError) as err:  # (a file gone or changed since: one line)
        raise InputError(str(err), snapshot.path) from None
    shown = snapshot.shown if snapshot.shown is not None and workspace.has_query(snapshot.shown) else \
        next(iter(workspace.unsaved_queries()), None)
    if shown is not None:
        workspace.read_all(shown)  # (read here, the runs compared's too: a run DuckDB reads keeps them)
    workspace.read_edited()  # (the edited queries' lists as loaded, kept: not read on the GUI thread)
    return workspace, shown


def _by_engine(path: Path | None, qrels: Path | None) -> bool:
    from ndcg_gui.core.sql.inputs import window_engine

    return path is not None and window_engine(str(path), None if qrels is None else str(qrels))


def offer_recovery(files: FileFlow, parent, folder: Path | None = None,
                   note: Callable[[str], None] | None = None) -> int:
    """Offer back the edits of sessions that ended without saving (a crash, a kill): each one the
    person accepts is reopened from its files with the edits on top (one undo step, unsaved), its
    files read as `files` opens a file (a big one, or one DuckDB reads, in the background with
    the open's progress and Cancel; the next session is offered when it is shown). A damaged
    recovery file is moved aside and said in one line to `note` (stderr by default); the others
    are offered all the same. Returns how many were restored before it returned."""
    found, notes = _left_behind(folder or recovery_dir())
    return _offer(files, parent, found, notes, note)


def offer_recovery_later(files: FileFlow, parent, folder: Path | None = None,
                         note: Callable[[str], None] | None = None) -> threading.Thread:
    """`offer_recovery` at a window's start: the folder is read in a worker thread (its files,
    whoever put them there, are read there: the window paints meanwhile) and the sessions are
    offered on the GUI thread once read; nothing is offered after the window closed."""
    folder = folder or recovery_dir()

    def read() -> tuple[list[LeftBehind], list[str]]:
        return _left_behind(folder)

    def landed(result, error: BaseException | None) -> None:
        if error is None:  # (a bug: the runner raises it after this, where it is reported)
            _offer(files, parent, *result, note)

    return files.document.runner.run("recovery files", read, landed)


def _offer(files: FileFlow, parent, found: list[LeftBehind], notes: list[str],
           note: Callable[[str], None] | None) -> int:
    say = note or (lambda line: print(f"ndcg-gui: {line}", file=sys.stderr))
    for line in notes:
        say(line)
    offers = _Offers(files, parent, found, say)
    offers.next()
    return offers.restored


class _Offers:
    """The sessions left behind, offered one after another."""

    def __init__(self, files: FileFlow, parent, found: list[LeftBehind], say: Callable[[str], None]) -> None:
        self.files, self.parent, self.found, self.say = files, parent, found, say
        self.restored = 0
        self._reading: LeftBehind | None = None  # the one whose files are being read
        self._offering = False

    def next(self) -> None:
        self._offering = True
        try:
            while self.found and self._reading is None:
                item = self.found.pop(0)
                if not dialogs.ask_restore(self.parent, item.snapshot.describe()):
                    item.done()
                    continue
                self._reading = item
                snapshot, measure = item.snapshot, self.files.document.state.measure
                read = functools.partial(_restore, snapshot, measure)
                if snapshot.path is None:  # typed: nothing to read
                    self._landed(LoadResult(data=read()))
                    continue
                engine = any(_by_engine(p, snapshot.qrels_path)
                             for p in (snapshot.path, *(path for _, path in snapshot.compared)))
                self.files.restore(snapshot.path, snapshot.qrels_path, read, engine, self._landed)
        finally:
            self._offering = False

    def _landed(self, result: LoadResult) -> None:
        item, self._reading = self._reading, None
        if item is None:
            return
        if result.cancelled:  # (the rest are offered again at the next start)
            for rest in (item, *self.found):
                rest.keep()
            self.found = []
            self.say(f"{item.snapshot.name}: edits not restored (cancelled); offered again at the next start")
            return
        if result.problem is not None:
            item.keep()
            dialogs.show_error(self.parent, "Could not restore the edits",
                               f"{result.problem}\n\nThe recovery file is kept: {item.path}")
        elif not self.files.may_restore(f"restoring the edits of {item.snapshot.name}"):
            item.keep()  # (the person's edits made meanwhile stay)
            self.say(f"{item.snapshot.name}: edits not restored (the edits made meanwhile kept); "
                     "offered again at the next start")
        else:
            workspace, shown = result.data
            self.files.document.open_workspace(workspace, "Restore unsaved edits", query=shown,
                                               own_setup=True)
            item.done()
            self.restored += 1
        if not self._offering:  # (read in the background: the next one now)
            self.next()
