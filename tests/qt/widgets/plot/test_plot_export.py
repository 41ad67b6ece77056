"""The exports, checked by opening them: the PNG read back with QImage, the SVG parsed as XML and
drawn back with QSvgRenderer, the metrics CSV read with pandas. Each is titled (file, query, k,
definition, NDCG@k), named after file, query and k, and written with the mode of any other file."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QFileDialog
from sklearn.metrics import dcg_score, ndcg_score

from ndcg_gui.core.ndcg.presets import preset
from ndcg_gui.qt.widgets.plot.plot_export import FIGURE_SIZE

SVG = "{http://www.w3.org/2000/svg}"
E1 = np.array([[3, 2, 3, 0, 1]])
E1_SCORES = np.array([[5, 4, 3, 2, 1]])


def usual_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def ink_rows(image: QImage) -> np.ndarray:
    """For each row of the image, how many pixels are darker than the background."""
    gray = image.convertToFormat(QImage.Format_Grayscale8)
    rows = np.frombuffer(gray.constBits(), np.uint8).reshape(gray.height(), gray.bytesPerLine())
    return (rows[:, : gray.width()] < 200).sum(axis=1)


def _rank_axis(image: QImage) -> np.ndarray:
    """Where the rank axis (the longest horizontal line in the lower half) is: its row and its two
    ends, as fractions of the image's height and width."""
    gray = image.convertToFormat(QImage.Format_Grayscale8)
    rows = np.frombuffer(gray.constBits(), np.uint8).reshape(gray.height(), gray.bytesPerLine())
    ink = rows[:, : gray.width()] < 230
    half = gray.height() // 2
    y = half + int(np.argmax(ink[half:].sum(axis=1)))
    xs = np.nonzero(ink[y])[0]
    return np.array([y / gray.height(), xs.min() / gray.width(), xs.max() / gray.width()])


