"""A person's journeys through the window under a real X server (Xvfb), with real input: mouse
presses, moves and releases on the views' viewports (a drag runs Qt's own drag loop, QDrag.exec)
and keys sent to whatever widget has the focus (QApplication.focusWidget()), never to the widget
the test meant. Run by `make test` as `QT_QPA_PLATFORM=xcb xvfb-run -a pytest -m xvfb`.

(a) type a list, Enter, drag a row, Ctrl+Z, Ctrl+Z;  (b) drag a missed document into the list;
(c) every why tab by keyboard alone;  (d) Help ▸ Guide from the keyboard.
The drags run at 1024x700 and 1366x768; the file also passes at 2x scale (QT_SCALE_FACTOR=2 on a
3000x1800 Xvfb screen, checked by hand)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAccessible, QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTabBar,
    QTextBrowser,
    QTextEdit,
)
from real_display import XVFB, drag, shown

from ndcg_gui.core.analysis.whatif import best_insert_row
from ndcg_gui.core.lists import edits
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import ndcg_at
from ndcg_gui.qt.widgets.runs.comparison_pane import FocusedScroll

pytestmark = XVFB
CTRL = Qt.KeyboardModifier.ControlModifier
NONE = Qt.KeyboardModifier.NoModifier


def key(k, modifiers=NONE) -> None:
    """A key pressed by a person: it goes where the focus is."""
    focus = QApplication.focusWidget()
    assert focus is not None, "no widget has the keyboard focus"  # (QTest would abort on None)
    QTest.keyClick(focus, k, modifiers)
    QApplication.processEvents()


def type_text(text: str) -> None:
    QTest.keyClicks(QApplication.focusWidget(), text)


def row_point(view, row: int, column: int = 1) -> QPoint:
    return view.visualRect(view.model().index(row, column)).center()


def above_row(view, row: int) -> QPoint:
    """A point in the top margin of `row`: a drop there lands before it."""
    return view.visualRect(view.model().index(row, 1)).topLeft() + QPoint(20, 2)


def pooled_list() -> RankedList:
    return RankedList(docs=["a", "b", "c", "u"], grades=[0, 1, 2, np.nan], query="q",
                      unretrieved={"z": 3.0, "y": 1.0, "x": 0.0}, has_pool=True)


def show_tab(window, title: str):
    why = window.why
    why.setCurrentIndex(next(i for i in range(why.count()) if why.tabText(i) == title))
    QApplication.processEvents()


# ---- (a) type, Enter, drag with the mouse, undo with the keyboard --------------------------------
@pytest.mark.parametrize("size", [(1024, 700), (1366, 768)])
def test_type_a_list_drag_a_row_and_undo_both_with_ctrl_z(qtbot, window, size):
    shown(window, qtbot, size)
    doc = window.document
    window.quick_entry.setFocus()
    type_text("0 1 3 2")
    key(Qt.Key.Key_Return)
    assert doc.current_list().grades.tolist() == [0, 1, 3, 2]
    view = window.ranking_view
    assert QApplication.focusWidget() is view

    # The third row (grade 3) dragged with the mouse to the top.
    drag(window, qtbot, view.viewport(), row_point(view, 2), view.viewport(), above_row(view, 0),
         lambda: doc.current_list().grades.tolist() == [3, 0, 1, 2])
    assert doc.summary.ndcg == pytest.approx(ndcg_at([3, 0, 1, 2], Measure(k=doc.k)))
    focus = QApplication.focusWidget()
    assert focus is not None

    key(Qt.Key.Key_Z, CTRL)  # wherever the focus is: the drag is undone
    assert doc.current_list().grades.tolist() == [0, 1, 3, 2]
    key(Qt.Key.Key_Z, CTRL)  # and then the typed list
    assert doc.current_list().grades.tolist() == [3, 2, 3, 0, 1]
    key(Qt.Key.Key_Y, CTRL)
    key(Qt.Key.Key_Y, CTRL)
    assert doc.current_list().grades.tolist() == [3, 0, 1, 2]


def test_after_typing_a_list_the_headline_compares_with_the_typed_list(qtbot, window):
    shown(window, qtbot)
    window.quick_entry.setFocus()
    type_text("0 1 3 2")
    key(Qt.Key.Key_Return)
    view, doc = window.ranking_view, window.document
    drag(window, qtbot, view.viewport(), row_point(view, 2), view.viewport(), above_row(view, 0),
         lambda: doc.current_list().grades.tolist() == [3, 0, 1, 2])
    typed = ndcg_at([0, 1, 3, 2], Measure(k=doc.k))  # what a person compares the dragged list with
    said = window.headline.change.text()
    assert f"{doc.summary.ndcg - typed:+.4f}</span> vs as loaded ({typed:.4f})" in said, said
    # Edit ▸ Reset to original, from the keyboard: back to the typed list, not to the example.
    key(Qt.Key.Key_E, Qt.KeyboardModifier.AltModifier)
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu)
    QTest.keyClick(menu, Qt.Key.Key_O)
    QApplication.processEvents()
    assert doc.current_list().grades.tolist() == [0, 1, 3, 2]


# ---- (b) a missed document dragged into the list ---------------------------------------------------
@pytest.mark.parametrize("size", [(1024, 700), (1366, 768)])
def test_drag_a_missed_document_from_the_missed_tab_into_the_list(qtbot, window, size):
    window.document.set_lists({"q": pooled_list()})
    window.document.set_measure(k=3, undoable=False)
    shown(window, qtbot, size)
    show_tab(window, "Missed")
    missed, view, doc = window.why.missed_view, window.ranking_view, window.document
    assert window.why.missed.text(0, 0) == "z"
    before = doc.current_list()
    drag(window, qtbot, missed.viewport(), row_point(missed, 0, 0), view.viewport(), above_row(view, 1),
         lambda: len(doc.current_list()) == 5)
    assert doc.current_list().docs.tolist() == ["a", "z", "b", "c", "u"]
    assert doc.current_list().grades[1] == 3
    assert doc.summary.ndcg == pytest.approx(
        ndcg_at([0, 3, 1, 2, 0], Measure(k=3), judged=[0, 1, 2, 3, 1, 0]))
    assert window.why.missed.rowCount() == 2
    key(Qt.Key.Key_Z, CTRL)
    assert doc.current_list() == before

    # A row of the list dragged within the list still moves (the view now takes drops from the
    # Missed tab too).
    drag(window, qtbot, view.viewport(), row_point(view, 2), view.viewport(), above_row(view, 0),
         lambda: doc.current_list().docs.tolist()[0] == "c")
    assert doc.current_list().docs.tolist() == ["c", "a", "b", "u"]
    assert doc.undo_stack.count() == 1  # the insert was undone and replaced by the move


# ---- (c) every why tab by keyboard alone -----------------------------------------------------------
def tab_to(window, widget, tries: int = 40) -> None:
    """Tab until `widget` has the focus, as a person would."""
    for _ in range(tries):
        if QApplication.focusWidget() is widget:
            return
        key(Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never reached {widget!r}; focus on {QApplication.focusWidget()!r}")


def open_tab_by_keyboard(window, title: str) -> None:
    """From the tab bar, arrow keys to the tab `title`."""
    bar = window.why.tabBar()
    tab_to(window, bar)
    assert isinstance(QApplication.focusWidget(), QTabBar)
    while window.why.tabText(window.why.currentIndex()) != title:
        before = window.why.currentIndex()
        key(Qt.Key.Key_Right)
        assert window.why.currentIndex() != before, f"arrow keys never reached the {title} tab"


def menu_key_entry(text: str) -> None:
    """The menu key on the focused row, then the entry `text` picked with arrow keys and Enter. On X
    the platform plugin turns the menu key into a keyboard context-menu event for the focus widget
    (QTest's key events do not pass through it, and there is no xdotool here): that event is sent."""
    focus = QApplication.focusWidget()
    QApplication.sendEvent(focus, QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, QPoint(4, 4),
                                                    focus.mapToGlobal(QPoint(4, 4))))
    QApplication.processEvents()
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu), "the menu key opened no context menu"
    texts = [a.text() for a in menu.actions()]
    assert text in texts, texts
    for _ in range(len(texts)):
        if menu.activeAction() is not None and menu.activeAction().text() == text:
            break
        QTest.keyClick(menu, Qt.Key.Key_Down)
    QTest.keyClick(menu, Qt.Key.Key_Return)
    QApplication.processEvents()


