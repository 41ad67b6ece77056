import gc
import os
import sys

import pytest
from _pytest.nodeid import NodeId
from hypothesis import settings

# Hypothesis' budgets: `full` (each test's own max_examples; `make test`, and a bare pytest) and
# `quick` (`make check`: a fifth of each test's examples, at least QUICK_LEAST, its own if fewer).
# A test's own `@settings(max_examples=...)` outranks any profile, so the quick one is applied to
# each collected test below, rather than by the profile's values.
settings.register_profile("full")
settings.register_profile("quick")
QUICK_SHARE = 5
QUICK_LEAST = 10

# The JVMs that Spark's tests start (this process's, and a command's in a child) compile with the
# JIT's quick tier only, and collect with the serial collector: the runs are short, and the JVM's
# optimising compiler and parallel collector spent more CPU than the queries did (benchmarks/
# README.md, "Test suite time"). Options of the JVM, not of Spark: every query runs as a user's.
os.environ.setdefault("PYSPARK_SUBMIT_ARGS",
                      "--driver-java-options '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC' pyspark-shell")
# One thread per OpenMP library (XGBoost, LightGBM, scikit-learn, numba's ranx): `make test` runs a
# worker per core, and each library's idle threads spun on both cores between its calls (an XGBoost
# ndcg of 30 rows cost 70 ms of CPU with its threads, 1.4 ms with one: benchmarks/README.md, session
# 10). Set before any of them is imported: OpenMP reads it once, when it loads.
for _threads in ("OMP_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")
# A repaint Qt is asked for comes at the next turn of the event loop, not 5 ms later (QWindow.
# requestUpdate's idle time): a test waits for the events that deliver it (tests/qt/screen_grab.py).
os.environ.setdefault("QT_QPA_UPDATE_IDLE_TIME", "0")
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


# pytest-xdist's `--dist loadgroup` keeps an `xdist_group`'s tests on one worker by a suffix it adds
# to each test's id on the worker (`tests/test_cli_spark.py::test_x@spark`), which the scheduler
# splits off. It sets the suffix as `item._nodeid`, where pytest 9.2 keeps the id as `item._id` (a
# NodeId): the suffix was lost, and every test of a group went to either worker, each setting up the
# group's JVM, ranx's compile, the wheel's venv or the bundle again (pytest-xdist#1386). The suffix
# is set here where pytest keeps the id (as pytest-xdist#1388 would); once xdist sets it, nothing is
# left to do. A pytest that keeps the id elsewhere again fails the run, rather than the groups
# coming apart unseen.
#
# The scheduler hands out the groups first (the biggest first), then the other tests in collection
# order: the slow ones are put first there, so that no long test starts when the other worker is
# nearly done (the two workers finish together).
@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    if settings.get_current_profile_name() == "quick":
        _quick_budgets(items)
    if not getattr(config.option, "loadgroup", False):  # (set on a worker of --dist loadgroup)
        return
    for item in items:
        names = {str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                 for mark in item.iter_markers("xdist_group")}
        if not names:
            continue
        suffix = "@" + "_".join(sorted(names))
        if not item.nodeid.endswith(suffix):
            item._id = NodeId.parse(item.nodeid + suffix)
        if not item.nodeid.endswith(suffix):
            raise pytest.UsageError(f"{item.nodeid}: its xdist_group suffix {suffix} did not hold (see "
                                    "tests/conftest.py)")
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # (stable: else as collected)


def _quick_budgets(items) -> None:
    """Each hypothesis test's max_examples cut to its quick share. Hypothesis reads the settings a
    test runs with from the attribute below when it runs (hypothesis/core.py): one that no longer
    does fails the run, rather than the quick loop running the full budgets unseen."""
    done: set[int] = set()
    for item in items:
        test = getattr(item, "obj", None)
        if not getattr(test, "is_hypothesis_test", False) or id(test) in done:
            continue  # (a parametrized test's cases share one function: cut once)
        done.add(id(test))
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if not isinstance(own, settings):
            raise pytest.UsageError(f"{item.nodeid}: hypothesis keeps a test's settings elsewhere now; "
                                    "the quick profile cannot cut its budget (see tests/conftest.py)")
        fewer = min(own.max_examples, max(QUICK_LEAST, own.max_examples // QUICK_SHARE))
        test._hypothesis_internal_use_settings = settings(own, max_examples=fewer)
