"""Picking a query of a run read by DuckDB where it lies (issue 24): its list is read in the
background, never on the GUI thread (~0.2 s a list at 500M rows); meanwhile the query picked is
selected and said to be read, the list on screen (another query's) is greyed and takes no edit,
the last pick wins, and a list that cannot be read is one line. Driven as a person does: keys to
the widget with the focus."""

from __future__ import annotations

import threading

import pytest
from engine_samples import write_sample
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.reading import load
from ndcg_gui.core.sql import engine_dataset
from ndcg_gui.core.state.workspace import Workspace

pytest.importorskip("duckdb")
pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints", "does not support raise")
CTRL, ALT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.AltModifier


@pytest.fixture(autouse=True)
def forced(monkeypatch):
    monkeypatch.setenv("NDCG_GUI_ENGINE_ABOVE", "0")  # every Parquet run with qrels goes to DuckDB


@pytest.fixture
def sample(tmp_path):
    return write_sample(tmp_path, queries=30)


@pytest.fixture
def reads(monkeypatch):
    """Every list read from the files: (query, read on the GUI thread); a query in `held` is read
    only once its event is set (a slow disk, as a person sees it)."""
    log: list[tuple[str, bool]] = []
    held: dict[str, threading.Event] = {}
    real = engine_dataset.read_list

    def read_list(run, qrels, query, memory_limit=None):
        log.append((query, threading.current_thread() is threading.main_thread()))
        if query in held:
            assert held[query].wait(20)
        return real(run, qrels, query, memory_limit)

    monkeypatch.setattr(engine_dataset, "read_list", read_list)
    read_list.log, read_list.held = log, held
    return read_list


@pytest.fixture
def opened(qtbot, window, sample):
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    window.files.open_dropped([str(p) for p in sample])
    qtbot.waitUntil(lambda: not window.loader.is_loading(), timeout=30000)
    assert window.scores.wait(30)
    return window


