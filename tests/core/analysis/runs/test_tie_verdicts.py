"""Ties in run comparisons (issue 22.3): the verdict under the run's worst and best tie orders,
against brute force: every order of every tie of the run enumerated on small runs."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pandas as pd
import pytest

from ndcg_gui.core import evaluate
from ndcg_gui.core.analysis.runs.compare import compare_runs
from ndcg_gui.core.analysis.runs.tie_verdicts import tie_verdicts
from ndcg_gui.core.ndcg.measure import Measure

SAMPLES = 500


def small_runs(seed: int, queries: int = 3, docs: int = 4):
    rng = np.random.default_rng(seed)
    base_rows, run_rows, qrels_rows = [], [], []
    for q in range(queries):
        for d in range(docs):
            doc = f"d{d}"
            base_rows.append((f"q{q}", doc, float(rng.normal())))
            run_rows.append((f"q{q}", doc, float(rng.integers(0, 2))))  # scores 0 or 1: ties
            qrels_rows.append((f"q{q}", doc, float(rng.integers(0, 4))))
    frame = lambda rows, last: pd.DataFrame(rows, columns=["query", "doc", last])  # noqa: E731
    return frame(base_rows, "score"), frame(run_rows, "score"), frame(qrels_rows, "grade")


def every_order(run: pd.DataFrame, k: int, qrels: pd.DataFrame) -> dict[str, list[float]]:
    """Each query's NDCG@k under every order of its tied scores (distinct scores made for each)."""
    out = {}
    for query, rows in run.groupby("query"):
        rows = rows.sort_values("score", ascending=False, kind="stable")
        groups = [list(g["doc"]) for _, g in rows.groupby("score", sort=False)]
        values = set()
        for orders in itertools.product(*[itertools.permutations(g) for g in groups]):
            docs = [d for order in orders for d in order]
            ranked = pd.DataFrame({"query": query, "doc": docs, "score": -np.arange(len(docs), dtype=float)})
            values.add(float(evaluate(ranked, qrels[qrels["query"] == query], Measure(k=k))["ndcg"].iloc[0]))
        out[query] = sorted(values)
    return out


def realized(run: pd.DataFrame, k: int, qrels: pd.DataFrame, pick) -> pd.DataFrame:
    """The run with distinct scores in the order of each query that `pick` (min or max) chooses."""
    frames = []
    for query, rows in run.groupby("query"):
        rows = rows.sort_values("score", ascending=False, kind="stable")
        groups = [list(g["doc"]) for _, g in rows.groupby("score", sort=False)]
        best = None
        for orders in itertools.product(*[itertools.permutations(g) for g in groups]):
            docs = [d for order in orders for d in order]
            ranked = pd.DataFrame({"query": query, "doc": docs, "score": -np.arange(len(docs), dtype=float)})
            value = float(evaluate(ranked, qrels[qrels["query"] == query], Measure(k=k))["ndcg"].iloc[0])
            if best is None or (pick(value, best[0]) == value and value != best[0]):
                best = (value, ranked)
        frames.append(best[1])
    return pd.concat(frames, ignore_index=True)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("k", [2, 3])
def test_worst_and_best_orders_against_every_order(seed, k):
    base, run, qrels = small_runs(seed)
    runs = {"base": base, "run": run}
    cmp = compare_runs(runs, qrels, Measure(k=k), samples=SAMPLES, seed=1)
    verdict = tie_verdicts(cmp, runs, qrels)["run"]
    # Δ mean over every joint order of the run's ties: the least and greatest are the two orders'.
    base_ndcg = cmp.per_query["base"]
    orders = every_order(run, k, qrels)
    means = [np.mean([v - base_ndcg[q] for q, v in zip(orders, pick, strict=True)])
             for pick in itertools.product(*orders.values())]
    assert verdict.delta[0] == pytest.approx(min(means), abs=1e-12)
    assert verdict.delta[1] == pytest.approx(max(means), abs=1e-12)
    assert verdict.queries == sum(1 for v in orders.values() if v[-1] - v[0] > 1e-12)
    # The verdict at each: what compare_runs says of the run with its ties broken that way.
    for i, pick in enumerate((min, max)):
        explicit = {"base": base, "run": realized(run, k, qrels, pick)}
        other = compare_runs(explicit, qrels, Measure(k=k), samples=SAMPLES, seed=1)
        assert verdict.verdicts[i] == other.verdict("run")
        assert verdict.p[i] == pytest.approx(other.summary.at["run", "rand_p"])
    assert verdict.changes == (verdict.verdicts[0] != verdict.verdicts[1]
                               or np.sign(min(means)) != np.sign(max(means)))


