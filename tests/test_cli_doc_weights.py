"""`ndcg-inspect RUN.csv --preset tf_ranking --doc-weights`: each query's line is its NDCG with the
run's doc_weight column weighing the documents, the all line TF-Ranking's mean weighted by each
list's weight, both computed here from TF-Ranking's definition (metrics_impl.py:63-118, 652-670),
and the choices it cannot go with refused in one line."""

from __future__ import annotations

import io
import json
import math

import pandas as pd
import pytest

from ndcg_gui.cli.main import main

# Two lists of metrics_test.py's test_make_normalized_discounted_cumulative_gain_fn, and one
# without gain (its weight is the mean of the others', `_per_example_weights_to_per_list_weights`).
ROWS = """query,doc,score,grade,doc_weight
a,d1,1,0,1
a,d2,3,0,2
a,d3,2,1,3
b,d1,1,0,4
b,d2,2,1,5
b,d3,3,2,6
c,d1,1,0,2
c,d2,2,0,2
"""


def _dcg(label, rank, weight=1.0):  # metrics_test.py:28-45
    return weight * (2.0 ** label - 1.0) / math.log(rank + 1.0, 2.0)


def run_cli(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def run(tmp_path):
    path = tmp_path / "run.csv"
    path.write_text(ROWS)
    return path


def test_the_lines_are_the_weighted_ndcg_and_tf_rankings_weighted_mean(capsys, run):
    code, out, err = run_cli(capsys, run, "--preset", "tf_ranking", "--doc-weights", "--format", "tsv")
    assert code == 0, err
    table = pd.read_csv(io.StringIO(out), sep="\t", dtype={"query": str}).set_index("query")
    a = (_dcg(0, 1, 2) + _dcg(1, 2, 3) + _dcg(0, 3, 1)) / (_dcg(1, 1, 3) + _dcg(0, 2, 1) + _dcg(0, 3, 2))
    b = (_dcg(2, 1, 6) + _dcg(1, 2, 5)) / (_dcg(2, 1, 6) + _dcg(1, 2, 5))
    assert table.loc["a", "ndcg"] == pytest.approx(a, abs=1e-4)
    assert table.loc["b", "ndcg"] == pytest.approx(b, abs=1e-4)
    assert table.loc["c", "ndcg"] == 0
    weight_a = 3.0  # Σ w·gain / Σ gain
    weight_b = (5 * 1 + 6 * 3) / (1 + 3)
    weight_c = (weight_a + weight_b) / 2  # no gain: the mean of the lists that have some
    mean = (weight_a * a + weight_b * b) / (weight_a + weight_b + weight_c)
    assert table.loc["all", "ndcg"] == pytest.approx(mean, abs=1e-4)
    assert "weighted by TF-Ranking's list weights of column \"doc_weight\" of run.csv" in err


def test_without_the_option_the_column_is_only_carried(capsys, run):
    code, out, _ = run_cli(capsys, run, "--preset", "tf_ranking", "--format", "json")
    data = json.loads(out)
    ndcg = {q["query"]: q["ndcg"] for q in data["queries"]}
    assert code == 0 and "weighted" not in data
    assert ndcg["a"] == pytest.approx(_dcg(1, 2) / _dcg(1, 1))
    assert data["all"]["ndcg"] == pytest.approx(sum(ndcg.values()) / 3)


@pytest.mark.parametrize(("extra", "message"), [
    ((), "--doc-weights weighs documents as TF-Ranking does, with the ideal from each list's own "
         "documents: give --preset tf_ranking"),
    (("--preset", "tf_ranking", "--summary-csv", "-"),
     "--doc-weights goes with the per-query lines (or --engine, which refuses it), not with "
     "--summary-csv (yet)"),
    (("--preset", "tf_ranking", "--weights", "/dev/null"),
     "--doc-weights and --weights: give one; TF-Ranking's list weights come from the documents' weights"),
])
def test_what_it_cannot_go_with_is_refused_in_one_line(capsys, run, extra, message):
    code, out, err = run_cli(capsys, run, "--doc-weights", *extra)
    assert code != 0 and out == ""
    assert err.strip().splitlines() == [f"ndcg-inspect: {message}"]


def test_a_run_without_the_column_is_refused_in_one_line(capsys, tmp_path):
    path = tmp_path / "plain.csv"
    path.write_text("query,doc,score,grade\nq,a,1,1\n")
    code, out, err = run_cli(capsys, path, "--preset", "tf_ranking", "--doc-weights")
    assert code != 0 and out == ""
    assert err.strip().splitlines() == ["ndcg-inspect: plain.csv: --doc-weights: the run has no doc_weight "
                                        "column (a CSV or Parquet run holds one)"]


def test_a_bad_doc_weight_is_refused_naming_its_line(capsys, tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text(ROWS.replace("b,d2,2,1,5", "b,d2,2,1,-5"))
    code, out, err = run_cli(capsys, path, "--preset", "tf_ranking", "--doc-weights")
    assert code != 0 and out == ""
    assert err.strip().splitlines() == ['ndcg-inspect: bad.csv:6: doc_weight "-5" is negative; expected a '
                                        "number of at least 0 (the document's weight)"]


def test_an_engine_refuses_document_weights_in_one_line(capsys, run, tmp_path):
    pytest.importorskip("duckdb")  # (the optional extra the engine needs)
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("a 0 d3 1\n")
    code, out, err = run_cli(capsys, run, "--qrels", qrels, "--preset", "tf_ranking", "--doc-weights",
                             "--engine", "duckdb")
    assert code != 0 and out == ""
    assert err.strip().splitlines() == ["ndcg-inspect: --engine duckdb: the SQL engines cannot compute NDCG "
                                        "with doc_weights='tf_ranking' (yet); leave out --engine"]
