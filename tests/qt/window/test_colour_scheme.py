"""Issue 34, finding 12: the window follows the desktop's light or dark colour scheme, or the one a
person picks in View ▸ Colours (remembered), and reads in both: every shaded or coloured cell, the
plot's axes and curves, the headline's figures and caveats, the guide. Offscreen there is no
desktop, so a desktop is played: its palette set on the application (as a theme does when it
switches), or its scheme said through QStyleHints."""

from __future__ import annotations

import re

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette, QStyleHints
from run_samples import show_compared

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.qt.models.colours import DARK, LIGHT, current, is_dark
from ndcg_gui.qt.window.colour_scheme import SETTING, fusion_palette


def luminance(colour: QColor) -> float:
    def channel(v: int) -> float:
        v = v / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.red()) + 0.7152 * channel(colour.green()) + 0.0722 * channel(colour.blue())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG's contrast ratio: 4.5 for text to read, 3 for lines and large marks."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.fixture(autouse=True)
def platform_palette_back(qapp):
    """The application's palette and scheme are the process's: each test leaves them as it found them."""
    yield
    qapp.styleHints().unsetColorScheme()
    QGuiApplication.setPalette(QPalette())
    qapp.processEvents()


def marked_list() -> RankedList:
    """A list with every mark the list pane makes: places out of the ideal's order both ways, tied
    scores, an unjudged document in the top k (a caveat), a move from the list as loaded."""
    return RankedList(docs=list("abcdefg"), grades=[0, 0, 3, np.nan, 1, 2, 0],
                      scores=[9, 8, 8, 7, 6, 6, 5], query="q")


def cells_read(view) -> list[str]:
    """Every cell of a table view whose text does not stand out from its background (4.5:1)."""
    model, palette = view.model(), view.palette()
    text, base = palette.color(QPalette.ColorRole.Text), palette.color(QPalette.ColorRole.Base)
    poor = []
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            index = model.index(row, column)
            back = index.data(Qt.ItemDataRole.BackgroundRole)
            fore = index.data(Qt.ItemDataRole.ForegroundRole)
            back = back.color() if back is not None else base
            fore = fore.color() if fore is not None else text
            if index.data() and contrast(fore, back) < 4.5:
                poor.append(f"({row}, {column}) {index.data()!r}: {fore.name()} on {back.name()}")
    return poor


def shown_dark(window, qtbot, dark: bool) -> None:
    qtbot.waitUntil(lambda: is_dark(window.ranking_view.palette()) == dark
                    and is_dark(window.headline.palette()) == dark)


def test_the_window_reads_in_the_desktops_dark_palette_and_back_in_its_light_one(qtbot, window):
    window.document.set_lists({"q": marked_list()})
    window.document.set_measure(k=3)
    window.document.move_rows(6, 1, 0)  # (moved: ▲ and ▼ in their colours)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    for dark in (True, False, True):
        QGuiApplication.setPalette(fusion_palette(dark))  # what a desktop's theme does as it switches
        shown_dark(window, qtbot, dark)
        assert current() is (DARK if dark else LIGHT)
        model = window.ranking_view.model()
        shaded = [model.index(r, c).data(Qt.ItemDataRole.BackgroundRole) for r in range(model.rowCount())
                  for c in range(model.columnCount())]
        assert sum(b is not None for b in shaded) >= 4  # (what is measured is there)
        assert cells_read(window.ranking_view) == []
        assert cells_read(window.metrics_view) == []
        # The plot: its background the scheme's, its axes' numbers and titles read, its curves seen.
        panels = window.plot.plot
        background = panels.backgroundBrush().color()
        assert (background.lightness() < 128) == dark
        for panel in (panels.top, panels.bottom):
            for side in ("left", "bottom"):
                assert contrast(panel.getAxis(side).textPen().color(), background) >= 4.5
        for curve in (panels.dcg, panels.idcg, panels.ndcg):
            assert contrast(curve.opts["pen"].color(), background) >= 3
        # The headline: its own background, the definition under the figures, each caveat's colour.
        head = window.headline
        behind = head.palette().color(QPalette.ColorRole.Window)
        assert is_dark(head.palette()) == dark
        assert contrast(head.describe.palette().color(QPalette.ColorRole.WindowText), behind) >= 4.5
        said = re.findall(r"color:(#[0-9a-fA-F]{6})", head.warnings.text() + head.change.text())
        assert said and all(contrast(QColor(c), behind) >= 4.5 for c in said), said


def test_view_colours_is_remembered_and_follow_the_desktop_gives_the_choice_back(qtbot, window, settings):
    from ndcg_gui.qt.window.main_window import MainWindow

    view_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    colours_menu = next(a.menu() for a in view_menu.actions() if a.menu() and "Colours" in a.text())
    assert [a.text() for a in colours_menu.actions()] == ["Follow the &desktop", "&Light", "Dar&k"]
    assert window.actions.colour_actions["desktop"].isChecked()
    window.actions.colour_actions["dark"].trigger()
    assert is_dark(QGuiApplication.palette()) and current() is DARK
    shown_dark(window, qtbot, True)
    assert settings.value(SETTING) == "dark"
    second = MainWindow(settings=settings)  # the next session's window
    qtbot.addWidget(second)
    assert second.colour_scheme.choice == "dark" and second.actions.colour_actions["dark"].isChecked()
    window.actions.colour_actions["desktop"].trigger()  # offscreen: no desktop scheme, the light palette
    assert not is_dark(QGuiApplication.palette()) and current() is LIGHT
    shown_dark(window, qtbot, False)
    window.actions.colour_actions["light"].trigger()
    assert settings.value(SETTING) == "light" and not is_dark(QGuiApplication.palette())


