"""pytrec_eval (trec_eval's C code), each evaluation in a fresh child process.

pytrec-eval-terrier 0.5.11 keeps state between evaluators: with negative grades and the uncut `ndcg`
measure it now and then never returns (seen after 20 to 600 evaluations in one process, while the
same inputs replayed in a fresh process finish). So each call runs in a forked child with a time
limit, and a child that hangs is killed and the call tried again in a new one.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Iterable

_FORK = mp.get_context("fork")


def _evaluate(conn, qrels, measures, run) -> None:
    import pytrec_eval

    conn.send(pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run))
    conn.close()


def evaluate(qrels: dict, measures: Iterable[str], run: dict, timeout: float = 30.0,
             tries: int = 3) -> dict[str, dict[str, float]]:
    """`pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)`, in a child process."""
    for _ in range(tries):
        receive, send = _FORK.Pipe(duplex=False)
        child = _FORK.Process(target=_evaluate, args=(send, qrels, set(measures), run), daemon=True)
        child.start()
        send.close()
        if receive.poll(timeout):
            result = receive.recv()
            child.join()
            return result
        child.kill()
        child.join()
    raise TimeoutError(f"pytrec_eval did not return within {timeout} s, {tries} times")
