"""The window with the tool presets' rarer choices (IDCG = 0 as 1, ideal depth and order, condensed
lists, rounding, a discount of another base or a table): kept by the definition panel's edits and
by the saved settings."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QSettings, Qt

from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.presets import PRESETS
from ndcg_gui.qt.window.main_window import MainWindow


def test_choosing_a_preset_then_the_gain_keeps_its_other_choices(qtbot, window):
    panel = window.headline.definition
    panel.preset.setCurrentIndex(panel.preset.findData("xgboost"))
    panel.preset.activated.emit(panel.preset.currentIndex())
    assert window.document.measure == PRESETS["xgboost"].at(window.document.k)
    panel.gain.setFocus()
    qtbot.keyClick(panel.gain, Qt.Key_Up)  # 2^grade − 1 → grade (linear)
    config = window.document.measure
    assert config.gain == "linear" and config.idcg_zero == "one" and config.ideal == "retrieved"


def test_a_discount_of_another_base_or_a_table_survives_a_gain_change(qtbot, window):
    panel = window.headline.definition
    for discount, base in (("log", math.e), ((1.0, 0.5, 0.25), 2.0)):
        window.document.set_measure(Measure(discount=discount, base=base, idcg_zero="one"))
        panel.gain.setFocus()
        qtbot.keyClick(panel.gain, Qt.Key_Down)  # grade → 2^grade − 1
        config = window.document.measure
        assert config.gain == "exponential"
        assert (config.discount, config.base, config.idcg_zero) == (Measure(discount=discount).discount,
                                                                     base, "one")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_is_restored_from_the_settings(qtbot, tmp_path, dialog_log, name):
    path = str(tmp_path / "s.ini")
    first = MainWindow(settings=QSettings(path, QSettings.IniFormat))
    qtbot.addWidget(first)
    preset = PRESETS[name]
    config = preset.with_(rounding=2) if name == "quepid" else preset
    first.document.set_measure(config)
    first.save_settings()
    second = MainWindow(settings=QSettings(path, QSettings.IniFormat))
    qtbot.addWidget(second)
    assert second.document.measure == config.at(second.document.k)  # (its tie rule included)
    table = Measure(discount=(1, 0.5), judged_only=True, ideal_depth="all")
    first.document.set_measure(table)
    first.save_settings()
    third = MainWindow(settings=QSettings(path, QSettings.IniFormat))
    qtbot.addWidget(third)
    assert third.document.measure == table.at(third.document.k)


# Settings files as the code before the one `Measure` wrote them (the definition's fields, k and
# ties under [definition]): each still opens as the measure it said.
_BEFORE_THE_MEASURE = {
    "lightgbm, its own gains and rounding, at k = 7": (
        "[definition]\nbase=2\ndiscount=log2\ngain=\"0=0,1=2,2=5\"\nidcg_zero=one\nideal=retrieved\n"
        "ideal_depth=k\nideal_order=sorted\njudged_only=False\nk=7\nnegative=keep\nprecision=float64\n"
        "rounding=3\nties=file\ntruncate_grades=False\n",
        PRESETS["lightgbm"].with_(gain={0: 0, 1: 2, 2: 5}, rounding=3, k=7)),
    "a discount table, condensed, ties averaged, at k = 3": (
        "[definition]\nbase=2\ndiscount=\"table:1.0,0.5,0.25\"\ngain=linear\nidcg_zero=zero\nideal=judged\n"
        "ideal_depth=k\nideal_order=sorted\njudged_only=True\nk=3\nnegative=keep\nprecision=float64\n"
        "rounding=\nties=average\ntruncate_grades=False\n",
        Measure(discount=(1.0, 0.5, 0.25), judged_only=True, precision="float64", ties="average", k=3)),
}


@pytest.mark.parametrize("name", sorted(_BEFORE_THE_MEASURE))
def test_a_settings_file_written_before_the_measure_opens_as_the_measure_it_said(qtbot, tmp_path,
                                                                                  dialog_log, name):
    text, expected = _BEFORE_THE_MEASURE[name]
    path = tmp_path / "s.ini"
    path.write_text(text)
    window = MainWindow(settings=QSettings(str(path), QSettings.IniFormat))
    qtbot.addWidget(window)
    assert window.document.measure == expected
    window.save_settings()  # written again under the keys it always had, read back the same
    again = MainWindow(settings=QSettings(str(path), QSettings.IniFormat))
    qtbot.addWidget(again)
    assert again.document.measure == expected
    (tmp_path / "old.ini").write_text(text)
    old = QSettings(str(tmp_path / "old.ini"), QSettings.IniFormat)
    new = QSettings(str(path), QSettings.IniFormat)
    assert {k for k in new.allKeys() if k.startswith("definition/")} == set(old.allKeys())
