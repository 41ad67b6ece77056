"""The window on a real desktop, in the states a person reaches (`screenshots.py --desktop`): an X
server of each size (xvfb-run) with a window manager (openbox, started the way the Xvfb tests
start it: tests/qt/real_display.py), the window as a person starts it (no saved settings), put in
a state, the screen grabbed with the frame, and one line of JSON of what was measured: the window
or its status bar off the screen, texts cut in the tables in view, a Tab press that never left a
widget. Run as `desktop.py STATE SCHEME OUT.png` on that display; `desktop_grid` runs them all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES, TOUR = ROOT / "resources" / "examples", ROOT / "docs" / "tour"
SIZES = ("1366x768", "1920x1080")
SCHEMES = ("light", "dark")
TAB_PRESSES = 70  # (more than the window's focus stops: the walk goes round)


def _csv_with_columns(folder: Path) -> Path:
    """docs/tour/ranking.csv with columns of its own: a segment, a query weight, a document
    weight and a note beside the figures."""
    lines = (TOUR / "ranking.csv").read_text().splitlines()
    out = [lines[0] + ",segment,weight,doc_weight,note"]
    for i, line in enumerate(lines[1:]):
        query = line.split(",")[0]
        segment = "devices" if query in ("laptops", "phones") else "other"
        out.append(f"{line},{segment},{1 + len(query) % 3},{1 + i % 2},checked by hand {i}")
    path = folder / "ranking_columns.csv"
    path.write_text("\n".join(out) + "\n")
    return path


def _states(folder: Path) -> dict[str, Callable]:
    """Each state: what a person does to reach it, on the window."""
    run, qrels, other = EXAMPLES / "sample.run", EXAMPLES / "sample.qrels", TOUR / "rerank.run"

    def typed(w) -> None:
        w.quick_entry.setText("3 2 0 1 3 0 2 1 0 0 1")
        w.editing.apply_quick_list()

    def csv(w) -> None:
        w.files.open(_csv_with_columns(folder), ask=False)

    def trec(w) -> None:
        w.files.open(run, qrels, ask=False)

    def compare(w) -> None:
        trec(w)
        w.compare.add_run(other)

    def unjudged(w) -> None:
        w.compare.compare_unjudged([run, other])

    def unjudged_side_by_side(w) -> None:  # (after `unjudged` has landed)
        w.actions.most_different.trigger()
        w.compare.show_page(True)

    def notes(w) -> None:
        trec(w)

    def noted(w) -> None:  # (after `notes` has landed)
        w.document.set_note("401", "BM25 misses the synonyms: judged again on 3 December")
        w.document.set_note("403", "two near-duplicates at ranks 2 and 3")

    return {"typed": [typed], "csv": [csv], "trec": [trec], "compare": [compare],
            "unjudged": [unjudged, unjudged_side_by_side], "notes": [notes, noted]}


STATES = ("typed", "csv", "trec", "compare", "unjudged", "notes")


def drive(state: str, scheme: str, out: Path) -> dict:
    """On the display of this process: the window in `state`, the screen saved to `out`."""
    sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "qt")]
    from layout_checks import cut_cells, off_screen
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication
    from real_display import start_window_manager, stop_window_manager

    from ndcg_gui.qt.app import make_application, open_example
    from ndcg_gui.qt.window.main_window import MainWindow

    manager = start_window_manager()
    folder = Path(tempfile.mkdtemp(prefix="ndcg-desktop-"))
    try:
        app = make_application()
        settings = QSettings(str(folder / "settings.ini"), QSettings.IniFormat)
        window = MainWindow(settings=settings)
        window.colour_scheme.choose(scheme, remember=False)
        open_example(window)
        window.show()

        def settle(seconds: float = 0.6) -> None:
            """Events handled until the loads are done and the window has been still a while
            (a picture, not a test: nothing is asserted on what a wait may miss)."""
            end = time.monotonic() + seconds
            while time.monotonic() < end or window.loader.is_loading() or window.compare.busy():
                app.processEvents()
                time.sleep(0.02)
            if window.comparison.active:
                window.compare.flush()
            app.processEvents()

        settle()
        for step in _states(folder)[state]:
            step(window)
            settle()
        window.activateWindow()
        settle(0.4)
        window.screen().grabWindow(0).save(str(out))
        tables = {"queries": window.query_panel.table, "ranked list": window.ranking_view,
                  "per rank": window.metrics_view}
        if window.comparison.active:
            tables["figures"] = window.compare_pane.stats
        cut = {name: cut_cells(view) for name, view in tables.items() if view.isVisible()}
        window.ranking_view.setFocus()
        stuck, seen = [], [QApplication.focusWidget()]
        for _ in range(TAB_PRESSES):
            QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_Tab)
            seen.append(QApplication.focusWidget())
            if seen[-1] is seen[-2]:
                stuck.append(_named(seen[-1]))
        window.document.undo_stack.setClean()
        found = {"state": state, "scheme": scheme, "off_screen": off_screen(window),
                 "cut": {name: c for name, c in cut.items() if c}, "tab_stuck": sorted(set(stuck)),
                 "tab_stops": len({id(w) for w in seen}), "frame": window.frameGeometry().getRect()}
        window.hide()
        return found
    finally:
        stop_window_manager(manager)


def _named(widget) -> str:
    if widget is None:
        return "no widget"
    return f"{type(widget).__name__} {widget.accessibleName() or widget.objectName()!r}"


def shoot(state: str, size: str, scheme: str, picture: Path) -> dict:
    """`drive` in an X server of `size` of its own: what it found, or {"failed": why}."""
    env = {**os.environ, "QT_QPA_PLATFORM": "xcb", "PYTHONPATH": str(ROOT)}
    env.pop("DISPLAY", None)
    command = ["xvfb-run", "-a", "-s", f"-screen 0 {size}x24", sys.executable, __file__, state, scheme,
               str(picture)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return {"failed": done.stderr[-300:]}
    return json.loads(lines[-1])


def desktop_grid(only: str | None, out: Path) -> int:
    """Every state at each size and scheme, each in an X server of its own; prints each picture's
    path and what was found there. 1 when a picture could not be made."""
    states = (only or ",".join(STATES)).split(",")
    unknown = sorted(set(states) - set(STATES))
    if unknown:
        print(f"unknown state {', '.join(unknown)}: one of {', '.join(STATES)}", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    failed = 0
    for state in states:
        for size in SIZES:
            for scheme in SCHEMES:
                picture = out / f"{state}-{size}-{scheme}.png"
                found = shoot(state, size, scheme, picture)
                print(f"{picture.name}: {json.dumps(found)}")
                failed += "failed" in found
    return 1 if failed else 0


if __name__ == "__main__":
    print(json.dumps(drive(sys.argv[1], sys.argv[2], Path(sys.argv[3]))))
