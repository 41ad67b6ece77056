"""Handing freed memory back to the system between the steps of a load.

glibc's malloc keeps the pages of freed blocks for reuse, and after a large block is freed it
raises its own thresholds to that block's size (up to 32 MiB): once a file of a few MB to 32 MB
has been read and its bytes let go, the join's temporaries stay resident after they are freed,
on top of the dataset made next. `give_back` returns them (bench_load.py measures the lower
peak of a qrels file read alone)."""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable
from functools import cache

# Arrow's own jemalloc told to give freed memory back to the system at once. jemalloc reads this
# when pyarrow is imported; `pyarrow.jemalloc_set_decay_ms(0)` alone comes too late for the arena
# that takes every large allocation (its built-in decay kept much of a load's freed
# arrays resident: bench_load.py).
JEMALLOC_CONF = "dirty_decay_ms:0,muzzy_decay_ms:0"
_tuned = False


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return None


def give_back() -> None:
    """Return the pages of freed memory to the system (glibc; elsewhere nothing)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


def tune_process() -> None:
    """The program's own processes (ndcg-gui, ndcg-inspect, the loader process) call this first:
    a library never changes its host's allocator, so importing `ndcg_gui.core` leaves the
    environment and Arrow's memory pool as they were (a notebook keeps its own). A setting of the
    user's own is kept."""
    global _tuned
    os.environ.setdefault("JE_ARROW_MALLOC_CONF", JEMALLOC_CONF)
    # numpy asks the kernel for huge pages for every big array (madvise), and the kernel then
    # zeroes, and may first compact, 2 MB at a time on the array's first touch; the program's
    # arrays are mostly made once and read once or twice, so those faults cost more than the
    # TLB misses they save (measured in benchmarks/README.md, issue 36). numpy reads this when
    # it is imported.
    os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")
    _tuned = True
    if "pyarrow" in sys.modules:
        use_returning_pool()


def tuned() -> bool:
    return _tuned


def use_returning_pool() -> None:
    """Arrow's memory pool set to give freed memory back at once: a load makes and drops hundreds
    of MB of Arrow arrays, and the default pools (mimalloc) keep them, which more than doubled a
    load's peak (bench_load.py). jemalloc with no decay delay costs no measurable time."""
    import pyarrow as pa  # lazy: start-up (`tune_process` runs before pyarrow is imported)

    try:
        pa.jemalloc_set_decay_ms(0)
        pa.set_memory_pool(pa.jemalloc_memory_pool())
    except (NotImplementedError, pa.ArrowNotImplementedError, AttributeError):
        pass  # a pyarrow built without jemalloc (some platforms): its default pool
