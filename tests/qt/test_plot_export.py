"""The plot exports: a PNG that loads, and an SVG that is valid XML with the curves and labels in it
(drawn with QSvgGenerator because pyqtgraph 0.14's SVGExporter fails on PySide6 >= 6.11)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from PySide6.QtGui import QImage

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")
SVG = "{http://www.w3.org/2000/svg}"


def test_png_export(window, tmp_path):
    window.resize(1280, 800)
    window.show()
    path = tmp_path / "plot.png"
    assert window.files.export_plot(path)
    image = QImage(str(path))
    assert not image.isNull()
    assert image.width() == 1600
    # Not blank: the curves put more than a few distinct colours on the white background.
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
    assert len(colours) > 10


def test_svg_export_is_xml_with_curves_and_text(window, tmp_path):
    window.resize(1280, 800)
    window.show()
    path = tmp_path / "plot.svg"
    assert window.files.export_plot(path)
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    shapes = [e for e in root.iter() if e.tag in (f"{SVG}path", f"{SVG}polyline")]
    assert len(shapes) >= 3  # DCG, IDCG and NDCG at least
    text = " ".join("".join(e.itertext()) for e in root.iter(f"{SVG}text"))
    for word in ("DCG", "IDCG", "NDCG", "rank"):
        assert word in text
    assert not list(tmp_path.glob(".plot-*"))  # no temporary file left behind


def test_export_to_an_unwritable_place_says_so(window, dialog_log, tmp_path):
    assert not window.files.export_plot(tmp_path / "missing-folder" / "plot.svg")
    assert dialog_log and dialog_log[-1][0] == "Could not export the plot"
