"""Each tool preset against the tool itself, on hypothesis-random runs: tied scores, grades from
−1 to 4 (whole numbers where the tool accepts only those), unjudged documents, judged documents
not retrieved, empty queries.

Tools: pytrec_eval with judged_docs_only_flag (trec_eval -J), ir_measures nDCG (plain and
judged_only), ranx ndcg, XGBoost ndcg / ndcg-, LightGBM ndcg. XGBoost and LightGBM report only
the mean over groups, so each is compared on the mean and on every group alone.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pytrec_child import call as in_child
from pytrec_child import evaluate as pytrec_evaluate
from ranx_width import one_width
from test_against_pytrec_eval import runs_and_qrels

from ndcg_gui.core import evaluate
from ndcg_gui.core.ndcg.evaluate import mean_ndcg
from ndcg_gui.core.ndcg.presets import DESCRIPTIONS, PRESETS


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def ours(run, qrels, k, preset: str, missing="skip") -> pd.DataFrame:
    chosen = PRESETS[preset]
    return evaluate(run, qrels, chosen.with_(k=k, empty=missing))


# --- trec_eval -J: pytrec_eval and ir_measures ----------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(data=runs_and_qrels(), k=st.integers(1, 30))
def test_trec_eval_J_is_pytrec_eval_judged_docs_only(data, k):
    run, qrels, run_d, qrels_d = data
    out = pytrec_evaluate(qrels_d, {f"ndcg_cut.{k}"}, run_d, judged_docs_only_flag=True)
    theirs = {q: v[f"ndcg_cut_{k}"] for q, v in out.items()}
    mine = ours(run, qrels, k, "trec_eval_J")
    # pytrec_eval leaves out queries whose condensed list is empty; we list them with 0.
    assert set(theirs) <= set(mine.index)
    for query, value in theirs.items():
        assert close(mine.loc[query, "ndcg"], value), query
    for query in set(mine.index) - set(theirs):
        assert mine.loc[query, "ndcg"] == 0.0


def _ir_measures(qrels_d, run_d, k):
    import ir_measures
    from ir_measures import nDCG

    measures = [nDCG @ k, nDCG(judged_only=True) @ k]
    out: dict[str, dict[str, float]] = {}
    for m in ir_measures.iter_calc(measures, qrels_d, run_d):
        out.setdefault(str(m.measure), {})[m.query_id] = m.value
    return [out.get(str(m), {}) for m in measures]


@settings(max_examples=40, deadline=None)
@given(data=runs_and_qrels(), k=st.integers(1, 30))
def test_ir_measures_ndcg_and_judged_only(data, k):
    run, qrels, run_d, qrels_d = data
    plain, judged_only = in_child(_ir_measures, qrels_d, run_d, k)
    for theirs, preset in ((plain, "trec_eval"), (judged_only, "trec_eval_J")):
        mine = ours(run, qrels, k, preset, missing="zero")  # ir_measures lists empty runs as 0
        for query, value in theirs.items():
            assert close(mine.loc[query, "ndcg"], value), (preset, query)


# --- ranx ---------------------------------------------------------------------------------------


@pytest.mark.slow  # (ranx compiles its numba functions first: once, on one worker)
@pytest.mark.xdist_group("ranx")
@settings(max_examples=100, deadline=None)
@given(data=runs_and_qrels(), k=st.integers(1, 30))
def test_ranx_ndcg_and_ndcg_burges(data, k):
    from ranx import Qrels, Run
    from ranx import evaluate as ranx_evaluate

    run, qrels, _, _ = data
    # ranx needs each query in both, with a document; ranx's order of tied scores is its sort's,
    # so scores here are made distinct (the tie rule is tested against trec_eval elsewhere).
    run = run.assign(score=run["score"] + 1e-6 * np.arange(len(run)))
    queries = sorted(set(run["query"]) & set(qrels["query"]))
    if not queries:
        return
    run = run[run["query"].isin(queries)]
    qrels = qrels[qrels["query"].isin(queries)]
    run_dict = {q: dict(zip(g["doc"], g["score"].astype(float), strict=True))
                for q, g in run.groupby("query")}
    qrels_dict = {q: dict(zip(g["doc"], g["grade"].astype(int), strict=True))
                  for q, g in qrels.groupby("query")}
    run_dict, qrels_dict = one_width(run_dict, qrels_dict)  # (one compile: ranx_width.py)
    for metric, preset in (("ndcg", "ranx"), ("ndcg_burges", "ranx_burges")):
        r = Run(run_dict)
        ranx_evaluate(Qrels(qrels_dict), r, f"{metric}@{k}", return_mean=False, make_comparable=True)
        theirs = r.scores[f"{metric}@{k}"]
        mine = ours(run, qrels, k, preset)
        for query in queries:
            assert close(mine.loc[query, "ndcg"], float(theirs[query])), (metric, query)


# --- XGBoost and LightGBM -----------------------------------------------------------------------

SCORES = st.sampled_from([0.0, 0.5, 1.0, 2.0, -1.5, 3.25])  # exact in float32; ties are common


@st.composite
def groups(draw):
    """A run with grades (whole numbers 0..4: both tools refuse others) as one table."""
    rows = []
    for qi in range(draw(st.integers(1, 5))):
        n = draw(st.integers(1, 12))
        grades = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
        scores = draw(st.lists(SCORES, min_size=n, max_size=n))
        rows += [(f"q{qi}", f"d{j}", float(g), s)
                 for j, (g, s) in enumerate(zip(grades, scores, strict=True))]
    return pd.DataFrame(rows, columns=["query", "doc", "grade", "score"])


def _xgboost_mean(run: pd.DataFrame, k: int, minus: bool) -> float:
    import xgboost as xgb

    sizes = run.groupby("query", sort=False).size().to_numpy()
    data = xgb.DMatrix(np.zeros((len(run), 1)), label=run["grade"].to_numpy(),
                       base_margin=run["score"].to_numpy())
    data.set_group(sizes)
    metric = f"ndcg@{k}" + ("-" if minus else "")
    booster = xgb.train({"objective": "rank:ndcg", "eval_metric": metric}, data, num_boost_round=0)
    return float(booster.eval(data).split(":")[-1])


def _lightgbm_mean(run: pd.DataFrame, k: int) -> float:
    import lightgbm as lgb

    sizes = run.groupby("query", sort=False).size().to_numpy()
    x = np.zeros((len(run), 1))
    data = lgb.Dataset(x, label=run["grade"].to_numpy(), group=sizes, init_score=run["score"].to_numpy())
    record: dict = {}
    # One round that cannot split: the tree adds the same 0 to every score, so the metric is
    # that of the init scores (ties stay tied).
    params = {"objective": "lambdarank", "metric": "ndcg", "eval_at": [k], "verbosity": -1,
              "min_data_in_leaf": 10**6, "min_sum_hessian_in_leaf": 1e300}
    lgb.train(params, data, num_boost_round=1, valid_sets=[data], valid_names=["t"],
              callbacks=[lgb.record_evaluation(record)])
    return float(record["t"][f"ndcg@{k}"][-1])


@pytest.mark.slow  # (minutes of examples or actions: make test, not the quick loop)
@settings(max_examples=150, deadline=None)
@given(run=groups(), k=st.integers(1, 14))
@pytest.mark.parametrize("preset", ["xgboost", "xgboost_minus"])
def test_xgboost_ndcg_and_ndcg_minus(preset, run, k):
    minus = preset == "xgboost_minus"
    assert close(mean_ndcg(ours(run, None, k, preset)), _xgboost_mean(run, k, minus))
    first = run[run["query"] == "q0"]
    assert close(ours(first, None, k, preset).loc["q0", "ndcg"], _xgboost_mean(first, k, minus))


@pytest.mark.slow  # (minutes of examples or actions: make test, not the quick loop)
@settings(max_examples=100, deadline=None)
@given(run=groups(), k=st.integers(1, 14))
def test_lightgbm_ndcg(run, k):
    assert close(mean_ndcg(ours(run, None, k, "lightgbm")), _lightgbm_mean(run, k))
    first = run[run["query"] == "q0"]
    assert close(ours(first, None, k, "lightgbm").loc["q0", "ndcg"], _lightgbm_mean(first, k))


# --- near-tied float64 scores and fractional grades ---------------------------------------------
#
# Scores equal as float32 but not as float64 (1 and 1 + 1e-9, 12.34567891 and 12.3456789), one ulp
# apart, and exactly tied: each preset must rank them at its tool's precision (trec_eval 9.x and
# pytrec_eval keep float32, XGBoost's predictions are float32; scikit-learn, LightGBM and ranx
# compare the float64 numbers) with its tool's tie rule.

NEAR = st.sampled_from([1.0, 1.0 + 1e-9, 1.0 + 2.0**-52, 12.34567891, 12.3456789, 2.0, 0.5])


WHOLE_GRADES = st.integers(0, 4).map(float)


@st.composite
def near_groups(draw, grades=WHOLE_GRADES):
    """`groups` with near-tied scores (one table: query, doc, grade, score)."""
    rows = []
    for qi in range(draw(st.integers(1, 4))):
        n = draw(st.integers(2, 10))
        g = draw(st.lists(grades, min_size=n, max_size=n))
        s = draw(st.lists(NEAR, min_size=n, max_size=n))
        rows += [(f"q{qi}", f"d{j}", a, b) for j, (a, b) in enumerate(zip(g, s, strict=True))]
    return pd.DataFrame(rows, columns=["query", "doc", "grade", "score"])


@settings(max_examples=50, deadline=None)
@given(run=near_groups(st.floats(0, 4, allow_nan=False).map(lambda x: round(x, 2))),
       k=st.one_of(st.none(), st.integers(1, 12)))
@pytest.mark.parametrize("preset", ["sklearn", "torchmetrics"])
def test_sklearn_on_near_tied_scores_and_fractional_grades(preset, run, k):
    from sklearn.metrics import ndcg_score

    mine = ours(run, None, k, preset)
    for query, group in run.groupby("query"):
        theirs = ndcg_score([group["grade"].to_numpy()], [group["score"].to_numpy()], k=k)
        assert close(mine.loc[query, "ndcg"], theirs), query


@settings(max_examples=30, deadline=None)
@given(run=near_groups(), k=st.integers(1, 12))
@pytest.mark.parametrize("preset", ["xgboost", "xgboost_minus"])
def test_xgboost_on_near_tied_scores(preset, run, k):
    minus = preset == "xgboost_minus"
    assert close(mean_ndcg(ours(run, None, k, preset)), _xgboost_mean(run, k, minus))
    first = run[run["query"] == "q0"]
    assert close(ours(first, None, k, preset).loc["q0", "ndcg"], _xgboost_mean(first, k, minus))


@settings(max_examples=30, deadline=None)
@given(run=near_groups(), k=st.integers(1, 12))
def test_lightgbm_on_near_tied_scores(run, k):
    assert close(mean_ndcg(ours(run, None, k, "lightgbm")), _lightgbm_mean(run, k))
    first = run[run["query"] == "q0"]
    assert close(ours(first, None, k, "lightgbm").loc["q0", "ndcg"], _lightgbm_mean(first, k))


def _as_dicts(run: pd.DataFrame) -> tuple[dict, dict]:
    run_d = {q: dict(zip(g["doc"], g["score"].astype(float), strict=True)) for q, g in run.groupby("query")}
    qrels_d = {q: dict(zip(g["doc"], g["grade"].astype(int), strict=True)) for q, g in run.groupby("query")}
    return run_d, qrels_d


@settings(max_examples=40, deadline=None)
@given(run=near_groups(st.integers(-1, 4).map(float)), k=st.integers(1, 12))
@pytest.mark.parametrize("preset", ["trec_eval", "trec_eval_J"])
def test_pytrec_eval_on_near_tied_scores(preset, run, k):
    run_d, qrels_d = _as_dicts(run)
    out = pytrec_evaluate(qrels_d, {f"ndcg_cut.{k}"}, run_d, judged_docs_only_flag=preset == "trec_eval_J")
    qrels = run[["query", "doc", "grade"]]
    mine = ours(run[["query", "doc", "score"]], qrels, k, preset)
    for query, values in out.items():
        assert close(mine.loc[query, "ndcg"], values[f"ndcg_cut_{k}"]), query


def test_pytrec_eval_refuses_a_fractional_grade_that_trec_eval_cuts():
    # What the trec_eval preset reproduces is trec_eval's program (atol: 2.5 is 2), which
    # pytrec_eval does not: it refuses the judgment. Both are said in the preset's description.
    import pytrec_eval

    with pytest.raises(TypeError, match="integer"):  # (refused as made: no evaluation to hang)
        pytrec_eval.RelevanceEvaluator({"q": {"a": 2.5}}, {"ndcg_cut.10"})
    description = DESCRIPTIONS["trec_eval"]
    assert "atol" in description and "pytrec_eval refuses" in description


@pytest.mark.slow  # (ranx compiles its numba functions first: once, on one worker)
@pytest.mark.xdist_group("ranx")
@settings(max_examples=40, deadline=None)
@given(run=near_groups(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.75, 4.0])), k=st.integers(1, 12))
@pytest.mark.parametrize(("metric", "preset"), [("ndcg", "ranx"), ("ndcg_burges", "ranx_burges")])
def test_ranx_on_near_tied_scores_and_fractional_grades(metric, preset, run, k):
    from ranx import Qrels, Run
    from ranx import evaluate as ranx_evaluate

    # ranx leaves the order of exactly equal scores to its sort: those are made distinct, the
    # ties as float32 (ranx compares float64) kept.
    run = run.assign(score=run["score"] + 1e-6 * np.arange(len(run)))
    run_d = {q: dict(zip(g["doc"], g["score"], strict=True)) for q, g in run.groupby("query")}
    qrels_d = {q: dict(zip(g["doc"], g["grade"], strict=True)) for q, g in run.groupby("query")}
    run_d, qrels_d = one_width(run_d, qrels_d)  # (one compile: ranx_width.py)
    r = Run(run_d)
    ranx_evaluate(Qrels(qrels_d), r, f"{metric}@{k}", return_mean=False, make_comparable=True)
    mine = ours(run[["query", "doc", "score"]], run[["query", "doc", "grade"]], k, preset)
    for query, value in r.scores[f"{metric}@{k}"].items():
        assert close(mine.loc[query, "ndcg"], float(value)), query
