"""The caveats beside the headline's figures (unjudged documents in the top k, judgments missing
from the list, …) in three lines, so a caveat more or less does not grow the headline: each gets
a line, and the lines left over go to those that need two, in order (warnings first); a caveat
still longer than its lines is cut at its end with "…" (1024-pixel windows), and every caveat is
whole in the tooltip. A wrapping QLabel in the headline's row was given no more height than its
three lines and drew the rest under the definition panel."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from ndcg_gui.qt.models.colours import current
from ndcg_gui.qt.widgets.scheme import FollowsScheme

WARNING, NOTE = "unjudged", "muted"  # the colours (`Colours` fields) of a warning (⚠) and a note
LINES = 3


class CaveatsLabel(FollowsScheme, QLabel):
    """`set_caveats([(text, colour), …])`: each on a line of its own, elided to the label's width;
    `colour` names a `Colours` field (WARNING, NOTE)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.RichText)
        self.setWordWrap(False)
        # Room for three lines, so the headline does not grow when a third caveat appears; the
        # width is what the headline leaves (lines are cut to it, not the other way round).
        self.setMinimumHeight(LINES * self.fontMetrics().lineSpacing())
        self.setMinimumWidth(120)
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        self._caveats: list[tuple[str, str]] = []
        self.follow_scheme()

    def set_caveats(self, caveats: list[tuple[str, str]]) -> None:
        if caveats != self._caveats:
            self._caveats = list(caveats)
            self.setToolTip("\n".join(text for text, _ in caveats))
            self._lay_out()

    def shown_lines(self) -> list[str]:
        """The lines as drawn (plain text, "…" where cut)."""
        return [line for lines in self._lines() for line in lines]

    def _lines(self) -> list[list[str]]:
        metrics, width = self.fontMetrics(), self.contentsRect().width()
        wrapped = [_wrap(text, width, metrics) for text, _ in self._caveats]
        spare = max(LINES, len(wrapped)) - len(wrapped)
        shown = []
        for lines in wrapped:
            take = min(len(lines), 1 + spare)
            spare -= take - 1
            kept = lines[:take]
            if take < len(lines):  # (the rest of the caveat on its last line, cut with "…")
                kept[-1] = metrics.elidedText(" ".join([kept[-1], *lines[take:]]), Qt.ElideRight, width)
            shown.append(kept)
        return shown

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._lay_out()

    def restyle(self) -> None:
        self._lay_out()

    def _lay_out(self) -> None:
        colours = current()
        text = "<br>".join(f"<span style='color:{getattr(colours, colour)}'>"
                           f"{'<br>'.join(html.escape(x) for x in lines)}</span>"
                           for lines, (_, colour) in zip(self._lines(), self._caveats, strict=True))
        if text != self.text():  # (a rich-text label lays itself out again on every setText)
            self.setText(text)


def _wrap(text: str, width: int, metrics: QFontMetrics) -> list[str]:
    """`text` in lines no wider than `width`, broken at spaces (a word wider than a line is cut)."""
    lines: list[str] = []
    for word in text.split(" "):
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and metrics.horizontalAdvance(joined) <= width:
            lines[-1] = joined
        else:
            lines.append(metrics.elidedText(word, Qt.ElideRight, width))
    return lines or [""]
