"""The application around the window: --screenshot, command-line options, and the safety net
that turns an unexpected exception into a dialog and a log entry."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QStandardPaths
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from ndcg_gui.assets import resource_path
from ndcg_gui.core.ndcg.presets import preset_name
from ndcg_gui.gui_main import build_parser
from ndcg_gui.qt import app as gui_app
from ndcg_gui.qt.window import crash_log
from ndcg_gui.qt.window.main_window import MainWindow


def test_screenshot_from_the_command_line(tmp_path):
    out = tmp_path / "shot.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([sys.executable, "-m", "ndcg_gui", "--screenshot", str(out)],
                            env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == gui_app.SCREENSHOT_SIZE


def test_a_dark_screenshot_and_a_light_one_from_the_command_line(tmp_path):
    """`--color-scheme dark` (issue 34.12): the screenshot grid is made in both schemes; the
    window's pixels are mostly dark in one and light in the other."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    lightness = {}
    for scheme in ("dark", "light"):
        out = tmp_path / f"{scheme}.png"
        argv = ["--color-scheme", scheme, "--size", "640x480", "--screenshot", str(out)]
        result = subprocess.run([sys.executable, "-m", "ndcg_gui", *argv], env=env, capture_output=True,
                                text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        image = QImage(str(out))
        seen = [image.pixelColor(x, y).lightness() for x in range(0, image.width(), 16)
                for y in range(0, image.height(), 16)]
        lightness[scheme] = sum(seen) / len(seen)
    assert lightness["dark"] < 90 < 180 < lightness["light"], lightness
    wrong = subprocess.run([sys.executable, "-m", "ndcg_gui", "--color-scheme", "purple", "--screenshot",
                            str(tmp_path / "x.png")], env=env, capture_output=True, text=True, timeout=60)
    assert wrong.returncode == 2 and "--color-scheme" in wrong.stderr and "Traceback" not in wrong.stderr


def test_screenshot_of_a_file_that_cannot_be_read_exits_2(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([sys.executable, "-m", "ndcg_gui", str(tmp_path / "nope.csv"), "--screenshot",
                             str(tmp_path / "x.png")], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert "nope.csv" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("victim", ["run.csv", "qrels.txt", "link.png"])
def test_a_screenshot_never_replaces_a_file_it_opens(tmp_path, victim):
    """Refused before any window, by name or through a link (issue 33, finding 1)."""
    run, qrels = tmp_path / "run.csv", tmp_path / "qrels.txt"
    run.write_text("query,doc,score\n1,a,2\n")
    qrels.write_text("1 0 a 1\n")
    (tmp_path / "link.png").symlink_to(run)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    argv = [str(run), "--qrels", str(qrels), "--screenshot", str(tmp_path / victim)]
    result = subprocess.run([sys.executable, "-m", "ndcg_gui", *argv], env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "--screenshot is " in result.stderr and "an input too" in result.stderr
    assert run.read_text() == "query,doc,score\n1,a,2\n" and qrels.read_text() == "1 0 a 1\n"


def test_screenshot_to_dev_stdout_appends_where_the_shell_said(tmp_path):
    """`--screenshot /dev/stdout >> shots` adds the picture after what the file had (never
    replaced, never truncated); an odd path is one line and status 2."""
    shots = tmp_path / "shots"
    shots.write_bytes(b"before")
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": root}
    line = f'"{sys.executable}" -m ndcg_gui --screenshot /dev/stdout >> "{shots}"'
    result = subprocess.run(["sh", "-c", line], env=env, capture_output=True, timeout=120, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = shots.read_bytes()
    assert data.startswith(b"before\x89PNG")
    image = QImage.fromData(data[len(b"before"):], "PNG")
    assert (image.width(), image.height()) == gui_app.SCREENSHOT_SIZE
    piped = subprocess.run([sys.executable, "-m", "ndcg_gui", "--screenshot", "-"], env=env,
                           capture_output=True, timeout=120, cwd=tmp_path)
    assert piped.returncode == 0 and piped.stdout.startswith(b"\x89PNG") and not (tmp_path / "-").exists()
    (tmp_path / "a.png").symlink_to("b.png")
    (tmp_path / "b.png").symlink_to("a.png")
    looped = subprocess.run([sys.executable, "-m", "ndcg_gui", "--screenshot", "a.png"], env=env,
                            capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert looped.returncode == 2
    ours = [line for line in looped.stderr.splitlines() if "propagateSizeHints" not in line]  # (Qt's)
    assert ours == ["ndcg-gui: a.png: is a symbolic link that loops (it leads back to itself)"]

def _screenshot(tmp_path, *args, timeout=120):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "ndcg_gui", *map(str, args), "--screenshot",
                           str(tmp_path / "x.png")], env=env, capture_output=True, text=True, timeout=timeout)


def test_screenshot_of_a_big_bad_file_prints_one_line_and_exits_2(tmp_path):
    """A file of 8 MiB or more is read in the background; its error dialog waited for ever."""
    from ndcg_gui.qt.document.loader import PROCESS_THRESHOLD

    bad = tmp_path / "big.csv"
    rows = PROCESS_THRESHOLD // 11 + 1000  # 11 bytes a row
    bad.write_text("doc,grade\n" + "".join(f"d{i:07d},1\n" for i in range(rows)) + "last,high\n")
    result = _screenshot(tmp_path, bad)
    assert result.returncode == 2, result.stderr
    assert result.stderr == f'ndcg-gui: big.csv:{rows + 2}: grade "high" is not a number (leave the cell ' \
        "empty for an unjudged document)\n"
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("k", ["3000000000", str(2**63)])
def test_screenshot_with_a_k_too_big_exits_2_without_a_traceback(tmp_path, k):
    result = _screenshot(tmp_path, "-k", k)
    assert result.returncode == 2
    assert "-k" in result.stderr and "1,000,000" in result.stderr and "Traceback" not in result.stderr


def test_with_screenshot_no_dialog_waits(qtbot, settings, monkeypatch, capsys):
    """Headless (--screenshot): an error is one line on stderr and kept; an unexpected exception
    is one line too (the log keeps the traceback). (The dialogs themselves are the tests' fakes
    here: the subprocess tests above run the real ones.)"""
    from ndcg_gui.qt.widgets import dialogs

    monkeypatch.setattr(dialogs, "_headless", None)
    monkeypatch.setattr(gui_app, "write_log", lambda text: None)
    assert not dialogs.headless_error("not headless: a dialog shows it")
    errors = dialogs.go_headless()
    assert dialogs.headless_error("run.txt:3: bad\nthing")
    try:
        raise OverflowError("too big")
    except OverflowError as exc:
        gui_app.handle_exception(type(exc), exc, exc.__traceback__)
    err = capsys.readouterr().err
    assert err.splitlines() == ["ndcg-gui: run.txt:3: bad thing",
                                "ndcg-gui: internal error (OverflowError: too big); please report it"]
    assert len(errors) == 2


def test_options_open_the_file_query_and_definition(qtbot, settings):
    window = MainWindow(settings=settings)
    qtbot.addWidget(window)
    with resource_path("examples/sample.run") as run, resource_path("examples/sample.qrels") as qrels:
        options = build_parser().parse_args([str(run), "--qrels", str(qrels), "-k", "5",
                                             "--preset", "trec_eval"])
        queries_in_file = None
        assert gui_app.apply_options(window, options) is None
        queries_in_file = window.document.queries()
        options.query = queries_in_file[2]
        assert gui_app.apply_options(window, options) is None
    assert window.document.current_query == queries_in_file[2]
    assert window.document.k == 5
    assert preset_name(window.document.measure, ignoring_ties=True) == "trec_eval"
    # The file replaced the example shown while it loaded: Ctrl+Z does not go back to it.
    assert not window.document.undo_stack.canUndo() and window.document.is_clean()


def test_runs_after_the_file_are_compared_as_ndcg_inspect_compares_them(qtbot, settings, files, capsys):
    """Finding 11 (issue 34): `ndcg-gui RUN_A RUN_B --qrels Q` opened RUN_A alone (the window took
    one file); `ndcg-inspect RUN_A RUN_B --qrels Q` compares them."""
    from ndcg_gui import gui_main

    run, qrels, second = files
    window = MainWindow(settings=settings)
    qtbot.addWidget(window)
    options = build_parser().parse_args([str(run), str(second), "--qrels", str(qrels)])
    assert gui_main.check(options) is None
    assert gui_app.apply_options(window, options) is None
    qtbot.waitUntil(lambda: window.comparison.active and window.right_tabs.count() == 2, timeout=10000)
    assert window.comparison.added == [second.stem]
    assert window.document.path == run
    # Without judgments (issue 35.3) they are compared by how they rank each query: the first
    # opened with every document unjudged, the second compared with it.
    other = MainWindow(settings=settings)
    qtbot.addWidget(other)
    options = build_parser().parse_args([str(run), str(second)])
    assert gui_main.check(options) is None
    assert gui_app.apply_options(other, options) is None
    qtbot.waitUntil(lambda: other.comparison.active and not other.compare.busy(), timeout=10000)
    assert other.comparison.added == [second.stem] and not other.comparison.judged
    assert other.comparison.overlap is not None and not capsys.readouterr().err
    # A run alone without its qrels is still refused before any window, in one line.
    assert gui_main.main([str(run)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--qrels" in err and "Traceback" not in err


def test_without_a_file_the_window_opens_on_worked_example_e1(qtbot, settings):
    window = MainWindow(settings=settings)
    qtbot.addWidget(window)
    assert gui_app.apply_options(window, build_parser().parse_args([])) is None
    assert window.document.current_list().grades.tolist() == [3, 2, 3, 0, 1]
    assert window.document.summary.ndcg == pytest.approx(0.9724, abs=5e-5)
    assert "Worked example E1" in window.windowTitle()


def test_the_example_shown_is_the_shipped_file_as_the_readers_read_it(qtbot, settings):
    """E1 is read without the file readers (they bring pandas); it must be what they would read."""
    from ndcg_gui.assets import EXAMPLE
    from ndcg_gui.core.reading import load

    window = MainWindow(settings=settings)
    qtbot.addWidget(window)
    gui_app.open_example(window)
    with resource_path(EXAMPLE) as path:
        dataset = load(path)
    read = dataset.ranked_list(dataset.queries()[0])
    shown = window.document.current_list()
    assert window.document.queries() == dataset.queries()
    assert shown.docs.tolist() == read.docs.tolist()
    assert shown.grades.tolist() == read.grades.tolist()
    assert (shown.scores, shown.has_pool, shown.unretrieved) == (read.scores, read.has_pool, read.unretrieved)
    assert dict(shown.extras) == dict(read.extras) == {}


FIRST_PAINT = """
import sys
from ndcg_gui.gui_main import build_parser, check
options = build_parser().parse_args([])
assert check(options) is None
from PySide6.QtCore import QSettings
from ndcg_gui.qt import app as gui_app
app = gui_app.make_application()
window = gui_app.MainWindow(settings=QSettings(sys.argv[1], QSettings.IniFormat))
gui_app.apply_options(window, options)
window.show()
window.repaint()
app.processEvents()
print(sorted(m for m in ("pandas", "pyarrow", "scipy", "ndcg_gui.core.reading", "ndcg_gui.core.ndcg.evaluate",
                         "numpy.ma") if m in sys.modules))
"""


def test_the_first_screen_is_painted_without_pandas_pyarrow_scipy_or_the_readers(tmp_path):
    """They load when a file is opened (or in the background after the first paint): importing
    them before it would double the start-up time (benchmarks/bench_startup.py). numpy.ma too
    (what np.unique imports)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([sys.executable, "-c", FIRST_PAINT, str(tmp_path / "s.ini")], env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_a_bad_file_on_the_command_line_falls_back_to_the_example(qtbot, settings, tmp_path):
    window = MainWindow(settings=settings)
    qtbot.addWidget(window)
    bad = tmp_path / "bad.csv"
    bad.write_text("doc,grade\na,x\n")
    problem = gui_app.apply_options(window, build_parser().parse_args([str(bad)]))
    assert problem.startswith("bad.csv:2")
    assert window.document.current_list().grades.tolist() == [3, 2, 3, 0, 1]


def test_unexpected_exception_becomes_a_dialog_and_a_log_entry(qtbot, dialog_log, monkeypatch):
    QStandardPaths.setTestModeEnabled(True)
    try:
        QApplication.instance().setApplicationName("ndcg-gui-tests")
        monkeypatch.setattr(sys, "__stderr__", None)  # keep the test output clean
        try:
            raise RuntimeError("boom")
        except RuntimeError:
            gui_app.handle_exception(*sys.exc_info())
        assert dialog_log[-1][0] == "Unexpected error"
        assert "RuntimeError: boom" in dialog_log[-1][1]
        log = crash_log.log_path()
        assert "RuntimeError: boom" in log.read_text()
        assert str(log) in dialog_log[-1][1]
        log.unlink()
    finally:
        QStandardPaths.setTestModeEnabled(False)


def test_application_identity(qtbot):
    app = gui_app.make_application()
    assert app.applicationName() == "NDCG Inspector"
    assert app.organizationName()
    assert app.desktopFileName() == "ndcg-gui"
    assert not app.windowIcon().isNull()


def test_after_the_first_paint_runs_once_the_window_is_painted(qtbot):
    from PySide6.QtWidgets import QLabel

    label = QLabel("x")
    qtbot.addWidget(label)
    calls = []
    gui_app.AfterFirstPaint(label, lambda: calls.append(label.isVisible()))
    label.show()
    qtbot.waitUntil(lambda: calls == [True])
    label.repaint()
    qtbot.wait(20)
    assert calls == [True]  # once


def test_preload_imports_what_the_first_paint_did_without():
    gui_app.preload().join(timeout=120)
    assert all(name in sys.modules for name in gui_app.PRELOAD)


AFTER_START = """
import gc, os, sys, threading, time
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

collections = []  # True for each collection made on the GUI thread once main() turned them off
gc.callbacks.append(lambda phase, info: phase == "start" and not gc.isenabled() and collections.append(
    threading.current_thread() is threading.main_thread()))

def report():
    for thread in threading.enumerate():
        if thread.name == "preload":
            thread.join(60)
    if not collections and time.monotonic() < deadline:  # the timer's first pass may come later
        QTimer.singleShot(200, report)
        return
    print(gc.isenabled(), gc.get_freeze_count() > 0, "pandas" in sys.modules, all(collections), flush=True)
    os._exit(0)

_exec = QApplication.exec
def exec_then_report():
    before = (gc.isenabled(), len(collections), "pandas" in sys.modules)
    print(*before, flush=True)
    global deadline
    deadline = time.monotonic() + 20
    QTimer.singleShot(1000, report)
    return _exec()
QApplication.exec = staticmethod(exec_then_report)
from ndcg_gui.gui_main import main
main([])
"""


def test_start_up_collects_no_garbage_until_painted_then_only_on_the_gui_thread(tmp_path):
    """No collection during start-up; after the first paint what start-up made is frozen, and
    garbage is collected on a timer of the GUI thread, never by a worker's allocation (the preload
    thread's imports, a scoring thread): a collection there may free a Qt object off its thread."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path),
           "NDCG_RECOVERY_DIR": str(tmp_path / "recovery")}
    result = subprocess.run([sys.executable, "-c", AFTER_START], env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.stdout.split() == ["False", "0", "False", "False", "True", "True", "True"], result.stderr


def test_the_window_takes_the_gil_back_from_a_busy_worker_within_a_millisecond(qapp, monkeypatch):
    """A worker running Python (a big file's ids made into sets, DuckDB imported) hands the GIL to
    the GUI thread every switch interval, once per call the GUI thread makes into Python: at
    Python's 5 ms a paint beside such a worker took 4x as long (`app.SWITCH_INTERVAL`)."""
    from ndcg_gui.qt import app

    monkeypatch.setattr(sys, "setswitchinterval", lambda seconds: calls.append(seconds))
    calls: list[float] = []
    app.make_application()
    assert calls and calls[-1] <= 0.001
