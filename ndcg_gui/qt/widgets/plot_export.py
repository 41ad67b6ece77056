"""The curve plot as PNG (pyqtgraph's ImageExporter) and SVG.

pyqtgraph 0.14's SVGExporter raises ValueError with PySide6 >= 6.11 (pyqtgraph issue #3495), so the
SVG is drawn with Qt's own QSvgGenerator: the plot's scene rendered through a QPainter, which keeps
lines and text as vectors. Both write to a temporary file first and then rename it over the target,
so a failed export never leaves half a file. The hover crosshair is hidden while exporting.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyqtgraph.exporters as pg_exporters
from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QPainter
from PySide6.QtSvg import QSvgGenerator

from ndcg_gui.qt.widgets.curve_plot import CurvePlot


@contextmanager
def _written_beside(path: Path, plot: CurvePlot) -> Iterator[Path]:
    """A temporary file next to `path`, renamed over it when the block succeeds; the plot's
    crosshair hidden meanwhile (it belongs to the screen, not to the figure)."""
    fd, name = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=path.suffix, dir=path.parent)
    os.close(fd)
    tmp = Path(name)
    cursor = plot.cursor.isVisible()
    plot.cursor.setVisible(False)
    try:
        yield tmp
        if tmp.stat().st_size == 0:
            raise OSError(f"could not write {path.name}")
        os.replace(tmp, path)
    finally:
        plot.cursor.setVisible(cursor)
        tmp.unlink(missing_ok=True)


def export_png(plot: CurvePlot, path: str | Path, width: int = 1600) -> Path:
    path = Path(path)
    with _written_beside(path, plot) as tmp:
        exporter = pg_exporters.ImageExporter(plot.plot.getPlotItem())
        exporter.parameters()["width"] = width
        exporter.export(str(tmp))
    return path


def export_svg(plot: CurvePlot, path: str | Path, title: str = "NDCG curves") -> Path:
    path = Path(path)
    item = plot.plot.getPlotItem()
    source = item.sceneBoundingRect()
    size = QSize(int(source.width()), int(source.height()))
    with _written_beside(path, plot) as tmp:
        generator = QSvgGenerator()
        generator.setFileName(str(tmp))
        # At the screen's resolution: QSvgGenerator's default 72 dpi makes pyqtgraph's cached
        # text and symbols replay at 72/96 scale, off their places.
        generator.setResolution(plot.plot.logicalDpiX())
        generator.setSize(size)
        generator.setViewBox(QRectF(0, 0, size.width(), size.height()))
        generator.setTitle(title)
        generator.setDescription("Made with NDCG Inspector")
        painter = QPainter()
        if not painter.begin(generator):
            raise OSError(f"could not write the drawing {path.name}")
        try:
            painter.setRenderHint(QPainter.Antialiasing)
            # The whole scene within the plot's rectangle: includes the NDCG view box, which sits
            # on top of the plot item rather than inside it.
            item.scene().render(painter, QRectF(0, 0, size.width(), size.height()), source)
        finally:
            painter.end()
    return path
