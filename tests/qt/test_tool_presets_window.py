"""The window with the tool presets' rarer choices (IDCG = 0 as 1, ideal depth and order, condensed
lists, rounding, a discount of another base or a table): kept by the definition panel's edits and
by the saved settings."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QSettings, Qt

from ndcg_gui.core.ndcg.measure import PRESETS, MetricConfig
from ndcg_gui.qt.window.main_window import MainWindow


def test_choosing_a_preset_then_the_gain_keeps_its_other_choices(qtbot, window):
    panel = window.headline.definition
    panel.preset.setCurrentIndex(panel.preset.findData("xgboost"))
    panel.preset.activated.emit(panel.preset.currentIndex())
    assert window.document.config == PRESETS["xgboost"].config
    panel.gain.setFocus()
    qtbot.keyClick(panel.gain, Qt.Key_Up)  # 2^grade − 1 → grade (linear)
    config = window.document.config
    assert config.gain == "linear" and config.idcg_zero == "one" and config.ideal == "retrieved"


def test_a_discount_of_another_base_or_a_table_survives_a_gain_change(qtbot, window):
    panel = window.headline.definition
    for discount, base in (("log", math.e), ((1.0, 0.5, 0.25), 2.0)):
        window.document.set_definition(config=MetricConfig(discount=discount, base=base, idcg_zero="one"))
        panel.gain.setFocus()
        qtbot.keyClick(panel.gain, Qt.Key_Down)  # grade → 2^grade − 1
        config = window.document.config
        assert config.gain == "exponential"
        assert (config.discount, config.base, config.idcg_zero) == (MetricConfig(discount=discount).discount,
                                                                     base, "one")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_is_restored_from_the_settings(qtbot, tmp_path, dialog_log, name):
    path = str(tmp_path / "s.ini")
    first = MainWindow(settings=QSettings(path, QSettings.IniFormat))
    qtbot.addWidget(first)
    preset = PRESETS[name]
    config = preset.config.with_(rounding=2) if name == "quepid" else preset.config
    first.document.set_definition(config=config, ties=preset.ties)
    first.save_settings()
    second = MainWindow(settings=QSettings(path, QSettings.IniFormat))
    qtbot.addWidget(second)
    assert second.document.config == config and second.document.ties == preset.ties
    table = MetricConfig(discount=(1, 0.5), judged_only=True, ideal_depth="all")
    first.document.set_definition(config=table)
    first.save_settings()
    third = MainWindow(settings=QSettings(path, QSettings.IniFormat))
    qtbot.addWidget(third)
    assert third.document.config == table
