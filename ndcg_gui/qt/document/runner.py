"""Work kept off the GUI thread, done one way (the shape of Anki's `QueryOp`): the one Qt-side
module that starts threads and processes. A snapshot of immutable state goes to a worker thread,
and what it made comes back on the GUI thread through one queued signal, to the callback that asked
for it. A failure comes back the same way and is raised there, where the application's one safety
net reports it; the callback decides whether a result is still current (a ticket it kept), never
the worker. A long task the person waits for (a file read) says how far it is through a `Task`.

numpy and Arrow release the GIL for most of what is done here (scoring every query, the
comparison's statistics), so the window keeps painting meanwhile; a big file's parsing holds the
GIL for seconds, so it is read in a process of its own (`start_process`).
"""

from __future__ import annotations

import contextlib
import functools
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any

from PySide6.QtCore import QObject, QTimer, Signal

Done = Callable[[Any, BaseException | None], None]  # (result, error): one of them is None


class Task(QObject):
    """A long piece of work as the person follows it: started(name) -> progressed(fraction)* ->
    finished(outcome), the outcome being what the work made or why it did not (the caller's type)."""

    started = Signal(str)
    progressed = Signal(float)  # 0..1
    finished = Signal(object)


class Runner(QObject):
    _landed = Signal(object, tuple)  # (call, args), queued to the GUI thread

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._stopped = False
        self._landed.connect(self._call)

    def stop(self) -> None:
        """Nothing comes back any more: the window that shows the results is closed, its views
        gone (a comparison's statistics landing then raised from a deleted timer)."""
        self._stopped = True

    def run(self, name: str, work: Callable[[], Any], done: Done) -> threading.Thread:
        """`work()` in a thread named `name`; then `done(result, None)`, or `done(None, error)`
        and the error raised, on the GUI thread. A thread the system cannot start (out of
        threads) is such a failure, delivered the same way and never raised to the caller: the
        caller has already marked its work as under way (a load shown running, a read busy), and
        only `done` settles that."""
        try:
            return start_thread(name, self._work, work, done)
        except RuntimeError as err:  # ("can't start new thread")
            # (queued, as a worker's result is: the caller finishes what it set up first)
            failure = RuntimeError(f"{name}: {err}")
            QTimer.singleShot(0, self, functools.partial(self._call, self._deliver, (done, None, failure)))
            return _NotStarted(name)

    def run_in_process(self, name: str, call: Callable[[], Any], done: Done,
                       below_gui: bool = False) -> threading.Thread:
        """`call()` in a worker process of its own (`core.reading.load_worker`), watched by a thread
        named `name`; `done` as for `run`. For pure-Python work on a big file that would hold the
        GIL from the window for seconds (the input checks): `call` must pickle (a module-level
        function or a functools.partial of one), and so must its result. `below_gui`: the process
        runs YIELD_NICE below the window (POSIX), as an engine's threads do (`yield_to_gui`), for
        work nobody waits for: a file being read or a run being added gets the cores first."""
        return self.run(name, functools.partial(call_in_process, call, YIELD_NICE if below_gui else 0), done)

    def post(self, call: Callable[..., None], *args: Any) -> None:
        """`call(*args)` on the GUI thread (from a worker: queued; from the GUI thread: now)."""
        with contextlib.suppress(RuntimeError):  # the runner was deleted meanwhile (window closed)
            self._landed.emit(call, args)

    def _work(self, work: Callable[[], Any], done: Done) -> None:
        result, error = None, None
        try:
            result = work()
        except Exception as err:  # a bug: raised again on the GUI thread, where it is reported
            error = err
        self.post(self._deliver, done, result, error)

    def _call(self, call: Callable[..., None], args: tuple) -> None:
        if not self._stopped:
            call(*args)

    @staticmethod
    def _deliver(done: Done, result: Any, error: BaseException | None) -> None:
        done(result, error)
        if error is not None:
            raise error


