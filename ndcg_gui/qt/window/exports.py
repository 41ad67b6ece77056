"""Exports of what the window shows: the per-rank table as CSV, the plot as PNG or SVG, one row per
query as CSV. The files are the core's writers' (or the plot's exporter's); this module chooses
names and reports."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog, QWidget

from ndcg_gui.core.errors import InputError
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.widgets import dialogs
from ndcg_gui.qt.widgets.curve_plot import CurvePlot
from ndcg_gui.qt.widgets.plot_export import export_png, export_svg

Status = Callable[[str, int], None]


class Exports(QObject):
    def __init__(self, document: Document, plot: CurvePlot, parent_widget: QWidget, status: Status) -> None:
        super().__init__(parent_widget)
        self.document, self.plot = document, plot
        self._parent, self._status = parent_widget, status

    def _ask(self, title: str, tail: str, kind: str) -> str | None:
        doc = self.document
        folder = doc.path.parent if doc.path else Path.home()
        stem = doc.path.stem if doc.path else "ndcg"
        path, _ = QFileDialog.getSaveFileName(self._parent, title, str(folder / f"{stem}{tail}"),
                                              f"{kind.upper()} (*.{kind})")
        if path and not path.lower().endswith(f".{kind}"):
            path += f".{kind}"
        return path or None

    def _report(self, what: str, path: str | Path, run: Callable[[], object]) -> bool:
        try:
            run()
        except (InputError, OSError, ValueError) as err:
            dialogs.show_error(self._parent, f"Could not export {what}", f"{Path(path).name}: {err}")
            return False
        self._status(f"Exported {what} to {Path(path).name}", 5000)
        return True

    def export_metrics(self, path: str | Path) -> bool:
        from ndcg_gui.core import writers

        doc = self.document
        return self._report("the metrics", path,
                            lambda: writers.write_metrics_csv(doc.current_list(), path, doc.config))

    def export_metrics_dialog(self) -> None:
        if path := self._ask("Export the metrics table", "-metrics.csv", "csv"):
            self.export_metrics(path)

    def export_plot(self, path: str | Path) -> bool:
        svg = Path(path).suffix.lower() == ".svg"
        return self._report("the plot", path, lambda: (export_svg if svg else export_png)(self.plot, path))

    def export_plot_dialog(self, kind: str) -> None:
        if path := self._ask("Export the plot", f"-ndcg.{kind}", kind):
            self.export_plot(path)

    def export_summary(self, path: str | Path) -> bool:
        """One row per query (edits included), the same figures as the panel and `--summary-csv`."""
        from ndcg_gui.core import writers

        doc = self.document
        return self._report("the per-query summary", path, lambda: writers.write_summary_csv(
            doc.lists_for_saving(), path, doc.k, doc.config, doc.ties))

    def export_summary_dialog(self) -> None:
        if path := self._ask("Export the per-query summary", "-summary.csv", "csv"):
            self.export_summary(path)
