"""The application around the window: its identity (name, organisation, icon, desktop file), the
safety net for unexpected errors, the command-line options, and `--screenshot`.

Start-up paints the window first (on worked example E1, or the file's first query) and only then
imports what the first screen does without (pandas, pyarrow, the readers: in a worker thread) and
offers back unsaved edits of a session that crashed; see benchmarks/bench_startup.py."""

from __future__ import annotations

import argparse
import functools
import gc
import importlib
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from threading import Thread

from PySide6.QtCore import QBuffer, QEvent, QIODevice, QObject, QSettings, QSize, QStandardPaths, QTimer
from PySide6.QtGui import QGuiApplication, QIcon, QPixmap
from PySide6.QtWidgets import QApplication, QWidget

from ndcg_gui import APP_NAME, __version__
from ndcg_gui.assets import EXAMPLE, read_bytes, resource
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.writing.atomic import atomic_write_bytes
from ndcg_gui.qt.document.runner import start_thread
from ndcg_gui.qt.widgets import dialogs
from ndcg_gui.qt.window.crash_log import write_log
from ndcg_gui.qt.window.main_window import MainWindow
from ndcg_gui.qt.window.recovery import offer_recovery_later

ORGANIZATION = "NDCG Inspector"
DESKTOP_FILE = "ndcg-gui"  # packaging/ndcg-gui.desktop
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256)
SCREENSHOT_SIZE = (1280, 800)


def app_icon() -> QIcon:
    """The icon in every size shipped. Installed files are added by path, so Qt reads a size only
    when a window system asks for it (not before the first paint); otherwise (a zipped install)
    each is read now."""
    icon = QIcon()
    for size in ICON_SIZES:
        name = f"icons/ndcg-gui-{size}.png"
        shipped = resource(name)
        if isinstance(shipped, Path) and shipped.is_file():
            icon.addFile(str(shipped), QSize(size, size))
            continue
        pixmap = QPixmap()
        try:
            if pixmap.loadFromData(read_bytes(name)):
                icon.addPixmap(pixmap)
        except OSError:
            continue
    return icon


# How often a worker thread running Python hands the GIL to the GUI thread when it waits (a fifth
# of Python's default). The GUI thread takes the GIL again for every call into Python (each slot,
# each `data()` a view asks a model for), so with a worker busy in Python a paint waited up to an
# interval per call: a table's repaint beside such a worker took several times as long as alone.
SWITCH_INTERVAL = 0.001


def make_application() -> QApplication:
    sys.setswitchinterval(SWITCH_INTERVAL)
    # `-name`: the X11 WM_CLASS instance, which desktops match with the .desktop file's
    # StartupWMClass; otherwise it is argv[0]'s name ("python" under `python -m ndcg_gui`).
    # The Wayland app id comes from setDesktopFileName below.
    app = QApplication.instance() or QApplication([*sys.argv[:1], "-name", DESKTOP_FILE])
    app.setApplicationName(APP_NAME)
    app.setApplicationDisplayName(APP_NAME)
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationVersion(__version__)
    QGuiApplication.setDesktopFileName(DESKTOP_FILE)
    app.setWindowIcon(app_icon())
    return app  # type: ignore[return-value]


# ---- unexpected errors: a dialog and a log file, never a traceback on screen -----------------------
_showing = False


def handle_exception(exc_type, exc, tb) -> None:
    """sys.excepthook: log the traceback, tell the person in a dialog, keep the window running."""
    global _showing
    text = "".join(traceback.format_exception(exc_type, exc, tb))
    log = write_log(text)
    if dialogs.headless_error(f"internal error ({exc_type.__name__}: {exc}); please report it"):
        return  # --screenshot: one line (the log keeps the traceback), and the run exits 2
    if sys.__stderr__ is not None:
        sys.__stderr__.write(text)
    if _showing or QApplication.instance() is None:
        return
    _showing = True
    try:
        where = f"The details were written to {log}." if log else "The details could not be logged."
        dialogs.show_error(QApplication.activeWindow(), "Unexpected error",
                           f"Something went wrong: {exc_type.__name__}: {exc}\n\nThe window stays "
                           f"usable; your list is as it was before the action. {where}", text)
    finally:
        _showing = False


def install_excepthook() -> None:
    sys.excepthook = handle_exception


# ---- start-up ---------------------------------------------------------------------------------


# Imported in a worker thread once the window is on screen: the first paint does without them, and
# so neither the first drag (pandas) nor the first Open (the readers) waits for their imports.
PRELOAD = ("pandas", "pyarrow.compute", "ndcg_gui.core.reading", "ndcg_gui.core.ndcg.evaluate")


class AfterFirstPaint(QObject):
    """Calls `then` once `window` has had its first Paint event and the event loop is back (a
    window's whole paint, children and flush, happens within one event), then stops watching."""

    def __init__(self, window: QWidget, then: Callable[[], None]) -> None:
        super().__init__(window)
        self._then = then
        window.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            QTimer.singleShot(0, self, self._then)
        return False


def preload() -> Thread:
    return start_thread("preload", _import_all, PRELOAD)


def _import_all(names: tuple[str, ...]) -> None:
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # the thread that needs it imports it again and reports what is wrong
            return


