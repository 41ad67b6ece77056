"""Spark's preset in the window's preset list (issue 22, round 5): listed, greyed, saying why (its
ideal keeps the judgments' given order, which an edited list does not) and where to use it; the
keyboard steps over it, every other preset is offered."""

from __future__ import annotations

from PySide6.QtCore import Qt

from ndcg_gui.core.ndcg.presets import LABELS, PRESETS


def test_spark_is_listed_greyed_with_why_and_the_keys_step_over_it(qtbot, window):
    box = window.headline.definition.preset
    index = box.findData("spark")
    assert index >= 0 and box.itemText(index) == LABELS["spark"]
    assert not box.model().item(index).isEnabled()
    tip = box.itemData(index, Qt.ItemDataRole.ToolTipRole)
    assert "order they are given" in tip and "ndcg-inspect RUN --qrels Q --preset spark" in tip
    assert all(box.findData(name) >= 0 and box.model().item(box.findData(name)).isEnabled()
               for name, preset in PRESETS.items() if preset.ideal_order == "sorted")
    # Down from the preset before it lands on the one after it.
    box.setCurrentIndex(index - 1)
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Down)
    assert box.currentIndex() == index + 1
    assert window.document.measure == PRESETS[box.currentData()].at(window.document.k)  # (offered, and used)
