"""The one way work leaves the GUI thread: done in a worker thread, delivered on the GUI thread,
a failure handed to the caller and then raised where the application reports it."""

from __future__ import annotations

import threading

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
