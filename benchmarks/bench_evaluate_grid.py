"""`evaluate` against pytrec_eval on a grid of data shapes, the worst ratio printed last.

    .venv/bin/python benchmarks/bench_evaluate_grid.py             # the full grid, 48 shapes (10-25 minutes)
    .venv/bin/python benchmarks/bench_evaluate_grid.py --quick     # small sizes, to check it runs
    .venv/bin/python benchmarks/bench_evaluate_grid.py --scores few --sizes zipf   # part of it

Goal (issue 14): `evaluate` on shuffled rows at most 0.5x pytrec_eval on every shape.

The grid: scores (all distinct floats; two decimals, some ties; distinct integers n..1 per query;
few distinct values, integers 0-4; one score for all rows; heavy-tailed floats on a different scale
per query) x doc ids (unique per query, long ClueWeb-like ids with a shared prefix; or drawn for
every query from one shared 100,000-document corpus, MS MARCO-like numbers) x qrels (dense: every
retrieved document judged plus 10 % unretrieved; or only relevant documents, 1-40 per query) x
query sizes (even: 4,000 queries x 500 documents; or Zipf-like: 4,000 queries from 50,000
documents down to ~150, with 5 % of queries under 10).

What is timed: ours is `evaluate(run_df, qrels_df, PRESETS["trec_eval"].at(10))` (ties "trec")
on DataFrames as the readers give them (ids as pandas `str` columns, scores and
grades as numbers); theirs is `pytrec_eval.RelevanceEvaluator(qrels_dict, {"ndcg_cut_10"})
.evaluate(run_dict)` on the nested Python dicts its users build. Both inputs are built before the
timed region, and neither side's input building is timed. The two are timed in the same process,
alternating (pytrec_eval, ours on shuffled rows, ours on the TREC-ordered rows), GC off while
timing, and each ratio is the median of ours over the median of theirs. Before timing, every
query's NDCG@10 is checked equal (1e-9) to pytrec_eval's on both row orders.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import os
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np
import pandas as pd

from ndcg_gui.core import Measure, evaluate
from ndcg_gui.core.ndcg.presets import preset

SCORES = ("float", "2dec", "int", "few", "equal", "scaled")
DOCS = ("unique", "shared")
QRELS = ("dense", "relevant")
SIZES = ("even", "zipf")
K = 10
MEASURE = f"ndcg_cut_{K}"
SHARED_CORPUS = 100_003  # a prime: a per-query stride visits distinct documents


def query_sizes(kind: str, n_queries: int, per_query: int, biggest: int, rng) -> np.ndarray:
    if kind == "even":
        return np.full(n_queries, per_query)
    # Zipf-like: the r-th largest query has biggest / r^0.7 documents; 5 % have under 10.
    sizes = np.maximum(1, (biggest / np.arange(1, n_queries + 1) ** 0.7).astype(np.int64))
    small = rng.choice(n_queries - 1, n_queries // 20, replace=False) + 1
    sizes[small] = rng.integers(1, 10, len(small))
    return rng.permutation(sizes)


def make_scores(kind: str, q: np.ndarray, pos: np.ndarray, sizes: np.ndarray, rng) -> np.ndarray:
    n = len(q)
    if kind == "float":
        return rng.random(n)
    if kind == "2dec":
        return np.round(rng.random(n) * 100, 2)
    if kind == "int":  # n..1 within each query, in random order: integers, all distinct per query
        return sizes[q] - _random_rank(q, sizes, rng)
    if kind == "few":
        return rng.integers(0, 5, n)
    if kind == "equal":  # one score for every row (runs written with a constant score)
        return np.zeros(n)
    if kind == "scaled":  # heavy tail, each query on its own scale and offset
        scale = 10.0 ** rng.uniform(-3, 6, len(sizes))
        offset = rng.uniform(-1e6, 1e6, len(sizes))
        return offset[q] + scale[q] * rng.lognormal(0.0, 2.0, n)
    raise ValueError(kind)


def _random_rank(q: np.ndarray, sizes: np.ndarray, rng) -> np.ndarray:
    """A random permutation of 0..size-1 within each query (q ascending)."""
    order = np.lexsort((rng.random(len(q)), q))
    starts = np.cumsum(sizes) - sizes
    rank = np.empty(len(q), np.int64)
    rank[order] = np.arange(len(q)) - np.repeat(starts, sizes)
    return rank


def doc_names(kind: str, q: np.ndarray, pos: np.ndarray, n_queries: int, rng) -> np.ndarray:
    """Doc ids for (query, position) pairs, distinct within a query."""
    if kind == "shared":
        a = rng.integers(0, SHARED_CORPUS, n_queries)
        b = rng.integers(1, SHARED_CORPUS, n_queries)
        number = (a[q] + pos * b[q]) % SHARED_CORPUS
        return np.array([str(d + 1_000_000) for d in number.tolist()], dtype=object)
    # Unique per query: one global number per (query, position).
    number = rng.permutation(len(q))
    return np.array(
        [f"clueweb09-en{d // 10_000_000:04d}-{d // 100_000 % 100:02d}-{d % 100_000:05d}"
         for d in number.tolist()],
        dtype=object,
    )


def make_shape(scores: str, docs: str, qrels: str, sizes_kind: str, n_queries: int,
               per_query: int, biggest: int, seed: int = 0):
    """(shuffled run, TREC-ordered run, qrels) as DataFrames, and pytrec_eval's (qrels, run) dicts."""
    rng = np.random.default_rng(seed)
    sizes = query_sizes(sizes_kind, n_queries, per_query, biggest, rng)
    n_out = np.maximum(1, sizes // 10)  # judged but not retrieved (dense qrels)
    total = sizes + n_out
    q_all = np.repeat(np.arange(n_queries), total)
    pos_all = np.arange(len(q_all)) - np.repeat(np.cumsum(total) - total, total)
    doc_all = doc_names(docs, q_all, pos_all, n_queries, rng)
    retrieved = pos_all < sizes[q_all]
    q, doc = q_all[retrieved], doc_all[retrieved]
    score = make_scores(scores, q, pos_all[retrieved], sizes, rng)
    labels = np.array([f"{301 + i}" for i in range(n_queries)], dtype=object)

    if qrels == "dense":
        judged_q, judged_doc = q_all, doc_all
        grade = rng.choice([0, 1, 2, 3], size=len(q_all), p=[0.6, 0.2, 0.12, 0.08])
    else:
        n_rel = rng.integers(1, 41, n_queries)
        pick = rng.random(len(q_all)) < (n_rel / total)[q_all]
        judged_q, judged_doc = q_all[pick], doc_all[pick]
        grade = rng.choice([1, 2, 3], size=len(judged_q), p=[0.6, 0.25, 0.15])

    grouped = np.lexsort((-score, q))  # TREC files: by query, score descending
    shuffle = rng.permutation(len(q))
    run_grouped = frame(labels[q[grouped]], doc[grouped], score=score[grouped])
    run_shuffled = frame(labels[q[shuffle]], doc[shuffle], score=score[shuffle])
    qrels_df = frame(labels[judged_q], judged_doc, grade=grade)

    qrels_d: dict[str, dict[str, int]] = {}
    for a, b, g in zip(labels[judged_q].tolist(), judged_doc.tolist(), grade.tolist(), strict=True):
        qrels_d.setdefault(a, {})[b] = g
    run_d: dict[str, dict[str, float]] = {}
    for a, b, s in zip(labels[q].tolist(), doc.tolist(), score.astype(float).tolist(), strict=True):
        run_d.setdefault(a, {})[b] = s
    return run_shuffled, run_grouped, qrels_df, qrels_d, run_d


def frame(query: np.ndarray, doc: np.ndarray, **numbers: np.ndarray) -> pd.DataFrame:
    """A frame as the readers give it: ids as pandas `str` columns, fresh per row."""
    return pd.DataFrame({"query": pd.array(query, dtype="str"), "doc": pd.array(doc, dtype="str"),
                         **numbers})


def medians(contenders: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Median wall time of each contender; rounds alternate the contenders, GC off while timing."""
    times: dict[str, list[float]] = {label: [] for label in contenders}
    for _ in range(repeats):
        for label, fn in contenders.items():
            gc.collect()
            gc.disable()
            try:
                start = time.perf_counter()
                fn()
                times[label].append(time.perf_counter() - start)
            finally:
                gc.enable()
    return {label: statistics.median(t) for label, t in times.items()}


def check(ours: pd.DataFrame, theirs: dict[str, dict[str, float]], what: str) -> None:
    mine = ours["ndcg"]
    assert set(theirs) <= set(mine.index), what
    diff = max(abs(mine.loc[q] - v[MEASURE]) for q, v in theirs.items())
    assert diff < 1e-9, f"{what}: evaluate and pytrec_eval disagree by {diff}"


def measure(shape: tuple[str, ...], args, pytrec_eval, trec: Measure) -> tuple:
    """(shape, run rows, qrels rows, pytrec_eval s, shuffled s, grouped s, and the two ratios)."""
    shuffled, grouped, qrels, qrels_d, run_d = make_shape(
        *shape, args.queries, args.per_query, args.biggest)
    theirs = pytrec_eval.RelevanceEvaluator(qrels_d, {MEASURE}).evaluate(run_d)
    check(evaluate(shuffled, qrels, trec.with_(k=K, ties="trec")), theirs, f"{shape} shuffled")
    check(evaluate(grouped, qrels, trec.with_(k=K, ties="trec")), theirs, f"{shape} grouped")
    t = medians(
        {
            "pytrec": lambda: pytrec_eval.RelevanceEvaluator(qrels_d, {MEASURE}).evaluate(run_d),
            "shuffled": lambda: evaluate(shuffled, qrels, trec.with_(k=K, ties="trec")),
            "grouped": lambda: evaluate(grouped, qrels, trec.with_(k=K, ties="trec")),
        },
        args.repeats,
    )
    return (" ".join(f"{s:<8}" for s in shape), len(shuffled), len(qrels), t["pytrec"],
            t["shuffled"], t["grouped"], t["shuffled"] / t["pytrec"], t["grouped"] / t["pytrec"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, two repeats")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--queries", type=int, default=4_000)
    parser.add_argument("--per-query", type=int, default=500, help="documents per query (even)")
    parser.add_argument("--biggest", type=int, default=50_000, help="largest query (zipf)")
    for name, values in (("scores", SCORES), ("docs", DOCS), ("qrels", QRELS), ("sizes", SIZES)):
        parser.add_argument(f"--{name}", nargs="+", choices=values, default=list(values))
    args = parser.parse_args(argv)
    if args.quick:
        args.queries, args.per_query, args.biggest, args.repeats = 200, 100, 2_000, 2

    import pytrec_eval

    trec = preset("trec_eval")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"median of {args.repeats} alternating repeats; NDCG@{K}, trec_eval preset, ties='trec'")
    rows = []
    for shape in itertools.product(args.scores, args.docs, args.qrels, args.sizes):
        row = measure(shape, args, pytrec_eval, trec)
        rows.append(row)
        print(f"  {row[0]}  {row[1]:>9,} {row[2]:>9,}  {row[3] * 1000:7.0f} {row[4] * 1000:7.0f} "
              f"{row[5] * 1000:7.0f}  {row[6]:5.2f} {row[7]:5.2f}", flush=True)

    print("\nevery shape, worst shuffled ratio last (ms are medians; ratio = ours / pytrec_eval):")
    print(f"  {'scores   docs     qrels    sizes':<36}  {'run rows':>9} {'qrels':>9}  "
          f"{'pytrec':>7} {'shuffl':>7} {'grouped':>7}  {'shuf':>5} {'grp':>5}")
    for row in sorted(rows, key=lambda r: r[6]):
        print(f"  {row[0]}  {row[1]:>9,} {row[2]:>9,}  {row[3] * 1000:7.0f} {row[4] * 1000:7.0f} "
              f"{row[5] * 1000:7.0f}  {row[6]:5.2f} {row[7]:5.2f}")
    worst = max(rows, key=lambda r: r[6])
    print(f"worst shuffled ratio: {worst[6]:.2f} ({worst[0].split()}) (goal <= 0.5); "
          f"worst grouped: {max(r[7] for r in rows):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
