"""The gdeval preset against gdeval itself: ir_measures' gdeval provider, which runs its bundled
gdeval.pl under perl, on hypothesis-random runs with tied scores, grades from −1 to 4, unjudged
documents, judged documents not retrieved, queries without a relevant document and queries the
run left empty (topics are numbers and grades whole numbers ≤ 4: gdeval.pl refuses others)."""

from __future__ import annotations

import shutil

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core import evaluate
from ndcg_gui.core.ndcg.evaluate import mean_ndcg
from ndcg_gui.core.ndcg.presets import PRESETS

pytestmark = pytest.mark.skipif(shutil.which("perl") is None, reason="gdeval.pl needs perl")
ir_measures = pytest.importorskip("ir_measures")

DOCS = st.text("abcdefXY019", min_size=1, max_size=4)


@st.composite
def runs_and_qrels(draw):
    run_rows, qrels_rows = [], []
    for topic in range(1, draw(st.integers(1, 4)) + 1):
        docs = draw(st.lists(DOCS, max_size=20, unique=True))
        scores = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.25, -1.0]), min_size=len(docs),
                               max_size=len(docs)))
        run_rows += [(str(topic), d, s) for d, s in zip(docs, scores, strict=True)]
        judged = draw(st.lists(st.sampled_from(docs), unique=True)) if docs else []
        missed = draw(st.lists(DOCS.map(lambda d: "u" + d), max_size=5, unique=True))
        if draw(st.booleans()) or not docs:
            qrels_rows += [(str(topic), d, draw(st.integers(-1, 4))) for d in judged + missed]
    if not qrels_rows:
        qrels_rows.append(("9", "z", 1))  # (a judged topic the run never returns)
    run = pd.DataFrame(run_rows, columns=["query", "doc", "score"])
    qrels = pd.DataFrame(qrels_rows, columns=["query", "doc", "grade"])
    return run, qrels


def gdeval(run: pd.DataFrame, qrels: pd.DataFrame, k: int) -> tuple[dict[str, float], float]:
    """Each query's NDCG@k and the mean, from ir_measures' gdeval provider."""
    from ir_measures import nDCG

    measure = nDCG(dcg="exp-log2") @ k
    qrels_in = [ir_measures.Qrel(q, d, int(g)) for q, d, g in qrels.itertuples(index=False)]
    run_in = [ir_measures.ScoredDoc(q, d, float(s)) for q, d, s in run.itertuples(index=False)]
    per_query = {m.query_id: m.value for m in ir_measures.gdeval.iter_calc([measure], qrels_in, run_in)}
    return per_query, ir_measures.gdeval.calc_aggregate([measure], qrels_in, run_in)[measure]


@settings(max_examples=120, deadline=None)
@given(data=runs_and_qrels(), k=st.integers(1, 25))
def test_gdeval_preset_is_ir_measures_gdeval(data, k):
    run, qrels = data
    theirs, their_mean = gdeval(run, qrels, k)
    preset = PRESETS["gdeval"]
    mine = evaluate(run, qrels, preset.with_(k=k, empty="zero"))
    assert set(theirs) == set(qrels["query"]) <= set(mine.index)
    for query, value in theirs.items():
        assert mine.loc[query, "ndcg"] == pytest.approx(value, abs=1e-12), query
    assert mean_ndcg(mine.loc[sorted(theirs)]) == pytest.approx(their_mean, abs=1e-12)


def test_a_tie_broken_by_docno_descending_and_the_five_decimals():
    """d2 and d1 tie: gdeval.pl's runOrder puts d2 first (docno descending), as trec_eval."""
    run = pd.DataFrame({"query": "1", "doc": ["d1", "d2", "d3"], "score": [1.0, 1.0, 0.5]})
    qrels = pd.DataFrame({"query": "1", "doc": ["d1", "d3", "d2"], "grade": [3, 1, -1]})
    theirs, _ = gdeval(run, qrels, 2)
    preset = PRESETS["gdeval"]
    mine = evaluate(run, qrels, preset.with_(k=2))
    assert mine.loc["1", "ndcg"] == theirs["1"]
    assert theirs["1"] == round(theirs["1"], 5) and 0 < theirs["1"] < 1  # (d2's −1 counts 0)
