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


def _evaluate(conn, qrels, measures, run, options) -> None:
    import pytrec_eval

    conn.send(pytrec_eval.RelevanceEvaluator(qrels, measures, **options).evaluate(run))
    conn.close()


def evaluate(qrels: dict, measures: Iterable[str], run: dict, timeout: float = 30.0,
             tries: int = 3, **options) -> dict[str, dict[str, float]]:
    """`pytrec_eval.RelevanceEvaluator(qrels, measures, **options).evaluate(run)`, in a child
    process (options such as judged_docs_only_flag=True)."""
    for _ in range(tries):
        receive, send = _FORK.Pipe(duplex=False)
        child = _FORK.Process(target=_evaluate, args=(send, qrels, set(measures), run, options), daemon=True)
        child.start()
        send.close()
        if receive.poll(timeout):
            result = receive.recv()
            child.join()
            return result
        child.kill()
        child.join()
    raise TimeoutError(f"pytrec_eval did not return within {timeout} s, {tries} times")


def _call(conn, fn, args) -> None:
    conn.send(fn(*args))
    conn.close()


def call(fn, *args, timeout: float = 60.0, tries: int = 3):
    """`fn(*args)` in a forked child (for tools that run trec_eval's C code in-process, such as
    ir_measures), with the time limit and retries of `evaluate`."""
    for _ in range(tries):
        receive, send = _FORK.Pipe(duplex=False)
        child = _FORK.Process(target=_call, args=(send, fn, args), daemon=True)
        child.start()
        send.close()
        if receive.poll(timeout):
            result = receive.recv()
            child.join()
            return result
        child.kill()
        child.join()
    raise TimeoutError(f"{fn.__name__} did not return within {timeout} s, {tries} times")
