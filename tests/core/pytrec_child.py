"""pytrec_eval (trec_eval's C code), each evaluation in a fresh child process.

pytrec-eval-terrier 0.5.11 keeps state between evaluators: with negative grades and the uncut `ndcg`
measure it now and then never returns (seen after 20 to 600 evaluations in one process, while the
same inputs replayed in a fresh process finish). So each call runs in a forked child, and a child
that hangs is ended and the call tried again in a new one.

What is waited for is the child's answer. A hang is told from a slow answer by the child's own CPU
time (`CPU_SECONDS`, the system's RLIMIT_CPU: the same on a busy machine as on an idle one, where a
fixed time on the clock failed a test whose child was only waiting for a core), and by a generous
time on the clock (`WALL_SECONDS`) for a hang that sleeps.
"""

from __future__ import annotations

import multiprocessing as mp
import resource
from collections.abc import Callable, Iterable
from typing import Any

_FORK = mp.get_context("fork")
CPU_SECONDS = 60  # of the child's own CPU: an evaluation of the tests' inputs takes well under one
WALL_SECONDS = 900.0  # on the clock, for a child that hangs without using the CPU


def _limited(conn, cpu_seconds: int, fn: Callable[..., Any], args: tuple) -> None:
    # Past the soft limit the system sends SIGXCPU (the child ends); the hard one a second later.
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    conn.send(fn(*args))
    conn.close()


def _evaluate(qrels, measures, run, options):
    import pytrec_eval

    return pytrec_eval.RelevanceEvaluator(qrels, measures, **options).evaluate(run)


def _in_child(fn: Callable[..., Any], args: tuple, cpu_seconds: int, wall_seconds: float, tries: int,
              what: str):
    for _ in range(tries):
        receive, send = _FORK.Pipe(duplex=False)
        child = _FORK.Process(target=_limited, args=(send, cpu_seconds, fn, args), daemon=True)
        child.start()
        send.close()
        try:
            if receive.poll(wall_seconds):
                return receive.recv()  # (EOFError: the child ended without answering, e.g. SIGXCPU)
        except EOFError:
            pass
        finally:
            child.kill()
            child.join()
            receive.close()
    raise TimeoutError(f"{what} did not answer within {cpu_seconds} s of its own CPU time or "
                       f"{wall_seconds:g} s on the clock, {tries} times")


def evaluate(qrels: dict, measures: Iterable[str], run: dict, cpu_seconds: int = CPU_SECONDS,
             wall_seconds: float = WALL_SECONDS, tries: int = 3, **options) -> dict[str, dict[str, float]]:
    """`pytrec_eval.RelevanceEvaluator(qrels, measures, **options).evaluate(run)`, in a child
    process (options such as judged_docs_only_flag=True)."""
    return _in_child(_evaluate, (qrels, set(measures), run, options), cpu_seconds, wall_seconds, tries,
                     "pytrec_eval")


def call(fn, *args, cpu_seconds: int = CPU_SECONDS, wall_seconds: float = WALL_SECONDS, tries: int = 3):
    """`fn(*args)` in a forked child (for tools that run trec_eval's C code in-process, such as
    ir_measures), with the limits and retries of `evaluate`."""
    return _in_child(fn, args, cpu_seconds, wall_seconds, tries, fn.__name__)
