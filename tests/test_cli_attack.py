"""Issue 35's attack findings through `ndcg-inspect`: each figure checked against the definition
brute-forced here, each refusal one line naming the file (and line) with exit status 2."""

from __future__ import annotations

import math
import os

import numpy as np
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


HUGE = "query,doc,grade,score\n1,a,1e308,3\n1,b,0,2\n2,c,1,3\n2,d,0,2\n"


@pytest.mark.parametrize("preset", ["tf_ranking", "trec_eval"])
def test_a_grade_whose_gain_is_infinite_is_refused_by_its_line(capsys, tmp_path, preset):
    run = tmp_path / "run.csv"
    run.write_text("# judged by hand\n" + HUGE if preset == "trec_eval" else HUGE)
    gain = ["--gain", "exponential"] if preset == "trec_eval" else []
    code, out, err = run_cli(capsys, run, "--preset", preset, *gain)
    line = 2 if preset == "tf_ranking" else None
    assert code == 2 and out == ""
    if line is not None:
        assert err.startswith(f"ndcg-inspect: run.csv:{line}: grade 1e+308 (query \"1\", doc \"a\") gives an "
                              "infinite gain under 2^g - 1"), err
    assert len(err.strip().splitlines()) == 1


def test_a_qrels_grade_whose_gain_is_infinite_is_refused_by_its_line(capsys, tmp_path):
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text("1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n2 Q0 c 1 3 t\n2 Q0 d 2 2 t\n")
    qrels.write_text("2 0 c 1\n\n1 0 a 2000\n1 0 b 0\n")
    code, out, err = run_cli(capsys, run, "--qrels", qrels, "--preset", "tf_ranking")
    assert code == 2 and out == ""
    assert err.startswith('ndcg-inspect: qrels.txt:3: grade 2000 (query "1", doc "a")'), err


def test_figures_past_a_double_without_an_infinite_gain_leave_the_other_queries_alone(capsys, tmp_path):
    # Linear gains of 1e308: each finite, their DCG not; query 2 is what it is alone.
    run = tmp_path / "run.csv"
    run.write_text("query,doc,grade,score\n1,a,1.5e308,3\n1,b,1.5e308,2\n2,c,1,3\n2,d,0,2\n")
    code, out, err = run_cli(capsys, run, "--format", "tsv")
    assert code == 0, err
    table = rows_of(out)
    assert float(table["2"]["ndcg"]) == 1.0 and float(table["2"]["idcg"]) == 1.0
    assert 'figures too big for a floating-point number' in err and '"1"' in err


@pytest.mark.parametrize("header", ["Doc_Weight", " DOC_WEIGHT", "doc_weight"])
def test_the_doc_weight_column_is_found_in_any_case(capsys, tmp_path, header):
    run = tmp_path / "run.csv"
    run.write_text(f"query,doc,grade,score,{header}\n1,a,1,3,2\n1,b,2,2,1\n2,c,1,3,1\n2,d,0,2,1\n")
    code, out, err = run_cli(capsys, run, "--preset", "tf_ranking", "--doc-weights", "--format", "tsv")
    assert code == 0, err
    table = rows_of(out)
    assert float(table["1"]["ndcg"]) == pytest.approx(tf_ndcg([1, 2], [2, 1]))
    assert float(table["2"]["ndcg"]) == 1.0


DECIMAL_COMMA = ("query;doc;grade;score;doc_weight;weight\n"
                 "1;a;1;3,5;0,5;1,5\n1;b;2;2,5;1;1,5\n2;c;1;3;1;2\n2;d;0;2;1;2\n")


def test_weight_and_doc_weight_columns_read_the_files_decimal_comma(capsys, tmp_path):
    run = tmp_path / "run.csv"
    run.write_text(DECIMAL_COMMA)
    code, out, err = run_cli(capsys, run, "--format", "tsv")
    assert code == 0, err
    table = rows_of(out)
    ndcg1 = float(table["1"]["ndcg"])
    # trec_eval's NDCG of query 1 (grades 1 then 2): (1 + 2/log2 3) / (2 + 1/log2 3)
    assert ndcg1 == pytest.approx((1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3)))
    assert float(table["all"]["ndcg"]) == pytest.approx((1.5 * ndcg1 + 2 * 1.0) / 3.5)
    run.write_text(DECIMAL_COMMA.replace(";weight", ";other"))
    code, out, err = run_cli(capsys, run, "--preset", "tf_ranking", "--doc-weights", "--format", "tsv")
    assert code == 0, err
    assert float(rows_of(out)["1"]["ndcg"]) == pytest.approx(tf_ndcg([1, 2], [0.5, 1]))


def test_a_comma_in_a_comma_separated_files_weight_is_still_refused(capsys, tmp_path):
    run = tmp_path / "run.csv"
    run.write_text('query,doc,grade,score,weight\n1,a,1,3,"1,5"\n1,b,0,2,"1,5"\n')
    code, out, err = run_cli(capsys, run)
    assert code == 2 and out == ""
    assert 'weight "1,5" is not a number' in err


