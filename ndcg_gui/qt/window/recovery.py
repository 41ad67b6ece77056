"""Edits survive a crash: while the document has unsaved edits, they are written to a recovery
file every few seconds (core.recovery); a clean exit or a save removes it. At the next start, a
recovery file left by a window that is gone is offered back. Each window has a file of its own
(a random id) and holds its lock while it lives (`core.state.recovery.RecoveryLock`).

The folder is the application's data folder (`recovery/`), or NDCG_RECOVERY_DIR when set.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QStandardPaths, QTimer

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.state.recovery import RecoveryLock, Snapshot, new_recovery_path, write_recovery
from ndcg_gui.core.state.recovery import left_behind as _left_behind
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.widgets import dialogs

if TYPE_CHECKING:
    from ndcg_gui.core.lists.dataset import Dataset
    from ndcg_gui.core.state.workspace import Definition

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
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.write_now)
        self._timer.start()
        document.changed.connect(self._follow)

    def _follow(self, changes: Changes) -> None:
        self._dirty = True

    def write_now(self) -> None:
        """Bring the recovery file up to date: written while edits are unsaved, removed when none."""
        if not self._dirty:
            return
        self._dirty = False
        try:
            if not self.document.state.worth_recovering():
                self.path.unlink(missing_ok=True)
            else:
                write_recovery(self.path, self.document.state, self.document.current_query)
        except OSError as err:  # a full disk must not stop the editing; say it once
            if self._on_error is not None:
                self._on_error(f"Edits could not be written to the recovery file: {err}")
                self._on_error = None

    def discard(self) -> None:
        """A clean exit: nothing to recover."""
        self._timer.stop()
        self.path.unlink(missing_ok=True)
        if self._lock is not None:
            self._lock.release()
            self._lock = None


def _read(definition: Definition, path: Path, qrels: Path | None) -> Dataset:
    """A recovered document's file read again as it was opened: a Parquet run too big to hold
    through DuckDB (here, at once: its per-query table is in the cache beside it, unless the
    definition changed since), any other file loaded."""
    from ndcg_gui.core.sql.inputs import window_engine, window_memory_limit

    if window_engine(str(path), None if qrels is None else str(qrels)):
        from ndcg_gui.core.sql.engine_dataset import open_engine

        return open_engine(str(path), str(qrels), definition, memory_limit=window_memory_limit())
    from ndcg_gui.core.reading import load  # (only now: pandas is not needed at start-up)

    return load(path, qrels)


def offer_recovery(document: Document, parent, folder: Path | None = None,
                   note: Callable[[str], None] | None = None) -> int:
    """Offer back the edits of sessions that ended without saving (a crash, a kill): each one the
    person accepts is reopened from its files with the edits on top (one undo step, unsaved).
    A damaged recovery file is moved aside and said in one line to `note` (stderr by default);
    the others are offered all the same. Returns how many were restored."""
    say = note or (lambda line: print(f"ndcg-gui: {line}", file=sys.stderr))
    found, notes = _left_behind(folder or recovery_dir())
    for line in notes:
        say(line)
    restored = 0
    for item in found:
        if not dialogs.ask_restore(parent, item.snapshot.describe()):
            item.done()
            continue
        try:
            workspace = item.snapshot.restore(functools.partial(_read, document.state.definition))
        except (InputError, OSError, ValueError, KeyError) as err:
            item.keep()
            dialogs.show_error(parent, "Could not restore the edits",
                               f"{err}\n\nThe recovery file is kept: {item.path}")
            continue
        snapshot = item.snapshot
        shown = snapshot.shown if snapshot.shown in workspace.queries() else \
            next(iter(workspace.unsaved_queries()), None)
        document.open_workspace(workspace, "Restore unsaved edits", query=shown, own_setup=True)
        item.done()
        restored += 1
    return restored
