"""Issue 35: the first window opened at 1280x800 on any screen, a third of a 1920x1080 one left
empty. Now a share of the screen's free area, at least 1280x800 where that fits, capped on a very
large screen, centred; a saved geometry is restored as it was."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from real_display import NEEDS_X

from ndcg_gui.qt.window.layout import LARGEST_SIZE, USUAL_SIZE, first_geometry

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
# Free areas as desktops leave them: a panel at the top or bottom, or none.
AREAS = [QRect(0, 0, 1024, 700), QRect(0, 27, 1366, 741), QRect(0, 0, 1920, 1040),
         QRect(0, 32, 1920, 1048), QRect(0, 0, 2560, 1400), QRect(1920, 0, 3840, 2120)]


def centred(inner: QRect, outer: QRect, slack: int = 1) -> bool:
    left, right = inner.left() - outer.left(), outer.right() - inner.right()
    top, bottom = inner.top() - outer.top(), outer.bottom() - inner.bottom()
    return abs(left - right) <= slack and abs(top - bottom) <= slack


@pytest.mark.parametrize("area", AREAS, ids=lambda a: f"{a.width()}x{a.height()}+{a.x()}+{a.y()}")
def test_the_first_window_uses_a_large_screen_within_its_area_and_centred(area):
    place = first_geometry(area)
    assert area.contains(place) and centred(place, area)
    sides = ((place.width(), area.width(), USUAL_SIZE.width(), LARGEST_SIZE.width()),
             (place.height(), area.height(), USUAL_SIZE.height(), LARGEST_SIZE.height()))
    for size, free, usual, largest in sides:
        assert size <= largest
        if free <= usual:  # a laptop's screen: all of it (it was 1280x800 fitted to it before too)
            assert size == free
        elif free * 0.8 <= largest:  # a desktop's: most of it, with a margin around
            assert free * 0.8 <= size < free
        else:  # a wall-sized one: the cap
            assert size == largest


def test_1920x1080_opens_larger_than_the_old_1280x800():
    place = first_geometry(QRect(0, 0, 1920, 1040))
    assert place.width() * place.height() >= 1.5 * 1280 * 800


def probe(tmp_path, screen: str) -> dict:
    env = {**os.environ, "QT_QPA_PLATFORM": "xcb", "PYTHONPATH": str(ROOT), "XDG_CONFIG_HOME": str(tmp_path),
           "NDCG_RECOVERY_DIR": str(tmp_path / "r")}
    env.pop("DISPLAY", None)
    env.pop("QT_SCALE_FACTOR", None)
    command = ["xvfb-run", "-a", "-s", f"-screen 0 {screen}x24", sys.executable,
               str(HERE / "first_window_probe.py"), str(tmp_path)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("screen", ["1366x768", "1920x1080", "2560x1440"])
@pytest.mark.xvfb
@NEEDS_X
def test_a_real_first_window_is_centred_frame_and_all_and_its_saved_geometry_comes_back(tmp_path, screen):
    """Under openbox (its title bar is the frame's): the first window within the screen and centred
    by its frame, most of a large screen; the size and place a person gave it restored next time."""
    found = probe(tmp_path, screen)
    assert found["window_manager"] and found["framed"] and found["again_framed"], found
    first = found["first"]
    area, frame, client = (QRect(*first[k]) for k in ("area", "frame", "client"))
    assert first["off_screen"] == [] and centred(frame, area, slack=2), first
    assert frame.height() > client.height()  # (framed: the title bar was measured)
    if area.width() > USUAL_SIZE.width() + 100:
        assert client.width() >= 0.8 * area.width() and frame.height() >= 0.8 * area.height(), first
    assert found["again"]["client"] == found["chosen"]["client"] and found["again"]["off_screen"] == []
