"""The main window's layout: where each pane sits, how wide the list's pane and the query dock
are, and the window within its screen. `MainWindow` makes the widgets and wires them to the
document and the controllers; this part arranges them (mixed into it)."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ndcg_gui.qt.widgets.editor.row_detail import RowDetail
from ndcg_gui.qt.widgets.why.why_panes import WhyTabs

QUERY_DOCK_WIDTH = 320
LIST_PANE_MIN = 320  # the list's pane at its narrowest as fitted (short ids): room to type grades
RIGHT_MIN = 430  # the plot and the tables' narrowest beside a query dock that grows
# The first window (no saved geometry): this share of the screen's free area, at least USUAL_SIZE
# where that fits (a laptop's screen is used whole), at most LARGEST_SIZE (on a wall-sized screen a
# window that wide only moves the figures apart); centred.
FIRST_SHARE = 0.9
USUAL_SIZE = QSize(1280, 800)
LARGEST_SIZE = QSize(2400, 1500)


def first_geometry(area: QRect) -> QRect:
    """The first window's place in a screen's available area."""
    def side(free: int, usual: int, largest: int) -> int:
        return min(free, largest, max(usual, round(free * FIRST_SHARE)))

    size = QSize(side(area.width(), USUAL_SIZE.width(), LARGEST_SIZE.width()),
                 side(area.height(), USUAL_SIZE.height(), LARGEST_SIZE.height()))
    place = QRect(area.topLeft(), size)
    place.moveCenter(area.center())
    return place


def pane_title(text: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName("paneTitle")
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    label.setContentsMargins(0, 2, 0, 2)
    label.setWordWrap(True)  # a narrow pane wraps the title rather than widening the window
    return label


class WindowLayout:
    """Mixed into `MainWindow` (a QMainWindow holding the widgets it lays out)."""

    def _show_note(self, shown: bool) -> None:
        """The example's note beside the headline (while the headline shows)."""
        self.note_dock.setVisible(shown and self.headline_dock.isVisible())

    def _widen_note(self, visible: bool) -> None:
        """Shown: the note as wide as it may be; the headline keeps the rest (its minimum at least)."""
        if visible:
            self.resizeDocks([self.note_dock], [self.example_note.maximumWidth()], Qt.Horizontal)

    # ---- layout -----------------------------------------------------------------------------
    def _build_layout(self) -> None:
        editor = QWidget()
        editor_layout = QVBoxLayout(editor)
        editor_layout.setContentsMargins(6, 6, 0, 6)
        editor_layout.addWidget(pane_title("Ranked list — drag rows to reorder"))
        entry_row = QHBoxLayout()
        entry_row.addWidget(self.quick_entry, 1)
        use = QPushButton("Use")
        use.setToolTip(self.quick_entry.toolTip())
        use.clicked.connect(self.editing.apply_quick_list)
        entry_row.addWidget(use)
        editor_layout.addLayout(entry_row)
        self.row_kind = QComboBox()
        for text, kind in (("All rows", "all"), ("Relevant", "relevant"), ("Judged", "judged"),
                           ("Unjudged", "unjudged")):
            self.row_kind.addItem(text, kind)
        self.row_kind.setToolTip("Show only some rows of the list (F3 / Shift+F3 step through the relevant "
                                 "ones); ranks and figures stay those of the whole list")
        self.row_kind.setAccessibleName("Show rows")
        self.row_kind.currentIndexChanged.connect(
            lambda _i: self.ranking_view.show_kind(self.row_kind.currentData()))
        entry_row.addWidget(self.row_kind)
        editor_layout.addWidget(self.ranking_view, 1)
        self.row_detail = RowDetail(self.document, self.ranking_view)  # (a file's titles, urls…)
        editor_layout.addWidget(self.row_detail)

        self.why = WhyTabs(self.document, self.metrics_view)
        metrics = QWidget()
        metrics_layout = QVBoxLayout(metrics)
        metrics_layout.setContentsMargins(0, 0, 6, 6)
        metrics_layout.addWidget(self.why, 1)

        self.right_splitter = QSplitter(Qt.Vertical)
        self.right_splitter.setObjectName("rightSplitter")
        self.right_splitter.addWidget(self.plot)
        self.right_splitter.addWidget(metrics)
        # Shared evenly: two panels of curves need height to be read (240 at least), and so do
        # the tabs' tables of reasons (at 3:2 the Definitions tab showed 3½ rows at 1366x768).
        self.plot.setMinimumHeight(240)
        self.right_splitter.setStretchFactor(0, 1)
        self.right_splitter.setStretchFactor(1, 1)
        self.right_splitter.setSizes([330, 330])

        self.main_splitter = QSplitter(Qt.Horizontal)
        self.main_splitter.setObjectName("mainSplitter")
        self.main_splitter.addWidget(editor)
        # The metrics, and the run comparison's tab while runs are compared (no tab bar otherwise).
        self.right_tabs = QTabWidget(documentMode=True, tabBarAutoHide=True)
        # Tab must not stop on the tab widget itself: its focus goes to its tab bar, hidden while
        # no run is compared (a Tab stop then kept the focus where it was); the bar is a stop while
        # shown (`RunCompare._show_tab`), its arrow keys switching tabs.
        self.right_tabs.setFocusPolicy(Qt.NoFocus)
        self.right_tabs.tabBar().setFocusPolicy(Qt.NoFocus)
        self.right_tabs.tabBar().setAccessibleName("Curves and figures, or runs compared")
        self.right_tabs.addTab(self.right_splitter, "NDCG at each rank")
        self.main_splitter.addWidget(self.right_tabs)
        # The list's pane is as wide as its ids and figures need (RankingView.minimumSizeHint);
        # the width left goes to the plot and the tables, and so does a wider window.
        self.main_splitter.setStretchFactor(0, 0)
        self.main_splitter.setStretchFactor(1, 1)
        self.main_splitter.setChildrenCollapsible(False)
        self.main_splitter.setSizes([360, 920])
        self.main_splitter.splitterMoved.connect(self._list_pane_moved)
        self._list_pane_set = False  # the person dragged the list's pane wider: kept
        self.ranking_view.widthNeeded.connect(self._fit_list_pane)
        self.setCentralWidget(self.main_splitter)

        # The headline spans the whole width, above the query dock too: a fixed top dock.
        self.headline_dock = QDockWidget("Headline", self)
        self.headline_dock.setObjectName("headlineDock")
        self.headline_dock.setFeatures(QDockWidget.NoDockWidgetFeatures)
        self.headline_dock.setTitleBarWidget(QWidget())
        self.headline_dock.setWidget(self.headline)
        self.addDockWidget(Qt.TopDockWidgetArea, self.headline_dock)
        # Beside the headline, the worked example's note while an example is open.
        self.note_dock = QDockWidget("Worked example", self)
        self.note_dock.setObjectName("exampleNoteDock")
        self.note_dock.setFeatures(QDockWidget.NoDockWidgetFeatures)
        self.note_dock.setTitleBarWidget(QWidget())
        self.note_dock.setWidget(self.example_note)
        self.addDockWidget(Qt.TopDockWidgetArea, self.note_dock)
        self.splitDockWidget(self.headline_dock, self.note_dock, Qt.Horizontal)
        self.note_dock.hide()
        self.example_note.shown.connect(self._show_note)
        self.note_dock.visibilityChanged.connect(self._widen_note)

        # The query browser: a dock on the left, hidden while the file has one query.
        self.query_dock = QDockWidget("Queries", self)
        self.query_dock.setObjectName("queryDock")
        # Closable: Qt greys out View ▸ Queries (the dock's toggle action) for a dock that is not.
        self.query_dock.setFeatures(QDockWidget.DockWidgetClosable | QDockWidget.DockWidgetMovable
                                    | QDockWidget.DockWidgetFloatable)
        self.query_dock.setWidget(self.query_panel)
        self.addDockWidget(Qt.LeftDockWidgetArea, self.query_dock)
        self.query_dock.hide()

    def _list_pane_moved(self, _pos: int, _index: int) -> None:
        self._list_pane_set = True

    def _fit_list_pane(self, _width: int = 0) -> None:
        """The list's pane at the width its columns need (a longer id widens it, a shorter one
        gives the room back to the plot), unless the person set its width by dragging."""
        sizes = self.main_splitter.sizes()
        if self._list_pane_set or len(sizes) != 2 or sum(sizes) <= 0:
            return
        # (never so narrow that the grades box shows no more than "Type grad…")
        want = max(self.main_splitter.widget(0).minimumSizeHint().width(), LIST_PANE_MIN)
        if sizes[0] != want:
            self.main_splitter.setSizes([want, sum(sizes) - want])

    def _name_for_assistive_tech(self) -> None:
        """Names a screen reader says, and Tab moving between panes rather than cells."""
        for widget, name in ((self.ranking_view, "Ranked list"), (self.metrics_view, "Per-rank metrics"),
                             (self.quick_entry, "Type grades"), (self.headline.k, "Cut-off k"),
                             (self.query_panel.table, "Queries"),
                             (self.query_panel.filter_edit, "Filter queries"),
                             (self.plot, "DCG, IDCG and NDCG curves"), (self.why, "Why this NDCG")):
            widget.setAccessibleName(name)
        self.query_panel.table.setTabKeyNavigation(False)

    def _show_query_dock(self) -> None:
        many = self.document.query_count() > 1
        self.query_dock.toggleViewAction().setEnabled(many)  # View ▸ Queries: a file of queries
        if many and not self.query_dock.isVisible():
            self.query_dock.setVisible(True)
            if not getattr(self, "_dock_restored", False):  # else the width the person left it at
                self._size_query_dock()
        elif not many:
            self.query_dock.setVisible(False)

    def _size_query_dock(self) -> None:
        """A narrower dock in a small window, so the list and the figures keep their room.
        resizeDocks is ignored until the layout holds the dock: in a shown window the layout is run
        now, so the window is painted once at its final layout (a big file's install painted the
        plots twice, at two sizes, in one long pass); before the window is shown, a turn later
        (resizeDocks is also ignored before the window is first laid out)."""
        if not self.isVisible():
            QTimer.singleShot(0, self, lambda: self.resizeDocks([self.query_dock], [self.dock_width()],
                                                                Qt.Horizontal))
            return
        self.resizeDocks([self.query_dock], [self.dock_width()], Qt.Horizontal)
        self.layout().activate()

    def _widen_query_dock(self, changes) -> None:
        """Runs compared add columns to the query table: the dock grows to show them whole (up to
        a third of the window; never narrower than the person left it), not behind a scroll bar;
        in a small window it gives way to the side-by-side lists' ids (`_dock_cap`)."""
        if not changes.runs or not self.query_dock.isVisible():
            return
        cap = self._dock_cap()
        want = min(self.query_panel.needed_width(), cap)
        if want > self.query_dock.width() or self.query_dock.width() > cap:
            self.resizeDocks([self.query_dock], [want], Qt.Horizontal)

    def dock_width(self) -> int:
        """The query dock's first width: QUERY_DOCK_WIDTH, less in a window under 1280 px, but
        wide enough for the query table's columns whole while that takes at most a third of it."""
        width = max(self.width(), self.minimumSizeHint().width())  # (what the window grows to)
        usual = min(QUERY_DOCK_WIDTH, max(240, width // 4))
        return min(max(usual, min(self.query_panel.needed_width(), width // 3)), self._dock_cap())

    def _dock_cap(self) -> int:
        """The widest the query dock may be: a third of the window; while runs are compared, less
        when the list's ids and the side-by-side lists (RIGHT_MIN) would not fit beside it."""
        width = max(self.width(), self.minimumSizeHint().width())
        if not self.comparison.active:
            return width // 3
        room = width - self.main_splitter.widget(0).minimumSizeHint().width() - RIGHT_MIN
        return max(self.query_dock.minimumSizeHint().width(), min(width // 3, room))

    def moveEvent(self, event) -> None:
        super().moveEvent(event)
        self._fit_frame_once()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_frame_once()

    def _place_first(self) -> None:
        """No saved geometry: the first window's size and place (`first_geometry`), centred by its
        frame once a window manager has framed it (`_refit`)."""
        self._first_window = True
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            self.resize(USUAL_SIZE)
            return
        place = first_geometry(screen.availableGeometry())
        self.resize(place.size())
        self.move(place.topLeft())

    def _refit(self) -> None:
        """Within the screen again, frame and all; a first window centred again by its frame."""
        self.fit_on_screen()
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is None or not getattr(self, "_first_window", False):
            return
        frame = self.frameGeometry()
        frame.moveCenter(screen.availableGeometry().center())
        if frame.topLeft() != self.frameGeometry().topLeft():
            self.move(frame.topLeft())

    def _fit_frame_once(self) -> None:
        """The first window fitted again, frame and all, once a window manager has framed it: it
        tells the frame's size after the window is shown (a move or resize comes with it), and a
        window fitted by its client area then had its status bar below a 768-pixel screen."""
        if getattr(self, "_frame_fitted", False) or not self.isVisible():
            return
        frame = self.frameGeometry()
        if frame.height() <= self.height():  # (not framed yet, or no window manager)
            return
        self._frame_fitted = True
        if self.size() == self._start_size:  # (not a size asked for since: a screenshot's)
            self._refit()

    def fit_on_screen(self) -> None:
        """Within the screen's available area (a saved size from a bigger screen, or the first
        window on a 1366x768 laptop, sized before its title bar was known, would put the status bar
        below its edge): shrunk to fit, frame and all, and moved onto it."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            return
        area = screen.availableGeometry()
        frame = self.frameGeometry()  # (the size of the title bar and borders, once known)
        extra_w, extra_h = frame.width() - self.width(), frame.height() - self.height()
        width = min(self.width(), area.width() - extra_w)
        height = min(self.height(), area.height() - extra_h)
        if (width, height) != (self.width(), self.height()):
            self.resize(width, height)
        frame = self.frameGeometry()
        x = min(max(frame.x(), area.left()), area.right() + 1 - frame.width())
        y = min(max(frame.y(), area.top()), area.bottom() + 1 - frame.height())
        if (x, y) != (frame.x(), frame.y()):
            self.move(x, y)

