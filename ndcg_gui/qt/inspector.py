"""`ndcg_gui.inspect(run, qrels)`: the window opened on objects already in memory (a DataFrame, a dict
of dicts, ranx or ir_measures objects: `core.reports.inputs`), and a handle whose `run`, `qrels`
and `summary` follow the window, edits included.

From a script it blocks until the window is closed; from IPython or Jupyter it returns at once,
Qt's events run by the kernel's own loop integration (what `%gui qt` turns on). A frame's own
`segment` and `weight` columns are read as a file's are when the window opens it. A window cannot
open without a display: there, `ndcg_gui.report` shows the report inline instead.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from ndcg_gui.core.lists.dataset import Dataset
    from ndcg_gui.core.ndcg.measure import Measure
    from ndcg_gui.qt.window.main_window import MainWindow


class Inspection:
    """The window opened by `inspect`, and what it holds now."""

    def __init__(self, window: MainWindow, settings_file: Path) -> None:
        self.window = window
        self._settings_file = settings_file

    @property
    def dataset(self) -> Dataset:
        """The lists as the window holds them (edits included) and their judgments."""
        return self.window.document.lists_for_saving()

    @property
    def run(self) -> pd.DataFrame:
        """Every query's list as it stands in the window: query, doc, grade (NaN: unjudged), score,
        in ranked order."""
        frame = self.dataset.run
        return frame[[c for c in frame.columns if not c.startswith("_")]].reset_index(drop=True)

    @property
    def qrels(self) -> pd.DataFrame | None:
        """The judgments (query, doc, grade) as the window holds them (a grade typed in it included)."""
        qrels = self.dataset.qrels
        if qrels is None:
            return None
        return qrels[[c for c in qrels.columns if not c.startswith("_")]].reset_index(drop=True)

    @property
    def summary(self) -> pd.DataFrame:
        """One row per query (query, n_docs, n_judged, dcg, idcg, ndcg at k), as the window scores it."""
        doc = self.window.document
        return self.dataset.summary(doc.measure)

    def close(self) -> None:
        self.window.close()

    def __repr__(self) -> str:
        doc = self.window.document
        return f"<Inspection: {doc.display_name}, {len(doc.queries())} queries, k = {doc.k}>"


def _has_display() -> bool:
    if os.environ.get("QT_QPA_PLATFORM") or sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _ipython():
    """The running IPython shell or kernel, if any."""
    module = sys.modules.get("IPython")
    return module.get_ipython() if module is not None and hasattr(module, "get_ipython") else None


def inspect(run: Any, qrels: Any = None, *, k: int | None = None, preset: str | None = None,
            measure: Measure | None = None, name: str = "run",
            runs_to_compare: Mapping[str, Any] | None = None, block: bool | None = None) -> Inspection:
    """Open the window on `run` (and its `qrels`), with `runs_to_compare` (name -> run) compared;
    under `preset` (default: the window's) at `k`, or `measure` instead of both.
    `block`: wait until the window is closed (default: yes from a script, no under IPython)."""
    if not _has_display():
        raise RuntimeError("no display to open a window on: ndcg_gui.report(run, qrels) shows the "
                           "report inline instead")
    from ndcg_gui.core.ndcg.measure import check_k
    from ndcg_gui.core.reports.notebook import chosen_measure, compared, own_maps, read_run

    # Read everything before a window exists, as `report` reads it: bad input is an error here,
    # not an empty window.
    chosen = chosen_measure(measure, k, preset) if measure is not None or preset is not None else None
    k = check_k(k)
    dataset, _ = read_run(run, qrels, name)
    own = own_maps(dataset)  # (its segment and weight columns, as the window's loader reads a file's)
    others = {other: read_run(obj, qrels, other)[0] for other, obj in compared(runs_to_compare).items()}

    from PySide6.QtCore import QSettings

    from ndcg_gui.qt.app import make_application
    from ndcg_gui.qt.window.main_window import MainWindow

    app = make_application()
    # A settings file of its own: the person's saved window and definition are left as they were.
    settings_file = Path(tempfile.gettempdir()) / f"ndcg-inspect-{os.getpid()}-{time.time_ns()}.ini"
    window = MainWindow(settings=QSettings(str(settings_file), QSettings.IniFormat))
    # The edits come back through the handle, so closing the window never asks to save them.
    window.files.maybe_discard = lambda _what: True
    if chosen is not None:
        window.document.set_measure(chosen, undoable=False)
        window.document.set_mean(chosen.empty, chosen.undefined)  # (the document opened next keeps it)
    elif k is not None:
        window.document.set_measure(k=k, undoable=False)
    window.document.set_dataset(dataset, path=None, name=name, own=own)
    for other, data in others.items():
        window.comparison.add_run(data, name=other)
    window.show()
    window.raise_()
    handle = Inspection(window, settings_file)
    shell = _ipython()
    if block is None:
        block = shell is None
    if block:
        app.exec()
        settings_file.unlink(missing_ok=True)
    elif shell is not None:
        shell.enable_gui("qt")  # the kernel runs Qt's events between cells (%gui qt)
    return handle
