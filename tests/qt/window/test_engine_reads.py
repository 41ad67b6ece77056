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
from ndcg_gui.qt.models.query_model import COL_QUERY

pytest.importorskip("duckdb")
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


def click(window, query: str) -> None:
    """A click on `query`'s row of the query table."""
    panel = window.query_panel
    index = panel.proxy.mapFromSource(panel.model.index(panel.model.row_of(query), COL_QUERY))
    panel.table.scrollTo(index)
    at = panel.table.visualRect(index).center()
    QTest.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=at)


def settle(qtbot, window) -> None:
    """Until no list is being read (the picked one's, or those read ahead)."""
    qtbot.waitUntil(lambda: not window.document.reads_pending(), timeout=10000)


def unread(qtbot, window, reads, n: int, gap: int = 2, hold: bool = False) -> list[str]:
    """The query table's focus on a query (`start`) such that the `n` queries from `gap` rows below
    it on were not read yet (`gap` 1: the row below, read ahead once `start` shows, is held first
    when `hold`); returns those `n`."""
    table = window.query_panel.table
    table.setFocus()
    QTest.keyClick(table, Qt.Key.Key_Home, CTRL)
    settle(qtbot, window)
    doc, queries = window.document, window.query_panel.visible_queries()
    at = next(i for i in range(len(queries) - gap - n)
              if not any(doc.state.at_hand(q) for q in queries[i + gap:i + gap + n]))
    wanted = queries[at + gap:at + gap + n]
    for q in wanted if hold else ():
        reads.held[q] = threading.Event()
    doc.set_current_query(queries[at])
    qtbot.waitUntil(lambda: doc.current_query == queries[at], timeout=10000)
    if not hold:
        settle(qtbot, window)
    reads.log.clear()
    return wanted


def test_a_picked_querys_list_is_read_off_the_gui_thread(opened, qtbot, reads, sample):
    doc = opened.document
    picked, = unread(qtbot, opened, reads, 1)
    before = doc.current_query
    click(opened, picked)
    # Meanwhile: the query picked is selected and said to be read; the list shown is greyed.
    assert opened.query_panel.current_query() == picked
    assert doc.reading == picked and doc.current_query == before
    assert opened.statusBar().currentMessage() == f"Reading query {picked}…"
    assert not opened.ranking_view.isEnabled() and not opened.metrics_view.isEnabled()
    qtbot.waitUntil(lambda: doc.reading is None, timeout=10000)
    assert opened.metrics_view.isEnabled()
    assert doc.current_query == picked and opened.query_panel.current_query() == picked
    assert reads.log[0] == (picked, False)
    assert doc.current_list() == Workspace.of(load(*sample)).list_for(picked)
    assert opened.ranking_view.isEnabled() and not opened.statusBar().currentMessage()
    # Read once: going back and forth shows it at once.
    click(opened, before)
    click(opened, picked)
    assert doc.reading is None and doc.current_query == picked
    assert [q for q, _ in reads.log].count(picked) == 1


def test_the_last_pick_wins(opened, qtbot, reads):
    doc = opened.document
    b, c = unread(qtbot, opened, reads, 2, gap=3)
    reads.held[b] = threading.Event()
    shown: list[str] = []
    doc.changed.connect(lambda changes: changes.query and shown.append(doc.current_query))
    click(opened, b)  # b, whose read is slow
    click(opened, c)  # c, picked before b is read
    assert doc.reading == c and opened.query_panel.current_query() == c
    reads.held[b].set()
    qtbot.waitUntil(lambda: doc.reading is None, timeout=10000)
    assert doc.current_query == c and shown == [c]  # (b's list, read late, never shown)
    assert opened.query_panel.current_query() == c
    assert [q for q, _ in reads.log][:2] == [b, c]


