"""Saving a CSV reordered by hand (issue 34.5): the real question offers new scores, a rank column
or Cancel; either way the saved file reads back in the order given with the window's NDCG, and the
window shows the scores the file now has; Cancel writes nothing."""

from __future__ import annotations

import pandas as pd
import pytest
from PySide6.QtWidgets import QMessageBox

from ndcg_gui.core.reading import load
from ndcg_gui.qt.widgets import dialogs

ASK_RESCORE = dialogs.ask_rescore  # the real question (the window's tests record it instead)
QUERY = "how to descale a nespresso machine"
BUTTONS = {"scores": "New scores n … 1", "rank": "Add a rank column"}


@pytest.fixture
def products(window, tmp_path, monkeypatch):
    """An analyst's CSV without a rank column, with tied scores, and its second query."""
    csv = tmp_path / "products.csv"
    scores = [9, 7, 7, 5, 3, 1]
    csv.write_text("query,doc,score,grade,title\n" + "".join(
        f"{QUERY},P{i},{s},{(i * 2) % 4},title {i}\n" for i, s in enumerate(scores))
        + "other,X1,2.5,1,x\nother,X2,1.5,3,y\n")
    assert window.files.open(csv, ask=False)
    monkeypatch.setattr(dialogs, "ask_rescore", ASK_RESCORE)
    window.document.set_current_query(QUERY)
    window.document.move_rows(4, 1, 1)  # P4 (score 3) to rank 2: the tied 7s stay neighbours
    return csv


def answering(monkeypatch, pick):
    """Each question shown is recorded (its text, its buttons) and answered by `pick(box)`'s button."""
    seen = []

    def exec_(box):
        seen.append((box.text(), [b.text() for b in box.buttons()]))
        pick(box).click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", exec_)
    return seen


def by_text(text):
    return lambda box: next(b for b in box.buttons() if b.text() == text)


@pytest.mark.parametrize("choice", ["scores", "rank"])
def test_a_reordered_csv_saved_either_way_reads_back_in_its_order_and_shows_the_files_scores(
        window, products, monkeypatch, choice):
    doc = window.document
    order = doc.current_list().docs.tolist()
    seen = answering(monkeypatch, by_text(BUTTONS[choice]))
    assert window.files.save()
    text, buttons = seen[0]
    assert f"“{QUERY}”" in text and sorted(buttons) == sorted([*BUTTONS.values(), "Cancel"])
    shown = doc.current_list()
    back = load(products)
    saved = back.ranked_list(QUERY)
    assert saved.docs.tolist() == shown.docs.tolist() == order
    assert saved.scores.tolist() == shown.scores.tolist()  # the window shows what the file says
    model = window.ranking_model
    column = model.column("score")
    cells = [model.index(r, column).data() for r in range(model.rowCount())]
    assert [float(c.split()[-1]) for c in cells] == saved.scores.tolist()  # (tied: "┌ 7")
    pd.testing.assert_frame_equal(back.evaluate(doc.measure.per_query()), doc.evaluate())
    assert back.ranked_list("other").docs.tolist() == ["X1", "X2"]
    if choice == "rank":  # every score as it was, the order in a rank column
        assert sorted(saved.scores.tolist()) == [1, 3, 5, 7, 7, 9]
        assert pd.read_csv(products)["rank"].tolist() == [1, 2, 3, 4, 5, 6, 1, 2]
    else:
        assert saved.scores.tolist() == [6, 5, 4, 3, 2, 1]
    assert doc.is_clean()


def test_cancel_writes_nothing(window, products, monkeypatch):
    before = products.read_bytes()
    seen = answering(monkeypatch, lambda box: box.button(QMessageBox.Cancel))
    assert not window.files.save()
    assert len(seen) == 1 and products.read_bytes() == before and not window.document.is_clean()


def test_after_a_rank_column_is_chosen_later_saves_keep_it_without_asking(window, products, monkeypatch):
    seen = answering(monkeypatch, by_text(BUTTONS["rank"]))
    assert window.files.save()
    window.document.move_rows(0, 1, 5)  # moved again: the rank column keeps this order too
    assert window.files.save()
    assert len(seen) == 1
    assert load(products).ranked_list(QUERY).docs.tolist() == window.document.current_list().docs.tolist()


def test_a_run_is_offered_new_scores_or_cancel_only(window, sample_paths, tmp_path, monkeypatch):
    run = tmp_path / "copy.run"
    run.write_bytes(sample_paths[0].read_bytes())
    assert window.files.open(run, sample_paths[1], ask=False)
    monkeypatch.setattr(dialogs, "ask_rescore", ASK_RESCORE)
    window.document.reverse()
    seen = answering(monkeypatch, by_text(BUTTONS["scores"]))
    assert window.files.save()
    assert sorted(seen[0][1]) == sorted([BUTTONS["scores"], "Cancel"])
