"""Runs compared in the window with the open run's own `weight` column (issue 35, weights): the
means, Δ, the weighted randomization test, the weighted bootstrap and the per-segment rows are
`ndcg-inspect`'s figures on the same files (its JSON), the means numpy's weighted mean of the
per-query NDCG by hand; the pane says what they are weighted by, and the exported report carries
the weighted figures (its per-segment table too)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pytest

from tests.qt.window.test_own_columns import write_csv


def judged(path, qrels_path):
    """`path` (write_csv's run, its grades in a column) as a run without grades beside a qrels
    file of those grades: the window compares runs on judgments. Returns the run and the qrels."""
    rows = [line.split(",") for line in path.read_text().splitlines()]
    qrels_path.write_text("".join(f"{q} 0 {d} {g}\n" for q, d, _s, g, _seg, _w in rows[1:]))
    path.write_text("".join(",".join([q, d, s, seg, w]) + "\n" for q, d, s, _g, seg, w in rows))
    return path, qrels_path


def other_run(path, target):
    """The same documents as `path`, other scores, no segment or weight column (TREC text)."""
    rng = np.random.default_rng(7)
    lines = []
    for line in path.read_text().splitlines()[1:]:
        query, doc = line.split(",")[:2]
        lines.append(f"{query} Q0 {doc} 0 {rng.random():.4f} other")
    target.write_text("\n".join(lines) + "\n")
    return target


def opened(window, tmp_path, bad=None):
    """The window on run.csv (segment and weight columns) and its qrels: (run, qrels, segments, weights)."""
    path, segment, weight = write_csv(tmp_path / "run.csv", bad)
    path, qrels = judged(path, tmp_path / "qrels.txt")
    window.resize(1280, 800)
    window.files.open(path, qrels, ask=False)
    assert window.files.problem is None
    return path, qrels, segment, weight


def cli_json(*args, cwd) -> dict:
    done = subprocess.run([sys.executable, "-m", "ndcg_gui.cli", *map(str, args), "--format", "json"],
                          capture_output=True, text=True, cwd=cwd, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def add(qtbot, window, other):
    window.compare.add_run(other)
    qtbot.waitUntil(lambda: not window.compare.busy() and window.comparison.active, timeout=30_000)
    window.compare.flush()


@pytest.fixture
def compared(qtbot, window, tmp_path):
    path, qrels, segment, weight = opened(window, tmp_path)
    other = other_run(path, tmp_path / "other.txt")
    add(qtbot, window, other)
    return window, path, qrels, other, segment, weight


def test_the_window_s_comparison_is_the_command_line_s_weighted_one(compared, tmp_path):
    window, path, qrels, other, _segment, weight = compared
    cmp = window.comparison.comparison
    assert cmp.weights is not None and cmp.weights_from == 'column "weight" of run.csv'
    cli = cli_json(path, other, "--qrels", qrels, cwd=tmp_path)
    runs = {r["run"]: r for r in cli["runs"]}
    assert cli["methods"]["mean"].startswith("weighted mean NDCG")
    for column in ("mean", "delta", "rand_p", "ci_low", "ci_high", "p_holm"):
        assert cmp.summary.at["other", column] == pytest.approx(runs["other"][column], rel=1e-12), column
    for column in ("wins", "losses", "ties"):
        assert int(cmp.summary.at["other", column]) == runs["other"][column]
    assert cmp.baseline_mean == pytest.approx(runs["run"]["mean"], rel=1e-12)
    # by hand: numpy's weighted mean of the per-query NDCG the window shows
    ndcg = window.comparison.ndcg
    w = np.array([weight[q] for q in ndcg.index])
    assert cmp.baseline_mean == pytest.approx(np.average(ndcg["run"], weights=w), rel=1e-12)
    assert cmp.summary.at["other", "mean"] == pytest.approx(np.average(ndcg["other"], weights=w), rel=1e-12)
    assert abs(cmp.baseline_mean - ndcg["run"].mean()) > 1e-3  # (the weights change this run's mean)
    # the pane says it in words, and heads its weighted columns so
    pane = window.compare_pane
    method = pane.method_text.toPlainText()
    assert method.startswith('Weighted by column "weight" of run.csv: the means, Δ, the weighted paired '
                             "randomization test and the weighted bootstrap")
    assert "paired randomization test of the weighted mean difference" in method
    headers = [name for name, _tip in pane._summary[0]]
    assert "weighted NDCG@10" in headers and "weighted Δ mean" in headers
    rows = pane._summary[1]
    assert rows[1][1] == f"{runs['other']['mean']:.4f}" and rows[1][2] == f"{runs['other']['delta']:+.4f}"


def test_an_edit_keeps_the_statistics_weighted(qtbot, compared):
    window, *_rest, weight = compared
    doc = window.document
    before = window.comparison.comparison
    query = doc.current_query
    assert doc.move_rows(0, 1, len(doc.current_list()))  # (the top document to the bottom)
    cmp = window.comparison.comparison
    assert cmp.weights is not None
    ndcg = cmp.per_query
    w = np.array([weight[q] for q in ndcg.index])
    assert ndcg.at[query, "run"] != before.per_query.at[query, "run"]
    assert cmp.baseline_mean == pytest.approx(np.average(ndcg["run"], weights=w), rel=1e-12)


def test_the_exported_report_is_weighted_as_the_command_line_s(compared, tmp_path):
    window, path, qrels, other, segment, _weight = compared
    out = tmp_path / "window.html"
    assert window.exports.export_report(out)
    html = out.read_text()
    segments_file = tmp_path / "segments.tsv"
    segments_file.write_text("".join(f"{q}\t{s}\n" for q, s in segment.items()))
    cli = cli_json(path, other, "--qrels", qrels, "--segments", segments_file, cwd=tmp_path)
    rows = cli["segments"]["rows"]
    assert rows and all(r["run"] == "other" for r in rows)
    section = html[html.index("<h2>By segment"):]
    assert section.startswith("<h2>By segment (weighted by column &quot;weight&quot; of run.csv)</h2>") \
        or section.startswith('<h2>By segment (weighted by column "weight" of run.csv)</h2>')
    for row in rows:
        # each segment's weighted Δ and its interval, as the command line gives them
        assert f"{row['delta']:+.4f}" in section, row
        assert f"[{row['ci_low']:+.4f}, {row['ci_high']:+.4f}]" in section, row
    overall = {r["run"]: r for r in cli["runs"]}["other"]
    assert re.search(rf"weighted mean NDCG@10 {overall['mean']:.4f}", html), "the headline's weighted mean"


def test_a_judged_query_without_a_weight_leaves_the_comparison_unweighted_and_says_why(
        qtbot, window, tmp_path):
    plain, _, _ = write_csv(tmp_path / "plain.csv")
    q7 = {n: ("weight", "") for n, line in enumerate(plain.read_text().splitlines(), start=1)
          if line.startswith("q7,")}
    path, *_ = opened(window, tmp_path, q7)
    add(qtbot, window, other_run(path, tmp_path / "other.txt"))
    cmp = window.comparison.comparison
    assert cmp.weights is None
    assert cmp.baseline_mean == pytest.approx(cmp.per_query["run"].mean(), rel=1e-12)
    assert window.compare_pane.method_text.toPlainText().startswith(
        'Not weighted: column "weight" of run.csv: a judged query has no weight: "q7"')


def test_one_run_s_exported_report_has_the_weighted_means_of_its_segments(qtbot, window, tmp_path):
    _path, _qrels, segment, weight = opened(window, tmp_path)
    out = tmp_path / "window.html"
    assert window.exports.export_report(out)
    section = out.read_text().split("<h2>By segment</h2>")[1]
    assert "mean NDCG@10 (weighted)" in section
    scores = window.scores.result
    ndcg = scores["ndcg"].astype(float)
    w = ndcg.index.map(weight).to_numpy(dtype=float)
    of = ndcg.index.map(segment)
    for name in set(segment.values()):
        inside = (of == name)
        assert f"{np.average(ndcg[inside], weights=w[inside]):.4f}" in section, name
    assert f"{np.average(ndcg, weights=w):.4f}" in section  # (all, weighted)