def test_a_weight_column_compares_numbers_and_names_the_line_of_a_bad_cell(capsys, tmp_path):
    run = tmp_path / "run.csv"
    run.write_text("query,doc,grade,score,weight\n1,a,1,3,1\n1,b,0,2,1.0\n2,c,1,3,2\n2,d,0,2,2e0\n")
    code, out, err = run_cli(capsys, run, "--format", "tsv")
    assert code == 0, err
    assert float(rows_of(out)["all"]["ndcg"]) == 1.0
    run.write_text("query,doc,grade,score,weight\n1,a,1,3,1\n1,b,0,2,1.0\n2,c,1,3,2\n\n2,d,0,2,x\n")
    code, out, err = run_cli(capsys, run)
    assert (code, out) == (2, "")
    assert err.startswith('ndcg-inspect: run.csv:6: column "weight": query "2": '
                          'weight "x" is not a number'), err
    run.write_text("query,doc,grade,score,weight\n1,a,1,3,1\n1,b,0,2,3\n")
    code, out, err = run_cli(capsys, run)
    assert code == 2
    assert err.startswith('ndcg-inspect: run.csv:3: column "weight": query "1" has two weights'), err


def test_a_pipe_given_as_qrels_and_as_weights_is_refused(capsys, tmp_path):
    run = tmp_path / "run.txt"
    run.write_text("1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n")
    read, write = os.pipe()
    os.write(write, b"1 0 a 1\n1 0 b 0\n")
    os.close(write)
    try:
        pipe = f"/dev/fd/{read}"
        code, out, err = run_cli(capsys, run, "--qrels", pipe, "--weights", pipe)
    finally:
        os.close(read)
    assert (code, out) == (2, "")
    assert err == (f"ndcg-inspect: --qrels and --weights are one pipe ({pipe}): it holds one file; "
                   "give each its own (a file, or another <(cmd))\n")


def test_an_empty_query_id_is_quoted_in_the_notes(capsys, tmp_path):
    """(A CSV row missing its query is refused by its line: the empty text is an id in Parquet.)"""
    import pyarrow as pa
    import pyarrow.parquet as pq

    run = tmp_path / "run.parquet"
    pq.write_table(pa.table({"query": ["2", "2", "", ""], "doc": list("abcd"), "grade": [1, 0, 1, 0],
                             "score": [3, 2, 3, 2], "segment": ["x", "x", None, None]}), run)
    code, _, err = run_cli(capsys, run)
    assert code == 0, err
    assert 'counted in all only: ""\n' in err


def test_a_weight_too_small_to_count_beside_the_largest_is_refused_by_its_line(capsys, tmp_path):
    run, weights = tmp_path / "run.csv", tmp_path / "w.tsv"
    run.write_text("query,doc,grade,score\n1,a,1,3\n1,b,0,2\n2,c,0,3\n2,d,1,2\n")
    weights.write_text("1\t1e308\n2\t1e-320\n")
    code, out, err = run_cli(capsys, run, "--weights", weights)
    assert (code, out) == (2, "")
    assert err.startswith('ndcg-inspect: w.tsv:2: the weight 9.99989e-321 of query "2" is too small'), err
    # tiny weights alone, or beside weights that leave room, are kept: the mean is numpy's
    weights.write_text("1\t3e-320\n2\t1e-320\n")
    code, out, err = run_cli(capsys, run, "--weights", weights, "--format", "tsv")
    assert code == 0, err
    table = rows_of(out)
    ndcg = [float(table[q]["ndcg"]) for q in ("1", "2")]
    assert float(table["all"]["ndcg"]) == pytest.approx(float(np.average(ndcg, weights=[3, 1])))


def test_a_report_over_the_runs_notes_sidecar_is_refused(capsys, tmp_path):
    run = tmp_path / "run.csv"
    run.write_text("query,doc,grade,score\n1,a,1,3\n1,b,0,2\n")
    notes = tmp_path / "run.csv.notes.tsv"
    notes.write_text("1\tlooked at it\n")
    code, out, err = run_cli(capsys, run, "--report", notes)
    assert (code, out) == (2, "")
    assert err == ("ndcg-inspect: run.csv.notes.tsv: --report is run.csv.notes.tsv, an input too; writing "
                   "there would replace it (choose another name)\n")
    assert notes.read_text() == "1\tlooked at it\n"


def test_a_quoted_decimal_comma_doc_weight_in_a_comma_separated_file_is_refused_by_its_line(capsys, tmp_path):
    run = tmp_path / "run.csv"
    run.write_text('query,doc,grade,score,doc_weight\n1,a,1,3,1\n1,b,0,2,"0,5"\n')
    code, out, err = run_cli(capsys, run, "--preset", "tf_ranking", "--doc-weights")
    assert (code, out) == (2, "")
    assert err.startswith('ndcg-inspect: run.csv:3: doc_weight "0,5" is not a number'), err


@pytest.mark.parametrize("extra", [[], ["--fail-if-worse"], ["--report", "out.html"]])
def test_a_comparison_the_gate_and_a_report_refuse_an_infinite_gain_too(capsys, tmp_path, extra, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.run").write_text("1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n2 Q0 c 1 3 t\n2 Q0 d 2 2 t\n")
    (tmp_path / "b.run").write_text("1 Q0 b 1 3 t\n1 Q0 a 2 2 t\n2 Q0 c 1 3 t\n2 Q0 d 2 2 t\n")
    (tmp_path / "qrels.txt").write_text("1 0 a 1e308\n1 0 b 0\n2 0 c 1\n2 0 d 0\n")
    code, out, err = run_cli(capsys, "a.run", "b.run", "--qrels", "qrels.txt", "--preset", "tf_ranking",
                             *extra)
    assert (code, out) == (2, "")
    assert err.startswith('ndcg-inspect: qrels.txt:1: grade 1e+308 (query "1", doc "a") gives an '
                          'infinite gain'), err
    assert not (tmp_path / "out.html").exists()