def test_every_why_tab_by_keyboard_alone(qtbot, window):
    window.document.set_lists({"q": pooled_list()})
    window.document.set_measure(k=3, undoable=False)
    shown(window, qtbot, (1024, 700))
    doc, why, view = window.document, window.why, window.ranking_view
    view.setFocus()

    # Per rank: reached with Tab, read with the arrow keys.
    open_tab_by_keyboard(window, "Per rank")
    tab_to(window, window.metrics_view)
    key(Qt.Key.Key_Down)
    assert window.metrics_view.currentIndex().isValid()

    # Ideal: Down to the third row, Enter selects rank 3 of the list; the menu finds the ideal document.
    open_tab_by_keyboard(window, "Ideal")
    tab_to(window, why.ideal_view)
    key(Qt.Key.Key_Down)
    key(Qt.Key.Key_Down)
    key(Qt.Key.Key_Down)
    row = why.ideal_view.currentIndex().row()
    key(Qt.Key.Key_Return)
    assert view.selected_rows() == [row]
    key(Qt.Key.Key_Home, CTRL)
    key(Qt.Key.Key_Down)  # the second ideal document: c, grade 2, at rank 3 of the list
    menu_key_entry("Find the ideal document in the list")
    assert doc.report.ideal["doc"].iloc[1] == "c"
    assert view.selected_rows() == [2]

    # Missed: Enter puts the first (grade 3) in at its best rank; Ins asks for a rank.
    open_tab_by_keyboard(window, "Missed")
    tab_to(window, why.missed_view)
    key(Qt.Key.Key_Down)
    key(Qt.Key.Key_Home, CTRL)
    lst = doc.current_list()
    best = best_insert_row(lst.grades, 3.0, doc.measure)
    key(Qt.Key.Key_Return)
    assert doc.current_list().docs.tolist()[best] == "z"
    assert view.selected_rows() == [best]

    # What if: Enter finds the row's document in the list.
    open_tab_by_keyboard(window, "What if")
    tab_to(window, why.what_if_view)
    key(Qt.Key.Key_Down)
    key(Qt.Key.Key_Down)
    key(Qt.Key.Key_Return)
    assert view.selected_rows() == [why.what_if_view.currentIndex().row()]

    # Best moves: the second move made from the menu key, then the first with Enter.
    open_tab_by_keyboard(window, "Best moves")
    tab_to(window, why.moves_view)
    moves = doc.report.best_moves()
    key(Qt.Key.Key_Down)
    key(Qt.Key.Key_Home, CTRL)
    key(Qt.Key.Key_Down)
    assert len(moves) > 1 and moves["delta"].iloc[1] > 0
    before = doc.current_list()
    menu_key_entry("Make this move")
    expected = edits.move_to(before, int(moves["from_rank"].iloc[1]), int(moves["to_rank"].iloc[1]))
    assert doc.current_list() == expected.after
    before, moves = doc.current_list(), doc.report.best_moves()
    key(Qt.Key.Key_Home, CTRL)
    key(Qt.Key.Key_Return)
    assert moves["delta"].iloc[0] > 0
    expected = edits.move_to(before, int(moves["from_rank"].iloc[0]), int(moves["to_rank"].iloc[0]))
    assert doc.current_list() == expected.after

    # Unjudged: Enter starts typing the grade of the document in the list; Enter again keeps it.
    open_tab_by_keyboard(window, "Unjudged")
    tab_to(window, why.judge_view)
    key(Qt.Key.Key_Down)
    key(Qt.Key.Key_Home, CTRL)
    rank = int(why.judge.text(0, 0))
    key(Qt.Key.Key_Return)
    assert view.state() == QAbstractItemView.State.EditingState
    type_text("1")
    key(Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: doc.current_list().grades[rank - 1] == 1)

    # Definitions: Enter uses the row's definition; Ctrl+Z (where the keyboard is) goes back.
    open_tab_by_keyboard(window, "Definitions")
    tab_to(window, why.definitions_view)
    frame = doc.report.definitions
    row = next(r for r in range(1, len(frame)) if frame["measure"].iloc[r] != doc.measure)
    key(Qt.Key.Key_Down)
    key(Qt.Key.Key_Home, CTRL)
    for _ in range(row):
        key(Qt.Key.Key_Down)
    config = doc.measure
    key(Qt.Key.Key_Return)
    assert doc.measure == frame["measure"].iloc[row]
    key(Qt.Key.Key_Z, CTRL)
    assert doc.measure == config.at(doc.k)


