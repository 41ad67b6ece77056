"""Exports of what the window shows: the per-rank table as CSV, the plot as PNG or SVG, one row per
query as CSV, and a report to share (HTML: the run's, or the comparison's while runs are
compared). The files are the core's writers' (or the plot's exporter's); this module chooses
names (file, query and k, as `run-q401-k10-ndcg.png`), refuses an export over a file the window
read, and reports."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog

from ndcg_gui.core.errors import InputError
from ndcg_gui.qt.document.comparison import RunComparison
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.widgets import dialogs
from ndcg_gui.qt.widgets.plot.curve_plot import CurvePlot
from ndcg_gui.qt.widgets.plot.plot_export import export_png, export_svg
from ndcg_gui.qt.window.feedback import Feedback

Status = Callable[[str, int], None]
# Suffixes that say only what kind of file it is; a TREC run's "input.MU03rob01" keeps its whole name.
PLAIN_SUFFIXES = {".csv", ".tsv", ".txt", ".run", ".trec", ".qrels", ".json", ".jsonl", ".res", ".gz"}


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._+-]+", "-", text).strip("-.")


def file_part(name: str) -> str:
    """The part of a file name that says which run it is."""
    path = Path(name)
    while path.suffix.lower() in PLAIN_SUFFIXES:
        path = path.with_suffix("")
    return _slug(path.name) or "ndcg"


def default_name(document: Document, tail: str, query: bool = True, k: bool = True) -> str:
    """`run-q401-k10` + tail: the file shown, the query (when the file has named queries) and k."""
    parts = [file_part(document.path.name if document.path else document.display_name.lower())]
    q = _slug(document.current_query)
    if query and q:
        parts.append(q if q[:1] in "qQ" else f"q{q}")
    if k:
        parts.append(f"k{document.k}")
    return "-".join(parts) + tail


class Exports(QObject):
    def __init__(self, document: Document, plot: CurvePlot, feedback: Feedback,
                 comparison: RunComparison | None = None) -> None:
        super().__init__(feedback.parent)
        self.document, self.plot, self.comparison = document, plot, comparison
        self._parent, self._status = feedback.parent, feedback.status

    def _ask(self, title: str, name: str, kind: str) -> str | None:
        doc = self.document
        folder = doc.path.parent if doc.path else Path.home()
        path, _ = QFileDialog.getSaveFileName(self._parent, title, str(folder / name),
                                              f"{kind.upper()} (*.{kind})")
        if path and not path.lower().endswith(f".{kind}"):
            path += f".{kind}"
        return path or None

    def inputs(self) -> list[Path | None]:
        """The files the window holds as read: the open run, its qrels and every run compared
        (an export over one of them is refused: `core.writing.atomic.refuse_inputs`)."""
        doc = self.document
        return [doc.path, doc.qrels_path, *(run.path for run in doc.state.comparing.runs)]

    def _report(self, what: str, path: str | Path, run: Callable[[], object]) -> bool:
        from ndcg_gui.core.writing.atomic import refuse_inputs

        try:
            refuse_inputs(path, self.inputs())
            run()
        except (InputError, OSError, ValueError) as err:
            said = str(err) if isinstance(err, InputError) else f"{Path(path).name}: {err}"  # (named already)
            dialogs.show_error(self._parent, f"Could not export {what}", said)
            return False
        self._status(f"Exported {what} to {Path(path).name}", 5000)
        return True

    def export_metrics(self, path: str | Path) -> bool:
        """The per-rank table of the list shown, with the query and the definition on every row
        (a file read later, or several joined, still says what it measured)."""
        from ndcg_gui.core.writing import writers

        doc = self.document

        return self._report("the metrics", path, lambda: writers.write_metrics_csv(
            doc.current_list(), path, doc.measure.at(None)))

    def export_metrics_dialog(self) -> None:
        if path := self._ask("Export the metrics table", default_name(self.document, "-metrics.csv", k=False),
                             "csv"):
            self.export_metrics(path)

    def export_plot(self, path: str | Path) -> bool:
        svg = Path(path).suffix.lower() == ".svg"
        return self._report("the plot", path, lambda: (export_svg if svg else export_png)(self.plot, path))

    def export_plot_dialog(self, kind: str) -> None:
        if path := self._ask("Export the plot", default_name(self.document, f"-ndcg.{kind}"), kind):
            self.export_plot(path)

    def export_summary(self, path: str | Path) -> bool:
        """One row per query (edits included), the same figures as the panel and `--summary-csv`."""
        from ndcg_gui.core.writing import writers

        doc = self.document
        return self._report("the per-query summary", path, lambda: writers.write_summary_csv(
            doc.lists_for_saving(), path, doc.measure))

    def export_summary_dialog(self) -> None:
        if path := self._ask("Export the per-query summary",
                             default_name(self.document, "-summary.csv", query=False), "csv"):
            self.export_summary(path)

    def export_report(self, path: str | Path) -> bool:
        """One self-contained HTML page (`core.reports`) of what the window holds, edits included:
        the comparison's while runs are compared, else the run's."""
        return self._report("the report", path, lambda: self._write_report(path))

    def _write_report(self, path: str | Path) -> None:
        from ndcg_gui.core.reports.provenance import file_hashes
        from ndcg_gui.core.reports.run_report import Sources, run_report
        from ndcg_gui.core.writing.writers import atomic_write

        doc, runs = self.document, self.comparison
        cmp = runs.comparison if runs is not None and runs.active else None
        if cmp is not None and runs.waiting:  # (its figures are of the definition before)
            if runs.failed:
                raise InputError("the runs compared could not be scored again under the definition in use "
                                 "(said when it failed): change k or the definition to try again")
            raise InputError("the runs compared are being scored again under the definition in use: "
                             "export the report once their figures are in")
        files = [doc.path, *(runs.path_of(n) for n in runs.added)] if cmp is not None else [doc.path]
        edited = doc.edited_queries()
        note = (f"{len(edited)} {'query' if len(edited) == 1 else 'queries'} edited in the window since the "
                "file was read: the figures are of the lists as edited") if edited else ""
        segments = doc.state.segments  # (their table too, of what was read)
        sources = Sources(file_hashes([*files, doc.qrels_path]), note)
        if cmp is not None:
            from ndcg_gui.core.analysis.runs.segment_compare import compare_segments
            from ndcg_gui.core.reports.compare_report import compare_report

            # (weighted as the comparison is, by the document's weights: `ndcg-inspect`'s by_segment)
            by_segment = None if segments is None else compare_segments(
                cmp.per_query, cmp.baseline, segments.values, weights=cmp.weights, samples=cmp.samples,
                seed=cmp.seed, confidence=cmp.confidence)
            html = compare_report(runs.list_for, cmp, sources, segments=by_segment, notes=doc.state.notes)
        else:
            from ndcg_gui.core.analysis.own_columns import OwnColumns
            from ndcg_gui.core.reports.notebook import segment_figures

            dataset = doc.lists_for_saving()
            # (as `ndcg-inspect --report` and a notebook's report make them, under the page's mean policy)
            means = segment_figures(dataset, doc.measure, OwnColumns(segments, doc.state.weights))
            html = run_report(dataset, doc.measure, doc.display_name, sources=sources, segments=means,
                              notes=doc.state.notes)
        atomic_write(path, lambda f: f.write(html))

    def export_report_dialog(self) -> None:
        if path := self._ask("Export a report to share", default_name(self.document, "-report.html",
                                                                       query=False), "html"):
            self.export_report(path)
