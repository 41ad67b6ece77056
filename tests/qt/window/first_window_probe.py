"""Run by test_first_window.py in an X server of a given size (xvfb-run) under a window manager
(openbox: a title bar and a frame): the window as a person first starts it (no saved settings),
then the size and place a person gives it, and a second window started with the settings the
first saved on closing. One line of JSON: each window's frame and client rectangles, the screen's
available area, and what lies off it."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path[:0] = [str(ROOT), str(HERE.parent)]

from layout_checks import off_screen  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402
from real_display import start_window_manager, stop_window_manager  # noqa: E402

from ndcg_gui.qt.app import make_application  # noqa: E402
from ndcg_gui.qt.window.main_window import MainWindow  # noqa: E402

CHOSEN = (60, 70, 1000, 640)  # the place and size a person drags the window to


def wait_for(app, done, seconds: float = 20.0) -> bool:
    """Events until `done()` holds (the window manager answers in its own time), or the limit."""
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        app.processEvents()
        time.sleep(0.01)
    app.processEvents()
    return True


def framed(app, window) -> bool:
    """Shown and framed by the window manager (a first window: fitted and placed by its frame)."""
    window.show()
    first = getattr(window, "_first_window", False)
    return wait_for(app, lambda: window.isVisible() and window.frameGeometry().height() > window.height()
                    and (getattr(window, "_frame_fitted", False) or not first))


def rects(window) -> dict:
    return {"frame": window.frameGeometry().getRect(), "client": window.geometry().getRect(),
            "area": window.screen().availableGeometry().getRect(), "off_screen": off_screen(window)}


def probe(folder: Path) -> dict:
    app = make_application()
    settings = QSettings(str(folder / "probe.ini"), QSettings.IniFormat)
    settings.clear()
    first = MainWindow(settings=settings)
    found = {"framed": framed(app, first), "first": rects(first)}
    first.setGeometry(*CHOSEN)
    wait_for(app, lambda: first.geometry().getRect() == CHOSEN)
    found["chosen"] = rects(first)
    first.close()  # (saves its geometry, as a person's closing does)
    again = MainWindow(settings=QSettings(str(folder / "probe.ini"), QSettings.IniFormat))
    found["again_framed"] = framed(app, again)
    found["again"] = rects(again)
    again.document.undo_stack.setClean()
    again.close()
    return found


def main() -> None:
    manager = start_window_manager()
    try:
        found = probe(Path(sys.argv[1]))
        found["window_manager"] = manager is not None
    finally:
        stop_window_manager(manager)
    print(json.dumps(found))


if __name__ == "__main__":
    main()
