"""The input checks of the open document (`core.analysis.checks`), kept in step with it for the
Checks panel: worked out when a file is opened (the file as written, read again) and when k
changes (ties across the cut-off depend on it); edits made here do not change them (they are
the input's). What changes goes out in the document's notice (`Changes.checks`).

A big file (from `BACKGROUND_ROWS` rows) is read again and checked in a worker process (the
document's `Runner`), at a lower priority: keying millions of ids holds the GIL, which a thread
would take from the window (and from a run being added) for seconds, and on two cores the file
being read or the run being added should get them first. A big list that does not read as written (a
pipe) is checked as loaded, in a thread. Until the findings land `pending` is True and `findings`
those of before (None when they were another file's). A result overtaken by another open or k
is dropped.
"""

from __future__ import annotations

import functools
import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject

from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document

if TYPE_CHECKING:
    import pandas as pd

    from ndcg_gui.core.analysis.checks import Finding

# From this many rows (run + qrels) the file is read again and checked in the background: the
# checks' time grows with the rows, reading it again about as much: past this, more than a frame.
BACKGROUND_ROWS = 20_000

Frames = tuple["pd.DataFrame", "pd.DataFrame | None", bool]


def _work(dataset, path, qrels_path, k: int, frames: Frames | None) -> tuple[Frames, list[Finding], bool]:
    """The rows to check (read once a file), the findings at `k`, and whether the rows are the
    file as written."""
    from ndcg_gui.core.analysis.checks import check, input_frames

    if frames is None:
        frames = input_frames(dataset, path, qrels_path)
    return frames, check(frames[0], frames[1], k), frames[2]


class InputChecks(QObject):
    def __init__(self, document: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.findings: list[Finding] | None = None
        self.as_written = False  # the findings are of the file as written (else: as loaded)
        self.pending = False
        self.k: int | None = None  # the cut-off of `findings`
        self._frames: Frames | None = None  # the open document's rows to check, once read
        self._of: object | None = None  # the dataset `_frames` are of
        self._ticket = 0
        self._wanted_k: int | None = None  # the cut-off of the last check started
        # Lists that come from no file (the example the window starts with, a typed list) are
        # checked once the Checks panel has been shown (`ensure`): checking them at start-up would
        # import pandas before the first paint.
        self._wanted = False
        document.work_out_with(self._follow)

    def ensure(self) -> None:
        """Check the document as it is now, if nothing has checked it yet."""
        self._wanted = True
        if self.findings is None and not self.pending:
            changes = self._follow(Changes(dataset=True))
            if changes is not None:
                self.document.announce(changes)

    def _follow(self, _changes: Changes) -> Changes | None:
        doc = self.document
        if doc.path is None and not self._wanted:
            if doc.dataset is not self._of:
                self._frames, self._of, self.findings = None, None, None
            return None
        if not doc.dataset.in_memory:  # read where it lies: its rows are not read again
            if doc.dataset is self._of:  # (said once per file, not with every edit's notice)
                return None
            self._frames, self._of, self.findings, self.pending = None, doc.dataset, None, False
            return Changes(checks=True)
        if doc.dataset is not self._of:  # another file (or an open undone)
            self._frames, self._of, self.findings = None, doc.dataset, None
        elif doc.k == self._wanted_k:  # (checked, or being checked, at this k already)
            return None
        self._ticket += 1
        self._wanted_k = doc.k
        work = functools.partial(_work, doc.dataset, doc.path, doc.qrels_path, doc.k, self._frames)
        if doc.state.size() < BACKGROUND_ROWS:
            self._install(self._ticket, work(), None)
            return Changes(checks=True)
        self.pending = True
        if doc.path is not None and self._frames is None:
            from ndcg_gui.core.analysis.checks import file_findings  # lazy: start-up

            call = functools.partial(file_findings, doc.path, doc.qrels_path, doc.k)
            landed = functools.partial(self._landed_file, self._ticket, work)
            doc.runner.run_in_process("input checks", call, landed, below_gui=True)
        else:
            doc.runner.run("input checks", work, functools.partial(self._landed, self._ticket))
        return Changes(checks=True)

    def _install(self, ticket: int, result: tuple[Frames | None, list[Finding], bool] | None,
                 error: BaseException | None) -> bool:
        if ticket != self._ticket:  # overtaken by another open or k
            return False
        self.pending = False
        if error is None and result is not None:
            self._frames, self.findings, self.as_written = result
            self.k = self._wanted_k
        return True

    def _landed(self, ticket: int, result, error: BaseException | None) -> None:
        """A background check landed (the runner raises an error after this)."""
        if self._install(ticket, result, error):
            self.document.announce(Changes(checks=True))

    def _landed_file(self, ticket: int, work, findings: list[Finding] | None,
                     error: BaseException | None) -> None:
        """The worker process's findings of the file as written; None: it does not read so, and
        the lists as loaded are checked instead."""
        if findings is None and error is None and ticket == self._ticket:
            self.document.runner.run("input checks", work, functools.partial(self._landed, ticket))
            return
        self._landed(ticket, None if findings is None else (None, findings, True), error)

    def wait(self, timeout: float = 60.0) -> bool:
        """Process events until no check is pending (tests). True when none is."""
        deadline = time.monotonic() + timeout
        while self.pending and time.monotonic() < deadline:
            QCoreApplication.processEvents()
            time.sleep(0.001)
        return not self.pending
