"""Helpers shared by the wheel and bundle tests: run an installed `ndcg-gui` away from the source tree
and compare what it draws with what the source tree draws."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def clean_env() -> dict[str, str]:
    """The environment a user's shell would give: no virtualenv, no PYTHONPATH, headless Qt."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}}
    env["QT_QPA_PLATFORM"] = "offscreen"
    return env


def run(
    cmd: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    env = clean_env() if env is None else env
    result = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{cmd} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
    return result


def uv() -> str | None:
    """The uv that `make` installs beside this interpreter (None without it): it builds and installs
    from its cache, where pip would unpack PySide6 and the rest into each new venv again."""
    found = Path(sys.executable).with_name("uv")
    return str(found) if found.is_file() else None


def pip_install(env_dir: Path, *what: str) -> None:
    """Install into the venv at env_dir as a user would, by uv where there is one, else by pip."""
    python = str(env_dir / "bin" / "python")
    tool = uv()
    cmd = [tool, "pip", "install", "--python", python] if tool else [python, "-m", "pip", "install"]
    run([*cmd, "--quiet", *what], cwd=env_dir.parent)


def reference_screenshot(out: Path) -> Path:
    """The window as the source tree (editable install) draws it: what an installed copy must match."""
    run([sys.executable, "-m", "ndcg_gui", "--screenshot", str(out)], cwd=out.parent)
    return out


def assert_same_window(shot: Path, reference: Path) -> None:
    """Both PNGs load, are window-sized, have real content, and show the same window: an install that
    lost its sample data or icon draws an empty or different window."""
    from PySide6.QtGui import QImage

    image, ref = QImage(str(shot)), QImage(str(reference))
    assert not image.isNull(), f"{shot} is not a readable PNG"
    assert image.width() >= 400 and image.height() >= 300, image.size()
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
    assert len(colours) > 20, "the screenshot is (nearly) blank"
    assert image.size() == ref.size()
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    ref = ref.convertToFormat(QImage.Format.Format_RGB32)
    grid = [(x, y) for x in range(0, image.width(), 3) for y in range(0, image.height(), 3)]
    differing = sum(image.pixel(x, y) != ref.pixel(x, y) for x, y in grid)
    assert differing / len(grid) < 0.01, f"{differing} of {len(grid)} sampled pixels differ from the source's"
