"""The learner's widgets offscreen: the example note, the step-by-step walk, the exercise dialog,
two definitions side by side; and opening an example as one undo step through the document."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QSettings, Qt, QUrl
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget

from ndcg_gui.core.ndcg.metrics import ndcg_at
from ndcg_gui.core.teaching.examples import worked_examples
from ndcg_gui.qt.widgets.learn.example_note import ExampleNote
from ndcg_gui.qt.widgets.learn.exercise_dialog import SCORE_KEY, ExerciseDialog, Score
from ndcg_gui.qt.widgets.learn.step_dialog import StepDialog

EXAMPLES = {e.id: e for e in worked_examples()}
# The offscreen platform's notes on dialogs laid out and raised (Qt's, not ours).


def open_example(document, example_id: str) -> None:
    e = EXAMPLES[example_id]
    document.open_workspace(e.workspace(), f"Open worked example {e.id}", own_definition=True)


def test_an_example_opens_under_its_own_definition_as_one_undo_step(document):
    before = document.current_list()
    open_example(document, "E3a")
    assert document.display_name == "Worked example E3a"
    assert document.state.measure == EXAMPLES["E3a"].measure
    assert round(document.summary.ndcg, 4) == 0.9787 and document.is_clean()
    document.undo_stack.undo()
    assert document.current_list() == before and document.display_name != "Worked example E3a"


def test_the_note_shows_beside_an_example_only_and_names_the_wrong_figures(qtbot, document):
    holder = QWidget()  # (as in the window: a child, not a window of its own)
    note = ExampleNote(document, holder)
    shown: list[bool] = []
    note.shown.connect(shown.append)
    qtbot.addWidget(holder)
    holder.show()
    qtbot.waitUntil(lambda: not note._pending)
    assert note.example is None and shown == [False]
    open_example(document, "E1")
    qtbot.waitUntil(lambda: note.example is not None)
    text = note.label.toPlainText()
    assert shown[-1] is True and "6.150" in text and "✗ wrong" in text and "6.1487" in text
    assert "rounded too early" in text and "✓ right" in text  # (0.972 is right to 3 decimals)
    document.set_measure(k=3)  # another definition: the note says the headline's is not the example's
    qtbot.waitUntil(lambda: "not the example's" in note.label.toPlainText())
    with qtbot.waitSignal(note.asked) as asked:
        note.label.anchorClicked.emit(QUrl("steps"))
    assert asked.args == ["steps"]
    document.undo_stack.undo()
    document.undo_stack.undo()
    qtbot.waitUntil(lambda: note.example is None)
    assert shown[-1] is False


def test_the_note_sits_beside_the_headline_while_an_example_is_open(qtbot, window):
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    assert not window.note_dock.isVisible()
    window.learning.open_example("E7")
    qtbot.waitUntil(window.note_dock.isVisible)
    assert window.note_dock.geometry().left() >= window.headline_dock.geometry().right()
    # Near its widest at 1366 px: the two docks share the width by their size hints.
    qtbot.waitUntil(lambda: window.example_note.width() >= 0.9 * window.example_note.maximumWidth())
    assert window.width() == 1366
    window.document.undo_stack.undo()
    qtbot.waitUntil(lambda: not window.note_dock.isVisible())


def test_step_by_step_reveals_one_rank_at_a_time_by_keys(qtbot, document):
    open_example(document, "E1")
    steps = StepDialog(document)
    qtbot.addWidget(steps)
    steps.show()
    assert steps.rank == 1 and steps.table.item(1, 6).text() == ""  # rank 2's DCG not revealed yet
    for key in (Qt.Key.Key_Space, Qt.Key.Key_Right, Qt.Key.Key_Space):
        QTest.keyClick(steps, key)
    assert steps.rank == 4 and steps.table.item(3, 6).text() == "5.7619"
    assert steps.table.item(4, 6).text() == ""
    assert "DCG@4 = 5.7619 + 0 / log2(5) = 5.7619" in steps.explain.text()
    assert "IDCG@4 = 5.8928 + 1 / log2(5) = 6.3235" in steps.explain.text()
    assert list(steps.curves["ndcg"].getData()[0]) == [1, 2, 3, 4]
    QTest.keyClick(steps, Qt.Key.Key_Left)
    assert steps.rank == 3 and steps.table.item(3, 6).text() == ""
    QTest.keyClick(steps, Qt.Key.Key_End)
    assert steps.rank == 5 and "This is NDCG@5, the headline's figure" in steps.explain.text()
    QTest.keyClick(steps, Qt.Key.Key_Space)  # (past the last rank: stays there)
    assert steps.rank == 5 and steps.table.item(4, 9).text() == "0.9724"
    document.new_from_grades([1, 2])  # another list: the walk follows it
    assert len(steps.steps) == 2 and steps.rank == 2
    assert steps.table.item(1, 9).text() == f"{ndcg_at([1, 2], document.measure.with_(k=2)):.4f}"


def test_an_exercise_checks_right_and_wrong_answers_and_keeps_the_score(qtbot, document, tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat)
    settings.setValue(SCORE_KEY, "2 3")
    dialog = ExerciseDialog(document, Score(settings), rng=random.Random(4))
    qtbot.addWidget(dialog)
    dialog.source.setCurrentIndex(dialog.source.findData("example"))
    dialog.example.setCurrentIndex(dialog.example.findData("E1"))
    dialog.decimals.setValue(4)
    assert [q.label for q in dialog.exercise.questions] == ["DCG@5", "IDCG@5", "NDCG@5"]
    dcg, idcg, _ndcg = dialog.answers
    dcg.setText("6.1487")
    idcg.setText("6.1487")  # the list's own order taken as the ideal
    dialog.check()
    text = dialog.feedback.toPlainText()
    assert "✓ DCG@5 = 6.1487" in text and "✗ IDCG@5" in text
    assert "your IDCG used the list's order, not the ideal's" in text and "= 6.3235" in text
    assert settings.value(SCORE_KEY) == "1 2" and "last session: 2 of 3" in dialog.score_label.text()
    # One rank's row, and a list drawn at random.
    dialog.ask.setCurrentIndex(dialog.ask.findData("row"))
    dialog.rank.setValue(2)
    assert [q.label for q in dialog.exercise.questions][:2] == ["gain at rank 2", "discount at rank 2"]
    dialog.answers[1].setText("1.585")
    dialog.decimals.setValue(3)
    dialog.check()
    assert "you gave the logarithm itself" in dialog.feedback.toPlainText()
    dialog.ask.setCurrentIndex(dialog.ask.findData("k"))
    dialog.source.setCurrentIndex(dialog.source.findData("random"))
    dialog.length.setValue(7)
    dialog.missed.setValue(1)
    dialog.new_exercise()
    assert len(dialog.exercise.list) == 7 and len(dialog.exercise.list.unretrieved) == 1
    assert "Also judged, not in the list" in dialog.about.text()
    assert dialog.table.rowCount() == 7 and dialog.table.columnCount() == 3  # rank, doc, grade: no figures


def test_the_window_hides_its_figures_while_the_exercise_is_on_its_list(qtbot, window):
    window.show()
    qtbot.waitExposed(window)
    window.learning.show_exercise()
    dialog = window.learning.exercise
    assert dialog.source.currentData() == "list"
    assert not window.headline_dock.isVisible() and not window.right_tabs.isVisible()
    assert not window.note_dock.isVisible()
    dialog.source.setCurrentIndex(dialog.source.findData("random"))
    assert window.headline_dock.isVisible() and window.right_tabs.isVisible()
    dialog.source.setCurrentIndex(dialog.source.findData("list"))
    assert not window.right_tabs.isVisible()
    dialog.reject()
    assert window.headline_dock.isVisible() and window.right_tabs.isVisible()


def test_two_definitions_side_by_side_mark_the_ranks_that_differ_and_lead_to_the_walk(qtbot, window):
    window.document.new_from_grades([1, 0, 2, 1])
    window.learning.show_two_definitions()
    two = window.learning.two
    assert (two.a.currentText(), two.b.currentText()) == ("linear gain", "exponential gain")
    marks = [two.tables[0].item(r, 0).text() for r in range(4)]
    assert marks == ["≠", "", "≠", ""]  # grade 2 at rank 3, and the ideal's grade 2 at rank 1
    assert two.titles[1].text().startswith("<b>exponential gain</b>: NDCG@")
    exponential = window.document.measure.with_(gain="exponential")
    assert f"{ndcg_at([1, 0, 2, 1], exponential.with_(k=window.document.k)):.4f}" in two.titles[1].text()
    two.walk_button.click()
    why = window.why
    assert why.tabText(why.currentIndex()) == "Why they differ"
    assert (why.difference.a.currentData(), why.difference.b.currentData()) == ("trec_eval", "ranx_burges")


@pytest.mark.parametrize("link", ["steps", "exercise", "gains", "walk"])
def test_every_link_of_the_note_opens_its_view(qtbot, window, link):
    window.learning.follow_note(link)
    learning = window.learning
    shown = {"steps": learning.steps, "exercise": learning.exercise, "gains": learning.two}
    if link == "walk":
        assert window.why.tabText(window.why.currentIndex()) == "Why they differ"
    else:
        assert shown[link] is not None and shown[link].isVisible()
    for dialog in shown.values():
        if dialog is not None:
            dialog.close()


def test_the_guide_points_to_the_learners_commands_with_their_keys(window):
    from ndcg_gui import assets

    page = assets.read_bytes("guide.html").decode("utf-8")
    actions = window.actions
    assert "Help ▸ Worked examples" in page
    for action, key in ((actions.step_by_step, "F6"), (actions.exercise, "F7")):
        assert action.shortcut().toString() == key
        name = action.text().replace("&", "").rstrip("…")
        assert f"<b>Help ▸ {name}</b> (<b>{key}</b>)" in page
    assert f"<b>Help ▸ {actions.two_definitions.text().replace('&', '').rstrip('…')}</b>" in page
