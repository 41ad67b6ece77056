"""Exercises: a list with its figures hidden (the list on screen, a worked example, or one drawn
at random at a difficulty), the questions (DCG@k, IDCG@k, NDCG@k, or one rank's row), each answer
checked to the decimals asked and, when wrong, the first step where it departs with the arithmetic
(`core.teaching.exercises`). The session's score is kept in the settings, nothing else."""

from __future__ import annotations

import random

from PySide6.QtCore import QSettings, QSignalBlocker, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ndcg_gui.core.lists.numbers import format_grade, format_value
from ndcg_gui.core.teaching.examples import worked_examples
from ndcg_gui.core.teaching.exercises import Check, Difficulty, Exercise, draw
from ndcg_gui.qt.document.document import Document

SCORE_KEY = "learning/score"  # "right asked" of this session
SOURCES = (("This list", "list"), ("A worked example", "example"), ("A random list", "random"))


class Score:
    """Right answers of those checked, this session; written to the settings at each check."""

    def __init__(self, settings: QSettings) -> None:
        self._settings = settings
        self.before = _read(settings.value(SCORE_KEY, ""))  # the last session's, said once
        self.right = self.asked = 0

    def add(self, checks: list[Check]) -> None:
        self.asked += len(checks)
        self.right += sum(c.correct for c in checks)
        self._settings.setValue(SCORE_KEY, f"{self.right} {self.asked}")

    def text(self) -> str:
        said = f"This session: {self.right} right of {self.asked}"
        if self.before is not None:
            said += f" (last session: {self.before[0]} of {self.before[1]})"
        return said


def _read(value: object) -> tuple[int, int] | None:
    try:
        right, asked = (int(x) for x in str(value).split())
    except ValueError:
        return None
    return right, asked


