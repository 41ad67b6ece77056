"""The definition as SQL (`core.sql.ndcg_sql`) run in DuckDB equals `evaluate`, row for row, on
random runs and qrels: tied scores (as float32 and exactly), negative and fractional grades,
unjudged documents, judged queries without results, queries without judgments, every tie rule,
every preset the SQL accepts and hand-made definitions; what it cannot express is refused."""

from __future__ import annotations

import dataclasses
import math

import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ndcg_gui.core import PRESETS, MetricConfig, evaluate
from ndcg_gui.core.evaluate import RESULT_COLUMNS
from ndcg_gui.core.sql import NotExpressible, check_expressible, ndcg_sql
from ndcg_gui.core.sql.ndcg_sql import ndcg_steps
from ndcg_gui.core.state.workspace import Definition
from tests.core.definition_strategies import configs

duckdb = pytest.importorskip("duckdb")  # (the test extra declares it: never skipped there)

QUERIES = ["1", "10", "a", "é", "q 7"]
DOCS = ["d1", "d2", "d3", "D4", "d10", "é5", "z", "ä", "d 8"]
# Ties as float32 (1 and 1 + 1e-9), exact ties, and a few values apart.
TIED = st.sampled_from([1.0, 1.0 + 1e-9, 2.0])
SCORES = st.one_of(TIED, TIED, TIED, st.sampled_from([0.0, 1.5, -3.25, 1e-40, 7e38, 8e38]),
                   st.floats(-100, 100, allow_nan=False))
GRADES = st.one_of(st.sampled_from([-2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 0.5]),
                   st.floats(-3, 4, allow_nan=False).map(lambda x: round(x, 2)))


@st.composite
def tables(draw) -> tuple[pd.DataFrame, pd.DataFrame]:
    pairs = st.tuples(st.sampled_from(QUERIES), st.sampled_from(DOCS))
    run_pairs = draw(st.lists(pairs, unique=True, max_size=30))
    scores = draw(st.lists(SCORES, min_size=len(run_pairs), max_size=len(run_pairs)))
    # Judged: some retrieved documents, and others; queries the run never answered.
    judged = draw(st.lists(st.sampled_from(run_pairs), unique=True)) if run_pairs else []
    judged += draw(st.lists(pairs, max_size=12))
    judged = list(dict.fromkeys(judged))
    grades = draw(st.lists(GRADES, min_size=len(judged), max_size=len(judged)))
    run = pd.DataFrame({"query": [q for q, _ in run_pairs], "doc": [d for _, d in run_pairs],
                        "score": pd.Series(scores, dtype=float)})
    qrels = pd.DataFrame({"query": [q for q, _ in judged], "doc": [d for _, d in judged],
                          "grade": pd.Series(grades, dtype=float)})
    # Rows in the order they were drawn (file order: the "file" tie rule, first appearances).
    return run, qrels


def _arrow(frame: pd.DataFrame, number: str) -> pa.Table:
    return pa.table({"query": pa.array(frame["query"].tolist(), pa.string()),
                     "doc": pa.array(frame["doc"].tolist(), pa.string()),
                     number: pa.array(frame[number].tolist(), pa.float64()),
                     "row_order": pa.array(range(len(frame)), pa.int64())})


def run_sql(run: pd.DataFrame, qrels: pd.DataFrame, definition: Definition, missing: str,
            steps: bool = False) -> pd.DataFrame:
    """The SQL's table: one query (as Spark runs it), or part by part, each made a table before
    the next (`ndcg_steps`, as the DuckDB engine runs it)."""
    con = duckdb.connect()
    con.register("run", _arrow(run, "score"))
    con.register("qrels", _arrow(qrels, "grade"))
    if steps:
        parts, final = ndcg_steps(definition, missing, row_order=True)
        for name, select in parts:
            con.execute(f"CREATE TABLE {name} AS {select}")
        out = con.sql(final).df()
    else:
        out = con.sql(ndcg_sql(definition, missing, row_order=True)).df()
    con.close()
    return out


def assert_same(sql: pd.DataFrame, ours: pd.DataFrame) -> None:
    assert sql["query"].tolist() == ours.index.tolist()
    for column in RESULT_COLUMNS:
        got, want = sql[column].tolist(), ours[column].tolist()
        if column in ("dcg", "idcg", "ndcg"):
            for g, w in zip(got, want, strict=True):
                assert math.isclose(g, w, rel_tol=1e-12, abs_tol=1e-12) or (g == w), (column, got, want)
        else:
            assert [type(w)(g) for g, w in zip(got, want, strict=True)] == want, (column, got, want)


def check(run, qrels, definition: Definition, missing: str) -> None:
    ours = evaluate(run, qrels, definition.k, definition.config, definition.ties, missing)
    assert_same(run_sql(run, qrels, definition, missing), ours)
    assert_same(run_sql(run, qrels, definition, missing, steps=True), ours)


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(tables(), configs(), st.sampled_from(["trec", "file", "average"]), st.integers(1, 8),
       st.sampled_from(["zero", "skip"]))
