"""What a test that needs a real X display (Xvfb) carries: `make test` runs them as
`QT_QPA_PLATFORM=xcb xvfb-run -a pytest -m xvfb`; offscreen Qt cannot run a drag loop or real
mouse moves. A window manager runs on that display (`start_window_manager`, started for the whole
session by conftest.py): Xvfb alone has no title bar, no frame and no focus handling, so a window
that fits the screen there can still put its status bar below the edge of a real desktop."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from PySide6.QtCore import QPoint, Qt, QThread, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

NEEDS_X = pytest.mark.skipif(os.environ.get("QT_QPA_PLATFORM", "") != "xcb",
                             reason="needs a real X display: QT_QPA_PLATFORM=xcb xvfb-run -a pytest -m xvfb")
XVFB = [pytest.mark.xvfb, NEEDS_X]
READY = "window manager ready"


def on_xcb(env) -> bool:
    return env.get("QT_QPA_PLATFORM", "").split(":")[0] == "xcb"


def own_display() -> subprocess.Popen | None:
    """Under pytest-xdist, an X server of this worker's own (DISPLAY set to it), started before Qt
    connects: the workers' windows on one display took the keyboard focus from each other as each
    was shown and activated (openbox gives a new window the focus; a second window manager cannot
    start on a display that has one), so a key pressed in one worker found no focus widget, a menu
    opened in the other window. None outside xdist, offscreen, or without Xvfb."""
    if not os.environ.get("PYTEST_XDIST_WORKER") or not on_xcb(os.environ):
        return None
    if shutil.which("Xvfb") is None or not os.environ.get("DISPLAY"):
        return None
    screen = os.environ.get("NDCG_XVFB_SCREEN", "1600x1000x24")  # (the Makefile's xvfb-run screen)
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", screen, "-nolisten", "tcp"],
                              pass_fds=(write,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as said:  # (Xvfb writes its display number once it accepts connections)
        number = said.readline().strip()
    if not number:
        server.wait()
        return None
    os.environ["DISPLAY"] = f":{number}"
    return server


def stop_display(server: subprocess.Popen | None) -> None:
    if server is not None:
        server.terminate()
        server.wait(timeout=30)


def start_window_manager(env: dict[str, str] | None = None) -> subprocess.Popen | None:
    """openbox on the X display of `env` (os.environ by default), returned once it manages windows
    (it runs its --startup command then, whose line is waited for); None without an X display or
    openbox, or when another window manager holds the display already."""
    env = dict(os.environ if env is None else env)
    if not on_xcb(env) or not env.get("DISPLAY"):
        return None
    if shutil.which("openbox") is None:
        return None
    manager = subprocess.Popen(["openbox", "--sm-disable", "--startup", f"echo {READY}"], env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True)
    for line in manager.stdout:  # (ends when openbox exits: another manager was there)
        if line.strip() == READY:
            return manager
    manager.wait()
    return None


def stop_window_manager(manager: subprocess.Popen | None) -> None:
    if manager is not None:
        manager.terminate()
        manager.wait(timeout=30)
        manager.stdout.close()


def shown(window, qtbot, size: tuple[int, int] = (1280, 800)) -> None:
    """Shown at the screen's top left and active: the window manager has framed and placed it by
    then (exposed alone, it may still move it, and a drag computed before lands elsewhere), and
    keys reach the active window only."""
    window.resize(*size)
    window.move(0, 0)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)


def in_window(window, widget, point: QPoint) -> QPoint:
    return widget.mapTo(window, point)


def drag(window, qtbot, source, start: QPoint, target_widget, target: QPoint, done) -> None:
    """Press on `source` at `start`, move past the drag distance (Qt's drag loop starts and blocks),
    then, inside the loop, move over `target_widget` to `target` in steps and let go."""
    a, b = in_window(window, source, start), in_window(window, target_widget, target)

    def finish() -> None:
        for step in range(1, 9):
            QTest.mouseMove(window, a + (b - a) * step / 8)
            QApplication.processEvents()
        QTest.mouseMove(target_widget, target)
        QApplication.processEvents()
        QTest.mouseRelease(target_widget, Qt.LeftButton, Qt.KeyboardModifier.NoModifier, target)

    # The moves and the release go once Qt's drag loop runs (an event loop nested in the test's),
    # not after a guessed delay: under load a delay could pass before the drag had started, and the
    # release then came first (the drag never ended).
    outside = QThread.currentThread().loopLevel()
    watch = QTimer(interval=10)

    def in_drag_loop() -> None:
        if QThread.currentThread().loopLevel() > outside:
            watch.stop()
            finish()

    watch.timeout.connect(in_drag_loop)
    QTest.mousePress(source, Qt.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    watch.start()
    distance = QApplication.startDragDistance() + 5
    QTest.mouseMove(source, start + QPoint(distance, 0))  # the drag starts (returns after the drop)
    watch.stop()
    qtbot.waitUntil(done, timeout=5000)
