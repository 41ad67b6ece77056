"""The random-action test with real input under Xvfb: besides the model-API actions and the keys
sent to the focus widget (tests/qt/test_random_actions.py), rows dragged within the ranked list and
missed documents dragged from the Missed tab into it with the real mouse (Qt's own drag loop), the
tab clicked on its tab bar. After every action the same checks: every painted cell as its model says
(ScreenMirror), every figure as the core recomputes it; at the end, undoing everything gives back
the file as read. `NDCG_RANDOM_ACTIONS` and `NDCG_RANDOM_SEEDS` as there."""

from __future__ import annotations

import os
import random

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from real_display import XVFB
from test_journeys import above_row, drag, row_point, shown
from test_random_actions import ACTIONS, Person, Screen, undo_everything, write_files

from ndcg_gui.core.lists import edits
from ndcg_gui.core.reading import load

pytestmark = XVFB
SEEDS = [int(s) for s in os.environ.get("NDCG_RANDOM_SEEDS", "11,12").split(",")]


class RealPerson(Person):
    """Drags with the real mouse beside the other actions."""

    def act(self) -> str:
        action = self.rng.choices([self.mouse_drag_rows, self.mouse_drag_missed, self.keys_to_the_focus,
                                   super().act], [3, 2, 2, 3])[0]
        return action()

    def _ready_to_drag(self) -> None:
        """Every row shown, the list and the why tabs in view (what a person would have on screen)."""
        w = self.w
        w.row_kind.setCurrentIndex(0)
        w.right_tabs.setCurrentIndex(0)
        w.ranking_view.clearSelection()
        self.s.settle()

    def _visible_rows(self, view) -> list[int]:
        n = view.model().rowCount()
        if not n:
            return []
        first = max(view.rowAt(0), 0)
        last = view.rowAt(view.viewport().height() - 4)
        return list(range(first, (n - 1 if last < 0 else last) + 1))

    def mouse_drag_rows(self) -> str:
        self._ready_to_drag()
        view, doc = self.w.ranking_view, self.doc
        rows = self._visible_rows(view)
        if len(rows) < 3:
            return "drag a row with the mouse (too few rows in view)"
        source = self.rng.choice(rows)
        target = self.rng.choice([r for r in rows if r not in (source, source + 1)])
        before = doc.current_list()
        expected = edits.move_rows(before, source, 1, target).after
        drag(self.w, self.s.qtbot, view.viewport(), row_point(view, source), view.viewport(),
             above_row(view, target), lambda: doc.current_list() == expected)
        return f"mouse: drag row {source} to before row {target}"

    def mouse_drag_missed(self) -> str:
        self._ready_to_drag()
        w, doc = self.w, self.doc
        why = w.why
        bar = why.tabBar()
        tab = next(i for i in range(why.count()) if why.tabText(i) == "Missed")
        QTest.mouseClick(bar, Qt.LeftButton, Qt.NoModifier, bar.tabRect(tab).center())  # the tab, clicked
        self.s.settle()
        missed, view = why.missed_view, w.ranking_view
        sources, targets = self._visible_rows(missed), self._visible_rows(view)
        if not sources or not targets:
            return "drag a missed document with the mouse (none, or an empty list)"
        source, target = self.rng.choice(sources), self.rng.choice(targets)
        name = why.missed.text(source, 0)
        before = doc.current_list()
        expected = edits.insert(before, target, [name], [before.unretrieved[name]]).after
        drag(w, self.s.qtbot, missed.viewport(), row_point(missed, source, 0), view.viewport(),
             above_row(view, target), lambda: doc.current_list() == expected)
        return f"mouse: drag missed {name!r} to before row {target}"


@pytest.mark.parametrize("seed", SEEDS)
def test_random_actions_with_the_real_mouse_keep_the_screen_right(seed, qtbot, settings, dialog_log, tmp_path,
                                                                   monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    from ndcg_gui.qt.widgets import dialogs
    from ndcg_gui.qt.window.main_window import MainWindow

    files = write_files(tmp_path)
    window = MainWindow(settings=settings)
    qtbot.addWidget(window)
    shown(window, qtbot, (1366, 768))
    screen = Screen(window, qtbot)
    rng = random.Random(seed)
    start = ("run", "forty")[seed % 2]  # judged documents the run missed to drag in; or 40 rows
    window.files.open(*files[start])
    history = [f"open {start}"]
    screen.check(history[-1])
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **kw: ("", False))
    monkeypatch.setattr(dialogs, "ask_number", lambda *a, **kw: (1, True))
    person = RealPerson(screen, files, rng)
    for _ in range(max(10, ACTIONS // 3)):
        if QApplication.activeWindow() is not window:  # (no window manager gives it back)
            window.activateWindow()
            qtbot.waitUntil(window.isActiveWindow)
        history.append(person.act())
        screen.check(" → ".join(history[-6:]))
    assert any(h.startswith("mouse: drag") for h in history), history
    if start == "run":
        assert any(h.startswith("mouse: drag missed") for h in history), history

    undo_everything(window)
    screen.check("undoing everything")
    first, qrels = files[start]
    fresh = load(first, qrels)
    for query in fresh.queries():
        assert window.document.list_for(query) == fresh.ranked_list(query), f"query {query} after undoing all"