class _NotStarted(threading.Thread):
    """The thread `Runner.run` could not start, as callers keep and wait for it: already ended."""

    def __init__(self, name: str) -> None:
        super().__init__(name=name, daemon=True)

    def join(self, timeout: float | None = None) -> None:
        return None

    def is_alive(self) -> bool:
        return False


YIELD_NICE = 10  # how far below the GUI thread an engine's threads run (Linux: per thread)


def yield_to_gui() -> None:
    """Run the calling worker thread, and the threads it starts from now on (DuckDB's pool, made
    when it connects), below the GUI thread: on a machine whose cores an engine fills, the window
    still gets the CPU for its frames. Linux sets a nice value per thread; elsewhere nothing."""
    with contextlib.suppress(AttributeError, OSError):  # (no per-thread priority here)
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + YIELD_NICE))


def engines_below_gui() -> None:
    """`yield_to_gui` for a worker that runs an engine (DuckDB), its threads with it: measured
    beside the 50M window's engine, frames while it worked were several times shorter with this
    thread niced too than with DuckDB's pool alone niced (this thread runs the engine's tasks as
    well). DuckDB is imported first, at the GUI's priority: importing holds the GIL, and a niced
    holder of the GIL starves the GUI thread that waits for it when the cores are busy (a GUI
    timer beside two busy loops: its gaps were several times longer while a niced thread imported
    DuckDB than while one at the GUI's priority did)."""
    with contextlib.suppress(ImportError):  # (not installed: the engine says how to install it)
        import duckdb  # noqa: F401  lazy: the optional engine, imported by the worker that runs it
    yield_to_gui()


def start_thread(name: str, target: Callable[..., Any], *args: Any) -> threading.Thread:
    """`target(*args)` in a daemon thread named `name` (a thread that must not keep the program
    alive: the window's close waits for what it needs, `BackgroundLoader.wait`)."""
    thread = threading.Thread(target=target, args=args, name=name, daemon=True)
    thread.start()
    return thread


class Process:
    """A worker process fed a request on its stdin and read from its stdout (a big file's reader,
    `core.reading.load_worker`); `kill` ends it from any thread."""

    def __init__(self, command: Sequence[str], env: Mapping[str, str]) -> None:
        self._process = subprocess.Popen(list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         env=dict(env))
        self.stdin: IO[bytes] = self._process.stdin
        self.stdout: IO[bytes] = self._process.stdout

    def running(self) -> bool:
        return self._process.poll() is None

    def kill(self) -> None:
        if self.running():
            self._process.kill()

    def wait(self) -> int:
        return self._process.wait()

    def close(self) -> None:
        """End it if it still runs, and let go of its pipe."""
        self.kill()
        self._process.wait()
        self._process.stdout.close()


def start_process(command: Sequence[str], env: Mapping[str, str]) -> Process:
    return Process(command, env)


def worker_env() -> dict[str, str]:
    """The environment of a worker process: this one's, with its import path (a checkout run
    from its folder imports the same code)."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))


def call_in_process(call: Callable[[], Any], nice: int = 0) -> Any:
    """`call()` run by a worker process (`Runner.run_in_process`): its result, or its error raised
    here (a bug in it as RuntimeError with its last line; the whole of it is logged there)."""
    from ndcg_gui.core.reading.load_worker import command, read_message

    process = start_process(command(), worker_env())
    try:
        with contextlib.suppress(OSError):  # (the process already ended: said below)
            process.stdin.write(pickle.dumps({"call": call, "nice": nice}))
            process.stdin.close()
        message = read_message(process.stdout)
        if message is None:
            raise RuntimeError(f"the worker process ended unexpectedly (exit code {process.wait()})")
        if message[0] == "done":
            return message[2]
        if message[0] == "error":
            raise message[1]
        raise RuntimeError(message[1].strip().splitlines()[-1])
    finally:
        process.close()
