"""WhyTabs: the line above each table says what it shows of the list on screen, whatever its tab
is called (the tabs are told apart by what they show, not by their titles)."""

from __future__ import annotations

from PySide6.QtWidgets import QTableView

from ndcg_gui.qt.widgets.why.why_panes import WhyTabs


def test_each_note_follows_its_table_whatever_the_tab_is_called(qtbot, document):
    tabs = WhyTabs(document, QTableView())
    qtbot.addWidget(tabs)
    for i in range(1, tabs.count()):
        tabs.setTabText(i, f"tab {i}")  # a translated window, say
    missed = tabs.indexOf(tabs.missed_view.parentWidget())
    tabs.setCurrentIndex(missed)
    assert tabs.notes[tabs.missed].text() == "No qrels: only the list's own documents are known."
    moves = tabs.indexOf(tabs.moves_view.parentWidget())
    tabs.setCurrentIndex(moves)
    assert "Best single moves" in tabs.notes[tabs.moves].text()
    document.sort_ideal()  # the ideal order: no move raises NDCG any more
    assert "No single move raises NDCG@" in tabs.notes[tabs.moves].text()
