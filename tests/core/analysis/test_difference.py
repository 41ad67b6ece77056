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
from ndcg_gui.core.analysis.difference import STEPS, MeanDefinition, explain_difference, presets_giving
from ndcg_gui.core.ndcg.evaluate import mean_ndcg
from ndcg_gui.core.ndcg.measure import PRESETS

NAMES = sorted(PRESETS)


@settings(max_examples=60, deadline=None)
@given(data=runs_and_qrels(), k=st.one_of(st.none(), st.integers(1, 12)),
       a=st.sampled_from(NAMES), b=st.sampled_from(NAMES))
def test_steps_telescope_to_b(data, k, a, b):
    run, qrels, _, _ = data
    walk = explain_difference(run, qrels, a, b, k)
    steps = walk.steps
    assert list(steps["step"]) == ["a"] + [name for name, _ in STEPS]
    own = {}
    for name in (a, b):
        preset = PRESETS[name]
        own[name] = mean_ndcg(evaluate(run, qrels, k=k, config=preset.config, ties=preset.ties))
    if math.isnan(own[a]):
        return
    assert math.isclose(steps["mean"].iloc[0], own[a], abs_tol=1e-12)
    assert math.isclose(steps["mean"].iloc[-1], own[b], abs_tol=1e-12)  # the last step is b
    assert math.isclose(steps["change"].iloc[1:].sum(), own[b] - own[a], abs_tol=1e-12)
    unchanged = steps["changed"] == ""
    assert (steps.loc[unchanged, "change"] == 0).all()
    last = walk.per_query.iloc[:, -1].dropna()
    preset = PRESETS[b]
    theirs = evaluate(run, qrels, k=k, config=preset.config, ties=preset.ties)["ndcg"]
    assert np.allclose(last.to_numpy(), theirs.loc[last.index].to_numpy(), atol=1e-12)


def test_trec_eval_to_sklearn_on_a_tied_list_names_ideal_and_ties():
    run = pd.DataFrame({"query": "q", "doc": list("abcde"), "score": [3, 2, 0, 0, 1]})
    qrels = pd.DataFrame({"query": "q", "doc": list("abcdex"), "grade": [3, 2, 1, 0, 0, 3]})
    walk = explain_difference(run, qrels, "trec_eval", "sklearn", k=5)
    moved = walk.steps.set_index("step")
    assert moved.loc["ideal pool and order", "change"] > 0  # the unretrieved grade-3 document
    # (and scikit-learn compares the float64 scores where trec_eval 9.x keeps float32)
    assert moved.loc["ties", "changed"] == "ties → average; scores compared as float64"
    assert "ideal pool and order" in walk.text() and "total" in walk.text()


def test_one_list_and_the_mean_policy_step():
    a = MeanDefinition(PRESETS["trec_eval"].config, "trec", undefined="zero", label="zero")
    b = MeanDefinition(PRESETS["trec_eval"].config, "trec", undefined="skip", label="skip")
    run = pd.DataFrame({"query": ["p", "p", "q"], "doc": ["x", "y", "z"], "rank": [1, 2, 1],
                        "grade": [1.0, 0.0, 0.0]})
    walk = explain_difference(run, None, a, b, 2)
    assert walk.steps["mean"].tolist()[0] == 0.5 and walk.steps["mean"].tolist()[-1] == 1.0
    assert walk.steps.set_index("step").loc["mean", "change"] == 0.5
    single = explain_difference([3, 2, 3, 0, 1], None, "trec_eval", "ranx_burges", 5)
    assert single.steps.set_index("step").loc["gain", "changed"].startswith("gain 2^g − 1")


def test_presets_giving_a_mean():
    run = pd.DataFrame({"query": "q", "doc": list("abc"), "rank": [1, 2, 3], "grade": [1.0, 3.0, 0.0]})
    table = presets_giving(0.7967, run, None, k=3)
    named = set(table.loc[table["match"], "preset"])
    assert "trec_eval" in named and "ranx_burges" not in named
    assert set(table["preset"]) == set(PRESETS)
