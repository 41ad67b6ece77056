"""Edits survive a crash: a real window process is killed with SIGKILL after an edit, and the
next start offers the edits back on top of the file read again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from ndcg_gui.qt.widgets import dialogs
from ndcg_gui.qt.window.recovery import left_behind, offer_recovery

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")

EDIT_THEN_WAIT = textwrap.dedent("""
    import sys
    from PySide6.QtCore import QSettings, QTimer
    from ndcg_gui.qt.app import make_application
    from ndcg_gui.qt.window.main_window import MainWindow

    app = make_application()
    window = MainWindow(settings=QSettings(sys.argv[3], QSettings.Format.IniFormat))
    window.files.open(sys.argv[1], sys.argv[2], ask=False)

    def edit():
        window.document.set_current_query("q2")
        window.document.reverse()
        window.document.set_grade(0, 3)
        print("edited", flush=True)

    QTimer.singleShot(100, edit)
    app.exec()  # until killed: the recovery timer writes the edits meanwhile
""")


def test_edits_survive_a_kill(qtbot, tmp_path, recovery_folder, monkeypatch, window):
    run, qrels = tmp_path / "r.run", tmp_path / "r.qrels"
    run.write_text("q1 Q0 a 1 2.0 t\nq1 Q0 b 2 1.0 t\nq2 Q0 c 1 1.0 t\nq2 Q0 d 2 0.5 t\nq2 Q0 e 3 0.1 t\n")
    qrels.write_text("q1 0 a 0\nq1 0 b 2\nq2 0 c 1\nq2 0 e 2\n")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", NDCG_RECOVERY_DIR=str(recovery_folder))
    child = subprocess.Popen([sys.executable, "-c", EDIT_THEN_WAIT, str(run), str(qrels),
                              str(tmp_path / "child.ini")], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "edited"
        deadline = time.monotonic() + 20
        while not list(recovery_folder.glob("recovery-*.json")) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert list(recovery_folder.glob("recovery-*.json")), "no recovery file written"
        time.sleep(0.2)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL

    (path, snapshot), = left_behind(recovery_folder)
    assert "1 edited query" in snapshot.describe()
    monkeypatch.setattr(dialogs, "ask_restore", lambda _parent, what: True)
    assert offer_recovery(window.document, window, recovery_folder) == 1
    doc = window.document
    assert doc.path == run.resolve() and doc.current_query == "q1"
    doc.set_current_query("q2")
    assert doc.current_list().docs.tolist() == ["e", "d", "c"]
    assert doc.current_list().grades.tolist()[0] == 3
    assert not doc.is_clean() and not path.exists()
    doc.undo_stack.undo()  # the restore is one undo step: back to E1
    assert doc.queries() == ["q1"]


def test_no_recovery_file_after_a_clean_exit_or_a_save(qtbot, window, recovery_folder, tmp_path):
    window.document.reverse()
    window.recovery.write_now()
    assert window.recovery.path.exists()
    window.files.save_to(tmp_path / "saved.csv")
    window.recovery.write_now()
    assert not window.recovery.path.exists()  # nothing unsaved
    window.document.reverse()
    window.recovery.write_now()
    assert window.recovery.path.exists()
    window.close()  # the conftest answers "discard" to the unsaved question
    assert not window.recovery.path.exists()
