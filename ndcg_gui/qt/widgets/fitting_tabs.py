"""A tab bar that keeps its tabs in view: drawn a little tighter than the style's (less padding
beside each title), and where the titles still do not fit, each is cut with "…" (whole in its
tooltip), so the scroll arrows that hid the last tabs (Definitions, Checks) come only when even
cut titles cannot fit. Its least width stays a few letters, so it never widens its pane."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleFactory, QTabBar, QWidget

TAB_PADDING = 12  # pixels beside a tab's title, both sides together (Fusion's: 24)


class _TighterTabs(QProxyStyle):
    def pixelMetric(self, metric, option=None, widget=None) -> int:
        if metric == QStyle.PixelMetric.PM_TabBarTabHSpace:
            return TAB_PADDING
        return super().pixelMetric(metric, option, widget)


class FittingTabBar(QTabBar):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        app = QApplication.instance()
        base = QStyleFactory.create(app.style().name()) if app is not None else None
        self._style = _TighterTabs(base)  # (kept: a widget does not own its style)
        self.setStyle(self._style)
        self.setElideMode(Qt.TextElideMode.ElideRight)
        self.setUsesScrollButtons(True)  # (only once every title is cut to its least)
        self._about: dict[int, str] = {}

    def shown_text(self, index: int) -> str:
        """A tab's title as drawn: whole, or cut with "…" to its tab's width."""
        room = self.tabRect(index).width() - TAB_PADDING
        return self.fontMetrics().elidedText(self.tabText(index), Qt.TextElideMode.ElideRight, room)

    def set_about(self, index: int, about: str) -> None:
        """The tab's tooltip: its whole title (it may be cut on the tab), then `about`."""
        self._about[index] = about
        self._title_tip(index)

    def tabInserted(self, index: int) -> None:
        super().tabInserted(index)
        self._title_tip(index)

    def tabLayoutChange(self) -> None:  # (a title changed: "Checks ⚠3")
        super().tabLayoutChange()
        for index in range(self.count()):
            self._title_tip(index)

    def _title_tip(self, index: int) -> None:
        title, about = self.tabText(index).replace("&", ""), self._about.get(index, "")
        tip = f"{title}: {about}" if about else title
        if self.tabToolTip(index) != tip:
            self.setTabToolTip(index, tip)
