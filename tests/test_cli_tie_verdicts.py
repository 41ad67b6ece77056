"""`ndcg-inspect A B --qrels Q` says when ties could overturn the verdict (issue 22.3): the run's
worst and best order of tied documents, in the text and in the JSON."""

from __future__ import annotations

import json

import pytest
from test_cli import cli

from ndcg_gui.core.analysis.runs.compare import compare_runs
from ndcg_gui.core.analysis.runs.tie_verdicts import tie_verdicts
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


def test_the_text_says_the_verdict_changes_between_the_tie_orders(tied):
    base, run, qrels = tied
    result = cli(base, run, "--qrels", qrels, "-k", "1", "--samples", "1000")
    assert result.returncode == 0, result.stderr
    expected = tie_verdicts(*_core(tied, 1000))["tied"]
    assert expected.verdicts == ("no detectable difference", "better")
    assert f"  {expected.text()}\n" in result.stdout
    assert "tied: ties move 8 queries; Δ mean in [+0.0000, +1.0000]" in result.stdout
    said = "the verdict changes: no detectable difference (p 1) under the worst order, better"
    assert said in result.stdout


def test_the_json_gives_both_tie_orders(tied):
    base, run, qrels = tied
    result = cli(base, run, "--qrels", qrels, "-k", "1", "--samples", "1000", "--format", "json")
    assert result.returncode == 0, result.stderr
    rows = {r["run"]: r for r in json.loads(result.stdout)["runs"]}
    assert rows["base"]["tie_orders"] is None  # the baseline is kept as scored
    ties = rows["tied"]["tie_orders"]
    assert ties == {"queries": 8, "delta_worst": 0.0, "delta_best": 1.0,
                    "verdict_worst": "no detectable difference", "verdict_best": "better",
                    "p_worst": 1.0, "p_best": pytest.approx(2 / 256), "changes": True}
    # The figure of the run as scored (trec_eval's tie rule: b before a, by docno descending) lies
    # in the range.
    assert ties["delta_worst"] <= rows["tied"]["delta"] <= ties["delta_best"]


def test_csv_says_it_in_a_note_only_when_ties_move_a_figure(tied):
    base, run, qrels = tied
    result = cli(base, run, "--qrels", qrels, "-k", "1", "--format", "csv")
    assert result.returncode == 0, result.stderr
    assert "note: ties: tied: ties move 8 queries" in result.stderr
    result = cli(base, base, "--qrels", qrels, "-k", "1", "--format", "csv")
    assert result.returncode == 0, result.stderr
    assert "note: ties:" not in result.stderr


def _core(paths, samples):
    base, run, qrels = paths
    runs = {"base": load(base, qrels), "tied": load(run, qrels)}
    pool = runs["base"].qrels
    return compare_runs(runs, pool, Measure(k=1), samples=samples), runs, pool
