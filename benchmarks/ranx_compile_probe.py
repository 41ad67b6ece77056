"""ranx's first call in a process: ndcg@3 and ndcg_burges@3 of two queries, timed in CPU seconds
(numba compiles ranx's functions on the first call of a fresh venv and caches them beside ranx):

    /usr/bin/time .venv/bin/python benchmarks/ranx_compile_probe.py
    NUMBA_DISABLE_JIT=1 .venv/bin/python benchmarks/ranx_compile_probe.py
"""

from __future__ import annotations

import time

start = time.process_time()
from ranx import Qrels, Run, evaluate  # noqa: E402  (its import is part of what is timed)

qrels = Qrels({"q1": {"a": 1, "b": 2}, "q2": {"c": 1}})
for metric in ("ndcg@3", "ndcg_burges@3"):
    run = Run({"q1": {"a": 0.5, "b": 0.2, "c": 0.1}, "q2": {"c": 1.0, "a": 0.3}})
    evaluate(qrels, run, metric, return_mean=False, make_comparable=True)
    print(metric, dict(run.scores[metric]))
print(f"CPU {time.process_time() - start:.1f} s")
