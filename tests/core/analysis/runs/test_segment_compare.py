"""A comparison segment by segment (`core.analysis.runs.segment_compare`) against the comparison of
each segment's queries alone (`compare.paired_summary`, the statistics the whole run gets), pandas'
weighted means, exact weighted p-values, and Holm's procedure written from its definition."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core.analysis.runs import compare, segment_compare
from ndcg_gui.core.analysis.runs.segment_compare import compare_segments, paired_rows


def holm_by_definition(p: list[float]) -> list[float]:
    """Each hypothesis' adjusted p: the smallest level at which the step-down procedure rejects it
    (reject in order of p while p_(r) <= level / (m - r + 1))."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])

    def rejected(level: float) -> set[int]:
        out = set()
        for rank, i in enumerate(order):
            if p[i] * (m - rank) > level:
                break
            out.add(i)
        return out

    levels = sorted({min(1.0, p[i] * (m - r)) for r, i in enumerate(order)} | {1.0})
    return [min((a for a in levels if i in rejected(a)), default=1.0) for i in range(m)]


def runs(seed: int, n: int = 60, shift: dict | None = None) -> tuple[pd.DataFrame, dict]:
    """Per-query NDCG of a baseline and two runs, and a segment for most queries."""
    rng = np.random.default_rng(seed)
    queries = pd.Index([f"q{i}" for i in range(n)], name="query", dtype=object)
    names = ["mobile", "desktop", "tablet", "tv"]
    segments = {q: names[rng.integers(4)] for q in queries if rng.random() > 0.1}
    base = rng.random(n)
    shift = shift or {}
    moved = np.array([shift.get(segments.get(q), 0.0) for q in queries])
    per_query = pd.DataFrame({
        "base": base,
        "a": np.clip(base + moved + rng.normal(0, 0.05, n), 0, 1),
        "b": np.where(rng.random(n) < 0.3, base, rng.random(n)),  # many exact ties
    }, index=queries)
    return per_query, segments


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([64, 3000]))
def test_each_segment_is_the_comparison_of_its_queries_alone(seed, samples):
    per_query, segments = runs(seed, shift={"mobile": 0.2, "tv": -0.2})
    got = compare_segments(per_query, "base", segments, samples=samples, seed=seed)
    for name in sorted(set(segments.values())):
        alone = per_query[[segments.get(q) == name for q in per_query.index]]
        want = compare.paired_summary(alone, "base", samples=samples, seed=seed)
        for run in ("a", "b"):
            row = got.table.loc[(run, name)]
            assert row["queries"] == len(alone)
            assert row["mean"] == pytest.approx(want.at[run, "mean"], rel=1e-12)
            assert row["baseline_mean"] == pytest.approx(alone["base"].mean(), rel=1e-12)
            for column in ("delta", "rand_p", "ci_low", "ci_high"):
                assert row[column] == pytest.approx(want.at[run, column], rel=1e-12, abs=1e-15), column
            for column in ("wins", "losses", "ties"):
                assert row[column] == want.at[run, column]
    for run in ("a", "b"):
        rows = got.table.xs(run, level="run")
        want = holm_by_definition(rows["rand_p"].tolist())
        assert rows["p_holm"].tolist() == pytest.approx(want, rel=1e-12)
        for name, row in rows.iterrows():
            word = "no detectable difference" if row["p_holm"] >= 0.05 or row["delta"] == 0 else \
                "better" if row["delta"] > 0 else "worse"
            assert row["verdict"] == word, name
    assert got.unassigned == [q for q in per_query.index if q not in segments]


