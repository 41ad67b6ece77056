"""Issue 36: the "Compare runs" pane (its scatter, figures and side-by-side lists) is imported and
made when runs are first compared, not before the first paint; made then, it is wired as before."""

from __future__ import annotations

import os
import subprocess
import sys

PANE = "ndcg_gui.qt.widgets.runs.comparison_pane"
FIRST_PAINT = f"""
import sys
from PySide6.QtCore import QSettings
from ndcg_gui.qt import app as gui_app
app = gui_app.make_application()
window = gui_app.MainWindow(settings=QSettings(sys.argv[1], QSettings.IniFormat))
gui_app.open_example(window)
window.show()
window.repaint()
app.processEvents()
print({PANE!r} in sys.modules, window.compare.pane_made)
"""


def test_the_first_screen_is_painted_without_the_comparison_pane(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "NDCG_RECOVERY_DIR": str(tmp_path / "r")}
    done = subprocess.run([sys.executable, "-c", FIRST_PAINT, str(tmp_path / "s.ini")], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False"]


def test_the_pane_made_when_runs_are_first_compared_follows_the_comparison(window, qtbot, files):
    run, qrels, second = files
    window.show()
    qtbot.waitExposed(window)
    assert window.files.open(run, qrels, ask=False)
    assert not window.compare.pane_made and window.right_tabs.count() == 1
    window.compare.add_run(second)
    qtbot.waitUntil(lambda: window.comparison.active and window.right_tabs.count() == 2, timeout=10000)
    window.compare.flush()
    pane = window.compare.pane
    assert window.right_tabs.widget(1) is pane and window.compare_pane is pane
    combo = pane.baseline_combo
    assert [combo.itemText(i) for i in range(combo.count())] == list(window.comparison.names)
    # Its choices reach the comparison (wired when it was made).
    other = pane.focus_combo.itemText(0)
    combo.setCurrentIndex(combo.findText(other))
    combo.activated.emit(combo.currentIndex())
    qtbot.waitUntil(lambda: window.comparison.baseline == other)
    # A query clicked in its scatter opens it.
    query = next(q for q in pane.scatter.queries if q != window.document.current_query)
    pane.queryClicked.emit(query)
    assert window.document.current_query == query
