"""A learner's journey under a real X server (Xvfb), keyboard alone: every worked example opened
from Help ▸ Worked examples, E1 walked step by step to its last rank, and an exercise answered
right and wrong (the wrong answer's first departing step named). Run as
`QT_QPA_PLATFORM=xcb xvfb-run -a pytest -m xvfb tests/qt/test_learning.py`; with NDCG_SHOTS set to
a folder, the note, a step and an exercise's feedback are saved there at 1366x768 to be looked at."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit, QMenu
from real_display import XVFB, shown

from ndcg_gui.core.teaching.examples import worked_examples

pytestmark = XVFB
ALT = Qt.KeyboardModifier.AltModifier
NONE = Qt.KeyboardModifier.NoModifier


def key(k, modifiers=NONE) -> None:
    """A key pressed by a person: it goes where the focus is (or to the open menu)."""
    target = QApplication.activePopupWidget() or QApplication.focusWidget()
    assert target is not None, "no widget has the keyboard focus"
    QTest.keyClick(target, k, modifiers)
    QApplication.processEvents()


def type_text(text: str) -> None:
    QTest.keyClicks(QApplication.focusWidget(), text)


def shot(widget, name: str) -> None:
    folder = os.environ.get("NDCG_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        assert widget.grab().save(str(Path(folder) / f"{name}.png"))


def shown_with_focus(window, qtbot) -> None:
    shown(window, qtbot, (1366, 768))
    window.ranking_view.setFocus()


def open_example_by_keyboard(qtbot, example_id: str) -> None:
    """Alt+H, W (Worked examples), Down to the example, Enter."""
    key(Qt.Key.Key_H, ALT)
    qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu))
    key(Qt.Key.Key_W)
    qtbot.waitUntil(lambda: "E1:" in _menu_texts())
    menu = QApplication.activePopupWidget()
    for _ in range(len(menu.actions()) + 1):
        active = menu.activeAction()
        if active is not None and active.text().startswith(f"{example_id}:"):
            break
        key(Qt.Key.Key_Down)
    assert menu.activeAction().text().startswith(f"{example_id}:")
    key(Qt.Key.Key_Return)


def _menu_texts() -> str:
    menu = QApplication.activePopupWidget()
    return " ".join(a.text() for a in menu.actions()) if isinstance(menu, QMenu) else ""


def test_every_worked_example_opens_from_the_menu_under_its_own_definition(qtbot, window):
    shown_with_focus(window, qtbot)
    doc = window.document
    for e in worked_examples():
        open_example_by_keyboard(qtbot, e.id)
        qtbot.waitUntil(lambda e=e: doc.display_name == e.name)
        assert doc.state.measure == e.measure and doc.k == e.k
        qtbot.waitUntil(lambda e=e: window.example_note.example is e)
        assert window.note_dock.isVisible()
        assert f"{e.figures['ndcg']:.4f}" in window.headline.ndcg.text()
        if e.id == "E1":
            shot(window, "example-note-E1")
    # Each open was one undo step: undoing them all goes back to the list the window started with.
    for _ in worked_examples():
        doc.undo_stack.undo()
    assert doc.current_list().grades.tolist() == [3, 2, 3, 0, 1] and doc.display_name != "Worked example E1"


def test_e1_step_by_step_to_its_last_rank_by_keyboard(qtbot, window):
    shown_with_focus(window, qtbot)
    open_example_by_keyboard(qtbot, "E1")
    qtbot.waitUntil(lambda: window.document.display_name == "Worked example E1")
    key(Qt.Key.Key_F6)
    qtbot.waitUntil(lambda: window.learning.steps is not None and window.learning.steps.isActiveWindow())
    steps = window.learning.steps
    assert QApplication.focusWidget() is steps and steps.rank == 1
    key(Qt.Key.Key_Space)
    key(Qt.Key.Key_Right)
    assert steps.rank == 3 and "DCG@3 = 4.2619 + 3 / log2(4) = 5.7619" in steps.explain.text()
    shot(steps, "step-E1-rank-3")
    key(Qt.Key.Key_Left)
    assert steps.rank == 2
    for _ in range(3):
        key(Qt.Key.Key_Space)
    assert steps.rank == 5 and steps.table.item(4, 9).text() == "0.9724"
    assert "This is NDCG@5, the headline's figure" in steps.explain.text()
    key(Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not steps.isVisible())


def test_an_exercise_answered_right_and_wrong_names_where_the_wrong_one_departs(qtbot, window):
    shown_with_focus(window, qtbot)
    open_example_by_keyboard(qtbot, "E1")
    qtbot.waitUntil(lambda: window.document.display_name == "Worked example E1")
    key(Qt.Key.Key_F7)
    qtbot.waitUntil(lambda: window.learning.exercise is not None
                    and window.learning.exercise.isActiveWindow())
    dialog = window.learning.exercise
    assert not window.right_tabs.isVisible() and not window.headline_dock.isVisible()  # figures hidden
    assert isinstance(QApplication.focusWidget(), QLineEdit)
    assert QApplication.focusWidget().accessibleName() == "DCG@5"
    type_text("6.149")  # right, to the 3 decimals asked
    key(Qt.Key.Key_Tab)
    type_text("6.149")  # wrong: the list's own order taken as the ideal
    key(Qt.Key.Key_Tab)
    type_text("1")
    key(Qt.Key.Key_Return)
    text = dialog.feedback.toPlainText()
    assert "✓ DCG@5 = 6.149" in text
    assert "✗ IDCG@5" in text
    assert "Step 4, the ideal ranking: your IDCG used the list's order, not the ideal's" in text
    assert "IDCG@5 = 3 / log2(2) + 3 / log2(3) + 2 / log2(4) + 1 / log2(5)" in text
    # NDCG = 1 follows from that IDCG: the same slip named, not the other that gives 1 (no discount).
    assert text.count("your IDCG used the list's order") == 2 and "no discount" not in text
    assert "1 right of 3" in dialog.score_label.text()
    assert QApplication.focusWidget().accessibleName() == "IDCG@5"  # back to the first wrong answer
    window.resize(1366, 768)
    shot(dialog, "exercise-feedback")
    type_text("6.323")
    key(Qt.Key.Key_Return)
    assert "✓ IDCG@5 = 6.323" in dialog.feedback.toPlainText()
    # The score counts the answers changed since they were checked: the one retyped, not the others.
    assert window.settings.value("learning/score") == "2 4"
    key(Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible())
    assert window.right_tabs.isVisible() and window.headline_dock.isVisible()
