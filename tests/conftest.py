import gc
import os

# Qt tests run headless unless a test run asks for a real display (the xvfb marker).
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Qt's offscreen screen is 800x800, and the window keeps within its screen (a 1366x768 laptop's
# status bar was below the edge): the tests get a 2560x1600 screen, room for a 1920x1080 window.
if os.environ["QT_QPA_PLATFORM"] == "offscreen":
    _screen = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "offscreen_screen.json")
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={_screen}"


# Garbage is collected on the main thread only, between tests, as the window collects on its
# GUI thread's timer (qt/app.py): an automatic collection that another thread's allocation starts
# (Spark's py4j threads, a scoring worker, the recovery writer) may free a Qt object off its thread
# and crash the worker process. Between tests, a generation is collected when its count passes
# Python's threshold (pyqtgraph's GarbageCollector.check), so the cost is what automatic collection's
# would be.
_THRESHOLD = gc.get_threshold()


def pytest_runtest_setup(item):
    gc.disable()


def pytest_runtest_teardown(item, nextitem):
    gc.disable()  # (a test that ran the window's start-up may have turned it on)
    counts = gc.get_count()
    for generation in (2, 1, 0):
        if all(counts[g] > _THRESHOLD[g] for g in range(generation + 1)):
            gc.collect(generation)
            break
