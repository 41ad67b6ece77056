"""At a window's start the recovery folder is read in a worker thread, not on the GUI thread
(issue 33.9: a named pipe there froze the window in open(), a sparse giant cost seconds), and the
sessions it holds are offered once it is read."""

from __future__ import annotations

import os
import threading

from PySide6.QtCore import QCoreApplication

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.state.recovery import new_recovery_path, write_recovery
from ndcg_gui.core.state.workspace import Workspace
from ndcg_gui.qt.widgets import dialogs
from ndcg_gui.qt.window import recovery


def test_the_folder_is_read_off_the_gui_thread_and_its_sessions_offered_after(qtbot, window, tmp_path,
                                                                               monkeypatch):
    folder = tmp_path / "left"
    folder.mkdir()
    os.mkfifo(folder / "recovery-x.json")  # (no program writes to it)
    write_recovery(new_recovery_path(folder), Workspace.typed({"": RankedList.from_grades([3, 1, 2])}))
    readers = []
    read = recovery._left_behind

    def reading(where):
        readers.append(threading.current_thread())
        return read(where)

    monkeypatch.setattr(recovery, "_left_behind", reading)
    monkeypatch.setattr(dialogs, "ask_restore", lambda _parent, what: True)
    notes: list[str] = []
    before = window.document.state
    recovery.offer_recovery_later(window.files, window, folder, note=notes.append)
    assert window.document.state is before  # (offered on the GUI thread once read: not yet)
    doc = window.document
    qtbot.waitUntil(lambda: not doc.is_clean(), timeout=30000)  # (the session restored)
    assert doc.current_list().grades.tolist() == [3, 1, 2]
    assert readers and all(t is not threading.main_thread() for t in readers)
    assert notes == ["recovery-x.json: a named pipe, not a recovery file; moved aside as "
                     "recovery-x.json.damaged"]


def test_nothing_is_offered_after_the_window_closed(qtbot, window, tmp_path, monkeypatch):
    folder = tmp_path / "left"
    write_recovery(new_recovery_path(folder), Workspace.typed({"": RankedList.from_grades([1])}))
    asked = []
    monkeypatch.setattr(dialogs, "ask_restore", lambda _parent, what: asked.append(what) or True)
    release = threading.Event()
    read = recovery._left_behind
    monkeypatch.setattr(recovery, "_left_behind", lambda where: (release.wait(), read(where))[1])
    thread = recovery.offer_recovery_later(window.files, window, folder)
    window.close()
    release.set()
    thread.join()
    QCoreApplication.sendPostedEvents()  # (the delivery the thread queued before it ended)
    QCoreApplication.processEvents()
    assert asked == []


def test_a_recovery_write_without_a_thread_is_said_once_and_tried_again(qtbot, tmp_path, monkeypatch):
    """Out of threads, the recovery writer's start raised from the window's timer at every tick;
    now it is said once, and the next write, with a thread, writes the file."""
    from ndcg_gui.qt.document.document import Document
    from ndcg_gui.qt.window.recovery import Recovery

    doc = Document()
    doc.set_lists({"q1": RankedList.from_grades([3, 1])})
    said: list[str] = []
    keeper = Recovery(doc, tmp_path / "rec", interval_ms=10**6, on_error=said.append)
    start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda t: (_ for _ in ()).throw(
        RuntimeError("can't start new thread")) if t.name == "recovery file" else start(t))
    doc.reverse()
    keeper.write_now()
    doc.reverse()
    keeper.write_now()  # (the failure is read here, on the GUI thread)
    assert said == ["Edits could not be written to the recovery file: no thread to write it (can't start "
                    "new thread)"]
    monkeypatch.setattr(threading.Thread, "start", start)
    doc.reverse()
    keeper.write_now()
    keeper.wait()
    assert keeper.path.exists()
    keeper.discard()


def test_edits_too_big_to_read_back_are_said_not_written(qtbot, tmp_path, monkeypatch):
    """The next start reads recovery files of at most MAX_RECOVERY_BYTES (made small here): edits
    past it are said once instead of written where they would be set aside unread."""
    from ndcg_gui.core.state import recovery as recovery_files
    from ndcg_gui.qt.document.document import Document
    from ndcg_gui.qt.window.recovery import Recovery

    doc = Document()
    doc.set_lists({"q1": RankedList.from_grades([3, 1, 0, 2])})
    said: list[str] = []
    keeper = Recovery(doc, tmp_path / "rec", interval_ms=10**6, on_error=said.append)
    monkeypatch.setattr(recovery_files, "MAX_RECOVERY_BYTES", 100)
    doc.reverse()
    keeper.write_now()
    keeper.wait()
    assert not keeper.path.exists()
    assert len(said) == 1 and "MiB a recovery file holds" in said[0], said
    monkeypatch.setattr(recovery_files, "MAX_RECOVERY_BYTES", 1 << 20)
    doc.reverse()
    doc.reverse()
    keeper.write_now()
    keeper.wait()
    assert keeper.path.exists()
    keeper.discard()
