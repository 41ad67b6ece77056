"""The screenshot grid writes where --out says, inside the repository or not; the desktop grid's
states, each on a real 1366x768 desktop (an X server with a window manager), fit it."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _grid():
    spec = importlib.util.spec_from_file_location("screenshots", ROOT / "packaging" / "screenshots.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_grid_outside_the_repository_is_named_by_its_own_path(tmp_path, monkeypatch, capsys):
    grid, asked = _grid(), []

    def draw(argv, **_):  # the program's own --screenshot, without starting a window per picture
        out = Path(argv[argv.index("--screenshot") + 1])
        out.write_bytes(b"png")
        asked.append(out)
        return subprocess.CompletedProcess(argv, 0, "", "")

    monkeypatch.setattr(grid.subprocess, "run", draw)
    assert grid.main(["--only", "example", "--out", str(tmp_path / "shots")]) == 0
    printed = capsys.readouterr().out.split()
    assert len(asked) == len(grid.SIZES) * len(grid.SCHEMES)
    assert printed == [str(path) for path in asked]
    assert all(path.parent == tmp_path / "shots" and path.exists() for path in asked)


def _desktop():
    spec = importlib.util.spec_from_file_location("desktop", ROOT / "packaging" / "desktop.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


needs_xvfb_run = pytest.mark.skipif(
    shutil.which("xvfb-run") is None or shutil.which("openbox") is None,
    reason="needs xvfb-run and openbox (packaging/install-debian-deps.sh --test)")


@pytest.mark.xvfb
@needs_xvfb_run
@pytest.mark.parametrize("state", ["typed", "csv", "trec", "compare", "unjudged", "notes"])
def test_each_state_a_person_reaches_fits_a_laptops_real_desktop(tmp_path, state):
    """Issue 35: the window on a 1366x768 desktop (Xvfb with openbox: a title bar and a frame),
    started as a person starts it and put in each state, dark: nothing off the screen, no text cut
    in the query table, the per-rank table or the figures (the ranked list of a CSV with columns of
    its own scrolls to them: its row's detail line shows them whole), and Tab leaves every widget
    it reaches; the screen as grabbed is a picture of it."""
    desktop = _desktop()
    picture = tmp_path / f"{state}.png"
    found = desktop.shoot(state, "1366x768", "dark", picture)
    assert "failed" not in found, found["failed"]
    assert found["off_screen"] == [] and found["tab_stuck"] == [], found
    cut = dict(found["cut"])
    if state == "csv":
        assert cut.pop("ranked list", []) in ([], ["the columns scroll sideways"])
    assert cut == {}
    assert found["tab_stops"] >= 12 and picture.read_bytes()[:4] == b"\x89PNG"
