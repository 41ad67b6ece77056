"""Issue 34, findings 3 and 11: the "Δ rerank" header of the query table touched the sort arrow
when sorted by it, and the list's "Rank" and "Document" headers were cut. Each title is measured
as Qt draws it: in the font of its state (bold where a highlighting header's column is crossed by
the selection), against the label's rect the style leaves beside the sort arrow (SE_HeaderLabel,
SE_HeaderArrow), with a row selected and each column sorted by in turn."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionHeader
from test_why_tabs_room import opened


def too_narrow(view) -> list[str]:
    """The headers whose title, as drawn, is wider than its label's room or meets the sort arrow."""
    header, model = view.horizontalHeader(), view.model()
    style = header.style()
    cut = []
    for column in range(header.count()):
        if header.isSectionHidden(column):
            continue
        option = QStyleOptionHeader()
        header.initStyleOption(option)
        header.initStyleOptionForIndex(option, column)
        at = header.sectionViewportPosition(column)
        option.rect = QRect(at, 0, header.sectionSize(column), header.height())
        label = style.subElementRect(QStyle.SubElement.SE_HeaderLabel, option, header)
        font = QFont(header.font())
        font.setBold(bool(option.state & QStyle.StateFlag.State_On))  # (QCommonStyle's CE_HeaderLabel)
        need = QFontMetrics(font).horizontalAdvance(option.text)
        title = model.headerData(column, Qt.Orientation.Horizontal)
        if need > label.width():
            cut.append(f"{title!r}: {need} px of text, {label.width()} px of room")
        if option.sortIndicator != QStyleOptionHeader.SortIndicator.None_:
            arrow = style.subElementRect(QStyle.SubElement.SE_HeaderArrow, option, header)
            if label.left() + need >= arrow.left():
                cut.append(f"{title!r}: text to {label.left() + need}, the arrow from {arrow.left()}")
    return cut


def test_every_query_table_header_has_room_for_its_title_and_the_sort_arrow(qtbot, window, files):
    opened(window, qtbot, files, (1366, 768), compared=True)
    table = window.query_panel.table
    header = table.horizontalHeader()
    assert header.isSortIndicatorShown() and header.count() > 5  # the runs' columns are there
    for column in range(header.count()):
        for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
            table.sortByColumn(column, order)
            table.selectRow(0)  # (the query shown is selected: every title bold)
            QApplication.processEvents()
            assert header.sortIndicatorSection() == column
            assert too_narrow(table) == [], (column, order)


@pytest.mark.parametrize("size", [(1024, 700), (1366, 768)])
@pytest.mark.parametrize("compared", [False, True])
def test_the_lists_headers_are_whole_with_a_row_selected(qtbot, window, files, size, compared):
    opened(window, qtbot, files, size, compared)
    view = window.ranking_view
    view.selectRow(2)  # a selection crosses every column (bold titles where a header highlights)
    window.metrics_view.selectRow(2)
    QApplication.processEvents()
    assert too_narrow(view) == []
    assert too_narrow(window.metrics_view) == []


@pytest.mark.parametrize("size", [(1024, 700), (1366, 768)])
def test_a_csvs_own_columns_have_whole_headers_too(qtbot, window, size):
    """An analyst's CSV (docs/tour/ranking.csv: a title column) with a row selected."""
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    assert window.files.open(Path(__file__).parents[2] / "docs" / "tour" / "ranking.csv", ask=False)
    view = window.ranking_view
    model = view.model()
    assert "title" in [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    view.selectRow(1)
    QApplication.processEvents()
    assert too_narrow(view) == []
