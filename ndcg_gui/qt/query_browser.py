"""The query browser wired into the main window: the query panel in its dock, per-query scores kept
in step with the document, big files opened through the background loader (progress bar and
Cancel in the status bar), and File ▸ Export per-query summary CSV.

The window creates one `QueryBrowser(window)`; everything here talks to the window only through
its `document`, `files`, `set_query_panel` and status bar.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QFileDialog

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.summary import score
from ndcg_gui.qt import dialogs
from ndcg_gui.qt.loader import BackgroundLoader, LoadProgress
from ndcg_gui.qt.query_panel import QueryPanel
from ndcg_gui.qt.query_scores import QueryScores

if TYPE_CHECKING:
    from ndcg_gui.qt.main_window import MainWindow


class QueryBrowser(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.document = document = window.document
        self.scores = QueryScores(document, self)
        self.panel = QueryPanel()
        self.loader = BackgroundLoader(parent=self)
        self.progress = LoadProgress(self.loader)
        window.statusBar().addPermanentWidget(self.progress)
        # (run, qrels, --query, the definition the loader scores under) of the load under way
        self._pending: tuple[Path, Path | None, str | None, tuple] | None = None
        self._edited_while_loading = False

        self.scores.changed.connect(self._show_scores)
        self.panel.querySelected.connect(self._open_query)
        document.currentQueryChanged.connect(self.panel.set_current_query)
        document.queryEdited.connect(lambda _q: setattr(self, "_edited_while_loading", True))
        self.loader.loaded.connect(self._loaded)
        self.loader.failed.connect(self._failed)
        self.loader.cancelled.connect(lambda: window.statusBar().showMessage("Loading cancelled", 5000))
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.loader.wait)

        self.export_summary_action = QAction("Export per-query s&ummary CSV…", window)
        self.export_summary_action.setStatusTip("Save one row per query: documents, judged, DCG, IDCG, "
                                                "NDCG at k")
        self.export_summary_action.triggered.connect(lambda _checked=False: self.export_summary_dialog())
        self._add_to_file_menu(self.export_summary_action)

        self._show_scores()
        self.panel.set_current_query(document.current_query)
        window.set_query_panel(self.panel)

    def _add_to_file_menu(self, action: QAction) -> None:
        """Next to the other exports in the File menu."""
        anchor = getattr(self.window.files, "export_png_action", None)
        for menu_action in self.window.menuBar().actions():
            menu = menu_action.menu()
            if menu is not None and anchor in menu.actions():
                menu.insertAction(anchor, action)
                return
        self.window.addAction(action)

    # ---- document -> panel ------------------------------------------------------------------
    def _show_scores(self) -> None:
        self.panel.set_unscored(len(self.document.dataset.unjudged_queries()))
        self.panel.set_result(self.scores.result, self.document.k)
        self.panel.set_edited(self.document.edited_queries())

    def _open_query(self, query: str) -> None:
        try:
            self.document.set_current_query(query)
        except KeyError as err:
            self.window.statusBar().showMessage(str(err), 5000)

    # ---- big files in the background ----------------------------------------------------------
    def open_in_background(self, path: str | Path, qrels: str | Path | None = None,
                           query: str | None = None) -> bool:
        """Start loading `path` in the background when it is big enough to need it; True if so.
        The document changes only when the load has finished (then `query` is opened)."""
        if not self.loader.uses_process(path, qrels):
            return False
        doc = self.document
        definition = (doc.k, doc.config, doc.ties)
        self._pending = (Path(path), Path(qrels) if qrels else None, query, definition)
        self._edited_while_loading = False
        self.loader.start(path, qrels, then=functools.partial(score, k=doc.k, config=doc.config,
                                                                ties=doc.ties))
        return True

    def _loaded(self, dataset, result) -> None:
        pending, self._pending = self._pending, None
        if pending is None:
            return
        path, qrels, query, definition = pending
        # Unsaved changes were asked about before loading; edits made since are asked about now.
        if self._edited_while_loading and not self.window.files.maybe_discard(f"opening {path.name}"):
            return
        doc = self.document
        # Scored in the loader under the definition of the time: used if that still holds.
        self.scores.offer(dataset, *definition, result)
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            doc.set_dataset(dataset, path, qrels, undoable=True)
        finally:
            QApplication.restoreOverrideCursor()
        self.window.files.add_recent(path, qrels)
        self.window.statusBar().showMessage(f"Opened {path.name}: {len(doc.queries())} queries", 5000)
        if query is not None:
            if query in doc.queries():
                doc.set_current_query(query)
            else:
                dialogs.show_error(self.window, "No such query",
                                   str(InputError(f'--query "{query}": no such query in {path.name}')))

    def _failed(self, message: str) -> None:
        self._pending = None
        dialogs.show_error(self.window, "Could not open the file", message)

    # ---- export -------------------------------------------------------------------------------
    def export_summary(self, path: str | Path) -> bool:
        """One row per query (edits included), the same figures as the panel and `--summary-csv`."""
        from ndcg_gui.core import writers

        doc = self.document
        try:
            writers.write_summary_csv(doc.lists_for_saving(), path, doc.k, doc.config, doc.ties)
        except (InputError, OSError) as err:
            dialogs.show_error(self.window, "Could not export the summary", str(err))
            return False
        self.window.statusBar().showMessage(f"Exported the per-query summary to {Path(path).name}", 5000)
        return True

    def export_summary_dialog(self) -> None:
        doc = self.document
        folder, stem = (doc.path.parent, doc.path.stem) if doc.path else (Path.home(), "ndcg")
        start = folder / f"{stem}-summary.csv"
        path, _ = QFileDialog.getSaveFileName(self.window, "Export the per-query summary", str(start),
                                              "CSV (*.csv)")
        if path:
            self.export_summary(path)
