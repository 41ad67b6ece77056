"""Help ▸ Guide (issue 19, finding 11): a page in the window, its text shipped in the wheel
(resources/guide.html), and every figure of its worked example the core's own."""

from __future__ import annotations

import re

from conftest import show_active
from PySide6.QtWidgets import QApplication, QTextBrowser

from ndcg_gui import assets
from ndcg_gui.core import Measure, best_moves, compare_definitions, ndcg_at, per_rank
from ndcg_gui.core.ndcg.presets import DEFAULT_PRESET, preset

E1 = [3, 2, 3, 0, 1]
FIGURE = re.compile(r"(?<![\d.])[+−-]?\d+\.\d{4}(?!\d)")


def guide() -> str:
    return assets.read_bytes("guide.html").decode("utf-8")


def worked_example() -> str:
    text = guide()
    start = text.index('id="worked-example"')
    return text[start:text.index("<h2", start)]


def test_the_worked_example_table_is_the_cores_per_rank_table():
    config = preset(DEFAULT_PRESET)  # the definition the window opens on
    table = per_rank(E1, config)
    section = worked_example()
    rows = re.findall(r"<tr>((?:<td>[^<]*</td>)+)</tr>", section)
    cells = [re.findall(r"<td>([^<]*)</td>", row) for row in rows]
    expected = [[f"{r.rank}", f"{r.grade:g}", f"{r.gain:g}", f"{r.discount:.4f}", f"{r.cg:g}", f"{r.dcg:.4f}",
                 f"{r.ideal_grade:g}", f"{r.idcg:.4f}", f"{r.ndcg:.4f}"] for r in table.itertuples()]
    assert cells == expected


def test_every_figure_of_the_worked_example_comes_from_the_core():
    config = preset(DEFAULT_PRESET)
    table = per_rank(E1, config)
    figures = {f"{x:.4f}" for column in ("discount", "dcg", "idcg", "ndcg") for x in table[column]}
    figures |= {f"{ndcg_at(E1, config.with_(k=k)):.4f}" for k in (5, 10)}
    figures.add(f"{ndcg_at(E1, config.with_(k=5), judged=[*E1, 3]):.4f}")  # a grade-3 document missed
    moves = best_moves(E1, config.with_(k=10))
    figures |= {f"{x:.4f}" for x in moves["ndcg_after"]} | {f"+{x:.4f}" for x in moves["delta"]}
    figures |= {f"{x:.4f}" for x in compare_definitions(E1, Measure(k=5), current=False)["ndcg"]}
    figures.add(f"{3 / 2:.4f}")  # 3 / log2(4), written out
    said = FIGURE.findall(worked_example())
    assert said and set(said) <= figures, sorted(set(said) - figures)
    # What it says in words is what the core says: NDCG@5, the best move, the missed document.
    text = worked_example()
    assert f"<b>{ndcg_at(E1, config.with_(k=5)):.4f}</b>" in text
    assert f"{moves['from_rank'].iloc[0]} → {moves['to_rank'].iloc[0]}" in text
    assert f"would be {ndcg_at(E1, config.with_(k=5), judged=[*E1, 3]):.4f}" in text
    presets = compare_definitions(E1, Measure(k=5), current=False).set_index("preset")["ndcg"]
    assert f"ranx_burges) the same list scores {presets['ranx_burges']:.4f}" in text
    assert f"(preset jarvelin2002), {presets['jarvelin2002']:.4f}" in text


def test_help_guide_opens_a_page_in_the_window(qtbot, window):
    show_active(window, qtbot)
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    assert [a.text() for a in help_menu.actions() if not a.isSeparator()] == [
        "&Guide", "&Worked examples", "&Step by step", "E&xercise…", "Two &definitions side by side…",
        "&About"]
    window.actions.guide.trigger()
    qtbot.waitUntil(lambda: window.guide is not None and window.guide.isVisible())
    assert window.guide.parent() is window and not window.guide.isModal()
    browser = window.guide.findChild(QTextBrowser)
    text = browser.toPlainText()
    for words in ("Ideal", "Moved", "unjudged band", "Best moves", "Missed", "Definitions", "0.9724"):
        assert words.lower() in text.lower(), words
    show_active(window.guide, qtbot)  # (offscreen, a shown dialog is not activated by itself)
    assert QApplication.focusWidget() is browser
    assert window.guide.width() <= window.width() and window.guide.height() <= window.height()