def test_weighted_segments_against_pandas_and_exact_p():
    per_query, segments = runs(3, n=24)
    rng = np.random.default_rng(9)
    weights = {q: float(rng.integers(0, 6)) for q in per_query.index}
    got = compare_segments(per_query, "base", segments, weights=weights, samples=1 << 14)
    frame = per_query.assign(segment=[segments.get(q) for q in per_query.index], w=list(weights.values()))
    frame = frame[frame["segment"].notna()]
    for (name, rows) in frame.groupby("segment"):
        d = rows["a"] - rows["base"]
        row = got.table.loc[("a", name)]
        if rows["w"].sum() == 0:
            assert np.isnan(row["delta"]) and np.isnan(row["rand_p"])
            continue
        assert row["delta"] == pytest.approx(np.average(d, weights=rows["w"]), rel=1e-12)
        assert row["mean"] == pytest.approx(np.average(rows["a"], weights=rows["w"]), rel=1e-12)
        assert row["exact"]  # at most 14 queries a segment here: every pattern
        # every sign pattern, with d and w as exact fractions of what the test was given
        fd = [Fraction(x) for x in d]
        fw = [Fraction(x) for x in rows["w"]]
        observed = abs(sum(a * b for a, b in zip(fw, fd, strict=True)))
        hits = sum(abs(sum(s * a * b for s, a, b in zip(signs, fw, fd, strict=True))) >= observed
                   for signs in itertools.product((1, -1), repeat=len(fd)))
        assert row["rand_p"] == pytest.approx(hits / 2 ** len(fd), abs=1e-12)


def test_where_the_run_won_and_where_it_lost():
    per_query, segments = runs(1, n=200, shift={"mobile": 0.3, "desktop": -0.3})
    got = compare_segments(per_query, "base", segments)
    verdicts = got.table.xs("a", level="run")["verdict"].to_dict()
    assert verdicts["mobile"] == "better" and verdicts["desktop"] == "worse"
    assert verdicts["tablet"] == verdicts["tv"] == "no detectable difference"
    text = got.where("a")
    mobile = got.table.loc[("a", "mobile")]
    assert text.startswith(f"a against base: better on mobile (Δ {mobile['delta']:+.4f}, "
                           f"p {mobile['p_holm']:.3g} Holm); worse on desktop (Δ -")
    assert text.endswith("; no detectable difference on tablet, tv")
    assert "Holm's correction over the 4 segments of each run" in got.methods()


def test_the_comparison_of_all_queries_is_compare_runs_own():
    per_query, _ = runs(4)
    rows = paired_rows(per_query, "base", {"all": np.ones(len(per_query), bool)})
    want = compare.paired_summary(per_query, "base")
    for run in ("a", "b"):
        for column in ("mean", "delta", "rand_p", "ci_low", "ci_high", "wins", "losses", "ties"):
            assert rows.at[(run, "all"), column] == pytest.approx(want.at[run, column], rel=1e-12, abs=1e-15)


def test_a_segment_of_one_query_and_an_unknown_baseline():
    per_query = pd.DataFrame({"base": [0.2, 0.5], "a": [0.4, 0.5]}, index=pd.Index(["x", "y"], name="query"))
    got = compare_segments(per_query, "base", {"x": "solo", "y": "tied"})
    assert got.table.loc[("a", "solo"), ["delta", "rand_p", "wins"]].tolist() == pytest.approx([0.2, 1.0, 1])
    tied = got.table.loc[("a", "tied"), ["ties", "rand_p", "verdict"]].tolist()
    assert tied == [1, 1.0, "no detectable difference"]
    with pytest.raises(ValueError, match="baseline 'nope' is not one of the runs"):
        compare_segments(per_query, "nope", {})


def test_verdict_rule():
    assert segment_compare.verdict(0.1, 0.01) == "better"
    assert segment_compare.verdict(-0.1, 0.049) == "worse"
    assert segment_compare.verdict(-0.1, 0.05) == "no detectable difference"
    assert segment_compare.verdict(0.0, 0.0) == "no detectable difference"
    assert segment_compare.verdict(float("nan"), 0.01) == "no detectable difference"
    assert segment_compare.verdict(0.1, float("nan")) == "no detectable difference"


# --- the whole comparison weighted (`Comparison.weighted_by`) -------------------------------------


def weighted_comparison(seed: int = 6):
    per_query, _ = runs(seed, n=40)
    scored = {name: pd.DataFrame({"ndcg": per_query[name], "n_retrieved": 1}) for name in per_query.columns}
    return compare.compare_scored(scored, baseline="base", samples=3000, seed=2)


