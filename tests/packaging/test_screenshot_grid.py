"""The screenshot grid writes where --out says, inside the repository or not."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

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