def eight_queries(grades_a: list[float]):
    """Eight queries of two documents a, b: the baseline ranks b first, the run ties them."""
    queries = [f"q{i}" for i in range(8)]
    base = pd.DataFrame({"query": np.repeat(queries, 2), "doc": ["a", "b"] * 8, "score": [1.0, 2.0] * 8})
    qrels = pd.DataFrame({"query": np.repeat(queries, 2), "doc": ["a", "b"] * 8,
                          "grade": [g for a in grades_a for g in (a, 1.0 - a)]})
    return {"base": base, "run": base.assign(score=1.0)}, qrels


def test_a_verdict_that_the_tie_order_overturns():
    """a is relevant everywhere: the run's best order wins all 8 queries (exact p = 2/256), its
    worst order ties them all."""
    runs, qrels = eight_queries([1.0] * 8)
    cmp = compare_runs(runs, qrels, Measure(k=1), samples=SAMPLES, seed=0)
    verdict = tie_verdicts(cmp, runs, qrels)["run"]
    assert verdict.queries == 8 and verdict.delta == (0.0, 1.0)
    assert verdict.verdicts == ("no detectable difference", "better")
    assert verdict.p[1] == pytest.approx(2 / 256)
    assert verdict.changes and "the verdict changes" in verdict.text()


def test_the_sign_of_the_difference_changes_and_the_verdict_does_not():
    """Half the queries judge a relevant, half b: the worst order loses 4, the best wins 4."""
    runs, qrels = eight_queries([1.0] * 4 + [0.0] * 4)
    cmp = compare_runs(runs, qrels, Measure(k=1), samples=SAMPLES, seed=0)
    verdict = tie_verdicts(cmp, runs, qrels)["run"]
    assert verdict.delta == (-0.5, 0.5)
    assert verdict.verdicts == ("no detectable difference",) * 2  # (4 differences: p >= 2/16)
    assert verdict.changes


def test_no_tie_that_moves_a_figure_costs_no_statistics(monkeypatch):
    base, run, qrels = small_runs(3)
    run = run.assign(score=np.arange(len(run), dtype=float))  # no ties at all
    runs = {"base": base, "run": run}
    cmp = compare_runs(runs, qrels, Measure(k=2), samples=SAMPLES)
    import ndcg_gui.core.analysis.runs.tie_verdicts as tv

    monkeypatch.setattr(tv, "tie_range", lambda *a, **kw: pytest.fail("scored again without a tie"))
    verdict = tie_verdicts(cmp, runs, qrels)["run"]
    assert verdict.queries == 0 and not verdict.changes
    assert verdict.verdicts == (cmp.verdict("run"),) * 2
    assert "holds for any order of ties" in verdict.text()


def test_a_list_without_a_score_or_edited_out_of_score_order_keeps_its_order():
    """A loaded run (a Dataset) whose list of q0 gained a row without a score, and whose q1 was
    reordered against its scores: only q2's ties are free."""
    from ndcg_gui.core.lists.dataset import Dataset

    base, run, qrels = small_runs(4)
    run = run.sort_values(["query", "score"], ascending=[True, False], kind="stable")  # (as loaded)
    loaded = Dataset.of(run=run.assign(grade=np.nan), qrels=qrels)
    q0 = loaded.ranked_list("q0")
    q1 = loaded.ranked_list("q1")
    assert len(set(q1.scores)) > 1  # (reversed, its scores rise)
    lists = {"q0": dataclasses.replace(q0, docs=np.append(q0.docs, "new"), grades=np.append(q0.grades, 1.0),
                                       scores=np.append(q0.scores, np.nan)),
             "q1": dataclasses.replace(q1, docs=q1.docs[::-1], grades=q1.grades[::-1],
                                       scores=q1.scores[::-1])}
    edited = loaded.with_lists(lists)
    runs = {"base": base, "run": edited}
    cmp = compare_runs(runs, qrels, Measure(k=3), samples=SAMPLES)
    verdict = tie_verdicts(cmp, runs, qrels)["run"]
    q2 = every_order(run[run["query"] == "q2"], 3, qrels)["q2"]
    assert verdict.queries == (1 if q2[-1] - q2[0] > 1e-12 else 0)
