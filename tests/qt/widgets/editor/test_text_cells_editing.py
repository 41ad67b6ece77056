"""A grade typed into the ranked list through its own delegate (`TextCells`): the editor the
delegate opens on a grade cell takes the keys, Enter commits them, and the model (and the document
behind it) then holds the grade typed, below the journey level (no window)."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.qt.models.ranking_model import RankingModel
from ndcg_gui.qt.widgets.editor.ranking_view import RankingView
from ndcg_gui.qt.widgets.editor.text_cells import TextCells


def test_a_grade_typed_into_the_delegates_editor_reaches_the_model(qtbot, document):
    grades = [3.0, math.nan, 0.0, 1.0]
    document.set_lists({"q1": RankedList(docs=["a", "b", "c", "d"], grades=grades, query="q1")})
    model = RankingModel(document)
    view = RankingView(model)
    qtbot.addWidget(view)
    view.resize(600, 300)
    view.show()
    qtbot.waitExposed(view)
    assert isinstance(view.itemDelegate(), TextCells)

    row, typed = 1, "2"  # the unjudged row, graded 2
    cell = model.index(row, model.GRADE)
    view.setCurrentIndex(cell)
    view.edit(cell)
    qtbot.waitUntil(lambda: isinstance(QApplication.focusWidget(), QLineEdit))
    editor = QApplication.focusWidget()
    assert view.viewport().isAncestorOf(editor)  # the delegate's editor, over the cell
    editor.selectAll()
    qtbot.keyClicks(editor, typed)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not isinstance(QApplication.focusWidget(), QLineEdit))

    shown = model.data(cell, Qt.ItemDataRole.DisplayRole)
    assert float(shown) == float(typed)
    assert document.current_list().grades[row] == float(typed)
    # The other rows keep their grades (NaN: still unjudged).
    kept = [g for i, g in enumerate(document.current_list().grades) if i != row]
    assert [g if g == g else "nan" for g in kept] == [g if g == g else "nan"
                                                       for i, g in enumerate(grades) if i != row]
