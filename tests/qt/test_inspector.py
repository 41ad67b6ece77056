"""`ndcg_gui.inspect` from a script under a real X server: the window opens on a DataFrame and a
dict of judgments, a person moves a row with Ctrl+Down (the key goes to the widget with focus)
and closes the window; `inspect` then returns, and its handle holds the edited run and its NDCG.
Also: without a display it says so at once (a remote kernel), opening no window."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from real_display import NEEDS_X

from ndcg_gui.core.ndcg.measure import Measure

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json, sys
import pandas as pd
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
import ndcg_gui
from ndcg_gui.qt.app import make_application

app = make_application()
seen = {}

def act():
    window = next(w for w in QApplication.topLevelWidgets() if type(w).__name__ == "MainWindow")
    view = window.ranking_view
    if not window.isVisible() or QApplication.focusWidget() is not view:  # not yet shown and active
        window.activateWindow()
        view.setFocus()
        QTimer.singleShot(100, act)
        return
    seen["shown"] = window.document.current_query
    view.selectRow(0)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key_Down, Qt.ControlModifier)  # A below B
    seen["focus"] = type(QApplication.focusWidget()).__name__
    window.close()

QTimer.singleShot(300, act)
run = pd.DataFrame({"qid": ["q1"] * 5, "docno": list("ABCDE"), "score": [5, 4, 3, 2, 1]})
qrels = {"q1": {"A": 3, "B": 2, "C": 3, "D": 0, "E": 1}}
handle = ndcg_gui.inspect(run, qrels, k=3)
print(json.dumps({"docs": handle.run["doc"].tolist(), "ndcg": float(handle.summary["ndcg"].iloc[0]),
                  "qrels": len(handle.qrels), **seen}))
"""


@pytest.mark.xvfb
@NEEDS_X
def test_inspect_from_a_script_returns_the_edited_run(tmp_path):
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, cwd=ROOT,
                            timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    got = json.loads(result.stdout.strip().splitlines()[-1])
    assert got["shown"] == "q1" and got["focus"] == "RankingView"
    assert got["docs"] == ["B", "A", "C", "D", "E"]  # the edit came back
    from ndcg_gui.core.ndcg.metrics import ndcg_at

    assert got["ndcg"] == pytest.approx(ndcg_at([2, 3, 3, 0, 1], Measure(k=3)))
    assert got["qrels"] == 5


def test_without_a_display_it_says_what_to_use_instead(monkeypatch):
    import ndcg_gui

    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    with pytest.raises(RuntimeError, match=r"ndcg_gui.report\(run, qrels\)"):
        ndcg_gui.inspect({"q1": {"A": 1.0}}, {"q1": {"A": 1}})


RUN_BYTES = b"q1 Q0 A 1 5 t\nq1 Q0 B 2 4 t\nq1 Q0 C 3 3 t\nq2 Q0 X 1 1 t\n"
QRELS_BYTES = b"q1 0 A 1\nq1 0 B 3\nq1 0 C 2\nq2 0 X 1\n"


def test_inspect_reads_bytes_as_the_file_they_hold(qtbot, tmp_path, monkeypatch):
    """`inspect` reads its inputs as `report` does: the bytes of a TREC run and its qrels are those
    files (they used to be taken for a list of byte-valued grades, the qrels ignored)."""
    import ndcg_gui
    from ndcg_gui.core.reading import load

    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    handle = ndcg_gui.inspect(RUN_BYTES, QRELS_BYTES, k=3, block=False)
    qtbot.addWidget(handle.window)
    (tmp_path / "run").write_bytes(RUN_BYTES)
    (tmp_path / "qrels").write_bytes(QRELS_BYTES)
    expected = load(tmp_path / "run", tmp_path / "qrels").summary(handle.window.document.measure.with_(k=3))
    pd.testing.assert_frame_equal(handle.summary, expected)
    assert handle.window.document.queries() == ["q1", "q2"]


def test_inspect_opens_under_a_measure_of_ones_own_its_mean_included(qtbot, monkeypatch):
    import ndcg_gui
    from ndcg_gui.core.ndcg.measure import Measure

    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    own = Measure(k=3, gain="exponential", ties="average", empty="skip")
    handle = ndcg_gui.inspect(RUN_BYTES, QRELS_BYTES, measure=own, block=False)
    qtbot.addWidget(handle.window)
    assert handle.window.document.measure == own
    with pytest.raises(ValueError, match="a measure, or k and a preset, not both"):
        ndcg_gui.inspect(RUN_BYTES, QRELS_BYTES, measure=own, k=5, block=False)


@pytest.mark.parametrize(("args", "error", "said"), [
    (([3, 2, 1], {"q1": {"A": 1}}), "InputError", "run: a list of grades holds its own grades"),
    (({"q1": {"A": 1.0}}, {"q1": {"A": 1}}, "nope"), "ValueError", "unknown preset 'nope'; choose one of"),
    (({1: {"A": 1.0}, "1": {"B": 1.0}}, {"1": {"A": 1}}), "InputError", "run: query ids mix types"),
])
def test_inspect_refuses_what_report_refuses_before_a_window_opens(monkeypatch, args, error, said):
    import ndcg_gui

    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    run, qrels, *preset = args
    with pytest.raises(Exception) as info:
        ndcg_gui.inspect(run, qrels, preset=preset[0] if preset else None, block=False)
    assert type(info.value).__name__ == error and str(info.value).startswith(said)
