"""Speed of segments and weights (issue 35): the means of every segment, a comparison in each, and
the command line's lines with `--segments`, on many queries in many segments.

    .venv/bin/python benchmarks/bench_segments.py            # 500,000 queries, 1,000 segments
    .venv/bin/python benchmarks/bench_segments.py --quick    # 5,000 queries, 100 segments

Each figure is the fastest of three rounds (wall time). The command line is timed as a whole
process, with and without `--segments`, on a TREC run of 5 documents a query (200,000 queries at
full size), so the difference is what the segments cost.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ndcg_gui.core.analysis.runs.segment_compare import compare_segments
from ndcg_gui.core.analysis.segments import segment_means


def fastest(work, rounds: int = 3) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    quick = parser.parse_args().quick
    n, segments, lines = (5_000, 100, 2_000) if quick else (500_000, 1_000, 200_000)
    rng = np.random.default_rng(0)
    queries = pd.Index([f"q{i}" for i in range(n)], name="query", dtype=object)
    result = pd.DataFrame({"ndcg": rng.random(n), "n_retrieved": rng.integers(0, 5, n),
                           "undefined": rng.random(n) < 0.05, "dcg": rng.random(n)}, index=queries)
    seg = {q: f"s{rng.integers(segments)}" for q in queries}
    weights = {q: float(rng.integers(1, 9)) for q in queries}
    per_query = pd.DataFrame({"a": rng.random(n), "b": rng.random(n)}, index=queries)
    print(f"{n:,} queries in {segments:,} segments")
    means = fastest(lambda: segment_means(result, seg, weights=weights, figures=("dcg",)))
    print(f"segment_means, weighted, one more figure: {means:.2f} s")
    compared = fastest(lambda: compare_segments(per_query, "a", seg, samples=200))
    print(f"compare_segments, 200 draws: {compared:.2f} s")
    with tempfile.TemporaryDirectory() as folder:
        run, qrels, seg_file = (Path(folder) / name for name in ("r.run", "r.qrels", "s.tsv"))
        run.write_text("".join(f"q{q} Q0 d{d} {d + 1} {5 - d} t\n" for q in range(lines) for d in range(5)))
        qrels.write_text("".join(f"q{q} 0 d{rng.integers(5)} 1\n" for q in range(lines)))
        seg_file.write_text("".join(f"q{q}\ts{rng.integers(segments)}\n" for q in range(lines)))
        command = [sys.executable, "-m", "ndcg_gui.cli", str(run), "--qrels", str(qrels), "--format", "tsv"]
        for extra in ([], ["--segments", str(seg_file)]):
            took = fastest(lambda e=extra: subprocess.run([*command, *e], check=True, capture_output=True))
            print(f"ndcg-inspect {lines:,} queries {' '.join(extra[:1]) or '(no segments)'}: {took:.2f} s")


if __name__ == "__main__":
    main()
