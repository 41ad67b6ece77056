"""What widgets share to follow the light or dark scheme. Their palette follows by itself; what they
draw with the colours that carry meaning (`models.colours`), in HTML, in a palette role set by
hand or in a pyqtgraph item, they set again in `restyle`, called on every palette change."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QWidget


class FollowsScheme:
    """Mixed into a QWidget (before it): once made, it calls `follow_scheme()`, and `restyle()`
    runs then and on each of its palette changes, the application's light or dark palette among
    them (`models.colours.current()` is the new set by then)."""

    _following = False

    def follow_scheme(self) -> None:
        self._following = True
        self.restyle()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)  # type: ignore[misc]
        if self._following and event.type() == QEvent.Type.PaletteChange:
            self.restyle()

    def restyle(self) -> None:
        raise NotImplementedError


def set_colour(widget: QWidget, role: QPalette.ColorRole, colour: str) -> None:
    """`widget` drawn with `colour` for `role`; nothing when it is already (a new palette is a
    palette change: `restyle` would run again)."""
    palette = widget.palette()
    if palette.color(role) != QColor(colour) or not palette.isBrushSet(QPalette.ColorGroup.Active, role):
        palette.setColor(role, QColor(colour))
        widget.setPalette(palette)
