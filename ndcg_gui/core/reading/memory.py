"""Handing freed memory back to the system between the steps of a load.

glibc's malloc keeps the pages of freed blocks for reuse, and after a large block is freed it
raises its own thresholds to that block's size (up to 32 MiB): once a file of a few MB to 32 MB
has been read and its bytes let go, the join's temporaries stay resident after they are freed,
on top of the dataset made next. `give_back` returns them (measured, bench_load.py: the 17 MB
qrels file read alone peaks 7 MB lower)."""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable
from functools import cache


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