# ---- (d) Help ▸ Guide from the keyboard --------------------------------------------------------------
def test_help_guide_opens_from_the_keyboard(qtbot, window):
    shown(window, qtbot)
    window.ranking_view.setFocus()
    key(Qt.Key.Key_F1)
    qtbot.waitUntil(lambda: window.guide is not None and window.guide.isVisible())
    browser = window.guide.findChild(QTextBrowser)
    assert "NDCG" in browser.toPlainText() and "0.9724" in browser.toPlainText()
    # ready to scroll with the keys, once the window system has activated the Guide's window
    qtbot.waitUntil(lambda: QApplication.focusWidget() is browser)
    key(Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not window.guide.isVisible())
    window.activateWindow()  # (what a window manager does when a dialog closes; Xvfb has none)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None)
    # And through the menu bar: Alt+H opens Help, G picks Guide.
    key(Qt.Key.Key_H, Qt.KeyboardModifier.AltModifier)
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu) and "Guide" in menu.actions()[0].text().replace("&", "")
    QTest.keyClick(menu, Qt.Key.Key_G)
    qtbot.waitUntil(lambda: window.guide.isVisible())


# ---- (e) issue 34: the whole window by keyboard, with and without runs compared ------------------
def compared(window, qtbot, files, size=(1366, 768)) -> None:
    """The sample run and its qrels open, a second run compared, the window shown at `size`."""
    run, qrels, second = files
    assert window.files.open(run, qrels, ask=False)
    window.compare.add_run(second)
    qtbot.waitUntil(lambda: window.comparison.active and window.right_tabs.count() == 2, timeout=10000)
    window.compare.flush()
    shown(window, qtbot, size)


