"""Spark refuses an unknown --query as the in-memory path and DuckDB refuse it
(tests/test_attack_issue35.py): the same output, to the byte, one run or runs compared."""

from __future__ import annotations

import pytest

from ndcg_gui.cli.main import main
from tests.core.sql.test_spark_sql import spark  # noqa: F401  (the session these tests share)
from tests.test_attack_issue35 import _query_files

pytest.importorskip("pyspark")

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("spark")]  # (one JVM, one worker)

MASTER = ("--spark-master", "local[2]")  # (the shared session's)


@pytest.mark.parametrize("runs", [1, 2])
def test_spark_refuses_an_unknown_query_as_memory_does(spark, tmp_path, capsys, runs):  # noqa: F811
    a, b, qrels = _query_files(tmp_path)
    base = [*map(str, [a, b][:runs]), "--qrels", str(qrels), "-q", "--query", "q3"]
    said = {}
    for engine in ("memory", "spark"):
        code = main([*base, "--engine", engine, *(MASTER if engine == "spark" else ())])
        said[engine] = (code, *capsys.readouterr())
    assert said["memory"][0] == 2 and 'no query "q3" among the 3 ' in said["memory"][2]
    assert said["spark"] == said["memory"]
