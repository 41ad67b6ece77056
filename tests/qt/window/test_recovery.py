"""Edits survive a crash: a real window process is killed with SIGKILL after an edit, and the
next start offers the edits back on top of the file read again."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from ndcg_gui.qt.widgets import dialogs
from ndcg_gui.qt.window.recovery import left_behind, offer_recovery

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
    assert offer_recovery(window.files, window, recovery_folder) == 1
    doc = window.document
    assert doc.path == run.resolve() and doc.current_query == "q2"  # where the person was (19.11)
    assert doc.current_list().docs.tolist() == ["e", "d", "c"]
    assert doc.current_list().grades.tolist()[0] == 3
    assert not doc.is_clean() and not path.exists()
    doc.undo_stack.undo()  # the restore is one undo step: back to E1
    assert doc.queries() == ["q1"]


COMPARE_THEN_WAIT = textwrap.dedent("""
    import sys
    from PySide6.QtCore import QSettings, QTimer
    from ndcg_gui.core.reading import load
    from ndcg_gui.qt.app import make_application
    from ndcg_gui.qt.window.main_window import MainWindow

    app = make_application()
    window = MainWindow(settings=QSettings(sys.argv[4], QSettings.Format.IniFormat))
    window.files.open(sys.argv[1], sys.argv[2], ask=False)

    def setup():
        window.comparison.add_run(load(sys.argv[3], sys.argv[2]), path=sys.argv[3])
        window.query_panel.empty_combo.setCurrentIndex(window.query_panel.empty_combo.findData("skip"))
        window.document.set_current_query("q2")
        print("set up", window.document.state.measure.empty, flush=True)

    QTimer.singleShot(100, setup)
    app.exec()
""")


def test_runs_compared_and_the_mean_policy_survive_a_kill(qtbot, tmp_path, recovery_folder, monkeypatch,
                                                          window):
    """Issue 21: a crash after adding a run to compare and changing the mean policy recovers both,
    on the query that was shown; no list was edited."""
    run, other, qrels = tmp_path / "r.run", tmp_path / "other.run", tmp_path / "r.qrels"
    run.write_text("q1 Q0 a 1 2.0 t\nq1 Q0 b 2 1.0 t\nq2 Q0 c 1 1.0 t\nq2 Q0 d 2 0.5 t\n")
    other.write_text("q1 Q0 b 1 2.0 u\nq2 Q0 d 1 1.0 u\n")
    qrels.write_text("q1 0 a 0\nq1 0 b 2\nq2 0 c 1\nq2 0 d 2\nq3 0 x 1\n")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", NDCG_RECOVERY_DIR=str(recovery_folder))
    child = subprocess.Popen([sys.executable, "-c", COMPARE_THEN_WAIT, str(run), str(qrels), str(other),
                              str(tmp_path / "child.ini")], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "set up skip"
        deadline = time.monotonic() + 20
        while not list(recovery_folder.glob("recovery-*.json")) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    (_path, snapshot), = left_behind(recovery_folder)
    assert "compared with other" in snapshot.describe()
    monkeypatch.setattr(dialogs, "ask_restore", lambda _parent, what: True)
    assert offer_recovery(window.files, window, recovery_folder) == 1
    doc, c = window.document, window.comparison
    assert doc.path == run.resolve() and doc.current_query == "q2"
    assert doc.state.measure.empty == "skip" and window.query_panel.empty_combo.currentData() == "skip"
    assert c.names == ["r", "other"] and c.comparison.measure.empty == "skip"
    assert c.ndcg.at["q1", "other"] == pytest.approx(1.0)


def test_no_recovery_file_after_a_clean_exit_or_a_save(qtbot, window, recovery_folder, tmp_path):
    window.document.reverse()
    window.recovery.write_now()
    window.recovery.wait()
    assert window.recovery.path.exists()
    window.files.save_to(tmp_path / "saved.csv")
    window.recovery.write_now()
    window.recovery.wait()
    assert not window.recovery.path.exists()  # nothing unsaved
    window.document.reverse()
    window.recovery.write_now()
    window.recovery.wait()
    assert window.recovery.path.exists()
    window.close()  # the conftest answers "discard" to the unsaved question
    assert not window.recovery.path.exists()


def _edited_file(tmp_path, name: str):
    """A workspace on a CSV of its own with one list reversed (unsaved edits)."""
    from ndcg_gui.core.lists import edits
    from ndcg_gui.core.reading import load
    from ndcg_gui.core.state.workspace import FileRef, Workspace

    csv = tmp_path / f"{name}.csv"
    csv.write_text("doc,grade\na,3\nb,1\nc,0\n")
    ws = Workspace.of(load(csv), file=FileRef.of(csv))
    return csv, ws.with_list("", edits.reverse(ws.list_for("")).after)


def test_damaged_recovery_files_are_set_aside_and_the_others_offered(qtbot, window, recovery_folder,
                                                                     tmp_path, monkeypatch, dialog_log):
    from ndcg_gui.core.state.recovery import write_recovery

    good_csv, good = _edited_file(tmp_path, "good")
    write_recovery(recovery_folder / "recovery-good.json", good)
    big_pid_csv, big_pid = _edited_file(tmp_path, "bigpid")
    write_recovery(recovery_folder / "recovery-bigpid.json", big_pid)
    data = json.loads((recovery_folder / "recovery-bigpid.json").read_text())
    (recovery_folder / "recovery-bigpid.json").write_text(json.dumps({**data, "pid": 10**30}))
    (recovery_folder / "recovery-list.json").write_text("[1]")
    (recovery_folder / "recovery-lists.json").write_text('{"format": "ndcg-inspector-recovery/1", '
                                                         '"lists": 3}')
    (recovery_folder / "recovery-folder.json").mkdir()
    notes: list[str] = []
    monkeypatch.setattr(dialogs, "ask_restore", lambda _parent, what: True)

    assert offer_recovery(window.files, window, recovery_folder, note=notes.append) == 2
    assert sorted(window.document.undo_stack.text(i) for i in range(window.document.undo_stack.count())
                  if "Restore" in window.document.undo_stack.text(i)) == ["Restore unsaved edits"] * 2
    assert window.document.path in (good_csv.resolve(), big_pid_csv.resolve())
    names = sorted(p.name for p in recovery_folder.iterdir() if not p.name.endswith(".lock"))
    assert names == ["recovery-folder.json.damaged", "recovery-list.json.damaged",
                     "recovery-lists.json.damaged"]
    assert len(notes) == 3 and all("\n" not in n and "moved aside" in n for n in notes)
    assert not [t for t, _ in dialog_log if t != "Unsaved changes"]  # no error dialog


def test_a_reused_pid_never_deletes_a_crashed_windows_edits(qtbot, window, recovery_folder, tmp_path,
                                                             monkeypatch):
    """A window that crashed with this process's id (containers reuse ids) left its file behind."""
    from ndcg_gui.core.state.recovery import write_recovery

    csv, edited = _edited_file(tmp_path, "crashed")
    left = recovery_folder / f"recovery-{os.getpid()}.json"
    write_recovery(left, edited)
    window.document.reverse()  # this window's own edits come and go...
    window.recovery.write_now()
    window.recovery.wait()
    window.document.undo_stack.undo()
    window.recovery.write_now()  # ...and its file with them
    window.recovery.wait()
    assert left.exists()
    monkeypatch.setattr(dialogs, "ask_restore", lambda _parent, what: True)
    assert offer_recovery(window.files, window, recovery_folder) == 1
    assert window.document.path == csv.resolve()
    assert window.document.current_list().docs.tolist() == ["c", "b", "a"]