def test_an_edit_while_a_query_is_read_waits_for_its_list(opened, qtbot, reads, sample):
    doc = opened.document
    picked, = unread(qtbot, opened, reads, 1, gap=1, hold=True)  # (its read ahead: held)
    view = opened.ranking_view
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_Home, CTRL)
    shown, steps = doc.current_list(), doc.undo_stack.count()
    assert len(shown) > 1  # (Reverse would change it)
    key(view, Qt.Key.Key_Down, ALT)  # Next query, from the list
    assert doc.reading == picked and not view.isEnabled()
    key(view, Qt.Key.Key_Down, CTRL)  # Move down: the list is greyed, it takes no key
    key(view, Qt.Key.Key_R, CTRL)  # Reverse (the window's): the list shown is not the one picked
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


def test_a_list_that_cannot_be_read_is_said_in_one_line(opened, qtbot, reads, monkeypatch):
    doc = opened.document
    picked, = unread(qtbot, opened, reads, 1)

    def broken(run, qrels, query, memory_limit=None):
        raise InputError(f"query {query} could not be read: IO Error: No files found", run)

    monkeypatch.setattr(engine_dataset, "read_list", broken)
    before = doc.current_query
    notices, refusals = [], []
    doc.changed.connect(notices.append)
    doc.refused.connect(refusals.append)
    click(opened, picked)
    assert doc.reading == picked
    qtbot.waitUntil(lambda: doc.reading is None, timeout=10000)
    # Said in the one notice that says the read stopped, not by a second signal.
    assert refusals == [] and [n.problem for n in notices if n.problem] == [
        f"run.parquet: query {picked} could not be read: IO Error: No files found"]
    said = opened.statusBar().currentMessage()
    assert said.startswith("⚠ run.parquet") and f"query {picked} could not be read" in said
    assert "\n" not in said and "Traceback" not in said
    assert doc.current_query == before and opened.query_panel.current_query() == before
    assert opened.ranking_view.isEnabled()


def test_another_file_opened_drops_the_read(opened, qtbot, reads):
    """A list read for a file no longer open is never shown over the new one."""
    doc = opened.document
    picked, = unread(qtbot, opened, reads, 1)
    reads.held[picked] = threading.Event()
    click(opened, picked)
    assert doc.reading == picked
    doc.new_from_grades([3, 2, 1])  # (a list typed in: another document)
    assert doc.reading is None and opened.ranking_view.isEnabled()
    reads.held[picked].set()
    settle(qtbot, opened)
    assert doc.current_list().grades.tolist() == [3, 2, 1]


def test_the_queries_beside_the_one_shown_are_read_ahead(opened, qtbot, reads):
    """Once a list is shown, the lists of the rows above and below it in the query table are read
    in the background: the next arrow key shows its query at once."""
    doc = opened.document
    after, beyond = unread(qtbot, opened, reads, 2, gap=1)
    assert (after, False) in reads.log or doc.state.at_hand(after)
    key(opened, Qt.Key.Key_Down)
    assert doc.reading is None and doc.current_query == after  # (no wait: it was read)
    settle(qtbot, opened)
    key(opened, Qt.Key.Key_Down)
    assert doc.reading is None and doc.current_query == beyond
    assert all(not on_gui for _q, on_gui in reads.log)


def test_an_undo_that_shows_another_query_drops_the_read(opened, qtbot, reads):
    """Ctrl+Z while a picked query is read takes back the last step and shows its query, as
    always: the person's last action wins, the list read late is not shown over it."""
    doc = opened.document
    a, _, b, _, c = unread(qtbot, opened, reads, 5, gap=2)  # (b beside neither a nor c: not read ahead)
    click(opened, a)
    settle(qtbot, opened)
    view = opened.ranking_view
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_Home, CTRL)
    key(view, Qt.Key.Key_Down, CTRL)  # an edit of a
    assert doc.edited_queries() == [a]
    click(opened, c)
    settle(qtbot, opened)
    reads.held[b] = threading.Event()
    assert not doc.state.at_hand(b)
    click(opened, b)
    assert doc.reading == b
    key(opened, Qt.Key.Key_Z, CTRL)  # Undo: a's edit taken back, a shown
    assert doc.current_query == a and doc.reading is None and not doc.edited_queries()
    assert opened.ranking_view.isEnabled() and opened.query_panel.current_query() == a
    reads.held[b].set()
    settle(qtbot, opened)
    assert doc.current_query == a
