"""Spark reads a qrels row without a grade (an empty CSV cell, a null or NaN in Parquet) as
unjudged, as the in-memory path and DuckDB read it (tests/test_attack_issue35.py): the same output,
to the byte, as the qrels with those rows deleted; a row missing its doc too is refused alike."""

from __future__ import annotations

import math

import pytest

from ndcg_gui.cli.main import main
from tests.core.sql.test_spark_sql import spark  # noqa: F401  (the session these tests share)
from tests.test_attack_issue35 import EMPTY_GRADE_QRELS, EMPTY_GRADE_RUN, _empty_grade_qrels

pytest.importorskip("pyspark")

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("spark")]  # (one JVM, one worker)

MASTER = ("--spark-master", "local[2]")  # (the shared session's)


def _said(capsys, *args) -> tuple[int, str, str]:
    code = main([*map(str, args)])
    return (code, *capsys.readouterr())


@pytest.mark.parametrize("kind", ["csv", "parquet", "parquet-nan", "parquet-int"])
def test_spark_reads_an_empty_grade_as_unjudged(spark, tmp_path, capsys, kind):  # noqa: F811
    run = tmp_path / "run.txt"
    run.write_text(EMPTY_GRADE_RUN)
    qrels = _empty_grade_qrels(tmp_path, kind, EMPTY_GRADE_QRELS)
    (tmp_path / "judged").mkdir()
    judged = [r for r in EMPTY_GRADE_QRELS if r[2] is not None]
    without = _empty_grade_qrels(tmp_path / "judged", kind, judged)
    for missing in ("zero", "skip"):
        options = ("--missing", missing, "--format", "tsv")
        want = _said(capsys, run, "--qrels", without, *options)
        assert want[0] == 0, want
        assert _said(capsys, run, "--qrels", qrels, *options, "--engine", "spark", *MASTER) == want
        assert _said(capsys, run, "--qrels", qrels, *options, "--engine", "duckdb") == want


def test_spark_refuses_a_row_without_doc_nor_grade_as_memory_does(spark, tmp_path, capsys):  # noqa: F811
    import pyarrow as pa
    import pyarrow.parquet as pq

    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.parquet"
    run.write_text(EMPTY_GRADE_RUN)
    pq.write_table(pa.table({"query": ["q1", "q1"], "doc": ["a", None], "grade": [1.0, math.nan]}), qrels)
    memory = _said(capsys, run, "--qrels", qrels)
    assert memory == (2, "", "ndcg-inspect: qrels.parquet: row 2: doc is empty; expected an id\n")
    assert _said(capsys, run, "--qrels", qrels, "--engine", "spark", *MASTER) == memory
