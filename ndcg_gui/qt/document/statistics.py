"""The run comparison's statistics (`core.analysis.runs.compare.Comparison`), kept up to date with the
edits of the open run without freezing a frame: the NDCG an edit changed waits in `pending`, and
once edits pause (`STATS_DELAY_MS`) the statistics are worked out again on the document's `Runner`
(thousands of sign flips and resamples over many queries are several frames; numpy does most with the
GIL released). A burst of edits (a held Ctrl+Down) pays for them once; reading `current` (or
`flush`) always gives them up to date, at once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from ndcg_gui.core.analysis import workspace_report as report
from ndcg_gui.qt.document.runner import Runner

if TYPE_CHECKING:
    from ndcg_gui.core.analysis.runs.compare import Comparison

STATS_DELAY_MS = 60


class Statistics(QObject):
    """`landed()` is called when statistics worked out in the background replace the shown ones."""

    def __init__(self, runner: Runner, landed: Callable[[], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner, self._landed = runner, landed
        self.cmp: Comparison | None = None  # the statistics as last worked out
        self.pending: dict[str, dict[str, float]] = {}  # run -> query -> NDCG not in `cmp` yet
        self._timer = QTimer(self, singleShot=True, interval=STATS_DELAY_MS)
        self._timer.timeout.connect(self._work_out)
        # Counts of `cmp` replaced from outside the thread (a thread's result on an older one is
        # dropped) and of edits added to `pending` (a thread's result that misses some is shown,
        # and the rest worked out after it).
        self._base, self._edits = 0, 0
        self._working = False  # the thread is busy (one at a time)

    def reset(self, cmp: Comparison | None) -> None:
        """Statistics worked out anew (or none): what was pending or under way is void."""
        self.cmp, self.pending = cmp, {}
        self._base += 1
        self._timer.stop()

    def add(self, run: str, query: str, ndcg: float) -> None:
        """An edit gave `run` this NDCG on `query` (a compared one)."""
        self.pending.setdefault(run, {})[query] = ndcg
        self._edits += 1

    def edited(self) -> None:
        """Work the statistics out once edits pause."""
        if self.pending:
            self._timer.start()

    @property
    def current(self) -> Comparison | None:
        """The statistics up to date with every edit, worked out now if an edit left them behind."""
        if self.pending and self.cmp is not None:
            self.cmp = report.with_scores(self.cmp, self.pending)
            self._base += 1
        self.pending = {}
        return self.cmp

    def flush(self) -> bool:
        """Bring the statistics up to date now; True if an edit had left them behind."""
        self._timer.stop()
        behind = bool(self.pending)
        self.current  # noqa: B018  (reading it applies the pending scores)
        return behind

    @property
    def working(self) -> bool:
        """Whether the statistics of the last edits are being worked out in the background."""
        return self._working

    def _work_out(self) -> None:
        if self._working or not self.pending or self.cmp is None:
            return  # (a thread under way starts the next one when it lands)
        self._working = True
        pending = {run: dict(values) for run, values in self.pending.items()}
        work = functools.partial(report.with_scores, self.cmp, pending)
        done = functools.partial(self._install, (self._base, self._edits))
        self._runner.run("comparison statistics", work, done)

    def _install(self, tickets: tuple[int, int], result: Comparison | None,
                 error: BaseException | None) -> None:
        self._working = False
        if error is not None:
            return  # (the runner raises it; `pending` is kept: reading `current` tries again)
        base, edits = tickets
        if base == self._base:
            # The statistics of the lists as they were when the thread started. Edits made since
            # stay pending (re-applying the ones it covered changes nothing: `with_scores` sets
            # values), so a steady stream of edits still shows figures, a moment behind.
            self.cmp = result
            if edits == self._edits:
                self.pending = {}
            self._landed()
        if self.pending and not self._timer.isActive():
            self._work_out()  # edits made while it worked, which have paused since
