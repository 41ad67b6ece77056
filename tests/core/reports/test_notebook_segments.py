"""`ndcg_gui.report(frame)` reads the frame's own `segment` and `weight` columns by the window's rule
(`core.analysis.own_columns`): each segment's mean and all's, weighted, and a comparison weighted
in each segment, are `ndcg-inspect`'s figures on the same file (its JSON), and numpy's weighted
means of the per-query NDCG by hand; a bad cell is refused in one line."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import ndcg_gui
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.ndcg.evaluate import evaluate
from ndcg_gui.core.ndcg.presets import DEFAULT_PRESET, preset

SEGMENTS = ("desktop", "mobile", "tablet")


def runs(tmp_path):
    """run.csv (query, doc, score, grade, segment, weight) and other.csv (the same documents and
    grades, other scores), as files and as frames."""
    rng = np.random.default_rng(35)
    rows, other = [], []
    for i in range(20):
        q, segment, weight = f"q{i}", SEGMENTS[i % 3], float(rng.integers(1, 9))
        for d in range(int(rng.integers(4, 8))):
            grade = int(rng.integers(0, 4))
            rows.append((q, f"d{d}", round(float(rng.random()), 4), grade, segment, weight))
            other.append((q, f"d{d}", round(float(rng.random()), 4), grade))
    run = pd.DataFrame(rows, columns=["query", "doc", "score", "grade", "segment", "weight"])
    second = pd.DataFrame(other, columns=["query", "doc", "score", "grade"])
    run.to_csv(tmp_path / "run.csv", index=False)
    second.to_csv(tmp_path / "other.csv", index=False)
    return run, second


def cli_json(*args, cwd) -> dict:
    done = subprocess.run([sys.executable, "-m", "ndcg_gui.cli", *args, "--format", "json"],
                          capture_output=True, text=True, cwd=cwd, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def by_hand(run: pd.DataFrame) -> pd.DataFrame:
    """Each query's NDCG (the default measure, scored by `evaluate`) with its segment and weight."""
    ndcg = evaluate(run[["query", "doc", "score", "grade"]], None, preset(DEFAULT_PRESET).at(10))["ndcg"]
    first = run.groupby("query").first()
    return pd.DataFrame({"ndcg": ndcg, "segment": first["segment"].reindex(ndcg.index),
                         "weight": first["weight"].reindex(ndcg.index)})


def test_one_run_s_report_has_the_command_line_s_weighted_segment_means(tmp_path):
    run, _ = runs(tmp_path)
    cli = cli_json("run.csv", cwd=tmp_path)
    assert cli["weighted"] == 'column "weight" of run.csv'
    html = ndcg_gui.report(run).html
    section = html.split("<h2>By segment</h2>")[1]
    assert "mean NDCG@10 (weighted)" in section
    frame = by_hand(run)
    for row in cli["segments"]:
        inside = frame[frame["segment"] == row["segment"]]
        assert row["ndcg"] == pytest.approx(np.average(inside["ndcg"], weights=inside["weight"]), rel=1e-12)
        assert f"{row['ndcg']:.4f}" in section, row
    overall = np.average(frame["ndcg"], weights=frame["weight"])
    assert cli["all"]["ndcg"] == pytest.approx(overall, rel=1e-12)
    assert f"{overall:.4f}" in section
    assert abs(overall - frame["ndcg"].mean()) > 1e-3  # (the weights change the mean)


def test_a_comparison_s_report_is_weighted_in_each_segment_as_the_command_line_s(tmp_path):
    run, second = runs(tmp_path)
    cli = cli_json("run.csv", "other.csv", cwd=tmp_path)
    html = ndcg_gui.report(run, runs_to_compare={"other": second}).html
    overall = {r["run"]: r for r in cli["runs"]}["other"]
    assert f"weighted mean NDCG@10 {overall['mean']:.4f}" in html
    frame = by_hand(run).assign(other=by_hand(second.assign(segment="", weight=1.0))["ndcg"])
    assert overall["mean"] == pytest.approx(np.average(frame["other"], weights=frame["weight"]), rel=1e-12)
    section = html[html.index("<h2>By segment (weighted by column"):]
    rows = cli["segments"]["rows"]
    assert len(rows) == len(SEGMENTS)
    for row in rows:
        assert f"{row['delta']:+.4f}" in section
        assert f"[{row['ci_low']:+.4f}, {row['ci_high']:+.4f}]" in section


def test_a_bad_weight_cell_is_refused_in_one_line(tmp_path):
    run, _ = runs(tmp_path)
    run.loc[run["query"] == "q3", "weight"] = -2.0
    with pytest.raises(InputError, match=r'^column "weight": query "q3": weight "-2" is negative; '
                                         "expected a number of at least 0$"):
        ndcg_gui.report(run)


def test_a_frame_without_the_columns_is_reported_as_before(tmp_path):
    run, _ = runs(tmp_path)
    html = ndcg_gui.report(run.drop(columns=["segment", "weight"])).html
    assert "By segment" not in html
