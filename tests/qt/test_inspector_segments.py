"""`ndcg_gui.inspect(frame)` reads the frame's own `segment` and `weight` columns as the window's
loader reads a file's (`core.analysis.own_columns`): the segment box, each segment's mean and the
weighted mean, and a comparison with `runs_to_compare` weighted, are `ndcg-inspect`'s figures on
the same file; a bad cell is refused before a window opens."""

from __future__ import annotations

import numpy as np
import pytest

from ndcg_gui.core.errors import InputError
from tests.core.reports.test_notebook_segments import SEGMENTS, by_hand, cli_json, runs


@pytest.fixture
def inspected(qtbot, tmp_path, monkeypatch):
    import ndcg_gui

    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    run, second = runs(tmp_path)
    # (the window compares runs on judgments: the grades as qrels, for the command line too)
    qrels = run[["query", "doc", "grade"]]
    qrels.to_csv(tmp_path / "qrels.csv", index=False)
    run.drop(columns="grade").to_csv(tmp_path / "run.csv", index=False)
    second.drop(columns="grade").to_csv(tmp_path / "other.csv", index=False)
    handle = ndcg_gui.inspect(run.drop(columns="grade"), qrels,
                              runs_to_compare={"other": second.drop(columns="grade")}, block=False)
    qtbot.addWidget(handle.window)
    window = handle.window
    qtbot.waitUntil(lambda: window.comparison.active and not window.compare.busy(), timeout=30_000)
    window.compare.flush()
    return window, run, tmp_path


def test_the_frame_s_segments_and_weights_give_the_command_line_s_means(inspected):
    window, run, tmp_path = inspected
    state = window.document.state
    assert state.segments.origin == 'column "segment"' and state.weights.origin == 'column "weight"'
    cli = cli_json("run.csv", "--qrels", "qrels.csv", cwd=tmp_path)
    panel = window.query_panel
    assert panel.weighted_mean == pytest.approx(cli["all"]["ndcg"], rel=1e-12)
    frame = by_hand(run)
    assert panel.summary.mean == pytest.approx(frame["ndcg"].mean(), rel=1e-12)
    segments = {row["segment"]: row for row in cli["segments"]}
    assert sorted(segments) == list(SEGMENTS)
    for name in SEGMENTS:
        panel.pick_segment(name)
        inside = frame[frame["segment"] == name]
        assert panel.summary.mean == pytest.approx(inside["ndcg"].mean(), rel=1e-12)
        assert panel.weighted_mean == pytest.approx(segments[name]["ndcg"], rel=1e-12)
        assert panel.weighted_mean == pytest.approx(np.average(inside["ndcg"], weights=inside["weight"]),
                                                    rel=1e-12)


def test_the_comparison_with_runs_to_compare_is_weighted_as_the_command_line_s(inspected):
    window, _run, tmp_path = inspected
    cmp = window.comparison.comparison
    assert cmp.weights_from == 'column "weight"'
    printed = cli_json("run.csv", "other.csv", "--qrels", "qrels.csv", cwd=tmp_path)
    cli = {r["run"]: r for r in printed["runs"]}
    for column in ("mean", "delta", "rand_p", "ci_low", "ci_high"):
        assert cmp.summary.at["other", column] == pytest.approx(cli["other"][column], rel=1e-12), column
    assert cmp.baseline_mean == pytest.approx(cli["run"]["mean"], rel=1e-12)


def test_a_bad_segment_cell_is_refused_before_a_window_opens(tmp_path, monkeypatch):
    import ndcg_gui

    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    run, _ = runs(tmp_path)
    run.loc[run.index[run["query"] == "q4"][1], "segment"] = "kiosk"
    with pytest.raises(InputError, match=r'^column "segment": query "q4" has two segments on its rows'):
        ndcg_gui.inspect(run, block=False)
