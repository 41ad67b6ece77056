"""Light or dark: the window follows the desktop's colour scheme (Qt's `QStyleHints.colorScheme`,
again whenever the desktop switches), unless the person picks one in View ▸ Colours, which is
remembered (or `--color-scheme` asks for one, for that run only).

Qt is asked for the scheme first (`setColorScheme`: a desktop that can, switches the window's
palette itself). Where the palette then shown is not of the scheme wanted (a bare X server or the
offscreen platform have one light palette whatever they are told; a desktop may say dark and
still give a light one), the application gets Fusion's own palette of that scheme. Everything
else follows the palette: `models.colours` picks the set of colours that carry meaning from it,
and each widget that draws with them restyles on its PaletteChange."""

from __future__ import annotations

from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QToolTip

from ndcg_gui.qt.models.colours import is_dark

SETTING = "view/colorScheme"
CHOICES = {"desktop": "Follow the &desktop", "light": "&Light", "dark": "Dar&k"}
_SCHEMES = {"light": Qt.ColorScheme.Light, "dark": Qt.ColorScheme.Dark}


class ColourScheme(QObject):
    """`choice`: "desktop", "light" or "dark"; `changed(choice)` when another is chosen."""

    changed = Signal(str)

    def __init__(self, settings: QSettings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._settings = settings
        kept = settings.value(SETTING, "desktop")
        self.choice = kept if kept in CHOICES else "desktop"
        self._own_palette = False  # the application shows a palette of ours, not the platform's
        app = QGuiApplication.instance()
        if app is not None:
            app.styleHints().colorSchemeChanged.connect(self._desktop_switched)
        self.apply()

    def choose(self, choice: str, remember: bool = True) -> None:
        """Show `choice` ("desktop": whatever the desktop says) and, with `remember`, keep it."""
        if choice not in CHOICES:
            raise ValueError(f"{choice!r}: a colour scheme is one of {', '.join(CHOICES)}")
        if remember:
            self._settings.setValue(SETTING, choice)
        if choice != self.choice:
            self.choice = choice
            self.apply()
            self.changed.emit(choice)

    def wanted(self) -> Qt.ColorScheme:
        """The scheme chosen, or the desktop's (Unknown where it says none)."""
        if self.choice in _SCHEMES:
            return _SCHEMES[self.choice]
        app = QGuiApplication.instance()
        return app.styleHints().colorScheme() if app is not None else Qt.ColorScheme.Unknown

    def apply(self) -> None:
        app = QGuiApplication.instance()
        if app is None:
            return
        hints = app.styleHints()
        if self.choice in _SCHEMES:
            if hints.colorScheme() != _SCHEMES[self.choice]:
                hints.setColorScheme(_SCHEMES[self.choice])
        else:
            hints.unsetColorScheme()
        want = self.wanted()
        if self._own_palette:  # the platform's palette again: it may be the one wanted now
            self._own_palette = False
            QGuiApplication.setPalette(QPalette())
        dark = want == Qt.ColorScheme.Dark
        if want != Qt.ColorScheme.Unknown and is_dark(QGuiApplication.palette()) != dark:
            QGuiApplication.setPalette(fusion_palette(dark))
            self._own_palette = True
        QToolTip.setPalette(QGuiApplication.palette())

    def _desktop_switched(self, _scheme: Qt.ColorScheme) -> None:
        if self.choice == "desktop":
            self.apply()


def fusion_palette(dark: bool) -> QPalette:
    """Fusion's palette of either scheme, as Qt's Fusion style makes it (qfusionstyle.cpp), with
    tooltips and links to match."""
    window_text = QColor(240, 240, 240) if dark else QColor(Qt.GlobalColor.black)
    window = QColor(50, 50, 50) if dark else QColor(239, 239, 239)
    base = window.darker(140) if dark else QColor(Qt.GlobalColor.white)
    dark_shade, mid = window.darker(150), window.darker(130)
    text = window_text
    palette = QPalette(window_text, window, window.lighter(150), dark_shade, mid, text, base)
    palette.setColor(QPalette.ColorRole.Midlight, mid.lighter(110))
    palette.setColor(QPalette.ColorRole.Button, window)
    palette.setColor(QPalette.ColorRole.Shadow, dark_shade.darker(135))
    palette.setColor(QPalette.ColorRole.AlternateBase, base.lighter(115) if dark else QColor(247, 247, 247))
    white = QColor(Qt.GlobalColor.white)
    palette.setColor(QPalette.ColorRole.HighlightedText, window_text if dark else white)
    palette.setColor(QPalette.ColorRole.ToolTipBase, QColor(60, 60, 60) if dark else QColor(255, 255, 220))
    palette.setColor(QPalette.ColorRole.ToolTipText, window_text)
    highlight = QColor(48, 140, 198)
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        palette.setColor(group, QPalette.ColorRole.Highlight, highlight)
    palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Highlight, QColor(145, 145, 145))
    disabled = QColor(130, 130, 130) if dark else QColor(190, 190, 190)
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Base, window)
    placeholder = QColor(text)
    placeholder.setAlpha(128)
    palette.setColor(QPalette.ColorRole.PlaceholderText, placeholder)
    if dark:  # (Qt's blue links are hard to read on a dark base)
        palette.setColor(QPalette.ColorRole.Link, QColor(110, 180, 240))
        palette.setColor(QPalette.ColorRole.LinkVisited, QColor(180, 150, 240))
    return palette
