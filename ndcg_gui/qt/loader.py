"""Loading big files off the GUI thread, with progress and Cancel.

`BackgroundLoader.start` runs the reader (and optionally a follow-up, e.g. the first scoring) in a
worker QThread. The window only hears `loaded(result)` when the load finished and was not
cancelled, so a cancelled or failed load never touches the open document. `cancel` answers at once:
the worker stops at the reader's next cancel check and its late result is dropped.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from ndcg_gui.core.errors import InputError, LoadCancelled

log = logging.getLogger(__name__)

# load(path, qrels, cancel=..., progress=...) -> data; the readers' `load` by default.
LoadFn = Callable[..., Any]
# A step run in the worker on the loaded data (e.g. scoring it); its return value is what `loaded` gets.
ThenFn = Callable[[Any], Any]


def _default_load(path, qrels=None, cancel=None, progress=None):
    from ndcg_gui.core.readers import load  # imported late: the readers are only needed to load

    return load(path, qrels, cancel=cancel, progress=progress)


class _Job(QObject):
    """Runs in the worker thread. Every signal carries the job's ticket so stale ones can be ignored."""

    progressed = Signal(int, float)
    succeeded = Signal(int, object)
    failed = Signal(int, str)
    stopped = Signal(int)  # cancelled, seen by the worker
    done = Signal()

    def __init__(self, ticket: int, load: LoadFn, then: ThenFn | None, path, qrels) -> None:
        super().__init__()
        self.ticket = ticket
        self.cancel_flag = threading.Event()
        self._load, self._then = load, then
        self._path, self._qrels = path, qrels
        self._last = -1

    def _progress(self, fraction: float) -> None:
        # Throttled to whole per-mille steps: a flood of queued signals would itself stall the GUI.
        step = int(max(0.0, min(1.0, float(fraction))) * 1000)
        if step != self._last:
            self._last = step
            self.progressed.emit(self.ticket, step / 1000)

    @Slot()
    def run(self) -> None:
        cancelled = self.cancel_flag.is_set
        try:
            data = self._load(self._path, self._qrels, cancel=cancelled, progress=self._progress)
            if self._then is not None and not cancelled():
                data = self._then(data)
        except LoadCancelled:
            self.stopped.emit(self.ticket)
        except InputError as err:
            self.failed.emit(self.ticket, str(err))
        except MemoryError:
            self.failed.emit(self.ticket, f"{Path(self._path).name}: not enough memory to load this file")
        except Exception as err:  # a bug, not bad input: logged in full, reported in one line
            log.exception("loading %s failed", self._path)
            self.failed.emit(self.ticket, f"{Path(self._path).name}: could not be loaded ({err})")
        else:
            if cancelled():
                self.stopped.emit(self.ticket)
            else:
                self.succeeded.emit(self.ticket, data)
        finally:
            self.done.emit()


class BackgroundLoader(QObject):
    """One load at a time, announced in order: started → progressed* → one of loaded / failed /
    cancelled → finished."""

    started = Signal(str)  # the file's name
    progressed = Signal(float)  # 0..1
    loaded = Signal(object)  # the data (or what `then` made of it)
    failed = Signal(str)  # a one-line message for the user
    cancelled = Signal()
    finished = Signal()

    def __init__(self, load: LoadFn | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._load = load or _default_load
        self._ticket = 0
        self._job: _Job | None = None
        # Workers still winding down after a cancel: kept alive until their thread has finished.
        self._running: dict[QThread, _Job] = {}

    def is_loading(self) -> bool:
        return self._job is not None

    def start(self, path: str | Path, qrels: str | Path | None = None, then: ThenFn | None = None) -> None:
        """Load `path` (with `qrels`) in the background; a load under way is cancelled first."""
        if self._job is not None:
            self.cancel()
        self._ticket += 1
        job = _Job(self._ticket, self._load, then, path, qrels)
        thread = QThread()
        thread.setObjectName(f"load {Path(path).name}")
        job.moveToThread(thread)
        thread.started.connect(job.run)
        # Direct: quit from the worker itself, so `wait()` on the GUI thread cannot deadlock.
        job.done.connect(thread.quit, Qt.ConnectionType.DirectConnection)
        thread.finished.connect(self._reap)
        job.progressed.connect(self._on_progress)
        job.succeeded.connect(self._on_success)
        job.failed.connect(self._on_failure)
        job.stopped.connect(self._on_stopped)
        self._running[thread] = job
        self._job = job
        self.started.emit(Path(path).name)
        thread.start()

    def cancel(self) -> None:
        """Stop the load under way. Answers at once; the worker's late result is dropped."""
        job, self._job = self._job, None
        if job is None:
            return
        job.cancel_flag.set()
        self.cancelled.emit()
        self.finished.emit()

    def wait(self, msecs: int = 5000) -> bool:
        """Cancel and wait for every worker thread to end (on close). True when all ended."""
        self.cancel()
        return all(thread.wait(msecs) for thread in list(self._running))

    # ---- from the worker (queued into this thread) -------------------------------------------
    def _current(self, ticket: int) -> bool:
        return self._job is not None and self._job.ticket == ticket

    def _on_progress(self, ticket: int, fraction: float) -> None:
        if self._current(ticket):
            self.progressed.emit(fraction)

    def _on_success(self, ticket: int, data: object) -> None:
        if self._current(ticket):
            self._job = None
            self.progressed.emit(1.0)
            self.loaded.emit(data)
            self.finished.emit()

    def _on_failure(self, ticket: int, message: str) -> None:
        if self._current(ticket):
            self._job = None
            self.failed.emit(message)
            self.finished.emit()

    def _on_stopped(self, ticket: int) -> None:
        if self._current(ticket):  # the reader stopped by itself (its cancel said so)
            self._job = None
            self.cancelled.emit()
            self.finished.emit()

    def _reap(self) -> None:
        """Drop the threads that have ended (and their jobs) once their last signal is delivered."""
        for thread in [t for t in self._running if t.isFinished()]:
            del self._running[thread]


class LoadProgress(QWidget):
    """'Loading NAME' with a progress bar and Cancel, shown while its loader works (status bar)."""

    def __init__(self, loader: BackgroundLoader, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel()
        self.bar = QProgressBar(minimum=0, maximum=1000, textVisible=True)
        self.bar.setFixedWidth(180)
        self.cancel_button = QPushButton("Cancel", toolTip="Stop loading; the open document stays as it is")
        self.cancel_button.clicked.connect(loader.cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(self.cancel_button)
        loader.started.connect(self._on_started)
        loader.progressed.connect(lambda f: self.bar.setValue(round(f * 1000)))
        loader.finished.connect(self.hide)
        self.hide()

    def _on_started(self, name: str) -> None:
        self.label.setText(f"Loading {name}…")
        self.bar.setValue(0)
        self.show()
