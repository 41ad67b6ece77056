"""The curve plot as a figure to share: PNG or SVG of a fixed layout (FIGURE_SIZE, whatever the
window's size), titled with file, query, k, definition and NDCG@k, with its legend in a row of its
own above the panels (never over a curve end).

Both are drawn by Qt from the plot's scene: the PNG into a QImage at a device pixel ratio (so lines,
text and the legend all scale together), the SVG through QSvgGenerator (pyqtgraph 0.14's
SVGExporter raises ValueError with PySide6 >= 6.11, pyqtgraph issue #3495), which keeps lines and
text as vectors. Each is drawn into memory, then saved as every file is (`core.writing.atomic`): a
temporary file renamed over the target with the mode any other file gets, or written into a FIFO
or device that is not a regular file.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QBuffer, QIODevice, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import QImage, QPaintDevice, QPainter
from PySide6.QtSvg import QSvgGenerator

from ndcg_gui.core.writing.atomic import atomic_write_bytes
from ndcg_gui.qt.widgets.plot.curve_plot import CurvePlot

FIGURE_SIZE = QSizeF(960, 600)  # the figure's layout, in the screen's pixels
PNG_WIDTH = 1600


def _paint(device: QPaintDevice, plot: CurvePlot, title: str | None, what: str) -> None:
    with plot.figure(FIGURE_SIZE, title) as source:
        painter = QPainter()
        if not painter.begin(device):
            raise OSError(f"could not draw {what}")
        try:
            painter.setRenderHint(QPainter.Antialiasing)
            painter.setRenderHint(QPainter.TextAntialiasing)
            target = QRectF(0, 0, source.width(), source.height())
            painter.fillRect(target, Qt.white)
            plot.plot.scene().render(painter, target, source)
        finally:
            painter.end()


def export_png(plot: CurvePlot, path: str | Path, width: int = PNG_WIDTH, title: str | None = None) -> Path:
    path = Path(path)
    ratio = width / FIGURE_SIZE.width()
    image = QImage(QSize(width, round(FIGURE_SIZE.height() * ratio)), QImage.Format_ARGB32)
    image.setDevicePixelRatio(ratio)
    image.fill(Qt.white)
    _paint(image, plot, title, "the image")
    buffer = QBuffer()
    buffer.open(QIODevice.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise OSError(f"could not write {path.name}")
    atomic_write_bytes(path, bytes(buffer.data()))
    return path


def export_svg(plot: CurvePlot, path: str | Path, title: str | None = None) -> Path:
    path = Path(path)
    buffer = QBuffer()
    buffer.open(QIODevice.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    # At the screen's resolution: QSvgGenerator's default 72 dpi makes pyqtgraph's cached
    # text and symbols replay at 72/96 scale, off their places.
    generator.setResolution(plot.plot.logicalDpiX())
    size = FIGURE_SIZE.toSize()
    generator.setSize(size)
    generator.setViewBox(QRectF(0, 0, size.width(), size.height()))
    generator.setTitle(title if title is not None else plot.figure_title())
    generator.setDescription("Made with NDCG Inspector")
    _paint(generator, plot, title, "the drawing")
    atomic_write_bytes(path, bytes(buffer.data()))
    return path
