"""Speed of the "why is this list not ideal" core (issue 12) on one 1,000-document list at k = 10.

    .venv/bin/python benchmarks/bench_whatif.py            # 1,000 documents, best of 20 rounds
    .venv/bin/python benchmarks/bench_whatif.py --quick    # 100 documents, 3 rounds: check it runs

Goal: `move_effects` and `best_moves` each within 50 ms. The peer is the brute force the tests
check against (every moved list built and scored with `ndcg_at`), timed on the same list; the floor
is one `ndcg_at` of the list. A TREC-like list: grades 0-3, mostly 0, a third unjudged (NaN, scored
as 0 where a function needs plain grades), and a judged pool with 300 documents the list missed.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from bench_core import fastest

from ndcg_gui.core import (
    Measure,
    best_moves,
    compare_definitions,
    judge_first,
    move_effects,
    ndcg_at,
    unjudged_band,
    unjudged_bounds,
)
from ndcg_gui.core.ndcg.presets import preset


def brute_move_effects(grades: list[float], k: int, config: Measure, judged) -> None:
    for i in range(len(grades)):
        rest = grades[:i] + grades[i + 1 :]
        ndcg_at([grades[i], *rest], config.with_(k=k), judged)
        ndcg_at([*rest[:5], grades[i], *rest[5:]], config.with_(k=k), judged)  # stands in for the ideal rank


def brute_best_moves(grades: list[float], k: int, config: Measure, judged) -> None:
    """Only the moves that touch the first k ranks (the others change nothing)."""
    n = len(grades)
    for i in range(n):
        rest = grades[:i] + grades[i + 1 :]
        for j in range(n) if i < k else range(k):
            if j != i:
                ndcg_at([*rest[:j], grades[i], *rest[j:]], config.with_(k=k), judged)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 documents, 3 rounds")
    args = parser.parse_args(argv)
    n, rounds = (100, 3) if args.quick else (1000, 20)
    rng = np.random.default_rng(12)
    with_unjudged = rng.choice([0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, np.nan, np.nan, np.nan], n)
    grades = np.nan_to_num(with_unjudged)
    known = with_unjudged[~np.isnan(with_unjudged)]
    judged = np.concatenate([known, rng.choice([0.0, 0.0, 1.0, 2.0, 3.0], 300)])
    config, k = preset("trec_eval"), 10
    scores = np.round(np.sort(rng.random(n))[::-1], 2)  # two decimals: ties
    docs = [f"d{i}" for i in range(n)]
    print(f"{n} documents, k = {k}, trec_eval preset, {int(np.isnan(with_unjudged).sum())} unjudged")

    best = fastest(
        {
            "ndcg_at (floor)": lambda: ndcg_at(grades, config.with_(k=k), judged),
            "move_effects": lambda: move_effects(grades, config.with_(k=k), judged),
            "best_moves": lambda: best_moves(grades, config.with_(k=k), judged),
            "best_moves, k = None": lambda: best_moves(grades, config.with_(k=None), judged),
            "unjudged_bounds": lambda: unjudged_bounds(with_unjudged, config.with_(k=k), judged),
            "unjudged_bounds, k = None": lambda: unjudged_bounds(with_unjudged, config.with_(k=None), judged),
            "judge_first": lambda: judge_first(with_unjudged, config.with_(k=k), judged),
            "compare_definitions (scores, docs)": lambda: compare_definitions(
                grades, k, judged, config, scores=scores, docs=docs
            ),
        },
        rounds,
    )
    # One round each: the peers are slow, and so is the band at every rank.
    listed = grades.tolist()
    best |= fastest(
        {
            "brute force move_effects (2n ndcg_at)": lambda: brute_move_effects(listed, k, config, judged),
            "brute force best_moves (moves touching k)": lambda: brute_best_moves(listed, k, config, judged),
            "unjudged_band, every rank": lambda: unjudged_band(with_unjudged, config, judged),
        },
        1,
    )
    for label, seconds in best.items():
        print(f"{label:45s} {seconds * 1000:9.2f} ms")
    ratio_effects = best["move_effects"] / best["brute force move_effects (2n ndcg_at)"]
    ratio_moves = best["best_moves"] / best["brute force best_moves (moves touching k)"]
    print(f"move_effects / brute force: {ratio_effects:.4f}; best_moves / brute force: {ratio_moves:.5f}")
    goal = all(best[name] <= 0.050 for name in ("move_effects", "best_moves"))
    verdict = "met" if goal else "NOT met"
    print(f"goal (move_effects and best_moves each <= 50 ms at n = 1,000, k = 10): {verdict}")
    return 0


if __name__ == "__main__":
    start = time.perf_counter()
    code = main(sys.argv[1:])
    print(f"({time.perf_counter() - start:.1f} s)")
    sys.exit(code)
