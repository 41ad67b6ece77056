"""Help's commands for learners: open a worked example (an undo step, like opening a file), the
step-by-step walk, an exercise, the list under two definitions side by side, and the Definitions
tab's walk between them. The dialogs are made when first asked for (pyqtgraph, the examples)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, QSettings
from PySide6.QtWidgets import QWidget

from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.widgets.learn.example_note import ExampleNote
from ndcg_gui.qt.widgets.why.why_panes import WhyTabs

# The presets whose only difference is the gain: where the walk goes for "linear vs exponential".
GAIN_PRESETS = ("trec_eval", "ranx_burges")


class Learning(QObject):
    """`figures`: the window's widgets that show figures, hidden while an exercise is on the list
    they show."""

    def __init__(self, document: Document, parent: QWidget, settings: QSettings,
                 may_replace: Callable[[str], bool], figures: Sequence[QWidget], why: WhyTabs,
                 note: ExampleNote, note_shown: Callable[[bool], None]) -> None:
        super().__init__(parent)
        self._doc, self._parent, self._settings = document, parent, settings
        self._may_replace, self._figures, self._why = may_replace, tuple(figures), why
        self._note, self._note_shown = note, note_shown
        self.steps = self.exercise = self.two = None
        self._score = None

    def open_example(self, example_id: str) -> None:
        """The example as a typed list under its own definition: one undo step."""
        from ndcg_gui.core.teaching.examples import worked_examples

        example = next(e for e in worked_examples() if e.id == example_id)
        if not self._may_replace("opening a worked example"):
            return
        self._doc.open_workspace(example.workspace(), f"Open worked example {example.id}",
                                 own_definition=True)

    def show_steps(self) -> None:
        if self.steps is None:
            from ndcg_gui.qt.widgets.learn.step_dialog import StepDialog

            self.steps = StepDialog(self._doc, self._parent)
        self.steps.go(1)
        _raise(self.steps)

    def show_exercise(self) -> None:
        if self.exercise is None:
            from ndcg_gui.qt.widgets.learn.exercise_dialog import ExerciseDialog, Score

            self._score = Score(self._settings)
            self.exercise = ExerciseDialog(self._doc, self._score, self._parent)
            self.exercise.hidingFigures.connect(self.hide_figures)
        else:
            self.exercise.new_exercise()
        _raise(self.exercise)

    def hide_figures(self, hidden: bool) -> None:
        for widget in self._figures:
            widget.setVisible(not hidden)
        if not hidden:  # (the example's note comes back with the headline, if an example is open)
            self._note_shown(self._note.example is not None)

    def show_two_definitions(self, a: str = "linear gain", b: str = "exponential gain") -> None:
        if self.two is None:
            from ndcg_gui.qt.widgets.learn.two_definitions import TwoDefinitionsDialog

            self.two = TwoDefinitionsDialog(self._doc, self._parent)
            self.two.walk.connect(self.show_walk)
        self.two.choose(a, b)
        _raise(self.two)

    def show_walk(self, a: str | None = None, b: str | None = None) -> None:
        """The walk from preset `a` to `b` (None: the presets differing in gain), in its tab."""
        why = self._why
        why.setCurrentIndex(why.indexOf(why.difference.parentWidget().parentWidget()))
        names = (a or GAIN_PRESETS[0], b or GAIN_PRESETS[1])
        for box, name in zip((why.difference.a, why.difference.b), names, strict=True):
            box.setCurrentIndex(box.findData(name))
        why.difference.setFocus()

    def follow_note(self, link: str) -> None:
        """A link of the worked example's note."""
        {"steps": self.show_steps, "exercise": self.show_exercise, "gains": self.show_two_definitions,
         "walk": self.show_walk}[link]()


def _raise(dialog: QWidget) -> None:
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