def focus_walk(k=Qt.Key.Key_Tab, modifiers=NONE, presses: int = 70) -> list:
    """The focus widget before and after each of `presses` presses of `k`."""
    seen = [QApplication.focusWidget()]
    for _ in range(presses):
        key(k, modifiers)
        seen.append(QApplication.focusWidget())
    return seen


def named(widget) -> str:
    return f"{type(widget).__name__} {widget.accessibleName() or widget.objectName()!r}"


# Widgets that draw where the keyboard is (a focus frame, a cursor, a current cell or tab).
SHOWS_FOCUS = (QAbstractItemView, QAbstractButton, QComboBox, QAbstractSpinBox, QLineEdit, QTabBar,
               QPlainTextEdit, QTextEdit, FocusedScroll)


def assert_every_stop_left_and_shown(seen: list) -> None:
    stuck = [named(a) for a, b in itertools.pairwise(seen) if a is b]
    assert not stuck, f"the key never left {stuck[0]} ({len(stuck)} presses)"
    unseen = {named(w) for w in seen if not isinstance(w, SHOWS_FOCUS) or isinstance(w.parent(), QTabBar)}
    assert not unseen, f"focus stops that show no focus: {sorted(unseen)}"


def test_tab_and_shift_tab_leave_every_table_with_runs_compared(qtbot, window, files):
    """Finding 1: Tab, Shift+Tab and Ctrl+Tab cycled through the figures' cells forever."""
    compared(window, qtbot, files)
    stats = window.compare_pane.stats
    for modifiers in (NONE, Qt.KeyboardModifier.ShiftModifier):
        window.ranking_view.setFocus()
        seen = focus_walk(modifiers=modifiers)
        assert stats in seen  # the figures are a stop, and left
        assert_every_stop_left_and_shown(seen)
    stats.setFocus()
    shown_tab = window.right_tabs.currentIndex()
    key(Qt.Key.Key_Tab, CTRL)  # the tab widget's next tab, not the table's next cell
    assert window.right_tabs.currentIndex() != shown_tab
    assert QApplication.focusWidget() is not stats