def test_a_desktop_that_switches_to_dark_switches_the_window(qtbot, window, monkeypatch):
    """The platform says its scheme changed (QStyleHints.colorSchemeChanged) but gives no dark
    palette of its own (a bare X server, offscreen): the window takes Fusion's dark one."""
    scheme = {"now": Qt.ColorScheme.Light}
    monkeypatch.setattr(QStyleHints, "colorScheme", lambda _self: scheme["now"])
    hints = QGuiApplication.styleHints()
    scheme["now"] = Qt.ColorScheme.Dark
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert is_dark(QGuiApplication.palette())
    shown_dark(window, qtbot, True)
    scheme["now"] = Qt.ColorScheme.Light
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert not is_dark(QGuiApplication.palette())
    # A scheme picked in View ▸ Colours stands whatever the desktop says.
    window.actions.colour_actions["light"].trigger()
    scheme["now"] = Qt.ColorScheme.Dark
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert not is_dark(QGuiApplication.palette())


def test_the_guide_and_the_example_note_read_in_a_dark_window(qtbot, window):
    window.actions.colour_actions["dark"].trigger()
    window.show_guide()
    guide = window.guide
    qtbot.waitUntil(lambda: is_dark(guide.browser.palette()))
    html = guide.browser.toHtml().lower()
    behind = guide.browser.palette().color(QPalette.ColorRole.Base)
    colours = set(re.findall(r"(?<!background-)color:(#[0-9a-f]{6})", html))
    assert colours and all(contrast(QColor(c), behind) >= 4.5 for c in colours), colours
    for light in (LIGHT.wasted_slot, LIGHT.ties[0], LIGHT.up):  # the light set's shades swapped
        assert light not in html
    text = guide.browser.palette().color(QPalette.ColorRole.Text)
    for shade in set(re.findall(r"background-color:(#[0-9a-f]{6})", html)):
        assert contrast(text, QColor(shade)) >= 4.5, shade
    note = window.example_note
    qtbot.waitUntil(lambda: note.label.palette().color(QPalette.ColorRole.Base) == QColor(DARK.note))
    assert contrast(note.label.palette().color(QPalette.ColorRole.Text), QColor(DARK.note)) >= 4.5


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_runs_compared_read_in_either_scheme(qtbot, window, files, dark):
    """Runs compared add their own coloured cells (the query table's Δ and W/T/L, the figures'
    table, the side-by-side lists' moves): each reads against its background in both schemes."""
    window.actions.colour_actions["dark" if dark else "light"].trigger()
    show_compared(window, qtbot, files)
    shown_dark(window, qtbot, dark)
    tables = (window.query_panel.table, window.compare_pane.stats, window.ranking_view)
    coloured = 0
    for view in tables:
        assert is_dark(view.palette()) == dark
        assert cells_read(view) == [], type(view).__name__
        model = view.model()
        coloured += sum(model.index(r, c).data(Qt.ItemDataRole.ForegroundRole) is not None
                        or model.index(r, c).data(Qt.ItemDataRole.BackgroundRole) is not None
                        for r in range(model.rowCount()) for c in range(model.columnCount()))
    assert coloured >= 3  # (the comparison's colours are there to be read)


def labels_read(window) -> list[str]:
    """Every visible label whose text does not stand out from what is behind it (4.5:1): its
    palette's text colour (a style sheet's too, once polished) and each colour its rich text names."""
    from PySide6.QtWidgets import QLabel

    poor = []
    for label in window.findChildren(QLabel):
        if not (label.isVisibleTo(window) and label.text() and label.isEnabled()):
            continue
        label.ensurePolished()
        palette = label.palette()
        behind = palette.color(label.backgroundRole())
        colours = [palette.color(label.foregroundRole())]
        colours += [QColor(c) for c in re.findall(r"color:\s*(#[0-9a-fA-F]{6})", label.text())]
        for colour in colours:
            if contrast(colour, behind) < 4.5:
                poor.append(f"{label.text()[:50]!r}: {colour.name()} on {behind.name()}")
    return poor


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_every_label_of_the_window_reads_with_runs_compared(qtbot, window, files, dark):
    """The query dock's note under the mean ("1 judged query with no results; …") was grey by a
    style sheet (#808080): 3.4:1 on the light window, about 3:1 on the dark one. Every label the
    window shows with two runs compared reads in both schemes."""
    window.colour_scheme.choose("dark" if dark else "light", remember=False)
    show_compared(window, qtbot, files)
    shown_dark(window, qtbot, dark)
    assert window.query_panel.policy_note.isVisible()  # (what is measured is there)
    assert labels_read(window) == []
