"""Per-segment means (`core.analysis.segments`) against pandas' groupby of the per-query figures, under
every mean policy, weighted and not, on runs with empty lists, queries of IDCG 0, queries in no
segment, and segments the policy leaves empty."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core.analysis.segments import segment_means
from ndcg_gui.core.ndcg.evaluate import evaluate
from ndcg_gui.core.ndcg.mean import mean_summary
from ndcg_gui.core.ndcg.measure import Measure

POLICIES = [Measure(k=5, empty=e, undefined=u) for e in ("zero", "skip") for u in ("zero", "skip")]


def scored(seed: int, queries: int = 30) -> pd.DataFrame:
    """`evaluate`'s table of a random run: some judged queries without results, some of IDCG 0."""
    rng = np.random.default_rng(seed)
    run, qrels = [], []
    for q in range(queries):
        judged = rng.integers(1, 8)
        grades = rng.integers(0, 3, judged) * (rng.random() > 0.2)  # ~1 in 5: no relevant document
        qrels += [(f"q{q}", f"d{d}", float(g)) for d, g in enumerate(grades)]
        if rng.random() > 0.15:  # ~1 in 7: no results
            docs = rng.choice(12, rng.integers(1, 12), replace=False)
            run += [(f"q{q}", f"d{d}", float(rng.random())) for d in docs]
    return evaluate(pd.DataFrame(run, columns=["query", "doc", "score"]),
                    pd.DataFrame(qrels, columns=["query", "doc", "grade"]), Measure(k=5))


def reference(result: pd.DataFrame, segments: dict, policy: Measure, weights: dict | None) -> pd.DataFrame:
    """Each segment's (weighted) mean by pandas, from the per-query rows the policy counts."""
    frame = result.assign(segment=[segments.get(q) for q in result.index],
                          w=[1.0 if weights is None else weights[q] for q in result.index])
    keep = pd.Series(True, index=frame.index)
    if policy.empty == "skip":
        keep &= frame["n_retrieved"] > 0
    if policy.undefined == "skip":
        keep &= ~frame["undefined"]
    frame = frame[frame["segment"].notna()]
    kept = frame[keep.reindex(frame.index)]
    sums = kept.assign(wx=kept["w"] * kept["ndcg"]).groupby("segment")[["wx", "w"]].sum()
    out = pd.DataFrame({"mean": sums["wx"] / sums["w"].where(sums["w"] > 0),
                        "counted": kept.groupby("segment").size(),
                        "total": frame.groupby("segment").size()})
    out["counted"] = out["counted"].fillna(0).astype(int)
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(POLICIES), st.integers(1, 6), st.booleans())
def test_equal_to_a_groupby_of_the_per_query_rows(seed, policy, n_segments, weighted):
    result = scored(seed)
    rng = np.random.default_rng(seed + 1)
    names = [f"s{i}" for i in range(n_segments)]
    segments = {q: names[rng.integers(n_segments)] for q in result.index if rng.random() > 0.2}
    weights = {q: float(rng.choice([0.0, 0.5, 1.0, 3.0, 1e6])) for q in result.index} if weighted else None
    if weights is not None:
        weights[result.index[0]] = 1.0  # (not all 0)
    got = segment_means(result, segments, policy, weights, figures=("dcg",), sums=("n_retrieved",))
    want = reference(result, segments, policy, weights).reindex(got.table.index)
    dcg = reference(result.assign(ndcg=result["dcg"]), segments, policy, weights).reindex(got.table.index)
    np.testing.assert_allclose(got.table["dcg"], dcg["mean"], rtol=1e-12, equal_nan=True)
    assert list(got.table.index) == sorted(set(segments.values()), key=lambda s: int(s[1:]))
    np.testing.assert_allclose(got.table["mean"], want["mean"], rtol=1e-12, equal_nan=True)
    assert got.table["counted"].tolist() == want["counted"].tolist()
    assert got.table["total"].tolist() == want["total"].tolist()
    labelled = result.assign(segment=[segments.get(q) for q in result.index])
    retrieved = labelled.groupby("segment")["n_retrieved"]
    assert got.table["n_retrieved"].tolist() == retrieved.sum().reindex(got.table.index).tolist()
    assert got.overall["n_retrieved"] == result["n_retrieved"].sum()
    assert got.unassigned == [q for q in result.index if q not in segments]
    summary = mean_summary(result, policy)
    assert got.overall["counted"] == summary.counted and got.overall["total"] == summary.total
    if weights is None:  # the mean of all is the summary's own
        assert got.overall["mean"] == pytest.approx(summary.mean, rel=1e-12, nan_ok=True)
    else:
        kept = reference(result, dict.fromkeys(result.index, "all"), policy, weights)
        assert got.overall["mean"] == pytest.approx(kept["mean"].iloc[0], rel=1e-12, nan_ok=True)


def test_a_segment_the_policy_leaves_empty_has_no_mean_and_unknown_queries_are_listed():
    run = pd.DataFrame({"query": ["a", "b"], "doc": ["x", "y"], "score": [1.0, 1.0]})
    qrels = pd.DataFrame({"query": ["a", "b", "c"], "doc": ["x", "z", "w"], "grade": [1.0, 0.0, 2.0]})
    result = evaluate(run, qrels, Measure(k=3))
    got = segment_means(result, {"a": "one", "b": "two", "c": "two", "zz": "two"},
                        Measure(k=3, empty="skip", undefined="skip"))
    # b has IDCG 0 and c no results: "two" counts nothing
    assert got.table.loc["one"].tolist() == [1.0, 1, 1]
    assert np.isnan(got.table.at["two", "mean"])
    assert got.table.loc["two", ["counted", "total"]].tolist() == [0, 2]
    assert got.unknown == ["zz"] and got.unassigned == []


def test_weights_far_apart_neither_overflow_nor_vanish():
    result = scored(3, queries=6)
    ndcg = result["ndcg"].to_numpy()
    for scale in (1e300, 1e-300):
        weights = dict(zip(result.index, scale * np.arange(1, 7, dtype=float), strict=True))
        got = segment_means(result, dict.fromkeys(result.index, "s"), weights=weights)
        want = np.average(ndcg, weights=np.arange(1, 7))
        assert got.table.at["s", "mean"] == pytest.approx(want, rel=1e-12)


def test_segment_names_in_natural_order():
    result = scored(5, queries=12)
    names = ["m10", "m2", "M1", "é", "all"]
    got = segment_means(result, {q: names[i % 5] for i, q in enumerate(result.index)})
    assert list(got.table.index) == ["M1", "all", "m2", "m10", "é"]  # as the query panel orders ids
