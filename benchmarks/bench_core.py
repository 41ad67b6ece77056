"""Speed of the scoring core against pytrec_eval, scikit-learn and a bare numpy floor.

    .venv/bin/python benchmarks/bench_core.py            # the full size: 5,000 queries x 1,000 docs
    .venv/bin/python benchmarks/bench_core.py --quick    # a small size, to check the script runs

Everything runs in one process on the same data; each figure is the best of a few repeats.
Goals (issue 2): `evaluate` at most 0.2x pytrec_eval's time on input grouped by query (as TREC
files are) and 0.5x on the same rows shuffled; `per_rank` within 4x of the numpy floor.
Our time includes joining run and qrels; pytrec_eval's excludes building its input dicts.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from collections.abc import Callable

import numpy as np
import pandas as pd

from ndcg_gui.core import evaluate, per_rank
from ndcg_gui.core.ndcg.presets import preset

CORPUS = 1_000_003  # a prime, so a per-query stride visits distinct documents


def fastest(contenders: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """The fastest wall-clock time of each contender, in seconds. Rounds interleave the
    contenders, so a busy spell on the machine hits them all alike; GC is off while timing."""
    best = dict.fromkeys(contenders, float("inf"))
    for _ in range(rounds):
        for label, fn in contenders.items():
            gc.collect()
            gc.disable()
            try:
                start = time.perf_counter()
                fn()
                best[label] = min(best[label], time.perf_counter() - start)
            finally:
                gc.enable()
    return best


def make_data(n_queries: int, n_docs: int, n_judged: int, seed: int = 0):
    """A TREC-like run (grouped by query, score descending, some tied scores), the same rows
    shuffled, and the qrels, as DataFrames with ids made the way a file reader makes them.

    Per query: n_docs retrieved documents; n_judged judged ones, 70% of them retrieved, the rest
    not retrieved; grades 0-3 with most judged documents non-relevant.
    """
    rng = np.random.default_rng(seed)
    n_in_run = int(n_judged * 0.7)
    n_out = n_judged - n_in_run
    # Document numbers: n_docs retrieved + n_out unretrieved per query, distinct within a query.
    j = np.tile(np.arange(n_docs + n_out), n_queries)
    q = np.repeat(np.arange(n_queries), n_docs + n_out)
    docno = (rng.integers(0, CORPUS, n_queries)[q] + j * rng.integers(1, CORPUS, n_queries)[q]) % CORPUS
    retrieved = j < n_docs
    run_q, run_doc = q[retrieved], docno[retrieved]
    score = np.round(rng.random(len(run_q)) * 100, 2)  # two decimals: tied scores happen
    order = np.lexsort((-score, run_q))
    run_q, run_doc, score = run_q[order], run_doc[order], score[order]

    pick = np.argsort(rng.random((n_queries, n_docs)), axis=1)[:, :n_in_run]
    in_rows = (np.arange(n_queries)[:, None] * n_docs + pick).ravel()
    qr_q = np.concatenate([run_q[in_rows], q[~retrieved]])
    qr_doc = np.concatenate([run_doc[in_rows], docno[~retrieved]])
    back = np.argsort(qr_q, kind="stable")  # qrels files are grouped by query too
    qr_q, qr_doc = qr_q[back], qr_doc[back]
    grade = rng.choice([0, 1, 2, 3], size=len(qr_q), p=[0.6, 0.2, 0.12, 0.08])

    shuffle = rng.permutation(len(run_q))
    run = as_read(run_q, run_doc, score=score)
    shuffled = as_read(run_q[shuffle], run_doc[shuffle], score=score[shuffle])
    qrels = as_read(qr_q, qr_doc, grade=grade)
    return run, shuffled, qrels


def as_read(query: np.ndarray, docno: np.ndarray, **numbers: np.ndarray) -> pd.DataFrame:
    """A frame as pandas' C parser gives it: one shared str per distinct query id, and a fresh
    str per doc id allocated in row order (object arrays, as ndcg_gui's readers return)."""
    labels = np.array([f"q{i:05d}" for i in range(int(query.max()) + 1)], dtype=object)
    docs = np.array([f"D{d:07d}" for d in docno.tolist()], dtype=object)
    return pd.DataFrame({"query": labels[query], "doc": docs, **numbers})


def pytrec_inputs(run: pd.DataFrame, qrels: pd.DataFrame):
    qrels_d: dict[str, dict[str, int]] = {}
    for q, d, g in zip(qrels["query"], qrels["doc"], qrels["grade"], strict=True):
        qrels_d.setdefault(q, {})[d] = int(g)
    run_d: dict[str, dict[str, float]] = {}
    for q, d, s in zip(run["query"], run["doc"], run["score"], strict=True):
        run_d.setdefault(q, {})[d] = float(s)
    return qrels_d, run_d


def sklearn_inputs(run: pd.DataFrame, qrels: pd.DataFrame, n_queries: int, n_docs: int):
    """Dense (queries x docs) true grades and scores, for sklearn's list-based ndcg_score."""
    grades = run.merge(qrels, on=["query", "doc"], how="left")["grade"].fillna(0).to_numpy()
    return grades.reshape(n_queries, n_docs), run["score"].to_numpy().reshape(n_queries, n_docs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, one round")
    parser.add_argument("--rounds", type=int, default=5, help="timing rounds (best one counts)")
    args = parser.parse_args(argv)
    n_queries, n_docs, n_judged, n_grades, rounds = 5_000, 1_000, 200, 1_000_000, args.rounds
    if args.quick:
        n_queries, n_docs, n_judged, n_grades, rounds = 200, 100, 30, 10_000, 1

    import pytrec_eval
    from sklearn.metrics import ndcg_score

    trec = preset("trec_eval")
    k = 10
    measure = f"ndcg_cut_{k}"
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {rounds} rounds")
    run, shuffled, qrels = make_data(n_queries, n_docs, n_judged)
    qrels_d, run_d = pytrec_inputs(run, qrels)
    y_true, y_score = sklearn_inputs(run, qrels, n_queries, n_docs)

    # Same numbers first, so we time like with like.
    ours = evaluate(run, qrels, trec.with_(k=k))
    theirs = pytrec_eval.RelevanceEvaluator(qrels_d, {measure}).evaluate(run_d)
    diff = max(abs(ours.loc[q, "ndcg"] - v[measure]) for q, v in theirs.items())
    assert diff < 1e-9, f"evaluate and pytrec_eval disagree by {diff}"
    assert np.allclose(evaluate(shuffled, qrels, trec.with_(k=k))["ndcg"], ours["ndcg"])

    evaluator = pytrec_eval.RelevanceEvaluator(qrels_d, {measure})
    print(
        f"NDCG@{k}: {n_queries:,} queries x {n_docs:,} docs = {len(run):,} run rows; "
        f"{len(qrels):,} qrels rows ({n_judged} judged per query, 30% of them not retrieved)"
    )
    ndcg_times = fastest(
        {
            "evaluate, run grouped by query (as TREC files)": lambda: evaluate(run, qrels, trec.with_(k=k)),
            "evaluate, the same rows shuffled": lambda: evaluate(shuffled, qrels, trec.with_(k=k)),
            "pytrec_eval RelevanceEvaluator(qrels).evaluate(run)": lambda: pytrec_eval.RelevanceEvaluator(
                qrels_d, {measure}
            ).evaluate(run_d),
            "pytrec_eval .evaluate(run) only": lambda: evaluator.evaluate(run_d),
            "sklearn ndcg_score (dense arrays, ties averaged)": lambda: ndcg_score(y_true, y_score, k=k),
            "sklearn ndcg_score (ignore_ties=True)": lambda: ndcg_score(
                y_true, y_score, k=k, ignore_ties=True
            ),
        },
        rounds,
    )
    for label, t in ndcg_times.items():
        print(f"  {label:<56} {t * 1000:9.1f} ms")

    grades = np.random.default_rng(2).integers(0, 4, n_grades).astype(float)

    def floor() -> np.ndarray:
        disc = 1.0 / np.log2(np.arange(2, len(grades) + 2))
        dcg = np.cumsum(grades * disc)
        idcg = np.cumsum(np.sort(grades)[::-1] * disc)
        return dcg / idcg

    assert np.allclose(per_rank(grades)["ndcg"].to_numpy(), floor())
    print(f"per rank, {n_grades:,} grades:")
    rank_times = fastest(
        {
            "per_rank (all nine columns, as a DataFrame)": lambda: per_rank(grades),
            "numpy floor: sort + cumsum (dcg, idcg, ndcg)": floor,
        },
        rounds,
    )
    for label, t in rank_times.items():
        print(f"  {label:<56} {t * 1000:9.1f} ms")

    grouped, shuffled_t, pytrec, *_ = ndcg_times.values()
    print("ratios (goal):")
    print(f"  evaluate grouped / pytrec_eval    {grouped / pytrec:5.2f}  (<= 0.2)")
    print(f"  evaluate shuffled / pytrec_eval   {shuffled_t / pytrec:5.2f}  (<= 0.5)")
    per_rank_t, floor_t = rank_times.values()
    print(f"  per_rank / numpy floor            {per_rank_t / floor_t:5.2f}  (<= 4)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
