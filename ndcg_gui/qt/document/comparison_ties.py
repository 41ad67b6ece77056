"""Each compared run's verdict under its worst and best order of tied documents
(`core.analysis.runs.tie_verdicts`), for the window's comparison lines: worked out in the document's
`Runner` whenever the comparison's statistics change (runs, definition, baseline, edits once
their statistics land), and announced in the document's notice (`ComparisonChanges.ties`). Until it lands
`verdicts` is empty (no line speaks of ties rather than speak of figures that were); a result
overtaken by a newer change is dropped, and the newest worked out after it (one at a time)."""

from __future__ import annotations

import functools
import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, QTimer

from ndcg_gui.qt.document.changes import Changes, ComparisonChanges
from ndcg_gui.qt.document.comparison import RunComparison
from ndcg_gui.qt.document.document import Document

if TYPE_CHECKING:
    from ndcg_gui.core.analysis.runs.compare import Comparison
    from ndcg_gui.core.analysis.runs.tie_verdicts import TieVerdict
    from ndcg_gui.core.state.workspace import Workspace


def _work(cmp: Comparison, state: Workspace, open_name: str) -> dict[str, TieVerdict]:
    """The verdicts of `cmp`: the open run's lists as shown (edits in), the runs added as loaded."""
    from ndcg_gui.core.analysis.runs.tie_verdicts import tie_verdicts

    edited = state.edited_queries()
    data = state.dataset.with_lists({q: state.list_for(q) for q in edited}) if edited else state.dataset
    runs = {open_name: data, **{r.name: r.dataset for r in state.comparing.runs}}
    if not all(ds.in_memory for ds in runs.values()):
        return {}  # (every list of every run, in memory: not of a run read where it lies)
    return tie_verdicts(cmp, runs, data.qrels)


PAUSE_MS = 400  # edits this far apart are one burst


class ComparisonTies(QObject):
    def __init__(self, document: Document, comparison: RunComparison, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document, self.comparison = document, comparison
        self.verdicts: dict[str, TieVerdict] = {}
        self._ticket = 0
        self._cmp: Comparison | None = None  # the statistics the verdicts are to be of
        self._wanted = False  # the figures as they are now are to be worked out
        self._working = False
        # Worked out once edits pause: started after every edit, the work slowed
        # each move of a list with a run compared (benchmarks/bench_compare_window.py).
        self._pause = QTimer(self)
        self._pause.setSingleShot(True)
        self._pause.setInterval(PAUSE_MS)
        self._pause.timeout.connect(self._start)
        document.work_out_with(self._follow)  # (after the comparison: it reads its figures)

    @property
    def pending(self) -> bool:
        return self._wanted or self._working

    def _follow(self, changes: Changes) -> Changes | None:
        c = changes.comparison
        if c is None or not (c.runs or c.summary):  # (when the views read the statistics)
            return None
        self._ticket += 1
        told = bool(self.verdicts)
        self.verdicts = {}
        # Read now, as the views read it in this notice: read later, it would take in an edit's
        # pending scores without the comparison announcing them (`RunComparison.comparison`).
        # Statistics an edit left behind are not worked out here (that is the pause's work, and it
        # slowed each move): their flush announces `summary` again.
        stats = self.comparison.statistics
        self._cmp = stats.cmp if self.comparison.active and not stats.pending else None
        self._wanted = self._cmp is not None
        if self._wanted and not self._working:
            self._pause.start()  # (restarted by each change until they pause)
        return Changes(comparison=ComparisonChanges(ties=True)) if told else None

    def _start(self) -> None:
        if not self._wanted or self._cmp is None:
            self._working = False
            return
        self._wanted, self._working = False, True
        work = functools.partial(_work, self._cmp, self.document.state, self.comparison.doc_name)
        self.document.runner.run("comparison ties", work, functools.partial(self._landed, self._ticket))

    def _landed(self, ticket: int, verdicts: dict[str, TieVerdict] | None,
                error: BaseException | None) -> None:
        self._working = False
        if ticket != self._ticket:  # overtaken: the figures as they are now
            if self._wanted:
                self._working = True
                self._start()
            return
        if error is None and verdicts is not None:
            self.verdicts = verdicts
            self.document.announce(Changes(comparison=ComparisonChanges(ties=True)))

    def wait(self, timeout: float = 60.0) -> bool:
        """Process events until no verdict is being worked out (tests). True when none is."""
        deadline = time.monotonic() + timeout
        while self.pending and time.monotonic() < deadline:
            QCoreApplication.processEvents()
            time.sleep(0.001)
        return not self.pending
