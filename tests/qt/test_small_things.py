"""Issue 34, finding 11 (the small ones, offscreen; the journeys have the placeholder, the k box
and the guide's title): a preset changed silently by another box, a negative "Loss" said as a
number, a dialog's title cut by the window manager."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QApplication, QInputDialog

from ndcg_gui import APP_NAME
from ndcg_gui.core.ndcg.presets import LABELS, PRESETS
from ndcg_gui.qt.widgets import dialogs
from ndcg_gui.qt.widgets.dialogs import ask_number as REAL_ASK_NUMBER  # (before conftest's stand-in)


def pick(box, data) -> None:
    """A choice made in a combo box as a person makes it (the box says `activated`)."""
    box.setCurrentIndex(box.findData(data))
    box.activated.emit(box.currentIndex())


def test_a_gain_that_makes_another_preset_says_so(qtbot, window):
    """2^grade − 1 with the rest of ranx is ranx (Burges)'s definition: the preset box switched to
    it without a word. Each preset that exponential gain turns into another is tried."""
    panel, doc = window.headline.definition, window.document
    turned = []
    for name, preset in PRESETS.items():
        offered = panel.preset.model().item(panel.preset.findData(name)).isEnabled()
        if not offered or preset.gain != "linear":
            continue
        pick(panel.preset, name)
        if panel.preset.currentData() != name:  # (the same definition as a preset listed before it)
            continue
        window.statusBar().clearMessage()
        pick(panel.gain, "exponential")
        now = panel.preset.currentData()
        said = window.statusBar().currentMessage()
        if now == "custom":  # (no preset has this definition: nothing to say of one)
            assert "definition" not in said, said
            continue
        turned.append((name, now))
        assert "2^grade − 1" in said and LABELS[now] in said and LABELS[name] in said, said
        doc.undo_stack.undo()
        assert panel.preset.currentData() == name
    assert ("ranx", "ranx_burges") in turned, turned


def test_what_if_says_a_negative_loss_is_a_gain(qtbot, window):
    """E1 (3 2 3 0 1): rank 5 holds a 1 where the ideal has a 0, so its loss against the ideal is
    −0.3869: said as a gain, not as a loss of −0.3869."""
    why = window.why
    why.setCurrentWidget(why.what_if_view.parentWidget())
    table = why.what_if
    column = [table.headerData(c, Qt.Orientation.Horizontal) for c in range(table.columnCount())].index(
        "Loss or gain")
    loss = window.document.report.move_effects["loss"].to_numpy()
    assert loss[4] < 0 < loss[3]
    texts = [table.text(r, column) for r in range(table.rowCount())]
    assert texts[4] == f"gains {-loss[4]:.4f}" and texts[3] == f"loses {loss[3]:.4f}", texts
    assert not any(t.startswith(("-", "−")) for t in texts)
    assert np.isclose(sum(loss[:5]), window.document.summary.idcg - window.document.summary.dcg)


def test_a_dialog_is_wide_enough_for_its_title_in_a_title_bar(qtbot, window, monkeypatch):
    """"Move to rank — NDCG Inspector" read "Move to…spector" in openbox's title bar."""
    shown = []

    def look(dialog) -> int:  # (instead of waiting for a person: the dialog as it would show)
        dialog.adjustSize()
        shown.append((dialog.windowTitle(), dialog.width()))
        return 0

    monkeypatch.setattr(dialogs, "ask_number", REAL_ASK_NUMBER)  # (the dialog itself, not conftest's)
    monkeypatch.setattr(QInputDialog, "exec", look)
    window.ranking_view.setFocus()
    window.ranking_view.select_rows(1, 1)
    assert not window.editing.move_to_rank()  # (rejected: nothing moved)
    assert shown and shown[0][0] == "Move to rank"
    font = QFont(QApplication.font())
    font.setBold(True)
    title = QFontMetrics(font).horizontalAdvance(f"Move to rank — {APP_NAME}")
    assert shown[0][1] >= title + 3 * 20 + 24, (shown, title)  # three buttons and the icon beside it
