"""'Loading NAME' with a progress bar and Cancel, shown in the status bar while a big file loads."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from ndcg_gui.qt.document.loader import BackgroundLoader


class LoadProgress(QWidget):
    """'Loading NAME' with a progress bar and Cancel, shown while its loader works (status bar)."""

    def __init__(self, loader: BackgroundLoader, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel()
        self.bar = QProgressBar(minimum=0, maximum=1000, textVisible=True)
        self.bar.setFixedWidth(180)
        self.cancel_button = QPushButton("Cancel", toolTip="Stop loading; the open document stays as it is")
        self.cancel_button.clicked.connect(loader.cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(self.cancel_button)
        loader.task.started.connect(self._on_started)
        loader.task.progressed.connect(lambda f: self.bar.setValue(round(f * 1000)))
        loader.task.finished.connect(self.hide)
        self.hide()

    def _on_started(self, name: str) -> None:
        self.label.setText(f"Loading {name}…")
        self.bar.setValue(0)
        self.show()
