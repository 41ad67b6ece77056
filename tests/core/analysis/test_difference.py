"""explain_difference: the steps from definition a to b add up to the whole difference, the last
step is b itself, steps whose choice is equal change nothing; presets_giving finds a mean."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from test_against_pytrec_eval import runs_and_qrels

from ndcg_gui.core import evaluate
from ndcg_gui.core.analysis.difference import STEPS, explain_difference, presets_giving
from ndcg_gui.core.ndcg.evaluate import mean_ndcg
from ndcg_gui.core.ndcg.presets import PRESETS

NAMES = sorted(PRESETS)


@settings(max_examples=60, deadline=None)
@given(data=runs_and_qrels(), k=st.one_of(st.none(), st.integers(1, 12)),
       a=st.sampled_from(NAMES), b=st.sampled_from(NAMES))
def test_steps_telescope_to_b(data, k, a, b):
    run, qrels, _, _ = data
    walk = explain_difference(run, qrels, PRESETS[a].at(k), PRESETS[b].at(k), (a, b))
    steps = walk.steps
    assert list(steps["step"]) == ["a"] + [name for name, _ in STEPS]
    own = {}
    for name in (a, b):
        preset = PRESETS[name]
        own[name] = mean_ndcg(evaluate(run, qrels, preset.with_(k=k)))
    if math.isnan(own[a]):
        return
    assert math.isclose(steps["mean"].iloc[0], own[a], abs_tol=1e-12)
    assert math.isclose(steps["mean"].iloc[-1], own[b], abs_tol=1e-12)  # the last step is b
    assert math.isclose(steps["change"].iloc[1:].sum(), own[b] - own[a], abs_tol=1e-12)
    unchanged = steps["changed"] == ""
    assert (steps.loc[unchanged, "change"] == 0).all()
    last = walk.per_query.iloc[:, -1].dropna()
    preset = PRESETS[b]
    theirs = evaluate(run, qrels, preset.with_(k=k))["ndcg"]
    assert np.allclose(last.to_numpy(), theirs.loc[last.index].to_numpy(), atol=1e-12)


def test_trec_eval_to_sklearn_on_a_tied_list_names_ideal_and_ties():
    run = pd.DataFrame({"query": "q", "doc": list("abcde"), "score": [3, 2, 0, 0, 1]})
    qrels = pd.DataFrame({"query": "q", "doc": list("abcdex"), "grade": [3, 2, 1, 0, 0, 3]})
    walk = explain_difference(run, qrels, PRESETS["trec_eval"].at(5), "sklearn")  # (sklearn at k = 5)
    assert walk.labels == ("trec_eval", "sklearn") and walk.b.k == 5
    moved = walk.steps.set_index("step")
    assert moved.loc["ideal pool and order", "change"] > 0  # the unretrieved grade-3 document
    # (and scikit-learn compares the float64 scores where trec_eval 9.x keeps float32)
    assert moved.loc["ties", "changed"] == "ties → average; scores compared as float64"
    assert "ideal pool and order" in walk.text() and "total" in walk.text()


def test_one_list_and_the_mean_policy_step():
    a = PRESETS["trec_eval"].with_(ties="trec", undefined="zero")
    b = PRESETS["trec_eval"].with_(ties="trec", undefined="skip")
    run = pd.DataFrame({"query": ["p", "p", "q"], "doc": ["x", "y", "z"], "rank": [1, 2, 1],
                        "grade": [1.0, 0.0, 0.0]})
    walk = explain_difference(run, None, a.at(2), b.at(2))
    assert walk.steps["mean"].tolist()[0] == 0.5 and walk.steps["mean"].tolist()[-1] == 1.0
    assert walk.steps.set_index("step").loc["mean", "change"] == 0.5
    single = explain_difference([3, 2, 3, 0, 1], None, "trec_eval", "ranx_burges")  # (both at k = 10)
    assert single.a.k == single.b.k == 10
    assert single.steps.set_index("step").loc["gain", "changed"].startswith("gain 2^g − 1")


def test_a_walk_between_cut_offs_says_the_cut_off_step():
    """The measure carries its k: two measures at different k differ by the cut-off too, said in
    the positions-and-cut-off step (each figure at the other's k equals `evaluate`'s)."""
    run = pd.DataFrame({"query": "q", "doc": list("abcd"), "rank": [1, 2, 3, 4],
                        "grade": [0.0, 0.0, 3.0, 1.0]})
    walk = explain_difference(run, None, PRESETS["trec_eval"].at(2), PRESETS["trec_eval"].at(4))
    steps = walk.steps.set_index("step")
    assert steps.loc["positions and cut-off", "changed"] == "k → 4"
    at4 = mean_ndcg(evaluate(run, None, PRESETS["trec_eval"].at(4)))
    assert steps.loc["a", "mean"] == 0.0 and math.isclose(steps.loc["positions and cut-off", "mean"], at4)
    assert walk.labels == ("trec_eval", "trec_eval")


def test_presets_giving_a_mean():
    run = pd.DataFrame({"query": "q", "doc": list("abc"), "rank": [1, 2, 3], "grade": [1.0, 3.0, 0.0]})
    table = presets_giving(0.7967, run, None, k=3)
    named = set(table.loc[table["match"], "preset"])
    assert "trec_eval" in named and "ranx_burges" not in named
    assert set(table["preset"]) == set(PRESETS)
