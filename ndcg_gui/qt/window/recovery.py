"""Edits survive a crash: while the document has unsaved edits, they are written to a recovery
file every few seconds (core.recovery); a clean exit or a save removes it. At the next start, a
recovery file left by a process that is gone is offered back.

The folder is the application's data folder (`recovery/`), or NDCG_RECOVERY_DIR when set.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, QTimer

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.lists.recovery import Snapshot, read_recovery, write_recovery
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.widgets import dialogs

INTERVAL_MS = 3000


def recovery_dir() -> Path:
    override = os.environ.get("NDCG_RECOVERY_DIR")
    if override:
        return Path(override)
    return Path(QStandardPaths.writableLocation(QStandardPaths.AppLocalDataLocation)) / "recovery"


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def left_behind(folder: Path | None = None) -> list[tuple[Path, Snapshot | None]]:
    """Recovery files of processes that are gone (a damaged one comes with None), oldest first."""
    folder = folder or recovery_dir()
    out = []
    for path in sorted(folder.glob("recovery-*.json"), key=lambda p: p.stat().st_mtime):
        try:
            snapshot = read_recovery(path)
        except ValueError:
            out.append((path, None))
            continue
        if snapshot.pid != os.getpid() and not _alive(snapshot.pid):
            out.append((path, snapshot))
    return out


class Recovery(QObject):
    """Keeps this process's recovery file in step with the document's unsaved edits."""

    def __init__(self, document: Document, folder: Path | None = None, interval_ms: int = INTERVAL_MS,
                 on_error: Callable[[str], None] | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.path = (folder or recovery_dir()) / f"recovery-{os.getpid()}.json"
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
            if self.document.is_clean():
                self.path.unlink(missing_ok=True)
            else:
                write_recovery(self.path, self.document.state)
        except OSError as err:  # a full disk must not stop the editing; say it once
            if self._on_error is not None:
                self._on_error(f"Edits could not be written to the recovery file: {err}")
                self._on_error = None

    def discard(self) -> None:
        """A clean exit: nothing to recover."""
        self._timer.stop()
        self.path.unlink(missing_ok=True)


def offer_recovery(document: Document, parent, folder: Path | None = None) -> int:
    """Offer back the edits of sessions that ended without saving (a crash, a kill): each one the
    person accepts is reopened from its files with the edits on top (one undo step, unsaved).
    Returns how many were restored."""
    restored = 0
    for path, snapshot in left_behind(folder):
        if snapshot is None:
            path.unlink(missing_ok=True)  # damaged: nothing can be made of it
            continue
        if not dialogs.ask_restore(parent, snapshot.describe()):
            path.unlink(missing_ok=True)
            continue
        from ndcg_gui.core.reading import load  # (only now: pandas is not needed at start-up)

        try:
            workspace = snapshot.restore(load)
        except (InputError, OSError) as err:
            dialogs.show_error(parent, "Could not restore the edits",
                               f"{err}\n\nThe recovery file is kept: {path}")
            continue
        document.open_workspace(workspace, "Restore unsaved edits")
        path.unlink(missing_ok=True)
        restored += 1
    return restored
