"""A closed window's undo history is deleted by its stack, not left to Python's cycle collector.

The steps are Python objects the C++ stack owns. The collector clears each object of a garbage
cycle in its own order, and clearing a step's wrapper gives the step back to Python, which deletes
it while the stack still lists it: the whole Xvfb run passed and then crashed at exit (status 139).
The script below does to one step what the collector does (its type's tp_clear), then frees it
and the document, in a process of its own (a crash is its exit status)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import ctypes, gc, sys
    from shiboken6 import Shiboken
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication
    from ndcg_gui.core.lists.ranked_list import RankedList
    from ndcg_gui.qt.window.main_window import MainWindow

    app = QApplication([])
    window = MainWindow(settings=QSettings(sys.argv[1], QSettings.IniFormat))
    window.files.maybe_discard = lambda _what: True  # (closing asks nothing)
    doc = window.document
    doc.set_lists({"q1": RankedList(docs=list("ABCDE"), grades=[3, 2, 3, 0, 1], query="q1")})
    for _ in range(3):
        doc.move_rows(0, 1, 3)
    step = doc.undo_stack.command(1)
    if sys.argv[2] == "close":
        window.close()
    print("step alive:", Shiboken.isValid(step))
    get_slot = ctypes.pythonapi.PyType_GetSlot
    get_slot.restype, get_slot.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_int]
    tp_clear = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object)(get_slot(type(step), 51))  # Py_tp_clear
    tp_clear(step)
    del step
    window.deleteLater()
    del window, doc
    app.processEvents()
    gc.collect()
    print("done")
""")


def _run(tmp_path, how: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "s.ini"), how], env=env,
                          capture_output=True, text=True, timeout=120)


def test_a_closed_windows_history_survives_the_collectors_order(tmp_path):
    done = _run(tmp_path, "close")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["step", "alive:", "False", "done"]  # (deleted by the stack at close)


def test_the_same_steps_crash_when_the_window_is_not_closed(tmp_path):
    # The test above can fail: without the close (so the history is left to the collector's
    # order), the same script dies on the step deleted twice.
    done = _run(tmp_path, "open")
    assert "step alive: True" in done.stdout
    # (the crash: when the collector or the interpreter's exit frees the document)
    assert done.returncode != 0, "the collector's order no longer deletes a step twice: this test's premise"
