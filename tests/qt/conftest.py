"""Fixtures for the window's tests: a document on worked example E1, a window with throw-away
settings, and dialogs that record instead of blocking."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.widgets import dialogs

E1 = [3, 2, 3, 0, 1]


@pytest.fixture
def e1_list() -> RankedList:
    return RankedList(docs=["A", "B", "C", "D", "E"], grades=E1, query="q1")


@pytest.fixture
def document(qtbot, e1_list) -> Document:
    doc = Document()
    doc.set_lists({"q1": e1_list})
    return doc


@pytest.fixture(autouse=True)
def dialog_log(monkeypatch):
    """Every message box the window would show, recorded instead: no Qt test can block on a modal
    dialog (closing an edited window at teardown asks about unsaved changes: "discard")."""
    log: list[tuple[str, str]] = []
    monkeypatch.setattr(dialogs, "show_error",
                        lambda _parent, title, message, details=None: log.append((title, message)))
    monkeypatch.setattr(dialogs, "show_info", lambda _parent, title, message: log.append((title, message)))

    def discard(_parent, what):
        log.append(("Unsaved changes", what))
        return dialogs.Unsaved.DISCARD

    monkeypatch.setattr(dialogs, "ask_unsaved", discard)
    monkeypatch.setattr(dialogs, "ask_restore", lambda _parent, what: log.append(("Restore", what)) or False)
    monkeypatch.setattr(dialogs, "ask_stop_restore",
                        lambda _parent, restoring, *_: log.append(("Stop restoring", restoring)) or False)
    monkeypatch.setattr(dialogs, "ask_overwrite_changed",
                        lambda _parent, path: log.append(("File changed on disk", path.name)) or False)

    def judgments(_parent, loaded, backup, beside):  # a test that cares answers for itself
        log.append(("Judgments", f"{loaded.name} or {beside.name}"))
        return "beside"

    monkeypatch.setattr(dialogs, "ask_judgments", judgments)
    # A number asked for (Move to rank…, Insert at rank…): cancelled unless a test answers it.
    monkeypatch.setattr(dialogs, "ask_number",
                        lambda _parent, title, _label, value, *_: log.append((title, "")) or (value, False))
    monkeypatch.setattr(dialogs, "ask_rescore", lambda _parent, queries, target, rank=False:
                        log.append(("Rescore", " ".join(queries))) or "scores")
    return log


@pytest.fixture(autouse=True)
def recovery_folder(tmp_path, monkeypatch):
    """Recovery files of the tests' windows go to a throw-away folder, never the user's."""
    folder = tmp_path / "recovery"
    monkeypatch.setenv("NDCG_RECOVERY_DIR", str(folder))
    return folder


def show_active(window, qtbot) -> None:
    """Shown and active, as the window a person works in: keyboard shortcuts reach the active
    window only, and offscreen a shown window is not activated by itself."""
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    window.windowHandle().requestActivate()
    qtbot.waitUntil(window.isActiveWindow)


@pytest.fixture
def settings(tmp_path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)


@pytest.fixture
def window(qtbot, settings, dialog_log, e1_list):
    from ndcg_gui.qt.window.main_window import MainWindow

    win = MainWindow(settings=settings)
    win.document.set_lists({"q1": e1_list})
    qtbot.addWidget(win)
    return win


@pytest.fixture
def screen(window):
    """The window's screen as its backing store holds it, once repaints are delivered (screen_grab.py)."""
    from screen_grab import Screen

    return Screen(window)


@pytest.fixture(scope="module")
def sample_paths(tmp_path_factory):
    """The sample TREC run and its qrels, copied where a test may write beside them."""
    from ndcg_gui.assets import resource_path

    folder = tmp_path_factory.mktemp("sample")
    paths = []
    for name in ("sample.run", "sample.qrels"):
        with resource_path(f"examples/{name}") as p:
            (folder / name).write_bytes(p.read_bytes())
        paths.append(folder / name)
    return tuple(paths)


@pytest.fixture
def files(tmp_path):
    """The sample run, its qrels and a second run of the same topics (tests/qt/run_samples.py)."""
    from run_samples import copy_sample, write_second_run

    run, qrels = copy_sample(tmp_path)
    return run, qrels, write_second_run(run, qrels, tmp_path / "second.run")


@pytest.fixture
def opened(qtbot, window, files):
    """The window on the sample run and its qrels, shown at 1280x800."""
    window.resize(1280, 800)
    window.files.open(files[0], files[1], ask=False)
    window.show()
    qtbot.waitExposed(window)
    return window


@pytest.fixture(scope="session", autouse=True)
def window_manager():
    """A window manager (openbox) on the real X display the xvfb tests run on, for the session:
    title bars, frames and focus as on a desktop. None offscreen or without openbox. Under
    pytest-xdist each worker has a display of its own (`real_display.own_display`)."""
    from real_display import own_display, start_window_manager, stop_display, stop_window_manager

    display = own_display()  # (under xdist: a display per worker, before Qt connects to one)
    manager = start_window_manager()
    yield manager
    stop_window_manager(manager)
    stop_display(display)
