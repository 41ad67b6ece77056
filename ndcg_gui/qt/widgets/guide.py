"""Help ▸ Guide: a page in the window saying what each column, colour, band and tab means, with
the worked example. The text is `resources/guide.html` (shipped in the wheel); its figures are the
core's (tests/qt/widgets/test_guide.py checks them against it). Its colours are the light set's,
given the dark set's in a dark window (`colours.recolour`)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from ndcg_gui import APP_NAME, assets
from ndcg_gui.qt.models.colours import current, recolour
from ndcg_gui.qt.widgets.scheme import FollowsScheme

GUIDE = "guide.html"


class GuideDialog(FollowsScheme, QDialog):
    """Not modal: the guide stays open beside the window while the person tries what it says."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # (ending with the application's name: Qt adds it to a title that does not, which read
        # "NDCG Inspector — Guide — NDCG Inspector")
        self.setWindowTitle(f"Guide — {APP_NAME}")
        self.setModal(False)
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(False)
        self._html = assets.read_bytes(GUIDE).decode("utf-8")
        self.browser.setAccessibleName("Guide")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser, 1)
        layout.addWidget(buttons)
        # The size of a page to read: about 90 characters wide, within the window that opened it.
        width = self.fontMetrics().horizontalAdvance("M" * 60)
        if parent is not None:
            width = min(width, max(480, parent.width() - 80))
            self.resize(width, max(360, min(parent.height() - 80, 720)))
        else:
            self.resize(width, 640)
        self.browser.setFocus(Qt.FocusReason.OtherFocusReason)
        self.follow_scheme()

    def restyle(self) -> None:
        html = recolour(self._html, current())
        if html != self.browser.property("shownHtml"):
            bar = self.browser.verticalScrollBar()
            at = bar.value()
            self.browser.setHtml(html)
            self.browser.setProperty("shownHtml", html)
            bar.setValue(at)
