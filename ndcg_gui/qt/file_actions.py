"""Files in and out of the window: open (dialog, recent files, dropped files, command line), save,
save as, export the metrics CSV and the plot, and the unsaved-changes question.

Reading and writing are the core's (`core.readers.load`, `core.writers`); this module chooses
paths, asks questions and reports failures. A failed load leaves the document untouched.
"""

from __future__ import annotations

import traceback
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QMimeData, QObject
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu

from ndcg_gui.core.errors import InputError
from ndcg_gui.qt import dialogs
from ndcg_gui.qt.plot_export import export_png, export_svg

if TYPE_CHECKING:
    from ndcg_gui.qt.main_window import MainWindow

RECENT_MAX = 10
OPEN_FILTER = "Ranked lists (*.csv *.tsv *.txt *.run *.qrels *.trec);;All files (*)"
SAVE_FILTERS = {"CSV (*.csv)": ".csv", "TREC run (*.run)": ".run"}


def _is_trec_qrels(path: Path) -> bool:
    """Whether `path` reads as a TREC qrels file (so writing TREC qrels over it loses nothing)."""
    from ndcg_gui.core.readers import read_source, sniff

    try:
        return sniff(read_source(path)) == "qrels"
    except (InputError, OSError):
        return False


class FileActions(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.document = window.document
        self.recent: list[str] = self._read_recent()
        w = window
        self.new_action = w._action("&New list", self.new_list, QKeySequence.New, "Start an empty list")
        self.open_action = w._action("&Open…", self.open_dialog, QKeySequence.Open,
                                     "Open a CSV/TSV ranked list or a TREC run")
        self.open_qrels_action = w._action("Open run with &qrels…", self.open_with_qrels_dialog,
                                           "Ctrl+Shift+O", "Open a TREC run and its qrels")
        self.save_action = w._action("&Save", self.save, QKeySequence.Save, "Save the list")
        self.save_as_action = w._action("Save &as…", self.save_as, QKeySequence.SaveAs)
        self.export_metrics_action = w._action("Export &metrics CSV…", self.export_metrics_dialog, None,
                                               "Save the per-rank metrics table as CSV")
        self.export_png_action = w._action("Export plot as &PNG…", lambda: self.export_plot_dialog("png"),
                                           None, "Save the curve plot as a PNG image")
        self.export_svg_action = w._action("Export plot as S&VG…", lambda: self.export_plot_dialog("svg"),
                                           None, "Save the curve plot as an SVG drawing")
        self.quit_action = w._action("&Quit", w.close, QKeySequence.Quit)
        self.recent_menu = QMenu("Open &recent", w)
        self.recent_menu.aboutToShow.connect(self._fill_recent)

    def populate(self, menu: QMenu) -> None:
        for action in (self.new_action, self.open_action, self.open_qrels_action):
            menu.addAction(action)
        menu.addMenu(self.recent_menu)
        menu.addSeparator()
        for action in (self.save_action, self.save_as_action, None, self.export_metrics_action,
                       self.export_png_action, self.export_svg_action, None, self.quit_action):
            menu.addSeparator() if action is None else menu.addAction(action)

    # ---- opening --------------------------------------------------------------------------------
    def open_path(self, path: str | Path, qrels: str | Path | None = None, ask: bool = True) -> bool:
        """Load a file into the document. On failure the reader's message is shown and the current
        list stays as it was. `ask=False` skips the unsaved-changes question."""
        if ask and not self.maybe_discard("opening another file"):
            return False
        browser = getattr(self.window, "query_browser", None)
        if browser is not None and browser.open_in_background(path, qrels):
            return True  # a big file: read in the background; the document changes when it is done
        problem = self.load(path, qrels)
        if problem is not None:
            dialogs.show_error(self.window, "Could not open the file", problem)
            return False
        back = " (Ctrl+Z goes back to the previous list)" if self.document.undo_group.canUndo() else ""
        self.window.statusBar().showMessage(f"Opened {Path(path).name}{back}", 8000)
        return True

    def load(self, path: str | Path, qrels: str | Path | None = None) -> str | None:
        """Read the file(s) and show them; the message of what went wrong otherwise (the
        document is then untouched)."""
        from ndcg_gui.core.readers import load

        try:
            dataset = load(path, qrels)
        except InputError as err:
            return str(err)
        except Exception as err:  # a reader bug must not take the window down: log it, say it
            from ndcg_gui.qt.app import write_log

            log = write_log(traceback.format_exc())
            return f"{Path(path).name}: unexpected error while reading: {err} (details in {log})"
        self.document.set_dataset(dataset, path, qrels, undoable=True)
        self.add_recent(path, qrels)
        return None

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.window, "Open a ranked list", self._start_dir(),
                                              OPEN_FILTER)
        if path:
            self.open_path(path)

    def open_with_qrels_dialog(self) -> None:
        run, _ = QFileDialog.getOpenFileName(self.window, "Open a TREC run", self._start_dir(),
                                             OPEN_FILTER)
        if not run:
            return
        qrels, _ = QFileDialog.getOpenFileName(self.window, "Its qrels (judgments)", str(Path(run).parent),
                                               OPEN_FILTER)
        if qrels:
            self.open_path(run, qrels)

    def new_list(self) -> None:
        if not self.maybe_discard("starting a new list"):
            return
        from ndcg_gui.core.ranked_list import RankedList

        self.document.set_lists({"": RankedList.from_grades([])}, undoable=True)
        self.window.quick_entry.setFocus()

    @staticmethod
    def dropped_paths(mime: QMimeData) -> list[str]:
        return [u.toLocalFile() for u in mime.urls() if u.isLocalFile()] if mime.hasUrls() else []

    def open_dropped(self, paths: list[str]) -> None:
        """One file: open it. Two: the one named like qrels is the judgments of the other."""
        if len(paths) == 2:
            qrels = [p for p in paths if "qrel" in Path(p).name.lower()]
            if len(qrels) == 1:
                run = next(p for p in paths if p != qrels[0])
                self.open_path(run, qrels[0])
                return
        self.open_path(paths[0])

    # ---- saving ---------------------------------------------------------------------------------
    def maybe_discard(self, what: str) -> bool:
        """True when it is fine to replace the document: it is saved, or the person says so."""
        if self.document.is_clean():
            return True
        answer = dialogs.ask_unsaved(self.window, what)
        if answer == dialogs.Unsaved.SAVE:
            return self.save()
        return answer == dialogs.Unsaved.DISCARD

    def save(self) -> bool:
        doc = self.document
        kind = getattr(doc.dataset, "kind", "csv")
        if doc.path is None or kind not in ("csv", "trec_run"):
            return self.save_as()
        return self.save_to(doc.path, ".run" if kind == "trec_run" else ".csv")

    def save_as(self) -> bool:
        doc = self.document
        # A run is offered as a run first, anything else as CSV.
        as_run = getattr(doc.dataset, "kind", "csv") == "trec_run"
        first = "TREC run (*.run)" if as_run else "CSV (*.csv)"
        start = str(doc.path.with_suffix(SAVE_FILTERS[first])) if doc.path else self._start_dir()
        path, chosen = QFileDialog.getSaveFileName(self.window, "Save the list", start,
                                                   ";;".join(SAVE_FILTERS), first)
        if not path:
            return False
        suffix = SAVE_FILTERS.get(chosen, ".csv")
        if Path(path).suffix.lower() in (".run", ".txt", ".trec"):
            suffix = ".run"
        return self.save_to(path, suffix)

    def save_to(self, path: str | Path, suffix: str = ".csv") -> bool:
        """Write every query (edits included): CSV, or a TREC run for suffix '.run'. With qrels,
        the judgments go to a qrels file too (neither format can hold the judged documents a list
        did not retrieve): over the loaded one when a grade was edited, beside a new file always."""
        from ndcg_gui.core import writers

        doc, path = self.document, Path(path)
        data = doc.lists_for_saving()
        qrels = self._qrels_target(path)
        try:
            if suffix == ".run":
                writers.write_trec_run(data, path)
            else:
                writers.write_csv(data, path)
            if qrels is not None:
                writers.write_qrels(data, qrels)
        except (InputError, OSError) as err:
            dialogs.show_error(self.window, "Could not save", str(err))
            return False
        if path != doc.path or (qrels is not None and qrels != doc.qrels_path):
            doc.path, doc.display_name = path, path.name
            doc.qrels_path = qrels or doc.qrels_path
            self.add_recent(path, doc.qrels_path)
        doc.set_clean()
        saved = path.name + (f" and {qrels.name}" if qrels is not None else "")
        self.window.statusBar().showMessage(f"Saved {saved}", 5000)
        return True

    def _qrels_target(self, path: Path) -> Path | None:
        """Where the judgments are saved along with the lists at `path`, if anywhere: the loaded
        TREC qrels on Save (when a judgment changed), else a new file beside `path`. Never a file
        the person did not choose, nor a qrels in another format (it would lose its columns)."""
        doc = self.document
        if not doc.dataset.has_pool:
            return None
        if path == doc.path and doc.qrels_path is not None:
            if not doc.judgments_edited():
                return None
            if _is_trec_qrels(doc.qrels_path):
                return doc.qrels_path
        candidate, n = path.with_suffix(".qrels"), 1
        while candidate == path or candidate.exists():
            n += 1
            candidate = path.with_name(f"{path.stem}-judgments{'' if n == 2 else f'-{n - 1}'}.qrels")
        return candidate

    # ---- exports ---------------------------------------------------------------------------------
    def export_metrics(self, path: str | Path) -> bool:
        from ndcg_gui.core import writers

        try:
            writers.write_metrics_csv(self.document.current_list(), path, self.document.config)
        except (InputError, OSError) as err:
            dialogs.show_error(self.window, "Could not export the metrics", str(err))
            return False
        self.window.statusBar().showMessage(f"Exported metrics to {Path(path).name}", 5000)
        return True

    def export_metrics_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self.window, "Export the metrics table",
                                              self._suggest("-metrics.csv"), "CSV (*.csv)")
        if path:
            self.export_metrics(path)

    def export_plot(self, path: str | Path) -> bool:
        try:
            if Path(path).suffix.lower() == ".svg":
                export_svg(self.window.plot, path)
            else:
                export_png(self.window.plot, path)
        except (OSError, ValueError) as err:
            dialogs.show_error(self.window, "Could not export the plot", f"{Path(path).name}: {err}")
            return False
        self.window.statusBar().showMessage(f"Exported the plot to {Path(path).name}", 5000)
        return True

    def export_plot_dialog(self, kind: str) -> None:
        path, _ = QFileDialog.getSaveFileName(self.window, "Export the plot", self._suggest(f"-ndcg.{kind}"),
                                              f"{kind.upper()} (*.{kind})")
        if path:
            if not path.lower().endswith(f".{kind}"):
                path += f".{kind}"
            self.export_plot(path)

    # ---- recent files ----------------------------------------------------------------------------
    def _read_recent(self) -> list[str]:
        value = self.window.settings.value("recent/files", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in value or []][:RECENT_MAX]

    def save_recent(self) -> None:
        self.window.settings.setValue("recent/files", self.recent)

    def add_recent(self, path: str | Path, qrels: str | Path | None = None) -> None:
        entry = str(Path(path).resolve()) + (f"\n{Path(qrels).resolve()}" if qrels else "")
        self.recent = [entry, *[r for r in self.recent if r != entry][:RECENT_MAX - 1]]
        self.save_recent()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for entry in self.recent:
            run, _, qrels = entry.partition("\n")
            text = Path(run).name + (f" + {Path(qrels).name}" if qrels else "")
            action = self.recent_menu.addAction(text)
            action.setToolTip(entry.replace("\n", " + "))
            action.triggered.connect(lambda _c=False, r=run, q=qrels or None: self.open_path(r, q))
        if not self.recent:
            self.recent_menu.addAction("(none)").setEnabled(False)

    # ---- helpers ----------------------------------------------------------------------------------
    def _start_dir(self) -> str:
        if self.document.path:
            return str(self.document.path.parent)
        if self.recent:
            return str(Path(self.recent[0].partition("\n")[0]).parent)
        return str(Path.home())

    def _suggest(self, tail: str) -> str:
        stem = self.document.path.stem if self.document.path else "ndcg"
        return str(Path(self._start_dir()) / f"{stem}{tail}")

