"""Spark reads the files of the engines' one generator (`definition_strategies.engine_inputs`:
TREC text, CSV, Parquet with a query column of text, integers or floats; near-ties at float32 and
float64, fractional and negative grades) as the in-memory reader and DuckDB do: every judged
query's figures to 1e-12 under each preset with its own tie rule and every other (issue 32: the
engines drifted apart where each was tested on its own inputs)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from ndcg_gui.core import PRESETS
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.ndcg.measure import MAX_K
from ndcg_gui.core.reading.dispatch import load
from tests.core.definition_strategies import FORMS, engine_inputs, write_inputs
from tests.core.sql.test_ndcg_sql import WRITTEN, assert_same

pytest.importorskip("pyspark")  # (make test installs the spark extra: never skipped there)

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("spark")]  # one JVM, one worker (the CLI's: another)


@pytest.fixture(scope="module", autouse=True)
def spark():
    from ndcg_gui.core.sql.spark_engine import session

    return session("local[2]")


# (each example is a Spark job: a few per form, no shrinking; the failing example is printed)
@pytest.mark.parametrize("form", FORMS)
def test_memory_and_spark_score_the_same_files_alike(tmp_path_factory, form):
    from ndcg_gui.core.sql.spark_engine import score_files_with_spark

    @settings(max_examples=3, deadline=None, derandomize=True,
              phases=[Phase.explicit, Phase.reuse, Phase.generate],
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(engine_inputs(forms=(form,)), st.sampled_from(WRITTEN), st.sampled_from([1, 3, 10, MAX_K]))
    def same(data, chosen, k):
        run, qrels, _ = data
        name, ties = chosen
        measure = PRESETS[name].with_(k=k, ties=ties)
        run_path, qrels_path = write_inputs(tmp_path_factory.mktemp("inputs"), run, qrels, form)
        try:
            memory = load(run_path, qrels_path).evaluate(measure.with_(empty="zero"))
        except InputError as refused:  # (an id with spaces around it: one id twice, as DuckDB says)
            with pytest.raises(InputError) as theirs:
                score_files_with_spark(str(run_path), str(qrels_path), measure, master="local[2]")
            assert "listed twice" in str(refused) and "listed twice" in str(theirs.value), theirs.value
            return
        got = score_files_with_spark(str(run_path), str(qrels_path), measure, master="local[2]").table
        assert_same(got, memory)

    same()