class ExerciseDialog(QDialog):
    """`hidingFigures(bool)`: the window should hide (True) or show again its own figures, while
    the exercise is on the list it shows."""

    hidingFigures = Signal(bool)

    def __init__(self, document: Document, score: Score, parent: QWidget | None = None,
                 rng: random.Random | None = None) -> None:
        super().__init__(parent)
        self._doc, self.score = document, score
        self._rng = rng or random.Random()
        self.exercise: Exercise | None = None
        self._base: Exercise | None = None  # the exercise at k, whose rows `rank` picks
        self._counted: dict = {}
        self.checks: list[Check] = []
        self.setWindowTitle("Exercise")

        self.source = QComboBox()
        for text, data in SOURCES:
            self.source.addItem(text, data)
        self.source.setAccessibleName("Exercise on")
        self.example = QComboBox()
        for e in worked_examples():
            self.example.addItem(f"{e.id}: {e.title}", e.id)
        self.example.setAccessibleName("Worked example")
        self.length, self.max_grade, self.missed = QSpinBox(), QSpinBox(), QSpinBox()
        for box, low, high, value, name in ((self.length, 1, 12, 5, "Length"),
                                            (self.max_grade, 1, 5, 3, "Grades up to"),
                                            (self.missed, 0, 3, 0, "Missed relevant documents")):
            box.setRange(low, high)
            box.setValue(value)
            box.setAccessibleName(name)
        self.real = QCheckBox("&Real grades")
        self.ties = QCheckBox("&Tied scores")
        self.cutoff = QCheckBox("&Cut-off below length")
        self.exponential = QCheckBox("E&xponential gain")
        self.ask = QComboBox()
        self.ask.addItem("DCG@k, IDCG@k, NDCG@k", "k")
        self.ask.addItem("One rank's row", "row")
        self.ask.setAccessibleName("Ask for")
        self.rank = QSpinBox()
        self.rank.setPrefix("rank ")
        self.rank.setRange(1, 1)
        self.rank.setAccessibleName("Rank asked")
        self.decimals = QSpinBox()
        self.decimals.setRange(1, 4)
        self.decimals.setValue(3)
        self.decimals.setSuffix(" decimals")
        self.decimals.setAccessibleName("Precision")
        self.new_button = QPushButton("&New exercise")
        self.new_button.clicked.connect(self.new_exercise)

        choose = QGridLayout()
        choose.addWidget(QLabel("Exercise on"), 0, 0)
        choose.addWidget(self.source, 0, 1)
        choose.addWidget(self.example, 0, 2, 1, 3)
        self.random_row = QWidget()
        random_row = QHBoxLayout(self.random_row)
        random_row.setContentsMargins(0, 0, 0, 0)
        for label, box in (("Length", self.length), ("grades 0 to", self.max_grade), ("missed", self.missed)):
            random_row.addWidget(QLabel(label))
            random_row.addWidget(box)
        for box in (self.real, self.ties, self.cutoff, self.exponential):
            random_row.addWidget(box)
        random_row.addStretch(1)
        choose.addWidget(self.random_row, 1, 0, 1, 5)
        choose.addWidget(QLabel("Ask for"), 2, 0)
        choose.addWidget(self.ask, 2, 1)
        choose.addWidget(self.rank, 2, 2)
        choose.addWidget(self.decimals, 2, 3)
        choose.addWidget(self.new_button, 2, 4)

        self.about = QLabel(wordWrap=True)
        self.table = QTableWidget(0, 3)
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.table.setTabKeyNavigation(False)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setAccessibleName("The list (its figures hidden)")
        self.answers_box = QFormLayout()
        self.answers: list[QLineEdit] = []
        self.check_button = QPushButton("Chec&k")
        self.check_button.setDefault(True)  # (Enter in an answer checks)
        self.check_button.clicked.connect(self.check)
        self.feedback = QTextBrowser()
        self.feedback.setAccessibleName("Feedback")
        self.feedback.setMinimumHeight(120)
        self.score_label = QLabel(self.score.text())

        middle = QHBoxLayout()
        middle.addWidget(self.table, 2)
        answers = QVBoxLayout()
        answers.addLayout(self.answers_box)
        answers.addWidget(self.check_button)
        answers.addStretch(1)
        middle.addLayout(answers, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(choose)
        layout.addWidget(self.about)
        layout.addLayout(middle, 2)
        layout.addWidget(self.feedback, 2)
        layout.addWidget(self.score_label)
        if parent is not None:
            self.resize(min(860, parent.width() - 40), min(640, parent.height() - 40))

        self.source.currentIndexChanged.connect(self._source_changed)
        self.ask.currentIndexChanged.connect(lambda _i: self.new_exercise())
        self.example.currentIndexChanged.connect(lambda _i: self.new_exercise())
        self.rank.valueChanged.connect(self._rank_changed)
        self._source_changed()

    # ---- the exercise -----------------------------------------------------------------------------
    def _source_changed(self, _index: int = 0) -> None:
        source = self.source.currentData()
        self.example.setVisible(source == "example")
        self.random_row.setVisible(source == "random")
        self.new_exercise()

    def _rank_changed(self, _rank: int) -> None:
        if self._base is not None and self.ask.currentData() == "row":
            self.set_exercise(self._base)

    def difficulty(self) -> Difficulty:
        return Difficulty(length=self.length.value(), max_grade=self.max_grade.value(),
                          real_grades=self.real.isChecked(), ties=self.ties.isChecked(),
                          missed=self.missed.value(), cutoff_below=self.cutoff.isChecked(),
                          gain="exponential" if self.exponential.isChecked() else "linear")

    def new_exercise(self) -> None:
        source = self.source.currentData()
        if source == "list":
            exercise = Exercise.at_k(self._doc.current_list(), self._doc.measure,
                                     "the list on screen")
        elif source == "example":
            e = next(e for e in worked_examples() if e.id == self.example.currentData())
            exercise = Exercise.at_k(e.list, e.measure, f"worked example {e.id}")
        else:
            exercise = draw(self.difficulty(), self._rng)
        self.hidingFigures.emit(source == "list" and self.isVisible())
        self.set_exercise(exercise)

    def set_exercise(self, exercise: Exercise) -> None:
        self._base = exercise
        if not len(exercise.list):
            self.about.setText("The list is empty: type grades in the list's box first (e.g. 3 2 3 0 1).")
            self.exercise = None
            self._questions(())
            return
        with QSignalBlocker(self.rank):
            self.rank.setRange(1, len(exercise.list))
        self.rank.setVisible(self.ask.currentData() == "row")
        if self.ask.currentData() == "row":
            exercise = exercise.row(self.rank.value())
        self.exercise, self.checks = exercise, []
        self._counted: dict = {}  # question -> the answer last counted in the score
        lst, d = exercise.list, exercise.measure
        scores = lst.scores is not None
        self.table.setColumnCount(4 if scores else 3)
        self.table.setHorizontalHeaderLabels(["Rank", "Doc", "Grade", *(["Score"] if scores else [])])
        self.table.setRowCount(len(lst))
        for row in range(len(lst)):
            cells = [str(row + 1), str(lst.docs[row]), format_grade(float(lst.grades[row]))]
            if scores:
                cells.append(format_value(float(lst.scores[row])))
            for column, text in enumerate(cells):
                self.table.setItem(row, column, QTableWidgetItem(text))
        said = [f"<b>On {exercise.source}</b>. Definition: {d.describe()}; k = {d.k}"]
        if scores and d.ties == "average":
            said.append("Tied scores share the mean of their gains (scikit-learn's rule).")
        if lst.unretrieved and lst.has_pool:
            missed = ", ".join(f"{doc} (grade {format_grade(g)})" for doc, g in lst.unretrieved.items())
            said.append(f"Also judged, not in the list: {missed}.")
        said.append(f"Answer to {self.decimals.value()} decimals; Enter checks.")
        said[0] += "."
        self.about.setText(" ".join(said))
        self._questions(exercise.questions)
        self.feedback.clear()

    def _questions(self, questions) -> None:
        while self.answers_box.rowCount():
            self.answers_box.removeRow(0)
        self.answers = []
        for q in questions:
            edit = QLineEdit()
            edit.setAccessibleName(q.label)
            edit.setPlaceholderText("your figure")
            self.answers_box.addRow(q.label, edit)
            self.answers.append(edit)
        self.check_button.setEnabled(bool(questions))
        if self.answers and self.isVisible():
            self.answers[0].setFocus()

    def check(self) -> None:
        """Check every answer given; say each verdict, and for a wrong one where it departs."""
        ex = self.exercise
        if ex is None:
            return
        decimals = self.decimals.value()
        self.checks = ex.check_all({q: edit.text() for q, edit in zip(ex.questions, self.answers, strict=True)
                                    if edit.text().strip()}, decimals)
        if not self.checks:
            self.feedback.setPlainText("Type a figure in at least one box, then Check.")
            return
        # (An answer checked again unchanged is not counted again.)
        fresh = [c for c, edit in zip(self.checks, self._given(), strict=True)
                 if self._counted.get(c.question) != edit]
        self._counted.update({c.question: edit for c, edit in zip(self.checks, self._given(), strict=True)})
        self.score.add(fresh)
        self.score_label.setText(self.score.text())
        self.feedback.setPlainText("\n\n".join(c.text() for c in self.checks))
        wrong = next((c for c in self.checks if not c.correct), None)
        if wrong is not None:  # (back to the first wrong answer, to try again)
            edit = self.answers[ex.questions.index(wrong.question)]
            edit.setFocus()
            edit.selectAll()

    def _given(self) -> list[str]:
        """The answers typed, in the order of `checks`."""
        return [edit.text().strip() for edit in self.answers if edit.text().strip()]

    # ---- the window's figures stay hidden while the exercise is on its list ------------------------
    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.hidingFigures.emit(self.source.currentData() == "list")
        if self.answers:
            self.answers[0].setFocus()

    def done(self, result: int) -> None:
        self.hidingFigures.emit(False)
        super().done(result)