def test_every_pane_and_tab_is_reached_by_keyboard_without_runs_compared(qtbot, window, files):
    """Finding 2 (and 11's stop after "Show all"): every pane a Tab stop that shows the focus."""
    run, qrels, _ = files
    assert window.files.open(run, qrels, ask=False)
    shown(window, qtbot, (1366, 768))
    window.ranking_view.setFocus()
    seen = focus_walk()
    assert_every_stop_left_and_shown(seen)
    for widget in (window.ranking_view, window.quick_entry, window.headline.k, window.query_panel.filter_edit,
                   window.query_panel.table, window.why.tabBar(), window.metrics_view):
        assert widget in seen, named(widget)


def test_every_pane_and_tab_is_reached_by_keyboard_with_runs_compared(qtbot, window, files):
    """Finding 2: the curves and the Per rank tab could not be reached by keyboard with runs
    compared: two stops showed no focus, and no key or menu entry switched the pane's tabs."""
    compared(window, qtbot, files)
    pane, tabs = window.compare_pane, window.right_tabs
    assert tabs.currentWidget() is pane
    window.ranking_view.setFocus()
    seen = focus_walk()
    assert_every_stop_left_and_shown(seen)
    for widget in (window.query_panel.table, tabs.tabBar(), pane.baseline_combo, pane.focus_combo,
                   pane.stats, pane.method_text, pane.lines_scroll):
        assert widget in seen, named(widget)
    # The side-by-side lists show that the keyboard is on them (their arrow keys scroll them).
    pane.lines_scroll.setFocus()
    focused = pane.lines_scroll.grab().toImage()
    pane.baseline_combo.setFocus()
    assert pane.lines_scroll.grab().toImage() != focused
    # The tab bar reached with Tab, the arrow keys switch to the curves and the per-rank table.
    tab_to(window, tabs.tabBar())
    key(Qt.Key.Key_Left)
    assert tabs.currentWidget() is window.right_splitter
    window.ranking_view.setFocus()
    seen = focus_walk()
    assert_every_stop_left_and_shown(seen)
    assert window.why.tabBar() in seen and window.metrics_view in seen
    # And from the View menu, wherever the focus is.
    for title, page in (("Compare runs", pane), ("NDCG at each rank", window.right_splitter)):
        key(Qt.Key.Key_V, Qt.KeyboardModifier.AltModifier)
        menu = QApplication.activePopupWidget()
        assert isinstance(menu, QMenu)
        entry = next(a for a in menu.actions() if a.text().replace("&", "") == title)
        menu.setActiveAction(entry)
        QTest.keyClick(menu, Qt.Key.Key_Return)
        QApplication.processEvents()
        assert tabs.currentWidget() is page
        assert page.isAncestorOf(QApplication.focusWidget()), named(QApplication.focusWidget())


