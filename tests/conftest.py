import gc
import os
import sys

import pytest

# Qt tests run headless unless a test run asks for a real display (the xvfb marker).
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Qt's offscreen screen is 800x800, and the window keeps within its screen (a 1366x768 laptop's
# status bar was below the edge): the tests get a 2560x1600 screen, room for a 1920x1080 window.
if os.environ["QT_QPA_PLATFORM"] == "offscreen":
    _screen = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "offscreen_screen.json")
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={_screen}"


# Garbage is collected between tests, on the main thread, never during one: an automatic collection
# (started by any allocation, on any thread: Spark's py4j threads, a worker) that frees a Qt object
# whose window is half torn down segfaults the worker (seen building a MainWindow while an earlier
# test's windows, closed but not yet deleted, waited in a cycle). So after each test's teardown the
# windows pytest-qt closed and `deleteLater`ed are deleted by Qt first, while Python still holds
# them, and then a generation is collected once its count passes Python's threshold (pyqtgraph's
# GarbageCollector.check, as the window itself collects on its GUI thread: qt/app.py).
_THRESHOLD = gc.get_threshold()


def pytest_runtest_setup(item):
    gc.disable()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem):
    if "PySide6.QtCore" in sys.modules:
        from PySide6.QtCore import QCoreApplication, QEvent

        if QCoreApplication.instance() is not None:
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.disable()  # (a test that ran the window's start-up may have turned it on)
    counts = gc.get_count()
    for generation in (2, 1, 0):
        if all(counts[g] > _THRESHOLD[g] for g in range(generation + 1)):
            gc.collect(generation)
            break