def test_a_live_windows_recovery_file_is_not_offered(qtbot, tmp_path, recovery_folder):
    """Its process holds the file's lock: another window starting meanwhile leaves it alone."""
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
        assert list(recovery_folder.glob("recovery-*.json"))
        assert left_behind(recovery_folder) == []
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert len(left_behind(recovery_folder)) == 1


def test_stale_temporary_files_in_the_recovery_folder_are_swept_at_start(qtbot, window, recovery_folder):
    recovery_folder.mkdir(exist_ok=True)
    stale = recovery_folder / ".recovery-x.json.1-abcdefgh.tmp"
    stale.write_text("{")
    old = time.time() - 4000
    os.utime(stale, (old, old))
    offer_recovery(window.files, window, recovery_folder)
    assert not stale.exists()


def test_edits_of_a_file_gone_since_are_kept_for_later(qtbot, window, recovery_folder, tmp_path, monkeypatch,
                                                       dialog_log):
    """The file the edits were made on is gone: said in one line with where the recovery file is
    kept, the window as it was, the next session still offered."""
    from ndcg_gui.core.state.recovery import write_recovery

    gone_csv, gone = _edited_file(tmp_path, "gone")
    write_recovery(recovery_folder / "recovery-gone.json", gone)
    gone_csv.unlink()
    monkeypatch.setattr(dialogs, "ask_restore", lambda _parent, what: True)
    before = window.document.state
    assert offer_recovery(window.files, window, recovery_folder) == 0
    (title, message), = [(t, m) for t, m in dialog_log if t != "Unsaved changes"]
    assert title == "Could not restore the edits" and "gone.csv" in message
    problem, kept = message.split("\n\n")
    assert "\n" not in problem and kept.endswith("recovery-gone.json")
    assert window.document.state is before and (recovery_folder / "recovery-gone.json").exists()
    assert len(left_behind(recovery_folder)) == 1


def test_the_recovery_file_is_written_off_the_gui_thread(qtbot, window, monkeypatch):
    """Syncing the file waits for the disk (353 ms beside DuckDB's spill files): the window keeps
    working meanwhile, and the file ends with the newest edits, not the ones being written."""
    import threading

    from ndcg_gui.core.state.recovery import read_recovery
    from ndcg_gui.core.writing import atomic

    slow_disk, writers = threading.Event(), []
    write = atomic.atomic_write_bytes

    def held(path, data):
        writers.append(threading.current_thread() is threading.main_thread())
        slow_disk.wait(5)
        write(path, data)

    monkeypatch.setattr(atomic, "atomic_write_bytes", held)
    window.document.reverse()
    window.recovery.write_now()
    qtbot.waitUntil(lambda: bool(writers))
    assert writers == [False]
    window.document.set_grade(0, 3)  # the window works while the disk is held
    window.recovery.write_now()
    slow_disk.set()
    window.recovery.wait()
    assert writers == [False, False]
    shown = window.document.current_query
    assert read_recovery(window.recovery.path).lists[shown] == window.document.current_list()


def test_a_recovery_folder_that_cannot_be_written_is_said_once(qtbot, window, tmp_path):
    from ndcg_gui.qt.window.recovery import Recovery

    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    said = []
    recovery = Recovery(window.document, folder=blocked / "recovery", on_error=said.append)
    window.document.reverse()
    recovery.write_now()
    recovery.wait()
    window.document.reverse()
    recovery.write_now()  # (says the first failure)
    recovery.wait()
    recovery.write_now()
    assert len(said) == 1 and said[0].startswith("Edits could not be written to the recovery file: ")
    assert "\n" not in said[0]
    recovery.discard()