def test_sql_equals_evaluate(data, config, ties, k, missing):
    run, qrels = data
    definition = Definition(k, config, ties)
    try:  # (the tool presets' newer choices have no SQL yet: refused, tested apart)
        check_expressible(definition, row_order=True)
    except NotExpressible:
        assume(False)
    check(run, qrels, definition, missing)


@pytest.mark.slow  # (minutes of examples or actions: make test, not the quick loop)
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_the_sql_accepts_equals_evaluate(name):
    preset = PRESETS[name]
    definition = Definition(5, preset.config, preset.ties)
    try:
        check_expressible(definition, row_order=True)
    except NotExpressible as err:  # a choice added to the config without its SQL: said, in one line
        assert "\n" not in str(err) and str(err)
        return

    @SETTINGS
    @given(tables(), st.integers(1, 8), st.sampled_from(["zero", "skip"]))
    def same(data, k, missing):
        run, qrels = data
        check(run, qrels, dataclasses.replace(definition, k=k), missing)

    same()


def test_the_sql_orders_like_trec_eval_and_first_appearances_are_given():
    # Tied as float32; the doc ids decide, in descending byte order ("é5" > "z" > "d2").
    run = pd.DataFrame({"query": ["b", "b", "b", "a"], "doc": ["d2", "é5", "z", "d1"],
                        "score": [1.0, 1.0 + 1e-9, 1.0, 0.5]})
    qrels = pd.DataFrame({"query": ["c", "b", "a"], "doc": ["x", "z", "d1"], "grade": [1.0, 3.0, 1.0]})
    sql = run_sql(run, qrels, Definition(1, MetricConfig.preset("trec_eval")), "zero")
    assert sql["query"].tolist() == ["a", "b", "c"]
    assert sql["dcg"].tolist() == [1.0, 0.0, 0.0]  # b's first is é5, unjudged
    assert sql["first_row"].fillna(-1).tolist() == [3, 0, -1]
    assert sql["first_judged"].tolist() == [2, 1, 0]


@dataclasses.dataclass(frozen=True)
class _Later(MetricConfig):
    """A config with a choice added after the SQL was written."""

    condensed: bool = False


def test_a_choice_the_sql_does_not_write_is_refused_in_one_line():
    with pytest.raises(NotExpressible, match=r"condensed=True"):
        ndcg_sql(Definition(10, _Later(condensed=True)))
    ndcg_sql(Definition(10, _Later()))  # the new field at its default: as before
    odd = MetricConfig()
    object.__setattr__(odd, "discount", "log10")  # a discount added to the config later
    with pytest.raises(NotExpressible, match=r"discount='log10'"):
        ndcg_sql(Definition(10, odd))
    for ties in ("file", "average"):
        with pytest.raises(NotExpressible, match="row_order"):
            ndcg_sql(Definition(10, MetricConfig(), ties))
    with pytest.raises(NotExpressible, match="missing='drop'"):
        ndcg_sql(Definition(10), missing="drop")


def test_average_ties_count_judged_rows_within_k_in_file_order():
    # Found by hypothesis: two tied rows, k=1; the first in the file is the judged one, so n_judged
    # is 1 (the averaged gains make DCG the same whichever stands first).
    run = pd.DataFrame({"query": ["1", "1"], "doc": ["d1", "d2"], "score": [1.0, 1.0]})
    qrels = pd.DataFrame({"query": ["1"], "doc": ["d1"], "grade": [-2.0]})
    check(run, qrels, Definition(1, MetricConfig(discount="jarvelin"), "average"), "zero")
    assert run_sql(run, qrels, Definition(1, MetricConfig(), "average"), "zero")["n_judged"].tolist() == [1]


def test_an_ideal_whose_negative_gains_cancel_is_zero_as_in_evaluate():
    # Gains 1, 0, -2 in the ideal order: IDCG = 1 + 0 - 2/log2(4) = 0. A sum in another order
    # than evaluate's left a few ulps, and NDCG = 10^15 (hypothesis found both directions).
    run = pd.DataFrame({"query": ["1", "10", "1", "1"], "doc": ["d1", "d1", "d2", "d3"], "score": [1.0] * 4})
    qrels = pd.DataFrame({"query": ["1", "10", "1"], "doc": ["d1", "d1", "d2"], "grade": [-2.0, -2.0, 1.0]})
    preset = PRESETS["torchmetrics"]
    got = run_sql(run, qrels, Definition(3, preset.config, preset.ties), "zero").set_index("query")
    want = evaluate(run, qrels, 3, preset.config, preset.ties, "zero")
    assert got.loc["1", "idcg"] == want.loc["1", "idcg"] == 0.0
    assert got.loc["1", "ndcg"] == want.loc["1", "ndcg"] == 0.0
