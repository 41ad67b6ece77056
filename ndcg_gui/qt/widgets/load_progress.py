"""A long task in the status bar: 'Loading NAME' with a progress bar and Cancel while a big file
loads; 'Scoring every query at k = 20 with DuckDB' while a run read where it lies is scored again
after another definition."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from ndcg_gui.qt.document.loader import BackgroundLoader
from ndcg_gui.qt.document.runner import Task


class TaskName(QLabel):
    """A task's name, cut at its end with "…" (whole in its tooltip) when the status bar has less
    room: at 1024 pixels a long name beside the counts would widen the window past its screen."""

    def __init__(self, tip: str = "") -> None:
        super().__init__()
        self._name, self._tip = "", tip
        self.setToolTip(tip)

    def text(self) -> str:
        return self._name

    def setText(self, name: str) -> None:
        self._name = name
        self._fit()
        self.updateGeometry()

    def sizeHint(self) -> QSize:
        return QSize(self.fontMetrics().horizontalAdvance(self._name) + 2, super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:
        room = self.fontMetrics().horizontalAdvance(self._name[:8] + "…")
        return QSize(room, super().minimumSizeHint().height())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        shown = self.fontMetrics().elidedText(self._name, Qt.TextElideMode.ElideRight, self.width())
        QLabel.setText(self, shown)
        self.setToolTip(self._tip if shown == self._name else f"{self._name}\n{self._tip}".strip())


class TaskProgress(QWidget):
    """The task's name (as `text` words it), a progress bar and, when it can be stopped, Cancel;
    shown from the task's start to its end."""

    def __init__(self, task: Task, text: Callable[[str], str], cancel: Callable[[], None] | None = None,
                 tip: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = text
        self.label = TaskName(tip)
        self.bar = QProgressBar(minimum=0, maximum=1000, textVisible=True, toolTip=tip)
        self.bar.setFixedWidth(180)
        self.cancel_button = QPushButton("Cancel", toolTip=tip)
        self.cancel_button.setVisible(cancel is not None)
        if cancel is not None:
            self.cancel_button.clicked.connect(cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(self.cancel_button)
        task.started.connect(self._on_started)
        task.progressed.connect(lambda f: self.bar.setValue(round(f * 1000)))
        task.finished.connect(self.hide)
        self.hide()

    def _on_started(self, name: str) -> None:
        self.label.setText(self._text(name))
        self.bar.setValue(0)
        self.show()


class LoadProgress(TaskProgress):
    """'Loading NAME' with a progress bar and Cancel, shown while its loader works (status bar)."""

    def __init__(self, loader: BackgroundLoader, parent: QWidget | None = None) -> None:
        super().__init__(loader.task, lambda name: f"Loading {name}…", loader.cancel,
                         "Stop loading; the open document stays as it is", parent)