def apply_options(window: MainWindow, options: argparse.Namespace) -> str | None:
    """Set the definition (-k, --preset, --gain, --discount), then open the file at --query
    through the window's one opener (a big one in the background, the example showing meanwhile).
    Returns a problem to report (the window then shows the example)."""
    from ndcg_gui.core.ndcg.options import measure_from_options

    problem = None
    try:
        if any(getattr(options, name, None) for name in ("preset", "gain", "discount")):
            # (without a k it keeps the window's: `Document.set_measure`)
            measure = measure_from_options(options.preset, options.gain, options.discount)
            window.document.set_measure(measure, undoable=False)
        if getattr(options, "k", None):
            window.document.set_measure(k=options.k, undoable=False)
    except InputError as err:
        problem = str(err)
    open_example(window)
    file = getattr(options, "file", None)
    if file:
        qrels, runs = getattr(options, "qrels", None), getattr(options, "runs", None) or []
        # (runs to compare without qrels: the first opened unjudged, compared by their rankings)
        window.files.open(file, qrels, query=getattr(options, "query", None),
                          ask=False, report=False, undoable=False, judged=qrels is not None or not runs)
        problem = problem or window.files.problem
        compare_once_open(window, getattr(options, "runs", None) or [])
    return problem


def compare_once_open(window: MainWindow, runs: list[str]) -> None:
    """`ndcg-gui RUN_A RUN_B --qrels Q`: the runs after the first compared with it, as soon as it
    is open (a big one lands later: then). Each goes the way File ▸ Add run to compare goes."""
    if not runs:
        return

    def add(_path: object = None) -> None:
        window.files.opened.disconnect(add)
        if window.comparison.can_add():
            for run in runs:
                window.compare.add_run(run)

    window.files.opened.connect(add)
    if not window.loader.is_loading():  # (opened already, or failed: said by the open)
        add()


def open_example(window: MainWindow) -> None:
    """The worked example E1 (grades 3 2 3 0 1), so the first screen already means something.
    Its five `doc,grade` rows go through the core's parser of pasted rows, not the file readers:
    those bring pandas and pyarrow, which the first paint does not need (benchmarks/README.md)."""
    from ndcg_gui.core.lists.clipboard import parse_rows
    from ndcg_gui.core.lists.ranked_list import RankedList
    from ndcg_gui.core.lists.typed_dataset import TypedDataset

    rows = parse_rows(read_bytes(EXAMPLE).decode("utf-8"))
    example = TypedDataset.of(RankedList(docs=rows.docs, grades=rows.grades))
    window.document.set_dataset(example, path=None, name="Worked example E1")  # not an undo step


def _recovery_note(window: MainWindow, line: str) -> None:
    """A damaged recovery file, moved aside: said on stderr and in the status bar."""
    print(f"ndcg-gui: {line}", file=sys.stderr)
    window.statusBar().showMessage(f"⚠ {line}", 15000)


def take_screenshot(app: QApplication, window: MainWindow, out: str | Path,
                    size: tuple[int, int] | None = None, errors: list[str] = ()) -> int:
    """Save the window as a PNG: 0, or 1 when it cannot be written; nothing is saved once something
    went wrong (`errors`: what `dialogs.go_headless` kept)."""
    while window.loader.is_loading() or window.compare.busy():  # a big file, runs compared: the
        app.processEvents()  # picture is of them, not of the example
        time.sleep(0.02)
    window.compare.flush()
    if errors:
        return 2
    window.resize(*(size or SCREENSHOT_SIZE))
    window.show()
    # Let layout, fonts and the plot settle: a few rounds of events, until the deadline below.
    deadline = time.monotonic() + 0.5
    while time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.02)
    buffer = QBuffer()
    buffer.open(QIODevice.WriteOnly)
    ok = window.grab().save(buffer, "PNG")
    window.hide()
    if not ok:
        print(f"ndcg-gui: could not write the screenshot {out}", file=sys.stderr)
        return 1
    try:  # saved as every file is: atomically, or into /dev/stdout, a FIFO… as the shell set it up
        atomic_write_bytes(sys.stdout.buffer if str(out) == "-" else out, bytes(buffer.data()))
    except InputError as err:
        print(f"ndcg-gui: {err}", file=sys.stderr)
        return 2
    return 0


def run_gui(options: argparse.Namespace) -> int:
    app = make_application()
    install_excepthook()
    screenshot = getattr(options, "screenshot", None)
    if screenshot:
        # Defaults, not this machine's saved layout: screenshots look the same everywhere.
        folder = Path(QStandardPaths.writableLocation(QStandardPaths.TempLocation))
        settings = QSettings(str(folder / f"ndcg-gui-screenshot-{time.time_ns()}.ini"), QSettings.IniFormat)
        errors = dialogs.go_headless()  # nobody answers a dialog: errors printed, status 2
    else:
        settings = QSettings()
    window = MainWindow(settings=settings)
    if getattr(options, "color_scheme", None):  # (for this run: View ▸ Colours keeps the person's)
        window.colour_scheme.choose(options.color_scheme, remember=False)
    problem = apply_options(window, options)
    if screenshot:
        try:
            if problem:
                dialogs.headless_error(problem)
            code = 2 if errors else take_screenshot(app, window, screenshot, getattr(options, "size", None),
                                                    errors)
            return 2 if errors else code
        finally:
            Path(settings.fileName()).unlink(missing_ok=True)

    def painted() -> None:
        # What start-up made lives as long as the window: frozen, later collections skip it (shorter
        # pauses while editing). Collection starts now (gui_main disabled it before Qt's import), on
        # this thread only: a collection that a worker thread's allocation starts may free a Qt
        # object there, which crashes (pyqtgraph's GarbageCollector: collect on a timer instead).
        from pyqtgraph.util.garbage_collector import GarbageCollector  # (the plot imported pyqtgraph)

        gc.freeze()
        app.garbage_collector = GarbageCollector(interval=1.0)
        preload()
        if problem:
            dialogs.show_error(window, "Could not open the file", problem)
        offer_recovery_later(window.files, window, note=functools.partial(_recovery_note, window))

    AfterFirstPaint(window, painted)
    window.show()
    return app.exec()