def test_enter_in_the_query_filter_opens_the_query_left_and_down_goes_into_the_table(qtbot, window, files):
    """Finding 3: Ctrl+F, a query id typed (one row left), then Enter or Down did nothing."""
    run, qrels, _ = files
    assert window.files.open(run, qrels, ask=False)
    shown(window, qtbot, (1366, 768))
    doc, panel = window.document, window.query_panel
    queries = panel.visible_queries()
    target = queries[-2]
    assert doc.current_query != target
    window.ranking_view.setFocus()
    key(Qt.Key.Key_F, CTRL)
    assert QApplication.focusWidget() is panel.filter_edit
    type_text(target)
    assert panel.visible_queries() == [target]
    key(Qt.Key.Key_Return)
    assert doc.current_query == target
    assert QApplication.focusWidget() is panel.table  # Up and Down now walk the queries
    # Down from the filter: into the table, on the first query listed (opened).
    key(Qt.Key.Key_F, CTRL)
    type_text(queries[0][:-1])  # (selected by Ctrl+F: typing replaces it)
    listed = panel.visible_queries()
    assert len(listed) > 1 and target not in listed
    key(Qt.Key.Key_Down)
    assert QApplication.focusWidget() is panel.table
    assert doc.current_query == listed[0]
    key(Qt.Key.Key_Down)
    assert doc.current_query == listed[1]


def test_a_csvs_titles_read_whole_for_the_row_the_keyboard_is_on(qtbot, window, tmp_path):
    """Finding 6: a CSV's `title` showed two letters ("So", "Bo") in the list's pane at 1366x768
    and at 1920; the current row's own columns now read whole under the list."""
    titles = ["How to descale a Nespresso machine in five steps (official guide)",
              "Bose QuietComfort 45 review", "Southern cooking basics: a roux"]
    csv = tmp_path / "products.csv"
    csv.write_text("query,doc,score,grade,title,url\n" + "".join(
        f'q1,P{i},{9 - i},{i % 3},"{t}",https://example.com/p/{i}\n' for i, t in enumerate(titles)))
    assert window.files.open(csv, ask=False)
    shown(window, qtbot, (1366, 768))
    view, detail = window.ranking_view, window.row_detail
    column = view.ranking_model().column("extra:title")
    cell = view.visualRect(view.model().index(0, column))
    assert cell.right() > view.viewport().width()  # (past the pane's edge: the list cannot show it)
    view.setFocus()
    key(Qt.Key.Key_Home, CTRL)
    for row, title in enumerate(titles):
        assert view.current_row() == row
        said = detail.shown_text()
        assert detail.isVisible() and title in said and f"example.com/p/{row}" in said, said
        assert detail.height() >= detail.heightForWidth(detail.width())  # every line it takes, drawn
        assert view.model().index(row, column).data(Qt.ItemDataRole.ToolTipRole) == title
        key(Qt.Key.Key_Down)
    # A list without columns of its own: no line.
    window.quick_entry.setFocus()
    type_text("3 2 1")
    key(Qt.Key.Key_Return)
    assert not detail.isVisible()


@pytest.mark.parametrize("size", [(1024, 700), (1366, 768)])
def test_small_things_a_person_saw(qtbot, window, size):
    """Finding 11: the grades box's hint cut ("Type grades, e.g. 3 …"), the k box jumping sideways
    when "vs as loaded" appears, and the guide titled "NDCG Inspector — Guide — NDCG Inspector"."""
    from ndcg_gui import APP_NAME

    shown(window, qtbot, size)
    box = window.quick_entry
    frame = box.style().pixelMetric(box.style().PixelMetric.PM_DefaultFrameWidth)
    room = box.contentsRect().width() - 2 * frame
    assert box.fontMetrics().horizontalAdvance(box.placeholderText()) <= room, box.placeholderText()
    k_at = window.headline.k.mapTo(window, window.headline.k.rect().topLeft())
    window.document.reverse()  # "▼ … vs as loaded" appears beside the figures
    QApplication.processEvents()
    assert "vs as loaded" in window.headline.change.text()
    assert window.headline.k.mapTo(window, window.headline.k.rect().topLeft()) == k_at
    window.show_guide()
    qtbot.waitUntil(lambda: window.guide.windowHandle() is not None)
    title = window.guide.windowTitle()
    assert title.endswith(APP_NAME) and title.count(APP_NAME) == 1 and "Guide" in title


