"""Run by test_window_sizes.py in an X server of a given size (xvfb-run, QT_SCALE_FACTOR), under a
window manager (openbox, when installed: a title bar and a frame): the window as a person starts it
(no saved settings), a TREC run with long ids opened and a second run compared, then one line of
JSON: what lies off the screen and which texts in view are cut."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(Path(__file__).resolve().parent)]

from layout_checks import LONG_IDS, cut_cells, cut_lines, off_screen  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402
from real_display import start_window_manager, stop_window_manager  # noqa: E402

from ndcg_gui.qt.app import make_application, open_example  # noqa: E402
from ndcg_gui.qt.window.main_window import MainWindow  # noqa: E402


def measured(check, widget) -> list[str]:
    """What `check` finds, or why it could not look."""
    try:
        return check(widget)
    except Exception as err:  # (said in the result, which the test shows)
        return [f"not measured: {type(err).__name__}: {err}"]


def main() -> None:
    manager = start_window_manager()  # a title bar and a frame, as on a desktop
    try:
        probe()
    finally:
        stop_window_manager(manager)


def probe() -> None:
    app = make_application()
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    settings = QSettings(str(folder / "probe.ini"), QSettings.IniFormat)
    settings.clear()
    window = MainWindow(settings=settings)
    if len(sys.argv) > 2:  # a colour scheme, as View ▸ Colours picks it
        window.colour_scheme.choose(sys.argv[2], remember=False)
    open_example(window)
    window.show()

    def settle(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end or window.loader.is_loading() or window.compare.loader.is_loading():
            app.processEvents()
            time.sleep(0.02)

    settle(0.5)
    run, other, qrels = (ROOT / p for p in LONG_IDS)
    window.files.open(run, qrels, ask=False)
    settle(0.5)
    window.compare.add_run(other)
    settle(1.0)
    window.compare.flush()
    settle(0.5)
    placed = off_screen(window)
    cut = {"ranked list": measured(cut_cells, window.ranking_view)}
    window.right_tabs.setCurrentIndex(0)
    settle(0.2)
    cut["per rank"] = measured(cut_cells, window.metrics_view)
    window.right_tabs.setCurrentIndex(1)
    settle(0.3)
    cut["side by side"] = measured(cut_lines, window.compare_pane)
    cut["figures"] = measured(cut_cells, window.compare_pane.stats)
    found = {"off_screen": placed, "cut": cut, "size": window.size().toTuple(),
             "dark": window.palette().color(window.palette().ColorRole.Window).lightness() < 128,
             "screen": window.screen().availableGeometry().getRect()}
    window.document.undo_stack.setClean()
    print(json.dumps(found))
    window.hide()


if __name__ == "__main__":
    main()
