"""Issue 34, finding 12 (accessible names): every control a person can reach by keyboard, in every
pane, tab and dialog of the window, shown or not, has a name a screen reader says: its own
accessible name, the text Qt's accessibility interface reads from it (a button's, a check box's),
or a label that names it (a QLabel buddy). Offscreen; the journeys walk the shown ones with Tab
under Xvfb (test_journeys.test_every_focus_stop_has_a_name_a_screen_reader_says)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QLabel, QLineEdit, QWidget


def buddies(top: QWidget) -> set[QWidget]:
    return {label.buddy() for label in top.findChildren(QLabel) if label.buddy() is not None}


def said_name(widget: QWidget, labelled: set[QWidget]) -> str:
    if widget.accessibleName().strip() or widget in labelled:
        return widget.accessibleName() or "(its label)"
    if isinstance(widget, QComboBox):  # (Qt names a box by its value: "trec_eval")
        return ""
    face = QAccessible.queryAccessibleInterface(widget)
    return face.text(QAccessible.Text.Name).strip() if face is not None else ""


def reached_by_keyboard(widget: QWidget) -> bool:
    """A Tab stop of its own (the line edit inside a spin box or an editable box is its box's)."""
    if not widget.focusPolicy() & Qt.FocusPolicy.TabFocus or not widget.isEnabledTo(widget.window()):
        return False
    parent = widget.parentWidget()
    return not (isinstance(widget, QLineEdit) and isinstance(parent, (QAbstractSpinBox, QComboBox)))


def unnamed(top: QWidget) -> list[str]:
    """The controls of `top`'s window (not its boxes' pop-up lists) with no name to say."""
    labelled = buddies(top)
    return sorted(f"{type(w).__name__} {w.objectName()!r} in {type(w.parentWidget()).__name__}"
                  for w in top.findChildren(QWidget)
                  if w.window() is top and reached_by_keyboard(w) and not said_name(w, labelled))


def test_every_control_of_the_window_and_its_dialogs_is_named(qtbot, window, files):
    run, qrels, second = files
    assert window.files.open(run, qrels, ask=False)
    window.compare.add_run(second)
    qtbot.waitUntil(lambda: window.comparison.active and window.right_tabs.count() == 2, timeout=10000)
    window.compare.flush()
    window.show()
    qtbot.waitExposed(window)
    controls = [w for w in window.findChildren(QWidget) if reached_by_keyboard(w)]
    assert len(controls) > 30  # (the panes and tabs are all there, hidden ones too)
    assert unnamed(window) == [], '\n'.join(unnamed(window))
    learn = window.learning
    learn.show_steps()
    learn.show_exercise()
    learn.show_two_definitions()
    window.show_guide()
    dialogs = [w for w in (learn.steps, learn.exercise, learn.two, window.guide) if w is not None]
    assert len(dialogs) == 4
    for dialog in dialogs:
        assert unnamed(dialog) == [], dialog.windowTitle()
        dialog.close()
