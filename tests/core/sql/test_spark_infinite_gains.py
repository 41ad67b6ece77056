"""Spark refuses a grade whose gain 2^g - 1 no double holds as the in-memory path and DuckDB refuse
it (tests/core/sql/test_engine_infinite_gains.py): the same one line, naming the qrels file and the
line of the first such grade in local text (TREC, CSV), the row of one Parquet file; a gain that
fits is scored as in memory."""

from __future__ import annotations

import pytest

from ndcg_gui.core.errors import InputError
from tests.core.sql.test_engine_infinite_gains import QRELS, TF, cli, write
from tests.core.sql.test_spark_sql import spark  # noqa: F401  (the session these tests share)

pytest.importorskip("pyspark")

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("spark")]  # (one JVM, one worker)

MASTER = "local[2]"  # (the shared session's)
SAID = ('grade 5000 (query "2", doc "d") gives an infinite gain under 2^g - 1; expected a grade below '
        "1024 under the exponential gain")


@pytest.mark.parametrize("form", ["trec", "csv", "parquet"])
def test_spark_says_the_in_memory_line(spark, tmp_path, form):  # noqa: F811
    from ndcg_gui.core.sql.spark_engine import score_files_with_spark

    run, qrels = write(tmp_path, form=form)
    with pytest.raises(InputError) as caught:
        score_files_with_spark(str(run), str(qrels), TF, MASTER)
    if form == "parquet":
        assert str(caught.value) == f"{qrels.name}: row 3: {SAID}"  # (DuckDB's words for its row)
        return
    assert str(caught.value) == f"{qrels.name}:4: {SAID}"
    memory = cli(run.name, "--qrels", qrels.name, "--preset", "tf_ranking", "--engine", "memory",
                 cwd=tmp_path)
    assert memory.stderr == f"ndcg-inspect: {caught.value}\n"


def test_a_gain_that_fits_is_scored(spark, tmp_path):  # noqa: F811
    from ndcg_gui.core.sql.duckdb_engine import score_files
    from ndcg_gui.core.sql.spark_engine import score_files_with_spark

    run, qrels = write(tmp_path, [(q, d, 1023.0 if g > 1023 else g) for q, d, g in QRELS])
    got = score_files_with_spark(str(run), str(qrels), TF, MASTER).table.set_index("query").sort_index()
    duck = score_files(str(run), str(qrels), TF).table.set_index("query").sort_index()
    assert got["idcg"].tolist() == duck["idcg"].tolist() and got.loc["2", "idcg"] > 1e307
    assert got["ndcg"].tolist() == pytest.approx(duck["ndcg"].tolist(), rel=1e-12)
