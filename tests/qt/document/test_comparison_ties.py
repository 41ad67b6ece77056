"""The window's comparison line says when the order of a compared run's tied documents could
overturn the verdict (issue 22.3), worked out off the GUI thread and delivered in the notice."""

from __future__ import annotations

import pytest
from conftest import show_active

from ndcg_gui.core.analysis.runs.compare import compare_runs
from ndcg_gui.core.analysis.runs.tie_verdicts import tie_verdicts
from ndcg_gui.core.analysis.workspace_report import SAMPLES, SEED
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.reading import load


@pytest.fixture
def tied(tmp_path):
    """Eight queries: the baseline ranks b first, the run ties a and b; a is relevant in each."""
    base = "".join(f"{q} Q0 a 2 1.0 base\n{q} Q0 b 1 2.0 base\n" for q in range(8))
    run = "".join(f"{q} Q0 a 1 1.0 tied\n{q} Q0 b 2 1.0 tied\n" for q in range(8))
    qrels = "".join(f"{q} 0 a 1\n{q} 0 b 0\n" for q in range(8))
    paths = tmp_path / "base.run", tmp_path / "tied.run", tmp_path / "q.qrels"
    for path, text in zip(paths, (base, run, qrels), strict=True):
        path.write_text(text)
    return paths


def test_the_comparison_line_says_the_tie_order_overturns_the_verdict(qtbot, window, tied):
    base, run, qrels = tied
    window.resize(1366, 768)
    assert window.files.open(base, qrels, ask=False)
    window.document.set_measure(k=1)
    show_active(window, qtbot)
    window.compare.add_run(run)
    window.compare.flush()
    notices = []
    window.document.changed.connect(lambda c: notices.append(c.comparison))
    assert window.comparison_ties.wait()
    assert notices and notices[-1].ties  # the verdicts came in the document's notice
    runs = {"base": load(base, qrels), "tied": load(run, qrels)}
    pool = runs["base"].qrels
    expected = tie_verdicts(compare_runs(runs, pool, Measure(k=1), samples=SAMPLES, seed=SEED), runs,
                            pool)["tied"]
    label = window.query_panel.compare_label.text()
    assert expected.short() in label
    assert ("⚠ ties: no detectable difference (Δ +0.0000) under the worst order, better (Δ +1.0000) "
            "under the best") in label
    # Another definition: the verdicts go until worked out again, then come back for k = 2.
    window.document.set_measure(k=2)
    assert "ties:" not in window.query_panel.compare_label.text()
    assert window.comparison_ties.wait()
    assert "ties:" in window.query_panel.compare_label.text()


def test_runs_without_ties_add_nothing_to_the_line(qtbot, window, tied):
    base, run, qrels = tied
    assert window.files.open(run, qrels, ask=False)  # the tied run is the baseline: kept as scored
    window.compare.add_run(base)
    window.compare.flush()
    assert window.comparison_ties.wait()
    assert window.comparison_ties.verdicts["base"].queries == 0
    assert "ties" not in window.query_panel.compare_label.text()


@pytest.mark.parametrize("size", [(1024, 700), (1366, 768)])
def test_the_line_at_small_sizes(qtbot, window, tied, size, tmp_path):
    base, run, qrels = tied
    window.resize(*size)
    assert window.files.open(base, qrels, ask=False)
    window.document.set_measure(k=1)
    show_active(window, qtbot)
    window.compare.add_run(run)
    window.compare.flush()
    assert window.comparison_ties.wait()
    qtbot.wait(50)
    label = window.query_panel.compare_label
    assert "⚠ ties:" in label.text()
    assert label.height() >= label.heightForWidth(label.width())  # every line of it shown
    window.grab().save(str(tmp_path / f"ties_{size[0]}x{size[1]}.png"))
