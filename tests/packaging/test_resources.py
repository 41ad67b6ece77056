"""The shipped files are found through importlib.resources (ndcg_gui.assets), not source-tree paths."""

from __future__ import annotations

import struct
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ndcg_gui import assets

ROOT = Path(__file__).resolve().parents[2]
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (the first chunk, right after the signature)."""
    assert data[:8] == PNG_SIGNATURE
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_resources_are_the_installed_package_not_a_path_guess():
    # The resources package is what importlib finds; its files are reached through it.
    assert assets.resource("icons/ndcg-gui.svg").is_file()
    assert assets.resource("examples/e1.csv").is_file()


def test_svg_icon_parses_as_svg():
    root = ET.fromstring(assets.read_bytes("icons/ndcg-gui.svg"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("viewBox") == "0 0 256 256"


@pytest.mark.parametrize("size", ICON_SIZES)
def test_png_icon_has_its_pixel_size(size):
    assert png_size(assets.read_bytes(f"icons/ndcg-gui-{size}.png")) == (size, size)


def test_svg_renders_with_qt(qapp):
    from PySide6.QtGui import QIcon

    with assets.resource_path("icons/ndcg-gui.svg") as path:
        pixmap = QIcon(str(path)).pixmap(64, 64)
    image = pixmap.toImage()
    assert not pixmap.isNull()
    # Opaque centre (the rounded square), transparent corner (outside it).
    assert image.pixelColor(32, 32).alpha() == 255
    assert image.pixelColor(0, 0).alpha() == 0


def test_example_opens_as_a_table():
    import pandas as pd

    with assets.resource_path(assets.EXAMPLE) as path:
        table = pd.read_csv(path)
    assert len(table) > 0


def test_every_resource_folder_is_a_listed_package():
    # setuptools only promises to ship folders listed in `packages`; a new resources/ subfolder
    # missing there would be left out of the wheel (or shipped with a warning, for now).
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {
        ".".join(("ndcg_gui.resources", *d.relative_to(ROOT / "resources").parts))
        for d in [ROOT / "resources", *(ROOT / "resources").rglob("*")]
        if d.is_dir() and d.name != "__pycache__"
    }
    assert folders <= set(setuptools["packages"])
    assert folders <= set(setuptools["package-data"])


def test_the_guide_ships_as_a_resource():
    text = assets.read_bytes("guide.html").decode("utf-8")
    assert "<h1>" in text and 'id="worked-example"' in text


def test_every_code_package_is_listed_for_the_wheel():
    # A sub-package missing from `packages` is left out of the wheel, though an editable install
    # (and so every other test) still finds it.
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "ndcg_gui").rglob("__init__.py")}
    assert found <= set(setuptools["packages"]), sorted(found - set(setuptools["packages"]))
