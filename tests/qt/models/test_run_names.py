"""Run names in the query table's headers (issue 34.8): long names that share their start were all
cut to the same "dlhard-p…"; each is now shortened by what tells it from the others."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import Qt

from ndcg_gui.qt.models.query_runs import NAME_CHARS, distinct_names

PEOPLE_NAME_RUNS = ["dlhard-passage-bm25", "dlhard-passage-monot5", "dlhard-passage-colbert-v2"]


def test_the_start_every_name_shares_is_dropped_and_said():
    shown = distinct_names(PEOPLE_NAME_RUNS)
    assert shown["dlhard-passage-bm25"] == "…bm25" and shown["dlhard-passage-monot5"] == "…monot5"
    assert len(set(shown.values())) == 3 and all(len(s) <= NAME_CHARS for s in shown.values())


def test_short_names_stay_as_they_are_and_a_name_is_never_emptied():
    assert distinct_names(["sample", "second"]) == {"sample": "sample", "second": "second"}
    assert distinct_names(["bm25", "bm25-rm3"]) == {"bm25": "bm25", "bm25-rm3": "bm25-rm3"}
    assert distinct_names(["run_a_v1", "run_b_v1"]) == {"run_a_v1": "…a…", "run_b_v1": "…b…"}


names = st.text(alphabet="ab-_.1", min_size=1, max_size=30)


@given(st.lists(names, min_size=1, max_size=5, unique=True))
def test_distinct_names_are_told_apart(runs):
    shown = distinct_names(runs)
    assert set(shown) == set(runs)
    assert len(set(shown.values())) == len(runs), shown
    for name, text in shown.items():
        assert text  # never empty
        # What is shown is taken from the name: its pieces, in order, between the "…" marks.
        pieces = [p for p in text.split("…") if p]
        at = 0
        for piece in pieces:
            at = name.find(piece, at)
            assert at >= 0, (name, text)
            at += len(piece)
    for a, b in itertools.combinations(runs, 2):
        assert shown[a] != shown[b]


def test_the_query_tables_run_headers_are_told_apart_and_whole_in_their_tooltips(qtbot, window, files):
    run, qrels, second = files
    base = run.with_name("dlhard-passage-bm25.run")
    other = run.with_name("dlhard-passage-monot5.run")
    base.write_bytes(run.read_bytes())
    other.write_bytes(second.read_bytes())
    assert window.files.open(base, qrels, ask=False)
    window.compare.add_run(other)
    qtbot.waitUntil(lambda: window.comparison.active, timeout=10000)
    model = window.query_panel.model
    columns = range(model.columnCount())
    heads = [model.headerData(c, Qt.Orientation.Horizontal) for c in columns]
    tips = [model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) for c in columns]
    runs = heads[4:7]  # NDCG of each run, then the Δ column (then the overlap's: RBO, J@10, τ)
    assert heads[7:] == ["RBO", "J@10", "τ"], heads
    assert len(runs) == 3 and len(set(runs)) == 3, heads
    assert runs[0] == "…bm25" and runs[1] == "…monot5" and runs[2] == "Δ …monot5"
    for head, tip in zip(runs, tips[4:7], strict=True):
        name = "dlhard-passage-bm25" if "bm25" in head else "dlhard-passage-monot5"
        assert name in tip
