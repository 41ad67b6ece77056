"""A tab bar that keeps its titles readable: drawn a little tighter than the style's (less padding
beside each title), every tab whole while they all fit; where they do not (1024x700 with the query
dock open left nine titles one or two letters each, "P…", "I…"), the tabs that fit are shown whole,
the current one always among them, and a "More" button at the bar's end lists every tab. The arrow
keys still step through every tab, the ones behind the button included (each comes into view).
Titles are cut with "…" (whole in the tooltip) only when a single tab is wider than the bar. Its
least width stays a few letters, so it never widens its pane."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import (
    QApplication,
    QMenu,
    QProxyStyle,
    QStyle,
    QStyleFactory,
    QTabBar,
    QTabWidget,
    QToolButton,
    QWidget,
)

TAB_PADDING = 12  # pixels beside a tab's title, both sides together (Fusion's: 24)
MORE_TEXT = "More ▾"


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
        self.setUsesScrollButtons(False)  # (arrows hid the last tabs: the button names them)
        self._about: dict[int, str] = {}
        self._fitting = False
        self._fit_when_shown = False  # a fit asked for while hidden (`_fit`)
        self.more = QToolButton(self)
        self.more.setText(MORE_TEXT)
        self.more.setAccessibleName("More tabs")
        self.more.setAutoRaise(True)
        self.more.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.more.setStyleSheet("QToolButton::menu-indicator { image: none; width: 0px; }")  # (the ▾ says it)
        self.more.setMenu(QMenu(self.more))
        self.more.menu().aboutToShow.connect(self._fill_menu)
        self.more.hide()
        self.currentChanged.connect(self._fit)

    def shown_text(self, index: int) -> str:
        """A tab's title as drawn: whole, or cut with "…" to its tab's width ("" behind "More")."""
        if not self.isTabVisible(index):
            return ""
        room = self.tabRect(index).width() - TAB_PADDING
        return self.fontMetrics().elidedText(self.tabText(index), Qt.TextElideMode.ElideRight, room)

    def hidden_tabs(self) -> list[int]:
        """The tabs behind the "More" button."""
        return [i for i in range(self.count()) if not self.isTabVisible(i)]

    def set_about(self, index: int, about: str) -> None:
        """The tab's tooltip: its whole title (it may be cut on the tab), then `about`."""
        self._about[index] = about
        self._title_tip(index)

    # ---- which tabs are shown ------------------------------------------------------------------------
    def _room(self) -> int:
        """The width the bar may take: its tab widget's, less a corner widget's (else its own)."""
        parent = self.parentWidget()
        if isinstance(parent, QTabWidget):
            corner = parent.cornerWidget(Qt.Corner.TopRightCorner)
            return parent.width() - (corner.width() if corner is not None and corner.isVisible() else 0)
        return self.width()

    def _fit(self, *_changed) -> None:
        """Every tab shown if all fit whole; else those that fit beside the button, in order, the
        current one always (the ones before it given up from the end first)."""
        if self._fitting or self.count() == 0:
            return
        if not self.isVisible():
            # Fitted when shown (`showEvent`): while the window is built every tab added and every
            # title set asked for a fit of all of them (~30 before the first paint, each measuring
            # every tab), for a width the window's first layout then changes anyway.
            self._fit_when_shown = True
            return
        self._fitting = True
        try:
            widths = [super(FittingTabBar, self).tabSizeHint(i).width() for i in range(self.count())]
            room = self._room()
            shown = set(range(self.count()))
            if sum(widths) > room:
                room -= self.more.sizeHint().width()
                current = max(self.currentIndex(), 0)
                shown = {current}
                used = widths[current]
                for i in range(self.count()):
                    if i != current and used + widths[i] <= room:
                        shown.add(i)
                        used += widths[i]
                    elif i != current and i > current:
                        break
            for i in sorted(shown):  # shown first: hiding the current tab would pick another
                if not self.isTabVisible(i):
                    self.setTabVisible(i, True)
            for i in range(self.count()):
                if i not in shown and self.isTabVisible(i):
                    self.setTabVisible(i, False)
            self.more.setVisible(len(shown) < self.count())
            self._place_more()
        finally:
            self._fitting = False

    def _place_more(self) -> None:
        if not self.more.isVisible():
            return
        last = max((i for i in range(self.count()) if self.isTabVisible(i)), default=-1)
        x = self.tabRect(last).right() + 1 if last >= 0 else 0
        hint = self.more.sizeHint()
        self.more.setGeometry(x, 0, hint.width(), self.height())
        hidden = [self.tabText(i).replace("&", "") for i in self.hidden_tabs()]
        self.more.setToolTip("Also: " + ", ".join(hidden))

    def _fill_menu(self) -> None:
        menu = self.more.menu()
        menu.clear()
        for i in range(self.count()):
            action = QAction(self.tabText(i), menu, checkable=True, checked=i == self.currentIndex())
            action.setEnabled(self.isTabEnabled(i))
            action.triggered.connect(lambda _on=False, index=i: self.setCurrentIndex(index))
            menu.addAction(action)

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        if self.more.isVisible():  # the button is drawn inside the bar, after the last tab shown
            hint.setWidth(hint.width() + self.more.sizeHint().width())
        return hint

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._fit_when_shown:
            self._fit_when_shown = False
            self._fit()
            self._place_more()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()
        self._place_more()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ParentChange and self.parentWidget() is not None:
            # A bar as wide as its tabs is not resized when its tab widget grows: the widget's
            # resize brings the tabs behind "More" back.
            self.parentWidget().installEventFilter(self)
        return super().event(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.parentWidget():
            if event.type() == QEvent.Type.Resize:
                self._fit()
            elif event.type() == QEvent.Type.KeyPress and (step := _page_step(event)):
                self._step(step, wrap=True)  # (the tab widget's Ctrl+Tab skips hidden tabs)
                return True
        return False

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """← and → step through every tab, the ones behind "More" too (Qt's skip hidden tabs)."""
        step = {Qt.Key.Key_Left: -1, Qt.Key.Key_Right: 1}.get(Qt.Key(event.key()))
        if step is None or event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            super().keyPressEvent(event)
            return
        if self.layoutDirection() == Qt.LayoutDirection.RightToLeft:
            step = -step
        self._step(step, wrap=False)

    def _step(self, step: int, wrap: bool) -> None:
        """The next enabled tab `step` away, shown or not (around the end when `wrap`)."""
        index = self.currentIndex()
        for _ in range(self.count()):
            index += step
            if wrap:
                index %= self.count()
            elif not 0 <= index < self.count():
                return
            if self.isTabEnabled(index):
                self.setCurrentIndex(index)
                return

    # ---- titles ------------------------------------------------------------------------------------
    def tabInserted(self, index: int) -> None:
        super().tabInserted(index)
        self._title_tip(index)
        self._fit()

    def tabRemoved(self, index: int) -> None:
        super().tabRemoved(index)
        self._fit()

    def tabLayoutChange(self) -> None:  # (a title changed: "Checks ⚠3")
        super().tabLayoutChange()
        for index in range(self.count()):
            self._title_tip(index)
        self._fit()
        self._place_more()

    def _title_tip(self, index: int) -> None:
        title, about = self.tabText(index).replace("&", ""), self._about.get(index, "")
        tip = f"{title}: {about}" if about else title
        if self.tabToolTip(index) != tip:
            self.setTabToolTip(index, tip)


def _page_step(event: QKeyEvent) -> int:
    """+1 or -1 for the keys a tab widget turns pages with (Ctrl+Tab, Ctrl+Shift+Tab, Ctrl+PgDown,
    Ctrl+PgUp, as QTabWidget reads them), else 0."""
    modifiers = event.modifiers()
    if not modifiers & Qt.KeyboardModifier.ControlModifier:
        return 0
    key = event.key()
    if key == Qt.Key.Key_Backtab or (key == Qt.Key.Key_Tab and modifiers & Qt.KeyboardModifier.ShiftModifier):
        return -1
    return {Qt.Key.Key_Tab: 1, Qt.Key.Key_PageDown: 1, Qt.Key.Key_PageUp: -1}.get(Qt.Key(key), 0)
