"""compare_runs: per-query NDCG equal to `evaluate` for each run, which queries are compared
(`missing`), and every summary figure equal to scipy on the per-query differences."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from ndcg_gui.core import Comparison, Dataset, Measure, compare_runs, evaluate, paired_summary
from ndcg_gui.core.analysis.runs.compare import SUMMARY_COLUMNS
from ndcg_gui.core.ndcg.presets import preset

TREC = preset("trec_eval")


def make_qrels(n_queries: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = [(f"q{q}", f"d{d}", float(rng.choice([0, 0, 1, 2, 3])))
            for q in range(n_queries) for d in rng.choice(40, 15, replace=False)]
    return pd.DataFrame(rows, columns=["query", "doc", "grade"])


def make_run(n_queries: int, seed: int, skip: tuple[str, ...] = ()) -> pd.DataFrame:
    """20 of 40 documents per query, scores with one decimal (so tied scores)."""
    rng = np.random.default_rng(seed)
    rows = [(f"q{q}", f"d{d}", round(float(rng.random()), 1))
            for q in range(n_queries) if f"q{q}" not in skip for d in rng.choice(40, 20, replace=False)]
    return pd.DataFrame(rows, columns=["query", "doc", "score"])


QRELS = make_qrels(30)
RUNS = {"bm25": make_run(30, 1), "rerank": make_run(30, 2), "dense": make_run(30, 3, skip=("q4", "q7"))}


@pytest.fixture(scope="module")
def cmp() -> Comparison:
    return compare_runs(RUNS, QRELS, TREC.with_(k=10), samples=2000, seed=0)


# --- per-query NDCG ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "config", "ties"),
    [(10, TREC, "trec"), (5, preset("sklearn"), "average"), (None, Measure(), "file")],
)
def test_per_query_equals_evaluate_of_each_run(k, config, ties):
    cmp = compare_runs(RUNS, QRELS, config.with_(k=k, ties=ties), samples=100)
    assert list(cmp.per_query.columns) == list(RUNS)
    for name, run in RUNS.items():
        ref = evaluate(run, QRELS, config.with_(k=k, ties=ties))["ndcg"]
        pd.testing.assert_series_equal(cmp.per_query[name], ref, check_names=False)


def test_missing_zero_compares_every_judged_query(cmp):
    assert cmp.n_queries == cmp.judged == 30
    assert cmp.per_query.loc[["q4", "q7"], "dense"].tolist() == [0.0, 0.0]
    assert cmp.scored.to_dict() == {"bm25": 30, "rerank": 30, "dense": 28}


def test_missing_skip_compares_the_queries_every_run_answered():
    cmp = compare_runs(RUNS, QRELS, Measure(k=10, empty="skip"), samples=100)
    assert cmp.judged == 30 and cmp.n_queries == 28
    assert "q4" not in cmp.per_query.index and "q7" not in cmp.per_query.index
    for name, run in RUNS.items():
        ref = evaluate(run, QRELS, Measure(k=10, empty="skip"))["ndcg"]
        pd.testing.assert_series_equal(cmp.per_query[name], ref.loc[cmp.per_query.index], check_names=False)
    assert cmp.scored.to_dict() == {"bm25": 30, "rerank": 30, "dense": 28}
    assert "2 of 30 left out" in cmp.describe()


def test_runs_own_grades_without_qrels():
    # Without qrels, each run's `grade` column judges it; a query one run lacks scores 0 for it.
    graded = {n: r.merge(QRELS, on=["query", "doc"], how="left") for n, r in RUNS.items()}
    cmp = compare_runs(graded, None, Measure(k=10), samples=100)
    assert cmp.per_query.loc[["q4", "q7"], "dense"].tolist() == [0.0, 0.0]
    ref = evaluate(graded["bm25"], None, Measure(k=10))["ndcg"]
    pd.testing.assert_series_equal(cmp.per_query["bm25"], ref, check_names=False)


def test_loaded_datasets_are_scored_as_loaded():
    # A Dataset holds its lists in their loaded order (trec_eval's tie rule), so it scores as
    # the DataFrame does under ties="trec"; qrels may come as a Dataset too.
    datasets = {n: Dataset.of(r.assign(grade=np.nan)) for n, r in RUNS.items()}
    for n, r in RUNS.items():  # order as a reader would: score descending, ties by doc descending
        ordered = r.sort_values(["query", "score", "doc"], ascending=[True, False, False])
        datasets[n] = Dataset.of(ordered.assign(grade=np.nan).reset_index(drop=True))
    qrels_only = Dataset.of(QRELS.iloc[:0].assign(score=np.nan), QRELS)
    a = compare_runs(datasets, qrels_only, Measure(k=10), samples=100)
    b = compare_runs(RUNS, QRELS, Measure(k=10), samples=100)
    pd.testing.assert_frame_equal(a.per_query, b.per_query)
    own = compare_runs({n: d.with_qrels(QRELS) for n, d in datasets.items()}, None, Measure(k=10),
                       samples=100)
    pd.testing.assert_frame_equal(own.per_query, b.per_query)


# --- the summary -----------------------------------------------------------------------------------


def test_summary_figures_equal_scipy(cmp):
    assert list(cmp.summary.index) == ["rerank", "dense"]
    assert list(cmp.summary.columns) == SUMMARY_COLUMNS
    base = cmp.per_query["bm25"].to_numpy()
    for name in ["rerank", "dense"]:
        run = cmp.per_query[name].to_numpy()
        row = cmp.summary.loc[name]
        d = run - base
        assert row["mean"] == pytest.approx(run.mean(), abs=1e-12)
        assert row["delta"] == pytest.approx(run.mean() - base.mean(), abs=1e-12)
        assert (row["wins"], row["losses"], row["ties"]) == (
            int((d > 1e-9).sum()), int((d < -1e-9).sum()), int((abs(d) <= 1e-9).sum()))
        assert row["t_p"] == pytest.approx(stats.ttest_rel(run, base).pvalue, rel=1e-9)
        assert row["effect_size"] == pytest.approx(d.mean() / d.std(ddof=1), rel=1e-9)
        ci = stats.bootstrap((d,), np.mean, n_resamples=2000, method="percentile",
                             rng=np.random.default_rng(0)).confidence_interval
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((ci.low, ci.high), rel=1e-9, abs=1e-12)
        # Randomization: scipy's Monte Carlo sign flips of 20,000 draws agree to within chance.
        ref = stats.permutation_test((d,), np.mean, permutation_type="samples", vectorized=True,
                                     n_resamples=20_000, rng=np.random.default_rng(1)).pvalue
        assert abs(row["rand_p"] - ref) < 5 * math.sqrt(max(ref * (1 - ref), 1e-3) / 2000) + 1e-3
    # Holm over the two comparisons.
    p = cmp.summary["rand_p"].to_numpy()
    lo, hi = np.argsort(p)
    expected = np.empty(2)
    expected[lo] = min(1, 2 * p[lo])
    expected[hi] = max(expected[lo], p[hi])
    np.testing.assert_allclose(cmp.summary["p_holm"], expected)


def test_baseline_can_be_named(cmp):
    other = compare_runs(RUNS, QRELS, TREC.with_(k=10), baseline="rerank", samples=2000, seed=0)
    assert other.baseline == "rerank" and list(other.summary.index) == ["bm25", "dense"]
    assert other.baseline_mean == pytest.approx(cmp.summary.loc["rerank", "mean"])
    # Swapping baseline and run negates every difference: same p-values, mirrored figures.
    a, b = cmp.summary.loc["rerank"], other.summary.loc["bm25"]
    assert b["delta"] == pytest.approx(-a["delta"])
    assert (b["wins"], b["losses"], b["ties"]) == (a["losses"], a["wins"], a["ties"])
    assert b["t_p"] == pytest.approx(a["t_p"]) and b["rand_p"] == a["rand_p"]
    assert b["effect_size"] == pytest.approx(-a["effect_size"])


def test_seeded_figures_are_reproducible(cmp):
    again = compare_runs(RUNS, QRELS, TREC.with_(k=10), samples=2000, seed=0)
    pd.testing.assert_frame_equal(again.summary, cmp.summary)
    other = compare_runs(RUNS, QRELS, TREC.with_(k=10), samples=2000, seed=1)
    drawn = ["rand_p", "ci_low", "ci_high"]
    assert not other.summary[drawn].equals(cmp.summary[drawn])


def test_identical_runs_all_ties():
    cmp = compare_runs({"a": RUNS["bm25"], "b": RUNS["bm25"].copy()}, QRELS, samples=500)
    row = cmp.summary.loc["b"]
    assert (row["wins"], row["losses"], row["ties"]) == (0, 0, 30)
    assert row["delta"] == 0 and row["rand_p"] == 1 and row["p_holm"] == 1
    assert (row["ci_low"], row["ci_high"]) == (0, 0)
    assert math.isnan(row["t_p"]) and math.isnan(row["effect_size"])
    assert cmp.exact["b"]  # no non-zero difference to flip


def test_one_query():
    qrels = QRELS[QRELS["query"] == "q0"]
    cmp = compare_runs(RUNS, qrels, Measure(k=10), samples=500)
    assert cmp.n_queries == 1
    d = cmp.per_query["rerank"].iloc[0] - cmp.per_query["bm25"].iloc[0]
    assert d != 0
    row = cmp.summary.loc["rerank"]
    assert row["rand_p"] == 1 and cmp.exact["rerank"]  # +d and -d: both as extreme
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((d, d))
    assert math.isnan(row["t_p"]) and math.isnan(row["effect_size"])


def test_no_query_in_common():
    runs = {"a": make_run(5, 1, skip=("q0", "q1")), "b": make_run(5, 2, skip=("q2", "q3", "q4"))}
    cmp = compare_runs(runs, make_qrels(5), Measure(k=10, empty="skip"), samples=100)
    assert cmp.n_queries == 0 and cmp.judged == 5
    row = cmp.summary.loc["b"]
    assert (row["wins"], row["losses"], row["ties"]) == (0, 0, 0)
    assert all(math.isnan(row[c]) for c in ["mean", "delta", "t_p", "rand_p", "ci_low", "ci_high", "p_holm"])
    assert math.isnan(cmp.baseline_mean)
    assert "exact" not in cmp.describe()  # no test was run, so none was exact


def test_single_run_has_an_empty_summary():
    cmp = compare_runs({"only": RUNS["bm25"]}, QRELS, samples=100)
    assert cmp.summary.empty and list(cmp.summary.columns) == SUMMARY_COLUMNS
    assert cmp.baseline == "only"
    assert cmp.baseline_mean == pytest.approx(evaluate(RUNS["bm25"], QRELS, Measure(k=10))["ndcg"].mean())
    table = cmp.table()
    assert list(table.index) == ["only"] and table.loc["only", "scored"] == 30
    assert "over the 0 runs compared" in cmp.describe()


# --- what a command line and a window read ------------------------------------------------------------------


def test_table_lists_every_run_with_the_baseline_first(cmp):
    table = cmp.table()
    assert list(table.index) == ["bm25", "rerank", "dense"]
    assert table.loc["bm25", "mean"] == pytest.approx(cmp.baseline_mean)
    assert table.loc["bm25", ["delta", "t_p", "rand_p"]].isna().all()
    assert table["scored"].tolist() == [30, 30, 28]
    pd.testing.assert_frame_equal(table.loc[["rerank", "dense"], cmp.summary.columns], cmp.summary,
                                  check_dtype=False)


def test_describe_names_every_test_with_its_draws_and_seed(cmp):
    text = cmp.describe()
    for phrase in ["paired randomization test", "2,000 random sign flips", "default_rng(0)",
                   "Student's paired t-test", "95 % percentile bootstrap", "2,000 resamples",
                   "Holm's correction of the randomization p over the 2 runs compared",
                   "NDCG@10 over 30 queries",
                   "dense 28 of 30", "(1 + flips with |mean| >= |observed mean|) / (2,000 + 1)"]:
        assert phrase in text, phrase
    assert set(SUMMARY_COLUMNS) <= set(cmp.methods)
    small = compare_runs(RUNS, QRELS[QRELS["query"].isin(["q0", "q1", "q2"])], samples=100)
    assert "exact where there are at most 100 patterns" in small.describe()
    assert not any(code in text for code in ("rand_p", "t_p", "p_holm", "ci_low"))


def test_deltas_are_what_the_tests_see(cmp):
    deltas = cmp.deltas
    assert list(deltas.columns) == ["rerank", "dense"]
    np.testing.assert_allclose(deltas.mean(), cmp.summary["delta"])
    assert ((deltas > 0).sum() == cmp.summary["wins"]).all()


def test_with_scores_equals_comparing_the_edited_run(cmp):
    # The window edits one query of a run and rescores that query alone.
    edited = RUNS["rerank"].copy()
    rows = edited["query"] == "q3"
    edited.loc[rows, "score"] = -edited.loc[rows, "score"]  # reverse its list
    new = evaluate(edited[rows], QRELS[QRELS["query"] == "q3"], TREC.with_(k=10))["ndcg"]
    updated = cmp.with_scores("rerank", new)
    fresh = compare_runs({**RUNS, "rerank": edited}, QRELS, TREC.with_(k=10), samples=2000, seed=0)
    pd.testing.assert_frame_equal(updated.per_query, fresh.per_query)
    pd.testing.assert_frame_equal(updated.summary, fresh.summary)
    with pytest.raises(KeyError):
        cmp.with_scores("rerank", {"nope": 1.0})


def test_paired_summary_from_per_query_frame(cmp):
    pd.testing.assert_frame_equal(paired_summary(cmp.per_query, samples=2000, seed=0), cmp.summary)
    with pytest.raises(ValueError, match="missing values"):
        paired_summary(cmp.per_query.assign(dense=np.nan))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"runs": {}}, "at least one run"),
        ({"baseline": "nope"}, "baseline 'nope' is not one of the runs"),
        ({"samples": 0}, "samples must be"),
        ({"seed": -1}, "seed must be"),
        ({"confidence": 1.0}, "confidence must be"),
        ({"runs": {1: RUNS["bm25"]}}, "run names must be text"),
    ],
)
def test_bad_arguments_are_refused(kwargs, message):
    args = {"runs": RUNS, "qrels": QRELS, **kwargs}
    with pytest.raises(ValueError, match=message):
        compare_runs(**args)


# --- properties ---------------------------------------------------------------------------------------------


@st.composite
def ndcg_frames(draw):
    n = draw(st.integers(0, 25))
    runs = draw(st.integers(1, 4))
    values = st.sampled_from([0.0, 0.25, 0.5, 1 / 3, 0.6131471927654584, 1.0])
    data = {f"r{i}": draw(st.lists(values, min_size=n, max_size=n)) for i in range(runs)}
    return pd.DataFrame(data, index=pd.Index([f"q{i}" for i in range(n)], name="query"), dtype=float)


@settings(max_examples=150, deadline=None)
@given(per_query=ndcg_frames(), seed=st.integers(0, 3))
def test_summary_invariants(per_query, seed):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no stray RuntimeWarning from degenerate cases
        summary = paired_summary(per_query, samples=300, seed=seed)
    n = len(per_query)
    assert list(summary.index) == list(per_query.columns[1:])
    assert ((summary["wins"] + summary["losses"] + summary["ties"]) == n).all()
    for _, row in summary.iterrows():
        if n == 0:
            assert math.isnan(row["rand_p"])
            continue
        assert 0 < row["rand_p"] <= 1 and row["rand_p"] <= row["p_holm"] <= 1
        assert row["ci_low"] <= row["ci_high"]
        d_min = (per_query[row.name] - per_query.iloc[:, 0]).min()
        d_max = (per_query[row.name] - per_query.iloc[:, 0]).max()
        assert d_min - 1e-12 <= row["ci_low"] and row["ci_high"] <= d_max + 1e-12
        if row["wins"] == 0 and row["losses"] == 0:
            assert row["rand_p"] == 1 and row["delta"] == 0


def test_skipping_a_zero_comparison_is_the_skip_comparison():
    """The window works out "skip" from the "zero" comparison it holds (no scoring again)."""
    zero = compare_runs(RUNS, QRELS, Measure(k=10, empty="zero"), samples=200)
    answered = pd.DataFrame({name: zero.per_query.index.isin(run["query"]) for name, run in RUNS.items()},
                            index=zero.per_query.index)
    got, expected = zero.skipping(answered), compare_runs(RUNS, QRELS, Measure(k=10, empty="skip"),
                                                          samples=200)
    assert len(got.per_query) < len(zero.per_query)  # the dense run left queries out
    pd.testing.assert_frame_equal(got.per_query, expected.per_query)
    pd.testing.assert_frame_equal(got.summary, expected.summary)
    pd.testing.assert_series_equal(got.exact, expected.exact)
    assert got.describe() == expected.describe()


def test_the_summary_cells_are_the_comparisons_figures():
    from ndcg_gui.core.analysis.runs.run_diff import summary_cells

    two = compare_runs({"bm25": RUNS["bm25"], "rerank": RUNS["rerank"]}, QRELS, Measure(k=10), samples=200)
    columns, rows = summary_cells(two)
    headers = [h for h, _ in columns]
    assert headers == ["Run", "NDCG@10", "Δ mean", "W / T / L", "p", "p (t-test)", "95 % CI of Δ",
                       "Effect (d)", "Verdict"]
    assert all(how for _, how in columns)  # every header says how its figure was made
    codes = ("rand_p", "t_p", "p_holm", "ci_low", "ci_high", "effect_size")
    assert not any(code in how for _, how in columns for code in codes)  # words, not code names
    s = two.summary.loc["rerank"]
    assert rows[0] == ["bm25", f"{two.baseline_mean:.4f}", "", "", "", "", "", "", ""]
    verdict = ("no detectable difference" if s["rand_p"] >= 0.05
               else "better" if s["delta"] > 0 else "worse")
    assert rows[1] == ["rerank", f"{two.means['rerank']:.4f}", f"{s['delta']:+.4f}",
                       f"{int(s['wins'])} / {int(s['ties'])} / {int(s['losses'])}", f"{s['rand_p']:.3g}",
                       f"{s['t_p']:.3g}", f"[{s['ci_low']:+.4f}, {s['ci_high']:+.4f}]",
                       f"{s['effect_size']:+.2f}", verdict]
    three = compare_runs(RUNS, QRELS, Measure(k=10), samples=200)
    columns, rows = summary_cells(three)
    assert [h for h, _ in columns][5] == "p (Holm)" and len(rows) == 3
    assert rows[2][5] == f"{three.summary.at['dense', 'p_holm']:.3g}"


def _ranked(qrels: pd.DataFrame, best_first: bool) -> pd.DataFrame:
    """Every judged document retrieved, the relevant ones first (or last)."""
    sign = 1.0 if best_first else -1.0
    return qrels.assign(score=sign * qrels["grade"] + 0.001 * qrels.index.to_numpy() % 7)[
        ["query", "doc", "score"]]


def test_a_p_no_draw_reached_is_a_bound_and_the_verdict_is_plain_words():
    """Issue 19.9: a sampled p of 1/(draws + 1) is shown as '< 1/draws', never as a figure; each run
    gets a verdict at α = 0.05 (Holm's p with several runs)."""
    from ndcg_gui.core.analysis.runs.run_diff import delta_line, p_texts, summary_cells

    qrels = QRELS[QRELS["grade"] > 0].drop_duplicates(["query"]).reset_index(drop=True)
    qrels = pd.concat([qrels, QRELS[QRELS["grade"] == 0]]).reset_index(drop=True)
    good, bad = _ranked(qrels, True), _ranked(qrels, False)
    cmp = compare_runs({"mid": bad, "good": good, "same": bad.copy()}, qrels, Measure(k=1), samples=200,
                       seed=0)
    row = cmp.summary.loc["good"]
    assert row["rand_p"] == pytest.approx(1 / 201) and cmp.at_floor("good")
    assert p_texts(cmp, "good") == ("< 0.005", "< 0.01")  # Holm: 2 runs x 1/201
    assert cmp.verdict("good") == "better" and cmp.verdict("same") == "no detectable difference"
    back = compare_runs({"good": good, "bad": bad}, qrels, Measure(k=1), samples=200, seed=0)
    assert back.verdict("bad") == "worse" and p_texts(back, "bad")[0] == "< 0.005"
    _, rows = summary_cells(cmp)
    assert rows[1][4] == "< 0.005" and rows[1][-1] == "better"
    line = delta_line(cmp, "good")
    assert line.startswith("good − mid: better · ") and "p < 0.005 (" in line
    exact = compare_runs({"mid": bad, "good": good}, qrels[qrels["query"].isin(["q0", "q1", "q2"])],
                         Measure(k=1), samples=200)
    assert not exact.at_floor("good")  # enumerated: p = 2/8 (two-sided) is the p, not a bound
    assert p_texts(exact, "good")[0] == "0.25"
