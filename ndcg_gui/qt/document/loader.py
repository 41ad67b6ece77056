"""Reading files for the window, with progress and Cancel for big ones: the one place that decides
how a file is read.

`BackgroundLoader.start` reads a file (and optionally runs a follow-up on it, e.g. the first
scoring) and always ends the same way: its `task` (the runner's progress signals) says
started -> progressed* -> finished(`LoadResult`). A small file is read at once, in the calling
thread (`finished` is emitted before `start` returns). A big file is read in a separate process
(`core.reading.load_worker`, started by the runner) watched by a worker thread: parsing and joining
millions of rows holds the GIL for seconds, which a thread alone would not hide from the window. A
Parquet run with its qrels too big to hold (`core.sql.inputs.window_engine`) is not loaded: DuckDB
scores it where it lies in the worker thread (it releases the GIL), and the result is an
`EngineDataset` (`core.sql.engine_dataset`) that reads a query's rows when it is shown. A
load function given by a test runs in the worker thread. A cancelled or failed load never touches
the open document: its result says so and holds no data. `cancel` answers at once: the process is
ended (or the reader stops at its next cancel check) and a late result is dropped.
"""

from __future__ import annotations

import functools
import logging
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from threading import Event, Thread
from typing import Any

from PySide6.QtCore import QObject

from ndcg_gui.core.errors import InputError, LoadCancelled
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.sql.inputs import (
    INSTALL_DUCKDB,
    duckdb_installed,
    engine_only,
    is_parquet,
    window_wants_engine,
)
from ndcg_gui.qt.document.runner import Process, Runner, Task, engines_below_gui, start_process, worker_env

log = logging.getLogger(__name__)

# load(path, qrels, cancel=..., progress=...) -> data; the readers' `load` by default.
LoadFn = Callable[..., Any]
# A step run after the load on the loaded data (e.g. scoring it); its result is `LoadResult.extra`.
# In a loader process it must pickle: a module-level function or a functools.partial of one.
ThenFn = Callable[[Any], Any]
# Files at least this big (run + qrels) are read in a loader process; smaller ones in the thread.
PROCESS_THRESHOLD = 8 << 20
# The engine's statements a first open goes through (reading, checking and scoring each input).
ENGINE_STEPS = 7


@dataclass(frozen=True)
class LoadResult:
    """How a load ended: `data` (and what `then` made of it, `extra`), or a one-line `problem`
    for the person, or `cancelled`."""

    data: Any = None
    extra: Any = None
    problem: str | None = None
    cancelled: bool = False

    @property
    def loaded(self) -> bool:
        return self.problem is None and not self.cancelled


def _default_load(path, qrels=None, cancel=None, progress=None, need_grades=True):
    from ndcg_gui.core.reading import load  # imported late: the readers are only needed to load

    return load(path, qrels, cancel=cancel, progress=progress, need_grades=need_grades)


def _size(path: str | Path | None) -> int:
    try:
        return Path(path).stat().st_size if path is not None else 0
    except OSError:
        return 0


def _read(path, read: Callable[[], tuple[Any, Any]], cancelled: Callable[[], bool]) -> LoadResult:
    """`read()` -> (data, extra), every way it can end said in one `LoadResult` (the one place a
    failure becomes the person's one line)."""
    try:
        data, extra = read()
    except LoadCancelled:
        return LoadResult(cancelled=True)
    except InputError as err:
        return LoadResult(problem=str(err))
    except MemoryError:
        return LoadResult(problem=f"{Path(path).name}: not enough memory to load this file")
    except Exception as err:  # a bug, not bad input: logged in full, reported in one line
        log.exception("loading %s failed", path)
        return LoadResult(problem=f"{Path(path).name}: could not be loaded ({err})")
    return LoadResult(cancelled=True) if cancelled() else LoadResult(data, extra)


