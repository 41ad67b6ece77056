"""The plot exports: a PNG that loads, and an SVG that is valid XML with the curves and labels in it
(drawn with QSvgGenerator because pyqtgraph 0.14's SVGExporter fails on PySide6 >= 6.11)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")
SVG = "{http://www.w3.org/2000/svg}"


def test_png_export(window, tmp_path):
    window.resize(1280, 800)
    window.show()
    path = tmp_path / "plot.png"
    assert window.exports.export_plot(path)
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
    assert window.exports.export_plot(path)
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    shapes = [e for e in root.iter() if e.tag in (f"{SVG}path", f"{SVG}polyline")]
    assert len(shapes) >= 3  # DCG, IDCG and NDCG at least
    text = " ".join("".join(e.itertext()) for e in root.iter(f"{SVG}text"))
    for word in ("DCG", "IDCG", "NDCG", "rank"):
        assert word in text
    assert not list(tmp_path.glob(".plot-*"))  # no temporary file left behind


def test_export_to_an_unwritable_place_says_so(window, dialog_log, tmp_path):
    assert not window.exports.export_plot(tmp_path / "missing-folder" / "plot.svg")
    assert dialog_log and dialog_log[-1][0] == "Could not export the plot"



def _rank_axis(image: QImage) -> np.ndarray:
    """Where the rank axis (the longest horizontal line) is: its row and its two ends, as fractions
    of the image's height and width."""
    gray = image.convertToFormat(QImage.Format_Grayscale8)
    rows = np.frombuffer(gray.constBits(), np.uint8).reshape(gray.height(), gray.bytesPerLine())
    ink = rows[:, : gray.width()] < 230
    y = int(np.argmax(ink.sum(axis=1)))
    xs = np.nonzero(ink[y])[0]
    return np.array([y / gray.height(), xs.min() / gray.width(), xs.max() / gray.width()])


def test_svg_draws_what_the_screen_shows(qtbot, window, tmp_path):
    """Rendered back, the SVG draws the rank axis where the plot on screen has it (with
    QSvgGenerator's default 72 dpi, pyqtgraph's axes replay at 3/4 scale while the curves do not)."""
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    QApplication.processEvents()  # laid out, as a person would see it before exporting
    path = tmp_path / "plot.svg"
    assert window.exports.export_plot(path)
    view = window.plot.plot
    screen = view.grab(view.mapFromScene(view.getPlotItem().sceneBoundingRect()).boundingRect()).toImage()
    drawn = QImage(screen.size(), QImage.Format_ARGB32)
    drawn.fill(QColor("white"))
    painter = QPainter(drawn)
    QSvgRenderer(str(path)).render(painter)
    painter.end()
    np.testing.assert_allclose(_rank_axis(drawn), _rank_axis(screen), atol=0.02)
