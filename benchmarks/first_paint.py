"""Run a Qt program and say when its window is first painted: prints `first-paint` and ends the
process at once (no teardown is timed). Used by bench_startup.py for both programs it compares, so
both are measured by the same instrument, and any commit of ndcg-gui can be timed.

    python benchmarks/first_paint.py -m ndcg_gui [args]
    python benchmarks/first_paint.py benchmarks/bare_window.py

It wraps `QApplication.exec`: when the program starts its event loop, an event filter waits for
the first Paint event; the report comes once the loop is back (a window's whole paint, children
and flush, happens within one event). The filter is installed only then, so it costs nothing
while the program builds its window.
"""

from __future__ import annotations

import os
import runpy
import sys

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication


class FirstPaint(QObject):
    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            QApplication.instance().removeEventFilter(self)
            QTimer.singleShot(0, report)
        return False


def report() -> None:
    sys.stdout.write("first-paint\n")
    sys.stdout.flush()
    os._exit(0)


_exec = QApplication.exec
_probe = FirstPaint()


def exec_watched() -> int:
    QApplication.instance().installEventFilter(_probe)
    return _exec()


def main() -> None:
    QApplication.exec = staticmethod(exec_watched)  # (as PySide6's: app.exec() passes no self)
    if sys.argv[1] == "-m":
        sys.argv = [sys.argv[2], *sys.argv[3:]]
        runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
    else:
        sys.argv = sys.argv[1:]
        runpy.run_path(sys.argv[0], run_name="__main__")


if __name__ == "__main__":
    main()
