"""The application around the window: its identity (name, organisation, icon, desktop file), the
safety net for unexpected errors, the command-line options, and `--screenshot`."""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths
from PySide6.QtGui import QGuiApplication, QIcon, QPixmap
from PySide6.QtWidgets import QApplication

from ndcg_gui import APP_NAME, __version__
from ndcg_gui.assets import EXAMPLE, read_bytes, resource_path
from ndcg_gui.core.errors import InputError
from ndcg_gui.qt import dialogs
from ndcg_gui.qt.main_window import MainWindow

ORGANIZATION = "NDCG Inspector"
DESKTOP_FILE = "ndcg-gui"  # packaging/ndcg-gui.desktop
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256)
SCREENSHOT_SIZE = (1280, 800)
LOG_NAME = "ndcg-gui.log"


def app_icon() -> QIcon:
    icon = QIcon()
    for size in ICON_SIZES:
        pixmap = QPixmap()
        try:
            if pixmap.loadFromData(read_bytes(f"icons/ndcg-gui-{size}.png")):
                icon.addPixmap(pixmap)
        except OSError:
            continue
    return icon


def make_application() -> QApplication:
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
def log_path() -> Path:
    folder = Path(QStandardPaths.writableLocation(QStandardPaths.AppLocalDataLocation))
    return folder / LOG_NAME


def write_log(text: str) -> Path | None:
    path = log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as f:
            f.write(f"--- {datetime.now().isoformat(timespec='seconds')} {APP_NAME} {__version__}\n{text}\n")
    except OSError:
        return None
    return path


_showing = False


def handle_exception(exc_type, exc, tb) -> None:
    """sys.excepthook: log the traceback, tell the person in a dialog, keep the window running."""
    global _showing
    text = "".join(traceback.format_exception(exc_type, exc, tb))
    log = write_log(text)
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
def apply_options(window: MainWindow, options: argparse.Namespace) -> str | None:
    """Open the file or the example and apply -k, --preset, --gain, --discount, --query.
    Returns a problem to report (the window then shows the example or the defaults)."""
    from ndcg_gui.core.options import config_from_options

    problem = None
    file = getattr(options, "file", None)
    qrels = getattr(options, "qrels", None)
    # A big file opens in the background (progress bar, Cancel) once the definition is set; the
    # example shows meanwhile. A screenshot needs the file itself, so it always loads here.
    background = bool(file) and not getattr(options, "screenshot", None) and \
        window.query_browser.loader.uses_process(file, qrels)
    if file and not background:
        problem = window.files.load(file, qrels)
    if not file or problem or background:
        open_example(window)
    try:
        if any(getattr(options, name, None) for name in ("preset", "gain", "discount")):
            config, ties = config_from_options(options.preset, options.gain, options.discount)
            window.document.set_definition(config=config, ties=ties)
        if getattr(options, "k", None):
            window.document.set_definition(k=options.k)
        query = getattr(options, "query", None)
        if query and not problem and not background:
            if query not in window.document.queries():
                where = Path(file).name if file else "the file"
                raise InputError(f'--query "{query}": no such query in {where}')
            window.document.set_current_query(query)
    except InputError as err:
        problem = problem or str(err)
    if background and not problem:
        window.query_browser.open_in_background(file, qrels, query=getattr(options, "query", None))
    return problem


def open_example(window: MainWindow) -> None:
    """The worked example E1 (grades 3 2 3 0 1), so the first screen already means something."""
    from ndcg_gui.core.readers import load

    with resource_path(EXAMPLE) as path:
        dataset = load(path)
    window.document.set_dataset(dataset, path=None, name="Worked example E1")


def take_screenshot(app: QApplication, window: MainWindow, out: str | Path) -> int:
    window.resize(*SCREENSHOT_SIZE)
    window.show()
    # Let layout, fonts and the plot settle: a few rounds of events over ~0.5 s.
    deadline = time.monotonic() + 0.5
    while time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.02)
    pixmap = window.grab()
    ok = pixmap.save(str(out), "PNG")
    window.hide()
    if not ok:
        print(f"ndcg-gui: could not write the screenshot {out}", file=sys.stderr)
        return 1
    return 0


def run_gui(options: argparse.Namespace) -> int:
    app = make_application()
    install_excepthook()
    screenshot = getattr(options, "screenshot", None)
    if screenshot:
        # Defaults, not this machine's saved layout: screenshots look the same everywhere.
        folder = Path(QStandardPaths.writableLocation(QStandardPaths.TempLocation))
        settings = QSettings(str(folder / f"ndcg-gui-screenshot-{time.time_ns()}.ini"), QSettings.IniFormat)
    else:
        settings = QSettings()
    window = MainWindow(settings=settings)
    problem = apply_options(window, options)
    if screenshot:
        if problem:
            print(f"ndcg-gui: {problem}", file=sys.stderr)
            return 2
        code = take_screenshot(app, window, screenshot)
        Path(settings.fileName()).unlink(missing_ok=True)
        return code
    window.show()
    if problem:
        dialogs.show_error(window, "Could not open the file", problem)
    return app.exec()
