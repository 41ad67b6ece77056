"""Work kept off the GUI thread, done one way (the shape of Anki's `QueryOp`): a snapshot of
immutable state goes to a worker thread, and what it made comes back on the GUI thread through
one queued signal, to the callback that asked for it. A failure comes back the same way and is
raised there, where the application's one safety net reports it; the callback decides whether a
result is still current (a ticket it kept), never the worker.

numpy and Arrow release the GIL for most of what is done here (scoring every query, the
comparison's statistics), so the window keeps painting meanwhile.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

Done = Callable[[Any, BaseException | None], None]  # (result, error): one of them is None


class Runner(QObject):
    _landed = Signal(object, object, object)  # (done, result, error), queued to the GUI thread

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._landed.connect(self._deliver)

    def run(self, name: str, work: Callable[[], Any], done: Done) -> None:
        """`work()` in a thread named `name`; then `done(result, None)`, or `done(None, error)`
        and the error raised, on the GUI thread."""
        threading.Thread(target=self._work, args=(work, done), name=name, daemon=True).start()

    def _work(self, work: Callable[[], Any], done: Done) -> None:
        result, error = None, None
        try:
            result = work()
        except Exception as err:  # a bug: raised again on the GUI thread, where it is reported
            error = err
        with contextlib.suppress(RuntimeError):  # the runner was deleted meanwhile (window closed)
            self._landed.emit(done, result, error)

    @staticmethod
    def _deliver(done: Done, result: Any, error: BaseException | None) -> None:
        done(result, error)
        if error is not None:
            raise error
