"""A long task in the status bar: 'Loading NAME' with a progress bar and Cancel while a big file
loads; 'Scoring every query at k = 20 with DuckDB' while a run read where it lies is scored again
after another definition."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from ndcg_gui.qt.document.loader import BackgroundLoader
from ndcg_gui.qt.document.runner import Task


class TaskProgress(QWidget):
    """The task's name (as `text` words it), a progress bar and, when it can be stopped, Cancel;
    shown from the task's start to its end."""

    def __init__(self, task: Task, text: Callable[[str], str], cancel: Callable[[], None] | None = None,
                 tip: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = text
        self.label = QLabel(toolTip=tip)
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
