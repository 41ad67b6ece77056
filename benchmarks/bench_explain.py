"""explain_difference over a 2,000-query run (100 documents each, 60 judged, grades 0..3, tied
scores) from trec_eval to sklearn and to xgboost: best of 5 wall times.

    /work/main/.venv/bin/python benchmarks/bench_explain.py
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from ndcg_gui.core import evaluate
from ndcg_gui.core.analysis.difference import explain_difference
from ndcg_gui.core.analysis.tie_range import tie_range
from ndcg_gui.core.ndcg.measure import Measure


def make(n_queries: int = 2000, n_docs: int = 100, seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    query = np.repeat([f"q{i}" for i in range(n_queries)], n_docs)
    doc = np.tile([f"d{j}" for j in range(n_docs)], n_queries)
    run = pd.DataFrame({"query": query, "doc": doc, "score": rng.integers(0, 50, len(query)).astype(float)})
    judged = rng.random(len(query)) < 0.6
    qrels = pd.DataFrame({"query": query[judged], "doc": doc[judged],
                          "grade": rng.integers(0, 4, judged.sum()).astype(float)})
    return run, qrels


def main() -> None:
    run, qrels = make()
    for a, b in (("trec_eval", "sklearn"), ("trec_eval", "xgboost")):
        times = []
        for _ in range(5):
            start = time.perf_counter()
            explain_difference(run, qrels, a, b, k=10)
            times.append(time.perf_counter() - start)
        print(f"{a} → {b}: {min(times) * 1000:.0f} ms (best of 5), {len(run):,} rows, 2,000 queries")
    for name, work in (("evaluate", lambda: evaluate(run, qrels, Measure(k=10))),
                       ("tie_range", lambda: tie_range(run, qrels, Measure(k=10)))):
        times = []
        for _ in range(5):
            start = time.perf_counter()
            work()
            times.append(time.perf_counter() - start)
        print(f"{name}: {min(times) * 1000:.0f} ms (best of 5)")


if __name__ == "__main__":
    main()