class _Job:
    """One load in a worker thread: its ticket (a stale one's result is dropped), its cancel flag
    and its loader process, if any."""

    def __init__(self, ticket: int, load: LoadFn | None, then: ThenFn | None, path, qrels,
                 progress: Callable[[float], None], engine: Measure | None = None) -> None:
        self.ticket = ticket
        self._engine = engine  # scored by DuckDB under this measure, not loaded
        self.cancel_flag = Event()
        self._load, self._then = load, then
        self._path, self._qrels = path, qrels
        self._report, self._last = progress, -1
        self._process: Process | None = None

    def cancel(self) -> None:
        """Called from the GUI thread: flag the reader, and end the loader process if there is one."""
        self.cancel_flag.set()
        if self._process is not None:
            self._process.kill()

    def _progress(self, fraction: float) -> None:
        # Throttled to whole per-mille steps: a flood of queued calls would itself stall the GUI.
        step = int(max(0.0, min(1.0, float(fraction))) * 1000)
        if step != self._last:
            self._last = step
            self._report(step / 1000)

    def run(self) -> LoadResult:
        # What installing the result needs, imported here while the file is read: on the GUI
        # thread pandas' import held the window for many frames as the job began (the longest
        # frames of the big first opens), and two threads importing it at once can meet a module half
        # made. In this thread the window waits far less.
        import ndcg_gui.core.analysis.unjudged
        import ndcg_gui.core.ndcg.evaluate  # noqa: F401

        read = (self._read_in_engine if self._engine is not None
                else self._read_in_process if self._load is None else self._read_here)
        return _read(self._path, read, self.cancel_flag.is_set)

    def _read_in_engine(self) -> tuple[Any, Any]:
        """DuckDB's per-query table of the files (or the cache's), as an `EngineDataset`. Its
        statements (checking each file, scoring) are told one after the other: the bar goes
        through ENGINE_STEPS of them, each from 0 to 100 %."""
        from ndcg_gui.core.sql.engine_dataset import open_engine
        from ndcg_gui.core.sql.inputs import window_memory_limit
        from ndcg_gui.core.sql.progress import Cancelled, StepFraction

        # (text qrels are read into a Parquet copy first: two steps more, the first time)
        fraction = StepFraction(ENGINE_STEPS + (0 if is_parquet(str(self._qrels)) else 2))

        def report(step: str, percent: float) -> bool:
            if self.cancel_flag.is_set():
                return False
            self._progress(max(self._last / 1000, fraction(step, percent)))
            return True

        engines_below_gui()  # (DuckDB's threads below the window; this one holds the GIL between calls)
        self._progress(0.0)  # (DuckDB imported: the window may lay out what the run will fill)
        try:
            data = open_engine(str(self._path), str(self._qrels), self._engine, report,
                               memory_limit=window_memory_limit())
        except Cancelled:
            raise LoadCancelled() from None
        return data, (self._then(data) if self._then is not None and not self.cancel_flag.is_set() else None)

    def _read_here(self) -> tuple[Any, Any]:
        cancelled = self.cancel_flag.is_set
        data = self._load(self._path, self._qrels, cancel=cancelled, progress=self._progress)
        return data, (self._then(data) if self._then is not None and not cancelled() else None)

    def _read_in_process(self) -> tuple[Any, Any]:
        """The readers (and `then`) in `python -m ndcg_gui.core.reading.load_worker`; the dataset comes back
        packed (Arrow IPC, `core.reading.packed`) and unpacked here."""
        from ndcg_gui.core.reading.load_worker import command, read_message
        from ndcg_gui.core.reading.packed import unpack

        process = self._process = start_process(command(), worker_env())
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
            process.close()


