"""The widths a person gives a table's columns, remembered by column title: applied again when
the table refits its columns (another file, another query) and kept between sessions."""

from __future__ import annotations

import json

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QApplication, QTableView


class ColumnWidths(QObject):
    def __init__(self, view: QTableView, name: str) -> None:
        super().__init__(view)
        self.view, self.name = view, name
        self.widths: dict[str, int] = {}
        view.horizontalHeader().sectionResized.connect(self._resized)

    def _resized(self, column: int, _old: int, new: int) -> None:
        # Only a person's resize (the mouse on a header border) is remembered, not a refit.
        if QApplication.mouseButtons() == Qt.NoButton:
            return
        title = self.view.model().headerData(column, Qt.Horizontal, Qt.DisplayRole)
        if title:
            self.widths[str(title)] = int(new)

    def apply(self) -> None:
        """Give the remembered columns the widths the person gave them."""
        model, header = self.view.model(), self.view.horizontalHeader()
        for column in range(model.columnCount()):
            width = self.widths.get(str(model.headerData(column, Qt.Horizontal, Qt.DisplayRole)))
            if width and header.sectionResizeMode(column) == header.ResizeMode.Interactive:
                header.resizeSection(column, width)

    def to_text(self) -> str:
        return json.dumps(self.widths)

    def load(self, text: object) -> None:
        """Widths saved by `to_text` (anything else is ignored)."""
        try:
            widths = json.loads(str(text)) if text else {}
        except ValueError:
            return
        if isinstance(widths, dict):
            self.widths = {str(k): v for k, v in widths.items() if isinstance(v, int) and 16 <= v <= 4000}
            self.apply()
