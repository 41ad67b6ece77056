"""Reading files: `load(path, qrels=None)` → `Dataset` (`dispatch.py`: which reader, then the join).

Sources (`source.py`, `compression.py`), one reader per format (`trec_text.py`, `csv_text.py`,
`columnar.py`) giving `Rows`, the join and the ranking order every path shares (`join.py`,
`order.py`, `ids.py`), the record of a text file's format kept for saving (`file_format.py`), and
the background loader process (`load_worker.py`, `packed.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pyarrow as pa

if TYPE_CHECKING:
    from ndcg_gui.core.reading.dispatch import load, sniff

__all__ = ["load", "sniff"]


def _return_freed_memory() -> None:
    """Arrow's memory pool set to give freed memory back at once: a load makes and drops hundreds
    of MB of Arrow arrays, and the default pools (mimalloc) keep them, which more than doubled a
    load's peak (bench_load.py). jemalloc with no decay delay costs no measurable time. (The decay
    set here reaches only arenas made later: `ndcg_gui/__init__.py` sets it for all of them, through
    `JE_ARROW_MALLOC_CONF`, before pyarrow is imported.)"""
    try:
        pa.jemalloc_set_decay_ms(0)
        pa.set_memory_pool(pa.jemalloc_memory_pool())
    except (NotImplementedError, pa.ArrowNotImplementedError, AttributeError):
        pass  # a pyarrow built without jemalloc (some platforms): its default pool


_return_freed_memory()


def __getattr__(name: str) -> object:
    # Imported when first used: `evaluate` and `Dataset` use the join and the order of this
    # package, and the loader uses them, so the loader is not imported with the package.
    if name in __all__:
        from ndcg_gui.core.reading import dispatch as module

        value = getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
