"""Spark refuses a CSV row missing an id (or a number) by its line, as the in-memory path and DuckDB
refuse it (tests/test_attack_issue35.py): the same output, to the byte."""

from __future__ import annotations

import pytest

from ndcg_gui.cli.main import main
from tests.core.sql.test_spark_sql import spark  # noqa: F401  (the session these tests share)
from tests.test_attack_issue35 import _empty_id_files

pytest.importorskip("pyspark")

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("spark")]  # (one JVM, one worker)

MASTER = ("--spark-master", "local[2]")  # (the shared session's)


@pytest.mark.parametrize(("case", "side"), [("doc", "run"), ("spaces", "qrels"), ("query", "qrels")])
def test_spark_refuses_a_csv_row_missing_an_id_as_memory_does(spark, tmp_path, capsys, case, side):  # noqa: F811
    run, qrels = _empty_id_files(tmp_path, case, side)
    said = {}
    for engine in ("memory", "spark"):
        spark_master = MASTER if engine == "spark" else ()
        code = main([str(run), "--qrels", str(qrels), "--engine", engine, *spark_master])
        said[engine] = (code, *capsys.readouterr())
    assert said["memory"][0] == 2 and "is empty; expected an id" in said["memory"][2]
    assert said["spark"] == said["memory"]


def test_spark_names_a_csv_score_that_is_no_finite_number_by_its_line(spark, tmp_path, capsys):  # noqa: F811
    """(DuckDB and memory: tests/test_attack_issue35.py) Spark named the file alone."""
    run, qrels = tmp_path / "run.csv", tmp_path / "qrels.csv"
    run.write_text("query,doc,score\nq1,a,3\nq1, b ,\n")
    qrels.write_text("query,doc,grade\nq1,a,1\n")
    said = {}
    for engine in ("memory", "spark"):
        spark_master = MASTER if engine == "spark" else ()
        code = main([str(run), "--qrels", str(qrels), "--engine", engine, *spark_master])
        said[engine] = (code, *capsys.readouterr())
    assert said["memory"] == (2, "", "ndcg-inspect: run.csv:3: score is empty; expected a number\n")
    assert said["spark"] == said["memory"]