def key(widget_or_none, key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    """A key pressed: it goes to the widget with the focus."""
    QTest.keyClick(QApplication.focusWidget() or widget_or_none, key, modifier)


def table_at_top(qtbot, window):
    """The focus in the query table, on its first row, whose list is shown."""
    table = window.query_panel.table
    table.setFocus()
    QTest.keyClick(table, Qt.Key.Key_Home, CTRL)
    qtbot.waitUntil(lambda: window.document.reading is None, timeout=10000)
    return table


def before_unread(qtbot, window, n: int) -> list[str]:
    """The query table's focus on a query followed by `n` whose lists were not read yet (the
    first list was read as the file opened); returns those `n`."""
    table_at_top(qtbot, window)
    doc, queries = window.document, window.query_panel.visible_queries()
    at = next(i for i in range(len(queries) - n)
              if not any(doc.state.at_hand(q) for q in queries[i + 1:i + 1 + n]))
    doc.set_current_query(queries[at])
    qtbot.waitUntil(lambda: doc.reading is None, timeout=10000)
    return queries[at + 1:at + 1 + n]


def test_a_picked_querys_list_is_read_off_the_gui_thread(opened, qtbot, reads, sample):
    doc = opened.document
    picked, = before_unread(qtbot, opened, 1)
    reads.log.clear()
    before = doc.current_query
    key(opened, Qt.Key.Key_Down)
    assert opened.query_panel.current_query() == picked
    # Meanwhile: the query picked is selected and said to be read; the list shown is greyed.
    assert doc.reading == picked and doc.current_query == before
    assert opened.statusBar().currentMessage() == f"Reading query {picked}…"
    assert not opened.ranking_view.isEnabled()
    qtbot.waitUntil(lambda: doc.reading is None, timeout=10000)
    assert doc.current_query == picked and opened.query_panel.current_query() == picked
    assert reads.log == [(picked, False)]
    assert doc.current_list() == Workspace.of(load(*sample)).list_for(picked)
    assert opened.ranking_view.isEnabled() and not opened.statusBar().currentMessage()
    # Read once: going back and forth shows it at once.
    key(opened, Qt.Key.Key_Up)
    key(opened, Qt.Key.Key_Down)
    assert doc.reading is None and doc.current_query == picked and reads.log == [(picked, False)]


def test_the_last_pick_wins(opened, qtbot, reads):
    doc = opened.document
    b, c = before_unread(qtbot, opened, 2)
    reads.log.clear()
    reads.held[b] = threading.Event()
    shown: list[str] = []
    doc.changed.connect(lambda changes: changes.query and shown.append(doc.current_query))
    key(opened, Qt.Key.Key_Down)  # b, whose read is slow
    key(opened, Qt.Key.Key_Down)  # c, picked before b is read
    assert doc.reading == c and opened.query_panel.current_query() == c
    reads.held[b].set()
    qtbot.waitUntil(lambda: doc.reading is None, timeout=10000)
    assert doc.current_query == c and shown == [c]  # (b's list, read late, never shown)
    assert opened.query_panel.current_query() == c
    assert [q for q, _ in reads.log] == [b, c]


def test_an_edit_while_a_query_is_read_waits_for_its_list(opened, qtbot, reads, sample):
    doc = opened.document
    picked, = before_unread(qtbot, opened, 1)
    view = opened.ranking_view
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_Home, CTRL)
    shown, steps = doc.current_list(), doc.undo_stack.count()
    reads.held[picked] = threading.Event()
    key(view, Qt.Key.Key_Down, ALT)  # Next query, from the list
    assert doc.reading == picked and not view.isEnabled()
    key(view, Qt.Key.Key_Down, CTRL)  # Move down: the list is greyed, it takes no key
    key(view, Qt.Key.Key_I, CTRL)  # Sort to ideal (the window's): the list shown is not the one picked
    assert doc.current_list() == shown and doc.undo_stack.count() == steps
    assert f"Query {picked} is being read" in opened.statusBar().currentMessage()
    reads.held[picked].set()
    qtbot.waitUntil(lambda: doc.reading is None, timeout=10000)
    assert doc.current_query == picked and view.isEnabled() and view.hasFocus()
    want = Workspace.of(load(*sample)).list_for(picked)
    assert doc.current_list() == want and len(want) > 1
    QTest.keyClick(view, Qt.Key.Key_Home, CTRL)
    key(view, Qt.Key.Key_Down, CTRL)  # now it edits the list on screen, the query picked
    assert doc.current_list().docs[1] == want.docs[0] and doc.edited_queries() == [picked]


def test_a_list_that_cannot_be_read_is_said_in_one_line(opened, qtbot, monkeypatch):
    def broken(run, qrels, query, memory_limit=None):
        raise InputError(f"query {query} could not be read: IO Error: No files found", run)

    doc = opened.document
    picked, = before_unread(qtbot, opened, 1)
    monkeypatch.setattr(engine_dataset, "read_list", broken)
    before = doc.current_query
    key(opened, Qt.Key.Key_Down)
    assert doc.reading == picked
    qtbot.waitUntil(lambda: doc.reading is None, timeout=10000)
    said = opened.statusBar().currentMessage()
    assert said.startswith("⚠ run.parquet") and f"query {picked} could not be read" in said
    assert "\n" not in said and "Traceback" not in said
    assert doc.current_query == before and opened.query_panel.current_query() == before
    assert opened.ranking_view.isEnabled()


def test_another_file_opened_drops_the_read(opened, qtbot, reads, tmp_path):
    """A list read for a file no longer open is never shown over the new one."""
    doc = opened.document
    picked, = before_unread(qtbot, opened, 1)
    reads.log.clear()
    reads.held[picked] = threading.Event()
    key(opened, Qt.Key.Key_Down)
    assert doc.reading == picked
    doc.new_from_grades([3, 2, 1])  # (a list typed in: another document)
    assert doc.reading is None and opened.ranking_view.isEnabled()
    reads.held[picked].set()
    qtbot.waitUntil(lambda: len(reads.log) >= 1 and not any(
        t.name.startswith("read query") for t in threading.enumerate()), timeout=10000)
    QApplication.processEvents()
    assert doc.current_list().grades.tolist() == [3, 2, 1]
