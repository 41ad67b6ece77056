"""Issue 35's attack findings through `ndcg-inspect`: each figure checked against the definition
brute-forced here, each refusal one line naming the file (and line) with exit status 2."""

from __future__ import annotations

import math

import pytest

from ndcg_gui.cli.main import main


def run_cli(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def rows_of(out: str) -> dict[str, dict[str, str]]:
    """The tab-separated table (`--format tsv`) by its first column."""
    lines = [line.split("\t") for line in out.strip().splitlines()]
    head = lines[0]
    return {cells[0]: dict(zip(head, cells, strict=True)) for cells in lines[1:]}


def tf_ndcg(grades: list[float], weights: list[float]) -> float:
    """TF-Ranking's NDCG of one list (all of it, k=10 > its length): weight × (2^g - 1) over
    log2(rank + 1), the ideal the weighted gains sorted; done on gains scaled to fit."""
    top = max(weights)
    gains = [w / top * (2.0**g - 1.0) for g, w in zip(grades, weights, strict=True)]

    def dcg(gs):
        return sum(x / math.log2(r + 2) for r, x in enumerate(gs))
    return dcg(gains) / dcg(sorted(gains, reverse=True))


def test_doc_weights_whose_sums_overflow_still_score_and_weigh_the_mean(capsys, tmp_path):
    run = tmp_path / "run.csv"
    run.write_text("query,doc,grade,score,doc_weight\n1,a,1,3,1e308\n1,b,2,2,1e308\n2,c,1,3,1\n2,d,0,2,1\n")
    code, out, err = run_cli(capsys, run, "--preset", "tf_ranking", "--doc-weights", "--format", "tsv")
    assert code == 0, err
    table = rows_of(out)
    assert float(table["1"]["ndcg"]) == pytest.approx(tf_ndcg([1, 2], [1e308, 1e308]), abs=1e-4)
    assert float(table["2"]["ndcg"]) == 1.0
    # list weights: Σ w·g / Σ g = 1e308 and 1, so the mean is all but query 1's
    own = [1e308, 1.0]
    mean = (own[0] / 1e308 * tf_ndcg([1, 2], [1e308, 1e308]) + own[1] / 1e308 * 1.0) / (1 + 1 / 1e308)
    assert float(table["all"]["ndcg"]) == pytest.approx(mean, abs=1e-4)
