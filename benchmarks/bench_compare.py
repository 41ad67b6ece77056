"""Speed of comparing two runs (issue 13): per-query NDCG of both, then the paired statistics.

    .venv/bin/python benchmarks/bench_compare.py            # 2,000 queries x 1,000 docs, 10,000 draws
    .venv/bin/python benchmarks/bench_compare.py --quick    # 200 x 100, 1,000 draws: check it runs

Goal: two runs of 2,000 queries x 1,000 documents compared with 10,000 randomization and 10,000
bootstrap draws in at most 1 s after loading, i.e. `compare_runs` on two loaded runs, both
`evaluate` calls included. The figures without the scoring (`paired_summary` on the per-query
table) and of each statistic are printed too, beside scipy's own permutation_test and bootstrap
on the same differences (the peers: the same numbers, computed by scipy). scipy.stats is imported
before timing; its import, paid once per process, is measured in a fresh process.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tracemalloc

import numpy as np
import pandas as pd
from bench_core import fastest, make_data
from scipy import stats

from ndcg_gui.core import compare_runs, evaluate, paired_summary
from ndcg_gui.core.analysis.runs import significance as sig
from ndcg_gui.core.ndcg.presets import preset


def second_run(run: pd.DataFrame, seed: int = 1) -> pd.DataFrame:
    """The same documents rescored: old score plus noise (two decimals, so tied scores), grouped
    by query and ordered by score as a TREC file is. About a fifth of the queries keep their NDCG."""
    rng = np.random.default_rng(seed)
    score = np.round(run["score"].to_numpy() + rng.normal(0, 25, len(run)), 2)
    order = np.lexsort((-score, run["query"].to_numpy()))
    return pd.DataFrame({"query": run["query"].to_numpy()[order], "doc": run["doc"].to_numpy()[order],
                         "score": score[order]})


def import_time() -> float:
    code = ("import time, numpy, pandas; t = time.perf_counter(); import scipy.stats; "
            "print(time.perf_counter() - t)")
    return float(subprocess.check_output([sys.executable, "-c", code], text=True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, one round")
    parser.add_argument("--rounds", type=int, default=5, help="timing rounds (best one counts)")
    args = parser.parse_args(argv)
    n_queries, n_docs, n_judged, samples, rounds = 2_000, 1_000, 300, 10_000, args.rounds
    if args.quick:
        n_queries, n_docs, n_judged, samples, rounds = 200, 100, 30, 1_000, 1

    trec = preset("trec_eval")
    k, seed = 10, 0
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {rounds} rounds")
    run_a, _, qrels = make_data(n_queries, n_docs, n_judged)
    run_b = second_run(run_a)
    runs = {"a": run_a, "b": run_b}
    print(f"two runs of {n_queries:,} queries x {n_docs:,} docs ({len(run_a):,} rows each), "
          f"{len(qrels):,} qrels rows; NDCG@{k}; {samples:,} draws, seed {seed}")

    # Same numbers first: ours against scipy on the same differences.
    cmp = compare_runs(runs, qrels, trec.with_(k=k), samples=samples, seed=seed)
    row = cmp.summary.loc["b"]
    d = cmp.deltas["b"].to_numpy()
    boot = stats.bootstrap((d,), np.mean, n_resamples=samples, method="percentile", batch=500,
                           rng=np.random.default_rng(seed))
    ci = boot.confidence_interval
    assert np.allclose((row["ci_low"], row["ci_high"]), (ci.low, ci.high), rtol=1e-12, atol=1e-15)
    perm = stats.permutation_test((d,), np.mean, permutation_type="samples", vectorized=True,
                                  n_resamples=samples, batch=500, rng=np.random.default_rng(seed))
    t_ref = stats.ttest_rel(cmp.per_query["b"], cmp.per_query["a"]).pvalue
    assert np.isclose(row["t_p"], t_ref, rtol=1e-9, atol=0)
    print(f"  delta {row['delta']:+.4f}, W/L/T {row['wins']:.0f}/{row['losses']:.0f}/{row['ties']:.0f}, "
          f"t_p {row['t_p']:.3g}, rand_p {row['rand_p']:.3g} (scipy's own draws: {perm.pvalue:.3g}), "
          f"CI [{row['ci_low']:+.4f}, {row['ci_high']:+.4f}] (scipy's, to 1e-12)")

    per_query = cmp.per_query
    times = fastest(
        {
            "compare_runs: both evaluate calls + statistics": lambda: compare_runs(
                runs, qrels, trec.with_(k=k), samples=samples, seed=seed),
            "  of which evaluate(a) + evaluate(b)": lambda: [
                evaluate(r, qrels, trec.with_(k=k)) for r in runs.values()],
            "paired_summary (statistics only)": lambda: paired_summary(per_query, samples=samples, seed=seed),
            "  sign_flip_p": lambda: sig.sign_flip_p(d, samples, seed),
            "  bootstrap_ci": lambda: sig.bootstrap_ci(d, samples, seed),
            "  t_test_p": lambda: sig.t_test_p(d),
            "scipy permutation_test (samples, vectorized, batch 500)": lambda: stats.permutation_test(
                (d,), np.mean, permutation_type="samples", vectorized=True, n_resamples=samples,
                batch=500, rng=np.random.default_rng(seed)),
            "scipy bootstrap (percentile, batch 500)": lambda: stats.bootstrap(
                (d,), np.mean, n_resamples=samples, method="percentile", batch=500,
                rng=np.random.default_rng(seed)),
        },
        rounds,
    )
    for label, t in times.items():
        print(f"  {label:<58} {t * 1000:9.1f} ms")

    tracemalloc.start()
    paired_summary(per_query, samples=samples, seed=seed)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"  peak memory of paired_summary (tracemalloc)                {peak / 2**20:9.1f} MB")
    print(f"  import scipy.stats, fresh process (paid once)              {import_time() * 1000:9.1f} ms")
    total = times["compare_runs: both evaluate calls + statistics"]
    statistics_only = times["paired_summary (statistics only)"]
    print("goal:")
    print(f"  compare_runs {total:.2f} s, statistics alone {statistics_only:.2f} s  (<= 1 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
