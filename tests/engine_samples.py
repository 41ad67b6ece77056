"""Small Parquet runs and qrels for the tests of the window over a dataset larger than memory
(`core.sql.engine_dataset`): what makes ranking and scoring differ at the edges — tied scores,
unjudged documents, judged documents not retrieved, queries without judgments, judged queries
without results."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd


def write_sample(folder: Path, seed: int = 0, queries: int = 12, docs: int = 15) -> tuple[Path, Path]:
    """`run.parquet` and `qrels.parquet` in `folder`: `queries` queries of up to `docs` documents,
    queries in no sorted order, scores rounded so that some tie."""
    rng = np.random.default_rng(seed)
    run_rows, qrels_rows = [], []
    names = [f"q{n}" for n in rng.permutation(np.arange(100, 100 + queries))]
    for i, q in enumerate(names):
        n = int(rng.integers(1, docs + 1))
        for d in rng.permutation(n):
            run_rows.append((q, f"d{d}", float(np.round(rng.random() * 4) / 4)))
        if i % 5 == 4:
            continue  # a query without judgments
        for d in range(n + 3):  # some judged, some not, some judged but not retrieved
            if rng.random() < 0.6:
                qrels_rows.append((q, f"d{d}", int(rng.integers(0, 4))))
    qrels_rows += [("q_none", "d1", 2), ("q_none", "d2", 1)]  # judged, no results
    run = pd.DataFrame(run_rows, columns=["query", "doc", "score"])
    qrels = pd.DataFrame(qrels_rows, columns=["query", "doc", "grade"])
    run_path, qrels_path = folder / "run.parquet", folder / "qrels.parquet"
    run.to_parquet(run_path, index=False)
    qrels.to_parquet(qrels_path, index=False)
    return run_path, qrels_path