class BackgroundLoader(QObject):
    """One load at a time, announced in order on `task`: started -> progressed* -> finished."""

    def __init__(self, runner: Runner, load: LoadFn | None = None, process: bool | None = None,
                 parent: QObject | None = None) -> None:
        """`runner` starts the worker threads and processes. `load` replaces the readers (tests); it
        runs in the thread. `process` forces the loader process on or off; None chooses by file size
        (a frozen bundle starts its own executable as the worker, see
        `core.reading.load_worker.command`)."""
        super().__init__(parent)
        self.runner = runner
        self.task = Task(self)
        self._load = load
        self._process = process
        self._ticket = 0
        self._job: _Job | None = None
        self._threads: list[Thread] = []  # workers, winding down after a cancel too

    def is_loading(self) -> bool:
        return self._job is not None

    def reading_by_engine(self) -> bool:
        """Whether the load under way is a run DuckDB reads where it lies (many queries)."""
        return self._job is not None and self._job._engine is not None

    def uses_process(self, path, qrels) -> bool:
        if self._load is not None:
            return False
        if self._process is not None:
            return self._process
        return _size(path) + _size(qrels) >= PROCESS_THRESHOLD

    def start(self, path: str | Path, qrels: str | Path | None = None, then: ThenFn | None = None,
              measure: Measure | None = None, need_grades: bool = True) -> None:
        """Load `path` (with `qrels`); a load under way is cancelled first. `measure`: the one in
        use, under which a run too big to load is scored by DuckDB instead (None: never).
        `need_grades=False`: a TREC run without qrels is read with every document unjudged (runs
        compared by their rankings), in a thread (not by an engine, which scores on judgments)."""
        if self._job is not None:
            self.cancel()
        self._ticket += 1
        if not need_grades and qrels is None and self._load is None:
            self._run(path, qrels, functools.partial(_default_load, need_grades=False), then, None, "")
            return
        if qrels is None and self._load is None and engine_only(str(path)) and is_parquet(str(path)):
            # (a folder or glob of Parquet files: only DuckDB reads it, and it needs the judgments)
            self.task.started.emit(Path(path).name)
            self.task.finished.emit(LoadResult(problem=str(InputError(
                "is Parquet files read by DuckDB, which needs their judgments: give its qrels too", path))))
            return
        wanted = self._load is None and measure is not None and window_wants_engine(
            str(path), None if qrels is None else str(qrels))
        engine = measure if wanted and duckdb_installed() else None
        if wanted and engine is None and (engine_only(str(path)) or engine_only(str(qrels))):
            self.task.started.emit(Path(path).name)
            self.task.finished.emit(LoadResult(problem=str(InputError(
                f"is Parquet files read by DuckDB, which is not installed: {INSTALL_DUCKDB}", path))))
            return
        if engine is None and self._load is None and not self.uses_process(path, qrels):
            self._load_now(path, qrels, then)
            return
        load = None if self.uses_process(path, qrels) else self._load or _default_load
        said = (" with DuckDB" if engine is not None
                else f" in memory ({INSTALL_DUCKDB} reads it where it lies)" if wanted else "")
        self._run(path, qrels, load, then, engine, said)

    def start_reading(self, path: str | Path, qrels: str | Path | None, read: LoadFn,
                      engine: bool = False) -> None:
        """Read `path` (with `qrels`) by `read(path, qrels, cancel=, progress=)` (a session recovered
        after a crash: its files and its edits), announced as `start`'s loads are: at once for a
        small file, in a worker thread for a big one or one DuckDB reads (`engine`), never in a
        process (what `read` makes stays in this one)."""
        if self._job is not None:
            self.cancel()
        self._ticket += 1
        if not engine and not self.uses_process(path, qrels):
            self._load_now(path, qrels, None, read)
            return
        self._run(path, qrels, read, None, None, " with DuckDB" if engine else "")

    def _run(self, path, qrels, load: LoadFn | None, then: ThenFn | None, engine: Measure | None,
             said: str) -> None:
        """The load in a worker thread (`load` None: a loader process), told on `task` as NAME`said`."""
        ticket = self._ticket
        job = _Job(ticket, load, then, path, qrels,
                   lambda fraction: self.runner.post(self._on_progress, ticket, fraction), engine)
        self._job = job
        self.task.started.emit(Path(path).name + said)
        self._threads = [t for t in self._threads if t.is_alive()]
        self._threads.append(self.runner.run(f"load {Path(path).name}", job.run,
                                             lambda result, _error: self._on_done(ticket, result)))

    def _load_now(self, path, qrels, then: ThenFn | None, load: LoadFn = _default_load) -> None:
        """A small file: read here and now, announced with the same signals as a big one."""
        self.task.started.emit(Path(path).name)

        def read() -> tuple[Any, Any]:
            data = load(path, qrels)
            return data, (then(data) if then is not None else None)

        result = _read(path, read, lambda: False)
        if result.loaded:
            self.task.progressed.emit(1.0)
        self.task.finished.emit(result)

    def cancel(self) -> None:
        """Stop the load under way. Answers at once; the worker's late result is dropped."""
        job, self._job = self._job, None
        if job is None:
            return
        job.cancel()
        self.task.finished.emit(LoadResult(cancelled=True))

    def wait(self, msecs: int = 5000) -> bool:
        """Cancel and wait for every worker thread to end (on close). True when all ended."""
        self.cancel()
        for thread in self._threads:
            thread.join(msecs / 1000)
        return not any(thread.is_alive() for thread in self._threads)

    # ---- from the worker (on the GUI thread) ---------------------------------------------------
    def _current(self, ticket: int) -> bool:
        return self._job is not None and self._job.ticket == ticket

    def _on_progress(self, ticket: int, fraction: float) -> None:
        if self._current(ticket):
            self.task.progressed.emit(fraction)

    def _on_done(self, ticket: int, result: LoadResult | None) -> None:
        if not self._current(ticket):
            return
        self._job = None
        if result is None:  # a bug in the worker, which the runner raises after this
            result = LoadResult(problem="the file could not be loaded")
        if result.loaded:
            self.task.progressed.emit(1.0)
        self.task.finished.emit(result)