def test_every_focus_stop_has_a_name_a_screen_reader_says(qtbot, window, files):
    """Finding 12 (its accessible names): every control the keyboard stops at is named through
    Qt's accessibility interface (what a screen reader reads), runs compared or not."""
    compared(window, qtbot, files)
    unnamed = set()
    for page in (1, 0):  # the comparison, then the curves and tables
        window.right_tabs.setCurrentIndex(page)
        window.ranking_view.setFocus()
        for widget in focus_walk():
            face = QAccessible.queryAccessibleInterface(widget)
            name = face.text(QAccessible.Text.Name).strip() if face is not None else ""
            if isinstance(widget, QComboBox):  # (on X, Qt names a box by its value, "trec_eval",
                # and a screen reader reads what it chooses from the label it is labelled by)
                labels = face.relations(QAccessible.RelationFlag.Label)
                name = " ".join(f.text(QAccessible.Text.Name) for f, _ in labels).strip()
                name = name or widget.accessibleName()  # (a box with no label beside it: its own)
            if not name:
                unnamed.add(f"{named(widget)} in {type(widget.parent()).__name__}")
    assert not unnamed, sorted(unnamed)


# ---- (f) issue 35: segments opened, one picked with the mouse and the keys, its mean read ----------
def test_open_segments_pick_one_and_read_its_mean(qtbot, window, files, tmp_path):
    """Opened as File ▸ Open segments… opens what its dialog returns (the dialog may be the
    desktop's own, which no test types into; files are opened the same way in the journeys above)."""
    run, qrels, _ = files
    queries = sorted({line.split()[0] for line in qrels.read_text().splitlines()})
    chosen = {q: ("mobile", "desktop")[i % 2] for i, q in enumerate(queries)}
    path = tmp_path / "segments.tsv"
    path.write_text("".join(f"{q}\t{s}\n" for q, s in chosen.items()))
    assert window.files.open(run, qrels, ask=False)
    shown(window, qtbot, (1366, 768))
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&File")
    assert window.actions.open_segments in menu.actions()
    window.segments.open(path)
    qtbot.waitUntil(lambda: window.document.state.segments is not None, timeout=20_000)
    panel = window.query_panel
    combo = panel.segment_combo
    qtbot.waitUntil(combo.isVisible)
    QTest.mouseClick(combo, Qt.LeftButton)  # its list opens; the keys pick in it
    qtbot.waitUntil(lambda: combo.view().isVisible())
    target = combo.findData("mobile")
    for _ in range(target - combo.view().currentIndex().row()):
        QTest.keyClick(combo.view(), Qt.Key.Key_Down)
    QTest.keyClick(combo.view(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: panel.segment == "mobile")
    scores = window.scores.result
    members = [q for q in map(str, scores.index) if chosen.get(q) == "mobile"]
    assert sorted(panel.visible_queries()) == sorted(members)
    mean = scores.loc[members, "ndcg"].mean()
    assert panel.mean_label.text() == (f"Segment mobile: mean NDCG@10 = {mean:.4f} over {len(members)} of "
                                       f"{len(members)} queries")
    # The table's last row, by the keys: a query of the segment opens, the segment stays picked.
    panel.table.setFocus()
    key(Qt.Key.Key_End, CTRL)
    last = panel.visible_queries()[-1]
    assert window.document.current_query == last and last in members and panel.segment == "mobile"


# ---- (f) issue 35.3: two runs compared without qrels, the most different query opened ------------
def test_compare_two_runs_without_qrels_and_open_the_most_different_query(qtbot, window, files, monkeypatch,
                                                                          tmp_path):
    """File ▸ Compare runs without judgments… (its dialog answered as a person would pick the two
    files), the query table clicked to sort by id, then Go ▸ Most different first from the keyboard:
    the table lists the lowest RBO first and its query is open with the two lists side by side. A
    grab of the window, light and dark, goes to NDCG_SCREENSHOTS (or the test's folder) to look at."""
    import os

    import ndcg_gui.qt.window.comparison as comparison
    from ndcg_gui.core.lists.query_order import natural_key
    from ndcg_gui.qt.models.query_model import COL_NDCG, COL_QUERY
    from ndcg_gui.qt.models.query_runs import UNJUDGED
    from ndcg_gui.qt.models.run_diff_model import COL_DOC, COL_RANK_A, COL_RANK_B

    run, _, second = files
    monkeypatch.setattr(comparison.QFileDialog, "getOpenFileNames",
                        staticmethod(lambda *_args, **_kw: ([str(run), str(second)], "")))
    shown(window, qtbot, (1366, 768))
    key(Qt.Key.Key_F, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu))
    menu = QApplication.activePopupWidget()
    entry = next(a for a in menu.actions() if a.text().replace("&", "") == "Compare runs without judgments…")
    menu.setActiveAction(entry)
    QTest.keyClick(menu, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.comparison.active and not window.compare.busy(), timeout=20_000)
    panel, c = window.query_panel, window.comparison
    assert not c.judged and window.right_tabs.currentWidget() is window.compare_pane
    # A click on the Query header (a person's mouse): sorted by id, then most different first by keys.
    header = panel.table.horizontalHeader()
    x = header.sectionViewportPosition(COL_QUERY) + header.sectionSize(COL_QUERY) // 2
    QTest.mouseClick(header.viewport(), Qt.LeftButton, NONE, QPoint(x, header.height() // 2))
    qtbot.waitUntil(lambda: header.sortIndicatorSection() == COL_QUERY)
    window.ranking_view.setFocus()
    key(Qt.Key.Key_G, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu))
    menu = QApplication.activePopupWidget()
    entry = next(a for a in menu.actions() if a.text().replace("&", "") == "Most different first")
    menu.setActiveAction(entry)
    QTest.keyClick(menu, Qt.Key.Key_Return)
    QApplication.processEvents()
    overlap = c.overlap
    order = sorted(overlap.index, key=lambda q: (overlap.at[q, "rbo"], natural_key(q)))
    listed = panel.visible_queries()
    assert listed == [q for q in order if q in listed] and header.sortIndicatorSection() == \
        panel.model.overlap_column("rbo")
    top = listed[0]
    qtbot.waitUntil(lambda: window.document.current_query == top)
    assert panel.model.index(0, COL_NDCG).data() == UNJUDGED
    # Its lists side by side, each document at its rank in either run.
    diff = window.compare_pane.diff_model
    qtbot.waitUntil(lambda: diff.rowCount() > 0)
    ranks = [{d: i + 1 for i, d in enumerate(c.list_for(name, top).docs)} for name in ("sample", "second")]
    for row in range(diff.rowCount()):
        doc = diff.index(row, COL_DOC).data()
        assert diff.index(row, COL_RANK_A).data() == str(ranks[0].get(doc, "–"))
        assert diff.index(row, COL_RANK_B).data() == str(ranks[1].get(doc, "–"))
    assert window.compare_pane.lines_title.text() == f"Query {top}: sample (left) and second (right)"
    # The table whole in its dock: every shown column inside the viewport, no scroll bar.
    table = panel.table
    qtbot.waitUntil(lambda: not table.horizontalScrollBar().isVisible())  # (once the table is laid out)
    last = max(col for col in range(panel.model.columnCount()) if not table.isColumnHidden(col))
    assert header.sectionViewportPosition(last) + header.sectionSize(last) <= table.viewport().width()
    folder = os.environ.get("NDCG_SCREENSHOTS") or str(tmp_path)
    for scheme in ("light", "dark"):
        window.colour_scheme.choose(scheme, remember=False)
        QApplication.processEvents()
        assert window.grab().save(os.path.join(folder, f"compare-without-judgments-{scheme}.png"))
