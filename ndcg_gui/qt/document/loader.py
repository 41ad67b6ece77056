"""Reading files for the window, with progress and Cancel for big ones: the one place that decides
how a file is read.

`BackgroundLoader.start` reads a file (and optionally runs a follow-up on it, e.g. the first
scoring) and always ends with the same signals. A small file is read at once, in the calling thread
(`loaded` or `failed` is emitted before `start` returns). A big file is read in a separate process
(`core.reading.load_worker`) watched by a worker QThread: parsing and joining millions of rows
holds the GIL for seconds, which a thread alone would not hide from the window. A load function
given by a test runs in the worker thread. The window only hears `loaded(dataset, extra)` when the
load finished and was not cancelled, so a cancelled or failed load never touches the open document.
`cancel` answers at once: the process is ended (or the reader stops at its next cancel check) and a
late result is dropped.
"""

from __future__ import annotations

import logging
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from ndcg_gui.core.errors import InputError, LoadCancelled

log = logging.getLogger(__name__)

# load(path, qrels, cancel=..., progress=...) -> data; the readers' `load` by default.
LoadFn = Callable[..., Any]
# A step run after the load on the loaded data (e.g. scoring it); its result is `loaded`'s `extra`.
# In a loader process it must pickle: a module-level function or a functools.partial of one.
ThenFn = Callable[[Any], Any]
# Files at least this big (run + qrels) are read in a loader process; smaller ones in the thread.
PROCESS_THRESHOLD = 8 << 20


def _default_load(path, qrels=None, cancel=None, progress=None):
    from ndcg_gui.core.reading import load  # imported late: the readers are only needed to load

    return load(path, qrels, cancel=cancel, progress=progress)


def _size(path: str | Path | None) -> int:
    try:
        return Path(path).stat().st_size if path is not None else 0
    except OSError:
        return 0


class _Job(QObject):
    """Runs in the worker thread. Every signal carries the job's ticket so stale ones can be ignored."""

    progressed = Signal(int, float)
    succeeded = Signal(int, object, object)
    failed = Signal(int, str)
    stopped = Signal(int)  # cancelled, seen by the worker
    done = Signal()

    def __init__(self, ticket: int, load: LoadFn | None, then: ThenFn | None, path, qrels) -> None:
        super().__init__()
        self.ticket = ticket
        self.cancel_flag = threading.Event()
        self._load, self._then = load, then
        self._path, self._qrels = path, qrels
        self._last = -1
        self._process: subprocess.Popen | None = None

    def cancel(self) -> None:
        """Called from the GUI thread: flag the reader, and end the loader process if there is one."""
        self.cancel_flag.set()
        process = self._process
        if process is not None and process.poll() is None:
            process.kill()

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
            if self._load is None:
                data, extra = self._load_in_process()
            else:
                data = self._load(self._path, self._qrels, cancel=cancelled, progress=self._progress)
                extra = self._then(data) if self._then is not None and not cancelled() else None
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
                self.succeeded.emit(self.ticket, data, extra)
        finally:
            self.done.emit()

    def _load_in_process(self) -> tuple[Any, Any]:
        """The readers (and `then`) in `python -m ndcg_gui.core.reading.load_worker`; the dataset comes back
        packed (Arrow IPC, `core.reading.packed`) and unpacked here."""
        from ndcg_gui.core.reading.load_worker import command, read_message
        from ndcg_gui.core.reading.packed import unpack

        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        process = subprocess.Popen(
            command(),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
        )
        self._process = process
        try:
            if self.cancel_flag.is_set():
                process.kill()
            request = {"path": str(self._path), "qrels": None if self._qrels is None else str(self._qrels),
                       "then": self._then}
            try:
                process.stdin.write(pickle.dumps(request))
                process.stdin.close()
            except OSError:  # the process already ended (killed by a cancel)
                pass
            while (message := read_message(process.stdout)) is not None:
                kind = message[0]
                if kind == "progress":
                    self._progress(message[1])
                elif kind == "done":
                    return unpack(message[1]), message[2]
                elif kind == "error":
                    raise message[1]
                else:
                    log.error("the loader process failed:\n%s", message[1])
                    raise RuntimeError(message[1].strip().splitlines()[-1])
            if self.cancel_flag.is_set():
                raise LoadCancelled()
            raise RuntimeError(f"the loader process ended unexpectedly (exit code {process.wait()})")
        finally:
            if process.poll() is None:
                process.kill()
            process.wait()
            process.stdout.close()


class BackgroundLoader(QObject):
    """One load at a time, announced in order: started → progressed* → one of loaded / failed /
    cancelled → finished."""

    started = Signal(str)  # the file's name
    progressed = Signal(float)  # 0..1
    loaded = Signal(object, object)  # the data, and what `then` made of it (None without `then`)
    failed = Signal(str)  # a one-line message for the user
    cancelled = Signal()
    finished = Signal()

    def __init__(self, load: LoadFn | None = None, process: bool | None = None,
                 parent: QObject | None = None) -> None:
        """`load` replaces the readers (tests); it runs in the thread. `process` forces the loader
        process on or off; None chooses by file size (a frozen bundle starts its own executable
        as the worker, see `core.reading.load_worker.command`)."""
        super().__init__(parent)
        self._load = load
        self._process = process
        self._ticket = 0
        self._job: _Job | None = None
        # Workers still winding down after a cancel: kept alive until their thread has finished.
        self._running: dict[QThread, _Job] = {}

    def is_loading(self) -> bool:
        return self._job is not None

    def uses_process(self, path, qrels) -> bool:
        if self._load is not None:
            return False
        if self._process is not None:
            return self._process
        return _size(path) + _size(qrels) >= PROCESS_THRESHOLD

    def start(self, path: str | Path, qrels: str | Path | None = None, then: ThenFn | None = None) -> None:
        """Load `path` (with `qrels`); a load under way is cancelled first."""
        if self._job is not None:
            self.cancel()
        self._ticket += 1
        if self._load is None and not self.uses_process(path, qrels):
            self._load_now(path, qrels, then)
            return
        job = _Job(self._ticket, None if self.uses_process(path, qrels) else self._load or _default_load,
                   then, path, qrels)
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

    def _load_now(self, path, qrels, then: ThenFn | None) -> None:
        """A small file: read here and now, announced with the same signals as a big one."""
        self.started.emit(Path(path).name)
        try:
            data = _default_load(path, qrels)
            extra = then(data) if then is not None else None
        except InputError as err:
            self.failed.emit(str(err))
        except MemoryError:
            self.failed.emit(f"{Path(path).name}: not enough memory to load this file")
        except Exception as err:  # a bug, not bad input: logged in full, reported in one line
            log.exception("loading %s failed", path)
            self.failed.emit(f"{Path(path).name}: could not be loaded ({err})")
        else:
            self.progressed.emit(1.0)
            self.loaded.emit(data, extra)
        self.finished.emit()

    def cancel(self) -> None:
        """Stop the load under way. Answers at once; the worker's late result is dropped."""
        job, self._job = self._job, None
        if job is None:
            return
        job.cancel()
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

    def _on_success(self, ticket: int, data: object, extra: object) -> None:
        if self._current(ticket):
            self._job = None
            self.progressed.emit(1.0)
            self.loaded.emit(data, extra)
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
