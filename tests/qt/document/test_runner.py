"""The one way work leaves the GUI thread: done in a worker thread, delivered on the GUI thread,
a failure handed to the caller and then raised where the application reports it."""

from __future__ import annotations

import sys
import threading

import pytest

from ndcg_gui.qt.document.runner import Runner


def test_work_runs_off_the_gui_thread_and_comes_back_on_it(qtbot):
    runner = Runner()
    where, got = [], []
    runner.run("test work", lambda: where.append(threading.current_thread()) or 42,
               lambda result, error: got.append((result, error, threading.current_thread())))
    qtbot.waitUntil(lambda: bool(got), timeout=5000)
    assert got == [(42, None, threading.main_thread())]
    assert where and where[0] is not threading.main_thread() and where[0].name == "test work"


def test_a_failure_is_handed_back_and_then_raised_on_the_gui_thread(qtbot):
    runner = Runner()
    got = []

    def fail() -> None:
        raise ZeroDivisionError("a bug")

    with qtbot.captureExceptions() as raised:
        runner.run("failing work", fail, lambda result, error: got.append((result, type(error))))
        qtbot.waitUntil(lambda: bool(got), timeout=5000)
    assert got == [(None, ZeroDivisionError)]
    assert [type(e[1]) for e in raised] == [ZeroDivisionError]


def test_a_call_posted_from_a_worker_runs_on_the_gui_thread_in_order(qtbot):
    from ndcg_gui.qt.document.runner import start_thread

    runner = Runner()
    got = []

    def work() -> None:
        for i in range(5):
            runner.post(lambda i=i: got.append((i, threading.current_thread())))

    start_thread("poster", work).join(5)
    qtbot.waitUntil(lambda: len(got) == 5, timeout=5000)
    assert [i for i, _ in got] == [0, 1, 2, 3, 4]
    assert all(thread is threading.main_thread() for _, thread in got)


def test_a_worker_process_is_fed_and_read_and_killed_when_asked(qtbot):
    import sys

    from ndcg_gui.qt.document.runner import start_process

    echo = start_process([sys.executable, "-c", "import sys; sys.stdout.write(sys.stdin.read())"], {})
    echo.stdin.write(b"request")
    echo.stdin.close()
    assert echo.stdout.read() == b"request" and echo.wait() == 0
    echo.close()
    waiting = start_process([sys.executable, "-c", "import time; time.sleep(60)"], {})
    assert waiting.running()
    waiting.kill()
    assert waiting.wait() != 0 and not waiting.running()
    waiting.close()


def test_work_in_a_process_of_its_own_comes_back_on_the_gui_thread(qtbot):
    import functools
    import os

    runner = Runner()
    got = []
    runner.run_in_process("test process", functools.partial(os.getpid),
                          lambda result, error: got.append((result, error, threading.current_thread())))
    qtbot.waitUntil(lambda: bool(got), timeout=30000)
    pid, error, thread = got[0]
    assert error is None and isinstance(pid, int) and pid != os.getpid()
    assert thread is threading.main_thread()


def test_a_failure_in_a_worker_process_is_handed_back_as_one_line(qtbot):
    import functools

    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.reading import load

    runner = Runner()
    got = []
    # A bad file: the reader's one line comes back as it was raised there.
    runner.run_in_process("bad file", functools.partial(load, "/no/such/run.txt"),
                          lambda result, error: got.append(error))
    with qtbot.captureExceptions() as raised:
        qtbot.waitUntil(lambda: bool(got), timeout=30000)
    assert isinstance(got[0], InputError) and "run.txt: file not found" in str(got[0])
    assert [type(e[1]) for e in raised] == [InputError]
    # A bug there: its last line, not a traceback, and raised here where it is reported.
    got.clear()
    runner.run_in_process("bug", functools.partial(divmod, 1, 0), lambda result, error: got.append(error))
    with qtbot.captureExceptions() as raised:
        qtbot.waitUntil(lambda: bool(got), timeout=30000)
    assert isinstance(got[0], RuntimeError) and "ZeroDivisionError" in str(got[0])
    assert "\n" not in str(got[0])


def _nices() -> dict[int, int]:
    """Each thread of this process: its nice value (Linux)."""
    import os

    found = {}
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/stat") as stat:
                found[int(task)] = int(stat.read().rsplit(")", 1)[1].split()[16])
        except (FileNotFoundError, ProcessLookupError):
            continue  # the thread ended between the listing and the read
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="threads' nice values: Linux")
def test_an_engines_worker_and_its_threads_run_below_the_window():
    """DuckDB's threads and the worker that runs it (which runs its tasks too) yield the cores to
    the GUI thread; DuckDB is imported before (importing holds the GIL: not at a low priority)."""
    pytest.importorskip("duckdb")
    from ndcg_gui.core.sql import duckdb_engine
    from ndcg_gui.qt.document.runner import YIELD_NICE, engines_below_gui

    before = _nices()
    seen: dict[str, object] = {}

    def work() -> None:
        engines_below_gui()
        seen["imported"] = "duckdb" in sys.modules
        con = duckdb_engine.connect(threads=2)
        con.sql("SELECT count(*) FROM range(1000)").fetchall()
        seen["threads"] = {t: n for t, n in _nices().items() if t not in before}
        con.close()

    worker = threading.Thread(target=work)
    worker.start()
    worker.join(60)
    base = before[threading.get_native_id()]
    assert seen["imported"] and seen["threads"]
    assert all(n == min(19, base + YIELD_NICE) for n in seen["threads"].values())


def _threads_cannot_start(monkeypatch, name: str) -> None:
    """Threading as on a machine out of threads, for threads named `name`."""
    start = threading.Thread.start

    def failing(thread) -> None:
        if thread.name == name:
            raise RuntimeError("can't start new thread")
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", failing)


def test_a_thread_that_cannot_start_is_a_failure_delivered_as_any_other(qtbot, monkeypatch):
    """Issue 33.11: out of threads, `run` raised to its caller, whose state already said the work
    was under way (a load shown running forever); now `done` hears of it on the GUI thread, and the
    error is raised there, where the application reports it."""
    _threads_cannot_start(monkeypatch, "doomed work")
    runner = Runner()
    got = []
    with qtbot.captureExceptions() as raised:
        thread = runner.run("doomed work", lambda: 42, lambda result, error: got.append((result, error)))
        assert got == []  # (delivered on the GUI thread's next turn, as any result)
        qtbot.waitUntil(lambda: bool(got), timeout=5000)
        thread.join()
    assert not thread.is_alive() and got[0][0] is None
    assert str(got[0][1]) == "doomed work: can't start new thread"
    assert [str(e[1]) for e in raised] == ["doomed work: can't start new thread"]


def test_a_load_whose_thread_cannot_start_ends_with_a_problem_not_a_load_forever(qtbot, monkeypatch,
                                                                                   tmp_path):
    from ndcg_gui.qt.document.loader import BackgroundLoader

    path = tmp_path / "r.csv"
    path.write_text("doc,grade\na,1\n")
    loader = BackgroundLoader(Runner(), load=lambda p, q=None, **_: None)
    _threads_cannot_start(monkeypatch, "load r.csv")
    finished = []
    loader.task.finished.connect(finished.append)
    with qtbot.captureExceptions():
        loader.start(path)
        qtbot.waitUntil(lambda: bool(finished), timeout=5000)
    assert not loader.is_loading() and finished[0].problem is not None
    assert loader.wait()
