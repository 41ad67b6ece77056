"""The Definitions tab's "Only have another tool's mean?" box (issue 22.2): a person pastes a figure
and a tool's name, presses Enter, and reads which presets (and k) give it on the open run."""

from __future__ import annotations

import re

import pytest
from conftest import show_active
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from ndcg_gui.core import evaluate
from ndcg_gui.core.ndcg.evaluate import mean_ndcg
from ndcg_gui.core.ndcg.presets import PRESETS
from ndcg_gui.qt.widgets.why import which_preset_box


def ks_of(said: str, preset: str) -> set:
    """The cut-offs at which the answer says `preset` gives the figure (None: the whole list);
    as tests/core/analysis/test_which_preset.py reads it."""
    found: set = set()
    body = said.split(" is what ", 1)[1].split(".")[0] if " is what " in said else ""
    for part in body.split("; "):
        names, _, at = part.partition(" at ")
        if preset in names.removesuffix(" gives").removesuffix(" give").split(", "):
            found |= {None} if "the whole list" in at else set()
            found |= {int(k) for k in re.findall(r"\d+", at.split(" and the whole list")[0])}
    return found


def preset_mean(files, preset: str, k: int) -> float:
    from run_samples import read_qrels, read_run

    run, qrels = read_run(files[0]), read_qrels(files[1])
    chosen = PRESETS[preset]
    return mean_ndcg(evaluate(run[["query", "doc", "score"]], qrels[["query", "doc", "grade"]],
                              chosen.with_(k=k)))


def ask(window, qtbot, text: str):
    """The Definitions tab shown, the box given the focus by a click, `text` typed, Enter."""
    why = window.why
    why.setCurrentIndex(next(i for i in range(why.count()) if why.tabText(i) == "Definitions"))
    box = why.which
    qtbot.waitUntil(box.edit.isVisible)
    QTest.mouseClick(box.edit, Qt.MouseButton.LeftButton)
    assert QApplication.focusWidget() is box.edit
    QTest.keyClicks(box.edit, text)
    QTest.keyClick(box.edit, Qt.Key.Key_Return)
    return box


def test_a_pasted_trec_eval_mean_names_trec_eval_at_its_k(qtbot, window, files):
    window.resize(1366, 768)
    assert window.files.open(files[0], files[1], ask=False)
    show_active(window, qtbot)
    figure = f"{preset_mean(files, 'trec_eval', 20):.4f}"
    box = ask(window, qtbot, f"{figure} from trec_eval")
    said = box.answer.text()
    assert said.startswith(f"{figure} (to 4 decimals) is what ")
    assert 20 in ks_of(said, "trec_eval")
    # Another file: the answer is of the file before, and says so.
    window.document.set_lists({"q": window.document.current_list()})
    assert box.answer.text() == "Another file is open: Enter to ask again."


def test_text_without_a_figure_is_told_what_was_expected(qtbot, window):
    show_active(window, qtbot)
    box = ask(window, qtbot, "ranx says about forty percent")
    assert box.answer.text().startswith("⚠ ") and "expected a mean NDCG between 0 and 1" in box.answer.text()


def test_a_big_run_is_answered_from_the_background(qtbot, window, files, monkeypatch):
    monkeypatch.setattr(which_preset_box, "BACKGROUND_ROWS", 1)
    assert window.files.open(files[0], files[1], ask=False)
    show_active(window, qtbot)
    figure = f"{preset_mean(files, 'sklearn', 10):.3f}"
    box = ask(window, qtbot, f"sklearn: {figure}")
    assert box.answer.text() == "Scoring every preset on this run…"
    qtbot.waitUntil(lambda: box.answer.text().startswith(figure), timeout=20000)
    assert 10 in ks_of(box.answer.text(), "sklearn")


@pytest.mark.parametrize("size", [(1024, 700), (1366, 768)])
def test_the_box_at_small_sizes(qtbot, window, files, size, tmp_path):
    window.resize(*size)
    assert window.files.open(files[0], files[1], ask=False)
    show_active(window, qtbot)
    box = ask(window, qtbot, f"{preset_mean(files, 'ranx', 10):.4f} from ranx")
    qtbot.wait(50)
    assert box.answer.height() >= box.answer.heightForWidth(box.answer.width())  # the answer whole
    assert box.edit.width() >= box.edit.fontMetrics().horizontalAdvance("0.4127 from ranx")
    panel = window.why.difference
    assert panel.width() <= panel.parentWidget().width()  # no line runs past the pane's edge
    qtbot.waitUntil(lambda: box.answer.visibleRegion().boundingRect().height() == box.answer.height())
    window.grab().save(str(tmp_path / f"which_{size[0]}x{size[1]}.png"))
