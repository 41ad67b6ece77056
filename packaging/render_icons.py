"""Render resources/icons/ndcg-gui.svg to the PNG sizes desktops and bundles ask for.

Run after editing the SVG, then commit the PNGs:
    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/render_icons.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before Qt loads: no display needed

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICONS = Path(__file__).resolve().parent.parent / "resources" / "icons"
SVG = ICONS / "ndcg-gui.svg"


def png_name(size: int) -> str:
    return f"ndcg-gui-{size}.png"


def render(renderer: QSvgRenderer, size: int) -> QImage:
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    return image


def main() -> int:
    _app = QGuiApplication(sys.argv)  # QPainter on a QImage needs a GUI application for fonts/raster
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        print(f"{SVG}: not a valid SVG", file=sys.stderr)
        return 1
    for size in SIZES:
        out = ICONS / png_name(size)
        if not render(renderer, size).save(str(out), "PNG"):
            print(f"{out}: could not write", file=sys.stderr)
            return 1
        print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