def test_equal_weights_give_the_unweighted_figures_but_the_t_test():
    cmp = weighted_comparison()
    same = cmp.weighted_by(dict.fromkeys(cmp.per_query.index, 2.5), "w.tsv")
    for column in ("mean", "delta", "wins", "losses", "ties", "rand_p", "ci_low", "ci_high", "p_holm"):
        np.testing.assert_allclose(same.summary[column], cmp.summary[column], rtol=1e-12, err_msg=column)
    assert same.summary["t_p"].isna().all() and same.summary["effect_size"].isna().all()
    assert "weighted mean NDCG" in same.methods["mean"] and "(w.tsv)" in same.methods["mean"]
    assert same.baseline_mean == pytest.approx(cmp.baseline_mean, rel=1e-12)


def test_weights_follow_an_edit_and_a_skip():
    cmp = weighted_comparison()
    rng = np.random.default_rng(1)
    w = {q: float(rng.integers(0, 5)) for q in cmp.per_query.index}
    weighted = cmp.weighted_by(w)
    d = cmp.per_query["a"] - cmp.per_query["base"]
    weights = np.array([w[q] for q in cmp.per_query.index])
    assert weighted.summary.at["a", "delta"] == pytest.approx(np.average(d, weights=weights), rel=1e-12)
    base = np.average(cmp.per_query["base"], weights=weights)
    assert weighted.means["base"] == pytest.approx(base, rel=1e-12)
    edited = weighted.with_scores("a", {"q0": 1.0})
    d.loc["q0"] = 1.0 - cmp.per_query.at["q0", "base"]
    assert edited.summary.at["a", "delta"] == pytest.approx(np.average(d, weights=weights), rel=1e-12)
    answered = pd.DataFrame(True, index=cmp.per_query.index, columns=cmp.per_query.columns)
    answered.iloc[:5] = False
    skipped = weighted.skipping(answered)
    kept = (cmp.per_query["a"] - cmp.per_query["base"]).iloc[5:]
    assert skipped.summary.at["a", "delta"] == pytest.approx(np.average(kept, weights=weights[5:]), rel=1e-12)
    with pytest.raises(ValueError, match="no weight for query 'q0'"):
        cmp.weighted_by({})


def test_the_papers_table_letters_follow_the_weights():
    """`tables.better_than` of a weighted comparison: each run taken as the baseline, the others'
    weighted tests (as `weighted_by` of that comparison gives them); and weights that make a
    difference change the letters."""
    from ndcg_gui.core.reports.tables import better_than, comparison_table

    n = 30
    queries = pd.Index([f"q{i}" for i in range(n)], name="query")
    base = np.linspace(0.2, 0.8, n)
    heavy = np.arange(n) < 10  # run a wins by 0.2 on ten queries, loses by 0.05 on twenty
    per_query = pd.DataFrame({"base": base, "a": base + np.where(heavy, 0.2, -0.05)}, index=queries)
    scored = {name: pd.DataFrame({"ndcg": per_query[name], "n_retrieved": 1}) for name in per_query.columns}
    weights = {q: (50.0 if h else 1.0) for q, h in zip(queries, heavy, strict=True)}
    for w in (None, weights):
        cmp = compare.compare_scored(scored, baseline="base", samples=2000, seed=1)
        cmp = cmp.weighted_by(w) if w is not None else cmp
        want = {"base": [], "a": []}
        for first in ("base", "a"):
            one = compare.compare_scored(scored, baseline=first, samples=2000, seed=1)
            one = one.weighted_by(w) if w is not None else one
            for run, row in one.summary.iterrows():
                if row["delta"] > 0 and row["p_holm"] < 0.05:
                    want[run].append(first)
        assert better_than(cmp) == want
    plain = compare.compare_scored(scored, baseline="base", samples=2000, seed=1)
    assert better_than(plain) != better_than(plain.weighted_by(weights))
    assert "Weighted mean NDCG@10" in comparison_table(plain.weighted_by(weights), "md")
