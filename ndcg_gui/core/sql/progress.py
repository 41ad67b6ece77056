"""How far an engine's job has come, told while it runs: a thread polls DuckDB's
`query_progress()` (the percentage of the statement running now; or the percentage a step done in
Python told, `Steps.tell`: pyarrow parsing text) and hands it, with the step the
engine is at ("reading run.txt", "scoring"), to a `Report`: the command line's `StderrProgress`,
or a window's progress bar (which can stop the job by returning False: the statement is
interrupted and raises).

DuckDB's own progress bar prints to stdout, where the tables go: it is kept off
(`enable_progress_bar_print = false`) while its progress is tracked.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import TextIO

Report = Callable[[str, float], "bool | None"]  # (step, percent 0-100) -> False to stop the job
POLL = 0.25  # seconds between two looks at the job
AFTER_TTY, AFTER_LOG = 1.0, 10.0  # seconds a job runs before a terminal, or a log, is told of it


class Cancelled(Exception):
    """The job was stopped by its report (a window's Cancel)."""


class Steps:
    """The step a job is at, set by the engine between its statements; `stopped` once the report
    asked to stop. A step of several statements (`part`) is told as one percentage that never goes
    back (scoring's eleven parts read 32, 50, 100, 23, 100, 40 % before)."""

    def __init__(self) -> None:
        self.now = ""
        self.stopped = False
        self.own: float | None = None  # the step's percentage told by Python work (`tell`)
        self._part, self._parts, self._told = 0, 1, 0.0

    def __call__(self, step: str) -> None:
        self.now = step
        self.own = None
        self._part, self._parts, self._told = 0, 1, 0.0

    def tell(self, percent: float) -> None:
        """How far the step has come, for a step that is Python's work (pyarrow parsing text)
        rather than a DuckDB statement's, which `query_progress` cannot see."""
        self.own = percent

    def part(self, index: int, count: int) -> None:
        """The step's statement `index` (from 0) of `count` runs now."""
        self._part, self._parts = index, max(1, count)

    def percent(self, statement: float) -> float:
        """The step's percentage, given the running statement's."""
        done = (self._part + min(max(statement, 0.0), 100.0) / 100) / self._parts * 100
        self._told = max(self._told, min(done, 100.0))
        return self._told


@contextlib.contextmanager
def watching(con, report: Report | None, every: float | None = None) -> Iterator[Steps]:
    """While the block runs, `report(step, percent)` every `every` seconds from another thread
    (none when `report` is None). The block names its steps through the `Steps` it gets."""
    steps = Steps()
    if report is None:
        yield steps
        return
    every = POLL if every is None else every
    con.execute("SET enable_progress_bar = true")
    con.execute("SET enable_progress_bar_print = false")
    stop = threading.Event()

    def poll() -> None:
        while not stop.wait(every):
            try:
                own = steps.own
                percent = con.query_progress() if own is None else own
            except Exception:  # (the connection closing under us: the job is over)
                return
            if percent >= 0 and report(steps.now, steps.percent(float(percent))) is False:
                steps.stopped = True
                with contextlib.suppress(Exception):
                    con.interrupt()

    thread = threading.Thread(target=poll, name="engine progress", daemon=True)
    thread.start()
    try:
        yield steps
    finally:
        stop.set()
        thread.join()


class StepFraction:
    """A job's steps told one after another, each 0-100 % (`Report`'s arguments), as one fraction
    of the whole, for a progress bar: `total` steps expected, each its share in the order first
    told; never backwards (a percentage going back between statements, a step told late), never
    1 before the job ends."""

    def __init__(self, total: int, start: float = 0.0) -> None:
        self.total, self.seen, self.last = max(1, total), [], start

    def __call__(self, step: str, percent: float) -> float:
        if step not in self.seen:
            self.seen.append(step)
        done = (self.seen.index(step) + min(max(percent, 0.0), 100.0) / 100) / self.total
        self.last = max(self.last, min(0.99, done))
        return self.last


class StderrProgress:
    """The command line's report: on a terminal, one line rewritten in place once the job has run
    AFTER_TTY seconds, wiped at the end; into a file or pipe (a log), a line each time the job
    passes another tenth, once it has run AFTER_LOG seconds (short jobs say nothing). Never
    stdout."""

    def __init__(self, stream: TextIO, prefix: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.stream, self.prefix, self.clock = stream, prefix, clock
        self.tty = _is_terminal(stream)
        self.after = AFTER_TTY if self.tty else AFTER_LOG
        self.start = clock()
        self.shown = ""
        self.last: tuple[str, int] | None = None

    def __call__(self, step: str, percent: float) -> None:
        if self.clock() - self.start < self.after:
            return
        if self.tty:
            text = f"{self.prefix}{step}: {percent:3.0f} %"
            self.stream.write("\r" + text + " " * max(0, len(self.shown) - len(text)))
            self.shown = text
        else:
            tenth = int(percent // 10)
            if self.last is not None and self.last == (step, tenth):
                return
            self.last = (step, tenth)
            self.stream.write(f"{self.prefix}{step}: {percent:.0f} %\n")
        self.stream.flush()

    def close(self) -> None:
        """Wipe the terminal's line (a log keeps its lines)."""
        if self.tty and self.shown:
            self.stream.write("\r" + " " * len(self.shown) + "\r")
            self.stream.flush()
            self.shown = ""


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