def test_png_is_a_titled_picture_of_the_figure(window, tmp_path):
    window.resize(1024, 700)  # the window's size does not change the figure
    window.show()
    path = tmp_path / "plot.png"
    assert window.exports.export_plot(path)
    image = QImage(str(path))
    assert not image.isNull()
    assert (image.width(), image.height()) == (1600, round(1600 * FIGURE_SIZE.height() / FIGURE_SIZE.width()))
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
    assert len(colours) > 10  # not blank: curves, fills and text on the white background
    ink = ink_rows(image)
    assert ink[: image.height() // 20].any()  # the title line at the top
    assert mode(path) == usual_mode()


def test_a_figure_exported_from_a_dark_window_is_drawn_for_white_paper(qtbot, window, tmp_path):
    """Issue 34.12: in a dark window the plot is dark; a figure exported from it is drawn in the
    light colours on white (light axis text on white would not read), and the plot is dark again."""
    from PySide6.QtGui import QGuiApplication, QPalette

    from ndcg_gui.qt.models.colours import DARK, LIGHT
    from ndcg_gui.qt.window.colour_scheme import fusion_palette

    window.show()
    try:
        QGuiApplication.setPalette(fusion_palette(dark=True))
        panels = window.plot.plot
        qtbot.waitUntil(lambda: panels.backgroundBrush().color() == QColor(DARK.plot))
        path = tmp_path / "plot.png"
        assert window.exports.export_plot(path)
        image = QImage(str(path))
        axis = panels.top.getAxis("left")
        assert axis.textPen().color() == QColor(DARK.plot_text)  # (the screen's again)
        seen = [QColor(image.pixel(x, y)).name() for x in range(image.width())
                for y in range(0, image.height(), 3)]
        assert sum(c == "#ffffff" for c in seen) > 0.8 * len(seen)  # white paper
        # The axes' numbers and the curves in the light set's colours, none in the dark set's.
        # The axes' numbers and the curves in the light set's colours (the dark set's at most as the
        # odd pixel of a light one's antialiased edge).
        counts = Counter(seen)
        for name in ("plot_text", "dcg", "ndcg"):
            light, dark = counts[getattr(LIGHT, name)], counts[getattr(DARK, name)]
            assert light > 100 and dark < light / 20, (name, light, dark)
    finally:
        QGuiApplication.setPalette(QPalette())


def test_svg_is_xml_with_title_legend_and_curves(window, tmp_path):
    path = tmp_path / "plot.svg"
    assert window.exports.export_plot(path)
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    shapes = [e for e in root.iter() if e.tag in (f"{SVG}path", f"{SVG}polyline")]
    assert len(shapes) >= 3  # DCG, IDCG and NDCG at least
    text = " ".join("".join(e.itertext()) for e in root.iter(f"{SVG}text"))
    ndcg = ndcg_score(E1, E1_SCORES, k=10)
    for word in ("DCG", "IDCG", "NDCG", "rank", "untitled", "query q1", f"NDCG@10 = {ndcg:.4f}",
                 "trec_eval", "grade 3"):  # (a first session starts on trec_eval's definition)
        assert word in text, word
    assert f"NDCG@10 = {ndcg:.4f}" in root.findtext(f"{SVG}title")
    assert mode(path) == usual_mode()
    assert not list(tmp_path.glob(".plot-*"))  # no temporary file left behind


def test_svg_draws_what_the_png_shows(window, tmp_path):
    """Drawn back, the SVG has the rank axis where the PNG has it (with QSvgGenerator's default 72
    dpi, pyqtgraph's axes would replay at 3/4 scale while the curves do not)."""
    png, svg = tmp_path / "plot.png", tmp_path / "plot.svg"
    assert window.exports.export_plot(png) and window.exports.export_plot(svg)
    picture = QImage(str(png))
    drawn = QImage(picture.size(), QImage.Format_ARGB32)
    drawn.fill(QColor("white"))
    painter = QPainter(drawn)
    QSvgRenderer(str(svg)).render(painter)
    painter.end()
    np.testing.assert_allclose(_rank_axis(drawn), _rank_axis(picture), atol=0.02)


def test_export_replaces_a_file_keeping_its_mode(window, tmp_path):
    path = tmp_path / "plot.png"
    path.write_bytes(b"old")
    path.chmod(0o640)
    assert window.exports.export_plot(path)
    assert mode(path) == 0o640 and not QImage(str(path)).isNull()


def test_export_to_an_unwritable_place_says_so(window, dialog_log, tmp_path):
    assert not window.exports.export_plot(tmp_path / "missing-folder" / "plot.svg")
    assert dialog_log and dialog_log[-1][0] == "Could not export the plot"


def test_metrics_csv_has_query_and_definition_columns(window, tmp_path):
    path = tmp_path / "metrics.csv"
    assert window.exports.export_metrics(path)
    table = pd.read_csv(path, dtype={"query": str, "doc": str})
    assert list(table.columns[:3]) == ["rank", "doc", "grade"]
    assert (table["query"] == "q1").all()
    assert table["definition"].nunique() == 1
    assert table["definition"].iloc[0].startswith("trec_eval: gain = rel; discount 1/log2(i+1)")
    ranks = range(1, 6)
    np.testing.assert_allclose(table["dcg"], [dcg_score(E1, E1_SCORES, k=i) for i in ranks], atol=1e-12)
    np.testing.assert_allclose(table["ndcg"], [ndcg_score(E1, E1_SCORES, k=i) for i in ranks], atol=1e-12)
    assert mode(path) == usual_mode()


def test_a_preset_is_named_in_the_title_and_the_csv(window, tmp_path):

    window.document.set_measure(preset("trec_eval"))
    assert window.plot.figure_title().endswith("· trec_eval")
    path = tmp_path / "m.csv"
    assert window.exports.export_metrics(path)
    assert pd.read_csv(path)["definition"].iloc[0].startswith("trec_eval: ")


@pytest.mark.parametrize(("name", "query", "expected"), [
    ("sample.run", "401", "sample-q401-k10"),
    ("input.MU03rob01", "401", "input.MU03rob01-q401-k10"),
    ("runs/my run.txt", "q4", "my-run-q4-k10"),
])
def test_default_names_carry_file_query_and_k(window, tmp_path, monkeypatch, name, query, expected):
    from ndcg_gui.core.lists.ranked_list import RankedList

    path = tmp_path / name
    path.parent.mkdir(exist_ok=True)
    window.document.set_lists({query: RankedList(docs=["a", "b"], grades=[1, 0])}, path=path)
    asked: list[str] = []

    def cancel(_parent, _title, default, _filter):
        asked.append(default)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", cancel)
    window.exports.export_plot_dialog("png")
    window.exports.export_plot_dialog("svg")
    window.exports.export_metrics_dialog()
    window.exports.export_summary_dialog()
    file_and_query, file = expected.rsplit("-k", 1)[0], expected.split("-q")[0]
    assert [Path(a).name for a in asked] == [f"{expected}-ndcg.png", f"{expected}-ndcg.svg",
                                             f"{file_and_query}-metrics.csv", f"{file}-k10-summary.csv"]
    assert all(Path(a).parent == path.parent for a in asked)


def test_export_into_a_fifo_streams_into_it(window, dialog_log, tmp_path):
    """A FIFO (or a device) is written into, never replaced by a file."""
    import stat
    import threading

    fifo = tmp_path / "plot.png"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as f:
            got.append(f.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert window.exports.export_plot(fifo), dialog_log
    reader.join(10)
    assert got and got[0].startswith(b"\x89PNG") and stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert not [name for name in os.listdir(tmp_path) if name.startswith(".plot")]  # no temporary beside it
