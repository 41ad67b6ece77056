"""The Linux .desktop file and AppStream metainfo are valid and agree with the app and each other."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

PACKAGING = Path(__file__).resolve().parents[2] / "packaging"
DESKTOP = PACKAGING / "ndcg-gui.desktop"
METAINFO = PACKAGING / "io.github.ndcg_inspector.NdcgGui.metainfo.xml"
PYPROJECT = PACKAGING.parent / "pyproject.toml"


def desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(DESKTOP, encoding="utf-8")
    return parser["Desktop Entry"]


def tool(name: str) -> str:
    # packaging/install-debian-deps.sh --test installs both validators; missing means set-up went wrong.
    path = shutil.which(name)
    assert path, f"{name} not found: run packaging/install-debian-deps.sh --test"
    return path


@pytest.mark.system
def test_desktop_file_validates():
    result = subprocess.run([tool("desktop-file-validate"), str(DESKTOP)], capture_output=True, text=True)
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr


def test_desktop_file_launches_the_installed_gui_script():
    entry = desktop_entry()
    gui_scripts = tomllib.loads(PYPROJECT.read_text())["project"]["gui-scripts"]
    assert entry["Exec"].split()[0] in gui_scripts
    # The window's X11 WM_CLASS instance (`-name`) and Wayland app id (desktopFileName) must
    # equal the desktop file id.
    assert entry["StartupWMClass"] == DESKTOP.stem
    assert entry["Icon"] == "ndcg-gui"


def test_window_announces_the_desktop_file_id():
    # make_application gives it as the X11 WM_CLASS instance (-name) and the Wayland app id.
    from ndcg_gui.qt.app import DESKTOP_FILE

    assert desktop_entry()["StartupWMClass"] == DESKTOP_FILE


@pytest.mark.system
def test_metainfo_validates():
    result = subprocess.run(
        [tool("appstreamcli"), "validate", "--no-net", str(METAINFO)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_metainfo_agrees_with_desktop_file_and_project():
    root = ET.parse(METAINFO).getroot()
    assert root.findtext("id") == METAINFO.name.removesuffix(".metainfo.xml")
    assert root.findtext("launchable[@type='desktop-id']") == DESKTOP.name
    assert root.findtext("provides/binary") == DESKTOP.stem
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    from ndcg_gui import __version__

    assert __version__ in [r.get("version") for r in root.iter("release")]
    assert root.findtext("project_license") == project["license"]
